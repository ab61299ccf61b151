/* Known issue (docs/c-api.md, "Known issues"): from libAMLSCAPI.so, a
 * program with a fused operator (amls.fused) or a parfor does not verify:
 * libMLIR.so (clang) and AMLS's code (GCC) compute different TypeIDs for
 * the IsTerminator trait of amls.yield. Expected to fail until fixed; the
 * oracle is hand-derived: X = [1 2; 3 4; 5 6], b = (1, 1), y = (1, 1, 1),
 * sum(X b - y) = 3 + 7 + 11 - 3 = 18.
 *
 * XFAIL: *
 * RUN: amls-capi-known-issue-fused | FileCheck %s
 * CHECK: sum(X b - y) = 18
 */

#include "amls-c/Session.h"

#include <stdio.h>

static MlirStringRef ref(const char *text) {
  return mlirStringRefCreateFromCString(text);
}

int main(void) {
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.fusion = "cost";
  AmlsSession session = amlsSessionCreate(&options, NULL);
  AmlsScriptInput inputs[3] = {{ref("X"), AMLS_INPUT_MATRIX},
                               {ref("b"), AMLS_INPUT_MATRIX},
                               {ref("y"), AMLS_INPUT_MATRIX}};
  AmlsError error = {NULL};
  AmlsProgram program = amlsSessionCompileDMLFunction(
      session, ref("s = sum(X %*% b - y)\n"), ref("fused.dml"), inputs, 3,
      NULL, 0, NULL, NULL, 0, &error);
  double X[6] = {1, 2, 3, 4, 5, 6}, b[2] = {1, 1}, y[3] = {1, 1, 1};
  AmlsValue arguments[3] = {
      amlsValueCreateDense(X, AMLS_ELEMENT_F64, 3, 2, 2, 1),
      amlsValueCreateDense(b, AMLS_ELEMENT_F64, 2, 1, 1, 1),
      amlsValueCreateDense(y, AMLS_ELEMENT_F64, 3, 1, 1, 1)};
  AmlsValue sum;
  if (amlsProgramIsNull(program) ||
      mlirLogicalResultIsFailure(
          amlsProgramRun(program, arguments, 3, &sum, &error))) {
    MlirStringRef message = amlsErrorGetMessage(error);
    printf("failed: %.*s\n", (int)message.length, message.data);
    amlsErrorDestroy(error);
    return 1;
  }
  printf("sum(X b - y) = %g\n", amlsValueGetFloat(sum));
  amlsValueDestroy(sum);
  for (int i = 0; i < 3; ++i)
    amlsValueDestroy(arguments[i]);
  amlsSessionDestroy(session);
  return 0;
}
