/* The C API from C: sessions, programs from AMLS IR and DML text, values
 * over the caller's memory, results handed over, errors with locations,
 * statistics and the compile cache, programs that fail while they run,
 * CSR inputs and results, sessions running concurrently, and row blocks
 * (target mpi without a launcher: one rank).
 * Oracles are hand-derived (t(X) X of small integer matrices, sums).
 *
 * RUN: amls-capi-session 2>&1 | FileCheck %s
 */

#include "amls-c/Dialect.h"

#include "TestSupport.h"
#include "amls-c/Session.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void printError(const char *what, AmlsError error) {
  MlirStringRef message = amlsErrorGetMessage(error);
  printf("%s: %.*s\n", what, (int)message.length, message.data);
  fflush(stdout);
  amlsErrorDestroy(error);
}

static const char *kGram =
    "func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = \"X\"},\n"
    "                %w: f64 {amls.name = \"w\"})\n"
    "    -> (!amls.matrix<?x?xf64>, f64) {\n"
    "  %t = amls.transpose %X : !amls.matrix<?x?xf64> -> "
    "!amls.matrix<?x?xf64>\n"
    "  %G = amls.matmul %t, %X : !amls.matrix<?x?xf64>, "
    "!amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>\n"
    "  %s = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64\n"
    "  %ws = arith.mulf %s, %w : f64\n"
    "  return %G, %ws : !amls.matrix<?x?xf64>, f64\n"
    "}\n";

/* X = [1 2; 3 4; 5 6]: t(X) X = [35 44; 44 56], sum = 21. */
static void gram(void) {
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 1;
  AmlsError error = {NULL};
  AmlsSession session = amlsSessionCreate(&options, &error);
  AmlsProgram program = amlsSessionCompileMLIR(session, ref(kGram),
                                               ref("gram.mlir"), ref("main"),
                                               &error);
  if (amlsProgramIsNull(program)) {
    printError("gram", error);
    return;
  }
  // CHECK-LABEL: gram
  // CHECK-NEXT: parameters 2: X w, results 2
  // CHECK-NEXT: X is a matrix: 1, rows ? (1)
  printf("gram\nparameters %ld: ", (long)amlsProgramGetNumParameters(program));
  for (intptr_t i = 0; i < amlsProgramGetNumParameters(program); ++i) {
    MlirStringRef name = amlsProgramGetParameterName(program, i);
    printf("%s%.*s", i ? " " : "", (int)name.length, name.data);
  }
  printf(", results %ld\n", (long)amlsProgramGetNumResults(program));
  MlirType x = amlsProgramGetParameterType(program, 0);
  printf("X is a matrix: %d, rows ? (%d)\n", amlsTypeIsAMatrix(x),
         amlsMatrixTypeGetRows(x) == amlsMatrixTypeGetDynamicSize());

  double cells[6] = {1, 2, 3, 4, 5, 6};
  AmlsValue arguments[2] = {
      amlsValueCreateDense(cells, AMLS_ELEMENT_F64, 3, 2, 2, 1),
      amlsValueCreateFloat(2.0)};
  AmlsValue results[2];
  for (int run = 0; run < 3; ++run) {
    if (mlirLogicalResultIsFailure(
            amlsProgramRun(program, arguments, 2, results, &error))) {
      printError("gram run", error);
      return;
    }
    if (run < 2) {
      amlsValueDestroy(results[0]);
      amlsValueDestroy(results[1]);
    }
  }
  // CHECK-NEXT: G = [35 44; 44 56], 2 * sum = 42
  AmlsMatrixRef G;
  amlsValueGetMatrix(results[0], &G);
  const double *g = (const double *)G.data;
  printf("G = [%g %g; %g %g], 2 * sum = %g\n", g[0], g[G.strides[0] > 1],
         g[G.strides[0]], g[G.strides[0] + 1], amlsValueGetFloat(results[1]));
  // The caller takes the result's memory; the value is left empty.
  // CHECK-NEXT: taken 1, value now 0x0, taken again 0, G[1,1] = 56
  AmlsMatrixRef taken;
  int ok = amlsValueTakeMatrix(results[0], &taken);
  AmlsMatrixRef left;
  amlsValueGetMatrix(results[0], &left);
  AmlsMatrixRef again;
  printf("taken %d, value now %ldx%ld, taken again %d, G[1,1] = %g\n", ok,
         (long)left.rows, (long)left.cols,
         amlsValueTakeMatrix(results[0], &again),
         ((const double *)taken.data)[taken.strides[0] + taken.strides[1]]);
  amlsMatrixMemoryFree(taken.allocation);
  // A borrowed input cannot be taken.
  // CHECK-NEXT: borrowed input taken 0
  printf("borrowed input taken %d\n",
         amlsValueTakeMatrix(arguments[0], &again));
  // Three runs, one compilation: the second and third hit the cache.
  // CHECK-NEXT: runs 3, compilations 1, cache hits 2
  AmlsSessionStatistics statistics = amlsSessionGetStatistics(session);
  printf("runs %lu, compilations %lu, cache hits %lu\n",
         (unsigned long)statistics.runs,
         (unsigned long)statistics.compilations,
         (unsigned long)statistics.cacheHits);
  // A column-major view (strides 1, 3) of the same cells is read in place
  // (as the row-major transpose) and an f32 matrix is converted once (one
  // layout copy of 48 bytes): both give t(X) X of their matrix.
  // CHECK-NEXT: column-major G[0,0] = 14, f32 G[0,0] = 35, layout copies 1 (48 bytes)
  double columnMajor[6] = {1, 2, 3, 4, 5, 6}; /* X = [1 4; 2 5; 3 6] */
  float singles[6] = {1, 2, 3, 4, 5, 6};
  AmlsValue views[2] = {
      amlsValueCreateDense(columnMajor, AMLS_ELEMENT_F64, 3, 2, 1, 3),
      amlsValueCreateDense(singles, AMLS_ELEMENT_F32, 3, 2, 2, 1)};
  double firstCell[2];
  for (int i = 0; i < 2; ++i) {
    AmlsValue in[2] = {views[i], arguments[1]};
    AmlsValue out[2];
    if (mlirLogicalResultIsFailure(
            amlsProgramRun(program, in, 2, out, &error))) {
      printError("views", error);
      return;
    }
    AmlsMatrixRef m;
    amlsValueGetMatrix(out[0], &m);
    firstCell[i] = ((const double *)m.data)[0];
    amlsValueDestroy(out[0]);
    amlsValueDestroy(out[1]);
    amlsValueDestroy(views[i]);
  }
  statistics = amlsSessionGetStatistics(session);
  printf("column-major G[0,0] = %g, f32 G[0,0] = %g, layout copies %lu (%lu "
         "bytes)\n",
         firstCell[0], firstCell[1],
         (unsigned long)statistics.inputLayoutCopies,
         (unsigned long)statistics.inputLayoutCopyBytes);

  // Wrong argument count and kind: errors, not crashes.
  // CHECK-NEXT: run error: main: expected 2 arguments (X, w), found 1
  if (mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 1, results + 1, &error)))
    printError("run error", error);
  amlsValueDestroy(results[0]);
  amlsValueDestroy(results[1]);
  amlsValueDestroy(arguments[0]);
  amlsValueDestroy(arguments[1]);
  amlsSessionDestroy(session);
}

