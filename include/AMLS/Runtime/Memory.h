//===- Memory.h - The runtime's buffer pool and memory budget ---*- C++ -*-===//
//
// Every buffer compiled code allocates comes from here: the lowering routes
// memref.alloc/dealloc through MLIR's generic allocation functions
// (finalize-memref-to-llvm{use-generic-functions}), which this library
// defines. Freed buffers go to free lists by size class and are reused by
// the next allocation of the class (loops that allocate the same shapes
// every iteration stop calling the system allocator); blocks beyond
// `kLargeBlockBytes` and what exceeds the cache's share of the budget go
// back to the system. An allocation beyond the memory budget stops the
// program with the bytes asked for, the bytes live and the limit.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_MEMORY_H
#define AMLS_RUNTIME_MEMORY_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace amls::runtime::memory {

/// Blocks of at least this size are returned to the system when freed.
constexpr uint64_t kLargeBlockBytes = uint64_t(1) << 30;

/// Alignment of every buffer (AVX-512 vectors, cache lines).
constexpr uint64_t kAlignment = 64;

struct Statistics {
  /// Allocations asked for and their bytes.
  uint64_t allocations = 0;
  uint64_t bytesAllocated = 0;
  /// Allocations served from the free lists.
  uint64_t poolHits = 0;
  /// Bytes in buffers allocated and not freed, now and at most.
  uint64_t liveBytes = 0;
  uint64_t peakLiveBytes = 0;
  /// Bytes held in the free lists.
  uint64_t cachedBytes = 0;
  /// The largest buffers allocated, largest first: their bytes, sizes
  /// (d0 x d1 x d2 elements of elementBytes) and the location of the
  /// computation they were for (compiled code's buffers only, as
  /// --amls-check-buffer-sizes announces them; static strings).
  struct Buffer {
    uint64_t bytes = 0;
    int64_t sizes[3] = {0, 0, 0};
    int64_t elementBytes = 0;
    const char *what = nullptr;
  };
  static constexpr int kLargest = 3;
  Buffer largest[kLargest];
};

/// The budget of the installed runtime context (Context.h): the bytes its
/// buffers may hold at once (cached free blocks count in no budget and go
/// back to the system first when they are in the way). 0 means the default.
void setLimit(uint64_t bytes);
uint64_t getLimit();
/// The default budget: 80% of the machine's physical memory.
uint64_t defaultLimit();

/// A buffer of `bytes` aligned to `alignment` (at most 4096; kAlignment at
/// least), charged to the installed context until it is released (on any
/// thread). Stops the program when the budget or the system refuses.
void *allocate(uint64_t bytes, uint64_t alignment = kAlignment);
/// Releases a buffer from allocate(); null is ignored.
void release(void *buffer);

/// The installed context's buffers; cachedBytes is the process pool's.
Statistics getStatistics();
/// Counts `buffer` among the largest as if compiled code had announced it
/// before allocating it: the runtime's arrays handed over to compiled code.
void rankBuffer(const Statistics::Buffer &buffer);
/// Starts the installed context's counters again.
void resetStatistics();
/// Returns every cached block to the system.
void trim();
/// With pooling off, every buffer comes from the system allocator and goes
/// back to it when freed (the budget and statistics still apply): the
/// baseline the pool is measured against (amls-run --memory-pool=false).
void setPooling(bool enabled);

/// Where the pool's blocks come from: the system allocator by default;
/// libamls_cuda_runtime installs CUDA managed memory for --target=gpu.
struct BlockSource {
  /// A block of `bytes` (a multiple of 64) aligned to at least kAlignment,
  /// or null when refused.
  void *(*allocate)(uint64_t bytes);
  void (*release)(void *block);
  /// Bytes before a block's payload that hold only the pool's header (0:
  /// the header's own slot): with a page here, reading the header when the
  /// block is freed does not touch the payload's pages (which managed
  /// memory would migrate to the host).
  uint64_t headerBytes = 0;
};
/// Blocks allocated from now on come from `source` (null: the system
/// allocator); cached blocks go back to where they came from, and a block
/// of another source is given back when freed rather than reused.
void setBlockSource(const BlockSource *source);

/// A standard allocator over the pool: the runtime's own arrays (matrices
/// read from files, kernels' scratch) count against the budget, show in the
/// statistics and stop the program with the same message when refused, like
/// compiled code's buffers.
template <typename T> struct Allocator {
  using value_type = T;
  Allocator() = default;
  template <typename U> Allocator(const Allocator<U> &) {}
  T *allocate(std::size_t count) {
    // Beyond 2^62 bytes allocate() refuses; the product must not wrap first.
    uint64_t bytes = count > (uint64_t(1) << 62) / sizeof(T)
                         ? (uint64_t(1) << 62) + 1
                         : uint64_t(count) * sizeof(T);
    return static_cast<T *>(memory::allocate(bytes));
  }
  void deallocate(T *buffer, std::size_t) { memory::release(buffer); }
  friend bool operator==(const Allocator &, const Allocator &) { return true; }
  friend bool operator!=(const Allocator &, const Allocator &) { return false; }
};

/// An array of the runtime's whose memory comes from the pool.
template <typename T> using Vector = std::vector<T, Allocator<T>>;

/// An uninitialized array from the pool, released when it goes out of
/// scope: a kernel's scratch that it fills itself (no zeroing pass, and
/// from the second call on no page faults either, unlike new[]).
template <typename T> class Scratch {
public:
  explicit Scratch(int64_t count)
      : buffer(static_cast<T *>(
            allocate(uint64_t(count > 1 ? count : 1) * sizeof(T)))) {}
  ~Scratch() { release(buffer); }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  T *data() const { return buffer; }

private:
  T *buffer;
};

/// Makes the next release() of `buffer` (from allocate()) do nothing: its
/// owner is about to release it while a new owner keeps it.
void keepOnNextRelease(void *buffer);

/// Hands the buffer of `vector` over to a new owner, who frees it with
/// release() (compiled code: a memref the runtime returns is the caller's
/// to deallocate). The vector is left empty, nothing is copied, and the
/// buffer stays live in the statistics. Null for a vector without one.
template <typename T> T *handOver(Vector<T> &vector) {
  T *buffer = vector.data();
  if (buffer)
    keepOnNextRelease(buffer);
  Vector<T>().swap(vector);
  return buffer;
}

/// Parses a size such as 2G, 512M, 64k or 1000000 (bytes); false if it is
/// not one.
bool parseSize(const char *text, uint64_t &bytes);

} // namespace amls::runtime::memory

#endif // AMLS_RUNTIME_MEMORY_H
