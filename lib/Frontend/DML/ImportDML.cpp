//===- ImportDML.cpp - DML scripts to AMLS IR -----------------------------===//
//
// Walks the AST and emits AMLS + func/scf/arith/math IR. Every matrix value
// has the type !amls.matrix<?x?xf64>: sizes and sparsity are left to
// --amls-infer-properties (and to amls-run's specialization on the inputs),
// which keeps the generator simple and the IR honest about what the script
// says. Scalars are f64 (DML's Double and Integer), booleans i1, strings
// compile-time sequences of text and values (for print and stop).
//
// DML variables become SSA values: an `if` yields the variables its
// branches assign, loops carry the variables their body assigns as
// iter_args, functions return their declared results.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Frontend/DML/ImportDML.h"
#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Dialect/AMLSTypes.h"
#include "AMLS/Frontend/DML/Parser.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <set>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using llvm::SMLoc;

namespace {

/// A piece of a string: literal text, or a value printed in its place.
struct StringPiece {
  std::string text;
  Value value; // null for text
};

/// What a DML expression evaluates to.
struct DValue {
  enum class Kind { Invalid, Matrix, Scalar, Bool, String };
  Kind kind = Kind::Invalid;
  Value value;                     // Matrix, Scalar (f64), Bool (i1)
  std::vector<StringPiece> pieces; // String
  /// A number DML types as INT (integer literals, sizes, loop counters and
  /// integer arithmetic on them). It is still an f64 here; only printing
  /// differs ("3", not "3.0").
  bool integer = false;

  static DValue matrix(Value v) { return {Kind::Matrix, v, {}}; }
  static DValue scalar(Value v) { return {Kind::Scalar, v, {}}; }
  static DValue integerScalar(Value v) {
    return {Kind::Scalar, v, {}, /*integer=*/true};
  }
  static DValue boolean(Value v) { return {Kind::Bool, v, {}}; }
  static DValue string(std::vector<StringPiece> pieces) {
    return {Kind::String, nullptr, std::move(pieces)};
  }
  static DValue text(std::string text) {
    return string({StringPiece{std::move(text), nullptr}});
  }
  bool isValid() const { return kind != Kind::Invalid; }
  bool isMatrix() const { return kind == Kind::Matrix; }
  bool isNumeric() const { return kind == Kind::Scalar || kind == Kind::Bool; }
  bool isString() const { return kind == Kind::String; }
  /// The string if it is known at compile time.
  std::optional<std::string> constantString() const {
    if (!isString())
      return std::nullopt;
    std::string result;
    for (const StringPiece &piece : pieces) {
      if (piece.value)
        return std::nullopt;
      result += piece.text;
    }
    return result;
  }
};

llvm::StringRef kindName(DValue::Kind kind) {
  switch (kind) {
  case DValue::Kind::Invalid:
    return "an invalid value";
  case DValue::Kind::Matrix:
    return "a matrix";
  case DValue::Kind::Scalar:
    return "a number";
  case DValue::Kind::Bool:
    return "a boolean";
  case DValue::Kind::String:
    return "a string";
  }
  return "a value";
}

using Environment = std::map<std::string, DValue>;

/// Names a block of statements assigns (targets and loop variables),
/// including nested blocks.
void collectAssigned(const StmtList &block, std::set<std::string> &names) {
  for (const StmtPtr &stmt : block) {
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
      for (const AssignTarget &target : assign->targets)
        names.insert(target.name);
    } else if (auto *ifStmt = llvm::dyn_cast<IfStmt>(stmt.get())) {
      collectAssigned(ifStmt->thenBlock, names);
      collectAssigned(ifStmt->elseBlock, names);
    } else if (auto *whileStmt = llvm::dyn_cast<WhileStmt>(stmt.get())) {
      collectAssigned(whileStmt->body, names);
    } else if (auto *forStmt = llvm::dyn_cast<ForStmt>(stmt.get())) {
      names.insert(forStmt->variable);
      collectAssigned(forStmt->body, names);
    }
  }
}

/// Calls of user functions in an expression or block (for the recursion
/// check).
void collectCalls(const Expr *expr, std::vector<const CallExpr *> &calls);
void collectCalls(const StmtList &block, std::vector<const CallExpr *> &calls) {
  for (const StmtPtr &stmt : block) {
    if (auto *assign = llvm::dyn_cast<AssignStmt>(stmt.get())) {
      collectCalls(assign->value.get(), calls);
      for (const AssignTarget &target : assign->targets)
        if (target.isIndexed()) {
          for (const IndexRange *range : {&*target.rows, &*target.cols}) {
            collectCalls(range->begin.get(), calls);
            collectCalls(range->end.get(), calls);
          }
        }
    } else if (auto *exprStmt = llvm::dyn_cast<ExprStmt>(stmt.get())) {
      collectCalls(exprStmt->expr.get(), calls);
    } else if (auto *ifStmt = llvm::dyn_cast<IfStmt>(stmt.get())) {
      collectCalls(ifStmt->condition.get(), calls);
      collectCalls(ifStmt->thenBlock, calls);
      collectCalls(ifStmt->elseBlock, calls);
    } else if (auto *whileStmt = llvm::dyn_cast<WhileStmt>(stmt.get())) {
      collectCalls(whileStmt->condition.get(), calls);
      collectCalls(whileStmt->body, calls);
    } else if (auto *forStmt = llvm::dyn_cast<ForStmt>(stmt.get())) {
      collectCalls(forStmt->from.get(), calls);
      collectCalls(forStmt->to.get(), calls);
      collectCalls(forStmt->step.get(), calls);
      collectCalls(forStmt->body, calls);
    }
  }
}
void collectCalls(const Expr *expr, std::vector<const CallExpr *> &calls) {
  if (!expr)
    return;
  if (auto *call = llvm::dyn_cast<CallExpr>(expr)) {
    calls.push_back(call);
    for (const Argument &arg : call->args)
      collectCalls(arg.value.get(), calls);
  } else if (auto *unary = llvm::dyn_cast<UnaryExpr>(expr)) {
    collectCalls(unary->operand.get(), calls);
  } else if (auto *binary = llvm::dyn_cast<BinaryExpr>(expr)) {
    collectCalls(binary->lhs.get(), calls);
    collectCalls(binary->rhs.get(), calls);
  } else if (auto *index = llvm::dyn_cast<IndexExpr>(expr)) {
    collectCalls(index->base.get(), calls);
    for (const IndexRange *range : {&index->rows, &index->cols}) {
      collectCalls(range->begin.get(), calls);
      collectCalls(range->end.get(), calls);
    }
  }
}

/// Binds a call's arguments to a builtin's parameter names.
struct BoundArgs {
  std::vector<const Expr *> values; // per parameter, null if absent
  const Expr *operator[](size_t i) const { return values[i]; }
  bool has(size_t i) const { return values[i] != nullptr; }
};

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context,
           const ImportOptions &options)
      : sourceMgr(sourceMgr), context(context), options(options),
        builder(context) {
    bufferName = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                     ->getBufferIdentifier()
                     .str();
  }

  OwningOpRef<ModuleOp> run(Script &script);

  Location loc(SMLoc where) {
    if (!where.isValid())
      return FileLineColLoc::get(context, bufferName, 0, 0);
    auto [line, col] = sourceMgr.getLineAndColumn(where);
    return FileLineColLoc::get(context, bufferName, line, col);
  }

  InFlightDiagnostic error(SMLoc where) {
    hadError = true;
    return emitError(loc(where));
  }

private:
  //===--------------------------------------------------------------------===//
  // Types and conversions
  //===--------------------------------------------------------------------===//

  Type f64() { return builder.getF64Type(); }
  MatrixType matrixType() {
    return MatrixType::get(ShapedType::kDynamic, ShapedType::kDynamic, f64());
  }
  Value constant(Location l, double value) {
    return arith::ConstantOp::create(builder, l,
                                     builder.getF64FloatAttr(value));
  }
  Value boolConstant(Location l, bool value) {
    return arith::ConstantOp::create(builder, l, builder.getBoolAttr(value));
  }
  Value indexConstant(Location l, int64_t value) {
    return arith::ConstantIndexOp::create(builder, l, value);
  }

  /// A matrix as !amls.matrix<?x?xf64>: the type every variable has where
  /// control flow joins or functions are called.
  Value relaxed(Location l, Value matrix) {
    if (matrix.getType() == matrixType())
      return matrix;
    return CastOp::create(builder, l, matrixType(), matrix);
  }

  /// A number as f64 (booleans are 0/1).
  Value toF64(Location l, const DValue &v) {
    if (v.kind == DValue::Kind::Bool)
      return arith::UIToFPOp::create(builder, l, f64(), v.value);
    return v.value;
  }
  /// A number as a condition (non-zero is true).
  Value toI1(Location l, const DValue &v) {
    if (v.kind == DValue::Kind::Bool)
      return v.value;
    return arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNE, v.value,
                                 constant(l, 0.0));
  }
  /// A 1-based position or size as an index (truncated towards zero).
  Value toIndex(Location l, Value f) {
    Value i64 = arith::FPToSIOp::create(builder, l, builder.getI64Type(), f);
    return arith::IndexCastOp::create(builder, l, builder.getIndexType(), i64);
  }
  Value indexToF64(Location l, Value index) {
    Value i64 =
        arith::IndexCastOp::create(builder, l, builder.getI64Type(), index);
    return arith::SIToFPOp::create(builder, l, f64(), i64);
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  DValue gen(const Expr *expr);
  DValue genCommandLineArg(const CommandLineArgExpr *arg);
  DValue genUnary(const UnaryExpr *expr);
  DValue genBinary(BinaryOp op, const DValue &lhs, const DValue &rhs,
                   SMLoc where);
  DValue genIndex(const IndexExpr *expr);
  DValue genCall(const CallExpr *call);
  DValue genBuiltin(const CallExpr *call, bool &known);
  DValue genReorganisation(const CallExpr *call, bool &known);
  /// print, write and stop: statements, not values.
  bool genEffect(const CallExpr *call);
  std::vector<DValue> genUserCall(const CallExpr *call,
                                  const FunctionStmt *function);

  /// Evaluates `expr` and checks that it is a number (or boolean): f64.
  std::optional<Value> genNumber(const Expr *expr, llvm::StringRef what);
  std::optional<Value> genMatrix(const Expr *expr, llvm::StringRef what);
  /// A number or a matrix (booleans as f64).
  DValue genOperand(const Expr *expr, llvm::StringRef what);
  std::optional<std::string> genConstantString(const Expr *expr,
                                               llvm::StringRef what);

  std::optional<BoundArgs> bind(const CallExpr *call,
                                llvm::ArrayRef<llvm::StringRef> parameters,
                                size_t required);

  /// Begin/end (0-based, half-open) of one index dimension.
  std::optional<std::pair<Value, Value>> genRange(const IndexRange &range,
                                                  Value matrix, bool rows);

  DValue matrixOrScalarUnary(const CallExpr *call, llvm::StringRef name);
  DValue aggregate(const CallExpr *call, AggKind kind, AggAxis axis);

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  void genBlock(const StmtList &block);
  void genStatement(const Stmt *stmt);
  void genAssign(const AssignStmt *assign);
  void genIf(const IfStmt *ifStmt);
  void genWhile(const WhileStmt *whileStmt);
  void genFor(const ForStmt *forStmt);
  void genFunctionBody(const FunctionStmt *function, func::FuncOp func);
  void assign(const AssignTarget &target, DValue value);

  /// Variables of `env` that `body` assigns, in a deterministic order.
  std::vector<std::string> carriedVariables(const std::set<std::string> &names,
                                            SMLoc where, llvm::StringRef what);
  /// Converts `value` to the kind `like` has (numbers and booleans convert;
  /// anything else must match), for yields of control flow.
  std::optional<Value> coerce(Location l, const DValue &value,
                              const DValue &like, const std::string &name,
                              SMLoc where);

  Type typeOf(const TypeSpec &spec);
  DValue::Kind kindOf(const TypeSpec &spec);

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  const ImportOptions &options;
  OpBuilder builder;
  std::string bufferName;
  bool hadError = false;

  ModuleOp module;
  Environment env;
  llvm::StringMap<const FunctionStmt *> functions;
  llvm::StringMap<func::FuncOp> funcOps;
};

} // namespace

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

