//===- PropertyLattice.cpp - Size and sparsity lattice --------------------===//

#include "AMLS/CostModel/PropertyLattice.h"

#include <algorithm>
#include <cmath>

using namespace mlir::amls;

int64_t mlir::amls::joinSize(int64_t lhs, int64_t rhs) {
  return lhs == rhs ? lhs : kUnknownSize;
}

double mlir::amls::roundSparsity(double s) {
  if (s <= 0.0 || s >= 1.0)
    return std::clamp(s, 0.0, 1.0);
  double scale = std::pow(10.0, 1 - std::floor(std::log10(s)));
  return std::min(1.0, std::round(s * scale) / scale);
}

std::optional<double> mlir::amls::joinSparsity(std::optional<double> lhs,
                                               std::optional<double> rhs) {
  if (!lhs || !rhs)
    return std::nullopt;
  // Estimates computed along different paths may differ in the last bits.
  if (std::fabs(*lhs - *rhs) <= 1e-12 * std::fmax(1.0, std::fabs(*lhs)))
    return lhs;
  return std::nullopt;
}

std::optional<int64_t> mlir::amls::meetSize(int64_t lhs, int64_t rhs) {
  if (!isKnownSize(lhs))
    return rhs;
  if (!isKnownSize(rhs) || lhs == rhs)
    return lhs;
  return std::nullopt;
}

int64_t mlir::amls::multiplySizes(int64_t lhs, int64_t rhs) {
  int64_t result;
  if (!isKnownSize(lhs) || !isKnownSize(rhs) ||
      __builtin_mul_overflow(lhs, rhs, &result))
    return kUnknownSize;
  return result;
}

int64_t mlir::amls::addSizes(int64_t lhs, int64_t rhs) {
  int64_t result;
  if (!isKnownSize(lhs) || !isKnownSize(rhs) ||
      __builtin_add_overflow(lhs, rhs, &result))
    return kUnknownSize;
  return result;
}
