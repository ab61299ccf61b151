//===- Importer.h - The DML importer's state and helpers --------*- C++ -*-===//
//
// Private to lib/Frontend/DML. The importer walks the syntax tree and emits
// AMLS + func/scf/arith/math IR; its work is split by concept:
//   ImportDML.cpp    statements, user functions, the script, the entry point
//   Expressions.cpp  literals, operators, indexing, argument checking
//   Builtins.cpp     the table of builtin functions and their builders
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_FRONTEND_DML_IMPORTER_H
#define AMLS_LIB_FRONTEND_DML_IMPORTER_H

#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Dialect/AMLSTypes.h"
#include "AMLS/Frontend/DML/AST.h"
#include "AMLS/Frontend/DML/ImportDML.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mlir::amls::dml::importer {

/// A piece of a string: literal text, or a value printed in its place.
struct StringPiece {
  std::string text;
  Value value; // null for text
  /// A DML INT (an f64 here) printed as an integer where it is finite.
  bool integer = false;
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
  static DValue number(Value v, bool integer) {
    return {Kind::Scalar, v, {}, integer};
  }
  static DValue integerScalar(Value v) { return number(v, /*integer=*/true); }
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
  std::optional<std::string> constantString() const;
};

/// "a matrix", "a number", ... for diagnostics.
llvm::StringRef kindName(DValue::Kind kind);

using Environment = std::map<std::string, DValue>;

/// A call's arguments bound to a builtin's parameter names.
struct BoundArgs {
  std::vector<const Expr *> values; // per parameter, null if absent
  const Expr *operator[](size_t i) const { return values[i]; }
  bool has(size_t i) const { return values[i] != nullptr; }
};

/// Calls in a block (not entering function definitions) or an expression.
void collectCalls(const StmtList &block, std::vector<const CallExpr *> &calls);
void collectCalls(const Expr *expr, std::vector<const CallExpr *> &calls);

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context,
           const ImportOptions &options);

  OwningOpRef<ModuleOp> run(Script &script);

  Location loc(llvm::SMLoc where);
  InFlightDiagnostic error(llvm::SMLoc where);

  OpBuilder &getBuilder() { return builder; }
  const ImportOptions &getOptions() const { return options; }

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
  Value relaxed(Location l, Value matrix);
  /// A number as f64 (booleans are 0/1).
  Value toF64(Location l, const DValue &v);
  /// A number as a condition (non-zero is true).
  Value toI1(Location l, const DValue &v);
  /// A 1-based position or size as an index (truncated towards zero).
  Value toIndex(Location l, Value f);
  /// The row and column counts of a new matrix (`what`: "matrix", "rand")
  /// as indices. Counts known only at run time are checked there: a
  /// negative or NaN count, or rows x cols beyond any memory (2^59 cells),
  /// stops the program with the DML position instead of wrapping.
  std::pair<Value, Value> toSizes(Location l, Value rows, Value cols,
                                  StringRef what);
  /// Stops the program when `bad` (an i1) is true at run time, with the
  /// DML position of `l` and `message` (`{}` replaced by `values`, f64).
  void checkAtRunTime(Location l, Value bad, const Twine &message,
                      ValueRange values = {});
  Value indexToF64(Location l, Value index);
  /// A number as a 1x1 matrix; a matrix as it is.
  Value asMatrix(Location l, const DValue &v);

  //===--------------------------------------------------------------------===//
  // Expressions (Expressions.cpp)
  //===--------------------------------------------------------------------===//

  DValue gen(const Expr *expr);
  DValue genBinary(BinaryOp op, const DValue &lhs, const DValue &rhs,
                   llvm::SMLoc where);

  /// Evaluates `expr` and checks that it is a number (or boolean): f64.
  std::optional<Value> genNumber(const Expr *expr, llvm::StringRef what);
  std::optional<Value> genMatrix(const Expr *expr, llvm::StringRef what);
  /// A number or a matrix (booleans as f64).
  DValue genOperand(const Expr *expr, llvm::StringRef what);
  std::optional<std::string> genConstantString(const Expr *expr,
                                               llvm::StringRef what);

  //===--------------------------------------------------------------------===//
  // Calls (Builtins.cpp, and genUserCall in ImportDML.cpp)
  //===--------------------------------------------------------------------===//

  /// A call of a user function or a builtin that has a value.
  DValue genCall(const CallExpr *call);
  /// print, write and stop: statements, not values. False if `call` is not
  /// one of them.
  bool genEffect(const CallExpr *call);
  /// Whether `name` is one of the builtins AMLS imports itself.
  static bool isBuiltin(llvm::StringRef name);
  /// Whether `name` is a builtin that has no value (print, write, stop).
  static bool isStatementBuiltin(llvm::StringRef name);
  std::vector<DValue> genUserCall(const CallExpr *call,
                                  const FunctionStmt *function);

  /// Binds a call's arguments (positional, then named) to `parameters`, of
  /// which the first `required` must be given.
  std::optional<BoundArgs> bind(const CallExpr *call,
                                llvm::ArrayRef<llvm::StringRef> parameters,
                                size_t required);

