/*===- Support.h - AMLS C API: handles and errors -------------------*- C -*-===*\
|*                                                                            *|
|* What every part of the AMLS C API shares: the export macro and the error  *|
|* object that fallible calls hand back. In the style of MLIR's C API        *|
|* (mlir-c/): opaque handles, `...Create`/`...Destroy`, string references.   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_C_SUPPORT_H
#define AMLS_C_SUPPORT_H

#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

#define AMLS_CAPI_EXPORTED __attribute__((visibility("default")))

#define AMLS_DEFINE_C_API_STRUCT(name, storage)                                \
  struct name {                                                                \
    storage *ptr;                                                              \
  };                                                                           \
  typedef struct name name

/// What went wrong in a call that failed: the message, which carries the
/// source position (file:line:col) or the op's location where there is one.
/// A fallible call takes an `AmlsError *` (which may be NULL) and, when it
/// fails, stores a new error there that the caller destroys.
AMLS_DEFINE_C_API_STRUCT(AmlsError, void);

/// The message, valid until the error is destroyed.
AMLS_CAPI_EXPORTED MlirStringRef amlsErrorGetMessage(AmlsError error);
AMLS_CAPI_EXPORTED void amlsErrorDestroy(AmlsError error);
/// Whether the compiled program failed while it ran (a check, a file that
/// cannot be read, `stop()`, the memory budget), as opposed to a program
/// or argument that did not compile or bind. Either way the process goes
/// on; see docs/c-api.md for the failures that still end it.
AMLS_CAPI_EXPORTED bool amlsErrorIsRunFailure(AmlsError error);

static inline bool amlsErrorIsNull(AmlsError error) { return !error.ptr; }

#ifdef __cplusplus
}
#endif

#endif /* AMLS_C_SUPPORT_H */
