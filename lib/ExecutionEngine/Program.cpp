//===- Program.cpp - Specialize, compile and run one program --------------===//
//
// A run specializes the entry to its arguments (Specialization.h), compiles
// the specialization unless the cache has it (optimize to linalg, lower for
// the session's target, JIT-compile with MLIR's ExecutionEngine), and calls
// amls_main with the arguments packed as it takes them (Boundary.h).
//
//===----------------------------------------------------------------------===//

#include "Boundary.h"
#include "Specialization.h"

#include "AMLS/Conversion/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSInterfaces.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/ExecutionEngine/Session.h"
#include "AMLS/ExecutionEngine/TargetExecution.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Pipelines/Target.h"
#include "AMLS/Runtime/Compressed.h"
#include "AMLS/Runtime/Context.h"
#include "AMLS/Runtime/Failure.h"
#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cstring>
#include <functional>

using namespace mlir;
using namespace mlir::amls;

namespace mlir::amls {
/// One specialization of a program, ready to run.
struct CompiledProgram {
  std::unique_ptr<ExecutionEngine> engine;
  /// The entry wrapper's packed interface, looked up when compiling: the
  /// lookup generates the machine code, which the compile time counts.
  void (*entry)(void **) = nullptr;
  /// The kinds of the entry's results (which matrices it returns CSR).
  SmallVector<ResultKind> resultKinds;
  /// The optimized plan as a Graphviz graph (writePlanGraph).
  std::string planGraph;
};
} // namespace mlir::amls

using Clock = std::chrono::steady_clock;
static double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

Program::Program(Session &session, OwningOpRef<ModuleOp> module,
                 StringRef entry)
    : session(session), program(std::move(module)), entryName(entry) {}

Program::~Program() = default;

std::optional<unsigned> Program::findParameter(StringRef name) const {
  for (auto [i, parameter] : llvm::enumerate(parameters))
    if (parameter.name == name)
      return i;
  unsigned index;
  if (!name.getAsInteger(10, index) && index < parameters.size())
    return index;
  return std::nullopt;
}

/// The whole matrices of the row blocks `rowBlocks` of `args`, which the
/// processes of the session's target agree on, as their parameters' types
/// in `types` (the blocks' until now). Failure (on every process alike)
/// when a process rejected its arguments (`rejected`: this one did, and
/// said why), the target does not split matrices, or the blocks are not
/// the split its code takes.
LogicalResult Program::specializeRowBlocks(ArrayRef<RuntimeValue> args,
                                             ArrayRef<unsigned> rowBlocks,
                                             bool rejected,
                                             MutableArrayRef<Type> types) {
  auto declared = program->lookupSymbol<func::FuncOp>(entryName);
  const std::string &targetName = session.options.target;
  const Target *target = lookupTarget(targetName);
  const TargetExecution *execution = session.execution;
  if (!target || !target->partitionsRows() || !execution) {
    if (rejected)
      return failure();
    return declared.emitError("parameter '")
           << parameters[rowBlocks.front()].name
           << "' was given a block of rows, which only a target that splits "
              "matrices over processes takes (target 'mpi'); this session's "
              "target is '"
           << targetName << "'";
  }
  SmallVector<RowBlockShape> blocks;
  for (unsigned i : rowBlocks) {
    RowBlockShape &block = blocks.emplace_back();
    block.name = parameters[i].name;
    block.rows = args[i].getMatrix().getRows();
    block.cols = args[i].getMatrix().getCols();
    block.accepted = !rejected;
    block.csr = args[i].getMatrix().isCSR();
    if (auto matrix = dyn_cast<MatrixType>(types[i]))
      block.nonZeros = matrix.getSparsity().value_or(1.0) *
                       static_cast<double>(block.rows) * block.cols;
  }
  std::string problem = execution->combineRowBlocks(blocks);
  if (rejected)
    return failure();
  if (!problem.empty())
    return declared.emitError(problem);
  for (auto [i, block] : llvm::zip(rowBlocks, blocks)) {
    auto local = cast<MatrixType>(types[i]);
    double cells = static_cast<double>(block.wholeRows) * block.cols;
    auto whole = MatrixType::get(block.wholeRows, block.cols,
                                 local.getElementType(),
                                 roundSparsity(cells > 0
                                                   ? block.wholeNonZeros / cells
                                                   : 0.0))
                     .withFormat(local.getFormat());
    if (!areCompatibleMatrixTypes(parameters[i].type, whole))
      return declared.emitError("parameter '")
             << parameters[i].name << "' is declared " << parameters[i].type
             << " but its row blocks make a " << block.wholeRows << "x"
             << block.cols << " matrix";
    types[i] = whole;
  }
  return success();
}

