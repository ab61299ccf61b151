//===- Communication.h - The runtime's collectives over MPI -----*- C++ -*-===//
//
// The collectives the runtime itself runs (a distributed read's exchange,
// the compiled code's all-reduces and gathers) through the loaded MPI
// backend, with their statistics; with one rank they copy. A failed
// collective ends every rank with MPI's message. (The all-reduces of
// arrays, which the session uses too, are in Distributed.h.)
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_DISTRIBUTED_COMMUNICATION_H
#define AMLS_LIB_RUNTIME_DISTRIBUTED_COMMUNICATION_H

#include "AMLS/Runtime/Distributed.h"

#include <cstdint>
#include <vector>

namespace amls::runtime::distributed {

/// One value from each rank, in rank order.
std::vector<int64_t> allGather(int64_t local);
int64_t allReduceSum(int64_t local);
/// `counts[r]` doubles of rank r, in rank order, into `gathered`.
void allGatherV(const double *local, int64_t localCount, double *gathered,
                const std::vector<int64_t> &counts);
/// What each rank sends this one, given what this one sends each rank.
std::vector<int64_t> exchangeCounts(const std::vector<int64_t> &sendCounts);
/// Bytes to and from every rank (MPI_Alltoallv).
void allToAll(const void *send, const std::vector<int64_t> &sendCounts,
              const std::vector<int64_t> &sendOffsets, void *receive,
              const std::vector<int64_t> &receiveCounts,
              const std::vector<int64_t> &receiveOffsets);

} // namespace amls::runtime::distributed

#endif // AMLS_LIB_RUNTIME_DISTRIBUTED_COMMUNICATION_H
