//===- MatrixPropertyAnalysis.h - Sizes and sparsity of values --*- C++ -*-===//
//
// A sparse forward data-flow analysis over the type lattice of matrix values
// (sizes and sparsity: known below unknown). MLIR's DataFlowSolver runs it
// together with dead-code analysis and sparse constant propagation; region
// control flow (scf.if, scf.for, scf.while, amls.parfor) is handled through
// RegionBranchOpInterface, joining the types flowing into each region and
// iterating loops to a fixpoint. Each op's rule is its
// InferMatrixPropertiesInterface. --amls-infer-properties writes the result
// back into the IR.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_ANALYSIS_MATRIXPROPERTYANALYSIS_H
#define AMLS_ANALYSIS_MATRIXPROPERTYANALYSIS_H

#include "AMLS/CostModel/SparsityEstimator.h"
#include "AMLS/Dialect/AMLSInterfaces.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Interfaces/CallInterfaces.h"

#include <functional>
#include <optional>

namespace mlir::amls {

/// The result types of a call given its operands' inferred types and
/// constant values (null where not constant); std::nullopt leaves the
/// call's declared result types.
using CallResultTypesFn = std::function<std::optional<SmallVector<Type>>(
    CallOpInterface call, ArrayRef<Type> operandTypes,
    ArrayRef<Attribute> operandConstants)>;

/// The most precise type known for a value; uninitialized before the
/// analysis reached it.
class MatrixTypeValue {
public:
  MatrixTypeValue() = default;
  explicit MatrixTypeValue(Type type) : type(type) {}

  bool isUninitialized() const { return !type; }
  Type getType() const { return type; }

  static MatrixTypeValue join(const MatrixTypeValue &lhs,
                              const MatrixTypeValue &rhs) {
    if (lhs.isUninitialized())
      return rhs;
    if (rhs.isUninitialized())
      return lhs;
    return MatrixTypeValue(joinTypes(lhs.type, rhs.type));
  }

  bool operator==(const MatrixTypeValue &other) const {
    return type == other.type;
  }

  void print(raw_ostream &os) const {
    if (type)
      os << type;
    else
      os << "<uninitialized>";
  }

private:
  Type type;
};

using MatrixTypeLattice = dataflow::Lattice<MatrixTypeValue>;
using ConstantLattice = dataflow::Lattice<dataflow::ConstantValue>;

class MatrixPropertyAnalysis
    : public dataflow::SparseForwardDataFlowAnalysis<MatrixTypeLattice> {
public:
  MatrixPropertyAnalysis(DataFlowSolver &solver,
                         const SparsityEstimator &estimator, bool fileMetadata,
                         const CallResultTypesFn &callResultTypes,
                         bool useSketches = false)
      : SparseForwardDataFlowAnalysis(solver), estimator(estimator),
        fileMetadata(fileMetadata), useSketches(useSketches),
        callResultTypes(callResultTypes) {}

  /// Applies the op's InferMatrixPropertiesInterface rule once all operand
  /// types and constants are known.
  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const MatrixTypeLattice *> operands,
                               ArrayRef<MatrixTypeLattice *> results) override;

  /// Calls take their result types from the inter-procedural analysis
  /// when it provides them (the callee specialized to the operands' types).
  void visitExternalCall(CallOpInterface call,
                         ArrayRef<const MatrixTypeLattice *> operands,
                         ArrayRef<MatrixTypeLattice *> results) override;

  /// Values the analysis cannot see into keep their declared types.
  void setToEntryState(MatrixTypeLattice *lattice) override;

private:
  /// `type` with the sparsity of `result`'s MNC sketch, where it has one.
  Type withSketchedSparsity(Operation *op, Value result, Type type);

  const SparsityEstimator &estimator;
  bool fileMetadata;
  /// Whether an MNCSketchAnalysis runs in the same solver: a result with a
  /// sketch takes its sparsity from it.
  bool useSketches;
  const CallResultTypesFn &callResultTypes;

  /// The operands' types and constant values (null where not constant);
  /// false until all are known, so that an early imprecise result does not
  /// stick in the (monotone) lattice.
  bool getOperandFacts(Operation *op,
                       ArrayRef<const MatrixTypeLattice *> operands,
                       SmallVectorImpl<Type> &operandTypes,
                       SmallVectorImpl<Attribute> &constants);
};

/// MLIR's sparse constant propagation, which also knows `nrow` and `ncol`
/// of a matrix whose inferred size is known: a size query on a value
/// declared `?` (a loop-carried matrix) is a constant once the matrix
/// analysis has found its size. Without it, `q[m, ]` (columns 0 to
/// ncol(q)) of a loop's 101x1 vector is 1x? and makes the whole loop `?`.
class SizeQueryConstantPropagation
    : public dataflow::SparseConstantPropagation {
public:
  using SparseConstantPropagation::SparseConstantPropagation;

  LogicalResult visitOperation(Operation *op,
                               ArrayRef<const ConstantLattice *> operands,
                               ArrayRef<ConstantLattice *> results) override;
};

} // namespace mlir::amls

#endif // AMLS_ANALYSIS_MATRIXPROPERTYANALYSIS_H
