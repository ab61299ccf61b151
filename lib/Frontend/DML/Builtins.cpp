//===- Builtins.cpp - DML builtin functions to AMLS IR --------------------===//
//
// Every builtin is one row of `getBuiltins`: its name, how it takes its
// arguments (named parameters, of which the first few are required; any
// number of positional ones; or a statement without a value) and the
// builder that emits its IR. Element-wise functions build the AMLS op on a
// matrix and the op's cell computation on a number (AMLSCells.h), so a
// number and a 1x1 matrix compute the same function.
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "AMLS/Dialect/AMLSCells.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;
using llvm::SMLoc;

namespace {

/// How a builtin takes its arguments.
enum class Form {
  /// Named parameters (positional arguments bind in order); has a value.
  Value,
  /// Any number of positional arguments, read by the builder.
  Variadic,
  /// Named parameters; no value: called as a statement.
  Statement,
  /// Named parameters; several values: assigned as [a, b, ...] = f(...).
  Multiple,
};

using BuildFn = DValue (BuiltinCall::*)();
using BuildMultipleFn = std::vector<DValue> (BuiltinCall::*)();

struct Builtin {
  llvm::StringRef name;
  Form form;
  std::vector<llvm::StringRef> parameters;
  /// How many leading parameters must be given.
  size_t required;
  BuildFn build;
  /// Form::Multiple: the builder and the number of values.
  BuildMultipleFn buildMultiple = nullptr;
  size_t results = 1;
  /// Keeps positional arguments after the parameters (BoundArgs::rest).
  bool takesRest = false;
};

/// A builtin of one parameter, x.
Builtin unary(llvm::StringRef name, BuildFn build) {
  return {name, Form::Value, {"x"}, 1, build};
}
/// A builtin of named parameters, the first `required` of them required.
Builtin named(llvm::StringRef name, std::vector<llvm::StringRef> parameters,
              size_t required, BuildFn build) {
  return {name, Form::Value, std::move(parameters), required, build};
}
Builtin variadic(llvm::StringRef name, BuildFn build) {
  return {name, Form::Variadic, {}, 0, build};
}
Builtin statement(llvm::StringRef name, std::vector<llvm::StringRef> parameters,
                  size_t required, BuildFn build) {
  return {name, Form::Statement, std::move(parameters), required, build};
}

Builtin withRest(Builtin builtin) {
  builtin.takesRest = true;
  return builtin;
}

/// cdf, icdf, pnorm, qnorm, ...: parameters by distribution.
Builtin distribution(llvm::StringRef name) {
  auto [parameters, required] = BuiltinCall::distributionSignature(name);
  return named(name, std::move(parameters), required,
               &BuiltinCall::buildDistribution);
}

/// A builtin of one matrix parameter with `results` values.
Builtin multiple(llvm::StringRef name, size_t results, BuildMultipleFn build) {
  return {name, Form::Multiple, {"A"}, 1, nullptr, build, results};
}
/// A builtin of named parameters with `results` values.
Builtin multipleNamed(llvm::StringRef name,
                      std::vector<llvm::StringRef> parameters, size_t required,
                      size_t results, BuildMultipleFn build) {
  return {name,  Form::Multiple, std::move(parameters), required, nullptr,
          build, results};
}

using B = BuiltinCall;

/// Every builtin function of DML that AMLS imports.
llvm::ArrayRef<Builtin> getBuiltins() {
  static const Builtin table[] = {
      // Element-wise functions of a matrix or a number.
      unary("abs", &B::buildElementwise<AbsOp>),
      unary("exp", &B::buildElementwise<ExpOp>),
      named("log", {"x", "base"}, 1, &B::buildLog),
      unary("sqrt", &B::buildElementwise<SqrtOp>),
      unary("round", &B::buildElementwise<RoundOp>),
      unary("floor", &B::buildElementwise<FloorOp>),
      unary("ceil", &B::buildElementwise<CeilOp>),
      unary("ceiling", &B::buildElementwise<CeilOp>),
      unary("sign", &B::buildElementwise<SignOp>),
      unary("sigmoid", &B::buildElementwise<SigmoidOp>),
      unary("sin", &B::buildElementwise<SinOp>),
      unary("cos", &B::buildElementwise<CosOp>),
      unary("tanh", &B::buildElementwise<TanhOp>),
      unary("tan", &B::buildElementwise<TanOp>),
      unary("asin", &B::buildElementwise<AsinOp>),
      unary("acos", &B::buildElementwise<AcosOp>),
      unary("atan", &B::buildElementwise<AtanOp>),
      unary("sinh", &B::buildElementwise<SinhOp>),
      unary("cosh", &B::buildElementwise<CoshOp>),
      unary("isNaN", &B::buildIsNaN),
      named("ifelse", {"test", "yes", "no"}, 3, &B::buildIfElse),
      named("ppred", {"target", "y", "op"}, 3, &B::buildPpred),
      variadic("min", &B::buildMinMax),
      variadic("max", &B::buildMinMax),

      // Aggregates.
      unary("sum", &B::buildAggregate<AggKind::Sum, AggAxis::All>),
      named("mean", {"x", "weights"}, 1, &B::buildMean),
      unary("avg", &B::buildAggregate<AggKind::Mean, AggAxis::All>),
      unary("prod", &B::buildAggregate<AggKind::Prod, AggAxis::All>),
      unary("var", &B::buildAggregate<AggKind::Var, AggAxis::All>),
      unary("sd", &B::buildAggregate<AggKind::Sd, AggAxis::All>),
      unary("rowSums", &B::buildAggregate<AggKind::Sum, AggAxis::Row>),
      unary("colSums", &B::buildAggregate<AggKind::Sum, AggAxis::Col>),
      unary("rowMeans", &B::buildAggregate<AggKind::Mean, AggAxis::Row>),
      unary("colMeans", &B::buildAggregate<AggKind::Mean, AggAxis::Col>),
      unary("rowMaxs", &B::buildAggregate<AggKind::Max, AggAxis::Row>),
      unary("colMaxs", &B::buildAggregate<AggKind::Max, AggAxis::Col>),
      unary("rowMins", &B::buildAggregate<AggKind::Min, AggAxis::Row>),
      unary("colMins", &B::buildAggregate<AggKind::Min, AggAxis::Col>),
      unary("rowProds", &B::buildAggregate<AggKind::Prod, AggAxis::Row>),
      unary("colProds", &B::buildAggregate<AggKind::Prod, AggAxis::Col>),
      unary("rowVars", &B::buildAggregate<AggKind::Var, AggAxis::Row>),
      unary("colVars", &B::buildAggregate<AggKind::Var, AggAxis::Col>),
      unary("rowSds", &B::buildAggregate<AggKind::Sd, AggAxis::Row>),
      unary("colSds", &B::buildAggregate<AggKind::Sd, AggAxis::Col>),
      unary("rowIndexMax", &B::buildAggregate<AggKind::MaxIndex, AggAxis::Row>),
      unary("rowIndexMin", &B::buildAggregate<AggKind::MinIndex, AggAxis::Row>),
      unary("cumsum", &B::buildCumulative<CumAggKind::CumSum>),
      unary("cumprod", &B::buildCumulative<CumAggKind::CumProd>),
      unary("cummin", &B::buildCumulative<CumAggKind::CumMin>),
      unary("cummax", &B::buildCumulative<CumAggKind::CumMax>),

      // Statistics (BuiltinsStatistics.cpp).
      variadic("moment", &B::buildMoment),
      variadic("cov", &B::buildCov),
      variadic("quantile", &B::buildQuantile),
      variadic("median", &B::buildMedian),
      variadic("interQuartileMean", &B::buildInterQuartileMean),
      named("aggregate",
            {"target", "groups", "fn", "weights", "order", "ngroups"}, 3,
            &B::buildGroupedAggregate),
      named("outer", {"x", "y", "op"}, 3, &B::buildOuter),
      named("sample", {"range", "size", "replace", "seed"}, 2, &B::buildSample),
      named("unique", {"target", "dir"}, 1, &B::buildUnique),
      named("countDistinct", {"input", "dir"}, 1, &B::buildCountDistinctApprox),
      named("contains", {"target", "pattern"}, 2, &B::buildContains),
      named("xor", {"x", "y"}, 2, &B::buildXor),
      unary("is.na", &B::buildIsNaN),
      unary("is.nan", &B::buildIsNaN),
      unary("is.infinite", &B::buildIsInfinite),
      named("bias_add", {"input", "bias"}, 2, &B::buildBias),
      named("bias_multiply", {"input", "bias"}, 2, &B::buildBias),

      // Probability distributions (BuiltinsDistributions.cpp).
      distribution("cdf"),
      distribution("icdf"),
      distribution("pnorm"),
      distribution("qnorm"),
      distribution("pexp"),
      distribution("qexp"),
      distribution("pchisq"),
      distribution("qchisq"),
      distribution("pf"),
      distribution("qf"),
      distribution("pt"),
      distribution("qt"),

      // Bitwise functions (BuiltinsBitwise.cpp).
      named("bitwAnd", {"x", "y"}, 2, &B::buildBitwise<BitwAndOp>),
      named("bitwOr", {"x", "y"}, 2, &B::buildBitwise<BitwOrOp>),
      named("bitwXor", {"x", "y"}, 2, &B::buildBitwise<BitwXorOp>),
      named("bitwShiftL", {"x", "y"}, 2, &B::buildBitwise<BitwShiftLOp>),
      named("bitwShiftR", {"x", "y"}, 2, &B::buildBitwise<BitwShiftROp>),
      named("rowCountDistinct", {"input"}, 1, &B::buildCountDistinctByRow),
      named("colCountDistinct", {"input"}, 1, &B::buildCountDistinctByRow),
      named("countDistinctApprox", {"input", "dir", "type", "k"}, 1,
            &B::buildCountDistinctApprox),
      named("rowCountDistinctApprox", {"input", "type", "k"}, 1,
            &B::buildCountDistinctApprox),
      named("colCountDistinctApprox", {"input", "type", "k"}, 1,
            &B::buildCountDistinctApprox),

      // Data generation and input.
      named("matrix", {"data", "rows", "cols", "byrow"}, 3, &B::buildMatrix),
      named("rand",
            {"rows", "cols", "min", "max", "sparsity", "seed", "pdf", "lambda"},
            2, &B::buildRand),
      // SystemDS still accepts its old spelling (many of its test scripts
      // use it).
      named("Rand",
            {"rows", "cols", "min", "max", "sparsity", "seed", "pdf", "lambda"},
            2, &B::buildRand),
      named("seq", {"from", "to", "incr"}, 2, &B::buildSeq),
      named("read",
            {"file", "format", "header", "sep", "rows", "cols", "data_type",
             "value_type", "nnz", "na.strings", "naStrings", "schema"},
            1, &B::buildRead),

      // Sizes, reorganisation and casts.
      unary("nrow", &B::buildSize),
      unary("ncol", &B::buildSize),
      unary("length", &B::buildSize),
      unary("nnz", &B::buildNnz),
      unary("t", &B::buildTranspose),
      // SystemDS's compressed formats are a storage choice; AMLS chooses
      // each matrix's storage (dense or CSR) itself.
      unary("compress", &B::buildStorageHint),
      unary("decompress", &B::buildStorageHint),
      named("exists", {"var"}, 1, &B::buildExists),
      named("time", {}, 0, &B::buildTime),
      unary("diag", &B::buildDiag),
      unary("rev", &B::buildRev),
      unary("trace", &B::buildTrace),
      unary("as.scalar", &B::buildAsScalar),
      unary("castAsScalar", &B::buildAsScalar),
      unary("as.matrix", &B::buildAsMatrix),
      unary("as.double", &B::buildAsNumber),
      unary("as.integer", &B::buildAsNumber),
      unary("as.logical", &B::buildAsNumber),
      unary("as.boolean", &B::buildAsNumber),
      variadic("cbind", &B::buildBind),
      variadic("rbind", &B::buildBind),
      variadic("append", &B::buildBind),
      named("removeEmpty", {"target", "margin", "select", "empty.return"}, 2,
            &B::buildRemoveEmpty),
      named("replace", {"target", "pattern", "replacement"}, 3,
            &B::buildReplace),
      variadic("table", &B::buildTable),
      named("order", {"target", "by", "decreasing", "index.return"}, 1,
            &B::buildOrder),

      // Linear algebra (BuiltinsLinearAlgebra.cpp).
      named("solve", {"A", "b"}, 2, &B::buildSolve),
      unary("inv", &B::buildMatrixFunction<InverseOp>),
      unary("det", &B::buildDeterminant),
      unary("cholesky", &B::buildMatrixFunction<CholeskyOp>),
      named("lower.tri", {"target", "diag", "values"}, 1, &B::buildTriangle),
      named("upper.tri", {"target", "diag", "values"}, 1, &B::buildTriangle),
      multiple("qr", 2, &B::buildFactorization<QROp, 2>),
      multiple("lu", 3, &B::buildFactorization<LUOp, 3>),
      multiple("eigen", 2, &B::buildFactorization<EigenOp, 2>),
      multiple("svd", 3, &B::buildFactorization<SVDOp, 3>),

      // Deep learning (BuiltinsNeuralNetwork.cpp). SystemDS ignores
      // conv2d's `bias` (scripts add it with bias_add); so does AMLS.
      named("conv2d",
            {"input", "filter", "input_shape", "filter_shape", "stride",
             "padding", "bias"},
            6, &B::buildConvolution),
      named(
          "conv2d_backward_filter",
          {"input", "dout", "input_shape", "filter_shape", "stride", "padding"},
          6, &B::buildConvolution),
      named("conv2d_backward_data",
            {"filter", "dout", "input_shape", "filter_shape", "stride",
             "padding"},
            6, &B::buildConvolution),
      named("max_pool",
            {"input", "input_shape", "pool_size", "stride", "padding"}, 5,
            &B::buildPooling),
      named("avg_pool",
            {"input", "input_shape", "pool_size", "stride", "padding"}, 5,
            &B::buildPooling),
      named("max_pool_backward",
            {"input", "dout", "input_shape", "pool_size", "stride", "padding"},
            6, &B::buildPooling),
      named("avg_pool_backward",
            {"input", "dout", "input_shape", "pool_size", "stride", "padding"},
            6, &B::buildPooling),

      // Frames and feature transformation (BuiltinsFrame.cpp).
      multipleNamed("transformencode", {"target", "spec"}, 2, 2,
                    &B::buildTransformEncode),
      named("transformapply", {"target", "spec", "meta"}, 3,
            &B::buildTransformApply),
      named("transformdecode", {"target", "spec", "meta"}, 3,
            &B::buildTransformDecode),
      unary("as.frame", &B::buildAsFrame),
      unary("detectSchema", &B::buildDetectSchema),
      unary("colnames", &B::buildColNames),
      named("applySchema", {"target", "schema"}, 2, &B::buildApplySchema),

      // Command-line arguments and strings.
      named("ifdef", {"arg", "default"}, 2, &B::buildIfdef),
      named("toString",
            {"target", "rows", "cols", "decimal", "sparse", "sep", "linesep"},
            1, &B::buildToString),

      // Statements.
      // print(format, args...): Java's String.format, as SystemDS.
      withRest(statement("print", {"message"}, 1, &B::buildPrintOrStop)),
      statement("stop", {"message"}, 1, &B::buildPrintOrStop),
      statement("assert", {"condition"}, 1, &B::buildAssert),
      statement("write",
                {"x", "file", "format", "header", "sep", "description"}, 2,
                &B::buildWrite),
  };
  return table;
}

const Builtin *lookupBuiltin(llvm::StringRef name) {
  static const llvm::StringMap<const Builtin *> byName = [] {
    llvm::StringMap<const Builtin *> map;
    for (const Builtin &builtin : getBuiltins())
      map[builtin.name] = &builtin;
    return map;
  }();
  return byName.lookup(name);
}

} // namespace

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

