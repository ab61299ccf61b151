//===- ElideWhileCopies.cpp - scf.while forwards its buffers uncopied -----===//
//
// One-shot bufferization of an scf.while copies a loop-carried buffer in
// the "before" region, at every iteration, unless the "after" region
// yields a buffer equivalent to its argument: `y = A %*% x` in a DML while
// loop yields the product's new buffer, so the old y was copied (8 MB per
// SpMV on a 1,000,000-row matrix, a third of the SpMV's own traffic). The
// copy gives the after region a buffer of its own, which matters only if
// something writes into a buffer the forwarded one may alias while the
// other is still read. Here the copy is dropped, and the argument
// forwarded, when that cannot happen:
//
// - the buffer forwarded, the after region's argument and the loop's
//   result are only read (through views and the results of scf.if inside
//   the after region; anything else, such as a call, a nested loop or a
//   return, counts as a write);
// - every buffer that can arrive as the before region's argument (the
//   initial value and what the after region yields) is the after region's
//   argument again, a buffer allocated inside the after region (new at
//   every iteration), or a buffer allocated outside the loop that nothing
//   writes inside the loop or after it.
//
// Everything else keeps its copy. Runs after one-shot bufferization and
// before the deallocation pipeline, which then passes the ownership.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSELIDEWHILECOPIES
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;

namespace {

/// Whether `op` may write or free `value` (an operand of it).
bool mayWrite(Operation *op, Value value) {
  if (isa<memref::LoadOp, memref::DimOp, memref::ExtractStridedMetadataOp,
          memref::ExtractAlignedPointerAsIndexOp>(op))
    return false;
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return copy.getTarget() == value;
  // A runtime kernel reads the arrays of its CSR arguments.
  if (auto call = dyn_cast<func::CallOp>(op))
    return llvm::any_of(call->getOpOperands(), [&](OpOperand &operand) {
      return operand.get() == value &&
             !amls::runtimeCallOnlyReads(call, operand.getOperandNumber());
    });
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffectsOnValue(value, instances);
  // An op that reports no effect on its operand may still have effects it
  // does not attribute to a value.
  SmallVector<MemoryEffects::EffectInstance> unattributed;
  effects.getEffects(unattributed);
  for (const MemoryEffects::EffectInstance &effect : unattributed)
    if (!effect.getValue() && !effect.getSymbolRef() &&
        (isa<MemoryEffects::Write>(effect.getEffect()) ||
         isa<MemoryEffects::Free>(effect.getEffect())))
      return true;
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Write>(e.getEffect()) ||
           isa<MemoryEffects::Free>(e.getEffect());
  });
}

/// The view `user` makes of `v` (a view-like op or a cast), or the
/// buffer an arith.select may pass `v` on as (the canonicalizer turns an
/// scf.if that yields one of two buffers into a select), or null.
Value viewOf(Operation *user, Value v) {
  if (auto view = dyn_cast<ViewLikeOpInterface>(user))
    if (view.getViewSource() == v)
      return view->getResult(0);
  if (isa<memref::CastOp>(user))
    return user->getResult(0);
  if (auto select = dyn_cast<arith::SelectOp>(user))
    if (select.getCondition() != v)
      return select.getResult();
  return nullptr;
}

/// Visits `start` and each value `visit` adds to the worklist, once each;
/// false as soon as `visit` returns false. The walks below follow a buffer
/// through its views, scf.if results and uses.
bool visitEach(Value start,
               function_ref<bool(Value, SmallVectorImpl<Value> &)> visit) {
  SmallVector<Value> work{start};
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (seen.insert(v).second && !visit(v, work))
      return false;
  }
  return true;
}

/// Whether every use of `value` only reads it: through view-like ops and
/// the results of scf.if, and into `allowedYield` (the after region's
/// terminator, whose operands become the before region's arguments, which
/// are checked on their own). `ignored` is one use to skip (the copy).
bool onlyRead(Value value, Operation *allowedYield, Operation *ignored) {
  return visitEach(value, [&](Value v, SmallVectorImpl<Value> &work) {
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (user == ignored || user == allowedYield)
        continue;
      if (Value derived = viewOf(user, v)) {
        work.push_back(derived);
        continue;
      }
      if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        if (auto ifOp = dyn_cast<scf::IfOp>(yield->getParentOp())) {
          work.push_back(ifOp.getResult(use.getOperandNumber()));
          continue;
        }
        return false;
      }
      // A return hands the buffer to a caller that may write it.
      if (user->hasTrait<OpTrait::IsTerminator>() || mayWrite(user, v))
        return false;
    }
    return true;
  });
}

