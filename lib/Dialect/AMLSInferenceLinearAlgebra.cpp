//===- AMLSInferenceLinearAlgebra.cpp - Rules of the LAPACK ops -----------===//
//
// Size rules of solve, inv, det, cholesky, qr, lu, eigen, svd and triangle:
// the results' sizes follow from the input's; the square inputs are
// checked where their sizes are known (the runtime checks the others).
// Results are floating point (an integer matrix gives f64 results); their
// sparsity is unknown. Shared helpers are in InferenceUtils.h.
//
//===----------------------------------------------------------------------===//

#include "InferenceUtils.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::inference;

namespace {

/// The element type of a factorization's results.
Type resultElementType(MatrixType input) {
  Type element = input.getElementType();
  return isa<FloatType>(element) ? element
                                 : Float64Type::get(input.getContext());
}

/// The size of a square input, or failure after reporting it is not.
FailureOr<int64_t> squareSize(const MatrixInferenceContext &ctx,
                              MatrixType input) {
  std::optional<int64_t> size = meetSize(input.getRows(), input.getCols());
  if (!size)
    return ctx.emitOpError()
           << "expects a square matrix, found " << shapeOf(input);
  return *size;
}

/// Each of `count` results an n x n matrix.
LogicalResult squareResults(const MatrixInferenceContext &ctx, unsigned count,
                            SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  FailureOr<int64_t> n = squareSize(ctx, input);
  if (failed(n))
    return failure();
  for (unsigned i = 0; i < count; ++i)
    inferred.push_back(matrix(*n, *n, resultElementType(input)));
  return success();
}

} // namespace

LogicalResult SolveOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType a = ctx.getMatrix(0), b = ctx.getMatrix(1);
  FailureOr<int64_t> n = squareSize(ctx, a);
  if (failed(n))
    return failure();
  std::optional<int64_t> rows = meetSize(*n, b.getRows());
  if (!rows)
    return ctx.emitOpError()
           << "the right-hand side " << shapeOf(b)
           << " needs one row per row of the " << shapeOf(a) << " matrix";
  inferred.push_back(matrix(*rows, b.getCols(), resultElementType(a)));
  return success();
}

LogicalResult
InverseOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                 SmallVectorImpl<Type> &inferred) {
  return squareResults(ctx, 1, inferred);
}

LogicalResult
DeterminantOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                     SmallVectorImpl<Type> &inferred) {
  if (failed(squareSize(ctx, ctx.getMatrix(0))))
    return failure();
  inferred.push_back(Float64Type::get(getContext()));
  return success();
}

LogicalResult
CholeskyOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                  SmallVectorImpl<Type> &inferred) {
  return squareResults(ctx, 1, inferred);
}

LogicalResult QROp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                          SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  MatrixType result =
      matrix(input.getRows(), input.getCols(), resultElementType(input));
  inferred.append({result, result});
  return success();
}

LogicalResult LUOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                          SmallVectorImpl<Type> &inferred) {
  return squareResults(ctx, 3, inferred);
}

LogicalResult EigenOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  FailureOr<int64_t> n = squareSize(ctx, input);
  if (failed(n))
    return failure();
  Type element = resultElementType(input);
  inferred.push_back(matrix(*n, 1, element));
  inferred.push_back(matrix(*n, *n, element));
  return success();
}

LogicalResult SVDOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                           SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  int64_t rows = input.getRows(), cols = input.getCols();
  // k = min(rows, cols): known where both are, or where one is 0.
  int64_t k = kUnknownSize;
  if (isKnownSize(rows) && isKnownSize(cols))
    k = std::min(rows, cols);
  else if (rows == 0 || cols == 0)
    k = 0;
  Type element = resultElementType(input);
  inferred.push_back(matrix(rows, k, element));
  inferred.push_back(matrix(k, k, element));
  inferred.push_back(matrix(cols, k, element));
  return success();
}

LogicalResult
TriangleOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                  SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  inferred.push_back(
      matrix(input.getRows(), input.getCols(), resultElementType(input)));
  return success();
}
