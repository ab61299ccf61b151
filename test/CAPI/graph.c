/* Programs built as expression graphs (amls-c/Graph.h) from C: inputs,
 * literals, operators, builtin and library calls, a call with several
 * results, indexing, outputs; positions in a host source shown in
 * messages; the problems a graph can have; a library function's
 * signature; the plan of a program as a picture. Oracles are
 * hand-derived from the small integer matrices.
 *
 * RUN: amls-capi-graph 2>&1 | FileCheck %s
 */

#include "amls-c/Graph.h"

#include "TestSupport.h"
#include "amls-c/Session.h"

#include <stdio.h>

static void printMessage(const char *what, AmlsError error) {
  MlirStringRef message = amlsErrorGetMessage(error);
  printf("%s: %.*s\n", what, (int)message.length, message.data);
  amlsErrorDestroy(error);
}

static const char *kHost = "G = X.T @ X\n"
                           "bad = X @ X\n";

static AmlsGraphLocation at(intptr_t source, unsigned line,
                            unsigned column) {
  AmlsGraphLocation location = {source, line, column};
  return location;
}

static AmlsSession newSession(void) {
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 1;
  AmlsError error = {NULL};
  return amlsSessionCreate(&options, &error);
}

/* X = [1 2; 3 4; 5 6]: t(X) X = [35 44; 44 56], rowSums = [3 7 11],
 * X[2:3, 2] = [4; 6], sum(X) * 2 + 1 = 43. */
static void build(void) {
  AmlsSession session = newSession();
  AmlsGraph graph = amlsGraphCreate();
  intptr_t host = amlsGraphAddSource(graph, ref("host.py"), ref(kHost));
  AmlsGraphNode x = amlsGraphAddInput(graph, ref("X"), AMLS_INPUT_MATRIX);
  AmlsGraphNode t = amlsGraphAddCall(graph, ref("t"), &x, NULL, 1, 1,
                                     at(host, 1, 5));
  AmlsGraphNode g = amlsGraphAddBinary(graph, ref("%*%"), t, x,
                                       at(host, 1, 5));
  AmlsGraphNode rows = amlsGraphAddCall(graph, ref("rowSums"), &x, NULL, 1,
                                        1, at(host, 1, 1));
  AmlsGraphNode two = amlsGraphAddNumber(graph, 2, true, at(-1, 0, 0));
  AmlsGraphNode three = amlsGraphAddNumber(graph, 3, true, at(-1, 0, 0));
  AmlsGraphNode block =
      amlsGraphAddIndex(graph, x, two, three, two, -1, at(host, 1, 1));
  AmlsGraphNode total =
      amlsGraphAddCall(graph, ref("sum"), &x, NULL, 1, 1, at(-1, 0, 0));
  AmlsGraphNode scaled = amlsGraphAddBinary(
      graph, ref("+"),
      amlsGraphAddBinary(graph, ref("*"), total, two, at(-1, 0, 0)),
      amlsGraphAddNumber(graph, 1, false, at(-1, 0, 0)), at(-1, 0, 0));
  /* eigen has two results; the first of a 2 x 2 diagonal matrix's. */
  AmlsGraphNode diagonal = amlsGraphAddCall(graph, ref("diag"), &rows, NULL,
                                            1, 1, at(-1, 0, 0));
  AmlsGraphNode eigen = amlsGraphAddCall(graph, ref("eigen"), &diagonal,
                                         NULL, 1, 2, at(-1, 0, 0));
  AmlsGraphNode values = amlsGraphGetResult(graph, eigen, 0);
  amlsGraphAddOutput(graph, ref("G"), g);
  amlsGraphAddOutput(graph, ref("rows"), rows);
  amlsGraphAddOutput(graph, ref("block"), block);
  amlsGraphAddOutput(graph, ref("scaled"), scaled);
  amlsGraphAddOutput(graph, ref("values"), values);
  AmlsError error = {NULL};
  AmlsProgram program =
      amlsSessionCompileGraph(session, graph, ref("<graph>"), &error);
  amlsGraphDestroy(graph);
  // CHECK-LABEL: build
  printf("build\n");
  if (amlsProgramIsNull(program)) {
    printMessage("compile", error);
    return;
  }
  // CHECK-NEXT: parameters 1, results 5: G rows block scaled values
  printf("parameters %ld, results %ld:",
         (long)amlsProgramGetNumParameters(program),
         (long)amlsProgramGetNumResults(program));
  for (intptr_t i = 0; i < amlsProgramGetNumResults(program); ++i) {
    MlirStringRef name = amlsProgramGetResultName(program, i);
    printf(" %.*s", (int)name.length, name.data);
  }
  printf("\n");
  double cells[6] = {1, 2, 3, 4, 5, 6};
  AmlsValue argument =
      amlsValueCreateDense(cells, AMLS_ELEMENT_F64, 3, 2, 2, 1);
  AmlsValue results[5];
  if (mlirLogicalResultIsFailure(
          amlsProgramRun(program, &argument, 1, results, &error))) {
    printMessage("run", error);
    return;
  }
  AmlsMatrixRef m[3], v;
  for (int i = 0; i < 3; ++i)
    amlsValueGetMatrix(results[i], &m[i]);
  amlsValueGetMatrix(results[4], &v);
  const double *G = (const double *)m[0].data,
               *r = (const double *)m[1].data,
               *b = (const double *)m[2].data,
               *e = (const double *)v.data;
  // CHECK-NEXT: G = [35 44; 44 56]
  printf("G = [%g %g; %g %g]\n", G[0], G[m[0].strides[1]], G[m[0].strides[0]],
         G[m[0].strides[0] + m[0].strides[1]]);
  // CHECK-NEXT: rows = 3 7 11
  printf("rows = %g %g %g\n", r[0], r[m[1].strides[0]],
         r[2 * m[1].strides[0]]);
  // CHECK-NEXT: block 2x1 = 4 6
  printf("block %ldx%ld = %g %g\n", (long)m[2].rows, (long)m[2].cols, b[0],
         b[m[2].strides[0]]);
  // CHECK-NEXT: scaled = 43
  printf("scaled = %g\n", amlsValueGetFloat(results[3]));
  // CHECK-NEXT: eigenvalues 3x1 = 3 7 11
  printf("eigenvalues %ldx%ld = %g %g %g\n", (long)v.rows, (long)v.cols, e[0],
         e[v.strides[0]], e[2 * v.strides[0]]);
  for (int i = 0; i < 5; ++i)
    amlsValueDestroy(results[i]);
  amlsValueDestroy(argument);
  amlsSessionDestroy(session);
}

