//===- Interprocedural.cpp - Specialize, inline and remove functions ------===//
//
// --amls-ipa: carries the sizes, sparsity and constant scalars known at call
// sites into the called functions (one specialization per distinct call
// signature), carries the inferred result types back to the callers, inlines
// small functions and removes the ones no longer called.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSInterfaces.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Analysis/CallGraph.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Transforms/Inliner.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSINTERPROCEDURAL
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// The value an `amls.cast` chain starts from: inference inserts casts where
/// a call or return needs the declared (less precise) type.
Value lookThroughCasts(Value value) {
  while (auto cast = value.getDefiningOp<CastOp>())
    value = cast.getInput();
  return value;
}

/// Erases the chain of `amls.cast` ending in `value` as far as it is unused.
void eraseDeadCasts(Value value) {
  while (auto cast = value.getDefiningOp<CastOp>()) {
    if (!cast->use_empty())
      return;
    value = cast.getInput();
    cast.erase();
  }
}

/// `value` as type `type`, through an `amls.cast` where they differ.
Value castTo(OpBuilder &builder, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return CastOp::create(builder, loc, type, value);
}

/// What the caller knows about a call's operands: per operand the type to
/// specialize the parameter to and, for scalars, a constant value (or null).
struct CallSignature {
  SmallVector<Type> types;
  SmallVector<Attribute> constants;

  static CallSignature get(func::FuncOp callee, ArrayRef<Type> operandTypes,
                           ArrayRef<Attribute> operandConstants) {
    CallSignature signature;
    for (auto [declared, type, constant] :
         llvm::zip(callee.getArgumentTypes(), operandTypes, operandConstants)) {
      bool isMatrix = isa<MatrixType>(declared);
      signature.types.push_back(isMatrix ? refineType(declared, type)
                                         : declared);
      signature.constants.push_back(
          !isMatrix && isa_and_nonnull<IntegerAttr, FloatAttr>(constant)
              ? constant
              : Attribute());
    }
    return signature;
  }

  /// A uniqued key: calls with equal keys share a specialization.
  Attribute getKey(func::FuncOp callee) const {
    SmallVector<Attribute> parts{FlatSymbolRefAttr::get(callee)};
    for (auto [type, constant] : llvm::zip(types, constants))
      parts.push_back(constant ? constant : TypeAttr::get(type));
    return ArrayAttr::get(callee.getContext(), parts);
  }
};

/// A callee specialized to one call signature.
struct Specialization {
  /// The clone; outside the module until the inference is done.
  func::FuncOp function;
  /// The name of the function it was cloned from.
  StringAttr origin;
  CallSignature signature;
};

/// Gives `func`'s results the inferred types of the values it returns.
void refineResultTypes(func::FuncOp func) {
  SmallVector<func::ReturnOp> returns;
  func.walk([&](func::ReturnOp op) { returns.push_back(op); });
  if (returns.empty())
    return;
  SmallVector<Type> resultTypes(func.getResultTypes());
  for (auto [i, declared] : llvm::enumerate(resultTypes)) {
    if (!isa<MatrixType>(declared))
      continue;
    Type joined;
    for (func::ReturnOp ret : returns) {
      Type type = lookThroughCasts(ret.getOperand(i)).getType();
      joined = joined ? joinTypes(joined, type) : type;
    }
    resultTypes[i] = refineType(declared, joined);
    for (func::ReturnOp ret : returns) {
      OpBuilder builder(ret);
      Value returned = ret.getOperand(i);
      ret->setOperand(i, castTo(builder, ret.getLoc(),
                                lookThroughCasts(returned), resultTypes[i]));
      eraseDeadCasts(returned);
    }
  }
  func.setFunctionType(FunctionType::get(func.getContext(),
                                         func.getArgumentTypes(), resultTypes));
}

/// Specializes `func` to `signature`: typed matrix parameters, constant
/// scalar parameters replaced by their values and removed.
void specialize(func::FuncOp func, const CallSignature &signature) {
  Block &entry = func.front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  llvm::BitVector constantArgs(entry.getNumArguments());
  for (auto [i, type, constant] :
       llvm::enumerate(signature.types, signature.constants)) {
    BlockArgument arg = entry.getArgument(i);
    if (constant) {
      arg.replaceAllUsesWith(arith::ConstantOp::create(
          builder, arg.getLoc(), arg.getType(), cast<TypedAttr>(constant)));
      constantArgs.set(i);
      continue;
    }
    refineValueType(arg, type);
  }
  func.setFunctionType(FunctionType::get(
      func.getContext(), entry.getArgumentTypes(), func.getResultTypes()));
  (void)func.eraseArguments(constantArgs);
}

struct InterproceduralPass
    : public amls::impl::AMLSInterproceduralBase<InterproceduralPass> {
  using AMLSInterproceduralBase::AMLSInterproceduralBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    AMLSInterproceduralBase::getDependentDialects(registry);
    // Inlining a function rewrites its func.return.
    func::registerInlinerExtension(registry);
  }
  void runOnOperation() override;

