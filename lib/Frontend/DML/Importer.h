//===- Importer.h - The DML importer's state and helpers --------*- C++ -*-===//
//
// Private to lib/Frontend/DML. The importer walks the syntax tree and emits
// AMLS + func/scf/arith/math IR; its work is split by concept:
//   ImportDML.cpp    statements, user functions, the script, the entry point
//   Expressions.cpp  literals, operators, indexing, argument checking
//   Builtins.cpp     the table of builtin functions and their builders
//                    (BuiltinsConstruction.cpp: matrix, rand, seq)
//   Lists.cpp        compile-time lists: list(), indexing, append, ...
//   Specialization.cpp  functions of lists and strings, instantiated per
//                    call signature; eval()
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
  /// A printf conversion for the value ("%5.4f", "%d"): print's format
  /// arguments; empty prints the value as DML does.
  std::string spec = {};
};

/// What a DML expression evaluates to.
struct DValue {
  enum class Kind { Invalid, Matrix, Scalar, Bool, String, List, Frame };
  Kind kind = Kind::Invalid;
  Value value; // Matrix, Scalar (f64), Bool (i1), Frame (!amls.frame)
  std::vector<StringPiece> pieces; // String
  /// A number DML types as INT (integer literals, sizes, loop counters and
  /// integer arithmetic on them). It is still an f64 here; only printing
  /// differs ("3", not "3.0").
  bool integer = false;
  /// For a variable assigned on some paths only (DML allows it): an i1 that
  /// is true where the path taken assigned it; null when it surely is.
  Value defined = {};
  /// A list's elements and their names ("" for an unnamed one). Lists are
  /// compile-time structures (Lists.cpp): their length, names and element
  /// kinds are known while importing, their elements are values.
  std::vector<DValue> elements = {};
  std::vector<std::string> names = {};

  static DValue matrix(Value v) { return {Kind::Matrix, v, {}}; }
  static DValue frame(Value v) { return {Kind::Frame, v, {}}; }
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
  /// A string whose text is computed at run time (an !amls.string).
  static DValue runTime(Value string) {
    return DValue::string({StringPiece{"", string}});
  }
  /// The !amls.string this string is, if it is one run-time string.
  Value runTimeString() const {
    if (kind == Kind::String && pieces.size() == 1 && pieces[0].value &&
        pieces[0].text.empty() &&
        llvm::isa<amls::StringType>(pieces[0].value.getType()))
      return pieces[0].value;
    return nullptr;
  }
  static DValue list(std::vector<DValue> elements,
                     std::vector<std::string> names) {
    DValue v;
    v.kind = Kind::List;
    v.elements = std::move(elements);
    v.names = std::move(names);
    return v;
  }
  bool isValid() const { return kind != Kind::Invalid; }
  bool isList() const { return kind == Kind::List; }
  bool isMatrix() const { return kind == Kind::Matrix; }
  bool isFrame() const { return kind == Kind::Frame; }
  bool isNumeric() const { return kind == Kind::Scalar || kind == Kind::Bool; }
  bool isString() const { return kind == Kind::String; }
  /// The string if it is known at compile time.
  std::optional<std::string> constantString() const;
};

/// "a matrix", "a number", ... for diagnostics.
llvm::StringRef kindName(DValue::Kind kind);

using Environment = std::map<std::string, DValue>;

/// One instance of a generic function (Specialization.cpp): its func.func
/// and the structure of its results (their leaves are the func's results).
struct Instance {
  func::FuncOp func;
  std::vector<DValue> results;
};

/// A call's arguments bound to a builtin's parameter names.
struct BoundArgs {
  std::vector<const Expr *> values; // per parameter, null if absent
  /// Positional arguments after the parameters, where the builtin takes
  /// them (print's format arguments).
  std::vector<const Expr *> rest;
  const Expr *operator[](size_t i) const { return values[i]; }
  bool has(size_t i) const { return values[i] != nullptr; }
};

