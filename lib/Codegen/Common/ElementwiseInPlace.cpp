//===- ElementwiseInPlace.cpp - Element-wise results in an operand --------===//
//
// The lowering gives every element-wise linalg.generic a tensor.empty as its
// init, so one-shot bufferization allocates a new buffer for each result:
// `X = X + i` in a loop allocated (from the pool) and wrote a second
// 1000x1000 buffer every iteration, and an scf.while copied the carried X
// every iteration besides, because its yield was not equivalent to its
// argument. Here an input of the result's type becomes the init instead;
// whether the result really goes into that buffer is the bufferization
// analysis's decision (in place only when nothing reads the old value
// later), and when it does not, the op, which never reads its init, gets a
// new buffer without a copy, as before.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSELEMENTWISEINPLACE
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;

namespace {

/// Whether `input` may take the result: a matrix (CSR value arrays are 1-D
/// and stay out) read cell by cell, as the result is written, and not a
/// function argument (the caller would copy it before the call to keep its
/// own value).
bool mayHoldResult(linalg::GenericOp op, OpOperand *input) {
  auto type = dyn_cast<RankedTensorType>(input->get().getType());
  if (!type || type.getRank() != 2 ||
      !op.getMatchingIndexingMap(input).isIdentity())
    return false;
  // A buffer a runtime kernel filled (bufferization.to_tensor) stays out:
  // canonicalization folds later runtime calls' to_buffer of it into the
  // memref itself, a read that the bufferization analysis no longer sees,
  // so writing the result there could clobber a value still to be read
  // (conv2d's output written after `relu(bias_add(Y, b))`). A slice of
  // such a buffer is a view of it, so it stays out too (`Y = X[1:2, ] * 2`
  // wrote Y into X, which a later print(X) read through the memref; found
  // by random programs).
  Value source = input->get();
  while (true) {
    if (auto cast = source.getDefiningOp<tensor::CastOp>())
      source = cast.getSource();
    else if (auto slice = source.getDefiningOp<tensor::ExtractSliceOp>())
      source = slice.getSource();
    else
      break;
  }
  if (source.getDefiningOp<bufferization::ToTensorOp>())
    return false;
  auto arg = dyn_cast<BlockArgument>(input->get());
  return !arg || !isa<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

/// The old value of the loop-carried variable that `result` updates, when
/// nothing reads it: the Z of `Z = X + i` in a loop, whose buffer can take
/// the new Z. Writing there makes the update equivalent to the iteration's
/// argument, which an scf.while needs to carry Z without a copy.
Value deadCarriedValue(OpResult result) {
  for (OpOperand &use : result.getUses()) {
    auto yield = dyn_cast<scf::YieldOp>(use.getOwner());
    if (!yield || yield->getBlock() != result.getOwner()->getBlock())
      continue;
    unsigned index = use.getOperandNumber();
    Value carried;
    if (auto loop = dyn_cast<scf::ForOp>(yield->getParentOp()))
      carried = loop.getRegionIterArgs()[index];
    else if (auto loop = dyn_cast<scf::WhileOp>(yield->getParentOp());
             loop && index < loop.getAfterArguments().size())
      carried = loop.getAfterArguments()[index];
    if (carried && carried.use_empty() && carried.getType() == result.getType())
      return carried;
  }
  return {};
}

/// Offers each of `op`'s unread tensor.empty inits one of its inputs or the
/// dead old value of the variable it updates.
void offerInputs(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return;
  SmallVector<Value> candidates;
  for (OpOperand *input : op.getDpsInputOperands())
    if (mayHoldResult(op, input))
      candidates.push_back(input->get());
  for (OpOperand &init : op.getDpsInitsMutable()) {
    auto empty = init.get().getDefiningOp<tensor::EmptyOp>();
    if (!empty || op.payloadUsesValueFromOperand(&init) ||
        !op.getMatchingIndexingMap(&init).isIdentity())
      continue;
    // First an input read by this op only, likely dead after it (the
    // carried X of `X = X * 0.5 + Y`, not the loop-invariant Y).
    Value chosen;
    for (Value candidate : candidates)
      if (candidate.getType() == init.get().getType() &&
          llvm::all_of(candidate.getUsers(),
                       [&](Operation *user) { return user == op; })) {
        chosen = candidate;
        break;
      }
    // Next a dead old value (certain to be free), then inputs read again
    // later, for the bufferization analysis to decide on.
    if (!chosen && cast<RankedTensorType>(init.get().getType()).getRank() == 2)
      chosen = deadCarriedValue(op.getTiedOpResult(&init));
    if (!chosen)
      for (Value candidate : candidates)
        if (candidate.getType() == init.get().getType()) {
          chosen = candidate;
          break;
        }
    if (!chosen)
      continue;
    init.set(chosen);
    // One buffer cannot hold two results.
    llvm::erase(candidates, chosen);
    if (empty->use_empty())
      empty->erase();
  }
}

struct AMLSElementwiseInPlacePass
    : public amls::impl::AMLSElementwiseInPlaceBase<
          AMLSElementwiseInPlacePass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics)
      offerInputs(op);
  }
};

} // namespace
