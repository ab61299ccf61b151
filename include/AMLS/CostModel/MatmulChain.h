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
// sparse (SystemDS's RewriteMatrixMultChainOptSparse). Where every factor has
// an MNC sketch, the cost of a product is the exact count of its non-zero
// pairs for the sketches at hand, sum_j |A:j| |Bj:|, and each sub-chain's
// sketch is propagated (MNCSketch.h), so that structure the densities do not
// show (an empty row meeting a full column) decides the order.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_COSTMODEL_MATMULCHAIN_H
#define AMLS_COSTMODEL_MATMULCHAIN_H

#include "AMLS/CostModel/MNCSketch.h"
#include "AMLS/CostModel/SparsityEstimator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::amls {

/// The cost model of `--amls-matmul-chain`: every factor dense, the
/// factors' estimated sparsity, or their MNC sketches where all have one
/// (the sparsity otherwise).
enum class MatmulChainCost { Dense, Sparse, MNC };

/// A factor or partial product of a chain as the costs see it.
struct ChainOperand {
  int64_t rows = 0, cols = 0;
  /// The estimated fraction of non-zeros (1 in the dense model).
  double density = 1.0;
  /// Its MNC sketch, or null.
  MNCSketchRef sketch;
};

/// The multiplications of lhs %*% rhs (of non-zero pairs unless both
/// densities are 1) and, in `product`, the product: from the sketches where
/// both have one, else from the densities and `estimator`.
double multiplyChainOperands(const ChainOperand &lhs, const ChainOperand &rhs,
                             const SparsityEstimator &estimator,
                             ChainOperand &product);

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
  /// Plans the chain of `factors` (each one's cols the next one's rows)
  /// under multiplyChainOperands' costs.
  static MatmulChainPlan compute(const std::vector<ChainOperand> &factors,
                                 const SparsityEstimator &estimator);

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
