//===- CSRReorganisation.cpp - Transpose, slices, cbind/rbind of CSR ------===//
//
// Runtime kernels that build a CSR result: the transpose (sorted output),
// row and column slices (two phases: count, then fill) and concatenation
// (the result's size is the sum of the inputs').
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

struct LowerCSRTranspose : public CSRPattern<TransposeOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(TransposeOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    CSRMatrix result = csrFromRuntime(
        rewriter, loc, op.getType(), x.cols, x.nnz(rewriter, loc),
        x.rows(rewriter, loc), [&](ValueRange arrays) {
          SmallVector<Value> args;
          x.appendRuntimeArgs(rewriter, loc, args);
          llvm::append_range(args, arrays);
          callRuntime(rewriter, loc, op, RuntimeFunction::CSRTranspose, args);
        });
    replaceWithCSR(rewriter, op, result);
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
    CSRMatrix result = csrFromTwoPhases(
        rewriter, loc, op.getType(), rows, cols,
        [&](Value rowptr) {
          SmallVector<Value> count(args);
          count.push_back(rowptr);
          return callRuntime(rewriter, loc, op, RuntimeFunction::CSRSliceCount,
                             count);
        },
        [&](ValueRange arrays) {
          SmallVector<Value> fill(args);
          llvm::append_range(fill, arrays);
          callRuntime(rewriter, loc, op, RuntimeFunction::CSRSliceFill, fill);
        });
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
    CSRMatrix result = csrFromTwoPhases(
        rewriter, loc, op.getType(), n, n,
        [&](Value rowptr) {
          return callRuntime(rewriter, loc, op,
                             RuntimeFunction::CSRFromDiagonalCount,
                             {vector, rowptr});
        },
        [&](ValueRange arrays) {
          callRuntime(rewriter, loc, op, RuntimeFunction::CSRFromDiagonalFill,
                      {vector, arrays[0], arrays[1], arrays[2]});
        });
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
      acc = csrFromRuntime(rewriter, loc, partType, rows, nnz, cols,
                           [&](ValueRange arrays) {
                             SmallVector<Value> args;
                             acc.appendRuntimeArgs(rewriter, loc, args);
                             next.appendRuntimeArgs(rewriter, loc, args);
                             llvm::append_range(args, arrays);
                             callRuntime(rewriter, loc, op,
                                         Columns ? RuntimeFunction::CSRCBind
                                                 : RuntimeFunction::CSRRBind,
                                         args);
                           });
    }
    this->replaceWithCSR(rewriter, op, acc);
    return success();
  }
};

} // namespace

void mlir::amls::lowering::populateCSRReorganisationPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerCSRTranspose, LowerCSRSlice, LowerCSRDiag,
              LowerCSRConcat<CBindOp, true>, LowerCSRConcat<RBindOp, false>>(
      patterns, converter, schedule);
}
