//===- Distributed.h - A distributed run's ranks and collectives -*- C++ -*-===//
//
// A distributed run (amls-run --distributed under mpirun) runs the same
// program on every rank of an MPI job. The process grid is the job's ranks
// along one axis; the runtime keeps it for the process: the MPI backend it
// loaded (MPIBackend.h), this rank, the rank count, and what each
// collective moved. A matrix split by rows gives rank r the rows
// [rowBegin(R, r), rowBegin(R, r) + rowCount(R, r)) of its R rows: the
// first R % ranks ranks hold one row more (DAPHNE's split). Without a
// launcher, or before init, the run has one rank and needs no MPI.
//
// A failure on any rank of a run with more than one rank ends every rank
// (MPI_Abort) after the failing rank printed its message: no rank waits
// forever in a collective for a rank that is gone.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_DISTRIBUTED_H
#define AMLS_RUNTIME_DISTRIBUTED_H

#include "AMLS/Runtime/ABI.h"

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
/// In place: the sum, min or max (an AmlsAggKind) of `matrix` over the ranks.
void _mlir_ciface_amls_rt_dist_all_reduce(AmlsMatrixF64 *matrix,
                                          int32_t kind);
double amls_rt_dist_all_reduce_f64(double value, int32_t kind);
int64_t amls_rt_dist_all_reduce_i64(int64_t value, int32_t kind);
/// This rank and the rank count (0 and 1 without a launcher).
int64_t amls_rt_dist_rank();
int64_t amls_rt_dist_size();
/// This rank's first row and row count of a matrix of `rows` rows.
int64_t amls_rt_dist_row_begin(int64_t rows);
int64_t amls_rt_dist_row_count(int64_t rows);
/// The ranks' blocks `local` in rank order into `whole` (its rows are the
/// sum of the blocks' rows).
void _mlir_ciface_amls_rt_dist_gather_rows(AmlsMatrixF64 *local,
                                           AmlsMatrixF64 *whole,
                                           const char *where);
/// A parfor's result merged over the ranks into `merged`: each cell from
/// the last rank whose `local` differs bitwise from `before`, else
/// `before` (all three of the same sizes).
void _mlir_ciface_amls_rt_dist_merge_results(AmlsMatrixF64 *local,
                                             AmlsMatrixF64 *before,
                                             AmlsMatrixF64 *merged,
                                             const char *where);
/// This rank's rows of the matrix in `path`, as amls_rt_file_rows counts
/// the whole file's.
int64_t amls_rt_dist_file_rows(const char *path, int32_t format, int64_t rows,
                               int64_t cols, const char *where);
/// The columns of the block amls_rt_dist_file_rows read.
int64_t amls_rt_dist_file_cols(const char *path, int32_t format, int64_t rows,
                               int64_t cols, const char *where);
/// Reads this rank's rows of `path` into `dest`: each rank parses its own
/// byte range of the file and the rows move to their ranks.
void _mlir_ciface_amls_rt_dist_read(AmlsMatrixF64 *dest, const char *path,
                                    int32_t format, const char *where);
/// This rank's rows of `path` as a CSR handle (amls_rt_csr_read's).
void *amls_rt_dist_csr_read(const char *path, int32_t format, int64_t rows,
                            int64_t cols, const char *where);
/// Writes this rank's block `block` of a matrix split by rows (and rank 0
/// the .mtd file): the ranks write their parts of the file in rank order,
/// the bytes amls_rt_write writes for the whole matrix, nothing gathered.
void _mlir_ciface_amls_rt_dist_write(AmlsMatrixF64 *block, const char *path,
                                     int32_t format);
/// The same for a CSR block.
void _mlir_ciface_amls_rt_dist_csr_write(AmlsVectorI64 *rowptr,
                                         AmlsVectorI32 *colidx,
                                         AmlsVectorF64 *values, int64_t cols,
                                         const char *path, int32_t format);
}

namespace amls::runtime::distributed {

/// Joins the MPI job this process was launched in (Open MPI's or MPICH's
/// launcher, found from its environment), or stays a run of one rank when
/// there is none. Returns an empty string, or why the job cannot be
/// joined. Idempotent; `finalize` leaves the job.
std::string initialize();
void finalize();

int32_t rank();
int32_t size();
/// Whether this rank prints and writes what every rank computed (rank 0).
bool isOutputRank();
/// "Open MPI v4.1.4" or "MPICH Version: 4.0.2", or "" with one rank.
std::string libraryName();

/// Prints "amls: [rank R] message" and ends every rank with status 1.
[[noreturn]] void failAll(const std::string &message);

int64_t rowBegin(int64_t rows, int32_t rank);
int64_t rowCount(int64_t rows, int32_t rank);

/// In place over every rank (`kind`: an AmlsAggKind, sum, min or max).
void allReduce(double *values, int64_t count, int32_t kind);
void allReduce(int64_t *values, int64_t count, int32_t kind);

/// What the collectives of this process moved (amls-run --stats).
struct CollectiveStatistics {
  uint64_t calls = 0;
  uint64_t bytesSent = 0;
  uint64_t bytesReceived = 0;
  double seconds = 0;
};
enum class Collective { AllReduce, AllGather, AllToAll, Count };
const char *getCollectiveName(Collective collective);
CollectiveStatistics getStatistics(Collective collective);
/// Every rank's statistics of each collective (indexed [rank][collective]),
/// as they were before this call, on every rank: a collective call.
std::vector<std::vector<CollectiveStatistics>> gatherStatistics();
void resetStatistics();

} // namespace amls::runtime::distributed

#endif // AMLS_RUNTIME_DISTRIBUTED_H
