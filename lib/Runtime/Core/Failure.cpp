//===- Failure.cpp - How the runtime stops a program ----------------------===//

#include "Failure.h"
#include "AMLS/Runtime/Failure.h"

#include <omp.h>

#include <atomic>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>

namespace {

/// Where a failure on this thread returns to, while a trap is set.
struct Trap {
  std::jmp_buf resume;
  std::string message;
};

thread_local Trap *currentTrap = nullptr;
std::atomic<unsigned> trappedFailures{0};

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
  kept = std::move(message);
  fail(kept.c_str());
}

void amls::runtime::fail(const char *message) {
  // What the program printed before the error comes first.
  std::fflush(stdout);
  // Inside a parallel region (even of one thread) the OpenMP runtime holds
  // the team's state: leaving it by a jump would corrupt it.
  if (Trap *trap = currentTrap; trap && omp_get_level() == 0) {
    trap->message = message;
    ++trappedFailures;
    std::longjmp(trap->resume, 1);
  }
  std::fprintf(stderr, "amls: %s\n", message);
  std::exit(1);
}
