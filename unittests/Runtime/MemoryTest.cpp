//===- MemoryTest.cpp - The runtime's buffer pool and budget --------------===//

#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Context.h"
#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

using namespace amls::runtime;

namespace {

/// Each test starts from an empty cache and fresh counters.
class MemoryTest : public ::testing::Test {
protected:
  void SetUp() override {
    memory::setLimit(0);
    memory::trim();
    memory::resetStatistics();
  }
  void TearDown() override { memory::setLimit(0); }
};

bool isAligned(void *buffer, uintptr_t alignment) {
  return reinterpret_cast<uintptr_t>(buffer) % alignment == 0;
}

TEST_F(MemoryTest, ReusesFreedBuffersOfTheSameSizeClass) {
  void *first = memory::allocate(8000000);
  memory::release(first);
  // 7.9 MB falls in the same class (four per power of two) as 8 MB.
  void *second = memory::allocate(7900000);
  EXPECT_EQ(first, second);
  memory::Statistics stats = memory::getStatistics();
  EXPECT_EQ(stats.allocations, 2u);
  EXPECT_EQ(stats.poolHits, 1u);
  EXPECT_EQ(stats.bytesAllocated, 15900000u);
  memory::release(second);
  // A size of another class gets a new block.
  void *third = memory::allocate(4000000);
  EXPECT_NE(third, first);
  EXPECT_EQ(memory::getStatistics().poolHits, 1u);
  memory::release(third);
}

TEST_F(MemoryTest, AlignsBuffers) {
  for (uint64_t bytes : {0, 1, 63, 64, 65, 4096, 4097, 1 << 20}) {
    void *buffer = memory::allocate(bytes);
    ASSERT_NE(buffer, nullptr);
    EXPECT_TRUE(isAligned(buffer, memory::kAlignment)) << bytes;
    memory::release(buffer);
  }
  void *page = memory::allocate(100, 4096);
  EXPECT_TRUE(isAligned(page, 4096));
  memory::release(page);
  memory::release(nullptr); // ignored
}

TEST_F(MemoryTest, CountsLiveAndPeakBytes) {
  void *a = memory::allocate(1 << 20);
  void *b = memory::allocate(1 << 20);
  memory::Statistics stats = memory::getStatistics();
  EXPECT_EQ(stats.liveBytes, 2u << 20);
  memory::release(a);
  memory::release(b);
  stats = memory::getStatistics();
  EXPECT_EQ(stats.liveBytes, 0u);
  EXPECT_EQ(stats.peakLiveBytes, 2u << 20);
  EXPECT_EQ(stats.cachedBytes, 2u << 20);
  memory::trim();
  EXPECT_EQ(memory::getStatistics().cachedBytes, 0u);
}

// A vector's buffer handed over to compiled code: the vector lets go of it
// without releasing it, it stays live, and the new owner's release returns
// it to the pool (and only that one).
TEST_F(MemoryTest, HandsVectorBuffersOver) {
  memory::Vector<double> cells(1 << 17, 2.5);
  double *buffer = memory::handOver(cells);
  EXPECT_TRUE(cells.empty());
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(buffer[(1 << 17) - 1], 2.5);
  EXPECT_EQ(memory::getStatistics().liveBytes, 1u << 20);
  memory::release(buffer);
  EXPECT_EQ(memory::getStatistics().liveBytes, 0u);
  // The block is reused as any other, and released normally next time.
  void *again = memory::allocate(1 << 20);
  EXPECT_EQ(again, buffer);
  memory::release(again);
  EXPECT_EQ(memory::getStatistics().liveBytes, 0u);
  memory::Vector<int> none;
  EXPECT_EQ(memory::handOver(none), nullptr);
}

TEST_F(MemoryTest, CachesAtMostAQuarterOfTheBudget) {
  memory::setLimit(16 << 20);
  void *a = memory::allocate(3 << 20);
  void *b = memory::allocate(3 << 20);
  memory::release(a);
  memory::release(b); // 6 MiB would exceed 4 MiB of cache: freed
  EXPECT_EQ(memory::getStatistics().cachedBytes, 3u << 20);
}

TEST_F(MemoryTest, ConcurrentAllocationsAndReleases) {
  constexpr int kThreads = 4, kRounds = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t] {
      std::vector<void *> held;
      for (int i = 0; i < kRounds; ++i) {
        uint64_t bytes = 64 * (1 + (i * 7 + t) % 300);
        auto *buffer = static_cast<unsigned char *>(memory::allocate(bytes));
        buffer[0] = buffer[bytes - 1] = static_cast<unsigned char>(t);
        held.push_back(buffer);
        if (held.size() > 8) {
          memory::release(held.front());
          held.erase(held.begin());
        }
      }
      for (void *buffer : held)
        memory::release(buffer);
    });
  for (std::thread &thread : threads)
    thread.join();
  memory::Statistics stats = memory::getStatistics();
  EXPECT_EQ(stats.allocations, uint64_t(kThreads * kRounds));
  EXPECT_EQ(stats.liveBytes, 0u);
  EXPECT_GT(stats.poolHits, stats.allocations / 2);
}

