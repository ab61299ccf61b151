//===- SparseCellTemplate.cpp - Cell fusion over a CSR main input ---------===//
//
// Element-wise ops that keep a CSR matrix's pattern (one CSR operand of the
// result's shape and a CSR result, as --amls-select-formats made them:
// sparse-safe functions, scalar ops with f(0, c) = 0, X * Y with a dense Y
// or a broadcast vector) form chains from a CSR main input, closed
// optionally by a sum, sumsq, min or max over all cells, rows or columns. Each
// chain becomes one `amls.fused cell` operator that visits the main input's
// stored values once, instead of one pass and one values array per op (the
// planner of the dense templates skips CSR values). Full aggregates of
// several chains from the same main input share one `amls.fused magg`
// operator. The cost model counts non-zeros, not cells.
//
//===----------------------------------------------------------------------===//

#include "FusionTemplates.h"

#include "AMLS/Dialect/AMLSInterfaces.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::fusion;

namespace {

struct SparseChain {
  /// The CSR matrix whose pattern every op of the chain keeps.
  Value main;
  /// Element-wise ops in block order, each reading its predecessor's result
  /// (the first reads `main`); every result but the last has one use.
  SmallVector<Operation *> ops;
  /// The aggregate closing the chain, if any (op handles are used by value).
  mutable AggOp aggregate;

  Operation *root() const {
    return aggregate ? aggregate.getOperation() : ops.back();
  }
};

bool isF64Matrix(Value value) {
  auto type = dyn_cast<MatrixType>(value.getType());
  return type && type.getElementType().isF64();
}

/// The CSR operand whose pattern `op`'s CSR result keeps, or null.
Value keptPatternOperand(Operation *op) {
  if (!isa<ElementwiseOpInterface>(op) || op->getNumResults() != 1 ||
      !isCSRMatrix(op->getResult(0).getType()) ||
      !isF64Matrix(op->getResult(0)))
    return Value();
  auto resultType = cast<MatrixType>(op->getResult(0).getType());
  Value csr;
  for (Value operand : op->getOperands()) {
    if (!isa<MatrixType>(operand.getType()))
      continue;
    if (!isF64Matrix(operand))
      return Value();
    if (!isCSRMatrix(operand.getType()))
      continue;
    if (csr)
      return Value(); // CSR op CSR merges two patterns.
    csr = operand;
  }
  if (!csr || !mayHaveResultShape(csr.getType(), resultType))
    return Value();
  // X / v checks its divisor at run time in its own kernel.
  if (isa<DivOp>(op) && isa<MatrixType>(op->getOperand(1).getType()))
    return Value();
  return csr;
}

Type cellTypeOf(Value value) {
  if (auto matrix = dyn_cast<MatrixType>(value.getType()))
    return matrix.getElementType();
  return value.getType();
}

bool isFusedAggregate(AggOp aggregate) {
  switch (aggregate.getKind()) {
  case AggKind::Sum:
  case AggKind::SumSq:
  case AggKind::Min:
  case AggKind::Max:
    return cellTypeOf(aggregate.getResult()).isF64();
  default:
    return false;
  }
}

/// rowMaxs(G * t(c)) is one max-times kernel of its own (components).
bool isMaxTimes(const SparseChain &chain) {
  return chain.aggregate && chain.ops.size() == 1 &&
         isa<MulOp>(chain.ops.front()) &&
         chain.aggregate.getKind() == AggKind::Max &&
         chain.aggregate.getAxis() == AggAxis::Row;
}

class SparseCellFusion {
public:
  SparseCellFusion(Block &block, const CostModel &model)
      : block(block), model(model) {}

  unsigned run(bool costBased, llvm::raw_ostream *explain);

private:
  std::vector<SparseChain> findChains() const;
  double fusedCost(ArrayRef<const SparseChain *> group) const;
  double unfusedCost(ArrayRef<const SparseChain *> group) const;
  bool emit(ArrayRef<const SparseChain *> group);

  /// Estimated non-zeros and rows of the main input.
  std::pair<double, double> nnzAndRows(Value main) const {
    auto type = cast<MatrixType>(main.getType());
    return {costModelCells(main) * type.getSparsity().value_or(1.0),
            costModelSize(type.getRows())};
  }
  /// Bytes an op reads from a dense operand at the stored cells: the
  /// gathered values, or the whole vector when it broadcasts.
  double gatherBytes(Value operand, double nnz) const {
    double cells = costModelCells(operand);
    return std::min(cells, nnz) * model.elementBytes;
  }

  /// What earlier operators of this block replaced (a root of one chain
  /// may be the main input or an operand of another).
  Value current(Value value) const {
    Value replacement = replaced.lookup(value);
    return replacement ? replacement : value;
  }