std::optional<BoundArgs>
Importer::bind(const CallExpr *call, llvm::ArrayRef<llvm::StringRef> parameters,
               size_t required, bool keepRest) {
  BoundArgs bound;
  bound.values.assign(parameters.size(), nullptr);
  size_t position = 0;
  bool ok = true;
  for (const Argument &arg : call->args) {
    if (arg.name.empty()) {
      if (position >= parameters.size() && keepRest) {
        bound.rest.push_back(arg.value.get());
        continue;
      }
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

namespace {
/// The call of `builtin` with its arguments bound; null after an error.
std::optional<BuiltinCall> bindBuiltin(Importer &im, const Builtin &builtin,
                                       const CallExpr *call) {
  BoundArgs args;
  if (builtin.form != Form::Variadic) {
    std::optional<BoundArgs> bound =
        im.bind(call, builtin.parameters, builtin.required, builtin.takesRest);
    if (!bound)
      return std::nullopt;
    args = std::move(*bound);
  }
  return BuiltinCall(im, call, std::move(args));
}

DValue buildBuiltin(Importer &im, const Builtin &builtin,
                    const CallExpr *call) {
  std::optional<BuiltinCall> builtinCall = bindBuiltin(im, builtin, call);
  if (!builtinCall)
    return {};
  return ((*builtinCall).*builtin.build)();
}
} // namespace

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
          << "(...), or the first with x = " << call->callee << "(...)";
      return {};
    }
    return results.front();
  }
  // Lists (Lists.cpp) and eval (Specialization.cpp).
  DValue listResult;
  if (genListBuiltin(call, listResult))
    return listResult;
  // eval of a function of several results is its first, as in SystemDS;
  // evalList gives them all, as a list named by the results.
  if (call->callee == "eval" || call->callee == "evalList") {
    std::vector<std::string> names;
    std::vector<DValue> results = genEval(call, &names);
    if (results.empty())
      return {};
    if (call->callee == "eval")
      return results.front();
    names.resize(results.size());
    return DValue::list(std::move(results), std::move(names));
  }
  const Builtin *builtin = lookupBuiltin(call->callee);
  if (!builtin) {
    error(call->getLoc()) << "unknown function '" << call->callee << "'";
    return {};
  }
  if (builtin->form == Form::Statement) {
    error(call->getLoc()) << "'" << call->callee
                          << "' has no value; call it as a statement";
    return {};
  }
  if (builtin->form == Form::Multiple) {
    error(call->getLoc()) << "'" << call->callee << "' returns "
                          << builtin->results
                          << " values: assign them with [a, b, ...] = "
                          << call->callee << "(...)";
    return {};
  }
  return buildBuiltin(*this, *builtin, call);
}

