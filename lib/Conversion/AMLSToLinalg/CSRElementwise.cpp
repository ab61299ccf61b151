//===- CSRElementwise.cpp - Element-wise ops over CSR matrices ------------===//
//
// The element-wise ops CSRKernelInterface admits keep the CSR operand's
// pattern (f is zero wherever the CSR operand is): the result shares the
// row pointers and column indices and maps the values. With a scalar the
// map is one linalg.generic over the values; with a dense matrix or a
// broadcast vector, generated loops over the rows (parallel) gather the
// dense cell of every stored value. replace() maps the values too, or,
// where the implicit zeros may match its pattern, writes its dense result
// through the runtime.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
#include "CSRLowering.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

/// f applied to every stored value; `cellsFor` orders the cell operands.
Value mapValues(OpBuilder &b, Location loc, ElementwiseOpInterface op,
                Value values,
                function_ref<SmallVector<Value>(Value value)> cellsFor) {
  auto type = cast<RankedTensorType>(values.getType());
  Value init = tensor::EmptyOp::create(
      b, loc, type.getShape(), type.getElementType(),
      ValueRange{tensor::DimOp::create(b, loc, values, 0)});
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, b.getContext());
  return linalg::GenericOp::create(
             b, loc, type, values, init,
             ArrayRef<AffineMap>{identity, identity}, iterators({false}),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value result = op.buildCellComputation(nb, l, cellsFor(args[0]));
               linalg::YieldOp::create(nb, l, result);
             })
      .getResult(0);
}

/// Whether a dense divisor has no zero or NaN cell (at run time): only then
/// is X / v zero where X is, with X's pattern.
Value hasNoZeroDivisor(OpBuilder &b, Location loc, Value divisor) {
  Type i64 = b.getI64Type();
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{}, i64);
  Value zeroCount = arith::ConstantIntOp::create(b, loc, 0, 64);
  init = linalg::FillOp::create(b, loc, zeroCount, init).getResult(0);
  MLIRContext *context = b.getContext();
  auto bad = linalg::GenericOp::create(
      b, loc, init.getType(), divisor, init,
      ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(2, context),
                          AffineMap::get(2, 0, {}, context)},
      iterators({true, true}), [&](OpBuilder &nb, Location l, ValueRange args) {
        Value zero = floatConstant(nb, l, args[0].getType(), 0.0);
        // UEQ: equal to zero or unordered (NaN).
        Value isBad = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UEQ,
                                            args[0], zero);
        Value one = arith::ExtUIOp::create(nb, l, nb.getI64Type(), isBad);
        linalg::YieldOp::create(
            nb, l, arith::AddIOp::create(nb, l, args[1], one).getResult());
      });
  Value count =
      tensor::ExtractOp::create(b, loc, bad.getResult(0), ValueRange{});
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count,
                               arith::ConstantIntOp::create(b, loc, 0, 64));
}

/// X / v computed dense, for a divisor with a zero or NaN cell (0/0 is NaN,
/// x/0 infinite: the result is not X's pattern), then stored CSR.
CSRMatrix divideDense(OpBuilder &b, Location loc, ElementwiseOpInterface op,
                      const CSRMatrix &csr, Value divisor, MatrixType type) {
  Type f64 = b.getF64Type();
  int64_t dyn = ShapedType::kDynamic;
  auto matrixType = RankedTensorType::get({dyn, dyn}, f64);
  Value x = denseFromCSR(b, loc, op, csr, matrixType);
  divisor =
      castTo(b, loc, convertElementType(b, loc, divisor, f64), matrixType);
  Value one = indexConstant(b, loc, 1);
  auto isOne = [&](Value size) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size, one)
        .getResult();
  };
  Value rowBroadcast = isOne(dimOf(b, loc, divisor, 0));
  Value colBroadcast = isOne(dimOf(b, loc, divisor, 1));
  MLIRContext *context = b.getContext();
  Value init = tensor::EmptyOp::create(
      b, loc, matrixType.getShape(), f64,
      ValueRange{dimOf(b, loc, x, 0), dimOf(b, loc, x, 1)});
  Value quotient =
      linalg::GenericOp::create(
          b, loc, matrixType, x, init,
          ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(2, context),
                              AffineMap::getMultiDimIdentityMap(2, context)},
          iterators({false, false}),
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value d = broadcastCell(nb, l, divisor, rowBroadcast, colBroadcast);
            linalg::YieldOp::create(
                nb, l, op.buildCellComputation(nb, l, {args[0], d}));
          })
          .getResult(0);
  return csrFromDense(b, loc, op, type, quotient);
}

