/* Helpers the C API's test programs share. */

#ifndef AMLS_TEST_CAPI_TESTSUPPORT_H
#define AMLS_TEST_CAPI_TESTSUPPORT_H

#include "amls-c/Session.h"

#include <stdio.h>

/* A C string as the API takes it. */
static inline MlirStringRef ref(const char *text) {
  return mlirStringRefCreateFromCString(text);
}

/* Prints `error`'s message for FileCheck, frees it and returns the exit
 * status of a failed test. */
static inline int report(AmlsError error) {
  MlirStringRef message = amlsErrorGetMessage(error);
  printf("failed: %.*s\n", (int)message.length, message.data);
  amlsErrorDestroy(error);
  return 1;
}

#endif /* AMLS_TEST_CAPI_TESTSUPPORT_H */