/* A message points at the host's line, with the line and a caret. */
static void position(void) {
  AmlsSession session = newSession();
  AmlsGraph graph = amlsGraphCreate();
  intptr_t host = amlsGraphAddSource(graph, ref("host.py"), ref(kHost));
  AmlsGraphNode x = amlsGraphAddInput(graph, ref("X"), AMLS_INPUT_MATRIX);
  AmlsGraphNode bad = amlsGraphAddBinary(graph, ref("%*%"), x, x,
                                         at(host, 2, 7));
  amlsGraphAddOutput(graph, ref("bad"), bad);
  AmlsError error = {NULL};
  AmlsProgram program =
      amlsSessionCompileGraph(session, graph, ref("<graph>"), &error);
  amlsGraphDestroy(graph);
  // CHECK-LABEL: position
  // The program is specialized to X's sizes at its first run.
  // CHECK-NEXT: run: host.py:2:7: error: '%*%': inner dimensions differ: 3x2 %*% 3x2
  // CHECK-NEXT: bad = X @ X
  // CHECK-NEXT:       ^
  printf("position\n");
  if (amlsProgramIsNull(program)) {
    printMessage("compile", error);
    return;
  }
  double cells[6] = {1, 2, 3, 4, 5, 6};
  AmlsValue argument =
      amlsValueCreateDense(cells, AMLS_ELEMENT_F64, 3, 2, 2, 1);
  AmlsValue result;
  if (mlirLogicalResultIsFailure(
          amlsProgramRun(program, &argument, 1, &result, &error)))
    printMessage("run", error);
  else
    printf("ran\n");
  amlsValueDestroy(argument);
  amlsSessionDestroy(session);
}

/* What a graph cannot take: the first problem is reported. */
static void problems(void) {
  AmlsSession session = newSession();
  // CHECK-LABEL: problems
  printf("problems\n");
  const char *cases[] = {"operator", "node", "result", "output", "none"};
  for (int c = 0; c < 5; ++c) {
    AmlsGraph graph = amlsGraphCreate();
    AmlsGraphNode x = amlsGraphAddInput(graph, ref("X"), AMLS_INPUT_MATRIX);
    AmlsGraphNode got = 0;
    if (c == 0)
      got = amlsGraphAddBinary(graph, ref("**"), x, x, at(-1, 0, 0));
    else if (c == 1)
      got = amlsGraphAddUnary(graph, ref("-"), 7, at(-1, 0, 0));
    else if (c == 2)
      got = amlsGraphGetResult(graph, x, 0);
    else if (c == 3)
      got = amlsGraphAddOutput(graph, ref("X"), x) ? 0 : -1;
    AmlsError error = {NULL};
    AmlsProgram program =
        amlsSessionCompileGraph(session, graph, ref("<graph>"), &error);
    amlsGraphDestroy(graph);
    printf("%s (%ld): ", cases[c], (long)got);
    if (amlsProgramIsNull(program))
      printMessage("error", error);
    else
      printf("compiled\n");
  }
  // CHECK-NEXT: operator (-1): error: unknown binary operator '**'
  // CHECK-NEXT: node (-1): error: unary '-': node 7 does not exist
  // CHECK-NEXT: result (-1): error: result 0 of node 0, which is not a call
  // CHECK-NEXT: output (-1): error: output name 'X' is taken
  // CHECK-NEXT: none (0): error: the graph has no outputs
  amlsSessionDestroy(session);
}

