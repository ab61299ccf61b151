//===- CompressedCellOps.cpp - Aggregates and maps on compressed matrices -===//
//
// The ops on a compressed matrix that are not products: sum and mean over
// all cells, rows or columns (from the dictionaries and the tuples'
// counts), nrow and ncol, decompression, and a scalar operation on every
// cell. The last applies the op's own cell computation to the values every
// cell is one of (the dictionaries, the default tuples, the uncompressed
// cells: a few thousand doubles where the matrix has millions of cells) and
// builds a new compressed matrix of the rewritten values and the old codes.
//
//===----------------------------------------------------------------------===//

#include "CompressedLowering.h"

#include "AMLS/Runtime/ABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

/// The runtime's aggregate for `kind` along `axis` (sum or mean only, as
/// the kernel model admits).
AmlsCompressedAggregate runtimeAggregate(AggKind kind, AggAxis axis) {
  bool mean = kind == AggKind::Mean;
  switch (axis) {
  case AggAxis::All:
    return mean ? AMLS_COMPRESSED_MEAN_ALL : AMLS_COMPRESSED_SUM_ALL;
  case AggAxis::Row:
    return mean ? AMLS_COMPRESSED_MEAN_ROWS : AMLS_COMPRESSED_SUM_ROWS;
  case AggAxis::Col:
    return mean ? AMLS_COMPRESSED_MEAN_COLS : AMLS_COMPRESSED_SUM_COLS;
  }
  llvm_unreachable("unknown aggregation axis");
}

struct LowerCompressedAgg : public CompressedPattern<AggOp> {
  using CompressedPattern::CompressedPattern;
  LogicalResult lower(AggOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    if (!llvm::is_contained({AggKind::Sum, AggKind::Mean}, op.getKind()))
      return rewriter.notifyMatchFailure(op, "sum and mean only");
    Location loc = op.getLoc();
    Value handle = adaptor.getInput();
    Value one = indexConstant(rewriter, loc, 1);
    Value rows = op.getAxis() == AggAxis::Row
                     ? compressedSize(rewriter, loc, op, handle, 0)
                     : one;
    Value cols = op.getAxis() == AggAxis::Col
                     ? compressedSize(rewriter, loc, op, handle, 1)
                     : one;
    Value runtime = runtimeHandle(rewriter, loc, handle);
    int32_t aggregate = runtimeAggregate(op.getKind(), op.getAxis());
    auto call = [&](Value out) {
      callRuntime(rewriter, loc, op, RuntimeFunction::CompressedAggregate,
                  {runtime, out, i32Constant(rewriter, loc, aggregate)});
    };
    if (op.getAxis() != AggAxis::All) {
      replaceWithRuntimeResult(rewriter, op, rows, cols, call);
      return success();
    }
    // A scalar: the 1 x 1 result's cell.
    auto cellType = RankedTensorType::get({1, 1}, rewriter.getF64Type());
    Value cell = tensorFromRuntime(rewriter, loc, cellType, one, one, call);
    Value zero = indexConstant(rewriter, loc, 0);
    Value sum = tensor::ExtractOp::create(rewriter, loc, cell, {zero, zero});
    rewriter.replaceOp(op, sum);
    return success();
  }
};

template <typename OpTy, int32_t dim>
struct LowerCompressedSize : public CompressedPattern<OpTy> {
  using CompressedPattern<OpTy>::CompressedPattern;
  LogicalResult lower(OpTy op, typename OpTy::Adaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, compressedSize(rewriter, op.getLoc(), op, adaptor.getInput(), dim));
    return success();
  }
};

struct LowerDecompress : public CompressedPattern<DecompressOp> {
  using CompressedPattern::CompressedPattern;
  LogicalResult lower(DecompressOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value handle = adaptor.getInput();
    Value rows = compressedSize(rewriter, loc, op, handle, 0);
    Value cols = compressedSize(rewriter, loc, op, handle, 1);
    Value runtime = runtimeHandle(rewriter, loc, handle);
    replaceWithRuntimeResult(rewriter, op, rows, cols, [&](Value out) {
      callRuntime(rewriter, loc, op, RuntimeFunction::CompressedDecompress,
                  {runtime, out});
    });
    return success();
  }
};

/// f(X, s...) with X compressed: f over the values (a column vector from the
/// runtime), then a new compressed matrix of the results.
struct LowerCompressedMap
    : public OpInterfaceConversionPattern<ElementwiseOpInterface> {
  LowerCompressedMap(const TypeConverter &converter, MLIRContext *context,
                     const LoweringSchedule &)
      : OpInterfaceConversionPattern(converter, context, /*benefit=*/3) {}

  LogicalResult
  matchAndRewrite(ElementwiseOpInterface op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto compressed = llvm::find_if(op->getOperands(), [](Value operand) {
      return isCompressedMatrix(operand.getType());
    });
    if (compressed == op->getOperands().end())
      return failure();
    unsigned index = compressed.getIndex();
    Location loc = op->getLoc();
    Value runtime = runtimeHandle(rewriter, loc, operands[index]);
    Value count = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(),
        callRuntime(rewriter, loc, op, RuntimeFunction::CompressedValueCount,
                    {runtime}));
    Value one = indexConstant(rewriter, loc, 1);
    Type f64 = rewriter.getF64Type();
    int64_t dyn = ShapedType::kDynamic;
    auto valuesType = RankedTensorType::get({dyn, 1}, f64);
    Value values = tensorFromRuntime(
        rewriter, loc, valuesType, count, one, [&](Value out) {
          callRuntime(rewriter, loc, op, RuntimeFunction::CompressedValues,
                      {runtime, out});
        });
    Value init = tensor::EmptyOp::create(rewriter, loc, valuesType.getShape(),
                                         f64, ValueRange{count});
    AffineMap identity =
        AffineMap::getMultiDimIdentityMap(2, rewriter.getContext());
    Value mapped =
        linalg::GenericOp::create(
            rewriter, loc, valuesType, values, init,
            ArrayRef<AffineMap>{identity, identity}, iterators({false, false}),
            [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
              SmallVector<Value> cells(operands);
              cells[index] = args[0];
              linalg::YieldOp::create(
                  b, bodyLoc, op.buildCellComputation(b, bodyLoc, cells));
            })
            .getResult(0);
    Value handle =
        callRuntime(rewriter, loc, op, RuntimeFunction::CompressedWithValues,
                    {runtime, asRuntimeMatrix(rewriter, loc, mapped)});
    rewriter.replaceOp(op, handleFromRuntime(rewriter, loc, handle));
    return success();
  }
};

} // namespace

void mlir::amls::lowering::populateCompressedCellOpPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerCompressedAgg, LowerCompressedSize<NRowOp, 0>,
              LowerCompressedSize<NColOp, 1>, LowerDecompress,
              LowerCompressedMap>(patterns, converter, schedule);
}
