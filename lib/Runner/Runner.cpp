//===- Runner.cpp - Specialize, compile and run AMLS programs -------------===//

#include "AMLS/Runner/Runner.h"

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/ElementConversion.h"
#include "AMLS/Conversion/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Runtime/Runtime.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cmath>
#include <deque>
#include <mutex>

using namespace mlir;
using namespace mlir::amls;

//===----------------------------------------------------------------------===//
// Result sinks: compiled programs hand their results to the runner
//===----------------------------------------------------------------------===//

namespace {
/// Results of the running program. Runs are serialized (runMutex), so one
/// list serves every runner.
SmallVector<RuntimeValue> *currentResults = nullptr;
std::mutex runMutex;

RuntimeValue &resultSlot(int64_t index) {
  if (static_cast<int64_t>(currentResults->size()) <= index)
    currentResults->resize(index + 1);
  return (*currentResults)[index];
}
} // namespace

extern "C" void _mlir_ciface_amls_run_sink_matrix(int64_t index,
                                                  AmlsMatrixF64 *m) {
  runtime::Matrix copy;
  copy.rows = m->sizes[0];
  copy.cols = m->sizes[1];
  copy.data.resize(copy.rows * copy.cols);
  for (int64_t r = 0; r < copy.rows; ++r)
    for (int64_t c = 0; c < copy.cols; ++c)
      copy.at(r, c) =
          m->aligned[m->offset + r * m->strides[0] + c * m->strides[1]];
  resultSlot(index) = RuntimeValue::ofMatrix(std::move(copy));
}

extern "C" void amls_run_sink_float(int64_t index, double value) {
  resultSlot(index) = RuntimeValue::ofFloat(value);
}

extern "C" void amls_run_sink_integer(int64_t index, int64_t value) {
  resultSlot(index) = RuntimeValue::ofInteger(value);
}

RuntimeValue RuntimeValue::ofMatrix(runtime::Matrix matrix) {
  RuntimeValue value;
  value.kind = Kind::Matrix;
  value.matrix = std::move(matrix);
  return value;
}

RuntimeValue RuntimeValue::ofFloat(double number) {
  RuntimeValue value;
  value.kind = Kind::Float;
  value.number = number;
  return value;
}

RuntimeValue RuntimeValue::ofInteger(int64_t number) {
  RuntimeValue value;
  value.kind = Kind::Integer;
  value.number = static_cast<double>(number);
  return value;
}

void mlir::amls::registerRunnerDialects(DialectRegistry &registry) {
  // The lowering pipelines are spelled with pass names.
  static std::once_flag passes;
  std::call_once(passes, [] {
    registerAllPasses();
    registerAMLSPasses();
    registerAMLSConversionPasses();
    registerAMLSCodegenPasses();
  });
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<AMLSDialect>();
}

//===----------------------------------------------------------------------===//
// ProgramRunner
//===----------------------------------------------------------------------===//

ProgramRunner::ProgramRunner(OwningOpRef<ModuleOp> module,
                             RunnerOptions options)
    : program(std::move(module)), options(std::move(options)) {}

ProgramRunner::~ProgramRunner() = default;

FailureOr<std::unique_ptr<ProgramRunner>>
ProgramRunner::create(OwningOpRef<ModuleOp> module, RunnerOptions options) {
  auto entry = module->lookupSymbol<func::FuncOp>(options.entry);
  if (!entry || entry.isDeclaration()) {
    std::string names;
    module->walk([&](func::FuncOp f) {
      if (!f.isDeclaration())
        names += (names.empty() ? "" : ", ") + f.getSymName().str();
    });
    return module->emitError("no function '")
           << options.entry
           << "' to run; functions: " << (names.empty() ? "none" : names);
  }
  auto runner = std::unique_ptr<ProgramRunner>(
      new ProgramRunner(std::move(module), std::move(options)));
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes())) {
    std::string name = "arg" + std::to_string(i);
    if (auto attr = entry.getArgAttrOfType<StringAttr>(i, "amls.name"))
      name = attr.getValue().str();
    bool supported =
        isa<MatrixType, FloatType, IndexType>(type) || type.isSignlessInteger();
    if (!supported)
      return entry.emitError("parameter '")
             << name << "' has type " << type
             << ", which amls-run cannot bind (matrices and scalars only)";
    runner->parameters.push_back({name, type});
  }
  return runner;
}

