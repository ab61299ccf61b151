//===- Graph.cpp - AMLS C API: programs built as expression graphs -------===//
//
// A graph becomes the syntax tree of a DML script, never its text: each node
// with a value is one assignment of a temporary (`_t<node>`), each output one
// assignment of its name. The DML importer then takes the tree as it takes a
// parsed script, so every builtin and library function, their argument
// checks and messages are the importer's, and the optimizer sees one program
// across all of the host's statements.
//
//===----------------------------------------------------------------------===//

#include "amls-c/Graph.h"

#include "CAPI.h"

#include "AMLS/Frontend/DML/AST.h"
#include "AMLS/Frontend/DML/ImportDML.h"

#include "mlir/CAPI/Support.h"
#include "llvm/ADT/StringSet.h"

#include <optional>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::capi;

namespace {

struct GraphNode {
  enum class Kind {
    Input,
    Number,
    Boolean,
    String,
    Unary,
    Binary,
    Call,
    Result,
    Index
  };
  GraphNode(Kind kind, AmlsGraphLocation location)
      : kind(kind), location(location) {}
  Kind kind;
  AmlsGraphLocation location;
  /// The input's name, the string, the operator's spelling or the callee.
  std::string text;
  double number = 0;
  /// A number's isInteger, a boolean's value.
  bool flag = false;
  dml::UnaryOp unaryOp = dml::UnaryOp::Negate;
  dml::BinaryOp binaryOp = dml::BinaryOp::Add;
  /// Binary: lhs, rhs; Index: base and the four bounds; Call: its
  /// arguments; Result: the call.
  std::vector<AmlsGraphNode> operands;
  std::vector<std::string> argumentNames;
  intptr_t numResults = 1;
  intptr_t resultIndex = 0;
  AmlsInputKind inputKind = AMLS_INPUT_MATRIX;
};

} // namespace

struct mlir::amls::capi::CGraph {
  std::vector<std::pair<std::string, std::string>> sources;
  std::vector<GraphNode> nodes;
  std::vector<std::pair<std::string, AmlsGraphNode>> outputs;
  llvm::StringSet<> names;
  /// The first call that could not be taken.
  std::string problem;

  AmlsGraphNode fail(std::string message) {
    if (problem.empty())
      problem = std::move(message);
    return -1;
  }
  bool exists(AmlsGraphNode node) const {
    return node >= 0 && node < static_cast<AmlsGraphNode>(nodes.size());
  }
  /// Whether `node` holds a value another node can use.
  bool hasValue(AmlsGraphNode node) const {
    if (!exists(node))
      return false;
    const GraphNode &n = nodes[node];
    return n.kind != GraphNode::Kind::Call || n.numResults == 1;
  }
  AmlsGraphNode add(GraphNode node) {
    if (node.location.source < -1 ||
        node.location.source >= static_cast<intptr_t>(sources.size()))
      return fail("a location in source " +
                  std::to_string(node.location.source) + ", of " +
                  std::to_string(sources.size()));
    nodes.push_back(std::move(node));
    return static_cast<AmlsGraphNode>(nodes.size()) - 1;
  }
  /// Checks that every operand exists and has a value (absent ones allowed
  /// where `allowAbsent`).
  bool checkOperands(llvm::ArrayRef<AmlsGraphNode> operands, StringRef what,
                     bool allowAbsent = false) {
    for (AmlsGraphNode operand : operands) {
      if (operand == -1 && allowAbsent)
        continue;
      if (!hasValue(operand)) {
        fail(what.str() + ": node " + std::to_string(operand) +
             (exists(operand) ? " has no single value" : " does not exist"));
        return false;
      }
    }
    return true;
  }
};

namespace {

AmlsGraphLocation nowhere() { return {-1, 0, 0}; }

/// Builds the script of a graph whose sources are in the session.
class ScriptBuilder {
public:
  ScriptBuilder(const CGraph &graph, std::vector<StringRef> sourceTexts)
      : graph(graph), sourceTexts(std::move(sourceTexts)) {}

