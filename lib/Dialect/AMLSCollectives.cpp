//===- AMLSCollectives.cpp - Collectives of a distributed run -------------===//
//
// Inference rules and verifiers of amls.all_reduce, amls.all_gather_rows,
// amls.local_rows and amls.merge_ranks (AMLSCollectiveOps.td). A block of rows has a row count
// that differs between ranks, so it is `?` in the IR; the columns, element
// type and sparsity estimate are the whole matrix's.
//
//===----------------------------------------------------------------------===//

#include "InferenceUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::inference;

LogicalResult AllReduceOp::verify() {
  AggKind kind = getKind();
  if (kind != AggKind::Sum && kind != AggKind::Min && kind != AggKind::Max)
    return emitOpError("expected a sum, min or max over the ranks, found '")
           << stringifyAggKind(kind) << "'";
  return success();
}

LogicalResult
AllReduceOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                   SmallVectorImpl<Type> &inferred) {
  inferred.push_back(ctx.getOperandType(0));
  return success();
}

/// The block-of-rows type of a matrix of `type`: its row count differs
/// between ranks.
static MatrixType blockOfRows(MatrixType type) {
  return matrix(ShapedType::kDynamic, type.getCols(), type.getElementType(),
                type.getSparsity());
}

/// Whether two matrix types agree in columns and element type, as a block
/// of rows and the whole matrix do.
static LogicalResult verifySameColumns(Operation *op, MatrixType input,
                                       MatrixType result) {
  if (input.getElementType() != result.getElementType())
    return op->emitOpError("expected the result's element type ")
           << input.getElementType() << ", found " << result.getElementType();
  if (input.hasStaticCols() && result.hasStaticCols() &&
      input.getCols() != result.getCols())
    return op->emitOpError("expected ")
           << input.getCols() << " columns in the result, found "
           << result.getCols();
  return success();
}

LogicalResult AllGatherRowsOp::verify() {
  return verifySameColumns(*this, getInput().getType(), getResult().getType());
}

LogicalResult
AllGatherRowsOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                       SmallVectorImpl<Type> &inferred) {
  // The whole matrix's row count is the planner's (the result type), not
  // the block's.
  inferred.push_back(blockOfRows(ctx.getMatrix(0)));
  return success();
}

LogicalResult LocalRowsOp::verify() {
  if (getResult().getType().hasStaticRows())
    return emitOpError("expected a block of rows with a row count that "
                       "differs between ranks ('?'), found ")
           << getResult().getType().getRows() << " rows";
  return verifySameColumns(*this, getInput().getType(), getResult().getType());
}

LogicalResult
LocalRowsOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                   SmallVectorImpl<Type> &inferred) {
  inferred.push_back(blockOfRows(ctx.getMatrix(0)));
  return success();
}

LogicalResult
MergeRanksOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                    SmallVectorImpl<Type> &inferred) {
  inferred.push_back(ctx.getOperandType(0));
  return success();
}
