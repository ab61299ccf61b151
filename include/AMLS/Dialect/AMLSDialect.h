//===- AMLSDialect.h - AMLS dialect -----------------------------*- C++ -*-===//

#ifndef AMLS_DIALECT_AMLSDIALECT_H
#define AMLS_DIALECT_AMLSDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/Dialect.h"

#include "AMLS/Dialect/AMLSOpsDialect.h.inc"

#endif // AMLS_DIALECT_AMLSDIALECT_H
