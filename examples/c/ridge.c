/* Ridge regression through AMLS's C API: a host program hands its own
 * arrays to a compiled AMLS program, without copies, and gets the
 * coefficients back.
 *
 *   w = solve(t(X) %*% X + diag(lambda), t(X) %*% y)
 *
 * X (2000 x 10) and y = X %*% (1, 2, ..., 10) are generated here, so the
 * coefficients must come back as 1..10. The program is compiled for X's
 * sizes on the first call; the calls after it reuse that code.
 *
 * Build: part of `make` (build/bin/amls-example-ridge); run it with no
 * arguments. Link a program of your own against build/lib/libAMLSCAPI.so
 * and libMLIR.so, with include/ and LLVM's include directory on the path.
 */

#include "amls-c/Session.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *kRidge =
    "func.func @ridge(%X: !amls.matrix<?x?xf64> {amls.name = \"X\"},\n"
    "                 %y: !amls.matrix<?x1xf64> {amls.name = \"y\"},\n"
    "                 %lambda: f64 {amls.name = \"lambda\"})\n"
    "    -> !amls.matrix<?x1xf64> {\n"
    "  %c1 = arith.constant 1 : index\n"
    "  %p = amls.ncol %X : !amls.matrix<?x?xf64>\n"
    "  %l = amls.fill %lambda, %p, %c1 : f64 -> !amls.matrix<?x1xf64>\n"
    "  %L = amls.diag %l : !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>\n"
    "  %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> "
    "!amls.matrix<?x?xf64>\n"
    "  %G = amls.matmul %Xt, %X : !amls.matrix<?x?xf64>, "
    "!amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>\n"
    "  %A = amls.add %G, %L : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> "
    "-> !amls.matrix<?x?xf64>\n"
    "  %b = amls.matmul %Xt, %y : !amls.matrix<?x?xf64>, "
    "!amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>\n"
    "  %w = amls.solve %A, %b : !amls.matrix<?x?xf64>, "
    "!amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>\n"
    "  return %w : !amls.matrix<?x1xf64>\n"
    "}\n";

static int fail(const char *what, AmlsError error) {
  MlirStringRef message = amlsErrorGetMessage(error);
  fprintf(stderr, "%s: %.*s\n", what, (int)message.length, message.data);
  amlsErrorDestroy(error);
  return 1;
}

int main(void) {
  enum { kRows = 2000, kCols = 10 };
  static double X[kRows * kCols], y[kRows];
  for (int r = 0; r < kRows; ++r) {
    y[r] = 0;
    for (int c = 0; c < kCols; ++c) {
      X[r * kCols + c] = sin(0.37 * r + 1.3 * c) + (r % (c + 2)) * 0.1;
      y[r] += X[r * kCols + c] * (c + 1);
    }
  }

  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 2;
  AmlsError error = {NULL};
  AmlsSession session = amlsSessionCreate(&options, &error);
  if (amlsSessionIsNull(session))
    return fail("session", error);
  AmlsProgram ridge = amlsSessionCompileMLIR(
      session, mlirStringRefCreateFromCString(kRidge),
      mlirStringRefCreateFromCString("ridge.mlir"),
      mlirStringRefCreateFromCString("ridge"), &error);
  if (amlsProgramIsNull(ridge))
    return fail("compile", error);

  /* The caller's arrays, borrowed: the compiled code reads them in place. */
  AmlsValue arguments[3] = {
      amlsValueCreateDense(X, AMLS_ELEMENT_F64, kRows, kCols, kCols, 1),
      amlsValueCreateDense(y, AMLS_ELEMENT_F64, kRows, 1, 1, 1),
      amlsValueCreateFloat(1e-9)};
  AmlsValue w;
  for (int call = 0; call < 3; ++call) {
    if (call > 0)
      amlsValueDestroy(w);
    if (mlirLogicalResultIsFailure(
            amlsProgramRun(ridge, arguments, 3, &w, &error)))
      return fail("run", error);
  }

  AmlsMatrixRef coefficients;
  amlsValueGetMatrix(w, &coefficients);
  const double *cells = (const double *)coefficients.data;
  double largestError = 0;
  printf("coefficients:");
  for (int c = 0; c < kCols; ++c) {
    double value = cells[c * coefficients.strides[0]];
    printf(" %.6f", value);
    largestError = fmax(largestError, fabs(value - (c + 1)));
  }
  AmlsSessionStatistics statistics = amlsSessionGetStatistics(session);
  printf("\nlargest difference from 1..%d: %.1e\n", kCols, largestError);
  printf("calls %lu, compilations %lu, served from the cache %lu\n",
         (unsigned long)statistics.runs,
         (unsigned long)statistics.compilations,
         (unsigned long)statistics.cacheHits);
  printf("milliseconds: optimize %.1f, compile %.1f, run %.2f (3 calls)\n",
         statistics.optimizeMilliseconds, statistics.compileMilliseconds,
         statistics.executeMilliseconds);

  amlsValueDestroy(w);
  for (int i = 0; i < 3; ++i)
    amlsValueDestroy(arguments[i]);
  amlsSessionDestroy(session);
  return largestError < 1e-6 ? 0 : 1;
}