  Block &block;
  const CostModel &model;
  DenseMap<Value, Value> replaced;
};

std::vector<SparseChain> SparseCellFusion::findChains() const {
  std::vector<SparseChain> chains;
  DenseMap<Value, unsigned> chainEndingAt;
  for (Operation &op : block) {
    if (Value csr = keptPatternOperand(&op)) {
      auto it = chainEndingAt.find(csr);
      if (it != chainEndingAt.end() && csr.hasOneUse()) {
        unsigned index = it->second;
        chainEndingAt.erase(it);
        chains[index].ops.push_back(&op);
        chainEndingAt[op.getResult(0)] = index;
        continue;
      }
      chainEndingAt[op.getResult(0)] = chains.size();
      chains.push_back({csr, {&op}, AggOp()});
      continue;
    }
    auto aggregate = dyn_cast<AggOp>(op);
    if (!aggregate || !isFusedAggregate(aggregate))
      continue;
    auto it = chainEndingAt.find(aggregate.getInput());
    if (it == chainEndingAt.end() || !aggregate.getInput().hasOneUse())
      continue;
    chains[it->second].aggregate = aggregate;
    chainEndingAt.erase(it);
  }
  std::vector<SparseChain> candidates;
  for (SparseChain &chain : chains)
    if ((chain.aggregate || chain.ops.size() > 1) && !isMaxTimes(chain))
      candidates.push_back(std::move(chain));
  return candidates;
}

double
SparseCellFusion::unfusedCost(ArrayRef<const SparseChain *> group) const {
  auto [nnz, rows] = nnzAndRows(group.front()->main);
  double pattern = nnz * 4 + rows * 8;
  double values = nnz * model.elementBytes;
  double total = 0;
  for (const SparseChain *chain : group) {
    for (Operation *op : chain->ops) {
      // Scalar ops map the values array; ops with a dense operand walk the
      // pattern to gather it.
      double read = values;
      for (Value operand : op->getOperands())
        if (isa<MatrixType>(operand.getType()) &&
            !isCSRMatrix(operand.getType()))
          read += pattern + gatherBytes(operand, nnz);
      total += operatorCost(model, read, values,
                            nnz * cellFlops(cast<ElementwiseOpInterface>(op)),
                            model.scalarFlops);
    }
    if (chain->aggregate)
      total += operatorCost(model, values + pattern,
                            costModelCells(chain->aggregate.getResult()) *
                                model.elementBytes,
                            nnz, model.scalarFlops);
  }
  return total;
}

double SparseCellFusion::fusedCost(ArrayRef<const SparseChain *> group) const {
  auto [nnz, rows] = nnzAndRows(group.front()->main);
  double read = nnz * (model.elementBytes + 4) + rows * 8;
  double written = 0, flops = 0;
  DenseSet<Value> gathered;
  for (const SparseChain *chain : group) {
    for (Operation *op : chain->ops) {
      for (Value operand : op->getOperands())
        if (isa<MatrixType>(operand.getType()) &&
            !isCSRMatrix(operand.getType()) && gathered.insert(operand).second)
          read += gatherBytes(operand, nnz);
      flops += nnz * cellFlops(cast<ElementwiseOpInterface>(op));
    }
    written += chain->aggregate ? costModelCells(chain->aggregate.getResult()) *
                                      model.elementBytes
                                : nnz * model.elementBytes;
  }
  return operatorCost(model, read, written, flops, model.scalarFlops);
}

bool SparseCellFusion::emit(ArrayRef<const SparseChain *> group) {
  MLIRContext *context = block.getParentOp()->getContext();
  Operation *first = group.front()->root();
  for (const SparseChain *chain : group)
    if (chain->root()->isBeforeInBlock(first))
      first = chain->root();
  Value main = group.front()->main;
  DenseSet<Value> computed;
  for (const SparseChain *chain : group)
    for (Operation *op : chain->ops)
      computed.insert(op->getResult(0));
  // The chains' operands (before earlier operators replaced them).
  SmallVector<Value> originals = {main};
  for (const SparseChain *chain : group)
    for (Operation *op : chain->ops)
      for (Value operand : op->getOperands())
        if (!computed.contains(operand) &&
            !llvm::is_contained(originals, operand))
          originals.push_back(operand);
  SmallVector<Value> inputs =
      llvm::map_to_vector(originals, [&](Value v) { return current(v); });
  // The operator replaces the first root: every input must exist there.
  for (Value input : inputs)
    if (Operation *def = input.getDefiningOp())
      if (def->getBlock() == &block && !def->isBeforeInBlock(first))
        return false;

  SmallVector<Type> resultTypes;
  SmallVector<Attribute> kinds;
  std::optional<AggAxis> axis;
  for (const SparseChain *chain : group) {
    resultTypes.push_back(chain->root()->getResult(0).getType());
    if (chain->aggregate) {
      kinds.push_back(AggKindAttr::get(context, chain->aggregate.getKind()));
      axis = chain->aggregate.getAxis();
    }
  }
  OpBuilder builder(first);
  Location loc = first->getLoc();
  auto fused = FusedOp::create(
      builder, loc, resultTypes,
      group.size() > 1 ? FusedTemplate::MAgg : FusedTemplate::Cell,
      kinds.empty() ? ArrayAttr() : builder.getArrayAttr(kinds),
      axis ? AggAxisAttr::get(context, *axis) : AggAxisAttr(), IntegerAttr(),
      inputs);
  Block *body = new Block();
  fused.getBody().push_back(body);
  DenseMap<Value, Value> cellOf;
  for (Value original : originals)
    cellOf[original] = body->addArgument(cellTypeOf(original), loc);
  OpBuilder bodyBuilder = OpBuilder::atBlockEnd(body);
  SmallVector<Value> yielded;
  for (const SparseChain *chain : group) {
    for (Operation *op : chain->ops) {
      SmallVector<Value> cells = llvm::map_to_vector(
          op->getOperands(), [&](Value v) { return cellOf.lookup(v); });
      cellOf[op->getResult(0)] =
          cast<ElementwiseOpInterface>(op).buildCellComputation(
              bodyBuilder, op->getLoc(), cells);
    }
    yielded.push_back(cellOf.lookup(chain->ops.back()->getResult(0)));
  }
  YieldOp::create(bodyBuilder, loc, yielded);

  // The operator's body must be zero wherever the main input is: the CSR
  // lowering takes the same decision.
  SmallVector<bool> csrOperands = llvm::map_to_vector(
      fused->getOperands(), [](Value v) { return isCSRMatrix(v.getType()); });
  SmallVector<bool> csrResults = llvm::map_to_vector(
      fused->getResults(), [](Value v) { return isCSRMatrix(v.getType()); });
  if (!hasCSRKernel(fused, csrOperands, csrResults)) {
    fused->erase();
    return false;
  }
  for (auto [chain, result] : llvm::zip(group, fused.getResults())) {
    chain->root()->getResult(0).replaceAllUsesWith(result);
    replaced[chain->root()->getResult(0)] = result;
    if (chain->aggregate)
      chain->aggregate->erase();
    for (Operation *op : llvm::reverse(chain->ops))
      op->erase();
  }
  return true;
}

unsigned SparseCellFusion::run(bool costBased, llvm::raw_ostream *explain) {
  std::vector<SparseChain> chains = findChains();
  // Full aggregates of chains from the same main input go together.
  llvm::MapVector<Value, SmallVector<const SparseChain *>> fullAggregates;
  SmallVector<SmallVector<const SparseChain *>> groups;
  for (const SparseChain &chain : chains) {
    if (chain.aggregate && chain.aggregate.getAxis() == AggAxis::All)
      fullAggregates[chain.main].push_back(&chain);
    else
      groups.push_back({&chain});
  }
  for (auto &[main, group] : fullAggregates)
    groups.push_back(group);

  unsigned created = 0;
  for (ArrayRef<const SparseChain *> group : groups) {
    double fused = fusedCost(group), unfused = unfusedCost(group);
    bool chosen = !costBased || fused < unfused;
    unsigned ops = 0;
    for (const SparseChain *chain : group)
      ops += chain->ops.size() + (chain->aggregate ? 1 : 0);
    if (explain)
      *explain << "sparse cell template at " << group.front()->root()->getName()
               << " " << group.front()->root()->getLoc() << ": main input "
               << group.front()->main.getType() << ", " << ops << " ops in "
               << group.size() << " chain" << (group.size() > 1 ? "s" : "")
               << "\n  cost fused " << llvm::format("%.3f", fused * 1e6)
               << " us, unfused " << llvm::format("%.3f", unfused * 1e6)
               << " us: ";
    if (!chosen) {
      if (explain)
        *explain << "not fused\n";
      continue;
    }
    bool emitted = emit(group);
    if (explain)
      *explain << (emitted ? "fused" : "not fused (inputs or body)") << "\n";
    created += emitted;
  }
  return created;
}

} // namespace

unsigned mlir::amls::fuseSparseCellTemplates(Block &block,
                                             const CostModel &model,
                                             bool costBased,
                                             llvm::raw_ostream *explain) {
  return SparseCellFusion(block, model).run(costBased, explain);
}
