//===- CSRConversions.cpp - CSR formats, files and sizes ------------------===//
//
// amls.convert between dense and CSR, read/write of CSR matrices (straight
// from and to the file, never densified), nrow/ncol/nnz and cast.
//
//===----------------------------------------------------------------------===//

#include "CSRLowering.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

Value toIndex(OpBuilder &b, Location loc, Value value) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

struct LowerCSRConvert : public CSRPattern<ConvertOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(ConvertOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MatrixType resultType = op.getType();
    bool fromCSR = isCSRMatrix(op.getInput().getType());
    bool toCSR = isCSRMatrix(resultType);
    if (fromCSR && toCSR) {
      CSRMatrix input = CSRMatrix::fromRange(operands[0]);
      SmallVector<Type> types;
      getCSRTypes(resultType, types);
      input.rowptr = castTo(rewriter, loc, input.rowptr, types[0]);
      replaceWithCSR(rewriter, op, input);
      return success();
    }
    if (fromCSR) {
      auto type =
          cast<RankedTensorType>(getTypeConverter()->convertType(resultType));
      replaceWithDense(rewriter, op,
                       denseFromCSR(rewriter, loc, op,
                                    CSRMatrix::fromRange(operands[0]), type));
      return success();
    }
    CSRMatrix csr =
        csrFromDense(rewriter, loc, op, resultType, operands[0].front());
    replaceWithCSR(rewriter, op, csr);
    return success();
  }
};

} // namespace

Value mlir::amls::lowering::denseFromCSR(OpBuilder &b, Location loc,
                                         Operation *op, const CSRMatrix &input,
                                         RankedTensorType type) {
  return denseFromKernel(b, loc, op, type, input, {},
                         RuntimeFunction::CSRToDense,
                         "converting a CSR matrix to dense");
}

CSRMatrix mlir::amls::lowering::csrFromDense(OpBuilder &b, Location loc,
                                             Operation *op, MatrixType type,
                                             Value dense) {
  return csrFromKernels(
      b, loc, op, type, dimOf(b, loc, dense, 0), dimOf(b, loc, dense, 1),
      {asRuntimeMatrix(b, loc, dense)}, RuntimeFunction::CSRCountDense,
      RuntimeFunction::CSRFromDense);
}

Value mlir::amls::lowering::broadcastCell(OpBuilder &b, Location loc,
                                          Value matrix, Value rowVector,
                                          Value colVector) {
  Value zero = indexConstant(b, loc, 0);
  auto at = [&](Value vector, int64_t dim) -> Value {
    return arith::SelectOp::create(b, loc, vector, zero,
                                   linalg::IndexOp::create(b, loc, dim));
  };
  return tensor::ExtractOp::create(
      b, loc, matrix, ValueRange{at(rowVector, 0), at(colVector, 1)});
}

Value mlir::amls::lowering::csrSize(OpBuilder &b, Location loc, Type type,
                                    const CSRMatrix &x, int64_t dim) {
  int64_t size = dim == 0 ? cast<MatrixType>(type).getRows()
                          : cast<MatrixType>(type).getCols();
  if (!ShapedType::isDynamic(size))
    return indexConstant(b, loc, size);
  return dim == 0 ? x.rows(b, loc) : x.cols;
}

