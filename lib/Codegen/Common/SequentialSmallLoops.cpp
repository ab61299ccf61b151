//===- SequentialSmallLoops.cpp - Keep small loops off the thread pool ----===//
//
// With threads > 1 every linalg op becomes an scf.parallel and then an
// OpenMP parallel region. Starting a region costs microseconds, more than
// the whole work of a loop over a few cells: a DML loop updating X[i, 1]
// 200,000 times ran 16x slower on two threads than on one. Loops whose
// static iteration count, nested loops included, is below a threshold are
// made sequential before the OpenMP conversion, and so are parallel loops
// nested in another parallel loop. A parallel loop of unknown count inside a
// sequential loop (a column reduction of a matrix with a run-time width is a
// sequential loop over the rows around a parallel loop over the columns)
// chooses at run time: kmeans's colSums over k columns started 200,000
// OpenMP regions per iteration, 10x slower than NumPy. Parallel loops inside
// an OpenMP region (a parfor's workers) are sequential too.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSSEQUENTIALSMALLLOOPS
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;

namespace {

/// Iterations of a loop with constant bounds and step.
std::optional<int64_t> tripCount(Value lower, Value upper, Value step) {
  std::optional<int64_t> lb = getConstantIntValue(lower),
                         ub = getConstantIntValue(upper),
                         st = getConstantIntValue(step);
  if (!lb || !ub || !st || *st <= 0)
    return std::nullopt;
  return *ub <= *lb ? 0 : (*ub - *lb + *st - 1) / *st;
}

/// The cells a parallel loop nest visits: its own iterations times those of
/// the loops inside it (the largest of sibling loops); unknown if any count
/// is not a constant.
std::optional<int64_t> iterationsOf(Operation *op) {
  int64_t own = 1;
  if (auto parallel = dyn_cast<scf::ParallelOp>(op)) {
    for (auto [lb, ub, st] :
         llvm::zip(parallel.getLowerBound(), parallel.getUpperBound(),
                   parallel.getStep())) {
      std::optional<int64_t> count = tripCount(lb, ub, st);
      if (!count)
        return std::nullopt;
      own *= *count;
    }
  } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
    std::optional<int64_t> count =
        tripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
    if (!count)
      return std::nullopt;
    own = *count;
  } else if (isa<scf::WhileOp>(op)) {
    return std::nullopt;
  }
  int64_t inner = 1;
  for (Region &region : op->getRegions())
    for (Operation &nested : region.getOps()) {
      if (nested.getNumRegions() == 0)
        continue;
      std::optional<int64_t> count = iterationsOf(&nested);
      if (!count)
        return std::nullopt;
      inner = std::max(inner, *count);
    }
  return own * inner;
}

/// The iterations of the loop's own dimensions, computed where it starts.
Value runTimeTripCount(OpBuilder &builder, scf::ParallelOp loop) {
  Location loc = loop.getLoc();
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value total = arith::ConstantIndexOp::create(builder, loc, 1);
  for (auto [lb, ub, st] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    Value span = arith::SubIOp::create(builder, loc, ub, lb);
    Value count = arith::CeilDivSIOp::create(builder, loc, span, st);
    count = arith::MaxSIOp::create(builder, loc, count, zero);
    total = arith::MulIOp::create(builder, loc, total, count);
  }
  return total;
}

/// Runs `loop` (no results, of a count unknown at compile time) in parallel
/// only when its count reaches `minIterations` at run time: the sequential
/// copy runs otherwise.
LogicalResult chooseAtRunTime(IRRewriter &rewriter, scf::ParallelOp loop,
                              int64_t minIterations) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  Value count = runTimeTripCount(rewriter, loop);
  Value threshold =
      arith::ConstantIndexOp::create(rewriter, loc, minIterations);
  Value large = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                      count, threshold);
  auto branch = scf::IfOp::create(rewriter, loc, TypeRange{}, large,
                                  /*withElseRegion=*/true);
  rewriter.setInsertionPoint(branch.elseBlock()->getTerminator());
  auto copy = cast<scf::ParallelOp>(rewriter.clone(*loop));
  rewriter.moveOpBefore(loop, branch.thenBlock()->getTerminator());
  rewriter.setInsertionPoint(copy);
  return scf::parallelForToNestedFors(rewriter, copy);
}

struct SequentialSmallLoopsPass
    : public amls::impl::AMLSSequentialSmallLoopsBase<
          SequentialSmallLoopsPass> {
  using AMLSSequentialSmallLoopsBase::AMLSSequentialSmallLoopsBase;

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> sequential, undecided;
    getOperation()->walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
      // Parallel loops inside a parallel loop run on its threads already:
      // as nested OpenMP regions they would start one per outer iteration.
      loop.getBody()->walk(
          [&](scf::ParallelOp nested) { sequential.push_back(nested); });
      // So do those in a parallel region (a parfor's workers, planned with
      // one inner thread each): a nested region would run serialized anyway,
      // and libomp keeps a team per worker for it that it never frees.
      std::optional<int64_t> iterations = iterationsOf(loop);
      if ((iterations && *iterations < minIterations) ||
          loop->getParentOfType<omp::ParallelOp>()) {
        sequential.push_back(loop);
        return WalkResult::skip();
      }
      // One region per iteration of the sequential loop around it: worth it
      // only for a large count.
      if (!iterations && loop.getNumResults() == 0 &&
          isa<scf::ForOp, scf::WhileOp>(loop->getParentOp()))
        undecided.push_back(loop);
      return WalkResult::skip();
    });
    IRRewriter rewriter(&getContext());
    // Innermost first: the walk listed nested loops in pre-order.
    for (scf::ParallelOp loop : llvm::reverse(sequential)) {
      rewriter.setInsertionPoint(loop);
      if (failed(scf::parallelForToNestedFors(rewriter, loop)))
        return signalPassFailure();
    }
    for (scf::ParallelOp loop : undecided)
      if (failed(chooseAtRunTime(rewriter, loop, minIterations)))
        return signalPassFailure();
  }
};

} // namespace
