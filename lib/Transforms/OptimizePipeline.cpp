//===- OptimizePipeline.cpp - The default AMLS optimizer ------------------===//
//
// --amls-optimize: inference, inter-procedural specialization and inlining,
// the static and size-dependent rewrites, CSE/canonicalization,
// matmul-chain ordering, loop-invariant code motion and loop vectorization,
// in two rounds: the
// first round's rewrites expose sizes (and rewrites) the second one uses, after
// which the programs in the tests and examples do not change any more.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSwitch.h"

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
                                       const OptimizeFamilies &families) {
  auto cleanUp = [&] {
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
  };
  pm.addPass(createAMLSInferProperties());
  if (families.interprocedural)
    pm.addPass(createAMLSInterprocedural());
  for (int round = 0; round < 2; ++round) {
    if (families.simplify)
      pm.addPass(createAMLSSimplify());
    cleanUp();
    pm.addPass(createAMLSInferProperties());
    if (families.simplifyDynamic) {
      pm.addPass(createAMLSSimplifyDynamic());
      cleanUp();
    }
    // Chains are ordered before loop-invariant code motion: hoisting the
    // invariant prefix of a chain (PageRank's e %*% u) would split it and
    // fix the order the chain was written in.
    if (families.matmulChain) {
      pm.addPass(createAMLSMatmulChain());
      pm.addPass(createAMLSInferProperties());
    }
    pm.addPass(createLoopInvariantCodeMotionPass());
    // After LICM, which moves the loop-invariant bounds and scalars that
    // the vectorization requires out of the loop.
    if (families.vectorizeLoops) {
      pm.addPass(createAMLSVectorizeLoops());
      cleanUp();
    }
  }
  pm.addPass(createAMLSInferProperties());
}

void mlir::amls::registerAMLSOptimizePipeline() {
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
}
