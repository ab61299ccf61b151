//===- AMLSInferenceReorganisation.cpp - Rules of reorganising ops --------===//
//
// Size and sparsity rules of the ops that move, select or count cells:
// transpose, reshape, diag, rev, cbind/rbind, slices, remove_empty, replace,
// table and order. Shared helpers are in InferenceUtils.h.
//
//===----------------------------------------------------------------------===//

#include "InferenceUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <algorithm>
#include <string>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::inference;

//===----------------------------------------------------------------------===//
// Reorganisation
//===----------------------------------------------------------------------===//

LogicalResult
TransposeOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                   SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  inferred.push_back(matrix(input.getCols(), input.getRows(),
                            input.getElementType(), input.getSparsity()));
  return success();
}

LogicalResult
ReshapeOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                 SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  std::optional<int64_t> rows = ctx.getConstantInt(1);
  std::optional<int64_t> cols = ctx.getConstantInt(2);
  if (failed(checkSize(ctx, rows, "row count")) ||
      failed(checkSize(ctx, cols, "column count")))
    return failure();
  if (std::optional<int64_t> cells = cellsOf(input)) {
    if (rows && cols && *rows * *cols != *cells)
      return ctx.emitOpError() << "cannot reshape " << shapeOf(input) << " ("
                               << *cells << " cells) into " << *rows << "x"
                               << *cols << " (" << *rows * *cols << " cells)";
    // One given size determines the other.
    auto complete = [&](std::optional<int64_t> given,
                        std::optional<int64_t> &other) -> LogicalResult {
      if (given && *given == 0 && *cells != 0)
        return ctx.emitOpError() << "cannot reshape " << shapeOf(input) << " ("
                                 << *cells << " cells) into 0 "
                                 << "rows or columns";
      if (!given || other || *given == 0)
        return success();
      if (*cells % *given != 0)
        return ctx.emitOpError()
               << "cannot reshape " << shapeOf(input) << " (" << *cells
               << " cells) into " << *given << " rows or columns";
      other = *cells / *given;
      return success();
    };
    if (failed(complete(rows, cols)) || failed(complete(cols, rows)))
      return failure();
  }
  inferred.push_back(matrix(sizeOr(rows), sizeOr(cols), input.getElementType(),
                            input.getSparsity()));
  return success();
}

LogicalResult DiagOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  Type elementType = input.getElementType();
  if (input.getCols() == 1) {
    int64_t n = input.getRows();
    inferred.push_back(
        matrix(n, n, elementType,
               SparsityEstimator::diagFromVector(input.getSparsity(), n)));
    return success();
  }
  std::optional<int64_t> n = meetSize(input.getRows(), input.getCols());
  if (!n)
    return ctx.emitOpError()
           << "expects a column vector or a square matrix, found "
           << shapeOf(input);
  if (!isKnownSize(input.getCols())) {
    // Either a vector (NxN result) or a square matrix (Nx1 result).
    inferred.push_back(matrix(kUnknownSize, kUnknownSize, elementType));
    return success();
  }
  inferred.push_back(
      matrix(*n, 1, elementType,
             ctx.getEstimator().diagOfMatrix(input.getSparsity(), *n)));
  return success();
}

LogicalResult RevOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                           SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  inferred.push_back(input.getLogicalType().withSparsity(input.getSparsity()));
  return success();
}

/// cbind (alongColumns) and rbind: the shared dimension must agree, the
/// other adds up.
static LogicalResult inferConcat(const MatrixInferenceContext &ctx,
                                 bool alongColumns,
                                 SmallVectorImpl<Type> &inferred) {
  if (ctx.getNumOperands() < 2)
    return ctx.emitOpError()
           << "expects at least two inputs, found " << ctx.getNumOperands();
  MatrixType first = ctx.getMatrix(0);
  auto shared = [&](MatrixType m) {
    return alongColumns ? m.getRows() : m.getCols();
  };
  auto joined = [&](MatrixType m) {
    return alongColumns ? m.getCols() : m.getRows();
  };
  int64_t sharedSize = shared(first);
  for (unsigned i = 1; i < ctx.getNumOperands(); ++i) {
    MatrixType next = ctx.getMatrix(i);
    std::optional<int64_t> meet = meetSize(sharedSize, shared(next));
    if (!meet)
      return ctx.emitOpError()
             << "input #" << i << " has " << shapeOf(next) << " but input #0 "
             << "has " << shapeOf(first) << ": the number of "
             << (alongColumns ? "rows" : "columns") << " must match";
    if (failed(checkSameElementType(ctx, first.getElementType(), i,
                                    "input #" + std::to_string(i))))
      return failure();
    sharedSize = *meet;
  }
  // The non-zeros of all inputs, over the cells of all inputs.
  int64_t joinedSize = joined(first);
  int64_t cells = multiplySizes(sharedSize, joinedSize);
  std::optional<double> sparsity = first.getSparsity();
  for (unsigned i = 1; i < ctx.getNumOperands(); ++i) {
    MatrixType next = ctx.getMatrix(i);
    int64_t nextCells = multiplySizes(sharedSize, joined(next));
    sparsity = SparsityEstimator::concatenate(sparsity, cells,
                                              next.getSparsity(), nextCells);
    joinedSize = addSizes(joinedSize, joined(next));
    cells = addSizes(cells, nextCells);
  }
  inferred.push_back(
      alongColumns
          ? matrix(sharedSize, joinedSize, first.getElementType(), sparsity)
          : matrix(joinedSize, sharedSize, first.getElementType(), sparsity));
  return success();
}