DValue Importer::gen(const Expr *expr) {
  Location l = loc(expr->getLoc());
  switch (expr->getKind()) {
  case Expr::Kind::Number: {
    const auto *number = llvm::cast<NumberExpr>(expr);
    Value v = constant(l, number->value);
    return number->isInteger ? DValue::integerScalar(v) : DValue::scalar(v);
  }
  case Expr::Kind::String:
    return DValue::text(llvm::cast<StringExpr>(expr)->value);
  case Expr::Kind::Bool:
    return DValue::boolean(boolConstant(l, llvm::cast<BoolExpr>(expr)->value));
  case Expr::Kind::Identifier: {
    const auto *name = llvm::cast<IdentifierExpr>(expr);
    auto it = env.find(name->name);
    if (it != env.end())
      return it->second;
    // SystemDS's builtin constants, unless a variable of that name exists.
    if (std::optional<double> builtin =
            llvm::StringSwitch<std::optional<double>>(name->name)
                .Cases({"Inf", "INF"}, std::numeric_limits<double>::infinity())
                .Case("NaN", std::numeric_limits<double>::quiet_NaN())
                .Case("PI", M_PI)
                .Default(std::nullopt))
      return DValue::scalar(constant(l, *builtin));
    error(expr->getLoc()) << "undefined variable '" << name->name << "'";
    return {};
  }
  case Expr::Kind::CommandLineArg:
    return genCommandLineArg(llvm::cast<CommandLineArgExpr>(expr));
  case Expr::Kind::Unary:
    return genUnary(llvm::cast<UnaryExpr>(expr));
  case Expr::Kind::Binary: {
    const auto *binary = llvm::cast<BinaryExpr>(expr);
    DValue lhs = gen(binary->lhs.get());
    DValue rhs = gen(binary->rhs.get());
    if (!lhs.isValid() || !rhs.isValid())
      return {};
    return genBinary(binary->op, lhs, rhs, binary->getLoc());
  }
  case Expr::Kind::Index:
    return genIndex(llvm::cast<IndexExpr>(expr));
  case Expr::Kind::Call:
    return genCall(llvm::cast<CallExpr>(expr));
  }
  return {};
}

DValue Importer::genCommandLineArg(const CommandLineArgExpr *arg) {
  auto it = options.arguments.find(arg->name);
  if (it == options.arguments.end()) {
    error(arg->getLoc()) << "no value for command-line argument '$" << arg->name
                         << "': pass --arg " << arg->name
                         << "=VALUE, or use ifdef($" << arg->name
                         << ", default)";
    return {};
  }
  Location l = loc(arg->getLoc());
  llvm::StringRef text = it->second;
  if (text == "TRUE" || text == "true")
    return DValue::boolean(boolConstant(l, true));
  if (text == "FALSE" || text == "false")
    return DValue::boolean(boolConstant(l, false));
  double number;
  if (!text.trim().getAsDouble(number)) {
    Value v = constant(l, number);
    if (text.trim().find_first_of(".eE") == llvm::StringRef::npos)
      return DValue::integerScalar(v);
    return DValue::scalar(v);
  }
  return DValue::text(text.str());
}

DValue Importer::genUnary(const UnaryExpr *expr) {
  DValue operand = gen(expr->operand.get());
  if (!operand.isValid())
    return {};
  Location l = loc(expr->getLoc());
  if (operand.isString()) {
    error(expr->getLoc()) << "unary operator applied to a string";
    return {};
  }
  switch (expr->op) {
  case UnaryOp::Plus:
    return operand;
  case UnaryOp::Negate:
    if (operand.isMatrix())
      return DValue::matrix(
          NegOp::create(builder, l, matrixType(), operand.value));
    return DValue{DValue::Kind::Scalar,
                  arith::NegFOp::create(builder, l, toF64(l, operand)),
                  {},
                  operand.integer};
  case UnaryOp::Not:
    if (operand.isMatrix())
      return DValue::matrix(
          NotOp::create(builder, l, matrixType(), operand.value));
    return DValue::boolean(arith::XOrIOp::create(builder, l, toI1(l, operand),
                                                 boolConstant(l, true)));
  }
  return {};
}

DValue Importer::genBinary(BinaryOp op, const DValue &lhs, const DValue &rhs,
                           SMLoc where) {
  Location l = loc(where);
  // String concatenation: "a" + x.
  if (lhs.isString() || rhs.isString()) {
    if (op != BinaryOp::Add) {
      error(where) << "operator '" << spelling(op)
                   << "' applied to a string (only '+' concatenates strings)";
      return {};
    }
    std::vector<StringPiece> pieces;
    for (const DValue *side : {&lhs, &rhs}) {
      if (side->isString())
        llvm::append_range(pieces, side->pieces);
      else if (side->integer)
        // Printed as DML prints an INT.
        pieces.push_back(
            {"", arith::FPToSIOp::create(builder, l, builder.getI64Type(),
                                         side->value)});
      else
        pieces.push_back({"", side->value});
    }
    return DValue::string(std::move(pieces));
  }

  if (op == BinaryOp::Range) {
    // a:b outside an index or a loop header is seq(a, b).
    if (!lhs.isNumeric() || !rhs.isNumeric()) {
      error(where) << "the bounds of ':' must be numbers, found "
                   << kindName(lhs.kind) << " and " << kindName(rhs.kind);
      return {};
    }
    Value from = toF64(l, lhs), to = toF64(l, rhs);
    Value ascending =
        arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OLE, from, to);
    Value step = arith::SelectOp::create(builder, l, ascending,
                                         constant(l, 1.0), constant(l, -1.0));
    return DValue::matrix(
        SeqOp::create(builder, l, matrixType(), from, to, step));
  }

  if (op == BinaryOp::MatMul) {
    if (!lhs.isMatrix() || !rhs.isMatrix()) {
      error(where) << "'%*%' needs two matrices, found " << kindName(lhs.kind)
                   << " and " << kindName(rhs.kind);
      return {};
    }
    return DValue::matrix(
        MatmulOp::create(builder, l, matrixType(), lhs.value, rhs.value));
  }

  if (lhs.isMatrix() || rhs.isMatrix()) {
    Value a = lhs.isMatrix() ? lhs.value : toF64(l, lhs);
    Value b = rhs.isMatrix() ? rhs.value : toF64(l, rhs);
    Type type = matrixType();
    Value result;
    switch (op) {
    case BinaryOp::Add:
      result = AddOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Sub:
      result = SubOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Mul:
      result = MulOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Div:
      result = DivOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Pow:
      result = PowOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Mod:
      result = ModOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::IntDiv:
      result = IntDivOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Lt:
      result = LtOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Le:
      result = LeOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Gt:
      result = GtOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Ge:
      result = GeOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Eq:
      result = EqOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Ne:
      result = NeOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::And:
      result = AndOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::Or:
      result = OrOp::create(builder, l, type, a, b);
      break;
    case BinaryOp::MatMul:
    case BinaryOp::Range:
      llvm_unreachable("handled above");
    }
    return DValue::matrix(result);
  }

  // Two scalars.
  if (op == BinaryOp::And || op == BinaryOp::Or) {
    Value a = toI1(l, lhs), b = toI1(l, rhs);
    if (op == BinaryOp::And)
      return DValue::boolean(arith::AndIOp::create(builder, l, a, b));
    return DValue::boolean(arith::OrIOp::create(builder, l, a, b));
  }
  Value a = toF64(l, lhs), b = toF64(l, rhs);
  bool integer = lhs.integer && rhs.integer;
  auto number = [&](Value v, bool isInteger) {
    return DValue{DValue::Kind::Scalar, v, {}, isInteger};
  };
  auto compare = [&](arith::CmpFPredicate predicate) {
    return DValue::boolean(arith::CmpFOp::create(builder, l, predicate, a, b));
  };
  switch (op) {
  case BinaryOp::Add:
    return number(arith::AddFOp::create(builder, l, a, b), integer);
  case BinaryOp::Sub:
    return number(arith::SubFOp::create(builder, l, a, b), integer);
  case BinaryOp::Mul:
    return number(arith::MulFOp::create(builder, l, a, b), integer);
  case BinaryOp::Div:
    return DValue::scalar(arith::DivFOp::create(builder, l, a, b));
  case BinaryOp::Pow:
    return DValue::scalar(math::PowFOp::create(builder, l, a, b));
  case BinaryOp::IntDiv:
  case BinaryOp::Mod: {
    // R semantics: rounded towards negative infinity.
    Value quotient = math::FloorOp::create(
        builder, l, arith::DivFOp::create(builder, l, a, b));
    if (op == BinaryOp::IntDiv)
      return number(quotient, integer);
    return number(
        arith::SubFOp::create(builder, l, a,
                              arith::MulFOp::create(builder, l, quotient, b)),
        integer);
  }
  case BinaryOp::Lt:
    return compare(arith::CmpFPredicate::OLT);
  case BinaryOp::Le:
    return compare(arith::CmpFPredicate::OLE);
  case BinaryOp::Gt:
    return compare(arith::CmpFPredicate::OGT);
  case BinaryOp::Ge:
    return compare(arith::CmpFPredicate::OGE);
  case BinaryOp::Eq:
    return compare(arith::CmpFPredicate::OEQ);
  case BinaryOp::Ne:
    return compare(arith::CmpFPredicate::UNE);
  default:
    llvm_unreachable("handled above");
  }
}

