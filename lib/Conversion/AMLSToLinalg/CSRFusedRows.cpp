//===- CSRFusedRows.cpp - Row-template operators over a CSR main input ----===//
//
// An `amls.fused row` operator computing t(X) %*% R with a CSR X runs as
// parallel loops over ranges of X's rows, one range per thread. For each
// row its body is evaluated on scalars, following the kinds
// analyzeCSRRowBody gives its values (include/AMLS/Dialect/AMLSCSRRowBody.h):
// values with X's pattern are computed at each stored entry where they are
// read (X %*% S, rowSums(X * Y)), dense rows of small static widths as one
// scalar per column, and the close adds x_ij * R_i into row j of the
// thread's own partial t(X) %*% R. The partial results are summed
// afterwards: no two threads write the same cell, and X is read once.
//
//===----------------------------------------------------------------------===//

#include "CSRLowering.h"
#include "Reductions.h"

#include "AMLS/Dialect/AMLSCSRRowBody.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

using Kind = CSRRowValueKind;

int64_t colsOf(Value value) {
  return cast<MatrixType>(value.getType()).getCols();
}

/// The body of one operator evaluated for one row `i` of X (stored entries
/// [begin, end)), ops inserted through `b`.
class RowEvaluator {
public:
  RowEvaluator(OpBuilder &b, Location loc, const CSRRowBodyKinds &kinds,
               const CSRMatrix &x, Value rowptr, Value colidx, Value values,
               const DenseMap<Value, Value> &inputs)
      : b(b), loc(loc), kinds(kinds), x(x), rowptr(rowptr), colidx(colidx),
        values(values), inputs(inputs) {}

  /// Evaluates `body` for row `i`; the close adds into `partial` (cols x
  /// width, row-major) at offset `base`.
  void run(Block &body, Value i, Value partial, Value base);

private:
  Kind kindOf(Value value) const { return kinds.lookup(value); }
  /// A loop over the row's stored entries carrying `inits`; `step` gets the
  /// entry k, its column j and the carried values, and returns the next.
  ValueRange forEachEntry(
      ValueRange inits,
      function_ref<SmallVector<Value>(Value k, Value j, ValueRange)> step);
  /// The cell of a Sparse value at stored entry k (column j).
  Value cellAt(Value value, Value k, Value j);
  /// Column c of a dense operand (broadcast when it has one column).
  Value denseCell(Value value, int64_t c);
  /// A scalar operand: a scalar input or a constant of the body.
  Value scalar(Value value);
  /// Row i, column `col` (0 when broadcast) of an input matrix.
  Value inputCell(Value value, Value col);
  Value index(int64_t value) { return indexConstant(b, loc, value); }
  void evaluate(Operation &op, Value partial, Value base);

  OpBuilder &b;
  Location loc;
  const CSRRowBodyKinds &kinds;
  const CSRMatrix &x;
  Value rowptr, colidx, values;
  /// Body arguments to the lowered inputs (runtime matrices or scalars).
  const DenseMap<Value, Value> &inputs;
  Value i, begin, end, full;
  DenseMap<Value, SmallVector<Value>> dense;
  DenseMap<Value, Value> constants;
};

ValueRange RowEvaluator::forEachEntry(
    ValueRange inits,
    function_ref<SmallVector<Value>(Value k, Value j, ValueRange)> step) {
  auto loop = scf::ForOp::create(
      b, loc, begin, end, index(1), inits,
      [&](OpBuilder &, Location, Value k, ValueRange carried) {
        Value j = arith::IndexCastOp::create(
            b, loc, b.getIndexType(),
            memref::LoadOp::create(b, loc, colidx, k).getResult());
        scf::YieldOp::create(b, loc, step(k, j, carried));
      });
  return loop.getResults();
}

Value RowEvaluator::scalar(Value value) {
  if (Value input = inputs.lookup(value))
    return input;
  return constants.at(value);
}

Value RowEvaluator::inputCell(Value value, Value col) {
  auto type = cast<MatrixType>(value.getType());
  Value row = kindOf(value) == Kind::RowInput ? i : index(0);
  return memref::LoadOp::create(
      b, loc, inputs.lookup(value),
      ValueRange{row, type.getCols() == 1 ? index(0) : col});
}

Value RowEvaluator::denseCell(Value value, int64_t c) {
  if (!isa<MatrixType>(value.getType()))
    return scalar(value);
  if (kindOf(value) == Kind::Dense) {
    ArrayRef<Value> row = dense.at(value);
    return row.size() == 1 ? row[0] : row[c];
  }
  return inputCell(value, index(c));
}

Value RowEvaluator::cellAt(Value value, Value k, Value j) {
  if (!value.getDefiningOp())
    return memref::LoadOp::create(b, loc, values, k);
  Operation *op = value.getDefiningOp();
  SmallVector<Value> cells;
  for (Value operand : op->getOperands()) {
    if (!isa<MatrixType>(operand.getType()))
      cells.push_back(scalar(operand));
    else if (kindOf(operand) == Kind::Sparse)
      cells.push_back(cellAt(operand, k, j));
    else if (kindOf(operand) == Kind::Dense)
      cells.push_back(dense.at(operand)[0]);
    else
      cells.push_back(inputCell(operand, j));
  }
  return cast<ElementwiseOpInterface>(op).buildCellComputation(b, op->getLoc(),
                                                               cells);
}

