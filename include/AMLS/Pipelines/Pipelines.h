//===- Pipelines.h - Every named AMLS pipeline ------------------*- C++ -*-===//
//
// The pipelines the tools share, built in one place: the optimizer, fusion,
// the CPU lowering in its stages, and the one end-to-end compile that
// amls-run, `amls-translate --amls-to-llvmir` and `amls-opt --amls-compile`
// all run, so that the tools cannot drift apart.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_PIPELINES_PIPELINES_H
#define AMLS_PIPELINES_PIPELINES_H

#include "AMLS/Pipelines/Target.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir::amls {

/// The optimizer's rewrite families (amls-run --rewrites=...).
struct OptimizeFamilies {
  bool simplify = true;
  bool simplifyDynamic = true;
  bool matmulChain = true;
  /// Inter-procedural specialization and inlining (--amls-ipa).
  bool interprocedural = true;
  /// Row loops as block operations (--amls-vectorize-loops).
  bool vectorizeLoops = true;
};

/// Parses a comma-separated list of `simplify`, `simplify-dynamic`,
/// `matmul-chain`, `ipa`, `vectorize-loops`, `all`, `none`.
FailureOr<OptimizeFamilies> parseOptimizeFamilies(StringRef list);

/// The --amls-optimize pipeline: inference, --amls-ipa, the rewrites,
/// CSE/canonicalization, matmul chains, LICM and loop vectorization, in two
/// rounds.
/// `sparsityEstimator`: mnc (MNC sketches where the parameters carry them,
/// the average-case metadata estimator elsewhere), metadata or worst.
void buildOptimizePipeline(OpPassManager &pm,
                           const OptimizeFamilies &families = {},
                           StringRef sparsityEstimator = "mnc");

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