/// Calls in a block (not entering function definitions) or an expression.
/// Names a block of statements assigns (targets and loop variables),
/// including nested blocks.
void collectAssigned(const StmtList &block, std::set<std::string> &names);
/// "file:line:col: " of `l`, for run-time messages.
std::string positionOf(Location l);
void collectCalls(const StmtList &block, std::vector<const CallExpr *> &calls);
void collectCalls(const Expr *expr, std::vector<const CallExpr *> &calls);
/// The variables a statement reads, nested blocks included (left indexing
/// reads its target).
void collectStatementReads(const Stmt *stmt, std::set<std::string> &names);
void collectExpressionReads(const Expr *expr, std::set<std::string> &names);

/// A parfor's header options (Parfor.cpp), before --amls-parfor plans it.
struct ParforOptions {
  std::optional<int64_t> workers, taskSize;
  std::optional<ParforPartitioner> partitioner;
  bool unchecked = false, fixedPlan = false;
};

class Importer {
public:
  Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context,
           const ImportOptions &options);

  OwningOpRef<ModuleOp> run(Script &script);

  Location loc(llvm::SMLoc where);
  InFlightDiagnostic error(llvm::SMLoc where);
  /// `text` as one !amls.string value (BuiltinsIO.cpp): its text is then
  /// computed at run time, as `print` would show it.
  Value materializeString(Location l, const DValue &text);
  /// exists(name): whether the path taken assigned variable `name` (an i1,
  /// constant where that is known while importing).
  Value variableExists(Location l, const std::string &name);

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

  /// A matrix as !amls.matrix<?x?xf64>, a frame as !amls.frame<?x?>: the
  /// types every variable has where control flow joins or functions are
  /// called.
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
  /// A number or boolean known at compile time (a constant, or a negated
  /// one), if it is one.
  static std::optional<double> constantNumber(Value value);

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
  /// The number of values of a builtin with several (qr, lu, eigen, svd),
  /// none for any other name.
  static std::optional<size_t> multipleBuiltinResults(llvm::StringRef name);
  /// The values of a call of such a builtin; empty after an error.
  std::vector<DValue> genMultipleBuiltinCall(const CallExpr *call);
  std::vector<DValue> genUserCall(const CallExpr *call,
                                  const FunctionStmt *function);
  /// Calls `function` with its parameters' values (defaults filled in);
  /// `where` locates each for diagnostics.
  std::vector<DValue> callFunction(const CallExpr *call,
                                   const FunctionStmt *function,
                                   std::vector<DValue> values,
                                   llvm::ArrayRef<llvm::SMLoc> where);

  //===--------------------------------------------------------------------===//
  // Lists (Lists.cpp)
  //===--------------------------------------------------------------------===//

  DValue buildList(const CallExpr *call);
  /// Whether `expr` is, without evaluating it, a list (a list variable,
  /// list(...), append on a list).
  bool isListExpr(const Expr *expr);
  /// append(L, x) and remove(L, i); false if `call` is not one of them on a
  /// list (append of matrices is cbind).
  bool genListBuiltin(const CallExpr *call, DValue &result);
  /// `[L2, x] = remove(L, i)`.
  std::vector<DValue> genListRemove(const CallExpr *call);
  /// L[i], L[i:j], L["name"].
  DValue genListIndex(const IndexExpr *expr, const DValue &list);
  /// L[i] = x, L["name"] = x, L[i:j] = list(...).
  void assignListElement(const AssignTarget &target, DValue list, DValue value);
  /// The leaves of a value (matrices, numbers, booleans and the values
  /// printed in strings), flattened depth-first: what a list or string
  /// carries through control flow and function boundaries.
  void collectLeaves(const DValue &v, llvm::SmallVectorImpl<Value> &leaves);
  /// `shape` with its leaves replaced by `leaves` (consumed from the front).
  DValue rebuild(const DValue &shape, llvm::ArrayRef<Value> &leaves);
  /// A key for the structure of a value: kinds, names and constant text;
  /// values with equal keys have leaves of the same types.
  std::string shapeKey(const DValue &v);
  /// `value` converted leaf by leaf to the structure of `like` (numbers and
  /// booleans convert); nullopt after an error.
  std::optional<llvm::SmallVector<Value>>
  coerceLeaves(Location l, const DValue &value, const DValue &like,
               const std::string &name, llvm::SMLoc where);
  /// Unrolls `forStmt` while importing if its body indexes a list of
  /// strings, lists or mixed kinds by the counter, or appends to a list
  /// (whose length must stay known); false if it needs no unrolling.
  bool unrollIfNeeded(const ForStmt *forStmt, Value from, Value to, Value step,
                      bool integerLoop);
  /// The structure a value is carried in through control flow: booleans
  /// as numbers (a loop body may assign either), matrices relaxed.
  static DValue carriedShape(const DValue &v);
  /// Appends the leaves of variable `name` (in its carried shape) to
  /// `inits`, its shape to `shapes`.
  void carryInit(Location l, const std::string &name, llvm::SMLoc where,
                 llvm::SmallVectorImpl<Value> &inits,
                 std::vector<DValue> &shapes);
  /// Binds the carried variables to `leaves` (block arguments, results).
  void bindCarried(llvm::ArrayRef<std::string> names,
                   llvm::ArrayRef<DValue> shapes, ValueRange leaves);
  /// The carried variables' leaves at the end of a loop body (`previous`
  /// where a variable cannot be converted, after an error).
  llvm::SmallVector<Value> yieldCarried(Location l,
                                        llvm::ArrayRef<std::string> names,
                                        std::vector<DValue> &shapes,
                                        ValueRange previous, llvm::SMLoc where);

  //===--------------------------------------------------------------------===//
  // Specialization and eval (Specialization.cpp)
  //===--------------------------------------------------------------------===//

  /// Whether `function` has List or String parameters or results: it is
  /// instantiated per call signature instead of imported once.
  static bool isGeneric(const FunctionStmt *function);
  /// A call of a generic function, with its arguments evaluated.
  std::vector<DValue> genSpecializedCall(const CallExpr *call,
                                         const FunctionStmt *function,
                                         std::vector<DValue> values,
                                         llvm::ArrayRef<llvm::SMLoc> where);
  /// Creates the instance `name` of `function` for arguments of `shapes`
  /// (their leaves: `operands`) and imports its body.
  Instance instantiate(const FunctionStmt *function, const std::string &name,
                       llvm::ArrayRef<DValue> shapes,
                       llvm::ArrayRef<Value> operands);
  /// eval(name, args...) with a name known while importing; the names of
  /// the called function's results go to `resultNames` if given.
  std::vector<DValue> genEval(const CallExpr *call,
                              std::vector<std::string> *resultNames = nullptr);
  /// The user or library function `name`, loading a library script on
  /// first use; null if there is none.
  const FunctionStmt *lookupFunction(llvm::StringRef name, llvm::SMLoc where);

  /// Binds a call's arguments (positional, then named) to `parameters`, of
  /// which the first `required` must be given.
  std::optional<BoundArgs> bind(const CallExpr *call,
                                llvm::ArrayRef<llvm::StringRef> parameters,
                                size_t required, bool keepRest = false);

