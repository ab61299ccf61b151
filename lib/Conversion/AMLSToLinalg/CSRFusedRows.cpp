//===- CSRFusedRows.cpp - Row-template operators over a CSR main input ----===//
//
// An `amls.fused row` operator computing t(X) %*% R with a CSR X runs as
// parallel loops over ranges of X's rows, one range per thread. For each
// row its body is evaluated on scalars, following the kinds
// analyzeCSRRowBody gives its values (include/AMLS/Dialect/AMLSCSRRowBody.h):
// values with X's pattern are computed at each stored entry where they are
// read (X %*% S, rowSums(X * Y)), dense rows of small static widths as one
// scalar per column (loops over columns fully unrolled), wider rows and
// rows of widths known only at run time (MLogreg's k classes) in scratch
// rows, one set per thread allocated once, computed by loops over their
// columns; the close adds x_ij * R_i into row j of the thread's own partial
// t(X) %*% R. The partial results are summed afterwards: no two threads
// write the same cell, and X is read once.
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

/// The run-time widths of the body's rows and where each thread keeps its
/// wide dense rows (those that are not isNarrowCSRRow).
struct RowLayout {
  /// The number of columns of each matrix value of the body but X's
  /// pattern-keeping ones.
  DenseMap<Value, Value> widths;
  /// Where each wide dense row starts in a thread's scratch rows.
  DenseMap<Value, Value> offsets;
  /// The cells of one thread's scratch rows; null without wide rows.
  Value stride;
};

bool isWide(const CSRRowBodyKinds &kinds, Value value) {
  return kinds.lookup(value) == Kind::Dense && !isNarrowCSRRow(value);
}

/// The widths of the body's values (computed once, before the rows; sizes
/// known only at run time are checked there) and the scratch layout.
RowLayout layoutRows(OpBuilder &b, Location loc, FusedOp op,
                     const CSRRowBodyKinds &kinds, ArrayRef<Value> operands) {
  RowLayout layout;
  Block &body = op.getBody().front();
  auto constant = [&](int64_t value) { return indexConstant(b, loc, value); };
  Value one = constant(1);
  auto isOne = [&](Value width) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, width, one);
  };
  for (auto [n, argument] : llvm::enumerate(body.getArguments()))
    if (n > 0 && isa<MatrixType>(argument.getType()))
      layout.widths[argument] = dimOf(b, loc, operands[n], 1);
  for (Operation &nested : body.without_terminator()) {
    Value result = nested.getResult(0);
    Kind kind = kinds.lookup(result);
    if (!isa<MatrixType>(result.getType()) ||
        (kind != Kind::Dense && kind != Kind::Close))
      continue;
    Value width;
    if (kind == Kind::Close)
      width = layout.widths.lookup(nested.getOperand(1));
    else if (colsOf(result) != ShapedType::kDynamic)
      width = constant(colsOf(result));
    else if (auto product = dyn_cast<MatmulOp>(nested))
      width = layout.widths.lookup(product.getRhs());
    if (auto product = dyn_cast<MatmulOp>(nested);
        product && kind != Kind::Close) {
      // The side matrix has a row per column of the row it multiplies.
      Value lhs = product.getLhs();
      Value inner = kinds.lookup(lhs) == Kind::Sparse
                        ? constant(colsOf(lhs))
                        : layout.widths.lookup(lhs);
      auto side = cast<BlockArgument>(product.getRhs());
      checkEqual(b, loc, inner, dimOf(b, loc, operands[side.getArgNumber()], 0),
                 &nested, "the inner sizes of the product differ");
    }
    if (auto slice = dyn_cast<SliceOp>(nested);
        slice && colsOf(slice.getInput()) == ShapedType::kDynamic)
      check(b, loc,
            arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ule,
                constant(*getConstantIntValue(slice.getColEnd())),
                layout.widths.lookup(slice.getInput())),
            &nested, "the column range exceeds the columns of the matrix");
    if (isa<ElementwiseOpInterface>(nested) && kind == Kind::Dense) {
      // DML broadcasts rows of one column; where sizes are known only at
      // run time, the other widths must agree.
      SmallVector<Value> operandWidths;
      for (Value operand : nested.getOperands())
        if (isa<MatrixType>(operand.getType()))
          operandWidths.push_back(layout.widths.lookup(operand));
      if (!width)
        for (Value other : operandWidths)
          width = width ? arith::SelectOp::create(b, loc, isOne(width), other,
                                                  width)
                              .getResult()
                        : other;
      for (Value operand : nested.getOperands()) {
        int64_t cols =
            isa<MatrixType>(operand.getType()) ? colsOf(operand) : int64_t(1);
        if (cols == 1 || (cols != ShapedType::kDynamic &&
                          colsOf(result) != ShapedType::kDynamic))
          continue; // Checked by the verifier.
        Value other = layout.widths.lookup(operand);
        checkEqual(b, loc,
                   arith::SelectOp::create(b, loc, isOne(other), width, other),
                   width, &nested,
                   "the rows of the operands differ in width and neither has "
                   "one column");
      }
    }
    layout.widths[result] = width;
  }
  Value stride;
  for (Operation &nested : body.without_terminator()) {
    Value result = nested.getResult(0);
    if (!isWide(kinds, result))
      continue;
    layout.offsets[result] = stride ? stride : constant(0);
    Value width = layout.widths.lookup(result);
    stride = stride ? arith::AddIOp::create(b, loc, stride, width).getResult()
                    : width;
  }
  // A cache line between two threads' rows.
  if (stride)
    layout.stride = arith::AddIOp::create(b, loc, stride, constant(8));
  return layout;
}