private:
  /// Functions with a body whose every symbol use is a `func.call` and that
  /// are not on a cycle of the call graph.
  SetVector<func::FuncOp> getAnalyzableFunctions();
  /// The calls of `func`, or nothing if it has uses other than calls.
  std::optional<SmallVector<func::CallOp>> getCalls(func::FuncOp func);
  /// Infers the module with every call specialized to its signature and
  /// redirects the calls to the specializations.
  LogicalResult specializeCalls();
  /// Replaces results that every return of the callee yields as the same
  /// constant scalar by that constant; true if any was used.
  bool propagateConstantResults();
  LogicalResult inlineSmallFunctions();
  /// Removes private functions that are no longer called (symbol-dce).
  LogicalResult removeDeadFunctions();

  static LogicalResult runPipelineHelper(Pass &pass, OpPassManager &pipeline,
                                         Operation *op) {
    return cast<InterproceduralPass>(pass).runPipeline(pipeline, op);
  }
};

} // namespace

std::optional<SmallVector<func::CallOp>>
InterproceduralPass::getCalls(func::FuncOp func) {
  SmallVector<func::CallOp> calls;
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(func, getOperation());
  if (!uses)
    return std::nullopt;
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (!call)
      return std::nullopt;
    calls.push_back(call);
  }
  return calls;
}

SetVector<func::FuncOp> InterproceduralPass::getAnalyzableFunctions() {
  ModuleOp module = getOperation();
  // Functions on a cycle of the call graph (recursion).
  CallGraph callGraph(module);
  DenseSet<Operation *> recursive;
  for (auto scc = llvm::scc_begin<const CallGraph *>(&callGraph);
       !scc.isAtEnd(); ++scc) {
    if (!scc.hasCycle())
      continue;
    for (const CallGraphNode *node : *scc)
      if (!node->isExternal())
        recursive.insert(node->getCallableRegion()->getParentOp());
  }
  SetVector<func::FuncOp> analyzable;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && getCalls(func) && !recursive.contains(func))
      analyzable.insert(func);
  return analyzable;
}

LogicalResult InterproceduralPass::specializeCalls() {
  ModuleOp module = getOperation();
  SetVector<func::FuncOp> analyzable = getAnalyzableFunctions();
  llvm::StringMap<func::FuncOp> functions;
  for (auto func : module.getOps<func::FuncOp>())
    functions[func.getSymName()] = func;

  llvm::MapVector<Attribute, Specialization> specializations;
  DenseMap<Operation *, Attribute> callKeys;
  // Inconsistencies inference finds in a specialization (e.g. a product
  // whose inner sizes differ for these arguments) are the program's errors.
  bool specializationFailed = false;
  PropertyInferenceOptions options;
  // The result types of a call are those of its callee inferred for the
  // call's signature, specialized once per signature. The solver asks again
  // whenever an operand's type changes (a value carried around a loop), so
  // a call ends up with the signature of the fixpoint.
  options.callResultTypes =
      [&](CallOpInterface callOp, ArrayRef<Type> operandTypes,
          ArrayRef<Attribute> constants) -> std::optional<SmallVector<Type>> {
    auto call = dyn_cast<func::CallOp>(callOp.getOperation());
    func::FuncOp callee =
        call ? functions.lookup(call.getCallee()) : func::FuncOp();
    if (!callee || !analyzable.contains(callee))
      return std::nullopt;
    CallSignature signature =
        CallSignature::get(callee, operandTypes, constants);
    Attribute key = signature.getKey(callee);
    callKeys[call] = key;
    if (!specializations.contains(key)) {
      func::FuncOp clone = callee.clone();
      clone.setPrivate();
      specialize(clone, signature);
      LogicalResult inferred = success();
      {
        // Errors in the callee's body point back at the call.
        ScopedDiagnosticHandler callStack(&getContext(), [&](Diagnostic &d) {
          if (d.getSeverity() == DiagnosticSeverity::Error)
            d.attachNote(call.getLoc())
                << "in @" << callee.getSymName()
                << " specialized to the arguments of this call";
          return failure();
        });
        inferred = inferMatrixProperties(clone, options);
      }
      if (failed(inferred)) {
        specializationFailed = true;
        clone.erase();
        return std::nullopt;
      }
      refineResultTypes(clone);
      specializations[key] = {clone, callee.getSymNameAttr(),
                              std::move(signature)};
    }
    return SmallVector<Type>(specializations[key].function.getResultTypes());
  };

  // Functions that are replaced by their specializations where called need
  // no inference of their own.
  for (auto func : llvm::to_vector(module.getOps<func::FuncOp>())) {
    if (func.isExternal() || (func.isPrivate() && analyzable.contains(func)))
      continue;
    if (failed(inferMatrixProperties(func, options)) || specializationFailed)
      return failure();
  }

  SymbolTable symbols(module);
  for (auto &[key, specialization] : specializations)
    symbols.insert(specialization.function,
                   std::next(functions[specialization.origin]->getIterator()));

  SmallVector<func::CallOp> calls;
  module.walk([&](func::CallOp call) { calls.push_back(call); });
  for (func::CallOp call : calls) {
    auto key = callKeys.find(call);
    if (key == callKeys.end())
      continue;
    Specialization &specialization = specializations[key->second];
    OpBuilder builder(call);
    SmallVector<Value> operands;
    for (auto [operand, type, constant] :
         llvm::zip(call.getOperands(), specialization.signature.types,
                   specialization.signature.constants)) {
      if (constant)
        continue;
      Value source =
          isa<MatrixType>(type) ? lookThroughCasts(operand) : operand;
      operands.push_back(castTo(builder, call.getLoc(), source, type));
    }
    call.setCallee(specialization.function.getSymName());
    call->setOperands(operands);
    builder.setInsertionPointAfter(call);
    for (auto [result, type] : llvm::zip(
             call.getResults(), specialization.function.getResultTypes())) {
      Type inferred = result.getType();
      if (inferred == type)
        continue;
      result.setType(type);
      auto cast = CastOp::create(builder, call.getLoc(), inferred, result);
      result.replaceAllUsesExcept(cast, cast);
    }
  }
  // Clones by origin, named: dead ones are erased next.
  llvm::StringMap<SmallVector<StringAttr>> clones;
  for (auto &[key, specialization] : specializations)
    clones[specialization.origin].push_back(
        specialization.function.getSymNameAttr());
  if (failed(removeDeadFunctions()))
    return failure();

  // A function whose calls all share one signature keeps its name.
  SymbolTable updated(module);
  for (auto &[origin, names] : clones) {
    SmallVector<Operation *> live;
    for (StringAttr name : names)
      if (Operation *clone = updated.lookup(name))
        live.push_back(clone);
    if (live.size() == 1 && !updated.lookup(origin))
      (void)updated.rename(live.front(), origin);
  }
  return success();
}

