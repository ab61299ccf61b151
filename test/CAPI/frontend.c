/* A tiny "other frontend": it registers the amls dialect, builds and
 * inspects !amls.matrix types, builds an AMLS program op by op through
 * MLIR's C API (no text), and runs it in a session. Oracles are
 * hand-derived: X = [1 2; 3 4; 5 6], t(X) X = [35 44; 44 56], sum = 21.
 *
 * RUN: amls-capi-frontend 2>&1 | FileCheck %s
 */

#include "amls-c/Dialect.h"

#include "TestSupport.h"
#include "amls-c/Session.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

#include <stdio.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static void types(void) {
  // CHECK-LABEL: types
  // CHECK-NEXT: !amls.matrix<3x?xf64>
  // CHECK-NEXT: !amls.matrix<1000x20xf32, sparsity = 0.1, format = csr>
  // CHECK-NEXT: rows 1000, cols 20, sparsity 0.1, format csr 1, f32 1
  // CHECK-NEXT: i1 matrix is null: 1
  printf("types\n");
  MlirContext context = mlirContextCreate();
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__amls__(), context);
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__amls__(), context);
  MlirType plain = amlsMatrixTypeGet(context, 3, amlsMatrixTypeGetDynamicSize(),
                                     mlirF64TypeGet(context));
  mlirTypePrint(plain, printToStdout, NULL);
  printf("\n");
  MlirType sparse = amlsMatrixTypeGetWithProperties(
      context, 1000, 20, mlirF32TypeGet(context), 0.1, AMLS_MATRIX_CSR);
  mlirTypePrint(sparse, printToStdout, NULL);
  printf("\nrows %ld, cols %ld, sparsity %g, format csr %d, f32 %d\n",
         (long)amlsMatrixTypeGetRows(sparse),
         (long)amlsMatrixTypeGetCols(sparse), amlsMatrixTypeGetSparsity(sparse),
         amlsMatrixTypeHasFormat(sparse) &&
             amlsMatrixTypeGetFormat(sparse) == AMLS_MATRIX_CSR,
         mlirTypeIsAF32(amlsMatrixTypeGetElementType(sparse)));
  printf("i1 matrix is null: %d\n",
         mlirTypeIsNull(amlsMatrixTypeGet(context, 2, 2,
                                          mlirIntegerTypeGet(context, 1))));
  mlirContextDestroy(context);
}

/* Appends the op `name` with `operands` and one result of `type` (none if
 * null) to `block` and returns its result (or a null value). */
static MlirValue append(MlirBlock block, const char *name, MlirLocation loc,
                        intptr_t numOperands, MlirValue *operands,
                        MlirType type, intptr_t numAttributes,
                        MlirNamedAttribute *attributes) {
  MlirOperationState state = mlirOperationStateGet(ref(name), loc);
  mlirOperationStateAddOperands(&state, numOperands, operands);
  if (!mlirTypeIsNull(type))
    mlirOperationStateAddResults(&state, 1, &type);
  mlirOperationStateAddAttributes(&state, numAttributes, attributes);
  MlirOperation op = mlirOperationCreate(&state);
  mlirBlockAppendOwnedOperation(block, op);
  MlirValue none = {NULL};
  return mlirTypeIsNull(type) ? none : mlirOperationGetResult(op, 0);
}

static MlirNamedAttribute named(MlirContext context, const char *name,
                                MlirAttribute value) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(context, ref(name)), value);
}

/* func.func @main(%X {amls.name = "X"}) -> (t(X) %*% X, sum(X)), or with
 * `broken` a transpose whose result type contradicts its operand. */
