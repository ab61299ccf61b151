//===- Simplify.cpp - Static algebraic rewrites ---------------------------===//
//
// SystemDS's static HOP rewrites (seed 002, "Operator Re-writes"): algebraic
// identities that hold whatever the sizes, each exact in IEEE arithmetic up
// to rounding (none changes a result in the presence of NaN or Inf, which
// is why some classic rewrites are restricted; see docs/passes.md). The
// ops' canonicalization patterns run with them.
//
//===----------------------------------------------------------------------===//

#include "RewriteUtils.h"

#include "AMLS/Transforms/Passes.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSSIMPLIFY
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::rewrite;

namespace {

/// agg(X) with the aggregate over all cells.
bool isFullAggregate(AggOp op, AggKind kind) {
  return op.getKind() == kind && op.getAxis() == AggAxis::All;
}

/// Kinds whose value over a set of cells does not depend on their order.
bool isOrderFree(AggKind kind) {
  return kind != AggKind::MaxIndex && kind != AggKind::MinIndex;
}

Value fullAggregate(PatternRewriter &rewriter, Location loc, AggKind kind,
                    Value input) {
  return AggOp::create(rewriter, loc, elementTypeOf(input), kind, AggAxis::All,
                       input);
}

/// sum(s * X) -> s * sum(X), also with X * s and for row and column sums:
/// the scalar is multiplied once per result cell instead of once per input
/// cell.
struct ScalarOutOfSum : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto product = op.getInput().getDefiningOp<MulOp>();
    if (op.getKind() != AggKind::Sum || !product)
      return failure();
    Value scalar = product.getLhs(), matrix = product.getRhs();
    if (isMatrix(scalar))
      std::swap(scalar, matrix);
    if (isMatrix(scalar) || !isMatrix(matrix))
      return failure();
    Location loc = op.getLoc();
    if (op.getAxis() == AggAxis::All) {
      Value sum = fullAggregate(rewriter, loc, AggKind::Sum, matrix);
      Value result =
          isa<FloatType>(sum.getType())
              ? arith::MulFOp::create(rewriter, loc, scalar, sum).getResult()
              : arith::MulIOp::create(rewriter, loc, scalar, sum).getResult();
      rewriter.replaceOp(op, result);
      return success();
    }
    Value sums = build<AggOp>(rewriter, loc, scalar.getType(), op.getKind(),
                              op.getAxis(), matrix);
    return replaceWithValue(
        rewriter, op,
        build<MulOp>(rewriter, loc, scalar.getType(), sums, scalar));
  }
};

/// sum(-X) -> -sum(X).
struct NegationOutOfSum : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto negation = op.getInput().getDefiningOp<NegOp>();
    if (!negation || !isFullAggregate(op, AggKind::Sum) ||
        !isa<FloatType>(op.getType()))
      return failure();
    Value sum =
        fullAggregate(rewriter, op.getLoc(), AggKind::Sum, negation.getInput());
    rewriter.replaceOpWithNewOp<arith::NegFOp>(op, sum);
    return success();
  }
};

/// trace(X %*% Y) -> sum(X * t(Y)): O(mn) instead of the O(m^2 n) product.
struct TraceOfProduct : public OpRewritePattern<TraceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TraceOp op,
                                PatternRewriter &rewriter) const override {
    auto product = op.getInput().getDefiningOp<MatmulOp>();
    if (!product || !product->hasOneUse())
      return failure();
    Location loc = op.getLoc();
    Type element = elementTypeOf(product.getLhs());
    Value transposed =
        build<TransposeOp>(rewriter, loc, element, product.getRhs());
    Value cells =
        build<MulOp>(rewriter, loc, element, product.getLhs(), transposed);
    rewriter.replaceOp(op, fullAggregate(rewriter, loc, AggKind::Sum, cells));
    return success();
  }
};

/// agg(t(X)) -> agg(X) and agg(rev(X)) -> agg(X) over all cells: the same
/// cells in another order.
struct FullAggregateOfReordering : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    Operation *producer = op.getInput().getDefiningOp();
    if (op.getAxis() != AggAxis::All || !isOrderFree(op.getKind()) ||
        !isa_and_nonnull<TransposeOp, RevOp>(producer))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getInputMutable().assign(producer->getOperand(0)); });
    return success();
  }
};

