//===- Parfor.h - parfor's task partitioners and queue ----------*- C++ -*-===//
//
// The C++ side of parfor's run-time support: the task partitioners of seed
// 001 and the self-scheduling queue the compiled workers take tasks from
// (the C entry points are in Runtime.h). The compiler's parfor plan uses the
// same partitioners to print task sizes known before the run.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_PARFOR_H
#define AMLS_RUNTIME_PARFOR_H

#include "AMLS/Runtime/ABI.h"

#include <atomic>
#include <cstdint>
#include <vector>

namespace amls::runtime {

/// The sizes of the tasks `partitioner` cuts `iterations` iterations into
/// for `workers` workers, in the order they are handed out; they add up to
/// `iterations`. `taskSize` is FIXED's task size (at least 1).
std::vector<int64_t> partitionTasks(int64_t iterations,
                                    AmlsParforPartitioner partitioner,
                                    int64_t taskSize, int64_t workers);

/// Tasks handed out in order, each to the first worker that asks.
class TaskQueue {
public:
  TaskQueue(int64_t iterations, AmlsParforPartitioner partitioner,
            int64_t taskSize, int64_t workers);

  /// The next task's index, or -1 when every task was taken.
  int64_t next() {
    int64_t task = nextTask.fetch_add(1, std::memory_order_relaxed);
    return task < numTasks() ? task : -1;
  }
  int64_t numTasks() const { return static_cast<int64_t>(firsts.size()) - 1; }
  int64_t first(int64_t task) const { return firsts[task]; }
  int64_t end(int64_t task) const { return firsts[task + 1]; }

private:
  /// firsts[t] is task t's first iteration; firsts.back() is the count.
  std::vector<int64_t> firsts;
  std::atomic<int64_t> nextTask{0};
};

} // namespace amls::runtime

#endif // AMLS_RUNTIME_PARFOR_H
