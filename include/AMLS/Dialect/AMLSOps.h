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
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "AMLS/Dialect/AMLSOps.h.inc"

#endif // AMLS_DIALECT_AMLSOPS_H