/// The MNC sketch of an argument the specialization typed `type`, or null:
/// a row block (a part of the matrix), a transposed or strided view, a
/// non-f64 dense matrix and one without zeros (whose type says as much)
/// have none.
static MNCSketchRef sketchArgument(const RuntimeValue &arg, Type type,
                                   bool transposed, unsigned threads) {
  auto matrixType = dyn_cast<MatrixType>(type);
  if (!arg.isMatrix() || arg.isRowBlock() || transposed || !matrixType)
    return nullptr;
  const AmlsMatrixRef &ref = arg.getMatrix().getRef();
  if (arg.getMatrix().isCSR())
    return std::make_shared<const MNCSketch>(
        MNCSketch::fromCSR(ref.rows, ref.cols, ref.row_offsets,
                           ref.column_indices, /*extended=*/true, threads));
  std::optional<double> sparsity = matrixType.getSparsity();
  if (!sparsity || *sparsity >= 1.0 || ref.element_type != AMLS_ELEMENT_F64 ||
      ref.strides[1] != 1 || ref.rows * ref.cols == 0)
    return nullptr;
  return std::make_shared<const MNCSketch>(
      MNCSketch::fromDense(ref.rows, ref.cols,
                           static_cast<const double *>(ref.data),
                           ref.strides[0]));
}

/// Whether a whole dense f64 argument of at least a million cells, stored
/// row-major, looks compressible (compressed::looksCompressible: a look at
/// 1,024 of its rows). Like a sketch, the first call's data decides for
/// the signature's plan, which stays correct for any data (the run's plan
/// keeps a matrix that does not compress as one uncompressed group).
static bool looksCompressible(const RuntimeValue &arg, Type type,
                              bool transposed) {
  auto matrixType = dyn_cast<MatrixType>(type);
  if (!arg.isMatrix() || arg.isRowBlock() || transposed || !matrixType ||
      arg.getMatrix().isCSR())
    return false;
  const AmlsMatrixRef &ref = arg.getMatrix().getRef();
  if (ref.element_type != AMLS_ELEMENT_F64 || ref.strides[1] != 1 ||
      ref.rows * ref.cols < (int64_t(1) << 20))
    return false;
  return runtime::compressed::looksCompressible(
      runtime::compressed::Source::dense(ref.rows, ref.cols,
                                         static_cast<const double *>(ref.data),
                                         ref.strides[0]));
}

