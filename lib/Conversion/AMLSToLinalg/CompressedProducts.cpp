//===- CompressedProducts.cpp - Products on compressed matrices -----------===//
//
// A compressed matrix converts to one value, the index-typed handle of the
// runtime's CompressedMatrix (StorageLayouts.def), which amls.compress makes
// (of a dense or a CSR matrix) and amls.release frees. Its products are runtime
// calls (lib/Runtime/Compressed/CInterface.cpp) writing a dense result that
// tensorFromRuntime hands back as a tensor; t(X) is the same handle, read
// transposed by the product that consumes it. The other ops on one are in
// CompressedCellOps.cpp; checkMatrixFormats rejects any op the kernel
// models (lib/Dialect/AMLSCompressedKernels.cpp) do not admit.
//
//===----------------------------------------------------------------------===//

#include "CSRLowering.h"
#include "CompressedLowering.h"

#include "AMLS/Runtime/ABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

struct LowerCompress : public CompressedPattern<CompressOp> {
  using CompressedPattern::CompressedPattern;
  LogicalResult lower(CompressOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    if (isCSRMatrix(op.getInput().getType()))
      return rewriter.notifyMatchFailure(op, "CSR input: LowerCSRCompress");
    Location loc = op.getLoc();
    Value matrix = asRuntimeMatrix(rewriter, loc, adaptor.getInput());
    Value handle = callRuntime(
        rewriter, loc, op, RuntimeFunction::CompressedCompress,
        {matrix, i32Constant(rewriter, loc, op.getExplain() ? 1 : 0)});
    rewriter.replaceOp(op, handleFromRuntime(rewriter, loc, handle));
    return success();
  }
};

/// amls.compress of a CSR matrix: the runtime reads its rows' non-zeros,
/// never a dense copy.
struct LowerCSRCompress : public CSRPattern<CompressOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(CompressOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> args;
    CSRMatrix::fromRange(operands[0]).appendRuntimeArgs(rewriter, loc, args);
    args.push_back(i32Constant(rewriter, loc, op.getExplain() ? 1 : 0));
    Value handle = callRuntime(rewriter, loc, op,
                               RuntimeFunction::CompressedCompressCSR, args);
    rewriter.replaceOp(op, handleFromRuntime(rewriter, loc, handle));
    return success();
  }
};

struct LowerRelease : public CompressedPattern<ReleaseOp> {
  using CompressedPattern::CompressedPattern;
  LogicalResult lower(ReleaseOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    callRuntime(rewriter, loc, op, RuntimeFunction::CompressedRelease,
                {runtimeHandle(rewriter, loc, adaptor.getMatrix())});
    rewriter.eraseOp(op);
    return success();
  }
};

