//===- MapParallelLoopsToGPU.cpp - Parallel loops as GPU thread blocks ----===//
//
// Chooses which of the program's parallel loops run on the GPU and how:
// tiles of the loop are thread blocks, the tiles' iterations threads.
// Upstream's --gpu-map-parallel-loops maps every loop and keeps the loop's
// dimensions in order (the outermost to the grid's x); here a loop that a
// kernel cannot run stays on the CPU, and so does one too small for a
// launch (the cost rule); the innermost dimension is the threads' x so that
// consecutive threads read consecutive cells.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Runtime/CUDA.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSMAPPARALLELLOOPSTOGPU
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Whether `value`, a memref, is (a view of) host-only memory: a global
/// constant of the host module.
bool isHostOnlyMemory(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<memref::GetGlobalOp>(def))
      return true;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return false;
    value = view.getViewSource();
  }
  return false;
}

/// Operations a kernel can run: computations and memory accesses of the
/// dialects convert-gpu-to-nvvm lowers, no calls and no allocations.
bool isKernelOperation(Operation *op) {
  if (isa<CallOpInterface>(op) || hasEffect<MemoryEffects::Allocate>(op) ||
      hasEffect<MemoryEffects::Free>(op))
    return false;
  // memref.copy becomes a call of memrefCopy; a global is host memory.
  if (isa<memref::CopyOp, memref::GetGlobalOp>(op))
    return false;
  Dialect *dialect = op->getDialect();
  return isa_and_nonnull<arith::ArithDialect, math::MathDialect,
                         index::IndexDialect, affine::AffineDialect,
                         scf::SCFDialect, memref::MemRefDialect>(dialect);
}

/// Whether `loop` can run as a kernel: no reduction results, one to three
/// dimensions (the grid's), only kernel operations, no host constants.
bool canRunAsKernel(scf::ParallelOp loop) {
  unsigned rank = loop.getNumLoops();
  if (loop.getNumResults() != 0 || rank == 0 || rank > 3)
    return false;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    if (!isKernelOperation(op))
      return WalkResult::interrupt();
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()) &&
          !loop->isAncestor(operand.getParentBlock()->getParentOp()) &&
          isHostOnlyMemory(operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// The bytes of the buffer `value` is (a view of), when its type says.
std::optional<int64_t> bufferBytes(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    value = view.getViewSource();
  }
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type || !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  return type.getNumElements() * ((type.getElementTypeBitWidth() + 7) / 8);
}

/// The iterations of `loop` (all its dimensions), when its bounds are
/// constants; saturates at INT64_MAX. A loop that does not say its bounds
/// (an scf.while) has unknown iterations.
std::optional<int64_t> tripCount(LoopLikeOpInterface loop) {
  std::optional<SmallVector<OpFoldResult>> lowers = loop.getLoopLowerBounds(),
                                           uppers = loop.getLoopUpperBounds(),
                                           steps = loop.getLoopSteps();
  if (!lowers || !uppers || !steps)
    return std::nullopt;
  int64_t count = 1;
  for (auto [lower, upper, step] : llvm::zip(*lowers, *uppers, *steps)) {
    std::optional<APInt> trips = constantTripCount(
        lower, upper, step, /*isSigned=*/true,
        [](Value, Value, bool) { return std::optional<llvm::APSInt>(); });
    if (!trips)
      return std::nullopt;
    if (trips->getActiveBits() > 63 ||
        llvm::MulOverflow(count, static_cast<int64_t>(trips->getZExtValue()),
                          count))
      return std::numeric_limits<int64_t>::max();
  }
  return count;
}

std::optional<int64_t> staticWork(LoopLikeOpInterface loop);

/// The work of the longest loop nest in `region` (1 without loops; loops
/// under other region ops, an scf.if's, count as if always run), when known.
std::optional<int64_t> longestNest(Region &region) {
  int64_t longest = 1;
  for (Operation &op : region.getOps()) {
    std::optional<int64_t> work = 1;
    if (auto loop = dyn_cast<LoopLikeOpInterface>(op)) {
      work = staticWork(loop);
    } else {
      for (Region &nested : op.getRegions()) {
        std::optional<int64_t> nestedWork = longestNest(nested);
        if (!nestedWork)
          return std::nullopt;
        work = std::max(*work, *nestedWork);
      }
    }
    if (!work)
      return std::nullopt;
    longest = std::max(longest, *work);
  }
  return longest;
}

/// `loop`'s iterations times the work of the longest loop nest in its
/// body, when all are known; saturates at INT64_MAX.
std::optional<int64_t> staticWork(LoopLikeOpInterface loop) {
  std::optional<int64_t> trips = tripCount(loop);
  if (!trips)
    return std::nullopt;
  int64_t inner = 1;
  for (Region *region : loop.getLoopRegions()) {
    std::optional<int64_t> work = longestNest(*region);
    if (!work)
      return std::nullopt;
    inner = std::max(inner, *work);
  }
  int64_t total;
  if (llvm::MulOverflow(*trips, inner, total))
    return std::numeric_limits<int64_t>::max();
  return total;
}

