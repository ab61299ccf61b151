//===- Collectives.cpp - The collectives compiled code calls ---------------===//
//
// amls.all_reduce and amls.all_gather_rows (lowered through upstream's
// shard.all_reduce where it carries them) end here, and so does the
// exchange of a distributed read. Each collective counts its calls, the
// bytes this rank sent and received, and its time, for --stats.
//
//===----------------------------------------------------------------------===//

#include "../Core/Failure.h"
#include "AMLS/Runtime/Distributed.h"
#include "AMLS/Runtime/MPIBackend.h"
#include "Communication.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

using namespace amls::runtime;
using namespace amls::runtime::distributed;

namespace amls::runtime::distributed::detail {
const AmlsMpiBackend *backend();
CollectiveStatistics &statisticsOf(Collective collective);
} // namespace amls::runtime::distributed::detail

namespace {

/// Times one collective and counts its bytes; fails on its error.
class Measured {
public:
  Measured(Collective collective, uint64_t sent, uint64_t received)
      : stats(detail::statisticsOf(collective)), sent(sent),
        received(received), start(std::chrono::steady_clock::now()) {}
  void check(int code) {
    std::chrono::duration<double> elapsed =
        std::chrono::steady_clock::now() - start;
    stats.calls += 1;
    stats.bytesSent += sent;
    stats.bytesReceived += received;
    stats.seconds += elapsed.count();
    if (code)
      fail(detail::backend()->lastError());
  }

private:
  CollectiveStatistics &stats;
  uint64_t sent, received;
  std::chrono::steady_clock::time_point start;
};

/// The bytes a ring all-reduce of `bytes` sends (and receives) per rank:
/// 2 (P - 1) / P of them, the analytical minimum.
uint64_t allReduceBytes(uint64_t bytes) {
  uint64_t ranks = size();
  return 2 * (ranks - 1) * bytes / ranks;
}

} // namespace

std::vector<int64_t> distributed::allGather(int64_t local) {
  std::vector<int64_t> gathered(size(), local);
  if (const AmlsMpiBackend *mpi = detail::backend(); mpi && size() > 1) {
    Measured measured(Collective::AllGather, 8 * (size() - 1),
                      8 * (size() - 1));
    measured.check(mpi->allgatherI64(local, gathered.data()));
  }
  return gathered;
}

int64_t distributed::allReduceSum(int64_t local) {
  allReduce(&local, 1, AMLS_AGG_SUM);
  return local;
}

void distributed::allReduce(double *values, int64_t count, int32_t kind) {
  const AmlsMpiBackend *mpi = detail::backend();
  if (!mpi || size() == 1 || count == 0)
    return;
  uint64_t bytes = allReduceBytes(8 * count);
  Measured measured(Collective::AllReduce, bytes, bytes);
  measured.check(mpi->allreduceF64(values, count, kind));
}

void distributed::allReduce(int64_t *values, int64_t count, int32_t kind) {
  const AmlsMpiBackend *mpi = detail::backend();
  if (!mpi || size() == 1 || count == 0)
    return;
  uint64_t bytes = allReduceBytes(8 * count);
  Measured measured(Collective::AllReduce, bytes, bytes);
  measured.check(mpi->allreduceI64(values, count, kind));
}

void distributed::allGatherV(const double *local, int64_t localCount,
                             double *gathered,
                             const std::vector<int64_t> &counts) {
  const AmlsMpiBackend *mpi = detail::backend();
  if (!mpi || size() == 1) {
    std::copy(local, local + localCount, gathered);
    return;
  }
  int64_t total = 0;
  for (int64_t count : counts)
    total += count;
  Measured measured(Collective::AllGather, 8 * localCount * (size() - 1),
                    8 * (total - localCount));
  measured.check(mpi->allgathervF64(local, localCount, gathered, counts.data()));
}

std::vector<int64_t>
distributed::exchangeCounts(const std::vector<int64_t> &sendCounts) {
  int32_t ranks = size();
  std::vector<int64_t> receiveCounts(ranks, 0);
  std::vector<int64_t> eight(ranks, 8), offsets(ranks);
  for (int32_t r = 0; r < ranks; ++r)
    offsets[r] = 8 * r;
  allToAll(sendCounts.data(), eight, offsets, receiveCounts.data(), eight,
           offsets);
  return receiveCounts;
}

void distributed::allToAll(const void *send,
                           const std::vector<int64_t> &sendCounts,
                           const std::vector<int64_t> &sendOffsets,
                           void *receive,
                           const std::vector<int64_t> &receiveCounts,
                           const std::vector<int64_t> &receiveOffsets) {
  const AmlsMpiBackend *mpi = detail::backend();
  int32_t me = rank();
  if (!mpi || size() == 1) {
    if (sendCounts[me])
      std::memcpy(static_cast<char *>(receive) + receiveOffsets[me],
                  static_cast<const char *>(send) + sendOffsets[me],
                  sendCounts[me]);
    return;
  }
  uint64_t sent = 0, received = 0;
  for (int32_t r = 0; r < size(); ++r)
    if (r != me) {
      sent += sendCounts[r];
      received += receiveCounts[r];
    }
  Measured measured(Collective::AllToAll, sent, received);
  measured.check(mpi->alltoallvBytes(send, sendCounts.data(),
                                     sendOffsets.data(), receive,
                                     receiveCounts.data(),
                                     receiveOffsets.data()));
}

