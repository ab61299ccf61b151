//===- Fuse.cpp - Cost-based operator fusion
//-------------------------------===//
//
// --amls-fuse: per block, the AMLS ops become the dataflow graph of the
// fusion planner (lib/CostModel/FusionPlan.cpp): element-wise ops with known
// sizes are cell nodes, sum/sumsq/min/max aggregates are aggregate nodes,
// every other value read is an input. The chosen plan's fused operators of
// two or more ops become `amls.fused` ops whose body is the ops' cell
// computations (ElementwiseOpInterface), so that each lowers to one loop
// nest that never materializes the intermediates.
//
//===----------------------------------------------------------------------===//

#include "AMLS/CostModel/FusionPlan.h"
#include "AMLS/CostModel/PropertyLattice.h"
#include "AMLS/Dialect/AMLSInterfaces.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Transforms/Passes.h"
#include "FusionTemplates.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Format.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSFUSE
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::fusion;

/// Floating-point work of one cell of an element-wise op: the operations its
/// cell computation consists of, transcendental functions (math dialect)
/// counted as 10 and divisions as 4.
double mlir::amls::costModelSize(int64_t size) {
  return ShapedType::isDynamic(size) ? 1024.0 : double(size);
}

double mlir::amls::costModelCells(Value value) {
  auto type = dyn_cast<MatrixType>(value.getType());
  return type ? costModelSize(type.getRows()) * costModelSize(type.getCols())
              : 0;
}

double mlir::amls::operatorCost(const CostModel &model, double readBytes,
                                double writtenBytes, double flops,
                                double flopRate) {
  return writtenBytes / model.memoryBandwidth +
         std::max(readBytes / model.memoryBandwidth, flops / flopRate);
}

double mlir::amls::cellFlops(ElementwiseOpInterface op) {
  // Built into the body of a detached scratch operator, then discarded.
  OpBuilder builder(op->getContext());
  auto scratchOp =
      FusedOp::create(builder, op->getLoc(), TypeRange{}, FusedTemplate::Cell,
                      ArrayAttr(), AggAxisAttr(), IntegerAttr(), ValueRange{});
  Block *scratch = new Block();
  scratchOp.getBody().push_back(scratch);
  SmallVector<Value> cells;
  for (Value operand : op->getOperands())
    cells.push_back(scratch->addArgument(
        isa<MatrixType>(operand.getType())
            ? cast<MatrixType>(operand.getType()).getElementType()
            : operand.getType(),
        op->getLoc()));
  builder.setInsertionPointToEnd(scratch);
  op.buildCellComputation(builder, op->getLoc(), cells);
  double flops = 0;
  for (Operation &computed : *scratch) {
    if (computed.hasTrait<OpTrait::ConstantLike>())
      continue;
    if (isa<math::MathDialect>(computed.getDialect()))
      flops += 10;
    else if (isa<arith::DivFOp, arith::RemFOp>(computed))
      flops += 4;
    else
      flops += 1;
  }
  scratchOp->erase();
  return flops;
}

namespace {

bool isFusedAggregate(AggKind kind) {
  return kind == AggKind::Sum || kind == AggKind::SumSq ||
         kind == AggKind::Min || kind == AggKind::Max;
}

Type elementTypeOf(Type type) {
  if (auto matrix = dyn_cast<MatrixType>(type))
    return matrix.getElementType();
  return type;
}

/// The planner's graph of one block, and the IR behind its nodes.
struct BlockGraph {
  std::vector<Node> nodes;
  /// The op of each cell or aggregate node; the value of each input node.
  std::vector<Operation *> ops;
  std::vector<Value> values;
  DenseMap<Value, unsigned> nodeOf;

  unsigned inputNode(Value value) {
    auto it = nodeOf.find(value);
    if (it != nodeOf.end())
      return it->second;
    Node node;
    node.kind = NodeKind::Input;
    if (auto type = dyn_cast<MatrixType>(value.getType())) {
      node.rows = isKnownSize(type.getRows()) ? type.getRows() : 1024;
      node.cols = isKnownSize(type.getCols()) ? type.getCols() : 1024;
    }
    return add(std::move(node), nullptr, value);
  }

