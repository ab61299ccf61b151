//===- Pipelines.cpp - Every named AMLS pipeline --------------------------===//
//
// --amls-optimize runs inference, inter-procedural specialization and
// inlining, the static and size-dependent rewrites, CSE/canonicalization,
// matmul-chain ordering, loop-invariant code motion and loop vectorization in
// two rounds: the first round's rewrites expose sizes (and rewrites) the
// second one uses, after which the programs in the tests and examples do not
// change any more. The CPU lowering's stages are upstream passes spelled as
// pipelines, which keeps the order readable and is what
// `--dump-pass-pipeline` shows.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/Passes.h"
#include "AMLS/Pipelines/Target.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::amls;

FailureOr<OptimizeFamilies> mlir::amls::parseOptimizeFamilies(StringRef list) {
  OptimizeFamilies families{false, false, false, false, false};
  SmallVector<StringRef> names;
  list.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    name = name.trim();
    if (name == "all")
      families = OptimizeFamilies();
    else if (name == "none")
      families = {false, false, false, false, false};
    else if (name == "simplify")
      families.simplify = true;
    else if (name == "simplify-dynamic")
      families.simplifyDynamic = true;
    else if (name == "matmul-chain")
      families.matmulChain = true;
    else if (name == "ipa")
      families.interprocedural = true;
    else if (name == "vectorize-loops")
      families.vectorizeLoops = true;
    else
      return failure();
  }
  return families;
}

void mlir::amls::buildOptimizePipeline(OpPassManager &pm,
                                       const OptimizeFamilies &families,
                                       StringRef sparsityEstimator) {
  auto cleanUp = [&] {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  };
  AMLSInferPropertiesOptions inference;
  inference.mnc = sparsityEstimator == "mnc";
  inference.estimator = sparsityEstimator == "worst"
                            ? EstimatorKind::WorstCase
                            : EstimatorKind::AverageCase;
  auto infer = [&] { pm.addPass(createAMLSInferProperties(inference)); };
  infer();
  if (families.interprocedural)
    pm.addPass(createAMLSInterprocedural());
  for (int round = 0; round < 2; ++round) {
    if (families.simplify)
      pm.addPass(createAMLSSimplify());
    cleanUp();
    infer();
    if (families.simplifyDynamic) {
      pm.addPass(createAMLSSimplifyDynamic());
      cleanUp();
    }
    // Chains are ordered before loop-invariant code motion: hoisting the
    // invariant prefix of a chain (PageRank's e %*% u) would split it and
    // fix the order the chain was written in.
    if (families.matmulChain) {
      // Sparsity-aware: a sparse factor is multiplied while its partner is
      // small, by its sketch's structure where the estimator has one.
      AMLSMatmulChainOptions chain;
      chain.mode = sparsityEstimator == "mnc" ? MatmulChainCost::MNC
                                              : MatmulChainCost::Sparse;
      pm.addPass(createAMLSMatmulChain(chain));
      infer();
    }
    pm.addPass(createLoopInvariantCodeMotionPass());
    // After LICM, which moves the loop-invariant bounds and scalars that
    // the vectorization requires out of the loop.
    if (families.vectorizeLoops) {
      pm.addPass(createAMLSVectorizeLoops());
      cleanUp();
    }
  }
  infer();
}

static void addPipeline(OpPassManager &pm, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("amls: invalid pass pipeline");
}

void mlir::amls::buildToLinalgPipeline(OpPassManager &pm, bool compensatedSums,
                                       StringRef schedule, StringRef entry) {
  registerBuiltinTargets(); // their schedules, which the pass looks up
  std::string recordFor = entry.empty() ? "" : (" entry=" + entry).str();
  addPipeline(pm, ("convert-amls-to-linalg{schedule=" + schedule + recordFor +
                   "}")
                      .str());
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
  // A distributed run's collectives (shard.all_reduce) to the runtime.
  pm.addPass(createAMLSLowerShardCollectives());
  pm.addPass(
      createCanonicalizerPass(GreedyRewriteConfig(), forOpTensorCastFolder));
  // Sums as SystemDS computes them (Kahan), before fusion merges loop nests.
  AMLSCompensateSumsOptions sums;
  sums.plain = !compensatedSums;
  pm.addPass(createAMLSCompensateSums(sums));
}

