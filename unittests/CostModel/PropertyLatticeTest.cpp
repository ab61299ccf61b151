//===- PropertyLatticeTest.cpp - Size and sparsity lattice ----------------===//

#include "AMLS/CostModel/PropertyLattice.h"

#include <gtest/gtest.h>

using namespace mlir::amls;

TEST(PropertyLattice, JoinSizeKeepsEqualSizes) {
  EXPECT_EQ(joinSize(3, 3), 3);
  EXPECT_EQ(joinSize(0, 0), 0);
}

TEST(PropertyLattice, JoinSizeWidensDifferentSizes) {
  EXPECT_EQ(joinSize(3, 4), kUnknownSize);
  EXPECT_EQ(joinSize(3, kUnknownSize), kUnknownSize);
  EXPECT_EQ(joinSize(kUnknownSize, kUnknownSize), kUnknownSize);
}

TEST(PropertyLattice, JoinSparsity) {
  EXPECT_EQ(joinSparsity(0.5, 0.5), 0.5);
  EXPECT_EQ(joinSparsity(0.5, 0.25), std::nullopt);
  EXPECT_EQ(joinSparsity(0.5, std::nullopt), std::nullopt);
  // 0.1 + 0.2 != 0.3 in binary, but both estimate the same density.
  ASSERT_TRUE(joinSparsity(0.1 + 0.2, 0.3).has_value());
  EXPECT_DOUBLE_EQ(*joinSparsity(0.1 + 0.2, 0.3), 0.3);
}

TEST(PropertyLattice, MeetSizePicksTheKnownSize) {
  EXPECT_EQ(meetSize(kUnknownSize, 5), 5);
  EXPECT_EQ(meetSize(5, kUnknownSize), 5);
  EXPECT_EQ(meetSize(5, 5), 5);
  EXPECT_EQ(meetSize(kUnknownSize, kUnknownSize), kUnknownSize);
  EXPECT_EQ(meetSize(4, 5), std::nullopt);
}

TEST(PropertyLattice, SizeArithmetic) {
  EXPECT_EQ(multiplySizes(1000, 100), 100000);
  EXPECT_EQ(multiplySizes(kUnknownSize, 3), kUnknownSize);
  EXPECT_EQ(multiplySizes(int64_t(1) << 40, int64_t(1) << 40), kUnknownSize);
  EXPECT_EQ(addSizes(3, 4), 7);
  EXPECT_EQ(addSizes(3, kUnknownSize), kUnknownSize);
}