  unsigned add(Node node, Operation *op, Value value) {
    unsigned index = nodes.size();
    std::string name;
    llvm::raw_string_ostream stream(name);
    if (op) {
      stream << "%" << index << " " << op->getName().getStringRef();
    } else {
      stream << "%" << index << " in";
    }
    node.name = name;
    nodes.push_back(std::move(node));
    ops.push_back(op);
    values.push_back(value);
    nodeOf[value] = index;
    return index;
  }
};

/// Builds the graph of `block`: its element-wise ops and aggregates with
/// known sizes, and the values they read.
BlockGraph buildGraph(Block &block) {
  BlockGraph graph;
  for (Operation &op : block) {
    if (op.getNumResults() != 1 || touchesCSRMatrix(&op) ||
        touchesCompressedMatrix(&op))
      continue;
    Value result = op.getResult(0);
    Node node;
    if (auto elementwise = dyn_cast<ElementwiseOpInterface>(&op)) {
      auto type = dyn_cast<MatrixType>(result.getType());
      if (!type || !type.hasStaticShape() ||
          !isa<FloatType>(type.getElementType()) ||
          !elementwise.supportsElementType(type.getElementType()))
        continue;
      node.kind = NodeKind::Cell;
      node.rows = type.getRows();
      node.cols = type.getCols();
      node.flopsPerCell = cellFlops(elementwise);
    } else if (auto aggregate = dyn_cast<AggOp>(&op)) {
      auto inputType = cast<MatrixType>(aggregate.getInput().getType());
      if (!isFusedAggregate(aggregate.getKind()) ||
          !inputType.hasStaticShape() ||
          !isa<FloatType>(inputType.getElementType()) ||
          elementTypeOf(result.getType()) != inputType.getElementType())
        continue;
      node.kind = NodeKind::Aggregate;
      switch (aggregate.getAxis()) {
      case AggAxis::All:
        node.axis = AggregateAxis::All;
        break;
      case AggAxis::Row:
        node.axis = AggregateAxis::Row;
        node.rows = inputType.getRows();
        break;
      case AggAxis::Col:
        node.axis = AggregateAxis::Col;
        node.cols = inputType.getCols();
        break;
      }
      node.flopsPerCell = 1;
    } else {
      continue;
    }
    for (Value operand : op.getOperands())
      node.inputs.push_back(graph.inputNode(operand));
    graph.add(std::move(node), &op, result);
  }
  // Uses by anything but a graph node are external.
  DenseSet<Operation *> nodeOps(graph.ops.begin(), graph.ops.end());
  for (unsigned i = 0; i < graph.nodes.size(); ++i)
    if (graph.ops[i])
      graph.nodes[i].externalUse =
          llvm::any_of(graph.values[i].getUsers(), [&](Operation *user) {
            return !nodeOps.contains(user);
          });
  return graph;
}

struct FusePass : public amls::impl::AMLSFuseBase<FusePass> {
  using AMLSFuseBase::AMLSFuseBase;

  void runOnOperation() override {
    if (fuseAll && fuseNoRedundancy) {
      getOperation()->emitError(
          "amls-fuse: choose one of fuse-all and fuse-no-redundancy");
      return signalPassFailure();
    }
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      fuseBlock(*block);
    unsigned materialized = countInnerLoopMatrices();
    numInnerLoopMatrices += materialized;
    if (explain)
      llvm::errs() << "amls-fuse: " << materialized
                   << " matrix results materialized per iteration of "
                      "innermost loops\n";
  }

  /// Matrix results computed inside innermost loops (loops without nested
  /// loops), casts aside: what each iteration materializes.
  unsigned countInnerLoopMatrices() {
    unsigned count = 0;
    auto isLoop = [](Operation *op) {
      return isa<LoopLikeOpInterface>(op) || isa<ParforOp>(op);
    };
    getOperation()->walk([&](Operation *loop) {
      if (!isLoop(loop) || loop == getOperation())
        return;
      bool innermost = true;
      loop->walk([&](Operation *nested) {
        if (nested != loop && isLoop(nested))
          innermost = false;
      });
      if (!innermost)
        return;
      // A fused operator's body computes blocks of rows or cells, not
      // matrices.
      loop->walk<WalkOrder::PreOrder>([&](Operation *nested) {
        if (nested != loop && !isa<CastOp>(nested))
          for (Type type : nested->getResultTypes())
            if (isa<MatrixType>(type))
              ++count;
        return isa<FusedOp>(nested) ? WalkResult::skip()
                                    : WalkResult::advance();
      });
    });
    return count;
  }