std::optional<unsigned> ProgramRunner::findParameter(StringRef name) const {
  for (auto [i, parameter] : llvm::enumerate(parameters))
    if (parameter.name == name)
      return i;
  unsigned index;
  if (!name.getAsInteger(10, index) && index < parameters.size())
    return index;
  return std::nullopt;
}

/// Sparsity rounded to two significant digits: inputs of the same shape and
/// nearly the same density share compiled code.
static double roundedSparsity(const runtime::Matrix &m) {
  if (m.data.empty())
    return 0.0;
  int64_t nonZeros = 0;
  for (double v : m.data)
    nonZeros += v != 0.0;
  double s = static_cast<double>(nonZeros) / m.data.size();
  if (s == 0.0 || s == 1.0)
    return s;
  double scale = std::pow(10.0, 1 - std::floor(std::log10(s)));
  return std::min(1.0, std::round(s * scale) / scale);
}

/// The type a parameter gets for a concrete argument.
static FailureOr<Type> specializedType(Location loc, StringRef name,
                                       Type declared, const RuntimeValue &arg) {
  auto matrixType = dyn_cast<MatrixType>(declared);
  bool isMatrix = arg.kind == RuntimeValue::Kind::Matrix;
  if (static_cast<bool>(matrixType) != isMatrix)
    return emitError(loc, "parameter '")
           << name << "' is declared " << declared << " but was given a "
           << (isMatrix ? "matrix" : "scalar");
  if (!matrixType)
    return declared;
  // Files hold numbers; an integer matrix must get integers.
  if (matrixType.getElementType().isInteger(64)) {
    for (auto [i, value] : llvm::enumerate(arg.matrix.data)) {
      if (value == std::trunc(value) && std::abs(value) < 0x1p63)
        continue;
      std::string text;
      llvm::raw_string_ostream(text) << llvm::format("%.17g", value);
      return emitError(loc, "parameter '")
             << name << "' is declared " << declared << " but the input has "
             << text << " at row " << i / arg.matrix.cols + 1 << ", column "
             << i % arg.matrix.cols + 1 << " (expected an integer)";
    }
  }
  auto exact =
      MatrixType::get(arg.matrix.rows, arg.matrix.cols,
                      matrixType.getElementType(), roundedSparsity(arg.matrix));
  if (!areCompatibleMatrixTypes(matrixType, exact))
    return emitError(loc, "parameter '")
           << name << "' is declared " << declared << " but the input is "
           << arg.matrix.rows << "x" << arg.matrix.cols;
  return Type(exact);
}

using Clock = std::chrono::steady_clock;
static double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

