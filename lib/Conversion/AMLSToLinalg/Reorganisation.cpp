//===- Reorganisation.cpp - Lower transposes, reshapes, slices, binds ----===//
//
// Reorganisation ops move cells without computing: linalg.transpose, tensor
// reshapes and slices, and generics that compute each cell's source index.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

struct LowerTranspose : public LowerToValue<TransposeOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(TransposeOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = tensorType(op.getResult());
    // Shape inference may know a size on one side only (a loop-carried
    // operand typed ?x? whose result it refined to 5x1); linalg.transpose
    // wants the two types to agree, so both get every size either knows.
    auto inputType = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> inputShape(inputType.getShape());
    for (unsigned dim : {0u, 1u})
      if (ShapedType::isDynamic(inputShape[dim]))
        inputShape[dim] = type.getDimSize(1 - dim);
    input = castTo(rewriter, loc, input, inputType.clone(inputShape));
    RankedTensorType initType =
        type.clone(SmallVector<int64_t>{inputShape[1], inputShape[0]});
    Value init = emptyTensor(
        rewriter, loc, initType,
        {dimOf(rewriter, loc, input, 1), dimOf(rewriter, loc, input, 0)});
    auto transpose = linalg::TransposeOp::create(rewriter, loc, input, init,
                                                 ArrayRef<int64_t>{1, 0});
    return castTo(rewriter, loc, transpose.getResult()[0], type);
  }
};

struct LowerReshape : public LowerToValue<ReshapeOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(ReshapeOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value rows = adaptor.getRows(), cols = adaptor.getCols();
    Value cellsIn =
        arith::MulIOp::create(rewriter, loc, dimOf(rewriter, loc, input, 0),
                              dimOf(rewriter, loc, input, 1));
    Value cellsOut = arith::MulIOp::create(rewriter, loc, rows, cols);
    checkEqual(rewriter, loc, cellsIn, cellsOut, op,
               "the number of cells changes");
    Value shape = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({2}, rewriter.getIndexType()),
        ValueRange{rows, cols});
    RankedTensorType type = tensorType(op.getResult());
    auto dynamicType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, type.getElementType());
    Value reshaped =
        tensor::ReshapeOp::create(rewriter, loc, dynamicType, input, shape);
    return castTo(rewriter, loc, reshaped, type);
  }
};

/// An output-only generic whose body computes each cell from its indices.
Value generateFromIndices(
    OpBuilder &b, Location loc, RankedTensorType type, Value rows, Value cols,
    function_ref<Value(OpBuilder &, Location, Value i, Value j)> cell) {
  Value init = emptyTensor(b, loc, type, {rows, cols});
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{}, init,
             {AffineMap::getMultiDimIdentityMap(2, b.getContext())},
             iterators({false, false}),
             [&](OpBuilder &nb, Location l, ValueRange) {
               Value i = linalg::IndexOp::create(nb, l, 0);
               Value j = linalg::IndexOp::create(nb, l, 1);
               linalg::YieldOp::create(nb, l, cell(nb, l, i, j));
             })
      .getResult(0);
}

struct LowerRev : public LowerToValue<RevOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(RevOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value rows = dimOf(rewriter, loc, input, 0);
    Value last = arith::SubIOp::create(rewriter, loc, rows,
                                       indexConstant(rewriter, loc, 1));
    return generateFromIndices(
        rewriter, loc, tensorType(op.getResult()), rows,
        dimOf(rewriter, loc, input, 1),
        [&](OpBuilder &b, Location l, Value i, Value j) -> Value {
          Value source = arith::SubIOp::create(b, l, last, i);
          return tensor::ExtractOp::create(b, l, input, ValueRange{source, j});
        });
  }
};