private:
  DValue genCommandLineArg(const CommandLineArgExpr *arg);
  /// The entry's parameter type and DML value of a host's input.
  Type inputType(ImportOptions::Input::Kind kind);
  DValue inputValue(ImportOptions::Input::Kind kind, Value argument);
  /// Ends the entry: returns the host's outputs (ImportOptions::outputs).
  void returnOutputs(func::FuncOp entry, const Script &script);
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
  /// [a, b, ...] = f(...) of a builtin with `count` values.
  void genMultipleBuiltinAssign(const AssignStmt *assign, const CallExpr *call,
                                size_t count);
  void genIf(const IfStmt *ifStmt);
  void genWhile(const WhileStmt *whileStmt);
  void genFor(const ForStmt *forStmt);
  /// A parfor's header options, checked; none after an error.
  std::optional<ParforOptions> readParforOptions(const ForStmt *forStmt);
  void setParforOptions(ParforOp parfor, const ParforOptions &options);
  /// A parfor body assigns non-matrix `name` that is defined before the
  /// loop: an error naming the assignment and the read that makes it a
  /// loop-carried dependency, or (unchecked) a warning that it stays local
  /// to the iterations. False after an error.
  bool checkParforScalar(const ForStmt *forStmt, const std::string &name,
                         bool unchecked);
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
  // Variables assigned on some paths only (Scoping.cpp)
  //===--------------------------------------------------------------------===//

  /// The value of variable `name` for a read at `where`: where it may be
  /// unassigned on the path taken, a run-time check first stops the program
  /// with the DML position (as SystemDS does), and later reads need none.
  DValue readVariable(const std::string &name, llvm::SMLoc where);
  /// A value of `like`'s kind standing for "not assigned" on a path.
  Value placeholder(Location l, const DValue &like);
  /// `value`'s defined flag, or true.
  Value definedFlag(Location l, const DValue &value);
  /// Whether a statement after the current one (in this block or the
  /// blocks around it) or a result of the function being imported reads
  /// `name`: only then does a variable assigned on some paths outlive them.
  bool isReadLater(const std::string &name) const;
  /// Variables first assigned in a loop's body that the body reads before
  /// assigning them (in a later iteration) or that are read after the loop
  /// are defined, unassigned, before the loop, so that iterations carry
  /// them with defined flags (an iteration that does not assign one keeps
  /// the value an earlier one gave it). Their kinds come from importing
  /// the loop once silently; `loopVariable` is a for loop's own.
  void predefineLoopVariables(const Stmt *loopStmt, const StmtList &body,
                              llvm::StringRef loopVariable);
  /// Appends the defined flags of the carried variables that may be
  /// unassigned (`kinds`) to a loop's `inits` and `types`; returns each
  /// variable's flag position, or -1.
  llvm::SmallVector<int> appendCarriedFlags(llvm::ArrayRef<DValue> kinds,
                                            llvm::SmallVectorImpl<Value> &inits,
                                            llvm::SmallVectorImpl<Type> &types);
  /// Binds the carried variables to `loop`'s results (and flags).
  void setCarriedResults(Operation *loop,
                         const std::vector<std::string> &carried,
                         llvm::ArrayRef<DValue> kinds,
                         llvm::ArrayRef<int> flagOf);

  /// The statements being imported, innermost last: each block with the
  /// position of the statement being imported.
  std::vector<std::pair<const StmtList *, size_t>> openBlocks;
  /// The results of the function being imported (read when it returns).
  std::set<std::string> functionResults;
  /// Loops being imported silently by predefineLoopVariables, the
  /// variables at the end of their bodies, and the names read while
  /// undefined meanwhile.
  std::set<const Stmt *> speculatingLoops;
  std::map<const Stmt *, Environment> loopBodyEnds;
  std::set<std::string> undefinedReads;

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
  /// Declares the func.func of a (non-generic) user function.
  void declareFunction(const FunctionStmt *function);

  /// The instances of generic functions, by name and call signature.
  std::map<std::string, std::map<std::string, Instance>> instances;
  /// Library functions loaded while importing (by eval): their bodies are
  /// imported after the script's.
  std::vector<const FunctionStmt *> lateFunctions;
  /// Generic functions whose instance is being imported (recursion check).
  std::set<std::string> instantiating;
  /// Calls eval made up to call builtins (their nodes must outlive the IR
  /// generation that refers to them).
  std::vector<std::unique_ptr<CallExpr>> syntheticCalls;

  llvm::SourceMgr &sourceMgr;
  MLIRContext *context;
  const ImportOptions &options;
  OpBuilder builder;
  std::string bufferName;
  bool hadError = false;

  ModuleOp module;
  Environment env;
  /// The entry's parameters by input name (ImportOptions::inputs), for
  /// `$name` reads.
  std::map<std::string, DValue> entryInputs;
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
