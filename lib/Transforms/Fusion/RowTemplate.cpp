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
// With a CSR main input (--amls-select-formats) the close is t(t(R) %*% X),
// as the format selection rewrote t(X) %*% R, or t(X) %*% R with t(X)
// hoisted out of a loop. Such a candidate becomes an operator only where
// its body has a CSR kernel (lib/Dialect/AMLSCSRRowBody.cpp: a loop over
// the rows of X that visits the stored values only); the cost model then
// counts non-zeros.
//
//===----------------------------------------------------------------------===//

#include "FusionTemplates.h"

#include "AMLS/Dialect/AMLSCSRRowBody.h"
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

/// Bytes of a matrix: its cells, or for CSR its estimated non-zeros (value
/// and column index) and row pointers.
double bytesOf(Value value, const CostModel &model) {
  auto type = dyn_cast<MatrixType>(value.getType());
  if (!type || !isCSRMatrix(type))
    return costModelCells(value) * model.elementBytes;
  double nnz = costModelCells(value) * type.getSparsity().value_or(1.0);
  return nnz * (model.elementBytes + 4) + costModelSize(type.getRows()) * 8;
}

/// Estimated stored cells of a matrix (all of them when dense).
double storedCells(Value value) {
  auto type = dyn_cast<MatrixType>(value.getType());
  if (!type || !isCSRMatrix(type))
    return costModelCells(value);
  return costModelCells(value) * type.getSparsity().value_or(1.0);
}

