//===- Dialect.cpp - AMLS C API: the amls dialect and its types -----------===//

#include "amls-c/Dialect.h"

#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSTypes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::amls;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(AMLS, amls, mlir::amls::AMLSDialect)

int64_t amlsMatrixTypeGetDynamicSize() { return ShapedType::kDynamic; }

/// The matrix type, or null for an element type other than f64, f32 and
/// i64, a negative size, a sparsity above 1 or an unknown format.
static MlirType getMatrixType(int64_t rows, int64_t cols, MlirType elementType,
                              double sparsity,
                              std::optional<AmlsMatrixFormat> format) {
  Type element = unwrap(elementType);
  auto isSize = [](int64_t size) {
    return size >= 0 || ShapedType::isDynamic(size);
  };
  if (!element ||
      !(element.isF64() || element.isF32() || element.isSignlessInteger(64)) ||
      !isSize(rows) || !isSize(cols) || sparsity > 1 ||
      (format && *format != AMLS_MATRIX_DENSE && *format != AMLS_MATRIX_CSR))
    return {nullptr};
  std::optional<double> estimate;
  if (sparsity >= 0)
    estimate = sparsity;
  std::optional<MatrixFormat> layout;
  if (format)
    layout = static_cast<MatrixFormat>(*format);
  return wrap(MatrixType::get(rows, cols, element, estimate, layout));
}

MlirType amlsMatrixTypeGetWithProperties(MlirContext, int64_t rows,
                                         int64_t cols, MlirType elementType,
                                         double sparsity,
                                         AmlsMatrixFormat format) {
  return getMatrixType(rows, cols, elementType, sparsity, format);
}

MlirType amlsMatrixTypeGet(MlirContext, int64_t rows, int64_t cols,
                           MlirType elementType) {
  return getMatrixType(rows, cols, elementType, -1, std::nullopt);
}

bool amlsTypeIsAMatrix(MlirType type) { return isa<MatrixType>(unwrap(type)); }

int64_t amlsMatrixTypeGetRows(MlirType type) {
  return cast<MatrixType>(unwrap(type)).getRows();
}

int64_t amlsMatrixTypeGetCols(MlirType type) {
  return cast<MatrixType>(unwrap(type)).getCols();
}

MlirType amlsMatrixTypeGetElementType(MlirType type) {
  return wrap(cast<MatrixType>(unwrap(type)).getElementType());
}

double amlsMatrixTypeGetSparsity(MlirType type) {
  return cast<MatrixType>(unwrap(type)).getSparsity().value_or(-1.0);
}

bool amlsMatrixTypeHasFormat(MlirType type) {
  return cast<MatrixType>(unwrap(type)).getFormat().has_value();
}

AmlsMatrixFormat amlsMatrixTypeGetFormat(MlirType type) {
  return static_cast<AmlsMatrixFormat>(
      cast<MatrixType>(unwrap(type)).getFormat().value_or(MatrixFormat::Dense));
}