std::optional<size_t> Importer::multipleBuiltinResults(llvm::StringRef name) {
  const Builtin *builtin = lookupBuiltin(name);
  if (!builtin || builtin->form != Form::Multiple)
    return std::nullopt;
  return builtin->results;
}

std::vector<DValue> Importer::genMultipleBuiltinCall(const CallExpr *call) {
  const Builtin *builtin = lookupBuiltin(call->callee);
  assert(builtin && builtin->form == Form::Multiple);
  std::optional<BuiltinCall> builtinCall = bindBuiltin(*this, *builtin, call);
  if (!builtinCall)
    return {};
  return ((*builtinCall).*builtin->buildMultiple)();
}

bool Importer::genEffect(const CallExpr *call) {
  const Builtin *builtin = lookupBuiltin(call->callee);
  if (!builtin || builtin->form != Form::Statement)
    return false;
  buildBuiltin(*this, *builtin, call);
  return true;
}

bool Importer::isBuiltin(llvm::StringRef name) {
  return lookupBuiltin(name) != nullptr ||
         llvm::is_contained({"list", "as.list", "remove", "eval", "evalList"},
                            name);
}

bool Importer::isStatementBuiltin(llvm::StringRef name) {
  const Builtin *builtin = lookupBuiltin(name);
  return builtin && builtin->form == Form::Statement;
}

