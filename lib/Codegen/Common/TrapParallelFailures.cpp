//===- TrapParallelFailures.cpp - Failures inside parallel loops ----------===//
//
// --amls-trap-parallel-failures: every outermost scf.parallel that becomes
// an OpenMP region and whose body may fail at run time (a check, an
// allocation, a call) runs each iteration under a failure trap, so that a
// failure on any of the region's threads ends the program (or returns to
// an embedding host) after the region instead of ending the process from
// inside it (FailureTraps.h).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Common/FailureTraps.h"
#include "AMLS/Codegen/Passes.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSTRAPPARALLELFAILURES
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

struct TrapParallelFailuresPass
    : public mlir::amls::impl::AMLSTrapParallelFailuresBase<
          TrapParallelFailuresPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation()->walk([&](scf::ParallelOp loop) {
      // Loops nested in a parallel loop or a parfor's workers run inside
      // that region's iterations, which have their traps.
      if (loop->getParentOfType<scf::ParallelOp>() ||
          loop->getParentOfType<omp::ParallelOp>())
        return;
      if (mayFailAtRunTime(loop))
        loops.push_back(loop);
    });
    OpBuilder builder(&getContext());
    for (scf::ParallelOp loop : loops) {
      builder.setInsertionPoint(loop);
      Value record = openFailureRecord(builder, loop.getLoc(), loop);
      builder.setInsertionPointAfter(loop);
      closeFailureRecord(builder, loop.getLoc(), loop, record);
      Block *body = loop.getBody();
      trapFailures(builder, record, body->begin(),
                   Block::iterator(body->getTerminator()));
    }
  }
};

} // namespace
