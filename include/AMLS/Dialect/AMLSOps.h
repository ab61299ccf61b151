//===- AMLSOps.h - AMLS operations ------------------------------*- C++ -*-===//

#ifndef AMLS_DIALECT_AMLSOPS_H
#define AMLS_DIALECT_AMLSOPS_H

#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSInterfaces.h"
#include "AMLS/Dialect/AMLSTypes.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/CastInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "AMLS/Dialect/AMLSOps.h.inc"

namespace mlir::amls {
/// The cell computation of each element-wise op (ElementwiseOpInterface),
/// as arith/math IR on scalars of the element type.
#define AMLS_CELL_OPS(X)                                                       \
  X(AddOp)                                                                     \
  X(SubOp)                                                                     \
  X(MulOp)                                                                     \
  X(DivOp)                                                                     \
  X(PowOp) X(MinOp) X(MaxOp) X(ModOp) X(IntDivOp) X(LtOp) X(LeOp) X(GtOp)      \
      X(GeOp) X(EqOp) X(NeOp) X(AndOp) X(OrOp) X(BitwAndOp) X(BitwOrOp)        \
          X(BitwXorOp) X(BitwShiftLOp) X(BitwShiftROp) X(NegOp) X(NotOp)       \
              X(AbsOp) X(ExpOp) X(LogOp) X(SqrtOp) X(RoundOp) X(FloorOp)       \
                  X(CeilOp) X(SignOp) X(SigmoidOp) X(SinOp) X(CosOp) X(TanhOp) \
                      X(TanOp) X(AsinOp) X(AcosOp) X(AtanOp) X(SinhOp)         \
                          X(CoshOp) X(IsNaNOp) X(IfElseOp)
#define AMLS_DECLARE_CELL(Op)                                                  \
  Value buildCell(Op op, OpBuilder &b, Location loc, ValueRange cells);
AMLS_CELL_OPS(AMLS_DECLARE_CELL)
#undef AMLS_DECLARE_CELL

/// Gives `value` the (more precise, compatible) matrix type `type`. Uses
/// that need the type they were built with (ops of other dialects such as
/// calls and returns, region-branch edges) read it through an `amls.cast`,
/// which inference removes where it can (after an `amls.convert` where
/// `type` is in another format).
void refineValueType(Value value, Type type);
} // namespace mlir::amls

#endif // AMLS_DIALECT_AMLSOPS_H
