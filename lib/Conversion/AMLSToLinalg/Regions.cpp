//===- Regions.cpp - Lower parfor and its yield ---------------------------===//
//
// amls.parfor becomes an scf.for carrying the shared matrices: running the
// iterations in order is one correct schedule of independent iterations.
// A parfor that --amls-parfor planned for several workers marks its loop
// with the plan; after bufferization has made the shared matrices one
// buffer each, --amls-parfor-workers runs such a loop on the workers.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "AMLS/Codegen/Passes.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

/// The iterations of a parfor are independent, so running them in order is
/// one correct schedule; the parallel plan is chosen by --amls-parfor.
struct LowerParfor : public AMLSPattern<ParforOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(ParforOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto loop = scf::ForOp::create(rewriter, loc, adaptor.getLowerBound(),
                                   adaptor.getUpperBound(), adaptor.getStep(),
                                   adaptor.getShared());
    rewriter.eraseBlock(loop.getBody());
    rewriter.inlineRegionBefore(op.getBody(), loop.getRegion(),
                                loop.getRegion().end());
    if (failed(rewriter.convertRegionTypes(&loop.getRegion(),
                                           *getTypeConverter())))
      return failure();
    if (op.getIndependent() && op.getWorkers().value_or(1) > 1) {
      auto plan = ParforPlanAttr::get(
          op.getContext(), *op.getWorkers(),
          op.getPartitioner().value_or(ParforPartitioner::Factoring),
          op.getTaskSize().value_or(1), op.getInnerThreads().value_or(1),
          op.getResultMergeAttr());
      loop->setAttr(AMLSDialect::getParforPlanAttrName(), plan);
    }
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

struct LowerParforYield : public AMLSPattern<YieldOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Also the body of a row-template operator run on an empty block.
    if (!isa<scf::ForOp, scf::ExecuteRegionOp>(op->getParentOp()) ||
        op->getParentOp()->hasAttr(AMLSDialect::getRowBlockLoopAttrName()))
      return failure();
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    return success();
  }
};

/// The yield of a row-template body inlined into its loop over blocks of
/// rows: partial results are combined with the loop's accumulators, blocks

} // namespace

void mlir::amls::populateAMLSRegionLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerParfor, LowerParforYield>(patterns, converter, schedule);
}
