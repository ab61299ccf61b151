//===- SparsityEstimator.h - Metadata sparsity estimators -------*- C++ -*-===//
//
// Estimates of the fraction of non-zero cells of an operation's result from
// its inputs' sizes and sparsity only ("metadata" estimators, MNC paper's
// MetaAC / MetaWC; SystemDS EstimatorBasicAvg / EstimatorBasicWorst).
//
// The average case assumes non-zeros are uniformly and independently
// distributed; the worst case gives an upper bound. Operations whose result
// structure follows exactly from the metadata (concatenation, transpose,
// diagonal, ...) are the same for both. An unknown input gives an unknown
// result, except that a product or intersection with an all-zero input is
// all-zero.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_COSTMODEL_SPARSITYESTIMATOR_H
#define AMLS_COSTMODEL_SPARSITYESTIMATOR_H

#include <cstdint>
#include <optional>

namespace mlir::amls {

enum class EstimatorKind { AverageCase, WorstCase };

class SparsityEstimator {
public:
  using Sparsity = std::optional<double>;

  explicit SparsityEstimator(EstimatorKind kind = EstimatorKind::AverageCase)
      : kind(kind) {}
  EstimatorKind getKind() const { return kind; }

  /// A %*% B with common dimension `k`.
  /// Average: 1 - (1 - sA*sB)^k. Worst: min(1, sA*k) * min(1, sB*k).
  Sparsity matmul(Sparsity lhs, Sparsity rhs, int64_t k) const;
  /// Cells non-zero where either input is (add, sub, or, min, max).
  /// Average: sA + sB - sA*sB. Worst: min(1, sA + sB).
  Sparsity unionOf(Sparsity lhs, Sparsity rhs) const;
  /// Cells non-zero where both inputs are (mul, and).
  /// Average: sA * sB. Worst: min(sA, sB).
  Sparsity intersectionOf(Sparsity lhs, Sparsity rhs) const;
  /// Cells non-zero where A is non-zero or B is zero (div, mod).
  /// Average: sA + (1 - sA)(1 - sB). Worst: min(1, sA + 1 - sB).
  Sparsity leftOrRightZero(Sparsity lhs, Sparsity rhs) const;
  /// Each result cell aggregates `length` input cells (rowSums, colMaxs, ...)
  /// and is non-zero if any of them is.
  /// Average: 1 - (1 - s)^length. Worst: min(1, s * length).
  Sparsity aggregate(Sparsity input, int64_t length) const;
  /// A `resultCells`-cell part of a `sourceCells`-cell matrix (slicing).
  /// Average: s. Worst: min(1, s * sourceCells / resultCells).
  Sparsity part(Sparsity input, int64_t sourceCells, int64_t resultCells) const;

  /// Exact from metadata: the cells of both inputs, side by side.
  static Sparsity concatenate(Sparsity lhs, int64_t lhsCells, Sparsity rhs,
                              int64_t rhsCells);
  /// Exact from metadata: diag of an Nx1 vector is an NxN matrix.
  static Sparsity diagFromVector(Sparsity input, int64_t n);
  /// diag of an NxN matrix: at most min(N, nnz) non-zeros on the diagonal.
  /// Average: s. Worst: min(1, s * N).
  Sparsity diagOfMatrix(Sparsity input, int64_t n) const;

private:
  EstimatorKind kind;
};

} // namespace mlir::amls

#endif // AMLS_COSTMODEL_SPARSITYESTIMATOR_H
