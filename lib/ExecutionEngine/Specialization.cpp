//===- Specialization.cpp - Types of a program's parameters for a run -----===//
//
// A run specializes the entry to its arguments (the seeds' dynamic
// recompilation): each parameter gets the exact sizes and rounded sparsity
// of its argument, which key the compile cache.
//
//===----------------------------------------------------------------------===//

#include "Specialization.h"

#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Dialect/AMLSTypes.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::amls;

/// Inputs of more cells than this have their sparsity estimated from a
/// sample of kSparsitySample cells: counting every input's non-zeros on
/// every run cost a caller calling a compiled function in a loop more than
/// the function itself (docs/performance.md, the L2SVM step from Python).
/// The sample is kSparsityRuns evenly spaced runs of consecutive cells:
/// cells taken one by one, far apart, touched a page each (0.35 ms per
/// call for the L2SVM step's three 4M-row inputs); runs touch a few.
constexpr int64_t kSparsitySampleAbove = int64_t(1) << 16;
constexpr int64_t kSparsitySample = int64_t(1) << 12;
constexpr int64_t kSparsityRuns = 64;

/// The fraction of `m`'s cells that are non-zero: exact for small inputs,
/// else from evenly spaced runs of cells. A sample without non-zeros is
/// checked on every cell, because sparsity 0 is exact knowledge the
/// optimizer acts on (a sum of an all-zero matrix folds to 0); any other
/// value is an estimate (docs/design-notes.md, "Sparsity is an estimate").
static double countSparsity(const MatrixValue &m) {
  int64_t rows = m.getRows(), cols = m.getCols();
  int64_t cells = rows * cols;
  if (m.isCSR()) {
    // Stored entries may be explicit zeros.
    const double *values = static_cast<const double *>(m.getRef().data);
    int64_t nonZeros = 0;
    for (int64_t k = 0; k < m.getNumStored(); ++k)
      nonZeros += values[k] != 0.0;
    return static_cast<double>(nonZeros) / cells;
  }
  // Row-major cells are read straight from memory (the sample of a large
  // input is most of a call's own cost besides the program).
  auto countRun = [](const auto *cells, int64_t count) {
    int64_t nonZeros = 0;
    for (int64_t i = 0; i < count; ++i)
      nonZeros += cells[i] != 0;
    return nonZeros;
  };
  bool rowMajor = m.isContiguousRowMajor();
  auto countCells = [&](int64_t first, int64_t count) {
    const void *data = m.getRef().data;
    if (rowMajor) {
      switch (m.getElementType()) {
      case AMLS_ELEMENT_F64:
        return countRun(static_cast<const double *>(data) + first, count);
      case AMLS_ELEMENT_F32:
        return countRun(static_cast<const float *>(data) + first, count);
      case AMLS_ELEMENT_I64:
        return countRun(static_cast<const int64_t *>(data) + first, count);
      }
    }
    int64_t nonZeros = 0;
    for (int64_t cell = first; cell < first + count; ++cell)
      nonZeros += m.cell(cell / cols, cell % cols) != 0.0;
    return nonZeros;
  };
  if (cells > kSparsitySampleAbove) {
    int64_t runLength = kSparsitySample / kSparsityRuns;
    int64_t spacing = cells / kSparsityRuns;
    int64_t sampled = 0;
    for (int64_t run = 0; run < kSparsityRuns; ++run)
      sampled +=
          countCells(run * spacing + (spacing - runLength) / 2, runLength);
    if (sampled > 0)
      return static_cast<double>(sampled) / kSparsitySample;
  }
  return static_cast<double>(countCells(0, cells)) / cells;
}

static double roundedSparsity(const MatrixValue &m) {
  if (m.getRows() * m.getCols() == 0)
    return 0.0;
  return roundSparsity(countSparsity(m));
}