  void fuseBlock(Block &block) {
    CostModel model;
    model.memoryBandwidth = memoryBandwidth;
    model.cacheBandwidth = cacheBandwidth;
    model.cacheBytes = cacheBytes;
    model.peakFlops = peakFlops;
    model.scalarFlops = scalarFlops;
    PlanMode mode = fuseAll            ? PlanMode::FuseAll
                    : fuseNoRedundancy ? PlanMode::FuseNoRedundancy
                                       : PlanMode::CostBased;
    std::string explanation;
    llvm::raw_string_ostream out(explanation);
    if (explain) {
      Operation *parent = block.getParentOp();
      out << "amls-fuse: block in '" << parent->getName() << "' at "
          << parent->getLoc() << "\n";
    }
    // Row and Outer templates first: what they fuse is no longer a cell
    // candidate.
    numFused += fuseRowTemplates(block, model, mode == PlanMode::CostBased,
                                 explain ? &out : nullptr);
    numFused += fuseOuterTemplates(block, model, mode == PlanMode::CostBased,
                                   explain ? &out : nullptr);
    numFused += fuseSparseCellTemplates(
        block, model, mode == PlanMode::CostBased, explain ? &out : nullptr);

    BlockGraph graph = buildGraph(block);
    FusionPlanner planner(graph.nodes, model);
    if (graph.nodes.empty() || planner.getPartitions().empty()) {
      if (explain && explanation.find('\n') + 1 != explanation.size())
        llvm::errs() << explanation;
      return;
    }
    std::vector<FusedOperator> operators;
    if (explain)
      out << planner.describe();
    for (unsigned p = 0; p < planner.getPartitions().size(); ++p) {
      PartitionPlan plan =
          planner.plan(p, mode, maxExactPoints, explain, maxPlans);
      if (explain) {
        out << "partition " << p << " plans (1: materialized):\n";
        for (auto &[cuts, cost] : plan.trace)
          out << "  " << toString(cuts) << " cost "
              << llvm::format("%.3f", cost * 1e6) << " us\n";
        out << "  chosen " << toString(plan.cuts) << " cost "
            << llvm::format("%.3f", plan.cost * 1e6) << " us ("
            << plan.evaluated << " costed, " << plan.skipped
            << " skipped by pruning" << (plan.greedy ? ", greedy" : "")
            << (plan.truncated ? ", plan budget reached, then greedy" : "")
            << ")\n";
        if (plan.subProblems > 0) {
          out << "  structural pruning: cut set";
          for (unsigned point : plan.cutSet) {
            const InterestingPoint &ref =
                planner.getPartitions()[p].points[point];
            out << " " << graph.nodes[ref.producer].name << "->"
                << graph.nodes[ref.consumer].name;
          }
          out << " (cut, the other points form " << plan.subProblems
              << " independent sub-problems)\n";
        }
        for (const FusedOperator &op : plan.operators)
          out << "  operator: " << planner.describe(op) << "\n";
      }
      operators.insert(operators.end(), plan.operators.begin(),
                       plan.operators.end());
    }
    if (explain)
      llvm::errs() << explanation;

    // In block order of their first roots, so that inputs produced by other
    // fused operators exist when an operator is built.
    std::sort(operators.begin(), operators.end(),
              [](const FusedOperator &a, const FusedOperator &b) {
                return a.roots.front() < b.roots.front();
              });
    DenseMap<Value, Value> replacement;
    for (const FusedOperator &op : operators)
      if (op.nodes.size() > 1 || op.roots.size() > 1)
        emit(graph, op, replacement);
    // The original ops that only fed fused operators are dead now (graph
    // ops are pure; consumers come after producers).
    for (Operation *op : llvm::reverse(graph.ops))
      if (op && op->use_empty())
        op->erase();
  }