  dml::Script build(dml::ImportOptions &options) {
    dml::Script script;
    for (auto [i, node] : llvm::enumerate(graph.nodes)) {
      llvm::SMLoc where = loc(node.location);
      switch (node.kind) {
      case GraphNode::Kind::Input: {
        dml::ImportOptions::Input::Kind kind =
            dml::ImportOptions::Input::Kind::Matrix;
        if (node.inputKind == AMLS_INPUT_DOUBLE)
          kind = dml::ImportOptions::Input::Kind::Double;
        else if (node.inputKind == AMLS_INPUT_INTEGER)
          kind = dml::ImportOptions::Input::Kind::Integer;
        else if (node.inputKind == AMLS_INPUT_BOOLEAN)
          kind = dml::ImportOptions::Input::Kind::Boolean;
        options.inputs.push_back({node.text, kind});
        break;
      }
      case GraphNode::Kind::Number:
      case GraphNode::Kind::Boolean:
      case GraphNode::Kind::String:
      case GraphNode::Kind::Result:
        break; // used where they are referenced
      case GraphNode::Kind::Call:
        if (node.numResults != 1) {
          std::vector<dml::AssignTarget> targets;
          for (intptr_t r = 0; r < node.numResults; ++r)
            targets.push_back({where, resultName(i, r), {}, {}});
          if (targets.empty())
            script.statements.push_back(
                std::make_unique<dml::ExprStmt>(where, expression(i)));
          else
            script.statements.push_back(std::make_unique<dml::AssignStmt>(
                where, std::move(targets), expression(i)));
          break;
        }
        [[fallthrough]];
      default: {
        std::vector<dml::AssignTarget> targets;
        targets.push_back({where, temporary(i), {}, {}});
        script.statements.push_back(std::make_unique<dml::AssignStmt>(
            where, std::move(targets), expression(i)));
      }
      }
    }
    for (const auto &[name, node] : graph.outputs) {
      llvm::SMLoc where = loc(graph.nodes[node].location);
      std::vector<dml::AssignTarget> targets;
      targets.push_back({where, name, {}, {}});
      script.statements.push_back(std::make_unique<dml::AssignStmt>(
          where, std::move(targets), reference(node)));
      options.outputs.push_back(name);
    }
    return script;
  }

private:
  static std::string temporary(size_t node) {
    return "_t" + std::to_string(node);
  }
  static std::string resultName(size_t node, intptr_t index) {
    return temporary(node) + "_" + std::to_string(index);
  }

  /// The position in the session's copy of the source, clamped to its text
  /// (a host may not have the whole file).
  llvm::SMLoc loc(AmlsGraphLocation location) const {
    if (location.source < 0 || location.line == 0)
      return {};
    StringRef text = sourceTexts[location.source];
    size_t at = 0;
    for (unsigned line = 1; line < location.line; ++line) {
      size_t next = text.find('\n', at);
      if (next == StringRef::npos)
        return {};
      at = next + 1;
    }
    size_t end = std::min(text.find('\n', at), text.size());
    size_t column = location.column ? location.column - 1 : 0;
    if (at + column > end)
      column = end - at;
    return llvm::SMLoc::getFromPointer(text.data() + at + column);
  }

  /// What another node reads for `node`: a literal as itself, an input by
  /// its name, the rest by their temporaries.
  dml::ExprPtr reference(AmlsGraphNode node) const {
    const GraphNode &n = graph.nodes[node];
    llvm::SMLoc where = loc(n.location);
    switch (n.kind) {
    case GraphNode::Kind::Number:
      return std::make_unique<dml::NumberExpr>(where, n.number, n.flag);
    case GraphNode::Kind::Boolean:
      return std::make_unique<dml::BoolExpr>(where, n.flag);
    case GraphNode::Kind::String:
      return std::make_unique<dml::StringExpr>(where, n.text);
    case GraphNode::Kind::Input:
      return std::make_unique<dml::IdentifierExpr>(where, n.text);
    case GraphNode::Kind::Result:
      return std::make_unique<dml::IdentifierExpr>(
          where, resultName(n.operands[0], n.resultIndex));
    default:
      return std::make_unique<dml::IdentifierExpr>(where, temporary(node));
    }
  }

  dml::IndexRange range(AmlsGraphNode begin, AmlsGraphNode end,
                        llvm::SMLoc where) const {
    dml::IndexRange result;
    result.loc = where;
    if (begin != -1)
      result.begin = reference(begin);
    if (begin != -1 && end != -1)
      result.end = reference(end);
    return result;
  }

