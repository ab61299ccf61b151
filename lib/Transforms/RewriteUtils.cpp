//===- RewriteUtils.cpp - Building AMLS ops inside rewrites ---------------===//

#include "RewriteUtils.h"

#include "AMLS/Analysis/PropertyLattice.h"
#include "AMLS/Analysis/SparsityEstimator.h"

using namespace mlir;
using namespace mlir::amls;

void rewrite::inferResultTypes(Operation *op) {
  auto inferable = dyn_cast<InferMatrixPropertiesInterface>(op);
  if (!inferable)
    return;
  SmallVector<Attribute> constants(op->getNumOperands());
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    (void)matchPattern(operand, m_Constant(&constants[i]));
  SmallVector<Type> operandTypes(op->getOperandTypes());
  SparsityEstimator estimator;
  MatrixInferenceContext context(op, operandTypes, constants, estimator,
                                 /*emitDiagnostics=*/false);
  SmallVector<Type> inferred;
  if (failed(inferable.inferMatrixProperties(context, inferred)))
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

std::optional<double> rewrite::constantScalar(Value value) {
  Attribute attr;
  if (isMatrix(value) || !matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return static_cast<double>(intAttr.getValue().getSExtValue());
  return std::nullopt;
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
