//===- Memory.cpp - The runtime's buffer pool and memory budget -----------===//
//
// Each buffer has a header of kAlignment bytes in front of it with its size
// class, so release() needs no lookup. Size classes are multiples of 64
// bytes up to 4 KiB and then four per power of two (at most 25% unused).
// The free lists are behind one mutex: allocations of buffers are few and
// large next to the work done on them (measured in MemoryTest).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Memory.h"
#include "Failure.h"

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

struct Header {
  uint64_t magic;
  /// The block's size class (the bytes after the header).
  uint64_t classBytes;
  /// What the system allocator returned (the header may sit further in,
  /// for alignments beyond kAlignment).
  void *base;
};
static_assert(sizeof(Header) <= kAlignment, "the header fits its slot");

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
    std::unique_lock<std::mutex> lock(mutex);
    ++stats.allocations;
    stats.bytesAllocated += bytes;
    if (announced.what && announced.bytes == bytes)
      rank(announced);
    announced = Statistics::Buffer();
    uint64_t budget = limit ? limit : defaultLimit();
    if (stats.liveBytes + classBytes > budget)
      refuse(bytes, nullptr);
    if (alignment == kAlignment && pooling) {
      auto it = freeLists.find(classBytes);
      if (it != freeLists.end() && !it->second.empty()) {
        void *buffer = it->second.back();
        it->second.pop_back();
        stats.cachedBytes -= classBytes;
        ++stats.poolHits;
        take(classBytes);
        exposeOnly(buffer, bytes, classBytes);
        return buffer;
      }
    }
    // Live, cached and new bytes together past the budget: the cache goes
    // back to the system first.
    if (stats.liveBytes + stats.cachedBytes + classBytes > budget)
      trimLocked();
    take(classBytes);
    lock.unlock();
    uint64_t total = classBytes + alignment; // header slot and alignment
    void *base = std::aligned_alloc(kAlignment, (total + 63) / 64 * 64);
    if (!base) {
      lock.lock();
      stats.liveBytes -= classBytes;
      refuse(bytes, "the system refused it");
    }
    uintptr_t payload =
        (reinterpret_cast<uintptr_t>(base) + kAlignment + alignment - 1) &
        ~(alignment - 1);
    auto *header = reinterpret_cast<Header *>(payload - kAlignment);
    header->magic = kMagic;
    header->classBytes = classBytes;
    header->base = base;
    exposeOnly(reinterpret_cast<void *>(payload), bytes, classBytes);
    return reinterpret_cast<void *>(payload);
  }

  void release(void *buffer) {
    if (!buffer)
      return;
    auto *header =
        reinterpret_cast<Header *>(static_cast<char *>(buffer) - kAlignment);
    if (header->magic != kMagic)
      fail("a buffer released to the pool was not allocated by it");
    uint64_t classBytes = header->classBytes;
    bool aligned = header->base == static_cast<char *>(buffer) - kAlignment;
    std::unique_lock<std::mutex> lock(mutex);
    stats.liveBytes -= classBytes;
    uint64_t budget = limit ? limit : defaultLimit();
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
    std::free(header->base);
  }

  void trim() {
    std::lock_guard<std::mutex> lock(mutex);
    trimLocked();
  }

  uint64_t getLiveBytes() {
    std::lock_guard<std::mutex> lock(mutex);
    return stats.liveBytes;
  }

  Statistics getStatistics() {
    std::lock_guard<std::mutex> lock(mutex);
    return stats;
  }

  void resetStatistics() {
    std::lock_guard<std::mutex> lock(mutex);
    uint64_t live = stats.liveBytes, cached = stats.cachedBytes;
    stats = Statistics();
    stats.liveBytes = stats.peakLiveBytes = live;
    stats.cachedBytes = cached;
  }

  void setLimit(uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    limit = bytes;
  }

  void setPooling(bool enabled) {
    std::lock_guard<std::mutex> lock(mutex);
    pooling = enabled;
    if (!pooling)
      trimLocked();
  }

  uint64_t getLimit() {
    std::lock_guard<std::mutex> lock(mutex);
    return limit ? limit : defaultLimit();
  }

  void announce(const Statistics::Buffer &buffer) { announced = buffer; }

private:
  /// Keeps `buffer` among the largest if it is, once per location (a loop
  /// allocates the same buffer every iteration).
  void rank(const Statistics::Buffer &buffer) {
    Statistics::Buffer *largest = stats.largest;
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
  }

  /// Makes the `bytes` asked for addressable and the rest of the size
  /// class not (under AddressSanitizer only).
  static void exposeOnly(void *buffer, uint64_t bytes, uint64_t classBytes) {
    AMLS_UNPOISON(buffer, bytes);
    AMLS_POISON(static_cast<char *>(buffer) + bytes, classBytes - bytes);
  }

  void take(uint64_t classBytes) {
    stats.liveBytes += classBytes;
    if (stats.liveBytes > stats.peakLiveBytes)
      stats.peakLiveBytes = stats.liveBytes;
  }

  void trimLocked() {
    for (auto &[classBytes, buffers] : freeLists) {
      for (void *buffer : buffers) {
        auto *header = reinterpret_cast<Header *>(static_cast<char *>(buffer) -
                                                  kAlignment);
        AMLS_UNPOISON(buffer, classBytes);
        header->magic = 0;
        std::free(header->base);
      }
      stats.cachedBytes -= classBytes * buffers.size();
      buffers.clear();
    }
  }

  /// Stops the program: `bytes` do not fit the budget (`why` null) or the
  /// system refused them.
  [[noreturn]] void refuse(uint64_t bytes, const char *why) {
    char text[512];
    uint64_t budget = limit ? limit : defaultLimit();
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
    fail(text);
  }

  std::mutex mutex;
  std::unordered_map<uint64_t, std::vector<void *>> freeLists;
  Statistics stats;
  uint64_t limit = 0;
  bool pooling = true;
};

Pool &pool() {
  // Never destroyed: buffers may be released during static destruction.
  static Pool *instance = new Pool();
  return *instance;
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

void amls::runtime::memory::resetStatistics() { pool().resetStatistics(); }
void amls::runtime::memory::trim() { pool().trim(); }
void amls::runtime::memory::setPooling(bool enabled) {
  pool().setPooling(enabled);
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
  uint64_t live = pool().getLiveBytes();
  uint64_t limit = pool().getLimit();
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
