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
void buildOptimizePipeline(OpPassManager &pm,
                           const OptimizeFamilies &families = {});

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
/// `compensatedSums`: --amls-compensate-sums makes the aggregates' sums
/// Kahan sums (otherwise they stay plain, reassociable sums).
void buildToLinalgPipeline(OpPassManager &pm, bool compensatedSums = true);
void buildLinalgToLLVMPipeline(OpPassManager &pm,
                               const LowerToLLVMOptions &options);
/// The first stage of the second half: element-wise fusion, bufferization
/// and deallocation (`--amls-bufferize` after the first half).
void buildBufferizePipeline(OpPassManager &pm);

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
                     "exists)"),
      llvm::cl::init("auto")};
  PassOptions::Option<bool> formatsExplain{
      *this, "formats-explain",
      llvm::cl::desc("Print the CSR matrices and conversions on stderr"),
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
void buildCompileToLLVMPipeline(OpPassManager &pm,
                                const CompileOptions &options);
/// Both stages: AMLS as a frontend wrote it to the LLVM dialect.
void buildCompilePipeline(OpPassManager &pm, const CompileOptions &options);

/// Registers amls-optimize, amls-fuse-explain, amls-bufferize,
/// amls-lower-to-llvm and amls-compile.
void registerAMLSPipelines();

} // namespace mlir::amls

#endif // AMLS_PIPELINES_PIPELINES_H
