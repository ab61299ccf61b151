//===- LinearAlgebra.cpp - Lower solve, inv, det and the factorizations ---===//
//
// Each op is one call of its LAPACK kernel in the runtime
// (Kernels/LinearAlgebra.cpp), which checks its input (square, finite,
// symmetric, not singular) and reports errors with the op's position. The
// results' buffers are allocated here with the sizes the input implies and
// filled by the call.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

using Sizes = std::pair<Value, Value>;

/// Allocates one buffer per result (`sizes[i]`), lets `call` fill them all
/// (given their runtime views) and returns them as tensors of `types`.
SmallVector<Value> tensorsFromRuntime(OpBuilder &b, Location loc,
                                      ArrayRef<RankedTensorType> types,
                                      ArrayRef<Sizes> sizes,
                                      function_ref<void(ValueRange)> call) {
  SmallVector<Value> views, tensors(types.size());
  // Nested so that every buffer exists before the call and every tensor is
  // read after it.
  std::function<void(size_t)> allocate = [&](size_t i) {
    if (i == types.size()) {
      call(views);
      return;
    }
    tensors[i] = tensorFromRuntime(b, loc, types[i], sizes[i].first,
                                   sizes[i].second, [&](Value view) {
                                     views.push_back(view);
                                     allocate(i + 1);
                                   });
  };
  allocate(0);
  return tensors;
}

/// The base of the patterns: the op's results from one runtime call of
/// `function` with the matrix operands, the result buffers and the op's
/// position; `resultSizes` gives the result buffers' sizes from the rows
/// and columns of the (converted) operands.
template <typename OpTy> struct LowerToKernel : public AMLSPattern<OpTy> {
  using AMLSPattern<OpTy>::AMLSPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  virtual RuntimeFunction function() const = 0;
  virtual SmallVector<Sizes> resultSizes(OpBuilder &b, Location loc,
                                         ValueRange operands) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    Location loc = op.getLoc();
    SmallVector<Value> args;
    for (Value operand : adaptor.getOperands())
      args.push_back(asRuntimeMatrix(rewriter, loc, operand));
    SmallVector<RankedTensorType> types;
    for (Value result : op->getResults())
      types.push_back(this->tensorType(result));
    SmallVector<Sizes> sizes =
        resultSizes(rewriter, loc, adaptor.getOperands());
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    SmallVector<Value> results =
        tensorsFromRuntime(rewriter, loc, types, sizes, [&](ValueRange views) {
          SmallVector<Value> callArgs(args);
          llvm::append_range(callArgs, views);
          callArgs.push_back(where);
          callRuntime(rewriter, loc, op, function(), callArgs);
        });
    rewriter.replaceOp(op, results);
    return success();
  }
};

Value rowsOf(OpBuilder &b, Location loc, ValueRange operands, unsigned i = 0) {
  return dimOf(b, loc, operands[i], 0);
}
Value colsOf(OpBuilder &b, Location loc, ValueRange operands, unsigned i = 0) {
  return dimOf(b, loc, operands[i], 1);
}

/// An op whose results are all n x n (n the input's rows).
template <typename OpTy, RuntimeFunction Function, unsigned Count>
struct LowerSquare : public LowerToKernel<OpTy> {
  using LowerToKernel<OpTy>::LowerToKernel;
  RuntimeFunction function() const override { return Function; }
  SmallVector<Sizes> resultSizes(OpBuilder &b, Location loc,
                                 ValueRange operands) const override {
    Value n = rowsOf(b, loc, operands);
    return SmallVector<Sizes>(Count, {n, n});
  }
};

struct LowerSolve : public LowerToKernel<SolveOp> {
  using LowerToKernel::LowerToKernel;
  RuntimeFunction function() const override { return RuntimeFunction::Solve; }
  SmallVector<Sizes> resultSizes(OpBuilder &b, Location loc,
                                 ValueRange operands) const override {
    return {{rowsOf(b, loc, operands), colsOf(b, loc, operands, 1)}};
  }
};

struct LowerQR : public LowerToKernel<QROp> {
  using LowerToKernel::LowerToKernel;
  RuntimeFunction function() const override { return RuntimeFunction::QR; }
  SmallVector<Sizes> resultSizes(OpBuilder &b, Location loc,
                                 ValueRange operands) const override {
    Sizes input{rowsOf(b, loc, operands), colsOf(b, loc, operands)};
    return {input, input};
  }
};

struct LowerEigen : public LowerToKernel<EigenOp> {
  using LowerToKernel::LowerToKernel;
  RuntimeFunction function() const override { return RuntimeFunction::Eigen; }
  SmallVector<Sizes> resultSizes(OpBuilder &b, Location loc,
                                 ValueRange operands) const override {
    Value n = rowsOf(b, loc, operands);
    return {{n, indexConstant(b, loc, 1)}, {n, n}};
  }
};

struct LowerSVD : public LowerToKernel<SVDOp> {
  using LowerToKernel::LowerToKernel;
  RuntimeFunction function() const override { return RuntimeFunction::SVD; }
  SmallVector<Sizes> resultSizes(OpBuilder &b, Location loc,
                                 ValueRange operands) const override {
    Value rows = rowsOf(b, loc, operands), cols = colsOf(b, loc, operands);
    Value k = arith::MinUIOp::create(b, loc, rows, cols);
    return {{rows, k}, {k, k}, {cols, k}};
  }
};

struct LowerDeterminant : public AMLSPattern<DeterminantOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(DeterminantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = asRuntimeMatrix(rewriter, loc, adaptor.getInput());
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    rewriter.replaceOp(op, callRuntime(rewriter, loc, op,
                                       RuntimeFunction::Determinant,
                                       {input, where}));
    return success();
  }
};

struct LowerTriangle : public LowerToValue<TriangleOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(TriangleOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value matrix = asRuntimeMatrix(rewriter, loc, input);
    Value lower =
        i32Constant(rewriter, loc, op.getSide() == TriangleSide::Lower);
    Value diag = i32Constant(rewriter, loc, op.getDiag());
    Value values = i32Constant(rewriter, loc, op.getValues());
    return tensorFromRuntime(rewriter, loc, tensorType(op.getResult()),
                             dimOf(rewriter, loc, input, 0),
                             dimOf(rewriter, loc, input, 1), [&](Value out) {
                               callRuntime(rewriter, loc, op,
                                           RuntimeFunction::Triangle,
                                           {matrix, out, lower, diag, values});
                             });
  }
};

} // namespace

void mlir::amls::populateAMLSLinearAlgebraLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  using F = RuntimeFunction;
  addPatterns<LowerSolve, LowerSquare<InverseOp, F::Inverse, 1>,
              LowerSquare<CholeskyOp, F::Cholesky, 1>,
              LowerSquare<LUOp, F::LU, 3>, LowerQR, LowerEigen, LowerSVD,
              LowerDeterminant, LowerTriangle>(patterns, converter, schedule);
}
