//===- MatmulChainTest.cpp - Matrix-multiplication chain order ------------===//

#include "AMLS/CostModel/MatmulChain.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace mlir::amls;

namespace {

// The textbook chain (Cormen et al., 15.2): 30x35, 35x15, 15x5, 5x10, 10x20,
// 20x25 costs 15125 scalar multiplications in the order
// ((A1(A2A3))((A4A5)A6)).
TEST(MatmulChain, TextbookChain) {
  MatmulChainPlan plan = MatmulChainPlan::compute({30, 35, 15, 5, 10, 20, 25});
  EXPECT_EQ(plan.getCost(), 15125);
  EXPECT_EQ(plan.toString(), "((A1(A2A3))((A4A5)A6))");
  EXPECT_EQ(plan.getSplit(0, 5), 2u);
  // As written: 30*35*15 + 30*15*5 + 30*5*10 + 30*10*20 + 30*20*25.
  EXPECT_EQ(plan.getLeftToRightCost(), 40500);
}

TEST(MatmulChain, SubChainsOfTheTextbookChain) {
  // The textbook's tables: m[1,4] = 9375, s[1,4] = 3; m[2,5] = 7125.
  MatmulChainPlan plan = MatmulChainPlan::compute({30, 35, 15, 5, 10});
  EXPECT_EQ(plan.getCost(), 9375);
  EXPECT_EQ(plan.toString(), "((A1(A2A3))A4)");
  EXPECT_EQ(MatmulChainPlan::compute({35, 15, 5, 10, 20}).getCost(), 7125);
}

TEST(MatmulChain, ShortChains) {
  MatmulChainPlan single = MatmulChainPlan::compute({4, 7});
  EXPECT_EQ(single.getCost(), 0);
  EXPECT_EQ(single.toString(), "A1");
  MatmulChainPlan pair = MatmulChainPlan::compute({4, 7, 2});
  EXPECT_EQ(pair.getCost(), 56);
  EXPECT_EQ(pair.toString(), "(A1A2)");
  // Equal costs keep the order as written.
  MatmulChainPlan tie = MatmulChainPlan::compute({2, 2, 2, 2});
  EXPECT_EQ(tie.toString(), "((A1A2)A3)");
}

// PageRank's teleport term e %*% u %*% p: n x 1, 1 x n, n x 1. Left to right
// builds an n x n matrix (2n^2 multiplications); e %*% (u %*% p) costs 2n.
TEST(MatmulChain, OuterProductThenVector) {
  MatmulChainPlan plan = MatmulChainPlan::compute({1000, 1, 1000, 1});
  EXPECT_EQ(plan.toString(), "(A1(A2A3))");
  EXPECT_EQ(plan.getCost(), 2000);
  EXPECT_EQ(plan.getLeftToRightCost(), 2e6);
}

// A (1000x1000, sparsity 1e-4) %*% B (1000x1000, dense) %*% C (1000x10,
// dense). Dense costs prefer A(BC): 1e7 + 1e7 against 1e9 + 1e7. Counting
// only non-zero products, A is cheapest to use while it is sparse:
// (AB) costs 1e9 * 1e-4 = 1e5 and has sparsity 1 - (1 - 1e-4)^1000, and
// (AB)C costs 1e7 times that; A(BC) still costs 1e7 for BC.
TEST(MatmulChain, SparsityAwareOrderDiffers) {
  std::vector<int64_t> dims = {1000, 1000, 1000, 10};
  MatmulChainPlan dense = MatmulChainPlan::compute(dims);
  EXPECT_EQ(dense.toString(), "(A1(A2A3))");
  EXPECT_EQ(dense.getCost(), 2e7);

  MatmulChainPlan sparse = MatmulChainPlan::compute(dims, {1e-4, 1.0, 1.0});
  EXPECT_EQ(sparse.toString(), "((A1A2)A3)");
  double abSparsity = 1 - std::pow(1 - 1e-4, 1000);
  double sparseCostOfSparsePlan = 1e5 + 1e7 * abSparsity;
  double sparseCostOfDensePlan = 1e7 + 1e7 * 1e-4;
  EXPECT_NEAR(sparse.getCost(), sparseCostOfSparsePlan, 1e-6);
  EXPECT_LT(sparse.getCost(), sparseCostOfDensePlan / 9);
}

} // namespace
