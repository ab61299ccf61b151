//===- Session.cpp - AMLS C API: sessions and programs --------------------===//

#include "amls-c/Session.h"
#include "CAPI.h"

#include "AMLS/Frontend/DML/Diagnostics.h"
#include "AMLS/Frontend/DML/ImportDML.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Pipelines/Target.h"
#include "AMLS/Runtime/Memory.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::capi;

void mlir::amls::capi::setError(AmlsError *error, std::string message,
                                bool runFailure) {
  if (!error)
    return;
  // Messages end without the diagnostic printer's last newline.
  while (!message.empty() && message.back() == '\n')
    message.pop_back();
  *error = wrap(new CError{std::move(message), runFailure});
}

MlirStringRef amlsErrorGetMessage(AmlsError error) {
  const std::string &message = unwrap(error)->message;
  return mlirStringRefCreate(message.data(), message.size());
}

void amlsErrorDestroy(AmlsError error) { delete unwrap(error); }

bool amlsErrorIsRunFailure(AmlsError error) {
  return unwrap(error)->runFailure;
}

namespace {

/// Collects what the session's context reports during one call
/// (SessionDiagnostics: as amls-run prints it, in DML's words for a DML
/// program).
class CapturedDiagnostics {
public:
  CapturedDiagnostics(CSession &session, bool isDML)
      : stream(text), sink(prepare(session), stream,
                           isDML ? SessionDiagnostics::Language::DML
                                 : SessionDiagnostics::Language::MLIR) {}
  std::string take() {
    stream.flush();
    if (text.empty())
      return "failed without a message";
    // The module of a parsed text sits at line 0, column 0 of its source,
    // which says nothing: drop that position.
    std::string message;
    StringRef rest = text;
    while (!rest.empty()) {
      size_t at = rest.find(":0:0: ");
      message += rest.take_front(at).str();
      if (at == StringRef::npos)
        break;
      message += ": ";
      rest = rest.drop_front(at + 6);
    }
    return message;
  }

private:
  static Session &prepare(CSession &session) {
    // A host's message shows the position, not an IR dump.
    session.session.getContext().printOpOnDiagnostic(false);
    return session.session;
  }

  std::string text;
  llvm::raw_string_ostream stream;
  SessionDiagnostics sink;
};

std::string toString(const char *text, const char *otherwise) {
  return text ? text : otherwise;
}

/// A copy of `source` named `sourceName` (where messages find the line).
std::unique_ptr<llvm::MemoryBuffer> copySource(MlirStringRef source,
                                               MlirStringRef sourceName) {
  return llvm::MemoryBuffer::getMemBufferCopy(unwrap(source),
                                              unwrap(sourceName));
}

/// The handle of a loaded program; null with `error` set on failure.
AmlsProgram wrapProgram(CSession &session, FailureOr<Program *> program,
                        CapturedDiagnostics &diagnostics, AmlsError *error) {
  if (failed(program)) {
    setError(error, diagnostics.take());
    return {nullptr};
  }
  session.programs.push_back(
      std::make_unique<CProgram>(CProgram{*program, &session}));
  return wrap(session.programs.back().get());
}

} // namespace

void amlsSessionOptionsInit(AmlsSessionOptions *options) {
  SessionOptions defaults;
  options->threads = defaults.threads;
  options->memoryLimit = defaults.memoryLimit;
  options->rewrites = nullptr;
  options->fusion = nullptr;
  options->formats = nullptr;
  options->sums = nullptr;
  options->blas = nullptr;
  options->target = nullptr;
  options->gpuChip = nullptr;
  options->csrResults = defaults.csrResults;
  options->fusionExplain = defaults.fusionExplain;
  options->parforExplain = defaults.parforExplain;
  options->builtins = nullptr;
  options->sparsityEstimator = nullptr;
}