CSRMatrix mlir::amls::lowering::broadcastCSR(OpBuilder &b, Location loc,
                                             Operation *op, MatrixType type,
                                             Type xType, const CSRMatrix &x,
                                             Value rows, Value cols) {
  Value xRows = csrSize(b, loc, xType, x, 0);
  Value xCols = csrSize(b, loc, xType, x, 1);
  if (getConstantIntValue(xRows) == getConstantIntValue(rows) &&
      getConstantIntValue(xCols) == getConstantIntValue(cols) &&
      getConstantIntValue(xRows) && getConstantIntValue(xCols))
    return x; // Static sizes: the kernel interface admitted no broadcast.
  Value one = indexConstant(b, loc, 1);
  auto eq = [&](Value lhs, Value rhs) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, rhs);
  };
  SmallVector<Type> types;
  getCSRTypes(type, types);
  auto yield = [&](OpBuilder &nb, Location l, const CSRMatrix &m) {
    scf::YieldOp::create(nb, l,
                         ValueRange{castTo(nb, l, m.rowptr, types[0]),
                                    castTo(nb, l, m.colidx, types[1]),
                                    castTo(nb, l, m.values, types[2]), m.cols});
  };
  Value rowVector = eq(xRows, one), colVector = eq(xCols, one);
  auto branch = scf::IfOp::create(
      b, loc, arith::AndIOp::create(b, loc, eq(xRows, rows), eq(xCols, cols)),
      [&](OpBuilder &nb, Location l) { yield(nb, l, x); },
      [&](OpBuilder &nb, Location l) {
        // A CSR vector repeated: rare (the formats keep vectors dense), so
        // through a dense copy of the result rather than a kernel.
        Type f64 = nb.getF64Type();
        int64_t dyn = ShapedType::kDynamic;
        auto matrixType = RankedTensorType::get({dyn, dyn}, f64);
        Value dense = denseFromCSR(nb, l, op, x, matrixType);
        Value init = tensor::EmptyOp::create(nb, l, matrixType.getShape(), f64,
                                             ValueRange{rows, cols});
        MLIRContext *context = nb.getContext();
        Value expanded =
            linalg::GenericOp::create(
                nb, l, matrixType, ValueRange{}, init,
                AffineMap::getMultiDimIdentityMap(2, context),
                iterators({false, false}),
                [&](OpBuilder &gb, Location gl, ValueRange) {
                  linalg::YieldOp::create(
                      gb, gl,
                      broadcastCell(gb, gl, dense, rowVector, colVector));
                })
                .getResult(0);
        yield(nb, l, csrFromDense(nb, l, op, type, expanded));
      });
  return CSRMatrix::fromRange(branch.getResults());
}

namespace {

struct LowerCSRRead : public CSRPattern<ReadOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(ReadOp op, ArrayRef<ValueRange>,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MatrixType type = op.getType();
    Value path = createStringPointer(rewriter, loc, op, op.getPath());
    Value format = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(op.getFormat()), 32);
    Value stated[2];
    for (int d = 0; d < 2; ++d) {
      int64_t size = d ? type.getCols() : type.getRows();
      stated[d] = arith::ConstantIntOp::create(
          rewriter, loc, isKnownSize(size) ? size : -1, 64);
    }
    Value where = createStringPointer(rewriter, loc, op, describeOp(op));
    // A row-partitioned read (--amls-distribute) reads this rank's rows.
    RuntimeFunction read =
        op->hasAttr(AMLSDialect::getRowPartitionedAttrName())
            ? RuntimeFunction::DistCSRRead
            : RuntimeFunction::CSRRead;
    Value handle = callRuntime(rewriter, loc, op, read,
                               {path, format, stated[0], stated[1], where});
    Value rows = toIndex(rewriter, loc,
                         callRuntime(rewriter, loc, op,
                                     RuntimeFunction::CSRHandleRows, {handle}));
    Value cols = toIndex(rewriter, loc,
                         callRuntime(rewriter, loc, op,
                                     RuntimeFunction::CSRHandleCols, {handle}));
    Value sizes[2] = {rows, cols};
    int64_t declared[2] = {type.getRows(), type.getCols()};
    for (int d = 0; d < 2; ++d)
      if (isKnownSize(declared[d]))
        checkEqual(rewriter, loc, sizes[d],
                   indexConstant(rewriter, loc, declared[d]), op,
                   Twine("the file '") + op.getPath() + "' has a different " +
                       (d ? "column" : "row") +
                       " count than the declared type");
    // The arrays the reader filled become the program's: no copy.
    auto take = [&](RuntimeFunction function, StringRef array) {
      Value what = createStringPointer(rewriter, loc, op,
                                       describeBuffer(op.getLoc(), array));
      return callRuntime(rewriter, loc, op, function, {handle, what});
    };
    Value rowptr =
        take(RuntimeFunction::CSRTakeRowPointers, "the row pointers");
    Value colidx =
        take(RuntimeFunction::CSRTakeColumnIndices, "the column indices");
    Value values = take(RuntimeFunction::CSRTakeValues, "the values");
    callRuntime(rewriter, loc, op, RuntimeFunction::CSRFreeHandle, {handle});
    CSRMatrix csr =
        csrFromBuffers(rewriter, loc, type, rowptr, colidx, values, cols);
    replaceWithCSR(rewriter, op, csr);
    return success();
  }
};

