//===- FusionPlanTest.cpp - Cost-based fusion plans -----------------------===//

#include "AMLS/CostModel/FusionPlan.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir::amls::fusion;

namespace {

Node input(const std::string &name, int64_t rows, int64_t cols) {
  Node node;
  node.name = name;
  node.kind = NodeKind::Input;
  node.rows = rows;
  node.cols = cols;
  return node;
}

Node cell(const std::string &name, int64_t rows, int64_t cols,
          std::vector<unsigned> inputs, double flops = 1,
          bool external = false) {
  Node node;
  node.name = name;
  node.kind = NodeKind::Cell;
  node.rows = rows;
  node.cols = cols;
  node.inputs = std::move(inputs);
  node.flopsPerCell = flops;
  node.externalUse = external;
  return node;
}

Node fullSum(const std::string &name, unsigned in, bool external = true) {
  Node node;
  node.name = name;
  node.kind = NodeKind::Aggregate;
  node.axis = AggregateAxis::All;
  node.inputs = {in};
  node.externalUse = external;
  return node;
}

/// The seed's example: C = A + s*B; D = (C/2)^(C-1); E = exp(C-1).
std::vector<Node> seedExample(int64_t n) {
  return {input("A", n, n),
          input("B", n, n),
          input("s", 1, 1),
          cell("sB", n, n, {1, 2}),
          cell("C", n, n, {0, 3}),
          cell("C/2", n, n, {4}),
          cell("C-1", n, n, {4}),
          cell("D", n, n, {5, 6}, 10, true),
          cell("E", n, n, {6}, 10, true)};
}

double bruteForce(const FusionPlanner &planner, unsigned partition) {
  unsigned k = planner.getPartitions()[partition].points.size();
  double best = -1;
  for (uint64_t bits = 0; bits < (uint64_t(1) << k); ++bits) {
    Assignment cuts(k);
    for (unsigned i = 0; i < k; ++i)
      cuts[i] = (bits >> i) & 1;
    double c = planner.cost(partition, cuts);
    if (best < 0 || c < best)
      best = c;
  }
  return best;
}

TEST(FusionPlan, SeedExampleMaterializationPoints) {
  FusionPlanner planner(seedExample(2000));
  ASSERT_EQ(planner.getPartitions().size(), 1u);
  const Partition &partition = planner.getPartitions()[0];
  // C has two consumers (C/2 and C-1), C-1 two (D and E).
  ASSERT_EQ(partition.points.size(), 4u);
  EXPECT_EQ(partition.points[0].producer, 4u);
  EXPECT_EQ(partition.points[2].producer, 6u);
  // s*B is fused into C; the scalar s and the inputs are read.
  EXPECT_TRUE(planner.isFusible(3, 4));
  EXPECT_FALSE(planner.isFusible(2, 3));
}

TEST(FusionPlan, SeedExampleTradeOffFollowsSizes) {
  // Large (32 MB per matrix, memory bound): recomputing C in both consumers
  // reads A and B twice but writes nothing in between; materializing C
  // costs a write and two reads of C at memory bandwidth. Fuse-all wins.
  FusionPlanner large(seedExample(2000));
  PartitionPlan largePlan = large.plan(0, PlanMode::CostBased);
  EXPECT_EQ(toString(largePlan.cuts), "0000");
  EXPECT_EQ(largePlan.operators.size(), 2u);
  EXPECT_DOUBLE_EQ(largePlan.cost, bruteForce(large, 0));

  // Small (80 KB, fits in the cache): C and C-1 stay in the cache between
  // producer and consumers, while A and B come from memory; materializing
  // them saves the second read of A and B and the recomputation.
  FusionPlanner small(seedExample(100));
  PartitionPlan smallPlan = small.plan(0, PlanMode::CostBased);
  EXPECT_NE(toString(smallPlan.cuts), "0000");
  EXPECT_GT(smallPlan.operators.size(), 2u);
  EXPECT_DOUBLE_EQ(smallPlan.cost, bruteForce(small, 0));
  EXPECT_LT(smallPlan.cost, small.cost(0, Assignment(4, false)));
}

TEST(FusionPlan, HeuristicModes) {
  FusionPlanner planner(seedExample(500));
  PartitionPlan all = planner.plan(0, PlanMode::FuseAll);
  PartitionPlan none = planner.plan(0, PlanMode::FuseNoRedundancy);
  PartitionPlan best = planner.plan(0, PlanMode::CostBased);
  EXPECT_EQ(toString(all.cuts), "0000");
  EXPECT_EQ(toString(none.cuts), "1111");
  // Fuse-no-redundancy: C, C-1, D and E each one operator (C/2 is fused
  // into D, s*B into C).
  EXPECT_EQ(none.operators.size(), 4u);
  EXPECT_LE(best.cost, all.cost);
  EXPECT_LE(best.cost, none.cost);
}

TEST(FusionPlan, MultiAggregateSharesOnePass) {
  // L2SVM's line search: out = 1 - Y * (Xw + step*Xd); sv = out > 0;
  // out = out * sv; g = sum(out * Y * Xd); h = sum(Xd * sv * Xd).
  int64_t n = 100000;
  std::vector<Node> nodes = {input("Xw", n, 1),
                             input("Xd", n, 1),
                             input("Y", n, 1),
                             input("step", 1, 1),
                             cell("step*Xd", n, 1, {3, 1}),
                             cell("tmp", n, 1, {0, 4}),
                             cell("Y*tmp", n, 1, {2, 5}),
                             cell("out", n, 1, {6}),
                             cell("sv", n, 1, {7}),
                             cell("out*sv", n, 1, {7, 8}),
                             cell("*Y", n, 1, {9, 2}),
                             cell("*Xd", n, 1, {10, 1}),
                             fullSum("g", 11),
                             cell("Xd*sv", n, 1, {1, 8}),
                             cell("*Xd2", n, 1, {13, 1}),
                             fullSum("h", 14)};
  FusionPlanner planner(nodes);
  ASSERT_EQ(planner.getPartitions().size(), 1u);
  PartitionPlan plan = planner.plan(0, PlanMode::CostBased);
  // One pass computing both sums from the inputs: no vector intermediate
  // is materialized.
  ASSERT_EQ(plan.operators.size(), 1u);
  EXPECT_EQ(plan.operators[0].kind, Template::MAgg);
  EXPECT_EQ(plan.operators[0].roots, (std::vector<unsigned>{12, 15}));
  EXPECT_EQ(plan.operators[0].inputs, (std::vector<unsigned>{0, 1, 2, 3}));
  EXPECT_DOUBLE_EQ(plan.cost, bruteForce(planner, 0));
}

TEST(FusionPlan, DependentAggregatesStaySeparate) {
  // s = sum(X); t = sum(X - s): t needs s first.
  std::vector<Node> nodes = {
      input("X", 1000, 1000), cell("X*X", 1000, 1000, {0}),
      fullSum("s", 1, false), cell("X-s", 1000, 1000, {0, 2}), fullSum("t", 3)};
  FusionPlanner planner(nodes);
  for (const PartitionPlan &plan : planner.planAll(PlanMode::CostBased))
    for (const FusedOperator &op : plan.operators)
      EXPECT_EQ(op.kind, Template::Cell);
}

/// Random DAGs of up to 15 nodes: the cost-based plan is the brute-force
/// optimum, with and without pruning (which only skips work).
TEST(FusionPlan, ExhaustiveOnRandomGraphs) {
  std::mt19937 random(2018);
  uint64_t skipped = 0, withCutSets = 0, evaluated = 0,
           evaluatedWithoutCutSets = 0;
  for (int graph = 0; graph < 1000; ++graph) {
    int64_t n = std::uniform_int_distribution<int>(0, 1)(random) ? 2000 : 60;
    std::vector<std::pair<int64_t, int64_t>> shapes = {
        {n, n}, {n, n}, {n, 1}, {1, 1}};
    std::vector<Node> nodes;
    unsigned inputs = std::uniform_int_distribution<unsigned>(1, 3)(random);
    for (unsigned i = 0; i < inputs; ++i) {
      auto [rows, cols] = shapes[random() % shapes.size()];
      nodes.push_back(input("in" + std::to_string(i), rows, cols));
    }
    nodes[0].rows = nodes[0].cols = n;
    unsigned total =
        std::uniform_int_distribution<unsigned>(inputs + 2, 15)(random);
    while (nodes.size() < total) {
      unsigned self = nodes.size();
      std::vector<unsigned> operands = {static_cast<unsigned>(random() % self)};
      if (random() % 2)
        operands.push_back(random() % self);
      const Node &first = nodes[operands[0]];
      if (first.rows == n && first.cols == n && random() % 5 == 0) {
        Node sum =
            fullSum("n" + std::to_string(self), operands[0], random() % 2);
        nodes.push_back(sum);
        continue;
      }
      int64_t rows = 1, cols = 1;
      for (unsigned operand : operands) {
        rows = std::max(rows, nodes[operand].rows);
        cols = std::max(cols, nodes[operand].cols);
      }
      double flops = random() % 4 == 0 ? 10 : 1;
      nodes.push_back(cell("n" + std::to_string(self), rows, cols, operands,
                           flops, random() % 4 == 0));
    }
    nodes.back().externalUse = true;
    FusionPlanner planner(nodes);
    FusionPlanner unstructured(nodes);
    unstructured.setStructuralPruning(false);
    for (unsigned p = 0; p < planner.getPartitions().size(); ++p) {
      double optimum = bruteForce(planner, p);
      PartitionPlan plan = planner.plan(p, PlanMode::CostBased);
      EXPECT_NEAR(plan.cost, optimum, 1e-12 * optimum)
          << "graph " << graph << ", partition " << p << "\n"
          << planner.describe();
      EXPECT_FALSE(plan.greedy);
      if (plan.subProblems > 0)
        ++withCutSets;
      // Cost-based pruning alone: every assignment is costed or skipped
      // (the two heuristics, costed first, may be counted again when
      // pruning skips their subtree).
      PartitionPlan costPruned = unstructured.plan(p, PlanMode::CostBased);
      EXPECT_NEAR(costPruned.cost, optimum, 1e-12 * optimum)
          << "graph " << graph << ", partition " << p;
      EXPECT_EQ(costPruned.subProblems, 0u);
      skipped += costPruned.skipped;
      unsigned k = planner.getPartitions()[p].points.size();
      uint64_t all = uint64_t(1) << k;
      EXPECT_GE(costPruned.evaluated + costPruned.skipped, all);
      EXPECT_LE(costPruned.evaluated + costPruned.skipped, all + 2);
      // Structural pruning reorders the enumeration (the cut set first),
      // which may cost a few evaluations where it finds no cut set.
      evaluated += plan.evaluated;
      evaluatedWithoutCutSets += costPruned.evaluated;
    }
  }
  // Both kinds of pruning happened somewhere, and cut sets saved work.
  EXPECT_GT(skipped, 0u);
  EXPECT_GT(withCutSets, 0u);
  EXPECT_LT(evaluated, evaluatedWithoutCutSets);
}

/// Structural pruning: C feeds two chains, each with a value of two
/// consumers. Cutting both references out of C splits the other four
/// points into two independent pairs, optimized one after the other.
TEST(FusionPlan, CutSetSplitsIndependentSubProblems) {
  int64_t n = 1000;
  std::vector<Node> nodes = {input("A", n, n),
                             cell("C", n, n, {0}, 1, true),
                             cell("D1", n, n, {1}),
                             cell("E1", n, n, {2}, 10, true),
                             cell("F1", n, n, {2}, 10, true),
                             cell("D2", n, n, {1}),
                             cell("E2", n, n, {5}, 10, true),
                             cell("F2", n, n, {5}, 10, true)};
  FusionPlanner planner(nodes);
  ASSERT_EQ(planner.getPartitions().size(), 1u);
  std::optional<CutSet> cutSet = planner.findCutSet(0);
  ASSERT_TRUE(cutSet.has_value());
  const std::vector<InterestingPoint> &points =
      planner.getPartitions()[0].points;
  ASSERT_EQ(cutSet->points.size(), 2u);
  for (unsigned point : cutSet->points)
    EXPECT_EQ(points[point].producer, 1u);
  ASSERT_EQ(cutSet->groups.size(), 2u);
  EXPECT_EQ(cutSet->groups[0].size(), 2u);
  EXPECT_EQ(cutSet->groups[1].size(), 2u);

  PartitionPlan structured = planner.plan(0, PlanMode::CostBased,
                                          /*maxExactPoints=*/20,
                                          /*trace=*/true);
  FusionPlanner unstructured(nodes);
  unstructured.setStructuralPruning(false);
  PartitionPlan plain = unstructured.plan(0, PlanMode::CostBased);
  EXPECT_EQ(structured.subProblems, 2u);
  EXPECT_NEAR(structured.cost, bruteForce(planner, 0), 1e-15);
  EXPECT_NEAR(structured.cost, plain.cost, 1e-15);
  EXPECT_LT(structured.evaluated, plain.evaluated);
}

/// Two full aggregates on different sides of a would-be cut set may share
/// a multi-aggregate pass: the costs do not add up, no cut set is used.
TEST(FusionPlan, NoCutSetAcrossFullAggregates) {
  int64_t n = 1000;
  std::vector<Node> nodes = {input("A", n, n),
                             cell("C", n, n, {0}, 1, true),
                             cell("D1", n, n, {1}),
                             cell("E1", n, n, {2}, 10, true),
                             fullSum("S1", 2),
                             cell("D2", n, n, {1}),
                             cell("E2", n, n, {5}, 10, true),
                             fullSum("S2", 5)};
  FusionPlanner planner(nodes);
  ASSERT_EQ(planner.getPartitions().size(), 1u);
  EXPECT_FALSE(planner.findCutSet(0).has_value());
  PartitionPlan plan = planner.plan(0, PlanMode::CostBased);
  EXPECT_EQ(plan.subProblems, 0u);
  EXPECT_NEAR(plan.cost, bruteForce(planner, 0), 1e-15);
}

TEST(FusionPlan, BudgetOfCostedPlans) {
  FusionPlanner planner(seedExample(100));
  PartitionPlan exact = planner.plan(0, PlanMode::CostBased);
  EXPECT_FALSE(exact.truncated);
  PartitionPlan budget = planner.plan(0, PlanMode::CostBased,
                                      /*maxExactPoints=*/20, /*trace=*/false,
                                      /*maxEvaluations=*/3);
  EXPECT_TRUE(budget.truncated);
  EXPECT_GE(budget.cost, exact.cost);
  EXPECT_LE(budget.cost, planner.plan(0, PlanMode::FuseAll).cost);
}

TEST(FusionPlan, GreedyAboveTheLimit) {
  FusionPlanner planner(seedExample(100));
  PartitionPlan greedy = planner.plan(0, PlanMode::CostBased,
                                      /*maxExactPoints=*/2);
  EXPECT_TRUE(greedy.greedy);
  PartitionPlan exact = planner.plan(0, PlanMode::CostBased);
  EXPECT_GE(greedy.cost, exact.cost);
  EXPECT_LE(greedy.cost, planner.plan(0, PlanMode::FuseAll).cost);
}

} // namespace