  /// The expression a node with a statement assigns.
  dml::ExprPtr expression(AmlsGraphNode node) const {
    const GraphNode &n = graph.nodes[node];
    llvm::SMLoc where = loc(n.location);
    switch (n.kind) {
    case GraphNode::Kind::Unary:
      return std::make_unique<dml::UnaryExpr>(where, n.unaryOp,
                                              reference(n.operands[0]));
    case GraphNode::Kind::Binary:
      return std::make_unique<dml::BinaryExpr>(where, n.binaryOp,
                                               reference(n.operands[0]),
                                               reference(n.operands[1]));
    case GraphNode::Kind::Index:
      return std::make_unique<dml::IndexExpr>(
          where, reference(n.operands[0]),
          range(n.operands[1], n.operands[2], where),
          range(n.operands[3], n.operands[4], where));
    case GraphNode::Kind::Call: {
      std::vector<dml::Argument> arguments;
      for (auto [operand, name] : llvm::zip(n.operands, n.argumentNames))
        arguments.push_back(
            {loc(graph.nodes[operand].location), name, reference(operand)});
      return std::make_unique<dml::CallExpr>(where, n.text,
                                             std::move(arguments));
    }
    default:
      return reference(node);
    }
  }

  const CGraph &graph;
  std::vector<StringRef> sourceTexts;
};

std::optional<dml::BinaryOp> binaryOpSpelled(StringRef spelling) {
  for (dml::BinaryOp op :
       {dml::BinaryOp::Add, dml::BinaryOp::Sub, dml::BinaryOp::Mul,
        dml::BinaryOp::Div, dml::BinaryOp::Pow, dml::BinaryOp::Mod,
        dml::BinaryOp::IntDiv, dml::BinaryOp::MatMul, dml::BinaryOp::Lt,
        dml::BinaryOp::Le, dml::BinaryOp::Gt, dml::BinaryOp::Ge,
        dml::BinaryOp::Eq, dml::BinaryOp::Ne, dml::BinaryOp::And,
        dml::BinaryOp::Or})
    if (dml::spelling(op) == spelling)
      return op;
  return std::nullopt;
}

} // namespace

DEFINE_C_API_PTR_METHODS(AmlsFunctionSignature, dml::LibraryFunctionSignature)

AmlsFunctionSignature amlsSessionGetLibraryFunction(AmlsSession handle,
                                                    MlirStringRef name,
                                                    AmlsError *error) {
  CSession &session = *unwrap(handle);
  std::lock_guard<std::mutex> lock(session.mutex);
  std::vector<std::string> folders = session.session.getOptions().builtinDirs;
  for (std::string &folder : dml::getDefaultBuiltinDirs())
    folders.push_back(std::move(folder));
  std::string problem;
  std::optional<dml::LibraryFunctionSignature> signature =
      dml::findLibraryFunction(unwrap(name), folders, problem);
  if (!signature) {
    if (!problem.empty())
      setError(error, problem);
    return {nullptr};
  }
  return wrap(new dml::LibraryFunctionSignature(std::move(*signature)));
}

void amlsFunctionSignatureDestroy(AmlsFunctionSignature signature) {
  delete unwrap(signature);
}

static const dml::LibraryFunctionSignature::Slot &
slot(AmlsFunctionSignature signature, bool isResult, intptr_t index) {
  const dml::LibraryFunctionSignature &s = *unwrap(signature);
  return (isResult ? s.results : s.parameters)[index];
}

intptr_t amlsFunctionSignatureGetNumSlots(AmlsFunctionSignature signature,
                                          bool isResult) {
  const dml::LibraryFunctionSignature &s = *unwrap(signature);
  return static_cast<intptr_t>(isResult ? s.results.size()
                                        : s.parameters.size());
}

MlirStringRef amlsFunctionSignatureGetSlotName(AmlsFunctionSignature signature,
                                               bool isResult, intptr_t index) {
  return wrap(StringRef(slot(signature, isResult, index).name));
}

