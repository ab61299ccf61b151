//===- Passes.h - AMLS transformation passes --------------------*- C++ -*-===//

#ifndef AMLS_TRANSFORMS_PASSES_H
#define AMLS_TRANSFORMS_PASSES_H

#include "AMLS/Analysis/MatmulChain.h"
#include "AMLS/Analysis/SparsityEstimator.h"
#include "AMLS/Dialect/AMLSDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::amls {

#define GEN_PASS_DECL
#include "AMLS/Transforms/Passes.h.inc"

/// The static algebraic rewrites of --amls-simplify.
void populateSimplifyPatterns(RewritePatternSet &patterns);

/// The size-dependent rewrites of --amls-simplify-dynamic.
void populateSimplifyDynamicPatterns(RewritePatternSet &patterns);

/// Which rewrite families the optimizer runs (inference and cleanup always
/// do): all of them by default.
struct OptimizeFamilies {
  bool simplify = true;
  bool simplifyDynamic = true;
  bool matmulChain = true;
};

/// Parses a comma-separated list of `simplify`, `simplify-dynamic`,
/// `matmul-chain`, `all`, `none`.
FailureOr<OptimizeFamilies> parseOptimizeFamilies(StringRef list);

/// The --amls-optimize pipeline (amls-run's default).
void buildOptimizePipeline(OpPassManager &pm,
                           const OptimizeFamilies &families = {});
void registerAMLSOptimizePipeline();

#define GEN_PASS_REGISTRATION
#include "AMLS/Transforms/Passes.h.inc"

} // namespace mlir::amls

#endif // AMLS_TRANSFORMS_PASSES_H