void RowEvaluator::evaluate(Operation &op, Value partial, Value base) {
  Type f64 = b.getF64Type();
  Value result = op.getResult(0);
  Kind kind = kindOf(result);
  if (kind == Kind::Sparse || kind == Kind::Side || kind == Kind::Transposed)
    return; // Computed where read.
  SmallVector<Value> &row = dense[result];
  if (kind == Kind::Close) {
    // partial[j, c] += x_ij * R_c for each stored x_ij.
    Value rhs = op.getOperand(1);
    int64_t width = colsOf(result);
    SmallVector<Value> r;
    for (int64_t c = 0; c < width; ++c)
      r.push_back(denseCell(rhs, c));
    forEachEntry({}, [&](Value k, Value j, ValueRange) {
      Value xij = memref::LoadOp::create(b, loc, values, k);
      Value rowStart = arith::AddIOp::create(
          b, loc, base, arith::MulIOp::create(b, loc, j, index(width)));
      for (int64_t c = 0; c < width; ++c) {
        Value at = arith::AddIOp::create(b, loc, rowStart, index(c));
        Value sum = arith::AddFOp::create(
            b, loc, memref::LoadOp::create(b, loc, partial, at),
            arith::MulFOp::create(b, loc, xij, r[c]));
        memref::StoreOp::create(b, loc, sum, partial, at);
      }
      return SmallVector<Value>{};
    });
    return;
  }
  if (auto product = dyn_cast<MatmulOp>(op)) {
    Value lhs = product.getLhs();
    Value side = inputs.lookup(product.getRhs());
    int64_t width = colsOf(result);
    Value zero = floatConstant(b, loc, f64, 0.0);
    if (kindOf(lhs) == Kind::Sparse) {
      SmallVector<Value> inits(width, zero);
      ValueRange sums =
          forEachEntry(inits, [&](Value k, Value j, ValueRange acc) {
            Value cell = cellAt(lhs, k, j);
            SmallVector<Value> next;
            for (int64_t c = 0; c < width; ++c) {
              Value s =
                  memref::LoadOp::create(b, loc, side, ValueRange{j, index(c)});
              next.push_back(arith::AddFOp::create(
                  b, loc, acc[c], arith::MulFOp::create(b, loc, cell, s)));
            }
            return next;
          });
      row.assign(sums.begin(), sums.end());
      return;
    }
    int64_t inner = colsOf(lhs);
    for (int64_t c = 0; c < width; ++c) {
      Value sum = zero;
      for (int64_t r = 0; r < inner; ++r) {
        Value s = memref::LoadOp::create(b, loc, side,
                                         ValueRange{index(r), index(c)});
        sum = arith::AddFOp::create(
            b, loc, sum, arith::MulFOp::create(b, loc, denseCell(lhs, r), s));
      }
      row.push_back(sum);
    }
    return;
  }
  if (auto aggregate = dyn_cast<AggOp>(op)) {
    Value input = aggregate.getInput();
    Reduction reduction = reductionFor(aggregate.getKind());
    Value identity = floatConstant(b, loc, f64, reduction.init);
    if (kindOf(input) != Kind::Sparse) {
      Value acc = identity;
      for (int64_t c = 0; c < colsOf(input); ++c)
        acc = reduction.combine(b, loc, denseCell(input, c), acc);
      row.push_back(acc);
      return;
    }
    // Min and max see the row's implicit zeros, where the value is 0.
    bool extreme =
        llvm::is_contained({AggKind::Min, AggKind::Max}, aggregate.getKind());
    Value init = extreme
                     ? arith::SelectOp::create(b, loc, full, identity,
                                               floatConstant(b, loc, f64, 0.0))
                           .getResult()
                     : identity;
    ValueRange acc =
        forEachEntry({init}, [&](Value k, Value j, ValueRange carried) {
          return SmallVector<Value>{
              reduction.combine(b, loc, cellAt(input, k, j), carried[0])};
        });
    row.push_back(acc[0]);
    return;
  }
  if (auto slice = dyn_cast<SliceOp>(op)) {
    int64_t first = *getConstantIntValue(slice.getColBegin());
    int64_t last = *getConstantIntValue(slice.getColEnd());
    for (int64_t c = first; c < last; ++c)
      row.push_back(denseCell(slice.getInput(), c));
    return;
  }
  // An element-wise op over dense rows.
  for (int64_t c = 0; c < colsOf(result); ++c) {
    SmallVector<Value> cells = llvm::map_to_vector(
        op.getOperands(), [&](Value operand) { return denseCell(operand, c); });
    row.push_back(cast<ElementwiseOpInterface>(op).buildCellComputation(
        b, op.getLoc(), cells));
  }
}

