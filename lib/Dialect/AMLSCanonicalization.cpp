//===- AMLSCanonicalization.cpp - Canonicalization patterns ---------------===//
//
// Algebraic identities that remove an op. The replacement value may carry a
// more precise type than the op's result (e.g. a known sparsity), so it is
// bridged with `amls.cast` where the types differ; casts between equal types
// fold away.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::amls;

Value mlir::amls::detail::castToType(OpBuilder &builder, Location loc,
                                     Value value, Type type) {
  if (value.getType() == type)
    return value;
  return CastOp::create(builder, loc, type, value);
}

std::optional<double> mlir::amls::getConstantScalar(Value value) {
  Attribute attr;
  if (isa<MatrixType>(value.getType()) ||
      !matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  if (auto floatAttr = dyn_cast<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  if (auto intAttr = dyn_cast<IntegerAttr>(attr))
    return static_cast<double>(intAttr.getValue().getSExtValue());
  return std::nullopt;
}

/// Whether `value` can stand for a result of `type`, with at most a cast
/// (which never changes the physical format).
static bool canReplaceWith(Value value, Type type) {
  return value.getType() == type ||
         CastOp::areCastCompatible(value.getType(), type);
}

namespace {
/// f(c, X) -> X and f(X, c) -> X where c is the op's identity on that side.
struct RemoveIdentityOperand : public RewritePattern {
  RemoveIdentityOperand(MLIRContext *context, StringRef opName,
                        std::optional<double> leftIdentity,
                        std::optional<double> rightIdentity)
      : RewritePattern(opName, /*benefit=*/1, context),
        leftIdentity(leftIdentity), rightIdentity(rightIdentity) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Value kept;
    if (rightIdentity && isa<MatrixType>(lhs.getType()) &&
        getConstantScalar(rhs) == rightIdentity)
      kept = lhs;
    else if (leftIdentity && isa<MatrixType>(rhs.getType()) &&
             getConstantScalar(lhs) == leftIdentity)
      kept = rhs;
    if (!kept)
      return rewriter.notifyMatchFailure(op, "no identity operand");
    if (!canReplaceWith(kept, op->getResult(0).getType()))
      return rewriter.notifyMatchFailure(op, "formats differ");
    rewriter.replaceOp(op,
                       amls::detail::castToType(rewriter, op->getLoc(), kept,
                                                op->getResult(0).getType()));
    return success();
  }

  std::optional<double> leftIdentity, rightIdentity;
};

/// f(f(X)) -> X for involutions (neg, transpose, rev).
struct RemoveInvolutionPair : public RewritePattern {
  RemoveInvolutionPair(MLIRContext *context, StringRef opName)
      : RewritePattern(opName, /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    Operation *inner = op->getOperand(0).getDefiningOp();
    if (!inner || inner->getName() != op->getName())
      return rewriter.notifyMatchFailure(op, "operand is not the same op");
    if (!canReplaceWith(inner->getOperand(0), op->getResult(0).getType()))
      return rewriter.notifyMatchFailure(op, "formats differ");
    rewriter.replaceOp(op, amls::detail::castToType(
                               rewriter, op->getLoc(), inner->getOperand(0),
                               op->getResult(0).getType()));
    return success();
  }
};

/// sum(matrix(v, r, c)) -> v * r * c.
struct SumOfFill : public OpRewritePattern<AggOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AggOp op,
                                PatternRewriter &rewriter) const override {
    auto fill = op.getInput().getDefiningOp<FillOp>();
    if (!fill || op.getKind() != AggKind::Sum || op.getAxis() != AggAxis::All)
      return rewriter.notifyMatchFailure(op, "not the sum of a fill");
    Location loc = op.getLoc();
    Type type = op.getType();
    Value cells =
        arith::MulIOp::create(rewriter, loc, fill.getRows(), fill.getCols());
    Value count =
        arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(), cells);
    Value product;
    if (isa<FloatType>(type)) {
      count = arith::SIToFPOp::create(rewriter, loc, type, count);
      product = arith::MulFOp::create(rewriter, loc, fill.getValue(), count);
    } else {
      product = arith::MulIOp::create(rewriter, loc, fill.getValue(), count);
    }
    rewriter.replaceOp(op, product);
    return success();
  }
};
} // namespace

void mlir::amls::detail::populateIdentityPatterns(
    RewritePatternSet &patterns, StringRef opName,
    std::optional<double> leftIdentity, std::optional<double> rightIdentity) {
  if (leftIdentity || rightIdentity)
    patterns.add<RemoveIdentityOperand>(patterns.getContext(), opName,
                                        leftIdentity, rightIdentity);
}

void mlir::amls::detail::populateInvolutionPatterns(RewritePatternSet &patterns,
                                                    StringRef opName) {
  patterns.add<RemoveInvolutionPair>(patterns.getContext(), opName);
}

void AggOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<SumOfFill>(context);
}

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *) {
  amls::detail::populateInvolutionPatterns(results, getOperationName());
}

void RevOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *) {
  amls::detail::populateInvolutionPatterns(results, getOperationName());
}
