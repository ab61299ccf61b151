//===- PrintPlanGraph.cpp - The optimized plan as a Graphviz graph --------===//
//
// --amls-print-plan-graph, amls-run --explain=dot and explain() in Python:
// the program as the optimizer left it (after rewrites, formats,
// distribution and fusion, before the lowering) drawn as a data-flow graph.
// One node per op with its result's shape, sparsity and format; a fused
// operator is a cluster of its body's ops labelled with its template;
// loops, branches and parfor are clusters of their bodies; products name
// the kernel their operands' formats select; collectives of a distributed
// run are drawn apart, and blocks of rows are marked.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSPRINTPLANGRAPH
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// A label in DOT's double quotes: its quotes escaped, and its "\n"
/// (backslash, n) line breaks kept.
std::string escape(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '"')
      out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::string describeType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto matrix = dyn_cast<MatrixType>(type);
  if (!matrix) {
    os << type;
    return text;
  }
  auto dim = [&](int64_t size) {
    if (ShapedType::isDynamic(size))
      os << '?';
    else
      os << size;
  };
  dim(matrix.getRows());
  os << 'x';
  dim(matrix.getCols());
  os << ' ' << matrix.getElementType();
  if (std::optional<double> sparsity = matrix.getSparsity())
    os << ", sparsity " << llvm::format("%.3g", *sparsity);
  if (std::optional<MatrixFormat> format = matrix.getFormat())
    os << ", " << stringifyMatrixFormat(*format);
  return text;
}

std::string formatOf(Value value) {
  if (auto matrix = dyn_cast<MatrixType>(value.getType()))
    return stringifyMatrixFormat(
               matrix.getFormat().value_or(MatrixFormat::Dense))
        .str();
  return "scalar";
}

