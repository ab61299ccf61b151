//===- PrefetchGPUBuffers.cpp - Bulk migrations where a buffer changes side
//===//
//
// Under --target=gpu every buffer is managed memory, which the driver
// migrates page by page to the side that touches it. Where the compiler
// knows that a buffer's side changes (a kernel reads what the host wrote, the
// host reads what a kernel wrote), a bulk migration before the access moves
// it at the bus's bandwidth instead of fault by fault, and is counted: the
// explicit copies of device-resident matrices, at the program's inputs, its
// outputs and where a CPU-only operation needs a kernel's result.
//
// The analysis follows each buffer (a view's allocation) through the
// structured control flow with what is known of its side: fresh (just
// allocated: nothing of the program's to move), on the host, on the
// device, unknown (a program input), or mixed (either, as after a branch
// that moves it). Loops are iterated to a fixpoint first, so a
// matrix that stays on the device across the iterations of CG's loop moves
// once, before the loop.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Runtime/CUDA.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSPREFETCHGPUBUFFERS
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Where a buffer's pages are. Fresh: just allocated, whatever the pool's
/// block held is not the program's data, so nothing needs to move for it.
enum class Side : uint8_t { Unknown, Fresh, Host, Device, Mixed };

/// What is known of a buffer reached along either of two paths.
Side merge(Side a, Side b) {
  if (a == b)
    return a;
  auto mayBeOnDevice = [](Side side) {
    return side == Side::Device || side == Side::Mixed;
  };
  return mayBeOnDevice(a) || mayBeOnDevice(b) ? Side::Mixed : Side::Unknown;
}

/// Sides by buffer (an allocation, or a value whose origin is not followed:
/// an argument, a call's result); a buffer not in the map is Unknown.
using State = llvm::SmallDenseMap<Value, Side, 16>;

State merge(const State &a, const State &b) {
  State merged;
  for (auto [buffer, side] : a)
    merged[buffer] = merge(side, b.lookup(buffer));
  for (auto [buffer, side] : b)
    if (!a.count(buffer))
      merged[buffer] = merge(Side::Unknown, side);
  return merged;
}

bool operator==(const State &a, const State &b) {
  auto get = [](const State &state, Value buffer) {
    auto it = state.find(buffer);
    return it == state.end() ? Side::Unknown : it->second;
  };
  for (auto [buffer, side] : a)
    if (get(b, buffer) != side)
      return false;
  for (auto [buffer, side] : b)
    if (get(a, buffer) != side)
      return false;
  return true;
}

/// The allocation a view reads: views (subviews, reshapes, transposes,
/// casts) are followed to their sources.
/// A view of an unranked memref stops there. (memref::skipViewLikeOps
/// follows ViewLikeOpInterface only, which memref.transpose does not
/// implement in MLIR 22, and steps into unranked sources.)
Value bufferOf(Value memref) {
  while (Operation *definition = memref.getDefiningOp()) {
    Value source;
    if (auto view = dyn_cast<ViewLikeOpInterface>(definition))
      source = view.getViewSource();
    else if (auto transpose = dyn_cast<memref::TransposeOp>(definition))
      source = transpose.getIn();
    else if (auto cast = dyn_cast<memref::CastOp>(definition))
      source = cast.getSource();
    if (!source || !isa<MemRefType>(source.getType()))
      break;
    memref = source;
  }
  return memref;
}

/// The bytes of an element the runtime can migrate a buffer of: numbers
/// and indices (64 bits).
std::optional<uint64_t> elementBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  return std::nullopt;
}

/// Whether a load or store touches a single cell rather than sweeping the
/// buffer: no index depends on any loop around it (within the function).
/// Such an access is left to the driver's faults, which move one page.
bool touchesOneCell(Operation *op, ValueRange indices) {
  for (Operation *loop = op->getParentOp();
       loop && !isa<FunctionOpInterface>(loop); loop = loop->getParentOp())
    if (isa<LoopLikeOpInterface>(loop) &&
        llvm::any_of(indices, [&](Value index) {
          return loop->isAncestor(index.getParentRegion()->getParentOp());
        }))
      return false;
  return true;
}

/// Whether a buffer of this type is always small enough to stay on the
/// host (the runtime's kHostPreferredBytes): no migration for it.
bool alwaysHostPreferred(MemRefType type) {
  std::optional<uint64_t> bytes = elementBytes(type.getElementType());
  return bytes && type.hasStaticShape() &&
         type.getNumElements() * *bytes <=
             ::amls::runtime::cuda::kHostPreferredBytes;
}