void mlir::amls::buildBufferizePipeline(OpPassManager &pm) {
  // One-shot bufferization writes a tensor.insert_slice into its
  // destination's buffer where nothing reads the old value afterwards: a
  // left indexing X[i, ] = ... in a loop updates X in place instead of
  // copying it every iteration.
  // Element-wise fusion leaves reshapes next to products alone (their
  // linalg.matmul stays a BLAS call); element-wise results are offered an
  // operand's buffer after fusion (whose RemoveOutsDependency pattern would
  // put the tensor.empty back):
  // `X = X + i` in a loop then updates X in place too.
  // A while loop whose update is a new buffer (`y = A %*% x`) forwards the
  // carried buffer uncopied where nothing writes it (ElideWhileCopies.cpp).
  // Results of unchecked parfor loops: one copy per worker, merged after.
  // A runtime-filled buffer that a call also reads directly (the
  // canonicalizer folded its to_buffer) is not written in place.
  addPipeline(pm, "func.func(amls-parfor-private-results,"
                  "amls-fuse-elementwise,"
                  "amls-elementwise-in-place,"
                  "amls-guard-aliased-buffers),"
                  "one-shot-bufferize{bufferize-function-boundaries "
                  "allow-return-allocs-from-loops "
                  "function-boundary-type-conversion=identity-layout-map},"
                  "func.func(amls-elide-while-copies),"
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
                          "amls-trap-parallel-failures,"
                          "convert-scf-to-openmp{{num-threads={0}},",
                          unsigned(options.threads))
                .str()
          : "func.func(scf-forall-to-for,convert-linalg-to-loops),";
  buildBufferizePipeline(pm);
  std::string pipeline =
      "convert-bufferization-to-memref,amls-check-buffer-sizes,"
      "amls-use-blas{mode=" +
      options.blas + "}," +
      (options.threads > 1 ? "amls-parfor-workers," : "") + parallelLoops +
      "expand-strided-metadata,lower-affine,"
      // Every buffer through the runtime's pool and budget (Memory.h).
      "finalize-memref-to-llvm{use-aligned-alloc use-generic-functions},"
      "convert-math-to-llvm,convert-math-to-libm,convert-scf-to-cf,"
      "convert-openmp-to-llvm,convert-to-llvm,reconcile-unrealized-casts";
  addPipeline(pm, pipeline);
}

std::string mlir::amls::checkNVVMOptions(StringRef chip, StringRef format,
                                         unsigned optLevel) {
  unsigned version = 0;
  StringRef rest = chip;
  if (!rest.consume_front("sm_") || rest.consumeInteger(10, version) ||
      (!rest.empty() && rest != "a") || version < 52)
    return "expected a GPU chip sm_NN (sm_52 or newer, e.g. sm_80, sm_90), "
           "found '" +
           chip.str() + "'";
  if (format != "isa" && format != "bin" && format != "fatbin")
    return "expected GPU format 'isa', 'bin' or 'fatbin', found '" +
           format.str() + "'";
  if (optLevel > 3)
    return "expected a GPU optimization level 0-3, found " +
           std::to_string(optLevel);
  return "";
}