LogicalResult CBindOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  return inferConcat(ctx, /*alongColumns=*/true, inferred);
}

LogicalResult RBindOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  return inferConcat(ctx, /*alongColumns=*/false, inferred);
}

/// Checks constant bounds `0 <= begin <= end <= size` of one dimension and
/// returns the extent `end - begin` (unknown unless both are constant).
static FailureOr<int64_t> sliceExtent(const MatrixInferenceContext &ctx,
                                      unsigned beginOperand, int64_t size,
                                      StringRef dim) {
  std::optional<int64_t> begin = ctx.getConstantInt(beginOperand);
  std::optional<int64_t> end = ctx.getConstantInt(beginOperand + 1);
  if (begin && *begin < 0)
    return ctx.emitOpError() << dim << " begin " << *begin << " is negative";
  if (end && *end < 0)
    return ctx.emitOpError() << dim << " end " << *end << " is negative";
  if (begin && end && *begin > *end)
    return ctx.emitOpError()
           << dim << " range [" << *begin << ", " << *end << ") is reversed";
  if (end && isKnownSize(size) && *end > size)
    return ctx.emitOpError() << dim << " range end " << *end << " exceeds the "
                             << size << " " << dim << "s of the matrix";
  if (begin && !end && isKnownSize(size) && *begin > size)
    return ctx.emitOpError() << dim << " begin " << *begin << " exceeds the "
                             << size << " " << dim << "s of the matrix";
  if (begin && end)
    return *end - *begin;
  // Bounds `i` and `i + c` (or `j - c` and `j`): the extent is c whatever i
  // is, as in a loop over single rows X[i, ].
  Value beginValue = ctx.getOp()->getOperand(beginOperand);
  Value endValue = ctx.getOp()->getOperand(beginOperand + 1);
  auto offsetBetween = [](Value from, Value to) -> std::optional<int64_t> {
    if (auto add = to.getDefiningOp<arith::AddIOp>()) {
      if (add.getLhs() == from)
        return getConstantIntValue(add.getRhs());
      if (add.getRhs() == from)
        return getConstantIntValue(add.getLhs());
    }
    if (auto sub = from.getDefiningOp<arith::SubIOp>();
        sub && sub.getLhs() == to)
      return getConstantIntValue(sub.getRhs());
    return std::nullopt;
  };
  if (std::optional<int64_t> extent = offsetBetween(beginValue, endValue))
    if (*extent >= 0 && (!isKnownSize(size) || *extent <= size))
      return *extent;
  return kUnknownSize;
}

LogicalResult SliceOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  FailureOr<int64_t> rows = sliceExtent(ctx, 1, input.getRows(), "row");
  if (failed(rows))
    return failure();
  FailureOr<int64_t> cols = sliceExtent(ctx, 3, input.getCols(), "column");
  if (failed(cols))
    return failure();
  // Without constant bounds the extent is unknown, but never more than the
  // input has.
  MatrixType declared = getType();
  if ((input.hasStaticRows() && declared.hasStaticRows() &&
       declared.getRows() > input.getRows()) ||
      (input.hasStaticCols() && declared.hasStaticCols() &&
       declared.getCols() > input.getCols()))
    return ctx.emitOpError()
           << "result " << shapeOf(declared) << " is larger than the "
           << shapeOf(input) << " input";
  inferred.push_back(
      matrix(*rows, *cols, input.getElementType(),
             ctx.getEstimator().part(input.getSparsity(), cellsOrUnknown(input),
                                     multiplySizes(*rows, *cols))));
  return success();
}

