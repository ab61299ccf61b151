//===- Session.h - Specialize, compile and run AMLS programs ----*- C++ -*-===//
//
// An execution session: what amls-run uses and what any frontend that
// embeds AMLS (the C API, the Python package) builds on. A session owns an
// MLIRContext, its options, the programs loaded into it with their compile
// caches, and nothing process-global: several sessions run at the same time
// on different threads.
//
// A program's entry is specialized to the exact sizes and sparsity of the
// inputs of a run (the seeds' dynamic recompilation), optimized, lowered for
// the CPU and JIT-compiled with MLIR's ExecutionEngine; the compiled code is
// cached per input signature, so a second run with inputs of the same types
// reuses it. Inputs are borrowed (the compiled code reads the caller's
// buffers in place); results are returned owning the buffers the compiled
// code allocated (see Value.h).
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_EXECUTIONENGINE_SESSION_H
#define AMLS_EXECUTIONENGINE_SESSION_H

#include "AMLS/ExecutionEngine/Value.h"
#include "AMLS/Pipelines/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace amls::runtime {
class Context;
} // namespace amls::runtime

namespace mlir {
class DialectRegistry;
class SourceMgrDiagnosticHandler;
namespace amls {
namespace dml {
struct ImportOptions;
struct Script;
class DMLDiagnosticHandler;
} // namespace dml

struct SessionOptions {
  /// Worker threads of parallel loops and BLAS; 1 generates sequential code.
  unsigned threads = 2;
  /// When dense products call BLAS: auto, always, never.
  std::string blas = "auto";
  bool printIRAfterAll = false;
  bool passStatistics = false;
  /// The optimizer's rewrite families (parseOptimizeFamilies); `none` is
  /// --O0 (inference still specializes the sizes).
  std::string rewrites = "all";
  /// Operator fusion after the optimizer: cost (cost-based plans),
  /// fuse-all, fuse-no-redundancy or none.
  std::string fusion = "cost";
  /// Print the fusion plans (--amls-fuse's explain) on stderr.
  bool fusionExplain = false;
  /// Storage formats (--amls-select-formats): auto, dense or csr.
  std::string formats = "auto";
  bool formatsExplain = false;
  /// With formatsExplain, each product reports its non-zeros on stderr
  /// once computed (amls-run --formats-explain --stats).
  bool formatsActualNnz = false;
  /// Sparsity estimates of intermediates: mnc (the MNC sketches of the CSR
  /// arguments), metadata or worst.
  std::string sparsityEstimator = "mnc";
  /// Results the program computes CSR are returned CSR (three arrays the
  /// result owns) instead of as dense copies (--amls-select-formats's
  /// csr-results).
  bool csrResults = false;
  /// Print each parfor's dependency analysis and plan on stderr.
  bool parforExplain = false;
  /// How aggregates sum: kahan (compensated, as SystemDS) or plain.
  std::string sums = "kahan";
  /// Bytes the programs' buffers may take at once (the runtime's budget,
  /// Memory.h; process-wide like the BLAS threads); 0 keeps the runtime's
  /// (default: 80% of the machine's memory).
  uint64_t memoryLimit = 0;
  /// Where programs run: cpu, or gpu (parallel loops as CUDA kernels, the
  /// rest on the CPU; see prepareTarget).
  std::string target = kDefaultTargetName.str();
  /// target=mpi: the cells from which a read matrix is split by rows over
  /// the ranks, and whether to print each op's distributed form.
  int64_t distributeMinCells = 100000;
  bool distributeExplain = false;
  /// target=gpu: the chip the kernels are compiled for; empty: the
  /// device's own.
  std::string gpuChip;
  /// target=gpu: how kernels are embedded: isa (PTX, compiled by the driver
  /// when the program loads), bin or fatbin (assembled by the toolkit's
  /// ptxas at compile time).
  std::string gpuFormat = "isa";
  /// target=gpu: the cost rule's work below which a loop over small
  /// buffers runs on the CPU (--amls-map-parallel-loops-to-gpu's min-work).
  int64_t gpuMinWork = 65536;
  /// A run-time failure of a program (a check, a file that cannot be read,
  /// stop(), the memory budget) returns from Program::run as an error
  /// instead of ending the process (runTrappingFailures in
  /// AMLS/Runtime/Failure.h, with its limits): what an embedding host
  /// wants; amls-run ends the process.
  bool returnRunFailures = false;
  /// Folders of DML library functions (NAME.dml defining m_NAME) that
  /// loadDML searches before AMLS's own.
  std::vector<std::string> builtinDirs;