FailureOr<CompiledProgram *> Program::compile(ArrayRef<RuntimeValue> args,
                                              PhaseTimes &times) {
  const SessionOptions &options = session.options;
  auto start = Clock::now();

  // The entry's parameter types for these arguments, which key the cache:
  // a cached run clones and compiles nothing (a caller calling a compiled
  // function in a loop pays for this loop only).
  auto declared = program->lookupSymbol<func::FuncOp>(entryName);
  SmallVector<Type> exactTypes;
  SmallVector<bool> transposed;
  SmallVector<int64_t> lineOffsets;
  SmallVector<unsigned> rowBlocks;
  for (auto [i, arg] : llvm::enumerate(args))
    if (arg.isRowBlock())
      rowBlocks.push_back(i);
  // A row block is specialized as a block (any row count); once the
  // processes agree on the whole matrix, as that. With row blocks, a
  // rejected argument still joins that agreement, so that no process
  // waits for one that gave up.
  bool rejected = false;
  // Where the processes of a target run each program together, they must
  // compile the same code: no argument's line offset, which differs by
  // process (and changes how reductions are split, so their rounding).
  const Target *target = lookupTarget(options.target);
  bool compiledAlike = target && target->partitionsRows();
  for (auto [parameter, arg] : llvm::zip(parameters, args)) {
    Type declaredType = parameter.type;
    if (auto matrix = dyn_cast<MatrixType>(declaredType);
        matrix && arg.isRowBlock())
      declaredType = matrix.withShape(ShapedType::kDynamic, matrix.getCols());
    FailureOr<Type> type =
        specializedType(declared.getLoc(), parameter.name, declaredType, arg);
    if (failed(type)) {
      if (rowBlocks.empty())
        return failure();
      rejected = true;
      type = declaredType;
    }
    exactTypes.push_back(*type);
    transposed.push_back(passesTransposed(parameter.type, arg));
    lineOffsets.push_back(
        transposed.back() || compiledAlike
            ? 0
            : lineOffsetOf(parameter.type, arg,
                           /*copied=*/session.copiesInputs()));
  }
  if (!rowBlocks.empty())
    if (failed(specializeRowBlocks(args, rowBlocks, rejected, exactTypes)))
      return failure();
  std::string signature;
  llvm::raw_string_ostream key(signature);
  for (auto [type, isTransposed, arg] :
       llvm::zip(exactTypes, transposed, args))
    // Not the line offset: code compiled for one offset is right for any
    // (only its loads straddle lines), and heap arrays come at several
    // offsets, each of which would otherwise be a compilation.
    key << type
        << (isTransposed ? " transposed;"
                         : (arg.isRowBlock() ? " row blocks;" : ";"));
  auto cached = cache.find(signature);
  if (cached != cache.end()) {
    ++session.statistics.cacheHits;
    return cached->second.get();
  }

  // Specialize the entry's parameters to the arguments.
  OwningOpRef<ModuleOp> module = program->clone();
  auto entry = module->lookupSymbol<func::FuncOp>(entryName);
  SmallVector<Type> types;
  for (auto [type, isTransposed, blockArg] :
       llvm::zip(exactTypes, transposed, entry.getArguments())) {
    refineValueType(blockArg, type);
    if (isTransposed) {
      // The caller's column-major cells are the row-major cells of the
      // transpose: the entry takes that and transposes it back.
      auto matrix = cast<MatrixType>(type);
      auto stored =
          MatrixType::get(matrix.getCols(), matrix.getRows(),
                          matrix.getElementType(), matrix.getSparsity());
      blockArg.setType(stored);
      OpBuilder b = OpBuilder::atBlockBegin(&entry.getBody().front());
      auto transpose =
          TransposeOp::create(b, blockArg.getLoc(), matrix, blockArg);
      blockArg.replaceAllUsesExcept(transpose, transpose);
      types.push_back(stored);
      continue;
    }
    types.push_back(type);
  }
  entry.setFunctionType(
      FunctionType::get(entry.getContext(), types, entry.getResultTypes()));
  for (unsigned i : rowBlocks)
    entry.setArgAttr(i, AMLSDialect::getRowPartitionedAttrName(),
                     UnitAttr::get(entry.getContext()));
  // The MNC sketch of each whole matrix argument with zeros (CSR, or dense
  // row-major f64 whose specialized sparsity is below 1), built once per
  // compiled signature: the first call's structure shapes the plan that
  // later calls with the same types share (a plan choice, never a result).
  if (options.sparsityEstimator == "mnc")
    for (auto [i, arg, type] : llvm::enumerate(args, exactTypes)) {
      if (auto sketch =
              sketchArgument(arg, type, transposed[i], options.threads))
        entry.setArgAttr(i, AMLSDialect::getMNCSketchAttrName(),
                         MNCSketchAttr::get(entry.getContext(), sketch));
    }
  // --formats=auto compresses the large dense arguments whose data looks
  // compressible where a loop multiplies them (--amls-select-compression's
  // only-compressible mode); the others keep their dense path untouched.
  if (options.formats == "auto")
    for (auto [i, arg, type] : llvm::enumerate(args, exactTypes))
      if (looksCompressible(arg, type, transposed[i]))
        entry.setArgAttr(i, AMLSDialect::getCompressibleAttrName(),
                         UnitAttr::get(entry.getContext()));
  for (auto [i, offset] : llvm::enumerate(lineOffsets))
    if (offset)
      entry.setArgAttr(
          i, AMLSDialect::getLineOffsetAttrName(),
          IntegerAttr::get(IntegerType::get(entry.getContext(), 64), offset));
  // The device's chip, once the process is ready for it.
  SessionOptions ready = options;
  if (std::string why = prepareTarget(ready); !why.empty())
    return module->emitError(why);
  CompileOptions compile;
  ready.toCompileOptions(compile);
  compile.memoryLimit = session.runtimeContext->getMemoryLimit();
  compile.wrapEntry = entryName;
  std::string problem = checkCompileOptions(compile);
  if (!problem.empty())
    return module->emitError(problem);
  // The two stages of the end-to-end compile, timed apart.
  if (options.printIRAfterAll)
    module->getContext()->disableMultithreading();
  auto instrument = [&](PassManager &pm) {
    if (options.printIRAfterAll)
      pm.enableIRPrinting();
    // An LLVM built without statistics (NDEBUG, the distributions' builds)
    // counts nothing: its reports would be empty.
    if (options.passStatistics && LLVM_ENABLE_STATS)
      pm.enableStatistics();
  };
  PassManager plan(module->getContext());
  instrument(plan);
  buildCompileToPlanPipeline(plan, compile);
  if (failed(plan.run(*module)))
    return failure();
  // The plan's picture, drawn with the parameters' names.
  std::string planGraph;
  {
    llvm::raw_string_ostream os(planGraph);
    writePlanGraph(*module, os);
  }
  // Parameter and result names and boolean marks are for binding only (and
  // sketches and compressible marks for the plan only), in
  // every function of the module (the LLVM lowering would carry them to
  // the parameters of the C interface, and LLVM IR export warns about
  // them: "Unhandled parameter attribute 'amls.name'").
  for (StringRef name :
       {AMLSDialect::getNameAttrName(), AMLSDialect::getBooleanAttrName(),
        AMLSDialect::getMNCSketchAttrName(),
        AMLSDialect::getCompressibleAttrName()}) {
    StringAttr attr = StringAttr::get(module->getContext(), name);
    module->walk([&](func::FuncOp function) {
      for (unsigned i = 0; i < function.getNumArguments(); ++i)
        function.removeArgAttr(i, attr);
      for (unsigned i = 0; i < function.getNumResults(); ++i)
        function.removeResultAttr(i, attr);
    });
  }

  PassManager toLinalg(module->getContext());
  instrument(toLinalg);
  buildPlanToLinalgPipeline(toLinalg, compile);
  if (failed(toLinalg.run(*module)))
    return failure();
  times.optimize = millisecondsSince(start);
  std::optional<SmallVector<ResultKind>> resultKinds;
  if (auto wrapper = module->lookupSymbol<func::FuncOp>(kEntryWrapperName)) {
    resultKinds = getResultKinds(wrapper);
    // Read here, and of no use to the LLVM lowering.
    wrapper->removeAttr(AMLSDialect::getResultKindsAttrName());
  }
  if (!resultKinds || resultKinds->size() != resultTypes.size())
    return module->emitError("the compiled entry returns values the "
                             "execution session cannot read");

  start = Clock::now();
  PassManager lower(module->getContext());
  instrument(lower);
  buildCompileToLLVMPipeline(lower, compile);
  if (failed(lower.run(*module)))
    return failure();
  // Each kernel is outlined into a module of its own, serialized into one
  // gpu.binary.
  module->walk([&](gpu::BinaryOp) { ++session.statistics.gpuKernels; });

  static std::once_flag nativeTarget;
  std::call_once(nativeTarget, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  // The optimizer must see the host CPU: without a target machine LLVM's
  // cost model assumes no vector registers and the loop vectorizer does
  // nothing.
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder) {
    std::string message = llvm::toString(machineBuilder.takeError());
    return module->emitError("cannot target the host CPU: ") << message;
  }
  machineBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto targetMachine = machineBuilder->createTargetMachine();
  if (!targetMachine) {
    std::string message = llvm::toString(targetMachine.takeError());
    return module->emitError("cannot target the host CPU: ") << message;
  }
  // The options hold a function_ref: the transformer must outlive create()
  // (a temporary here was a stack-use-after-scope, found by ASan).
  // LLVM's O2: O3 took 1.5-3x as long on the library's large functions
  // (its loop passes on fully unrolled small loops), and ran them no
  // faster beyond the noise (docs/performance.md, "LLVM O2 for the JIT").
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0,
                                targetMachine->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(*module, engineOptions,
                                        std::move(*targetMachine));
  if (!engine) {
    std::string message = llvm::toString(engine.takeError());
    return module->emitError("JIT compilation failed: ") << message;
  }
  auto entryFunction = (*engine)->lookupPacked(
      (Twine("_mlir_ciface_") + kEntryWrapperName).str());
  if (!entryFunction) {
    std::string message = llvm::toString(entryFunction.takeError());
    return module->emitError("JIT compilation failed: ") << message;
  }
  times.compile = millisecondsSince(start);
  times.compiled = true;
  ++session.statistics.compilations;
  auto compiled = std::make_unique<CompiledProgram>();
  compiled->engine = std::move(*engine);
  compiled->entry = *entryFunction;
  compiled->resultKinds = std::move(*resultKinds);
  compiled->planGraph = std::move(planGraph);
  CompiledProgram *result = compiled.get();
  cache[signature] = std::move(compiled);
  return result;
}