/// out[k] = f(values[k], D[i or 0, colidx[k] or 0]) for the stored values
/// of every row i (D broadcast where it has one row or column, its sizes
/// checked against the CSR operand's).
Value mapValuesWithDense(OpBuilder &b, Location loc, ElementwiseOpInterface op,
                         const CSRMatrix &csr, Value dense, bool csrFirst) {
  Value rows = csr.rows(b, loc);
  Value denseRows = dimOf(b, loc, dense, 0);
  Value denseCols = dimOf(b, loc, dense, 1);
  Value one = indexConstant(b, loc, 1);
  Value zero = indexConstant(b, loc, 0);
  // The sizes were checked against the CSR operand's (broadcastShapes).
  Value rowBroadcast =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, denseRows, one);
  Value colBroadcast =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, denseCols, one);

  dense = convertElementType(b, loc, dense, b.getF64Type());
  Value denseBuffer = bufferization::ToBufferOp::create(
      b, loc, getRuntimeMatrixType(b.getF64Type()),
      castTo(b, loc, dense,
             RankedTensorType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                                   b.getF64Type())),
      /*read_only=*/true);
  Value rowptr = runtimeVectorOf(b, loc, csr.rowptr);
  Value colidx = runtimeVectorOf(b, loc, csr.colidx);
  Value values = runtimeVectorOf(b, loc, csr.values);
  Value nnz = csr.nnz(b, loc);
  Value out = allocVector(b, loc, b.getF64Type(), nnz, "the values");
  // A row vector (`A * r`) is read by column alone: one flat loop over the
  // stored values, with no row pointers, which the vectorizer turns into
  // gathers of r.
  if (cast<ShapedType>(dense.getType()).getDimSize(0) == 1) {
    scf::ParallelOp::create(
        b, loc, ValueRange{zero}, ValueRange{nnz}, ValueRange{one},
        [&](OpBuilder &nb, Location l, ValueRange ivs) {
          Value k = ivs[0];
          Value j = arith::IndexCastOp::create(
              nb, l, nb.getIndexType(),
              memref::LoadOp::create(nb, l, colidx, k).getResult());
          Value denseCol =
              arith::SelectOp::create(nb, l, colBroadcast, zero, j);
          Value d = memref::LoadOp::create(nb, l, denseBuffer,
                                           ValueRange{zero, denseCol});
          Value v = memref::LoadOp::create(nb, l, values, k);
          SmallVector<Value> cells =
              csrFirst ? SmallVector<Value>{v, d} : SmallVector<Value>{d, v};
          memref::StoreOp::create(nb, l, op.buildCellComputation(nb, l, cells),
                                  out, k);
        });
    return vectorTensor(b, loc, out);
  }
  scf::ParallelOp::create(
      b, loc, ValueRange{zero}, ValueRange{rows}, ValueRange{one},
      [&](OpBuilder &nb, Location l, ValueRange ivs) {
        Value i = ivs[0];
        auto loadIndex = [&](Value buffer, Value at) -> Value {
          Value v = memref::LoadOp::create(nb, l, buffer, at);
          return arith::IndexCastOp::create(nb, l, nb.getIndexType(), v);
        };
        Value begin = loadIndex(rowptr, i);
        Value end =
            loadIndex(rowptr, arith::AddIOp::create(nb, l, i, one).getResult());
        Value denseRow = arith::SelectOp::create(nb, l, rowBroadcast, zero, i);
        scf::ForOp::create(
            nb, l, begin, end, one, ValueRange{},
            [&](OpBuilder &fb, Location fl, Value k, ValueRange) {
              Value j = loadIndex(colidx, k);
              Value denseCol =
                  arith::SelectOp::create(fb, fl, colBroadcast, zero, j);
              Value d = memref::LoadOp::create(fb, fl, denseBuffer,
                                               ValueRange{denseRow, denseCol});
              Value v = memref::LoadOp::create(fb, fl, values, k);
              SmallVector<Value> cells = csrFirst ? SmallVector<Value>{v, d}
                                                  : SmallVector<Value>{d, v};
              Value result = op.buildCellComputation(fb, fl, cells);
              memref::StoreOp::create(fb, fl, result, out, k);
              scf::YieldOp::create(fb, fl);
            });
      });
  return vectorTensor(b, loc, out);
}

