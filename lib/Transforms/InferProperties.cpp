//===- InferProperties.cpp - Matrix size and sparsity inference -----------===//
//
// Runs MatrixPropertyAnalysis (lib/Analysis) with MLIR's DataFlowSolver,
// together with dead-code and constant propagation, then writes the refined
// types back and bridges edges whose types now differ with amls.cast.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Analysis/MNCSketchAnalysis.h"
#include "AMLS/Analysis/MatrixPropertyAnalysis.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSINFERPROPERTIES
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// One run of the inference over `root`, refining its types in place.
class PropertyInference {
public:
  PropertyInference(Operation *root, const PropertyInferenceOptions &options)
      : root(root), options(options) {}

  LogicalResult run();

private:
  Operation *root;
  const PropertyInferenceOptions &options;
  /// Values whose type was refined, with their type before.
  DenseMap<Value, Type> originalTypes;

  void refine(DataFlowSolver &solver, Value value);
  void bridgeRegionEdges(RegionBranchOpInterface op,
                         DenseSet<OpOperand *> &edgeOperands);
  static void removeRedundantCasts(Operation *root);
  /// One analysis and rewrite of the types.
  LogicalResult refineTypes();
  /// Runs every rule on the fixpoint's types, reporting inconsistencies.
  LogicalResult checkFixpoint(DataFlowSolver &solver,
                              const SparsityEstimator &estimator);
  /// Gives all successor inputs fed by one operand the same type (inputs in
  /// dead regions were not refined with the others).
  void unifySuccessorInputs(RegionBranchOpInterface op);
  void setRefinedType(Value value, Type type);
  /// Replaces each scf.if whose condition the analysis found constant by
  /// the branch it takes.
  void inlineDecidedBranches(ArrayRef<std::pair<scf::IfOp, bool>> decided);
  /// Replaces nrow/ncol of known sizes by constants; true if any changed.
  bool foldSizeQueries();
};

} // namespace

void PropertyInference::refine(DataFlowSolver &solver, Value value) {
  if (!isa<MatrixType>(value.getType()))
    return;
  const auto *lattice = solver.lookupState<MatrixTypeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return;
  Type type = lattice->getValue().getType();
  if (isa<MatrixType>(type))
    setRefinedType(value, type);
}

void PropertyInference::setRefinedType(Value value, Type type) {
  if (type == value.getType())
    return;
  originalTypes.try_emplace(value, value.getType());
  value.setType(type);
}

/// Whether `op` may run: a branch that cannot be taken (`if (nrow(S) > 0)`
/// for a 0x0 S in a function specialized to it) may hold ops whose operand
/// sizes do not fit, as in SystemDS, where only executed code is checked.
static bool isReachable(DataFlowSolver &solver, Operation *op) {
  Block *block = op->getBlock();
  Operation *parent = block ? block->getParentOp() : nullptr;
  // Function bodies and the root are entered; blocks of control flow only
  // where the dead-code analysis reached them.
  if (!parent || !isa<RegionBranchOpInterface>(parent))
    return true;
  const auto *executable = solver.lookupState<dataflow::Executable>(
      solver.getProgramPointBefore(block));
  return executable && executable->isLive();
}