std::optional<std::pair<Value, Value>>
Importer::genRange(const IndexRange &range, Value matrix, bool rows) {
  Location l = loc(range.loc);
  if (range.isAll()) {
    Value size =
        rows ? NRowOp::create(builder, l, builder.getIndexType(), matrix)
                   .getResult()
             : NColOp::create(builder, l, builder.getIndexType(), matrix)
                   .getResult();
    return std::make_pair(indexConstant(l, 0), size);
  }
  std::optional<Value> begin = genNumber(range.begin.get(), "an index");
  if (!begin)
    return std::nullopt;
  Value beginIndex = toIndex(l, *begin);
  Value first =
      arith::SubIOp::create(builder, l, beginIndex, indexConstant(l, 1));
  if (!range.end)
    return std::make_pair(first, beginIndex);
  std::optional<Value> end = genNumber(range.end.get(), "an index");
  if (!end)
    return std::nullopt;
  return std::make_pair(first, toIndex(l, *end));
}

DValue Importer::genIndex(const IndexExpr *expr) {
  DValue base = gen(expr->base.get());
  if (!base.isValid())
    return {};
  if (!base.isMatrix()) {
    error(expr->getLoc()) << "indexing needs a matrix, found "
                          << kindName(base.kind);
    return {};
  }
  auto rows = genRange(expr->rows, base.value, /*rows=*/true);
  auto cols = genRange(expr->cols, base.value, /*rows=*/false);
  if (!rows || !cols)
    return {};
  // A single position selects one row or column: say so in the type, so
  // that `X + B[i, ]` is known to broadcast a row vector.
  auto type = MatrixType::get(
      expr->rows.isAll() || expr->rows.end ? ShapedType::kDynamic : 1,
      expr->cols.isAll() || expr->cols.end ? ShapedType::kDynamic : 1, f64());
  return DValue::matrix(SliceOp::create(builder, loc(expr->getLoc()), type,
                                        base.value, rows->first, rows->second,
                                        cols->first, cols->second));
}

std::optional<Value> Importer::genNumber(const Expr *expr,
                                         llvm::StringRef what) {
  DValue value = gen(expr);
  if (!value.isValid())
    return std::nullopt;
  if (!value.isNumeric()) {
    error(expr->getLoc()) << "expected a number for " << what << ", found "
                          << kindName(value.kind);
    return std::nullopt;
  }
  return toF64(loc(expr->getLoc()), value);
}

std::optional<Value> Importer::genMatrix(const Expr *expr,
                                         llvm::StringRef what) {
  DValue value = gen(expr);
  if (!value.isValid())
    return std::nullopt;
  if (!value.isMatrix()) {
    error(expr->getLoc()) << "expected a matrix for " << what << ", found "
                          << kindName(value.kind);
    return std::nullopt;
  }
  return value.value;
}

DValue Importer::genOperand(const Expr *expr, llvm::StringRef what) {
  DValue value = gen(expr);
  if (!value.isValid())
    return {};
  if (value.isString()) {
    error(expr->getLoc()) << "expected a matrix or a number for " << what
                          << ", found a string";
    return {};
  }
  if (value.kind == DValue::Kind::Bool)
    return DValue::scalar(toF64(loc(expr->getLoc()), value));
  return value;
}

std::optional<std::string> Importer::genConstantString(const Expr *expr,
                                                       llvm::StringRef what) {
  DValue value = gen(expr);
  if (!value.isValid())
    return std::nullopt;
  std::optional<std::string> text = value.constantString();
  if (!text)
    error(expr->getLoc()) << "expected a string known before the script "
                             "runs for "
                          << what << ", found " << kindName(value.kind)
                          << (value.isString() ? " computed at run time" : "");
  return text;
}

std::optional<BoundArgs>
Importer::bind(const CallExpr *call, llvm::ArrayRef<llvm::StringRef> parameters,
               size_t required) {
  BoundArgs bound;
  bound.values.assign(parameters.size(), nullptr);
  size_t position = 0;
  bool ok = true;
  for (const Argument &arg : call->args) {
    if (arg.name.empty()) {
      if (position >= parameters.size()) {
        error(arg.loc) << "too many arguments for '" << call->callee
                       << "': it takes at most " << parameters.size();
        return std::nullopt;
      }
      bound.values[position++] = arg.value.get();
      continue;
    }
    auto *it = llvm::find(parameters, arg.name);
    if (it == parameters.end()) {
      auto diag = error(arg.loc);
      diag << "'" << call->callee << "' has no parameter '" << arg.name
           << "'; expected one of:";
      for (llvm::StringRef p : parameters)
        diag << " " << p;
      ok = false;
      continue;
    }
    size_t index = it - parameters.begin();
    if (bound.values[index]) {
      error(arg.loc) << "parameter '" << arg.name << "' of '" << call->callee
                     << "' is given twice";
      ok = false;
      continue;
    }
    bound.values[index] = arg.value.get();
  }
  for (size_t i = 0; i < required; ++i)
    if (!bound.values[i]) {
      error(call->getLoc())
          << "'" << call->callee << "' is missing its argument '"
          << parameters[i] << "'";
      ok = false;
    }
  if (!ok)
    return std::nullopt;
  return bound;
}

//===----------------------------------------------------------------------===//
// Calls and builtins
//===----------------------------------------------------------------------===//

DValue Importer::genCall(const CallExpr *call) {
  auto function = functions.find(call->callee);
  if (function != functions.end()) {
    std::vector<DValue> results = genUserCall(call, function->second);
    if (results.empty())
      return {};
    if (results.size() != 1) {
      error(call->getLoc())
          << "'" << call->callee << "' returns " << results.size()
          << " values: assign them with [a, b, ...] = " << call->callee
          << "(...)";
      return {};
    }
    return results.front();
  }
  bool known = true;
  DValue result = genBuiltin(call, known);
  if (!known)
    error(call->getLoc()) << "unknown function '" << call->callee << "'";
  return result;
}

DValue Importer::matrixOrScalarUnary(const CallExpr *call,
                                     llvm::StringRef name) {
  bool isLog = name == "log";
  auto args = bind(call, {"x", "base"}, 1);
  if (!args)
    return {};
  if (args->has(1) && !isLog) {
    error(call->getLoc()) << "'" << name << "' takes one argument";
    return {};
  }
  DValue x = genOperand((*args)[0], "the argument of '" + name.str() + "'");
  if (!x.isValid())
    return {};
  Location l = loc(call->getLoc());
  DValue result;
  if (x.isMatrix()) {
    Type type = matrixType();
    Value v = x.value;
    Value r =
        llvm::StringSwitch<std::function<Value()>>(name)
            .Case("abs", [&] { return AbsOp::create(builder, l, type, v); })
            .Case("exp", [&] { return ExpOp::create(builder, l, type, v); })
            .Case("log", [&] { return LogOp::create(builder, l, type, v); })
            .Case("sqrt", [&] { return SqrtOp::create(builder, l, type, v); })
            .Case("round", [&] { return RoundOp::create(builder, l, type, v); })
            .Case("floor", [&] { return FloorOp::create(builder, l, type, v); })
            .Case("ceil", [&] { return CeilOp::create(builder, l, type, v); })
            .Case("sign", [&] { return SignOp::create(builder, l, type, v); })
            .Case("sigmoid",
                  [&] { return SigmoidOp::create(builder, l, type, v); })
            .Case("sin", [&] { return SinOp::create(builder, l, type, v); })
            .Case("cos", [&] { return CosOp::create(builder, l, type, v); })
            .Case("tanh", [&] { return TanhOp::create(builder, l, type, v); })
            .Case("isNaN", [&] { return IsNaNOp::create(builder, l, type, v); })
            .Default([] { return Value(); })();
    result = DValue::matrix(r);
  } else {
    Value v = x.value;
    Value zero = constant(l, 0.0), one = constant(l, 1.0);
    if (name == "isNaN")
      return DValue::boolean(
          arith::CmpFOp::create(builder, l, arith::CmpFPredicate::UNO, v, v));
    Value r =
        llvm::StringSwitch<std::function<Value()>>(name)
            .Case("abs", [&] { return math::AbsFOp::create(builder, l, v); })
            .Case("exp", [&] { return math::ExpOp::create(builder, l, v); })
            .Case("log", [&] { return math::LogOp::create(builder, l, v); })
            .Case("sqrt", [&] { return math::SqrtOp::create(builder, l, v); })
            .Case("round",
                  [&] {
                    // Java's Math.round, as DML: floor(x + 0.5).
                    return math::FloorOp::create(
                        builder, l,
                        arith::AddFOp::create(builder, l, v, constant(l, 0.5)));
                  })
            .Case("floor", [&] { return math::FloorOp::create(builder, l, v); })
            .Case("ceil", [&] { return math::CeilOp::create(builder, l, v); })
            .Case("sign",
                  [&] {
                    Value positive = arith::CmpFOp::create(
                        builder, l, arith::CmpFPredicate::OGT, v, zero);
                    Value negative = arith::CmpFOp::create(
                        builder, l, arith::CmpFPredicate::OLT, v, zero);
                    return arith::SelectOp::create(
                        builder, l, positive, one,
                        arith::SelectOp::create(builder, l, negative,
                                                constant(l, -1.0), zero));
                  })
            .Case("sigmoid",
                  [&] {
                    Value e = math::ExpOp::create(
                        builder, l, arith::NegFOp::create(builder, l, v));
                    return arith::DivFOp::create(
                        builder, l, one,
                        arith::AddFOp::create(builder, l, one, e));
                  })
            .Case("sin", [&] { return math::SinOp::create(builder, l, v); })
            .Case("cos", [&] { return math::CosOp::create(builder, l, v); })
            .Case("tanh", [&] { return math::TanhOp::create(builder, l, v); })
            .Default([] { return Value(); })();
    result = DValue::scalar(r);
  }
  if (isLog && args->has(1)) {
    // log(x, base) = log(x) / log(base).
    std::optional<Value> base = genNumber((*args)[1], "the base of 'log'");
    if (!base)
      return {};
    Value logBase = math::LogOp::create(builder, l, *base);
    return genBinary(BinaryOp::Div, result, DValue::scalar(logBase),
                     call->getLoc());
  }
  return result;
}