/// colAgg(t(X)) -> t(rowAgg(X)) and rowAgg(t(X)) -> t(colAgg(X)): the
/// transpose moves to the (vector) result.
struct PartialAggregateOfTranspose : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getInput().getDefiningOp<TransposeOp>();
    if (!transpose || op.getAxis() == AggAxis::All)
      return failure();
    Location loc = op.getLoc();
    AggAxis swapped =
        op.getAxis() == AggAxis::Row ? AggAxis::Col : AggAxis::Row;
    Value input = transpose.getInput();
    Value partial = build<AggOp>(rewriter, loc, elementTypeOf(input),
                                 op.getKind(), swapped, input);
    return replaceWithValue(
        rewriter, op,
        build<TransposeOp>(rewriter, loc, elementTypeOf(input), partial));
  }
};

/// colAgg(rev(X)) -> colAgg(X): rev reorders the rows, and a column
/// aggregate does not depend on their order (index kinds excepted).
struct ColumnAggregateOfRev : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto rev = op.getInput().getDefiningOp<RevOp>();
    if (!rev || op.getAxis() != AggAxis::Col || !isOrderFree(op.getKind()))
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getInputMutable().assign(rev.getInput()); });
    return success();
  }
};

/// sum(rowSums(X)) -> sum(X), and the same for colSums and for min/max of
/// row or column minima/maxima.
struct AggregateOfPartialAggregate : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<AggOp>();
    if (!inner || op.getAxis() != AggAxis::All ||
        inner.getAxis() == AggAxis::All || inner.getKind() != op.getKind())
      return failure();
    AggKind kind = op.getKind();
    if (kind != AggKind::Sum && kind != AggKind::Min && kind != AggKind::Max)
      return failure();
    rewriter.modifyOpInPlace(
        op, [&] { op.getInputMutable().assign(inner.getInput()); });
    return success();
  }
};

/// sum(X^2) -> sumsq(X).
struct SumOfSquares : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto power = op.getInput().getDefiningOp<PowOp>();
    if (!power || op.getKind() != AggKind::Sum || !isMatrix(power.getLhs()) ||
        constantScalar(power.getRhs()) != 2.0)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.setKind(AggKind::SumSq);
      op.getInputMutable().assign(power.getLhs());
    });
    return success();
  }
};

/// X + X -> 2 * X and X * X -> X^2 (one read of X; pow 2 lowers to a
/// multiply). X^2 only on floating point, where pow exists.
template <typename OpTy, bool isProduct>
struct SelfOperation : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (op.getLhs() != op.getRhs() || !isMatrix(op.getLhs()))
      return failure();
    Location loc = op.getLoc();
    Type element = elementTypeOf(op.getLhs());
    // pow is only defined on floating point.
    if (isProduct && !isa<FloatType>(element))
      return failure();
    Value two = scalarConstant(rewriter, loc, element, 2.0);
    Value result = isProduct
                       ? build<PowOp>(rewriter, loc, element, op.getLhs(), two)
                       : build<MulOp>(rewriter, loc, element, op.getLhs(), two);
    return replaceWithValue(rewriter, op, result);
  }
};

/// min(X, X) -> X, max(X, X) -> X, ifelse(C, X, X) -> X.
template <typename OpTy> struct SameOperands : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value first = op->getOperand(op->getNumOperands() - 2);
    Value second = op->getOperand(op->getNumOperands() - 1);
    if (first != second || !isMatrix(first))
      return failure();
    return replaceWithValue(rewriter, op, first);
  }
};

/// ifelse(c, A, B) with a constant scalar condition -> A or B.
struct ConstantIfElse : public OpRewritePattern<IfElseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfElseOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<double> condition = constantScalar(op.getCondition());
    if (!condition)
      return failure();
    Value chosen = *condition != 0.0 ? op.getTrueValue() : op.getFalseValue();
    if (!isMatrix(chosen))
      return failure();
    return replaceWithValue(rewriter, op, chosen);
  }
};

/// 1 / (1 + exp(-X)) -> sigmoid(X), also with exp(-X) + 1.
struct Sigmoid : public OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivOp op,
                                PatternRewriter &rewriter) const override {
    auto sum = op.getRhs().getDefiningOp<AddOp>();
    if (constantScalar(op.getLhs()) != 1.0 || !sum)
      return failure();
    Value exponential = sum.getLhs(), one = sum.getRhs();
    if (constantScalar(exponential) == 1.0)
      std::swap(exponential, one);
    auto exp = exponential.getDefiningOp<ExpOp>();
    if (constantScalar(one) != 1.0 || !exp)
      return failure();
    auto negation = exp.getInput().getDefiningOp<NegOp>();
    if (!negation)
      return failure();
    return replaceWithValue(rewriter, op,
                            build<SigmoidOp>(rewriter, op.getLoc(),
                                             elementTypeOf(negation.getInput()),
                                             negation.getInput()));
  }
};