  /// The compile options these stand for (all but the entry to wrap and
  /// the memory limit the runtime context holds): the one place a session's
  /// options become the compiler's.
  void toCompileOptions(CompileOptions &compile) const;
};

/// What checkSessionOptions found: an option's value is wrong (with the
/// compiler's message), or the target cannot run here (prepareTarget's).
struct SessionOptionsProblem {
  enum class Kind { None, InvalidOption, TargetUnavailable };
  Kind kind = Kind::None;
  std::string message;
  explicit operator bool() const { return kind != Kind::None; }
};

/// Checks every option (blas, rewrites, fusion, formats, sums, the target
/// and its options) and prepares the target (prepareTarget), which
/// completes `options`. The C API and the Python package check their
/// options here; amls-run names its flags in its own messages.
SessionOptionsProblem checkSessionOptions(SessionOptions &options);

/// Makes the process ready for `options.target` and completes the options
/// through the target's TargetExecution (TargetExecution.h): for gpu, loads
/// the CUDA driver, opens device 0, backs the runtime's buffer pool with
/// managed memory (so call it before reading inputs) and sets gpuChip to
/// the device's when empty. Returns why the target cannot run ("no CUDA
/// driver: ..."), or an empty string.
std::string prepareTarget(SessionOptions &options);

/// Milliseconds spent in each phase of a run.
struct PhaseTimes {
  double optimize = 0, compile = 0, execute = 0;
  bool compiled = false; // false when the cache served the run
};

/// What a run returns: the entry's results, in order, and its times.
struct RunResult {
  SmallVector<RuntimeValue> values;
  PhaseTimes times;
};

struct SessionStatistics {
  unsigned runs = 0;
  unsigned compilations = 0;
  /// target=gpu: the kernels those compilations produced.
  unsigned gpuKernels = 0;
  /// Runs served by an already compiled specialization.
  unsigned cacheHits = 0;
  /// Runs whose program failed while it ran (returnRunFailures).
  unsigned failedRuns = 0;
  /// Input matrices the run copied into row-major order or into the
  /// parameter's element type (others are read in place), and their bytes.
  uint64_t inputLayoutCopies = 0;
  uint64_t inputLayoutCopyBytes = 0;
  /// target=gpu: input matrices copied into the runtime's pool (managed
  /// memory, which the device reaches; a caller's memory is host memory),
  /// and their bytes.
  uint64_t inputCopies = 0;
  uint64_t inputCopyBytes = 0;
  /// The session's runtime context: its memory budget, the bytes its
  /// buffers hold now and at most (results still held count), its buffers
  /// allocated and their bytes, and the threads its kernels use.
  uint64_t memoryLimit = 0;
  uint64_t liveBytes = 0;
  uint64_t peakLiveBytes = 0;
  uint64_t allocations = 0;
  uint64_t bytesAllocated = 0;
  int32_t runtimeThreads = 0;
};

class Session;
struct CompiledProgram;
class TargetExecution;

/// A program loaded into a session: its entry's parameters and results, and
/// the specializations compiled for it so far.
class Program {
public:
  struct Parameter {
    std::string name;
    Type type;
  };

  ~Program();

  StringRef getEntryName() const { return entryName; }
  /// The entry's parameters. A parameter's name is its `amls.name`
  /// argument attribute, or `argN`.
  ArrayRef<Parameter> getParameters() const { return parameters; }
  /// Index of the parameter called `name` (or numbered `name`), if any.
  std::optional<unsigned> findParameter(StringRef name) const;
  /// The entry's result types (matrices, floats, integers).
  ArrayRef<Type> getResultTypes() const { return resultTypes; }
  /// A result's name: its `amls.name` result attribute, or `resultN`.
  ArrayRef<std::string> getResultNames() const { return resultNames; }
  /// Whether result `i` is a boolean returned as an integer 0 or 1 (its
  /// `amls.boolean` result attribute).
  bool isBooleanResult(unsigned i) const { return booleanResults[i]; }
  /// Whether the program was loaded from DML (Session::loadDML): its
  /// messages speak DML (SessionDiagnostics).
  bool isFromDML() const { return fromDML; }

  /// Runs the entry on `args` (one per parameter), compiling a version
  /// specialized to their types unless one is cached. Matrix arguments are
  /// dense (f64, f32 or i64) or CSR on the CPU. A dense one in the
  /// parameter's element type is read in place when it is contiguous
  /// row-major, or contiguous column-major (the entry then takes the
  /// row-major transpose and transposes it back, which the optimizer
  /// folds into the ops that can read it transposed); others are copied
  /// once into row-major order of that type. Problems (an argument that
  /// contradicts the declared type, a size error found by inference) are
  /// reported through the session context's diagnostics and fail the run.
  /// Runs of one session are serialized; different sessions run in
  /// parallel.
  FailureOr<RunResult> run(ArrayRef<RuntimeValue> args);
  /// The optimized plan of the version specialized to `args` as a Graphviz
  /// DOT graph (writePlanGraph), compiling that version unless it is
  /// cached; nothing runs.
  FailureOr<std::string> explainPlan(ArrayRef<RuntimeValue> args);

private:
  friend class Session;
  Program(Session &session, OwningOpRef<ModuleOp> module, StringRef entry);

  /// The specialized, lowered and JIT-compiled program for `args`.
  FailureOr<CompiledProgram *> compile(ArrayRef<RuntimeValue> args,
                                       PhaseTimes &times);
  /// The whole matrices of the row blocks among `args` (at `rowBlocks`)
  /// in `types`, agreed on by the target's processes (Program.cpp).
  LogicalResult specializeRowBlocks(ArrayRef<RuntimeValue> args,
                                    ArrayRef<unsigned> rowBlocks,
                                    bool rejected,
                                    MutableArrayRef<Type> types);

