//===- RandomTest.cpp - Counter-based random matrices ---------------------===//

#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {
std::vector<double> draw(uint64_t seed, int64_t cells, double min, double max,
                         double sparsity, int32_t pdf) {
  std::vector<double> values(cells);
  for (int64_t i = 0; i < cells; ++i)
    values[i] = amls_rt_rand(seed, i, min, max, sparsity, pdf);
  return values;
}
} // namespace

TEST(Random, SameSeedSameMatrixInAnyOrder) {
  std::vector<double> forward = draw(42, 1000, -1, 1, 0.3, AMLS_PDF_UNIFORM);
  // Cells are independent of the order they are generated in (as by
  // several threads): generate backwards.
  for (int64_t i = 999; i >= 0; --i)
    EXPECT_EQ(amls_rt_rand(42, i, -1, 1, 0.3, AMLS_PDF_UNIFORM), forward[i]);
  EXPECT_NE(draw(43, 1000, -1, 1, 0.3, AMLS_PDF_UNIFORM), forward);
}

TEST(Random, UniformMomentsAndRange) {
  const int64_t n = 200000;
  std::vector<double> v = draw(7, n, 2.0, 6.0, 1.0, AMLS_PDF_UNIFORM);
  double sum = 0, sumSq = 0;
  for (double x : v) {
    ASSERT_GE(x, 2.0);
    ASSERT_LT(x, 6.0);
    sum += x;
    sumSq += x * x;
  }
  double mean = sum / n, var = sumSq / n - mean * mean;
  // Mean 4 and variance (6-2)^2/12; 5 standard errors of tolerance.
  EXPECT_NEAR(mean, 4.0, 5 * std::sqrt(16.0 / 12.0 / n));
  EXPECT_NEAR(var, 16.0 / 12.0, 0.02);
}

TEST(Random, NormalMoments) {
  const int64_t n = 200000;
  std::vector<double> v = draw(11, n, 0, 0, 1.0, AMLS_PDF_NORMAL);
  double sum = 0, sumSq = 0;
  for (double x : v) {
    sum += x;
    sumSq += x * x;
  }
  double mean = sum / n, var = sumSq / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 5 / std::sqrt(double(n)));
  EXPECT_NEAR(var, 1.0, 0.02);
}

TEST(Random, SparsityIsTheFractionOfNonZeros) {
  const int64_t n = 200000;
  for (double sparsity : {0.0, 0.01, 0.3, 1.0}) {
    std::vector<double> v = draw(3, n, 1.0, 2.0, sparsity, AMLS_PDF_UNIFORM);
    int64_t nonZeros = 0;
    for (double x : v)
      nonZeros += x != 0.0;
    double p = double(nonZeros) / n;
    double tolerance = 5 * std::sqrt(sparsity * (1 - sparsity) / n);
    EXPECT_NEAR(p, sparsity, tolerance + 1e-12) << sparsity;
  }
}

TEST(Random, FreshSeedsDiffer) {
  EXPECT_NE(amls_rt_fresh_seed(), amls_rt_fresh_seed());
}
