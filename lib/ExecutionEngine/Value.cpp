//===- Value.cpp - Values crossing an execution session's boundary --------===//

#include "AMLS/ExecutionEngine/Value.h"
#include "AMLS/Runtime/Memory.h"

#include <cassert>
#include <cstdlib>

using namespace mlir::amls;
namespace runtime = ::amls::runtime;

static AmlsMatrixRef denseF64(const double *cells, int64_t rows, int64_t cols,
                              int64_t rowStride, int64_t colStride) {
  AmlsMatrixRef ref;
  ref.format = AMLS_MATRIX_DENSE;
  ref.element_type = AMLS_ELEMENT_F64;
  ref.target = AMLS_TARGET_CPU;
  ref.rows = rows;
  ref.cols = cols;
  ref.data = const_cast<double *>(cells);
  ref.strides[0] = rowStride;
  ref.strides[1] = colStride;
  ref.allocation = nullptr;
  ref.row_offsets = nullptr;
  ref.column_indices = nullptr;
  ref.nnz = 0;
  ref.row_offsets_allocation = nullptr;
  ref.column_indices_allocation = nullptr;
  return ref;
}

MatrixValue::MatrixValue() : ref(denseF64(nullptr, 0, 0, 0, 1)) {}

MatrixValue MatrixValue::borrowDense(const double *cells, int64_t rows,
                                     int64_t cols, int64_t rowStride,
                                     int64_t colStride) {
  MatrixValue value;
  value.ref = denseF64(cells, rows, cols, rowStride, colStride);
  return value;
}

MatrixValue MatrixValue::borrowDense(const void *cells,
                                     AmlsElementType elementType, int64_t rows,
                                     int64_t cols, int64_t rowStride,
                                     int64_t colStride) {
  MatrixValue value;
  value.ref = denseF64(static_cast<const double *>(cells), rows, cols,
                       rowStride, colStride);
  value.ref.element_type = elementType;
  return value;
}

double MatrixValue::cell(int64_t r, int64_t c) const {
  int64_t index = r * ref.strides[0] + c * ref.strides[1];
  switch (ref.element_type) {
  case AMLS_ELEMENT_F32:
    return static_cast<const float *>(ref.data)[index];
  case AMLS_ELEMENT_I64:
    return static_cast<double>(static_cast<const int64_t *>(ref.data)[index]);
  default:
    return static_cast<const double *>(ref.data)[index];
  }
}

MatrixValue MatrixValue::borrowCSR(int64_t rows, int64_t cols,
                                   const int64_t *rowOffsets,
                                   const int32_t *columnIndices,
                                   const double *values) {
  MatrixValue value;
  value.ref = denseF64(values, rows, cols, 0, 0);
  value.ref.format = AMLS_MATRIX_CSR;
  value.ref.row_offsets = rowOffsets;
  value.ref.column_indices = columnIndices;
  value.ref.nnz = rows > 0 ? rowOffsets[rows] : 0;
  return value;
}

MatrixValue MatrixValue::borrow(const runtime::Matrix &matrix) {
  return borrowDense(matrix.data.data(), matrix.rows, matrix.cols, matrix.cols,
                     1);
}

namespace {
/// Returns a block the compiled code allocated to the runtime's pool
/// unless it was released to the caller.
struct FreeAllocation {
  bool released = false;
  void operator()(void *allocation) const {
    if (!released)
      runtime::memory::release(allocation);
  }
};
} // namespace

std::shared_ptr<void> ResultBuffers::owner(void *allocation) {
  if (allocation)
    for (auto &[known, owner] : owners)
      if (known == allocation)
        return owner;
  // With a deleter the owner is non-empty even for a null allocation.
  std::shared_ptr<void> owner(allocation, FreeAllocation());
  if (allocation)
    owners.emplace_back(allocation, owner);
  return owner;
}

MatrixValue MatrixValue::adopt(const AmlsMatrixRef &ref,
                               ResultBuffers &buffers) {
  MatrixValue value;
  value.ref = ref;
  value.owners[0] = buffers.owner(ref.allocation);
  if (ref.format == AMLS_MATRIX_CSR) {
    value.owners[1] = buffers.owner(ref.row_offsets_allocation);
    value.owners[2] = buffers.owner(ref.column_indices_allocation);
  }
  return value;
}

