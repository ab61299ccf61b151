//===- RewriteUtils.cpp - Building AMLS ops inside rewrites ---------------===//

#include "RewriteUtils.h"

#include "AMLS/CostModel/PropertyLattice.h"

using namespace mlir;
using namespace mlir::amls;

void rewrite::inferResultTypes(Operation *op) {
  SmallVector<Type> inferred;
  if (!isa<InferMatrixPropertiesInterface>(op) ||
      failed(amls::detail::inferFromOperands(op, /*emitDiagnostics=*/false,
                                             inferred)))
    return;
  for (auto [result, type] : llvm::zip(op->getResults(), inferred))
    if (isa<MatrixType>(result.getType()))
      result.setType(refineType(result.getType(), type));
}

MatrixType rewrite::unknownMatrix(Type like) {
  if (auto matrix = dyn_cast<MatrixType>(like))
    like = matrix.getElementType();
  return MatrixType::get(kUnknownSize, kUnknownSize, like);
}

Type rewrite::elementTypeOf(Value value) {
  if (auto matrix = dyn_cast<MatrixType>(value.getType()))
    return matrix.getElementType();
  return value.getType();
}

Value rewrite::scalarConstant(OpBuilder &builder, Location loc, Type type,
                              double value) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(builder, loc, floatType,
                                     builder.getFloatAttr(floatType, value));
  return arith::ConstantOp::create(
      builder, loc, type,
      builder.getIntegerAttr(type, static_cast<int64_t>(value)));
}

LogicalResult rewrite::replaceWithValue(PatternRewriter &rewriter,
                                        Operation *op, Value value) {
  Type type = op->getResult(0).getType();
  if (value.getType() != type) {
    bool matrices = isa<MatrixType>(type) && isa<MatrixType>(value.getType());
    if (!matrices || !CastOp::areCastCompatible(value.getType(), type))
      return rewriter.notifyMatchFailure(op, "the replacement's type differs");
    value = CastOp::create(rewriter, op->getLoc(), type, value);
  }
  rewriter.replaceOp(op, value);
  return success();
}
