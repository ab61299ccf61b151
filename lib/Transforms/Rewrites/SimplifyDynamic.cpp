//===- SimplifyDynamic.cpp - Size-dependent algebraic rewrites ------------===//
//
// SystemDS's dynamic HOP rewrites (seed 002): rewrites whose condition
// depends on sizes or sparsity known after inference (a 1x1 operand, a
// vector, a square matrix, an all-zero matrix), and the rewrites into the
// fused physical operators tsmm and mmchain. Like --amls-simplify, none
// changes a result when the data holds NaN or Inf (rounding aside).
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"

#include "AMLS/CostModel/PropertyLattice.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <map>

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSSIMPLIFYDYNAMIC
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::rewrite;

namespace {

bool isSingleCell(Value value) {
  return isMatrix(value) && rowsOf(value) == 1 && colsOf(value) == 1;
}
bool isColumnVector(Value value) {
  return isMatrix(value) && colsOf(value) == 1;
}

/// Aggregates whose value over a single cell is that cell.
bool isIdentityOnOneCell(AggKind kind) {
  return kind == AggKind::Sum || kind == AggKind::Min || kind == AggKind::Max ||
         kind == AggKind::Mean || kind == AggKind::Prod;
}

/// Whether `value` is the constant index `expected` (a known size).
bool isConstantSize(Value value, int64_t expected) {
  return isKnownSize(expected) && getConstantIntValue(value) == expected;
}

Value asScalar(PatternRewriter &rewriter, Location loc, Value matrix) {
  return AsScalarOp::create(rewriter, loc, elementTypeOf(matrix), matrix);
}

/// X %*% y and y %*% X with a 1x1 operand y -> X * as_scalar(y).
struct ProductWithSingleCell : public OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    Value cell = op.getRhs(), other = op.getLhs();
    if (!isSingleCell(cell))
      std::swap(cell, other);
    if (!isSingleCell(cell))
      return failure();
    Location loc = op.getLoc();
    Value scalar = asScalar(rewriter, loc, cell);
    return replaceWithValue(
        rewriter, op,
        build<MulOp>(rewriter, loc, elementTypeOf(other), other, scalar));
  }
};

/// sum(X), min(X), max(X), mean(X), prod(X) of a 1x1 X -> as_scalar(X).
struct AggregateOfSingleCell : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    bool identity = isIdentityOnOneCell(op.getKind());
    if (op.getAxis() != AggAxis::All || !identity ||
        !isSingleCell(op.getInput()))
      return failure();
    rewriter.replaceOp(op, asScalar(rewriter, op.getLoc(), op.getInput()));
    return success();
  }
};

/// colSums(X) of a single row and rowSums(X) of a single column -> X (also
/// for means, minima, maxima and products), and cumulative aggregates of a
/// single row -> X.
struct PartialAggregateOfVector : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    bool identity = isIdentityOnOneCell(op.getKind());
    Value input = op.getInput();
    bool single = (op.getAxis() == AggAxis::Col && rowsOf(input) == 1) ||
                  (op.getAxis() == AggAxis::Row && colsOf(input) == 1);
    if (!identity || !single)
      return failure();
    return replaceWithValue(rewriter, op, input);
  }
};

struct CumulativeAggregateOfRow : public OpRewritePattern<CumAggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CumAggOp op,
                                PatternRewriter &rewriter) const override {
    if (rowsOf(op.getInput()) != 1)
      return failure();
    return replaceWithValue(rewriter, op, op.getInput());
  }
};

/// sum(v1 * v2) of two column vectors -> as_scalar(t(v1) %*% v2) (a dot
/// product, gemv-able).
struct DotProduct : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto product = op.getInput().getDefiningOp<MulOp>();
    if (op.getKind() != AggKind::Sum || op.getAxis() != AggAxis::All ||
        !product || !isColumnVector(product.getLhs()) ||
        !isColumnVector(product.getRhs()))
      return failure();
    // Vectors computed by element-wise ops are left to operator fusion,
    // whose fused sum reads their inputs without materializing them.
    auto elementwise = [](Value v) {
      return isa_and_nonnull<ElementwiseOpInterface>(v.getDefiningOp());
    };
    if (elementwise(product.getLhs()) || elementwise(product.getRhs()))
      return failure();
    Location loc = op.getLoc();
    Type element = elementTypeOf(product.getLhs());
    Value transposed =
        build<TransposeOp>(rewriter, loc, element, product.getLhs());
    Value dot =
        build<MatmulOp>(rewriter, loc, element, transposed, product.getRhs());
    rewriter.replaceOp(op, asScalar(rewriter, loc, dot));
    return success();
  }
};

