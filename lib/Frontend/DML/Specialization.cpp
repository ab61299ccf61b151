//===- Specialization.cpp - Functions of lists and strings; eval ----------===//
//
// A function with List or String parameters or results is a template: each
// distinct call signature (the structure of its list arguments, the text of
// its string arguments, the kinds of the rest) gets its own instance, a
// func.func named `f$1`, `f$2`, ... whose arguments are the leaves of the
// list and string arguments (Lists.cpp) and the other arguments, and whose
// results are the leaves of its results. Constant strings are bound in the
// instance's body, so `eval(train, args)` in it sees the name the caller
// passed, and a string result the body computes from constants comes back
// as a constant. Calls of one signature share an instance.
//
// eval(name, args...) calls the user, library or builtin function `name`,
// known while importing; a single list argument is spread into the
// arguments (its named elements by name), as in SystemDS.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;
using llvm::SMLoc;

bool Importer::isGeneric(const FunctionStmt *function) {
  return llvm::any_of(
      llvm::concat<const Parameter>(function->parameters, function->results),
      [](const Parameter &p) {
        // A frame's type carries its sizes and schema: instantiated per
        // call, no cast between frame types is needed.
        return p.type.kind == TypeSpec::Kind::String ||
               p.type.kind == TypeSpec::Kind::List ||
               p.type.kind == TypeSpec::Kind::Frame;
      });
}

void Importer::declareFunction(const FunctionStmt *function) {
  if (isGeneric(function))
    return; // instantiated per call
  llvm::SmallVector<Type> inputs, results;
  for (const Parameter &p : function->parameters)
    inputs.push_back(typeOf(p.type));
  for (const Parameter &p : function->results)
    results.push_back(typeOf(p.type));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  auto func =
      func::FuncOp::create(builder, loc(function->getLoc()), function->name,
                           builder.getFunctionType(inputs, results));
  func.setPrivate();
  funcOps[function->name] = func;
}

std::vector<DValue> Importer::genSpecializedCall(const CallExpr *call,
                                                 const FunctionStmt *function,
                                                 std::vector<DValue> values,
                                                 llvm::ArrayRef<SMLoc> where) {
  Location l = loc(call->getLoc());
  // Each argument in the form the instance receives it.
  std::vector<DValue> shapes;
  std::string key;
  bool ok = true;
  for (auto [parameter, value, valueLoc] :
       llvm::zip(function->parameters, values, where)) {
    DValue::Kind expected = kindOf(parameter.type);
    DValue shape = value;
    if (value.isNumeric() &&
        (expected == DValue::Kind::Scalar || expected == DValue::Kind::Bool)) {
      shape.kind = expected;
      shape.value =
          expected == DValue::Kind::Bool ? toI1(l, value) : toF64(l, value);
      shape.integer = parameter.type.kind == TypeSpec::Kind::Integer;
    } else if (value.kind != expected) {
      error(valueLoc) << "argument '" << parameter.name << "' of '"
                      << function->name << "' must be " << kindName(expected)
                      << ", found " << kindName(value.kind);
      ok = false;
      continue;
    } else if (value.isMatrix()) {
      shape.value = relaxed(l, value.value);
    }
    key += shapeKey(shape) + ";";
    shapes.push_back(std::move(shape));
  }
  if (!ok)
    return {};
  llvm::SmallVector<Value> operands;
  for (const DValue &shape : shapes)
    collectLeaves(shape, operands);

  auto &byKey = instances[function->name];
  auto found = byKey.find(key);
  if (found == byKey.end()) {
    if (instantiating.count(function->name)) {
      error(call->getLoc()) << "recursive call of '" << function->name
                            << "': recursion is not supported";
      return {};
    }
    instantiating.insert(function->name);
    std::string name = function->name + "$" + std::to_string(byKey.size() + 1);
    Instance instance = instantiate(function, name, shapes, operands);
    instantiating.erase(function->name);
    found = byKey.emplace(key, std::move(instance)).first;
  }
  const Instance &instance = found->second;
  if (!instance.func)
    return {};
  auto callOp = func::CallOp::create(builder, l, instance.func, operands);
  llvm::SmallVector<Value> leaves(callOp.getResults());
  llvm::ArrayRef<Value> rest = leaves;
  std::vector<DValue> results;
  for (const DValue &shape : instance.results)
    results.push_back(rebuild(shape, rest));
  return results;
}