/// The body of one operator evaluated for one row `i` of X (stored entries
/// [begin, end)), ops inserted through `b`.
class RowEvaluator {
public:
  RowEvaluator(OpBuilder &b, Location loc, const CSRRowBodyKinds &kinds,
               const CSRMatrix &x, Value rowptr, Value colidx, Value values,
               const DenseMap<Value, Value> &inputs, const RowLayout &layout,
               Value scratch, const DenseMap<Value, Value> &scratchRows)
      : b(b), loc(loc), kinds(kinds), x(x), rowptr(rowptr), colidx(colidx),
        values(values), inputs(inputs), layout(layout), scratch(scratch),
        scratchRows(scratchRows) {}

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
  /// Column `c` (a constant where `value` is a narrow dense row of more
  /// than one column) of a dense operand, broadcast when it has one column.
  Value cell(Value value, Value c);
  /// `c`, or 0 where `value` has one column (perhaps known at run time).
  Value column(Value value, Value c);
  /// A scalar operand: a scalar input or a constant of the body.
  Value scalar(Value value);
  /// Row i, column `col` of an input matrix.
  Value inputCell(Value value, Value col);
  /// Where column `c` of the wide dense row `value` is in the scratch rows.
  Value scratchAt(Value value, Value c) {
    return arith::AddIOp::create(b, loc, scratchRows.lookup(value), c);
  }
  bool isWide(Value value) const { return ::isWide(kinds, value); }
  Value index(int64_t value) { return indexConstant(b, loc, value); }
  /// A loop over the columns [0, width) carrying `inits`.
  ValueRange
  forEachColumn(Value width, ValueRange inits,
                function_ref<SmallVector<Value>(Value c, ValueRange)> step);
  /// Calls `block` for the columns [0, width) in blocks of a static number
  /// of columns n (16 while as many remain, then 4, then 1) starting at c0,
  /// so that loops over the row's stored entries carry a block of sums in
  /// registers.
  void forEachColumnBlock(Value width,
                          function_ref<void(Value c0, int64_t n)> block);
  /// acc[c] + a * side[r, c0 + c] for each c < acc.size() (c0 null: 0).
  SmallVector<Value> addScaledSideRow(Value side, Value r, Value c0, Value a,
                                      ValueRange acc);
  /// partial[rowStart + c] += x * r[c] for each c < r.size().
  void addIntoPartial(Value partial, Value rowStart, Value x,
                      ArrayRef<Value> r);
  void evaluate(Operation &op, Value partial, Value base);
  /// The ops computing wide rows, column by column.
  void evaluateWide(Operation &op);
  /// partial[j, c] += x_ij * R_c for each stored x_ij, R wide.
  void closeWide(Value rhs, Value width, Value partial, Value base);