/// (-X) %*% Y, X %*% (-Y) -> -(X %*% Y): the product's result is usually
/// smaller than the negated operand (linreg-cg.dml's -t(X) %*% y negated a
/// 101x100000 copy of t(X), which the product alone reads in place). Exact:
/// negation commutes with every rounding.
struct NegationOutOfProduct : public OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op.getLhs(), rhs = op.getRhs();
    NegOp negation = lhs.getDefiningOp<NegOp>();
    if (negation && negation->hasOneUse())
      lhs = negation.getInput();
    else if ((negation = rhs.getDefiningOp<NegOp>()) && negation->hasOneUse())
      rhs = negation.getInput();
    else
      return failure();
    Type element = elementTypeOf(op.getResult());
    Value product = build<MatmulOp>(rewriter, op.getLoc(), element, lhs, rhs);
    return replaceWithValue(
        rewriter, op, build<NegOp>(rewriter, op.getLoc(), element, product));
  }
};

/// (X %*% Y)[i, j] -> X[i, ] %*% Y[, j]: only the needed rows and columns
/// of the factors are multiplied.
struct SliceOfProduct : public OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto product = op.getInput().getDefiningOp<MatmulOp>();
    if (!product || !product->hasOneUse())
      return failure();
    Location loc = op.getLoc();
    Value lhs = product.getLhs(), rhs = product.getRhs();
    Type element = elementTypeOf(lhs);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value inner = NColOp::create(rewriter, loc, rewriter.getIndexType(), lhs);
    Value rows = build<SliceOp>(rewriter, loc, element, lhs, op.getRowBegin(),
                                op.getRowEnd(), zero, inner);
    Value cols = build<SliceOp>(rewriter, loc, element, rhs, zero, inner,
                                op.getColBegin(), op.getColEnd());
    return replaceWithValue(
        rewriter, op, build<MatmulOp>(rewriter, loc, element, rows, cols));
  }
};

/// t(cbind(t(A), t(B), ...)) -> rbind(A, B, ...) and the rbind twin.
template <typename ConcatTy, typename OtherTy>
struct TransposedConcatOfTransposes : public OpRewritePattern<TransposeOp> {
  using OpRewritePattern<TransposeOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto concat = op.getInput().getDefiningOp<ConcatTy>();
    if (!concat)
      return failure();
    SmallVector<Value> inputs;
    for (Value input : concat.getInputs()) {
      auto transpose = input.getDefiningOp<TransposeOp>();
      if (!transpose)
        return failure();
      inputs.push_back(transpose.getInput());
    }
    return replaceWithValue(rewriter, op,
                            build<OtherTy>(rewriter, op.getLoc(),
                                           elementTypeOf(inputs.front()),
                                           inputs));
  }
};

/// !(A == B) -> A != B and !(A != B) -> A == B always; the ordering
/// comparisons !(A > B) -> A <= B, ... only on i64 matrices, because on
/// floating point a NaN makes both comparisons false.
struct NotOfComparison : public OpRewritePattern<NotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NotOp op,
                                PatternRewriter &rewriter) const override {
    Operation *comparison = op.getInput().getDefiningOp();
    if (!comparison || comparison->getNumOperands() != 2)
      return failure();
    Value lhs = comparison->getOperand(0), rhs = comparison->getOperand(1);
    Type element = elementTypeOf(op.getInput());
    bool noNaN = element.isInteger(64);
    Location loc = op.getLoc();
    Value result =
        TypeSwitch<Operation *, Value>(comparison)
            .Case([&](EqOp) {
              return build<NeOp>(rewriter, loc, element, lhs, rhs);
            })
            .Case([&](NeOp) {
              return build<EqOp>(rewriter, loc, element, lhs, rhs);
            })
            .Case([&](GtOp) {
              return noNaN ? build<LeOp>(rewriter, loc, element, lhs, rhs)
                           : Value();
            })
            .Case([&](GeOp) {
              return noNaN ? build<LtOp>(rewriter, loc, element, lhs, rhs)
                           : Value();
            })
            .Case([&](LtOp) {
              return noNaN ? build<GeOp>(rewriter, loc, element, lhs, rhs)
                           : Value();
            })
            .Case([&](LeOp) {
              return noNaN ? build<GtOp>(rewriter, loc, element, lhs, rhs)
                           : Value();
            })
            .Default([](Operation *) { return Value(); });
    if (!result)
      return failure();
    return replaceWithValue(rewriter, op, result);
  }
};

