/*===- Session.h - AMLS C API: sessions and programs ----------------*- C -*-===*\
|*                                                                            *|
|* A session compiles and runs AMLS programs: from DML source, from          *|
|* AMLS/MLIR text, or from an MlirModule built in its context. A program's  *|
|* entry is specialized to the sizes of each run's inputs and JIT-compiled;  *|
|* the compiled code is cached, so runs with inputs of the same sizes do     *|
|* not compile again.                                                        *|
|*                                                                            *|
|* Thread safety: sessions are independent (each has its own MLIR context,  *|
|* programs and caches), so different threads may use different sessions at *|
|* once. Calls on one session are serialized. The memory budget and         *|
|* OpenBLAS's settings are process-wide.                                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_C_SESSION_H
#define AMLS_C_SESSION_H

#include "amls-c/Support.h"
#include "amls-c/Value.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

AMLS_DEFINE_C_API_STRUCT(AmlsSession, void);
AMLS_DEFINE_C_API_STRUCT(AmlsProgram, void);

/// A session's settings; amlsSessionOptionsInit fills in the defaults.
/// The strings are read when the session is created (NULL: the default).
typedef struct AmlsSessionOptions {
  /// Threads of parallel loops and BLAS; 1 generates sequential code.
  unsigned threads;
  /// Bytes the programs' buffers may take at once (process-wide); 0 keeps
  /// the runtime's default (80% of the machine's memory).
  uint64_t memoryLimit;
  /// The optimizer's rewrite families: "all" (default), "none" (-O0) or a
  /// comma-separated list (simplify, simplify-dynamic, matmul-chain, ipa,
  /// vectorize-loops).
  const char *rewrites;
  /// Operator fusion: "cost" (default, cost-based plans), "fuse-all",
  /// "fuse-no-redundancy", "none".
  const char *fusion;
  /// Storage formats: "auto" (default), "dense", "csr", "compressed"
  /// (docs/compression.md).
  const char *formats;
  /// Sums: "kahan" (default, as SystemDS) or "plain".
  const char *sums;
  /// When products call BLAS: "auto" (default), "always", "never".
  const char *blas;
  /// Where programs run: "cpu" (default), "gpu" (their parallel loops as
  /// CUDA kernels on device 0, docs/gpu.md; inputs are copied into memory
  /// the device can reach, counted in the statistics) or "mpi" (every rank
  /// of the MPI job the process was launched in runs each program, which
  /// takes matrices split by rows as each rank's row block,
  /// amlsValueSetRowBlock; without a launcher, one rank).
  const char *target;
  /// target "gpu": the chip kernels are compiled for, e.g. "sm_90" (NULL:
  /// the device's own).
  const char *gpuChip;
  /// Results the program computes CSR come back CSR (AMLS_MATRIX_CSR: the
  /// result owns its three arrays) instead of as dense copies; false
  /// (default): every matrix result is dense.
  bool csrResults;
  /// Print the fusion plans (as amls-run --fuse-explain) and the parfor
  /// plans (as --parfor-explain) on stderr when a program is compiled;
  /// false (default): silent.
  bool fusionExplain;
  bool parforExplain;
  /// Directories of DML library functions (NAME.dml defining m_NAME, as
  /// amls-run --builtins), separated by ':', searched before AMLS's own
  /// library (share/amls/builtins beside the lib/ holding libAMLSCAPI.so);
  /// NULL: AMLS's own only.
  const char *builtins;
  /// Sparsity estimates of intermediates: "mnc" (default: the MNC sketches
  /// of the CSR arguments, the metadata estimate elsewhere), "metadata" or
  /// "worst" (as amls-run --sparsity-estimator).
  const char *sparsityEstimator;
} AmlsSessionOptions;

AMLS_CAPI_EXPORTED void amlsSessionOptionsInit(AmlsSessionOptions *options);

/// A new session (NULL options: the defaults); null, with `error` set, for
/// an option value that is not one of those listed, or for target "gpu"
/// where no usable GPU is (the reason: no driver, a stub driver, no
/// device).
AMLS_CAPI_EXPORTED AmlsSession
amlsSessionCreate(const AmlsSessionOptions *options, AmlsError *error);
/// Destroys the session and its programs.
AMLS_CAPI_EXPORTED void amlsSessionDestroy(AmlsSession session);
static inline bool amlsSessionIsNull(AmlsSession session) {
  return !session.ptr;
}

/// The context that programs built for the session must be created in
/// (every dialect the compiler needs is loaded). Use it from one thread at
/// a time.
AMLS_CAPI_EXPORTED MlirContext amlsSessionGetContext(AmlsSession session);

/// Parses `source`, AMLS IR in MLIR's text form (`sourceName` names it in
/// messages), and loads its function `entry`. Null, with `error` set, when
/// the text does not parse or verify or the entry cannot be run.
AMLS_CAPI_EXPORTED AmlsProgram amlsSessionCompileMLIR(AmlsSession session,
                                                      MlirStringRef source,
                                                      MlirStringRef sourceName,
                                                      MlirStringRef entry,
                                                      AmlsError *error);
/// Imports the DML script `source` as a program whose entry takes no
/// arguments (its inputs are read from files); `$name` arguments are bound
/// from `argumentNames`/`argumentValues` (`numArguments` of each).
AMLS_CAPI_EXPORTED AmlsProgram amlsSessionCompileDML(
    AmlsSession session, MlirStringRef source, MlirStringRef sourceName,
    const MlirStringRef *argumentNames, const MlirStringRef *argumentValues,
    intptr_t numArguments, AmlsError *error);
/// What a host passes to a DML script called as a function.
typedef enum AmlsInputKind {
  AMLS_INPUT_MATRIX = 0,  /* a dense f64 matrix */
  AMLS_INPUT_DOUBLE = 1,  /* a double */
  AMLS_INPUT_INTEGER = 2, /* an int64 (DML's INT) */
  AMLS_INPUT_BOOLEAN = 3  /* a boolean, passed as an integer 0 or 1 */
} AmlsInputKind;