/// The sides a loop's iteration touches each buffer on.
using Touches = llvm::SmallDenseMap<Value, unsigned, 16>;
constexpr unsigned kTouchedOnHost = 1, kTouchedOnDevice = 2;

class Placement {
public:
  Placement(bool insert, unsigned &inserted, Touches *touches = nullptr)
      : insert(insert), inserted(inserted), touches(touches) {}

  void processBlock(Block &block, State &state) {
    for (Operation &op : llvm::make_early_inc_range(block))
      processOp(&op, state);
  }

private:
  bool insert;
  unsigned &inserted;
  /// Where a dry run records the sides of the accesses it sees.
  Touches *touches;

  void processOp(Operation *op, State &state) {
    if (auto launch = dyn_cast<gpu::LaunchOp>(op))
      return accessUsedAbove(op, Side::Device, state);
    if (auto call = dyn_cast<func::CallOp>(op)) {
      std::optional<RuntimeFunction> function = getCalledRuntimeFunction(call);
      if (!function) {
        // A function of the program may run kernels of its own.
        for (Value operand : call.getOperands())
          if (isa<MemRefType>(operand.getType()))
            state[bufferOf(operand)] = Side::Mixed;
        return;
      }
      if (!runtimeFunctionRunsOnDevice(*function))
        return accessOperands(op, Side::Host, state);
      // cuSPARSE's calls read a CSR's row pointers on the host (they are
      // narrowed there for each call); the rest goes to the device.
      std::optional<unsigned> onHost = getHostReadOperand(*function);
      for (auto [index, operand] : llvm::enumerate(call.getOperands()))
        if (isa<MemRefType>(operand.getType()))
          access(op, operand, index == onHost ? Side::Host : Side::Device,
                 state);
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op))
      return processLoop(op, state, {&loop.getRegion()});
    if (auto loop = dyn_cast<scf::WhileOp>(op))
      return processLoop(op, state, {&loop.getBefore(), &loop.getAfter()});
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      State otherwise = state;
      processBlock(branch.getThenRegion().front(), state);
      if (!branch.getElseRegion().empty())
        processBlock(branch.getElseRegion().front(), otherwise);
      state = merge(state, otherwise);
      return;
    }
    if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
      state[op->getResult(0)] = Side::Fresh;
      return;
    }
    // Views and metadata (no memory effects) and deallocations do not touch
    // the data; loop results and carried values are not accesses either.
    if (!isa<func::ReturnOp>(op) &&
        ((op->getNumRegions() == 0 && isMemoryEffectFree(op)) ||
         isa<memref::DeallocOp>(op) || op->hasTrait<OpTrait::IsTerminator>()))
      return;
    // Other regions with device work in them run once, in order.
    if (op->getNumRegions() && containsDeviceWork(op)) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          processBlock(block, state);
      return;
    }
    // A single cell read or written on the host moves no buffer.
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && touchesOneCell(op, load.getIndices()))
      return;
    if (auto store = dyn_cast<memref::StoreOp>(op);
        store && touchesOneCell(op, store.getIndices()))
      return;
    // The host's: loads and stores, loops kept on the CPU, the program's
    // results.
    accessOperands(op, Side::Host, state);
    if (op->getNumRegions())
      accessUsedAbove(op, Side::Host, state);
  }

  static bool containsDeviceWork(Operation *op) {
    return op
        ->walk([](Operation *nested) {
          if (isa<gpu::LaunchOp>(nested))
            return WalkResult::interrupt();
          if (auto call = dyn_cast<func::CallOp>(nested))
            if (std::optional<RuntimeFunction> function =
                    getCalledRuntimeFunction(call);
                function && runtimeFunctionRunsOnDevice(*function))
              return WalkResult::interrupt();
          return WalkResult::advance();
        })
        .wasInterrupted();
  }

  /// A loop whose regions run in order each iteration. A buffer from
  /// outside that the loop touches on one side only moves before the loop,
  /// once. Then the state at the regions' entry is what holds before the
  /// loop merged with what holds after an iteration, to a fixpoint; after
  /// the loop, either (no iteration).
  void processLoop(Operation *loop, State &state, ArrayRef<Region *> regions) {
    unsigned ignored = 0;
    Touches touched;
    {
      State iteration = state;
      Placement survey(/*insert=*/false, ignored, &touched);
      for (Region *region : regions)
        survey.processBlock(region->front(), iteration);
    }
    for (auto [buffer, sides] : touched) {
      Region *home = buffer.getParentRegion();
      bool outside = llvm::none_of(
          regions, [&](Region *region) { return region->isAncestor(home); });
      if (outside && (sides == kTouchedOnHost || sides == kTouchedOnDevice))
        access(loop, buffer,
               sides == kTouchedOnDevice ? Side::Device : Side::Host, state);
    }
    State before = state, entry = state;
    Placement dry(/*insert=*/false, ignored);
    for (int round = 0; round < 4; ++round) {
      State iteration = entry;
      for (Region *region : regions)
        dry.processBlock(region->front(), iteration);
      State next = merge(before, iteration);
      if (next == entry)
        break;
      entry = next;
    }
    for (Region *region : regions)
      processBlock(region->front(), entry);
    state = merge(before, entry);
  }

  void accessOperands(Operation *op, Side side, State &state) {
    for (Value operand : op->getOperands())
      if (isa<MemRefType>(operand.getType()))
        access(op, operand, side, state);
  }

  void accessUsedAbove(Operation *op, Side side, State &state) {
    SetVector<Value> used;
    for (Region &region : op->getRegions())
      getUsedValuesDefinedAbove(region, region, used);
    for (Value value : used)
      if (isa<MemRefType>(value.getType()))
        access(op, value, side, state);
  }

  /// Before `op` touches `memref` on `side`: a bulk migration where the
  /// buffer may be on the other side.
  void access(Operation *op, Value memref, Side side, State &state) {
    Value buffer = bufferOf(memref);
    if (touches)
      (*touches)[buffer] |=
          side == Side::Device ? kTouchedOnDevice : kTouchedOnHost;
    Side current = state.lookup(buffer);
    bool migrate = side == Side::Device
                       ? current != Side::Device && current != Side::Fresh
                       : current == Side::Device || current == Side::Mixed;
    state[buffer] = side;
    auto type = cast<MemRefType>(buffer.getType());
    if (!migrate || alwaysHostPreferred(type) ||
        !elementBytes(type.getElementType()) || !type.isStrided())
      return;
    if (insert)
      emitPrefetch(op, buffer, side == Side::Device);
    ++inserted;
  }

  /// amls_rt_gpu_prefetch(address, bytes, to_device) over the elements the
  /// buffer's layout spans.
  void emitPrefetch(Operation *op, Value buffer, bool toDevice) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    auto type = cast<MemRefType>(buffer.getType());
    Type i64 = b.getI64Type();
    auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, buffer);
    Value elementSize = arith::ConstantIndexOp::create(
        b, loc, *elementBytes(type.getElementType()));
    // 1 + sum((size - 1) * stride) elements, none when a size is 0.
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value span = one, empty = arith::ConstantIntOp::create(b, loc, 0, 1);
    for (auto [size, stride] :
         llvm::zip(metadata.getSizes(), metadata.getStrides())) {
      Value last = arith::SubIOp::create(b, loc, size, one);
      span = arith::AddIOp::create(b, loc, span,
                                   arith::MulIOp::create(b, loc, last, stride));
      empty = arith::OrIOp::create(
          b, loc, empty,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, zero));
    }
    span = arith::SelectOp::create(b, loc, empty, zero, span);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, buffer);
    Value address = arith::AddIOp::create(
        b, loc, base,
        arith::MulIOp::create(b, loc, metadata.getOffset(), elementSize));
    Value bytes = arith::MulIOp::create(b, loc, span, elementSize);
    Value args[] = {arith::IndexCastOp::create(b, loc, i64, address),
                    arith::IndexCastOp::create(b, loc, i64, bytes),
                    arith::ConstantIntOp::create(b, loc, toDevice ? 1 : 0, 32)};
    createRuntimeCall(b, loc, op, RuntimeFunction::GpuPrefetch, args);
  }
};

struct PrefetchGPUBuffers
    : public mlir::amls::impl::AMLSPrefetchGPUBuffersBase<PrefetchGPUBuffers> {
  void runOnOperation() override {
    unsigned inserted = 0;
    // The runtime's declarations are added to the module as calls are made.
    SmallVector<func::FuncOp> functions(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp function : functions) {
      if (function.isExternal())
        continue;
      for (Block &block : function.getBody()) {
        State state;
        Placement(/*insert=*/true, inserted).processBlock(block, state);
      }
    }
    numPrefetches += inserted;
  }
};

} // namespace