static void errors(void) {
  // CHECK-LABEL: errors
  printf("errors\n");
  fflush(stdout);
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.fusion = "everything";
  AmlsError error = {NULL};
  // CHECK: options: invalid session options: expected fusion 'cost', 'fuse-all', 'fuse-no-redundancy' or 'none', found 'everything'
  AmlsSession session = amlsSessionCreate(&options, &error);
  if (amlsSessionIsNull(session))
    printError("options", error);
  // CHECK: estimator: invalid session options: expected sparsity-estimator 'mnc', 'metadata' or 'worst', found 'exact'
  amlsSessionOptionsInit(&options);
  options.sparsityEstimator = "exact";
  session = amlsSessionCreate(&options, &error);
  if (amlsSessionIsNull(session))
    printError("estimator", error);
  // CHECK: target: invalid session options: expected target 'cpu', 'gpu' or 'mpi', found 'tpu'
  amlsSessionOptionsInit(&options);
  options.target = "tpu";
  session = amlsSessionCreate(&options, &error);
  if (amlsSessionIsNull(session))
    printError("target", error);
  // CHECK: chip: invalid session options: expected a GPU chip sm_NN (sm_52 or newer, e.g. sm_80, sm_90), found 'sm_5'
  options.target = "gpu";
  options.gpuChip = "sm_5";
  session = amlsSessionCreate(&options, &error);
  if (amlsSessionIsNull(session))
    printError("chip", error);
  session = amlsSessionCreate(NULL, NULL);
  // A parse error names the source, line and column.
  // CHECK: parse: bad.mlir:2:3: error: custom op 'amls.nonsense' is unknown
  // CHECK-NEXT: amls.nonsense
  // CHECK-NEXT: ^
  AmlsProgram program = amlsSessionCompileMLIR(
      session, ref("func.func @main() {\n  amls.nonsense\n}\n"),
      ref("bad.mlir"), ref("main"), &error);
  if (amlsProgramIsNull(program))
    printError("parse", error);
  // CHECK: entry: gram.mlir: error: no function 'start' to run; functions: main
  program = amlsSessionCompileMLIR(session, ref(kGram), ref("gram.mlir"),
                                   ref("start"), &error);
  if (amlsProgramIsNull(program))
    printError("entry", error);
  // A DML error speaks DML, at the script's line and column.
  // CHECK: dml: script.dml:2:5: error: undefined variable 'z'
  // CHECK-NEXT: y = z + 1
  program = amlsSessionCompileDML(session, ref("x = 1\ny = z + 1\nprint(y)\n"),
                                  ref("script.dml"), NULL, NULL, 0, &error);
  if (amlsProgramIsNull(program))
    printError("dml", error);
  // A DML script with a $ argument runs (its output is the print).
  // CHECK: dml with $n: 0 parameters
  // CHECK-NEXT: 42.0
  const MlirStringRef names[1] = {ref("n")};
  const MlirStringRef values[1] = {ref("6")};
  program = amlsSessionCompileDML(session, ref("print(sum(seq(1, $n)) * 2)\n"),
                                  ref("n.dml"), names, values, 1, &error);
  if (amlsProgramIsNull(program)) {
    printError("dml with $n", error);
  } else {
    printf("dml with $n: %ld parameters\n",
           (long)amlsProgramGetNumParameters(program));
    fflush(stdout);
    if (mlirLogicalResultIsFailure(
            amlsProgramRun(program, NULL, 0, NULL, &error)))
      printError("dml run", error);
    fflush(stdout);
  }
  amlsSessionDestroy(session);
}

