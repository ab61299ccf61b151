//===- DataGeneration.cpp - Lower fill, constant, seq, rand ---------------===//
//
// Matrices generated from sizes and values: linalg.fill, dense literals,
// sequences from their indices, and random cells from the runtime's
// counter-based generator (the same matrix at any thread count).
//
//===----------------------------------------------------------------------===//

#include "CSRLowering.h"
#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

struct LowerFill : public AMLSPattern<FillOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(FillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    checkNonNegative(rewriter, loc, op, adaptor.getRows(), "row count");
    checkNonNegative(rewriter, loc, op, adaptor.getCols(), "column count");
    Value init = emptyTensor(rewriter, loc, type,
                             {adaptor.getRows(), adaptor.getCols()});
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, adaptor.getValue(), init);
    return success();
  }

  static void checkNonNegative(OpBuilder &b, Location loc, Operation *op,
                               Value size, StringRef what) {
    if (getConstantIntValue(size))
      return;
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, size,
                                     indexConstant(b, loc, 0));
    check(b, loc, ok, op, Twine(what) + " must be non-negative");
  }
};

/// A matrix not assigned on this path (DML scoping): never read, so
/// uninitialized tensors of its static sizes and no cells where a size is
/// unknown; a CSR matrix without entries.
struct LowerPoison : public AMLSPattern<ub::PoisonOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(ub::PoisonOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto matrix = dyn_cast<MatrixType>(op.getType());
    if (!matrix)
      return failure();
    Location loc = op.getLoc();
    auto empty = [&](Type type) -> Value {
      auto tensor = cast<RankedTensorType>(type);
      SmallVector<Value> sizes;
      for (int64_t dim : tensor.getShape())
        if (ShapedType::isDynamic(dim))
          sizes.push_back(indexConstant(rewriter, loc, 0));
      return tensor::EmptyOp::create(rewriter, loc, tensor, sizes);
    };
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertType(matrix, types)))
      return failure();
    if (types.size() == 1) {
      rewriter.replaceOp(op, empty(types[0]));
      return success();
    }
    SmallVector<Value> values = {empty(types[0]), empty(types[1]),
                                 empty(types[2]),
                                 indexConstant(rewriter, loc,
                                               matrix.hasStaticCols()
                                                   ? matrix.getCols()
                                                   : 0)};
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

struct LowerConstant : public LowerToValue<ConstantOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(ConstantOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!value)
      return op.emitOpError("only dense literals can be lowered");
    Value constant = arith::ConstantOp::create(rewriter, op.getLoc(),
                                               value.getType(), value);
    return constant;
  }
};

struct LowerSeq : public LowerToValue<SeqOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(SeqOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Type elementType = type.getElementType();
    Value from = adaptor.getFrom(), to = adaptor.getTo(),
          incr = adaptor.getIncr();
    // length = floor((to - from) / incr + eps) + 1, as in inference.
    Value span = arith::SubFOp::create(rewriter, loc, to, from);
    Value steps = arith::DivFOp::create(rewriter, loc, span, incr);
    Value nudged = arith::AddFOp::create(
        rewriter, loc, steps, floatConstant(rewriter, loc, elementType, 1e-10));
    Value nonNegative =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGE, nudged,
                              floatConstant(rewriter, loc, elementType, 0.0));
    check(rewriter, loc, nonNegative, op,
          "the increment has the wrong sign (or is zero)");
    Value floored = math::FloorOp::create(rewriter, loc, nudged);
    Value count =
        arith::FPToSIOp::create(rewriter, loc, rewriter.getI64Type(), floored);
    Value length = arith::AddIOp::create(
        rewriter, loc,
        arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                   count),
        indexConstant(rewriter, loc, 1));
    Value init = emptyTensor(rewriter, loc, type,
                             {length, indexConstant(rewriter, loc, 1)});
    MLIRContext *context = rewriter.getContext();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{}, init,
        {AffineMap::getMultiDimIdentityMap(2, context)},
        iterators({false, false}),
        [&](OpBuilder &b, Location bodyLoc, ValueRange) {
          Value i = linalg::IndexOp::create(b, bodyLoc, 0);
          Value i64 = arith::IndexCastOp::create(b, bodyLoc, b.getI64Type(), i);
          Value fi = arith::SIToFPOp::create(b, bodyLoc, elementType, i64);
          Value offset = arith::MulFOp::create(b, bodyLoc, fi, incr);
          linalg::YieldOp::create(
              b, bodyLoc,
              arith::AddFOp::create(b, bodyLoc, from, offset).getResult());
        });
    return generic.getResult(0);
  }
};

struct LowerRand : public LowerToValue<RandOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(RandOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Type elementType = type.getElementType();
    if (!isa<FloatType>(elementType))
      return op.emitOpError("random ") << elementType << " matrices are not "
                                       << "supported";
    Value seed = adaptor.getSeed();
    if (!seed)
      seed = callRuntime(rewriter, loc, op, RuntimeFunction::FreshSeed);
    auto toF64 = [&](Value v) -> Value {
      if (v.getType().isF64())
        return v;
      return arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(), v);
    };
    Value min = toF64(adaptor.getMin()), max = toF64(adaptor.getMax());
    Value sparsity = toF64(adaptor.getSparsity());
    Value pdf = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(op.getPdf()), 32);
    Value rows = adaptor.getRows(), cols = adaptor.getCols();
    LowerFill::checkNonNegative(rewriter, loc, op, rows, "row count");
    LowerFill::checkNonNegative(rewriter, loc, op, cols, "column count");
    Value init = emptyTensor(rewriter, loc, type, {rows, cols});
    func::FuncOp cell =
        lookupOrCreateRuntimeFunction(rewriter, op, RuntimeFunction::Rand);
    MLIRContext *context = rewriter.getContext();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{}, init,
        {AffineMap::getMultiDimIdentityMap(2, context)},
        iterators({false, false}),
        [&](OpBuilder &b, Location bodyLoc, ValueRange) {
          // The row-major cell index: the same matrix at any thread count.
          Value i = linalg::IndexOp::create(b, bodyLoc, 0);
          Value j = linalg::IndexOp::create(b, bodyLoc, 1);
          Value rowStart = arith::MulIOp::create(b, bodyLoc, i, cols);
          Value index = arith::AddIOp::create(b, bodyLoc, rowStart, j);
          Value index64 =
              arith::IndexCastOp::create(b, bodyLoc, b.getI64Type(), index);
          Value value = func::CallOp::create(
                            b, bodyLoc, cell,
                            ValueRange{seed, index64, min, max, sparsity, pdf})
                            .getResult(0);
          if (!elementType.isF64())
            value = arith::TruncFOp::create(b, bodyLoc, elementType, value);
          linalg::YieldOp::create(b, bodyLoc, value);
        });
    return generic.getResult(0);
  }
};

} // namespace

void mlir::amls::populateAMLSDataGenerationLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerFill, LowerPoison, LowerConstant, LowerSeq, LowerRand>(
      patterns, converter, schedule);
}
