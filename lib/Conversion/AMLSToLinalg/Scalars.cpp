//===- Scalars.cpp - Lower sizes, casts, scalar conversions ---------------===//
//
// nrow/ncol/nnz, as.scalar/as.matrix, casts between matrix types (checking a
// size the cast asserts) and selects between matrices.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

template <typename OpTy, int64_t dim>
struct LowerSize : public AMLSPattern<OpTy> {
  using AMLSPattern<OpTy>::AMLSPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       dimOf(rewriter, op.getLoc(), adaptor.getInput(), dim));
    return success();
  }
};

struct LowerNnz : public AMLSPattern<NnzOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(NnzOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    ReductionBuilder builder{rewriter,     loc, adaptor.getInput(),
                             AggAxis::All, i64, schedule};
    Value count = builder.reduce(
        0.0,
        [](OpBuilder &b, Location l, Value nonZero, Value acc) -> Value {
          return arith::AddIOp::create(b, l, acc, nonZero);
        },
        {},
        [&](OpBuilder &b, Location l, ValueRange cells) -> Value {
          Value x = cells[0];
          Value zero = arith::ConstantOp::create(b, l, x.getType(),
                                                 b.getZeroAttr(x.getType()));
          Value isNonZero = isa<FloatType>(x.getType())
                                ? arith::CmpFOp::create(
                                      b, l, arith::CmpFPredicate::UNE, x, zero)
                                      .getResult()
                                : arith::CmpIOp::create(
                                      b, l, arith::CmpIPredicate::ne, x, zero)
                                      .getResult();
          return arith::ExtUIOp::create(b, l, b.getI64Type(), isNonZero);
        });
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, count, ValueRange{});
    return success();
  }
};

struct LowerAsScalar : public AMLSPattern<AsScalarOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(AsScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value one = indexConstant(rewriter, loc, 1);
    checkEqual(rewriter, loc, dimOf(rewriter, loc, input, 0), one, op,
               "expects a 1x1 matrix");
    checkEqual(rewriter, loc, dimOf(rewriter, loc, input, 1), one, op,
               "expects a 1x1 matrix");
    Value zero = indexConstant(rewriter, loc, 0);
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, input,
                                                   ValueRange{zero, zero});
    return success();
  }
};

struct LowerAsMatrix : public LowerToValue<AsMatrixOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(AsMatrixOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value matrix = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({1, 1}, input.getType()), input);
    return matrix;
  }
};

struct LowerCast : public LowerToValue<CastOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(CastOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = tensorType(op.getResult());
    // Making a size static asserts it.
    for (int64_t d = 0; d < 2; ++d)
      if (!type.isDynamicDim(d) &&
          cast<RankedTensorType>(input.getType()).isDynamicDim(d))
        checkEqual(rewriter, loc, dimOf(rewriter, loc, input, d),
                   indexConstant(rewriter, loc, type.getDimSize(d)), op,
                   "the matrix does not have the size the cast asserts");
    return castTo(rewriter, loc, input, type);
  }
};

struct LowerConvert : public LowerToValue<ConvertOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(ConvertOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    auto isCSR = [](Type type) {
      return cast<MatrixType>(type).getFormat() == MatrixFormat::CSR;
    };
    if (isCSR(op.getInput().getType()) || isCSR(op.getType()))
      return op.emitOpError("CSR matrices are not supported by the dense "
                            "lowering");
    return adaptor.getInput();
  }
};

/// arith.select between two matrices selects between their tensors.
struct LowerMatrixSelect : public OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    Value trueValue = castTo(rewriter, op.getLoc(), adaptor.getTrueValue(),
                             cast<RankedTensorType>(type));
    Value falseValue = castTo(rewriter, op.getLoc(), adaptor.getFalseValue(),
                              cast<RankedTensorType>(type));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, adaptor.getCondition(),
                                                 trueValue, falseValue);
    return success();
  }
};

/// amls.printf and amls.stop: one runtime call per piece of the message,

/// amls.distribution: the runtime computes it (Boost.Math) and checks the
/// parameters the verifier could not.
struct LowerDistribution : public AMLSPattern<DistributionOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(DistributionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value, 7> args = {
        i32Constant(rewriter, loc, static_cast<int32_t>(op.getDist())),
        i32Constant(rewriter, loc, op.getInverse()),
        i32Constant(rewriter, loc, op.getUpperTail()), adaptor.getTarget()};
    args.append(adaptor.getParameters().begin(), adaptor.getParameters().end());
    // The runtime function always takes two parameters.
    if (args.size() < 6)
      args.push_back(arith::ConstantOp::create(rewriter, loc,
                                               rewriter.getF64FloatAttr(1.0)));
    args.push_back(createStringPointer(rewriter, loc, op, describeOp(op)));
    rewriter.replaceOp(op, callRuntime(rewriter, loc, op,
                                       RuntimeFunction::Distribution, args));
    return success();
  }
};

} // namespace

void mlir::amls::populateAMLSScalarLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerSize<NRowOp, 0>, LowerSize<NColOp, 1>, LowerNnz,
              LowerAsScalar, LowerAsMatrix, LowerCast, LowerConvert,
              LowerDistribution>(patterns, converter, schedule);
  patterns.add<LowerMatrixSelect>(converter, patterns.getContext());
}