/* A DML script called as a function: its free variables and $k are
 * inputs, every variable it assigns a result. X = [1 2; 3 4; 5 6],
 * y = (1, 1, 1): t(X) X = [35 44; 44 56], t(X) y = (9, 12),
 * sum(X * X) = 91. */
static void dmlFunction(void) {
  // CHECK-LABEL: dml function
  printf("dml function\n");
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 1;
  AmlsSession session = amlsSessionCreate(&options, NULL);
  AmlsError error = {NULL};
  AmlsScriptInput inputs[3] = {{ref("X"), AMLS_INPUT_MATRIX},
                               {ref("y"), AMLS_INPUT_MATRIX},
                               {ref("k"), AMLS_INPUT_INTEGER}};
  AmlsProgram program = amlsSessionCompileDMLFunction(
      session,
      ref("G = t(X) %*% X\nb = t(X) %*% y\ns = sum(X * X)\n"
          "big = s > 90\nn = $k + 1\n"),
      ref("gram.dml"), inputs, 3, NULL, 0, NULL, NULL, 0, &error);
  if (amlsProgramIsNull(program)) {
    printError("dml function", error);
    return;
  }
  // CHECK-NEXT: parameters: X y k
  // CHECK-NEXT: results: G b big (boolean) n s
  printf("parameters:");
  for (intptr_t i = 0; i < amlsProgramGetNumParameters(program); ++i) {
    MlirStringRef name = amlsProgramGetParameterName(program, i);
    printf(" %.*s", (int)name.length, name.data);
  }
  printf("\nresults:");
  intptr_t numResults = amlsProgramGetNumResults(program);
  for (intptr_t i = 0; i < numResults; ++i) {
    MlirStringRef name = amlsProgramGetResultName(program, i);
    printf(" %.*s%s", (int)name.length, name.data,
           amlsProgramIsBooleanResult(program, i) ? " (boolean)" : "");
  }
  printf("\n");
  double cells[6] = {1, 2, 3, 4, 5, 6}, ones[3] = {1, 1, 1};
  AmlsValue arguments[3] = {
      amlsValueCreateDense(cells, AMLS_ELEMENT_F64, 3, 2, 2, 1),
      amlsValueCreateDense(ones, AMLS_ELEMENT_F64, 3, 1, 1, 1),
      amlsValueCreateInteger(41)};
  AmlsValue results[5];
  if (numResults != 5 ||
      mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 3, results, &error))) {
    printError("dml function run", error);
    return;
  }
  // CHECK-NEXT: G[1,1] = 56, b = (9, 12), big = 1, n = 42, s = 91
  AmlsMatrixRef G, b;
  amlsValueGetMatrix(results[0], &G);
  amlsValueGetMatrix(results[1], &b);
  const double *g = (const double *)G.data, *bv = (const double *)b.data;
  printf("G[1,1] = %g, b = (%g, %g), big = %ld, n = %g, s = %g\n",
         g[G.strides[0] + G.strides[1]], bv[0], bv[b.strides[0]],
         (long)amlsValueGetInteger(results[2]), amlsValueGetFloat(results[3]),
         amlsValueGetFloat(results[4]));
  for (int i = 0; i < 5; ++i)
    amlsValueDestroy(results[i]);
  for (int i = 0; i < 3; ++i)
    amlsValueDestroy(arguments[i]);

  // Only the outputs asked for; one the script does not assign is an error.
  // CHECK-NEXT: outputs: 1 (s)
  const MlirStringRef only[1] = {ref("s")};
  program = amlsSessionCompileDMLFunction(session, ref("s = sum(X)\nt = 2\n"),
                                          ref("s.dml"), inputs, 1, only, 1,
                                          NULL, NULL, 0, &error);
  if (!amlsProgramIsNull(program)) {
    MlirStringRef name = amlsProgramGetResultName(program, 0);
    printf("outputs: %ld (%.*s)\n", (long)amlsProgramGetNumResults(program),
           (int)name.length, name.data);
  }
  // CHECK-NEXT: missing: w.dml: error: the script does not assign 'w', which was asked for as an output
  const MlirStringRef missing[1] = {ref("w")};
  program = amlsSessionCompileDMLFunction(session, ref("s = sum(X)\n"),
                                          ref("w.dml"), inputs, 1, missing, 1,
                                          NULL, NULL, 0, &error);
  if (amlsProgramIsNull(program))
    printError("missing", error);
  // A bound $argument is a constant of the program, not an input.
  // CHECK-NEXT: bound $scale: 1 parameter, 2 * sum(X) = 42
  const MlirStringRef argName[1] = {ref("scale")};
  const MlirStringRef argValue[1] = {ref("2")};
  program = amlsSessionCompileDMLFunction(
      session, ref("s = $scale * sum(X)\n"), ref("b.dml"), inputs, 1, NULL, 0,
      argName, argValue, 1, &error);
  if (amlsProgramIsNull(program)) {
    printError("bound", error);
  } else {
    double xs[6] = {1, 2, 3, 4, 5, 6};
    AmlsValue x = amlsValueCreateDense(xs, AMLS_ELEMENT_F64, 3, 2, 2, 1);
    AmlsValue sum;
    if (mlirLogicalResultIsSuccess(amlsProgramRun(program, &x, 1, &sum, NULL))) {
      printf("bound $scale: %ld parameter, 2 * sum(X) = %g\n",
             (long)amlsProgramGetNumParameters(program),
             amlsValueGetFloat(sum));
      amlsValueDestroy(sum);
    }
    amlsValueDestroy(x);
  }
  // A variable that is neither an input nor assigned.
  // CHECK-NEXT: free: f.dml:1:9: error: undefined variable 'Z'
  program = amlsSessionCompileDMLFunction(session, ref("s = X + Z\n"),
                                          ref("f.dml"), inputs, 1, NULL, 0,
                                          NULL, NULL, 0, &error);
  if (amlsProgramIsNull(program))
    printError("free", error);
  amlsSessionDestroy(session);
}