struct LowerDiag : public LowerToValue<DiagOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(DiagOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    RankedTensorType type = tensorType(op.getResult());
    if (inputType.getDimSize(1) == 1) {
      return fromVector(rewriter, loc, input, type);
    }
    if (!inputType.isDynamicDim(1)) {
      return ofMatrix(rewriter, loc, op, input, type);
    }
    // Unknown column count: decide at run time.
    Value isVector = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, dimOf(rewriter, loc, input, 1),
        indexConstant(rewriter, loc, 1));
    auto dynamicType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, type.getElementType());
    auto branch = scf::IfOp::create(
        rewriter, loc, isVector,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(
              b, l,
              castTo(b, l, fromVector(b, l, input, dynamicType), dynamicType));
        },
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l,
                               castTo(b, l,
                                      ofMatrix(b, l, op, input, dynamicType),
                                      dynamicType));
        });
    return castTo(rewriter, loc, branch.getResult(0), type);
  }

  static Value fromVector(OpBuilder &b, Location loc, Value vector,
                          RankedTensorType type) {
    Value n = dimOf(b, loc, vector, 0);
    Type elementType = type.getElementType();
    auto resultType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, elementType);
    Value result = generateFromIndices(
        b, loc, resultType, n, n,
        [&](OpBuilder &nb, Location l, Value i, Value j) -> Value {
          Value onDiagonal =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, i, j);
          Value cell = tensor::ExtractOp::create(
              nb, l, vector, ValueRange{i, indexConstant(nb, l, 0)});
          Value zero = arith::ConstantOp::create(nb, l, elementType,
                                                 nb.getZeroAttr(elementType));
          return arith::SelectOp::create(nb, l, onDiagonal, cell, zero);
        });
    return castTo(b, loc, result, type);
  }

  static Value ofMatrix(OpBuilder &b, Location loc, Operation *op, Value matrix,
                        RankedTensorType type) {
    Value n = dimOf(b, loc, matrix, 0);
    checkEqual(b, loc, n, dimOf(b, loc, matrix, 1), op,
               "expects a column vector or a square matrix");
    auto resultType =
        RankedTensorType::get({ShapedType::kDynamic, 1}, type.getElementType());
    return castTo(
        b, loc,
        generateFromIndices(
            b, loc, resultType, n, indexConstant(b, loc, 1),
            [&](OpBuilder &nb, Location l, Value i, Value) -> Value {
              return tensor::ExtractOp::create(nb, l, matrix, ValueRange{i, i});
            }),
        type);
  }
};

/// cbind (alongColumns) and rbind: copy each input into its place.
template <typename OpTy, bool alongColumns>
struct LowerConcat : public AMLSPattern<OpTy> {
  using AMLSPattern<OpTy>::AMLSPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange inputs = adaptor.getInputs();
    int64_t joinedDim = alongColumns ? 1 : 0, sharedDim = 1 - joinedDim;
    Value shared = dimOf(rewriter, loc, inputs[0], sharedDim);
    Value total = indexConstant(rewriter, loc, 0);
    for (Value input : inputs) {
      checkEqual(rewriter, loc, dimOf(rewriter, loc, input, sharedDim), shared,
                 op,
                 alongColumns ? "inputs differ in their number of rows"
                              : "inputs differ in their number of columns");
      total = arith::AddIOp::create(rewriter, loc, total,
                                    dimOf(rewriter, loc, input, joinedDim));
    }
    RankedTensorType type = this->tensorType(op.getResult());
    Value result =
        emptyTensor(rewriter, loc, type,
                    alongColumns ? SmallVector<Value>{shared, total}
                                 : SmallVector<Value>{total, shared});
    Value offset = indexConstant(rewriter, loc, 0);
    Value zero = indexConstant(rewriter, loc, 0);
    for (Value input : inputs) {
      Value rows = dimOf(rewriter, loc, input, 0);
      Value cols = dimOf(rewriter, loc, input, 1);
      SmallVector<OpFoldResult> offsets =
          alongColumns ? SmallVector<OpFoldResult>{zero, offset}
                       : SmallVector<OpFoldResult>{offset, zero};
      result = tensor::InsertSliceOp::create(
          rewriter, loc, input, result, offsets,
          SmallVector<OpFoldResult>{getAsOpFoldResult(rows),
                                    getAsOpFoldResult(cols)},
          SmallVector<OpFoldResult>{rewriter.getIndexAttr(1),
                                    rewriter.getIndexAttr(1)});
      offset = arith::AddIOp::create(rewriter, loc, offset,
                                     alongColumns ? cols : rows);
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, result, type));
    return success();
  }
};

