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

// A (10 x 10) holds one non-zero per row, all in column 0; B (10 x 10)
// holds five a row in columns 0-4 but none in row 0; C is 10 x 2 dense.
// The densities (0.1, 0.45, 1) make A(BC) look cheaper: (AB)C costs
// 10^3 0.1 0.45 = 45 and 200 times AB's density 1 - (1 - 0.045)^10, A(BC)
// 200 0.45 = 90 and 200 0.1 (1 - 0.55^10). The sketches see that A's
// non-zeros meet B's empty row only: AB is empty, (AB)C costs nothing,
// while BC still costs 45 * 2 = 90 pairs.
TEST(MatmulChain, SketchesSeeStructure) {
  MNCSketch::Counts aRows(10, 1), aCols(10, 0), bRows(10, 5), bCols(10, 0);
  aCols[0] = 10;
  bRows[0] = 0;
  for (int c = 0; c < 5; ++c)
    bCols[c] = 9;
  auto a =
      std::make_shared<const MNCSketch>(MNCSketch::fromCounts(aRows, aCols));
  auto b =
      std::make_shared<const MNCSketch>(MNCSketch::fromCounts(bRows, bCols));
  auto c = std::make_shared<const MNCSketch>(MNCSketch::uniform(10, 2, true));
  std::vector<ChainOperand> densities = {
      {10, 10, 0.1, nullptr}, {10, 10, 0.45, nullptr}, {10, 2, 1.0, nullptr}};
  MatmulChainPlan metadata =
      MatmulChainPlan::compute(densities, SparsityEstimator());
  EXPECT_EQ(metadata.toString(), "(A1(A2A3))");
  double ab = 1 - std::pow(1 - 0.045, 10), bc = 1 - std::pow(0.55, 10);
  EXPECT_NEAR(metadata.getLeftToRightCost(), 45 + 200 * ab, 1e-9);
  EXPECT_NEAR(metadata.getCost(), 90 + 20 * bc, 1e-9);

  std::vector<ChainOperand> sketched = densities;
  sketched[0].sketch = a;
  sketched[1].sketch = b;
  sketched[2].sketch = c;
  MatmulChainPlan mnc = MatmulChainPlan::compute(sketched, SparsityEstimator());
  EXPECT_EQ(mnc.toString(), "((A1A2)A3)");
  EXPECT_EQ(mnc.getCost(), 0.0);
  EXPECT_EQ(mnc.getLeftToRightCost(), 0.0);
  ChainOperand product;
  EXPECT_EQ(multiplyChainOperands(sketched[1], sketched[2], SparsityEstimator(),
                                  product),
            90.0);
  ASSERT_TRUE(product.sketch);
  EXPECT_EQ(product.sketch->getRowCounts()[0], 0u);
}

} // namespace
