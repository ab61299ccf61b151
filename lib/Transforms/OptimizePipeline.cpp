//===- OptimizePipeline.cpp - The default AMLS optimizer ------------------===//
//
// --amls-optimize: inference, the static and size-dependent rewrites,
// CSE/canonicalization, loop-invariant code motion and matmul-chain
// ordering, in two rounds: the first round's rewrites expose sizes (and
// rewrites) the second one uses, after which the programs in the tests and
// examples do not change any more.
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
  OptimizeFamilies families{false, false, false};
  SmallVector<StringRef> names;
  list.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    name = name.trim();
    if (name == "all")
      families = OptimizeFamilies();
    else if (name == "none")
      families = {false, false, false};
    else if (name == "simplify")
      families.simplify = true;
    else if (name == "simplify-dynamic")
      families.simplifyDynamic = true;
    else if (name == "matmul-chain")
      families.matmulChain = true;
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
  for (int round = 0; round < 2; ++round) {
    if (families.simplify)
      pm.addPass(createAMLSSimplify());
    cleanUp();
    pm.addPass(createLoopInvariantCodeMotionPass());
    pm.addPass(createAMLSInferProperties());
    if (families.simplifyDynamic) {
      pm.addPass(createAMLSSimplifyDynamic());
      cleanUp();
    }
    if (families.matmulChain) {
      pm.addPass(createAMLSMatmulChain());
      pm.addPass(createAMLSInferProperties());
    }
  }
}

void mlir::amls::registerAMLSOptimizePipeline() {
  PassPipelineRegistration<>(
      "amls-optimize",
      "The AMLS optimizer: property inference, --amls-simplify, "
      "--amls-simplify-dynamic, CSE/canonicalization, loop-invariant code "
      "motion and --amls-matmul-chain, in two rounds",
      [](OpPassManager &pm) { buildOptimizePipeline(pm); });
}
