//===- Session.cpp - A session's programs, options and runtime context ----===//
//
// The session's front door: loading a DML script or AMLS IR into its context
// with diagnostics that speak the program's language, checking its options
// once for every tool and binding, and preparing its target. Programs are
// specialized, compiled and run in Program.cpp.
//
//===----------------------------------------------------------------------===//

#include "AMLS/ExecutionEngine/Session.h"
#include "AMLS/ExecutionEngine/TargetExecution.h"

#include "AMLS/Conversion/AMLSToLinalg/AMLSToLinalg.h"
#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Frontend/DML/Diagnostics.h"
#include "AMLS/Frontend/DML/ImportDML.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Runtime/Context.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::amls;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

void SessionOptions::toCompileOptions(CompileOptions &compile) const {
  compile.rewrites = rewrites;
  compile.fusion = fusion;
  compile.fusionExplain = fusionExplain;
  compile.formats = formats;
  compile.formatsExplain = formatsExplain;
  compile.formatsActualNnz = formatsActualNnz;
  compile.sparsityEstimator = sparsityEstimator;
  compile.csrResults = csrResults;
  compile.parforExplain = parforExplain;
  compile.sums = sums;
  compile.memoryLimit = memoryLimit;
  compile.threads = threads;
  compile.blas = blas;
  compile.target = target;
  compile.distributeMinCells = distributeMinCells;
  compile.distributeExplain = distributeExplain;
  compile.gpuChip = gpuChip;
  compile.gpuFormat = gpuFormat;
  compile.gpuMinWork = gpuMinWork;
}

std::string mlir::amls::prepareTarget(SessionOptions &options) {
  const Target *target = lookupTarget(options.target);
  if (!target)
    return "expected target " + listTargetNames() + ", found '" +
           options.target + "'";
  if (target->getDeviceRuntime().empty())
    return "";
  const TargetExecution *execution = getTargetExecution(*target);
  if (!execution)
    return "--target=" + options.target + ": this AMLS has no '" +
           target->getDeviceRuntime().str() + "' runtime";
  return execution->prepare(options);
}

SessionOptionsProblem mlir::amls::checkSessionOptions(SessionOptions &options) {
  using Kind = SessionOptionsProblem::Kind;
  auto invalid = [](std::string problem) {
    return SessionOptionsProblem{
        problem.empty() ? Kind::None : Kind::InvalidOption, problem};
  };
  StringRef blas = options.blas;
  if (blas != "auto" && blas != "always" && blas != "never")
    return invalid("expected blas 'auto', 'always' or 'never', found '" +
                   options.blas + "'");
  // The options are checked before the target is prepared, so that a wrong
  // one reads as such on a machine without the device; but a device
  // target's chip is the device's unless one is named, and then they are
  // checked once it is known.
  const Target *target = lookupTarget(options.target);
  bool chipFromDevice =
      target && !target->getDeviceRuntime().empty() && options.gpuChip.empty();
  CompileOptions compile;
  options.toCompileOptions(compile);
  if (!chipFromDevice)
    if (SessionOptionsProblem problem = invalid(checkCompileOptions(compile)))
      return problem;
  if (std::string problem = prepareTarget(options); !problem.empty())
    return {Kind::TargetUnavailable, problem};
  if (!chipFromDevice)
    return {};
  options.toCompileOptions(compile);
  return invalid(checkCompileOptions(compile));
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

SessionDiagnostics::SessionDiagnostics(Session &session, llvm::raw_ostream &os,
                                       Language language) {
  MLIRContext *context = &session.getContext();
  // A DML script's errors speak DML (no IR op names or dumps).
  if (language == Language::DML)
    dmlHandler = std::make_unique<dml::DMLDiagnosticHandler>(session.sources,
                                                             context, os);
  else
    irHandler = std::make_unique<SourceMgrDiagnosticHandler>(session.sources,
                                                             context, os);
}

SessionDiagnostics::~SessionDiagnostics() = default;

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

Session::Session(SessionOptions options)
    : options(std::move(options)), runtimeContext(runtime::Context::create()) {
  DialectRegistry registry;
  registerPipelineDialects(registry);
  context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  runtimeContext->setMemoryLimit(this->options.memoryLimit);
  runtimeContext->setThreads(static_cast<int32_t>(this->options.threads));
  // Asked on every run: looked up once.
  const Target *target = lookupTarget(this->options.target);
  execution = target ? getTargetExecution(*target) : nullptr;
  inputsCopied = execution && !execution->readsInputsInPlace();
}

std::pair<int64_t, int64_t> Session::getProcessRank() const {
  return execution ? execution->getProcessRank()
                   : std::pair<int64_t, int64_t>(0, 1);
}

std::pair<int64_t, int64_t> Session::getRowBlock(int64_t rows) const {
  return execution ? execution->getRowBlock(rows)
                   : std::pair<int64_t, int64_t>(0, rows);
}

Session::~Session() {
  programs.clear();
  runtimeContext->release();
}

SessionStatistics Session::getStatistics() const {
  std::lock_guard<std::mutex> lock(mutex);
  SessionStatistics result = statistics;
  runtime::memory::Statistics memory = runtimeContext->getMemoryStatistics();
  result.memoryLimit = runtimeContext->getMemoryLimit();
  result.liveBytes = memory.liveBytes;
  result.peakLiveBytes = memory.peakLiveBytes;
  result.allocations = memory.allocations;
  result.bytesAllocated = memory.bytesAllocated;
  result.runtimeThreads = runtimeContext->getThreads();
  return result;
}

FailureOr<Program *> Session::load(OwningOpRef<ModuleOp> module,
                                   StringRef entryName) {
  std::lock_guard<std::mutex> lock(mutex);
  if (module->getContext() != context.get())
    return module->emitError(
        "the program was built in another context than the session's");
  auto entry = module->lookupSymbol<func::FuncOp>(entryName);
  if (!entry || entry.isDeclaration()) {
    std::string names;
    module->walk([&](func::FuncOp f) {
      if (!f.isDeclaration())
        names += (names.empty() ? "" : ", ") + f.getSymName().str();
    });
    return module->emitError("no function '")
           << entryName
           << "' to run; functions: " << (names.empty() ? "none" : names);
  }
  std::unique_ptr<Program> program(
      new Program(*this, std::move(module), entryName));
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes())) {
    std::string name = "arg" + std::to_string(i);
    if (auto attr = entry.getArgAttrOfType<StringAttr>(
            i, AMLSDialect::getNameAttrName()))
      name = attr.getValue().str();
    if (isCompressedMatrix(type))
      return entry.emitError("parameter '")
             << name << "' has type " << type
             << ": a compressed matrix exists only inside a program "
                "(amls.compress makes one); pass the dense matrix";
    bool supported =
        isa<MatrixType, FloatType, IndexType>(type) || type.isSignlessInteger();
    if (!supported)
      return entry.emitError("parameter '")
             << name << "' has type " << type
             << ", which amls-run cannot bind (matrices and scalars only)";
    program->parameters.push_back({name, type});
  }
  for (auto [i, type] : llvm::enumerate(entry.getResultTypes())) {
    if (!getResultKind(type))
      return entry.emitError("result #")
             << i << " has type " << type
             << ", which the execution session cannot return (matrices, "
                "floats and integers only)";
    program->resultTypes.push_back(type);
    std::string name = "result" + std::to_string(i);
    if (auto attr = entry.getResultAttrOfType<StringAttr>(
            i, AMLSDialect::getNameAttrName()))
      name = attr.getValue().str();
    program->resultNames.push_back(name);
    program->booleanResults.push_back(static_cast<bool>(
        entry.getResultAttr(i, AMLSDialect::getBooleanAttrName())));
  }
  programs.push_back(std::move(program));
  return programs.back().get();
}