DValue Importer::aggregate(const CallExpr *call, AggKind kind, AggAxis axis) {
  auto args = bind(call, {"x"}, 1);
  if (!args)
    return {};
  std::optional<Value> x =
      genMatrix((*args)[0], "the argument of '" + call->callee + "'");
  if (!x)
    return {};
  Location l = loc(call->getLoc());
  if (axis == AggAxis::All)
    return DValue::scalar(AggOp::create(builder, l, f64(), kind, axis, *x));
  return DValue::matrix(
      AggOp::create(builder, l, matrixType(), kind, axis, *x));
}

DValue Importer::genBuiltin(const CallExpr *call, bool &known) {
  llvm::StringRef name = call->callee;
  Location l = loc(call->getLoc());
  SMLoc where = call->getLoc();

  // Element-wise functions of a matrix or a number.
  if (llvm::is_contained({"abs", "exp", "log", "sqrt", "round", "floor", "ceil",
                          "sign", "sigmoid", "sin", "cos", "tanh", "isNaN"},
                         name))
    return matrixOrScalarUnary(call, name);

  // Aggregates.
  struct AggregateBuiltin {
    const char *name;
    AggKind kind;
    AggAxis axis;
  };
  static const AggregateBuiltin aggregates[] = {
      {"sum", AggKind::Sum, AggAxis::All},
      {"mean", AggKind::Mean, AggAxis::All},
      {"avg", AggKind::Mean, AggAxis::All},
      {"prod", AggKind::Prod, AggAxis::All},
      {"var", AggKind::Var, AggAxis::All},
      {"sd", AggKind::Sd, AggAxis::All},
      {"rowSums", AggKind::Sum, AggAxis::Row},
      {"colSums", AggKind::Sum, AggAxis::Col},
      {"rowMeans", AggKind::Mean, AggAxis::Row},
      {"colMeans", AggKind::Mean, AggAxis::Col},
      {"rowMaxs", AggKind::Max, AggAxis::Row},
      {"colMaxs", AggKind::Max, AggAxis::Col},
      {"rowMins", AggKind::Min, AggAxis::Row},
      {"colMins", AggKind::Min, AggAxis::Col},
      {"rowProds", AggKind::Prod, AggAxis::Row},
      {"colProds", AggKind::Prod, AggAxis::Col},
      {"rowVars", AggKind::Var, AggAxis::Row},
      {"colVars", AggKind::Var, AggAxis::Col},
      {"rowSds", AggKind::Sd, AggAxis::Row},
      {"colSds", AggKind::Sd, AggAxis::Col},
      {"rowIndexMax", AggKind::MaxIndex, AggAxis::Row},
      {"rowIndexMin", AggKind::MinIndex, AggAxis::Row},
  };
  for (const AggregateBuiltin &agg : aggregates)
    if (name == agg.name)
      return aggregate(call, agg.kind, agg.axis);

  if (name == "min" || name == "max") {
    bool isMax = name == "max";
    if (call->args.empty()) {
      error(where) << "'" << name << "' needs at least one argument";
      return {};
    }
    for (const Argument &arg : call->args)
      if (!arg.name.empty()) {
        error(arg.loc) << "'" << name << "' takes no named arguments";
        return {};
      }
    DValue first =
        genOperand(call->args[0].value.get(), "'" + name.str() + "'");
    if (!first.isValid())
      return {};
    if (call->args.size() == 1) {
      if (!first.isMatrix())
        return first;
      return DValue::scalar(AggOp::create(builder, l, f64(),
                                          isMax ? AggKind::Max : AggKind::Min,
                                          AggAxis::All, first.value));
    }
    DValue result = first;
    for (const Argument &arg : llvm::drop_begin(call->args)) {
      DValue next = genOperand(arg.value.get(), "'" + name.str() + "'");
      if (!next.isValid())
        return {};
      if (result.isMatrix() || next.isMatrix()) {
        Value r = isMax ? MaxOp::create(builder, l, matrixType(), result.value,
                                        next.value)
                              .getResult()
                        : MinOp::create(builder, l, matrixType(), result.value,
                                        next.value)
                              .getResult();
        result = DValue::matrix(r);
      } else {
        Value r = isMax ? arith::MaximumFOp::create(builder, l, result.value,
                                                    next.value)
                              .getResult()
                        : arith::MinimumFOp::create(builder, l, result.value,
                                                    next.value)
                              .getResult();
        result = DValue::scalar(r);
      }
    }
    return result;
  }

  if (name == "matrix") {
    auto args = bind(call, {"data", "rows", "cols", "byrow"}, 3);
    if (!args)
      return {};
    if (args->has(3)) {
      error(where) << "matrix(..., byrow=...) is not supported; AMLS "
                      "matrices are filled by row";
      return {};
    }
    std::optional<Value> rows = genNumber((*args)[1], "'rows'");
    std::optional<Value> cols = genNumber((*args)[2], "'cols'");
    if (!rows || !cols)
      return {};
    DValue data = gen((*args)[0]);
    if (!data.isValid())
      return {};
    Value r = toIndex(l, *rows), c = toIndex(l, *cols);
    if (data.isMatrix())
      return DValue::matrix(
          ReshapeOp::create(builder, l, matrixType(), data.value, r, c));
    if (data.isNumeric())
      return DValue::matrix(
          FillOp::create(builder, l, matrixType(), toF64(l, data), r, c));
    // matrix("1 2 3 4", rows=2, cols=2): a literal.
    std::optional<std::string> text = data.constantString();
    auto *rowsLiteral = llvm::dyn_cast<NumberExpr>((*args)[1]);
    auto *colsLiteral = llvm::dyn_cast<NumberExpr>((*args)[2]);
    if (!text || !rowsLiteral || !colsLiteral) {
      error(where) << "matrix(\"...\", rows, cols) needs a literal string and "
                      "literal sizes";
      return {};
    }
    llvm::SmallVector<llvm::StringRef> cells;
    llvm::StringRef(*text).split(cells, ' ', -1, /*KeepEmpty=*/false);
    // A literal's sizes must describe its cells; bound them before
    // converting (a literal has at most as many rows as cells).
    auto literalSize = [&](const NumberExpr *size) -> std::optional<int64_t> {
      double v = size->value;
      if (!(v >= 0 && v <= static_cast<double>(cells.size()) + 1) ||
          v != std::floor(v)) {
        error(size->getLoc()) << "matrix literal size must be a whole number "
                                 "between 0 and the number of cells ("
                              << cells.size() << ")";
        return std::nullopt;
      }
      return static_cast<int64_t>(v);
    };
    std::optional<int64_t> literalRows = literalSize(rowsLiteral);
    std::optional<int64_t> literalCols = literalSize(colsLiteral);
    if (!literalRows || !literalCols)
      return {};
    int64_t numRows = *literalRows, numCols = *literalCols;
    if (static_cast<int64_t>(cells.size()) != numRows * numCols) {
      error(where) << "matrix literal has " << cells.size()
                   << " cells, expected " << numRows << "x" << numCols;
      return {};
    }
    llvm::SmallVector<double> values;
    for (llvm::StringRef cell : cells) {
      double v;
      if (cell.getAsDouble(v)) {
        error(where) << "matrix literal cell '" << cell << "' is not a number";
        return {};
      }
      values.push_back(v);
    }
    auto tensorType = RankedTensorType::get({numRows, numCols}, f64());
    auto literal = DenseElementsAttr::get(tensorType, llvm::ArrayRef(values));
    Value v = ConstantOp::create(
        builder, l, MatrixType::get(numRows, numCols, f64()), literal);
    return DValue::matrix(
        CastOp::create(builder, l, matrixType(), v).getResult());
  }

  if (name == "rand") {
    auto args = bind(
        call,
        {"rows", "cols", "min", "max", "sparsity", "seed", "pdf", "lambda"}, 2);
    if (!args)
      return {};
    if (args->has(7)) {
      error(where) << "rand(pdf=\"poisson\", lambda=...) is not supported";
      return {};
    }
    std::optional<Value> rows = genNumber((*args)[0], "'rows'");
    std::optional<Value> cols = genNumber((*args)[1], "'cols'");
    if (!rows || !cols)
      return {};
    auto optionalNumber = [&](size_t i, double fallback,
                              llvm::StringRef what) -> std::optional<Value> {
      if (!args->has(i))
        return constant(l, fallback);
      return genNumber((*args)[i], what);
    };
    std::optional<Value> min = optionalNumber(2, 0.0, "'min'");
    std::optional<Value> max = optionalNumber(3, 1.0, "'max'");
    std::optional<Value> sparsity = optionalNumber(4, 1.0, "'sparsity'");
    if (!min || !max || !sparsity)
      return {};
    RandPdf pdf = RandPdf::Uniform;
    if (args->has(6)) {
      std::optional<std::string> text = genConstantString((*args)[6], "'pdf'");
      if (!text)
        return {};
      if (*text == "normal")
        pdf = RandPdf::Normal;
      else if (*text != "uniform") {
        error((*args)[6]->getLoc()) << "unsupported pdf \"" << *text
                                    << "\": expected \"uniform\" or \"normal\"";
        return {};
      }
    }
    Value seed;
    if (args->has(5)) {
      // seed = -1 (DML's default) draws a fresh seed; the seed must then be
      // a literal, since the op's purity depends on it.
      const Expr *seedExpr = (*args)[5];
      DValue seedValue = gen(seedExpr);
      if (!seedValue.isValid())
        return {};
      if (!seedValue.isNumeric()) {
        error(seedExpr->getLoc()) << "expected a number for 'seed', found "
                                  << kindName(seedValue.kind);
        return {};
      }
      bool isFresh = false;
      if (auto *number = llvm::dyn_cast<NumberExpr>(seedExpr))
        isFresh = number->value == -1;
      if (auto *unary = llvm::dyn_cast<UnaryExpr>(seedExpr))
        if (auto *number = llvm::dyn_cast<NumberExpr>(unary->operand.get()))
          isFresh = unary->op == UnaryOp::Negate && number->value == 1;
      if (!isFresh)
        seed = arith::FPToSIOp::create(builder, l, builder.getI64Type(),
                                       toF64(l, seedValue));
    }
    return DValue::matrix(RandOp::create(builder, l, matrixType(),
                                         toIndex(l, *rows), toIndex(l, *cols),
                                         *min, *max, *sparsity, seed, pdf));
  }

  if (name == "seq") {
    auto args = bind(call, {"from", "to", "incr"}, 2);
    if (!args)
      return {};
    std::optional<Value> from = genNumber((*args)[0], "'from'");
    std::optional<Value> to = genNumber((*args)[1], "'to'");
    if (!from || !to)
      return {};
    Value incr;
    if (args->has(2)) {
      std::optional<Value> given = genNumber((*args)[2], "'incr'");
      if (!given)
        return {};
      incr = *given;
    } else {
      Value ascending = arith::CmpFOp::create(
          builder, l, arith::CmpFPredicate::OLE, *from, *to);
      incr = arith::SelectOp::create(builder, l, ascending, constant(l, 1.0),
                                     constant(l, -1.0));
    }
    return DValue::matrix(
        SeqOp::create(builder, l, matrixType(), *from, *to, incr));
  }

  if (name == "read") {
    auto args = bind(call,
                     {"file", "format", "header", "sep", "rows", "cols",
                      "data_type", "value_type", "nnz"},
                     1);
    if (!args)
      return {};
    std::optional<std::string> path =
        genConstantString((*args)[0], "the file of 'read'");
    if (!path)
      return {};
    FileFormat format = llvm::StringRef(*path).ends_with(".mtx") ||
                                llvm::StringRef(*path).ends_with(".mm")
                            ? FileFormat::MatrixMarket
                            : FileFormat::CSV;
    if (args->has(1)) {
      std::optional<std::string> text =
          genConstantString((*args)[1], "'format'");
      if (!text)
        return {};
      if (*text == "csv")
        format = FileFormat::CSV;
      else if (*text == "mm")
        format = FileFormat::MatrixMarket;
      else {
        error((*args)[1]->getLoc()) << "unsupported format \"" << *text
                                    << "\": expected \"csv\" or \"mm\"";
        return {};
      }
    }
    if (args->has(6)) {
      std::optional<std::string> text =
          genConstantString((*args)[6], "'data_type'");
      if (!text)
        return {};
      if (*text != "matrix") {
        error((*args)[6]->getLoc())
            << "read(data_type=\"" << *text
            << "\") is not supported: AMLS reads matrices";
        return {};
      }
    }
    // header, sep, rows, cols, value_type and nnz describe the file; the
    // runtime reads the sizes from the file itself.
    for (size_t i : {2, 3, 4, 5, 7, 8})
      if (args->has(i) && !gen((*args)[i]).isValid())
        return {};
    return DValue::matrix(ReadOp::create(builder, l, matrixType(),
                                         builder.getStringAttr(*path), format));
  }

  return genReorganisation(call, known);
}

