/* A fused operator (amls.fused) and a parfor compiled and run through
 * libAMLSCAPI.so. Both failed to verify while AMLS was built with GCC and
 * libMLIR.so with clang (docs/c-api.md, "The compiler AMLS is built
 * with"). Oracles, derived by hand: X = [1 2; 3 4; 5 6], b = (1, 1),
 * y = (1, 1, 1): sum(X b - y) = 3 + 7 + 11 - 3 = 18; the parfor's R(i) =
 * i * rowSum(X, i) = (3, 14, 33), whose sum is 50. The session's explain
 * options show that the sum is one fused operator and that the parfor
 * runs on two workers.
 *
 * RUN: amls-capi-fused-and-parfor 2> %t.explain | FileCheck %s
 * RUN: FileCheck %s --check-prefix=EXPLAIN < %t.explain
 * CHECK: sum(X b - y) = 18
 * CHECK: parfor: sum(R) = 50
 * EXPLAIN: operator: cell computing {{.*}} amls.agg from {{.*}} amls.sub {{.*}} amls.agg
 * EXPLAIN: amls-parfor: parfor at parfor.dml:2:1: R by rows
 * EXPLAIN-NEXT: amls-parfor: plan: 2 workers x 1 inner thread,
 */

#include "amls-c/Session.h"

#include "TestSupport.h"

#include <stdio.h>

int main(void) {
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 2;
  options.fusionExplain = true;
  options.parforExplain = true;
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
          amlsProgramRun(program, arguments, 3, &sum, &error)))
    return report(error);
  printf("sum(X b - y) = %g\n", amlsValueGetFloat(sum));
  amlsValueDestroy(sum);

  MlirStringRef sumName = ref("s");
  AmlsProgram parfor = amlsSessionCompileDMLFunction(
      session,
      ref("R = matrix(0, rows=nrow(X), cols=1)\n"
          "parfor (i in 1:nrow(X), par=2, opt=NONE) {\n"
          "  R[i, 1] = sum(X[i, ]) * i\n"
          "}\n"
          "s = sum(R)\n"),
      ref("parfor.dml"), inputs, 1, &sumName, 1, NULL, NULL, 0, &error);
  AmlsValue total;
  if (amlsProgramIsNull(parfor) ||
      mlirLogicalResultIsFailure(
          amlsProgramRun(parfor, arguments, 1, &total, &error)))
    return report(error);
  printf("parfor: sum(R) = %g\n", amlsValueGetFloat(total));
  amlsValueDestroy(total);
  for (int i = 0; i < 3; ++i)
    amlsValueDestroy(arguments[i]);
  amlsSessionDestroy(session);
  return 0;
}
