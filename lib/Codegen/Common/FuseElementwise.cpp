//===- FuseElementwise.cpp - Element-wise fusion that spares products -----===//
//
// Upstream's element-wise fusion pass with one change to its control: a
// reshape is not folded into or out of a contraction. The lowering views a
// reduction's input as blocks of rows (tensor.expand_shape) to sum them in
// parallel; folding that view into a product that produces the input turns
// the linalg.matmul into a generic loop nest that --amls-use-blas no longer
// calls BLAS for.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSFUSEELEMENTWISE
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;

namespace {

bool isContraction(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalg::isaContractionOpInterface(linalgOp);
}

/// Upstream's default: fuse a producer into its only user.
bool hasSingleUseProducer(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  return producer && producer->hasOneUse();
}

struct FuseElementwise
    : public amls::impl::AMLSFuseElementwiseBase<FuseElementwise> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // A reshape between a product and its user stays where it is: the
    // fused operand is the reshape's source (its producer the product) or
    // a consumer's operand produced by the reshape.
    linalg::ControlFusionFn reshapeControl = [](OpOperand *fused) {
      return hasSingleUseProducer(fused) &&
             !isContraction(fused->get().getDefiningOp()) &&
             !isContraction(fused->getOwner());
    };
    linalg::populateElementwiseOpsFusionPatterns(patterns,
                                                 hasSingleUseProducer);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, reshapeControl);
    tensor::populateBubbleUpExpandShapePatterns(patterns);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns,
                                                 hasSingleUseProducer);
    // Top-down, as upstream, for compile time.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns),
                                GreedyRewriteConfig().setUseTopDownTraversal());
  }
};

} // namespace