/* Each thread its own session; all must compute the same Gram matrix of
 * their own data: X = k * [1 2; 3 4; 5 6], G = k^2 [35 44; 44 56]. */
static void *runSession(void *argument) {
  double k = *(double *)argument;
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 1;
  AmlsSession session = amlsSessionCreate(&options, NULL);
  AmlsProgram program = amlsSessionCompileMLIR(
      session, ref(kGram), ref("gram.mlir"), ref("main"), NULL);
  double cells[6];
  for (int i = 0; i < 6; ++i)
    cells[i] = k * (i + 1);
  AmlsValue arguments[2] = {
      amlsValueCreateDense(cells, AMLS_ELEMENT_F64, 3, 2, 2, 1),
      amlsValueCreateFloat(1.0)};
  int wrong = amlsProgramIsNull(program);
  for (int run = 0; run < 5 && !wrong; ++run) {
    AmlsValue results[2];
    if (mlirLogicalResultIsFailure(
            amlsProgramRun(program, arguments, 2, results, NULL))) {
      wrong = 1;
      break;
    }
    AmlsMatrixRef G;
    amlsValueGetMatrix(results[0], &G);
    const double *g = (const double *)G.data;
    wrong |= fabs(g[0] - 35 * k * k) > 1e-9 ||
             fabs(g[G.strides[0] + 1] - 56 * k * k) > 1e-9 ||
             fabs(amlsValueGetFloat(results[1]) - 21 * k) > 1e-9;
    amlsValueDestroy(results[0]);
    amlsValueDestroy(results[1]);
  }
  amlsValueDestroy(arguments[0]);
  amlsValueDestroy(arguments[1]);
  amlsSessionDestroy(session);
  *(double *)argument = wrong ? -1 : 0;
  return NULL;
}

