//===- RowTemplate.cpp - Row-template fusion for --amls-fuse --------------===//
//
// A row-template candidate closes at a product t(X) %*% R whose R is
// computed row by row from X and other matrices with one row per row of X:
// element-wise ops (with row or column vectors and scalars broadcast), row
// aggregates, products A %*% S with a small side matrix S, and column
// slices (row-locality is the ops' RowLocalityInterface, defined in
// lib/Dialect/AMLSRowLocality.cpp). The candidate grows from the close
// upwards (in reverse block order, so that every user of a value is
// decided before the value): an op joins when it is row-local and all of
// its result's users are in the candidate; anything else it reads becomes
// an input, a row input when it has one row per row of X, a side input
// otherwise. Side inputs are read whole by every block: they must fit in
// the cache (the template's constraint; a candidate violating it costs
// infinity).
//
//===----------------------------------------------------------------------===//

#include "FusionTemplates.h"

#include "AMLS/Dialect/AMLSInterfaces.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"

#include <limits>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::fusion;

namespace {

int64_t staticRows(Value value) {
  auto type = dyn_cast<MatrixType>(value.getType());
  return type && type.hasStaticRows() ? type.getRows() : ShapedType::kDynamic;
}

double bytesOf(Value value, const CostModel &model) {
  return costModelCells(value) * model.elementBytes;
}

struct RowCandidate {
  /// The closing product t(X) %*% R and the main input X.
  MatmulOp close;
  Value main;
  int64_t rows = 0;
  /// The fused ops (the close included; the transpose is not: the body
  /// transposes its block of X).
  llvm::SetVector<Operation *> ops;
  llvm::SetVector<Value> rowInputs;
  llvm::SetVector<Value> sideInputs;
  /// Side matrices too large for the cache (the template's constraint).
  bool sideInputsFit = true;
};

class RowTemplateFusion {
public:
  RowTemplateFusion(Block &block, const CostModel &model)
      : block(block), model(model) {}

  unsigned run(bool costBased, llvm::raw_ostream *explain);

private:
  std::optional<RowCandidate> candidateAt(MatmulOp close);
  /// Whether `op` joins a candidate over a main input of `rows` rows: its
  /// result has one row per row of X and it is row-local (the op's
  /// RowLocalityInterface) with its operands of `rows` rows as blocks of
  /// rows, the rest side inputs.
  bool joins(Operation *op, int64_t rows) const;
  bool isRowAligned(Value value, int64_t rows) const {
    return staticRows(value) == rows;
  }
  double fusedCost(const RowCandidate &candidate) const;
  double unfusedCost(const RowCandidate &candidate) const;
  /// Floating-point work of a fused op over the whole main input.
  double opFlops(Operation *op) const;
  double opCost(double read, double written, double flops) const {
    return operatorCost(model, read, written, flops, model.peakFlops);
  }
  void emit(const RowCandidate &candidate);

  Block &block;
  const CostModel &model;
  DenseSet<Operation *> claimed;
};

bool RowTemplateFusion::joins(Operation *op, int64_t rows) const {
  if (op->getNumResults() != 1 || !isRowAligned(op->getResult(0), rows))
    return false;
  // The whole matrix is one block: operands with `rows` rows are blocks of
  // rows, the others side inputs.
  auto rowLocal = dyn_cast<RowLocalityInterface>(op);
  SmallVector<RowValueKind> operandKinds;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    if (auto type = dyn_cast<MatrixType>(operand.getType())) {
      // Unknown rows may or may not be a block of rows.
      if (!type.hasStaticRows())
        return false;
      operandKinds.push_back(type.getRows() == rows ? RowValueKind::Rows
                                                    : RowValueKind::Side);
      continue;
    }
    // The number of rows of X at a row end is that of the block (emit()
    // reads it from the block).
    std::optional<int64_t> value = getConstantIntValue(operand);
    operandKinds.push_back(operand.getType().isIndex() && rowLocal &&
                                   rowLocal.isRowEnd(i) && value == rows
                               ? RowValueKind::NumRows
                               : RowValueKind::Side);
  }
  // Planner choices beyond row-locality: emit() clones a slice's bounds into
  // the body as constants, and a product of a transposed view t(A) %*% S is
  // left to BLAS, which reads the view in place (fused, t(A) would be a
  // materialized row input).
  if (auto slice = dyn_cast<SliceOp>(op);
      slice && !(getConstantIntValue(slice.getColBegin()) &&
                 getConstantIntValue(slice.getColEnd())))
    return false;
  if (auto product = dyn_cast<MatmulOp>(op);
      product && product.getLhs().getDefiningOp<TransposeOp>())
    return false;
  RowLocality locality = getRowLocality(op, operandKinds);
  return locality.isRowLocal() &&
         locality.getResultKind() == RowValueKind::Rows;
}

