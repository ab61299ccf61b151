//===- MNCSketchAnalysis.cpp - MNC sketches of values ---------------------===//

#include "AMLS/Analysis/MNCSketchAnalysis.h"
#include "AMLS/Analysis/MatrixPropertyAnalysis.h"
#include "AMLS/CostModel/PropertyLattice.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::amls;

SketchValue SketchValue::join(const SketchValue &lhs, const SketchValue &rhs) {
  if (lhs.isUninitialized())
    return rhs;
  if (rhs.isUninitialized())
    return lhs;
  return lhs == rhs ? lhs : none();
}

bool SketchValue::operator==(const SketchValue &other) const {
  if (state != other.state)
    return false;
  if (state != State::Known || sketch == other.sketch)
    return true;
  // The same counts computed twice (a loop body visited again).
  return *sketch == *other.sketch;
}

void SketchValue::print(raw_ostream &os) const {
  switch (state) {
  case State::Uninitialized:
    os << "<uninitialized>";
    return;
  case State::None:
    os << "<no sketch>";
    return;
  case State::Known:
    os << "sketch " << sketch->rows() << "x" << sketch->cols()
       << ", nnz = " << sketch->nnz();
  }
}

double mlir::amls::sketchedSparsity(const MNCSketch &sketch) {
  return roundSparsity(sketch.sparsity());
}

/// A matrix operand without a sketch whose type says it is all zero or all
/// non-zero has the uniform sketch (a dense X in G %*% X).
static MNCSketchRef uniformSketchOf(Type type) {
  auto matrix = dyn_cast_or_null<MatrixType>(type);
  if (!matrix || !matrix.hasStaticShape())
    return nullptr;
  std::optional<double> sparsity = matrix.getSparsity();
  if (!sparsity || (*sparsity != 0.0 && *sparsity != 1.0))
    return nullptr;
  return std::make_shared<const MNCSketch>(MNCSketch::uniform(
      matrix.getRows(), matrix.getCols(), *sparsity == 1.0));
}

LogicalResult
MNCSketchAnalysis::visitOperation(Operation *op,
                                  ArrayRef<const SketchLattice *> operands,
                                  ArrayRef<SketchLattice *> results) {
  auto model = dyn_cast<MNCSketchInterface>(op);
  if (!model || op->getNumResults() != 1 ||
      !isa<MatrixType>(op->getResult(0).getType())) {
    setAllToEntryStates(results);
    return success();
  }
  SmallVector<MNCSketchRef> sketches;
  SmallVector<Attribute> constants;
  bool anySketch = false;
  for (auto [operand, lattice] : llvm::zip(op->getOperands(), operands)) {
    if (lattice->getValue().isUninitialized())
      return success();
    sketches.push_back(lattice->getValue().getSketch());
    anySketch |= static_cast<bool>(sketches.back());
    const auto *constant =
        getOrCreateFor<ConstantLattice>(getProgramPointAfter(op), operand);
    constants.push_back(constant->getValue().isUninitialized()
                            ? Attribute()
                            : constant->getValue().getConstantValue());
  }
  if (!anySketch) {
    setAllToEntryStates(results);
    return success();
  }
  for (auto [operand, sketch] : llvm::zip(op->getOperands(), sketches)) {
    if (sketch || !isa<MatrixType>(operand.getType()))
      continue;
    // Its type first: a result without a sketch now could not get one later
    // (the join keeps "none").
    const auto *type =
        getOrCreateFor<MatrixTypeLattice>(getProgramPointAfter(op), operand);
    if (type->getValue().isUninitialized())
      return success();
    sketch = uniformSketchOf(type->getValue().getType());
  }
  MNCSketchRef result = model.propagateSketch(sketches, constants);
  propagateIfChanged(results[0],
                     results[0]->join(SketchValue::of(std::move(result))));
  return success();
}

void MNCSketchAnalysis::setToEntryState(SketchLattice *lattice) {
  SketchValue value = SketchValue::none();
  if (auto arg = dyn_cast<BlockArgument>(lattice->getAnchor())) {
    auto function =
        dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
    if (function && arg.getOwner()->isEntryBlock())
      if (auto sketch = function.getArgAttrOfType<MNCSketchAttr>(
              arg.getArgNumber(), AMLSDialect::getMNCSketchAttrName()))
        value = SketchValue::of(sketch.getSketch());
  }
  propagateIfChanged(lattice, lattice->join(value));
}