DValue Importer::genReorganisation(const CallExpr *call, bool &known) {
  llvm::StringRef name = call->callee;
  Location l = loc(call->getLoc());
  SMLoc where = call->getLoc();
  auto unaryMatrix = [&](auto build) -> DValue {
    auto args = bind(call, {"x"}, 1);
    if (!args)
      return {};
    std::optional<Value> x =
        genMatrix((*args)[0], "the argument of '" + name.str() + "'");
    if (!x)
      return {};
    return build(*x);
  };

  if (name == "nrow" || name == "ncol" || name == "length") {
    return unaryMatrix([&](Value x) {
      Value rows = NRowOp::create(builder, l, builder.getIndexType(), x);
      Value cols = NColOp::create(builder, l, builder.getIndexType(), x);
      if (name == "nrow")
        return DValue::integerScalar(indexToF64(l, rows));
      if (name == "ncol")
        return DValue::integerScalar(indexToF64(l, cols));
      return DValue::integerScalar(
          indexToF64(l, arith::MulIOp::create(builder, l, rows, cols)));
    });
  }
  if (name == "nnz")
    return unaryMatrix([&](Value x) {
      Value count = NnzOp::create(builder, l, builder.getI64Type(), x);
      return DValue::integerScalar(
          arith::SIToFPOp::create(builder, l, f64(), count));
    });
  if (name == "t")
    return unaryMatrix([&](Value x) {
      return DValue::matrix(TransposeOp::create(builder, l, matrixType(), x));
    });
  if (name == "diag")
    return unaryMatrix([&](Value x) {
      return DValue::matrix(DiagOp::create(builder, l, matrixType(), x));
    });
  if (name == "rev")
    return unaryMatrix([&](Value x) {
      return DValue::matrix(RevOp::create(builder, l, matrixType(), x));
    });
  if (name == "trace")
    return unaryMatrix([&](Value x) {
      return DValue::scalar(TraceOp::create(builder, l, f64(), x));
    });
  if (name == "as.scalar" || name == "castAsScalar") {
    auto args = bind(call, {"x"}, 1);
    if (!args)
      return {};
    DValue x = gen((*args)[0]);
    if (!x.isValid() || x.isNumeric())
      return x;
    if (!x.isMatrix()) {
      error(where) << "as.scalar needs a 1x1 matrix, found "
                   << kindName(x.kind);
      return {};
    }
    return DValue::scalar(AsScalarOp::create(builder, l, f64(), x.value));
  }
  if (name == "as.matrix") {
    auto args = bind(call, {"x"}, 1);
    if (!args)
      return {};
    DValue x = genOperand((*args)[0], "the argument of 'as.matrix'");
    if (!x.isValid() || x.isMatrix())
      return x;
    return DValue::matrix(
        AsMatrixOp::create(builder, l, matrixType(), x.value));
  }
  if (name == "as.double" || name == "as.integer" || name == "as.logical") {
    auto args = bind(call, {"x"}, 1);
    if (!args)
      return {};
    DValue x = gen((*args)[0]);
    if (!x.isValid())
      return {};
    if (x.isMatrix())
      x = DValue::scalar(AsScalarOp::create(builder, l, f64(), x.value));
    if (!x.isNumeric()) {
      error(where) << "'" << name << "' needs a number, found "
                   << kindName(x.kind);
      return {};
    }
    if (name == "as.logical")
      return DValue::boolean(toI1(l, x));
    Value v = toF64(l, x);
    if (name == "as.integer") {
      Value i64 = arith::FPToSIOp::create(builder, l, builder.getI64Type(), v);
      return DValue::integerScalar(
          arith::SIToFPOp::create(builder, l, f64(), i64));
    }
    return DValue::scalar(v);
  }
  if (llvm::is_contained({"cumsum", "cumprod", "cummin", "cummax"}, name)) {
    CumAggKind kind = llvm::StringSwitch<CumAggKind>(name)
                          .Case("cumsum", CumAggKind::CumSum)
                          .Case("cumprod", CumAggKind::CumProd)
                          .Case("cummin", CumAggKind::CumMin)
                          .Default(CumAggKind::CumMax);
    return unaryMatrix([&](Value x) {
      return DValue::matrix(
          CumAggOp::create(builder, l, matrixType(), kind, x));
    });
  }
  if (name == "cbind" || name == "rbind" || name == "append") {
    if (call->args.empty()) {
      error(where) << "'" << name << "' needs at least one matrix";
      return {};
    }
    llvm::SmallVector<Value> inputs;
    for (const Argument &arg : call->args) {
      if (!arg.name.empty()) {
        error(arg.loc) << "'" << name << "' takes no named arguments";
        return {};
      }
      DValue v = genOperand(arg.value.get(), "'" + name.str() + "'");
      if (!v.isValid())
        return {};
      if (!v.isMatrix())
        v = DValue::matrix(
            AsMatrixOp::create(builder, l, matrixType(), v.value));
      inputs.push_back(v.value);
    }
    if (name == "rbind")
      return DValue::matrix(RBindOp::create(builder, l, matrixType(), inputs));
    return DValue::matrix(CBindOp::create(builder, l, matrixType(), inputs));
  }
  if (name == "removeEmpty") {
    auto args = bind(call, {"target", "margin", "select", "empty.return"}, 2);
    if (!args)
      return {};
    std::optional<Value> target = genMatrix((*args)[0], "'target'");
    std::optional<std::string> margin =
        genConstantString((*args)[1], "'margin'");
    if (!target || !margin)
      return {};
    if (*margin != "rows" && *margin != "cols") {
      error((*args)[1]->getLoc()) << "unsupported margin \"" << *margin
                                  << "\": expected \"rows\" or \"cols\"";
      return {};
    }
    Value select;
    if (args->has(2)) {
      std::optional<Value> given = genMatrix((*args)[2], "'select'");
      if (!given)
        return {};
      select = *given;
    }
    if (args->has(3) && !gen((*args)[3]).isValid())
      return {};
    return DValue::matrix(RemoveEmptyOp::create(
        builder, l, matrixType(),
        *margin == "rows" ? Margin::Rows : Margin::Cols, *target, select));
  }
  if (name == "replace") {
    auto args = bind(call, {"target", "pattern", "replacement"}, 3);
    if (!args)
      return {};
    std::optional<Value> target = genMatrix((*args)[0], "'target'");
    std::optional<Value> pattern = genNumber((*args)[1], "'pattern'");
    std::optional<Value> replacement = genNumber((*args)[2], "'replacement'");
    if (!target || !pattern || !replacement)
      return {};
    return DValue::matrix(ReplaceOp::create(builder, l, matrixType(), *target,
                                            *pattern, *replacement));
  }
  if (name == "table") {
    // table(A, B), table(A, B, W), table(A, B, rows, cols),
    // table(A, B, W, rows, cols); W may be a scalar weight.
    if (call->args.size() < 2 || call->args.size() > 5) {
      error(where) << "'table' takes 2 to 5 arguments, found "
                   << call->args.size();
      return {};
    }
    llvm::SmallVector<DValue> values;
    for (const Argument &arg : call->args) {
      DValue v = genOperand(arg.value.get(), "'table'");
      if (!v.isValid())
        return {};
      values.push_back(v);
    }
    auto asMatrix = [&](const DValue &v) -> Value {
      if (v.isMatrix())
        return v.value;
      return AsMatrixOp::create(builder, l, matrixType(), v.value);
    };
    Value a = asMatrix(values[0]), b = asMatrix(values[1]);
    Value weights, rows, cols;
    size_t next = 2;
    if (values.size() == 3 || values.size() == 5) {
      weights =
          values[2].isMatrix()
              ? values[2].value
              : MulOp::create(
                    builder, l, matrixType(),
                    FillOp::create(
                        builder, l, matrixType(), constant(l, 1.0),
                        NRowOp::create(builder, l, builder.getIndexType(), a),
                        indexConstant(l, 1)),
                    values[2].value)
                    .getResult();
      next = 3;
    }
    if (values.size() >= 4) {
      if (values[next].isMatrix() || values[next + 1].isMatrix()) {
        error(where) << "the output sizes of 'table' must be numbers";
        return {};
      }
      rows = toIndex(l, values[next].value);
      cols = toIndex(l, values[next + 1].value);
    }
    return DValue::matrix(
        TableOp::create(builder, l, matrixType(), a, b, weights, rows, cols));
  }
  if (name == "order") {
    auto args = bind(call, {"target", "by", "decreasing", "index.return"}, 1);
    if (!args)
      return {};
    std::optional<Value> target = genMatrix((*args)[0], "'target'");
    if (!target)
      return {};
    Value by = indexConstant(l, 1);
    if (args->has(1)) {
      std::optional<Value> given = genNumber((*args)[1], "'by'");
      if (!given)
        return {};
      by = toIndex(l, *given);
    }
    auto flag = [&](size_t i) -> std::optional<bool> {
      if (!args->has(i))
        return false;
      const Expr *e = (*args)[i];
      if (auto *b = llvm::dyn_cast<BoolExpr>(e))
        return b->value;
      error(e->getLoc()) << "expected TRUE or FALSE";
      return std::nullopt;
    };
    std::optional<bool> decreasing = flag(2), indices = flag(3);
    if (!decreasing || !indices)
      return {};
    return DValue::matrix(OrderOp::create(builder, l, matrixType(), *target, by,
                                          *decreasing, *indices));
  }
  if (name == "ifelse") {
    auto args = bind(call, {"test", "yes", "no"}, 3);
    if (!args)
      return {};
    DValue test = genOperand((*args)[0], "the condition of 'ifelse'");
    DValue yes = genOperand((*args)[1], "'ifelse'");
    DValue no = genOperand((*args)[2], "'ifelse'");
    if (!test.isValid() || !yes.isValid() || !no.isValid())
      return {};
    if (!test.isMatrix() && !yes.isMatrix() && !no.isMatrix())
      return DValue::scalar(arith::SelectOp::create(builder, l, toI1(l, test),
                                                    yes.value, no.value));
    return DValue::matrix(IfElseOp::create(builder, l, matrixType(), test.value,
                                           yes.value, no.value));
  }
  if (name == "ppred") {
    // ppred(X, Y, ">"): SystemDS's older spelling of the comparisons.
    auto args = bind(call, {"target", "y", "op"}, 3);
    if (!args)
      return {};
    DValue lhs = genOperand((*args)[0], "'ppred'");
    DValue rhs = genOperand((*args)[1], "'ppred'");
    std::optional<std::string> op = genConstantString((*args)[2], "'op'");
    if (!lhs.isValid() || !rhs.isValid() || !op)
      return {};
    std::optional<BinaryOp> binary =
        llvm::StringSwitch<std::optional<BinaryOp>>(*op)
            .Case("<", BinaryOp::Lt)
            .Case("<=", BinaryOp::Le)
            .Case(">", BinaryOp::Gt)
            .Case(">=", BinaryOp::Ge)
            .Case("==", BinaryOp::Eq)
            .Case("!=", BinaryOp::Ne)
            .Default(std::nullopt);
    if (!binary) {
      error((*args)[2]->getLoc()) << "unsupported comparison \"" << *op
                                  << "\": expected one of < <= > >= == !=";
      return {};
    }
    DValue result = genBinary(*binary, lhs, rhs, where);
    if (result.kind == DValue::Kind::Bool)
      result = DValue::scalar(toF64(l, result));
    return result;
  }
  if (name == "ifdef") {
    auto args = bind(call, {"arg", "default"}, 2);
    if (!args)
      return {};
    auto *arg = llvm::dyn_cast<CommandLineArgExpr>((*args)[0]);
    if (!arg) {
      error((*args)[0]->getLoc())
          << "the first argument of 'ifdef' must be a command-line argument "
             "($name)";
      return {};
    }
    if (options.arguments.count(arg->name))
      return gen(arg);
    return gen((*args)[1]);
  }
  if (name == "toString") {
    auto args = bind(
        call, {"target", "rows", "cols", "decimal", "sparse", "sep", "linesep"},
        1);
    if (!args)
      return {};
    DValue x = gen((*args)[0]);
    if (!x.isValid() || x.isString())
      return x;
    return DValue::string({StringPiece{"", x.value}});
  }
  if (name == "print" || name == "write" || name == "stop") {
    error(where) << "'" << name << "' has no value; call it as a statement";
    return {};
  }
  known = false;
  return {};
}