/// f(X, Y) with one CSR operand X and a dense result: every cell gets
/// f(0, y) (f(y, 0) for a CSR right operand), then the stored cells
/// f(x, y), row by row in parallel, with no dense copy of X. `other` is a
/// scalar or a dense matrix (broadcast where it has one row or column).
Value denseWithCSR(OpBuilder &b, Location loc, ElementwiseOpInterface op,
                   RankedTensorType type, const CSRMatrix &csr, Value rows,
                   Value cols, Value other, bool csrFirst) {
  Type f64 = b.getF64Type();
  Value one = indexConstant(b, loc, 1);
  Value zeroIndex = indexConstant(b, loc, 0);
  Value zero = floatConstant(b, loc, f64, 0.0);
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  };
  // The result must fit in memory (a clear error, never a failed malloc).
  callRuntime(
      b, loc, op, RuntimeFunction::CheckDenseSize,
      {toI64(rows), toI64(cols),
       createStringPointer(
           b, loc, op, describe(op) + ": the dense result of a CSR operand")});
  bool matrix = isa<RankedTensorType>(other.getType());
  Value denseBuffer, rowBroadcast, colBroadcast;
  if (matrix) {
    denseBuffer = asRuntimeMatrix(b, loc, other);
    auto isOne = [&](int64_t d) -> Value {
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                   dimOf(b, loc, other, d), one);
    };
    rowBroadcast = isOne(0);
    colBroadcast = isOne(1);
  } else {
    other = convertScalar(b, loc, other, f64);
  }
  Value rowptr = runtimeVectorOf(b, loc, csr.rowptr);
  Value colidx = runtimeVectorOf(b, loc, csr.colidx);
  Value values = runtimeVectorOf(b, loc, csr.values);
  return tensorFromRuntime(b, loc, type, rows, cols, [&](Value out) {
    scf::ParallelOp::create(
        b, loc, ValueRange{zeroIndex}, ValueRange{rows}, ValueRange{one},
        [&](OpBuilder &nb, Location l, ValueRange ivs) {
          Value i = ivs[0];
          Value otherRow = matrix ? arith::SelectOp::create(nb, l, rowBroadcast,
                                                            zeroIndex, i)
                                        .getResult()
                                  : Value();
          // f at (i, j) of the CSR operand's cell x.
          auto store = [&](OpBuilder &fb, Location fl, Value j, Value x) {
            Value y = other;
            if (matrix)
              y = memref::LoadOp::create(
                  fb, fl, denseBuffer,
                  ValueRange{otherRow, arith::SelectOp::create(
                                           fb, fl, colBroadcast, zeroIndex, j)
                                           .getResult()});
            Value result = op.buildCellComputation(
                fb, fl,
                csrFirst ? SmallVector<Value>{x, y} : SmallVector<Value>{y, x});
            memref::StoreOp::create(fb, fl, result, out, ValueRange{i, j});
          };
          scf::ForOp::create(
              nb, l, zeroIndex, cols, one, ValueRange{},
              [&](OpBuilder &fb, Location fl, Value j, ValueRange) {
                store(fb, fl, j, zero);
                scf::YieldOp::create(fb, fl);
              });
          auto loadIndex = [&](Value buffer, Value at) -> Value {
            Value v = memref::LoadOp::create(nb, l, buffer, at);
            return arith::IndexCastOp::create(nb, l, nb.getIndexType(), v);
          };
          Value begin = loadIndex(rowptr, i);
          Value end = loadIndex(
              rowptr, arith::AddIOp::create(nb, l, i, one).getResult());
          scf::ForOp::create(
              nb, l, begin, end, one, ValueRange{},
              [&](OpBuilder &fb, Location fl, Value k, ValueRange) {
                Value j = arith::IndexCastOp::create(
                    fb, fl, fb.getIndexType(),
                    memref::LoadOp::create(fb, fl, colidx, k).getResult());
                store(fb, fl, j, memref::LoadOp::create(fb, fl, values, k));
                scf::YieldOp::create(fb, fl);
              });
        });
  });
}