/// The type a parameter gets for a concrete argument.
FailureOr<Type> mlir::amls::specializedType(Location loc, StringRef name,
                                            Type declared,
                                            const RuntimeValue &arg) {
  auto matrixType = dyn_cast<MatrixType>(declared);
  bool isMatrix = arg.isMatrix();
  if (static_cast<bool>(matrixType) != isMatrix)
    return emitError(loc, "parameter '")
           << name << "' is declared " << declared << " but was given a "
           << (isMatrix ? "matrix" : "scalar");
  if (!matrixType)
    return declared;
  const MatrixValue &matrix = arg.getMatrix();
  if (matrix.isCSR()) {
    // Taken as it is: the parameter is CSR, with the non-zeros' sparsity.
    if (!matrixType.getElementType().isF64())
      return emitError(loc, "parameter '")
             << name << "' is declared " << declared
             << " but was given a CSR matrix (CSR matrices are f64)";
    std::string problem = matrix.checkCSR();
    if (!problem.empty())
      return emitError(loc, "parameter '")
             << name << "' was given a CSR matrix whose " << problem;
    auto exact =
        MatrixType::get(matrix.getRows(), matrix.getCols(),
                        matrixType.getElementType(), roundedSparsity(matrix))
            .withFormat(MatrixFormat::CSR);
    if (!areCompatibleMatrixTypes(matrixType, exact))
      return emitError(loc, "parameter '")
             << name << "' is declared " << declared << " but the input is "
             << matrix.getRows() << "x" << matrix.getCols();
    return Type(exact);
  }
  if (!matrix.isDenseOnCPU())
    return emitError(loc, "parameter '")
           << name
           << "' was given a matrix that is not dense f64, f32 or i64 in CPU "
              "memory, nor CSR";
  // Files hold numbers; an integer matrix must get integers.
  if (matrixType.getElementType().isInteger(64)) {
    for (int64_t r = 0; r < matrix.getRows(); ++r) {
      for (int64_t c = 0; c < matrix.getCols(); ++c) {
        double value = matrix.cell(r, c);
        if (value == std::trunc(value) && std::abs(value) < 0x1p63)
          continue;
        std::string text;
        llvm::raw_string_ostream(text) << llvm::format("%.17g", value);
        return emitError(loc, "parameter '")
               << name << "' is declared " << declared << " but the input has "
               << text << " at row " << r + 1 << ", column " << c + 1
               << " (expected an integer)";
      }
    }
  }
  auto exact =
      MatrixType::get(matrix.getRows(), matrix.getCols(),
                      matrixType.getElementType(), roundedSparsity(matrix));
  if (!areCompatibleMatrixTypes(matrixType, exact))
    return emitError(loc, "parameter '")
           << name << "' is declared " << declared << " but the input is "
           << matrix.getRows() << "x" << matrix.getCols();
  return Type(exact);
}

/// The element type in which the entry takes a matrix parameter declared
/// `declared` (amls-wrap-entry's boundary): f32 and i64 matrices as they
/// are, every other as f64.
AmlsElementType mlir::amls::boundaryElementType(Type declared) {
  Type element = cast<MatrixType>(declared).getElementType();
  if (element.isF32())
    return AMLS_ELEMENT_F32;
  if (element.isInteger(64))
    return AMLS_ELEMENT_I64;
  return AMLS_ELEMENT_F64;
}

/// Whether the run passes `arg` for a parameter declared `declared` as the
/// row-major cells of its transpose: a column-major matrix in the element
/// type the entry takes it in (the specialized entry transposes it back).
bool mlir::amls::passesTransposed(Type declared, const RuntimeValue &arg) {
  return arg.isMatrix() && !arg.isRowBlock() && isa<MatrixType>(declared) &&
         arg.getMatrix().isContiguousColumnMajorOnly() &&
         arg.getMatrix().getElementType() == boundaryElementType(declared);
}

/// Matrices with fewer cells are compiled without their line offset: their
/// reductions are not split (CPUSchedule.cpp).
constexpr int64_t kMinCellsForLineOffset = 1 << 13;

/// The cells by which `arg`, passed in place, starts past a 64-byte
/// boundary (AMLSDialect::getLineOffsetAttrName()): NumPy's large arrays start
/// 16 bytes past one, and the full reductions over them then start their vector
/// loads on the next boundary instead of splitting each across two cache lines.
/// The first call's offsets are compiled for; later calls with the same types
/// reuse that code whatever their offsets. 0 for a matrix that is copied
/// (into an aligned buffer), small or CSR.
int64_t mlir::amls::lineOffsetOf(Type declared, const RuntimeValue &arg,
                                 bool copied) {
  if (copied || !arg.isMatrix() || !isa<MatrixType>(declared))
    return 0;
  const MatrixValue &matrix = arg.getMatrix();
  if (matrix.isCSR() || !matrix.isContiguousRowMajor() ||
      matrix.getElementType() != boundaryElementType(declared) ||
      matrix.getRows() * matrix.getCols() < kMinCellsForLineOffset)
    return 0;
  size_t cellBytes = matrix.getElementType() == AMLS_ELEMENT_F32 ? 4 : 8;
  auto address = reinterpret_cast<uintptr_t>(matrix.getRef().data);
  if (address % cellBytes != 0)
    return 0;
  return static_cast<int64_t>(address % 64 / cellBytes);
}
