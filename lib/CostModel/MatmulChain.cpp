//===- MatmulChain.cpp - Optimal matrix-multiplication order --------------===//

#include "AMLS/CostModel/MatmulChain.h"

#include <cassert>
#include <limits>

using namespace mlir::amls;

MatmulChainPlan MatmulChainPlan::compute(const std::vector<int64_t> &dims,
                                         const std::vector<double> &sparsities,
                                         const SparsityEstimator &estimator) {
  assert(dims.size() >= 2 && "a chain has at least one factor");
  unsigned n = dims.size() - 1;
  bool sparse = !sparsities.empty();
  assert((!sparse || sparsities.size() == n) && "one sparsity per factor");

  MatmulChainPlan plan;
  plan.numFactors = n;
  plan.costs.assign(n * n, 0.0);
  plan.split.assign(n * n, 0);
  // The estimated sparsity of each sub-chain's product (1 when dense).
  std::vector<double> density(n * n, 1.0);
  auto at = [n](unsigned i, unsigned j) { return i * n + j; };
  auto product = [&](unsigned i, unsigned k, unsigned j) {
    double flops = double(dims[i]) * double(dims[k + 1]) * double(dims[j + 1]);
    if (!sparse)
      return flops;
    return flops * density[at(i, k)] * density[at(k + 1, j)];
  };
  auto productDensity = [&](unsigned i, unsigned k, unsigned j) {
    if (!sparse)
      return 1.0;
    return estimator
        .matmul(density[at(i, k)], density[at(k + 1, j)], dims[k + 1])
        .value_or(1.0);
  };

  for (unsigned i = 0; i < n; ++i)
    density[at(i, i)] = sparse ? sparsities[i] : 1.0;
  for (unsigned length = 2; length <= n; ++length) {
    for (unsigned i = 0; i + length <= n; ++i) {
      unsigned j = i + length - 1;
      double best = std::numeric_limits<double>::infinity();
      for (unsigned k = i; k < j; ++k) {
        double total =
            plan.costs[at(i, k)] + plan.costs[at(k + 1, j)] + product(i, k, j);
        // Ties take the rightmost split, which keeps the order as written
        // (left to right) where reordering gains nothing.
        if (total <= best) {
          best = total;
          plan.split[at(i, j)] = k;
        }
      }
      plan.costs[at(i, j)] = best;
      density[at(i, j)] = productDensity(i, plan.split[at(i, j)], j);
    }
  }

  // The order as written, for comparison: (((A1 A2) A3) ... An).
  double total = 0;
  double current = sparse ? sparsities[0] : 1.0;
  for (unsigned k = 1; k < n; ++k) {
    double flops = double(dims[0]) * double(dims[k]) * double(dims[k + 1]);
    double rhs = sparse ? sparsities[k] : 1.0;
    total += sparse ? flops * current * rhs : flops;
    if (sparse)
      current = estimator.matmul(current, rhs, dims[k]).value_or(1.0);
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
