//===- Collectives.cpp - Lower a distributed run's collectives ------------===//
//
// amls.all_reduce of a matrix becomes upstream shard.all_reduce on its
// tensor over the one-axis grid @amls_ranks (--amls-lower-shard-collectives
// lowers it to the runtime, docs/design-notes.md says why not through
// MLIR 22's shard-to-mpi); of a scalar, a runtime call. amls.all_gather_rows
// has no upstream counterpart for blocks of unequal size (shard.all_gather
// concatenates equal shards), so it is a runtime call, as is the row range
// of amls.local_rows, a parfor's share of iterations (amls.local_iterations)
// and the merge of its results over the ranks (amls.merge_ranks).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
#include "LoweringUtils.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

/// The grid of the run's ranks, one axis of a size known at run time.
static constexpr StringLiteral kRanksGridName = "amls_ranks";

/// @amls_ranks in the module of `op`, created on first use.
static void ensureRanksGrid(ConversionPatternRewriter &rewriter,
                            Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  if (SymbolTable::lookupSymbolIn(module, kRanksGridName))
    return;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(module.getBody());
  shard::GridOp::create(rewriter, module.getLoc(), kRanksGridName,
                        ArrayRef<int64_t>{ShapedType::kDynamic});
}

static shard::ReductionKind toShardReduction(AggKind kind) {
  switch (kind) {
  case AggKind::Min:
    return shard::ReductionKind::Min;
  case AggKind::Max:
    return shard::ReductionKind::Max;
  default:
    return shard::ReductionKind::Sum;
  }
}

/// This rank's first index and count of `count64` (i64) rows or
/// iterations, as index values: DAPHNE's split, which the runtime keeps.
static std::pair<Value, Value> rankShare(ConversionPatternRewriter &rewriter,
                                         Location loc, Operation *op,
                                         Value count64) {
  auto index = [&](RuntimeFunction function) {
    return arith::IndexCastOp::create(
               rewriter, loc, rewriter.getIndexType(),
               callRuntime(rewriter, loc, op, function, {count64}))
        .getResult();
  };
  return {index(RuntimeFunction::DistRowBegin),
          index(RuntimeFunction::DistRowCount)};
}

namespace {

struct LowerAllReduce : public LowerToValue<AllReduceOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(AllReduceOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value kind = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(op.getKind()), 32);
    Type type = input.getType();
    if (isa<RankedTensorType>(type)) {
      ensureRanksGrid(rewriter, op);
      return shard::AllReduceOp::create(rewriter, loc, type, kRanksGridName,
                                        ArrayRef<shard::GridAxis>{0}, input,
                                        toShardReduction(op.getKind()))
          .getResult();
    }
    if (type.isF64())
      return callRuntime(rewriter, loc, op, RuntimeFunction::DistAllReduceF64,
                         {input, kind});
    if (type.isInteger(64))
      return callRuntime(rewriter, loc, op, RuntimeFunction::DistAllReduceI64,
                         {input, kind});
    if (type.isIndex()) {
      Value wide = arith::IndexCastOp::create(rewriter, loc,
                                              rewriter.getI64Type(), input);
      Value reduced = callRuntime(rewriter, loc, op,
                                  RuntimeFunction::DistAllReduceI64,
                                  {wide, kind});
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                        reduced)
          .getResult();
    }
    return rewriter.notifyMatchFailure(op, "expected an f64, i64 or index "
                                           "scalar or a dense matrix");
  }
};

struct LowerAllGatherRows : public LowerToValue<AllGatherRowsOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(AllGatherRowsOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value block = adaptor.getInput();
    Value localRows = tensor::DimOp::create(rewriter, loc, block, 0);
    Value cols = tensor::DimOp::create(rewriter, loc, block, 1);
    Value sum = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(AggKind::Sum), 32);
    Value rows64 = callRuntime(
        rewriter, loc, op, RuntimeFunction::DistAllReduceI64,
        {arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                    localRows),
         sum});
    Value rows = arith::IndexCastOp::create(rewriter, loc,
                                            rewriter.getIndexType(), rows64);
    Value source = asRuntimeMatrix(rewriter, loc, block);
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    return tensorFromRuntime(
        rewriter, loc, tensorType(op.getResult()), rows, cols,
        [&](Value whole) {
          callRuntime(rewriter, loc, op, RuntimeFunction::DistGatherRows,
                      {source, whole, where});
        });
  }
};