Instance Importer::instantiate(const FunctionStmt *function,
                               const std::string &name,
                               llvm::ArrayRef<DValue> shapes,
                               llvm::ArrayRef<Value> operands) {
  llvm::SmallVector<Type> inputs;
  for (Value v : operands)
    inputs.push_back(v.getType());
  Location l = loc(function->getLoc());
  Instance instance;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, l, name,
                                   builder.getFunctionType(inputs, {}));
  func.setPrivate();
  Environment callerEnv = std::move(env);
  env.clear();
  // The callee's body is its own scope: what "read later" means there
  // (Scoping.cpp) is the rest of its body and its results.
  auto callerBlocks = std::move(openBlocks);
  openBlocks.clear();
  std::set<std::string> callerResults = std::move(functionResults);
  functionResults.clear();
  for (const Parameter &result : function->results)
    functionResults.insert(result.name);
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToEnd(entry);
  llvm::SmallVector<Value> arguments(entry->getArguments());
  llvm::ArrayRef<Value> rest = arguments;
  for (auto [parameter, shape] : llvm::zip(function->parameters, shapes))
    env[parameter.name] = rebuild(shape, rest);
  // Errors in the body are not followed by "never assigned" for results.
  bool hadErrorBefore = hadError;
  hadError = false;
  genBlock(function->body);
  bool bodyFailed = hadError;
  hadError |= hadErrorBefore;

  llvm::SmallVector<Value> results;
  bool ok = !bodyFailed;
  for (const Parameter &result : function->results) {
    auto it = env.find(result.name);
    if (it == env.end()) {
      if (bodyFailed)
        continue;
      error(result.loc) << "result '" << result.name << "' of '"
                        << function->name << "' is never assigned";
      ok = false;
      continue;
    }
    // A result assigned on some paths only is checked here (Scoping.cpp).
    DValue value = readVariable(result.name, result.loc);
    DValue::Kind expected = kindOf(result.type);
    DValue like = value;
    if (expected != DValue::Kind::List && expected != DValue::Kind::String)
      like = DValue{
          expected, nullptr, {}, result.type.kind == TypeSpec::Kind::Integer};
    else if (value.kind != expected) {
      error(result.loc) << "result '" << result.name << "' of '"
                        << function->name << "' must be " << kindName(expected)
                        << ", found " << kindName(value.kind);
      ok = false;
      continue;
    }
    std::optional<llvm::SmallVector<Value>> leaves =
        coerceLeaves(l, value, like, result.name, result.loc);
    if (!leaves) {
      ok = false;
      continue;
    }
    llvm::append_range(results, *leaves);
    // The result's structure, around the leaves of the callee's values.
    instance.results.push_back(
        like.isList() || like.isString()
            ? value
            : DValue{like.kind, Value(), {}, like.integer});
  }
  func::ReturnOp::create(builder, l, results);
  func.setType(builder.getFunctionType(inputs, ValueRange(results).getTypes()));
  env = std::move(callerEnv);
  openBlocks = std::move(callerBlocks);
  functionResults = std::move(callerResults);
  if (ok)
    instance.func = func;
  return instance;
}

//===----------------------------------------------------------------------===//
// eval
//===----------------------------------------------------------------------===//

const FunctionStmt *Importer::lookupFunction(llvm::StringRef name,
                                             SMLoc where) {
  if (auto it = functions.find(name); it != functions.end())
    return it->second;
  if (name.contains("::") || isBuiltin(name))
    return nullptr;
  size_t known = sourcedScripts.size();
  std::string qualified = loadLibraryFunction(name, where, /*depth=*/0);
  if (qualified.empty())
    return nullptr;
  // Register what the library script (and those it loaded) define; their
  // bodies are imported after the script's.
  for (size_t i = known; i < sourcedScripts.size(); ++i)
    for (const StmtPtr &stmt : sourcedScripts[i]->script->statements)
      if (auto *function = llvm::dyn_cast<FunctionStmt>(stmt.get()))
        if (functions.try_emplace(function->name, function).second) {
          declareFunction(function);
          lateFunctions.push_back(function);
        }
  return functions.lookup(qualified);
}

