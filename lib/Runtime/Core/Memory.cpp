//===- Memory.cpp - The runtime's buffer pool and memory budget -----------===//
//
// Each buffer has a header of kAlignment bytes in front of it with its size
// class, so release() needs no lookup. Size classes are multiples of 64
// bytes up to 4 KiB and then four per power of two (at most 25% unused).
// Blocks of up to kThreadBlockBytes released by a thread go to that
// thread's own cache (a few slots) and its next allocation of the class
// takes them back without the shared lock: parfor workers and the kernels'
// threads allocate and free the same small temporaries over and over
// (bench/memory: pool_threads). Everything else goes through free lists
// behind one mutex; large buffers are few next to the work done on them.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Memory.h"
#include "Failure.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <unistd.h>

// Under AddressSanitizer (make asan-check) cached blocks and the slack of
// each buffer's size class are poisoned: a runtime kernel that reads or
// writes past the bytes compiled code asked for, or a buffer after it went
// back to the pool, is reported instead of silently hitting pool memory.
#if defined(__SANITIZE_ADDRESS__)
#define AMLS_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AMLS_ADDRESS_SANITIZER 1
#endif
#endif
#ifdef AMLS_ADDRESS_SANITIZER
#include <sanitizer/asan_interface.h>
// Parenthesized: cmake/SanitizerCompat.h turns the unparenthesized names
// (LLVM's allocator annotations) into no-ops.
#define AMLS_POISON(address, bytes)                                            \
  (__asan_poison_memory_region)(address, bytes)
#define AMLS_UNPOISON(address, bytes)                                          \
  (__asan_unpoison_memory_region)(address, bytes)
#else
#define AMLS_POISON(address, bytes) ((void)(address), (void)(bytes))
#define AMLS_UNPOISON(address, bytes) ((void)(address), (void)(bytes))
#endif

using namespace amls::runtime::memory;
using amls::runtime::fail;

