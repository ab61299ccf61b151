//===- Regions.cpp - Lower parfor and its yield ---------------------------===//
//
// amls.parfor runs its iterations in order (one correct schedule of
// independent iterations) as an scf.for carrying the shared matrices.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

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
        op->getParentOp()->hasAttr(kRowBlockLoopAttr))
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
