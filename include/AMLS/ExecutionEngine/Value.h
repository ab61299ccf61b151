//===- Value.h - Values crossing a session's boundary -----------*- C++ -*-===//
//
// A matrix passed to or returned from a compiled program is a descriptor of
// memory (AmlsMatrixRef in Runtime/ABI.h: format, element type, target,
// sizes, strides) plus who owns that memory. An input borrows the caller's
// buffer, which the compiled code reads in place; a result owns the buffer
// the compiled code allocated, freed with free() when the last value that
// shares it goes away, or released to the caller.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_EXECUTIONENGINE_VALUE_H
#define AMLS_EXECUTIONENGINE_VALUE_H

#include "AMLS/Runtime/ABI.h"
#include "AMLS/Runtime/MatrixIO.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::amls {
namespace runtime = ::amls::runtime;

/// The owners of the buffers one run returned, one per buffer: values
/// that share a buffer (one buffer returned twice, a CSR result whose row
/// offsets and column indices another CSR result reuses) share its owner,
/// so that it is freed once, after the last of them.
class ResultBuffers {
public:
  /// The owner of `allocation` (a block the compiled code allocated, freed
  /// to the runtime's pool unless released; null for an empty matrix).
  std::shared_ptr<void> owner(void *allocation);

private:
  std::vector<std::pair<void *, std::shared_ptr<void>>> owners;
};

/// A matrix: a descriptor and, for memory the value owns, its owners.
/// Copies share the memory (and its ownership); they never copy cells.
class MatrixValue {
public:
  /// An empty (0x0) dense matrix.
  MatrixValue();

  /// A view of `rows` x `cols` f64 cells, cell (r, c) at
  /// `cells[r * rowStride + c * colStride]`. Borrowed: the caller keeps the
  /// memory alive and unchanged while a run reads it.
  static MatrixValue borrowDense(const double *cells, int64_t rows,
                                 int64_t cols, int64_t rowStride,
                                 int64_t colStride);
  /// The same over cells of `elementType` (f64, f32 or i64).
  static MatrixValue borrowDense(const void *cells, AmlsElementType elementType,
                                 int64_t rows, int64_t cols, int64_t rowStride,
                                 int64_t colStride);
  /// A borrowed CSR matrix (AmlsMatrixRef's AMLS_MATRIX_CSR): rows + 1
  /// row offsets, and as many column indices and values as
  /// rowOffsets[rows]. Checked by checkCSR before a run takes it.
  static MatrixValue borrowCSR(int64_t rows, int64_t cols,
                               const int64_t *rowOffsets,
                               const int32_t *columnIndices,
                               const double *values);
  /// A borrowed view of `matrix`'s row-major cells.
  static MatrixValue borrow(const ::amls::runtime::Matrix &matrix);
  /// Takes over the memory of `ref`, a result of a run: `ref.allocation`
  /// (which may be null for an empty matrix), and for a CSR matrix also the
  /// allocations of its row offsets and column indices, owned through
  /// `buffers` (shared with the run's other results that hold them).
  static MatrixValue adopt(const AmlsMatrixRef &ref, ResultBuffers &buffers);

  const AmlsMatrixRef &getRef() const { return ref; }
  int64_t getRows() const { return ref.rows; }
  int64_t getCols() const { return ref.cols; }
  bool isDenseF64OnCPU() const;
  /// Dense f64, f32 or i64 in CPU memory: what a run takes.
  bool isDenseOnCPU() const;
  AmlsElementType getElementType() const { return ref.element_type; }
  /// Cell (r, c) of a dense matrix of any element type, as a double.
  double cell(int64_t r, int64_t c) const;
  bool isCSR() const { return ref.format == AMLS_MATRIX_CSR; }
  /// Number of stored entries of a CSR matrix.
  int64_t getNumStored() const { return ref.nnz; }
  /// What is wrong with a CSR matrix's arrays (offsets not starting at 0 or
  /// decreasing, a column index out of range or not ascending within its
  /// row), or "" when nothing is.
  std::string checkCSR() const;
  /// Dense row-major without gaps (what compiled code takes in place).
  bool isContiguousRowMajor() const;
  /// Dense column-major without gaps and not also row-major (more than one
  /// row and column): the row-major cells of the transpose.
  bool isContiguousColumnMajorOnly() const;
  /// True for a value that owns (or shares) its memory, false for a
  /// borrowed view.
  bool ownsMemory() const { return static_cast<bool>(owners[0]); }
  /// How many values share the memory of the values or cells (0 for a
  /// borrowed view).
  long getNumOwners() const { return owners[0].use_count(); }

  /// Cell (r, c) of a dense f64 matrix (a CSR matrix: toVector()).
  double at(int64_t r, int64_t c) const {
    return static_cast<const double *>(
        ref.data)[r * ref.strides[0] + c * ref.strides[1]];
  }
  /// The runtime's view of a dense f64 matrix (printing, writing files).
  ::amls::runtime::MatrixView getView() const;
  /// The cells in row-major order (a copy; for tests and small results).
  std::vector<double> toVector() const;

  /// Hands the memory to the caller, who frees `allocation` (and a CSR
  /// matrix's two other allocations) with amls::runtime::memory::release()
  /// (the runtime's pool, Memory.h): returns the descriptor and leaves this
  /// value empty. Nothing (and no change) when the memory is borrowed or
  /// any of its buffers is shared with another value.
  std::optional<AmlsMatrixRef> release();

private:
  AmlsMatrixRef ref;
  /// The owners of the values (or cells), and of a CSR matrix's row
  /// offsets and column indices.
  std::shared_ptr<void> owners[3];
};

/// A value passed to or returned from a compiled program: a matrix, a
/// float or an integer.
class RuntimeValue {
public:
  enum class Kind { Matrix, Float, Integer };

  static RuntimeValue ofMatrix(MatrixValue matrix);
  static RuntimeValue ofFloat(double value);
  static RuntimeValue ofInteger(int64_t value);

  Kind getKind() const { return kind; }
  bool isMatrix() const { return kind == Kind::Matrix; }
  const MatrixValue &getMatrix() const { return matrix; }
  MatrixValue &getMatrix() { return matrix; }
  double getFloat() const { return number; }
  int64_t getInteger() const { return integer; }
  /// A float or an integer as a double.
  double getNumber() const {
    return kind == Kind::Integer ? static_cast<double>(integer) : number;
  }
  /// A matrix that is this process's block of rows of a matrix split by
  /// rows over the processes that run the program together (target mpi):
  /// the program sees the whole matrix, each process passes its rows.
  bool isRowBlock() const { return rowBlock; }
  void setRowBlock(bool isRowBlock) { rowBlock = isRowBlock && isMatrix(); }

private:
  Kind kind = Kind::Float;
  bool rowBlock = false;
  MatrixValue matrix;
  double number = 0.0;
  int64_t integer = 0;
};

} // namespace mlir::amls

#endif // AMLS_EXECUTIONENGINE_VALUE_H
