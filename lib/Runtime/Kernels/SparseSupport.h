//===- SparseSupport.h - What the CSR kernels share -------------*- C++ -*-===//
//
// Views of the CSR buffers of SparseKernels.h, the threading helpers
// (Threads.h; rows split by their stored entries so that power-law rows
// balance) and the NaN-propagating
// min / max of the dense lowering (arith.minimumf / maximumf).
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_KERNELS_SPARSESUPPORT_H
#define AMLS_LIB_RUNTIME_KERNELS_SPARSESUPPORT_H

#include "../Core/Failure.h"
#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"
#include "Threads.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <omp.h>
#include <sys/mman.h>

namespace amls::runtime::sparse {

// Kernels' scratch arrays are memory::Vector (the pool, the budget).
namespace memory = amls::runtime::memory;
using amls::runtime::fail;

/// Below this many stored entries (or cells) per thread, starting a thread
/// costs more than it saves.
constexpr int64_t kMinWorkPerThread = 1 << 15;

/// Fails with "<kernel>: <problem()>" unless `ok`; the message is built
/// only then.
template <typename Problem>
void check(bool ok, const char *kernel, Problem problem) {
  if (!ok)
    fail(std::string(kernel) + ": " + problem());
}

inline std::string shape(int64_t rows, int64_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}

/// A read-only CSR matrix.
struct CsrView {
  const int64_t *rowptr;
  const int32_t *colidx;
  const double *values;
  int64_t rows, cols;

  int64_t nnz() const { return rowptr[rows]; }
  int64_t begin(int64_t r) const { return rowptr[r]; }
  int64_t end(int64_t r) const { return rowptr[r + 1]; }
};

inline CsrView csrOf(const AmlsVectorI64 *rowptr, const AmlsVectorI32 *colidx,
                     const AmlsVectorF64 *values, int64_t cols) {
  return {rowptr->aligned + rowptr->offset, colidx->aligned + colidx->offset,
          values->aligned + values->offset,
          std::max<int64_t>(rowptr->sizes[0] - 1, 0), cols};
}

/// The caller-allocated buffers of a CSR result.
struct CsrOut {
  int64_t *rowptr;
  int32_t *colidx;
  double *values;
};

inline CsrOut csrOutOf(AmlsVectorI64 *rowptr, AmlsVectorI32 *colidx,
                       AmlsVectorF64 *values) {
  return {rowptr->aligned + rowptr->offset,
          colidx ? colidx->aligned + colidx->offset : nullptr,
          values ? values->aligned + values->offset : nullptr};
}

/// A strided dense matrix (a memref descriptor's cells).
struct DenseView {
  double *data;
  int64_t rows, cols, rowStride, colStride;

  double &at(int64_t r, int64_t c) const {
    return data[r * rowStride + c * colStride];
  }
  DenseView transposed() const {
    return {data, cols, rows, colStride, rowStride};
  }
};

inline DenseView denseOf(const AmlsMatrixF64 *m) {
  return {m->aligned + m->offset, m->sizes[0], m->sizes[1], m->strides[0],
          m->strides[1]};
}

/// Fails unless the dense result `o` of `kernel` on `a` is rows x cols.
inline void checkResultShape(const DenseView &o, int64_t rows, int64_t cols,
                             const CsrView &a, const char *kernel) {
  check(o.rows == rows && o.cols == cols, kernel, [&] {
    return "a " + shape(o.rows, o.cols) + " result for a " +
           shape(a.rows, a.cols) + " matrix";
  });
}

/// Rows of a dense matrix with unit column stride: the view itself when it
/// has one, otherwise a row-major copy kept in `storage`.
struct RowMajor {
  const double *data;
  int64_t rowStride;
  memory::Vector<double> storage;
};

inline RowMajor rowMajorOf(const DenseView &m) {
  if (m.colStride == 1 || m.cols <= 1)
    return {m.data, m.rowStride, {}};
  RowMajor copy{nullptr, m.cols, memory::Vector<double>(m.rows * m.cols)};
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t c = 0; c < m.cols; ++c)
      copy.storage[r * m.cols + c] = m.at(r, c);
  copy.data = copy.storage.data();
  return copy;
}

/// The cells of a row or column vector as a contiguous array: the view's
/// memory when it is contiguous, otherwise a copy kept in `storage`.
inline const double *contiguousVector(const DenseView &m,
                                      memory::Vector<double> &storage) {
  int64_t length = m.rows * m.cols;
  int64_t stride = m.cols == 1 ? m.rowStride : m.colStride;
  if (stride == 1 || length <= 1)
    return m.data;
  storage.resize(length);
  for (int64_t i = 0; i < length; ++i)
    storage[i] = m.data[i * stride];
  return storage.data();
}

/// Asks for transparent huge pages under a large output buffer before a
/// kernel writes it: the compiled program's allocations of tens of MB are
/// fresh mappings, and their first touch otherwise costs one page fault per
/// 4 KiB (t_10pct's A * A: half of its time in the kernel's fault path).
/// NumPy does the same for its arrays. Only whole 2 MiB pages inside the
/// buffer are advised; a refusal changes nothing.
inline void adviseHugePages(const void *data, int64_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  if (bytes < int64_t(4 * kHuge))
    return;
  uintptr_t begin =
      (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin)
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
}

