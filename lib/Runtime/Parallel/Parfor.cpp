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
