//===- MatmulChain.cpp - Reorder chains of matrix products ----------------===//
//
// Collects maximal chains of amls.matmul, asks MatmulChainPlan for the
// cheapest parenthesization and rebuilds the chain in that order when it is
// strictly cheaper than the order as written.
//
//===----------------------------------------------------------------------===//

#include "AMLS/CostModel/MatmulChain.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSMATMULCHAIN
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Whether `value` is an inner product of the chain that `user` belongs to:
/// a matmul in the same block whose only user is `user`.
MatmulOp getChainedProduct(Value value, Operation *user) {
  auto product = value.getDefiningOp<MatmulOp>();
  if (!product || !value.hasOneUse() || product->getBlock() != user->getBlock())
    return nullptr;
  return product;
}

/// Whether `value` is the transpose of an inner product of the chain that
/// `user` belongs to (t(A %*% B) = t(B) %*% t(A) continues the chain): a
/// transpose in the same block whose only user is `user`, of a product whose
/// only user is the transpose.
TransposeOp getChainedTranspose(Value value, Operation *user) {
  auto transpose = value.getDefiningOp<TransposeOp>();
  if (!transpose || !value.hasOneUse() ||
      transpose->getBlock() != user->getBlock() ||
      !getChainedProduct(transpose.getInput(), transpose))
    return nullptr;
  return transpose;
}

/// A factor of a chain, read transposed or not.
struct Factor {
  Value value;
  bool transposed;
};

/// A chain of products: its factors in order and the products and
/// transposes as written, inner ones first.
struct Chain {
  SmallVector<Factor> factors;
  SmallVector<Operation *> ops;
};

/// Appends the factors of `value` (transposed: of its transpose) as `user`
/// reads it.
void collect(Value value, Operation *user, bool transposed, Chain &chain) {
  if (MatmulOp inner = getChainedProduct(value, user)) {
    Value first = inner.getLhs(), second = inner.getRhs();
    if (transposed)
      std::swap(first, second);
    collect(first, inner, transposed, chain);
    collect(second, inner, transposed, chain);
    chain.ops.push_back(inner);
    return;
  }
  if (TransposeOp transpose = getChainedTranspose(value, user)) {
    collect(transpose.getInput(), transpose, !transposed, chain);
    chain.ops.push_back(transpose);
    return;
  }
  chain.factors.push_back({value, transposed});
}

/// The view of t(A) from A's.
void transpose(ChainOperand &operand) {
  std::swap(operand.rows, operand.cols);
  if (operand.sketch)
    operand.sketch =
        std::make_shared<const MNCSketch>(propagateTranspose(*operand.sketch));
}

/// How the costs see a factor: its shape, its estimated density (with
/// `sparse`) and, with `sketched`, its MNC sketch where one is known: a
/// parameter's (#amls.mnc), or the uniform one of a matrix whose type says
/// it is all non-zero or all zero.
ChainOperand chainOperand(Value value, bool transposed, bool sparse,
                          bool sketched) {
  auto type = cast<MatrixType>(value.getType());
  ChainOperand operand{type.getRows(), type.getCols(),
                       sparse ? type.getSparsity().value_or(1.0) : 1.0,
                       nullptr};
  if (sketched) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      auto function =
          dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
      if (function && arg.getOwner()->isEntryBlock())
        if (auto attr = function.getArgAttrOfType<MNCSketchAttr>(
                arg.getArgNumber(), AMLSDialect::getMNCSketchAttrName()))
          operand.sketch = attr.getSketch();
    }
    std::optional<double> sparsity = type.getSparsity();
    if (!operand.sketch && type.hasStaticShape() && sparsity &&
        (*sparsity == 0.0 || *sparsity == 1.0))
      operand.sketch = std::make_shared<const MNCSketch>(
          MNCSketch::uniform(type.getRows(), type.getCols(), *sparsity == 1.0));
  }
  if (transposed)
    transpose(operand);
  return operand;
}

/// The costs' view of a chain's factors, under `mode`: sketches only where
/// every factor has one (a product of a sketched and an unsketched factor
/// has no sketch to carry on).
struct CostModel {
  bool sparse, sketched;
  const SparsityEstimator &estimator;

  ChainOperand operand(Value value, bool transposed) const {
    return chainOperand(value, transposed, sparse, sketched);
  }
};

double writtenCost(MatmulOp product, const CostModel &model,
                   ChainOperand &result);

/// The cost of computing `value`, as `user` reads it within the chain, as
/// written; sets `result` to the value's view.
double writtenCost(Value value, Operation *user, const CostModel &model,
                   bool transposed, ChainOperand &result) {
  if (MatmulOp inner = getChainedProduct(value, user)) {
    double cost = writtenCost(inner, model, result);
    if (transposed)
      transpose(result);
    return cost;
  }
  if (TransposeOp transpose = getChainedTranspose(value, user))
    return writtenCost(transpose.getInput(), transpose, model, !transposed,
                       result);
  result = model.operand(value, transposed);
  return 0;
}

