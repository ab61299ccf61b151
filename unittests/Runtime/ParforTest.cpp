//===- ParforTest.cpp - parfor's task partitioners and queue --------------===//

#include "AMLS/Runtime/Parfor.h"
#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <numeric>
#include <thread>
#include <vector>

using namespace amls::runtime;

namespace {

using Sizes = std::vector<int64_t>;

TEST(ParforPartitionTest, FactoringMatchesSeedExample) {
  // Seed 001 (and design.md section 5): n = 101 iterations, k = 4 workers.
  EXPECT_EQ(partitionTasks(101, AMLS_PARFOR_FACTORING, 0, 4),
            (Sizes{13, 13, 13, 13, 7, 7, 7, 7, 3, 3, 3, 3, 2, 2, 2, 2, 1}));
}

TEST(ParforPartitionTest, FactoringHalvesEachBatch) {
  // R = 100, k = 2: ceil(100/4) = 25 twice, ceil(50/4) = 13 twice, then
  // ceil(24/4) = 6, ceil(12/4) = 3, ceil(6/4) = 2, ceil(2/4) = 1.
  EXPECT_EQ(partitionTasks(100, AMLS_PARFOR_FACTORING, 0, 2),
            (Sizes{25, 25, 13, 13, 6, 6, 3, 3, 2, 2, 1, 1}));
  // One worker: halves of what is left.
  EXPECT_EQ(partitionTasks(10, AMLS_PARFOR_FACTORING, 0, 1),
            (Sizes{5, 3, 1, 1}));
}

TEST(ParforPartitionTest, NaiveStaticFixed) {
  EXPECT_EQ(partitionTasks(5, AMLS_PARFOR_NAIVE, 0, 4), (Sizes{1, 1, 1, 1, 1}));
  // ceil(10 / 4) = 3 per task: 3, 3, 3, 1.
  EXPECT_EQ(partitionTasks(10, AMLS_PARFOR_STATIC, 0, 4), (Sizes{3, 3, 3, 1}));
  EXPECT_EQ(partitionTasks(12, AMLS_PARFOR_STATIC, 0, 4), (Sizes{3, 3, 3, 3}));
  // More workers than iterations: one iteration each.
  EXPECT_EQ(partitionTasks(3, AMLS_PARFOR_STATIC, 0, 8), (Sizes{1, 1, 1}));
  EXPECT_EQ(partitionTasks(10, AMLS_PARFOR_FIXED, 4, 2), (Sizes{4, 4, 2}));
  // A task size below 1 is 1.
  EXPECT_EQ(partitionTasks(3, AMLS_PARFOR_FIXED, 0, 2), (Sizes{1, 1, 1}));
}

TEST(ParforPartitionTest, EveryPartitionCoversAllIterations) {
  for (int64_t n : {0, 1, 2, 7, 64, 101, 1000, 4097})
    for (int64_t k : {1, 2, 3, 4, 16})
      for (AmlsParforPartitioner p :
           {AMLS_PARFOR_NAIVE, AMLS_PARFOR_STATIC, AMLS_PARFOR_FIXED,
            AMLS_PARFOR_FACTORING}) {
        Sizes sizes = partitionTasks(n, p, 7, k);
        EXPECT_EQ(std::accumulate(sizes.begin(), sizes.end(), int64_t{0}), n)
            << "n " << n << " k " << k << " partitioner " << p;
        for (int64_t size : sizes)
          EXPECT_GT(size, 0);
        if (p == AMLS_PARFOR_STATIC)
          EXPECT_LE(static_cast<int64_t>(sizes.size()), k);
        if (p == AMLS_PARFOR_FACTORING)
          EXPECT_TRUE(std::is_sorted(sizes.rbegin(), sizes.rend()));
      }
}

TEST(ParforQueueTest, TasksAreContiguousAndInOrder) {
  TaskQueue queue(101, AMLS_PARFOR_FACTORING, 0, 4);
  ASSERT_EQ(queue.numTasks(), 17);
  int64_t expectedFirst = 0;
  for (int64_t t = 0; t < queue.numTasks(); ++t) {
    EXPECT_EQ(queue.next(), t);
    EXPECT_EQ(queue.first(t), expectedFirst);
    expectedFirst = queue.end(t);
  }
  EXPECT_EQ(expectedFirst, 101);
  EXPECT_EQ(queue.next(), -1);
  EXPECT_EQ(queue.next(), -1);
}

TEST(ParforQueueTest, ConcurrentWorkersRunEveryIterationOnce) {
  // Four threads take tasks through the C entry points the compiled code
  // calls; every iteration is run exactly once.
  constexpr int64_t kIterations = 5000;
  for (int32_t partitioner = AMLS_PARFOR_NAIVE;
       partitioner <= AMLS_PARFOR_FACTORING; ++partitioner) {
    void *queue = amls_rt_parfor_begin(kIterations, partitioner, 13, 4);
    std::vector<std::atomic<int>> runs(kIterations);
    std::vector<std::thread> workers;
    for (int w = 0; w < 4; ++w)
      workers.emplace_back([&] {
        for (int64_t t = amls_rt_parfor_next(queue); t >= 0;
             t = amls_rt_parfor_next(queue))
          for (int64_t i = amls_rt_parfor_task_first(queue, t),
                       e = amls_rt_parfor_task_end(queue, t);
               i < e; ++i)
            runs[i].fetch_add(1);
      });
    for (std::thread &worker : workers)
      worker.join();
    amls_rt_parfor_end(queue);
    for (int64_t i = 0; i < kIterations; ++i)
      ASSERT_EQ(runs[i].load(), 1) << "iteration " << i << " partitioner "
                                   << partitioner;
  }
}

TEST(ParforQueueTest, NoIterationsNoTasks) {
  void *queue = amls_rt_parfor_begin(0, AMLS_PARFOR_FACTORING, 0, 2);
  EXPECT_EQ(amls_rt_parfor_next(queue), -1);
  amls_rt_parfor_end(queue);
}

TEST(ParforWorkerTest, EachWorkerOfATeamHasItsOwnCopy) {
  // Outside a team, and for a team of as many workers as copies: the
  // thread's number, so that no two workers update the same copy.
  EXPECT_EQ(amls_rt_parfor_worker(4), 0);
  std::vector<int64_t> copyOf(4, -1);
#pragma omp parallel num_threads(4)
  {
    if (omp_get_num_threads() == 4)
      copyOf[omp_get_thread_num()] = amls_rt_parfor_worker(4);
  }
  if (copyOf[3] != -1) // libomp may give fewer threads than asked.
    EXPECT_EQ(copyOf, (std::vector<int64_t>{0, 1, 2, 3}));
  // A team larger than the copies (a parfor nested in an outer worker runs
  // on that worker alone): a valid copy for every thread.
#pragma omp parallel num_threads(3)
  {
    int64_t copy = amls_rt_parfor_worker(2);
#pragma omp critical
    {
      EXPECT_GE(copy, 0);
      EXPECT_LT(copy, 2);
    }
  }
}

TEST(ParforQueueDeathTest, UnknownPartitionerStops) {
  EXPECT_EXIT(amls_rt_parfor_begin(10, 9, 0, 2), testing::ExitedWithCode(1),
              "parfor: unknown task partitioner 9");
}

} // namespace