bool InterproceduralPass::propagateConstantResults() {
  ModuleOp module = getOperation();
  SymbolTable symbols(module);
  bool changed = false;
  module.walk([&](func::CallOp call) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee || callee.isExternal())
      return;
    SmallVector<func::ReturnOp> returns;
    callee.walk([&](func::ReturnOp op) { returns.push_back(op); });
    for (auto [i, result] : llvm::enumerate(call.getResults())) {
      if (result.use_empty() || isa<MatrixType>(result.getType()))
        continue;
      Attribute value;
      for (func::ReturnOp ret : returns) {
        Attribute constant;
        if (!matchPattern(ret.getOperand(i), m_Constant(&constant)) ||
            !isa<IntegerAttr, FloatAttr>(constant) ||
            (value && value != constant)) {
          value = nullptr;
          break;
        }
        value = constant;
      }
      if (!value)
        continue;
      OpBuilder builder(call);
      result.replaceAllUsesWith(arith::ConstantOp::create(
          builder, call.getLoc(), result.getType(), cast<TypedAttr>(value)));
      changed = true;
    }
  });
  return changed;
}

LogicalResult InterproceduralPass::inlineSmallFunctions() {
  if (inlineThreshold == 0)
    return success();
  SetVector<func::FuncOp> analyzable = getAnalyzableFunctions();
  // Only calls to the functions specialized above, and small ones; the
  // inliner goes bottom-up over the call graph, so a callee's own small
  // callees are inlined (and counted) first.
  auto isSmall = [&](const Inliner::ResolvedCall &resolved) {
    auto callee = dyn_cast<func::FuncOp>(
        resolved.targetNode->getCallableRegion()->getParentOp());
    if (!callee || !analyzable.contains(callee))
      return false;
    unsigned size = 0;
    callee.getBody().walk([&](Operation *) { ++size; });
    // The return does not count.
    return size - 1 <= inlineThreshold;
  };
  // No cleanup pipeline between inlinings: the optimizer runs its own.
  InlinerConfig config(/*defaultPipeline=*/nullptr,
                       /*maxInliningIterations=*/4);
  CallGraph &callGraph = getAnalysis<CallGraph>();
  Inliner inliner(getOperation(), callGraph, *this, getAnalysisManager(),
                  runPipelineHelper, config, isSmall);
  return inliner.doInlining();
}

LogicalResult InterproceduralPass::removeDeadFunctions() {
  OpPassManager pipeline(ModuleOp::getOperationName());
  pipeline.addPass(createSymbolDCEPass());
  return runPipeline(pipeline, getOperation());
}

void InterproceduralPass::runOnOperation() {
  // A constant returned by a callee can make the signature of a later call
  // more precise: specialize again until none is.
  for (unsigned round = 0; round < maxIterations; ++round) {
    if (failed(specializeCalls()))
      return signalPassFailure();
    if (!propagateConstantResults())
      break;
  }
  if (failed(inlineSmallFunctions()) || failed(removeDeadFunctions()))
    return signalPassFailure();
  // The callers' types after the last specialization or inlining.
  if (failed(inferMatrixProperties(getOperation(), {})))
    signalPassFailure();
}
