//===- SelectCompression.cpp - Compress the matrices loops multiply -------===//
//
// Compressed linear algebra pays where a matrix is multiplied many times:
// the planning and encoding cost about one pass over the data, each product
// on the compressed form then reads a byte per row and column group instead
// of eight per cell. So the candidates are loop-invariant left operands of
// the products a loop computes (and right operands of t(W) %*% X); each gets
// one amls.compress before the outermost loop that multiplies it and one
// amls.release after, and only those products read the compressed matrix
// (docs/compression.md).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSSELECTCOMPRESSION
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// The outermost loop around `user` that `value` is defined outside of.
Operation *outermostLoopOutside(Operation *user, Value value) {
  // The op whose region holds the definition: a loop around it holds the
  // definition too, and so does every loop further out.
  Operation *definedIn = value.getParentBlock()->getParentOp();
  Operation *found = nullptr;
  for (Operation *op = user->getParentOp(); op; op = op->getParentOp()) {
    if (!isa<scf::ForOp, scf::WhileOp>(op))
      continue;
    if (op->isAncestor(definedIn))
      break;
    found = op;
  }
  return found;
}

/// A use a compressed kernel can take: the operand and, for t(X) %*% w,
/// the transpose it is read through.
struct CompressibleUse {
  OpOperand *operand;
  TransposeOp transpose;
};

class SelectCompression
    : public amls::impl::AMLSSelectCompressionBase<SelectCompression> {
public:
  using AMLSSelectCompressionBase::AMLSSelectCompressionBase;

  void runOnOperation() override;

private:
  bool isCandidate(Value value) const;
  bool isNarrow(Value rhs) const;
  /// The matrix a compressed kernel could read for `op`'s operand, if any.
  void collect(Operation *op,
               llvm::MapVector<std::pair<Value, Operation *>,
                               SmallVector<CompressibleUse>> &uses) const;
};

bool SelectCompression::isCandidate(Value value) const {
  auto type = dyn_cast<MatrixType>(value.getType());
  // Dense or CSR: the runtime compresses either (CSR row by row, never
  // densified: a one-hot matrix that only fits sparse still compresses).
  if (!type || !type.getElementType().isF64() || isCompressedMatrix(type))
    return false;
  // A column vector's products are scalings and dot products: nothing to
  // compress for.
  if (type.getCols() == 1)
    return false;
  if (ShapedType::isDynamic(type.getRows()) ||
      ShapedType::isDynamic(type.getCols()))
    return true;
  return type.getRows() * type.getCols() >= minCells;
}

bool SelectCompression::isNarrow(Value rhs) const {
  auto type = dyn_cast<MatrixType>(rhs.getType());
  return type && !isCSRMatrix(type) &&
         (ShapedType::isDynamic(type.getCols()) ||
          type.getCols() <= maxRhsCols);
}

void SelectCompression::collect(
    Operation *op, llvm::MapVector<std::pair<Value, Operation *>,
                                   SmallVector<CompressibleUse>> &uses) const {
  auto add = [&](OpOperand &operand, Value matrix, TransposeOp transpose) {
    if (!isCandidate(matrix))
      return false;
    Operation *loop = outermostLoopOutside(op, matrix);
    if (!loop)
      return false;
    uses[{matrix, loop}].push_back({&operand, transpose});
    return true;
  };
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    auto transpose = matmul.getLhs().getDefiningOp<TransposeOp>();
    if (isNarrow(matmul.getRhs())) {
      OpOperand &lhs = matmul->getOpOperand(0);
      if (transpose ? add(lhs, transpose.getInput(), transpose)
                    : add(lhs, matmul.getLhs(), nullptr))
        return;
    }
    // t(W) %*% X (k-means' centroids t(P) %*% X): t(t(X) %*% W).
    if (transpose && isNarrow(transpose.getInput()))
      add(matmul->getOpOperand(1), matmul.getRhs(), nullptr);
  } else if (auto chain = dyn_cast<MMChainOp>(op)) {
    add(chain->getOpOperand(0), chain.getInput(), nullptr);
  } else if (auto tsmm = dyn_cast<TsmmOp>(op)) {
    if (tsmm.getSide() == TsmmSide::Left)
      add(tsmm->getOpOperand(0), tsmm.getInput(), nullptr);
  }
}

void SelectCompression::runOnOperation() {
  llvm::MapVector<std::pair<Value, Operation *>, SmallVector<CompressibleUse>>
      uses;
  getOperation()->walk([&](Operation *op) { collect(op, uses); });
  // The dense transposes whose products now read the compressed matrix.
  llvm::SetVector<Operation *> redirected;
  for (auto &[key, list] : uses) {
    auto [matrix, loop] = key;
    auto type = cast<MatrixType>(matrix.getType());
    auto compressedType = type.withFormat(MatrixFormat::Compressed);
    OpBuilder builder(loop);
    auto compress =
        CompressOp::create(builder, loop->getLoc(), compressedType, matrix);
    if (explain)
      compress.setExplain(true);
    builder.setInsertionPointAfter(loop);
    ReleaseOp::create(builder, loop->getLoc(), compress.getResult());
    // t(X) for the products that read X transposed: one, next to X's.
    Value transposed;
    for (CompressibleUse &use : list) {
      if (!use.transpose) {
        use.operand->set(compress.getResult());
        continue;
      }
      if (!transposed) {
        builder.setInsertionPointAfter(compress);
        auto transposeType =
            cast<MatrixType>(use.transpose.getResult().getType())
                .withFormat(MatrixFormat::Compressed);
        transposed = TransposeOp::create(builder, use.transpose.getLoc(),
                                         transposeType, compress.getResult());
      }
      use.operand->set(transposed);
      redirected.insert(use.transpose);
    }
    ++numCompressed;
    if (explain)
      llvm::errs() << "amls-select-compression: " << matrix.getLoc()
                   << ": compress " << type << " for " << list.size()
                   << " product(s) in the loop at " << loop->getLoc() << "\n";
  }
  for (Operation *transpose : redirected)
    if (transpose->use_empty())
      transpose->erase();
}

} // namespace