/* The library's kmeans: its parameters and two results, read from
 * kmeans.dml; a builtin has none. */
static void signature(void) {
  AmlsSession session = newSession();
  AmlsError error = {NULL};
  AmlsFunctionSignature kmeans =
      amlsSessionGetLibraryFunction(session, ref("kmeans"), &error);
  // CHECK-LABEL: signature
  printf("signature\n");
  if (!kmeans.ptr) {
    printMessage("kmeans", error);
    return;
  }
  MlirStringRef first = amlsFunctionSignatureGetSlotName(kmeans, false, 0);
  MlirStringRef kind = amlsFunctionSignatureGetSlotKind(kmeans, false, 0);
  // CHECK-NEXT: kmeans: first parameter X (matrix, default 0), 2 results: C matrix, Y matrix
  printf("kmeans: first parameter %.*s (%.*s, default %d), %ld results:",
         (int)first.length, first.data, (int)kind.length, kind.data,
         amlsFunctionSignatureSlotHasDefault(kmeans, false, 0),
         (long)amlsFunctionSignatureGetNumSlots(kmeans, true));
  for (intptr_t i = 0; i < amlsFunctionSignatureGetNumSlots(kmeans, true);
       ++i) {
    MlirStringRef name = amlsFunctionSignatureGetSlotName(kmeans, true, i);
    MlirStringRef type = amlsFunctionSignatureGetSlotKind(kmeans, true, i);
    printf("%s %.*s %.*s", i ? "," : "", (int)name.length, name.data,
           (int)type.length, type.data);
  }
  printf("\n");
  amlsFunctionSignatureDestroy(kmeans);
  AmlsFunctionSignature builtin =
      amlsSessionGetLibraryFunction(session, ref("rowSums"), &error);
  // CHECK-NEXT: rowSums: null 1, error 0
  printf("rowSums: null %d, error %d\n", builtin.ptr == NULL,
         error.ptr != NULL);
  amlsSessionDestroy(session);
}

static void appendText(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

/* amlsProgramExplainPlan: the plan of t(X) %*% X for a 3 x 2 X as DOT,
 * compiled and not run (no run counted), and a wrong argument count. */
static void explain(void) {
  AmlsSession session = newSession();
  AmlsGraph graph = amlsGraphCreate();
  AmlsGraphNode x = amlsGraphAddInput(graph, ref("X"), AMLS_INPUT_MATRIX);
  AmlsGraphNode t = amlsGraphAddCall(graph, ref("t"), &x, NULL, 1, 1,
                                     at(-1, 0, 0));
  amlsGraphAddOutput(graph, ref("G"),
                     amlsGraphAddBinary(graph, ref("%*%"), t, x,
                                        at(-1, 0, 0)));
  AmlsError error = {NULL};
  AmlsProgram program =
      amlsSessionCompileGraph(session, graph, ref("<graph>"), &error);
  amlsGraphDestroy(graph);
  // CHECK-LABEL: explain
  printf("explain\n");
  double cells[6] = {1, 2, 3, 4, 5, 6};
  AmlsValue argument =
      amlsValueCreateDense(cells, AMLS_ELEMENT_F64, 3, 2, 2, 1);
  // CHECK: digraph "amls plan" {
  // CHECK: [label="X\n3x2 f64{{.*}}", shape=ellipse];
  // CHECK: [label="tsmm\n2x2 f64
  // CHECK: [label="return", shape=ellipse];
  if (mlirLogicalResultIsFailure(amlsProgramExplainPlan(
          program, &argument, 1, appendText, stdout, &error)))
    printMessage("explain", error);
  // CHECK: runs 0, compilations 1
  AmlsSessionStatistics statistics = amlsSessionGetStatistics(session);
  printf("runs %lu, compilations %lu\n", (unsigned long)statistics.runs,
         (unsigned long)statistics.compilations);
  // CHECK-NEXT: explain: main: expected 1 arguments (X), found 0
  if (mlirLogicalResultIsFailure(amlsProgramExplainPlan(
          program, NULL, 0, appendText, stdout, &error)))
    printMessage("explain", error);
  amlsValueDestroy(argument);
  amlsSessionDestroy(session);
}

int main(void) {
  build();
  position();
  problems();
  signature();
  explain();
  return 0;
}