static MlirModule buildProgram(MlirContext context, int broken) {
  MlirLocation loc =
      mlirLocationFileLineColGet(context, ref("frontend.c"), 7, 1);
  MlirModule module = mlirModuleCreateEmpty(loc);
  MlirType f64 = mlirF64TypeGet(context);
  long dynamic = amlsMatrixTypeGetDynamicSize();
  MlirType matrix = amlsMatrixTypeGet(context, dynamic, dynamic, f64);
  MlirType results[2] = {matrix, f64};
  MlirType function = mlirFunctionTypeGet(context, 1, &matrix, 2, results);
  MlirNamedAttribute argumentName =
      named(context, "amls.name", mlirStringAttrGet(context, ref("X")));
  MlirAttribute argumentAttrs = mlirDictionaryAttrGet(context, 1, &argumentName);
  MlirNamedAttribute functionAttrs[3] = {
      named(context, "sym_name", mlirStringAttrGet(context, ref("main"))),
      named(context, "function_type", mlirTypeAttrGet(function)),
      named(context, "arg_attrs", mlirArrayAttrGet(context, 1, &argumentAttrs))};
  MlirRegion body = mlirRegionCreate();
  MlirBlock block = mlirBlockCreate(1, &matrix, &loc);
  mlirRegionAppendOwnedBlock(body, block);
  MlirOperationState state = mlirOperationStateGet(ref("func.func"), loc);
  mlirOperationStateAddAttributes(&state, 3, functionAttrs);
  mlirOperationStateAddOwnedRegions(&state, 1, &body);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module),
                                mlirOperationCreate(&state));

  MlirValue x = mlirBlockGetArgument(block, 0);
  MlirLocation at =
      mlirLocationFileLineColGet(context, ref("frontend.c"), 8, 3);
  MlirValue t = append(block, "amls.transpose", at, 1, &x,
                       broken ? f64 : matrix, 0, NULL);
  MlirValue factors[2] = {t, x};
  MlirValue g = append(block, "amls.matmul", at, 2, factors, matrix, 0, NULL);
  MlirNamedAttribute aggregate[2] = {
      named(context, "kind", mlirAttributeParseGet(context, ref("0 : i32"))),
      named(context, "axis", mlirAttributeParseGet(context, ref("0 : i32")))};
  MlirValue s = append(block, "amls.agg", at, 1, &x, f64, 2, aggregate);
  MlirValue returned[2] = {g, s};
  MlirType none = {NULL};
  append(block, "func.return", at, 2, returned, none, 0, NULL);
  return module;
}

static void frontend(void) {
  // CHECK-LABEL: frontend
  // CHECK-NEXT: parameters 1, results 2
  // CHECK-NEXT: G = [35 44; 44 56], sum = 21
  printf("frontend\n");
  AmlsSession session = amlsSessionCreate(NULL, NULL);
  MlirContext context = amlsSessionGetContext(session);
  AmlsError error = {NULL};
  AmlsProgram program = amlsSessionLoadModule(
      session, buildProgram(context, 0), ref("main"), &error);
  if (amlsProgramIsNull(program)) {
    MlirStringRef message = amlsErrorGetMessage(error);
    printf("load: %.*s\n", (int)message.length, message.data);
    amlsErrorDestroy(error);
    return;
  }
  printf("parameters %ld, results %ld\n",
         (long)amlsProgramGetNumParameters(program),
         (long)amlsProgramGetNumResults(program));
  double cells[6] = {1, 2, 3, 4, 5, 6};
  AmlsValue x = amlsValueCreateDense(cells, AMLS_ELEMENT_F64, 3, 2, 2, 1);
  AmlsValue results[2];
  if (mlirLogicalResultIsFailure(
          amlsProgramRun(program, &x, 1, results, &error))) {
    MlirStringRef message = amlsErrorGetMessage(error);
    printf("run: %.*s\n", (int)message.length, message.data);
    amlsErrorDestroy(error);
    return;
  }
  AmlsMatrixRef G;
  amlsValueGetMatrix(results[0], &G);
  const double *g = (const double *)G.data;
  printf("G = [%g %g; %g %g], sum = %g\n", g[0], g[G.strides[1]],
         g[G.strides[0]], g[G.strides[0] + G.strides[1]],
         amlsValueGetFloat(results[1]));
  amlsValueDestroy(results[0]);
  amlsValueDestroy(results[1]);

  // An ill-typed program is reported at the op's location.
  // CHECK-NEXT: broken: frontend.c:8:3: error: 'amls.transpose' op result #0 must be
  program = amlsSessionLoadModule(session, buildProgram(context, 1),
                                  ref("main"), &error);
  if (amlsProgramIsNull(program)) {
    MlirStringRef message = amlsErrorGetMessage(error);
    printf("broken: %.*s\n", (int)message.length, message.data);
    amlsErrorDestroy(error);
  }
  amlsValueDestroy(x);
  amlsSessionDestroy(session);
}

int main(void) {
  types();
  frontend();
  return 0;
}
