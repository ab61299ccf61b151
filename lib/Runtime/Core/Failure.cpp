//===- Failure.cpp - How the runtime stops a program ----------------------===//

#include "Failure.h"
#include "AMLS/Runtime/Distributed.h"
#include "AMLS/Runtime/Context.h"
#include "AMLS/Runtime/Failure.h"
#include "AMLS/Runtime/Runtime.h"

#include <omp.h>

#include <atomic>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

using amls::runtime::Context;
using amls::runtime::exchangeInstalledContext;
using amls::runtime::getInstalledContext;

namespace {

/// Where a failure on this thread returns to, while a trap is set.
struct Trap {
  std::jmp_buf resume;
  std::string message;
};

thread_local Trap *currentTrap = nullptr;
std::atomic<unsigned> trappedFailures{0};

/// What the threads of one parallel region report (amls_rt_region_open).
struct RegionFailures {
  std::atomic<bool> failed{false};
  std::mutex lock;
  std::string message;
  /// The context of the thread that opened the region, which its workers
  /// run under.
  Context *context = getInstalledContext();
};

/// A trap set by compiled code inside a parallel region: the buffer its
/// setjmp filled, the region's record, and the OpenMP nesting level it was
/// set at (a failure in a region nested deeper must not jump out of it).
struct RegionTrap {
  std::jmp_buf resume;
  RegionFailures *region;
  int level;
  /// The worker's own context, restored when the trap is taken down.
  Context *outerContext;
};

/// This thread's region traps: the first `depth` are set, innermost last.
/// Each is allocated once and kept for the next iteration: the buffers
/// handed to compiled code stay where they are while inner traps come and
/// go, and an iteration allocates nothing.
struct RegionTraps {
  std::vector<std::unique_ptr<RegionTrap>> traps;
  size_t depth = 0;

  RegionTrap *innermost() { return depth ? traps[depth - 1].get() : nullptr; }
  RegionTrap &push() {
    if (depth == traps.size())
      traps.push_back(std::make_unique<RegionTrap>());
    return *traps[depth++];
  }
  void pop() { --depth; }
};
thread_local RegionTraps regionTraps;

} // namespace

bool amls::runtime::runTrappingFailures(void (*body)(void *), void *context,
                                        std::string &message) {
  Trap trap;
  Trap *outer = currentTrap;
  currentTrap = &trap;
  // Nothing here lives in a register across the jump: `trap` is in memory
  // (its address escaped) and `outer` is not written after setjmp.
  if (setjmp(trap.resume) == 0) {
    body(context);
    currentTrap = outer;
    return true;
  }
  currentTrap = outer;
  message = std::move(trap.message);
  return false;
}

unsigned amls::runtime::getTrappedFailures() { return trappedFailures; }

void amls::runtime::fail(std::string message) {
  thread_local std::string kept;
  kept.assign(message);
  // Free the argument's buffer now: the jump runs no destructor. (A move
  // assignment would hand `kept`'s previous buffer to `message`.)
  std::string().swap(message);
  fail(kept.c_str());
}

void amls::runtime::fail(const char *message) {
  // What the program printed before the error comes first.
  std::fflush(stdout);
  int level = omp_get_level();
  // Inside a parallel region the OpenMP runtime holds the team's state:
  // only a trap set at this very level (in the region's own iteration) may
  // be jumped to; the region then ends normally and fails after.
  if (RegionTrap *innermost = regionTraps.innermost();
      innermost && innermost->level == level) {
    RegionTrap &trap = *innermost;
    {
      std::lock_guard<std::mutex> guard(trap.region->lock);
      if (!trap.region->failed) {
        trap.region->message = message;
        trap.region->failed = true;
      }
    }
    std::longjmp(trap.resume, 1);
  }
  // A rank of a distributed run ends them all, also where a session traps
  // failures (the C API's, Python's): the others would wait for it in their
  // next collective. (A region's failure comes back here from level 0.)
  if (distributed::size() > 1)
    distributed::failAll(message);
  if (Trap *trap = currentTrap; trap && level == 0) {
    trap->message = message;
    ++trappedFailures;
    std::longjmp(trap->resume, 1);
  }
  std::fprintf(stderr, "amls: %s\n", message);
  std::exit(1);
}

extern "C" void *amls_rt_region_open(void) { return new RegionFailures(); }

extern "C" void *amls_rt_region_trap(void *region) {
  auto *failures = static_cast<RegionFailures *>(region);
  if (failures->failed)
    return nullptr;
  RegionTrap &trap = regionTraps.push();
  trap.region = failures;
  trap.level = omp_get_level();
  trap.outerContext = exchangeInstalledContext(failures->context);
  return &trap.resume;
}

extern "C" void amls_rt_region_untrap(void) {
  exchangeInstalledContext(regionTraps.innermost()->outerContext);
  regionTraps.pop();
}

extern "C" void amls_rt_region_close(void *region) {
  auto *failures = static_cast<RegionFailures *>(region);
  if (!failures->failed) {
    delete failures;
    return;
  }
  std::string message = std::move(failures->message);
  delete failures;
  amls::runtime::fail(std::move(message));
}