template <typename OpTy> struct LowerCSRElementwise : public CSRPattern<OpTy> {
  using CSRPattern<OpTy>::CSRPattern;
  static MatrixType resultType(OpTy op) {
    return cast<MatrixType>(op->getResult(0).getType());
  }
  LogicalResult lower(OpTy op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (isRowMaxTimesReadThrough(op)) {
      SmallVector<SmallVector<Value>> values;
      values.push_back(llvm::to_vector(operands[0]));
      rewriter.replaceOpWithMultiple(op, std::move(values));
      return success();
    }
    auto elementwise = cast<ElementwiseOpInterface>(op.getOperation());
    if (op->getNumOperands() == 2 && isCSRMatrix(op->getOperand(0).getType()) &&
        isCSRMatrix(op->getOperand(1).getType()))
      return lowerMerge(op, CSRMatrix::fromRange(operands[0]),
                        CSRMatrix::fromRange(operands[1]), rewriter);
    unsigned sparse = isCSRMatrix(op->getOperand(0).getType()) ? 0 : 1;
    CSRMatrix csr = CSRMatrix::fromRange(operands[sparse]);
    if (!isCSRMatrix(op->getResult(0).getType()))
      return lowerToDense(op, csr, sparse, operands[1 - sparse].front(),
                          rewriter);
    Value values;
    if (op->getNumOperands() == 1) {
      values = mapValues(rewriter, loc, elementwise, csr.values,
                         [](Value v) { return SmallVector<Value>{v}; });
    } else {
      Value other = operands[1 - sparse].front();
      if (!isa<MatrixType>(op->getOperand(1 - sparse).getType())) {
        other = convertScalar(rewriter, loc, other, rewriter.getF64Type());
        values =
            mapValues(rewriter, loc, elementwise, csr.values, [&](Value v) {
              return sparse == 0 ? SmallVector<Value>{v, other}
                                 : SmallVector<Value>{other, v};
            });
      } else {
        // Sizes known only at run time: the dense operand may broadcast, and
        // so may a CSR vector (repeated to the result's shape).
        Type csrType = op->getOperand(sparse).getType();
        auto [rows, cols] = broadcastShapes(
            rewriter, loc, op, csrSize(rewriter, loc, csrType, csr, 0),
            csrSize(rewriter, loc, csrType, csr, 1),
            dimOf(rewriter, loc, other, 0), dimOf(rewriter, loc, other, 1));
        csr = broadcastCSR(rewriter, loc, op, resultType(op), csrType, csr,
                           rows, cols);
        if (isa<DivOp>(op.getOperation())) {
          this->replaceWithCSR(rewriter, op,
                               divideByVector(rewriter, op, csr, other));
          return success();
        }
        values = mapValuesWithDense(rewriter, loc, elementwise, csr, other,
                                    /*csrFirst=*/sparse == 0);
      }
    }
    this->replaceWithCSR(rewriter, op, withValues(csr, values));
    return success();
  }

  /// A dense result of one CSR operand and a scalar or a dense matrix
  /// (the CSR operand repeated where it is a vector that DML broadcasts).
  LogicalResult lowerToDense(OpTy op, CSRMatrix csr, unsigned sparse,
                             Value other,
                             ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Type csrType = op->getOperand(sparse).getType();
    Value rows = csrSize(rewriter, loc, csrType, csr, 0);
    Value cols = csrSize(rewriter, loc, csrType, csr, 1);
    if (isa<MatrixType>(op->getOperand(1 - sparse).getType())) {
      std::tie(rows, cols) = broadcastShapes(rewriter, loc, op, rows, cols,
                                             dimOf(rewriter, loc, other, 0),
                                             dimOf(rewriter, loc, other, 1));
      csr = broadcastCSR(rewriter, loc, op,
                         MatrixType::get(ShapedType::kDynamic,
                                         ShapedType::kDynamic,
                                         rewriter.getF64Type(), std::nullopt,
                                         MatrixFormat::CSR),
                         csrType, csr, rows, cols);
    }
    auto type = cast<RankedTensorType>(
        this->getTypeConverter()->convertType(op->getResult(0).getType()));
    this->replaceWithDense(
        rewriter, op,
        denseWithCSR(rewriter, loc,
                     cast<ElementwiseOpInterface>(op.getOperation()), type, csr,
                     rows, cols, other, /*csrFirst=*/sparse == 0));
    return success();
  }

  /// X / v keeps X's pattern when v has no zero or NaN cell, and is
  /// computed dense (then stored CSR) otherwise, both at run time.
  CSRMatrix divideByVector(ConversionPatternRewriter &rewriter, OpTy op,
                           const CSRMatrix &csr, Value divisor) const {
    Location loc = op.getLoc();
    auto elementwise = cast<ElementwiseOpInterface>(op.getOperation());
    auto type = cast<MatrixType>(op->getResult(0).getType());
    SmallVector<Type> types;
    getCSRTypes(type, types);
    auto yield = [&](OpBuilder &b, CSRMatrix result) {
      scf::YieldOp::create(b, loc,
                           ValueRange{castTo(b, loc, result.rowptr, types[0]),
                                      castTo(b, loc, result.colidx, types[1]),
                                      castTo(b, loc, result.values, types[2]),
                                      result.cols});
    };
    auto branch = scf::IfOp::create(
        rewriter, loc, hasNoZeroDivisor(rewriter, loc, divisor),
        [&](OpBuilder &b, Location l) {
          yield(b, withValues(csr, mapValuesWithDense(b, l, elementwise, csr,
                                                      divisor,
                                                      /*csrFirst=*/true)));
        },
        [&](OpBuilder &b, Location l) {
          yield(b, divideDense(b, l, elementwise, csr, divisor, type));
        });
    return CSRMatrix::fromRange(branch.getResults());
  }

  /// Two CSR operands: their rows merged by the runtime.
  LogicalResult lowerMerge(OpTy op, const CSRMatrix &lhs, const CSRMatrix &rhs,
                           ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    int32_t code =
        llvm::TypeSwitch<Operation *, int32_t>(op.getOperation())
            .template Case<AddOp>([](auto) { return AMLS_MERGE_ADD; })
            .template Case<SubOp>([](auto) { return AMLS_MERGE_SUB; })
            .template Case<MulOp>([](auto) { return AMLS_MERGE_MUL; })
            .template Case<MinOp>([](auto) { return AMLS_MERGE_MIN; })
            .template Case<MaxOp>([](auto) { return AMLS_MERGE_MAX; })
            .Default([](Operation *) { return -1; });
    if (code < 0)
      return rewriter.notifyMatchFailure(op, "no merge kernel");
    Type lhsType = op->getOperand(0).getType();
    Type rhsType = op->getOperand(1).getType();
    auto [rows, cols] = broadcastShapes(
        rewriter, loc, op, csrSize(rewriter, loc, lhsType, lhs, 0),
        csrSize(rewriter, loc, lhsType, lhs, 1),
        csrSize(rewriter, loc, rhsType, rhs, 0),
        csrSize(rewriter, loc, rhsType, rhs, 1));
    MatrixType type = resultType(op);
    SmallVector<Value> args;
    broadcastCSR(rewriter, loc, op, type, lhsType, lhs, rows, cols)
        .appendRuntimeArgs(rewriter, loc, args);
    broadcastCSR(rewriter, loc, op, type, rhsType, rhs, rows, cols)
        .appendRuntimeArgs(rewriter, loc, args);
    args.push_back(i32Constant(rewriter, loc, code));
    CSRMatrix result = csrFromKernels(rewriter, loc, op, type, rows, cols, args,
                                      RuntimeFunction::CSRMergeCount,
                                      RuntimeFunction::CSRMergeFill);
    this->replaceWithCSR(rewriter, op, result);
    return success();
  }
};