//===----------------------------------------------------------------------===//
// Builders
//===----------------------------------------------------------------------===//

template <typename OpTy> DValue BuiltinCall::buildElementwise() {
  DValue x = im.genOperand(args[0], "the argument of '" + name.str() + "'");
  if (!x.isValid())
    return {};
  if (x.isMatrix())
    return DValue::matrix(OpTy::create(builder, l, im.matrixType(), x.value));
  return DValue::scalar(buildScalarCell<OpTy>(builder, l, {x.value}));
}

DValue BuiltinCall::buildIsNaN() {
  DValue x = im.genOperand(args[0], "the argument of '" + name.str() + "'");
  if (!x.isValid())
    return {};
  if (x.isMatrix())
    return DValue::matrix(
        IsNaNOp::create(builder, l, im.matrixType(), x.value));
  return DValue::boolean(buildScalarCondition<IsNaNOp>(builder, l, {x.value}));
}

DValue BuiltinCall::buildIsInfinite() {
  // is.infinite(x) = abs(x) == Inf: 1 (TRUE) for +-Inf, 0 for NaN.
  DValue x = im.genOperand(args[0], "the argument of 'is.infinite'");
  if (!x.isValid())
    return {};
  DValue magnitude =
      x.isMatrix()
          ? DValue::matrix(AbsOp::create(builder, l, im.matrixType(), x.value))
          : DValue::scalar(buildScalarCell<AbsOp>(builder, l, {x.value}));
  return im.genBinary(BinaryOp::Eq, magnitude,
                      DValue::scalar(im.constant(l, INFINITY)), where);
}

