//===- AMLSCells.h - Cell semantics of element-wise ops ---------*- C++ -*-===//
//
// The scalar function each element-wise op computes per cell, for code that
// computes it on scalars outside a matrix op (the DML frontend's scalar
// arithmetic). Scalars and matrices then share one definition and cannot
// disagree (round(NaN), sign(NaN), ...). docs/dml.md states the semantics.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSCELLS_H
#define AMLS_DIALECT_AMLSCELLS_H

#include "AMLS/Dialect/AMLSOps.h"

namespace mlir::amls {

/// Builds the cell computation of element-wise op `OpTy` (what its
/// ElementwiseOpInterface::buildCellComputation builds per cell) on scalar
/// `operands` of one float or integer type, without creating the op.
template <typename OpTy>
Value buildScalarCell(OpBuilder &b, Location loc, ValueRange operands) {
  // The cell builders take the op only to select the overload.
  return buildCell(OpTy(), b, loc, operands);
}

/// The i1 truth value of a comparison (or and/or/not/isNaN): the cell of
/// these ops is this condition as 1 or 0 in the element type. Operands may
/// also be i1 for the logical ops (non-zero is true).
#define AMLS_CONDITION_OPS(X)                                                  \
  X(LtOp)                                                                      \
  X(LeOp) X(GtOp) X(GeOp) X(EqOp) X(NeOp) X(AndOp) X(OrOp) X(NotOp) X(IsNaNOp)
#define AMLS_DECLARE_CONDITION(Op)                                             \
  Value buildCellCondition(Op op, OpBuilder &b, Location loc,                  \
                           ValueRange operands);
AMLS_CONDITION_OPS(AMLS_DECLARE_CONDITION)
#undef AMLS_DECLARE_CONDITION

template <typename OpTy>
Value buildScalarCondition(OpBuilder &b, Location loc, ValueRange operands) {
  return buildCellCondition(OpTy(), b, loc, operands);
}

} // namespace mlir::amls

#endif // AMLS_DIALECT_AMLSCELLS_H