LogicalResult
PropertyInference::checkFixpoint(DataFlowSolver &solver,
                                 const SparsityEstimator &estimator) {
  WalkResult result = root->walk([&](Operation *op) {
    auto inferable = dyn_cast<InferMatrixPropertiesInterface>(op);
    if (!inferable || !isReachable(solver, op))
      return WalkResult::advance();
    SmallVector<Type> operandTypes;
    SmallVector<Attribute> constants;
    for (Value operand : op->getOperands()) {
      const auto *lattice = solver.lookupState<MatrixTypeLattice>(operand);
      // Unreached (dead) code keeps its declared types.
      if (!lattice || lattice->getValue().isUninitialized())
        return WalkResult::advance();
      operandTypes.push_back(lattice->getValue().getType());
      const auto *constant = solver.lookupState<ConstantLattice>(operand);
      constants.push_back(constant && !constant->getValue().isUninitialized()
                              ? constant->getValue().getConstantValue()
                              : Attribute());
    }
    MatrixInferenceContext context(op, operandTypes, constants, estimator,
                                   /*emitDiagnostics=*/true);
    context.setAllowsFileMetadata(options.fileMetadata);
    SmallVector<Type> inferred;
    if (failed(inferable.inferMatrixProperties(context, inferred)))
      return WalkResult::interrupt();
    for (auto [i, declared, implied] :
         llvm::enumerate(op->getResultTypes(), inferred)) {
      if (areCompatibleMatrixTypes(declared, implied))
        continue;
      op->emitOpError() << "result #" << i << " is declared " << declared
                        << " but the program implies " << implied;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void PropertyInference::unifySuccessorInputs(RegionBranchOpInterface op) {
  // (operand, successor input) pairs of every edge of `op`.
  SmallVector<std::pair<OpOperand *, Value>> edges;
  SmallVector<RegionSuccessor> successors;
  op.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  for (const RegionSuccessor &successor : successors) {
    OperandRange operands = op.getEntrySuccessorOperands(successor);
    if (operands.empty())
      continue;
    unsigned begin = operands.getBeginOperandIndex();
    for (auto [i, input] : llvm::enumerate(successor.getSuccessorInputs()))
      edges.push_back({&op->getOpOperand(begin + i), input});
  }
  for (Region &region : op->getRegions())
    for (Block &block : region) {
      auto terminator = dyn_cast_or_null<RegionBranchTerminatorOpInterface>(
          block.empty() ? nullptr : &block.back());
      if (!terminator)
        continue;
      SmallVector<RegionSuccessor> exits;
      op.getSuccessorRegions(RegionBranchPoint(terminator), exits);
      for (const RegionSuccessor &successor : exits) {
        MutableOperandRange operands =
            terminator.getMutableSuccessorOperands(successor);
        for (auto [operand, input] :
             llvm::zip(operands, successor.getSuccessorInputs()))
          edges.push_back({&operand, input});
      }
    }
  // A branch the analysis found dead (an scf.if on a constant) forwards
  // values it never refined: widen the successor input to cover them, so
  // that every edge can be bridged with a cast.
  for (auto [operand, input] : edges)
    if (isa<MatrixType>(input.getType()) &&
        !CastOp::areCastCompatible(operand->get().getType(), input.getType()))
      setRefinedType(input,
                     joinTypes(input.getType(), operand->get().getType()));
  // Join the input types per operand until they agree.
  bool changed = true;
  while (changed) {
    changed = false;
    DenseMap<OpOperand *, Type> joined;
    for (auto [operand, input] : edges) {
      if (!isa<MatrixType>(input.getType()))
        continue;
      auto [it, inserted] = joined.try_emplace(operand, input.getType());
      if (!inserted)
        it->second = joinTypes(it->second, input.getType());
    }
    for (auto [operand, input] : edges) {
      auto it = joined.find(operand);
      if (it == joined.end() || it->second == input.getType())
        continue;
      setRefinedType(input, it->second);
      changed = true;
    }
  }
}

/// Inserts `amls.cast` on region-branch edges whose operand type no longer
/// equals the successor's input type, and records all forwarded operands.
void PropertyInference::bridgeRegionEdges(RegionBranchOpInterface op,
                                          DenseSet<OpOperand *> &edgeOperands) {
  auto bridge = [&](OpOperand &operand, Type expected) {
    edgeOperands.insert(&operand);
    if (operand.get().getType() == expected)
      return;
    OpBuilder builder(operand.getOwner());
    // Folded: poison takes the type itself, without a cast whose run-time
    // size check would fail on it.
    operand.set(builder.createOrFold<CastOp>(operand.getOwner()->getLoc(),
                                             expected, operand.get()));
  };

  SmallVector<RegionSuccessor> successors;
  op.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  for (const RegionSuccessor &successor : successors) {
    OperandRange operands = op.getEntrySuccessorOperands(successor);
    if (operands.empty())
      continue;
    unsigned begin = operands.getBeginOperandIndex();
    for (auto [i, input] : llvm::enumerate(successor.getSuccessorInputs()))
      bridge(op->getOpOperand(begin + i), input.getType());
  }

  for (Region &region : op->getRegions()) {
    for (Block &block : region) {
      auto terminator = dyn_cast_or_null<RegionBranchTerminatorOpInterface>(
          block.empty() ? nullptr : &block.back());
      if (!terminator)
        continue;
      SmallVector<RegionSuccessor> exits;
      op.getSuccessorRegions(RegionBranchPoint(terminator), exits);
      for (const RegionSuccessor &successor : exits) {
        MutableOperandRange operands =
            terminator.getMutableSuccessorOperands(successor);
        for (auto [operand, input] :
             llvm::zip(operands, successor.getSuccessorInputs()))
          bridge(operand, input.getType());
      }
    }
  }
}

LogicalResult PropertyInference::run() {
  // Sizes queried with nrow/ncol become constants once their operand's type
  // is refined, and those constants can refine further types (e.g. a fill
  // sized by ncol(X)). A few rounds reach the fixpoint in practice.
  constexpr unsigned kMaxRounds = 4;
  for (unsigned round = 0; round < kMaxRounds; ++round) {
    if (failed(refineTypes()))
      return failure();
    if (!foldSizeQueries())
      break;
  }
  return success();
}

LogicalResult
mlir::amls::inferMatrixProperties(Operation *root,
                                  const PropertyInferenceOptions &options) {
  return PropertyInference(root, options).run();
}

namespace {
struct InferPropertiesPass
    : public amls::impl::AMLSInferPropertiesBase<InferPropertiesPass> {
  using AMLSInferPropertiesBase::AMLSInferPropertiesBase;

  void runOnOperation() override {
    PropertyInferenceOptions options;
    options.estimator = estimator;
    options.fileMetadata = fileMetadata;
    options.mnc = mnc;
    if (failed(inferMatrixProperties(getOperation(), options)))
      signalPassFailure();
  }
};
} // namespace

bool PropertyInference::foldSizeQueries() {
  bool changed = false;
  root->walk([&](Operation *op) {
    if (!isa<NRowOp, NColOp>(op))
      return;
    SmallVector<OpFoldResult> folded;
    SmallVector<Attribute> noConstants(op->getNumOperands());
    if (failed(op->fold(noConstants, folded)) || folded.size() != 1)
      return;
    auto value = dyn_cast_if_present<Attribute>(folded.front());
    if (!value)
      return;
    OpBuilder builder(op);
    Value constant = arith::ConstantOp::create(builder, op->getLoc(),
                                               op->getResult(0).getType(),
                                               cast<TypedAttr>(value));
    op->getResult(0).replaceAllUsesWith(constant);
    op->erase();
    changed = true;
  });
  return changed;
}

LogicalResult PropertyInference::refineTypes() {
  SparsityEstimator sparsityEstimator(options.estimator);
  // Function arguments keep their declared types: no propagation from call
  // sites into callees (inter-procedural analysis is a separate step).
  DataFlowSolver solver(DataFlowConfig().setInterprocedural(false));
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<SizeQueryConstantPropagation>();
  if (options.mnc)
    solver.load<MNCSketchAnalysis>();
  solver.load<MatrixPropertyAnalysis>(sparsityEstimator, options.fileMetadata,
                                      options.callResultTypes, options.mnc);
  if (failed(solver.initializeAndRun(root)) ||
      failed(checkFixpoint(solver, sparsityEstimator)))
    return failure();

  // Branches decided by constants (in reachable code).
  SmallVector<std::pair<scf::IfOp, bool>> decided;
  root->walk([&](scf::IfOp ifOp) {
    const auto *constant =
        solver.lookupState<ConstantLattice>(ifOp.getCondition());
    if (!constant || constant->getValue().isUninitialized() ||
        !isReachable(solver, ifOp))
      return;
    if (auto value = dyn_cast_if_present<IntegerAttr>(
            constant->getValue().getConstantValue()))
      decided.push_back({ifOp, !value.getValue().isZero()});
  });

  // Refine results of inferable ops and the values merged by region control
  // flow. Function arguments keep their declared types, and so do call
  // results unless the inter-procedural analysis gave them.
  originalTypes.clear();
  root->walk([&](Operation *op) {
    bool isBranch = isa<RegionBranchOpInterface>(op);
    bool isSummarizedCall = options.callResultTypes && isa<CallOpInterface>(op);
    if (!isBranch && !isSummarizedCall &&
        !isa<InferMatrixPropertiesInterface>(op))
      return;
    for (Value result : op->getResults())
      refine(solver, result);
    if (!isBranch)
      return;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          refine(solver, arg);
  });

  root->walk([&](RegionBranchOpInterface op) { unifySuccessorInputs(op); });

  DenseSet<OpOperand *> edgeOperands;
  root->walk(
      [&](RegionBranchOpInterface op) { bridgeRegionEdges(op, edgeOperands); });

  // Consumers outside the dialect (returns, calls, other dialects' ops) see
  // the type they were built with. The uses are visited in IR order (owners
  // in walk order, then operand order), not in the order of `originalTypes`,
  // which is keyed by pointers: its order varies from run to run and would
  // leak into the order of the casts.
  SmallVector<OpOperand *> castUses;
  root->walk([&](Operation *owner) {
    if (isa_and_nonnull<AMLSDialect>(owner->getDialect()))
      return;
    for (OpOperand &use : owner->getOpOperands())
      if (originalTypes.contains(use.get()) && !edgeOperands.contains(&use))
        castUses.push_back(&use);
  });
  for (OpOperand *use : castUses) {
    Value value = use->get();
    Operation *owner = use->getOwner();
    OpBuilder builder(owner);
    use->set(CastOp::create(builder, owner->getLoc(),
                            originalTypes.lookup(value), value));
  }

  inlineDecidedBranches(decided);
  removeRedundantCasts(root);
  return success();
}

void PropertyInference::inlineDecidedBranches(
    ArrayRef<std::pair<scf::IfOp, bool>> decided) {
  // The branch not taken may hold ops whose refined operand sizes do not
  // fit (they were not checked: it never runs); it goes now, before the
  // verifier sees it.
  for (auto [ifOp, taken] : decided) {
    Region &region = taken ? ifOp.getThenRegion() : ifOp.getElseRegion();
    SmallVector<Value> values;
    if (!region.empty()) {
      Block &block = region.front();
      auto yield = cast<scf::YieldOp>(block.getTerminator());
      values.assign(yield.getOperands().begin(), yield.getOperands().end());
      ifOp->getBlock()->getOperations().splice(
          ifOp->getIterator(), block.getOperations(), block.begin(),
          yield->getIterator());
    }
    OpBuilder builder(ifOp);
    for (auto [result, value] : llvm::zip(ifOp.getResults(), values)) {
      Value replacement = value;
      if (value.getType() != result.getType())
        replacement =
            CastOp::create(builder, ifOp.getLoc(), result.getType(), value);
      result.replaceAllUsesWith(replacement);
    }
    ifOp.erase();
  }
}

/// Casts whose input now has the result type are no-ops; a cast of a cast
/// can start from the first input. Both are left behind by refinement.
void PropertyInference::removeRedundantCasts(Operation *root) {
  root->walk([](CastOp cast) {
    if (auto inner = cast.getInput().getDefiningOp<CastOp>())
      if (CastOp::areCastCompatible(inner.getInput().getType(), cast.getType()))
        cast.getInputMutable().assign(inner.getInput());
  });
  root->walk([](CastOp cast) {
    if (cast.getInput().getType() == cast.getType())
      cast.getResult().replaceAllUsesWith(cast.getInput());
    if (cast.getResult().use_empty())
      cast.erase();
  });
}
