//===- FailureTraps.cpp - Failures inside parallel regions ----------------===//

#include "AMLS/Codegen/Common/FailureTraps.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::amls;

/// glibc's setjmp that leaves the signal mask alone.
static constexpr StringLiteral kSetjmpName = "_setjmp";

bool mlir::amls::mayFailAtRunTime(Operation *op) {
  WalkResult walk = op->walk([](Operation *nested) {
    if (auto call = dyn_cast<func::CallOp>(nested)) {
      std::optional<RuntimeFunction> function = getCalledRuntimeFunction(call);
      if (!function || runtimeFunctionMayFail(*function))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    if (isa<CallOpInterface>(nested))
      return WalkResult::interrupt();
    // Heap allocations (the pool's budget); stack allocations cannot fail.
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (effects && effects.hasEffect<MemoryEffects::Allocate>()) {
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects<MemoryEffects::Allocate>(instances);
      if (llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
            return isa<SideEffects::DefaultResource>(e.getResource());
          }))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// `int _setjmp(jmp_buf)`, declared `returns_twice` so that LLVM keeps
/// nothing the jump back would lose in a register across the call.
static LLVM::LLVMFuncOp lookupOrCreateSetjmp(OpBuilder &builder,
                                             Operation *from) {
  auto module = from->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(kSetjmpName))
    return existing;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto pointer = LLVM::LLVMPointerType::get(builder.getContext());
  auto type = LLVM::LLVMFunctionType::get(builder.getI32Type(), {pointer});
  auto declaration =
      LLVM::LLVMFuncOp::create(builder, from->getLoc(), kSetjmpName, type);
  declaration.setPassthroughAttr(
      builder.getArrayAttr({builder.getStringAttr("returns_twice")}));
  return declaration;
}

Value mlir::amls::openFailureRecord(OpBuilder &builder, Location loc,
                                    Operation *from) {
  return createRuntimeCall(builder, loc, from, RuntimeFunction::RegionOpen, {});
}

void mlir::amls::closeFailureRecord(OpBuilder &builder, Location loc,
                                    Operation *from, Value record) {
  createRuntimeCall(builder, loc, from, RuntimeFunction::RegionClose, {record});
}

void mlir::amls::trapFailures(OpBuilder &builder, Value record,
                              Block::iterator begin, Block::iterator end) {
  if (begin == end)
    return;
  Operation *first = &*begin;
  Block *block = first->getBlock();
  Location loc = first->getLoc();
  llvm::SmallPtrSet<Operation *, 16> trapped;
  for (Operation &op : llvm::make_range(begin, end))
    trapped.insert(&op);
  SmallVector<Value> escaping;
  for (Operation &op : llvm::make_range(begin, end))
    for (Value result : op.getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !trapped.contains(block->findAncestorOpInBlock(*user));
          }))
        escaping.push_back(result);

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(first);
  LLVM::LLVMFuncOp setjmp = lookupOrCreateSetjmp(builder, first);
  Value buffer = createRuntimeCall(builder, loc, first,
                                   RuntimeFunction::RegionTrap, {record});
  Value null = LLVM::ZeroOp::create(builder, loc, buffer.getType());
  Value armed =
      LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ne, buffer, null);
  auto yieldPoison = [&](OpBuilder &nested, Location nestedLoc) {
    SmallVector<Value> poison;
    for (Value value : escaping)
      poison.push_back(
          ub::PoisonOp::create(nested, nestedLoc, value.getType()));
    scf::YieldOp::create(nested, nestedLoc, poison);
  };
  auto elseBuilder =
      escaping.empty() ? function_ref<void(OpBuilder &, Location)>()
                       : function_ref<void(OpBuilder &, Location)>(yieldPoison);
  scf::IfOp run;
  auto trap = scf::IfOp::create(
      builder, loc, armed,
      [&](OpBuilder &nested, Location nestedLoc) {
        // setjmp returns 0 when it sets the trap and 1 when a failure
        // jumps back to it.
        Value jumped =
            LLVM::CallOp::create(nested, nestedLoc, setjmp, ValueRange{buffer})
                .getResult();
        Value zero = arith::ConstantIntOp::create(nested, nestedLoc, 0, 32);
        Value set = arith::CmpIOp::create(
            nested, nestedLoc, arith::CmpIPredicate::eq, jumped, zero);
        run = scf::IfOp::create(
            nested, nestedLoc, set,
            [&](OpBuilder &inner, Location innerLoc) {
              scf::YieldOp::create(inner, innerLoc, escaping);
            },
            elseBuilder);
        createRuntimeCall(nested, nestedLoc, first,
                          RuntimeFunction::RegionUntrap, {});
        scf::YieldOp::create(nested, nestedLoc, run.getResults());
      },
      elseBuilder);

  Block *body = run.thenBlock();
  body->getOperations().splice(Block::iterator(body->getTerminator()),
                               block->getOperations(), begin, end);
  for (auto [value, result] : llvm::zip(escaping, trap.getResults()))
    value.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !trap->isAncestor(use.getOwner());
    });
}
