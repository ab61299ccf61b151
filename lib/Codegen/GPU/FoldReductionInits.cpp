//===- FoldReductionInits.cpp - Reductions accumulate in registers --------===//
//
// After --convert-linalg-to-parallel-loops a reduction into a fresh buffer
// is two parallel loops over the same space: one stores the neutral value
// into every cell (the linalg.fill of the reduction's output), the next
// loads the cell, adds to it and stores it back in every iteration of its
// sequential loop. On the GPU each is a kernel, and the accumulator lives
// in global memory. Here the cell is carried through the sequential loop
// as a value that starts at the neutral value and is stored once after the
// loop, and the filling loop goes: one kernel instead of two, and a
// register instead of a load and a store per iteration.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSFOLDREDUCTIONINITS
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Whether `indices` are exactly the induction variables of `loop`.
bool indexesByInductionVariables(OperandRange indices, scf::ParallelOp loop) {
  return llvm::equal(indices, loop.getInductionVars());
}

/// Whether two parallel loops iterate over the same space.
bool sameIterationSpace(scf::ParallelOp a, scf::ParallelOp b) {
  auto equal = [](ValueRange x, ValueRange y) {
    return x.size() == y.size() && llvm::all_of(llvm::zip(x, y), [](auto pair) {
             return isEqualConstantIntOrValue(
                 getAsOpFoldResult(std::get<0>(pair)),
                 getAsOpFoldResult(std::get<1>(pair)));
           });
  };
  return equal(a.getLowerBound(), b.getLowerBound()) &&
         equal(a.getUpperBound(), b.getUpperBound()) &&
         equal(a.getStep(), b.getStep());
}

/// The store of a loop that only fills a fresh buffer with a value defined
/// outside it, each iteration its own cell.
memref::StoreOp getFillStore(scf::ParallelOp loop) {
  Block *body = loop.getBody();
  if (loop.getNumResults() != 0 || body->getOperations().size() != 2)
    return nullptr;
  auto store = dyn_cast<memref::StoreOp>(body->front());
  if (!store || !store.getMemRef().getDefiningOp<memref::AllocOp>() ||
      !loop.isDefinedOutsideOfLoop(store.getValueToStore()) ||
      !indexesByInductionVariables(store.getIndices(), loop))
    return nullptr;
  return store;
}

/// A reduction that `fill` initializes: the load and the store of the
/// buffer's cell in a sequential loop directly in `reduction`'s body.
struct Accumulation {
  scf::ForOp loop;
  memref::LoadOp load;
  memref::StoreOp store;
};

/// The accumulation into `fill`'s buffer by the next loop that uses it, if
/// that loop iterates over the same space and touches the buffer only in
/// one load and one later store of its own cell in the same sequential loop
/// directly in its body. Nothing between the two loops may use the buffer.
std::optional<Accumulation> findAccumulation(scf::ParallelOp fill,
                                             memref::StoreOp fillStore) {
  Value buffer = fillStore.getMemRef();
  Block *block = fill->getBlock();
  // Where each user is in the fill's block (null: elsewhere).
  SmallVector<std::pair<Operation *, Operation *>> users;
  for (Operation *user : buffer.getUsers())
    if (user != fillStore)
      users.push_back({user, block->findAncestorOpInBlock(*user)});
  Operation *first = nullptr;
  for (auto [user, ancestor] : users) {
    if (!ancestor || ancestor == fill || !fill->isBeforeInBlock(ancestor))
      return std::nullopt;
    if (!first || ancestor->isBeforeInBlock(first))
      first = ancestor;
  }
  auto reduction = dyn_cast_or_null<scf::ParallelOp>(first);
  if (!reduction || !sameIterationSpace(fill, reduction))
    return std::nullopt;
  memref::LoadOp load;
  memref::StoreOp store;
  for (auto [user, ancestor] : users) {
    if (ancestor != reduction)
      continue;
    if (auto read = dyn_cast<memref::LoadOp>(user); read && !load)
      load = read;
    else if (auto write = dyn_cast<memref::StoreOp>(user);
             write && !store && write.getMemRef() == buffer)
      store = write;
    else
      return std::nullopt;
  }
  if (!load || !store || load->getBlock() != store->getBlock() ||
      !load->isBeforeInBlock(store) ||
      !indexesByInductionVariables(load.getIndices(), reduction) ||
      !indexesByInductionVariables(store.getIndices(), reduction))
    return std::nullopt;
  auto loop = dyn_cast<scf::ForOp>(load->getParentOp());
  if (!loop || loop->getParentOp() != reduction)
    return std::nullopt;
  return Accumulation{loop, load, store};
}

struct FoldReductionInits
    : public amls::impl::AMLSFoldReductionInitsBase<FoldReductionInits> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) { loops.push_back(loop); });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp fill : loops) {
      memref::StoreOp fillStore = getFillStore(fill);
      if (!fillStore)
        continue;
      std::optional<Accumulation> accumulation =
          findAccumulation(fill, fillStore);
      if (!accumulation)
        continue;
      fold(rewriter, fill, fillStore, *accumulation);
      ++numFolded;
    }
  }

  /// The cell becomes a value the sequential loop carries from the fill's
  /// value, stored once after the loop; the filling loop goes.
  void fold(IRRewriter &rewriter, scf::ParallelOp fill,
            memref::StoreOp fillStore, Accumulation accumulation) {
    Value updated = accumulation.store.getValueToStore();
    rewriter.setInsertionPoint(accumulation.loop);
    FailureOr<LoopLikeOpInterface> replaced =
        accumulation.loop.replaceWithAdditionalYields(
            rewriter, fillStore.getValueToStore(),
            /*replaceInitOperandUsesInLoop=*/false,
            [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
              return SmallVector<Value>{updated};
            });
    auto loop = cast<scf::ForOp>(replaced->getOperation());
    rewriter.replaceOp(accumulation.load, loop.getRegionIterArgs().back());
    rewriter.setInsertionPointAfter(loop);
    memref::StoreOp::create(
        rewriter, accumulation.store.getLoc(), loop.getResults().back(),
        accumulation.store.getMemRef(), accumulation.store.getIndices());
    rewriter.eraseOp(accumulation.store);
    rewriter.eraseOp(fill);
  }
};

} // namespace
