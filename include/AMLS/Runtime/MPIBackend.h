/*===- MPIBackend.h - The MPI calls of libamls_runtime --------------*- C -*-===*\
|*                                                                            *|
|* Open MPI and MPICH are not ABI compatible (handles are pointers in one,    *|
|* integers in the other), so libamls_runtime does not link either. It loads  *|
|* libamls_mpi_openmpi.so or libamls_mpi_mpich.so, each built from            *|
|* lib/Runtime/MPI/MPIBackend.c against that MPI's own mpi.h, with dlopen,    *|
|* the way it loads the CUDA driver, and calls MPI through this table. Every  *|
|* collective runs on one communicator, duplicated from MPI_COMM_WORLD at     *|
|* init and freed at finalize. Counts are int64_t here and checked against    *|
|* INT_MAX in the backend. A function returns 0, or non-zero with the         *|
|* message in the backend's last error.                                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_RUNTIME_MPIBACKEND_H
#define AMLS_RUNTIME_MPIBACKEND_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The reductions of amls.all_reduce (the values of AmlsAggKind).
typedef enum AmlsMpiReduction {
  AMLS_MPI_SUM = 0,
  AMLS_MPI_MIN = 2,
  AMLS_MPI_MAX = 3
} AmlsMpiReduction;

typedef struct AmlsMpiBackend {
  /// MPI_Init_thread (unless the host initialized MPI, as mpi4py does) and
  /// the process's communicator.
  int (*init)(void);
  /// Frees the communicator; MPI_Finalize when init initialized MPI.
  int (*finalize)(void);
  int32_t (*rank)(void);
  int32_t (*size)(void);
  /// In place over every rank.
  int (*allreduceF64)(double *values, int64_t count, int32_t reduction);
  int (*allreduceI64)(int64_t *values, int64_t count, int32_t reduction);
  /// `counts[r]` (doubles) from rank r into `gathered`, in rank order.
  int (*allgathervF64)(const double *local, int64_t localCount,
                       double *gathered, const int64_t *counts);
  /// One int64_t from each rank.
  int (*allgatherI64)(int64_t local, int64_t *gathered);
  /// Bytes: `sendCounts[r]` from `send` at `sendOffsets[r]` to rank r,
  /// `receiveCounts[r]` from rank r to `receive` at `receiveOffsets[r]`.
  int (*alltoallvBytes)(const void *send, const int64_t *sendCounts,
                        const int64_t *sendOffsets, void *receive,
                        const int64_t *receiveCounts,
                        const int64_t *receiveOffsets);
  /// Ends every rank of the job with `status` (MPI_Abort).
  void (*abortAll)(int status);
  /// The last failure's message.
  const char *(*lastError)(void);
  /// "Open MPI v4.1.4, ..." (MPI_Get_library_version's first line).
  const char *(*libraryVersion)(void);
} AmlsMpiBackend;

/// The one symbol of a backend library.
const AmlsMpiBackend *amls_mpi_backend(void);

#ifdef __cplusplus
}
#endif

#endif // AMLS_RUNTIME_MPIBACKEND_H