std::optional<RowCandidate> RowTemplateFusion::candidateAt(MatmulOp close) {
  auto transpose = close.getLhs().getDefiningOp<TransposeOp>();
  if (!transpose || touchesCSRMatrix(close) || touchesCSRMatrix(transpose))
    return std::nullopt;
  RowCandidate candidate;
  candidate.close = close;
  candidate.main = transpose.getInput();
  candidate.rows = staticRows(candidate.main);
  auto resultType = cast<MatrixType>(close.getType());
  if (candidate.rows == ShapedType::kDynamic || candidate.rows < 2 ||
      !isRowAligned(close.getRhs(), candidate.rows) ||
      !isa<FloatType>(resultType.getElementType()))
    return std::nullopt;
  // The transpose (possibly hoisted out of this block) stays; the body
  // transposes its block of X.
  candidate.ops.insert(close);

  // Values the candidate reads, to be computed inside or passed in.
  DenseSet<Value> needed = {close.getRhs()};
  for (Operation &op :
       llvm::reverse(llvm::make_range(block.begin(), Block::iterator(close)))) {
    if (op.getNumResults() != 1 || !needed.contains(op.getResult(0)) ||
        claimed.contains(&op) || touchesCSRMatrix(&op) ||
        !joins(&op, candidate.rows))
      continue;
    bool onlyInside =
        llvm::all_of(op.getResult(0).getUsers(),
                     [&](Operation *u) { return candidate.ops.contains(u); });
    if (!onlyInside)
      continue;
    candidate.ops.insert(&op);
    for (Value operand : op.getOperands())
      if (isRowAligned(operand, candidate.rows))
        needed.insert(operand);
  }
  // Inputs: what the fused ops read from outside (slice bounds are
  // constants, cloned into the body).
  for (Operation *op : candidate.ops) {
    if (isa<SliceOp>(op)) {
      Value input = cast<SliceOp>(op).getInput();
      if (!candidate.ops.contains(input.getDefiningOp()) &&
          input != candidate.main)
        candidate.rowInputs.insert(input);
      continue;
    }
    for (Value operand : op->getOperands()) {
      if (operand == candidate.main ||
          (op == close.getOperation() && operand == close.getLhs()) ||
          candidate.ops.contains(operand.getDefiningOp()))
        continue;
      if (isRowAligned(operand, candidate.rows)) {
        candidate.rowInputs.insert(operand);
      } else {
        candidate.sideInputs.insert(operand);
        if (bytesOf(operand, model) > model.cacheBytes)
          candidate.sideInputsFit = false;
      }
    }
  }
  return candidate;
}

double RowTemplateFusion::opFlops(Operation *op) const {
  if (auto product = dyn_cast<MatmulOp>(op)) {
    auto lhs = cast<MatrixType>(product.getLhs().getType());
    return 2 * costModelCells(product.getResult()) *
           costModelSize(lhs.getCols());
  }
  if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op))
    return costModelCells(op->getResult(0)) * cellFlops(elementwise);
  if (auto aggregate = dyn_cast<AggOp>(op))
    return costModelCells(aggregate.getInput());
  return 0;
}

double RowTemplateFusion::fusedCost(const RowCandidate &candidate) const {
  if (!candidate.sideInputsFit)
    return std::numeric_limits<double>::infinity();
  double read = bytesOf(candidate.main, model), flops = 0;
  for (Value input : candidate.rowInputs)
    read += bytesOf(input, model);
  for (Value input : candidate.sideInputs)
    read += bytesOf(input, model);
  for (Operation *op : candidate.ops)
    flops += opFlops(op);
  return opCost(read, bytesOf(candidate.close->getResult(0), model), flops);
}

double RowTemplateFusion::unfusedCost(const RowCandidate &candidate) const {
  double total = 0;
  // The product reads X through a transposed view.
  for (Operation *op : candidate.ops) {
    double read = 0;
    for (Value operand : op->getOperands())
      read += bytesOf(operand, model);
    total += opCost(read, bytesOf(op->getResult(0), model), opFlops(op));
  }
  return total;
}