LogicalResult
InsertSliceOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                     SmallVectorImpl<Type> &inferred) {
  MatrixType source = ctx.getMatrix(0), dest = ctx.getMatrix(1);
  if (failed(checkSameElementType(ctx, dest.getElementType(), 0, "source")))
    return failure();
  FailureOr<int64_t> rows = sliceExtent(ctx, 2, dest.getRows(), "row");
  if (failed(rows))
    return failure();
  FailureOr<int64_t> cols = sliceExtent(ctx, 4, dest.getCols(), "column");
  if (failed(cols))
    return failure();
  if ((source.hasStaticRows() && dest.hasStaticRows() &&
       source.getRows() > dest.getRows()) ||
      (source.hasStaticCols() && dest.hasStaticCols() &&
       source.getCols() > dest.getCols()))
    return ctx.emitOpError()
           << "source " << shapeOf(source) << " does not fit into the "
           << shapeOf(dest) << " destination";
  if (!meetSize(*rows, source.getRows()) || !meetSize(*cols, source.getCols()))
    return ctx.emitOpError()
           << "source is " << shapeOf(source) << " but the target range is "
           << shapeOf(source.withShape(*rows, *cols));
  // Cells outside the range keep the destination's density.
  std::optional<double> sparsity;
  std::optional<int64_t> destCells = cellsOf(dest);
  std::optional<int64_t> sourceCells = cellsOf(source);
  if (destCells && sourceCells && *destCells > 0 && dest.getSparsity() &&
      source.getSparsity()) {
    double kept = static_cast<double>(*destCells - *sourceCells);
    double keptNonZeros = *dest.getSparsity() * kept;
    if (ctx.getEstimator().getKind() == EstimatorKind::WorstCase)
      keptNonZeros = std::min(kept, *dest.getSparsity() * *destCells);
    sparsity = (keptNonZeros + *source.getSparsity() * *sourceCells) /
               static_cast<double>(*destCells);
  }
  inferred.push_back(dest.getLogicalType().withSparsity(sparsity));
  return success();
}

LogicalResult
RemoveEmptyOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                     SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  bool rows = getMargin() == Margin::Rows;
  if (ctx.getNumOperands() > 1) {
    MatrixType select = ctx.getMatrix(1);
    bool ok = rows ? meetSize(select.getRows(), input.getRows()) &&
                         meetSize(select.getCols(), 1)
                   : meetSize(select.getRows(), 1) &&
                         meetSize(select.getCols(), input.getCols());
    if (!ok)
      return ctx.emitOpError()
             << "select must be a " << (rows ? "column" : "row")
             << " vector of "
             << shapeOf(rows ? input.withShape(input.getRows(), 1)
                             : input.withShape(1, input.getCols()))
             << " for a " << shapeOf(input) << " matrix, found "
             << shapeOf(select);
  }
  // The removed count depends on the data; removing zeros only densifies.
  inferred.push_back(
      rows ? matrix(kUnknownSize, input.getCols(), input.getElementType())
           : matrix(input.getRows(), kUnknownSize, input.getElementType()));
  return success();
}

LogicalResult
ReplaceOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                 SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  std::optional<double> pattern = ctx.getConstantFloat(1);
  std::optional<double> replacement = ctx.getConstantFloat(2);
  std::optional<double> sparsity;
  if (pattern && replacement) {
    if (*pattern == 0.0 && *replacement != 0.0)
      sparsity = 1.0; // every zero becomes non-zero
    else
      sparsity = input.getSparsity(); // zeros stay, others may vanish
  }
  inferred.push_back(input.getLogicalType().withSparsity(sparsity));
  return success();
}

LogicalResult TableOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType lhs = ctx.getMatrix(0), rhs = ctx.getMatrix(1);
  for (MatrixType vector : {lhs, rhs})
    if (!meetSize(vector.getCols(), 1))
      return ctx.emitOpError() << "expects column vectors of category ids, "
                                  "found "
                               << shapeOf(vector);
  if (!meetSize(lhs.getRows(), rhs.getRows()))
    return ctx.emitOpError()
           << "category vectors differ in length: " << shapeOf(lhs) << " and "
           << shapeOf(rhs);
  unsigned next = 2;
  if (getWeights()) {
    MatrixType weights = ctx.getMatrix(next++);
    if (!meetSize(weights.getCols(), 1) ||
        !meetSize(weights.getRows(), lhs.getRows()))
      return ctx.emitOpError()
             << "weights must be " << shapeOf(lhs)
             << " like the category vectors, found " << shapeOf(weights);
  }
  int64_t rows = kUnknownSize, cols = kUnknownSize;
  // A size with only one of the two counts is reported by the verifier.
  if (getRows() && getCols()) {
    std::optional<int64_t> r = ctx.getConstantInt(next);
    std::optional<int64_t> c = ctx.getConstantInt(next + 1);
    if (failed(checkSize(ctx, r, "row count")) ||
        failed(checkSize(ctx, c, "column count")))
      return failure();
    rows = sizeOr(r);
    cols = sizeOr(c);
  }
  inferred.push_back(matrix(rows, cols, lhs.getElementType()));
  return success();
}

LogicalResult OrderOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  if (std::optional<int64_t> by = ctx.getConstantInt(1)) {
    if (*by < 0 || (input.hasStaticCols() && *by >= input.getCols()))
      // 1-based in the message, as DML's `by` and the runtime's message.
      return ctx.emitOpError()
             << "sort column " << *by + 1 << " is outside the "
             << shapeOf(input) << " matrix";
  }
  if (getIndices())
    inferred.push_back(matrix(input.getRows(), 1, input.getElementType(), 1.0));
  else
    inferred.push_back(
        input.getLogicalType().withSparsity(input.getSparsity()));
  return success();
}