MlirStringRef amlsFunctionSignatureGetSlotKind(AmlsFunctionSignature signature,
                                               bool isResult, intptr_t index) {
  using Kind = dml::TypeSpec::Kind;
  switch (static_cast<Kind>(slot(signature, isResult, index).kind)) {
  case Kind::Matrix:
    return wrap(StringRef("matrix"));
  case Kind::Double:
    return wrap(StringRef("double"));
  case Kind::Integer:
    return wrap(StringRef("integer"));
  case Kind::Boolean:
    return wrap(StringRef("boolean"));
  case Kind::String:
    return wrap(StringRef("string"));
  case Kind::List:
    return wrap(StringRef("list"));
  }
  return wrap(StringRef("unknown"));
}

bool amlsFunctionSignatureSlotHasDefault(AmlsFunctionSignature signature,
                                         bool isResult, intptr_t index) {
  return slot(signature, isResult, index).hasDefault;
}

AmlsGraph amlsGraphCreate(void) { return wrap(new CGraph()); }

void amlsGraphDestroy(AmlsGraph graph) { delete unwrap(graph); }

intptr_t amlsGraphAddSource(AmlsGraph handle, MlirStringRef name,
                            MlirStringRef text) {
  CGraph &graph = *unwrap(handle);
  graph.sources.emplace_back(unwrap(name).str(), unwrap(text).str());
  return static_cast<intptr_t>(graph.sources.size()) - 1;
}

AmlsGraphNode amlsGraphAddInput(AmlsGraph handle, MlirStringRef name,
                                AmlsInputKind kind) {
  CGraph &graph = *unwrap(handle);
  std::string inputName = unwrap(name).str();
  int rawKind = static_cast<int>(kind);
  if (rawKind < AMLS_INPUT_MATRIX || rawKind > AMLS_INPUT_BOOLEAN)
    return graph.fail("input '" + inputName + "' has an unknown kind " +
                      std::to_string(rawKind));
  if (inputName.empty() || StringRef(inputName).starts_with("_t"))
    return graph.fail("input name '" + inputName +
                      "' is empty or starts with '_t'");
  if (!graph.names.insert(inputName).second)
    return graph.fail("input '" + inputName + "' is given twice");
  GraphNode node{GraphNode::Kind::Input, nowhere()};
  node.text = inputName;
  node.inputKind = kind;
  return graph.add(std::move(node));
}

AmlsGraphNode amlsGraphAddNumber(AmlsGraph handle, double value,
                                 bool isInteger, AmlsGraphLocation location) {
  GraphNode node{GraphNode::Kind::Number, location};
  node.number = value;
  node.flag = isInteger;
  return unwrap(handle)->add(std::move(node));
}

AmlsGraphNode amlsGraphAddBoolean(AmlsGraph handle, bool value,
                                  AmlsGraphLocation location) {
  GraphNode node{GraphNode::Kind::Boolean, location};
  node.flag = value;
  return unwrap(handle)->add(std::move(node));
}

AmlsGraphNode amlsGraphAddString(AmlsGraph handle, MlirStringRef value,
                                 AmlsGraphLocation location) {
  GraphNode node{GraphNode::Kind::String, location};
  node.text = unwrap(value).str();
  return unwrap(handle)->add(std::move(node));
}

AmlsGraphNode amlsGraphAddUnary(AmlsGraph handle, MlirStringRef op,
                                AmlsGraphNode operand,
                                AmlsGraphLocation location) {
  CGraph &graph = *unwrap(handle);
  StringRef spelling = unwrap(op);
  GraphNode node{GraphNode::Kind::Unary, location};
  if (spelling == "-")
    node.unaryOp = dml::UnaryOp::Negate;
  else if (spelling == "!")
    node.unaryOp = dml::UnaryOp::Not;
  else
    return graph.fail("unknown unary operator '" + spelling.str() +
                      "'; expected '-' or '!'");
  if (!graph.checkOperands({operand}, "unary '" + spelling.str() + "'"))
    return -1;
  node.operands = {operand};
  return graph.add(std::move(node));
}

AmlsGraphNode amlsGraphAddBinary(AmlsGraph handle, MlirStringRef op,
                                 AmlsGraphNode lhs, AmlsGraphNode rhs,
                                 AmlsGraphLocation location) {
  CGraph &graph = *unwrap(handle);
  StringRef spelling = unwrap(op);
  std::optional<dml::BinaryOp> binary = binaryOpSpelled(spelling);
  if (!binary)
    return graph.fail("unknown binary operator '" + spelling.str() + "'");
  if (!graph.checkOperands({lhs, rhs}, "'" + spelling.str() + "'"))
    return -1;
  GraphNode node{GraphNode::Kind::Binary, location};
  node.binaryOp = *binary;
  node.operands = {lhs, rhs};
  return graph.add(std::move(node));
}