  OpBuilder &b;
  Location loc;
  const CSRRowBodyKinds &kinds;
  const CSRMatrix &x;
  Value rowptr, colidx, values;
  /// Body arguments to the lowered inputs (runtime matrices or scalars).
  const DenseMap<Value, Value> &inputs;
  const RowLayout &layout;
  /// The scratch rows and where this thread's wide rows start in them.
  Value scratch;
  const DenseMap<Value, Value> &scratchRows;
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

ValueRange RowEvaluator::forEachColumn(
    Value width, ValueRange inits,
    function_ref<SmallVector<Value>(Value c, ValueRange)> step) {
  auto loop = scf::ForOp::create(
      b, loc, index(0), width, index(1), inits,
      [&](OpBuilder &, Location, Value c, ValueRange carried) {
        scf::YieldOp::create(b, loc, step(c, carried));
      });
  return loop.getResults();
}

Value RowEvaluator::inputCell(Value value, Value col) {
  Value row = kindOf(value) == Kind::RowInput ? i : index(0);
  return memref::LoadOp::create(b, loc, inputs.lookup(value),
                                ValueRange{row, col});
}

Value RowEvaluator::column(Value value, Value c) {
  int64_t cols = colsOf(value);
  if (cols == 1)
    return index(0);
  if (cols != ShapedType::kDynamic)
    return c;
  Value isOne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      layout.widths.lookup(value), index(1));
  return arith::SelectOp::create(b, loc, isOne, index(0), c);
}

Value RowEvaluator::cell(Value value, Value c) {
  if (!isa<MatrixType>(value.getType()))
    return scalar(value);
  if (isWide(value))
    return memref::LoadOp::create(b, loc, scratch,
                                  scratchAt(value, column(value, c)));
  if (kindOf(value) == Kind::Dense) {
    ArrayRef<Value> row = dense.at(value);
    return row.size() == 1 ? row[0] : row[*getConstantIntValue(c)];
  }
  return inputCell(value, column(value, c));
}