AmlsSession amlsSessionCreate(const AmlsSessionOptions *options,
                              AmlsError *error) {
  AmlsSessionOptions given;
  amlsSessionOptionsInit(&given);
  if (options)
    given = *options;
  SessionOptions settings;
  settings.threads = std::max(given.threads, 1u);
  settings.memoryLimit = given.memoryLimit;
  settings.rewrites = toString(given.rewrites, "all");
  settings.fusion = toString(given.fusion, "cost");
  settings.formats = toString(given.formats, "auto");
  settings.sparsityEstimator = toString(given.sparsityEstimator, "mnc");
  settings.sums = toString(given.sums, "kahan");
  settings.blas = toString(given.blas, "auto");
  // A failing program must not end the host process.
  settings.returnRunFailures = true;
  settings.target = toString(given.target, kDefaultTargetName.data());
  settings.gpuChip = toString(given.gpuChip, "");
  settings.gpuFormat = "isa";
  settings.csrResults = given.csrResults;
  settings.fusionExplain = given.fusionExplain;
  settings.parforExplain = given.parforExplain;
  if (given.builtins) {
    SmallVector<StringRef> directories;
    StringRef(given.builtins).split(directories, ':', -1, /*KeepEmpty=*/false);
    for (StringRef directory : directories) {
      if (!llvm::sys::fs::is_directory(directory)) {
        setError(error, "invalid session options: builtins folder '" +
                            directory.str() + "' is not a directory");
        return {nullptr};
      }
      settings.builtinDirs.push_back(directory.str());
    }
  }
  // The device (driver, context, managed memory) now: a session that
  // cannot run says so when it is created.
  if (SessionOptionsProblem problem = checkSessionOptions(settings)) {
    // The target's own problems (no driver) read as they are.
    setError(error, problem.kind == SessionOptionsProblem::Kind::InvalidOption
                        ? "invalid session options: " + problem.message
                        : problem.message);
    return {nullptr};
  }
  return wrap(new CSession(std::move(settings)));
}

void amlsSessionDestroy(AmlsSession session) { delete unwrap(session); }

MlirContext amlsSessionGetContext(AmlsSession session) {
  return wrap(&unwrap(session)->session.getContext());
}

AmlsProgram amlsSessionCompileMLIR(AmlsSession handle, MlirStringRef source,
                                   MlirStringRef sourceName,
                                   MlirStringRef entry, AmlsError *error) {
  CSession &session = *unwrap(handle);
  std::lock_guard<std::mutex> lock(session.mutex);
  CapturedDiagnostics diagnostics(session, /*isDML=*/false);
  return wrapProgram(
      session,
      session.session.loadMLIR(copySource(source, sourceName), unwrap(entry)),
      diagnostics, error);
}

namespace {

/// Imports DML `source` with `options` and loads its entry.
AmlsProgram compileDML(CSession &session, MlirStringRef source,
                       MlirStringRef sourceName, dml::ImportOptions &options,
                       AmlsError *error) {
  CapturedDiagnostics diagnostics(session, /*isDML=*/true);
  return wrapProgram(
      session, session.session.loadDML(copySource(source, sourceName), options),
      diagnostics, error);
}

} // namespace

namespace {

/// Binds the script's `$name` arguments; false with `error` set for a name
/// bound twice.
bool bindArguments(dml::ImportOptions &options,
                   const MlirStringRef *argumentNames,
                   const MlirStringRef *argumentValues, intptr_t numArguments,
                   AmlsError *error) {
  for (intptr_t i = 0; i < numArguments; ++i) {
    StringRef name = unwrap(argumentNames[i]);
    if (!options.arguments.try_emplace(name, unwrap(argumentValues[i]).str())
             .second) {
      setError(error, "argument '$" + name.str() + "' is bound twice");
      return false;
    }
  }
  return true;
}

} // namespace

AmlsProgram amlsSessionCompileDML(AmlsSession handle, MlirStringRef source,
                                  MlirStringRef sourceName,
                                  const MlirStringRef *argumentNames,
                                  const MlirStringRef *argumentValues,
                                  intptr_t numArguments, AmlsError *error) {
  CSession &session = *unwrap(handle);
  std::lock_guard<std::mutex> lock(session.mutex);
  dml::ImportOptions options;
  if (!bindArguments(options, argumentNames, argumentValues, numArguments,
                     error))
    return {nullptr};
  return compileDML(session, source, sourceName, options, error);
}

AmlsProgram amlsSessionCompileGraph(AmlsSession handle, AmlsGraph graph,
                                    MlirStringRef name, AmlsError *error) {
  CSession &session = *unwrap(handle);
  std::lock_guard<std::mutex> lock(session.mutex);
  dml::Script script;
  dml::ImportOptions options;
  std::vector<unsigned> sourceBuffers;
  std::string problem;
  if (!buildGraphScript(graph, session.session, script, options,
                        sourceBuffers, problem)) {
    setError(error, problem);
    return {nullptr};
  }
  CapturedDiagnostics diagnostics(session, /*isDML=*/true);
  return wrapProgram(session,
                     session.session.loadDMLScript(script, unwrap(name),
                                                   sourceBuffers, options),
                     diagnostics, error);
}

