//===- IO.cpp - Lower read, write, print, printf, stop --------------------===//
//
// Files and messages go through libamls_runtime: a read asks the runtime for
// the file's sizes, then for its cells in a buffer of those sizes. A scalar
// is written as a message (to a file, not stdout) and read by the runtime.
// Messages print a CSR matrix from its arrays, in the same text as a dense one.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
#include "CSRLowering.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

struct LowerRead : public LowerToValue<ReadOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(ReadOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Value path = createStringPointer(rewriter, loc, op, op.getPath());
    Value format = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(op.getFormat()), 32);
    // The sizes of the type are what a text-cell file without a .mtd file
    // is read with (-1: unknown).
    Value stated[2];
    for (int d = 0; d < 2; ++d)
      stated[d] = arith::ConstantIntOp::create(
          rewriter, loc, type.isDynamicDim(d) ? -1 : type.getDimSize(d), 64);
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    // A row-partitioned read (--amls-distribute) reads this rank's rows.
    bool partitioned =
        op->hasAttr(AMLSDialect::getRowPartitionedAttrName());
    Value rows64 = callRuntime(rewriter, loc, op,
                               partitioned ? RuntimeFunction::DistFileRows
                                           : RuntimeFunction::FileRows,
                               {path, format, stated[0], stated[1], where});
    Value cols64 = callRuntime(rewriter, loc, op,
                               partitioned ? RuntimeFunction::DistFileCols
                                           : RuntimeFunction::FileCols,
                               {path, format, stated[0], stated[1], where});
    Value rows = arith::IndexCastOp::create(rewriter, loc,
                                            rewriter.getIndexType(), rows64);
    Value cols = arith::IndexCastOp::create(rewriter, loc,
                                            rewriter.getIndexType(), cols64);
    // A named array: a ValueRange over a braced list would outlive the
    // list's temporary array in the loop.
    Value sizes[] = {rows, cols};
    for (auto [d, size] : llvm::enumerate(sizes))
      if (!type.isDynamicDim(d))
        checkEqual(rewriter, loc, size,
                   indexConstant(rewriter, loc, type.getDimSize(d)), op,
                   Twine("the file '") + op.getPath() + "' has a different " +
                       (d ? "column" : "row") +
                       " count than the declared type");
    Value result =
        tensorFromRuntime(rewriter, loc, type, rows, cols, [&](Value matrix) {
          callRuntime(rewriter, loc, op,
                      partitioned ? RuntimeFunction::DistRead
                                  : RuntimeFunction::Read,
                      {matrix, path, format, where});
        });
    return result;
  }
};

struct LowerWrite : public AMLSPattern<WriteOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(WriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value matrix = asRuntimeMatrix(rewriter, loc, adaptor.getInput());
    Value path = createStringPointer(rewriter, loc, op, op.getPath());
    Value format = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(op.getFormat()), 32);
    // A block of rows (--amls-distribute): the ranks write in turn.
    callRuntime(rewriter, loc, op,
                AMLSDialect::isRowPartitionedOperand(op, 0)
                    ? RuntimeFunction::DistWrite
                    : RuntimeFunction::Write,
                {matrix, path, format});
    rewriter.eraseOp(op);
    return success();
  }
};

/// A scalar from a text file: the runtime parses and checks it.
struct LowerReadScalar : public AMLSPattern<ReadScalarOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(ReadScalarOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value path = createStringPointer(rewriter, loc, op, op.getPath());
    Value valueType = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(op.getValueType()), 32);
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    rewriter.replaceOp(op, callRuntime(rewriter, loc, op,
                                       RuntimeFunction::ReadScalar,
                                       {path, valueType, where}));
    return success();
  }
};

struct LowerTime : public AMLSPattern<TimeOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(TimeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, callRuntime(rewriter, op.getLoc(), op,
                                       RuntimeFunction::TimeNs, {}));
    return success();
  }
};

/// The runtime orders the strings; the predicate compares that order to 0.
struct LowerStringCompare : public AMLSPattern<StringCompareOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(StringCompareOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value order = callRuntime(rewriter, loc, op, RuntimeFunction::StringCompare,
                              {adaptor.getLhs(), adaptor.getRhs()});
    arith::CmpIPredicate predicate;
    switch (op.getPredicate()) {
    case StringPredicate::EQ:
      predicate = arith::CmpIPredicate::eq;
      break;
    case StringPredicate::NE:
      predicate = arith::CmpIPredicate::ne;
      break;
    case StringPredicate::LT:
      predicate = arith::CmpIPredicate::slt;
      break;
    case StringPredicate::LE:
      predicate = arith::CmpIPredicate::sle;
      break;
    case StringPredicate::GT:
      predicate = arith::CmpIPredicate::sgt;
      break;
    case StringPredicate::GE:
      predicate = arith::CmpIPredicate::sge;
      break;
    }
    Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 32);
    rewriter.replaceOpWithNewOp<arith::CmpIOp>(op, predicate, order, zero);
    return success();
  }
};

/// The runtime arguments of a CSR matrix (its converted values).
SmallVector<Value> csrArguments(OpBuilder &b, Location loc, ValueRange csr) {
  SmallVector<Value> args;
  CSRMatrix::fromRange(csr).appendRuntimeArgs(b, loc, args);
  return args;
}