/// sum(A %*% B) -> sum(t(colSums(A)) * rowSums(B)): O(mn + nk) instead of
/// the O(mnk) product.
struct SumOfProduct : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto product = op.getInput().getDefiningOp<MatmulOp>();
    if (op.getKind() != AggKind::Sum || op.getAxis() != AggAxis::All ||
        !product || !product->hasOneUse())
      return failure();
    Location loc = op.getLoc();
    Type element = elementTypeOf(product.getLhs());
    Value colSums = build<AggOp>(rewriter, loc, element, AggKind::Sum,
                                 AggAxis::Col, product.getLhs());
    Value column = build<TransposeOp>(rewriter, loc, element, colSums);
    Value rowSums = build<AggOp>(rewriter, loc, element, AggKind::Sum,
                                 AggAxis::Row, product.getRhs());
    Value cells = build<MulOp>(rewriter, loc, element, column, rowSums);
    rewriter.replaceOpWithNewOp<AggOp>(op, op.getType(), AggKind::Sum,
                                       AggAxis::All, cells);
    return success();
  }
};

/// diag(X %*% Y) -> rowSums(X * t(Y)) when the product is a square matrix
/// (n > 1: diag extracts its diagonal).
struct DiagOfProduct : public OpRewritePattern<DiagOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DiagOp op,
                                PatternRewriter &rewriter) const override {
    auto product = op.getInput().getDefiningOp<MatmulOp>();
    if (!product || !product->hasOneUse())
      return failure();
    int64_t cols = colsOf(product.getResult());
    if (!isKnownSize(cols) || cols == 1)
      return failure();
    Location loc = op.getLoc();
    Type element = elementTypeOf(product.getLhs());
    Value transposed =
        build<TransposeOp>(rewriter, loc, element, product.getRhs());
    Value cells =
        build<MulOp>(rewriter, loc, element, product.getLhs(), transposed);
    return replaceWithValue(rewriter, op,
                            build<AggOp>(rewriter, loc, element, AggKind::Sum,
                                         AggAxis::Row, cells));
  }
};

/// sum(diag(X)) -> trace(X) when X is square (n > 1).
struct SumOfDiag : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto diag = op.getInput().getDefiningOp<DiagOp>();
    if (op.getKind() != AggKind::Sum || op.getAxis() != AggAxis::All || !diag)
      return failure();
    int64_t cols = colsOf(diag.getInput());
    if (!isKnownSize(cols) || cols == 1)
      return failure();
    rewriter.replaceOpWithNewOp<TraceOp>(op, op.getType(), diag.getInput());
    return success();
  }
};

/// X %*% matrix(1, n, 1) -> rowSums(X) and matrix(1, 1, m) %*% X ->
/// colSums(X).
struct ProductWithOnes : public OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto isOnes = [](Value value, bool column) {
      auto fill = value.getDefiningOp<FillOp>();
      return fill && constantScalar(fill.getValue()) == 1.0 &&
             (column ? colsOf(value) : rowsOf(value)) == 1;
    };
    Value matrix;
    AggAxis axis;
    if (isOnes(op.getRhs(), /*column=*/true)) {
      matrix = op.getLhs();
      axis = AggAxis::Row;
    } else if (isOnes(op.getLhs(), /*column=*/false)) {
      matrix = op.getRhs();
      axis = AggAxis::Col;
    } else {
      return failure();
    }
    return replaceWithValue(rewriter, op,
                            build<AggOp>(rewriter, op.getLoc(),
                                         elementTypeOf(matrix), AggKind::Sum,
                                         axis, matrix));
  }
};