struct RowCandidate {
  /// The op whose result is t(X) %*% R (the product, or with a CSR X the
  /// transpose of t(R) %*% X), the ops computing it from R, R itself, and
  /// the main input X.
  Operation *close = nullptr;
  SmallVector<Operation *> closeOps;
  Value rhs;
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
  std::optional<RowCandidate> candidateAt(Operation *close);
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
  /// Creates the operator; false (with the reason in `whyNot`) where its
  /// body over a CSR X has no kernel.
  bool emit(const RowCandidate &candidate, std::string &whyNot);

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

/// The close of a candidate at `op`: t(X) %*% R (X dense, or CSR with t(X)
/// built outside this block), or t(t(R) %*% X) with a CSR X, as
/// --amls-select-formats rewrites t(X) %*% R in a block.
std::optional<RowCandidate> closeAt(Operation *op) {
  RowCandidate candidate;
  candidate.close = op;
  if (auto product = dyn_cast<MatmulOp>(op)) {
    auto transpose = product.getLhs().getDefiningOp<TransposeOp>();
    if (!transpose || isCSRMatrix(product.getRhs().getType()) ||
        isCSRMatrix(product.getType()))
      return std::nullopt;
    // A CSR t(X) in this block was left alone by the format selection: it
    // is used otherwise too.
    if (isCSRMatrix(transpose.getType()) &&
        transpose->getBlock() == product->getBlock())
      return std::nullopt;
    candidate.main = transpose.getInput();
    candidate.rhs = product.getRhs();
    candidate.closeOps = {product};
    return candidate;
  }
  auto outer = dyn_cast<TransposeOp>(op);
  if (!outer)
    return std::nullopt;
  auto product = outer.getInput().getDefiningOp<MatmulOp>();
  if (!product || !product->hasOneUse() ||
      !isCSRMatrix(product.getRhs().getType()) ||
      isCSRMatrix(product.getType()))
    return std::nullopt;
  auto inner = product.getLhs().getDefiningOp<TransposeOp>();
  if (!inner || !inner->hasOneUse() || isCSRMatrix(inner.getType()) ||
      inner->getBlock() != op->getBlock())
    return std::nullopt;
  candidate.main = product.getRhs();
  candidate.rhs = inner.getInput();
  candidate.closeOps = {inner, product, outer};
  return candidate;
}

std::optional<RowCandidate> RowTemplateFusion::candidateAt(Operation *close) {
  std::optional<RowCandidate> found = closeAt(close);
  if (!found)
    return std::nullopt;
  RowCandidate candidate = std::move(*found);
  bool sparse = isCSRMatrix(candidate.main.getType());
  if (!sparse && touchesCSRMatrix(close))
    return std::nullopt;
  // A compressed X's products are the runtime's kernels.
  if (llvm::any_of(candidate.closeOps, touchesCompressedMatrix))
    return std::nullopt;
  candidate.rows = staticRows(candidate.main);
  auto resultType = cast<MatrixType>(close->getResult(0).getType());
  if (candidate.rows == ShapedType::kDynamic || candidate.rows < 2 ||
      !isRowAligned(candidate.rhs, candidate.rows) ||
      !isa<FloatType>(resultType.getElementType()))
    return std::nullopt;
  // The transpose of X (possibly hoisted out of this block) stays; the
  // body transposes its block of X.
  for (Operation *op : candidate.closeOps)
    candidate.ops.insert(op);

  // Values the candidate reads, to be computed inside or passed in. Ops
  // touching a CSR matrix join only over a CSR X (the body's CSR kernel
  // decides which).
  DenseSet<Value> needed = {candidate.rhs};
  for (Operation &op :
       llvm::reverse(llvm::make_range(block.begin(), Block::iterator(close)))) {
    if (op.getNumResults() != 1 || !needed.contains(op.getResult(0)) ||
        claimed.contains(&op) || (!sparse && touchesCSRMatrix(&op)) ||
        touchesCompressedMatrix(&op) || !joins(&op, candidate.rows))
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
    if (llvm::is_contained(candidate.closeOps, op))
      continue;
    if (isa<SliceOp>(op)) {
      Value input = cast<SliceOp>(op).getInput();
      if (!candidate.ops.contains(input.getDefiningOp()) &&
          input != candidate.main)
        candidate.rowInputs.insert(input);
      continue;
    }
    for (Value operand : op->getOperands()) {
      if (operand == candidate.main ||
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
  if (!candidate.ops.contains(candidate.rhs.getDefiningOp()))
    candidate.rowInputs.insert(candidate.rhs);
  return candidate;
}

double RowTemplateFusion::opFlops(Operation *op) const {
  if (auto product = dyn_cast<MatmulOp>(op)) {
    // A CSR operand multiplies its stored cells only.
    for (Value operand : {product.getLhs(), product.getRhs()})
      if (isCSRMatrix(operand.getType())) {
        auto other = cast<MatrixType>(
            (operand == product.getLhs() ? product.getRhs() : product.getLhs())
                .getType());
        return 2 * storedCells(operand) *
               costModelSize(operand == product.getLhs() ? other.getCols()
                                                         : other.getRows());
      }
    auto lhs = cast<MatrixType>(product.getLhs().getType());
    return 2 * costModelCells(product.getResult()) *
           costModelSize(lhs.getCols());
  }
  if (auto elementwise = dyn_cast<ElementwiseOpInterface>(op))
    return storedCells(op->getResult(0)) * cellFlops(elementwise);
  if (auto aggregate = dyn_cast<AggOp>(op))
    return storedCells(aggregate.getInput());
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
  double written = bytesOf(candidate.close->getResult(0), model);
  // Over a CSR X the operator's loops are scalar code.
  if (isCSRMatrix(candidate.main.getType()))
    return operatorCost(model, read, written, flops, model.scalarFlops);
  return opCost(read, written, flops);
}

double RowTemplateFusion::unfusedCost(const RowCandidate &candidate) const {
  double total = 0;
  // The product reads X through a transposed view.
  for (Operation *op : candidate.ops) {
    double read = 0;
    for (Value operand : op->getOperands())
      read += bytesOf(operand, model);
    total += operatorCost(
        model, read, bytesOf(op->getResult(0), model), opFlops(op),
        touchesCSRMatrix(op) ? model.scalarFlops : model.peakFlops);
  }
  return total;
}

bool RowTemplateFusion::emit(const RowCandidate &candidate,
                             std::string &whyNot) {
  Operation *close = candidate.close;
  Value closeResult = close->getResult(0);
  MLIRContext *context = close->getContext();
  Location loc = close->getLoc();
  SmallVector<Value> inputs = {candidate.main};
  llvm::append_range(inputs, candidate.rowInputs);
  unsigned numRowInputs = inputs.size();
  llvm::append_range(inputs, candidate.sideInputs);

  OpBuilder builder(close);
  auto fused = FusedOp::create(
      builder, loc, TypeRange{closeResult.getType()}, FusedTemplate::Row,
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
      bodyBuilder, candidate.main.getLoc(),
      mainType.withShape(mainType.getCols(), ShapedType::kDynamic), mainBlock);
  for (Operation *op : ops) {
    if (op == close) {
      auto partial =
          MatmulOp::create(bodyBuilder, loc, closeResult.getType(),
                           transposedBlock, mapping.lookup(candidate.rhs));
      mapping.map(closeResult, partial.getResult());
      continue;
    }
    if (llvm::is_contained(candidate.closeOps, op))
      continue;
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
  YieldOp::create(bodyBuilder, loc, mapping.lookup(closeResult));

  // Over a CSR X, only bodies with a CSR kernel (AMLSCSRRowBody.cpp).
  if (isCSRMatrix(candidate.main.getType())) {
    SmallVector<bool> csrOperands = llvm::map_to_vector(
        inputs, [](Value v) { return isCSRMatrix(v.getType()); });
    if (!hasCSRKernel(fused, csrOperands, {false})) {
      (void)analyzeCSRRowBody(fused, &whyNot);
      fused->erase();
      return false;
    }
  }
  // The transpose of X read by a t(X) %*% R close (perhaps hoisted).
  Operation *transpose = nullptr;
  if (auto product = dyn_cast<MatmulOp>(close))
    transpose = product.getLhs().getDefiningOp();
  closeResult.replaceAllUsesWith(fused.getResult(0));
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  if (transpose && transpose->use_empty())
    transpose->erase();
  return true;
}

unsigned RowTemplateFusion::run(bool costBased, llvm::raw_ostream *explain) {
  SmallVector<Operation *> closes;
  for (Operation &op : block)
    if (isa<MatmulOp, TransposeOp>(op))
      closes.push_back(&op);
  unsigned created = 0;
  for (Operation *close : closes) {
    if (claimed.contains(close))
      continue;
    std::optional<RowCandidate> candidate = candidateAt(close);
    if (!candidate)
      continue;
    // A product alone is better left to BLAS; over a CSR X one op besides
    // the close already saves a pass over X.
    bool sparse = isCSRMatrix(candidate->main.getType());
    size_t fusedOps = candidate->ops.size() - candidate->closeOps.size();
    if (fusedOps < (sparse ? 1u : 2u))
      continue;
    double fused = fusedCost(*candidate), unfused = unfusedCost(*candidate);
    bool chosen = costBased ? fused < unfused : std::isfinite(fused);
    if (explain) {
      *explain << "row template closing at " << close->getName() << " "
               << close->getLoc() << ": main input "
               << candidate->main.getType() << ", "
               << candidate->rowInputs.size() << " row inputs, "
               << candidate->sideInputs.size() << " side inputs, "
               << fusedOps + 1 << " ops\n  cost fused ";
      if (std::isfinite(fused))
        *explain << llvm::format("%.3f", fused * 1e6) << " us";
      else
        *explain << "infinite (side inputs exceed the cache)";
      *explain << ", unfused " << llvm::format("%.3f", unfused * 1e6)
               << " us: ";
    }
    std::string whyNot;
    bool emitted = chosen && emit(*candidate, whyNot);
    if (explain) {
      if (emitted)
        *explain << "fused";
      else if (chosen)
        *explain << "not fused (no CSR kernel for the body"
                 << (whyNot.empty() ? "" : ": " + whyNot) << ")";
      else
        *explain << "not fused";
      *explain << "\n";
    }
    if (!emitted)
      continue;
    for (Operation *op : candidate->ops)
      claimed.insert(op);
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