private:
  DValue genCommandLineArg(const CommandLineArgExpr *arg);
  DValue genUnary(const UnaryExpr *expr);
  DValue genIndex(const IndexExpr *expr);
  /// Begin/end (0-based, half-open) of one index dimension.
  std::optional<std::pair<Value, Value>> genRange(const IndexRange &range,
                                                  Value matrix, bool rows);
  /// An arithmetic operator: the AMLS op on matrices, its cell on numbers.
  template <typename OpTy>
  DValue genArithmetic(Location l, const DValue &lhs, const DValue &rhs,
                       bool keepsIntegers);
  /// A comparison or logical operator: the AMLS op on matrices, its cell's
  /// condition (a boolean) on numbers.
  template <typename OpTy>
  DValue genCondition(Location l, const DValue &lhs, const DValue &rhs);

  //===--------------------------------------------------------------------===//
  // Statements (ImportDML.cpp)
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
                                            llvm::SMLoc where,
                                            llvm::StringRef what);
  /// Converts `value` to the kind `like` has (numbers and booleans convert;
  /// anything else must match), for yields of control flow.
  std::optional<Value> coerce(Location l, const DValue &value,
                              const DValue &like, const std::string &name,
                              llvm::SMLoc where);

  //===--------------------------------------------------------------------===//
  // Sourced scripts (Sources.cpp)
  //===--------------------------------------------------------------------===//

  /// A script sourced by another: its functions are `prefix::name`.
  struct SourcedScript {
    std::string path, prefix;
    std::unique_ptr<Script> script;
    llvm::StringSet<> functions; // unqualified names
  };
  /// Where a script's names live: its functions' prefix (empty for the
  /// main script) and its directory.
  struct SourceScope {
    std::string prefix, directory;
  };
  /// Reads the scripts `script` sources (recursively), qualifies the names
  /// of its functions (by `scope.prefix`) and the callees of its calls.
  /// False after an error.
  bool resolveSources(Script &script, const SourceScope &scope, unsigned depth);
  /// `main` and then the scripts it sources, in the order they were read.
  std::vector<const Script *> scriptsInOrder(const Script &main) const;
  /// The script at `realPath` (`shownPath` in messages), read and resolved
  /// on first use; its functions are named after `namespaceName`.
  SourcedScript *loadSourced(llvm::SMLoc where, llvm::StringRef shownPath,
                             llvm::StringRef namespaceName,
                             llvm::StringRef realPath, unsigned depth);
  /// The qualified name of the library function `name` (`m_name` in
  /// `name.dml` of the first builtin directory that has one), loaded on
  /// first use; empty if no directory has it.
  std::string loadLibraryFunction(llvm::StringRef name, llvm::SMLoc where,
                                  unsigned depth);

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
  std::vector<std::unique_ptr<SourcedScript>> sourcedScripts;
  llvm::StringMap<SourcedScript *> sourcedByPath, sourcedByPrefix;
  /// Library functions looked up so far: qualified name, or empty.
  llvm::StringMap<std::string> libraryFunctions;
  /// The main script's top-level statements (source and setwd are only
  /// allowed there).
  llvm::DenseSet<const Stmt *> topLevel;
};

} // namespace mlir::amls::dml::importer

#endif // AMLS_LIB_FRONTEND_DML_IMPORTER_H
