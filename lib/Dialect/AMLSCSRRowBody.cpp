//===- AMLSCSRRowBody.cpp - Row-template bodies over a CSR input ----------===//
//
// Decides which row-template bodies run over the rows of a CSR main input
// X, visiting its stored values only, and what each value of the body is
// for one row (include/AMLS/Dialect/AMLSCSRRowBody.h). Values computed from
// X's row either keep its pattern (Sparse: computed at each stored entry
// where read) or are dense rows (Dense, e.g. X %*% V or rowSums(X * Y):
// one scalar per column where narrow, a scratch row where wider than
// kMaxCSRRowWidth or of a width known only at run time); the close
// scatters the dense row R into t(X) %*% R. A body this does not cover
// (with the reason `--fuse-explain` prints) is not given a CSR
// kernel, so the planner leaves its candidate unfused.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSCSRRowBody.h"

#include "AMLS/Dialect/AMLSInterfaces.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::amls;

namespace {

using Kind = CSRRowValueKind;

int64_t colsOf(Value value) {
  auto type = dyn_cast<MatrixType>(value.getType());
  return type ? type.getCols() : ShapedType::kDynamic;
}

} // namespace

bool mlir::amls::isNarrowCSRRow(Value value) {
  int64_t width = colsOf(value);
  return width != ShapedType::kDynamic && width >= 1 &&
         width <= kMaxCSRRowWidth;
}

namespace {

class Analysis {
public:
  Analysis(FusedOp op, std::string *reason) : op(op), reason(reason) {}

  std::optional<CSRRowBodyKinds> run();

private:
  bool fail(const Twine &why) {
    if (reason)
      *reason = why.str();
    return false;
  }
  std::optional<Kind> kindOf(Value value) const {
    auto it = kinds.find(value);
    if (it == kinds.end())
      return std::nullopt;
    return it->second;
  }
  /// A row usable as a dense operand: a dense row or a row input.
  bool isDenseRow(Value value) const {
    std::optional<Kind> kind = kindOf(value);
    return kind == Kind::Dense || kind == Kind::RowInput;
  }
  /// Whether an op computing a wide row (isNarrowCSRRow) can read
  /// `operand` at a column known only at run time: anything but a narrow
  /// dense row of more than one column (held as one scalar per column).
  bool readableByWide(Value operand) const {
    return kindOf(operand) != Kind::Dense || colsOf(operand) == 1 ||
           !isNarrowCSRRow(operand);
  }
  bool failMixed(Operation &nested) {
    return fail("'" + nested.getName().getStringRef() +
                "' computes a row wider than " + Twine(kMaxCSRRowWidth) +
                " columns or of unknown width from a narrow row of more than "
                "one column");
  }
  bool visit(Operation &nested);
  bool visitElementwise(Operation &nested);
  bool visitProduct(MatmulOp product);

