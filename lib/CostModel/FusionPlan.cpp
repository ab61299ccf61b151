//===- FusionPlan.cpp - Cost-based operator fusion plans ------------------===//

#include "AMLS/CostModel/FusionPlan.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <functional>
#include <iomanip>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <sstream>

using namespace mlir::amls::fusion;

namespace {

/// Union-find over node indices.
struct DisjointSets {
  explicit DisjointSets(unsigned n) : parent(n) {
    std::iota(parent.begin(), parent.end(), 0u);
  }
  unsigned find(unsigned x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }
  void join(unsigned a, unsigned b) { parent[find(a)] = find(b); }
  std::vector<unsigned> parent;
};

std::string assignmentText(const Assignment &cuts) {
  std::string text;
  for (bool cut : cuts)
    text += cut ? '1' : '0';
  return text.empty() ? "-" : text;
}

void sortUnique(std::vector<unsigned> &values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

} // namespace

FusionPlanner::FusionPlanner(std::vector<Node> graph, CostModel costModel)
    : nodes(std::move(graph)), model(costModel) {
  unsigned n = nodes.size();
  consumers.assign(n, {});
  ancestors.assign(n, std::vector<bool>(n, false));
  for (unsigned node = 0; node < n; ++node) {
    sortUnique(nodes[node].inputs);
    for (unsigned input : nodes[node].inputs) {
      assert(input < node && "inputs must precede their consumers");
      consumers[input].push_back(node);
      ancestors[node][input] = true;
      for (unsigned a = 0; a < n; ++a)
        if (ancestors[input][a])
          ancestors[node][a] = true;
    }
  }

  // Nodes whose value nobody uses are not computed by any plan; they take
  // no part in fusion (and would distort the lower bound).
  live.assign(n, false);
  for (unsigned node = n; node-- > 0;)
    live[node] = nodes[node].externalUse ||
                 std::any_of(consumers[node].begin(), consumers[node].end(),
                             [&](unsigned c) { return live[c]; });

  // Exploration: the memo table's fusion references, bottom-up.
  fusibleInputs.assign(n, {});
  DisjointSets sets(n);
  for (unsigned node = 0; node < n; ++node)
    for (unsigned input : nodes[node].inputs)
      if (isFusible(input, node)) {
        fusibleInputs[node].push_back(input);
        sets.join(input, node);
      }

  // Partitions: connected components of fusion references.
  partitionOf.assign(n, -1);
  std::vector<int> partitionOfRoot(n, -1);
  for (unsigned node = 0; node < n; ++node) {
    bool referenced =
        !fusibleInputs[node].empty() ||
        std::any_of(consumers[node].begin(), consumers[node].end(),
                    [&](unsigned c) { return isFusible(node, c); });
    if (!referenced)
      continue;
    unsigned root = sets.find(node);
    if (partitionOfRoot[root] < 0) {
      partitionOfRoot[root] = partitions.size();
      partitions.emplace_back();
    }
    partitionOf[node] = partitionOfRoot[root];
    partitions[partitionOf[node]].nodes.push_back(node);
  }
  // Interesting points: fusion references out of materialization points
  // (nodes with several consumers or a use outside the graph).
  for (unsigned node = 0; node < n; ++node) {
    if (partitionOf[node] < 0)
      continue;
    unsigned uses = consumers[node].size() + (nodes[node].externalUse ? 1 : 0);
    if (uses < 2)
      continue;
    for (unsigned consumer : consumers[node])
      if (isFusible(node, consumer))
        partitions[partitionOf[node]].points.push_back({node, consumer});
  }
}

std::pair<int64_t, int64_t> FusionPlanner::iterationShape(unsigned node) const {
  const Node &n = nodes[node];
  if (n.kind == NodeKind::Aggregate && n.inputs.size() == 1)
    return {nodes[n.inputs[0]].rows, nodes[n.inputs[0]].cols};
  return {n.rows, n.cols};
}

bool FusionPlanner::isFusible(unsigned producer, unsigned consumer) const {
  const Node &p = nodes[producer], &c = nodes[consumer];
  if (!live[producer] || !live[consumer] || p.kind != NodeKind::Cell ||
      (c.kind != NodeKind::Cell && c.kind != NodeKind::Aggregate))
    return false;
  if (c.kind == NodeKind::Aggregate && c.inputs.size() != 1)
    return false;
  // Broadcast operands (vectors, scalars) are read, not fused: the
  // producer must cover the consumer's iteration space cell for cell.
  auto [rows, cols] = iterationShape(consumer);
  return p.rows == rows && p.cols == cols && rows > 0 && cols > 0 &&
         !(rows == 1 && cols == 1);
}

double FusionPlanner::bytes(unsigned node) const {
  return static_cast<double>(nodes[node].rows) * nodes[node].cols *
         model.elementBytes;
}

double FusionPlanner::cells(unsigned node) const {
  auto [rows, cols] = iterationShape(node);
  return static_cast<double>(rows) * cols;
}

bool FusionPlanner::dependsOn(unsigned node, unsigned ancestor) const {
  return ancestors[node][ancestor];
}

double FusionPlanner::cost(unsigned index, const Assignment &cuts,
                           std::vector<FusedOperator> *operators) const {
  const Partition &partition = partitions[index];
  assert(cuts.size() == partition.points.size());
  auto isCut = [&](unsigned producer, unsigned consumer) {
    for (size_t i = 0; i < partition.points.size(); ++i)
      if (cuts[i] && partition.points[i].producer == producer &&
          partition.points[i].consumer == consumer)
        return true;
    return false;
  };
  auto fused = [&](unsigned producer, unsigned consumer) {
    return isFusible(producer, consumer) && !isCut(producer, consumer);
  };
  auto inPartition = [&](unsigned node) {
    return partitionOf[node] == static_cast<int>(index);
  };
  auto materialized = [&](unsigned node) {
    if (nodes[node].kind != NodeKind::Cell || nodes[node].externalUse)
      return true;
    return std::any_of(consumers[node].begin(), consumers[node].end(),
                       [&](unsigned c) { return !fused(node, c); });
  };
  // Intermediates produced and consumed inside the partition stay in the
  // cache when they fit.
  auto cached = [&](unsigned node) {
    if (!inPartition(node) || nodes[node].externalUse ||
        bytes(node) > model.cacheBytes)
      return false;
    return std::all_of(consumers[node].begin(), consumers[node].end(),
                       inPartition);
  };
  auto bandwidth = [&](unsigned node) {
    return cached(node) ? model.cacheBandwidth : model.memoryBandwidth;
  };

  std::vector<FusedOperator> ops;
  for (unsigned root : partition.nodes) {
    if (!materialized(root))
      continue;
    FusedOperator op;
    op.kind = Template::Cell;
    op.roots = {root};
    std::vector<unsigned> worklist = {root};
    std::set<unsigned> members = {root};
    while (!worklist.empty()) {
      unsigned node = worklist.back();
      worklist.pop_back();
      for (unsigned input : nodes[node].inputs) {
        if (!fused(input, node)) {
          op.inputs.push_back(input);
        } else if (members.insert(input).second) {
          worklist.push_back(input);
        }
      }
    }
    op.nodes.assign(members.begin(), members.end());
    sortUnique(op.inputs);
    ops.push_back(std::move(op));
  }

  // MAgg: full aggregates over the same space that read common inputs and
  // do not depend on each other share one pass.
  auto isFullAggregate = [&](const FusedOperator &op) {
    const Node &root = nodes[op.roots.front()];
    return root.kind == NodeKind::Aggregate && root.axis == AggregateAxis::All;
  };
  std::vector<FusedOperator> merged;
  for (FusedOperator &op : ops) {
    FusedOperator *group = nullptr;
    if (isFullAggregate(op))
      for (FusedOperator &candidate : merged) {
        if (!isFullAggregate(candidate) ||
            iterationShape(candidate.roots.front()) !=
                iterationShape(op.roots.front()))
          continue;
        bool shared = std::any_of(
            op.inputs.begin(), op.inputs.end(), [&](unsigned input) {
              return std::binary_search(candidate.inputs.begin(),
                                        candidate.inputs.end(), input);
            });
        bool independent = std::none_of(
            candidate.roots.begin(), candidate.roots.end(), [&](unsigned r) {
              return dependsOn(op.roots.front(), r) ||
                     dependsOn(r, op.roots.front());
            });
        if (shared && independent) {
          group = &candidate;
          break;
        }
      }
    if (!group) {
      merged.push_back(std::move(op));
      continue;
    }
    group->kind = Template::MAgg;
    group->roots.insert(group->roots.end(), op.roots.begin(), op.roots.end());
    group->nodes.insert(group->nodes.end(), op.nodes.begin(), op.nodes.end());
    group->inputs.insert(group->inputs.end(), op.inputs.begin(),
                         op.inputs.end());
    sortUnique(group->roots);
    sortUnique(group->nodes);
    sortUnique(group->inputs);
  }

  double total = 0;
  for (FusedOperator &op : merged) {
    double write = 0, read = 0, compute = 0;
    for (unsigned root : op.roots)
      write += bytes(root) / bandwidth(root);
    for (unsigned input : op.inputs)
      read += bytes(input) / bandwidth(input);
    for (unsigned node : op.nodes)
      compute += nodes[node].flopsPerCell * cells(node) / model.peakFlops;
    op.cost = write + std::max(read, compute);
    total += op.cost;
  }
  if (operators)
    *operators = std::move(merged);
  return total;
}

double FusionPlanner::lowerBound(unsigned index, const Assignment &cuts,
                                 unsigned decided) const {
  // Every plan reads each partition input, writes each node that is
  // materialized whatever the assignment, writes and reads each node cut so
  // far, and computes each node at least once; per operator the cost is
  // T_w + max(T_r, T_c), so the sum is at least W + max(R, C).
  const Partition &partition = partitions[index];
  auto inPartition = [&](unsigned node) {
    return partitionOf[node] == static_cast<int>(index);
  };
  auto cached = [&](unsigned node) {
    return inPartition(node) && !nodes[node].externalUse &&
           bytes(node) <= model.cacheBytes &&
           std::all_of(consumers[node].begin(), consumers[node].end(),
                       inPartition);
  };
  auto bandwidth = [&](unsigned node) {
    return cached(node) ? model.cacheBandwidth : model.memoryBandwidth;
  };
  std::set<unsigned> read, written;
  double compute = 0;
  for (unsigned node : partition.nodes) {
    compute += nodes[node].flopsPerCell * cells(node) / model.peakFlops;
    for (unsigned input : nodes[node].inputs)
      if (!inPartition(input) || !isFusible(input, node))
        read.insert(input);
    bool alwaysMaterialized =
        nodes[node].kind != NodeKind::Cell || nodes[node].externalUse ||
        std::any_of(consumers[node].begin(), consumers[node].end(),
                    [&](unsigned c) { return !isFusible(node, c); });
    if (alwaysMaterialized)
      written.insert(node);
  }
  for (unsigned i = 0; i < decided; ++i)
    if (cuts[i]) {
      written.insert(partition.points[i].producer);
      read.insert(partition.points[i].producer);
    }
  double w = 0, r = 0;
  for (unsigned node : written)
    w += bytes(node) / bandwidth(node);
  for (unsigned node : read)
    r += bytes(node) / bandwidth(node);
  return w + std::max(r, compute);
}

std::optional<CutSet> FusionPlanner::findCutSet(unsigned index) const {
  const Partition &partition = partitions[index];
  unsigned k = partition.points.size();
  std::optional<CutSet> best;
  size_t bestLargest = k;
  std::set<unsigned> producers;
  for (const InterestingPoint &point : partition.points)
    producers.insert(point.producer);
  for (unsigned producer : producers) {
    CutSet candidate;
    for (unsigned i = 0; i < k; ++i)
      if (partition.points[i].producer == producer)
        candidate.points.push_back(i);
    // Components of the fusion references without the cut set's: no fused
    // operator crosses them once the cut set is cut.
    DisjointSets sets(nodes.size());
    for (unsigned node : partition.nodes)
      for (unsigned input : fusibleInputs[node])
        if (input != producer)
          sets.join(input, node);
    std::map<unsigned, std::vector<unsigned>> byComponent;
    for (unsigned i = 0; i < k; ++i)
      if (partition.points[i].producer != producer)
        byComponent[sets.find(partition.points[i].producer)].push_back(i);
    if (byComponent.size() < 2)
      continue;
    // Full aggregates of different sub-problems may merge into one
    // multi-aggregate pass: their costs would not add up.
    std::set<unsigned> withFullAggregates;
    for (unsigned node : partition.nodes)
      if (nodes[node].kind == NodeKind::Aggregate &&
          nodes[node].axis == AggregateAxis::All)
        withFullAggregates.insert(sets.find(node));
    unsigned aggregateGroups = 0;
    for (auto &[component, points] : byComponent)
      aggregateGroups += withFullAggregates.count(component);
    if (aggregateGroups > 1)
      continue;
    size_t largest = 0;
    for (auto &[component, points] : byComponent) {
      largest = std::max(largest, points.size());
      candidate.groups.push_back(points);
    }
    if (!best || largest < bestLargest) {
      best = std::move(candidate);
      bestLargest = largest;
    }
  }
  return best;
}

PartitionPlan FusionPlanner::plan(unsigned index, PlanMode mode,
                                  unsigned maxExactPoints, bool trace,
                                  uint64_t maxEvaluations) const {
  const Partition &partition = partitions[index];
  unsigned k = partition.points.size();
  PartitionPlan best;
  bool haveBest = false;
  auto consider = [&](const Assignment &cuts) {
    double c = cost(index, cuts);
    ++best.evaluated;
    if (trace)
      best.trace.emplace_back(cuts, c);
    if (!haveBest || c < best.cost) {
      haveBest = true;
      best.cuts = cuts;
      best.cost = c;
    }
    return c;
  };

  Assignment fuseAll(k, false), fuseNoRedundancy(k, true);
  if (mode == PlanMode::FuseAll) {
    consider(fuseAll);
  } else if (mode == PlanMode::FuseNoRedundancy) {
    consider(fuseNoRedundancy);
  } else {
    // The heuristics first: their costs are the first upper bounds.
    consider(fuseAll);
    if (k > 0)
      consider(fuseNoRedundancy);
    // Greedy local search: flip single points while that helps.
    auto improveGreedily = [&] {
      bool improved = true;
      while (improved) {
        improved = false;
        Assignment start = best.cuts;
        for (unsigned i = 0; i < k; ++i) {
          Assignment flipped = start;
          flipped[i] = !flipped[i];
          double before = best.cost;
          consider(flipped);
          improved |= best.cost < before;
        }
      }
    };
    if (k > maxExactPoints) {
      best.greedy = true;
      improveGreedily();
    } else {
      // Depth first over the points, fusing before cutting; a subtree whose
      // lower bound reaches the best cost is skipped whole. Past
      // `maxEvaluations` costed plans the search stops and the best plan so
      // far is improved greedily, which bounds compile time. Undecided
      // points are fused (false) in `cuts`, which the lower bound relies on.
      //
      // Structural pruning: a cut set's points come first; once all of them
      // are cut, the other points form independent sub-problems whose costs
      // add up, so each is optimized alone (the later ones fused meanwhile)
      // instead of enumerating their product.
      std::vector<unsigned> order;
      std::optional<CutSet> cutSet;
      if (structuralPruning)
        cutSet = findCutSet(index);
      if (cutSet) {
        best.cutSet = cutSet->points;
        best.subProblems = cutSet->groups.size();
        order = cutSet->points;
        for (const std::vector<unsigned> &group : cutSet->groups)
          order.insert(order.end(), group.begin(), group.end());
      } else {
        for (unsigned i = 0; i < k; ++i)
          order.push_back(i);
      }
      Assignment cuts(k, false);
      auto budgetReached = [&] {
        if (best.evaluated < maxEvaluations)
          return false;
        best.truncated = true;
        return true;
      };
      // The heuristics' plans were costed first.
      auto leaf = [&] {
        bool heuristic = cuts == fuseAll || cuts == fuseNoRedundancy;
        return heuristic ? cost(index, cuts) : consider(cuts);
      };
      // Enumerates the points order[position, to), the others fixed, and
      // records the cheapest completion in `localBest`/`localCuts`. In the
      // whole enumeration (to == k), the branch where the cut set is cut
      // continues with the sub-problems instead.
      double localBest = std::numeric_limits<double>::infinity();
      Assignment localCuts;
      std::function<void()> solveSubProblems;
      std::function<void(unsigned, unsigned)> search = [&](unsigned position,
                                                           unsigned to) {
        if (budgetReached())
          return;
        if (position == to) {
          double c = leaf();
          if (c < localBest) {
            localBest = c;
            localCuts = cuts;
          }
          return;
        }
        if (cutSet && to == k && position == cutSet->points.size() &&
            std::all_of(cutSet->points.begin(), cutSet->points.end(),
                        [&](unsigned point) { return cuts[point]; })) {
          solveSubProblems();
          return;
        }
        if (lowerBound(index, cuts, k) >= best.cost) {
          best.skipped += uint64_t(1) << (to - position);
          return;
        }
        unsigned point = order[position];
        cuts[point] = false;
        search(position + 1, to);
        cuts[point] = true;
        search(position + 1, to);
        cuts[point] = false;
      };
      solveSubProblems = [&] {
        unsigned begin = cutSet->points.size();
        for (const std::vector<unsigned> &group : cutSet->groups) {
          unsigned end = begin + group.size();
          localBest = std::numeric_limits<double>::infinity();
          search(begin, end);
          if (!std::isfinite(localBest))
            break; // Every completion was pruned: the branch cannot win.
          for (unsigned point : group)
            cuts[point] = localCuts[point];
          begin = end;
        }
        for (const std::vector<unsigned> &group : cutSet->groups)
          for (unsigned point : group)
            cuts[point] = false;
      };
      search(0, k);
      if (best.truncated)
        improveGreedily();
    }
  }
  best.cost = cost(index, best.cuts, &best.operators);
  return best;
}

std::vector<PartitionPlan>
FusionPlanner::planAll(PlanMode mode, unsigned maxExactPoints) const {
  std::vector<PartitionPlan> plans;
  for (unsigned i = 0; i < partitions.size(); ++i)
    plans.push_back(plan(i, mode, maxExactPoints));
  return plans;
}

std::string FusionPlanner::describe() const {
  std::ostringstream out;
  auto name = [&](unsigned node) {
    return nodes[node].name.empty() ? "n" + std::to_string(node)
                                    : nodes[node].name;
  };
  out << "memo table:\n";
  for (unsigned node = 0; node < nodes.size(); ++node) {
    const Node &n = nodes[node];
    if (n.kind != NodeKind::Cell && n.kind != NodeKind::Aggregate)
      continue;
    out << "  " << name(node) << ": ";
    if (n.kind == NodeKind::Cell)
      out << "cell";
    else
      out << "cell closed by "
          << (n.axis == AggregateAxis::All   ? "a full aggregate, magg"
              : n.axis == AggregateAxis::Row ? "a row aggregate"
                                             : "a column aggregate");
    auto [rows, cols] = iterationShape(node);
    out << " [" << rows << "x" << cols << "]";
    if (!fusibleInputs[node].empty()) {
      out << " fuses";
      for (unsigned input : fusibleInputs[node])
        out << " " << name(input);
    }
    out << "\n";
  }
  for (unsigned i = 0; i < partitions.size(); ++i) {
    const Partition &partition = partitions[i];
    out << "partition " << i << ":";
    for (unsigned node : partition.nodes)
      out << " " << name(node);
    out << "\n  interesting points:";
    if (partition.points.empty())
      out << " none";
    for (const InterestingPoint &point : partition.points)
      out << " " << name(point.producer) << "->" << name(point.consumer);
    out << "\n";
  }
  return out.str();
}

std::string FusionPlanner::describe(const FusedOperator &op) const {
  std::ostringstream out;
  auto name = [&](unsigned node) {
    return nodes[node].name.empty() ? "n" + std::to_string(node)
                                    : nodes[node].name;
  };
  out << (op.kind == Template::MAgg ? "magg" : "cell") << " computing";
  for (unsigned root : op.roots)
    out << " " << name(root);
  out << " from";
  for (unsigned node : op.nodes)
    out << " " << name(node);
  out << ", reading";
  for (unsigned input : op.inputs)
    out << " " << name(input);
  if (op.inputs.empty())
    out << " nothing";
  out << ", cost " << std::fixed << std::setprecision(3) << op.cost * 1e6
      << " us";
  return out.str();
}

std::string mlir::amls::fusion::toString(const Assignment &cuts) {
  return assignmentText(cuts);
}
