//===- Frames.cpp - Lower frames and the transform ops --------------------===//
//
// A frame is a handle (i64) to the runtime's column store; every frame op
// is a runtime call on it (lib/Runtime/Frame). A transform op fits or
// rebuilds an encoder, asks it for the encoded matrix's sizes, lets it fill
// a buffer of those sizes and releases it.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

Value i64ToIndex(OpBuilder &b, Location loc, Value value) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

/// The rows and columns of a frame (its handle), as indices.
std::pair<Value, Value> frameSizes(OpBuilder &b, Location loc, Operation *op,
                                   Value frame) {
  return {
      i64ToIndex(b, loc,
                 callRuntime(b, loc, op, RuntimeFunction::FrameRows, {frame})),
      i64ToIndex(b, loc,
                 callRuntime(b, loc, op, RuntimeFunction::FrameCols, {frame}))};
}

/// The sizes the runtime reports, checked against the `stated` ones
/// (ShapedType::kDynamic: not stated) of `what`.
void checkSizes(OpBuilder &b, Location loc, Operation *op,
                ArrayRef<int64_t> stated, Value rows, Value cols,
                const Twine &what) {
  Value sizes[] = {rows, cols};
  for (auto [d, size] : llvm::enumerate(sizes))
    if (!ShapedType::isDynamic(stated[d]))
      checkEqual(b, loc, size, indexConstant(b, loc, stated[d]), op,
                 what + " has a different " + (d ? "column" : "row") +
                     " count than its declared type");
}

void checkSizes(OpBuilder &b, Location loc, Operation *op,
                RankedTensorType type, Value rows, Value cols) {
  checkSizes(b, loc, op, type.getShape(), rows, cols, "the result");
}

struct LowerFrameRead : public LowerToValue<FrameReadOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(FrameReadOp op, OpAdaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::string naStrings;
    for (auto [i, word] : llvm::enumerate(op.getNaStrings()))
      naStrings += (i ? "\x1f" : "") + cast<StringAttr>(word).getValue().str();
    // The schema as the runtime reads it: a digit per column.
    std::string schema;
    for (FrameValueType type : op.getResult().getType().getSchema())
      schema += static_cast<char>('0' + static_cast<int>(type));
    Value path = createStringPointer(rewriter, loc, op, op.getPath());
    Value header = i32Constant(rewriter, loc, op.getHeader() ? 1 : 0);
    Value sep = createStringPointer(rewriter, loc, op, op.getSep());
    Value na = createStringPointer(rewriter, loc, op, naStrings);
    Value types = createStringPointer(rewriter, loc, op, schema);
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    Value frame = callRuntime(rewriter, loc, op, RuntimeFunction::FrameRead,
                              {path, header, sep, na, types, where});
    FrameType type = op.getResult().getType();
    auto [rows, cols] = frameSizes(rewriter, loc, op, frame);
    int64_t stated[] = {type.getRows(), type.getCols()};
    checkSizes(rewriter, loc, op, stated, rows, cols,
               Twine("the file '") + op.getPath() + "'");
    return frame;
  }
};

struct LowerFrameWrite : public AMLSPattern<FrameWriteOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(FrameWriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    callRuntime(rewriter, loc, op, RuntimeFunction::FrameWrite,
                {adaptor.getInput(),
                 createStringPointer(rewriter, loc, op, op.getPath()),
                 i32Constant(rewriter, loc, op.getHeader() ? 1 : 0),
                 createStringPointer(rewriter, loc, op, op.getSep()),
                 createStringPointer(rewriter, loc, op, describeOp(op))});
    rewriter.eraseOp(op);
    return success();
  }
};

template <typename OpTy, RuntimeFunction Function>
struct LowerFrameSize : public LowerToValue<OpTy> {
  using LowerToValue<OpTy>::LowerToValue;
  FailureOr<Value> lower(OpTy op, typename OpTy::Adaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    return i64ToIndex(
        rewriter, op.getLoc(),
        callRuntime(rewriter, op.getLoc(), op, Function, {adaptor.getInput()}));
  }
};

struct LowerFrameAsMatrix : public LowerToValue<FrameAsMatrixOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(FrameAsMatrixOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Value frame = adaptor.getInput();
    auto [rows, cols] = frameSizes(rewriter, loc, op, frame);
    checkSizes(rewriter, loc, op, type, rows, cols);
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    return tensorFromRuntime(rewriter, loc, type, rows, cols, [&](Value out) {
      callRuntime(rewriter, loc, op, RuntimeFunction::FrameAsMatrix,
                  {out, frame, where});
    });
  }
};

struct LowerFrameToString : public LowerToValue<FrameToStringOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(FrameToStringOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value rows = arith::ConstantIntOp::create(rewriter, loc, op.getRows(), 64);
    Value cols = arith::ConstantIntOp::create(rewriter, loc, op.getCols(), 64);
    return callRuntime(rewriter, loc, op, RuntimeFunction::FrameToString,
                       {adaptor.getInput(), rows, cols});
  }
};

Value indexToI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

struct LowerFrameSlice : public LowerToValue<FrameSliceOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(FrameSliceOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    return callRuntime(
        rewriter, loc, op, RuntimeFunction::FrameSlice,
        {adaptor.getInput(), indexToI64(rewriter, loc, adaptor.getRowBegin()),
         indexToI64(rewriter, loc, adaptor.getRowEnd()),
         indexToI64(rewriter, loc, adaptor.getColBegin()),
         indexToI64(rewriter, loc, adaptor.getColEnd()),
         createStringPointer(rewriter, loc, op, describeOp(op))});
  }
};