/// X - Y * X -> (1 - Y) * X, also with X * Y: one product instead of a
/// product and a difference over X.
struct FactorOutOfDifference : public OpRewritePattern<SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SubOp op,
                                PatternRewriter &rewriter) const override {
    Value x = op.getLhs();
    auto product = op.getRhs().getDefiningOp<MulOp>();
    if (!product || !isMatrix(x) || !product->hasOneUse())
      return failure();
    Value y;
    if (product.getRhs() == x)
      y = product.getLhs();
    else if (product.getLhs() == x)
      y = product.getRhs();
    if (!y)
      return failure();
    Location loc = op.getLoc();
    Type element = elementTypeOf(x);
    // A scalar y (X - X * as_scalar(v), from a product with a 1x1 matrix)
    // makes 1 - y a scalar difference: amls.sub takes a matrix operand.
    if (!isMatrix(y) && (y.getType() != element || !isa<FloatType>(element)))
      return failure();
    Value one = scalarConstant(rewriter, loc, element, 1.0);
    Value factor =
        isMatrix(y) ? build<SubOp>(rewriter, loc, element, one, y)
                    : arith::SubFOp::create(rewriter, loc, one, y).getResult();
    return replaceWithValue(rewriter, op,
                            build<MulOp>(rewriter, loc, element, factor, x));
  }
};

/// s + X -> X + s and s * X -> X * s: scalars on the right (the canonical
/// form the other rewrites and fusion match, e.g. eps + U %*% t(V)).
template <typename OpTy>
struct ScalarToTheRight : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (isMatrix(op.getLhs()) || !isMatrix(op.getRhs()))
      return failure();
    // The commutative fold puts a constant operand on the right; swapping
    // a literal matrix back to the left of a scalar not yet folded would
    // undo it forever (`matrix("...") * nrow(P)`). The product folds once
    // the scalar does.
    if (matchPattern(op.getRhs(), m_Constant()) &&
        !matchPattern(op.getLhs(), m_Constant()))
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      Value lhs = op.getLhs();
      op.getLhsMutable().assign(op.getRhs());
      op.getRhsMutable().assign(lhs);
    });
    return success();
  }
};

/// rand(r, c, a, b, sp) * s -> rand(r, c, a*s, b*s, sp) for a uniform
/// generator and a constant s >= 0: the scaling moves into the bounds
/// (a drawn cell is a + (b - a) * u either way, a zero stays zero).
struct ScaleIntoRand : public OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    auto rand = op.getLhs().getDefiningOp<RandOp>();
    std::optional<double> scale = constantScalar(op.getRhs());
    if (!rand || !scale || *scale < 0.0 || !rand->hasOneUse() ||
        rand.getPdf() != RandPdf::Uniform)
      return failure();
    Location loc = op.getLoc();
    Value low =
        arith::MulFOp::create(rewriter, loc, rand.getMin(), op.getRhs());
    Value high =
        arith::MulFOp::create(rewriter, loc, rand.getMax(), op.getRhs());
    rewriter.modifyOpInPlace(rand, [&] {
      rand.getMinMutable().assign(low);
      rand.getMaxMutable().assign(high);
    });
    return replaceWithValue(rewriter, op, rand.getResult());
  }
};

/// X * (X != 0) -> X and (X != 0) * X -> X (a zero cell is zero either way,
/// a non-zero one is multiplied by 1).
struct MaskedByOwnNonZeros : public OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp op,
                                PatternRewriter &rewriter) const override {
    for (auto [x, mask] : {std::pair(op.getLhs(), op.getRhs()),
                           std::pair(op.getRhs(), op.getLhs())}) {
      auto ne = mask.getDefiningOp<NeOp>();
      if (ne && ne.getLhs() == x && constantScalar(ne.getRhs()) == 0.0 &&
          isMatrix(x))
        return replaceWithValue(rewriter, op, x);
    }
    return failure();
  }
};

/// X - (-Y) -> X + Y, X + (-Y) -> X - Y, (-X) + Y -> Y - X and
/// -(X - Y) -> Y - X: negations fold into the arithmetic.
struct FoldNegationIntoSub : public OpRewritePattern<SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SubOp op,
                                PatternRewriter &rewriter) const override {
    auto negation = op.getRhs().getDefiningOp<NegOp>();
    if (!negation)
      return failure();
    return replaceWithValue(rewriter, op,
                            build<AddOp>(rewriter, op.getLoc(),
                                         elementTypeOf(op.getLhs()),
                                         op.getLhs(), negation.getInput()));
  }
};

