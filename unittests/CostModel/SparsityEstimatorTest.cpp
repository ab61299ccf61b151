//===- SparsityEstimatorTest.cpp - Metadata sparsity estimators -----------===//
//
// Expected values are computed by hand from the formulas of the MNC paper's
// MetaAC/MetaWC estimators (SystemDS EstimatorBasicAvg/EstimatorBasicWorst).
//
//===----------------------------------------------------------------------===//

#include "AMLS/CostModel/SparsityEstimator.h"

#include <gtest/gtest.h>

using namespace mlir::amls;

namespace {
const SparsityEstimator avg(EstimatorKind::AverageCase);
const SparsityEstimator worst(EstimatorKind::WorstCase);

void expectNear(std::optional<double> actual, double expected) {
  ASSERT_TRUE(actual.has_value());
  EXPECT_NEAR(*actual, expected, 1e-12);
}
} // namespace

TEST(SparsityEstimator, MatmulAverageCase) {
  // 1 - (1 - 0.1*0.2)^10 = 1 - 0.98^10 = 1 - 0.8170728068875467
  expectNear(avg.matmul(0.1, 0.2, 10), 0.18292719311245326);
  // Dense inputs give a dense product, an empty common dimension nothing.
  expectNear(avg.matmul(1.0, 1.0, 5), 1.0);
  expectNear(avg.matmul(0.5, 0.5, 0), 0.0);
  // Tiny densities must not cancel to 0: 1-(1-1e-12)^1000 ~= 1e-9.
  expectNear(avg.matmul(1e-6, 1e-6, 1000), 1e-9);
}

TEST(SparsityEstimator, MatmulWorstCase) {
  // min(1, 0.1*3) * min(1, 0.2*3) = 0.3 * 0.6
  expectNear(worst.matmul(0.1, 0.2, 3), 0.18);
  expectNear(worst.matmul(0.1, 0.2, 10), 1.0);
}

TEST(SparsityEstimator, ElementwiseAverageCase) {
  expectNear(avg.unionOf(0.1, 0.2), 0.28);         // 0.1 + 0.2 - 0.02
  expectNear(avg.intersectionOf(0.1, 0.2), 0.02);  // 0.1 * 0.2
  expectNear(avg.leftOrRightZero(0.1, 0.2), 0.82); // 0.1 + 0.9 * 0.8
}

TEST(SparsityEstimator, ElementwiseWorstCase) {
  expectNear(worst.unionOf(0.1, 0.2), 0.3);
  expectNear(worst.unionOf(0.7, 0.6), 1.0);
  expectNear(worst.intersectionOf(0.1, 0.2), 0.1);
  expectNear(worst.leftOrRightZero(0.1, 0.2), 0.9); // 0.1 + 1 - 0.2
}

TEST(SparsityEstimator, Aggregate) {
  expectNear(avg.aggregate(0.5, 3), 0.875); // 1 - 0.5^3
  expectNear(worst.aggregate(0.5, 3), 1.0); // min(1, 1.5)
  expectNear(worst.aggregate(0.1, 4), 0.4);
}

TEST(SparsityEstimator, Part) {
  expectNear(avg.part(0.3, 100, 20), 0.3);
  // All 10 non-zeros of 100 cells may fall into the 20-cell part.
  expectNear(worst.part(0.1, 100, 20), 0.5);
}

TEST(SparsityEstimator, ExactMetadata) {
  // 3 of 6 cells and 0 of 2 cells: 3 of 8.
  expectNear(SparsityEstimator::concatenate(0.5, 6, 0.0, 2), 0.375);
  // A dense 4x1 vector on the diagonal of a 4x4 matrix: 4 of 16.
  expectNear(SparsityEstimator::diagFromVector(1.0, 4), 0.25);
  expectNear(avg.diagOfMatrix(0.1, 4), 0.1);
  expectNear(worst.diagOfMatrix(0.1, 4), 0.4);
}

TEST(SparsityEstimator, UnknownInputsGiveUnknownResults) {
  for (const SparsityEstimator *estimator : {&avg, &worst}) {
    EXPECT_EQ(estimator->matmul(std::nullopt, 0.5, 3), std::nullopt);
    EXPECT_EQ(estimator->unionOf(0.5, std::nullopt), std::nullopt);
    EXPECT_EQ(estimator->intersectionOf(std::nullopt, 0.5), std::nullopt);
    EXPECT_EQ(estimator->aggregate(std::nullopt, 3), std::nullopt);
  }
  EXPECT_EQ(SparsityEstimator::concatenate(0.5, 6, std::nullopt, 2),
            std::nullopt);
}

TEST(SparsityEstimator, EmptyInputGivesEmptyProduct) {
  for (const SparsityEstimator *estimator : {&avg, &worst}) {
    expectNear(estimator->matmul(std::nullopt, 0.0, 7), 0.0);
    expectNear(estimator->matmul(0.0, 0.5, 7), 0.0);
    expectNear(estimator->intersectionOf(0.0, std::nullopt), 0.0);
    EXPECT_EQ(estimator->unionOf(0.0, std::nullopt), std::nullopt);
  }
}