/// The printf-style format and operands of a string.
static std::string formatOf(const DValue &text,
                            llvm::SmallVectorImpl<Value> &values) {
  std::string format;
  for (const StringPiece &piece : text.pieces) {
    if (piece.value) {
      format += "{}";
      values.push_back(piece.value);
      continue;
    }
    for (char c : piece.text) {
      if (c == '{' || c == '}')
        format.push_back(c);
      format.push_back(c);
    }
  }
  return format;
}

bool Importer::genEffect(const CallExpr *call) {
  llvm::StringRef name = call->callee;
  Location l = loc(call->getLoc());
  if (name == "print" || name == "stop") {
    auto args = bind(call, {"message"}, 1);
    if (!args)
      return true;
    DValue message = gen((*args)[0]);
    if (!message.isValid())
      return true;
    if (!message.isString()) {
      Value v = message.value;
      if (message.integer)
        v = arith::FPToSIOp::create(builder, l, builder.getI64Type(), v);
      message = DValue::string({StringPiece{"", v}});
    }
    llvm::SmallVector<Value> values;
    std::string format = formatOf(message, values);
    if (name == "print")
      PrintfOp::create(builder, l, builder.getStringAttr(format), values);
    else
      StopOp::create(builder, l, builder.getStringAttr(format), values);
    return true;
  }
  if (name == "write") {
    auto args =
        bind(call, {"x", "file", "format", "header", "sep", "description"}, 2);
    if (!args)
      return true;
    std::optional<Value> x = genMatrix((*args)[0], "the value of 'write'");
    std::optional<std::string> path =
        genConstantString((*args)[1], "the file of 'write'");
    if (!x || !path)
      return true;
    FileFormat format = llvm::StringRef(*path).ends_with(".mtx") ||
                                llvm::StringRef(*path).ends_with(".mm")
                            ? FileFormat::MatrixMarket
                            : FileFormat::CSV;
    if (args->has(2)) {
      std::optional<std::string> text =
          genConstantString((*args)[2], "'format'");
      if (!text)
        return true;
      if (*text == "csv")
        format = FileFormat::CSV;
      else if (*text == "mm")
        format = FileFormat::MatrixMarket;
      else {
        error((*args)[2]->getLoc()) << "unsupported format \"" << *text
                                    << "\": expected \"csv\" or \"mm\"";
        return true;
      }
    }
    for (size_t i : {3, 4, 5})
      if (args->has(i) && !gen((*args)[i]).isValid())
        return true;
    WriteOp::create(builder, l, *x, builder.getStringAttr(*path), format);
    return true;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// User functions
//===----------------------------------------------------------------------===//

Type Importer::typeOf(const TypeSpec &spec) {
  switch (spec.kind) {
  case TypeSpec::Kind::Matrix:
    return matrixType();
  case TypeSpec::Kind::Double:
  case TypeSpec::Kind::Integer:
    return f64();
  case TypeSpec::Kind::Boolean:
    return builder.getI1Type();
  case TypeSpec::Kind::String:
    return {};
  }
  return {};
}

DValue::Kind Importer::kindOf(const TypeSpec &spec) {
  switch (spec.kind) {
  case TypeSpec::Kind::Matrix:
    return DValue::Kind::Matrix;
  case TypeSpec::Kind::Double:
  case TypeSpec::Kind::Integer:
    return DValue::Kind::Scalar;
  case TypeSpec::Kind::Boolean:
    return DValue::Kind::Bool;
  case TypeSpec::Kind::String:
    return DValue::Kind::String;
  }
  return DValue::Kind::Invalid;
}

std::vector<DValue> Importer::genUserCall(const CallExpr *call,
                                          const FunctionStmt *function) {
  Location l = loc(call->getLoc());
  std::vector<const Expr *> bound(function->parameters.size(), nullptr);
  size_t position = 0;
  bool ok = true;
  for (const Argument &arg : call->args) {
    size_t index;
    if (arg.name.empty()) {
      if (position >= function->parameters.size()) {
        error(arg.loc) << "too many arguments for '" << function->name
                       << "': it takes " << function->parameters.size();
        return {};
      }
      index = position++;
    } else {
      auto it = llvm::find_if(function->parameters, [&](const Parameter &p) {
        return p.name == arg.name;
      });
      if (it == function->parameters.end()) {
        error(arg.loc) << "'" << function->name << "' has no parameter '"
                       << arg.name << "'";
        ok = false;
        continue;
      }
      index = it - function->parameters.begin();
    }
    if (bound[index]) {
      error(arg.loc) << "parameter '" << function->parameters[index].name
                     << "' of '" << function->name << "' is given twice";
      ok = false;
      continue;
    }
    bound[index] = arg.value.get();
  }
  llvm::SmallVector<Value> operands;
  for (auto [parameter, expr] : llvm::zip(function->parameters, bound)) {
    const Expr *valueExpr = expr ? expr : parameter.defaultValue.get();
    if (!valueExpr) {
      error(call->getLoc())
          << "'" << function->name << "' is missing its argument '"
          << parameter.name << "'";
      ok = false;
      continue;
    }
    DValue value = gen(valueExpr);
    if (!value.isValid()) {
      ok = false;
      continue;
    }
    DValue::Kind expected = kindOf(parameter.type);
    if (value.isNumeric() &&
        (expected == DValue::Kind::Scalar || expected == DValue::Kind::Bool)) {
      operands.push_back(expected == DValue::Kind::Bool ? toI1(l, value)
                                                        : toF64(l, value));
      continue;
    }
    if (value.kind != expected) {
      error(valueExpr->getLoc())
          << "argument '" << parameter.name << "' of '" << function->name
          << "' must be " << kindName(expected) << ", found "
          << kindName(value.kind);
      ok = false;
      continue;
    }
    operands.push_back(value.isMatrix() ? relaxed(l, value.value)
                                        : value.value);
  }
  if (!ok)
    return {};
  func::FuncOp callee = funcOps.lookup(function->name);
  if (!callee)
    return {};
  auto callOp = func::CallOp::create(builder, l, callee, operands);
  std::vector<DValue> results;
  for (auto [result, spec] : llvm::zip(callOp.getResults(), function->results))
    results.push_back(DValue{kindOf(spec.type),
                             result,
                             {},
                             spec.type.kind == TypeSpec::Kind::Integer});
  return results;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void Importer::genBlock(const StmtList &block) {
  for (const StmtPtr &stmt : block)
    genStatement(stmt.get());
}

void Importer::genStatement(const Stmt *stmt) {
  switch (stmt->getKind()) {
  case Stmt::Kind::Assign:
    return genAssign(llvm::cast<AssignStmt>(stmt));
  case Stmt::Kind::Expression: {
    const auto *call =
        llvm::cast<CallExpr>(llvm::cast<ExprStmt>(stmt)->expr.get());
    if (genEffect(call))
      return;
    if (auto it = functions.find(call->callee); it != functions.end()) {
      genUserCall(call, it->second);
      return;
    }
    gen(call);
    return;
  }
  case Stmt::Kind::If:
    return genIf(llvm::cast<IfStmt>(stmt));
  case Stmt::Kind::While:
    return genWhile(llvm::cast<WhileStmt>(stmt));
  case Stmt::Kind::For:
    return genFor(llvm::cast<ForStmt>(stmt));
  case Stmt::Kind::Function:
    error(stmt->getLoc()) << "functions must be defined at the top level of "
                             "the script";
    return;
  }
}

void Importer::assign(const AssignTarget &target, DValue value) {
  if (!value.isValid())
    return;
  if (!target.isIndexed()) {
    env[target.name] = std::move(value);
    return;
  }
  Location l = loc(target.loc);
  auto it = env.find(target.name);
  if (it == env.end()) {
    error(target.loc) << "left indexing into undefined variable '"
                      << target.name << "'";
    return;
  }
  if (!it->second.isMatrix()) {
    error(target.loc) << "left indexing needs a matrix, but '" << target.name
                      << "' is " << kindName(it->second.kind);
    return;
  }
  Value dest = it->second.value;
  auto rows = genRange(*target.rows, dest, /*rows=*/true);
  auto cols = genRange(*target.cols, dest, /*rows=*/false);
  if (!rows || !cols)
    return;
  Value source;
  if (value.isMatrix()) {
    source = value.value;
  } else if (value.isNumeric()) {
    // X[a:b, c:d] = s fills the range.
    Value numRows =
        arith::SubIOp::create(builder, l, rows->second, rows->first);
    Value numCols =
        arith::SubIOp::create(builder, l, cols->second, cols->first);
    source = FillOp::create(builder, l, matrixType(), toF64(l, value), numRows,
                            numCols);
  } else {
    error(target.loc) << "cannot assign a string into matrix '" << target.name
                      << "'";
    return;
  }
  Value updated =
      InsertSliceOp::create(builder, l, matrixType(), source, dest, rows->first,
                            rows->second, cols->first, cols->second);
  env[target.name] = DValue::matrix(updated);
}

void Importer::genAssign(const AssignStmt *assign) {
  if (assign->targets.size() == 1) {
    const auto *call = llvm::dyn_cast<CallExpr>(assign->value.get());
    if (call &&
        (call->callee == "print" || call->callee == "write" ||
         call->callee == "stop") &&
        !functions.count(call->callee)) {
      error(call->getLoc())
          << "'" << call->callee << "' has no value; call it as a statement";
      return;
    }
    this->assign(assign->targets.front(), gen(assign->value.get()));
    return;
  }
  const auto *call = llvm::cast<CallExpr>(assign->value.get());
  auto function = functions.find(call->callee);
  if (function == functions.end()) {
    error(call->getLoc()) << "a multiple assignment needs a user-defined "
                             "function; '"
                          << call->callee << "' is not one";
    return;
  }
  std::vector<DValue> results = genUserCall(call, function->second);
  if (results.empty())
    return;
  if (results.size() != assign->targets.size()) {
    error(assign->getLoc())
        << "'" << call->callee << "' returns " << results.size()
        << " values, but " << assign->targets.size() << " are assigned";
    return;
  }
  for (auto [target, value] : llvm::zip(assign->targets, results))
    this->assign(target, value);
}

std::optional<Value> Importer::coerce(Location l, const DValue &value,
                                      const DValue &like,
                                      const std::string &name, SMLoc where) {
  if (value.kind == like.kind && value.isMatrix())
    return relaxed(l, value.value);
  if (value.kind == like.kind && !value.isString())
    return value.value;
  if (value.isNumeric() && like.isNumeric())
    return like.kind == DValue::Kind::Bool ? toI1(l, value) : toF64(l, value);
  error(where) << "variable '" << name << "' is " << kindName(like.kind)
               << " on one path and " << kindName(value.kind)
               << " on another; AMLS needs one type per variable";
  return std::nullopt;
}

std::vector<std::string>
Importer::carriedVariables(const std::set<std::string> &names, SMLoc where,
                           llvm::StringRef what) {
  std::vector<std::string> carried;
  for (const std::string &name : names) {
    auto it = env.find(name);
    if (it == env.end())
      continue; // local to the body
    if (it->second.isString()) {
      error(where) << "string variable '" << name << "' is assigned inside "
                   << what << "; only numbers, booleans and matrices may "
                   << "change under control flow";
      continue;
    }
    carried.push_back(name);
  }
  return carried;
}

void Importer::genIf(const IfStmt *ifStmt) {
  Location l = loc(ifStmt->getLoc());
  DValue condition = gen(ifStmt->condition.get());
  if (!condition.isValid())
    return;
  if (!condition.isNumeric()) {
    error(ifStmt->condition->getLoc())
        << "the condition of 'if' must be a number or a boolean, found "
        << kindName(condition.kind);
    return;
  }
  Value cond = toI1(l, condition);

  std::set<std::string> names;
  collectAssigned(ifStmt->thenBlock, names);
  collectAssigned(ifStmt->elseBlock, names);

  Environment before = env;
  auto branches = scf::IfOp::create(builder, l, cond, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);

  builder.setInsertionPoint(branches.thenBlock()->getTerminator());
  genBlock(ifStmt->thenBlock);
  Environment thenEnv = std::move(env);
  env = before;
  builder.setInsertionPoint(branches.elseBlock()->getTerminator());
  genBlock(ifStmt->elseBlock);
  Environment elseEnv = std::move(env);
  env = std::move(before);

  // Variables defined on both paths after the if become its results.
  std::vector<std::string> results;
  llvm::SmallVector<Value> thenValues, elseValues;
  llvm::SmallVector<DValue> kinds;
  for (const std::string &name : names) {
    auto thenIt = thenEnv.find(name), elseIt = elseEnv.find(name);
    if (thenIt == thenEnv.end() || elseIt == elseEnv.end())
      continue;
    const DValue &thenValue = thenIt->second, &elseValue = elseIt->second;
    if (thenValue.isString() || elseValue.isString()) {
      error(ifStmt->getLoc())
          << "string variable '" << name << "' is assigned inside 'if'; "
          << "only numbers, booleans and matrices may change under control "
             "flow";
      continue;
    }
    // Mixed number/boolean joins as a number.
    DValue like = thenValue;
    if (thenValue.kind != elseValue.kind && thenValue.isNumeric() &&
        elseValue.isNumeric())
      like.kind = DValue::Kind::Scalar;
    like.integer = thenValue.integer && elseValue.integer;
    builder.setInsertionPoint(branches.thenBlock()->getTerminator());
    std::optional<Value> t = coerce(l, thenValue, like, name, ifStmt->getLoc());
    builder.setInsertionPoint(branches.elseBlock()->getTerminator());
    std::optional<Value> e = coerce(l, elseValue, like, name, ifStmt->getLoc());
    if (!t || !e)
      continue;
    results.push_back(name);
    thenValues.push_back(*t);
    elseValues.push_back(*e);
    kinds.push_back(like);
  }

  // Rebuild the if with results, moving the generated branches over.
  for (auto [block, values] :
       {std::make_pair(branches.thenBlock(), &thenValues),
        std::make_pair(branches.elseBlock(), &elseValues)}) {
    Operation *terminator = block->getTerminator();
    builder.setInsertionPoint(terminator);
    scf::YieldOp::create(builder, l, *values);
    terminator->erase();
  }
  builder.setInsertionPoint(branches);
  llvm::SmallVector<Type> types;
  for (Value v : thenValues)
    types.push_back(v.getType());
  auto withResults = scf::IfOp::create(builder, l, types, cond,
                                       /*addThenBlock=*/false,
                                       /*addElseBlock=*/false);
  withResults.getThenRegion().takeBody(branches.getThenRegion());
  withResults.getElseRegion().takeBody(branches.getElseRegion());
  branches.erase();
  for (auto [index, name] : llvm::enumerate(results))
    env[name] = DValue{kinds[index].kind,
                       withResults.getResult(index),
                       {},
                       kinds[index].integer};
}

void Importer::genWhile(const WhileStmt *whileStmt) {
  Location l = loc(whileStmt->getLoc());
  std::set<std::string> names;
  collectAssigned(whileStmt->body, names);
  std::vector<std::string> carried =
      carriedVariables(names, whileStmt->getLoc(), "'while'");

  // Booleans are carried as numbers: the body may assign either.
  llvm::SmallVector<Value> inits;
  llvm::SmallVector<Type> types;
  llvm::SmallVector<DValue> kinds;
  for (const std::string &name : carried) {
    DValue value = env[name];
    if (value.kind == DValue::Kind::Bool)
      value = DValue::scalar(toF64(l, value));
    if (value.isMatrix())
      value.value = relaxed(l, value.value);
    inits.push_back(value.value);
    types.push_back(value.value.getType());
    kinds.push_back(value);
  }
  auto loop = scf::WhileOp::create(builder, l, types, inits);
  llvm::SmallVector<Location> locs(types.size(), l);
  Environment before = env;
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *condBlock = builder.createBlock(&loop.getBefore(), {}, types, locs);
    for (auto [index, name] : llvm::enumerate(carried))
      env[name] = DValue{kinds[index].kind,
                         condBlock->getArgument(index),
                         {},
                         kinds[index].integer};
    DValue condition = gen(whileStmt->condition.get());
    Value cond;
    if (condition.isValid() && !condition.isNumeric()) {
      error(whileStmt->condition->getLoc())
          << "the condition of 'while' must be a number or a boolean, found "
          << kindName(condition.kind);
    } else if (condition.isValid()) {
      cond = toI1(l, condition);
    }
    if (!cond)
      cond = boolConstant(l, false);
    scf::ConditionOp::create(builder, l, cond, condBlock->getArguments());

    env = before;
    Block *body = builder.createBlock(&loop.getAfter(), {}, types, locs);
    for (auto [index, name] : llvm::enumerate(carried))
      env[name] = DValue{kinds[index].kind,
                         body->getArgument(index),
                         {},
                         kinds[index].integer};
    genBlock(whileStmt->body);
    llvm::SmallVector<Value> yielded;
    for (auto [index, name] : llvm::enumerate(carried)) {
      std::optional<Value> v =
          coerce(l, env[name], kinds[index], name, whileStmt->getLoc());
      yielded.push_back(v ? *v : body->getArgument(index));
      kinds[index].integer &= env[name].integer;
    }
    scf::YieldOp::create(builder, l, yielded);
  }
  env = std::move(before);
  for (auto [index, name] : llvm::enumerate(carried))
    env[name] = DValue{
        kinds[index].kind, loop.getResult(index), {}, kinds[index].integer};
}

void Importer::genFor(const ForStmt *forStmt) {
  Location l = loc(forStmt->getLoc());
  // The loop variable is an INT when its bounds are.
  DValue fromValue = gen(forStmt->from.get());
  DValue toValue = gen(forStmt->to.get());
  if (!fromValue.isValid() || !toValue.isValid())
    return;
  if (!fromValue.isNumeric() || !toValue.isNumeric()) {
    error(forStmt->getLoc())
        << "the loop bounds must be numbers, found " << kindName(fromValue.kind)
        << " and " << kindName(toValue.kind);
    return;
  }
  std::optional<Value> from = toF64(l, fromValue), to = toF64(l, toValue);
  bool integerLoop = fromValue.integer && toValue.integer;
  Value step;
  if (forStmt->step) {
    DValue stepValue = gen(forStmt->step.get());
    if (!stepValue.isValid())
      return;
    if (!stepValue.isNumeric()) {
      error(forStmt->step->getLoc()) << "the loop step must be a number, found "
                                     << kindName(stepValue.kind);
      return;
    }
    step = toF64(l, stepValue);
    integerLoop &= stepValue.integer;
  } else {
    // DML counts down when from > to.
    Value ascending = arith::CmpFOp::create(
        builder, l, arith::CmpFPredicate::OLE, *from, *to);
    step = arith::SelectOp::create(builder, l, ascending, constant(l, 1.0),
                                   constant(l, -1.0));
  }
  // Iterations: floor((to - from) / step) + 1, at least 0 (and 0 for a
  // zero step). The loop runs k = 0 .. count-1 with i = from + k * step.
  Value span = arith::DivFOp::create(
      builder, l, arith::SubFOp::create(builder, l, *to, *from), step);
  Value count = arith::AddFOp::create(
      builder, l, math::FloorOp::create(builder, l, span), constant(l, 1.0));
  Value positive = arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OGT,
                                         count, constant(l, 0.0));
  count =
      arith::SelectOp::create(builder, l, positive, count, constant(l, 0.0));
  Value upper = toIndex(l, count);
  Value zero = indexConstant(l, 0), one = indexConstant(l, 1);

  std::set<std::string> names;
  collectAssigned(forStmt->body, names);
  names.erase(forStmt->variable);
  std::vector<std::string> carried = carriedVariables(
      names, forStmt->getLoc(), forStmt->isParallel ? "'parfor'" : "'for'");

  llvm::SmallVector<Value> inits;
  llvm::SmallVector<Type> types;
  llvm::SmallVector<DValue> kinds;
  for (const std::string &name : carried) {
    DValue value = env[name];
    if (forStmt->isParallel && !value.isMatrix()) {
      error(forStmt->getLoc())
          << "parfor: the body assigns " << kindName(value.kind) << " '" << name
          << "' defined before the loop; parfor iterations may "
          << "only update matrices (by left indexing into disjoint parts)";
      return;
    }
    if (value.kind == DValue::Kind::Bool)
      value = DValue::scalar(toF64(l, value));
    if (value.isMatrix())
      value.value = relaxed(l, value.value);
    inits.push_back(value.value);
    types.push_back(value.value.getType());
    kinds.push_back(value);
  }

  Environment before = env;
  Operation *loop;
  Block *body;
  if (forStmt->isParallel) {
    auto parfor = ParforOp::create(builder, l, types, zero, upper, one, inits);
    llvm::SmallVector<Type> argTypes{builder.getIndexType()};
    llvm::append_range(argTypes, types);
    llvm::SmallVector<Location> locs(argTypes.size(), l);
    OpBuilder::InsertionGuard guard(builder);
    body = builder.createBlock(&parfor.getBody(), {}, argTypes, locs);
    loop = parfor;
  } else {
    auto forOp = scf::ForOp::create(builder, l, zero, upper, one, inits);
    body = forOp.getBody();
    if (!body->empty())
      body->getTerminator()->erase();
    loop = forOp;
  }
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(body);
    Value k = indexToF64(l, body->getArgument(0));
    Value i = arith::AddFOp::create(builder, l, *from,
                                    arith::MulFOp::create(builder, l, k, step));
    env[forStmt->variable] = DValue{DValue::Kind::Scalar, i, {}, integerLoop};
    for (auto [index, name] : llvm::enumerate(carried))
      env[name] = DValue{kinds[index].kind,
                         body->getArgument(index + 1),
                         {},
                         kinds[index].integer};
    genBlock(forStmt->body);
    llvm::SmallVector<Value> yielded;
    for (auto [index, name] : llvm::enumerate(carried)) {
      std::optional<Value> v =
          coerce(l, env[name], kinds[index], name, forStmt->getLoc());
      yielded.push_back(v ? *v : body->getArgument(index + 1));
      kinds[index].integer &= env[name].integer;
    }
    if (forStmt->isParallel)
      YieldOp::create(builder, l, yielded);
    else
      scf::YieldOp::create(builder, l, yielded);
  }
  env = std::move(before);
  for (auto [index, name] : llvm::enumerate(carried))
    env[name] = DValue{
        kinds[index].kind, loop->getResult(index), {}, kinds[index].integer};
}