struct LowerFrameFromMatrix : public LowerToValue<FrameFromMatrixOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(FrameFromMatrixOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    return callRuntime(rewriter, loc, op, RuntimeFunction::FrameFromMatrix,
                       {asRuntimeMatrix(rewriter, loc, adaptor.getInput())});
  }
};

/// An op of frames whose runtime function takes their handles, then (with
/// `WithWhere`) the op's description.
template <typename OpTy, RuntimeFunction Function, bool WithWhere>
struct LowerFrameCall : public LowerToValue<OpTy> {
  using LowerToValue<OpTy>::LowerToValue;
  FailureOr<Value> lower(OpTy op, typename OpTy::Adaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> args(adaptor.getOperands());
    if (WithWhere)
      args.push_back(createStringPointer(rewriter, loc, op, describeOp(op)));
    return callRuntime(rewriter, loc, op, Function, args);
  }
};

/// A cast changes no handle.
struct LowerFrameCast : public AMLSPattern<FrameCastOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(FrameCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

struct LowerReadText : public LowerToValue<ReadTextOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(ReadTextOp op, OpAdaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    return callRuntime(
        rewriter, loc, op, RuntimeFunction::ReadText,
        {createStringPointer(rewriter, loc, op, op.getPath()),
         createStringPointer(rewriter, loc, op, describeOp(op))});
  }
};

/// The encoded matrix of `frame` under `encoder`, which it releases.
Value encodeWith(OpBuilder &b, Location loc, Operation *op,
                 RankedTensorType type, Value encoder, Value frame,
                 Value where) {
  Value rows =
      i64ToIndex(b, loc,
                 callRuntime(b, loc, op, RuntimeFunction::TransformRows,
                             {encoder, frame}));
  Value cols = i64ToIndex(
      b, loc,
      callRuntime(b, loc, op, RuntimeFunction::TransformCols, {encoder}));
  checkSizes(b, loc, op, type, rows, cols);
  Value matrix = tensorFromRuntime(b, loc, type, rows, cols, [&](Value out) {
    callRuntime(b, loc, op, RuntimeFunction::TransformApply,
                {out, encoder, frame, where});
  });
  return matrix;
}

struct LowerTransformEncode : public AMLSPattern<TransformEncodeOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(TransformEncodeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    Value encoder =
        callRuntime(rewriter, loc, op, RuntimeFunction::TransformFit,
                    {adaptor.getTarget(), adaptor.getSpec(), where});
    Value meta = callRuntime(rewriter, loc, op, RuntimeFunction::TransformMeta,
                             {encoder});
    Value matrix = encodeWith(rewriter, loc, op, tensorType(op.getResult()),
                              encoder, adaptor.getTarget(), where);
    callRuntime(rewriter, loc, op, RuntimeFunction::TransformRelease,
                {encoder});
    rewriter.replaceOp(op, ValueRange{matrix, meta});
    return success();
  }
};

struct LowerTransformApply : public LowerToValue<TransformApplyOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(TransformApplyOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    Value encoder =
        callRuntime(rewriter, loc, op, RuntimeFunction::TransformFromMeta,
                    {adaptor.getMeta(), adaptor.getSpec(), where});
    Value matrix = encodeWith(rewriter, loc, op, tensorType(op.getResult()),
                              encoder, adaptor.getTarget(), where);
    callRuntime(rewriter, loc, op, RuntimeFunction::TransformRelease,
                {encoder});
    return matrix;
  }
};

struct LowerTransformDecode : public LowerToValue<TransformDecodeOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(TransformDecodeOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    Value encoder =
        callRuntime(rewriter, loc, op, RuntimeFunction::TransformFromMeta,
                    {adaptor.getMeta(), adaptor.getSpec(), where});
    Value matrix = asRuntimeMatrix(rewriter, loc, adaptor.getTarget());
    Value frame =
        callRuntime(rewriter, loc, op, RuntimeFunction::TransformDecode,
                    {encoder, matrix, where});
    callRuntime(rewriter, loc, op, RuntimeFunction::TransformRelease,
                {encoder});
    return frame;
  }
};

} // namespace

void mlir::amls::populateAMLSFrameLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<
      LowerFrameRead, LowerFrameWrite,
      LowerFrameSize<FrameNRowOp, RuntimeFunction::FrameRows>,
      LowerFrameSize<FrameNColOp, RuntimeFunction::FrameCols>,
      LowerFrameAsMatrix, LowerFrameToString, LowerReadText, LowerFrameSlice,
      LowerFrameFromMatrix,
      LowerFrameCall<FrameCBindOp, RuntimeFunction::FrameCBind, true>,
      LowerFrameCall<FrameRBindOp, RuntimeFunction::FrameRBind, true>,
      LowerFrameCall<FrameDetectSchemaOp, RuntimeFunction::FrameDetectSchema,
                     false>,
      LowerFrameCall<FrameApplySchemaOp, RuntimeFunction::FrameApplySchema,
                     true>,
      LowerFrameCall<FrameCellOp, RuntimeFunction::FrameCell, true>,
      LowerFrameCall<FrameColNamesOp, RuntimeFunction::FrameColNames, false>,
      LowerFrameCast, LowerTransformEncode, LowerTransformApply,
      LowerTransformDecode>(patterns, converter, schedule);
}
