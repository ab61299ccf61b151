//===- Passes.h - AMLS conversion passes and pipelines ----------*- C++ -*-===//

#ifndef AMLS_CONVERSION_PASSES_H
#define AMLS_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace amls {

#define GEN_PASS_DECL
#include "AMLS/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "AMLS/Conversion/Passes.h.inc"

} // namespace amls
} // namespace mlir

#endif // AMLS_CONVERSION_PASSES_H