/// The buffers `value` may be (through views and scf.if results), or
/// nothing when one of them is not an allocation or a block argument.
bool collectRoots(Value value, SmallVectorImpl<Value> &roots) {
  return visitEach(value, [&](Value v, SmallVectorImpl<Value> &work) {
    if (isa<BlockArgument>(v)) {
      roots.push_back(v);
      return true;
    }
    Operation *def = v.getDefiningOp();
    auto call = dyn_cast<func::CallOp>(def);
    if (isa<memref::AllocOp, memref::AllocaOp>(def) ||
        (call && amls::runtimeCallReturnsNewBuffer(call))) {
      roots.push_back(v);
      return true;
    }
    if (auto select = dyn_cast<arith::SelectOp>(def)) {
      work.push_back(select.getTrueValue());
      work.push_back(select.getFalseValue());
      return true;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      work.push_back(view.getViewSource());
      return true;
    }
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      work.push_back(cast.getSource());
      return true;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      unsigned index = cast<OpResult>(v).getResultNumber();
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
        if (!region->empty())
          work.push_back(cast<scf::YieldOp>(region->front().getTerminator())
                             .getOperand(index));
      return true;
    }
    return false;
  });
}

/// Whether nothing writes `root` (an allocation outside `loop` or a
/// function argument), under any name, inside `loop` or after it.
bool untouchedFrom(Value root, scf::WhileOp loop) {
  Block *loopBlock = loop->getBlock();
  Operation *afterYield = loop.getAfter().front().getTerminator();
  return visitEach(root, [&](Value v, SmallVectorImpl<Value> &work) {
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      Operation *inBlock = loopBlock->findAncestorOpInBlock(*user);
      // Uses in other blocks (around the loop) are not looked at: refuse.
      if (!inBlock)
        return false;
      // Other names for the buffer, wherever they are made.
      if (Value derived = viewOf(user, v)) {
        work.push_back(derived);
        continue;
      }
      if (auto yield = dyn_cast<scf::YieldOp>(user))
        if (auto ifOp = dyn_cast<scf::IfOp>(yield->getParentOp())) {
          work.push_back(ifOp.getResult(use.getOperandNumber()));
          continue;
        }
      // Writes before the loop, in its block, are fine.
      if (inBlock != loop && inBlock->isBeforeInBlock(loop) &&
          !user->hasTrait<OpTrait::IsTerminator>())
        continue;
      // Flowing into the loop, or carried to the next iteration: the
      // loop's own check covers its arguments.
      if (user == loop || user == afterYield)
        continue;
      if (mayWrite(user, v) || isa<RegionBranchOpInterface>(user) ||
          isa<RegionBranchTerminatorOpInterface>(user))
        return false;
    }
    return true;
  });
}

/// Drops the copy of before-argument `index` forwarded as condition operand
/// `operand` when the conditions of the file comment hold.
bool elide(scf::WhileOp loop, scf::ConditionOp condition, unsigned operand) {
  Value forwarded = condition.getArgs()[operand];
  auto alloc = forwarded.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != &loop.getBefore().front() ||
      !forwarded.hasNUses(2))
    return false;
  memref::CopyOp copy;
  for (Operation *user : forwarded.getUsers())
    if (auto c = dyn_cast<memref::CopyOp>(user))
      copy = c;
  if (!copy || copy.getTarget() != forwarded ||
      copy->getBlock() != alloc->getBlock())
    return false;
  auto source = dyn_cast<BlockArgument>(copy.getSource());
  if (!source || source.getOwner() != &loop.getBefore().front() ||
      source.getType() != forwarded.getType())
    return false;
  unsigned index = source.getArgNumber();
  Block &after = loop.getAfter().front();
  Operation *yield = after.getTerminator();
  // Everything the forwarded buffer is called is only read.
  if (!onlyRead(source, nullptr, copy) ||
      !onlyRead(after.getArgument(operand), yield, nullptr) ||
      !onlyRead(loop->getResult(operand), nullptr, nullptr))
    return false;
  // What arrives as the before region's argument.
  SmallVector<Value> roots;
  if (!collectRoots(loop.getInits()[index], roots) ||
      !collectRoots(yield->getOperand(index), roots))
    return false;
  for (Value root : roots) {
    if (root == after.getArgument(operand))
      continue;
    Operation *def = root.getDefiningOp();
    if (def && loop.getAfter().isAncestor(def->getParentRegion()))
      continue; // new at every iteration
    if (def && loop->isAncestor(def))
      return false;
    auto arg = dyn_cast<BlockArgument>(root);
    if (arg && !isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return false;
    if (!untouchedFrom(root, loop))
      return false;
  }
  condition->setOperand(operand + 1, source);
  copy->erase();
  alloc->erase();
  return true;
}

struct AMLSElideWhileCopiesPass
    : public amls::impl::AMLSElideWhileCopiesBase<AMLSElideWhileCopiesPass> {
  void runOnOperation() override {
    SmallVector<scf::WhileOp> loops;
    getOperation()->walk([&](scf::WhileOp loop) { loops.push_back(loop); });
    for (scf::WhileOp loop : loops) {
      scf::ConditionOp condition = loop.getConditionOp();
      for (unsigned i = 0, e = condition.getArgs().size(); i < e; ++i)
        if (isa<MemRefType>(condition.getArgs()[i].getType()))
          elide(loop, condition, i);
    }
  }
};

} // namespace