AmlsGraphNode amlsGraphAddCall(AmlsGraph handle, MlirStringRef callee,
                               const AmlsGraphNode *arguments,
                               const MlirStringRef *argumentNames,
                               intptr_t numArguments, intptr_t numResults,
                               AmlsGraphLocation location) {
  CGraph &graph = *unwrap(handle);
  std::string name = unwrap(callee).str();
  if (name.empty())
    return graph.fail("a call without a callee");
  if (numArguments < 0 || numResults < 0)
    return graph.fail("call of '" + name + "': a negative count");
  GraphNode node{GraphNode::Kind::Call, location};
  node.text = name;
  node.numResults = numResults;
  node.operands.assign(arguments, arguments + numArguments);
  if (!graph.checkOperands(node.operands, "argument of '" + name + "'"))
    return -1;
  for (intptr_t i = 0; i < numArguments; ++i)
    node.argumentNames.push_back(
        argumentNames ? unwrap(argumentNames[i]).str() : std::string());
  return graph.add(std::move(node));
}

AmlsGraphNode amlsGraphGetResult(AmlsGraph handle, AmlsGraphNode call,
                                 intptr_t index) {
  CGraph &graph = *unwrap(handle);
  if (!graph.exists(call) ||
      graph.nodes[call].kind != GraphNode::Kind::Call)
    return graph.fail("result " + std::to_string(index) + " of node " +
                      std::to_string(call) + ", which is not a call");
  const GraphNode &called = graph.nodes[call];
  if (called.numResults < 2 || index < 0 || index >= called.numResults)
    return graph.fail("result " + std::to_string(index) + " of '" +
                      called.text + "', which has " +
                      std::to_string(called.numResults));
  GraphNode node{GraphNode::Kind::Result, called.location};
  node.operands = {call};
  node.resultIndex = index;
  return graph.add(std::move(node));
}

AmlsGraphNode amlsGraphAddIndex(AmlsGraph handle, AmlsGraphNode base,
                                AmlsGraphNode rowBegin, AmlsGraphNode rowEnd,
                                AmlsGraphNode colBegin, AmlsGraphNode colEnd,
                                AmlsGraphLocation location) {
  CGraph &graph = *unwrap(handle);
  if (!graph.checkOperands({base}, "indexed value") ||
      !graph.checkOperands({rowBegin, rowEnd, colBegin, colEnd},
                           "index bound", /*allowAbsent=*/true))
    return -1;
  GraphNode node{GraphNode::Kind::Index, location};
  node.operands = {base, rowBegin, rowEnd, colBegin, colEnd};
  return graph.add(std::move(node));
}

bool amlsGraphAddOutput(AmlsGraph handle, MlirStringRef name,
                        AmlsGraphNode node) {
  CGraph &graph = *unwrap(handle);
  std::string outputName = unwrap(name).str();
  if (outputName.empty() || StringRef(outputName).starts_with("_t")) {
    graph.fail("output name '" + outputName +
               "' is empty or starts with '_t'");
    return false;
  }
  if (!graph.checkOperands({node}, "output '" + outputName + "'"))
    return false;
  if (!graph.names.insert(outputName).second) {
    graph.fail("output name '" + outputName + "' is taken");
    return false;
  }
  graph.outputs.emplace_back(outputName, node);
  return true;
}

bool mlir::amls::capi::buildGraphScript(AmlsGraph handle, Session &session,
                                        dml::Script &script,
                                        dml::ImportOptions &options,
                                        std::vector<unsigned> &sourceBuffers,
                                        std::string &problem) {
  const CGraph &graph = *unwrap(handle);
  if (!graph.problem.empty()) {
    problem = graph.problem;
    return false;
  }
  if (graph.outputs.empty()) {
    problem = "the graph has no outputs";
    return false;
  }
  std::vector<StringRef> texts;
  for (const auto &[name, text] : graph.sources) {
    unsigned id = session.addSourceText(name, text);
    sourceBuffers.push_back(id);
    texts.push_back(session.getSourceText(id));
  }
  script = ScriptBuilder(graph, std::move(texts)).build(options);
  return true;
}
