//===- FusionPlan.h - Cost-based operator fusion plans ----------*- C++ -*-===//
//
// The optimizer of SystemML's code generator (seed 000; Boehm et al., "On
// Optimizing Operator Fusion Plans for Large-Scale Machine Learning in
// SystemML", PVLDB 2018) on an abstract dataflow graph, so that it can be
// unit-tested without IR:
//
// 1. Candidate exploration: a bottom-up pass records in a memo table which
//    templates each node can open, and which of its inputs it can fuse
//    (cell-wise chains; aggregates close a cell template; full aggregates
//    are multi-aggregate candidates).
// 2. Candidate selection: plan partitions are the connected components of
//    the fusion references; a node with several consumers is a
//    materialization point, and each fusion reference out of one is an
//    interesting point: fused (the consumer recomputes the node) or cut
//    (the node is materialized and read). Each partition's 2^k assignments
//    are enumerated with the analytical cost model and cost-based pruning
//    (upper bound: the best plan so far, seeded with the fuse-all and
//    fuse-no-redundancy heuristics; lower bound: reading the partition's
//    inputs, writing its outputs, writing and reading every intermediate
//    materialized so far, computing every node once); above a size limit a
//    greedy local search replaces exact enumeration.
// 3. The chosen assignment defines the fused operators: every materialized
//    node is the root of an operator holding the nodes reachable from it
//    through fused references; full aggregates of one partition that read
//    common inputs and do not depend on each other share one pass (MAgg).
//
// Cost of a fused operator (seed 000): T_write + max(T_read, T_compute),
// reads and writes at memory bandwidth, except intermediates that are both
// produced and consumed inside a partition and fit in the cache, which are
// written and read at cache bandwidth; compute at peak FLOP rate.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_COSTMODEL_FUSIONPLAN_H
#define AMLS_COSTMODEL_FUSIONPLAN_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::amls::fusion {

enum class NodeKind {
  /// A value computed outside the graph (always materialized).
  Input,
  /// A cell-wise operation: every output cell from the cells at the same
  /// position of its inputs (vectors and scalars broadcast).
  Cell,
  /// An aggregate (sum, sumsq, min, max) of its single input over all
  /// cells, rows or columns.
  Aggregate,
  /// Anything else: materialized, never fused.
  Opaque
};

enum class AggregateAxis { All, Row, Col };

struct Node {
  std::string name;
  NodeKind kind = NodeKind::Opaque;
  AggregateAxis axis = AggregateAxis::All;
  /// Output sizes (1x1 for scalars).
  int64_t rows = 1, cols = 1;
  /// Floating-point work per cell of the node's iteration space (its output
  /// for cell-wise nodes, its input for aggregates).
  double flopsPerCell = 1;
  /// Producers, by index; a graph lists producers before consumers.
  std::vector<unsigned> inputs;
  /// The value is used outside the graph (returned, read by other code).
  bool externalUse = false;
};

struct CostModel {
  /// Bytes per second to and from memory, and to and from the cache for
  /// intermediates that fit in `cacheBytes`.
  double memoryBandwidth = 10e9;
  double cacheBandwidth = 50e9;
  double cacheBytes = 1 << 20;
  /// Floating-point operations per second.
  double peakFlops = 20e9;
  /// Floating-point operations per second of scalar code (the Outer
  /// template's dot products, computed cell by cell).
  double scalarFlops = 2e9;
  double elementBytes = 8;
};

enum class PlanMode {
  /// Exact enumeration with pruning (greedy above the size limit).
  CostBased,
  /// Fuse every reference: materialization points are recomputed by every
  /// consumer (the seed's fuse-all heuristic).
  FuseAll,
  /// Cut every interesting point: every node with several consumers is
  /// materialized (fuse-no-redundancy).
  FuseNoRedundancy
};

enum class Template { Cell, MAgg };

/// A fused operator of a plan: one pass over the iteration space of its
/// roots, reading `inputs` and writing `roots`.
struct FusedOperator {
  Template kind = Template::Cell;
  /// The materialized results (several for MAgg), in node order.
  std::vector<unsigned> roots;
  /// The nodes computed, in node order (roots included).
  std::vector<unsigned> nodes;
  /// The materialized values read, in node order.
  std::vector<unsigned> inputs;
  double cost = 0;
};