/// Checks 0 <= begin <= end <= size at run time where not static.
void checkRange(OpBuilder &b, Location loc, Operation *op, Value begin,
                Value end, Value size, StringRef dim) {
  if (getConstantIntValue(begin) && getConstantIntValue(end) &&
      getConstantIntValue(size))
    return;
  Value zero = indexConstant(b, loc, 0);
  Value ok = arith::AndIOp::create(
      b, loc,
      arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, zero, begin),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, begin, end)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end, size));
  check(b, loc, ok, op, Twine(dim) + " range is out of bounds");
}

struct LowerSlice : public LowerToValue<SliceOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(SliceOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    checkRange(rewriter, loc, op, adaptor.getRowBegin(), adaptor.getRowEnd(),
               dimOf(rewriter, loc, input, 0), "row");
    checkRange(rewriter, loc, op, adaptor.getColBegin(), adaptor.getColEnd(),
               dimOf(rewriter, loc, input, 1), "column");
    Value rows = arith::SubIOp::create(rewriter, loc, adaptor.getRowEnd(),
                                       adaptor.getRowBegin());
    Value cols = arith::SubIOp::create(rewriter, loc, adaptor.getColEnd(),
                                       adaptor.getColBegin());
    RankedTensorType type = tensorType(op.getResult());
    auto dynamicType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, type.getElementType());
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, loc, dynamicType, input,
        SmallVector<OpFoldResult>{adaptor.getRowBegin(), adaptor.getColBegin()},
        SmallVector<OpFoldResult>{rows, cols},
        SmallVector<OpFoldResult>{rewriter.getIndexAttr(1),
                                  rewriter.getIndexAttr(1)});
    return castTo(rewriter, loc, slice, type);
  }
};

struct LowerInsertSlice : public LowerToValue<InsertSliceOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(InsertSliceOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource(), dest = adaptor.getDest();
    checkRange(rewriter, loc, op, adaptor.getRowBegin(), adaptor.getRowEnd(),
               dimOf(rewriter, loc, dest, 0), "row");
    checkRange(rewriter, loc, op, adaptor.getColBegin(), adaptor.getColEnd(),
               dimOf(rewriter, loc, dest, 1), "column");
    Value rows = arith::SubIOp::create(rewriter, loc, adaptor.getRowEnd(),
                                       adaptor.getRowBegin());
    Value cols = arith::SubIOp::create(rewriter, loc, adaptor.getColEnd(),
                                       adaptor.getColBegin());
    checkEqual(rewriter, loc, dimOf(rewriter, loc, source, 0), rows, op,
               "the source's rows differ from the target range");
    checkEqual(rewriter, loc, dimOf(rewriter, loc, source, 1), cols, op,
               "the source's columns differ from the target range");
    auto dynamicType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic},
        cast<RankedTensorType>(source.getType()).getElementType());
    Value result = tensor::InsertSliceOp::create(
        rewriter, loc, castTo(rewriter, loc, source, dynamicType), dest,
        SmallVector<OpFoldResult>{adaptor.getRowBegin(), adaptor.getColBegin()},
        SmallVector<OpFoldResult>{rows, cols},
        SmallVector<OpFoldResult>{rewriter.getIndexAttr(1),
                                  rewriter.getIndexAttr(1)});
    return result;
  }
};

} // namespace

void mlir::amls::populateAMLSReorganisationLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerTranspose, LowerReshape, LowerRev, LowerDiag,
              LowerConcat<CBindOp, true>, LowerConcat<RBindOp, false>,
              LowerSlice, LowerInsertSlice>(patterns, converter, schedule);
}