typedef struct AmlsScriptInput {
  MlirStringRef name;
  AmlsInputKind kind;
} AmlsScriptInput;

/// Imports the DML script `source` as a function: each input becomes a
/// parameter, read by the script as the variable of that name (one it does
/// not assign first) or as `$name`; the results are the variables named
/// by `outputs` or, with `numOutputs` 0, every variable the script's top
/// level assigns that holds a matrix, number or boolean at its end, in name
/// order (amlsProgramGetResultName). A script reading a variable that is
/// neither an input nor assigned is an error at that read. `$name`
/// arguments bound in `argumentNames`/`argumentValues` (`numArguments`;
/// text, as amlsSessionCompileDML takes them) are constants of the
/// program instead of inputs.
AMLS_CAPI_EXPORTED AmlsProgram amlsSessionCompileDMLFunction(
    AmlsSession session, MlirStringRef source, MlirStringRef sourceName,
    const AmlsScriptInput *inputs, intptr_t numInputs,
    const MlirStringRef *outputs, intptr_t numOutputs,
    const MlirStringRef *argumentNames, const MlirStringRef *argumentValues,
    intptr_t numArguments, AmlsError *error);
/// Takes `module` (built in amlsSessionGetContext's context; the session
/// owns it from now on, also when the call fails) and loads its function
/// `entry`.
AMLS_CAPI_EXPORTED AmlsProgram amlsSessionLoadModule(AmlsSession session,
                                                     MlirModule module,
                                                     MlirStringRef entry,
                                                     AmlsError *error);

static inline bool amlsProgramIsNull(AmlsProgram program) {
  return !program.ptr;
}

/// The entry's parameters: names (the `amls.name` argument attribute, or
/// `argN`) and types, and its result types. Programs live as long as their
/// session.
AMLS_CAPI_EXPORTED intptr_t amlsProgramGetNumParameters(AmlsProgram program);
AMLS_CAPI_EXPORTED MlirStringRef amlsProgramGetParameterName(AmlsProgram program,
                                                            intptr_t index);
AMLS_CAPI_EXPORTED MlirType amlsProgramGetParameterType(AmlsProgram program,
                                                        intptr_t index);
/// The index of the parameter called `name`, or -1.
AMLS_CAPI_EXPORTED intptr_t amlsProgramFindParameter(AmlsProgram program,
                                                     MlirStringRef name);
