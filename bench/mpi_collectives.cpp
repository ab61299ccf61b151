//===- mpi_collectives.cpp - What the runtime's collectives cost ----------===//
//
// Times libamls_runtime's all-reduce and all-gather (the calls compiled code
// makes) over sizes from one double to 8 MiB, on the ranks it is launched
// on; rank 0 prints "allreduce|allgather BYTES SECONDS-PER-CALL" lines for
// bench/distributed.py's alpha-beta fit. Built by that script against the
// build's libamls_runtime.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Distributed.h"

#include <chrono>
#include <cstdio>
#include <vector>

namespace distributed = amls::runtime::distributed;

static AmlsMatrixF64 view(std::vector<double> &cells, int64_t rows,
                          int64_t cols) {
  return {cells.data(), cells.data(), 0, {rows, cols}, {cols, 1}};
}

int main() {
  if (std::string problem = distributed::initialize(); !problem.empty()) {
    std::fprintf(stderr, "mpi_collectives: %s\n", problem.c_str());
    return 1;
  }
  int64_t ranks = distributed::size();
  for (int64_t doubles = 1; doubles <= (int64_t(1) << 20); doubles *= 8) {
    int64_t repeats = std::max<int64_t>(10, (int64_t(1) << 16) / doubles);
    std::vector<double> cells(doubles, 1.0);
    AmlsMatrixF64 m = view(cells, doubles, 1);
    for (int i = 0; i < 5; ++i)
      _mlir_ciface_amls_rt_dist_all_reduce(&m, AMLS_AGG_SUM);
    auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < repeats; ++i)
      _mlir_ciface_amls_rt_dist_all_reduce(&m, AMLS_AGG_SUM);
    std::chrono::duration<double> reduce =
        std::chrono::steady_clock::now() - start;
    // An all-gather of `doubles` in all: each rank's share of the rows.
    int64_t mine = distributed::rowCount(doubles, distributed::rank());
    std::vector<double> block(std::max<int64_t>(mine, 1), 1.0),
        whole(doubles);
    AmlsMatrixF64 local = view(block, mine, 1), all = view(whole, doubles, 1);
    start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < repeats; ++i)
      _mlir_ciface_amls_rt_dist_gather_rows(&local, &all, "bench");
    std::chrono::duration<double> gather =
        std::chrono::steady_clock::now() - start;
    if (distributed::isOutputRank()) {
      std::printf("allreduce %lld %.9g\n", (long long)(8 * doubles),
                  reduce.count() / repeats);
      std::printf("allgather %lld %.9g\n", (long long)(8 * doubles),
                  gather.count() / repeats);
    }
  }
  if (distributed::isOutputRank())
    std::printf("ranks %lld\n", (long long)ranks);
  return 0;
}