/// The cost rule (the pass's description): a loop of little work over
/// buffers the runtime keeps in host memory is cheaper on the CPU than a
/// launch.
bool isCheaperOnHost(scf::ParallelOp loop, int64_t minWork) {
  std::optional<int64_t> work = staticWork(loop);
  if (!work || *work >= minWork)
    return false;
  WalkResult walk = loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands()) {
      if (!isa<MemRefType>(operand.getType()) ||
          loop->isAncestor(operand.getParentBlock()->getParentOp()))
        continue;
      std::optional<int64_t> bytes = bufferBytes(operand);
      if (!bytes || *bytes > static_cast<int64_t>(
                                 ::amls::runtime::cuda::kHostPreferredBytes))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

gpu::ParallelLoopDimMappingAttr mapTo(Builder &b, gpu::Processor processor) {
  AffineMap identity = b.getDimIdentityMap();
  return gpu::ParallelLoopDimMappingAttr::get(b.getContext(), processor,
                                              identity, identity);
}

struct MapParallelLoopsToGPU
    : public mlir::amls::impl::AMLSMapParallelLoopsToGPUBase<
          MapParallelLoopsToGPU> {
  using Base::Base;

  void runOnOperation() override {
    if (minWork < 0) {
      getOperation()->emitError("amls-map-parallel-loops-to-gpu: expected "
                                "min-work >= 0, found ")
          << int64_t(minWork);
      return signalPassFailure();
    }
    if (blockSize < 1 || blockRows < 1 || blockSize * blockRows > 1024) {
      getOperation()->emitError("amls-map-parallel-loops-to-gpu: expected "
                                "block-size x block-rows between 1 and 1024 "
                                "threads, found ")
          << int64_t(blockSize) << " x " << int64_t(blockRows);
      return signalPassFailure();
    }
    SmallVector<scf::ParallelOp> candidates;
    getOperation()->walk<WalkOrder::PreOrder>([&](scf::ParallelOp loop) {
      candidates.push_back(loop);
      // Loops nested in this one run in its threads or on the CPU with it.
      return WalkResult::skip();
    });
    for (scf::ParallelOp loop : candidates) {
      if (!canRunAsKernel(loop)) {
        ++numHostLoops;
        continue;
      }
      if (isCheaperOnHost(loop, minWork)) {
        ++numHostLoops;
        ++numSmallLoops;
        continue;
      }
      map(loop);
      ++numKernelLoops;
    }
  }

  /// The launch's sizes must be constants where the tiles are: the tiled
  /// steps (step x tile size) and the tiles' bounds (affine.min of the tile
  /// size and what is left) fold to constants in the maps, which
  /// --convert-parallel-loops-to-gpu reads as the block's size.
  void foldTileBounds(scf::ParallelOp grid) {
    SmallVector<Operation *> ops;
    for (Value step : grid.getStep())
      if (Operation *def = step.getDefiningOp())
        ops.push_back(def);
    grid.getBody()->walk([&](affine::AffineMinOp min) { ops.push_back(min); });
    RewritePatternSet patterns(grid.getContext());
    arith::MulIOp::getCanonicalizationPatterns(patterns, grid.getContext());
    affine::AffineMinOp::getCanonicalizationPatterns(patterns,
                                                     grid.getContext());
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(ops, std::move(patterns), config);
  }

  void map(scf::ParallelOp loop) {
    unsigned rank = loop.getNumLoops();
    // A narrow innermost dimension (a reduction's 32 lanes) takes fewer
    // threads along x and more along y, for the same block size.
    int64_t innerTile = blockSize, rowTile = blockRows;
    std::optional<int64_t> lower =
        getConstantIntValue(loop.getLowerBound().back());
    std::optional<int64_t> upper =
        getConstantIntValue(loop.getUpperBound().back());
    std::optional<int64_t> step = getConstantIntValue(loop.getStep().back());
    if (lower && upper && step && *step > 0) {
      int64_t extent = (*upper - *lower + *step - 1) / *step;
      if (extent >= 1 && extent < blockSize) {
        innerTile = extent;
        rowTile = std::max<int64_t>(blockRows, blockSize * blockRows / extent);
      }
    }
    SmallVector<int64_t> tileSizes(rank, 1);
    tileSizes[rank - 1] = innerTile;
    if (rank >= 2)
      tileSizes[rank - 2] = rowTile;
    // tileParallelLoop erases `loop`: nothing of it is read after.
    Builder b(loop.getContext());
    auto [grid, block] =
        scf::tileParallelLoop(loop, tileSizes, /*noMinMaxBounds=*/false);
    static const gpu::Processor blocks[] = {
        gpu::Processor::BlockX, gpu::Processor::BlockY, gpu::Processor::BlockZ};
    static const gpu::Processor threads[] = {gpu::Processor::ThreadX,
                                             gpu::Processor::ThreadY,
                                             gpu::Processor::ThreadZ};
    SmallVector<gpu::ParallelLoopDimMappingAttr> gridMapping, blockMapping;
    for (unsigned dim = 0; dim < rank; ++dim) {
      gridMapping.push_back(mapTo(b, blocks[dim]));
      blockMapping.push_back(mapTo(b, threads[rank - 1 - dim]));
    }
    foldTileBounds(grid);
    (void)gpu::setMappingAttr(grid, gridMapping);
    (void)gpu::setMappingAttr(block, blockMapping);
    // --convert-parallel-loops-to-gpu only takes sequential loops nested
    // right in the mapped one; these may sit in an scf.for (the
    // reduction's loop), so they become scf.for nests here.
    SmallVector<scf::ParallelOp> nested;
    block.getBody()->walk(
        [&](scf::ParallelOp loop) { nested.push_back(loop); });
    IRRewriter rewriter(block.getContext());
    for (scf::ParallelOp loop : nested) {
      rewriter.setInsertionPoint(loop);
      if (failed(scf::parallelForToNestedFors(rewriter, loop)))
        llvm_unreachable("kernel loops have no results");
    }
  }
};

} // namespace
