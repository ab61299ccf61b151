//===- RewriteUtils.h - Building AMLS ops inside rewrites -------*- C++ -*-===//
//
// Rewrites build new AMLS ops whose result types follow from their operands:
// `build` creates an op with unknown sizes and lets the op's inference rule
// refine them, so that a rewrite never writes a type by hand.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_TRANSFORMS_REWRITEUTILS_H
#define AMLS_LIB_TRANSFORMS_REWRITEUTILS_H

#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amls::rewrite {

/// Refines the matrix result types of `op` to what its inference rule
/// derives from the operands (constants included).
void inferResultTypes(Operation *op);

/// A matrix of unknown sizes with the element type of `like` (a matrix or a
/// scalar type).
MatrixType unknownMatrix(Type like);

/// Creates `OpTy` with a placeholder matrix result and inferred types.
template <typename OpTy, typename... Args>
Value build(PatternRewriter &rewriter, Location loc, Type elementType,
            Args &&...args) {
  auto op = OpTy::create(rewriter, loc, unknownMatrix(elementType),
                         std::forward<Args>(args)...);
  inferResultTypes(op);
  return op->getResult(0);
}

/// The element type of a matrix, or the type of a scalar.
Type elementTypeOf(Value value);

/// The value of a constant scalar, if it is one.
inline std::optional<double> constantScalar(Value value) {
  return getConstantScalar(value);
}

/// A scalar constant of `type` (float or integer).
Value scalarConstant(OpBuilder &builder, Location loc, Type type, double value);

/// Replaces `op`'s single result by `value`, through an `amls.cast` where
/// the types differ; fails (without changing anything) where the value
/// cannot stand for the result.
LogicalResult replaceWithValue(PatternRewriter &rewriter, Operation *op,
                               Value value);

inline bool isMatrix(Value value) { return isa<MatrixType>(value.getType()); }

/// The known sizes of a matrix value (kUnknownSize where unknown).
inline int64_t rowsOf(Value value) {
  return cast<MatrixType>(value.getType()).getRows();
}
inline int64_t colsOf(Value value) {
  return cast<MatrixType>(value.getType()).getCols();
}

} // namespace mlir::amls::rewrite

#endif // AMLS_LIB_TRANSFORMS_REWRITEUTILS_H
