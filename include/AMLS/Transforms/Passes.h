//===- Passes.h - AMLS transformation passes --------------------*- C++ -*-===//

#ifndef AMLS_TRANSFORMS_PASSES_H
#define AMLS_TRANSFORMS_PASSES_H

#include "AMLS/Analysis/MatrixPropertyAnalysis.h"
#include "AMLS/CostModel/MatmulChain.h"
#include "AMLS/CostModel/SparsityEstimator.h"
#include "AMLS/Dialect/AMLSDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::amls {

#define GEN_PASS_DECL
#include "AMLS/Transforms/Passes.h.inc"

struct PropertyInferenceOptions {
  EstimatorKind estimator = EstimatorKind::AverageCase;
  /// Propagate the parameters' MNC sketches (amls.mnc) and take the
  /// sparsity of values with a sketch from it.
  bool mnc = true;
  /// Take amls.read's sizes from Matrix Market headers present now.
  bool fileMetadata = true;
  /// Set by the inter-procedural analysis; without it calls keep their
  /// declared result types.
  CallResultTypesFn callResultTypes;
};

/// The analysis and type refinement of --amls-infer-properties on `root`.
LogicalResult inferMatrixProperties(Operation *root,
                                    const PropertyInferenceOptions &options);

/// The static algebraic rewrites of --amls-simplify.
void populateSimplifyPatterns(RewritePatternSet &patterns);

/// The size-dependent rewrites of --amls-simplify-dynamic.
void populateSimplifyDynamicPatterns(RewritePatternSet &patterns);

/// The row-loop vectorization of --amls-vectorize-loops.
void populateVectorizeLoopsPatterns(RewritePatternSet &patterns);

/// Writes `module` as a Graphviz DOT graph of its ops
/// (--amls-print-plan-graph).
void writePlanGraph(ModuleOp module, raw_ostream &os);

/// Which rewrite families the optimizer runs (inference and cleanup always
/// do): all of them by default.
#define GEN_PASS_REGISTRATION
#include "AMLS/Transforms/Passes.h.inc"

} // namespace mlir::amls

#endif // AMLS_TRANSFORMS_PASSES_H
