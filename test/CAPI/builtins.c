/* The DML library through the C API: a script that calls lm, l2svm,
 * multiLogReg, kmeans and pca (written with its inputs by
 * test/Oracles/library_builtins.py) compiled by amlsSessionCompileDML
 * with $dir bound, so the session finds share/amls/builtins beside
 * libAMLSCAPI.so; with a third argument, AmlsSessionOptions.builtins
 * names a folder searched first (its lm.dml gives 42s), and a folder that
 * does not exist fails the session. The oracle checks the files written.
 *
 * RUN: rm -rf %t && mkdir -p %t
 * RUN: %python %amls_src_root/test/Oracles/library_builtins.py data %t
 * RUN: amls-capi-builtins %t/script.dml %t | FileCheck %s --check-prefix=RAN
 * RUN: %python %amls_src_root/test/Oracles/library_builtins.py check %t | FileCheck %s
 * RUN: amls-capi-builtins %t/script.dml %t %t/shadow | FileCheck %s --check-prefix=RAN
 * RUN: FileCheck %s --check-prefix=SHADOW < %t/B.csv
 * RUN: not amls-capi-builtins %t/script.dml %t %t/empty 2>&1 | FileCheck %s --check-prefix=EMPTY
 *
 * RAN: ran {{.*}}script.dml
 * CHECK-NOT: FAIL
 * CHECK: PASS: B 5x1
 * CHECK-NEXT: PASS: w 5x1
 * CHECK-NEXT: PASS: M 5x2
 * CHECK-NEXT: PASS: C 3x2
 * CHECK-NEXT: PASS: P 100x2
 * SHADOW: 42
 * SHADOW-NEXT: 42
 * EMPTY: error: session: invalid session options: builtins folder '{{.*}}empty' is not a directory
 */

#include "amls-c/Session.h"

#include <stdio.h>
#include <stdlib.h>

static char *readFile(const char *path) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return NULL;
  fseek(file, 0, SEEK_END);
  long size = ftell(file);
  fseek(file, 0, SEEK_SET);
  char *text = malloc((size_t)size + 1);
  size_t read = fread(text, 1, (size_t)size, file);
  text[read] = '\0';
  fclose(file);
  return text;
}

static int fail(const char *what, AmlsError error) {
  MlirStringRef message = amlsErrorGetMessage(error);
  fprintf(stderr, "error: %s: %.*s\n", what, (int)message.length,
          message.data);
  amlsErrorDestroy(error);
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s SCRIPT DIR [BUILTINS]\n", argv[0]);
    return 2;
  }
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 2;
  if (argc > 3)
    options.builtins = argv[3];
  char *source = readFile(argv[1]);
  if (!source) {
    fprintf(stderr, "error: cannot read %s\n", argv[1]);
    return 1;
  }
  AmlsError error = {NULL};
  AmlsSession session = amlsSessionCreate(&options, &error);
  if (amlsSessionIsNull(session))
    return fail("session", error);
  MlirStringRef names[1] = {mlirStringRefCreateFromCString("dir")};
  MlirStringRef values[1] = {mlirStringRefCreateFromCString(argv[2])};
  AmlsProgram program = amlsSessionCompileDML(
      session, mlirStringRefCreateFromCString(source),
      mlirStringRefCreateFromCString(argv[1]), names, values, 1, &error);
  free(source);
  if (amlsProgramIsNull(program)) {
    amlsSessionDestroy(session);
    return fail("compile", error);
  }
  if (mlirLogicalResultIsFailure(amlsProgramRun(program, NULL, 0, NULL,
                                                &error))) {
    amlsSessionDestroy(session);
    return fail("run", error);
  }
  printf("ran %s\n", argv[1]);
  amlsSessionDestroy(session);
  return 0;
}