  void emit(BlockGraph &graph, const FusedOperator &fused,
            DenseMap<Value, Value> &replacement) {
    auto current = [&](unsigned node) {
      Value value = graph.values[node];
      auto it = replacement.find(value);
      return it == replacement.end() ? value : it->second;
    };
    Operation *first = graph.ops[fused.roots.front()];
    // Main input: one covering the iteration space, which gives the fused
    // operator its shape.
    const Node &root = graph.nodes[fused.roots.front()];
    int64_t rows = root.rows, cols = root.cols;
    if (root.kind == NodeKind::Aggregate) {
      const Node &in = graph.nodes[root.inputs.front()];
      rows = in.rows;
      cols = in.cols;
    }
    SmallVector<Value> inputs;
    SmallVector<unsigned> inputNodes;
    for (unsigned input : fused.inputs) {
      Value value = current(input);
      // Inputs must exist where the operator goes (MAgg roots may be apart).
      if (Operation *def = value.getDefiningOp())
        if (def->getBlock() == first->getBlock() &&
            !def->isBeforeInBlock(first))
          return;
      inputs.push_back(value);
      inputNodes.push_back(input);
    }
    // The main input covers the iteration space and gives the operator its
    // shape; without one (every input broadcast) the ops stay as they are.
    auto covers = [&](Value value) {
      auto type = dyn_cast<MatrixType>(value.getType());
      return type && type.getRows() == rows && type.getCols() == cols;
    };
    auto main = llvm::find_if(inputs, covers);
    if (main == inputs.end())
      return;
    unsigned mainIndex = main - inputs.begin();
    std::rotate(inputs.begin(), inputs.begin() + mainIndex,
                inputs.begin() + mainIndex + 1);
    std::rotate(inputNodes.begin(), inputNodes.begin() + mainIndex,
                inputNodes.begin() + mainIndex + 1);

    SmallVector<Type> resultTypes;
    SmallVector<Attribute> kinds;
    std::optional<AggAxis> axis;
    for (unsigned r : fused.roots) {
      resultTypes.push_back(graph.values[r].getType());
      if (auto aggregate = dyn_cast<AggOp>(graph.ops[r])) {
        kinds.push_back(AggKindAttr::get(&getContext(), aggregate.getKind()));
        axis = aggregate.getAxis();
      }
    }
    if (!kinds.empty() && kinds.size() != fused.roots.size())
      return;

    OpBuilder builder(first);
    Location loc = first->getLoc();
    auto op = FusedOp::create(
        builder, loc, resultTypes,
        fused.kind == Template::MAgg ? FusedTemplate::MAgg
                                     : FusedTemplate::Cell,
        kinds.empty() ? ArrayAttr() : builder.getArrayAttr(kinds),
        axis ? AggAxisAttr::get(&getContext(), *axis) : AggAxisAttr(),
        IntegerAttr(), inputs);
    Block *body = new Block();
    op.getBody().push_back(body);
    DenseMap<unsigned, Value> cellOf;
    for (auto [input, value] : llvm::zip(inputNodes, inputs))
      cellOf[input] = body->addArgument(elementTypeOf(value.getType()), loc);
    OpBuilder bodyBuilder = OpBuilder::atBlockEnd(body);
    for (unsigned node : fused.nodes) {
      Operation *original = graph.ops[node];
      SmallVector<Value> cells;
      for (Value operand : original->getOperands()) {
        auto node = graph.nodeOf.find(operand);
        assert(node != graph.nodeOf.end() && cellOf.count(node->second) &&
               "every operand is an input or a fused node");
        cells.push_back(cellOf.lookup(node->second));
      }
      if (auto elementwise = dyn_cast<ElementwiseOpInterface>(original))
        cellOf[node] = elementwise.buildCellComputation(
            bodyBuilder, original->getLoc(), cells);
      else
        cellOf[node] = cells.front(); // An aggregate reduces its input cell.
    }
    SmallVector<Value> yielded;
    for (unsigned r : fused.roots)
      yielded.push_back(cellOf.lookup(r));
    YieldOp::create(bodyBuilder, loc, yielded);

    for (auto [r, result] : llvm::zip(fused.roots, op.getResults())) {
      Value original = graph.values[r];
      original.replaceAllUsesWith(result);
      replacement[original] = result;
      // Ops of later operators now read the fused result.
      graph.nodeOf[result] = r;
    }
    ++numFused;
    numFusedOps += fused.nodes.size();
  }
};

} // namespace
