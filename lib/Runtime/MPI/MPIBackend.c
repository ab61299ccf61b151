/*===- MPIBackend.c - libamls_mpi_{openmpi,mpich}: MPI for the runtime ----===*\
|*                                                                            *|
|* Built once per MPI against its own mpi.h (include/AMLS/Runtime/            *|
|* MPIBackend.h says why). Plain C: the only C++ is the runtime's, which      *|
|* loads this library with dlopen.                                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "AMLS/Runtime/MPIBackend.h"

#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MPI_Comm communicator = MPI_COMM_NULL;
static int initializedHere = 0;
static char lastErrorText[512];
static char versionText[MPI_MAX_LIBRARY_VERSION_STRING];

static int failWith(const char *call, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    snprintf(text, sizeof text, "error %d", code);
  snprintf(lastErrorText, sizeof lastErrorText, "%s failed: %s", call, text);
  return 1;
}

/// MPI counts are int: a larger one is refused with its size, never
/// truncated.
static int checkCount(const char *call, int64_t count) {
  if (count < 0 || count > INT_MAX) {
    snprintf(lastErrorText, sizeof lastErrorText,
             "%s: %lld elements exceed MPI's count limit (%d)", call,
             (long long)count, INT_MAX);
    return 1;
  }
  return 0;
}

#define CHECK_MPI(call, expression)                                            \
  do {                                                                         \
    int code_ = (expression);                                                  \
    if (code_ != MPI_SUCCESS)                                                  \
      return failWith(call, code_);                                            \
  } while (0)

static int init(void) {
  int initialized = 0;
  CHECK_MPI("MPI_Initialized", MPI_Initialized(&initialized));
  if (!initialized) {
    int provided = 0;
    CHECK_MPI("MPI_Init_thread",
              MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided));
    initializedHere = 1;
  }
  if (communicator == MPI_COMM_NULL) {
    CHECK_MPI("MPI_Comm_dup", MPI_Comm_dup(MPI_COMM_WORLD, &communicator));
    /* Errors come back as codes, which the runtime reports and ends every
       rank on. */
    MPI_Comm_set_errhandler(communicator, MPI_ERRORS_RETURN);
  }
  return 0;
}

static int finalize(void) {
  if (communicator != MPI_COMM_NULL)
    CHECK_MPI("MPI_Comm_free", MPI_Comm_free(&communicator));
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (initializedHere && !finalized)
    CHECK_MPI("MPI_Finalize", MPI_Finalize());
  return 0;
}

static int32_t rank(void) {
  int value = 0;
  MPI_Comm_rank(communicator, &value);
  return value;
}

static int32_t size(void) {
  int value = 1;
  MPI_Comm_size(communicator, &value);
  return value;
}

static MPI_Op reductionOp(int32_t reduction) {
  switch (reduction) {
  case AMLS_MPI_MIN:
    return MPI_MIN;
  case AMLS_MPI_MAX:
    return MPI_MAX;
  default:
    return MPI_SUM;
  }
}

static int allreduceF64(double *values, int64_t count, int32_t reduction) {
  if (checkCount("MPI_Allreduce", count))
    return 1;
  CHECK_MPI("MPI_Allreduce",
            MPI_Allreduce(MPI_IN_PLACE, values, (int)count, MPI_DOUBLE,
                          reductionOp(reduction), communicator));
  return 0;
}

static int allreduceI64(int64_t *values, int64_t count, int32_t reduction) {
  if (checkCount("MPI_Allreduce", count))
    return 1;
  CHECK_MPI("MPI_Allreduce",
            MPI_Allreduce(MPI_IN_PLACE, values, (int)count, MPI_INT64_T,
                          reductionOp(reduction), communicator));
  return 0;
}

/// int counts and displacements for a v-collective, or 1 when one does not
/// fit (the caller frees both on success).
static int toIntCounts(const char *call, const int64_t *counts,
                       const int64_t *offsets, int ranks, int **intCounts,
                       int **intOffsets) {
  *intCounts = (int *)malloc(sizeof(int) * (size_t)ranks);
  *intOffsets = (int *)malloc(sizeof(int) * (size_t)ranks);
  if (!*intCounts || !*intOffsets) {
    free(*intCounts);
    free(*intOffsets);
    snprintf(lastErrorText, sizeof lastErrorText, "%s: out of memory", call);
    return 1;
  }
  int64_t offset = 0;
  for (int r = 0; r < ranks; ++r) {
    int64_t at = offsets ? offsets[r] : offset;
    if (checkCount(call, counts[r]) || checkCount(call, at)) {
      free(*intCounts);
      free(*intOffsets);
      return 1;
    }
    (*intCounts)[r] = (int)counts[r];
    (*intOffsets)[r] = (int)at;
    offset += counts[r];
  }
  return 0;
}

static int allgathervF64(const double *local, int64_t localCount,
                         double *gathered, const int64_t *counts) {
  int ranks = size();
  int *intCounts, *intOffsets;
  if (checkCount("MPI_Allgatherv", localCount) ||
      toIntCounts("MPI_Allgatherv", counts, NULL, ranks, &intCounts,
                  &intOffsets))
    return 1;
  int code = MPI_Allgatherv(local, (int)localCount, MPI_DOUBLE, gathered,
                            intCounts, intOffsets, MPI_DOUBLE, communicator);
  free(intCounts);
  free(intOffsets);
  return code == MPI_SUCCESS ? 0 : failWith("MPI_Allgatherv", code);
}

static int allgatherI64(int64_t local, int64_t *gathered) {
  CHECK_MPI("MPI_Allgather", MPI_Allgather(&local, 1, MPI_INT64_T, gathered,
                                           1, MPI_INT64_T, communicator));
  return 0;
}

static int alltoallvBytes(const void *send, const int64_t *sendCounts,
                          const int64_t *sendOffsets, void *receive,
                          const int64_t *receiveCounts,
                          const int64_t *receiveOffsets) {
  int ranks = size();
  int *sc, *so, *rc, *ro;
  if (toIntCounts("MPI_Alltoallv", sendCounts, sendOffsets, ranks, &sc, &so))
    return 1;
  if (toIntCounts("MPI_Alltoallv", receiveCounts, receiveOffsets, ranks, &rc,
                  &ro)) {
    free(sc);
    free(so);
    return 1;
  }
  int code = MPI_Alltoallv(send, sc, so, MPI_BYTE, receive, rc, ro, MPI_BYTE,
                           communicator);
  free(sc);
  free(so);
  free(rc);
  free(ro);
  return code == MPI_SUCCESS ? 0 : failWith("MPI_Alltoallv", code);
}

static void abortAll(int status) {
  MPI_Abort(communicator != MPI_COMM_NULL ? communicator : MPI_COMM_WORLD,
            status);
}

static const char *lastError(void) { return lastErrorText; }

static const char *libraryVersion(void) {
  if (!versionText[0]) {
    int length = 0;
    MPI_Get_library_version(versionText, &length);
    char *newline = strchr(versionText, '\n');
    if (newline)
      *newline = '\0';
    char *comma = strchr(versionText, ',');
    if (comma)
      *comma = '\0';
  }
  return versionText;
}

AMLS_MPI_EXPORT const AmlsMpiBackend *amls_mpi_backend(void) {
  static const AmlsMpiBackend backend = {
      init,          finalize,     rank,           size,
      allreduceF64,  allreduceI64, allgathervF64,  allgatherI64,
      alltoallvBytes, abortAll,    lastError,      libraryVersion};
  return &backend;
}