/// t(X) %*% X -> tsmm left X and X %*% t(X) -> tsmm right X.
struct TransposeSelfProduct : public OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    TsmmSide side;
    Value input;
    if (auto t = op.getLhs().getDefiningOp<TransposeOp>();
        t && t.getInput() == op.getRhs()) {
      side = TsmmSide::Left;
      input = op.getRhs();
    } else if (auto t = op.getRhs().getDefiningOp<TransposeOp>();
               t && t.getInput() == op.getLhs()) {
      side = TsmmSide::Right;
      input = op.getLhs();
    } else {
      return failure();
    }
    return replaceWithValue(rewriter, op,
                            build<TsmmOp>(rewriter, op.getLoc(),
                                          elementTypeOf(input), side, input));
  }
};

/// t(X) %*% (X %*% v) and t(X) %*% (w * (X %*% v)) -> mmchain(X, v[, w])
/// for a column vector v (and w): one operator for the CG and GLM step.
struct MatrixMultiplyChain : public OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getLhs().getDefiningOp<TransposeOp>();
    if (!transpose)
      return failure();
    Value x = transpose.getInput();
    Value inner = op.getRhs(), weights;
    if (auto weighted = inner.getDefiningOp<MulOp>()) {
      weights = weighted.getLhs();
      inner = weighted.getRhs();
      if (!inner.getDefiningOp<MatmulOp>())
        std::swap(weights, inner);
      if (!isColumnVector(weights) || !weighted->hasOneUse())
        return failure();
    }
    auto product = inner.getDefiningOp<MatmulOp>();
    if (!product || product.getLhs() != x || !product->hasOneUse() ||
        !isColumnVector(product.getRhs()))
      return failure();
    return replaceWithValue(rewriter, op,
                            build<MMChainOp>(rewriter, op.getLoc(),
                                             elementTypeOf(x), x,
                                             product.getRhs(), weights));
  }
};

/// Whether the bounds of a slice or left indexing `op` are constants that
/// cover all of `matrix`, whose sizes are known.
template <typename SliceLikeOp>
bool coversWholeMatrix(SliceLikeOp op, Value matrix) {
  return isConstantSize(op.getRowBegin(), 0) &&
         isConstantSize(op.getRowEnd(), rowsOf(matrix)) &&
         isConstantSize(op.getColBegin(), 0) &&
         isConstantSize(op.getColEnd(), colsOf(matrix));
}

/// X[0:nrow, 0:ncol] -> X, with constant bounds and known sizes.
struct FullSlice : public OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    Value input = op.getInput();
    if (!isMatrix(input) || !coversWholeMatrix(op, input))
      return failure();
    return replaceWithValue(rewriter, op, input);
  }
};

/// X[0:nrow, 0:ncol] = Y -> Y when Y covers all of X.
struct FullInsertSlice : public OpRewritePattern<InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    Value dest = op.getDest(), source = op.getSource();
    if (rowsOf(source) != rowsOf(dest) || colsOf(source) != colsOf(dest) ||
        !coversWholeMatrix(op, dest))
      return failure();
    return replaceWithValue(rewriter, op, source);
  }
};