/// One fusion reference out of a materialization point.
struct InterestingPoint {
  unsigned producer, consumer;
};

struct Partition {
  /// Nodes, in node order.
  std::vector<unsigned> nodes;
  std::vector<InterestingPoint> points;
};

/// For each interesting point of a partition, whether it is cut
/// (materialized) instead of fused.
using Assignment = std::vector<bool>;
/// An assignment as text, one digit per point: "0110" (1: cut).
std::string toString(const Assignment &cuts);

struct PartitionPlan {
  Assignment cuts;
  double cost = 0;
  std::vector<FusedOperator> operators;
  /// Assignments costed, and assignments skipped by pruning.
  uint64_t evaluated = 0, skipped = 0;
  bool greedy = false;
  /// Exact enumeration hit its budget of costed plans.
  bool truncated = false;
  /// Every assignment costed, in order, when tracing was asked for.
  std::vector<std::pair<Assignment, double>> trace;
  /// Structural pruning: the cut set used (indices of points) and the
  /// number of independent sub-problems it splits the other points into
  /// (0: no cut set).
  std::vector<unsigned> cutSet;
  unsigned subProblems = 0;
};

/// Points whose cutting splits the other points of a partition into
/// independent sub-problems (seed 000's cut sets).
struct CutSet {
  /// Indices of the partition's points: every reference out of one
  /// materialization point.
  std::vector<unsigned> points;
  /// The other points, per sub-problem (at least two).
  std::vector<std::vector<unsigned>> groups;
};

class FusionPlanner {
public:
  /// Explores `nodes`, whose inputs must precede them.
  FusionPlanner(std::vector<Node> nodes, CostModel model = CostModel());

  const std::vector<Node> &getNodes() const { return nodes; }
  const std::vector<Partition> &getPartitions() const { return partitions; }
  /// Whether `consumer` can compute `producer` inside its own pass.
  bool isFusible(unsigned producer, unsigned consumer) const;

  /// The plan of partition `index` under `mode`; exact enumeration for at
  /// most `maxExactPoints` interesting points, greedy above.
  /// Exact enumeration stops after `maxEvaluations` costed plans and
  /// continues greedily from the best one (`truncated`).
  PartitionPlan plan(unsigned index, PlanMode mode,
                     unsigned maxExactPoints = 20, bool trace = false,
                     uint64_t maxEvaluations = uint64_t(1) << 16) const;
  /// Every partition's plan.
  std::vector<PartitionPlan> planAll(PlanMode mode,
                                     unsigned maxExactPoints = 20) const;

  /// The most balanced cut set of partition `index`, if any. A cut set
  /// splits the plans' costs into independent sums only when at most one of
  /// its sub-problems holds full aggregates (which may share a
  /// multi-aggregate pass); others are not returned.
  std::optional<CutSet> findCutSet(unsigned index) const;
  /// Structural pruning on (the default) or off (for testing).
  void setStructuralPruning(bool enabled) { structuralPruning = enabled; }

  /// The fused operators and cost of partition `index` under `cuts`.
  double cost(unsigned index, const Assignment &cuts,
              std::vector<FusedOperator> *operators = nullptr) const;

  /// The memo table, partitions and interesting points, as text.
  std::string describe() const;
  /// One line per fused operator.
  std::string describe(const FusedOperator &op) const;

private:
  double bytes(unsigned node) const;
  double cells(unsigned node) const;
  /// Rows and columns of the space a node iterates over.
  std::pair<int64_t, int64_t> iterationShape(unsigned node) const;
  double lowerBound(unsigned index, const Assignment &cuts,
                    unsigned decided) const;
  bool dependsOn(unsigned node, unsigned ancestor) const;

  std::vector<Node> nodes;
  CostModel model;
  std::vector<std::vector<unsigned>> consumers;
  /// Whether a node's value is used (outside the graph, or by a live node).
  std::vector<bool> live;
  /// Per node, its fusible inputs (the memo table's fusion references).
  std::vector<std::vector<unsigned>> fusibleInputs;
  std::vector<Partition> partitions;
  /// Partition of each node (-1: none).
  std::vector<int> partitionOf;
  /// ancestors[n] has bit a set when node a reaches node n.
  std::vector<std::vector<bool>> ancestors;
  bool structuralPruning = true;
};

} // namespace mlir::amls::fusion

#endif // AMLS_COSTMODEL_FUSIONPLAN_H