DValue BuiltinCall::buildLog() {
  DValue result = buildElementwise<LogOp>();
  if (!result.isValid() || !args.has(1))
    return result;
  // log(x, base) = log(x) / log(base).
  std::optional<Value> base = im.genNumber(args[1], "the base of 'log'");
  if (!base)
    return {};
  Value logBase = buildScalarCell<LogOp>(builder, l, {*base});
  return im.genBinary(BinaryOp::Div, result, DValue::scalar(logBase), where);
}

template <AggKind Kind, AggAxis Axis> DValue BuiltinCall::buildAggregate() {
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  if (Axis == AggAxis::All)
    return DValue::scalar(AggOp::create(builder, l, im.f64(), Kind, Axis, *x));
  return DValue::matrix(
      AggOp::create(builder, l, im.matrixType(), Kind, Axis, *x));
}

template <CumAggKind Kind> DValue BuiltinCall::buildCumulative() {
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  return DValue::matrix(
      CumAggOp::create(builder, l, im.matrixType(), Kind, *x));
}

DValue BuiltinCall::buildSize() {
  DValue v = im.gen(args[0]);
  if (!v.isValid())
    return {};
  // The length of a list is known while importing (Lists.cpp).
  if (v.isList() && name == "length")
    return DValue::integerScalar(
        im.constant(l, static_cast<double>(v.elements.size())));
  if (!v.isMatrix() && !v.isFrame()) {
    im.error(args[0]->getLoc())
        << "expected a matrix or a frame for the argument of '" << name
        << "', found " << kindName(v.kind);
    return {};
  }
  Value rows, cols;
  if (v.isFrame()) {
    rows = FrameNRowOp::create(builder, l, builder.getIndexType(), v.value);
    cols = FrameNColOp::create(builder, l, builder.getIndexType(), v.value);
  } else {
    rows = NRowOp::create(builder, l, builder.getIndexType(), v.value);
    cols = NColOp::create(builder, l, builder.getIndexType(), v.value);
  }
  if (name == "nrow")
    return DValue::integerScalar(im.indexToF64(l, rows));
  if (name == "ncol")
    return DValue::integerScalar(im.indexToF64(l, cols));
  return DValue::integerScalar(
      im.indexToF64(l, arith::MulIOp::create(builder, l, rows, cols)));
}

