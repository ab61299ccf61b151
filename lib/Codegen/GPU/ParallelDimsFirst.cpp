//===- ParallelDimsFirst.cpp - Parallel dimensions outermost for the GPU --===//
//
// A split reduction iterates (blocks, cells of a block, lanes): parallel,
// reduction, parallel. --convert-linalg-to-parallel-loops makes one
// scf.parallel of the leading parallel dimensions only, so the lanes would
// be a loop inside each thread, whose accesses are a row apart from the
// next thread's. With the parallel dimensions first, blocks and lanes are
// both threads and a warp's lanes read consecutive cells.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSPARALLELDIMSFIRST
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

struct ParallelDimsFirst
    : public amls::impl::AMLSParallelDimsFirstBase<ParallelDimsFirst> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk(
        [&](linalg::GenericOp generic) { generics.push_back(generic); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp generic : generics) {
      SmallVector<unsigned> order;
      SmallVector<utils::IteratorType> iterators =
          generic.getIteratorTypesArray();
      for (auto [dim, iterator] : llvm::enumerate(iterators))
        if (linalg::isParallelIterator(iterator))
          order.push_back(dim);
      unsigned parallel = order.size();
      for (auto [dim, iterator] : llvm::enumerate(iterators))
        if (!linalg::isParallelIterator(iterator))
          order.push_back(dim);
      // Already in order: nothing to do.
      if (llvm::is_sorted(order) || parallel == 0 ||
          parallel == iterators.size())
        continue;
      rewriter.setInsertionPoint(generic);
      if (failed(linalg::interchangeGenericOp(rewriter, generic, order)))
        generic.emitWarning("amls-parallel-dims-first: cannot interchange");
    }
  }
};

} // namespace