/// The block is a slice of the replicated tensor: no communication.
struct LowerLocalRows : public LowerToValue<LocalRowsOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(LocalRowsOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value whole = adaptor.getInput();
    Value rows = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getI64Type(),
        tensor::DimOp::create(rewriter, loc, whole, 0));
    auto [begin, count] = rankShare(rewriter, loc, op, rows);
    Value cols = tensor::DimOp::create(rewriter, loc, whole, 1);
    OpFoldResult zero = rewriter.getIndexAttr(0), one = rewriter.getIndexAttr(1);
    return tensor::ExtractSliceOp::create(
               rewriter, loc, whole, ArrayRef<OpFoldResult>{begin, zero},
               ArrayRef<OpFoldResult>{count, cols},
               ArrayRef<OpFoldResult>{one, one})
        .getResult();
  }
};

/// The iterations' count n, then DAPHNE's split of it (as rows are split),
/// or every N-th iteration from the rank's own.
struct LowerLocalIterations : public AMLSPattern<LocalIterationsOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(LocalIterationsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lb = adaptor.getLowerBound(), ub = adaptor.getUpperBound(),
          step = adaptor.getStep();
    if (op.getCyclic()) {
      Value rank = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(),
          callRuntime(rewriter, loc, op, RuntimeFunction::DistRank, {}));
      Value ranks = arith::IndexCastOp::create(
          rewriter, loc, rewriter.getIndexType(),
          callRuntime(rewriter, loc, op, RuntimeFunction::DistSize, {}));
      Value localLb = arith::AddIOp::create(
          rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, rank, step));
      rewriter.replaceOp(
          op, {localLb, ub, arith::MulIOp::create(rewriter, loc, step, ranks)});
      return success();
    }
    Value zero = indexConstant(rewriter, loc, 0);
    Value span = arith::MaxSIOp::create(
        rewriter, loc, arith::SubIOp::create(rewriter, loc, ub, lb), zero);
    Value count = arith::CeilDivSIOp::create(rewriter, loc, span, step);
    Value count64 = arith::IndexCastOp::create(rewriter, loc,
                                               rewriter.getI64Type(), count);
    auto [first, mine] = rankShare(rewriter, loc, op, count64);
    Value localLb = arith::AddIOp::create(
        rewriter, loc, lb, arith::MulIOp::create(rewriter, loc, first, step));
    Value localUb = arith::AddIOp::create(
        rewriter, loc, localLb,
        arith::MulIOp::create(rewriter, loc, mine, step));
    rewriter.replaceOp(op, {localLb, localUb, step});
    return success();
  }
};

struct LowerMergeRanks : public LowerToValue<MergeRanksOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(MergeRanksOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value local = adaptor.getLocal();
    Value rows = tensor::DimOp::create(rewriter, loc, local, 0);
    Value cols = tensor::DimOp::create(rewriter, loc, local, 1);
    Value mine = asRuntimeMatrix(rewriter, loc, local);
    Value before = asRuntimeMatrix(rewriter, loc, adaptor.getBefore());
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    return tensorFromRuntime(
        rewriter, loc, tensorType(op.getResult()), rows, cols,
        [&](Value merged) {
          callRuntime(rewriter, loc, op, RuntimeFunction::DistMergeResults,
                      {mine, before, merged, where});
        });
  }
};

} // namespace

void mlir::amls::populateAMLSCollectiveLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerAllReduce, LowerAllGatherRows, LowerLocalRows,
              LowerLocalIterations, LowerMergeRanks>(patterns, converter,
                                                     schedule);
}