// The baseline the pool is measured against: every buffer from the
// system, the budget and counters as with the pool.
TEST_F(MemoryTest, WithoutPoolingEveryBufferComesFromTheSystem) {
  memory::setPooling(false);
  for (int i = 0; i < 10; ++i)
    memory::release(memory::allocate(1 << 20));
  memory::Statistics stats = memory::getStatistics();
  memory::setPooling(true);
  EXPECT_EQ(stats.allocations, 10u);
  EXPECT_EQ(stats.poolHits, 0u);
  EXPECT_EQ(stats.cachedBytes, 0u);
  EXPECT_EQ(stats.liveBytes, 0u);
  EXPECT_EQ(stats.peakLiveBytes, uint64_t(1) << 20);
  for (int i = 0; i < 10; ++i)
    memory::release(memory::allocate(1 << 20));
  EXPECT_EQ(memory::getStatistics().poolHits, 9u);
}

#if defined(__SANITIZE_ADDRESS__)
// make asan-check: the slack of a size class and cached blocks are
// poisoned, so a runtime kernel overrunning a buffer is reported.
TEST_F(MemoryTest, PoisonsSlackAndCachedBlocksUnderAddressSanitizer) {
  auto *buffer = static_cast<char *>(memory::allocate(100));
  EXPECT_FALSE(__asan_address_is_poisoned(buffer));
  EXPECT_FALSE(__asan_address_is_poisoned(buffer + 99));
  EXPECT_TRUE(__asan_address_is_poisoned(buffer + 100));
  EXPECT_TRUE(__asan_address_is_poisoned(buffer + 127));
  memory::release(buffer);
  EXPECT_TRUE(__asan_address_is_poisoned(buffer));
  // Taken again from the cache with another size of the class.
  auto *again = static_cast<char *>(memory::allocate(120));
  ASSERT_EQ(again, buffer);
  EXPECT_FALSE(__asan_address_is_poisoned(again + 119));
  EXPECT_TRUE(__asan_address_is_poisoned(again + 120));
  memory::release(again);
}
#endif

// Small blocks a thread releases stay in its own cache and serve its next
// allocation of the class; trim() and the budget reach into every cache.
TEST_F(MemoryTest, ThreadCachesServeTheirThreadAndAreFlushed) {
  std::mutex mutex;
  std::condition_variable changed;
  int step = 0;
  void *first = nullptr, *second = nullptr;
  std::thread worker([&] {
    first = memory::allocate(1000);
    memory::release(first);
    second = memory::allocate(1000); // the same block, from this thread
    memory::release(second);
    std::unique_lock<std::mutex> lock(mutex);
    step = 1;
    changed.notify_all();
    changed.wait(lock, [&] { return step == 2; });
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return step == 1; });
  }
  EXPECT_EQ(first, second);
  memory::Statistics stats = memory::getStatistics();
  EXPECT_EQ(stats.allocations, 2u);
  EXPECT_EQ(stats.poolHits, 1u);
  EXPECT_EQ(stats.liveBytes, 0u);
  EXPECT_EQ(stats.cachedBytes, 1024u); // in the worker's cache
  memory::trim();                      // reaches into the worker's cache
  EXPECT_EQ(memory::getStatistics().cachedBytes, 0u);
  {
    std::lock_guard<std::mutex> lock(mutex);
    step = 2;
  }
  changed.notify_all();
  worker.join();
}

// A thread that ends gives its cached blocks and counters to the pool.
TEST_F(MemoryTest, AnEndingThreadReturnsItsCache) {
  std::thread([] {
    for (int i = 0; i < 5; ++i)
      memory::release(memory::allocate(4096));
  }).join();
  memory::Statistics stats = memory::getStatistics();
  EXPECT_EQ(stats.allocations, 5u);
  EXPECT_EQ(stats.poolHits, 4u);
  EXPECT_EQ(stats.liveBytes, 0u);
  EXPECT_EQ(stats.cachedBytes, 4096u); // now in the shared free lists
  void *again = memory::allocate(4096);
  EXPECT_EQ(memory::getStatistics().poolHits, 5u);
  memory::release(again);
}

// Blocks held by thread caches are the process's memory, in no context's
// budget: an allocation that fits the budget succeeds whatever they hold.
TEST_F(MemoryTest, ThreadCachesGiveWayToTheBudget) {
  memory::setLimit(1 << 20);
  void *held[4];
  for (void *&buffer : held)
    buffer = memory::allocate(192 << 10); // sizes of their own class
  for (void *buffer : held)
    memory::release(buffer); // 768 KiB in this thread's cache
  EXPECT_EQ(memory::getStatistics().cachedBytes, 768u << 10);
  void *big = memory::allocate(768 << 10);
  EXPECT_NE(big, nullptr);
  EXPECT_EQ(memory::getStatistics().liveBytes, 768u << 10);
  memory::release(big);
}