  FusedOp op;
  std::string *reason;
  CSRRowBodyKinds kinds;
  int64_t mainCols = ShapedType::kDynamic;
};

/// An element-wise op over X's pattern (one Sparse operand; the others read
/// at the stored entry's cell) or over dense rows.
bool Analysis::visitElementwise(Operation &nested) {
  Value result = nested.getResult(0);
  int64_t width = colsOf(result);
  Value sparse;
  for (Value operand : nested.getOperands())
    if (kindOf(operand) == Kind::Sparse) {
      if (sparse)
        return fail("'" + nested.getName().getStringRef() +
                    "' merges two sparse rows");
      sparse = operand;
    }
  if (sparse) {
    // The format selection made the result CSR only where the op keeps its
    // operand's pattern; X / v checks its divisor in its own kernel.
    if (!isCSRMatrix(result.getType()) || width != mainCols ||
        (isa<DivOp>(nested) && isa<MatrixType>(nested.getOperand(1).getType())))
      return fail("'" + nested.getName().getStringRef() +
                  "' does not keep the pattern of X");
    for (Value operand : nested.getOperands()) {
      if (operand == sparse || !isa<MatrixType>(operand.getType()))
        continue;
      std::optional<Kind> kind = kindOf(operand);
      int64_t cols = colsOf(operand);
      // Read at the entry's cell: a row input or side matrix of X's width
      // or of one column, or a dense row of one column.
      bool side = kind == Kind::Side &&
                  cast<MatrixType>(operand.getType()).getRows() == 1;
      bool readable = ((kind == Kind::RowInput || side) &&
                       (cols == mainCols || cols == 1)) ||
                      (kind == Kind::Dense && cols == 1);
      if (!readable)
        return fail("'" + nested.getName().getStringRef() +
                    "' reads a value it cannot gather at X's entries");
    }
    kinds[result] = Kind::Sparse;
    return true;
  }
  bool wide = !isNarrowCSRRow(result);
  for (Value operand : nested.getOperands()) {
    if (!isa<MatrixType>(operand.getType()))
      continue;
    std::optional<Kind> kind = kindOf(operand);
    int64_t cols = colsOf(operand);
    // Sizes known only at run time are checked there.
    bool broadcast = cols == 1 || cols == width ||
                     cols == ShapedType::kDynamic ||
                     width == ShapedType::kDynamic;
    if (wide && !readableByWide(operand))
      return failMixed(nested);
    if (!broadcast || !(isDenseRow(operand) || kind == Kind::Side))
      return fail("'" + nested.getName().getStringRef() +
                  "' reads an operand that is not a dense row");
    if (kind == Kind::Side &&
        cast<MatrixType>(operand.getType()).getRows() != 1)
      return fail("'" + nested.getName().getStringRef() +
                  "' reads a side matrix of more than one row");
  }
  kinds[result] = Kind::Dense;
  return true;
}

/// X's row (or one with its pattern) or a dense row times a dense side
/// matrix, or the close t(X) %*% R.
bool Analysis::visitProduct(MatmulOp product) {
  Value lhs = product.getLhs(), rhs = product.getRhs();
  std::optional<Kind> lhsKind = kindOf(lhs);
  if (lhsKind == Kind::Transposed) {
    if (!isDenseRow(rhs))
      return fail("the close t(X) %*% R reads an R that is not a dense row");
    kinds[product.getResult()] = Kind::Close;
    return true;
  }
  if (kindOf(rhs) != Kind::Side || isCSRMatrix(rhs.getType()))
    return fail("a product in the body must multiply by a dense side matrix");
  if (lhsKind != Kind::Sparse && !isDenseRow(lhs))
    return fail("a product in the body must multiply a row");
  kinds[product.getResult()] = Kind::Dense;
  return true;
}

bool Analysis::visit(Operation &nested) {
  if (nested.getNumResults() != 1)
    return fail("'" + nested.getName().getStringRef() +
                "' has no single result");
  Value result = nested.getResult(0);
  if (auto type = dyn_cast<MatrixType>(result.getType());
      type && !type.getElementType().isF64())
    return fail("'" + nested.getName().getStringRef() +
                "' computes a matrix that is not f64");
  if (isa<arith::ConstantOp>(nested) || isa<NRowOp>(nested)) {
    kinds[result] = Kind::Side;
    return true;
  }
  if (auto transpose = dyn_cast<TransposeOp>(nested)) {
    if (transpose.getInput() != op.getBody().front().getArgument(0))
      return fail("only X is transposed in the body");
    kinds[result] = Kind::Transposed;
    return true;
  }
  if (auto product = dyn_cast<MatmulOp>(nested))
    return visitProduct(product);
  if (auto aggregate = dyn_cast<AggOp>(nested)) {
    std::optional<Kind> kind = kindOf(aggregate.getInput());
    if (aggregate.getAxis() != AggAxis::Row ||
        !llvm::is_contained(
            {AggKind::Sum, AggKind::SumSq, AggKind::Min, AggKind::Max},
            aggregate.getKind()) ||
        !(kind == Kind::Sparse || isDenseRow(aggregate.getInput())))
      return fail("only row sums, sums of squares, minimums and maximums of "
                  "rows are fused");
    kinds[result] = Kind::Dense;
    return true;
  }
  if (auto slice = dyn_cast<SliceOp>(nested)) {
    std::optional<Kind> kind = kindOf(slice.getInput());
    std::optional<int64_t> begin = getConstantIntValue(slice.getColBegin());
    std::optional<int64_t> end = getConstantIntValue(slice.getColEnd());
    std::optional<int64_t> rowBegin = getConstantIntValue(slice.getRowBegin());
    auto rowEnd = slice.getRowEnd().getDefiningOp<NRowOp>();
    if ((kind != Kind::Dense && kind != Kind::RowInput) || !begin || !end ||
        rowBegin != 0 || !rowEnd || rowEnd.getInput() != slice.getInput() ||
        *end <= *begin)
      return fail("only column slices of dense rows with constant bounds are "
                  "fused");
    kinds[result] = Kind::Dense;
    return true;
  }
  if (isa<ElementwiseOpInterface>(nested) && isa<MatrixType>(result.getType()))
    return visitElementwise(nested);
  return fail("'" + nested.getName().getStringRef() +
              "' has no CSR row kernel");
}

std::optional<CSRRowBodyKinds> Analysis::run() {
  if (op.getKind() != FusedTemplate::Row || !op.getRowInputs() ||
      op.getBody().empty()) {
    fail("not a row-template operator");
    return std::nullopt;
  }
  std::optional<ArrayAttr> aggregate = op.getAggregate();
  if (!aggregate || aggregate->size() != 1 ||
      cast<AggKindAttr>((*aggregate)[0]).getValue() != AggKind::Sum) {
    fail("the operator must sum its partial results");
    return std::nullopt;
  }
  Block &body = op.getBody().front();
  uint64_t numRowInputs = *op.getRowInputs();
  for (auto [i, argument, input] :
       llvm::enumerate(body.getArguments(), op.getInputs())) {
    auto type = dyn_cast<MatrixType>(input.getType());
    bool csr = type && isCSRMatrix(type);
    if (type && !type.getElementType().isF64()) {
      fail("input #" + Twine(i) + " is not f64");
      return std::nullopt;
    }
    if ((i == 0) != csr) {
      fail(i == 0 ? "X is not CSR" : "only X may be CSR");
      return std::nullopt;
    }
    kinds[argument] = i == 0             ? Kind::Sparse
                      : i < numRowInputs ? Kind::RowInput
                                         : Kind::Side;
  }
  mainCols = colsOf(body.getArgument(0));
  if (mainCols == ShapedType::kDynamic) {
    fail("X has an unknown number of columns");
    return std::nullopt;
  }
  for (Operation &nested : body.without_terminator())
    if (!visit(nested))
      return std::nullopt;
  // t(X) feeds the close only, and the close is all the body yields.
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != 1 ||
      kindOf(yield.getValues()[0]) != Kind::Close) {
    fail("the body must yield t(X) %*% R");
    return std::nullopt;
  }
  for (auto [value, kind] : kinds) {
    bool valid = true;
    if (kind == Kind::Transposed)
      valid = llvm::all_of(value.getUses(), [&](OpOperand &use) {
        return isa<MatmulOp>(use.getOwner()) && use.getOperandNumber() == 0;
      });
    if (kind == Kind::Close)
      valid = llvm::all_of(value.getUsers(), llvm::IsaPred<YieldOp>);
    if (!valid) {
      fail("t(X) or t(X) %*% R is used otherwise in the body");
      return std::nullopt;
    }
  }
  return std::move(kinds);
}

} // namespace

std::optional<CSRRowBodyKinds>
mlir::amls::analyzeCSRRowBody(FusedOp op, std::string *reason) {
  return Analysis(op, reason).run();
}
