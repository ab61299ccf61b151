//===- MatmulChain.cpp - Optimal matrix-multiplication order --------------===//

#include "AMLS/CostModel/MatmulChain.h"

#include <cassert>
#include <limits>

using namespace mlir::amls;

double mlir::amls::multiplyChainOperands(const ChainOperand &lhs,
                                         const ChainOperand &rhs,
                                         const SparsityEstimator &estimator,
                                         ChainOperand &product) {
  assert(lhs.cols == rhs.rows && "inner dimensions differ");
  product.rows = lhs.rows;
  product.cols = rhs.cols;
  if (lhs.sketch && rhs.sketch) {
    // Each non-zero a_ij meets the non-zeros of row j of B.
    const MNCSketch::Counts &columns = lhs.sketch->getColCounts();
    const MNCSketch::Counts &rows = rhs.sketch->getRowCounts();
    double pairs = 0;
    for (size_t j = 0; j < columns.size(); ++j)
      pairs += static_cast<double>(columns[j]) * rows[j];
    double nnz = estimateProductNnz(*lhs.sketch, *rhs.sketch);
    product.sketch = std::make_shared<const MNCSketch>(
        propagateProduct(*lhs.sketch, *rhs.sketch, nnz));
    product.density = product.sketch->sparsity();
    return pairs;
  }
  product.sketch = nullptr;
  bool dense = lhs.density == 1.0 && rhs.density == 1.0;
  product.density =
      dense
          ? 1.0
          : estimator.matmul(lhs.density, rhs.density, lhs.cols).value_or(1.0);
  return double(lhs.rows) * double(lhs.cols) * double(rhs.cols) * lhs.density *
         rhs.density;
}

MatmulChainPlan MatmulChainPlan::compute(const std::vector<int64_t> &dims,
                                         const std::vector<double> &sparsities,
                                         const SparsityEstimator &estimator) {
  assert(dims.size() >= 2 && "a chain has at least one factor");
  size_t n = dims.size() - 1;
  assert((sparsities.empty() || sparsities.size() == n) &&
         "one sparsity per factor");
  std::vector<ChainOperand> factors(n);
  for (size_t i = 0; i < n; ++i)
    factors[i] = {dims[i], dims[i + 1],
                  sparsities.empty() ? 1.0 : sparsities[i], nullptr};
  return compute(factors, estimator);
}

MatmulChainPlan
MatmulChainPlan::compute(const std::vector<ChainOperand> &factors,
                         const SparsityEstimator &estimator) {
  assert(!factors.empty() && "a chain has at least one factor");
  unsigned n = factors.size();
  MatmulChainPlan plan;
  plan.numFactors = n;
  plan.costs.assign(n * n, 0.0);
  plan.split.assign(n * n, 0);
  auto at = [n](unsigned i, unsigned j) { return i * n + j; };
  // Each sub-chain's product in its optimal order.
  std::vector<ChainOperand> products(n * n);
  for (unsigned i = 0; i < n; ++i)
    products[at(i, i)] = factors[i];
  for (unsigned length = 2; length <= n; ++length) {
    for (unsigned i = 0; i + length <= n; ++i) {
      unsigned j = i + length - 1;
      double best = std::numeric_limits<double>::infinity();
      ChainOperand bestProduct, product;
      for (unsigned k = i; k < j; ++k) {
        double total =
            plan.costs[at(i, k)] + plan.costs[at(k + 1, j)] +
            multiplyChainOperands(products[at(i, k)], products[at(k + 1, j)],
                                  estimator, product);
        // Ties take the rightmost split, which keeps the order as written
        // (left to right) where reordering gains nothing.
        if (total <= best) {
          best = total;
          plan.split[at(i, j)] = k;
          bestProduct = product;
        }
      }
      plan.costs[at(i, j)] = best;
      products[at(i, j)] = bestProduct;
    }
  }

  // The order as written, for comparison: (((A1 A2) A3) ... An).
  double total = 0;
  ChainOperand current = factors[0], next;
  for (unsigned k = 1; k < n; ++k) {
    total += multiplyChainOperands(current, factors[k], estimator, next);
    current = next;
  }
  plan.leftToRightCost = total;
  return plan;
}

std::string MatmulChainPlan::toString(unsigned i, unsigned j) const {
  if (i == j)
    return "A" + std::to_string(i + 1);
  unsigned k = getSplit(i, j);
  return "(" + toString(i, k) + toString(k + 1, j) + ")";
}

std::string MatmulChainPlan::toString() const {
  return toString(0, numFactors - 1);
}