Value RowEvaluator::denseCell(Value value, int64_t c) {
  if (!isa<MatrixType>(value.getType()))
    return scalar(value);
  if (kindOf(value) == Kind::Dense && !isWide(value)) {
    ArrayRef<Value> row = dense.at(value);
    return row.size() == 1 ? row[0] : row[c];
  }
  return cell(value, index(c));
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
      cells.push_back(inputCell(operand, column(operand, j)));
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
  if (isWide(result))
    return evaluateWide(op);
  SmallVector<Value> &row = dense[result];
  if (kind == Kind::Close) {
    // partial[j, c] += x_ij * R_c for each stored x_ij.
    Value rhs = op.getOperand(1);
    if (!isNarrowCSRRow(rhs))
      return closeWide(rhs, layout.widths.lookup(result), partial, base);
    int64_t width = colsOf(result);
    SmallVector<Value> r;
    for (int64_t c = 0; c < width; ++c)
      r.push_back(denseCell(rhs, c));
    forEachEntry({}, [&](Value k, Value j, ValueRange) {
      Value xij = memref::LoadOp::create(b, loc, values, k);
      Value rowStart = arith::AddIOp::create(
          b, loc, base, arith::MulIOp::create(b, loc, j, index(width)));
      addIntoPartial(partial, rowStart, xij, r);
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
            return addScaledSideRow(side, j, {}, cellAt(lhs, k, j), acc);
          });
      row.assign(sums.begin(), sums.end());
      return;
    }
    if (!isNarrowCSRRow(lhs)) {
      // A wide row times a narrow S: the sums carried over lhs's columns.
      ValueRange sums = forEachColumn(
          layout.widths.lookup(lhs), SmallVector<Value>(width, zero),
          [&](Value r, ValueRange acc) {
            return addScaledSideRow(side, r, {}, cell(lhs, r), acc);
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
    if (kindOf(input) != Kind::Sparse && !isNarrowCSRRow(input)) {
      ValueRange acc =
          forEachColumn(layout.widths.lookup(input), {identity},
                        [&](Value c, ValueRange carried) {
                          return SmallVector<Value>{reduction.combine(
                              b, loc, cell(input, c), carried[0])};
                        });
      row.push_back(acc[0]);
      return;
    }
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

SmallVector<Value> RowEvaluator::addScaledSideRow(Value side, Value r, Value c0,
                                                  Value a, ValueRange acc) {
  SmallVector<Value> next;
  for (auto [c, sum] : llvm::enumerate(acc)) {
    Value col =
        c0 ? arith::AddIOp::create(b, loc, c0, index(c)).getResult() : index(c);
    Value s = memref::LoadOp::create(b, loc, side, ValueRange{r, col});
    next.push_back(arith::AddFOp::create(b, loc, sum,
                                         arith::MulFOp::create(b, loc, a, s)));
  }
  return next;
}

void RowEvaluator::addIntoPartial(Value partial, Value rowStart, Value x,
                                  ArrayRef<Value> r) {
  for (auto [c, rc] : llvm::enumerate(r)) {
    Value at = arith::AddIOp::create(b, loc, rowStart, index(c));
    Value sum = arith::AddFOp::create(
        b, loc, memref::LoadOp::create(b, loc, partial, at),
        arith::MulFOp::create(b, loc, x, rc));
    memref::StoreOp::create(b, loc, sum, partial, at);
  }
}

void RowEvaluator::forEachColumnBlock(
    Value width, function_ref<void(Value c0, int64_t n)> block) {
  Value from = index(0);
  for (int64_t n : {kMaxCSRRowWidth, int64_t(4), int64_t(1)}) {
    Value to =
        n == 1 ? width
               : arith::MulIOp::create(
                     b, loc, arith::DivUIOp::create(b, loc, width, index(n)),
                     index(n))
                     .getResult();
    scf::ForOp::create(b, loc, from, to, index(n), ValueRange{},
                       [&](OpBuilder &, Location, Value c0, ValueRange) {
                         block(c0, n);
                         scf::YieldOp::create(b, loc);
                       });
    from = to;
  }
}

void RowEvaluator::closeWide(Value rhs, Value width, Value partial,
                             Value base) {
  // A block of R in registers, added into the entries' rows of the partial.
  forEachColumnBlock(width, [&](Value c0, int64_t n) {
    SmallVector<Value> r;
    for (int64_t c = 0; c < n; ++c)
      r.push_back(cell(rhs, arith::AddIOp::create(b, loc, c0, index(c))));
    forEachEntry({}, [&](Value k, Value j, ValueRange) {
      Value xij = memref::LoadOp::create(b, loc, values, k);
      Value rowStart =
          arith::AddIOp::create(b, loc, arith::AddIOp::create(b, loc, base, c0),
                                arith::MulIOp::create(b, loc, j, width));
      addIntoPartial(partial, rowStart, xij, r);
      return SmallVector<Value>{};
    });
  });
}

void RowEvaluator::evaluateWide(Operation &op) {
  Value result = op.getResult(0);
  Value width = layout.widths.lookup(result);
  auto store = [&](Value c, Value value) {
    memref::StoreOp::create(b, loc, value, scratch, scratchAt(result, c));
  };
  auto load = [&](Value c) -> Value {
    return memref::LoadOp::create(b, loc, scratch, scratchAt(result, c));
  };
  if (auto product = dyn_cast<MatmulOp>(op)) {
    Value lhs = product.getLhs();
    Value side = inputs.lookup(product.getRhs());
    Value zero = floatConstant(b, loc, b.getF64Type(), 0.0);
    auto addRow = [&](Value a, Value r) {
      forEachColumn(width, {}, [&](Value c, ValueRange) {
        Value s = memref::LoadOp::create(b, loc, side, ValueRange{r, c});
        store(c, arith::AddFOp::create(b, loc, load(c),
                                       arith::MulFOp::create(b, loc, a, s)));
        return SmallVector<Value>{};
      });
    };
    if (kindOf(lhs) == Kind::Sparse) {
      // A block of sums in registers over the stored entries.
      forEachColumnBlock(width, [&](Value c0, int64_t n) {
        ValueRange sums = forEachEntry(
            SmallVector<Value>(n, zero), [&](Value k, Value j, ValueRange acc) {
              return addScaledSideRow(side, j, c0, cellAt(lhs, k, j), acc);
            });
        for (int64_t c = 0; c < n; ++c)
          store(arith::AddIOp::create(b, loc, c0, index(c)), sums[c]);
      });
      return;
    }
    // A dense row: row += a_r * S[r, :] for each column r of it.
    forEachColumn(width, {}, [&](Value c, ValueRange) {
      store(c, zero);
      return SmallVector<Value>{};
    });
    if (isNarrowCSRRow(lhs)) {
      for (int64_t r = 0; r < colsOf(lhs); ++r)
        addRow(denseCell(lhs, r), index(r));
    } else {
      forEachColumn(layout.widths.lookup(lhs), {}, [&](Value r, ValueRange) {
        addRow(cell(lhs, r), r);
        return SmallVector<Value>{};
      });
    }
    return;
  }
  if (auto slice = dyn_cast<SliceOp>(op)) {
    Value first = index(*getConstantIntValue(slice.getColBegin()));
    forEachColumn(width, {}, [&](Value c, ValueRange) {
      store(c, cell(slice.getInput(), arith::AddIOp::create(b, loc, c, first)));
      return SmallVector<Value>{};
    });
    return;
  }
  // An element-wise op over dense rows (aggregates give one column).
  forEachColumn(width, {}, [&](Value c, ValueRange) {
    SmallVector<Value> cells = llvm::map_to_vector(
        op.getOperands(), [&](Value operand) { return cell(operand, c); });
    store(c, cast<ElementwiseOpInterface>(op).buildCellComputation(
                 b, op.getLoc(), cells));
    return SmallVector<Value>{};
  });
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
    SmallVector<Value> tensors;
    for (ValueRange operand : operands)
      tensors.push_back(operand.front());
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

    RowLayout layout = layoutRows(rewriter, loc, op, *kinds, tensors);
    int64_t staticWidth = cast<MatrixType>(op.getResult(0).getType()).getCols();
    Value width = layout.widths.lookup(body.getTerminator()->getOperand(0));
    Value zeroIndex = indexConstant(rewriter, loc, 0);
    Value one = indexConstant(rewriter, loc, 1);
    Value chunks = threadRowRanges(rewriter, loc, op, rows);
    Value cells = arith::MulIOp::create(rewriter, loc, x.cols, width);
    Value partials =
        allocVector(rewriter, loc, f64,
                    arith::MulIOp::create(rewriter, loc, chunks, cells));
    // One set of scratch rows per thread, for the rows too wide to be held
    // as scalars.
    Value scratch;
    if (layout.stride)
      scratch = allocVector(
          rewriter, loc, f64,
          arith::MulIOp::create(rewriter, loc, chunks, layout.stride));
    Value zero = floatConstant(rewriter, loc, f64, 0.0);

    // One range of rows per thread, each adding into its own partial.
    forEachRowRange(
        rewriter, loc, rows, chunks,
        [&](OpBuilder &b, Location l, Value chunk, Value lo, Value hi) {
          Value base = arith::MulIOp::create(b, l, chunk, cells);
          DenseMap<Value, Value> scratchRows;
          if (scratch) {
            Value first = arith::MulIOp::create(b, l, chunk, layout.stride);
            for (auto [value, offset] : layout.offsets)
              scratchRows[value] = arith::AddIOp::create(b, l, first, offset);
          }
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
                RowEvaluator(rb, rl, *kinds, x, rowptr, colidx, values, inputs,
                             layout, scratch, scratchRows)
                    .run(body, i, partials, base);
                scf::YieldOp::create(rb, rl);
              });
        });

    // A width known only at run time takes a 2-D result (MLIR 22's
    // expand-strided-metadata fails on a 1-D buffer expanded to ?x?).
    bool dynamicWidth = staticWidth == ShapedType::kDynamic;
    Value output =
        dynamicWidth
            ? memref::AllocOp::create(
                  rewriter, loc,
                  MemRefType::get({ShapedType::kDynamic, ShapedType::kDynamic},
                                  f64),
                  ValueRange{x.cols, width})
                  .getResult()
            : allocVector(rewriter, loc, f64, cells);
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
          SmallVector<Value, 2> at = {e};
          if (dynamicWidth)
            at = {arith::DivUIOp::create(b, l, e, width),
                  arith::RemUIOp::create(b, l, e, width)};
          memref::StoreOp::create(b, l, merged.getResult(0), output, at);
        });

    auto type =
        cast<RankedTensorType>(getTypeConverter()->convertType(op.getType(0)));
    Value tensor =
        dynamicWidth
            ? bufferization::ToTensorOp::create(
                  rewriter, loc,
                  RankedTensorType::get(
                      {ShapedType::kDynamic, ShapedType::kDynamic}, f64),
                  output, /*restrict=*/rewriter.getUnitAttr(),
                  /*writable=*/rewriter.getUnitAttr())
                  ->getResult(0)
            : tensor::ExpandShapeOp::create(
                  rewriter, loc,
                  RankedTensorType::get({ShapedType::kDynamic, staticWidth},
                                        f64),
                  vectorTensor(rewriter, loc, output),
                  ArrayRef<ReassociationIndices>{{0, 1}},
                  ArrayRef<OpFoldResult>{x.cols,
                                         rewriter.getIndexAttr(staticWidth)})
                  ->getResult(0);
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
