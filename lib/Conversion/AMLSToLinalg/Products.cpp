//===- Products.cpp - Lower matmul, tsmm, mmchain -------------------------===//
//
// Products become linalg.matmul (transposed operands as transposed indexing
// maps, no copies); BLAS takes the large ones after bufferization
// (lib/Codegen/CPU/UseBlas.cpp). f64 mmchains call the runtime's one-pass
// kernel.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

/// C = A' B' with zero-initialized C of `type`; `maps` select transposes.
Value buildMatmul(OpBuilder &b, Location loc, RankedTensorType type, Value lhs,
                  Value rhs, Value rows, Value cols,
                  std::optional<ArrayRef<AffineMap>> maps = std::nullopt) {
  Value init = emptyTensor(b, loc, type, {rows, cols});
  Value zero = arith::ConstantOp::create(b, loc, type.getElementType(),
                                         b.getZeroAttr(type.getElementType()));
  Value filled = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  SmallVector<NamedAttribute> attributes;
  if (maps)
    attributes.push_back(
        b.getNamedAttr("indexing_maps", b.getAffineMapArrayAttr(*maps)));
  return linalg::MatmulOp::create(b, loc, TypeRange{type}, ValueRange{lhs, rhs},
                                  ValueRange{filled}, attributes)
      .getResult(0);
}

/// Affine maps (m, n, k) of a product with optionally transposed operands.
SmallVector<AffineMap> matmulMaps(MLIRContext *context, bool transposeLhs,
                                  bool transposeRhs) {
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  auto map = [&](AffineExpr a, AffineExpr c) {
    return AffineMap::get(3, 0, {a, c}, context);
  };
  return {transposeLhs ? map(k, m) : map(m, k),
          transposeRhs ? map(n, k) : map(k, n), map(m, n)};
}

struct LowerMatmul : public LowerToValue<MatmulOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(MatmulOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // A transposed operand is read through a transposed indexing map instead
    // of being materialized (BLAS then gets it as a transposed view).
    auto untransposed = [&](Value original, Value converted) {
      auto transpose = original.getDefiningOp<TransposeOp>();
      if (!transpose)
        return std::make_pair(converted, false);
      Value input = rewriter.getRemappedValue(transpose.getInput());
      if (!input || !isa<RankedTensorType>(input.getType()))
        return std::make_pair(converted, false);
      return std::make_pair(input, true);
    };
    auto [lhs, transposeLhs] = untransposed(op.getLhs(), adaptor.getLhs());
    auto [rhs, transposeRhs] = untransposed(op.getRhs(), adaptor.getRhs());
    Value rows = dimOf(rewriter, loc, lhs, transposeLhs ? 1 : 0);
    Value inner = dimOf(rewriter, loc, lhs, transposeLhs ? 0 : 1);
    Value rhsInner = dimOf(rewriter, loc, rhs, transposeRhs ? 1 : 0);
    Value cols = dimOf(rewriter, loc, rhs, transposeRhs ? 0 : 1);
    checkEqual(rewriter, loc, inner, rhsInner, op, "inner dimensions differ");
    std::optional<ArrayRef<AffineMap>> maps;
    SmallVector<AffineMap> transposedMaps;
    if (transposeLhs || transposeRhs) {
      transposedMaps =
          matmulMaps(rewriter.getContext(), transposeLhs, transposeRhs);
      maps = transposedMaps;
    }
    return buildMatmul(rewriter, loc, tensorType(op.getResult()), lhs, rhs,
                       rows, cols, maps);
  }
};

struct LowerTsmm : public LowerToValue<TsmmOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(TsmmOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    bool left = op.getSide() == TsmmSide::Left;
    Value size = dimOf(rewriter, loc, x, left ? 1 : 0);
    SmallVector<AffineMap> maps =
        matmulMaps(rewriter.getContext(), /*transposeLhs=*/left,
                   /*transposeRhs=*/!left);
    return buildMatmul(rewriter, loc, tensorType(op.getResult()), x, x, size,
                       size, ArrayRef<AffineMap>(maps));
  }
};

struct LowerMMChain : public LowerToValue<MMChainOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(MMChainOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput(), v = adaptor.getVector();
    auto xType = cast<RankedTensorType>(x.getType());
    Type elementType = xType.getElementType();
    Value rows = dimOf(rewriter, loc, x, 0), cols = dimOf(rewriter, loc, x, 1);
    Value one = indexConstant(rewriter, loc, 1);
    checkEqual(rewriter, loc, dimOf(rewriter, loc, v, 0), cols, op,
               "the vector's length differs from the matrix's columns");
    if (Value w = adaptor.getWeights())
      checkEqual(rewriter, loc, dimOf(rewriter, loc, w, 0), rows, op,
                 "the weights' length differs from the matrix's rows");
    // f64 products go to the runtime's kernel, which reads X once instead
    // of twice (where the schedule says so: not on the GPU); other element
    // types to two products.
    if (elementType.isF64() && schedule.usesChainKernel()) {
      Value matrix = asRuntimeMatrix(rewriter, loc, x);
      Value vector = asRuntimeMatrix(rewriter, loc, v);
      Value weights = adaptor.getWeights()
                          ? asRuntimeMatrix(rewriter, loc, adaptor.getWeights())
                          : vector;
      Value useWeights =
          i32Constant(rewriter, loc, adaptor.getWeights() ? 1 : 0);
      return tensorFromRuntime(
          rewriter, loc, tensorType(op.getResult()), cols, one, [&](Value out) {
            callRuntime(rewriter, loc, op, RuntimeFunction::MMChain,
                        {matrix, vector, weights, out, useWeights});
          });
    }
    auto column = RankedTensorType::get({xType.getDimSize(0), 1}, elementType);
    Value xv = buildMatmul(rewriter, loc, column, x, v, rows, one);
    if (Value w = adaptor.getWeights()) {
      w = castTo(rewriter, loc, w, column);
      MLIRContext *context = rewriter.getContext();
      auto id = AffineMap::getMultiDimIdentityMap(2, context);
      Value init = emptyTensor(rewriter, loc, column, {rows, one});
      xv = linalg::GenericOp::create(
               rewriter, loc, column, ValueRange{w, xv}, init, {id, id, id},
               iterators({false, false}),
               [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
                 linalg::YieldOp::create(
                     b, bodyLoc,
                     arith::MulFOp::create(b, bodyLoc, args[0], args[1])
                         .getResult());
               })
               .getResult(0);
    }
    SmallVector<AffineMap> maps = matmulMaps(rewriter.getContext(),
                                             /*transposeLhs=*/true,
                                             /*transposeRhs=*/false);
    return buildMatmul(rewriter, loc, tensorType(op.getResult()), x, xv, cols,
                       one, ArrayRef<AffineMap>(maps));
  }
};

} // namespace

void mlir::amls::populateAMLSProductLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerMatmul, LowerTsmm, LowerMMChain>(patterns, converter,
                                                    schedule);
}
