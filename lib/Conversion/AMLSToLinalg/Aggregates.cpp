//===- Aggregates.cpp - Lower agg, trace, cumulative aggregates -----------===//
//
// Full, row and column aggregates (sum ... sd, maxindex/minindex) as
// reduction loop nests (Reductions.h), moments in two passes; cumulative
// aggregates as a sequential loop over rows of parallel row updates.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

struct LowerAgg : public AMLSPattern<AggOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(AggOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type elementType = resultType;
    if (auto tensor = dyn_cast<RankedTensorType>(resultType))
      elementType = tensor.getElementType();
    ReductionBuilder builder{rewriter,        loc,         input,
                             op.getAxis(),    elementType, schedule,
                             lineOffsetOf(op)};
    AggKind kind = op.getKind();

    Value reduced;
    if (kind == AggKind::MaxIndex || kind == AggKind::MinIndex) {
      reduced = buildIndexReduction(rewriter, loc, op, builder);
    } else if (kind == AggKind::Var || kind == AggKind::Sd ||
               kind == AggKind::Mean) {
      if (!isa<FloatType>(elementType))
        return op.emitOpError("mean/var/sd need a floating-point result");
      reduced = buildMoments(rewriter, loc, op, builder);
    } else {
      Reduction reduction = reductionFor(kind);
      reduced = builder.reduce(reduction.init, reduction.combine, {}, nullptr,
                               kind == AggKind::SumSq);
    }

    // Back to the op's result: a scalar, or an Rx1 / 1xC matrix.
    if (op.getAxis() == AggAxis::All) {
      rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, reduced, ValueRange{});
      return success();
    }
    auto tensorResult = cast<RankedTensorType>(resultType);
    bool perRow = op.getAxis() == AggAxis::Row;
    Value length = dimOf(rewriter, loc, input, perRow ? 0 : 1);
    OpFoldResult lengthSize = getAsOpFoldResult(length);
    SmallVector<OpFoldResult> shape =
        perRow
            ? SmallVector<OpFoldResult>{lengthSize, rewriter.getIndexAttr(1)}
            : SmallVector<OpFoldResult>{rewriter.getIndexAttr(1), lengthSize};
    auto expandedType = RankedTensorType::get(
        perRow
            ? SmallVector<int64_t>{cast<RankedTensorType>(reduced.getType())
                                       .getDimSize(0),
                                   1}
            : SmallVector<int64_t>{1, cast<RankedTensorType>(reduced.getType())
                                          .getDimSize(0)},
        elementType);
    Value expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, expandedType, reduced,
        SmallVector<ReassociationIndices>{{0, 1}}, shape);
    rewriter.replaceOp(op, castTo(rewriter, loc, expanded, tensorResult));
    return success();
  }

  /// mean = sum / n; var = sum((x - mean)^2) / (n - 1); sd = sqrt(var).
  static Value buildMoments(OpBuilder &b, Location loc, AggOp op,
                            const ReductionBuilder &builder) {
    Type type = builder.resultElementType;
    Value input = builder.input;
    Value rows = dimOf(b, loc, input, 0), cols = dimOf(b, loc, input, 1);
    Value count = op.getAxis() == AggAxis::All
                      ? arith::MulIOp::create(b, loc, rows, cols).getResult()
                      : (op.getAxis() == AggAxis::Row ? cols : rows);
    Value n = arith::UIToFPOp::create(
        b, loc, type,
        arith::IndexCastOp::create(b, loc, b.getI64Type(), count));
    Reduction sum = reductionFor(AggKind::Sum);
    Value sums = builder.reduce(sum.init, sum.combine);
    Value means = builder.map(sums, [&](OpBuilder &nb, Location l, Value s) {
      return arith::DivFOp::create(nb, l, s, n).getResult();
    });
    if (op.getKind() == AggKind::Mean)
      return means;
    Value squares = builder.reduce(
        0.0, sum.combine, means,
        [&](OpBuilder &nb, Location l, ValueRange cells) -> Value {
          Value x = builder.toResultType(nb, l, cells[0]);
          Value d = arith::SubFOp::create(nb, l, x, cells[1]);
          return arith::MulFOp::create(nb, l, d, d);
        });
    Value nMinusOne =
        arith::SubFOp::create(b, loc, n, floatConstant(b, loc, type, 1.0));
    bool sd = op.getKind() == AggKind::Sd;
    return builder.map(squares, [&](OpBuilder &nb, Location l, Value s) {
      // One value has no spread: SystemDS gives 0, not 0/0.
      Value var = arith::SelectOp::create(
          nb, l,
          arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, nMinusOne,
                                floatConstant(nb, l, type, 0.0)),
          arith::DivFOp::create(nb, l, s, nMinusOne),
          floatConstant(nb, l, type, 0.0));
      return sd ? math::SqrtOp::create(nb, l, var).getResult() : var;
    });
  }

  /// 1-based position of the last maximum (minimum) per row or column.
  static Value buildIndexReduction(OpBuilder &b, Location loc, AggOp op,
                                   const ReductionBuilder &builder) {
    Type type = builder.resultElementType;
    bool isMax = op.getKind() == AggKind::MaxIndex;
    auto [outputType, sizes] = builder.outputShape();
    auto dynamic = ReductionBuilder::dynamicOnly(outputType, sizes);
    Value inputElement = builder.input;
    Type cellType =
        cast<RankedTensorType>(inputElement.getType()).getElementType();
    auto valueType = RankedTensorType::get(outputType.getShape(), cellType);
    Value best =
        linalg::FillOp::create(
            b, loc,
            reductionInit(b, loc, cellType,
                          isMax ? -std::numeric_limits<double>::infinity()
                                : std::numeric_limits<double>::infinity()),
            tensor::EmptyOp::create(b, loc, outputType.getShape(), cellType,
                                    dynamic)
                .getResult())
            .getResult(0);
    Value position =
        linalg::FillOp::create(b, loc, reductionInit(b, loc, type, 1.0),
                               tensor::EmptyOp::create(
                                   b, loc, outputType.getShape(), type, dynamic)
                                   .getResult())
            .getResult(0);
    int64_t reducedDim = op.getAxis() == AggAxis::Row ? 1 : 0;
    auto id = AffineMap::getMultiDimIdentityMap(2, b.getContext());
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{valueType, outputType}, ValueRange{builder.input},
        ValueRange{best, position},
        {id, builder.outputMap(), builder.outputMap()},
        iterators(builder.reducedDims()),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value x = args[0], bestSoFar = args[1], where = args[2];
          // The last extreme wins ties, as in SystemDS; NaN never wins.
          Value better =
              isa<FloatType>(cellType)
                  ? arith::CmpFOp::create(nb, l,
                                          isMax ? arith::CmpFPredicate::OGE
                                                : arith::CmpFPredicate::OLE,
                                          x, bestSoFar)
                        .getResult()
                  : arith::CmpIOp::create(nb, l,
                                          isMax ? arith::CmpIPredicate::sge
                                                : arith::CmpIPredicate::sle,
                                          x, bestSoFar)
                        .getResult();
          Value k = linalg::IndexOp::create(nb, l, reducedDim);
          Value k1 = arith::AddIOp::create(nb, l, k, indexConstant(nb, l, 1));
          Value k64 = arith::IndexCastOp::create(nb, l, nb.getI64Type(), k1);
          Value here =
              isa<FloatType>(type)
                  ? arith::SIToFPOp::create(nb, l, type, k64).getResult()
                  : k64;
          linalg::YieldOp::create(
              nb, l,
              ValueRange{arith::SelectOp::create(nb, l, better, x, bestSoFar),
                         arith::SelectOp::create(nb, l, better, here, where)});
        });
    return generic.getResult(1);
  }
};

