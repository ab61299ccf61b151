//===- TaskPartitioning.cpp - parfor's task sizes -------------------------===//
//
// How a parfor's iterations are cut into tasks (SystemDS's partitioners):
// the runtime's task queue hands them out, and the compiler's parfor plan
// (--parfor-explain) reports the same sizes.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Parfor.h"

#include <algorithm>

std::vector<int64_t>
amls::runtime::partitionTasks(int64_t iterations,
                              AmlsParforPartitioner partitioner,
                              int64_t taskSize, int64_t workers) {
  std::vector<int64_t> sizes;
  if (iterations <= 0)
    return sizes;
  workers = std::max<int64_t>(workers, 1);
  auto evenly = [&](int64_t size) {
    for (int64_t left = iterations; left > 0; left -= size)
      sizes.push_back(std::min(size, left));
  };
  switch (partitioner) {
  case AMLS_PARFOR_NAIVE:
    evenly(1);
    break;
  case AMLS_PARFOR_STATIC:
    // ceil(n / k) iterations per task: at most one task per worker.
    evenly((iterations + workers - 1) / workers);
    break;
  case AMLS_PARFOR_FIXED:
    evenly(std::max<int64_t>(taskSize, 1));
    break;
  case AMLS_PARFOR_FACTORING:
    // Batches of k tasks of ceil(R / (2k)) iterations, R the iterations
    // left: early tasks are large (little scheduling), late ones small
    // (balance at the end).
    for (int64_t left = iterations; left > 0;) {
      int64_t size = (left + 2 * workers - 1) / (2 * workers);
      for (int64_t t = 0; t < workers && left > 0; ++t) {
        sizes.push_back(std::min(size, left));
        left -= sizes.back();
      }
    }
    break;
  }
  return sizes;
}