/// The cost of the chain as written below `product` (itself included),
/// under the same model as the plan; sets `result` to the product's view.
double writtenCost(MatmulOp product, const CostModel &model,
                   ChainOperand &result) {
  ChainOperand lhs, rhs;
  double cost =
      writtenCost(product.getLhs(), product, model, /*transposed=*/false, lhs) +
      writtenCost(product.getRhs(), product, model, /*transposed=*/false, rhs);
  return cost + multiplyChainOperands(lhs, rhs, model.estimator, result);
}

/// Builds the product of factors [i, j] in the plan's order.
Value build(OpBuilder &builder, Location loc, const MatmulChainPlan &plan,
            ArrayRef<Value> factors, unsigned i, unsigned j,
            Type resultType = {}) {
  if (i == j)
    return factors[i];
  unsigned k = plan.getSplit(i, j);
  Value lhs = build(builder, loc, plan, factors, i, k);
  Value rhs = build(builder, loc, plan, factors, k + 1, j);
  if (!resultType) {
    auto lhsType = cast<MatrixType>(lhs.getType());
    auto rhsType = cast<MatrixType>(rhs.getType());
    resultType = MatrixType::get(lhsType.getRows(), rhsType.getCols(),
                                 lhsType.getElementType());
  }
  return MatmulOp::create(builder, loc, resultType, lhs, rhs);
}

struct MatmulChainPass
    : public amls::impl::AMLSMatmulChainBase<MatmulChainPass> {
  using AMLSMatmulChainBase::AMLSMatmulChainBase;

  void runOnOperation() override {
    SparsityEstimator estimator(EstimatorKind::AverageCase);
    CostModel model{mode != MatmulChainCost::Dense,
                    mode == MatmulChainCost::MNC, estimator};

    // Chain roots: products that are not an inner product of a longer
    // chain, directly or through a transpose.
    SmallVector<MatmulOp> roots;
    getOperation()->walk([&](MatmulOp op) {
      Value result = op.getResult();
      bool inner = false;
      if (result.hasOneUse()) {
        Operation *user = *result.getUsers().begin();
        if (isa<MatmulOp>(user))
          inner = getChainedProduct(result, user) != nullptr;
        else if (auto transpose = dyn_cast<TransposeOp>(user))
          inner = transpose->hasOneUse() &&
                  isa<MatmulOp>(*transpose->getUsers().begin()) &&
                  getChainedTranspose(transpose.getResult(),
                                      *transpose->getUsers().begin());
      }
      if (!inner)
        roots.push_back(op);
    });

    for (MatmulOp root : roots) {
      Chain chain;
      collect(root.getLhs(), root, /*transposed=*/false, chain);
      collect(root.getRhs(), root, /*transposed=*/false, chain);
      if (chain.factors.size() < 3)
        continue;
      // Sizes must be known and agree (the verifier allows unknown ones).
      std::vector<ChainOperand> operands;
      bool known = true;
      for (const Factor &factor : chain.factors) {
        auto type = cast<MatrixType>(factor.value.getType());
        ChainOperand operand = model.operand(factor.value, factor.transposed);
        if (!type.hasStaticShape() ||
            (!operands.empty() && operands.back().cols != operand.rows)) {
          known = false;
          break;
        }
        operands.push_back(std::move(operand));
      }
      if (!known)
        continue;
      CostModel chainModel = model;
      if (llvm::any_of(operands, [](const ChainOperand &operand) {
            return !operand.sketch;
          })) {
        chainModel.sketched = false;
        for (ChainOperand &operand : operands)
          operand.sketch = nullptr;
      }

      MatmulChainPlan plan = MatmulChainPlan::compute(operands, estimator);
      ChainOperand rootOperand;
      double current = writtenCost(root, chainModel, rootOperand);
      if (!(plan.getCost() < current))
        continue;

      // Transposed factors are read through a transpose, which the
      // lowering never materializes (and a transpose of a transpose
      // folds).
      OpBuilder builder(root);
      SmallVector<Value> factors;
      for (const Factor &factor : chain.factors) {
        if (!factor.transposed) {
          factors.push_back(factor.value);
          continue;
        }
        auto type = cast<MatrixType>(factor.value.getType());
        factors.push_back(TransposeOp::create(
            builder, root.getLoc(),
            MatrixType::get(type.getCols(), type.getRows(),
                            type.getElementType(), type.getSparsity(),
                            type.getFormat()),
            factor.value));
      }
      Value result = build(builder, root.getLoc(), plan, factors, 0,
                           factors.size() - 1, root.getType());
      root.getResult().replaceAllUsesWith(result);
      root.erase();
      // The inner products and transposes had the chain as their only user.
      for (Operation *inner : llvm::reverse(chain.ops))
        inner->erase();
    }
  }
};

} // namespace