/// Whether the CPU runs the kernels' AVX2 steps (target "avx2,fma": the
/// 16-lane rows of SpMV and rowSums), checked once.
inline bool haveAvx2() {
  static const bool have =
      __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return have;
}

using amls::runtime::runThreads;
using amls::runtime::threadsFor;

/// Runs body(t, begin, end) over [0, n) in chunks handed out on demand, for
/// work per item too uneven to split up front (SpGEMM rows).
template <typename Body>
void runChunks(int64_t threads, int64_t n, int64_t chunk, Body &&body) {
  std::atomic<int64_t> next{0};
  runThreads(threads, [&](int64_t t) {
    while (true) {
      int64_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
      if (begin >= n)
        return;
      body(t, begin, std::min(n, begin + chunk));
    }
  });
}

/// `parts` + 1 row boundaries splitting `a` into ranges of about equal
/// stored entries plus rows (empty rows still cost a visit). Row offsets
/// need not start at 0 (a range of another matrix's rows).
inline std::vector<int64_t> splitRows(const CsrView &a, int64_t parts) {
  std::vector<int64_t> bounds(parts + 1, a.rows);
  bounds[0] = 0;
  int64_t base = a.rowptr[0];
  double total = static_cast<double>(a.nnz() - base + a.rows);
  for (int64_t t = 1; t < parts; ++t) {
    auto target = static_cast<int64_t>(total * t / parts) + base;
    // The first row r with rowptr[r] + r >= target (both grow with r).
    int64_t lo = bounds[t - 1], hi = a.rows;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (a.rowptr[mid] + mid < target)
        lo = mid + 1;
      else
        hi = mid;
    }
    bounds[t] = lo;
  }
  return bounds;
}

/// Runs body(begin, end) over row ranges of about equal entries of `rows`
/// (row offsets of a CSR matrix, not necessarily starting at 0), in
/// parallel where the entries are many enough.
template <typename Body>
void forRowRanges(const int64_t *rowptr, int64_t rows, Body &&body) {
  CsrView offsets{rowptr, nullptr, nullptr, rows, 0};
  int64_t threads = std::min(
      threadsFor(offsets.nnz() - rowptr[0] + rows, 2 * kMinWorkPerThread),
      std::max<int64_t>(rows, 1));
  std::vector<int64_t> bounds = splitRows(offsets, threads);
  runThreads(threads, [&](int64_t t) { body(bounds[t], bounds[t + 1]); });
}

/// The first stored entry of row r with column >= col.
inline int64_t lowerBound(const CsrView &a, int64_t r, int64_t col) {
  return std::lower_bound(a.colidx + a.begin(r), a.colidx + a.end(r), col) -
         a.colidx;
}

/// IEEE 754-2019 minimum / maximum, as arith.minimumf / maximumf: NaN if
/// either is NaN, and -0 < +0.
inline double minimum(double a, double b) {
  if (a != a || b != b)
    return a + b;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
inline double maximum(double a, double b) {
  if (a != a || b != b)
    return a + b;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

/// The min (or max) of values[0..n) and, with `withZero`, an implicit 0.
/// A branch-free loop with a NaN flag, redone exactly in the rare case of a
/// zero result (only there can the sign of zero differ).
template <bool IsMax, typename Value>
double extremum(int64_t n, Value value, bool withZero) {
  constexpr double kInit = IsMax ? -std::numeric_limits<double>::infinity()
                                 : std::numeric_limits<double>::infinity();
  double acc = withZero ? 0.0 : kInit;
  bool nan = false;
  for (int64_t k = 0; k < n; ++k) {
    double x = value(k);
    nan |= x != x;
    acc = IsMax ? (x > acc ? x : acc) : (x < acc ? x : acc);
  }
  if (nan)
    return std::numeric_limits<double>::quiet_NaN();
  if (acc != 0.0)
    return acc;
  acc = withZero ? 0.0 : kInit;
  for (int64_t k = 0; k < n; ++k)
    acc = IsMax ? maximum(acc, value(k)) : minimum(acc, value(k));
  return acc;
}

/// C = t(A) %*% B for dense B (rows(A) x k) and C (cols(A) x k), without
/// forming t(A) (SparseProducts.cpp; the mmchain reuses it).
void spmmTransposed(const CsrView &a, const DenseView &b, const DenseView &c);

/// `kind` is an AmlsAggKind (ABI.h).
inline void checkAggKind(int32_t kind, const char *kernel) {
  check(kind >= AMLS_AGG_SUM && kind <= AMLS_AGG_MAX, kernel,
        [&] { return "unknown aggregation kind " + std::to_string(kind); });
}

} // namespace amls::runtime::sparse

#endif // AMLS_LIB_RUNTIME_KERNELS_SPARSESUPPORT_H
