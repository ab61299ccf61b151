//===- GuardAliasedBuffers.cpp - No in-place writes into aliased buffers --===//
//
// `to_tensor restrict` promises that the buffer is accessed through the
// tensor only; the canonicalizer's folding of `to_buffer(to_tensor(%m))`
// to `%m` breaks that promise for the buffers runtime calls fill, and
// one-shot bufferization, which sees the tensor's users only, may then
// write into `%m` while a later call still reads its old cells. Such a
// tensor loses `writable`: bufferization copies before writing.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSGUARDALIASEDBUFFERS
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;

namespace {

/// The buffer a view (memref.cast, subview, ...) is a view of.
Value viewRoot(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

/// Whether a user of `buffer` or of a view of it, other than `tensor`,
/// may run after `tensor`: only users known to run before it (the runtime
/// call that filled the buffer) are harmless.
bool hasLaterUser(Value buffer, bufferization::ToTensorOp tensor,
                  DominanceInfo &dominance) {
  for (Operation *user : buffer.getUsers()) {
    if (user == tensor.getOperation())
      continue;
    if (auto view = dyn_cast<ViewLikeOpInterface>(user);
        view && view.getViewSource() == buffer) {
      if (hasLaterUser(view->getResult(0), tensor, dominance))
        return true;
      continue;
    }
    if (!dominance.properlyDominates(user, tensor))
      return true;
  }
  return false;
}

struct AMLSGuardAliasedBuffersPass
    : public amls::impl::AMLSGuardAliasedBuffersBase<
          AMLSGuardAliasedBuffersPass> {
  void runOnOperation() override {
    auto &dominance = getAnalysis<DominanceInfo>();
    getOperation()->walk([&](bufferization::ToTensorOp tensor) {
      if (tensor.getWritable() &&
          hasLaterUser(viewRoot(tensor.getBuffer()), tensor, dominance))
        tensor.setWritable(false);
    });
    markAllAnalysesPreserved();
  }
};

} // namespace