std::vector<std::vector<CollectiveStatistics>>
distributed::gatherStatistics() {
  constexpr int kCollectives = static_cast<int>(Collective::Count);
  // Four doubles per collective (counts below 2^53 are exact).
  std::vector<double> mine;
  for (int c = 0; c < kCollectives; ++c) {
    CollectiveStatistics s = getStatistics(static_cast<Collective>(c));
    mine.insert(mine.end(), {double(s.calls), double(s.bytesSent),
                             double(s.bytesReceived), s.seconds});
  }
  int32_t ranks = size();
  std::vector<int64_t> counts(ranks, static_cast<int64_t>(mine.size()));
  std::vector<double> all(mine.size() * ranks);
  allGatherV(mine.data(), static_cast<int64_t>(mine.size()), all.data(),
             counts);
  std::vector<std::vector<CollectiveStatistics>> result(
      ranks, std::vector<CollectiveStatistics>(kCollectives));
  for (int32_t r = 0; r < ranks; ++r)
    for (int c = 0; c < kCollectives; ++c) {
      const double *v = &all[(r * kCollectives + c) * 4];
      result[r][c] = {uint64_t(v[0]), uint64_t(v[1]), uint64_t(v[2]), v[3]};
    }
  return result;
}

//===----------------------------------------------------------------------===//
// The C ABI of compiled code
//===----------------------------------------------------------------------===//

extern "C" void _mlir_ciface_amls_rt_dist_all_reduce(AmlsMatrixF64 *matrix,
                                                     int32_t kind) {
  int64_t rows = matrix->sizes[0], cols = matrix->sizes[1];
  double *cells = matrix->aligned + matrix->offset;
  // The lowering passes a fresh row-major copy; anything else goes through
  // a contiguous one.
  if (matrix->strides[1] == 1 && (matrix->strides[0] == cols || rows <= 1)) {
    allReduce(cells, rows * cols, kind);
    return;
  }
  std::vector<double> packed(rows * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      packed[r * cols + c] =
          cells[r * matrix->strides[0] + c * matrix->strides[1]];
  allReduce(packed.data(), rows * cols, kind);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      cells[r * matrix->strides[0] + c * matrix->strides[1]] =
          packed[r * cols + c];
}

extern "C" double amls_rt_dist_all_reduce_f64(double value, int32_t kind) {
  allReduce(&value, 1, kind);
  return value;
}

extern "C" int64_t amls_rt_dist_all_reduce_i64(int64_t value, int32_t kind) {
  allReduce(&value, 1, kind);
  return value;
}

extern "C" int64_t amls_rt_dist_rank() { return rank(); }

extern "C" int64_t amls_rt_dist_size() { return size(); }

extern "C" int64_t amls_rt_dist_row_begin(int64_t rows) {
  return rowBegin(rows, rank());
}

extern "C" int64_t amls_rt_dist_row_count(int64_t rows) {
  return rowCount(rows, rank());
}

extern "C" void _mlir_ciface_amls_rt_dist_gather_rows(AmlsMatrixF64 *local,
                                                      AmlsMatrixF64 *whole,
                                                      const char *where) {
  int64_t rows = local->sizes[0], cols = local->sizes[1];
  std::vector<int64_t> counts = allGather(rows * cols);
  int64_t total = 0;
  for (int64_t count : counts)
    total += count;
  if (whole->sizes[1] != cols || total != whole->sizes[0] * cols)
    fail(std::string(where && *where ? where : "amls.all_gather_rows") +
         ": the ranks' blocks do not add up to the gathered matrix");
  std::vector<double> packed(rows * cols);
  const double *cells = local->aligned + local->offset;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      packed[r * cols + c] = cells[r * local->strides[0] + c * local->strides[1]];
  std::vector<double> gathered(total);
  allGatherV(packed.data(), rows * cols, gathered.data(), counts);
  double *out = whole->aligned + whole->offset;
  for (int64_t r = 0; r < whole->sizes[0]; ++r)
    for (int64_t c = 0; c < cols; ++c)
      out[r * whole->strides[0] + c * whole->strides[1]] =
          gathered[r * cols + c];
}

extern "C" void _mlir_ciface_amls_rt_dist_merge_results(AmlsMatrixF64 *local,
                                                        AmlsMatrixF64 *before,
                                                        AmlsMatrixF64 *merged,
                                                        const char *where) {
  int64_t rows = local->sizes[0], cols = local->sizes[1];
  for (const AmlsMatrixF64 *m : {before, merged})
    if (m->sizes[0] != rows || m->sizes[1] != cols)
      fail(std::string(where && *where ? where : "amls.merge_ranks") +
           ": the ranks' results and the value before the loop differ in "
           "size");
  auto at = [](const AmlsMatrixF64 *m, int64_t r, int64_t c) -> double & {
    return m->aligned[m->offset + r * m->strides[0] + c * m->strides[1]];
  };
  int64_t cells = rows * cols;
  // Who changed each cell (the last rank), then that rank's value.
  std::vector<int64_t> owner(cells);
  std::vector<double> value(cells);
  int64_t me = rank();
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      double mine = at(local, r, c), old = at(before, r, c);
      owner[r * cols + c] =
          std::memcmp(&mine, &old, sizeof(double)) != 0 ? me : -1;
    }
  allReduce(owner.data(), cells, AMLS_AGG_MAX);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      // -0.0 adds nothing to any value, -0.0 included.
      value[r * cols + c] = owner[r * cols + c] == me ? at(local, r, c) : -0.0;
  allReduce(value.data(), cells, AMLS_AGG_SUM);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      at(merged, r, c) =
          owner[r * cols + c] >= 0 ? value[r * cols + c] : at(before, r, c);
}