bool MatrixValue::isDenseOnCPU() const {
  return ref.format == AMLS_MATRIX_DENSE && ref.target == AMLS_TARGET_CPU &&
         (ref.element_type == AMLS_ELEMENT_F64 ||
          ref.element_type == AMLS_ELEMENT_F32 ||
          ref.element_type == AMLS_ELEMENT_I64);
}

bool MatrixValue::isDenseF64OnCPU() const {
  return ref.format == AMLS_MATRIX_DENSE &&
         ref.element_type == AMLS_ELEMENT_F64 && ref.target == AMLS_TARGET_CPU;
}

bool MatrixValue::isContiguousRowMajor() const {
  return ref.format == AMLS_MATRIX_DENSE &&
         (ref.cols <= 1 || ref.strides[1] == 1) &&
         (ref.rows <= 1 || ref.strides[0] == ref.cols);
}

bool MatrixValue::isContiguousColumnMajorOnly() const {
  return ref.format == AMLS_MATRIX_DENSE && ref.rows > 1 && ref.cols > 1 &&
         ref.strides[0] == 1 && ref.strides[1] == ref.rows;
}

std::string MatrixValue::checkCSR() const {
  if (!isCSR())
    return "";
  const int64_t *offsets = ref.row_offsets;
  if (ref.rows > 0 && offsets[0] != 0)
    return "row offsets start at " + std::to_string(offsets[0]) + ", not 0";
  for (int64_t r = 0; r < ref.rows; ++r) {
    if (offsets[r + 1] < offsets[r])
      return "row offsets decrease at row " + std::to_string(r + 1);
    int64_t previous = -1;
    for (int64_t k = offsets[r]; k < offsets[r + 1]; ++k) {
      int64_t column = ref.column_indices[k];
      if (column < 0 || column >= ref.cols)
        return "row " + std::to_string(r + 1) + " has column index " +
               std::to_string(column) + ", outside 0.." +
               std::to_string(ref.cols - 1);
      if (column <= previous)
        return "row " + std::to_string(r + 1) +
               "'s column indices are not ascending and unique";
      previous = column;
    }
  }
  return "";
}

runtime::MatrixView MatrixValue::getView() const {
  assert(isDenseF64OnCPU() && "a view of a dense f64 matrix only");
  return {static_cast<const double *>(ref.data), ref.rows, ref.cols,
          ref.strides[0], ref.strides[1]};
}

std::vector<double> MatrixValue::toVector() const {
  if (isCSR()) {
    std::vector<double> cells(ref.rows * ref.cols, 0.0);
    const double *values = static_cast<const double *>(ref.data);
    for (int64_t r = 0; r < ref.rows; ++r)
      for (int64_t k = ref.row_offsets[r]; k < ref.row_offsets[r + 1]; ++k)
        cells[r * ref.cols + ref.column_indices[k]] = values[k];
    return cells;
  }
  std::vector<double> cells;
  cells.reserve(ref.rows * ref.cols);
  for (int64_t r = 0; r < ref.rows; ++r)
    for (int64_t c = 0; c < ref.cols; ++c)
      cells.push_back(cell(r, c));
  return cells;
}

std::optional<AmlsMatrixRef> MatrixValue::release() {
  if (!owners[0])
    return std::nullopt;
  for (const std::shared_ptr<void> &owner : owners)
    if (owner && owner.use_count() != 1)
      return std::nullopt;
  AmlsMatrixRef released = ref;
  // Disarm the deleters: the caller frees the memory now.
  for (std::shared_ptr<void> &owner : owners)
    if (owner)
      std::get_deleter<FreeAllocation>(owner)->released = true;
  *this = MatrixValue();
  return released;
}

RuntimeValue RuntimeValue::ofMatrix(MatrixValue matrix) {
  RuntimeValue value;
  value.kind = Kind::Matrix;
  value.matrix = std::move(matrix);
  return value;
}

RuntimeValue RuntimeValue::ofFloat(double number) {
  RuntimeValue value;
  value.kind = Kind::Float;
  value.number = number;
  return value;
}

RuntimeValue RuntimeValue::ofInteger(int64_t integer) {
  RuntimeValue value;
  value.kind = Kind::Integer;
  value.integer = integer;
  value.number = static_cast<double>(integer);
  return value;
}
