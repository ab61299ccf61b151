//===- pool_threads.cpp - The runtime pool under concurrent use -----------===//
//
// T threads each allocate and release buffers of one size class in a loop,
// from the runtime's pool and from glibc's malloc: nanoseconds per
// allocate/release pair at 1..T threads (bench/memory/run.py builds and runs
// this). Each thread writes its buffer's first and last cache lines, as a
// kernel would.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Memory.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace amls::runtime;

template <typename Allocate, typename Release>
double nanosPerPair(int threads, long pairs, size_t bytes, Allocate allocate,
                    Release release) {
  auto start = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([&] {
      for (long i = 0; i < pairs; ++i) {
        auto *buffer = static_cast<volatile char *>(allocate(bytes));
        buffer[0] = 1;
        buffer[bytes - 1] = 1;
        release(const_cast<char *>(buffer));
      }
    });
  for (std::thread &worker : workers)
    worker.join();
  std::chrono::duration<double, std::nano> elapsed =
      std::chrono::steady_clock::now() - start;
  return elapsed.count() / pairs; // per pair on each thread
}

int main(int argc, char **argv) {
  int maxThreads = argc > 1 ? std::atoi(argv[1]) : 2;
  long pairs = argc > 2 ? std::atol(argv[2]) : 2000000;
  std::printf("bytes,threads,pool_ns,malloc_ns\n");
  for (size_t bytes : {size_t(800), size_t(80000), size_t(8000000)}) {
    long n = bytes >= 8000000 ? pairs / 100 : pairs;
    for (int threads = 1; threads <= maxThreads; ++threads) {
      double pool = nanosPerPair(
          threads, n, bytes, [](size_t b) { return memory::allocate(b); },
          [](void *p) { memory::release(p); });
      double system = nanosPerPair(
          threads, n, bytes,
          [](size_t b) { return std::aligned_alloc(64, (b + 63) / 64 * 64); },
          [](void *p) { std::free(p); });
      std::printf("%zu,%d,%.1f,%.1f\n", bytes, threads, pool, system);
    }
  }
  return 0;
}
