//===- InferenceUtils.h - Shared by the AMLS inference rules ----*- C++ -*-===//
//
// Helpers of the InferMatrixPropertiesInterface implementations, which are
// split by op family over AMLSInference*.cpp: result types and the checks
// of operands that several families share.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_DIALECT_INFERENCEUTILS_H
#define AMLS_LIB_DIALECT_INFERENCEUTILS_H

#include "AMLS/CostModel/PropertyLattice.h"
#include "AMLS/Dialect/AMLSOps.h"

#include <optional>
#include <string>

namespace mlir::amls::inference {

/// "4x?" for diagnostics.
std::string shapeOf(MatrixType type);

inline MatrixType matrix(int64_t rows, int64_t cols, Type elementType,
                         std::optional<double> sparsity = std::nullopt) {
  return MatrixType::get(rows, cols, elementType, sparsity);
}

inline std::optional<int64_t> cellsOf(MatrixType type) {
  return type.getNumElements();
}

inline int64_t cellsOrUnknown(MatrixType type) {
  return multiplySizes(type.getRows(), type.getCols());
}

/// Reports a mismatch of two operands' element types.
LogicalResult checkSameElementType(const MatrixInferenceContext &ctx,
                                   Type expected, unsigned operand,
                                   StringRef what);

/// Reports a constant size that is negative.
LogicalResult checkSize(const MatrixInferenceContext &ctx,
                        std::optional<int64_t> size, StringRef what);

inline int64_t sizeOr(std::optional<int64_t> size) {
  return size ? *size : kUnknownSize;
}

} // namespace mlir::amls::inference

#endif // AMLS_LIB_DIALECT_INFERENCEUTILS_H
