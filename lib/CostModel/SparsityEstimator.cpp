//===- SparsityEstimator.cpp - Metadata sparsity estimators ---------------===//

#include "AMLS/CostModel/SparsityEstimator.h"
#include "AMLS/CostModel/PropertyLattice.h"

#include <algorithm>
#include <cmath>

using namespace mlir::amls;
using Sparsity = SparsityEstimator::Sparsity;

static double clamp01(double value) { return std::clamp(value, 0.0, 1.0); }

/// An all-zero input makes a product (or intersection) all-zero, whatever
/// is known about the other input.
static bool isEmpty(Sparsity sparsity) { return sparsity && *sparsity == 0.0; }

Sparsity SparsityEstimator::matmul(Sparsity lhs, Sparsity rhs,
                                   int64_t k) const {
  if (isEmpty(lhs) || isEmpty(rhs))
    return 0.0;
  if (!lhs || !rhs || !isKnownSize(k))
    return std::nullopt;
  double kd = static_cast<double>(k);
  if (kind == EstimatorKind::WorstCase)
    return std::min(1.0, *lhs * kd) * std::min(1.0, *rhs * kd);
  // 1 - (1 - p)^k computed without cancellation for small p.
  double p = *lhs * *rhs;
  if (p >= 1.0)
    return k > 0 ? 1.0 : 0.0;
  return clamp01(-std::expm1(kd * std::log1p(-p)));
}

Sparsity SparsityEstimator::unionOf(Sparsity lhs, Sparsity rhs) const {
  if (!lhs || !rhs)
    return std::nullopt;
  if (kind == EstimatorKind::WorstCase)
    return std::min(1.0, *lhs + *rhs);
  // 1 - (1-sA)(1-sB): exactly 1 when either input is dense.
  return clamp01(1.0 - (1.0 - *lhs) * (1.0 - *rhs));
}

Sparsity SparsityEstimator::intersectionOf(Sparsity lhs, Sparsity rhs) const {
  if (isEmpty(lhs) || isEmpty(rhs))
    return 0.0;
  if (!lhs || !rhs)
    return std::nullopt;
  if (kind == EstimatorKind::WorstCase)
    return std::min(*lhs, *rhs);
  return *lhs * *rhs;
}

Sparsity SparsityEstimator::leftOrRightZero(Sparsity lhs, Sparsity rhs) const {
  if (!lhs || !rhs)
    return std::nullopt;
  if (kind == EstimatorKind::WorstCase)
    return std::min(1.0, *lhs + 1.0 - *rhs);
  return clamp01(*lhs + (1.0 - *lhs) * (1.0 - *rhs));
}

Sparsity SparsityEstimator::aggregate(Sparsity input, int64_t length) const {
  if (!input || !isKnownSize(length))
    return std::nullopt;
  double n = static_cast<double>(length);
  if (kind == EstimatorKind::WorstCase)
    return std::min(1.0, *input * n);
  if (*input >= 1.0)
    return length > 0 ? 1.0 : 0.0;
  return clamp01(-std::expm1(n * std::log1p(-*input)));
}

Sparsity SparsityEstimator::part(Sparsity input, int64_t sourceCells,
                                 int64_t resultCells) const {
  if (!input)
    return std::nullopt;
  if (kind == EstimatorKind::AverageCase)
    return input;
  if (!isKnownSize(sourceCells) || !isKnownSize(resultCells))
    return std::nullopt;
  if (resultCells == 0)
    return 0.0;
  return std::min(1.0, *input * static_cast<double>(sourceCells) /
                           static_cast<double>(resultCells));
}

Sparsity SparsityEstimator::concatenate(Sparsity lhs, int64_t lhsCells,
                                        Sparsity rhs, int64_t rhsCells) {
  if (!lhs || !rhs || !isKnownSize(lhsCells) || !isKnownSize(rhsCells))
    return std::nullopt;
  double total = static_cast<double>(lhsCells) + static_cast<double>(rhsCells);
  if (total == 0)
    return 0.0;
  return (*lhs * lhsCells + *rhs * rhsCells) / total;
}

Sparsity SparsityEstimator::diagFromVector(Sparsity input, int64_t n) {
  if (!input || !isKnownSize(n))
    return std::nullopt;
  return n == 0 ? 0.0 : *input / static_cast<double>(n);
}

Sparsity SparsityEstimator::diagOfMatrix(Sparsity input, int64_t n) const {
  if (!input)
    return std::nullopt;
  if (kind == EstimatorKind::AverageCase)
    return input;
  if (!isKnownSize(n))
    return std::nullopt;
  return std::min(1.0, *input * static_cast<double>(n));
}