static void concurrentSessions(void) {
  // CHECK-LABEL: concurrent
  // CHECK-NEXT: 4 sessions on 4 threads: 0 wrong
  enum { kThreads = 4 };
  pthread_t threads[kThreads];
  double arguments[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    arguments[i] = i + 1;
    pthread_create(&threads[i], NULL, runSession, &arguments[i]);
  }
  int wrong = 0;
  for (int i = 0; i < kThreads; ++i) {
    pthread_join(threads[i], NULL);
    wrong += arguments[i] != 0;
  }
  printf("concurrent\n%d sessions on %d threads: %d wrong\n", kThreads,
         kThreads, wrong);
}

/* A program that fails while it runs returns the failure; the process and
 * the session go on: stop(), a file that cannot be read and stop() in one
 * of a parfor's workers (on two threads), then a program that runs
 * (2 * 21 = 42). */
static void runFailures(void) {
  // CHECK-LABEL: run failures
  printf("run failures\n");
  fflush(stdout);
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 2;
  AmlsSession session = amlsSessionCreate(&options, NULL);
  AmlsError error = {NULL};
  const char *scripts[3] = {
      "x = 5\nif (x > 2) { stop(\"x is too large: \" + x) }\nprint(x)\n",
      "X = read(\"/nonexistent/amls/input.csv\")\nprint(sum(X))\n",
      "R = matrix(0, rows=64, cols=1)\n"
      "parfor (i in 1:64) {\n"
      "  if (i == 37) { stop(\"failed at \" + i) }\n"
      "  R[i, 1] = sum(rand(rows=200, cols=200, seed=i))\n"
      "}\n"
      "print(sum(R))\n"};
  // CHECK: run 0: run failure 1: stop.dml: error: the program failed while it ran: stop: x is too large: 5
  // CHECK: run 1: run failure 1: read.dml: error: the program failed while it ran: 'amls.read' at read.dml:1:5: /nonexistent/amls/input.csv: cannot open the file for reading
  // CHECK: run 2: run failure 1: parfor.dml: error: the program failed while it ran: stop: failed at 37
  const char *names[3] = {"stop.dml", "read.dml", "parfor.dml"};
  for (int i = 0; i < 3; ++i) {
    AmlsProgram program = amlsSessionCompileDML(
        session, ref(scripts[i]), ref(names[i]), NULL, NULL, 0, &error);
    if (amlsProgramIsNull(program)) {
      printError("compile", error);
      continue;
    }
    if (mlirLogicalResultIsFailure(
            amlsProgramRun(program, NULL, 0, NULL, &error))) {
      char what[32];
      snprintf(what, sizeof(what), "run %d: run failure %d", i,
               (int)amlsErrorIsRunFailure(error));
      printError(what, error);
    }
  }
  // A compile error is not a run failure.
  // CHECK: compile failure 0
  AmlsProgram bad = amlsSessionCompileDML(session, ref("y = z\n"),
                                          ref("bad.dml"), NULL, NULL, 0,
                                          &error);
  if (amlsProgramIsNull(bad)) {
    printf("compile failure %d\n", (int)amlsErrorIsRunFailure(error));
    amlsErrorDestroy(error);
  }
  // CHECK: after: 42{{$}}
  printf("after: ");
  fflush(stdout);
  AmlsProgram fine = amlsSessionCompileDML(session, ref("print(2 * 21)\n"),
                                           ref("fine.dml"), NULL, NULL, 0,
                                           &error);
  if (amlsProgramIsNull(fine) ||
      mlirLogicalResultIsFailure(amlsProgramRun(fine, NULL, 0, NULL, &error)))
    printError("fine", error);
  fflush(stdout);
  // CHECK: failed runs: 3 of 4
  AmlsSessionStatistics statistics = amlsSessionGetStatistics(session);
  printf("failed runs: %llu of %llu\n",
         (unsigned long long)statistics.failedRuns,
         (unsigned long long)statistics.runs);
  amlsSessionDestroy(session);
}

/* A CSR input over the caller's arrays, taken as CSR (no dense copy):
 * A = [1 0 2 0; 0 0 0 3; 4 5 0 0], x = (1, 2, 3, 4): A x = (7, 12, 14),
 * sum(A) = 15, colSums(A) = (5, 5, 2, 3). Arrays that are not CSR fail
 * the run with what is wrong. */
/* A = [1 0 2 0; 0 0 0 3; 4 5 0 0] as CSR arrays, and x = (1, 2, 3, 4). */
typedef struct SampleCSR {
  int64_t offsets[4];
  int32_t columns[5];
  double values[5], x[4];
} SampleCSR;
static const SampleCSR kSample = {
    {0, 2, 3, 5}, {0, 2, 3, 0, 1}, {1, 2, 3, 4, 5}, {1, 2, 3, 4}};

