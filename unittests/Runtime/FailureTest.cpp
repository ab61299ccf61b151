//===- FailureTest.cpp - Failures returned from parallel regions ----------===//
//
// The protocol compiled code follows (AMLS/Codegen/CPU/FailureTraps.h),
// written out in C++: each iteration of an OpenMP loop runs under a trap
// of the region's record, and the record is closed after the region.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Failure.h"
#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <csetjmp>
#include <string>
#include <thread>

using namespace amls::runtime;

namespace {

struct Loop {
  int64_t iterations;
  int64_t failing; // The iteration whose check fails; -1 for none.
  std::atomic<int64_t> completed{0};
  std::atomic<int64_t> started{0};
  /// Set once the failing iteration's jump has landed (the region's record
  /// says it failed by then).
  std::atomic<bool> failureTrapped{false};
};

/// Runs `body` as compiled code runs an iteration of a region: under the
/// region's trap, and not at all once the region failed. A failure in
/// `body` jumps back here (this frame is live while `body` runs).
template <typename Body, typename OnFailure>
void underTrap(void *region, Body &&body, OnFailure &&onFailure) {
  auto *buffer = static_cast<std::jmp_buf *>(amls_rt_region_trap(region));
  if (!buffer)
    return;
  if (setjmp(*buffer) == 0)
    body();
  else
    onFailure();
  amls_rt_region_untrap();
}

template <typename Body> void underTrap(void *region, Body &&body) {
  underTrap(region, body, [] {});
}

/// Holds an iteration after the failing one until the failure landed, so
/// that the skipping is seen however the threads are scheduled (on a loaded
/// machine the other thread could otherwise run every remaining iteration
/// before the failing one reaches its check). Gives up after 10 s, so that
/// a broken failure path fails the test instead of hanging it.
void waitForFailure(Loop &loop) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!loop.failureTrapped && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
}

void runIteration(void *region, Loop &loop, int64_t i) {
  underTrap(
      region,
      [&] {
        if (loop.failing >= 0 && i > loop.failing)
          waitForFailure(loop);
        ++loop.started;
        amls_rt_check(i != loop.failing, "iteration failed its check");
        ++loop.completed;
      },
      [&] { loop.failureTrapped = true; });
}

void runLoop(void *context) {
  auto &loop = *static_cast<Loop *>(context);
  void *region = amls_rt_region_open();
#pragma omp parallel for num_threads(2) schedule(dynamic, 1)
  for (int64_t i = 0; i < loop.iterations; ++i)
    runIteration(region, loop, i);
  amls_rt_region_close(region);
}

TEST(RegionFailureTest, FailureInsideARegionReturnsAfterIt) {
  unsigned before = getTrappedFailures();
  Loop loop{1000, 10};
  std::string message;
  EXPECT_FALSE(runTrappingFailures(runLoop, &loop, message));
  EXPECT_EQ(message, "iteration failed its check");
  EXPECT_EQ(getTrappedFailures(), before + 1);
  // The failing iteration did not complete; the iterations after the
  // failure were skipped: at most the one the other thread held back
  // (waitForFailure) started after it.
  EXPECT_EQ(loop.completed, loop.started - 1);
  EXPECT_LE(loop.started, loop.failing + 2);
}

TEST(RegionFailureTest, RegionsWithoutFailuresComplete) {
  Loop loop{1000, -1};
  std::string message;
  EXPECT_TRUE(runTrappingFailures(runLoop, &loop, message));
  EXPECT_EQ(loop.completed, 1000);
  // The threads' traps were all removed: a failure on this thread now
  // returns to the host's trap, outside any region.
  EXPECT_FALSE(runTrappingFailures(
      [](void *) { amls_rt_check(0, "after the region"); }, nullptr, message));
  EXPECT_EQ(message, "after the region");
}

/// Every iteration fails, with a message naming its half of the range.
void failEverywhere(void *) {
  void *region = amls_rt_region_open();
#pragma omp parallel for num_threads(2)
  for (int64_t i = 0; i < 64; ++i)
    underTrap(region,
              [&] { amls_rt_check(0, i < 32 ? "first half" : "second half"); });
  amls_rt_region_close(region);
}

TEST(RegionFailureTest, TheFirstFailureWins) {
  // Whichever thread fails first is reported, once.
  std::string message;
  EXPECT_FALSE(runTrappingFailures(failEverywhere, nullptr, message));
  EXPECT_TRUE(message == "first half" || message == "second half") << message;
}

/// The inner region of outer iteration `i`: 4 iterations, of which (2, 1)
/// fails.
void runInnerRegion(int i) {
  void *inner = amls_rt_region_open();
#pragma omp parallel for num_threads(2)
  for (int j = 0; j < 4; ++j)
    underTrap(inner, [&] {
      amls_rt_check(!(i == 2 && j == 1), "inner iteration failed");
    });
  amls_rt_region_close(inner);
}

/// An outer region of 4 iterations, each running an inner region of 4
/// (nested, so serialized on the outer iteration's thread).
void failInNestedRegion(void *) {
  void *outer = amls_rt_region_open();
#pragma omp parallel for num_threads(2)
  for (int i = 0; i < 4; ++i)
    underTrap(outer, [&] { runInnerRegion(i); });
  amls_rt_region_close(outer);
}

TEST(RegionFailureTest, NestedRegionsReportToTheirOwnRecord) {
  // The failure ends the inner region; closing it raises the failure in
  // the outer region's iteration, whose trap records it; closing the outer
  // region returns it to the host.
  std::string message;
  EXPECT_FALSE(runTrappingFailures(failInNestedRegion, nullptr, message));
  EXPECT_EQ(message, "inner iteration failed");
}

} // namespace
