//===- ImportDML.cpp - DML scripts to AMLS IR -----------------------------===//
//
// The importer's entry point, the script, user functions and statements
// (expressions are in Expressions.cpp, builtins in Builtins.cpp).
//
// DML variables become SSA values: an `if` yields the variables its
// branches assign, loops carry the variables their body assigns as
// iter_args, functions return their declared results.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Frontend/DML/Parser.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <functional>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;
using llvm::SMLoc;

Importer::Importer(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                   const ImportOptions &options)
    : sourceMgr(sourceMgr), context(context), options(options),
      builder(context) {
  bufferName = sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                   ->getBufferIdentifier()
                   .str();
}

Location Importer::loc(SMLoc where) {
  if (!where.isValid())
    return FileLineColLoc::get(context, bufferName, 0, 0);
  unsigned buffer = sourceMgr.FindBufferContainingLoc(where);
  // A sourced script's positions are in its own file.
  StringRef name =
      buffer && buffer != sourceMgr.getMainFileID()
          ? sourceMgr.getMemoryBuffer(buffer)->getBufferIdentifier()
          : StringRef(bufferName);
  auto [line, col] = sourceMgr.getLineAndColumn(where, buffer);
  return FileLineColLoc::get(context, name, line, col);
}

InFlightDiagnostic Importer::error(SMLoc where) {
  hadError = true;
  return emitError(loc(where));
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
  case TypeSpec::Kind::List:
  case TypeSpec::Kind::Frame:
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
  case TypeSpec::Kind::List:
    return DValue::Kind::List;
  case TypeSpec::Kind::Frame:
    return DValue::Kind::Frame;
  }
  return DValue::Kind::Invalid;
}

std::vector<DValue> Importer::genUserCall(const CallExpr *call,
                                          const FunctionStmt *function) {
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
  std::vector<DValue> values;
  std::vector<SMLoc> where;
  for (auto [parameter, expr] : llvm::zip(function->parameters, bound)) {
    const Expr *valueExpr = expr ? expr : parameter.defaultValue.get();
    if (!valueExpr) {
      error(call->getLoc())
          << "'" << function->name << "' is missing its argument '"
          << parameter.name << "'";
      ok = false;
      continue;
    }
    values.push_back(gen(valueExpr));
    where.push_back(valueExpr->getLoc());
    ok &= values.back().isValid();
  }
  if (!ok)
    return {};
  return callFunction(call, function, std::move(values), where);
}