/// t(X) of a compressed X is X's handle: the product reads it transposed.
struct LowerCompressedTranspose : public CompressedPattern<TransposeOp> {
  using CompressedPattern::CompressedPattern;
  LogicalResult lower(TransposeOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

struct LowerCompressedMatmul : public CompressedPattern<MatmulOp> {
  using CompressedPattern::CompressedPattern;
  LogicalResult lower(MatmulOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    if (isCompressedMatrix(op.getRhs().getType()))
      return lowerCompressedRight(op, adaptor, rewriter);
    Location loc = op.getLoc();
    auto transpose = op.getLhs().getDefiningOp<TransposeOp>();
    bool transposed =
        transpose && isCompressedMatrix(transpose.getInput().getType());
    Value handle = adaptor.getLhs();
    Value rows = compressedSize(rewriter, loc, op, handle, transposed ? 1 : 0);
    Value inner = compressedSize(rewriter, loc, op, handle, transposed ? 0 : 1);
    Value rhs = adaptor.getRhs();
    checkEqual(rewriter, loc, dimOf(rewriter, loc, rhs, 0), inner, op,
               "the right operand's rows differ from the left's columns");
    Value cols = dimOf(rewriter, loc, rhs, 1);
    multiply(rewriter, op, handle, rhs, rows, cols,
             transposed ? AMLS_COMPRESSED_XT_W : AMLS_COMPRESSED_X_W);
    return success();
  }

private:
  /// t(W) %*% X: the runtime computes t(t(X) %*% W) from W, the dense
  /// transpose's input (the transpose itself is then dead).
  LogicalResult
  lowerCompressedRight(MatmulOp op, OpAdaptor adaptor,
                       ConversionPatternRewriter &rewriter) const {
    auto transpose = op.getLhs().getDefiningOp<TransposeOp>();
    if (!transpose)
      return rewriter.notifyMatchFailure(op, "compressed right operand of a "
                                             "product not with a transpose");
    Location loc = op.getLoc();
    Value handle = adaptor.getRhs();
    Value w = rewriter.getRemappedValue(transpose.getInput());
    if (!w)
      return rewriter.notifyMatchFailure(op, "W not converted");
    checkEqual(rewriter, loc, dimOf(rewriter, loc, w, 0),
               compressedSize(rewriter, loc, op, handle, 0), op,
               "the left operand's columns differ from the right's rows");
    multiply(rewriter, op, handle, w, dimOf(rewriter, loc, w, 1),
             compressedSize(rewriter, loc, op, handle, 1),
             AMLS_COMPRESSED_WT_X);
    return success();
  }

  void multiply(ConversionPatternRewriter &rewriter, MatmulOp op, Value handle,
                Value w, Value rows, Value cols,
                AmlsCompressedProduct product) const {
    Location loc = op.getLoc();
    Value wMatrix = asRuntimeMatrix(rewriter, loc, w);
    Value runtime = runtimeHandle(rewriter, loc, handle);
    replaceWithRuntimeResult(rewriter, op, rows, cols, [&](Value out) {
      callRuntime(rewriter, loc, op, RuntimeFunction::CompressedMultiply,
                  {runtime, wMatrix, out, i32Constant(rewriter, loc, product)});
    });
  }
};

struct LowerCompressedMMChain : public CompressedPattern<MMChainOp> {
  using CompressedPattern::CompressedPattern;
  LogicalResult lower(MMChainOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value handle = adaptor.getInput();
    Value rows = compressedSize(rewriter, loc, op, handle, 0);
    Value cols = compressedSize(rewriter, loc, op, handle, 1);
    Value v = adaptor.getVector();
    checkEqual(rewriter, loc, dimOf(rewriter, loc, v, 0), cols, op,
               "the vector's length differs from the matrix's columns");
    if (Value w = adaptor.getWeights())
      checkEqual(rewriter, loc, dimOf(rewriter, loc, w, 0), rows, op,
                 "the weights' length differs from the matrix's rows");
    Value vector = asRuntimeMatrix(rewriter, loc, v);
    Value weights = adaptor.getWeights()
                        ? asRuntimeMatrix(rewriter, loc, adaptor.getWeights())
                        : vector;
    Value runtime = runtimeHandle(rewriter, loc, handle);
    Value one = indexConstant(rewriter, loc, 1);
    replaceWithRuntimeResult(rewriter, op, cols, one, [&](Value out) {
      callRuntime(rewriter, loc, op, RuntimeFunction::CompressedMMChain,
                  {runtime, vector, weights, out,
                   i32Constant(rewriter, loc, adaptor.getWeights() ? 1 : 0)});
    });
    return success();
  }
};

struct LowerCompressedTsmm : public CompressedPattern<TsmmOp> {
  using CompressedPattern::CompressedPattern;
  LogicalResult lower(TsmmOp op, OpAdaptor adaptor,
                      ConversionPatternRewriter &rewriter) const override {
    if (op.getSide() != TsmmSide::Left)
      return rewriter.notifyMatchFailure(op, "t(X) %*% X only");
    Location loc = op.getLoc();
    Value handle = adaptor.getInput();
    Value cols = compressedSize(rewriter, loc, op, handle, 1);
    Value runtime = runtimeHandle(rewriter, loc, handle);
    replaceWithRuntimeResult(rewriter, op, cols, cols, [&](Value out) {
      callRuntime(rewriter, loc, op, RuntimeFunction::CompressedTsmm,
                  {runtime, out});
    });
    return success();
  }
};

} // namespace

Value mlir::amls::lowering::runtimeHandle(OpBuilder &b, Location loc,
                                          Value handle) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), handle);
}

Value mlir::amls::lowering::handleFromRuntime(OpBuilder &b, Location loc,
                                              Value handle) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), handle);
}

Value mlir::amls::lowering::compressedSize(OpBuilder &b, Location loc,
                                           Operation *op, Value handle,
                                           int32_t dim) {
  Value size =
      callRuntime(b, loc, op, RuntimeFunction::CompressedSize,
                  {runtimeHandle(b, loc, handle), i32Constant(b, loc, dim)});
  return handleFromRuntime(b, loc, size);
}

void mlir::amls::populateAMLSCompressedLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  populateCompressedCellOpPatterns(converter, patterns, schedule);
  addPatterns<LowerCompress, LowerCSRCompress, LowerRelease,
              LowerCompressedTranspose, LowerCompressedMatmul,
              LowerCompressedMMChain, LowerCompressedTsmm>(patterns, converter,
                                                           schedule);
}