/* The arguments A (CSR over the sample's arrays) and x. */
static void sampleArguments(SampleCSR *sample, AmlsValue arguments[2]) {
  arguments[0] = amlsValueCreateCSR(3, 4, sample->offsets, sample->columns,
                                    sample->values);
  arguments[1] = amlsValueCreateDense(sample->x, AMLS_ELEMENT_F64, 4, 1, 1, 1);
}

/* A DML script of the matrices A and x with three outputs. */
static AmlsProgram compileOnAAndX(AmlsSession session, const char *source,
                                  const char *name,
                                  const MlirStringRef outputs[3]) {
  AmlsError error = {NULL};
  AmlsScriptInput inputs[2] = {{ref("A"), AMLS_INPUT_MATRIX},
                               {ref("x"), AMLS_INPUT_MATRIX}};
  AmlsProgram program = amlsSessionCompileDMLFunction(
      session, ref(source), ref(name), inputs, 2, outputs, 3, NULL, NULL, 0,
      &error);
  if (amlsProgramIsNull(program))
    printError(name, error);
  return program;
}

static void csrInput(void) {
  // CHECK-LABEL: csr input
  printf("csr input\n");
  AmlsSession session = amlsSessionCreate(NULL, NULL);
  AmlsError error = {NULL};
  const MlirStringRef outputs[3] = {ref("y"), ref("s"), ref("c")};
  AmlsProgram program = compileOnAAndX(
      session, "y = A %*% x\ns = sum(A)\nc = colSums(A)\n", "csr.dml",
      outputs);
  if (amlsProgramIsNull(program))
    return;
  SampleCSR sample = kSample;
  AmlsValue arguments[2];
  sampleArguments(&sample, arguments);
  AmlsValue results[3];
  // CHECK-NEXT: y = (7, 12, 14), s = 15, c = (5, 5, 2, 3)
  if (mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 2, results, &error))) {
    printError("csr run", error);
  } else {
    AmlsMatrixRef y, c;
    amlsValueGetMatrix(results[0], &y);
    amlsValueGetMatrix(results[2], &c);
    const double *yv = (const double *)y.data, *cv = (const double *)c.data;
    printf("y = (%g, %g, %g), s = %g, c = (%g, %g, %g, %g)\n", yv[0],
           yv[y.strides[0]], yv[2 * y.strides[0]],
           amlsValueGetFloat(results[1]), cv[0], cv[c.strides[1]],
           cv[2 * c.strides[1]], cv[3 * c.strides[1]]);
    for (int i = 0; i < 3; ++i)
      amlsValueDestroy(results[i]);
  }
  amlsValueDestroy(arguments[0]);
  // CHECK-NEXT: bad csr: csr.dml: error: parameter 'A' was given a CSR matrix whose row 3 has column index 4, outside 0..3
  sample.columns[4] = 4;
  arguments[0] = amlsValueCreateCSR(3, 4, sample.offsets, sample.columns,
                                    sample.values);
  if (mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 2, results, &error)))
    printError("bad csr", error);
  amlsValueDestroy(arguments[0]);
  // Row offsets that do not start at 0, or that decrease.
  // CHECK-NEXT: offsets from 1: csr.dml: error: parameter 'A' was given a CSR matrix whose row offsets start at 1, not 0
  // CHECK-NEXT: decreasing offsets: csr.dml: error: parameter 'A' was given a CSR matrix whose row offsets decrease at row 2
  sample.columns[4] = 1;
  int64_t fromOne[4] = {1, 2, 3, 5}, decreasing[4] = {0, 3, 2, 5};
  arguments[0] =
      amlsValueCreateCSR(3, 4, fromOne, sample.columns, sample.values);
  if (mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 2, results, &error)))
    printError("offsets from 1", error);
  amlsValueDestroy(arguments[0]);
  arguments[0] =
      amlsValueCreateCSR(3, 4, decreasing, sample.columns, sample.values);
  if (mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 2, results, &error)))
    printError("decreasing offsets", error);
  amlsValueDestroy(arguments[0]);
  // CHECK-NEXT: null arrays: 1
  printf("null arrays: %d\n",
         (int)amlsValueIsNull(
             amlsValueCreateCSR(3, 4, sample.offsets, NULL, NULL)));
  amlsValueDestroy(arguments[1]);
  amlsSessionDestroy(session);
}