struct LowerTrace : public AMLSPattern<TraceOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(TraceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    checkEqual(rewriter, loc, dimOf(rewriter, loc, input, 0),
               dimOf(rewriter, loc, input, 1), op, "the matrix is not square");
    Type type = op.getType();
    MLIRContext *context = rewriter.getContext();
    AffineExpr i = getAffineDimExpr(0, context);
    auto outputType = RankedTensorType::get({}, type);
    Value init =
        linalg::FillOp::create(
            rewriter, loc, reductionInit(rewriter, loc, type, 0.0),
            tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{}, type)
                .getResult())
            .getResult(0);
    Reduction sum = reductionFor(AggKind::Sum);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, outputType, input, init,
        {AffineMap::get(1, 0, {i, i}, context),
         AffineMap::get(1, 0, {}, context)},
        iterators({true}), [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, sum.combine(b, l, args[0], args[1]));
        });
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, generic.getResult(0),
                                                   ValueRange{});
    return success();
  }
};

/// Row i combines row i-1 of the result with row i of the input; the rows
/// are a sequential loop, the columns of a row a parallel generic.
struct LowerCumAgg : public LowerToValue<CumAggOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(CumAggOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    Type elementType = type.getElementType();
    if (!isa<FloatType>(elementType))
      return op.emitOpError("cumulative aggregates of ")
             << elementType << " matrices are not supported";
    Value rows = dimOf(rewriter, loc, input, 0);
    Value cols = dimOf(rewriter, loc, input, 1);
    Value zero = indexConstant(rewriter, loc, 0);
    Value one = indexConstant(rewriter, loc, 1);
    auto rowType = RankedTensorType::get({1, type.getDimSize(1)}, elementType);
    CumAggKind kind = op.getKind();
    MLIRContext *context = rewriter.getContext();
    auto id = AffineMap::getMultiDimIdentityMap(2, context);
    auto loop = scf::ForOp::create(
        rewriter, loc, one, rows, one, ValueRange{input},
        [&](OpBuilder &b, Location l, Value i, ValueRange carried) {
          Value result = carried[0];
          Value previous = arith::SubIOp::create(b, l, i, one);
          SmallVector<OpFoldResult> offsetsPrev = {previous, b.getIndexAttr(0)};
          SmallVector<OpFoldResult> offsetsCur = {i, b.getIndexAttr(0)};
          SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                             getAsOpFoldResult(cols)};
          SmallVector<OpFoldResult> strides = {b.getIndexAttr(1),
                                               b.getIndexAttr(1)};
          Value prev = tensor::ExtractSliceOp::create(
              b, l, rowType, result, offsetsPrev, sizes, strides);
          Value cur = tensor::ExtractSliceOp::create(
              b, l, rowType, result, offsetsCur, sizes, strides);
          Value combined =
              linalg::GenericOp::create(
                  b, l, rowType, ValueRange{prev}, ValueRange{cur}, {id, id},
                  iterators({false, false}),
                  [&](OpBuilder &nb, Location bl, ValueRange args) {
                    Value p = args[0], c = args[1];
                    Value r;
                    switch (kind) {
                    case CumAggKind::CumSum:
                      r = arith::AddFOp::create(nb, bl, p, c);
                      break;
                    case CumAggKind::CumProd:
                      r = arith::MulFOp::create(nb, bl, p, c);
                      break;
                    case CumAggKind::CumMin:
                      r = arith::MinimumFOp::create(nb, bl, p, c);
                      break;
                    case CumAggKind::CumMax:
                      r = arith::MaximumFOp::create(nb, bl, p, c);
                      break;
                    }
                    linalg::YieldOp::create(nb, bl, r);
                  })
                  .getResult(0);
          Value updated = tensor::InsertSliceOp::create(
              b, l, combined, result, offsetsCur, sizes, strides);
          scf::YieldOp::create(b, l, updated);
        });
    (void)zero;
    return loop.getResult(0);
  }
};

} // namespace

void mlir::amls::populateAMLSAggregateLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerAgg, LowerTrace, LowerCumAgg>(patterns, converter, schedule);
}
