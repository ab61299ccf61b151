//===- MatmulChain.h - Optimal matrix-multiplication order ------*- C++ -*-===//
//
// The classic dynamic program over a chain A1 %*% A2 %*% ... %*% An (seed 002,
// "Matrix Multiplication Chain Optimization"; Cormen et al. 15.2): the cheapest
// parenthesization is found from the cheapest ones of all sub-chains in
// O(n^3) time.
//
// The dense cost of multiplying a p x q by a q x r matrix is p*q*r scalar
// multiplications. The sparsity-aware cost counts only the multiplications
// of non-zero pairs under uniformly distributed non-zeros, p*q*r * sA * sB,
// and propagates each sub-chain's estimated sparsity with the average-case
// metadata estimator, so that a sparse factor is used while it is still
// sparse (SystemDS's RewriteMatrixMultChainOptSparse).
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_COSTMODEL_MATMULCHAIN_H
#define AMLS_COSTMODEL_MATMULCHAIN_H

#include "AMLS/CostModel/SparsityEstimator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::amls {

/// The cost model of `--amls-matmul-chain`.
enum class MatmulChainCost { Dense, Sparse };

/// The optimal order of a chain of n >= 1 matrices.
class MatmulChainPlan {
public:
  /// Plans the chain whose i-th factor is dims[i] x dims[i+1]. With
  /// `sparsities` (one per factor, in [0, 1]) the cost is sparsity-aware;
  /// otherwise every factor counts as dense.
  static MatmulChainPlan
  compute(const std::vector<int64_t> &dims,
          const std::vector<double> &sparsities = {},
          const SparsityEstimator &estimator = SparsityEstimator());

  /// The cost of the optimal order (scalar multiplications, expected ones
  /// in the sparsity-aware variant).
  double getCost() const { return cost(0, numFactors - 1); }
  /// The cost of multiplying left to right, as written: ((A1 A2) A3) ...
  double getLeftToRightCost() const { return leftToRightCost; }
  /// Where the optimal order of factors [i, j] splits: it multiplies
  /// [i, k] by [k+1, j] and returns k (i <= k < j).
  unsigned getSplit(unsigned i, unsigned j) const {
    return split[i * numFactors + j];
  }
  unsigned getNumFactors() const { return numFactors; }
  /// The optimal order as text, factors named A1..An: "((A1(A2A3))A4)".
  std::string toString() const;

private:
  double cost(unsigned i, unsigned j) const {
    return costs[i * numFactors + j];
  }
  std::string toString(unsigned i, unsigned j) const;

  unsigned numFactors = 0;
  std::vector<double> costs;
  std::vector<unsigned> split;
  double leftToRightCost = 0;
};

} // namespace mlir::amls

#endif // AMLS_COSTMODEL_MATMULCHAIN_H