/// Keeps `source` in `sources` (where messages find its lines for as long
/// as the session lives) and returns a SourceMgr whose main buffer views
/// it, which the parser and the DML importer read.
static void addSource(llvm::SourceMgr &sources,
                      std::unique_ptr<llvm::MemoryBuffer> source,
                      llvm::SourceMgr &parseSources) {
  unsigned id = sources.AddNewSourceBuffer(std::move(source), llvm::SMLoc());
  parseSources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(
          sources.getMemoryBuffer(id)->getMemBufferRef(),
          /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
}

unsigned Session::addSourceText(StringRef name, StringRef text) {
  for (unsigned id = 1, e = sources.getNumBuffers(); id <= e; ++id) {
    const llvm::MemoryBuffer *buffer = sources.getMemoryBuffer(id);
    if (buffer->getBufferIdentifier() == name && buffer->getBuffer() == text)
      return id;
  }
  return sources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, name), llvm::SMLoc());
}

FailureOr<Program *>
Session::loadDMLScript(dml::Script &script, StringRef name,
                       llvm::ArrayRef<unsigned> sourceBuffers,
                       const dml::ImportOptions &importOptions) {
  dml::ImportOptions withSessionBuiltins = importOptions;
  withSessionBuiltins.builtinDirs.insert(
      withSessionBuiltins.builtinDirs.begin(), options.builtinDirs.begin(),
      options.builtinDirs.end());
  // The main buffer only names the script; its positions are in the others,
  // viewed where the session keeps them.
  llvm::SourceMgr parseSources;
  parseSources.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer("", name, /*RequiresNullTerminator=*/
                                       false),
      llvm::SMLoc());
  for (unsigned id : sourceBuffers)
    parseSources.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(
            sources.getMemoryBuffer(id)->getMemBufferRef(),
            /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
  OwningOpRef<ModuleOp> module = dml::importDMLScript(
      script, parseSources, context.get(), withSessionBuiltins);
  if (!module)
    return failure();
  FailureOr<Program *> program =
      load(std::move(module), withSessionBuiltins.entryName);
  if (succeeded(program))
    (*program)->fromDML = true;
  return program;
}

FailureOr<Program *>
Session::loadMLIR(std::unique_ptr<llvm::MemoryBuffer> source, StringRef entry) {
  llvm::SourceMgr parseSources;
  addSource(sources, std::move(source), parseSources);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(parseSources, ParserConfig(context.get()));
  if (!module)
    return failure();
  return load(std::move(module), entry);
}

FailureOr<Program *>
Session::loadDML(std::unique_ptr<llvm::MemoryBuffer> source,
                 const dml::ImportOptions &importOptions) {
  dml::ImportOptions withSessionBuiltins = importOptions;
  withSessionBuiltins.builtinDirs.insert(
      withSessionBuiltins.builtinDirs.begin(), options.builtinDirs.begin(),
      options.builtinDirs.end());
  llvm::SourceMgr parseSources;
  addSource(sources, std::move(source), parseSources);
  OwningOpRef<ModuleOp> module =
      dml::importDML(parseSources, context.get(), withSessionBuiltins);
  if (!module)
    return failure();
  FailureOr<Program *> program =
      load(std::move(module), withSessionBuiltins.entryName);
  if (succeeded(program))
    (*program)->fromDML = true;
  return program;
}
