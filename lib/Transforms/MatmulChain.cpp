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

/// The shape and estimated density of a chain node's value.
struct NodeShape {
  int64_t rows, cols;
  double density;
};

double writtenCost(MatmulOp product, bool sparse,
                   const SparsityEstimator &estimator, NodeShape &shape);

/// The cost of computing `value`, as `user` reads it within the chain, as
/// written; sets `shape` to the value's.
double writtenCost(Value value, Operation *user, bool sparse,
                   const SparsityEstimator &estimator, NodeShape &shape) {
  if (MatmulOp inner = getChainedProduct(value, user))
    return writtenCost(inner, sparse, estimator, shape);
  if (TransposeOp transpose = getChainedTranspose(value, user)) {
    double cost =
        writtenCost(transpose.getInput(), transpose, sparse, estimator, shape);
    std::swap(shape.rows, shape.cols);
    return cost;
  }
  auto type = cast<MatrixType>(value.getType());
  shape = {type.getRows(), type.getCols(),
           sparse ? type.getSparsity().value_or(1.0) : 1.0};
  return 0;
}

/// The cost of the chain as written below `product` (itself included), under
/// the same model as the plan; sets `shape` to the product's.
double writtenCost(MatmulOp product, bool sparse,
                   const SparsityEstimator &estimator, NodeShape &shape) {
  double cost = 0;
  NodeShape operands[2];
  for (auto [operand, operandShape] :
       llvm::zip(product->getOperands(), operands))
    cost += writtenCost(operand, product, sparse, estimator, operandShape);
  const NodeShape &lhs = operands[0], &rhs = operands[1];
  shape.rows = lhs.rows;
  shape.cols = rhs.cols;
  shape.density =
      sparse
          ? estimator.matmul(lhs.density, rhs.density, lhs.cols).value_or(1.0)
          : 1.0;
  return cost + double(lhs.rows) * double(lhs.cols) * double(rhs.cols) *
                    lhs.density * rhs.density;
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
    bool sparse = mode == MatmulChainCost::Sparse;
    SparsityEstimator estimator(EstimatorKind::AverageCase);

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
      SmallVector<int64_t> dims;
      SmallVector<double> sparsities;
      bool known = true;
      for (const Factor &factor : chain.factors) {
        auto type = cast<MatrixType>(factor.value.getType());
        int64_t rows = type.getRows(), cols = type.getCols();
        if (factor.transposed)
          std::swap(rows, cols);
        if (!type.hasStaticShape() || (!dims.empty() && dims.back() != rows)) {
          known = false;
          break;
        }
        if (dims.empty())
          dims.push_back(rows);
        dims.push_back(cols);
        sparsities.push_back(type.getSparsity().value_or(1.0));
      }
      if (!known)
        continue;

      MatmulChainPlan plan = MatmulChainPlan::compute(
          std::vector<int64_t>(dims.begin(), dims.end()),
          sparse ? std::vector<double>(sparsities.begin(), sparsities.end())
                 : std::vector<double>(),
          estimator);
      NodeShape rootShape;
      double current = writtenCost(root, sparse, estimator, rootShape);
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