/// "file:line" of a location, the file without its directories.
std::string describeLocation(Location loc) {
  FileLineColLoc fileLoc;
  loc->walk([&](Location inner) {
    if (auto found = dyn_cast<FileLineColLoc>(inner)) {
      fileLoc = found;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  // Line 0: a node the frontend placed nowhere (a graph node without a
  // position).
  if (!fileLoc || fileLoc.getLine() == 0)
    return "";
  return (llvm::sys::path::filename(fileLoc.getFilename().getValue()) + ":" +
          Twine(fileLoc.getLine()))
      .str();
}

class PlanGraphWriter {
public:
  explicit PlanGraphWriter(raw_ostream &os) : os(os) {}

  void write(ModuleOp module) {
    os << "digraph \"amls plan\" {\n"
       << "  compound=true;\n"
       << "  node [shape=box, style=rounded, fontname=\"Helvetica\", "
          "fontsize=10];\n"
       << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    for (auto function : module.getOps<func::FuncOp>()) {
      if (function.isExternal())
        continue;
      openCluster("func @" + function.getSymName().str(), "");
      for (BlockArgument arg : function.getArguments()) {
        std::string name = "arg" + std::to_string(arg.getArgNumber());
        if (auto attr = function.getArgAttrOfType<StringAttr>(
                arg.getArgNumber(), AMLSDialect::getNameAttrName()))
          name = attr.getValue().str();
        addNode(arg, name + "\\n" + describeType(arg.getType()),
                "shape=ellipse");
      }
      writeBlock(function.getBody().front());
      closeCluster();
    }
    for (const std::string &edge : edges)
      os << edge;
    os << "}\n";
  }

private:
  void openCluster(const std::string &label, StringRef style) {
    indent();
    os << "subgraph cluster_" << clusters++ << " {\n";
    ++depth;
    indent();
    os << "label=\"" << escape(label) << "\"; fontname=\"Helvetica\"; "
       << "fontsize=11;" << (style.empty() ? "" : " ") << style << "\n";
  }

  void closeCluster() {
    --depth;
    indent();
    os << "}\n";
  }

  void indent() { os.indent(2 * (depth + 1)); }

  std::string addNode(Value value, const std::string &label,
                      StringRef attributes = "") {
    std::string id = "n" + std::to_string(nodes++);
    indent();
    os << id << " [label=\"" << escape(label) << "\""
       << (attributes.empty() ? "" : ", ") << attributes << "];\n";
    if (value)
      nodeOf[value] = id;
    return id;
  }

  /// Edges from the nodes of `op`'s operands to `id` (constants are in the
  /// labels of their users instead).
  void addEdges(Operation *op, const std::string &id) {
    for (OpOperand &operand : op->getOpOperands()) {
      auto source = nodeOf.find(operand.get());
      if (source == nodeOf.end())
        continue;
      std::string edge = "  " + source->second + " -> " + id;
      if (AMLSDialect::isRowPartitionedOperand(op,
                                               operand.getOperandNumber()))
        edge += " [label=\"rows\"]";
      edges.push_back(edge + ";\n");
    }
  }

  /// The op's name, without the dialect's prefix for AMLS's ops.
  static std::string opName(Operation *op) {
    StringRef name = op->getName().getStringRef();
    name.consume_front("amls.");
    return name.str();
  }

  std::string constantOperands(Operation *op) {
    SmallVector<std::string> values;
    for (Value operand : op->getOperands()) {
      FloatAttr number;
      IntegerAttr integer;
      if (matchPattern(operand, m_Constant(&number)))
        values.push_back(
            llvm::formatv("{0}", llvm::format("%g", number.getValueAsDouble())));
      else if (matchPattern(operand, m_Constant(&integer)))
        values.push_back(std::to_string(integer.getInt()));
    }
    if (values.empty())
      return "";
    return "\\nconstants " + llvm::join(values, ", ");
  }

  std::string label(Operation *op) {
    std::string text = opName(op);
    if (auto agg = dyn_cast<AggOp>(op))
      text += " " + stringifyAggKind(agg.getKind()).str() + " " +
              stringifyAggAxis(agg.getAxis()).str();
    for (Value result : op->getResults())
      text += "\\n" + describeType(result.getType());
    if (isa<MatmulOp, TsmmOp, MMChainOp>(op)) {
      SmallVector<std::string> formats;
      for (Value operand : op->getOperands())
        if (isa<MatrixType>(operand.getType()))
          formats.push_back(formatOf(operand));
      text += "\\nkernel " + llvm::join(formats, " x ");
    }
    if (op->hasAttr(AMLSDialect::getRowPartitionedAttrName()))
      text += "\\nblocks of rows";
    text += constantOperands(op);
    std::string where = describeLocation(op->getLoc());
    if (!where.empty())
      text += "\\n" + where;
    return text;
  }

  static bool isCollective(Operation *op) {
    return isa<AllReduceOp, AllGatherRowsOp, MergeRanksOp>(op);
  }

  void writeBlock(Block &block) {
    for (Operation &op : block)
      writeOp(&op);
  }

  void writeOp(Operation *op) {
    // What a function returns is its plan's sink; the other terminators
    // pass values on, drawn as their parents' nodes.
    if (isa<func::ReturnOp>(op))
      return addEdges(op, addNode(Value(), "return", "shape=ellipse"));
    if (op->hasTrait<OpTrait::ConstantLike>() ||
        op->hasTrait<OpTrait::IsTerminator>())
      return;
    if (auto fused = dyn_cast<FusedOp>(op))
      return writeFused(fused);
    if (op->getNumRegions() > 0) {
      openCluster(opName(op) + (describeLocation(op->getLoc()).empty()
                                    ? ""
                                    : " at " + describeLocation(op->getLoc())),
                  "style=dashed;");
      std::string id = addNode(Value(), opName(op), "shape=point");
      addEdges(op, id);
      for (Region &region : op->getRegions())
        for (Block &block : region) {
          for (BlockArgument arg : block.getArguments())
            addNode(arg, "loop value\\n" + describeType(arg.getType()),
                    "shape=ellipse, style=dashed");
          writeBlock(block);
          // What the body passes on (the next iteration's values, the
          // branch's results) flows back into the op: dashed edges that
          // do not rank the graph.
          for (Value passed : block.getTerminator()->getOperands())
            if (auto source = nodeOf.find(passed); source != nodeOf.end())
              edges.push_back("  " + source->second + " -> " + id +
                              " [style=dashed, constraint=false];\n");
        }
      closeCluster();
      // The results are what the body yields: drawn as the op's node.
      for (Value result : op->getResults())
        nodeOf[result] = id;
      return;
    }
    StringRef style = isCollective(op)
                          ? "shape=hexagon, style=filled, fillcolor=\"#f4cccc\""
                          : "";
    std::string id = addNode(Value(), label(op), style);
    for (Value result : op->getResults())
      nodeOf[result] = id;
    addEdges(op, id);
  }

  /// A fused operator: a cluster of its body's ops, whose block arguments
  /// are the operator's inputs and whose yielded values are its results.
  void writeFused(FusedOp fused) {
    std::string title = "fused " + stringifyFusedTemplate(fused.getKind()).str();
    if (auto aggregate = fused.getAggregate()) {
      SmallVector<std::string> kinds;
      for (Attribute kind : *aggregate)
        kinds.push_back(
            stringifyAggKind(cast<AggKindAttr>(kind).getValue()).str());
      title += " aggregate " + llvm::join(kinds, ", ");
    }
    for (Value result : fused.getResults())
      title += " -> " + describeType(result.getType());
    std::string where = describeLocation(fused.getLoc());
    if (!where.empty())
      title += " at " + where;
    openCluster(title, "style=filled; fillcolor=\"#dde8f7\"; color=\"#4a78b5\";");
    Block &body = fused.getBody().front();
    // Block arguments stand for inputs: the outer template's body sees one
    // argument fewer (the product's cell replaces its two factors).
    ValueRange inputs = fused.getInputs();
    if (fused.getKind() == FusedTemplate::Outer) {
      std::string product = addNode(Value(), "U %*% t(V) cell", "shape=ellipse");
      for (unsigned i : {1u, 2u})
        if (auto factor = nodeOf.find(inputs[i]); factor != nodeOf.end())
          edges.push_back("  " + factor->second + " -> " + product + ";\n");
      if (body.getNumArguments() > 1)
        nodeOf[body.getArgument(1)] = product;
      if (body.getNumArguments() > 0)
        if (auto main = nodeOf.find(inputs[0]); main != nodeOf.end())
          nodeOf[body.getArgument(0)] = main->second;
      for (unsigned i = 2; i < body.getNumArguments(); ++i)
        if (auto input = nodeOf.find(inputs[i + 1]); input != nodeOf.end())
          nodeOf[body.getArgument(i)] = input->second;
    } else {
      for (auto [arg, input] : llvm::zip(body.getArguments(), inputs))
        if (auto node = nodeOf.find(input); node != nodeOf.end())
          nodeOf[arg] = node->second;
    }
    writeBlock(body);
    closeCluster();
    auto yield = cast<YieldOp>(body.getTerminator());
    for (auto [result, yielded] :
         llvm::zip(fused.getResults(), yield.getOperands()))
      if (auto node = nodeOf.find(yielded); node != nodeOf.end())
        nodeOf[result] = node->second;
  }

  raw_ostream &os;
  DenseMap<Value, std::string> nodeOf;
  std::vector<std::string> edges;
  unsigned nodes = 0, clusters = 0, depth = 0;
};

struct PrintPlanGraphPass
    : public amls::impl::AMLSPrintPlanGraphBase<PrintPlanGraphPass> {
  void runOnOperation() override {
    writePlanGraph(getOperation(), llvm::errs());
    markAllAnalysesPreserved();
  }
};

} // namespace

void mlir::amls::writePlanGraph(ModuleOp module, raw_ostream &os) {
  PlanGraphWriter(os).write(module);
}