static void printCSR(const char *name, const AmlsMatrixRef *m) {
  printf("%s: csr %d, %lldx%lld, offsets", name, m->format == AMLS_MATRIX_CSR,
         (long long)m->rows, (long long)m->cols);
  for (int64_t r = 0; r <= m->rows; ++r)
    printf(" %lld", (long long)m->row_offsets[r]);
  printf(", columns");
  for (int64_t k = 0; k < m->nnz; ++k)
    printf(" %d", m->column_indices[k]);
  printf(", values");
  for (int64_t k = 0; k < m->nnz; ++k)
    printf(" %g", ((const double *)m->data)[k]);
  printf("\n");
}

/* csrResults: the matrices a program computes CSR come back CSR, owning
 * their three arrays. With A as in csrInput, 2 * A keeps A's structure
 * with the values doubled, t(A) = [1 0 4; 0 0 5; 2 0 0; 0 3 0], and
 * A %*% x stays dense (7, 12, 14). A result taken with amlsValueTakeMatrix
 * hands its three allocations to the caller. */
static void csrResults(void) {
  // CHECK-LABEL: csr results
  printf("csr results\n");
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.csrResults = true;
  AmlsError error = {NULL};
  AmlsSession session = amlsSessionCreate(&options, &error);
  const MlirStringRef outputs[3] = {ref("B"), ref("T"), ref("y")};
  AmlsProgram program = compileOnAAndX(
      session, "B = A * 2\nT = t(A)\ny = A %*% x\n", "csr-results.dml",
      outputs);
  if (amlsProgramIsNull(program))
    return;
  SampleCSR sample = kSample;
  AmlsValue arguments[2];
  sampleArguments(&sample, arguments);
  AmlsValue results[3];
  if (mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 2, results, &error))) {
    printError("csr results run", error);
  } else {
    AmlsMatrixRef b, t, y;
    // CHECK-NEXT: B: csr 1, 3x4, offsets 0 2 3 5, columns 0 2 3 0 1, values 2 4 6 8 10
    // CHECK-NEXT: T: csr 1, 4x3, offsets 0 2 3 4 5, columns 0 2 2 0 1, values 1 4 5 2 3
    // CHECK-NEXT: y: dense 1, (7, 12, 14)
    amlsValueGetMatrix(results[1], &t);
    amlsValueGetMatrix(results[2], &y);
    // B is taken: its three arrays are the caller's to free.
    bool taken = amlsValueTakeMatrix(results[0], &b);
    printCSR("B", &b);
    printCSR("T", &t);
    const double *yv = (const double *)y.data;
    printf("y: dense %d, (%g, %g, %g)\n", y.format == AMLS_MATRIX_DENSE,
           yv[0], yv[y.strides[0]], yv[2 * y.strides[0]]);
    // CHECK-NEXT: taken 1: allocations 1 1 1, the value is now 0x0
    AmlsMatrixRef empty;
    amlsValueGetMatrix(results[0], &empty);
    printf("taken %d: allocations %d %d %d, the value is now %lldx%lld\n",
           taken, b.allocation != NULL, b.row_offsets_allocation != NULL,
           b.column_indices_allocation != NULL, (long long)empty.rows,
           (long long)empty.cols);
    amlsMatrixMemoryFree(b.allocation);
    amlsMatrixMemoryFree(b.row_offsets_allocation);
    amlsMatrixMemoryFree(b.column_indices_allocation);
    for (int i = 0; i < 3; ++i)
      amlsValueDestroy(results[i]);
  }
  amlsValueDestroy(arguments[0]);
  amlsValueDestroy(arguments[1]);
  amlsSessionDestroy(session);
}

/* f32 and i64 matrices over the caller's memory, read in place by an IR
 * function that declares them: the values borrow the arrays (the
 * descriptor points at them), and an i64 sum above 2^53 is exact, which a
 * conversion to f64 would not keep: (2^53 + 1) + 1 + 2 - (2^53 + 1) = 3;
 * the f32 cells 0, 0.25, ..., 2.75 sum to 16.5. */