/// A chain of left indexings that together overwrite all of a matrix, each
/// one whole column block (rows 0:nrow) -> cbind of the blocks in column
/// order; with whole row blocks -> rbind:
///   X = matrix(0, n, 3); X[, 1] = A; X[, 2:3] = B   ->   X = cbind(A, B)
/// The blocks' bounds must be constants that tile the matrix without
/// overlap, and every size must be known (so that cbind's checks are the
/// left indexings' checks). Earlier values in the chain may have other uses;
/// they stay.
template <typename ConcatOpTy, bool columnBlocks>
struct LeftIndexingChainToConcat : public OpRewritePattern<InsertSliceOp> {
  using OpRewritePattern<InsertSliceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(InsertSliceOp op,
                                PatternRewriter &rewriter) const override {
    int64_t rows = rowsOf(op.getResult()), cols = colsOf(op.getResult());
    int64_t extent = columnBlocks ? cols : rows;
    if (!isKnownSize(rows) || !isKnownSize(cols))
      return failure();
    Type elementType = elementTypeOf(op.getResult());
    // Blocks by their first row or column; the chain is walked from its end.
    std::map<int64_t, std::pair<int64_t, Value>> blocks;
    int64_t covered = 0;
    for (auto insert = op; insert && covered < extent;
         insert = insert.getDest().getDefiningOp<InsertSliceOp>()) {
      Value source = insert.getSource();
      bool wholeOtherSide = columnBlocks
                                ? isConstantSize(insert.getRowBegin(), 0) &&
                                      isConstantSize(insert.getRowEnd(), rows)
                                : isConstantSize(insert.getColBegin(), 0) &&
                                      isConstantSize(insert.getColEnd(), cols);
      std::optional<int64_t> begin = getConstantIntValue(
          columnBlocks ? insert.getColBegin() : insert.getRowBegin());
      std::optional<int64_t> end = getConstantIntValue(
          columnBlocks ? insert.getColEnd() : insert.getRowEnd());
      if (!wholeOtherSide || !begin || !end || *begin < 0 || *end <= *begin ||
          *end > extent ||
          rowsOf(source) != (columnBlocks ? rows : *end - *begin) ||
          colsOf(source) != (columnBlocks ? *end - *begin : cols) ||
          elementTypeOf(source) != elementType)
        return failure();
      // A block overlapping a later one is partly overwritten: give up.
      auto next = blocks.lower_bound(*begin);
      if ((next != blocks.end() && next->first < *end) ||
          (next != blocks.begin() && std::prev(next)->second.first > *begin))
        return failure();
      blocks[*begin] = {*end, source};
      covered += *end - *begin;
    }
    if (covered != extent || blocks.size() < 2)
      return failure();
    SmallVector<Value> inputs;
    for (auto &[begin, block] : blocks)
      inputs.push_back(block.second);
    return replaceWithValue(
        rewriter, op,
        build<ConcatOpTy>(rewriter, op.getLoc(), elementType, inputs));
  }
};

/// Aggregates of a matrix known to be all zeros (sparsity 0): sum, sumsq,
/// mean, min, max -> 0; nnz -> 0.
struct AggregateOfZeros : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<MatrixType>(op.getInput().getType());
    AggKind kind = op.getKind();
    bool zero = kind == AggKind::Sum || kind == AggKind::SumSq ||
                kind == AggKind::Mean || kind == AggKind::Min ||
                kind == AggKind::Max;
    // An empty matrix has no cells to be zero (its max is -Inf).
    std::optional<int64_t> cells = type.getNumElements();
    if (op.getAxis() != AggAxis::All || !zero || type.getSparsity() != 0.0 ||
        !cells || *cells == 0)
      return failure();
    rewriter.replaceOp(
        op, scalarConstant(rewriter, op.getLoc(), op.getType(), 0.0));
    return success();
  }
};

struct NnzOfZeros : public OpRewritePattern<NnzOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NnzOp op,
                                PatternRewriter &rewriter) const override {
    if (cast<MatrixType>(op.getInput().getType()).getSparsity() != 0.0)
      return failure();
    rewriter.replaceOp(
        op, scalarConstant(rewriter, op.getLoc(), op.getType(), 0.0));
    return success();
  }
};

/// as_matrix(as_scalar(X)) -> X.
struct MatrixRoundTrip : public OpRewritePattern<AsMatrixOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AsMatrixOp op,
                                PatternRewriter &rewriter) const override {
    auto scalar = op.getInput().getDefiningOp<AsScalarOp>();
    if (!scalar)
      return failure();
    return replaceWithValue(rewriter, op, scalar.getInput());
  }
};

struct SimplifyDynamicPass
    : public amls::impl::AMLSSimplifyDynamicBase<SimplifyDynamicPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    populateSimplifyDynamicPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::amls::populateSimplifyDynamicPatterns(RewritePatternSet &patterns) {
  patterns.add<ProductWithSingleCell, AggregateOfSingleCell,
               PartialAggregateOfVector, CumulativeAggregateOfRow, DotProduct,
               SumOfProduct, DiagOfProduct, SumOfDiag, ProductWithOnes,
               TransposeSelfProduct, MatrixMultiplyChain, FullSlice,
               FullInsertSlice, LeftIndexingChainToConcat<CBindOp, true>,
               LeftIndexingChainToConcat<RBindOp, false>, AggregateOfZeros,
               NnzOfZeros, MatrixRoundTrip>(patterns.getContext());
}