void RowTemplateFusion::emit(const RowCandidate &candidate) {
  MatmulOp close = candidate.close;
  MLIRContext *context = close.getContext();
  Location loc = close.getLoc();
  SmallVector<Value> inputs = {candidate.main};
  llvm::append_range(inputs, candidate.rowInputs);
  unsigned numRowInputs = inputs.size();
  llvm::append_range(inputs, candidate.sideInputs);

  OpBuilder builder(close);
  auto fused = FusedOp::create(
      builder, loc, TypeRange{close.getType()}, FusedTemplate::Row,
      builder.getArrayAttr({AggKindAttr::get(context, AggKind::Sum)}),
      AggAxisAttr(), builder.getI64IntegerAttr(numRowInputs), inputs);
  Block *body = new Block();
  fused.getBody().push_back(body);
  auto blockOf = [](Type type) {
    auto matrix = cast<MatrixType>(type);
    return matrix.withShape(ShapedType::kDynamic, matrix.getCols());
  };
  IRMapping mapping;
  for (auto [i, input] : llvm::enumerate(inputs))
    mapping.map(input,
                body->addArgument(i < numRowInputs ? blockOf(input.getType())
                                                   : input.getType(),
                                  input.getLoc()));

  OpBuilder bodyBuilder = OpBuilder::atBlockEnd(body);
  auto indexConstant = [&](Value value) -> Value {
    return arith::ConstantIndexOp::create(bodyBuilder, value.getLoc(),
                                          *getConstantIntValue(value));
  };
  // In block order: operands before their users.
  SmallVector<Operation *> ops(candidate.ops.begin(), candidate.ops.end());
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  Value mainBlock = mapping.lookup(candidate.main);
  auto mainType = cast<MatrixType>(mainBlock.getType());
  // The close reads the transposed block; other ops that read t(X) read it
  // whole, as a side input.
  Value transposedBlock = TransposeOp::create(
      bodyBuilder, close.getLhs().getLoc(),
      mainType.withShape(mainType.getCols(), ShapedType::kDynamic), mainBlock);
  for (Operation *op : ops) {
    if (op == close.getOperation()) {
      auto partial =
          MatmulOp::create(bodyBuilder, close.getLoc(), close.getType(),
                           transposedBlock, mapping.lookup(close.getRhs()));
      mapping.map(close.getResult(), partial.getResult());
      continue;
    }
    if (auto slice = dyn_cast<SliceOp>(op)) {
      // All rows of the block.
      Value input = mapping.lookup(slice.getInput());
      Value begin = indexConstant(slice.getRowBegin());
      Value end = NRowOp::create(bodyBuilder, slice.getLoc(),
                                 bodyBuilder.getIndexType(), input);
      auto sliced =
          SliceOp::create(bodyBuilder, slice.getLoc(), blockOf(slice.getType()),
                          input, begin, end, indexConstant(slice.getColBegin()),
                          indexConstant(slice.getColEnd()));
      mapping.map(slice.getResult(), sliced.getResult());
      continue;
    }
    Operation *clone = bodyBuilder.clone(*op, mapping);
    clone->getResult(0).setType(blockOf(clone->getResult(0).getType()));
  }
  YieldOp::create(bodyBuilder, loc, mapping.lookup(close.getResult()));

  Operation *transpose = close.getLhs().getDefiningOp();
  close.getResult().replaceAllUsesWith(fused.getResult(0));
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  if (transpose->use_empty())
    transpose->erase();
}

unsigned RowTemplateFusion::run(bool costBased, llvm::raw_ostream *explain) {
  SmallVector<MatmulOp> closes;
  for (Operation &op : block)
    if (auto product = dyn_cast<MatmulOp>(op))
      closes.push_back(product);
  unsigned created = 0;
  for (MatmulOp close : closes) {
    if (claimed.contains(close))
      continue;
    std::optional<RowCandidate> candidate = candidateAt(close);
    // A product alone is better left to BLAS.
    if (!candidate || candidate->ops.size() < 3)
      continue;
    double fused = fusedCost(*candidate), unfused = unfusedCost(*candidate);
    bool chosen = costBased ? fused < unfused : std::isfinite(fused);
    if (explain) {
      *explain << "row template closing at " << close->getName() << " "
               << close.getLoc() << ": main input " << candidate->main.getType()
               << ", " << candidate->rowInputs.size() << " row inputs, "
               << candidate->sideInputs.size() << " side inputs, "
               << candidate->ops.size() << " ops\n  cost fused ";
      if (std::isfinite(fused))
        *explain << llvm::format("%.3f", fused * 1e6) << " us";
      else
        *explain << "infinite (side inputs exceed the cache)";
      *explain << ", unfused " << llvm::format("%.3f", unfused * 1e6)
               << " us: " << (chosen ? "fused" : "not fused") << "\n";
    }
    if (!chosen)
      continue;
    for (Operation *op : candidate->ops)
      claimed.insert(op);
    emit(*candidate);
    ++created;
  }
  return created;
}

} // namespace

unsigned mlir::amls::fuseRowTemplates(Block &block, const CostModel &model,
                                      bool costBased,
                                      llvm::raw_ostream *explain) {
  return RowTemplateFusion(block, model).run(costBased, explain);
}