static void typedInputs(void) {
  // CHECK-LABEL: typed inputs
  printf("typed inputs\n");
  AmlsSession session = amlsSessionCreate(NULL, NULL);
  AmlsError error = {NULL};
  AmlsProgram program = amlsSessionCompileMLIR(
      session,
      ref("func.func @main(%X: !amls.matrix<?x?xf32>, "
          "%N: !amls.matrix<?x?xi64>) -> (f32, i64) {\n"
          "  %0 = amls.agg sum all %X : !amls.matrix<?x?xf32> -> f32\n"
          "  %1 = amls.agg sum all %N : !amls.matrix<?x?xi64> -> i64\n"
          "  return %0, %1 : f32, i64\n}\n"),
      ref("typed.mlir"), ref("main"), &error);
  if (amlsProgramIsNull(program)) {
    printError("typed", error);
    return;
  }
  float X[12];
  for (int i = 0; i < 12; ++i)
    X[i] = (float)i / 4;
  int64_t big = ((int64_t)1 << 53) + 1;
  int64_t N[4] = {big, 1, 2, -big};
  AmlsValue arguments[2] = {
      amlsValueCreateDense(X, AMLS_ELEMENT_F32, 3, 4, 4, 1),
      amlsValueCreateDense(N, AMLS_ELEMENT_I64, 2, 2, 2, 1)};
  AmlsMatrixRef x, n;
  amlsValueGetMatrix(arguments[0], &x);
  amlsValueGetMatrix(arguments[1], &n);
  // CHECK-NEXT: borrowed: 1 1, element types f32 1 i64 1
  printf("borrowed: %d %d, element types f32 %d i64 %d\n", x.data == X,
         n.data == N, x.element_type == AMLS_ELEMENT_F32,
         n.element_type == AMLS_ELEMENT_I64);
  AmlsValue results[2];
  // CHECK-NEXT: s = 16.5, n = 3
  if (mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 2, results, &error))) {
    printError("typed run", error);
  } else {
    printf("s = %g, n = %lld\n", amlsValueGetFloat(results[0]),
           (long long)amlsValueGetInteger(results[1]));
    amlsValueDestroy(results[0]);
    amlsValueDestroy(results[1]);
  }
  amlsValueDestroy(arguments[0]);
  amlsValueDestroy(arguments[1]);
  amlsSessionDestroy(session);
}

/* Row blocks: with target "mpi" and no launcher the job is one rank, whose
 * block is the whole matrix: sum(X) of [1 2; 3 4; 5 6] is 21, nrow 3. A
 * CPU session refuses a row block. */
static void rowBlocks(void) {
  // CHECK-LABEL: row blocks
  printf("row blocks\n");
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 1;
  options.target = "mpi";
  AmlsError error = {NULL};
  AmlsSession session = amlsSessionCreate(&options, &error);
  if (amlsSessionIsNull(session)) {
    printError("mpi session", error);
    return;
  }
  int64_t rank, size, begin, count;
  amlsSessionGetProcessRank(session, &rank, &size);
  amlsSessionGetRowBlock(session, 7, &begin, &count);
  // CHECK-NEXT: rank 0 of 1, rows 0 + 7 of 7
  printf("rank %lld of %lld, rows %lld + %lld of 7\n", (long long)rank,
         (long long)size, (long long)begin, (long long)count);
  AmlsScriptInput inputs[1] = {{ref("X"), AMLS_INPUT_MATRIX}};
  const char *source = "s = sum(X)\nn = nrow(X)\n";
  AmlsProgram program = amlsSessionCompileDMLFunction(
      session, ref(source), ref("blocks.dml"), inputs, 1, NULL, 0, NULL, NULL,
      0, &error);
  double cells[6] = {1, 2, 3, 4, 5, 6};
  AmlsValue arguments[1] = {
      amlsValueCreateDense(cells, AMLS_ELEMENT_F64, 3, 2, 2, 1)};
  AmlsValue number = amlsValueCreateFloat(1.0);
  // CHECK-NEXT: marks: matrix 1, float 0
  printf("marks: matrix %d, float %d\n",
         amlsValueSetRowBlock(arguments[0], true),
         amlsValueSetRowBlock(number, true));
  amlsValueDestroy(number);
  AmlsValue results[2];
  // CHECK-NEXT: n = 3, s = 21
  if (amlsProgramIsNull(program) ||
      mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 1, results, &error))) {
    printError("row block run", error);
  } else {
    printf("n = %lld, s = %g\n", (long long)amlsValueGetInteger(results[0]),
           amlsValueGetFloat(results[1]));
    amlsValueDestroy(results[0]);
    amlsValueDestroy(results[1]);
  }
  amlsSessionDestroy(session);
  options.target = "cpu";
  session = amlsSessionCreate(&options, NULL);
  program = amlsSessionCompileDMLFunction(session, ref(source),
                                          ref("blocks.dml"), inputs, 1, NULL,
                                          0, NULL, NULL, 0, &error);
  // CHECK-NEXT: cpu: blocks.dml: error: parameter 'X' was given a block of rows, which only a target that splits matrices over processes takes (target 'mpi'); this session's target is 'cpu'
  if (!amlsProgramIsNull(program) &&
      mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 1, results, &error)))
    printError("cpu", error);
  amlsValueDestroy(arguments[0]);
  amlsSessionDestroy(session);
}

int main(void) {
  gram();
  errors();
  dmlFunction();
  concurrentSessions();
  runFailures();
  csrInput();
  csrResults();
  typedInputs();
  rowBlocks();
  return 0;
}