  Session &session;
  OwningOpRef<ModuleOp> program;
  std::string entryName;
  SmallVector<Parameter> parameters;
  SmallVector<Type> resultTypes;
  SmallVector<std::string> resultNames;
  SmallVector<bool> booleanResults;
  bool fromDML = false;
  /// Compiled specializations by the text of their parameter types.
  llvm::StringMap<std::unique_ptr<CompiledProgram>> cache;
};

class Session {
public:
  explicit Session(SessionOptions options = {});
  ~Session();
  Session(const Session &) = delete;
  Session &operator=(const Session &) = delete;

  /// The context programs are parsed or built in (with every dialect the
  /// compile needs). Attach diagnostic handlers here; use it from one
  /// thread at a time.
  MLIRContext &getContext() { return *context; }
  const SessionOptions &getOptions() const { return options; }

  /// Takes `module` (built in getContext()) and checks that its function
  /// `entry` can be run: a missing entry, or parameters or results other
  /// than matrices and scalars, are reported as errors and fail. The
  /// program lives as long as the session.
  FailureOr<Program *> load(OwningOpRef<ModuleOp> module,
                            StringRef entry = "main");
  /// Parses AMLS IR from `source` (named by its buffer identifier, which
  /// messages show) and loads its function `entry`. The source stays with
  /// the session, so messages of later runs show its lines. Errors go to
  /// the context's diagnostics (SessionDiagnostics).
  FailureOr<Program *> loadMLIR(std::unique_ptr<llvm::MemoryBuffer> source,
                                StringRef entry = "main");
  /// Imports the DML script `source` with `importOptions` (its $arguments,
  /// entry name, inputs and outputs; the session's builtinDirs are searched
  /// first) and loads its entry, as loadMLIR.
  FailureOr<Program *> loadDML(std::unique_ptr<llvm::MemoryBuffer> source,
                               const dml::ImportOptions &importOptions);
  /// Keeps `text` among the session's sources under `name` (once per name
  /// and text) and returns its buffer: the file a script built without DML
  /// text points into (a Python file), whose lines messages show.
  unsigned addSourceText(StringRef name, StringRef text);
  StringRef getSourceText(unsigned buffer) const {
    return sources.getMemoryBuffer(buffer)->getBuffer();
  }
  /// Imports `script` (positions in the buffers `sourceBuffers` of
  /// addSourceText; `name` for what has none) and loads its entry, as
  /// loadDML.
  FailureOr<Program *> loadDMLScript(dml::Script &script, StringRef name,
                                     llvm::ArrayRef<unsigned> sourceBuffers,
                                     const dml::ImportOptions &importOptions);

  SessionStatistics getStatistics() const;

  /// The runtime state this session's runs use (AMLS/Runtime/Context.h):
  /// its memory budget, buffers and thread count, apart from every other
  /// session's. Install it (runtime::ScopedContext) to call the runtime
  /// for the session outside a run (reading its input files).
  runtime::Context &getRuntimeContext() const { return *runtimeContext; }

  /// Whether the session's target copies every input into the runtime's
  /// pool (its device does not read the caller's memory).
  bool copiesInputs() const { return inputsCopied; }

  /// This process's number among the processes that run each program
  /// together, and their count (target mpi: the job's ranks; else 0 of 1).
  std::pair<int64_t, int64_t> getProcessRank() const;
  /// This process's first row and row count of a matrix of `rows` rows
  /// split by rows over those processes: the block a row block argument
  /// (RuntimeValue::setRowBlock) must be.
  std::pair<int64_t, int64_t> getRowBlock(int64_t rows) const;

private:
  friend class Program;
  friend class SessionDiagnostics;

  SessionOptions options;
  /// Every source loaded, for the lines messages show.
  llvm::SourceMgr sources;
  bool inputsCopied = false;
  /// The target's execution half (TargetExecution.h), or null.
  const TargetExecution *execution = nullptr;
  /// Holds a reference: the context outlives the session while buffers
  /// allocated under it (results) live.
  runtime::Context *runtimeContext;
  std::unique_ptr<MLIRContext> context;
  std::vector<std::unique_ptr<Program>> programs;
  SessionStatistics statistics;
  /// One call at a time per session: the context, caches and statistics
  /// are not shared with other sessions.
  mutable std::mutex mutex;
};

/// Prints what the session's context reports while this lives to `os`, as
/// amls-run prints it (file:line:col, the line and a caret), in DML's
/// words for a DML program: the diagnostics sink of amls-run, the C API and
/// the Python package.
class SessionDiagnostics {
public:
  enum class Language { DML, MLIR };
  SessionDiagnostics(Session &session, llvm::raw_ostream &os,
                     Language language);
  ~SessionDiagnostics();

private:
  std::unique_ptr<SourceMgrDiagnosticHandler> irHandler;
  std::unique_ptr<dml::DMLDiagnosticHandler> dmlHandler;
};

} // namespace amls
} // namespace mlir

#endif // AMLS_EXECUTIONENGINE_SESSION_H