struct LowerCSRWrite : public CSRPattern<WriteOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(WriteOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> args;
    CSRMatrix::fromRange(operands[0]).appendRuntimeArgs(rewriter, loc, args);
    args.push_back(createStringPointer(rewriter, loc, op, op.getPath()));
    args.push_back(arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(op.getFormat()), 32));
    callRuntime(rewriter, loc, op,
                AMLSDialect::isRowPartitionedOperand(op, 0)
                    ? RuntimeFunction::DistCSRWrite
                    : RuntimeFunction::CSRWrite,
                args);
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerCSRNRow : public CSRPattern<NRowOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(NRowOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, CSRMatrix::fromRange(operands[0]).rows(rewriter, op.getLoc()));
    return success();
  }
};

struct LowerCSRNCol : public CSRPattern<NColOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(NColOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, CSRMatrix::fromRange(operands[0]).cols);
    return success();
  }
};

/// nnz(X) counts the stored values that are non-zero (kernels may store a
/// zero, e.g. X * Y where Y is zero at a non-zero of X).
struct LowerCSRNnz : public CSRPattern<NnzOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(NnzOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value values = CSRMatrix::fromRange(operands[0]).values;
    Type i64 = rewriter.getI64Type();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{}, i64);
    Value zero = arith::ConstantIntOp::create(rewriter, loc, 0, 64);
    init = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);
    MLIRContext *context = rewriter.getContext();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
    AffineMap scalar = AffineMap::get(1, 0, {}, context);
    auto count = linalg::GenericOp::create(
        rewriter, loc, init.getType(), values, init,
        ArrayRef<AffineMap>{identity, scalar},
        ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value zeroF = floatConstant(b, l, args[0].getType(), 0.0);
          Value nonZero = arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNE,
                                                args[0], zeroF);
          Value one = arith::ExtUIOp::create(b, l, b.getI64Type(), nonZero);
          Value sum = arith::AddIOp::create(b, l, args[1], one);
          linalg::YieldOp::create(b, l, sum);
        });
    rewriter.replaceOp(op, tensor::ExtractOp::create(rewriter, loc,
                                                     count.getResult(0),
                                                     ValueRange{}));
    return success();
  }
};

struct LowerCSRCast : public CSRPattern<CastOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(CastOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CSRMatrix csr = CSRMatrix::fromRange(operands[0]);
    MatrixType type = op.getType();
    SmallVector<Type> types;
    getCSRTypes(type, types);
    Value rows = csr.rows(rewriter, loc);
    if (isKnownSize(type.getRows()))
      checkEqual(rewriter, loc, rows,
                 indexConstant(rewriter, loc, type.getRows()), op,
                 "the matrix has a different row count than the cast's type");
    if (isKnownSize(type.getCols()))
      checkEqual(rewriter, loc, csr.cols,
                 indexConstant(rewriter, loc, type.getCols()), op,
                 "the matrix has a different column count than the cast's "
                 "type");
    csr.rowptr = castTo(rewriter, loc, csr.rowptr, types[0]);
    replaceWithCSR(rewriter, op, csr);
    return success();
  }
};

} // namespace

void mlir::amls::populateAMLSCSRLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerCSRConvert, LowerCSRRead, LowerCSRWrite, LowerCSRNRow,
              LowerCSRNCol, LowerCSRNnz, LowerCSRCast>(patterns, converter,
                                                       schedule);
  populateCSRProductPatterns(converter, patterns, schedule);
  populateCSRAggregatePatterns(converter, patterns, schedule);
  populateCSRElementwisePatterns(converter, patterns, schedule);
  populateCSRReorganisationPatterns(converter, patterns, schedule);
  populateCSRDataDependentPatterns(converter, patterns, schedule);
  populateCSRFusedPatterns(converter, patterns, schedule);
  populateCSRFusedRowPatterns(converter, patterns, schedule);
}