struct FoldNegationIntoAdd : public OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    Value kept = op.getLhs(), negated = op.getRhs();
    auto negation = negated.getDefiningOp<NegOp>();
    if (!negation) {
      std::swap(kept, negated);
      negation = negated.getDefiningOp<NegOp>();
    }
    if (!negation)
      return failure();
    return replaceWithValue(rewriter, op,
                            build<SubOp>(rewriter, op.getLoc(),
                                         elementTypeOf(kept), kept,
                                         negation.getInput()));
  }
};

struct NegationOfDifference : public OpRewritePattern<NegOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NegOp op,
                                PatternRewriter &rewriter) const override {
    auto difference = op.getInput().getDefiningOp<SubOp>();
    if (!difference)
      return failure();
    return replaceWithValue(
        rewriter, op,
        build<SubOp>(rewriter, op.getLoc(), elementTypeOf(op.getInput()),
                     difference.getRhs(), difference.getLhs()));
  }
};

/// f(f(X)) -> f(X) for idempotent functions: abs, round, floor, ceil, sign;
/// also abs(-X) -> abs(X).
template <typename OpTy> struct Idempotent : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Operation *inner = op.getInput().getDefiningOp();
    if (isa_and_nonnull<OpTy>(inner))
      return replaceWithValue(rewriter, op, op.getInput());
    if (std::is_same_v<OpTy, AbsOp> && isa_and_nonnull<NegOp>(inner)) {
      rewriter.modifyOpInPlace(
          op, [&] { op->setOperand(0, inner->getOperand(0)); });
      return success();
    }
    return failure();
  }
};

/// replace(X, p, p) -> X for constant equal p (or both NaN).
struct ReplaceBySame : public OpRewritePattern<ReplaceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReplaceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<double> pattern = constantScalar(op.getPattern());
    std::optional<double> replacement = constantScalar(op.getReplacement());
    if (!pattern || !replacement)
      return failure();
    bool same = *pattern == *replacement ||
                (std::isnan(*pattern) && std::isnan(*replacement));
    if (!same)
      return failure();
    return replaceWithValue(rewriter, op, op.getInput());
  }
};

/// as_scalar(as_matrix(s)) -> s.
struct ScalarRoundTrip : public OpRewritePattern<AsScalarOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AsScalarOp op,
                                PatternRewriter &rewriter) const override {
    auto matrix = op.getInput().getDefiningOp<AsMatrixOp>();
    if (!matrix || matrix.getInput().getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, matrix.getInput());
    return success();
  }
};

/// nrow(t(X)) -> ncol(X) and ncol(t(X)) -> nrow(X).
template <typename OpTy, typename SwappedTy>
struct SizeOfTranspose : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto transpose = op.getInput().template getDefiningOp<TransposeOp>();
    if (!transpose)
      return failure();
    rewriter.replaceOpWithNewOp<SwappedTy>(op, op.getType(),
                                           transpose.getInput());
    return success();
  }
};

struct SimplifyPass : public amls::impl::AMLSSimplifyBase<SimplifyPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    populateSimplifyPatterns(patterns);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      if (op.getDialectNamespace() == AMLSDialect::getDialectNamespace())
        op.getCanonicalizationPatterns(patterns, context);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::amls::populateSimplifyPatterns(RewritePatternSet &patterns) {
  patterns.add<ScalarOutOfSum, NegationOutOfSum, TraceOfProduct,
               FullAggregateOfReordering, PartialAggregateOfTranspose,
               ColumnAggregateOfRev, AggregateOfPartialAggregate, SumOfSquares,
               SelfOperation<AddOp, false>, SelfOperation<MulOp, true>,
               SameOperands<MinOp>, SameOperands<MaxOp>, SameOperands<IfElseOp>,
               ConstantIfElse, Sigmoid, NegationOutOfProduct, SliceOfProduct,
               TransposedConcatOfTransposes<CBindOp, RBindOp>,
               TransposedConcatOfTransposes<RBindOp, CBindOp>, NotOfComparison,
               FactorOutOfDifference, ScalarToTheRight<AddOp>,
               ScalarToTheRight<MulOp>, ScaleIntoRand, MaskedByOwnNonZeros,
               FoldNegationIntoSub, FoldNegationIntoAdd, NegationOfDifference,
               Idempotent<AbsOp>, Idempotent<RoundOp>, Idempotent<FloorOp>,
               Idempotent<CeilOp>, Idempotent<SignOp>, ReplaceBySame,
               ScalarRoundTrip, SizeOfTranspose<NRowOp, NColOp>,
               SizeOfTranspose<NColOp, NRowOp>>(patterns.getContext());
}
