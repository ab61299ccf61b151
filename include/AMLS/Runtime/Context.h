//===- Context.h - The runtime state of one execution session ---*- C++ -*-===//
//
// What the runtime keeps for a session rather than for the process: the
// memory budget and the accounting of the buffers allocated under it (live
// and peak bytes, allocations, the largest buffers), the thread count the
// kernels use, and whether BLAS must stay serial while a parfor runs. A
// session owns a context and installs it on the thread that compiles and
// runs its program (ScopedContext), as Halide hands a `user_context` to its
// runtime, but without a parameter on every call: the runtime carries the
// installed context into the workers of every parallel region it starts,
// and compiled code's regions carry it through their failure traps
// (amls_rt_region_open/trap). A buffer's release is charged to the context
// it was allocated under, on whatever thread releases it, so results that
// outlive a run stay in their session's account. A thread with no context
// installed uses the process's default context (amls-run's one program,
// tools, the runtime's own tests).
//
// Shared by every context, because they are the process's: the pool's free
// lists and thread caches (memory, not budget), where blocks come from (the
// system, or CUDA managed memory once a --target=gpu session prepared the
// device), OpenBLAS's thread count (OpenBLAS 0.3.21 has no per-thread
// setting; ThreadedBlasSection raises it only around a LAPACK call), the
// CUDA device and its libraries, and the counter behind fresh random seeds.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_CONTEXT_H
#define AMLS_RUNTIME_CONTEXT_H

#include "AMLS/Runtime/Memory.h"

#include <atomic>
#include <cstdint>
#include <mutex>

namespace amls::runtime {

class Context {
public:
  /// A new context with the default budget and one thread. The caller holds
  /// one reference; each buffer allocated under the context holds another,
  /// so the context outlives its session while a result it returned lives.
  static Context *create();
  /// The context installed on this thread, else the process default.
  static Context &current();
  /// The context of threads without one (never freed).
  static Context &processDefault();

  void retain() { references.fetch_add(1, std::memory_order_relaxed); }
  /// Gives up a reference; the last one frees the context (never the
  /// process default).
  void release();

  /// The bytes buffers allocated under this context may hold at once (0:
  /// memory::defaultLimit()).
  void setMemoryLimit(uint64_t bytes) { memory.limit = bytes; }
  uint64_t getMemoryLimit() const;

  /// The threads the runtime's kernels use (at least 1).
  void setThreads(int32_t count) { threads = count; }
  int32_t getThreads() const;

  /// Set while a parfor's workers run: each keeps BLAS single-threaded.
  void setBlasSerial(bool serial) { blasSerial = serial; }
  bool isBlasSerial() const { return blasSerial; }

  /// This context's buffers; cachedBytes is the process pool's.
  memory::Statistics getMemoryStatistics() const;
  /// Starts the counters again; the peak from the bytes live now.
  void resetMemoryStatistics();

  /// The pool's bookkeeping of this context's buffers (lib/Runtime/Core/
  /// Memory.cpp keeps it; nothing else should write it).
  struct MemoryAccount {
    std::atomic<uint64_t> limit{0};
    std::atomic<uint64_t> live{0};
    std::atomic<uint64_t> peak{0};
    std::atomic<uint64_t> allocations{0};
    std::atomic<uint64_t> bytesAllocated{0};
    std::atomic<uint64_t> poolHits{0};
    mutable std::mutex rankMutex;
    memory::Statistics::Buffer largest[memory::Statistics::kLargest];
    /// The bytes a buffer must exceed to be ranked (0 until kLargest are).
    std::atomic<uint64_t> rankFloor{0};
  };
  MemoryAccount &getMemoryAccount() { return memory; }
  const MemoryAccount &getMemoryAccount() const { return memory; }

private:
  Context() = default;
  ~Context() = default;
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  MemoryAccount memory;
  std::atomic<int32_t> threads{1};
  std::atomic<bool> blasSerial{false};
  std::atomic<int64_t> references{1};
};

/// Installs a context on this thread for the scope (null: none, the
/// process default), restoring the one before on exit.
class ScopedContext {
public:
  explicit ScopedContext(Context *context);
  ~ScopedContext();
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

private:
  Context *outer;
};

/// The context installed on this thread (null: none); for the places that
/// hand it to a worker thread.
Context *getInstalledContext();
/// Installs `context` on this thread and returns the one it replaces.
Context *exchangeInstalledContext(Context *context);

} // namespace amls::runtime

#endif // AMLS_RUNTIME_CONTEXT_H