std::vector<DValue> Importer::genEval(const CallExpr *call,
                                      std::vector<std::string> *resultNames) {
  if (call->args.empty()) {
    error(call->getLoc()) << "eval needs a function name";
    return {};
  }
  const Argument &nameArg = call->args.front();
  DValue nameValue = gen(nameArg.value.get());
  if (!nameValue.isValid())
    return {};
  std::optional<std::string> name = nameValue.constantString();
  if (!name) {
    error(nameArg.loc)
        << "eval needs the name of a function known while importing (a "
           "string literal, a String parameter or a variable assigned one), "
           "found "
        << kindName(nameValue.kind)
        << (nameValue.isString() ? " computed at run time" : "");
    return {};
  }

  // The arguments: a single list is spread, named elements by name.
  std::vector<std::pair<std::string, DValue>> arguments;
  std::vector<SMLoc> argumentLocs;
  for (const Argument &arg : llvm::drop_begin(call->args)) {
    DValue v = gen(arg.value.get());
    if (!v.isValid())
      return {};
    if (call->args.size() == 2 && v.isList() && arg.name.empty()) {
      for (auto [element, elementName] : llvm::zip(v.elements, v.names)) {
        arguments.emplace_back(elementName, element);
        argumentLocs.push_back(arg.loc);
      }
      continue;
    }
    arguments.emplace_back(arg.name, std::move(v));
    argumentLocs.push_back(arg.loc);
  }

  const FunctionStmt *function = lookupFunction(*name, call->getLoc());
  if (!function) {
    if (!isBuiltin(*name) || *name == "eval") {
      error(nameArg.loc) << "eval: unknown function '" << *name << "'";
      return {};
    }
    if (isStatementBuiltin(*name)) {
      error(nameArg.loc) << "eval: '" << *name
                         << "' has no value; call it as a statement";
      return {};
    }
    // A builtin: call it on variables holding the evaluated arguments.
    std::vector<Argument> args;
    std::vector<std::string> temporaries;
    for (auto [index, argument] : llvm::enumerate(arguments)) {
      std::string temporary = "eval#" + std::to_string(index);
      env[temporary] = argument.second;
      temporaries.push_back(temporary);
      args.push_back(
          {argumentLocs[index], argument.first,
           std::make_unique<IdentifierExpr>(argumentLocs[index], temporary)});
    }
    auto builtinCall =
        std::make_unique<CallExpr>(call->getLoc(), *name, std::move(args));
    DValue result = genCall(builtinCall.get());
    for (const std::string &temporary : temporaries)
      env.erase(temporary);
    syntheticCalls.push_back(std::move(builtinCall));
    if (!result.isValid())
      return {};
    return {result};
  }

  // Bind to the parameters: positional in order, then named.
  const auto &parameters = function->parameters;
  std::vector<std::optional<DValue>> bound(parameters.size());
  std::vector<SMLoc> where(parameters.size(), call->getLoc());
  size_t position = 0;
  for (auto [index, argument] : llvm::enumerate(arguments)) {
    size_t slot;
    if (argument.first.empty()) {
      if (position >= parameters.size()) {
        error(argumentLocs[index])
            << "too many arguments for '" << *name << "' in eval: it takes "
            << parameters.size();
        return {};
      }
      slot = position++;
    } else {
      const std::string &argumentName = argument.first;
      auto it = llvm::find_if(parameters, [&](const Parameter &p) {
        return p.name == argumentName;
      });
      if (it == parameters.end()) {
        error(argumentLocs[index]) << "'" << *name << "' has no parameter '"
                                   << argumentName << "' (in eval)";
        return {};
      }
      slot = it - parameters.begin();
    }
    if (bound[slot]) {
      error(argumentLocs[index])
          << "parameter '" << parameters[slot].name << "' of '" << *name
          << "' is given twice (in eval)";
      return {};
    }
    bound[slot] = std::move(argument.second);
    where[slot] = argumentLocs[index];
  }
  if (resultNames)
    for (const Parameter &result : function->results)
      resultNames->push_back(result.name);
  std::vector<DValue> values;
  for (auto [index, parameter] : llvm::enumerate(parameters)) {
    if (bound[index]) {
      values.push_back(std::move(*bound[index]));
      continue;
    }
    if (!parameter.defaultValue) {
      error(call->getLoc()) << "'" << *name << "' is missing its argument '"
                            << parameter.name << "' (in eval)";
      return {};
    }
    values.push_back(gen(parameter.defaultValue.get()));
    if (!values.back().isValid())
      return {};
  }
  return callFunction(call, function, std::move(values), where);
}
