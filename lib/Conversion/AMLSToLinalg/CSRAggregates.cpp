//===- CSRAggregates.cpp - Aggregates of CSR matrices ---------------------===//
//
// Full aggregates reduce the value array (amls_rt_values_reduce); min and
// max then take the implicit zeros into account. Row and column aggregates
// are runtime kernels; means divide the sums. Cumulative aggregates are
// dense results written by the runtime from the CSR arrays.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
#include "CSRLowering.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

/// The runtime's kind for `kind`, an AmlsAggKind (RuntimeABI.cpp checks the
/// numbering): a mean reduces with a sum.
int32_t runtimeKind(AggKind kind) {
  return static_cast<int32_t>(kind == AggKind::Mean ? AggKind::Sum : kind);
}

Value indexToF64(OpBuilder &b, Location loc, Value index) {
  Value i64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  return arith::SIToFPOp::create(b, loc, b.getF64Type(), i64);
}

/// `tensor` / `divisor` cell by cell.
Value divideCells(OpBuilder &b, Location loc, Value tensor, Value divisor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(type.getRank(), b.getContext());
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{}, tensor, ArrayRef<AffineMap>{identity},
             iterators(SmallVector<bool>(type.getRank(), false)),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value q = arith::DivFOp::create(nb, l, args[0], divisor);
               linalg::YieldOp::create(nb, l, q);
             })
      .getResult(0);
}

struct LowerCSRAgg : public CSRPattern<AggOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(AggOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto mul = op.getInput().getDefiningOp<MulOp>();
    if (mul && isRowMaxTimesReadThrough(mul))
      return lowerRowMaxTimes(op, mul, CSRMatrix::fromRange(operands[0]),
                              rewriter);
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    AggKind kind = op.getKind();
    Value rows = x.rows(rewriter, loc);
    Value kindValue = i32Constant(rewriter, loc, runtimeKind(kind));
    if (op.getAxis() == AggAxis::All) {
      Value result =
          callRuntime(rewriter, loc, op, RuntimeFunction::ValuesReduce,
                      {runtimeVectorOf(rewriter, loc, x.values), kindValue});
      Value cells = arith::MulIOp::create(rewriter, loc, rows, x.cols);
      if (kind == AggKind::Min || kind == AggKind::Max) {
        // Implicit zeros take part where some cell is not stored.
        Value someZero =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ult,
                                  x.nnz(rewriter, loc), cells);
        Value zero = floatConstant(rewriter, loc, rewriter.getF64Type(), 0.0);
        Value withZero =
            kind == AggKind::Min
                ? arith::MinimumFOp::create(rewriter, loc, result, zero)
                      .getResult()
                : arith::MaximumFOp::create(rewriter, loc, result, zero)
                      .getResult();
        result =
            arith::SelectOp::create(rewriter, loc, someZero, withZero, result);
      } else if (kind == AggKind::Mean) {
        result = arith::DivFOp::create(rewriter, loc, result,
                                       indexToF64(rewriter, loc, cells));
      }
      rewriter.replaceOp(op, result);
      return success();
    }
    bool byRow = op.getAxis() == AggAxis::Row;
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value one = indexConstant(rewriter, loc, 1);
    Value result =
        tensorFromRuntime(rewriter, loc, type, byRow ? rows : one,
                          byRow ? one : x.cols, [&](Value out) {
                            SmallVector<Value> args;
                            x.appendRuntimeArgs(rewriter, loc, args);
                            args.append({kindValue, out});
                            callRuntime(rewriter, loc, op,
                                        byRow ? RuntimeFunction::CSRRowAgg
                                              : RuntimeFunction::CSRColAgg,
                                        args);
                          });
    if (kind == AggKind::Mean)
      result = divideCells(rewriter, loc, result,
                           indexToF64(rewriter, loc, byRow ? x.cols : rows));
    replaceWithDense(rewriter, op, result);
    return success();
  }

  /// rowMaxs(G * r) as one max-times product over the rows of G.
  LogicalResult lowerRowMaxTimes(AggOp op, MulOp mul, CSRMatrix g,
                                 ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Value vector = rewriter.getRemappedValue(mul.getRhs());
    if (!vector)
      return rewriter.notifyMatchFailure(op, "r has no tensor");
    checkEqual(rewriter, loc, dimOf(rewriter, loc, vector, 1), g.cols, mul,
               "the operands' sizes differ");
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value result = tensorFromRuntime(
        rewriter, loc, type, g.rows(rewriter, loc),
        indexConstant(rewriter, loc, 1), [&](Value out) {
          SmallVector<Value> args;
          g.appendRuntimeArgs(rewriter, loc, args);
          args.append({asRuntimeMatrix(rewriter, loc, vector), out});
          callRuntime(rewriter, loc, op, RuntimeFunction::CSRRowMaxTimes, args);
        });
    replaceWithDense(rewriter, op, result);
    return success();
  }
};

struct LowerCSRTrace : public CSRPattern<TraceOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(TraceOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    checkEqual(rewriter, loc, x.rows(rewriter, loc), x.cols, op,
               "trace expects a square matrix");
    SmallVector<Value> args;
    x.appendRuntimeArgs(rewriter, loc, args);
    rewriter.replaceOp(
        op, callRuntime(rewriter, loc, op, RuntimeFunction::CSRTrace, args));
    return success();
  }
};

/// Cumulative aggregates of a CSR matrix are dense: written by the runtime
/// straight from the CSR arrays.
struct LowerCSRCumAgg : public CSRPattern<CumAggOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(CumAggOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value kind = i32Constant(rewriter, loc, static_cast<int32_t>(op.getKind()));
    Value result = denseFromKernel(rewriter, loc, op, type, x, {kind},
                                   RuntimeFunction::CSRCumAgg,
                                   "the cumulative aggregate of a CSR matrix");
    replaceWithDense(rewriter, op, result);
    return success();
  }
};

} // namespace

void mlir::amls::lowering::populateCSRAggregatePatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerCSRAgg, LowerCSRTrace, LowerCSRCumAgg>(patterns, converter,
                                                          schedule);
}
