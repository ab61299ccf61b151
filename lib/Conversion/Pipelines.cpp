//===- Pipelines.cpp - Named AMLS pipelines -------------------------------===//

#include "AMLS/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

static void addPipeline(OpPassManager &pm, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("amls: invalid pass pipeline");
}

void mlir::amls::buildToLinalgPipeline(OpPassManager &pm) {
  addPipeline(pm, "convert-amls-to-linalg");
  // scf.for's ForOpTensorCastFolder narrows a loop-carried tensor to the
  // static type of its initial value (tensor.cast of 1x3 to ?x3 in, ?x3 to 1x3
  // out), which is wrong when the loop changes the size: `C = rbind(C, row)`
  // grows C every iteration. Inference already gave every loop-carried value
  // the most precise type that holds on all iterations, so nothing is lost.
  // The pattern's debug name is its type name as the compiler that built
  // libMLIR spells anonymous namespaces.
  std::string forOpTensorCastFolder[] = {
      "(anonymous namespace)::ForOpTensorCastFolder",
      "{anonymous}::ForOpTensorCastFolder"};
  pm.addPass(
      createCanonicalizerPass(GreedyRewriteConfig(), forOpTensorCastFolder));
}

void mlir::amls::buildBufferizePipeline(OpPassManager &pm) {
  // One-shot bufferization writes a tensor.insert_slice into its
  // destination's buffer where nothing reads the old value afterwards: a
  // left indexing X[i, ] = ... in a loop updates X in place instead of
  // copying it every iteration.
  addPipeline(pm, "func.func(linalg-fuse-elementwise-ops),"
                  "one-shot-bufferize{bufferize-function-boundaries "
                  "allow-return-allocs-from-loops "
                  "function-boundary-type-conversion=identity-layout-map},"
                  "buffer-deallocation-pipeline");
}

void mlir::amls::buildLinalgToLLVMPipeline(OpPassManager &pm,
                                           const LowerToLLVMOptions &options) {
  // The stages are upstream passes; spelling them as a pipeline keeps the
  // order readable and is what `--dump-pass-pipeline` shows.
  std::string parallelLoops =
      options.threads > 1
          ? llvm::formatv("func.func(scf-forall-to-parallel,"
                          "convert-linalg-to-parallel-loops,"
                          "amls-sequential-small-loops),"
                          "convert-scf-to-openmp{{num-threads={0}},",
                          unsigned(options.threads))
                .str()
          : "func.func(scf-forall-to-for,convert-linalg-to-loops),";
  buildBufferizePipeline(pm);
  std::string pipeline =
      "convert-bufferization-to-memref,"
      "amls-use-blas{mode=" +
      options.blas + "}," + parallelLoops +
      "expand-strided-metadata,lower-affine,"
      "finalize-memref-to-llvm{use-aligned-alloc},"
      "convert-math-to-llvm,convert-math-to-libm,convert-scf-to-cf,"
      "convert-openmp-to-llvm,convert-to-llvm,reconcile-unrealized-casts";
  addPipeline(pm, pipeline);
}

void mlir::amls::buildLowerToLLVMPipeline(OpPassManager &pm,
                                          const LowerToLLVMOptions &options) {
  buildToLinalgPipeline(pm);
  buildLinalgToLLVMPipeline(pm, options);
}

void mlir::amls::registerAMLSPipelines() {
  PassPipelineRegistration<>(
      "amls-bufferize",
      "Lower an AMLS program to linalg on buffers: --convert-amls-to-linalg, "
      "element-wise fusion, one-shot bufferization (in place where the "
      "program allows), deallocation",
      [](OpPassManager &pm) {
        buildToLinalgPipeline(pm);
        buildBufferizePipeline(pm);
      });
  PassPipelineRegistration<LowerToLLVMOptions>(
      "amls-lower-to-llvm",
      "Lower an AMLS program to the LLVM dialect for the CPU: linalg, "
      "bufferization, deallocation, BLAS for large products, parallel loops "
      "through OpenMP (threads > 1), then LLVM",
      buildLowerToLLVMPipeline);
}