DValue BuiltinCall::buildNnz() {
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  Value count = NnzOp::create(builder, l, builder.getI64Type(), *x);
  return DValue::integerScalar(
      arith::SIToFPOp::create(builder, l, im.f64(), count));
}

DValue BuiltinCall::buildTranspose() {
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  return DValue::matrix(TransposeOp::create(builder, l, im.matrixType(), *x));
}

DValue BuiltinCall::buildStorageHint() {
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  return DValue::matrix(*x);
}

DValue BuiltinCall::buildExists() {
  // The argument names a variable; it is not read (reading an unassigned
  // one would stop the program).
  std::string variable;
  if (auto *identifier = llvm::dyn_cast<IdentifierExpr>(args[0]))
    variable = identifier->name;
  else if (auto *text = llvm::dyn_cast<StringExpr>(args[0]))
    variable = text->value;
  else {
    im.error(args[0]->getLoc())
        << "exists: expected a variable name or a string literal naming one";
    return {};
  }
  return DValue::boolean(im.variableExists(l, variable));
}

DValue BuiltinCall::buildTime() {
  Value nanoseconds = TimeOp::create(builder, l, builder.getI64Type());
  return DValue::integerScalar(
      arith::SIToFPOp::create(builder, l, builder.getF64Type(), nanoseconds));
}

DValue BuiltinCall::buildDiag() {
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  return DValue::matrix(DiagOp::create(builder, l, im.matrixType(), *x));
}

DValue BuiltinCall::buildRev() {
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  return DValue::matrix(RevOp::create(builder, l, im.matrixType(), *x));
}

DValue BuiltinCall::buildTrace() {
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  return DValue::scalar(TraceOp::create(builder, l, im.f64(), *x));
}

