//===- CompensateSums.cpp - Kahan-compensated sums of aggregates ----------===//
//
// SystemDS sums with Kahan's compensated summation; a plain sum over
// millions of cells drifts from its results (and R's) by more than their
// tests' tolerance. The lowering marks the additions that accumulate an
// aggregate's sum (AMLSDialect::getCompensateAttrName()); this pass gives each
// such accumulator a running correction, in linalg.generic outputs and scf.for
// iteration arguments alike, so that the fused and unfused reductions, the
// blocked partial sums and their merges are all compensated.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Dialect/AMLSDialect.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSCOMPENSATESUMS
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// A marked `acc + addend` that is the whole update of an accumulator.
struct Accumulation {
  unsigned index;    // of the accumulator among the op's outputs/iter args
  arith::AddFOp add; // the update
  bool accIsLhs;
};

/// The accumulation of `acc` if `update` is a marked `acc + x` (or `x +
/// acc`) and `acc` is read nowhere else: then the correction can follow
/// the sum without changing what else the body computes.
std::optional<Accumulation> accumulationOf(unsigned index, Value update,
                                           Value acc) {
  auto add = update.getDefiningOp<arith::AddFOp>();
  if (!add || !add->hasAttr(AMLSDialect::getCompensateAttrName()) ||
      !add->hasOneUse() || !acc.hasOneUse() ||
      add->getBlock() != acc.getParentBlock())
    return std::nullopt;
  if (add.getLhs() == acc)
    return Accumulation{index, add, true};
  if (add.getRhs() == acc)
    return Accumulation{index, add, false};
  return std::nullopt;
}

/// Replaces the accumulation by SystemDS's KahanPlus step on (sum,
/// correction) and returns the new correction. No fast-math flags: the
/// order of these operations is the point. Once the sum is infinite the
/// correction is 0, as in SystemDS: inf - inf would make it NaN, and the
/// NaN would then spread into the sum.
Value compensate(RewriterBase &rewriter, const Accumulation &accumulation,
                 Value correction) {
  arith::AddFOp add = accumulation.add;
  Value sum = accumulation.accIsLhs ? add.getLhs() : add.getRhs();
  Value addend = accumulation.accIsLhs ? add.getRhs() : add.getLhs();
  Location loc = add.getLoc();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(add);
  Value corrected = arith::AddFOp::create(rewriter, loc, addend, correction);
  Value next = arith::AddFOp::create(rewriter, loc, sum, corrected);
  Value lost =
      arith::SubFOp::create(rewriter, loc, corrected,
                            arith::SubFOp::create(rewriter, loc, next, sum));
  Type type = add.getType();
  // Operands are created one statement each: the order of evaluation of
  // call arguments differs between compilers, and so would the IR.
  Value magnitude = math::AbsFOp::create(rewriter, loc, next);
  Value infinity = arith::ConstantOp::create(
      rewriter, loc,
      rewriter.getFloatAttr(
          type, APFloat::getInf(cast<FloatType>(type).getFloatSemantics())));
  Value infinite = arith::CmpFOp::create(
      rewriter, loc, arith::CmpFPredicate::OEQ, magnitude, infinity);
  lost = arith::SelectOp::create(
      rewriter, loc, infinite,
      arith::ConstantOp::create(rewriter, loc,
                                rewriter.getFloatAttr(type, 0.0)),
      lost);
  rewriter.replaceOp(add, next);
  return lost;
}

Value zeroLike(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0.0));
}

/// A linalg.generic with reduction loops: one more output, initialised to
/// 0 with the accumulator's shape and map, per compensated accumulator.
void compensateGeneric(RewriterBase &rewriter, linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumReductionLoops() == 0)
    return;
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  SmallVector<Accumulation> accumulations;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    unsigned index = init.getOperandNumber() - op.getNumDpsInputs();
    if (!isa<FloatType>(getElementTypeOrSelf(init.get().getType())))
      continue;
    if (auto found = accumulationOf(index, yield.getOperand(index),
                                    op.getMatchingBlockArgument(&init)))
      accumulations.push_back(*found);
  }
  if (accumulations.empty())
    return;

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> inits(op.getDpsInits());
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (const Accumulation &accumulation : accumulations) {
    OpOperand *init = op.getDpsInitOperand(accumulation.index);
    Type element = getElementTypeOrSelf(init->get().getType());
    Value zero = zeroLike(rewriter, loc, element);
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, tensor::getMixedSizes(rewriter, loc, init->get()),
        element);
    inits.push_back(
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0));
    maps.push_back(op.getMatchingIndexingMap(init));
  }
  auto compensated = linalg::GenericOp::create(
      rewriter, loc, ValueRange(inits).getTypes(), op.getDpsInputs(), inits,
      maps, op.getIteratorTypesArray());
  compensated->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  rewriter.inlineRegionBefore(op.getRegion(), compensated.getRegion(),
                              compensated.getRegion().end());

  SmallVector<Value> corrections;
  for (const Accumulation &accumulation : accumulations) {
    Type element = arith::AddFOp(accumulation.add).getType();
    corrections.push_back(
        compensate(rewriter, accumulation, body->addArgument(element, loc)));
  }
  SmallVector<Value> yielded(yield.getOperands());
  yielded.append(corrections);
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<linalg::YieldOp>(yield, yielded);
  rewriter.replaceOp(op,
                     compensated.getResults().take_front(op.getNumResults()));
}

/// An scf.for: one more iteration argument, starting at 0, per compensated
/// accumulator.
void compensateLoop(RewriterBase &rewriter, scf::ForOp loop) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<Accumulation> accumulations;
  for (auto [index, acc] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!isa<FloatType>(acc.getType()))
      continue;
    if (auto found = accumulationOf(index, yield.getOperand(index), acc))
      accumulations.push_back(*found);
  }
  if (accumulations.empty())
    return;

  rewriter.setInsertionPoint(loop);
  SmallVector<Value> zeros;
  for (const Accumulation &accumulation : accumulations)
    zeros.push_back(zeroLike(rewriter, loop.getLoc(),
                             arith::AddFOp(accumulation.add).getType()));
  (void)loop.replaceWithAdditionalYields(
      rewriter, zeros, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument> corrections) {
        SmallVector<Value> lost;
        for (auto [accumulation, correction] :
             llvm::zip_equal(accumulations, corrections))
          lost.push_back(compensate(rewriter, accumulation, correction));
        return lost;
      });
}

struct CompensateSumsPass
    : public amls::impl::AMLSCompensateSumsBase<CompensateSumsPass> {
  using AMLSCompensateSumsBase::AMLSCompensateSumsBase;

  void runOnOperation() override {
    if (plain) {
      getOperation()->walk([](arith::AddFOp add) {
        if (!add->removeAttr(AMLSDialect::getCompensateAttrName()))
          return;
        add.setFastmath(add.getFastmath() | arith::FastMathFlags::reassoc);
      });
      return;
    }
    SmallVector<Operation *> candidates;
    getOperation()->walk([&](Operation *op) {
      if (isa<linalg::GenericOp, scf::ForOp>(op))
        candidates.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : candidates) {
      if (auto generic = dyn_cast<linalg::GenericOp>(op))
        compensateGeneric(rewriter, generic);
      else
        compensateLoop(rewriter, cast<scf::ForOp>(op));
    }
    // The marks have done their work; they would only clutter the IR.
    getOperation()->walk([](arith::AddFOp add) {
      add->removeAttr(AMLSDialect::getCompensateAttrName());
    });
  }
};

} // namespace
