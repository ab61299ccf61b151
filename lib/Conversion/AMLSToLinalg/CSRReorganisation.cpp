//===- CSRReorganisation.cpp - Transpose, rev, slices, binds of CSR -------===//
//
// Runtime kernels that build a CSR result: the transpose (sorted output),
// rev (the input's number of entries), row and column slices (two phases:
// count, then fill) and concatenation (the result's size is the sum of the
// inputs').
//
//===----------------------------------------------------------------------===//

#include "CSRLowering.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// transpose (`Transposed`: the sizes swapped) and rev: one kernel writes
/// arrays of the input's number of entries.
template <typename OpTy, RuntimeFunction Kernel, bool Transposed>
struct LowerCSRPermutation : public CSRPattern<OpTy> {
  using CSRPattern<OpTy>::CSRPattern;
  LogicalResult lower(OpTy op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    Value rows = x.rows(rewriter, loc);
    SmallVector<Value> args;
    x.appendRuntimeArgs(rewriter, loc, args);
    CSRMatrix result = csrFromKernel(
        rewriter, loc, op, op.getType(), Transposed ? x.cols : rows,
        x.nnz(rewriter, loc), Transposed ? rows : x.cols, args, Kernel);
    this->replaceWithCSR(rewriter, op, result);
    return success();
  }
};

struct LowerCSRSlice : public CSRPattern<SliceOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(SliceOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    Value bounds[4] = {operands[1].front(), operands[2].front(),
                       operands[3].front(), operands[4].front()};
    Value zero = indexConstant(rewriter, loc, 0);
    auto inOrder = [&](Value a, Value b) {
      return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle, a,
                                   b)
          .getResult();
    };
    Value ok = inOrder(zero, bounds[0]);
    ok =
        arith::AndIOp::create(rewriter, loc, ok, inOrder(bounds[0], bounds[1]));
    ok = arith::AndIOp::create(rewriter, loc, ok,
                               inOrder(bounds[1], x.rows(rewriter, loc)));
    ok = arith::AndIOp::create(rewriter, loc, ok, inOrder(zero, bounds[2]));
    ok =
        arith::AndIOp::create(rewriter, loc, ok, inOrder(bounds[2], bounds[3]));
    ok = arith::AndIOp::create(rewriter, loc, ok, inOrder(bounds[3], x.cols));
    check(rewriter, loc, ok, op, "index range out of bounds");
    SmallVector<Value> args;
    x.appendRuntimeArgs(rewriter, loc, args);
    for (Value bound : bounds)
      args.push_back(toI64(rewriter, loc, bound));
    Value rows = arith::SubIOp::create(rewriter, loc, bounds[1], bounds[0]);
    Value cols = arith::SubIOp::create(rewriter, loc, bounds[3], bounds[2]);
    CSRMatrix result = csrFromKernels(
        rewriter, loc, op, op.getType(), rows, cols, args,
        RuntimeFunction::CSRSliceCount, RuntimeFunction::CSRSliceFill);
    replaceWithCSR(rewriter, op, result);
    return success();
  }
};

/// diag of a CSR matrix (a dense vector) or of a dense vector (a CSR
/// diagonal matrix).
struct LowerCSRDiag : public CSRPattern<DiagOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(DiagOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (isCSRMatrix(op.getInput().getType())) {
      CSRMatrix x = CSRMatrix::fromRange(operands[0]);
      Value rows = x.rows(rewriter, loc);
      checkEqual(rewriter, loc, rows, x.cols, op,
                 "diag expects a square matrix or a column vector");
      auto type =
          cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
      Value result = tensorFromRuntime(
          rewriter, loc, type, rows, indexConstant(rewriter, loc, 1),
          [&](Value out) {
            SmallVector<Value> args;
            x.appendRuntimeArgs(rewriter, loc, args);
            args.push_back(out);
            callRuntime(rewriter, loc, op, RuntimeFunction::CSRDiag, args);
          });
      replaceWithDense(rewriter, op, result);
      return success();
    }
    Value input = operands[0].front();
    Value vector = asRuntimeMatrix(rewriter, loc, input);
    Value n = dimOf(rewriter, loc, input, 0);
    CSRMatrix result =
        csrFromKernels(rewriter, loc, op, op.getType(), n, n, {vector},
                       RuntimeFunction::CSRFromDiagonalCount,
                       RuntimeFunction::CSRFromDiagonalFill);
    replaceWithCSR(rewriter, op, result);
    return success();
  }
};

/// cbind/rbind of CSR matrices, two at a time.
template <typename OpTy, bool Columns>
struct LowerCSRConcat : public CSRPattern<OpTy> {
  using CSRPattern<OpTy>::CSRPattern;
  LogicalResult lower(OpTy op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CSRMatrix acc = CSRMatrix::fromRange(operands[0]);
    auto resultType = cast<MatrixType>(op.getType());
    for (ValueRange operand : operands.drop_front()) {
      CSRMatrix next = CSRMatrix::fromRange(operand);
      Value accRows = acc.rows(rewriter, loc);
      Value nextRows = next.rows(rewriter, loc);
      if (Columns)
        checkEqual(rewriter, loc, accRows, nextRows, op,
                   "cbind: the matrices' row counts differ");
      else
        checkEqual(rewriter, loc, acc.cols, next.cols, op,
                   "rbind: the matrices' column counts differ");
      Value rows = Columns
                       ? accRows
                       : arith::AddIOp::create(rewriter, loc, accRows, nextRows)
                             .getResult();
      Value cols =
          Columns ? arith::AddIOp::create(rewriter, loc, acc.cols, next.cols)
                        .getResult()
                  : acc.cols;
      Value nnz = arith::AddIOp::create(rewriter, loc, acc.nnz(rewriter, loc),
                                        next.nnz(rewriter, loc));
      MatrixType partType = MatrixType::get(
          ShapedType::kDynamic, ShapedType::kDynamic,
          resultType.getElementType(), std::nullopt, MatrixFormat::CSR);
      SmallVector<Value> args;
      acc.appendRuntimeArgs(rewriter, loc, args);
      next.appendRuntimeArgs(rewriter, loc, args);
      acc = csrFromKernel(rewriter, loc, op, partType, rows, nnz, cols, args,
                          Columns ? RuntimeFunction::CSRCBind
                                  : RuntimeFunction::CSRRBind);
    }
    this->replaceWithCSR(rewriter, op, acc);
    return success();
  }
};

} // namespace

void mlir::amls::lowering::populateCSRReorganisationPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<
      LowerCSRPermutation<TransposeOp, RuntimeFunction::CSRTranspose, true>,
      LowerCSRPermutation<RevOp, RuntimeFunction::CSRRev, false>, LowerCSRSlice,
      LowerCSRDiag, LowerCSRConcat<CBindOp, true>,
      LowerCSRConcat<RBindOp, false>>(patterns, converter, schedule);
}
