//===- AMLSInferenceProductAndAggregate.cpp - Products and aggregates -----===//
//
// Size and sparsity rules of matrix products (matmul, tsmm, mmchain) and
// aggregates (agg, trace, cumagg). Shared helpers are in InferenceUtils.h.
//
//===----------------------------------------------------------------------===//

#include "InferenceUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::inference;

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                              SmallVectorImpl<Type> &inferred) {
  MatrixType lhs = ctx.getMatrix(0), rhs = ctx.getMatrix(1);
  std::optional<int64_t> inner = meetSize(lhs.getCols(), rhs.getRows());
  if (!inner)
    return ctx.emitOpError() << "inner dimensions differ: " << shapeOf(lhs)
                             << " %*% " << shapeOf(rhs);
  if (failed(
          checkSameElementType(ctx, lhs.getElementType(), 1, "right operand")))
    return failure();
  inferred.push_back(matrix(
      lhs.getRows(), rhs.getCols(), lhs.getElementType(),
      ctx.getEstimator().matmul(lhs.getSparsity(), rhs.getSparsity(), *inner)));
  return success();
}

LogicalResult TsmmOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  bool left = getSide() == TsmmSide::Left;
  int64_t size = left ? input.getCols() : input.getRows();
  int64_t inner = left ? input.getRows() : input.getCols();
  inferred.push_back(
      matrix(size, size, input.getElementType(),
             ctx.getEstimator().matmul(input.getSparsity(), input.getSparsity(),
                                       inner)));
  return success();
}

LogicalResult
MMChainOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                 SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0), vector = ctx.getMatrix(1);
  if (!meetSize(vector.getRows(), input.getCols()) ||
      !meetSize(vector.getCols(), 1))
    return ctx.emitOpError()
           << "vector must be " << shapeOf(input.withShape(input.getCols(), 1))
           << " for a " << shapeOf(input) << " matrix, found "
           << shapeOf(vector);
  const SparsityEstimator &estimator = ctx.getEstimator();
  std::optional<double> product = estimator.matmul(
      input.getSparsity(), vector.getSparsity(), input.getCols());
  if (ctx.getNumOperands() > 2) {
    MatrixType weights = ctx.getMatrix(2);
    if (!meetSize(weights.getRows(), input.getRows()) ||
        !meetSize(weights.getCols(), 1))
      return ctx.emitOpError()
             << "weights must be "
             << shapeOf(input.withShape(input.getRows(), 1)) << " for a "
             << shapeOf(input) << " matrix, found " << shapeOf(weights);
    product = estimator.intersectionOf(product, weights.getSparsity());
  }
  for (unsigned i = 1; i < ctx.getNumOperands(); ++i)
    if (failed(checkSameElementType(ctx, input.getElementType(), i,
                                    "vector operand")))
      return failure();
  inferred.push_back(
      matrix(input.getCols(), 1, input.getElementType(),
             estimator.matmul(input.getSparsity(), product, input.getRows())));
  return success();
}

//===----------------------------------------------------------------------===//
// Aggregates
//===----------------------------------------------------------------------===//

LogicalResult AggOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                           SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  AggKind kind = getKind();
  bool isIndex = kind == AggKind::MaxIndex || kind == AggKind::MinIndex;
  bool isStatistic =
      kind == AggKind::Mean || kind == AggKind::Var || kind == AggKind::Sd;
  Type elementType = input.getElementType();
  // Means and deviations of integers are fractional.
  if (isStatistic && isa<IntegerType>(elementType))
    elementType = Float64Type::get(ctx.getContext());

  if (getAxis() == AggAxis::All) {
    if (isIndex)
      return ctx.emitOpError() << "'" << stringifyAggKind(kind)
                               << "' needs a 'row' or 'col' axis";
    inferred.push_back(elementType);
    return success();
  }

  bool perRow = getAxis() == AggAxis::Row;
  int64_t length = perRow ? input.getCols() : input.getRows();
  std::optional<double> sparsity;
  if (isIndex)
    sparsity = 1.0; // 1-based positions are never zero.
  else if (kind != AggKind::Var && kind != AggKind::Sd && kind != AggKind::Prod)
    sparsity = ctx.getEstimator().aggregate(input.getSparsity(), length);
  inferred.push_back(perRow
                         ? matrix(input.getRows(), 1, elementType, sparsity)
                         : matrix(1, input.getCols(), elementType, sparsity));
  return success();
}

LogicalResult TraceOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  if (!meetSize(input.getRows(), input.getCols()))
    return ctx.emitOpError()
           << "expects a square matrix, found " << shapeOf(input);
  inferred.push_back(input.getElementType());
  return success();
}

LogicalResult CumAggOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                              SmallVectorImpl<Type> &inferred) {
  inferred.push_back(ctx.getMatrix(0).getLogicalType());
  return success();
}