// Each context has its own budget and account; a buffer's release is
// charged to the context it was allocated under, whichever is installed.
TEST_F(MemoryTest, ContextsKeepTheirOwnAccounts) {
  Context *first = Context::create();
  Context *second = Context::create();
  first->setMemoryLimit(1 << 20);
  second->setMemoryLimit(8 << 20);
  void *big = nullptr;
  {
    ScopedContext installed(second);
    big = memory::allocate(4 << 20);
    EXPECT_EQ(memory::getLimit(), 8u << 20);
  }
  {
    ScopedContext installed(first);
    EXPECT_EQ(memory::getLimit(), 1u << 20);
    // The other context's 4 MiB do not count here.
    void *small = memory::allocate(512 << 10);
    EXPECT_EQ(memory::getStatistics().liveBytes, 512u << 10);
    memory::release(small);
    // Released under this context, charged to the one it came from.
    memory::release(big);
  }
  EXPECT_EQ(first->getMemoryStatistics().liveBytes, 0u);
  EXPECT_EQ(first->getMemoryStatistics().peakLiveBytes, 512u << 10);
  EXPECT_EQ(second->getMemoryStatistics().liveBytes, 0u);
  EXPECT_EQ(second->getMemoryStatistics().peakLiveBytes, 4u << 20);
  EXPECT_EQ(second->getMemoryStatistics().allocations, 1u);
  first->release();
  second->release();
}

// Compiled code announces each buffer before allocating it: the largest
// are kept once per location, largest first.
TEST_F(MemoryTest, NamesTheLargestBuffers) {
  static const char *kA = "a buffer for a.dml:1:1";
  static const char *kB = "a buffer for b.dml:2:2";
  static const char *kC = "a buffer for c.dml:3:3";
  static const char *kD = "a buffer for d.dml:4:4";
  auto allocateFor = [](const char *what, int64_t rows, int64_t cols) {
    amls_rt_check_buffer_size(rows, cols, 1, 8, what);
    memory::release(memory::allocate(uint64_t(rows * cols * 8)));
  };
  allocateFor(kA, 100, 100);
  allocateFor(kB, 300, 100);
  allocateFor(kA, 100, 100); // the same location again: once
  allocateFor(kC, 200, 100);
  allocateFor(kD, 10, 10); // not among the 3 largest
  // An allocation of another size is not the announced one.
  amls_rt_check_buffer_size(1000, 1000, 1, 8, kD);
  memory::release(memory::allocate(64));
  memory::Statistics stats = memory::getStatistics();
  EXPECT_EQ(stats.largest[0].what, kB);
  EXPECT_EQ(stats.largest[0].bytes, 240000u);
  EXPECT_EQ(stats.largest[0].sizes[0], 300);
  EXPECT_EQ(stats.largest[0].elementBytes, 8);
  EXPECT_EQ(stats.largest[1].what, kC);
  EXPECT_EQ(stats.largest[2].what, kA);
  EXPECT_EQ(stats.largest[2].bytes, 80000u);
}

TEST_F(MemoryTest, ParsesSizes) {
  uint64_t bytes = 0;
  EXPECT_TRUE(memory::parseSize("2G", bytes));
  EXPECT_EQ(bytes, 2ull << 30);
  EXPECT_TRUE(memory::parseSize("512M", bytes));
  EXPECT_EQ(bytes, 512ull << 20);
  EXPECT_TRUE(memory::parseSize("64kB", bytes));
  EXPECT_EQ(bytes, 64ull << 10);
  EXPECT_TRUE(memory::parseSize("1.5G", bytes));
  EXPECT_EQ(bytes, 3ull << 29);
  EXPECT_TRUE(memory::parseSize("1000000", bytes));
  EXPECT_EQ(bytes, 1000000u);
  for (const char *bad : {"", "abc", "-1G", "0", "2X", "1e30"})
    EXPECT_FALSE(memory::parseSize(bad, bytes)) << bad;
}

TEST_F(MemoryTest, AllocationBeyondTheBudgetStopsWithTheSizes) {
  EXPECT_EXIT(
      {
        memory::setLimit(1 << 20);
        memory::allocate(2 << 20);
      },
      ::testing::ExitedWithCode(1),
      "out of memory: a buffer of 2097152 bytes \\(2.00 MiB\\) with 0 bytes "
      "live would exceed the memory limit of 1048576 bytes");
  EXPECT_EXIT(memory::allocate(uint64_t(1) << 63), ::testing::ExitedWithCode(1),
              "more than any machine's memory");
}

} // namespace
