//===- Value.cpp - AMLS C API: values passed to and from programs ---------===//

#include "amls-c/Value.h"
#include "CAPI.h"

#include "AMLS/Runtime/Memory.h"

#include <cstring>

using namespace mlir::amls;
using namespace mlir::amls::capi;

namespace {

template <typename T> double cellAt(const void *data, int64_t index) {
  return static_cast<double>(static_cast<const T *>(data)[index]);
}

} // namespace

AmlsValue amlsValueCreateDense(const void *data, AmlsElementType elementType,
                               int64_t rows, int64_t cols, int64_t rowStride,
                               int64_t colStride) {
  if (rows < 0 || cols < 0 || (!data && rows * cols > 0) ||
      (elementType != AMLS_ELEMENT_F64 && elementType != AMLS_ELEMENT_F32 &&
       elementType != AMLS_ELEMENT_I64))
    return {nullptr};
  auto *value = new CValue;
  bool unitStride = colStride == 1 || rowStride == 1;
  if (unitStride) {
    value->value = RuntimeValue::ofMatrix(MatrixValue::borrowDense(
        data, elementType, rows, cols, rowStride, colStride));
    return wrap(value);
  }
  // One conversion into row-major f64, which the value owns.
  value->cells.resize(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t index = r * rowStride + c * colStride;
      double cell =
          elementType == AMLS_ELEMENT_F64   ? cellAt<double>(data, index)
          : elementType == AMLS_ELEMENT_F32 ? cellAt<float>(data, index)
                                            : cellAt<int64_t>(data, index);
      value->cells[r * cols + c] = cell;
    }
  value->value = RuntimeValue::ofMatrix(
      MatrixValue::borrowDense(value->cells.data(), rows, cols, cols, 1));
  return wrap(value);
}

AmlsValue amlsValueCreateCSR(int64_t rows, int64_t cols,
                             const int64_t *rowOffsets,
                             const int32_t *columnIndices,
                             const double *values) {
  if (rows < 0 || cols < 0 || (rows > 0 && !rowOffsets))
    return {nullptr};
  int64_t stored = rows > 0 ? rowOffsets[rows] : 0;
  if (stored < 0 || (stored > 0 && (!columnIndices || !values)))
    return {nullptr};
  auto *value = new CValue;
  value->value = RuntimeValue::ofMatrix(
      MatrixValue::borrowCSR(rows, cols, rowOffsets, columnIndices, values));
  return wrap(value);
}

AmlsValue amlsValueCreateFloat(double number) {
  auto *value = new CValue;
  value->value = RuntimeValue::ofFloat(number);
  return wrap(value);
}

AmlsValue amlsValueCreateInteger(int64_t number) {
  auto *value = new CValue;
  value->value = RuntimeValue::ofInteger(number);
  return wrap(value);
}

bool amlsValueSetRowBlock(AmlsValue value, bool isRowBlock) {
  RuntimeValue &runtimeValue = unwrap(value)->value;
  if (!runtimeValue.isMatrix())
    return false;
  runtimeValue.setRowBlock(isRowBlock);
  return true;
}

void amlsValueDestroy(AmlsValue value) { delete unwrap(value); }

AmlsValueKind amlsValueGetKind(AmlsValue value) {
  switch (unwrap(value)->value.getKind()) {
  case RuntimeValue::Kind::Matrix:
    return AMLS_VALUE_KIND_MATRIX;
  case RuntimeValue::Kind::Float:
    return AMLS_VALUE_KIND_FLOAT;
  case RuntimeValue::Kind::Integer:
    return AMLS_VALUE_KIND_INTEGER;
  }
  return AMLS_VALUE_KIND_FLOAT;
}

double amlsValueGetFloat(AmlsValue value) {
  return unwrap(value)->value.getNumber();
}

int64_t amlsValueGetInteger(AmlsValue value) {
  const RuntimeValue &runtimeValue = unwrap(value)->value;
  return runtimeValue.getKind() == RuntimeValue::Kind::Integer
             ? runtimeValue.getInteger()
             : static_cast<int64_t>(runtimeValue.getNumber());
}

bool amlsValueGetMatrix(AmlsValue value, AmlsMatrixRef *matrix) {
  const RuntimeValue &runtimeValue = unwrap(value)->value;
  if (!runtimeValue.isMatrix() || !matrix)
    return false;
  *matrix = runtimeValue.getMatrix().getRef();
  return true;
}

bool amlsValueTakeMatrix(AmlsValue value, AmlsMatrixRef *matrix) {
  RuntimeValue &runtimeValue = unwrap(value)->value;
  if (!runtimeValue.isMatrix() || !matrix)
    return false;
  std::optional<AmlsMatrixRef> released = runtimeValue.getMatrix().release();
  if (!released)
    return false;
  *matrix = *released;
  return true;
}

void amlsMatrixMemoryFree(void *allocation) {
  if (allocation)
    ::amls::runtime::memory::release(allocation);
}