void RowEvaluator::run(Block &body, Value row, Value partial, Value base) {
  i = row;
  auto toIndex = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  begin = toIndex(memref::LoadOp::create(b, loc, rowptr, i));
  end = toIndex(memref::LoadOp::create(
      b, loc, rowptr, arith::AddIOp::create(b, loc, i, index(1)).getResult()));
  full =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            arith::SubIOp::create(b, loc, end, begin), x.cols);
  // Constants first: the loops over the entries read them too.
  for (Operation &op : body.without_terminator())
    if (isa<arith::ConstantOp>(op))
      constants[op.getResult(0)] = b.clone(op)->getResult(0);
  for (Operation &op : body.without_terminator())
    evaluate(op, partial, base);
}

struct LowerCSRRow : public CSRPattern<FusedOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(FusedOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    if (op.getKind() != FusedTemplate::Row)
      return failure();
    std::string reason;
    std::optional<CSRRowBodyKinds> kinds = analyzeCSRRowBody(op, &reason);
    if (!kinds)
      return op.emitOpError("has no CSR row kernel: ") << reason;
    Location loc = op.getLoc();
    Type f64 = rewriter.getF64Type();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    Value rows = x.rows(rewriter, loc);
    Block &body = op.getBody().front();
    uint64_t numRowInputs = *op.getRowInputs();
    DenseMap<Value, Value> inputs;
    for (unsigned n = 1; n < operands.size(); ++n) {
      Value operand = operands[n].front();
      if (!isa<MatrixType>(op.getInputs()[n].getType())) {
        inputs[body.getArgument(n)] = operand;
        continue;
      }
      if (n < numRowInputs)
        checkEqual(rewriter, loc, dimOf(rewriter, loc, operand, 0), rows, op,
                   "row input #" + std::to_string(n) +
                       " differs in rows from the main input");
      inputs[body.getArgument(n)] = asRuntimeMatrix(rewriter, loc, operand);
    }
    Value rowptr = runtimeVectorOf(rewriter, loc, x.rowptr);
    Value colidx = runtimeVectorOf(rewriter, loc, x.colidx);
    Value values = runtimeVectorOf(rewriter, loc, x.values);

    int64_t width = cast<MatrixType>(op.getResult(0).getType()).getCols();
    Value zeroIndex = indexConstant(rewriter, loc, 0);
    Value one = indexConstant(rewriter, loc, 1);
    Value chunks = threadRowRanges(rewriter, loc, op, rows);
    Value cells = arith::MulIOp::create(rewriter, loc, x.cols,
                                        indexConstant(rewriter, loc, width));
    Value partials =
        allocVector(rewriter, loc, f64,
                    arith::MulIOp::create(rewriter, loc, chunks, cells));
    Value zero = floatConstant(rewriter, loc, f64, 0.0);

    // One range of rows per thread, each adding into its own partial.
    forEachRowRange(
        rewriter, loc, rows, chunks,
        [&](OpBuilder &b, Location l, Value chunk, Value lo, Value hi) {
          Value base = arith::MulIOp::create(b, l, chunk, cells);
          scf::ForOp::create(
              b, l, zeroIndex, cells, one, ValueRange{},
              [&](OpBuilder &fb, Location fl, Value e, ValueRange) {
                memref::StoreOp::create(
                    fb, fl, zero, partials,
                    arith::AddIOp::create(fb, fl, base, e).getResult());
                scf::YieldOp::create(fb, fl);
              });
          scf::ForOp::create(
              b, l, lo, hi, one, ValueRange{},
              [&](OpBuilder &rb, Location rl, Value i, ValueRange) {
                RowEvaluator(rb, rl, *kinds, x, rowptr, colidx, values, inputs)
                    .run(body, i, partials, base);
                scf::YieldOp::create(rb, rl);
              });
        });

    Value output = allocVector(rewriter, loc, f64, cells);
    scf::ParallelOp::create(
        rewriter, loc, ValueRange{zeroIndex}, ValueRange{cells},
        ValueRange{one}, [&](OpBuilder &b, Location l, ValueRange ivs) {
          Value e = ivs[0];
          auto merged = scf::ForOp::create(
              b, l, zeroIndex, chunks, one, ValueRange{zero},
              [&](OpBuilder &fb, Location fl, Value chunk, ValueRange acc) {
                Value at = arith::AddIOp::create(
                    fb, fl, arith::MulIOp::create(fb, fl, chunk, cells), e);
                scf::YieldOp::create(
                    fb, fl,
                    ValueRange{arith::AddFOp::create(
                        fb, fl, acc[0],
                        memref::LoadOp::create(fb, fl, partials, at))});
              });
          memref::StoreOp::create(b, l, merged.getResult(0), output, e);
        });

    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType(0)));
    Value tensor = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({ShapedType::kDynamic, width}, f64),
        vectorTensor(rewriter, loc, output),
        ArrayRef<ReassociationIndices>{{0, 1}},
        ArrayRef<OpFoldResult>{x.cols, rewriter.getIndexAttr(width)});
    rewriter.replaceOp(op, castTo(rewriter, loc, tensor, type));
    return success();
  }
};

} // namespace

void mlir::amls::lowering::populateCSRFusedRowPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerCSRRow>(patterns, converter, schedule);
}