/// replace(X, pattern, r) of a CSR X: with a CSR result (the implicit
/// zeros cannot match) the stored values are mapped; otherwise the runtime
/// writes the dense result straight from X.
struct LowerCSRReplace : public CSRPattern<ReplaceOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(ReplaceOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    Value pattern = operands[1].front(), replacement = operands[2].front();
    if (isCSRMatrix(op.getType())) {
      Value values = mapValues(
          rewriter, loc, cast<ElementwiseOpInterface>(op.getOperation()),
          x.values, [&](Value v) {
            return SmallVector<Value>{v, pattern, replacement};
          });
      replaceWithCSR(rewriter, op, withValues(x, values));
      return success();
    }
    Type f64 = rewriter.getF64Type();
    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType()));
    Value result = denseFromKernel(
        rewriter, loc, op, type, x,
        {convertScalar(rewriter, loc, pattern, f64),
         convertScalar(rewriter, loc, replacement, f64)},
        RuntimeFunction::CSRReplaceToDense, "replace() of a CSR matrix");
    replaceWithDense(rewriter, op, result);
    return success();
  }
};

template <typename... Ops>
void addElementwise(const TypeConverter &converter, RewritePatternSet &patterns,
                    const LoweringSchedule &schedule) {
  addPatterns<LowerCSRElementwise<Ops>...>(patterns, converter, schedule);
}

} // namespace

void mlir::amls::lowering::populateCSRElementwisePatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addElementwise<AddOp, SubOp, NegOp, AbsOp, SqrtOp, RoundOp, FloorOp, CeilOp,
                 SignOp, SinOp, TanhOp, TanOp, AsinOp, AtanOp, SinhOp, IsNaNOp,
                 MulOp, DivOp, PowOp, MinOp, MaxOp, GtOp, LtOp, NeOp, AndOp,
                 BitwAndOp, BitwShiftLOp, BitwShiftROp>(converter, patterns,
                                                        schedule);
  addPatterns<LowerCSRReplace>(patterns, converter, schedule);
}
