//===- MNCSketchAnalysis.h - MNC sketches of values -------------*- C++ -*-===//
//
// A sparse forward data-flow analysis that propagates the MNC sketches of
// function parameters (`amls.mnc`, set by the session for the data it
// sees) through the program by each op's MNCSketchInterface. A value
// reached by two different sketches (a loop that changes it, the two
// branches of an scf.if) has none. MatrixPropertyAnalysis, run in the same
// solver, takes the sparsity of a value with a sketch from it.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_ANALYSIS_MNCSKETCHANALYSIS_H
#define AMLS_ANALYSIS_MNCSKETCHANALYSIS_H

#include "AMLS/CostModel/MNCSketch.h"

#include "mlir/Analysis/DataFlow/SparseAnalysis.h"

namespace mlir::amls {

/// A value's sketch: not yet reached, a sketch, or none.
class SketchValue {
public:
  SketchValue() = default;
  static SketchValue none() { return SketchValue(State::None, nullptr); }
  static SketchValue of(MNCSketchRef sketch) {
    return sketch ? SketchValue(State::Known, std::move(sketch)) : none();
  }

  bool isUninitialized() const { return state == State::Uninitialized; }
  /// The sketch, or null (not reached or none).
  const MNCSketchRef &getSketch() const { return sketch; }

  static SketchValue join(const SketchValue &lhs, const SketchValue &rhs);
  bool operator==(const SketchValue &other) const;
  void print(raw_ostream &os) const;

private:
  enum class State { Uninitialized, Known, None };
  SketchValue(State state, MNCSketchRef sketch)
      : state(state), sketch(std::move(sketch)) {}
  State state = State::Uninitialized;
  MNCSketchRef sketch;
};

using SketchLattice = dataflow::Lattice<SketchValue>;

class MNCSketchAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<SketchLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const SketchLattice *> operands,
                               ArrayRef<SketchLattice *> results) override;

  /// A function parameter with `amls.mnc` has that sketch; every other
  /// value the analysis cannot see into has none.
  void setToEntryState(SketchLattice *lattice) override;
};

/// The sparsity a sketch gives a value's type: its nnz over its cells,
/// rounded to two significant digits as the session rounds the inputs'.
double sketchedSparsity(const MNCSketch &sketch);

} // namespace mlir::amls

#endif // AMLS_ANALYSIS_MNCSKETCHANALYSIS_H