FailureOr<ExecutionEngine *>
ProgramRunner::compile(ArrayRef<RuntimeValue> args) {
  auto start = Clock::now();
  OwningOpRef<ModuleOp> module = program->clone();
  auto entry = module->lookupSymbol<func::FuncOp>(options.entry);

  // Specialize the entry's parameters to the arguments.
  SmallVector<Type> types;
  std::string signature;
  llvm::raw_string_ostream key(signature);
  for (auto [parameter, arg, blockArg] :
       llvm::zip(parameters, args, entry.getArguments())) {
    FailureOr<Type> type =
        specializedType(entry.getLoc(), parameter.name, parameter.type, arg);
    if (failed(type))
      return failure();
    refineValueType(blockArg, *type);
    types.push_back(*type);
    key << *type << ";";
  }
  entry.setFunctionType(
      FunctionType::get(entry.getContext(), types, entry.getResultTypes()));
  // Parameter names are for binding only.
  for (unsigned i = 0; i < entry.getNumArguments(); ++i)
    entry.removeArgAttr(i, StringAttr::get(entry.getContext(), "amls.name"));

  auto cached = cache.find(signature);
  if (cached != cache.end()) {
    lastTimes = {};
    return cached->second.get();
  }

  CompileOptions compile;
  compile.rewrites = options.rewrites;
  compile.fusion = options.fusion;
  compile.fusionExplain = options.fusionExplain;
  compile.wrapEntry = options.entry;
  compile.threads = options.threads;
  compile.blas = options.blas;
  std::string problem = checkCompileOptions(compile);
  if (!problem.empty())
    return module->emitError(problem);
  // The two stages of the end-to-end compile, timed apart.
  PassManager optimize(module->getContext());
  if (options.printIRAfterAll) {
    module->getContext()->disableMultithreading();
    optimize.enableIRPrinting();
  }
  if (options.passStatistics)
    optimize.enableStatistics();
  buildCompileToLinalgPipeline(optimize, compile);
  if (failed(optimize.run(*module)))
    return failure();
  lastTimes.optimize = millisecondsSince(start);

  start = Clock::now();
  PassManager lower(module->getContext());
  if (options.printIRAfterAll)
    lower.enableIRPrinting();
  if (options.passStatistics)
    lower.enableStatistics();
  buildCompileToLLVMPipeline(lower, compile);
  if (failed(lower.run(*module)))
    return failure();

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
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = makeOptimizingTransformer(
      /*optLevel=*/3, /*sizeLevel=*/0, targetMachine->get());
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(*module, engineOptions,
                                        std::move(*targetMachine));
  if (!engine) {
    std::string message = llvm::toString(engine.takeError());
    return module->emitError("JIT compilation failed: ") << message;
  }
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto add = [&](StringRef name, void *address) {
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    };
    add(("_mlir_ciface_" + getRuntimeFunctionName(RuntimeFunction::SinkMatrix))
            .str(),
        reinterpret_cast<void *>(&_mlir_ciface_amls_run_sink_matrix));
    add(getRuntimeFunctionName(RuntimeFunction::SinkFloat),
        reinterpret_cast<void *>(&amls_run_sink_float));
    add(getRuntimeFunctionName(RuntimeFunction::SinkInteger),
        reinterpret_cast<void *>(&amls_run_sink_integer));
    return symbols;
  });
  lastTimes.compile = millisecondsSince(start);
  lastTimes.compiled = true;
  ++numCompilations;
  ExecutionEngine *result = engine->get();
  cache[signature] = std::move(*engine);
  return result;
}

FailureOr<SmallVector<RuntimeValue>>
ProgramRunner::run(ArrayRef<RuntimeValue> args) {
  if (args.size() != parameters.size())
    return program->emitError("expected ")
           << parameters.size() << " arguments, found " << args.size();
  std::lock_guard<std::mutex> lock(runMutex);
  amls_rt_set_num_threads(static_cast<int32_t>(options.threads));
  FailureOr<ExecutionEngine *> engine = compile(args);
  if (failed(engine))
    return failure();

  // Arguments of the packed C interface: a pointer to each argument (for a
  // matrix, a pointer to a pointer to its memref descriptor).
  std::deque<AmlsMatrixF64> descriptors;
  std::deque<AmlsMatrixF64 *> descriptorPointers;
  std::deque<int64_t> integers;
  std::deque<double> floats;
  std::deque<float> singles;
  std::deque<bool> booleans;
  SmallVector<void *> packed;
  for (auto [parameter, arg] : llvm::zip(parameters, args)) {
    if (arg.kind == RuntimeValue::Kind::Matrix) {
      auto *data = const_cast<double *>(arg.matrix.data.data());
      descriptors.push_back({data,
                             data,
                             0,
                             {arg.matrix.rows, arg.matrix.cols},
                             {arg.matrix.cols, 1}});
      descriptorPointers.push_back(&descriptors.back());
      packed.push_back(&descriptorPointers.back());
    } else if (parameter.type.isF64()) {
      floats.push_back(arg.number);
      packed.push_back(&floats.back());
    } else if (parameter.type.isF32()) {
      singles.push_back(static_cast<float>(arg.number));
      packed.push_back(&singles.back());
    } else if (parameter.type.isInteger(1)) {
      booleans.push_back(arg.number != 0.0);
      packed.push_back(&booleans.back());
    } else {
      integers.push_back(static_cast<int64_t>(arg.number));
      packed.push_back(&integers.back());
    }
  }

  SmallVector<RuntimeValue> results;
  currentResults = &results;
  auto start = Clock::now();
  llvm::Error error = (*engine)->invokePacked(
      (Twine("_mlir_ciface_") + kEntryWrapperName).str(), packed);
  lastTimes.execute = millisecondsSince(start);
  currentResults = nullptr;
  if (error) {
    std::string message = llvm::toString(std::move(error));
    return program->emitError("running the program failed: ") << message;
  }
  return results;
}