/// Options of the GPU lowering pipeline `amls-lower-to-nvvm`.
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Worker threads for the loops that stay on the CPU: 1 "
                     "generates sequential code, more use OpenMP"),
      llvm::cl::init(2)};
  PassOptions::Option<std::string> blas{
      *this, "blas",
      llvm::cl::desc("When dense products call BLAS: auto, always, never"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("The GPU the kernels are compiled for (sm_80, sm_90, "
                     "...)"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features, e.g. +ptx80; empty: the lowest PTX "
                     "version that supports the chip"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What the kernels are embedded as: isa (PTX, compiled "
                     "by the driver at load), bin (cubin) or fatbin (cubin "
                     "and PTX; bin and fatbin run ptxas)"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("Optimization level of the kernels (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<int64_t> minWork{
      *this, "min-work",
      llvm::cl::desc("Loops over buffers of at most 64 KiB with less work "
                     "run on the CPU (--amls-map-parallel-loops-to-gpu's "
                     "cost rule); 0 makes every loop a kernel can run one"),
      llvm::cl::init(65536)};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("The CUDA toolkit whose libdevice implements the "
                     "kernels' math functions and whose ptxas assembles bin "
                     "and fatbin (empty: $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH, "
                     "else the toolkit AMLS was configured with)"),
      llvm::cl::init("")};
};

/// What is wrong with the GPU options (a chip that is not sm_NN, a format
/// other than isa/bin/fatbin), or an empty string.
std::string checkNVVMOptions(StringRef chip, StringRef format,
                             unsigned optLevel);

/// Linalg on tensors -> bufferized loops -> kernels for the GPU, the rest
/// as for the CPU -> LLVM dialect with the kernels serialized.
void buildLinalgToNVVMPipeline(OpPassManager &pm,
                               const LowerToNVVMOptions &options);

/// AMLS (after optimization) -> linalg -> bufferized loops -> LLVM dialect.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMOptions &options);
/// The two halves of it: AMLS -> linalg on tensors, and from there to LLVM.
/// `compensatedSums`: --amls-compensate-sums makes the aggregates' sums
/// Kahan sums (otherwise they stay plain, reassociable sums).
/// `schedule`: the target whose LoweringSchedule shapes reductions (cpu,
/// gpu). `entry`: the function --amls-wrap-entry will wrap, whose result
/// kinds the conversion records (none when empty).
void buildToLinalgPipeline(OpPassManager &pm, bool compensatedSums = true,
                           StringRef schedule = kDefaultTargetName,
                           StringRef entry = "");
void buildLinalgToLLVMPipeline(OpPassManager &pm,
                               const LowerToLLVMOptions &options);
/// The first stage of the second half: element-wise fusion, bufferization
/// and deallocation (`--amls-bufferize` after the first half).
void buildBufferizePipeline(OpPassManager &pm);

struct CompileOptions;
/// The host's lowering from linalg on tensors to LLVM with the compile's
/// threads and BLAS mode: the CPU target's, and each MPI rank's.
void buildHostLoweringPipeline(OpPassManager &pm,
                               const CompileOptions &options);

/// Options of the end-to-end compile (`amls-compile`).
struct CompileOptions : public PassPipelineOptions<CompileOptions> {
  PassOptions::Option<std::string> rewrites{
      *this, "rewrites",
      llvm::cl::desc("The optimizer's rewrite families: a comma-separated "
                     "list of simplify, simplify-dynamic, matmul-chain, ipa, "
                     "vectorize-loops, or all / none"),
      llvm::cl::init("all")};
  PassOptions::Option<std::string> fusion{
      *this, "fusion",
      llvm::cl::desc("Operator fusion: cost (cost-based plans), fuse-all, "
                     "fuse-no-redundancy or none"),
      llvm::cl::init("cost")};
  PassOptions::Option<bool> fusionExplain{
      *this, "fusion-explain",
      llvm::cl::desc("Print the fusion plans on stderr"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> formats{
      *this, "formats",
      llvm::cl::desc("Storage formats (--amls-select-formats): auto "
                     "(sparsity-based), dense, csr (CSR wherever a kernel "
                     "exists), compressed (auto, and the matrices a loop "
                     "multiplies compressed)"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> sparsityEstimator{
      *this, "sparsity-estimator",
      llvm::cl::desc("Sparsity estimates of intermediates: mnc (the MNC "
                     "sketches of the data the session sees, metadata "
                     "elsewhere), metadata (average case from nnz only) or "
                     "worst (upper bounds)"),
      llvm::cl::init("mnc")};
  PassOptions::Option<bool> formatsExplain{
      *this, "formats-explain",
      llvm::cl::desc("Print the CSR matrices and conversions on stderr"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> formatsActualNnz{
      *this, "formats-actual-nnz",
      llvm::cl::desc("With formats-explain, the program reports each "
                     "product's non-zeros on stderr once computed"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> csrResults{
      *this, "csr-results",
      llvm::cl::desc("The entry returns the matrices it computes CSR as CSR "
                     "(--amls-select-formats's csr-results)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> parforExplain{
      *this, "parfor-explain",
      llvm::cl::desc("Print each parfor's dependency analysis and plan on "
                     "stderr"),
      llvm::cl::init(false)};
  PassOptions::Option<uint64_t> memoryLimit{
      *this, "memory-limit",
      llvm::cl::desc("Reject values whose known size exceeds this many "
                     "bytes (--amls-check-memory); 0 checks nothing"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> wrapEntry{
      *this, "wrap-entry",
      llvm::cl::desc("Adapt this entry function to the execution session's "
                     "ABI (--amls-wrap-entry); none when empty"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Worker threads for parallel loops: 1 generates "
                     "sequential code, more use OpenMP"),
      llvm::cl::init(2)};
  PassOptions::Option<std::string> sums{
      *this, "sums",
      llvm::cl::desc("How aggregates sum: kahan (compensated, as SystemDS) "
                     "or plain"),
      llvm::cl::init("kahan")};
  PassOptions::Option<std::string> blas{
      *this, "blas",
      llvm::cl::desc("When dense products call BLAS: auto, always, never"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Where the program runs: cpu, or gpu (its parallel "
                     "loops as CUDA kernels, the rest on the CPU)"),
      llvm::cl::init(kDefaultTargetName.str())};
  PassOptions::Option<int64_t> distributeMinCells{
      *this, "distribute-min-cells",
      llvm::cl::desc("target=mpi: the cells from which a read matrix is "
                     "split by rows over the ranks (--amls-distribute)"),
      llvm::cl::init(100000)};
  PassOptions::Option<bool> distributeExplain{
      *this, "distribute-explain",
      llvm::cl::desc("target=mpi: print each op's distributed form on "
                     "stderr"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> gpuChip{
      *this, "gpu-chip",
      llvm::cl::desc("target=gpu: the chip the kernels are compiled for"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<std::string> gpuFeatures{
      *this, "gpu-features",
      llvm::cl::desc("target=gpu: PTX features (empty: the chip's lowest)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> gpuFormat{
      *this, "gpu-format", llvm::cl::desc("target=gpu: isa, bin or fatbin"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<int64_t> gpuMinWork{
      *this, "gpu-min-work",
      llvm::cl::desc("target=gpu: the cost rule's work below which small "
                     "loops run on the CPU (0: every loop a kernel can run "
                     "is one)"),
      llvm::cl::init(65536)};
};

/// What is wrong with `options` (rewrite families or fusion mode they do not
/// name), or an empty string.
std::string checkCompileOptions(const CompileOptions &options);

/// The end-to-end compile in its two stages: the program as the optimizer,
/// fusion and the lowering to linalg leave it (plus the entry wrapper), and
/// from there the CPU lowering to the LLVM dialect. amls-run times them
/// apart; everything else runs buildCompilePipeline.
void buildCompileToLinalgPipeline(OpPassManager &pm,
                                  const CompileOptions &options);
/// The first stage in two: the plan (AMLS IR after the optimizer, formats,
/// distribution, fusion and the memory check: what writePlanGraph draws),
/// and its lowering to linalg with the entry wrapper.
void buildCompileToPlanPipeline(OpPassManager &pm,
                                const CompileOptions &options);
void buildPlanToLinalgPipeline(OpPassManager &pm,
                               const CompileOptions &options);
void buildCompileToLLVMPipeline(OpPassManager &pm,
                                const CompileOptions &options);
/// Both stages: AMLS as a frontend wrote it to the LLVM dialect.
void buildCompilePipeline(OpPassManager &pm, const CompileOptions &options);

/// Registers amls-optimize, amls-fuse-explain, amls-bufferize,
/// amls-lower-to-llvm, amls-lower-to-nvvm and amls-compile.
void registerAMLSPipelines();

/// The dialects, pass registrations and LLVM IR translations that a context
/// running these pipelines needs (an execution session's, amls-translate's).
void registerPipelineDialects(DialectRegistry &registry);

} // namespace mlir::amls

#endif // AMLS_PIPELINES_PIPELINES_H