namespace {

constexpr uint64_t kMagic = 0x414d4c53424c4b31; // "AMLSBLK1"

/// The largest size class a thread cache keeps.
constexpr uint64_t kThreadBlockBytes = uint64_t(256) << 10;

struct Header {
  uint64_t magic;
  /// The block's size class (the bytes after the header).
  uint64_t classBytes;
  /// What the system allocator returned (the header may sit further in,
  /// for alignments beyond kAlignment).
  void *base;
  /// Set by keepOnNextRelease(): the next release() is the old owner's.
  uint64_t keep;
  /// Gives the block back to where it came from (BlockSource).
  void (*releaseBlock)(void *);
};
static_assert(sizeof(Header) <= kAlignment, "the header fits its slot");

void *allocateSystemBlock(uint64_t bytes) {
  return std::aligned_alloc(kAlignment, bytes);
}
void releaseSystemBlock(void *block) { std::free(block); }
const BlockSource systemBlocks = {allocateSystemBlock, releaseSystemBlock};

uint64_t classOf(uint64_t bytes) {
  if (bytes <= 4096)
    return bytes == 0 ? 64 : (bytes + 63) / 64 * 64;
  unsigned log = 63 - __builtin_clzll(bytes - 1); // 2^log < bytes
  uint64_t step = uint64_t(1) << (log - 2);
  return (bytes + step - 1) / step * step;
}

/// Bytes in KiB, MiB or GiB, for messages.
std::string humanBytes(uint64_t bytes) {
  const char *units[] = {"KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes) / 1024;
  unsigned unit = 0;
  while (value >= 1024 && unit < 3)
    value /= 1024, ++unit;
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f %s", value, units[unit]);
  return text;
}

/// The buffer compiled code announced last on this thread (its check runs
/// right before its allocation): what the next allocation of its size is
/// for.
thread_local Statistics::Buffer announced;

class Pool;
Pool &pool();

/// A thread's own cache of small blocks (see the file comment). Its mutex
/// is taken by its thread on every use, uncontended, and by the pool when
/// it flushes every cache (trim, the budget). The blocks it holds stay
/// counted in the pool's live bytes until they are flushed.
struct ThreadCache {
  static constexpr int kSlots = 8;
  struct Slot {
    void *buffer;
    uint64_t classBytes;
  };

  ThreadCache();
  ~ThreadCache();

  std::mutex mutex;
  Slot slots[kSlots];
  int count = 0;
  uint64_t cachedBytes = 0;
  /// The allocations of blocks up to kThreadBlockBytes this thread asked
  /// for, their bytes, and those served from this cache.
  uint64_t allocations = 0, bytesAllocated = 0, hits = 0;
};

/// 0 before this thread's cache exists, 1 while it does, 2 after it was
/// destroyed (static objects released at exit, after the thread-locals of
/// the main thread, go to the shared lists).
thread_local int threadCacheState = 0;

ThreadCache *threadCache() {
  if (threadCacheState == 2)
    return nullptr;
  thread_local ThreadCache cache;
  return &cache;
}

class Pool {
public:
  void *allocate(uint64_t bytes, uint64_t alignment) {
    if (alignment < kAlignment)
      alignment = kAlignment;
    if (alignment > 4096 || (alignment & (alignment - 1)))
      fail("a buffer alignment must be a power of two of at most 4096");
    if (bytes > (uint64_t(1) << 62))
      refuse(bytes, "more than any machine's memory");
    uint64_t classBytes = classOf(bytes);
    if (announced.what) {
      if (announced.bytes == bytes && bytes > rankFloor.load())
        rank(announced);
      announced = Statistics::Buffer();
    }
    bool small = alignment == kAlignment && classBytes <= kThreadBlockBytes &&
                 pooling.load(std::memory_order_relaxed);
    ThreadCache *cachePointer = small ? threadCache() : nullptr;
    if (cachePointer) {
      ThreadCache &cache = *cachePointer;
      std::unique_lock<std::mutex> lock(cache.mutex);
      ++cache.allocations;
      cache.bytesAllocated += bytes;
      for (int i = cache.count - 1; i >= 0; --i) {
        if (cache.slots[i].classBytes != classBytes)
          continue;
        void *buffer = cache.slots[i].buffer;
        cache.slots[i] = cache.slots[--cache.count];
        cache.cachedBytes -= classBytes;
        ++cache.hits;
        lock.unlock();
        exposeOnly(buffer, bytes, classBytes);
        return buffer;
      }
    }
    return allocateShared(bytes, alignment, classBytes,
                          /*counted=*/cachePointer != nullptr);
  }

  void release(void *buffer) {
    if (!buffer)
      return;
    auto *header =
        reinterpret_cast<Header *>(static_cast<char *>(buffer) - kAlignment);
    if (header->magic != kMagic)
      fail("a buffer released to the pool was not allocated by it");
    if (header->keep) {
      header->keep = 0;
      return;
    }
    uint64_t classBytes = header->classBytes;
    // A block from a source no longer installed is not reused, nor one
    // aligned beyond the default.
    const BlockSource *current = source.load(std::memory_order_relaxed);
    bool aligned =
        header->base == static_cast<char *>(buffer) -
                            std::max(kAlignment, current->headerBytes) &&
        header->releaseBlock == current->release;
    ThreadCache *cachePointer = aligned && classBytes <= kThreadBlockBytes &&
                                        pooling.load(std::memory_order_relaxed)
                                    ? threadCache()
                                    : nullptr;
    if (cachePointer) {
      ThreadCache &cache = *cachePointer;
      AMLS_POISON(buffer, classBytes);
      std::lock_guard<std::mutex> lock(cache.mutex);
      if (cache.count < ThreadCache::kSlots) {
        cache.slots[cache.count++] = {buffer, classBytes};
        cache.cachedBytes += classBytes;
        return;
      }
    }
    std::unique_lock<std::mutex> lock(mutex);
    setLive(stats.liveBytes - classBytes);
    uint64_t budget = budgetLocked();
    // Keep it for reuse unless it is large, over-aligned, or the cache would
    // hold more than a quarter of the budget.
    if (pooling && aligned && classBytes < kLargeBlockBytes &&
        stats.cachedBytes + classBytes <= budget / 4) {
      AMLS_POISON(buffer, classBytes);
      freeLists[classBytes].push_back(buffer);
      stats.cachedBytes += classBytes;
      return;
    }
    lock.unlock();
    AMLS_UNPOISON(buffer, classBytes);
    header->magic = 0;
    header->releaseBlock(header->base);
  }

  void trim() {
    std::lock_guard<std::mutex> lock(mutex);
    flushThreadCachesLocked();
    trimLocked();
  }

  /// The bytes live, counting the blocks in thread caches: an upper bound
  /// read without a lock (the exact count needs every cache's lock).
  uint64_t getLiveBytesBound() { return live.load(std::memory_order_relaxed); }

  /// The exact bytes live, after every thread cache went back to the pool.
  uint64_t getLiveBytesFlushed() {
    std::lock_guard<std::mutex> lock(mutex);
    flushThreadCachesLocked();
    return stats.liveBytes;
  }

  Statistics getStatistics() {
    std::lock_guard<std::mutex> lock(mutex);
    Statistics result = stats;
    for (ThreadCache *cache : caches) {
      std::lock_guard<std::mutex> cacheLock(cache->mutex);
      result.allocations += cache->allocations;
      result.bytesAllocated += cache->bytesAllocated;
      result.poolHits += cache->hits;
      result.liveBytes -= cache->cachedBytes;
      result.cachedBytes += cache->cachedBytes;
    }
    std::lock_guard<std::mutex> rankLock(rankMutex);
    std::copy(largest, largest + Statistics::kLargest, result.largest);
    return result;
  }

  void resetStatistics() {
    std::lock_guard<std::mutex> lock(mutex);
    flushThreadCachesLocked();
    for (ThreadCache *cache : caches) {
      std::lock_guard<std::mutex> cacheLock(cache->mutex);
      cache->allocations = cache->bytesAllocated = cache->hits = 0;
    }
    uint64_t liveNow = stats.liveBytes, cached = stats.cachedBytes;
    stats = Statistics();
    stats.liveBytes = stats.peakLiveBytes = liveNow;
    stats.cachedBytes = cached;
    std::lock_guard<std::mutex> rankLock(rankMutex);
    std::fill(largest, largest + Statistics::kLargest, Statistics::Buffer());
    rankFloor = 0;
  }

  void setLimit(uint64_t bytes) { limit = bytes; }
  uint64_t getLimit() {
    uint64_t bytes = limit;
    return bytes ? bytes : defaultLimit();
  }

  void setBlockSource(const BlockSource *from) {
    std::lock_guard<std::mutex> lock(mutex);
    source.store(from ? from : &systemBlocks, std::memory_order_relaxed);
    flushThreadCachesLocked();
    trimLocked();
  }

  void setPooling(bool enabled) {
    std::lock_guard<std::mutex> lock(mutex);
    pooling = enabled;
    if (!pooling) {
      flushThreadCachesLocked();
      trimLocked();
    }
  }

  void announce(const Statistics::Buffer &buffer) { announced = buffer; }
  void rankNow(const Statistics::Buffer &buffer) { rank(buffer); }

  void addCache(ThreadCache *cache) {
    std::lock_guard<std::mutex> lock(mutex);
    caches.push_back(cache);
  }

  /// A thread ends: its blocks go to the shared lists, its counters to the
  /// pool's.
  void removeCache(ThreadCache *cache) {
    std::lock_guard<std::mutex> lock(mutex);
    flushLocked(*cache);
    stats.allocations += cache->allocations;
    stats.bytesAllocated += cache->bytesAllocated;
    stats.poolHits += cache->hits;
    caches.erase(std::find(caches.begin(), caches.end(), cache));
  }

private:
  void *allocateShared(uint64_t bytes, uint64_t alignment, uint64_t classBytes,
                       bool counted) {
    std::unique_lock<std::mutex> lock(mutex);
    if (!counted) {
      ++stats.allocations;
      stats.bytesAllocated += bytes;
    }
    uint64_t budget = budgetLocked();
    // Blocks held by thread caches count as live until flushed.
    if (stats.liveBytes + classBytes > budget)
      flushThreadCachesLocked();
    if (stats.liveBytes + classBytes > budget)
      refuseLocked(lock, bytes, nullptr);
    if (alignment == kAlignment && pooling) {
      auto it = freeLists.find(classBytes);
      if (it != freeLists.end() && !it->second.empty()) {
        void *buffer = it->second.back();
        it->second.pop_back();
        stats.cachedBytes -= classBytes;
        ++stats.poolHits;
        take(classBytes);
        lock.unlock();
        exposeOnly(buffer, bytes, classBytes);
        return buffer;
      }
    }
    // Live, cached and new bytes together past the budget: the cache goes
    // back to the system first.
    if (stats.liveBytes + stats.cachedBytes + classBytes > budget) {
      flushThreadCachesLocked();
      trimLocked();
    }
    take(classBytes);
    lock.unlock();
    const BlockSource *from = source.load(std::memory_order_relaxed);
    uint64_t headerBytes = std::max(kAlignment, from->headerBytes);
    // The header's bytes and the alignment's.
    uint64_t total = classBytes + headerBytes + alignment - kAlignment;
    void *base = from->allocate((total + 63) / 64 * 64);
    if (!base) {
      lock.lock();
      setLive(stats.liveBytes - classBytes);
      refuseLocked(lock, bytes, "the system refused it");
    }
    uintptr_t payload =
        (reinterpret_cast<uintptr_t>(base) + headerBytes + alignment - 1) &
        ~(alignment - 1);
    auto *header = reinterpret_cast<Header *>(payload - kAlignment);
    header->magic = kMagic;
    header->classBytes = classBytes;
    header->base = base;
    header->keep = 0;
    header->releaseBlock = from->release;
    exposeOnly(reinterpret_cast<void *>(payload), bytes, classBytes);
    return reinterpret_cast<void *>(payload);
  }

  /// Keeps `buffer` among the largest if it is, once per location (a loop
  /// allocates the same buffer every iteration).
  void rank(const Statistics::Buffer &buffer) {
    std::lock_guard<std::mutex> lock(rankMutex);
    for (int i = 0; i < Statistics::kLargest; ++i)
      if (largest[i].what == buffer.what) {
        if (largest[i].bytes >= buffer.bytes)
          return;
        // Taken out, then ranked again below.
        for (int j = i; j + 1 < Statistics::kLargest; ++j)
          largest[j] = largest[j + 1];
        largest[Statistics::kLargest - 1] = Statistics::Buffer();
        break;
      }
    int at = Statistics::kLargest;
    while (at > 0 && largest[at - 1].bytes < buffer.bytes)
      --at;
    if (at == Statistics::kLargest)
      return;
    for (int i = Statistics::kLargest - 1; i > at; --i)
      largest[i] = largest[i - 1];
    largest[at] = buffer;
    rankFloor = largest[Statistics::kLargest - 1].bytes;
  }

  /// Makes the `bytes` asked for addressable and the rest of the size
  /// class not (under AddressSanitizer only).
  static void exposeOnly(void *buffer, uint64_t bytes, uint64_t classBytes) {
    AMLS_UNPOISON(buffer, bytes);
    AMLS_POISON(static_cast<char *>(buffer) + bytes, classBytes - bytes);
  }

  uint64_t budgetLocked() {
    uint64_t bytes = limit;
    return bytes ? bytes : defaultLimit();
  }

  void setLive(uint64_t bytes) {
    stats.liveBytes = bytes;
    live.store(bytes, std::memory_order_relaxed);
  }

  void take(uint64_t classBytes) {
    setLive(stats.liveBytes + classBytes);
    if (stats.liveBytes > stats.peakLiveBytes)
      stats.peakLiveBytes = stats.liveBytes;
  }

  /// Moves a thread cache's blocks to the shared free lists.
  void flushLocked(ThreadCache &cache) {
    std::lock_guard<std::mutex> cacheLock(cache.mutex);
    for (int i = 0; i < cache.count; ++i) {
      uint64_t classBytes = cache.slots[i].classBytes;
      freeLists[classBytes].push_back(cache.slots[i].buffer);
      setLive(stats.liveBytes - classBytes);
      stats.cachedBytes += classBytes;
    }
    cache.count = 0;
    cache.cachedBytes = 0;
  }

  void flushThreadCachesLocked() {
    for (ThreadCache *cache : caches)
      flushLocked(*cache);
  }

  void trimLocked() {
    for (auto &[classBytes, buffers] : freeLists) {
      for (void *buffer : buffers) {
        auto *header = reinterpret_cast<Header *>(static_cast<char *>(buffer) -
                                                  kAlignment);
        AMLS_UNPOISON(buffer, classBytes);
        header->magic = 0;
        header->releaseBlock(header->base);
      }
      stats.cachedBytes -= classBytes * buffers.size();
      buffers.clear();
    }
  }

  [[noreturn]] void refuse(uint64_t bytes, const char *why) {
    std::unique_lock<std::mutex> lock(mutex);
    refuseLocked(lock, bytes, why);
  }

  /// Stops the program: `bytes` do not fit the budget (`why` null) or the
  /// system refused them. The lock is given up first: exiting destroys this
  /// thread's cache, which takes it.
  [[noreturn]] void refuseLocked(std::unique_lock<std::mutex> &lock,
                                 uint64_t bytes, const char *why) {
    char text[512];
    uint64_t budget = budgetLocked();
    if (why)
      std::snprintf(text, sizeof(text),
                    "out of memory: a buffer of %" PRIu64
                    " bytes (%s) cannot be allocated: %s",
                    bytes, humanBytes(bytes).c_str(), why);
    else
      std::snprintf(text, sizeof(text),
                    "out of memory: a buffer of %" PRIu64
                    " bytes (%s) with %" PRIu64
                    " bytes live would exceed the memory limit of %" PRIu64
                    " bytes (%s; amls-run --memory-limit)",
                    bytes, humanBytes(bytes).c_str(), stats.liveBytes, budget,
                    humanBytes(budget).c_str());
    lock.unlock();
    fail(text);
  }

  std::mutex mutex;
  std::unordered_map<uint64_t, std::vector<void *>> freeLists;
  /// liveBytes counts the blocks in thread caches (getStatistics() takes
  /// them out); largest is kept apart, under rankMutex.
  Statistics stats;
  std::vector<ThreadCache *> caches;
  /// stats.liveBytes, for reading without the lock.
  std::atomic<uint64_t> live{0};
  std::atomic<uint64_t> limit{0};
  std::atomic<bool> pooling{true};
  std::atomic<const BlockSource *> source{&systemBlocks};

  std::mutex rankMutex;
  Statistics::Buffer largest[Statistics::kLargest];
  /// The bytes a buffer must exceed to be ranked (0 until kLargest are).
  std::atomic<uint64_t> rankFloor{0};
};

Pool &pool() {
  // Never destroyed: buffers may be released during static destruction.
  static Pool *instance = new Pool();
  return *instance;
}

ThreadCache::ThreadCache() {
  threadCacheState = 1;
  pool().addCache(this);
}

ThreadCache::~ThreadCache() {
  pool().removeCache(this);
  threadCacheState = 2;
}

} // namespace

uint64_t amls::runtime::memory::defaultLimit() {
  static const uint64_t bytes = [] {
    double memory = static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
                    static_cast<double>(sysconf(_SC_PAGE_SIZE));
    return static_cast<uint64_t>(0.8 * memory);
  }();
  return bytes;
}

void amls::runtime::memory::setLimit(uint64_t bytes) { pool().setLimit(bytes); }
uint64_t amls::runtime::memory::getLimit() { return pool().getLimit(); }

void *amls::runtime::memory::allocate(uint64_t bytes, uint64_t alignment) {
  return pool().allocate(bytes, alignment);
}

void amls::runtime::memory::release(void *buffer) { pool().release(buffer); }

Statistics amls::runtime::memory::getStatistics() {
  return pool().getStatistics();
}

void amls::runtime::memory::rankBuffer(const Statistics::Buffer &buffer) {
  pool().rankNow(buffer);
}
void amls::runtime::memory::resetStatistics() { pool().resetStatistics(); }
void amls::runtime::memory::trim() { pool().trim(); }
void amls::runtime::memory::setPooling(bool enabled) {
  pool().setPooling(enabled);
}
void amls::runtime::memory::setBlockSource(const BlockSource *source) {
  pool().setBlockSource(source);
}

bool amls::runtime::memory::parseSize(const char *text, uint64_t &bytes) {
  char *end = nullptr;
  errno = 0;
  double value = std::strtod(text, &end);
  if (end == text || errno != 0 || !(value > 0))
    return false;
  double scale = 1;
  switch (*end) {
  case 'k':
  case 'K':
    scale = 1024.0, ++end;
    break;
  case 'm':
  case 'M':
    scale = 1024.0 * 1024, ++end;
    break;
  case 'g':
  case 'G':
    scale = 1024.0 * 1024 * 1024, ++end;
    break;
  case 't':
  case 'T':
    scale = 1024.0 * 1024 * 1024 * 1024, ++end;
    break;
  default:
    break;
  }
  if (*end == 'B' || *end == 'b')
    ++end;
  if (*end != '\0' || value * scale >= 1.8e19)
    return false;
  bytes = static_cast<uint64_t>(value * scale);
  return bytes > 0;
}

extern "C" void amls_rt_check_buffer_size(int64_t d0, int64_t d1, int64_t d2,
                                          int64_t elementBytes,
                                          const char *what) {
  char text[512];
  if (d0 < 0 || d1 < 0 || d2 < 0) {
    std::snprintf(text, sizeof(text),
                  "%s: a negative size (%lld x %lld x %lld elements)", what,
                  static_cast<long long>(d0), static_cast<long long>(d1),
                  static_cast<long long>(d2));
    fail(text);
  }
  uint64_t cells = 0, bytes = 0;
  if (__builtin_mul_overflow(uint64_t(d0), uint64_t(d1), &cells) ||
      __builtin_mul_overflow(cells, uint64_t(d2), &cells) ||
      __builtin_mul_overflow(cells, uint64_t(elementBytes), &bytes) ||
      bytes > (uint64_t(1) << 62)) {
    std::snprintf(text, sizeof(text),
                  "%s: %lld x %lld x %lld elements of %lld bytes are more "
                  "than any machine's memory",
                  what, static_cast<long long>(d0), static_cast<long long>(d1),
                  static_cast<long long>(d2),
                  static_cast<long long>(elementBytes));
    fail(text);
  }
  uint64_t live = pool().getLiveBytesBound();
  uint64_t limit = pool().getLimit();
  if (live + classOf(bytes) > limit)
    live = pool().getLiveBytesFlushed();
  Statistics::Buffer buffer;
  buffer.bytes = bytes;
  buffer.sizes[0] = d0;
  buffer.sizes[1] = d1;
  buffer.sizes[2] = d2;
  buffer.elementBytes = elementBytes;
  buffer.what = what;
  pool().announce(buffer);
  if (live + classOf(bytes) > limit) {
    std::snprintf(text, sizeof(text),
                  "%s: out of memory: %" PRIu64 " bytes (%s) with %" PRIu64
                  " bytes live would exceed the memory limit of %" PRIu64
                  " bytes (%s; amls-run --memory-limit)",
                  what, bytes, humanBytes(bytes).c_str(), live, limit,
                  humanBytes(limit).c_str());
    fail(text);
  }
}

// MLIR's generic allocation functions (finalize-memref-to-llvm with
// use-generic-functions): every memref.alloc and dealloc of compiled code.
void amls::runtime::memory::keepOnNextRelease(void *buffer) {
  auto *header =
      reinterpret_cast<Header *>(static_cast<char *>(buffer) - kAlignment);
  if (header->magic != kMagic)
    fail("a buffer handed over was not allocated by the pool");
  header->keep = 1;
}

extern "C" void *_mlir_memref_to_llvm_alloc(uint64_t bytes) {
  return pool().allocate(bytes, kAlignment);
}

extern "C" void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment,
                                                    uint64_t bytes) {
  return pool().allocate(bytes, alignment);
}

extern "C" void _mlir_memref_to_llvm_free(void *buffer) {
  pool().release(buffer);
}
