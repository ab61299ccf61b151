//===- CSRProducts.cpp - Products with CSR operands -----------------------===//
//
// CSR %*% dense (SpMV, SpMM), dense %*% CSR, CSR %*% CSR (SpGEMM, two
// phases), tsmm and mmchain over a CSR X: runtime kernels
// (include/AMLS/Runtime/SparseKernels.h), multi-threaded there.
//
//===----------------------------------------------------------------------===//

#include "CSRLowering.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

/// The transpose of a runtime matrix view (strides swapped, no copy).
Value transposedView(OpBuilder &b, Location loc, Value matrix) {
  AffineMap swap =
      AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, b.getContext());
  Value view =
      memref::TransposeOp::create(b, loc, matrix, AffineMapAttr::get(swap));
  return memref::CastOp::create(b, loc, cast<MemRefType>(matrix.getType()),
                                view);
}

struct LowerCSRMatmul : public CSRPattern<MatmulOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(MatmulOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    bool lhsCSR = isCSRMatrix(op.getLhs().getType());
    bool rhsCSR = isCSRMatrix(op.getRhs().getType());
    auto innerSize = [&](unsigned operand, int64_t dim) -> Value {
      bool csr = operand ? rhsCSR : lhsCSR;
      if (!csr)
        return dimOf(rewriter, loc, operands[operand].front(), dim);
      CSRMatrix matrix = CSRMatrix::fromRange(operands[operand]);
      return dim ? matrix.cols : matrix.rows(rewriter, loc);
    };
    checkEqual(rewriter, loc, innerSize(0, 1), innerSize(1, 0), op,
               "the product's inner dimensions differ");
    Value rows = innerSize(0, 0), cols = innerSize(1, 1);
    SmallVector<Value> args;
    if (lhsCSR && rhsCSR) {
      CSRMatrix::fromRange(operands[0]).appendRuntimeArgs(rewriter, loc, args);
      CSRMatrix::fromRange(operands[1]).appendRuntimeArgs(rewriter, loc, args);
      CSRMatrix product = csrFromKernels(
          rewriter, loc, op, op.getType(), rows, cols, args,
          RuntimeFunction::CSRSpGEMMCount, RuntimeFunction::CSRSpGEMMFill);
      replaceWithCSR(rewriter, op, product);
      return success();
    }
    RuntimeFunction kernel;
    // u %*% B for a row vector u (t(B) %*% v after the format selection's
    // rewrite): the transposed product over B's rows, with per-thread
    // partial results, on transposed views of u and of the result.
    bool rowTimesCSR =
        !lhsCSR &&
        cast<RankedTensorType>(operands[0].front().getType()).getDimSize(0) ==
            1;
    if (rowTimesCSR) {
      CSRMatrix::fromRange(operands[1]).appendRuntimeArgs(rewriter, loc, args);
      args.push_back(transposedView(
          rewriter, loc, asRuntimeMatrix(rewriter, loc, operands[0].front())));
      kernel = RuntimeFunction::CSRSpMMTransposed;
    } else if (lhsCSR) {
      CSRMatrix::fromRange(operands[0]).appendRuntimeArgs(rewriter, loc, args);
      args.push_back(asRuntimeMatrix(rewriter, loc, operands[1].front()));
      kernel = RuntimeFunction::CSRSpMM;
    } else {
      // t(D) %*% X (the format selection's form of t(X) %*% D) reads D
      // through a transposed view: building t(D) would copy all of D.
      auto transpose = op.getLhs().getDefiningOp<TransposeOp>();
      Value stored = transpose && !isCSRMatrix(transpose.getInput().getType())
                         ? rewriter.getRemappedValue(transpose.getInput())
                         : Value();
      args.push_back(
          stored ? transposedView(rewriter, loc,
                                  asRuntimeMatrix(rewriter, loc, stored))
                 : asRuntimeMatrix(rewriter, loc, operands[0].front()));
      CSRMatrix::fromRange(operands[1]).appendRuntimeArgs(rewriter, loc, args);
      kernel = RuntimeFunction::DenseCSRMatmul;
    }
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value result =
        tensorFromRuntime(rewriter, loc, type, rows, cols, [&](Value out) {
          args.push_back(rowTimesCSR ? transposedView(rewriter, loc, out)
                                     : out);
          callRuntime(rewriter, loc, op, kernel, args);
        });
    replaceWithDense(rewriter, op, result);
    return success();
  }
};

/// t(X) %*% X over a CSR X.
struct LowerCSRTsmm : public CSRPattern<TsmmOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(TsmmOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    if (op.getSide() != TsmmSide::Left)
      return rewriter.notifyMatchFailure(op, "X %*% t(X) has no CSR kernel");
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value result =
        tensorFromRuntime(rewriter, loc, type, x.cols, x.cols, [&](Value out) {
          SmallVector<Value> args;
          x.appendRuntimeArgs(rewriter, loc, args);
          args.push_back(out);
          callRuntime(rewriter, loc, op, RuntimeFunction::CSRTsmm, args);
        });
    replaceWithDense(rewriter, op, result);
    return success();
  }
};

/// t(X) %*% (w * (X %*% v)) over a CSR X, one pass over X.
struct LowerCSRMMChain : public CSRPattern<MMChainOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(MMChainOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    Value v = operands[1].front();
    checkEqual(rewriter, loc, dimOf(rewriter, loc, v, 0), x.cols, op,
               "the vector's length differs from the matrix's column count");
    bool weighted = op.getWeights() != nullptr;
    Value vector = asRuntimeMatrix(rewriter, loc, v);
    Value weights = vector;
    if (weighted) {
      Value w = operands[2].front();
      checkEqual(rewriter, loc, dimOf(rewriter, loc, w, 0),
                 x.rows(rewriter, loc), op,
                 "the weights' length differs from the matrix's row count");
      weights = asRuntimeMatrix(rewriter, loc, w);
    }
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value result = tensorFromRuntime(
        rewriter, loc, type, x.cols, indexConstant(rewriter, loc, 1),
        [&](Value out) {
          SmallVector<Value> args;
          x.appendRuntimeArgs(rewriter, loc, args);
          args.append({vector, weights, out,
                       i32Constant(rewriter, loc, weighted ? 1 : 0)});
          callRuntime(rewriter, loc, op, RuntimeFunction::CSRMMChain, args);
        });
    replaceWithDense(rewriter, op, result);
    return success();
  }
};

} // namespace

void mlir::amls::lowering::populateCSRProductPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerCSRMatmul, LowerCSRTsmm, LowerCSRMMChain>(
      patterns, converter, schedule);
}
