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
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class TypeConverter;
class ConversionTarget;
namespace amls {

#define GEN_PASS_DECL
#include "AMLS/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "AMLS/Conversion/Passes.h.inc"

/// Patterns lowering AMLS ops on dense matrices to linalg on tensors.
void populateAMLSToLinalgConversionPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns);

/// Options of the CPU lowering pipeline `amls-lower-to-llvm`.
struct LowerToLLVMOptions : public PassPipelineOptions<LowerToLLVMOptions> {
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Worker threads for parallel loops: 1 generates "
                     "sequential code, more use OpenMP"),
      llvm::cl::init(2)};
  PassOptions::Option<std::string> blas{
      *this, "blas",
      llvm::cl::desc("When dense products call BLAS: auto, always, never"),
      llvm::cl::init("auto")};
};

/// AMLS (after optimization) -> linalg -> bufferized loops -> LLVM dialect.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);
/// The two halves of it: AMLS -> linalg on tensors, and from there to LLVM.
void buildToLinalgPipeline(OpPassManager &pm);
/// The first stage of the second half: element-wise fusion, bufferization
/// and deallocation (`--amls-bufferize` after the first half).
void buildBufferizePipeline(OpPassManager &pm);
void buildLinalgToLLVMPipeline(OpPassManager &pm,
                               const LowerToLLVMOptions &options);
void registerAMLSPipelines();

} // namespace amls
} // namespace mlir

#endif // AMLS_CONVERSION_PASSES_H
