//===- Parfor.cpp - parfor's task partitioners and queue ------------------===//
//
// A parfor runs on the OpenMP threads that also run the data-parallel loops
// (one thread pool in the process): the compiled program opens a parallel
// region of `workers` threads, and each thread takes tasks from the queue
// here until none is left. Self-scheduling from one queue balances
// iterations of uneven cost; the partitioner decides how many iterations a
// task holds (seed 001).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Parfor.h"
#include "AMLS/Runtime/Runtime.h"

#include "../Core/Failure.h"

#include <omp.h>

#include <algorithm>
#include <string>

using namespace amls::runtime;

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

TaskQueue::TaskQueue(int64_t iterations, AmlsParforPartitioner partitioner,
                     int64_t taskSize, int64_t workers) {
  std::vector<int64_t> sizes =
      partitionTasks(iterations, partitioner, taskSize, workers);
  firsts.reserve(sizes.size() + 1);
  firsts.push_back(0);
  for (int64_t size : sizes)
    firsts.push_back(firsts.back() + size);
}

extern "C" void *amls_rt_parfor_begin(int64_t iterations, int32_t partitioner,
                                      int64_t task_size, int32_t workers) {
  if (partitioner < AMLS_PARFOR_NAIVE || partitioner > AMLS_PARFOR_FACTORING)
    fail("parfor: unknown task partitioner " + std::to_string(partitioner));
  return new TaskQueue(iterations,
                       static_cast<AmlsParforPartitioner>(partitioner),
                       task_size, workers);
}

extern "C" int64_t amls_rt_parfor_next(void *queue) {
  return static_cast<TaskQueue *>(queue)->next();
}

extern "C" int64_t amls_rt_parfor_task_first(void *queue, int64_t task) {
  return static_cast<TaskQueue *>(queue)->first(task);
}

extern "C" int64_t amls_rt_parfor_task_end(void *queue, int64_t task) {
  return static_cast<TaskQueue *>(queue)->end(task);
}

extern "C" void amls_rt_parfor_end(void *queue) {
  delete static_cast<TaskQueue *>(queue);
}

extern "C" int64_t amls_rt_parfor_worker(int64_t copies) {
  return copies > 0 ? omp_get_thread_num() % copies : 0;
}