AmlsProgram amlsSessionCompileDMLFunction(
    AmlsSession handle, MlirStringRef source, MlirStringRef sourceName,
    const AmlsScriptInput *inputs, intptr_t numInputs,
    const MlirStringRef *outputs, intptr_t numOutputs,
    const MlirStringRef *argumentNames, const MlirStringRef *argumentValues,
    intptr_t numArguments, AmlsError *error) {
  CSession &session = *unwrap(handle);
  std::lock_guard<std::mutex> lock(session.mutex);
  dml::ImportOptions options;
  if (!bindArguments(options, argumentNames, argumentValues, numArguments,
                     error))
    return {nullptr};
  using Kind = dml::ImportOptions::Input::Kind;
  llvm::StringSet<> seen;
  for (intptr_t i = 0; i < numInputs; ++i) {
    std::string name = unwrap(inputs[i].name).str();
    if (!seen.insert(name).second) {
      setError(error, "input '" + name + "' is given twice");
      return {nullptr};
    }
    // A C caller can pass any integer as the enum.
    int rawKind = static_cast<int>(inputs[i].kind);
    if (rawKind < AMLS_INPUT_MATRIX || rawKind > AMLS_INPUT_BOOLEAN) {
      setError(error, "input '" + name + "' has an unknown kind " +
                          std::to_string(rawKind));
      return {nullptr};
    }
    Kind kind = Kind::Matrix;
    switch (inputs[i].kind) {
    case AMLS_INPUT_MATRIX:
      kind = Kind::Matrix;
      break;
    case AMLS_INPUT_DOUBLE:
      kind = Kind::Double;
      break;
    case AMLS_INPUT_INTEGER:
      kind = Kind::Integer;
      break;
    case AMLS_INPUT_BOOLEAN:
      kind = Kind::Boolean;
      break;
    }
    options.inputs.push_back({name, kind});
  }
  for (intptr_t i = 0; i < numOutputs; ++i)
    options.outputs.push_back(unwrap(outputs[i]).str());
  options.returnAssigned = numOutputs == 0;
  return compileDML(session, source, sourceName, options, error);
}

AmlsProgram amlsSessionLoadModule(AmlsSession handle, MlirModule module,
                                  MlirStringRef entry, AmlsError *error) {
  CSession &session = *unwrap(handle);
  std::lock_guard<std::mutex> lock(session.mutex);
  CapturedDiagnostics diagnostics(session, /*isDML=*/false);
  OwningOpRef<ModuleOp> owned(unwrap(module));
  if (failed(verify(*owned))) {
    setError(error, diagnostics.take());
    return {nullptr};
  }
  return wrapProgram(session,
                     session.session.load(std::move(owned), unwrap(entry)),
                     diagnostics, error);
}

intptr_t amlsProgramGetNumParameters(AmlsProgram program) {
  return unwrap(program)->program->getParameters().size();
}

MlirStringRef amlsProgramGetParameterName(AmlsProgram program, intptr_t index) {
  const std::string &name =
      unwrap(program)->program->getParameters()[index].name;
  return mlirStringRefCreate(name.data(), name.size());
}

MlirType amlsProgramGetParameterType(AmlsProgram program, intptr_t index) {
  return wrap(unwrap(program)->program->getParameters()[index].type);
}

intptr_t amlsProgramFindParameter(AmlsProgram program, MlirStringRef name) {
  for (auto [i, parameter] :
       llvm::enumerate(unwrap(program)->program->getParameters()))
    if (parameter.name == unwrap(name))
      return i;
  return -1;
}

intptr_t amlsProgramGetNumResults(AmlsProgram program) {
  return unwrap(program)->program->getResultTypes().size();
}

MlirType amlsProgramGetResultType(AmlsProgram program, intptr_t index) {
  return wrap(unwrap(program)->program->getResultTypes()[index]);
}

MlirStringRef amlsProgramGetResultName(AmlsProgram program, intptr_t index) {
  const std::string &name = unwrap(program)->program->getResultNames()[index];
  return mlirStringRefCreate(name.data(), name.size());
}

bool amlsProgramIsBooleanResult(AmlsProgram program, intptr_t index) {
  return unwrap(program)->program->isBooleanResult(index);
}