FailureOr<std::string> Program::explainPlan(ArrayRef<RuntimeValue> args) {
  std::lock_guard<std::mutex> lock(session.mutex);
  if (args.size() != parameters.size())
    return program->emitError("expected ")
           << parameters.size() << " arguments, found " << args.size();
  runtime::ScopedContext installed(session.runtimeContext);
  PhaseTimes times;
  FailureOr<CompiledProgram *> compiled = compile(args, times);
  if (failed(compiled))
    return failure();
  return (*compiled)->planGraph;
}

FailureOr<RunResult> Program::run(ArrayRef<RuntimeValue> args) {
  std::lock_guard<std::mutex> lock(session.mutex);
  if (args.size() != parameters.size())
    return program->emitError("expected ")
           << parameters.size() << " arguments, found " << args.size();
  ++session.statistics.runs;
  // The runtime works for this session until the run returns: its budget,
  // its account and its thread count.
  runtime::ScopedContext installed(session.runtimeContext);
  amls_rt_set_num_threads(static_cast<int32_t>(session.options.threads));
  RunResult result;
  FailureOr<CompiledProgram *> compiled = compile(args, result.times);
  if (failed(compiled))
    return failure();

  // On a target that does not read the caller's memory (a device's), each
  // input is copied into the runtime's pool for the run, and counted.
  SmallVector<void *> placedInputs;
  llvm::scope_exit releasePlacedInputs([&] {
    for (void *buffer : placedInputs)
      runtime::memory::release(buffer);
  });
  auto placeInput = [&](const void *from, uint64_t bytes) -> void * {
    void *to = runtime::memory::allocate(std::max<uint64_t>(bytes, 1));
    if (bytes)
      std::memcpy(to, from, bytes);
    placedInputs.push_back(to);
    ++session.statistics.inputCopies;
    session.statistics.inputCopyBytes += bytes;
    return to;
  };
  PackedArguments packed(
      session.copiesInputs()
          ? llvm::function_ref<void *(const void *, uint64_t)>(placeInput)
          : nullptr);
  for (auto [parameter, arg] : llvm::zip(parameters, args))
    packed.add(parameter.type, arg);
  session.statistics.inputLayoutCopies += packed.getLayoutCopies();
  session.statistics.inputLayoutCopyBytes += packed.getLayoutCopyBytes();
  ResultLayout layout((*compiled)->resultKinds);
  SmallVector<int64_t> resultWords;
  packed.addResults(layout, resultWords);

  struct Call {
    void (*entry)(void **);
    void **arguments;
  } call{(*compiled)->entry, packed.data()};
  auto invoke = [](void *context) {
    auto *call = static_cast<Call *>(context);
    call->entry(call->arguments);
  };
  auto start = Clock::now();
  std::string failure;
  bool completed = true;
  if (session.options.returnRunFailures)
    completed = ::amls::runtime::runTrappingFailures(invoke, &call, failure);
  else
    invoke(&call);
  result.times.execute = millisecondsSince(start);
  if (!completed) {
    ++session.statistics.failedRuns;
    return program->emitError("the program failed while it ran: ") << failure;
  }
  result.values = decodeResults(layout, resultWords);
  return result;
}
