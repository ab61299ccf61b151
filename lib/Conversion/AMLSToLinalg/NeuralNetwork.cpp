//===- NeuralNetwork.cpp - Lower convolution and pooling to the runtime ---===//
//
// Each op is one call of its kernel in the runtime (Kernels/Convolution.cpp:
// im2col and OpenBLAS's gemm for the convolutions, loops for pooling),
// given the matrices, the geometry as i64 values and the op's position;
// the kernel checks the geometry against the matrices before it writes.
// The result's buffer is allocated here: its rows are the images of an
// operand (or the filters), its columns follow from the geometry. Sizes
// computed from a geometry the kernel will reject are clamped to 0 or
// more, so that the allocation before the check is valid.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

/// Index arithmetic for the result sizes.
struct SizeMath {
  OpBuilder &b;
  Location loc;

  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value nonNegative(Value x) {
    return arith::MaxSIOp::create(b, loc, x, indexConstant(b, loc, 0));
  }
  /// (size + 2*pad - window) / stride + 1, 0 or more (stride taken as at
  /// least 1).
  Value outSize(Value size, Value window, Value stride, Value pad) {
    Value padded = arith::AddIOp::create(b, loc, size, mul(pad, c(2)));
    Value span = arith::SubIOp::create(b, loc, padded, window);
    Value step = arith::MaxSIOp::create(b, loc, stride, c(1));
    Value steps = arith::FloorDivSIOp::create(b, loc, span, step);
    return nonNegative(arith::AddIOp::create(b, loc, steps, c(1)));
  }
  /// The product of sizes, each clamped to 0 or more.
  Value product(std::initializer_list<Value> sizes) {
    Value result = c(1);
    for (Value size : sizes)
      result = mul(result, nonNegative(size));
    return result;
  }
  Value c(int64_t value) { return indexConstant(b, loc, value); }
};

/// The geometry operands as i64 values, for the runtime call.
SmallVector<Value> geometryArgs(OpBuilder &b, Location loc,
                                ValueRange geometry) {
  SmallVector<Value> args;
  for (Value value : geometry)
    args.push_back(arith::IndexCastOp::create(b, loc, b.getI64Type(), value));
  return args;
}

/// The result of `op` from one call of `function` with the matrices
/// `matrices` (tensors), an optional i32 `kind`, the geometry and the op's
/// position; the result is rows x cols.
Value callKernel(ConversionPatternRewriter &rewriter, Operation *op,
                 RankedTensorType type, RuntimeFunction function,
                 ValueRange matrices, std::optional<int32_t> kind,
                 ValueRange geometry, Value rows, Value cols) {
  Location loc = op->getLoc();
  SmallVector<Value> views;
  for (Value matrix : matrices)
    views.push_back(asRuntimeMatrix(rewriter, loc, matrix));
  SmallVector<Value> scalars;
  if (kind)
    scalars.push_back(i32Constant(rewriter, loc, *kind));
  llvm::append_range(scalars, geometryArgs(rewriter, loc, geometry));
  Value where = createStringPointer(rewriter, loc, op, describeOp(op));
  return tensorFromRuntime(rewriter, loc, type, rows, cols, [&](Value out) {
    SmallVector<Value> args(views);
    args.push_back(out);
    llvm::append_range(args, scalars);
    args.push_back(where);
    callRuntime(rewriter, loc, op, function, args);
  });
}

struct LowerConv2D : public LowerToValue<Conv2DOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(Conv2DOp op, OpAdaptor a,
                         ConversionPatternRewriter &rewriter) const override {
    SizeMath m{rewriter, op.getLoc()};
    Value p = m.outSize(a.getHeight(), a.getWindowHeight(), a.getStrideHeight(),
                        a.getPadHeight());
    Value q = m.outSize(a.getWidth(), a.getWindowWidth(), a.getStrideWidth(),
                        a.getPadWidth());
    return callKernel(rewriter, op, tensorType(op.getResult()),
                      RuntimeFunction::Conv2D, {a.getInput(), a.getFilter()},
                      std::nullopt, a.getOperands().drop_front(2),
                      dimOf(rewriter, op.getLoc(), a.getInput(), 0),
                      m.product({a.getFilters(), p, q}));
  }
};

struct LowerConv2DBackwardFilter : public LowerToValue<Conv2DBackwardFilterOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(Conv2DBackwardFilterOp op, OpAdaptor a,
                         ConversionPatternRewriter &rewriter) const override {
    SizeMath m{rewriter, op.getLoc()};
    return callKernel(
        rewriter, op, tensorType(op.getResult()),
        RuntimeFunction::Conv2DBackwardFilter, {a.getInput(), a.getDout()},
        std::nullopt, a.getOperands().drop_front(2),
        m.nonNegative(a.getFilters()),
        m.product({a.getChannels(), a.getWindowHeight(), a.getWindowWidth()}));
  }
};

struct LowerConv2DBackwardData : public LowerToValue<Conv2DBackwardDataOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(Conv2DBackwardDataOp op, OpAdaptor a,
                         ConversionPatternRewriter &rewriter) const override {
    SizeMath m{rewriter, op.getLoc()};
    return callKernel(
        rewriter, op, tensorType(op.getResult()),
        RuntimeFunction::Conv2DBackwardData, {a.getFilter(), a.getDout()},
        std::nullopt, a.getOperands().drop_front(2),
        dimOf(rewriter, op.getLoc(), a.getDout(), 0),
        m.product({a.getChannels(), a.getHeight(), a.getWidth()}));
  }
};

struct LowerPool : public LowerToValue<PoolOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(PoolOp op, OpAdaptor a,
                         ConversionPatternRewriter &rewriter) const override {
    SizeMath m{rewriter, op.getLoc()};
    Value p = m.outSize(a.getHeight(), a.getWindowHeight(), a.getStrideHeight(),
                        a.getPadHeight());
    Value q = m.outSize(a.getWidth(), a.getWindowWidth(), a.getStrideWidth(),
                        a.getPadWidth());
    return callKernel(rewriter, op, tensorType(op.getResult()),
                      RuntimeFunction::Pool, {a.getInput()},
                      static_cast<int32_t>(op.getKind()),
                      a.getOperands().drop_front(1),
                      dimOf(rewriter, op.getLoc(), a.getInput(), 0),
                      m.product({a.getChannels(), p, q}));
  }
};

struct LowerPoolBackward : public LowerToValue<PoolBackwardOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(PoolBackwardOp op, OpAdaptor a,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    return callKernel(
        rewriter, op, tensorType(op.getResult()), RuntimeFunction::PoolBackward,
        {a.getInput(), a.getDout()}, static_cast<int32_t>(op.getKind()),
        a.getOperands().drop_front(2), dimOf(rewriter, loc, a.getInput(), 0),
        dimOf(rewriter, loc, a.getInput(), 1));
  }
};

} // namespace

void mlir::amls::populateAMLSNeuralNetworkLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerConv2D, LowerConv2DBackwardFilter, LowerConv2DBackwardData,
              LowerPool, LowerPoolBackward>(patterns, converter, schedule);
}