void Importer::genFunctionBody(const FunctionStmt *function,
                               func::FuncOp func) {
  env.clear();
  Block *entry = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(entry);
  for (auto [parameter, argument] :
       llvm::zip(function->parameters, entry->getArguments()))
    env[parameter.name] =
        DValue{kindOf(parameter.type),
               argument,
               {},
               parameter.type.kind == TypeSpec::Kind::Integer};
  genBlock(function->body);
  llvm::SmallVector<Value> results;
  Location l = loc(function->getLoc());
  for (const Parameter &result : function->results) {
    auto it = env.find(result.name);
    if (it == env.end()) {
      error(result.loc) << "result '" << result.name << "' of '"
                        << function->name << "' is never assigned";
      continue;
    }
    DValue like{kindOf(result.type), nullptr, {}};
    std::optional<Value> v =
        coerce(l, it->second, like, result.name, result.loc);
    if (v)
      results.push_back(*v);
  }
  // After errors the module is discarded, so a short return is harmless.
  func::ReturnOp::create(builder, l, results);
}

//===----------------------------------------------------------------------===//
// The script
//===----------------------------------------------------------------------===//

OwningOpRef<ModuleOp> Importer::run(Script &script) {
  // Functions are visible everywhere in the script.
  for (const StmtPtr &stmt : script.statements) {
    auto *function = llvm::dyn_cast<FunctionStmt>(stmt.get());
    if (!function)
      continue;
    if (!functions.try_emplace(function->name, function).second) {
      error(function->getLoc())
          << "function '" << function->name << "' is defined twice";
      continue;
    }
    if (function->name == options.entryName)
      error(function->getLoc())
          << "function '" << function->name
          << "' clashes with the script's entry function; rename it";
    llvm::StringSet<> seen;
    for (const Parameter &p : llvm::concat<const Parameter>(
             function->parameters, function->results)) {
      if (!seen.insert(p.name).second)
        error(p.loc) << "'" << p.name << "' is declared twice in '"
                     << function->name << "'";
      if (p.type.kind == TypeSpec::Kind::String)
        error(p.type.loc) << "String parameters and results are not "
                             "supported; pass numbers or matrices";
    }
  }

  // Recursion: a DFS over the user-function call graph.
  {
    enum class State { Unvisited, Active, Done };
    llvm::StringMap<State> state;
    std::vector<std::string> path;
    std::function<bool(const FunctionStmt *)> visit =
        [&](const FunctionStmt *function) -> bool {
      state[function->name] = State::Active;
      path.push_back(function->name);
      std::vector<const CallExpr *> calls;
      collectCalls(function->body, calls);
      for (const Parameter &p : function->parameters)
        collectCalls(p.defaultValue.get(), calls);
      for (const CallExpr *call : calls) {
        auto callee = functions.find(call->callee);
        if (callee == functions.end())
          continue;
        State s = state.lookup(call->callee);
        if (s == State::Active) {
          auto diag = error(call->getLoc());
          diag << "recursive call of '" << call->callee << "' (";
          auto cycle = llvm::find(path, call->callee);
          for (auto it = cycle; it != path.end(); ++it)
            diag << *it << " -> ";
          diag << call->callee << "): recursion is not supported";
          return false;
        }
        if (s == State::Unvisited && !visit(callee->second))
          return false;
      }
      path.pop_back();
      state[function->name] = State::Done;
      return true;
    };
    for (const auto &entry : functions)
      if (state.lookup(entry.getKey()) == State::Unvisited &&
          !visit(entry.second))
        break;
  }
  if (hadError)
    return nullptr;

  OwningOpRef<ModuleOp> owned = ModuleOp::create(loc(SMLoc()));
  module = *owned;
  builder.setInsertionPointToEnd(module.getBody());

  // Declare every function first (calls may precede definitions).
  std::vector<const FunctionStmt *> ordered;
  for (const StmtPtr &stmt : script.statements)
    if (auto *function = llvm::dyn_cast<FunctionStmt>(stmt.get()))
      if (functions.lookup(function->name) == function)
        ordered.push_back(function);
  for (const FunctionStmt *function : ordered) {
    llvm::SmallVector<Type> inputs, results;
    for (const Parameter &p : function->parameters)
      inputs.push_back(typeOf(p.type));
    for (const Parameter &p : function->results)
      results.push_back(typeOf(p.type));
    auto func =
        func::FuncOp::create(builder, loc(function->getLoc()), function->name,
                             builder.getFunctionType(inputs, results));
    func.setPrivate();
    funcOps[function->name] = func;
  }

  // The entry function: the top-level statements.
  auto entry = func::FuncOp::create(builder, loc(SMLoc()), options.entryName,
                                    builder.getFunctionType({}, {}));
  {
    env.clear();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(entry.addEntryBlock());
    for (const StmtPtr &stmt : script.statements)
      if (!llvm::isa<FunctionStmt>(stmt.get()))
        genStatement(stmt.get());
    func::ReturnOp::create(builder, loc(SMLoc()));
  }
  for (const FunctionStmt *function : ordered)
    genFunctionBody(function, funcOps[function->name]);

  if (hadError || failed(verify(module)))
    return nullptr;
  return owned;
}

OwningOpRef<ModuleOp> mlir::amls::dml::importDML(llvm::SourceMgr &sourceMgr,
                                                 MLIRContext *context,
                                                 const ImportOptions &options) {
  context->loadDialect<AMLSDialect, arith::ArithDialect, func::FuncDialect,
                       math::MathDialect, scf::SCFDialect>();
  Importer importer(sourceMgr, context, options);
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::optional<Script> script =
      parseScript(buffer->getBuffer(), [&](SMLoc where, const llvm::Twine &m) {
        importer.error(where) << m.str();
      });
  if (!script)
    return nullptr;
  return importer.run(*script);
}
