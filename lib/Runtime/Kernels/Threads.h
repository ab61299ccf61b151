//===- Threads.h - How runtime kernels run on several threads ---*- C++ -*-===//
//
// Runtime kernels run on OpenMP's threads (libomp, the pool the compiled
// program's parallel loops use): its workers are already running and spin
// briefly between regions, where starting a std::thread per call cost
// 50-500 us on this VM, and a second pool (OpenBLAS's own threads, say)
// fights the first for the same cores.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_KERNELS_THREADS_H
#define AMLS_LIB_RUNTIME_KERNELS_THREADS_H

#include "AMLS/Runtime/Context.h"
#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <cstdint>

#include <omp.h>

namespace amls::runtime {

/// amls_rt_get_num_threads(), reduced so that each thread gets at least
/// `minPerThread` of the `work`; 1 inside a parallel region (a parfor worker
/// or a parallel loop already uses the cores).
inline int64_t threadsFor(int64_t work, int64_t minPerThread) {
  if (omp_in_parallel())
    return 1;
  int64_t threads = std::max<int64_t>(amls_rt_get_num_threads(), 1);
  return std::max<int64_t>(
      1, std::min(threads, work / std::max<int64_t>(minPerThread, 1)));
}

/// Runs body(t) for t in [0, threads), t = 0 on the calling thread. A team
/// smaller than asked for (nested, or limited) runs the remaining t's.
template <typename Body> void runThreads(int64_t threads, Body &&body) {
  if (threads <= 1) {
    body(int64_t(0));
    return;
  }
  // The workers run under the caller's context (its budget and account).
  Context *context = getInstalledContext();
#pragma omp parallel num_threads(threads)
  {
    ScopedContext scoped(context);
    int64_t team = omp_get_num_threads();
    for (int64_t t = omp_get_thread_num(); t < threads; t += team)
      body(t);
  }
}

} // namespace amls::runtime

#endif // AMLS_LIB_RUNTIME_KERNELS_THREADS_H
