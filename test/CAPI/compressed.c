/* Compressed linear algebra through libAMLSCAPI.so: a session with
 * formats = "compressed" compiles a power iteration on a 20000 x 4 matrix
 * of binned values (column c holds 1 .. c + 3), whose loop multiplies X
 * through the runtime's column groups; the plan (amlsProgramExplainPlan)
 * shows the compressed X. The oracle is the same iteration in plain C
 * loops; a session with formats = "dense" must match it too.
 *
 * RUN: amls-capi-compressed | FileCheck %s
 * CHECK: compressed: s = {{[0-9.e+]+}} (oracle {{[0-9.e+]+}}): match
 * CHECK: plan: {{.*}}label="compress\n20000x4 f64
 * CHECK-SAME: kernel compressed x dense
 * CHECK: dense: s = {{[0-9.e+]+}} (oracle {{[0-9.e+]+}}): match
 */

#include "amls-c/Session.h"

#include "TestSupport.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kRows = 20000, kCols = 4, kSteps = 3 };

static const char *kScript = "v = matrix(1, rows=ncol(X), cols=1)\n"
                             "for (i in 1:3) {\n"
                             "  q = X %*% v\n"
                             "  v = t(X) %*% q\n"
                             "  v = v / max(v)\n"
                             "}\n"
                             "s = sum(v)\n";

/* The script's iteration in plain loops. */
static double oracle(const double *x) {
  double v[kCols], next[kCols];
  for (int c = 0; c < kCols; ++c)
    v[c] = 1.0;
  for (int step = 0; step < kSteps; ++step) {
    memset(next, 0, sizeof(next));
    for (int r = 0; r < kRows; ++r) {
      double q = 0.0;
      for (int c = 0; c < kCols; ++c)
        q += x[r * kCols + c] * v[c];
      for (int c = 0; c < kCols; ++c)
        next[c] += x[r * kCols + c] * q;
    }
    double largest = next[0];
    for (int c = 1; c < kCols; ++c)
      largest = next[c] > largest ? next[c] : largest;
    for (int c = 0; c < kCols; ++c)
      v[c] = next[c] / largest;
  }
  double s = 0.0;
  for (int c = 0; c < kCols; ++c)
    s += v[c];
  return s;
}

static void printPlan(MlirStringRef text, void *userData) {
  (void)userData;
  /* One line, so that FileCheck finds the op and its format together. */
  printf("plan: ");
  for (size_t i = 0; i < text.length; ++i)
    putchar(text.data[i] == '\n' ? ' ' : text.data[i]);
  printf("\n");
}

/* Runs the script in a session with `formats`; prints the result against
 * the oracle and, when `plan`, the optimized plan. */
static int run(const char *formats, const double *x, double expected,
               int plan) {
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 2;
  options.formats = formats;
  AmlsSession session = amlsSessionCreate(&options, NULL);
  AmlsScriptInput inputs[1] = {{ref("X"), AMLS_INPUT_MATRIX}};
  AmlsError error = {NULL};
  /* The one result, s (without names, every variable the script assigns
   * would be a result). */
  MlirStringRef result = ref("s");
  AmlsProgram program = amlsSessionCompileDMLFunction(
      session, ref(kScript), ref("power.dml"), inputs, 1, &result, 1, NULL,
      NULL, 0, &error);
  AmlsValue argument =
      amlsValueCreateDense(x, AMLS_ELEMENT_F64, kRows, kCols, kCols, 1);
  AmlsValue sum;
  if (amlsProgramIsNull(program) || mlirLogicalResultIsFailure(amlsProgramRun(
                                        program, &argument, 1, &sum, &error)))
    return report(error);
  double s = amlsValueGetFloat(sum);
  int match = !isnan(s) && fabs(s - expected) <= 1e-12 * fabs(expected);
  printf("%s: s = %.15g (oracle %.15g): %s\n", formats, s, expected,
         match ? "match" : "MISMATCH");
  if (plan && mlirLogicalResultIsFailure(amlsProgramExplainPlan(
                  program, &argument, 1, printPlan, NULL, &error)))
    return report(error);
  amlsValueDestroy(sum);
  amlsValueDestroy(argument);
  amlsSessionDestroy(session);
  return match ? 0 : 1;
}

int main(void) {
  double *x = malloc(sizeof(double) * kRows * kCols);
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c)
      x[r * kCols + c] = 1.0 + (double)((r * (c + 2) + r / 7) % (c + 3));
  double expected = oracle(x);
  int failed = run("compressed", x, expected, 1) | run("dense", x, expected, 0);
  free(x);
  return failed;
}
