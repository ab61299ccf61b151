//===- AMLSCompressedKernels.cpp - Which ops read compressed matrices -----===//
//
// The one definition of what the compressed lowering covers
// (CompressedKernelInterface), as external models attached by the dialect:
// --amls-select-compression only makes these uses of a compressed matrix
// (lib/Transforms/SelectCompression.cpp), the patterns in
// lib/Conversion/AMLSToLinalg/CompressedProducts.cpp and
// CompressedAggregates.cpp lower them, and
// --convert-amls-to-linalg rejects every other op on one.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"

using namespace mlir;
using namespace mlir::amls;

bool mlir::amls::isCompressedMatrix(Type type) {
  auto matrix = dyn_cast<MatrixType>(type);
  return matrix && matrix.getFormat() == MatrixFormat::Compressed;
}

bool mlir::amls::touchesCompressedMatrix(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isCompressedMatrix) ||
         llvm::any_of(op->getResultTypes(), isCompressedMatrix);
}

bool mlir::amls::hasCompressedKernel(Operation *op) {
  if (!touchesCompressedMatrix(op))
    return true;
  auto kernels = dyn_cast<CompressedKernelInterface>(op);
  return kernels && kernels.hasCompressedKernel();
}

namespace {

bool isCompressed(Value value) { return isCompressedMatrix(value.getType()); }

/// amls.compress makes a compressed matrix of a dense or CSR one.
struct CompressKernels
    : CompressedKernelInterface::ExternalModel<CompressKernels, CompressOp> {
  bool hasCompressedKernel(Operation *op) const {
    return !isCompressed(cast<CompressOp>(op).getInput());
  }
};

/// amls.decompress writes one's cells, for the ops below do not cover.
struct DecompressKernels
    : CompressedKernelInterface::ExternalModel<DecompressKernels,
                                               DecompressOp> {
  bool hasCompressedKernel(Operation *op) const {
    return isCompressed(cast<DecompressOp>(op).getInput());
  }
};

/// amls.release frees one.
struct ReleaseKernels
    : CompressedKernelInterface::ExternalModel<ReleaseKernels, ReleaseOp> {
  bool hasCompressedKernel(Operation *) const { return true; }
};

/// t(X) of a compressed X is X itself, read transposed: only by a product
/// with a dense right operand, t(X) %*% W.
struct TransposeKernels
    : CompressedKernelInterface::ExternalModel<TransposeKernels, TransposeOp> {
  bool hasCompressedKernel(Operation *op) const {
    auto transpose = cast<TransposeOp>(op);
    if (!isCompressed(transpose.getInput()) ||
        !isCompressed(transpose.getResult()))
      return false;
    return llvm::all_of(transpose->getUsers(), [&](Operation *user) {
      auto matmul = dyn_cast<MatmulOp>(user);
      return matmul && matmul.getLhs() == transpose.getResult() &&
             !isCompressed(matmul.getRhs());
    });
  }
};

/// X %*% W and t(X) %*% W with X compressed and W dense, and t(W) %*% X
/// with t(W) a dense transpose.
struct MatmulKernels
    : CompressedKernelInterface::ExternalModel<MatmulKernels, MatmulOp> {
  bool hasCompressedKernel(Operation *op) const {
    auto matmul = cast<MatmulOp>(op);
    if (isCompressed(matmul.getResult()))
      return false;
    bool lhs = isCompressed(matmul.getLhs()),
         rhs = isCompressed(matmul.getRhs());
    if (lhs != rhs)
      return lhs || matmul.getLhs().getDefiningOp<TransposeOp>();
    return false;
  }
};

/// t(X) %*% (w * (X %*% v)) with X compressed, v and w dense.
struct MMChainKernels
    : CompressedKernelInterface::ExternalModel<MMChainKernels, MMChainOp> {
  bool hasCompressedKernel(Operation *op) const {
    auto chain = cast<MMChainOp>(op);
    return isCompressed(chain.getInput()) && !isCompressed(chain.getVector()) &&
           (!chain.getWeights() || !isCompressed(chain.getWeights())) &&
           !isCompressed(chain.getResult());
  }
};

/// t(X) %*% X with X compressed.
struct TsmmKernels
    : CompressedKernelInterface::ExternalModel<TsmmKernels, TsmmOp> {
  bool hasCompressedKernel(Operation *op) const {
    auto tsmm = cast<TsmmOp>(op);
    return tsmm.getSide() == TsmmSide::Left && !isCompressed(tsmm.getResult());
  }
};

/// sum, mean, rowSums, rowMeans, colSums and colMeans: from the
/// dictionaries and the tuples' counts (rowSums as a product with ones).
struct AggKernels
    : CompressedKernelInterface::ExternalModel<AggKernels, AggOp> {
  bool hasCompressedKernel(Operation *op) const {
    auto agg = cast<AggOp>(op);
    return isCompressed(agg.getInput()) &&
           llvm::is_contained({AggKind::Sum, AggKind::Mean}, agg.getKind());
  }
};

/// nrow(X), ncol(X): the handle knows them.
template <typename OpTy>
struct SizeKernels
    : CompressedKernelInterface::ExternalModel<SizeKernels<OpTy>, OpTy> {
  bool hasCompressedKernel(Operation *) const { return true; }
};

/// f(X, s...) of a compressed X and scalars: f applied to the values every
/// cell is one of (the dictionaries, OLE and RLE's default tuples, the
/// uncompressed cells), the codes shared: a compressed result, which
/// --amls-select-compression releases after its last use.
template <typename OpTy>
struct ElementwiseKernels
    : CompressedKernelInterface::ExternalModel<ElementwiseKernels<OpTy>, OpTy> {
  bool hasCompressedKernel(Operation *op) const {
    if (op->getNumResults() != 1 || !isCompressed(op->getResult(0)))
      return false;
    auto result = cast<MatrixType>(op->getResult(0).getType());
    if (!result.getElementType().isF64())
      return false;
    int compressedOperands = 0;
    for (Value operand : op->getOperands()) {
      if (isCompressed(operand)) {
        auto type = cast<MatrixType>(operand.getType());
        if (!type.getElementType().isF64() ||
            type.getRows() != result.getRows() ||
            type.getCols() != result.getCols())
          return false;
        ++compressedOperands;
        continue;
      }
      // A broadcast row or column vector would need its cell per column or
      // row of each value; only scalars apply to every value alike.
      if (isa<MatrixType>(operand.getType()))
        return false;
    }
    return compressedOperands == 1;
  }
};

/// Attaches the element-wise model to every op with ElementwiseOpInterface.
template <typename... OpTys>
void attachElementwiseKernels(MLIRContext &context) {
  (
      [&] {
        if constexpr (OpTys::template hasTrait<ElementwiseOpInterface::Trait>())
          OpTys::template attachInterface<ElementwiseKernels<OpTys>>(context);
      }(),
      ...);
}

} // namespace

void mlir::amls::registerCompressedKernelModels(MLIRContext &context) {
  CompressOp::attachInterface<CompressKernels>(context);
  ReleaseOp::attachInterface<ReleaseKernels>(context);
  TransposeOp::attachInterface<TransposeKernels>(context);
  MatmulOp::attachInterface<MatmulKernels>(context);
  MMChainOp::attachInterface<MMChainKernels>(context);
  TsmmOp::attachInterface<TsmmKernels>(context);
  DecompressOp::attachInterface<DecompressKernels>(context);
  AggOp::attachInterface<AggKernels>(context);
  NRowOp::attachInterface<SizeKernels<NRowOp>>(context);
  NColOp::attachInterface<SizeKernels<NColOp>>(context);
  attachElementwiseKernels<
#define GET_OP_LIST
#include "AMLS/Dialect/AMLSOps.cpp.inc"
      >(context);
}
