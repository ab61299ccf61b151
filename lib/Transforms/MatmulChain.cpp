//===- MatmulChain.cpp - Reorder chains of matrix products ----------------===//
//
// Collects maximal chains of amls.matmul, asks MatmulChainPlan for the
// cheapest parenthesization and rebuilds the chain in that order when it is
// strictly cheaper than the order as written.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Analysis/MatmulChain.h"
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

/// A chain of products: its factors in order and the products as written,
/// inner ones first, the root last.
struct Chain {
  SmallVector<Value> factors;
  SmallVector<MatmulOp> products;
};

void collect(Value value, Operation *user, Chain &chain) {
  if (MatmulOp inner = getChainedProduct(value, user)) {
    collect(inner.getLhs(), inner, chain);
    collect(inner.getRhs(), inner, chain);
    chain.products.push_back(inner);
    return;
  }
  chain.factors.push_back(value);
}

/// The shape and estimated density of a chain node's value.
struct NodeShape {
  int64_t rows, cols;
  double density;
};

/// The cost of the chain as written below `product` (itself included), under
/// the same model as the plan; sets `shape` to the product's.
double writtenCost(MatmulOp product, bool sparse,
                   const SparsityEstimator &estimator, NodeShape &shape) {
  double cost = 0;
  NodeShape operands[2];
  for (auto [operand, operandShape] :
       llvm::zip(product->getOperands(), operands)) {
    if (MatmulOp inner = getChainedProduct(operand, product)) {
      cost += writtenCost(inner, sparse, estimator, operandShape);
      continue;
    }
    auto type = cast<MatrixType>(operand.getType());
    operandShape = {type.getRows(), type.getCols(),
                    sparse ? type.getSparsity().value_or(1.0) : 1.0};
  }
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

    // Chain roots: products that are not an inner product of a longer chain.
    SmallVector<MatmulOp> roots;
    getOperation()->walk([&](MatmulOp op) {
      Value result = op.getResult();
      bool inner = result.hasOneUse() &&
                   isa<MatmulOp>(*result.getUsers().begin()) &&
                   getChainedProduct(result, *result.getUsers().begin());
      if (!inner)
        roots.push_back(op);
    });

    for (MatmulOp root : roots) {
      Chain chain;
      collect(root.getLhs(), root, chain);
      collect(root.getRhs(), root, chain);
      if (chain.factors.size() < 3)
        continue;
      // Sizes must be known and agree (the verifier allows unknown ones).
      SmallVector<int64_t> dims;
      SmallVector<double> sparsities;
      bool known = true;
      for (Value factor : chain.factors) {
        auto type = cast<MatrixType>(factor.getType());
        if (!type.hasStaticShape() ||
            (!dims.empty() && dims.back() != type.getRows())) {
          known = false;
          break;
        }
        if (dims.empty())
          dims.push_back(type.getRows());
        dims.push_back(type.getCols());
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

      OpBuilder builder(root);
      Value result = build(builder, root.getLoc(), plan, chain.factors, 0,
                           chain.factors.size() - 1, root.getType());
      root.getResult().replaceAllUsesWith(result);
      root.erase();
      // The inner products had the chain as their only user.
      for (MatmulOp inner : llvm::reverse(chain.products))
        inner.erase();
    }
  }
};

} // namespace
