//===- Clock.cpp - DML's time() -------------------------------------------===//

#include "AMLS/Runtime/Runtime.h"

#include <chrono>

// steady_clock, like Java's System.nanoTime() behind SystemDS's time(): only
// differences of readings mean anything.
extern "C" int64_t amls_rt_time_ns(void) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
