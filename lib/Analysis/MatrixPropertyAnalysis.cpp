//===- MatrixPropertyAnalysis.cpp - Sizes and sparsity of values ----------===//

#include "AMLS/Analysis/MatrixPropertyAnalysis.h"
#include "AMLS/Analysis/MNCSketchAnalysis.h"
#include "AMLS/Dialect/AMLSOps.h"

using namespace mlir;
using namespace mlir::amls;

LogicalResult MatrixPropertyAnalysis::visitOperation(
    Operation *op, ArrayRef<const MatrixTypeLattice *> operands,
    ArrayRef<MatrixTypeLattice *> results) {
  // A poison value (a matrix not assigned on this path) is the bottom of the
  // lattice: joined with the assigned values, it leaves their type.
  if (isa<ub::PoisonOp>(op))
    return success();
  auto inferable = dyn_cast<InferMatrixPropertiesInterface>(op);
  if (!inferable) {
    setAllToEntryStates(results);
    return success();
  }

  SmallVector<Type> operandTypes;
  SmallVector<Attribute> constants;
  if (!getOperandFacts(op, operands, operandTypes, constants))
    return success();
  // A result whose sketch is still to come waits for it: the type joined
  // now with the metadata's sparsity would keep neither estimate.
  if (useSketches && isa<MNCSketchInterface>(op) && op->getNumResults() == 1 &&
      getOrCreateFor<SketchLattice>(getProgramPointAfter(op), op->getResult(0))
          ->getValue()
          .isUninitialized())
    return success();

  // Quietly: a loop's first visit sees only its initial values, and a rule
  // may fail on that intermediate state of a valid program. The final
  // types are checked, with diagnostics, once the fixpoint is reached.
  MatrixInferenceContext context(op, operandTypes, constants, estimator,
                                 /*emitDiagnostics=*/false);
  context.setAllowsFileMetadata(fileMetadata);
  SmallVector<Type> inferred;
  if (failed(inferable.inferMatrixProperties(context, inferred))) {
    setAllToEntryStates(results);
    return success();
  }
  for (auto [result, lattice, type] :
       llvm::zip(op->getResults(), results, inferred)) {
    Type refined = refineType(result.getType(), type);
    if (useSketches)
      refined = withSketchedSparsity(op, result, refined);
    propagateIfChanged(lattice, lattice->join(MatrixTypeValue(refined)));
  }
  return success();
}

Type MatrixPropertyAnalysis::withSketchedSparsity(Operation *op, Value result,
                                                  Type type) {
  auto matrix = dyn_cast<MatrixType>(type);
  if (!matrix || !matrix.hasStaticShape())
    return type;
  const auto *sketch =
      getOrCreateFor<SketchLattice>(getProgramPointAfter(op), result);
  const MNCSketchRef &counts = sketch->getValue().getSketch();
  if (!counts || counts->rows() != matrix.getRows() ||
      counts->cols() != matrix.getCols())
    return type;
  return matrix.withSparsity(sketchedSparsity(*counts));
}

void MatrixPropertyAnalysis::visitExternalCall(
    CallOpInterface call, ArrayRef<const MatrixTypeLattice *> operands,
    ArrayRef<MatrixTypeLattice *> results) {
  if (!callResultTypes)
    return setAllToEntryStates(results);
  SmallVector<Type> operandTypes;
  SmallVector<Attribute> constants;
  if (!getOperandFacts(call, operands, operandTypes, constants))
    return;
  std::optional<SmallVector<Type>> inferred =
      callResultTypes(call, operandTypes, constants);
  if (!inferred)
    return setAllToEntryStates(results);
  for (auto [result, lattice, type] :
       llvm::zip(call->getResults(), results, *inferred)) {
    Type refined = refineType(result.getType(), type);
    propagateIfChanged(lattice, lattice->join(MatrixTypeValue(refined)));
  }
}

void MatrixPropertyAnalysis::setToEntryState(MatrixTypeLattice *lattice) {
  Type declared = lattice->getAnchor().getType();
  propagateIfChanged(lattice, lattice->join(MatrixTypeValue(declared)));
}

bool MatrixPropertyAnalysis::getOperandFacts(
    Operation *op, ArrayRef<const MatrixTypeLattice *> operands,
    SmallVectorImpl<Type> &operandTypes,
    SmallVectorImpl<Attribute> &constants) {
  for (auto [operand, lattice] : llvm::zip(op->getOperands(), operands)) {
    if (lattice->getValue().isUninitialized())
      return false;
    const ConstantLattice *constant =
        getOrCreateFor<ConstantLattice>(getProgramPointAfter(op), operand);
    if (constant->getValue().isUninitialized())
      return false;
    operandTypes.push_back(lattice->getValue().getType());
    constants.push_back(constant->getValue().getConstantValue());
  }
  return true;
}
LogicalResult SizeQueryConstantPropagation::visitOperation(
    Operation *op, ArrayRef<const ConstantLattice *> operands,
    ArrayRef<ConstantLattice *> results) {
  if (!isa<NRowOp, NColOp>(op))
    return SparseConstantPropagation::visitOperation(op, operands, results);
  // Revisited whenever the matrix's lattice changes; a size that becomes
  // unknown later joins the constant to overdefined (the lattice stays
  // monotone).
  const auto *matrix = getOrCreateFor<MatrixTypeLattice>(
      getProgramPointAfter(op), op->getOperand(0));
  if (matrix->getValue().isUninitialized())
    return success();
  auto type = dyn_cast<MatrixType>(matrix->getValue().getType());
  bool rows = isa<NRowOp>(op);
  if (!type || !(rows ? type.hasStaticRows() : type.hasStaticCols())) {
    setAllToEntryStates(results);
    return success();
  }
  Value result = op->getResult(0);
  auto size = IntegerAttr::get(result.getType(),
                               rows ? type.getRows() : type.getCols());
  propagateIfChanged(results[0], results[0]->join(dataflow::ConstantValue(
                                     size, op->getDialect())));
  return success();
}