DValue BuiltinCall::buildMinMax() {
  bool isMax = name == "max";
  if (call->args.empty()) {
    im.error(where) << "'" << name << "' needs at least one argument";
    return {};
  }
  for (const Argument &arg : call->args)
    if (!arg.name.empty()) {
      im.error(arg.loc) << "'" << name << "' takes no named arguments";
      return {};
    }
  DValue first =
      im.genOperand(call->args[0].value.get(), "'" + name.str() + "'");
  if (!first.isValid())
    return {};
  if (call->args.size() == 1) {
    if (!first.isMatrix())
      return first;
    return DValue::scalar(AggOp::create(builder, l, im.f64(),
                                        isMax ? AggKind::Max : AggKind::Min,
                                        AggAxis::All, first.value));
  }
  DValue result = first;
  for (const Argument &arg : llvm::drop_begin(call->args)) {
    DValue next = im.genOperand(arg.value.get(), "'" + name.str() + "'");
    if (!next.isValid())
      return {};
    if (result.isMatrix() || next.isMatrix()) {
      Value r = isMax ? MaxOp::create(builder, l, im.matrixType(), result.value,
                                      next.value)
                            .getResult()
                      : MinOp::create(builder, l, im.matrixType(), result.value,
                                      next.value)
                            .getResult();
      result = DValue::matrix(r);
    } else {
      Value r =
          isMax
              ? buildScalarCell<MaxOp>(builder, l, {result.value, next.value})
              : buildScalarCell<MinOp>(builder, l, {result.value, next.value});
      result = DValue::scalar(r);
    }
  }
  return result;
}

DValue BuiltinCall::buildIfElse() {
  DValue test = im.genOperand(args[0], "the condition of 'ifelse'");
  // ifelse(c, "a", "b") chooses a string: a run-time one unless `c` is
  // known while importing.
  DValue yes = im.gen(args[1]), no = im.gen(args[2]);
  if (test.isValid() && yes.isString() && no.isString() && !test.isMatrix()) {
    Value condition = im.toI1(l, test);
    mlir::IntegerAttr known;
    if (matchPattern(condition, m_Constant(&known)))
      return known.getValue().isZero() ? no : yes;
    return DValue::runTime(arith::SelectOp::create(
        builder, l, condition, im.materializeString(l, yes),
        im.materializeString(l, no)));
  }
  for (auto [value, arg] :
       {std::pair(&yes, args[1]), std::pair(&no, args[2])}) {
    if (value->isString() || value->isList()) {
      im.error(arg->getLoc())
          << "expected a matrix or a number for 'ifelse', found "
          << kindName(value->kind)
          << (value->isString() ? " (both values may be strings)" : "");
      return {};
    }
    if (value->kind == DValue::Kind::Bool)
      *value = DValue::scalar(im.toF64(l, *value));
  }
  if (!test.isValid() || !yes.isValid() || !no.isValid())
    return {};
  if (!test.isMatrix() && !yes.isMatrix() && !no.isMatrix())
    return DValue::scalar(buildScalarCell<IfElseOp>(
        builder, l, {test.value, yes.value, no.value}));
  return DValue::matrix(IfElseOp::create(builder, l, im.matrixType(),
                                         test.value, yes.value, no.value));
}

DValue BuiltinCall::buildPpred() {
  // ppred(X, Y, ">"): SystemDS's older spelling of the comparisons.
  DValue lhs = im.genOperand(args[0], "'ppred'");
  DValue rhs = im.genOperand(args[1], "'ppred'");
  std::optional<std::string> op = im.genConstantString(args[2], "'op'");
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
    im.error(args[2]->getLoc()) << "unsupported comparison \"" << *op
                                << "\": expected one of < <= > >= == !=";
    return {};
  }
  DValue result = im.genBinary(*binary, lhs, rhs, where);
  if (result.kind == DValue::Kind::Bool)
    result = DValue::scalar(im.toF64(l, result));
  return result;
}

DValue BuiltinCall::buildIfdef() {
  auto *arg = llvm::dyn_cast<CommandLineArgExpr>(args[0]);
  if (!arg) {
    im.error(args[0]->getLoc())
        << "the first argument of 'ifdef' must be a command-line argument "
           "($name)";
    return {};
  }
  if (im.getOptions().arguments.count(arg->name))
    return im.gen(arg);
  return im.gen(args[1]);
}