/// The runtime values of `arguments`, or an error (a wrong count, a null
/// value) in `error`.
static std::optional<SmallVector<RuntimeValue>>
unwrapArguments(CProgram &program, const AmlsValue *arguments,
                intptr_t numArguments, AmlsError *error) {
  ArrayRef<Program::Parameter> parameters = program.program->getParameters();
  if (numArguments != static_cast<intptr_t>(parameters.size())) {
    std::string names;
    for (const Program::Parameter &parameter : parameters)
      names += (names.empty() ? "" : ", ") + parameter.name;
    setError(error, program.program->getEntryName().str() + ": expected " +
                        std::to_string(parameters.size()) + " arguments (" +
                        names + "), found " + std::to_string(numArguments));
    return std::nullopt;
  }
  SmallVector<RuntimeValue> values;
  for (intptr_t i = 0; i < numArguments; ++i) {
    if (!arguments[i].ptr) {
      setError(error, "argument #" + std::to_string(i) + " is a null value");
      return std::nullopt;
    }
    values.push_back(unwrap(arguments[i])->value);
  }
  return values;
}

MlirLogicalResult amlsProgramRun(AmlsProgram handle, const AmlsValue *arguments,
                                 intptr_t numArguments, AmlsValue *results,
                                 AmlsError *error) {
  CProgram &program = *unwrap(handle);
  CSession &session = *program.session;
  std::lock_guard<std::mutex> lock(session.mutex);
  CapturedDiagnostics diagnostics(session, program.program->isFromDML());
  std::optional<SmallVector<RuntimeValue>> values =
      unwrapArguments(program, arguments, numArguments, error);
  if (!values)
    return mlirLogicalResultFailure();
  unsigned failedBefore = session.session.getStatistics().failedRuns;
  FailureOr<RunResult> result = program.program->run(*values);
  if (failed(result)) {
    setError(error, diagnostics.take(),
             session.session.getStatistics().failedRuns != failedBefore);
    return mlirLogicalResultFailure();
  }
  session.optimizeMilliseconds += result->times.optimize;
  session.compileMilliseconds += result->times.compile;
  session.executeMilliseconds += result->times.execute;
  for (auto [i, value] : llvm::enumerate(result->values))
    results[i] = wrap(new CValue{std::move(value), {}});
  return mlirLogicalResultSuccess();
}

MlirLogicalResult amlsProgramExplainPlan(AmlsProgram handle,
                                         const AmlsValue *arguments,
                                         intptr_t numArguments,
                                         MlirStringCallback callback,
                                         void *userData, AmlsError *error) {
  CProgram &program = *unwrap(handle);
  CSession &session = *program.session;
  std::lock_guard<std::mutex> lock(session.mutex);
  CapturedDiagnostics diagnostics(session, program.program->isFromDML());
  std::optional<SmallVector<RuntimeValue>> values =
      unwrapArguments(program, arguments, numArguments, error);
  if (!values)
    return mlirLogicalResultFailure();
  FailureOr<std::string> graph = program.program->explainPlan(*values);
  if (failed(graph)) {
    setError(error, diagnostics.take());
    return mlirLogicalResultFailure();
  }
  callback(mlirStringRefCreate(graph->data(), graph->size()), userData);
  return mlirLogicalResultSuccess();
}

AmlsSessionStatistics amlsSessionGetStatistics(AmlsSession handle) {
  CSession &session = *unwrap(handle);
  std::lock_guard<std::mutex> lock(session.mutex);
  SessionStatistics counts = session.session.getStatistics();
  AmlsSessionStatistics statistics;
  statistics.runs = counts.runs;
  statistics.compilations = counts.compilations;
  statistics.cacheHits = counts.cacheHits;
  statistics.failedRuns = counts.failedRuns;
  statistics.inputCopies = counts.inputCopies;
  statistics.inputCopyBytes = counts.inputCopyBytes;
  statistics.inputLayoutCopies = counts.inputLayoutCopies;
  statistics.inputLayoutCopyBytes = counts.inputLayoutCopyBytes;
  statistics.optimizeMilliseconds = session.optimizeMilliseconds;
  statistics.compileMilliseconds = session.compileMilliseconds;
  statistics.executeMilliseconds = session.executeMilliseconds;
  statistics.peakMemoryBytes = counts.peakLiveBytes;
  return statistics;
}

void amlsSessionGetProcessRank(AmlsSession handle, int64_t *rank,
                               int64_t *size) {
  auto [processRank, processes] = unwrap(handle)->session.getProcessRank();
  *rank = processRank;
  *size = processes;
}

void amlsSessionGetRowBlock(AmlsSession handle, int64_t rows, int64_t *begin,
                            int64_t *count) {
  auto [first, length] = unwrap(handle)->session.getRowBlock(rows);
  *begin = first;
  *count = length;
}
