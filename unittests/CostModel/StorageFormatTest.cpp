//===- StorageFormatTest.cpp - Dense or CSR for a matrix ------------------===//

#include "AMLS/CostModel/StorageFormat.h"

#include <gtest/gtest.h>

using namespace mlir::amls;

TEST(StorageFormat, SparseBelowTheTurnPoint) {
  StorageFormatRule rule;
  EXPECT_TRUE(rule.prefersCSR(1000, 1000, 0.01));
  EXPECT_TRUE(rule.prefersCSR(1000, 1000, 0.39));
  EXPECT_FALSE(rule.prefersCSR(1000, 1000, 0.4));
  EXPECT_FALSE(rule.prefersCSR(1000, 1000, std::nullopt));
  EXPECT_FALSE(rule.prefersCSR(-1, 1000, 0.01));
}

TEST(StorageFormat, VectorsAndSmallMatricesStayDense) {
  StorageFormatRule rule;
  EXPECT_FALSE(rule.prefersCSR(100000, 1, 0.001));
  // 4095 cells: below minCells; 4096: at it.
  EXPECT_FALSE(rule.prefersCSR(4095, 1, 0.001));
  EXPECT_FALSE(rule.prefersCSR(63, 65, 0.01));
  EXPECT_TRUE(rule.prefersCSR(64, 64, 0.01));
}

TEST(StorageFormat, CSRMustBeSmallerThanDense) {
  StorageFormatRule rule;
  // Two columns, one non-zero per row: 12 + 8 bytes a row against 16.
  EXPECT_FALSE(rule.prefersCSR(10000, 2, 0.35));
  EXPECT_DOUBLE_EQ(StorageFormatRule::csrBytes(10, 5), 12.0 * 5 + 8.0 * 11);
  EXPECT_DOUBLE_EQ(StorageFormatRule::denseBytes(10, 5), 400.0);
}

TEST(StorageFormat, BoundedNonZerosWithDataDependentColumns) {
  StorageFormatRule rule;
  // table(seq(1, N), y): one non-zero per row; the categories are read from
  // the data, assumed 3 (20 bytes a row as CSR against 24 dense).
  EXPECT_TRUE(rule.prefersCSRWithNnzBound(10000, -1, 10000));
  EXPECT_FALSE(rule.prefersCSRWithNnzBound(10000, 2, 10000));
  EXPECT_TRUE(rule.prefersCSRWithNnzBound(10000, 10, 10000));
  // More non-zeros than cells is capped at a full matrix.
  EXPECT_FALSE(rule.prefersCSRWithNnzBound(100, 100, 1000000));
  EXPECT_FALSE(rule.prefersCSRWithNnzBound(-1, 10, 10));
  EXPECT_FALSE(rule.prefersCSRWithNnzBound(1000, 10, -1));
  rule.assumedCols = 2;
  EXPECT_FALSE(rule.prefersCSRWithNnzBound(10000, -1, 10000));
}
