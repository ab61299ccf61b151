//===- LowerShardCollectives.cpp - shard.all_reduce to the runtime's MPI ---===//
//
// --amls-lower-shard-collectives: each shard.all_reduce over the run's
// ranks (@amls_ranks, from --convert-amls-to-linalg) becomes a copy of its
// tensor into a fresh buffer that amls_rt_dist_all_reduce reduces in place
// on the process's one communicator; the grid goes once nothing names it.
// MLIR 22's --convert-shard-to-mpi would split a new communicator per call
// and never free it, and its LLVM lowering mis-names Open MPI's reduction
// handles (docs/design-notes.md, "Distributed runs").
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Runtime/ABI.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSLOWERSHARDCOLLECTIVES
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// The runtime's code for a reduction, or none for the kinds amls.all_reduce
/// never produces.
std::optional<int32_t> toRuntimeReduction(shard::ReductionKind kind) {
  switch (kind) {
  case shard::ReductionKind::Sum:
    return AMLS_AGG_SUM;
  case shard::ReductionKind::Min:
    return AMLS_AGG_MIN;
  case shard::ReductionKind::Max:
    return AMLS_AGG_MAX;
  default:
    return std::nullopt;
  }
}

struct LowerShardCollectivesPass
    : public amls::impl::AMLSLowerShardCollectivesBase<
          LowerShardCollectivesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<shard::AllReduceOp> reductions;
    module.walk([&](shard::AllReduceOp op) { reductions.push_back(op); });
    for (shard::AllReduceOp op : reductions) {
      auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
      std::optional<int32_t> kind = toRuntimeReduction(op.getReduction());
      if (!type || type.getRank() != 2 || !type.getElementType().isF64() ||
          op.getResult().getType() != type || !kind) {
        op.emitOpError("expected a sum, min or max of a 2-D f64 tensor over "
                       "the ranks, as amls.all_reduce lowers to");
        return signalPassFailure();
      }
      OpBuilder b(op);
      Location loc = op.getLoc();
      int64_t dyn = ShapedType::kDynamic;
      auto bufferType = MemRefType::get({dyn, dyn}, b.getF64Type());
      Value rows = tensor::DimOp::create(b, loc, op.getInput(), 0);
      Value cols = tensor::DimOp::create(b, loc, op.getInput(), 1);
      Value buffer =
          memref::AllocOp::create(b, loc, bufferType, ValueRange{rows, cols});
      Value source = bufferization::ToBufferOp::create(
          b, loc, MemRefType::get(type.getShape(), type.getElementType()),
          op.getInput(), /*readOnly=*/true);
      memref::CopyOp::create(
          b, loc, memref::CastOp::create(b, loc, bufferType, source), buffer);
      Value view = memref::CastOp::create(
          b, loc, getRuntimeMatrixType(b.getF64Type()), buffer);
      Value code = arith::ConstantIntOp::create(b, loc, *kind, 32);
      createRuntimeCall(b, loc, op, RuntimeFunction::DistAllReduce,
                        {view, code});
      Value reduced = bufferization::ToTensorOp::create(
          b, loc, RankedTensorType::get({dyn, dyn}, b.getF64Type()), buffer,
          /*restrict=*/b.getUnitAttr(), /*writable=*/b.getUnitAttr());
      if (reduced.getType() != type)
        reduced = tensor::CastOp::create(b, loc, type, reduced);
      op.getResult().replaceAllUsesWith(reduced);
      op.erase();
    }
    // The grids nothing refers to any more.
    for (auto grid :
         llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      if (SymbolTable::symbolKnownUseEmpty(grid, module))
        grid.erase();
  }
};

} // namespace