struct LowerPrint : public AMLSPattern<PrintOp> {
  using AMLSPattern::AMLSPattern;
  using OneToNOpAdaptor = OpConversionPattern<PrintOp>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(PrintOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (isCSRMatrix(op.getInput().getType())) {
      callRuntime(rewriter, loc, op, RuntimeFunction::CSRPrintMatrix,
                  csrArguments(rewriter, loc, adaptor.getInput()));
      rewriter.eraseOp(op);
      return success();
    }
    Value input = adaptor.getInput().front();
    Type type = input.getType();
    if (isa<RankedTensorType>(type)) {
      callRuntime(rewriter, loc, op, RuntimeFunction::PrintMatrix,
                  {asRuntimeMatrix(rewriter, loc, input)});
    } else if (isa<FloatType>(type)) {
      if (!type.isF64())
        input =
            arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(), input);
      callRuntime(rewriter, loc, op, RuntimeFunction::PrintF64, {input});
    } else {
      if (type.isIndex())
        input = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                           input);
      else if (type.getIntOrFloatBitWidth() < 64)
        input =
            arith::ExtSIOp::create(rewriter, loc, rewriter.getI64Type(), input);
      callRuntime(rewriter, loc, op, RuntimeFunction::PrintI64, {input});
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// then one that prints it (or reports it and exits).
template <typename OpTy, AmlsMessageStream stream>
struct LowerMessage : public AMLSPattern<OpTy> {
  using AMLSPattern<OpTy>::AMLSPattern;
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value streamId = arith::ConstantIntOp::create(rewriter, loc, stream, 32);
    std::string text;
    auto flushText = [&] {
      if (text.empty())
        return;
      callRuntime(rewriter, loc, op, RuntimeFunction::EmitText,
                  {createStringPointer(rewriter, loc, op, text), streamId});
      text.clear();
    };
    StringRef format = op.getFormat();
    auto values = adaptor.getValues();
    size_t next = 0;
    for (size_t i = 0; i < format.size(); ++i) {
      char c = format[i];
      char following = i + 1 < format.size() ? format[i + 1] : '\0';
      if (c == '{' && following == '%') {
        // {%5.4f}: the value with a C conversion (print(format, args)).
        size_t close = format.find('}', i);
        flushText();
        Value value = values[next].front();
        if (!value.getType().isF64())
          value = arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(),
                                        value);
        callRuntime(
            rewriter, loc, op, RuntimeFunction::EmitFormattedF64,
            {value,
             createStringPointer(rewriter, loc, op, format.slice(i + 1, close)),
             streamId});
        ++next;
        i = close;
        continue;
      }
      if ((c == '{' && following == '{') || (c == '}' && following == '}')) {
        text.push_back(c);
        ++i;
        continue;
      }
      if (c != '{' || following != '}') {
        text.push_back(c);
        continue;
      }
      ++i;
      flushText();
      emitValue(rewriter, loc, op, values[next], op.getValues()[next].getType(),
                streamId);
      ++next;
    }
    flushText();
    if constexpr (std::is_same_v<OpTy, StringFormatOp>) {
      rewriter.replaceOp(
          op, callRuntime(rewriter, loc, op, RuntimeFunction::StringTake, {}));
      return success();
    } else if constexpr (std::is_same_v<OpTy, WriteScalarOp>) {
      Value valueType = arith::ConstantIntOp::create(
          rewriter, loc, static_cast<int32_t>(op.getValueType()), 32);
      callRuntime(
          rewriter, loc, op, RuntimeFunction::WriteText,
          {createStringPointer(rewriter, loc, op, op.getPath()), valueType});
    } else {
      callRuntime(rewriter, loc, op, RuntimeFunction::EmitEnd, {streamId});
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// Emits a value given as its converted values (four for a CSR matrix).
  void emitValue(ConversionPatternRewriter &rewriter, Location loc,
                 Operation *op, ValueRange converted, Type original,
                 Value streamId) const {
    if (isCSRMatrix(original)) {
      SmallVector<Value> args = csrArguments(rewriter, loc, converted);
      args.push_back(streamId);
      callRuntime(rewriter, loc, op, RuntimeFunction::CSREmitMatrix, args);
      return;
    }
    Value value = converted.front();
    Type type = value.getType();
    if (isa<StringType>(original)) {
      callRuntime(rewriter, loc, op, RuntimeFunction::EmitText,
                  {value, streamId});
    } else if (isa<RankedTensorType>(type)) {
      callRuntime(rewriter, loc, op, RuntimeFunction::EmitMatrix,
                  {asRuntimeMatrix(rewriter, loc, value), streamId});
    } else if (isa<FloatType>(type)) {
      if (!type.isF64())
        value =
            arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(), value);
      callRuntime(rewriter, loc, op, RuntimeFunction::EmitF64,
                  {value, streamId});
    } else if (type.isInteger(1)) {
      value =
          arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), value);
      callRuntime(rewriter, loc, op, RuntimeFunction::EmitBool,
                  {value, streamId});
    } else {
      if (type.isIndex())
        value = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                           value);
      else if (type.getIntOrFloatBitWidth() < 64)
        value =
            arith::ExtSIOp::create(rewriter, loc, rewriter.getI64Type(), value);
      callRuntime(rewriter, loc, op, RuntimeFunction::EmitI64,
                  {value, streamId});
    }
  }
};

} // namespace

void mlir::amls::populateAMLSIOLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerRead, LowerWrite, LowerReadScalar, LowerTime, LowerPrint,
              LowerMessage<PrintfOp, AMLS_STREAM_PRINT>,
              LowerMessage<StopOp, AMLS_STREAM_STOP>,
              LowerMessage<ReportOp, AMLS_STREAM_DIAGNOSTIC>,
              LowerMessage<WriteScalarOp, AMLS_STREAM_FILE>,
              LowerMessage<StringFormatOp, AMLS_STREAM_STRING>,
              LowerStringCompare>(patterns, converter, schedule);
}