AMLS_CAPI_EXPORTED intptr_t amlsProgramGetNumResults(AmlsProgram program);
AMLS_CAPI_EXPORTED MlirType amlsProgramGetResultType(AmlsProgram program,
                                                     intptr_t index);
/// A result's name (the `amls.name` result attribute, a DML variable's
/// name, or `resultN`), and whether it is a boolean returned as an integer
/// 0 or 1.
AMLS_CAPI_EXPORTED MlirStringRef amlsProgramGetResultName(AmlsProgram program,
                                                         intptr_t index);
AMLS_CAPI_EXPORTED bool amlsProgramIsBooleanResult(AmlsProgram program,
                                                   intptr_t index);

/// Runs the entry on `arguments` (one per parameter, in order), compiling a
/// specialization for their sizes unless one is cached, and stores one new
/// value per result in `results` (amlsProgramGetNumResults of them; the
/// caller destroys them). Fails, with `error` set, for a wrong number or
/// kind of arguments, a size error that inference finds, a compile
/// failure, or a failure while the compiled code runs (a file that cannot
/// be read, `stop()`; amlsErrorIsRunFailure; the limits are in
/// docs/c-api.md).
AMLS_CAPI_EXPORTED MlirLogicalResult amlsProgramRun(AmlsProgram program,
                                                    const AmlsValue *arguments,
                                                    intptr_t numArguments,
                                                    AmlsValue *results,
                                                    AmlsError *error);

/// The optimized plan of the specialization for `arguments` (as
/// amlsProgramRun takes them) as a Graphviz DOT graph, passed to `callback`
/// in one piece: one node per op with its shape, sparsity and format, fused
/// operators as clusters (docs/python.md, "Pictures of the plan"). Compiles
/// that specialization unless it is cached (a later run uses it); runs
/// nothing. Fails, with `error` set, as amlsProgramRun does before it runs.
AMLS_CAPI_EXPORTED MlirLogicalResult amlsProgramExplainPlan(
    AmlsProgram program, const AmlsValue *arguments, intptr_t numArguments,
    MlirStringCallback callback, void *userData, AmlsError *error);

/// What a session has done so far.
typedef struct AmlsSessionStatistics {
  uint64_t runs;
  /// Specializations compiled, and runs served by one compiled before.
  uint64_t compilations;
  uint64_t cacheHits;
  /// Runs whose program failed while it ran (amlsErrorIsRunFailure).
  uint64_t failedRuns;
  /// target "gpu": input matrices copied into memory the device reaches,
  /// and their bytes.
  uint64_t inputCopies;
  uint64_t inputCopyBytes;
  /// Input matrices the runs copied into row-major order or into the
  /// parameter's element type (the others were read in place: row-major
  /// or column-major in the parameter's element type), and their bytes.
  uint64_t inputLayoutCopies;
  uint64_t inputLayoutCopyBytes;
  /// Milliseconds in the optimizer, in code generation and JIT compilation,
  /// and in running compiled code, over all runs.
  double optimizeMilliseconds;
  double compileMilliseconds;
  double executeMilliseconds;
  /// The most bytes of this session's program buffers live at once
  /// (results still held count; each session has its own runtime context,
  /// so other sessions' buffers do not).
  uint64_t peakMemoryBytes;
} AmlsSessionStatistics;

AMLS_CAPI_EXPORTED AmlsSessionStatistics
amlsSessionGetStatistics(AmlsSession session);

/// This process's number (`rank`) among the processes that run each of the
/// session's programs together, and their count (`size`): target "mpi"
/// under an MPI launcher, the job's ranks; otherwise 0 of 1.
AMLS_CAPI_EXPORTED void amlsSessionGetProcessRank(AmlsSession session,
                                                  int64_t *rank,
                                                  int64_t *size);
/// This process's first row (`begin`) and row count (`count`) of a matrix
/// of `rows` rows split by rows over those processes: the block it passes
/// as a row block (amlsValueSetRowBlock). Rank r of N holds rows / N rows,
/// one more when r < rows % N, after the blocks of the ranks before it.
AMLS_CAPI_EXPORTED void amlsSessionGetRowBlock(AmlsSession session,
                                               int64_t rows, int64_t *begin,
                                               int64_t *count);

#ifdef __cplusplus
}
#endif

#endif /* AMLS_C_SESSION_H */