std::vector<DValue> Importer::callFunction(const CallExpr *call,
                                           const FunctionStmt *function,
                                           std::vector<DValue> values,
                                           llvm::ArrayRef<SMLoc> where) {
  if (isGeneric(function))
    return genSpecializedCall(call, function, std::move(values), where);
  Location l = loc(call->getLoc());
  bool ok = true;
  llvm::SmallVector<Value> operands;
  for (auto [parameter, value, valueLoc] :
       llvm::zip(function->parameters, values, where)) {
    DValue::Kind expected = kindOf(parameter.type);
    if (value.isNumeric() &&
        (expected == DValue::Kind::Scalar || expected == DValue::Kind::Bool)) {
      operands.push_back(expected == DValue::Kind::Bool ? toI1(l, value)
                                                        : toF64(l, value));
      continue;
    }
    if (value.kind != expected) {
      error(valueLoc) << "argument '" << parameter.name << "' of '"
                      << function->name << "' must be " << kindName(expected)
                      << ", found " << kindName(value.kind);
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
  openBlocks.emplace_back(&block, 0);
  for (size_t i = 0; i < block.size(); ++i) {
    openBlocks.back().second = i;
    genStatement(block[i].get());
  }
  openBlocks.pop_back();
}

void Importer::genStatement(const Stmt *stmt) {
  switch (stmt->getKind()) {
  case Stmt::Kind::Assign:
    return genAssign(llvm::cast<AssignStmt>(stmt));
  case Stmt::Kind::Expression: {
    const auto *call =
        llvm::cast<CallExpr>(llvm::cast<ExprStmt>(stmt)->expr.get());
    // setwd() only moves where source() looks (Sources.cpp).
    if (call->callee == "setwd" && topLevel.count(stmt))
      return;
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
  case Stmt::Kind::Source:
    // Top-level sources were read before the script (Sources.cpp).
    if (!topLevel.count(stmt))
      error(stmt->getLoc()) << "source() must be at the top level of the "
                               "script";
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
    undefinedReads.insert(target.name);
    error(target.loc) << "left indexing into undefined variable '"
                      << target.name << "'";
    return;
  }
  if (it->second.isList()) {
    assignListElement(target, it->second, std::move(value));
    return;
  }
  if (!it->second.isMatrix()) {
    error(target.loc) << "left indexing needs a matrix, but '" << target.name
                      << "' is " << kindName(it->second.kind);
    return;
  }
  Value dest = readVariable(target.name, target.loc).value;
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
    error(target.loc) << "cannot assign " << kindName(value.kind)
                      << " into matrix '" << target.name << "'";
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
    if (call && isStatementBuiltin(call->callee) &&
        !functions.count(call->callee)) {
      error(call->getLoc())
          << "'" << call->callee << "' has no value; call it as a statement";
      return;
    }
    // `x = f(...)` of a function with several results binds the first, as
    // in SystemDS (e.g. `Y = scale(X)`); in other expressions it is an error.
    if (auto function = call ? functions.find(call->callee) : functions.end();
        function != functions.end() && function->second->results.size() > 1) {
      std::vector<DValue> results = genUserCall(call, function->second);
      if (!results.empty())
        this->assign(assign->targets.front(), std::move(results.front()));
      return;
    }
    this->assign(assign->targets.front(), gen(assign->value.get()));
    return;
  }
  const auto *call = llvm::cast<CallExpr>(assign->value.get());
  auto function = functions.find(call->callee);
  std::vector<DValue> results;
  if (function != functions.end()) {
    results = genUserCall(call, function->second);
  } else if (call->callee == "remove") {
    results = genListRemove(call); // Lists.cpp
  } else if (call->callee == "eval") {
    results = genEval(call); // Specialization.cpp
  } else if (std::optional<size_t> count =
                 multipleBuiltinResults(call->callee)) {
    return genMultipleBuiltinAssign(assign, call, *count);
  } else {
    error(call->getLoc()) << "a multiple assignment needs a user-defined "
                             "function or a builtin with several values "
                             "(eigen, lu, qr, svd); '"
                          << call->callee << "' is neither";
    return;
  }
  if (results.empty())
    return;
  // As in SystemDS, the targets may take the first results only
  // (`[PC, V] = pca(...)` of pca's four).
  if (results.size() < assign->targets.size()) {
    error(assign->getLoc())
        << "'" << call->callee << "' returns " << results.size()
        << " values, but " << assign->targets.size() << " are assigned";
    return;
  }
  for (auto [target, value] : llvm::zip_first(assign->targets, results))
    this->assign(target, value);
}

void Importer::genMultipleBuiltinAssign(const AssignStmt *assign,
                                        const CallExpr *call, size_t count) {
  // Checked before the call, so that a wrong count is the only error.
  if (assign->targets.size() != count) {
    error(assign->getLoc())
        << "'" << call->callee << "' returns " << count << " values, but "
        << assign->targets.size() << " are assigned";
    return;
  }
  std::vector<DValue> results = genMultipleBuiltinCall(call);
  if (results.empty())
    return;
  for (auto [target, value] : llvm::zip(assign->targets, results))
    this->assign(target, value);
}

std::optional<Value> Importer::coerce(Location l, const DValue &value,
                                      const DValue &like,
                                      const std::string &name, SMLoc where) {
  if (value.kind == like.kind && (value.isMatrix() || value.isFrame()))
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

  // Variables defined on both paths after the if become its results; one
  // assigned on one path only, and read later, leaves with a defined flag
  // (Scoping.cpp), and so does one that may be unassigned on either path.
  // Each result variable with its shape; its leaves are the if's results,
  // then the flags.
  std::vector<std::pair<std::string, DValue>> results;
  llvm::SmallVector<Value> thenValues, elseValues;
  llvm::SmallVector<Value> thenFlags, elseFlags;
  llvm::SmallVector<int> flagOf; // index into the flags, or -1
  for (const std::string &name : names) {
    auto thenIt = thenEnv.find(name), elseIt = elseEnv.find(name);
    bool inThen = thenIt != thenEnv.end(), inElse = elseIt != elseEnv.end();
    if (!inThen && !inElse)
      continue;
    if (inThen != inElse) {
      const DValue &assigned = inThen ? thenIt->second : elseIt->second;
      if (assigned.isList() || !isReadLater(name))
        continue;
      Block *missing = inThen ? branches.elseBlock() : branches.thenBlock();
      builder.setInsertionPoint(missing->getTerminator());
      DValue unassigned = assigned;
      if (assigned.isString())
        unassigned = DValue::runTime(materializeString(l, DValue::text("")));
      else
        unassigned.value = placeholder(l, assigned);
      unassigned.defined = boolConstant(l, false);
      (inThen ? elseEnv : thenEnv)[name] = unassigned;
      thenIt = thenEnv.find(name);
      elseIt = elseEnv.find(name);
    }
    const DValue &thenValue = thenIt->second, &elseValue = elseIt->second;
    // Mixed number/boolean joins as a number; strings of different texts
    // join as a string computed at run time.
    DValue like = carriedShape(thenValue);
    if (thenValue.isString() && elseValue.isString() &&
        shapeKey(thenValue) != shapeKey(elseValue)) {
      builder.setInsertionPoint(branches.thenBlock()->getTerminator());
      like = DValue::runTime(materializeString(l, thenValue));
    } else if (!thenValue.isList()) {
      like = thenValue;
      if (thenValue.kind != elseValue.kind && thenValue.isNumeric() &&
          elseValue.isNumeric())
        like.kind = DValue::Kind::Scalar;
      like.integer = thenValue.integer && elseValue.integer;
    }
    builder.setInsertionPoint(branches.thenBlock()->getTerminator());
    std::optional<llvm::SmallVector<Value>> t =
        coerceLeaves(l, thenValue, like, name, ifStmt->getLoc());
    builder.setInsertionPoint(branches.elseBlock()->getTerminator());
    std::optional<llvm::SmallVector<Value>> e =
        coerceLeaves(l, elseValue, like, name, ifStmt->getLoc());
    if (!t || !e)
      continue;
    results.emplace_back(name, like);
    llvm::append_range(thenValues, *t);
    llvm::append_range(elseValues, *e);
    flagOf.push_back(-1);
    if (thenValue.defined || elseValue.defined) {
      flagOf.back() = thenFlags.size();
      builder.setInsertionPoint(branches.thenBlock()->getTerminator());
      thenFlags.push_back(definedFlag(l, thenValue));
      builder.setInsertionPoint(branches.elseBlock()->getTerminator());
      elseFlags.push_back(definedFlag(l, elseValue));
    }
  }
  size_t numLeaves = thenValues.size();
  llvm::append_range(thenValues, thenFlags);
  llvm::append_range(elseValues, elseFlags);

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
  llvm::SmallVector<Value> leaves(withResults.getResults());
  llvm::ArrayRef<Value> rest =
      llvm::ArrayRef<Value>(leaves).take_front(numLeaves);
  for (auto [index, result] : llvm::enumerate(results)) {
    env[result.first] = rebuild(result.second, rest);
    if (flagOf[index] >= 0)
      env[result.first].defined = leaves[numLeaves + flagOf[index]];
  }
}

void Importer::genWhile(const WhileStmt *whileStmt) {
  Location l = loc(whileStmt->getLoc());
  predefineLoopVariables(whileStmt, whileStmt->body, "");
  std::set<std::string> names;
  collectAssigned(whileStmt->body, names);
  std::vector<std::string> carried =
      carriedVariables(names, whileStmt->getLoc(), "'while'");

  // Booleans are carried as numbers: the body may assign either.
  llvm::SmallVector<Value> inits;
  llvm::SmallVector<Type> types;
  std::vector<DValue> kinds;
  for (const std::string &name : carried)
    carryInit(l, name, whileStmt->getLoc(), inits, kinds);
  for (Value init : inits)
    types.push_back(init.getType());
  auto loop = scf::WhileOp::create(builder, l, types, inits);
  llvm::SmallVector<Location> locs(types.size(), l);
  Environment before = env, atEnd;
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *condBlock = builder.createBlock(&loop.getBefore(), {}, types, locs);
    bindCarried(carried, kinds, condBlock->getArguments());
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
    bindCarried(carried, kinds, body->getArguments());
    genBlock(whileStmt->body);
    llvm::SmallVector<Value> yielded = yieldCarried(
        l, carried, kinds, body->getArguments(), whileStmt->getLoc());
    scf::YieldOp::create(builder, l, yielded);
    atEnd = std::move(env);
  }
  env = std::move(before);
  if (speculatingLoops.count(whileStmt))
    loopBodyEnds[whileStmt] = std::move(atEnd);
  bindCarried(carried, kinds, loop.getResults());
}

void Importer::genFor(const ForStmt *forStmt) {
  Location l = loc(forStmt->getLoc());
  // Variables of a parfor's iterations stay local to them.
  if (!forStmt->isParallel)
    predefineLoopVariables(forStmt, forStmt->body, forStmt->variable);
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
  }
  // Lists indexed by the counter, or growing, need it known (Lists.cpp).
  if (unrollIfNeeded(forStmt, *from, *to, step, integerLoop))
    return;
  if (!step) {
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

  std::optional<ParforOptions> parforOptions;
  if (forStmt->isParallel) {
    parforOptions = readParforOptions(forStmt);
    if (!parforOptions)
      return;
    // A parfor's iterations update matrices that surely exist; other
    // values are loop-carried dependencies (Parfor.cpp).
    std::vector<std::string> matrices;
    bool ok = true;
    for (const std::string &name : carried) {
      if (readVariable(name, forStmt->getLoc()).isMatrix())
        matrices.push_back(name);
      else
        ok &= checkParforScalar(forStmt, name, parforOptions->unchecked);
    }
    if (!ok)
      return;
    carried = std::move(matrices);
  }

  llvm::SmallVector<Value> inits;
  llvm::SmallVector<Type> types;
  std::vector<DValue> kinds;
  for (const std::string &name : carried)
    carryInit(l, name, forStmt->getLoc(), inits, kinds);
  for (Value init : inits)
    types.push_back(init.getType());

  Environment before = env, atEnd;
  Operation *loop;
  Block *body;
  if (forStmt->isParallel) {
    auto parfor = ParforOp::create(builder, l, types, zero, upper, one, inits);
    setParforOptions(parfor, *parforOptions);
    parfor.setSharedNamesAttr(builder.getStrArrayAttr(
        llvm::SmallVector<StringRef>(carried.begin(), carried.end())));
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
    bindCarried(carried, kinds, body->getArguments().drop_front());
    genBlock(forStmt->body);
    llvm::SmallVector<Value> yielded =
        yieldCarried(l, carried, kinds, body->getArguments().drop_front(),
                     forStmt->getLoc());
    if (forStmt->isParallel)
      YieldOp::create(builder, l, yielded);
    else
      scf::YieldOp::create(builder, l, yielded);
    atEnd = std::move(env);
  }
  env = std::move(before);
  if (speculatingLoops.count(forStmt))
    loopBodyEnds[forStmt] = std::move(atEnd);
  bindCarried(carried, kinds, loop->getResults());

  // After a for loop DML's counter holds its last value; when the loop did
  // not run, it keeps the value it had, or stays unassigned (Scoping.cpp).
  // A parfor's counter is local to its iterations.
  if (forStmt->isParallel || !isReadLater(forStmt->variable))
    return;
  Value last = arith::AddFOp::create(
      builder, l, *from,
      arith::MulFOp::create(
          builder, l,
          arith::SubFOp::create(builder, l, count, constant(l, 1.0)), step));
  DValue counter{DValue::Kind::Scalar, last, {}, integerLoop};
  auto previous = env.find(forStmt->variable);
  if (previous != env.end() && previous->second.isNumeric()) {
    std::optional<Value> old = toF64(l, previous->second);
    if (!old)
      return;
    counter.value = arith::SelectOp::create(builder, l, positive, last, *old);
    counter.integer &= previous->second.integer;
    if (previous->second.defined)
      counter.defined =
          arith::OrIOp::create(builder, l, positive, previous->second.defined);
  } else {
    counter.defined = positive;
  }
  env[forStmt->variable] = counter;
}

void Importer::genFunctionBody(const FunctionStmt *function,
                               func::FuncOp func) {
  env.clear();
  functionResults.clear();
  for (const Parameter &result : function->results)
    functionResults.insert(result.name);
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
    std::optional<Value> v = coerce(l, readVariable(result.name, result.loc),
                                    like, result.name, result.loc);
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
  for (const StmtPtr &stmt : script.statements)
    topLevel.insert(stmt.get());
  SourceScope mainScope;
  mainScope.directory = llvm::sys::path::parent_path(bufferName).str();
  if (mainScope.directory.empty())
    mainScope.directory = ".";
  if (!resolveSources(script, mainScope, /*depth=*/0))
    return nullptr;
  // The main script's functions, then those of the scripts it sources.
  std::vector<const FunctionStmt *> definitions;
  for (const Script *s : scriptsInOrder(script))
    for (const StmtPtr &stmt : s->statements)
      if (auto *function = llvm::dyn_cast<FunctionStmt>(stmt.get()))
        definitions.push_back(function);

  // Functions are visible everywhere in the script.
  for (const FunctionStmt *function : definitions) {
    if (!functions.try_emplace(function->name, function).second) {
      error(function->getLoc())
          << "function '" << function->name << "' is defined twice";
      continue;
    }
    if (function->name == options.entryName)
      error(function->getLoc())
          << "function '" << function->name
          << "' clashes with the script's entry function; rename it";
    // A result may share a parameter's name (SystemDS's in-out idiom,
    // `f = function(Matrix X) return (Matrix X)`): it starts as the argument.
    llvm::StringSet<> seenParameters, seenResults;
    for (const Parameter &p : function->parameters)
      if (!seenParameters.insert(p.name).second)
        error(p.loc) << "parameter '" << p.name << "' is declared twice in '"
                     << function->name << "'";
    for (const Parameter &p : function->results)
      if (!seenResults.insert(p.name).second)
        error(p.loc) << "result '" << p.name << "' is declared twice in '"
                     << function->name << "'";
  }

  // Recursion is DML's, and func.call supports it (--amls-ipa neither
  // specializes nor inlines functions on a cycle), but a function with
  // String or List parameters is instantiated per call signature while
  // importing, which a cycle would not end: a DFS over the user-function
  // call graph rejects cycles through such a function.
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
        auto cycle = llvm::find(path, call->callee);
        if (s == State::Active &&
            llvm::any_of(llvm::make_range(cycle, path.end()),
                         [&](const std::string &name) {
                           return isGeneric(functions.lookup(name));
                         })) {
          auto diag = error(call->getLoc());
          diag << "recursive call of '" << call->callee << "' (";
          for (auto it = cycle; it != path.end(); ++it)
            diag << *it << " -> ";
          diag << call->callee
               << "): recursion through a function with String or List "
                  "parameters or results is not supported (each call "
                  "signature is imported as its own function)";
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
  for (const FunctionStmt *function : definitions)
    if (functions.lookup(function->name) == function)
      ordered.push_back(function);
  // Functions of lists or strings are instantiated per call instead
  // (Specialization.cpp).
  for (const FunctionStmt *function : ordered)
    declareFunction(function);

  // The entry function: the top-level statements, taking the host's
  // inputs and returning its outputs where it calls the script.
  SmallVector<Type> inputTypes;
  for (const ImportOptions::Input &input : options.inputs)
    inputTypes.push_back(inputType(input.kind));
  auto entry = func::FuncOp::create(builder, loc(SMLoc()), options.entryName,
                                    builder.getFunctionType(inputTypes, {}));
  {
    env.clear();
    entryInputs.clear();
    OpBuilder::InsertionGuard guard(builder);
    Block *body = entry.addEntryBlock();
    builder.setInsertionPointToEnd(body);
    for (auto [i, input] : llvm::enumerate(options.inputs)) {
      entry.setArgAttr(i, AMLSDialect::getNameAttrName(),
                       builder.getStringAttr(input.name));
      DValue value = inputValue(input.kind, body->getArgument(i));
      env[input.name] = value;
      entryInputs[input.name] = value;
    }
    openBlocks.emplace_back(&script.statements, 0);
    for (size_t i = 0; i < script.statements.size(); ++i) {
      openBlocks.back().second = i;
      if (!llvm::isa<FunctionStmt>(script.statements[i].get()))
        genStatement(script.statements[i].get());
    }
    openBlocks.pop_back();
    returnOutputs(entry, script);
  }
  for (const FunctionStmt *function : ordered)
    if (!isGeneric(function))
      genFunctionBody(function, funcOps[function->name]);
  // Library functions eval loaded while importing (this may load more).
  for (size_t i = 0; i < lateFunctions.size(); ++i)
    if (!isGeneric(lateFunctions[i]))
      genFunctionBody(lateFunctions[i], funcOps[lateFunctions[i]->name]);

  if (hadError || failed(verify(module)))
    return nullptr;
  return owned;
}

static void loadFrontendDialects(MLIRContext *context) {
  context->loadDialect<AMLSDialect, arith::ArithDialect, func::FuncDialect,
                       math::MathDialect, scf::SCFDialect>();
}

OwningOpRef<ModuleOp> mlir::amls::dml::importDML(llvm::SourceMgr &sourceMgr,
                                                 MLIRContext *context,
                                                 const ImportOptions &options) {
  loadFrontendDialects(context);
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

OwningOpRef<ModuleOp>
mlir::amls::dml::importDMLScript(Script &script,
                                 llvm::SourceMgr &sourceMgr,
                                 MLIRContext *context,
                                 const ImportOptions &options) {
  loadFrontendDialects(context);
  Importer importer(sourceMgr, context, options);
  return importer.run(script);
}