/// The CUDA toolkit whose ptxas assembles kernels and whose libdevice
/// implements their math functions: the environment's (as MLIR looks for
/// it), else the one AMLS was configured with.
static std::string getDefaultCUDAToolkit() {
  for (const char *variable : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
    if (const char *value = std::getenv(variable); value && *value)
      return value;
#ifdef AMLS_CUDA_TOOLKIT_DIR
  return AMLS_CUDA_TOOLKIT_DIR;
#else
  return "";
#endif
}

void mlir::amls::buildLinalgToNVVMPipeline(OpPassManager &pm,
                                           const LowerToNVVMOptions &options) {
  buildBufferizePipeline(pm);
  // Kernels: the parallel loops whose bodies a GPU can run (no calls, no
  // allocations), tiled into thread blocks; loops nested in them run
  // sequentially in each thread. Dense products large enough for BLAS go
  // to cuBLAS (libamls_cuda_runtime). What stays on the CPU is lowered as
  // buildLinalgToLLVMPipeline lowers it (OpenMP).
  std::string cpuLoops =
      options.threads > 1
          ? llvm::formatv("func.func(amls-sequential-small-loops),"
                          "amls-trap-parallel-failures,"
                          "convert-scf-to-openmp{{num-threads={0}},",
                          unsigned(options.threads))
                .str()
          : ""; // convert-scf-to-cf runs them as sequential loops.
  std::string features =
      options.features.empty() ? "" : " features=" + options.features;
  // Without a toolkit, math functions would stay unresolved in the PTX.
  std::string toolkitPath = options.toolkit.empty()
                                ? getDefaultCUDAToolkit()
                                : options.toolkit.getValue();
  std::string toolkit = toolkitPath.empty() ? "" : " toolkit=" + toolkitPath;
  std::string pipeline =
      "convert-bufferization-to-memref,amls-check-buffer-sizes,"
      "amls-use-blas{library=cublas mode=" +
      options.blas +
      "},"
      "func.func(scf-forall-to-parallel,amls-parallel-dims-first,"
      "convert-linalg-to-parallel-loops,amls-fold-reduction-inits,"
      "amls-map-parallel-loops-to-gpu{"
      "min-work=" +
      std::to_string(options.minWork) +
      "}),"
      "convert-parallel-loops-to-gpu,amls-prefetch-gpu-buffers," +
      cpuLoops +
      // The host's loops keep their structured form until
      // finalize-memref-to-llvm has lowered OpenMP's alloca scopes, as in
      // the CPU pipeline; the kernels' loops become branches first.
      "gpu-kernel-outlining,expand-strided-metadata,lower-affine,"
      "nvvm-attach-target{chip=" +
      options.chip + features + " O=" + std::to_string(options.optLevel) +
      "},"
      "gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,canonicalize,cse,"
      "reconcile-unrealized-casts),"
      // Every host buffer through the runtime's pool, which the GPU target
      // backs with managed memory (CUDA.h).
      "finalize-memref-to-llvm{use-aligned-alloc use-generic-functions},"
      "convert-math-to-llvm,convert-math-to-libm,convert-scf-to-cf,"
      "convert-openmp-to-llvm,gpu-to-llvm,convert-to-llvm,"
      "reconcile-unrealized-casts,"
      "gpu-module-to-binary{format=" +
      options.format + toolkit + "}";
  addPipeline(pm, pipeline);
}

void mlir::amls::buildHostLoweringPipeline(OpPassManager &pm,
                                           const CompileOptions &options) {
  LowerToLLVMOptions lowering;
  lowering.threads = options.threads;
  lowering.blas = options.blas;
  buildLinalgToLLVMPipeline(pm, lowering);
}

void mlir::amls::buildLowerToLLVMPipeline(OpPassManager &pm,
                                          const LowerToLLVMOptions &options) {
  buildToLinalgPipeline(pm);
  buildLinalgToLLVMPipeline(pm, options);
}

std::string mlir::amls::checkCompileOptions(const CompileOptions &options) {
  if (failed(parseOptimizeFamilies(options.rewrites)))
    return "expected rewrite families from simplify, simplify-dynamic, "
           "matmul-chain, ipa, vectorize-loops, all, none; found '" +
           options.rewrites + "'";
  StringRef fusion = options.fusion;
  if (fusion != "cost" && fusion != "fuse-all" &&
      fusion != "fuse-no-redundancy" && fusion != "none")
    return "expected fusion 'cost', 'fuse-all', 'fuse-no-redundancy' or "
           "'none', found '" +
           options.fusion + "'";
  StringRef sums = options.sums;
  if (sums != "kahan" && sums != "plain")
    return "expected sums 'kahan' or 'plain', found '" + options.sums + "'";
  const Target *target = lookupTarget(options.target);
  if (!target)
    return "expected target " + listTargetNames() + ", found '" +
           options.target + "'";
  if (std::string problem = target->checkOptions(options); !problem.empty())
    return problem;
  StringRef estimator = options.sparsityEstimator;
  if (estimator != "mnc" && estimator != "metadata" && estimator != "worst")
    return "expected sparsity-estimator 'mnc', 'metadata' or 'worst', found "
           "'" + options.sparsityEstimator + "'";
  StringRef formats = options.formats;
  if (formats != "auto" && formats != "dense" && formats != "csr" &&
      formats != "compressed")
    return "expected formats 'auto', 'dense', 'csr' or 'compressed', found '" +
           options.formats + "'";
  return "";
}

void mlir::amls::buildCompileToPlanPipeline(OpPassManager &pm,
                                            const CompileOptions &options) {
  FailureOr<OptimizeFamilies> families =
      parseOptimizeFamilies(options.rewrites);
  if (failed(families))
    llvm::report_fatal_error("amls: invalid rewrite families (check them "
                             "with checkCompileOptions first)");
  buildOptimizePipeline(pm, *families, options.sparsityEstimator);
  // parfor's legality is checked at every optimization level.
  AMLSParforOptions parfor;
  parfor.threads = options.threads;
  parfor.memoryLimit = options.memoryLimit;
  parfor.explain = options.parforExplain;
  pm.addPass(createAMLSParfor(parfor));
  AMLSSelectFormatsOptions formats;
  // Compressed: CSR as in auto, then the loops' products compressed.
  bool compressed = options.formats == "compressed";
  formats.mode = compressed ? std::string("auto") : options.formats.getValue();
  formats.explain = options.formatsExplain;
  formats.actualNnz = options.formatsActualNnz;
  formats.csrResults = options.csrResults;
  pm.addPass(createAMLSSelectFormats(formats));
  // After the formats, whose choice needs the whole matrices' sizes; before
  // fusion, which fuses each rank's operators on its blocks.
  const Target *target = lookupTarget(options.target);
  if (target && target->partitionsRows()) {
    AMLSDistributeOptions distribute;
    distribute.minCells = options.distributeMinCells;
    distribute.explain = options.distributeExplain;
    pm.addPass(createAMLSDistribute(distribute));
  }
  // After the formats (a CSR matrix compresses from its arrays); before
  // fusion, which leaves the products on a compressed matrix to the
  // runtime's kernels and fuses the element-wise work around them (fused
  // first, t(X) %*% (a * b) would read X dense or CSR in a row operator).
  // auto: only where the session saw data that looks compressible
  // (amls.compressible parameters), on the host targets that run whole
  // matrices (the compressed kernels are the host runtime's, on one
  // process); compressed: every candidate.
  bool hostWhole =
      target && !target->partitionsRows() && !target->runsOnDevice();
  if (compressed || (options.formats == "auto" && hostWhole)) {
    AMLSSelectCompressionOptions compression;
    compression.explain = options.formatsExplain;
    compression.onlyCompressible = !compressed;
    pm.addPass(createAMLSSelectCompression(compression));
  }
  if (options.fusion != "none") {
    AMLSFuseOptions fuse;
    fuse.fuseAll = options.fusion == "fuse-all";
    fuse.fuseNoRedundancy = options.fusion == "fuse-no-redundancy";
    fuse.explain = options.fusionExplain;
    pm.addPass(createAMLSFuse(fuse));
  }
  if (options.memoryLimit) {
    AMLSCheckMemoryOptions memory;
    memory.limit = options.memoryLimit;
    pm.addPass(createAMLSCheckMemory(memory));
  }
}

void mlir::amls::buildPlanToLinalgPipeline(OpPassManager &pm,
                                           const CompileOptions &options) {
  buildToLinalgPipeline(pm, options.sums != "plain", options.target,
                        options.wrapEntry);
  if (!options.wrapEntry.empty()) {
    AMLSWrapEntryOptions wrap;
    wrap.entry = options.wrapEntry;
    pm.addPass(createAMLSWrapEntry(wrap));
  }
}

void mlir::amls::buildCompileToLinalgPipeline(OpPassManager &pm,
                                              const CompileOptions &options) {
  buildCompileToPlanPipeline(pm, options);
  buildPlanToLinalgPipeline(pm, options);
}

void mlir::amls::buildCompileToLLVMPipeline(OpPassManager &pm,
                                            const CompileOptions &options) {
  const Target *target = lookupTarget(options.target);
  if (!target)
    llvm::report_fatal_error("amls: unknown target (check it with "
                             "checkCompileOptions first)");
  target->buildLoweringPipeline(pm, options);
}

void mlir::amls::buildCompilePipeline(OpPassManager &pm,
                                      const CompileOptions &options) {
  buildCompileToLinalgPipeline(pm, options);
  buildCompileToLLVMPipeline(pm, options);
}

void mlir::amls::registerAMLSPipelines() {
  // --convert-amls-to-linalg finds the targets' schedules by name.
  registerBuiltinTargets();
  PassPipelineRegistration<>(
      "amls-optimize",
      "The AMLS optimizer: property inference, --amls-ipa, --amls-simplify, "
      "--amls-simplify-dynamic, CSE/canonicalization, --amls-matmul-chain, "
      "loop-invariant code motion and --amls-vectorize-loops, in two rounds",
      [](OpPassManager &pm) { buildOptimizePipeline(pm); });
  PassPipelineRegistration<>(
      "amls-fuse-explain",
      "--amls-fuse=explain: fuse and print the memo table, partitions, "
      "interesting points, plans with their costs and the chosen operators",
      [](OpPassManager &pm) {
        AMLSFuseOptions options;
        options.explain = true;
        pm.addPass(createAMLSFuse(options));
      });
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
  registerPassPipeline(
      "amls-compile",
      "The end-to-end compile amls-run and amls-translate run: "
      "--amls-optimize, --amls-fuse, --amls-lower-to-llvm (and "
      "--amls-wrap-entry with wrap-entry=NAME)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        CompileOptions options;
        if (failed(options.parseFromString(text)))
          return failure();
        std::string problem = checkCompileOptions(options);
        if (!problem.empty())
          return errorHandler("amls-compile: " + problem);
        buildCompilePipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
        handler(CompileOptions());
      });
}
