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
#include "AMLS/Runtime/Context.h"
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
using amls::runtime::Context;
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
  /// The context the block is allocated under (null while cached): its
  /// release is charged there, on any thread.
  Context *owner;
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
/// it flushes every cache (trim, the budget). Its blocks count as cached,
/// in no context's live bytes.
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
    Context &context = Context::current();
    if (bytes > (uint64_t(1) << 62))
      refuse(context, bytes, "more than any machine's memory");
    uint64_t classBytes = classOf(bytes);
    Context::MemoryAccount &account = context.getMemoryAccount();
    account.allocations.fetch_add(1, std::memory_order_relaxed);
    account.bytesAllocated.fetch_add(bytes, std::memory_order_relaxed);
    if (announced.what) {
      if (announced.bytes == bytes && bytes > account.rankFloor.load())
        rank(account, announced);
      announced = Statistics::Buffer();
    }
    charge(context, bytes, classBytes);
    bool small = alignment == kAlignment && classBytes <= kThreadBlockBytes &&
                 pooling.load(std::memory_order_relaxed);
    ThreadCache *cachePointer = small ? threadCache() : nullptr;
    if (cachePointer) {
      ThreadCache &cache = *cachePointer;
      std::unique_lock<std::mutex> lock(cache.mutex);
      for (int i = cache.count - 1; i >= 0; --i) {
        if (cache.slots[i].classBytes != classBytes)
          continue;
        void *buffer = cache.slots[i].buffer;
        cache.slots[i] = cache.slots[--cache.count];
        cache.cachedBytes -= classBytes;
        lock.unlock();
        account.poolHits.fetch_add(1, std::memory_order_relaxed);
        return handOut(context, buffer, bytes, classBytes);
      }
    }
    return allocateShared(context, bytes, alignment, classBytes);
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
    Context *owner = header->owner;
    header->owner = nullptr;
    uint64_t budget = owner->getMemoryLimit();
    owner->getMemoryAccount().live.fetch_sub(classBytes,
                                             std::memory_order_relaxed);
    owner->release();
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
    // Keep it for reuse unless it is large, over-aligned, or the cache would
    // hold more than a quarter of the owner's budget.
    if (pooling && aligned && classBytes < kLargeBlockBytes &&
        cachedBytes + classBytes <= budget / 4) {
      AMLS_POISON(buffer, classBytes);
      freeLists[classBytes].push_back(buffer);
      cachedBytes += classBytes;
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

  /// The bytes cached for reuse: in the shared lists and thread caches.
  uint64_t getCachedBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    uint64_t bytes = cachedBytes;
    for (ThreadCache *cache : caches) {
      std::lock_guard<std::mutex> cacheLock(cache->mutex);
      bytes += cache->cachedBytes;
    }
    return bytes;
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

  /// Keeps `buffer` among the largest of `account` if it is, once per
  /// location (a loop allocates the same buffer every iteration).
  static void rank(Context::MemoryAccount &account,
                   const Statistics::Buffer &buffer) {
    std::lock_guard<std::mutex> lock(account.rankMutex);
    Statistics::Buffer *largest = account.largest;
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
    account.rankFloor = largest[Statistics::kLargest - 1].bytes;
  }

  void addCache(ThreadCache *cache) {
    std::lock_guard<std::mutex> lock(mutex);
    caches.push_back(cache);
  }

  /// A thread ends: its blocks go to the shared lists.
  void removeCache(ThreadCache *cache) {
    std::lock_guard<std::mutex> lock(mutex);
    flushLocked(*cache);
    caches.erase(std::find(caches.begin(), caches.end(), cache));
  }

private:
  /// Counts `classBytes` more live in `context`, or stops the program when
  /// its budget refuses them.
  static void charge(Context &context, uint64_t bytes, uint64_t classBytes) {
    Context::MemoryAccount &account = context.getMemoryAccount();
    uint64_t budget = context.getMemoryLimit();
    uint64_t live =
        account.live.fetch_add(classBytes, std::memory_order_relaxed) +
        classBytes;
    if (live > budget) {
      account.live.fetch_sub(classBytes, std::memory_order_relaxed);
      refuse(context, bytes, nullptr);
    }
    uint64_t peak = account.peak.load(std::memory_order_relaxed);
    while (live > peak && !account.peak.compare_exchange_weak(
                              peak, live, std::memory_order_relaxed))
      ;
  }

  /// A charged block becomes `context`'s.
  static void *handOut(Context &context, void *buffer, uint64_t bytes,
                       uint64_t classBytes) {
    auto *header =
        reinterpret_cast<Header *>(static_cast<char *>(buffer) - kAlignment);
    header->owner = &context;
    context.retain();
    exposeOnly(buffer, bytes, classBytes);
    return buffer;
  }

  void *allocateShared(Context &context, uint64_t bytes, uint64_t alignment,
                       uint64_t classBytes) {
    std::unique_lock<std::mutex> lock(mutex);
    if (alignment == kAlignment && pooling) {
      auto it = freeLists.find(classBytes);
      if (it != freeLists.end() && !it->second.empty()) {
        void *buffer = it->second.back();
        it->second.pop_back();
        cachedBytes -= classBytes;
        lock.unlock();
        context.getMemoryAccount().poolHits.fetch_add(
            1, std::memory_order_relaxed);
        return handOut(context, buffer, bytes, classBytes);
      }
    }
    // Live and cached bytes together past the budget: the cache goes back
    // to the system first.
    uint64_t live = context.getMemoryAccount().live.load();
    if (live + cachedBytes > context.getMemoryLimit()) {
      flushThreadCachesLocked();
      trimLocked();
    }
    lock.unlock();
    const BlockSource *from = source.load(std::memory_order_relaxed);
    uint64_t headerBytes = std::max(kAlignment, from->headerBytes);
    // The header's bytes and the alignment's.
    uint64_t total = classBytes + headerBytes + alignment - kAlignment;
    void *base = from->allocate((total + 63) / 64 * 64);
    if (!base) {
      context.getMemoryAccount().live.fetch_sub(classBytes);
      refuse(context, bytes, "the system refused it");
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
    return handOut(context, reinterpret_cast<void *>(payload), bytes,
                   classBytes);
  }

  /// Makes the `bytes` asked for addressable and the rest of the size
  /// class not (under AddressSanitizer only).
  static void exposeOnly(void *buffer, uint64_t bytes, uint64_t classBytes) {
    AMLS_UNPOISON(buffer, bytes);
    AMLS_POISON(static_cast<char *>(buffer) + bytes, classBytes - bytes);
  }

  /// Moves a thread cache's blocks to the shared free lists.
  void flushLocked(ThreadCache &cache) {
    std::lock_guard<std::mutex> cacheLock(cache.mutex);
    for (int i = 0; i < cache.count; ++i) {
      uint64_t classBytes = cache.slots[i].classBytes;
      freeLists[classBytes].push_back(cache.slots[i].buffer);
      cachedBytes += classBytes;
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
      cachedBytes -= classBytes * buffers.size();
      buffers.clear();
    }
  }

  /// Stops the program: `bytes` do not fit `context`'s budget (`why` null)
  /// or the system refused them.
  [[noreturn]] static void refuse(Context &context, uint64_t bytes,
                                  const char *why) {
    char text[512];
    uint64_t budget = context.getMemoryLimit();
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
                    bytes, humanBytes(bytes).c_str(),
                    context.getMemoryAccount().live.load(), budget,
                    humanBytes(budget).c_str());
    fail(text);
  }

  std::mutex mutex;
  std::unordered_map<uint64_t, std::vector<void *>> freeLists;
  /// The bytes in freeLists (thread caches count theirs).
  uint64_t cachedBytes = 0;
  std::vector<ThreadCache *> caches;
  std::atomic<bool> pooling{true};
  std::atomic<const BlockSource *> source{&systemBlocks};
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

void amls::runtime::memory::setLimit(uint64_t bytes) {
  Context::current().setMemoryLimit(bytes);
}
uint64_t amls::runtime::memory::getLimit() {
  return Context::current().getMemoryLimit();
}

void *amls::runtime::memory::allocate(uint64_t bytes, uint64_t alignment) {
  return pool().allocate(bytes, alignment);
}

void amls::runtime::memory::release(void *buffer) { pool().release(buffer); }

Statistics amls::runtime::memory::getStatistics() {
  return Context::current().getMemoryStatistics();
}

Statistics amls::runtime::Context::getMemoryStatistics() const {
  Statistics result;
  result.allocations = memory.allocations.load();
  result.bytesAllocated = memory.bytesAllocated.load();
  result.poolHits = memory.poolHits.load();
  result.liveBytes = memory.live.load();
  result.peakLiveBytes = memory.peak.load();
  result.cachedBytes = pool().getCachedBytes();
  std::lock_guard<std::mutex> lock(memory.rankMutex);
  std::copy(memory.largest, memory.largest + Statistics::kLargest,
            result.largest);
  return result;
}

void amls::runtime::Context::resetMemoryStatistics() {
  memory.allocations = 0;
  memory.bytesAllocated = 0;
  memory.poolHits = 0;
  memory.peak = memory.live.load();
  std::lock_guard<std::mutex> lock(memory.rankMutex);
  std::fill(memory.largest, memory.largest + Statistics::kLargest,
            Statistics::Buffer());
  memory.rankFloor = 0;
}

void amls::runtime::memory::rankBuffer(const Statistics::Buffer &buffer) {
  Pool::rank(Context::current().getMemoryAccount(), buffer);
}
void amls::runtime::memory::resetStatistics() {
  Context::current().resetMemoryStatistics();
}
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
  Context &context = Context::current();
  uint64_t live = context.getMemoryAccount().live.load();
  uint64_t limit = context.getMemoryLimit();
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
