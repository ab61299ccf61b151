//===- SparseProducts.cpp - CSR times dense, dense times CSR --------------===//
//
// A %*% B (SpMV for one column, SpMM for k) forms each row of C from the
// rows of B its row of A selects; the row-kernels are instantiated for small
// k so that a row of C stays in registers, and threads take row ranges of
// equal stored entries (power-law rows balance). t(A) %*% B scatters row i
// of B into the rows of C that row i of A names, so threads would race on
// C: each thread gets a private copy of C, summed at the end, unless those
// copies would be too large or cost more to sum than the product itself;
// then each thread owns a range of C's rows (A's columns) and picks its
// part of every row of A by binary search. Dense %*% CSR scatters rows of B
// into rows of C, in parallel over C's rows; with fewer rows than threads,
// or A a transposed view, it is t(t(B) %*% t(A)), the transposed product on
// transposed views.
//
//===----------------------------------------------------------------------===//

#include "SparseSupport.h"

#include <memory>

#include <immintrin.h>

using namespace amls::runtime::sparse;

namespace {

/// Largest total size of the private copies of C in t(A) %*% B.
constexpr int64_t kMaxPartialBytes = int64_t(256) << 20;

//===----------------------------------------------------------------------===//
// A %*% B
//===----------------------------------------------------------------------===//

/// Entries [k, rowEnd) of a row of A times x, in four partial sums that
/// hide the latency of the gathered x (a long row).
__attribute__((always_inline)) inline double
longRowDot(const CsrView &a, const double *__restrict x, int64_t k,
           int64_t rowEnd) {
  const int32_t *colidx = a.colidx;
  const double *values = a.values;
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  for (; k + 4 <= rowEnd; k += 4) {
    s0 += values[k] * x[colidx[k]];
    s1 += values[k + 1] * x[colidx[k + 1]];
    s2 += values[k + 2] * x[colidx[k + 2]];
    s3 += values[k + 3] * x[colidx[k + 3]];
  }
  for (; k < rowEnd; ++k)
    s0 += values[k] * x[colidx[k]];
  return (s0 + s1) + (s2 + s3);
}

/// y[i * yStride] = row i of A . x for rows [begin, end). A short row (the
/// common case: 10 entries on average in the bench matrices) is one plain
/// loop, whose only unpredictable branch is the row's end; a long row uses
/// four partial sums to hide the latency of the gathered x (measured on
/// t_10pct, 2 threads: 7.4 -> 6.5 ms against two partial sums for every
/// row). The summation order depends on the row only, so results are the
/// same at any thread count.
__attribute__((target_clones("avx512f", "avx2", "default"))) void
spmvRows(const CsrView &a, const double *__restrict x, double *__restrict y,
         int64_t yStride, int64_t begin, int64_t end) {
  constexpr int64_t kShortRow = 16;
  const int64_t *rowptr = a.rowptr;
  const int32_t *colidx = a.colidx;
  const double *values = a.values;
  int64_t k = rowptr[begin];
  for (int64_t i = begin; i < end; ++i) {
    int64_t rowEnd = rowptr[i + 1];
    if (__builtin_expect(rowEnd - k < kShortRow, 1)) {
      double s = 0.0;
      for (; k < rowEnd; ++k)
        s += values[k] * x[colidx[k]];
      y[i * yStride] = s;
      continue;
    }
    y[i * yStride] = longRowDot(a, x, k, rowEnd);
    k = rowEnd;
  }
}

/// Most columns for which SpMV takes spmvRowsNarrow: x stays in L1.
constexpr int64_t kNarrowCols = 2048;

/// spmvRows for a matrix with few columns and short rows (t_10pct: 100
/// columns, 10 entries per row): a row of up to 16 entries is one fixed
/// 16-lane step (four masked gathers of x, the values masked to the row),
/// with no branch on the row's length, where the plain loop mispredicts
/// its end about once per row (t_10pct, kernel alone at 2 threads: 6.5 ->
/// 5.8 ms, the time of streaming its arrays). It reads the 16 entries from
/// the row's start, beyond its end but inside the arrays; the lanes past
/// the end load nothing from x and add +0, so the result is the same as
/// the loop's up to the summation order, which depends on the row only.
/// With x in L2 or beyond, the gathers are slower than the loop (g_unif:
/// 0.84 against 0.51 ms), hence kNarrowCols.
__attribute__((target("avx2,fma"))) void
spmvRowsNarrow(const CsrView &a, const double *__restrict x,
               double *__restrict y, int64_t yStride, int64_t begin,
               int64_t end) {
  const int64_t *rowptr = a.rowptr;
  const int32_t *colidx = a.colidx;
  const double *values = a.values;
  int64_t last = a.nnz() - 16;
  const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
  const __m256i four = _mm256_set1_epi64x(4);
  int64_t k = rowptr[begin];
  for (int64_t i = begin; i < end; ++i) {
    int64_t rowEnd = rowptr[i + 1];
    int64_t n = rowEnd - k;
    double s;
    if (__builtin_expect(n <= 16 && k <= last, 1)) {
      __m256i count = _mm256_set1_epi64x(n);
      __m256i l1 = _mm256_add_epi64(lane, four);
      __m256i l2 = _mm256_add_epi64(l1, four);
      __m256i l3 = _mm256_add_epi64(l2, four);
      __m256d m0 = _mm256_castsi256_pd(_mm256_cmpgt_epi64(count, lane));
      __m256d m1 = _mm256_castsi256_pd(_mm256_cmpgt_epi64(count, l1));
      __m256d m2 = _mm256_castsi256_pd(_mm256_cmpgt_epi64(count, l2));
      __m256d m3 = _mm256_castsi256_pd(_mm256_cmpgt_epi64(count, l3));
      const __m128i *c = reinterpret_cast<const __m128i *>(colidx + k);
      __m256d zero = _mm256_setzero_pd();
      __m256d x0 = _mm256_mask_i32gather_pd(zero, x, _mm_loadu_si128(c), m0, 8);
      __m256d x1 =
          _mm256_mask_i32gather_pd(zero, x, _mm_loadu_si128(c + 1), m1, 8);
      __m256d x2 =
          _mm256_mask_i32gather_pd(zero, x, _mm_loadu_si128(c + 2), m2, 8);
      __m256d x3 =
          _mm256_mask_i32gather_pd(zero, x, _mm_loadu_si128(c + 3), m3, 8);
      __m256d p0 =
          _mm256_mul_pd(_mm256_and_pd(_mm256_loadu_pd(values + k), m0), x0);
      __m256d p1 =
          _mm256_mul_pd(_mm256_and_pd(_mm256_loadu_pd(values + k + 4), m1), x1);
      __m256d p2 =
          _mm256_mul_pd(_mm256_and_pd(_mm256_loadu_pd(values + k + 8), m2), x2);
      __m256d p3 = _mm256_mul_pd(
          _mm256_and_pd(_mm256_loadu_pd(values + k + 12), m3), x3);
      __m256d t = _mm256_add_pd(_mm256_add_pd(p0, p1), _mm256_add_pd(p2, p3));
      __m128d h =
          _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd(t, 1));
      s = _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
      k = rowEnd;
    } else {
      s = longRowDot(a, x, k, rowEnd);
      k = rowEnd;
    }
    y[i * yStride] = s;
  }
}

/// Entries ahead whose row of B SpMM prefetches, where B is beyond the
/// caches: the rows an entry reads are random (a graph's columns), which
/// no hardware prefetcher predicts, and each is a few cache lines.
constexpr int64_t kSpmmPrefetchDistance = 12;

/// Rows [begin, end) of C = A %*% B for a compile-time k: the row of C is
/// accumulated in registers.
template <int K, bool Prefetch>
__attribute__((always_inline)) inline void
spmmFixed(const CsrView &a, const double *__restrict b, int64_t ldb,
          double *__restrict c, int64_t ldc, int64_t begin, int64_t end) {
  int64_t ahead = a.nnz() - kSpmmPrefetchDistance;
  for (int64_t i = begin; i < end; ++i) {
    double acc[K] = {};
    for (int64_t k = a.begin(i); k < a.end(i); ++k) {
      if (Prefetch && k < ahead) {
        const double *next = b + a.colidx[k + kSpmmPrefetchDistance] * ldb;
        for (int q = 0; q < K; q += 8)
          __builtin_prefetch(next + q);
      }
      double v = a.values[k];
      const double *brow = b + a.colidx[k] * ldb;
      for (int q = 0; q < K; ++q)
        acc[q] += v * brow[q];
    }
    for (int q = 0; q < K; ++q)
      c[i * ldc + q] = acc[q];
  }
}

/// The same for any k, accumulating in C's row.
__attribute__((always_inline)) inline void
spmmGeneric(const CsrView &a, const double *__restrict b, int64_t ldb,
            int64_t width, double *__restrict c, int64_t ldc, int64_t begin,
            int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    double *crow = c + i * ldc;
    std::fill(crow, crow + width, 0.0);
    for (int64_t k = a.begin(i); k < a.end(i); ++k) {
      double v = a.values[k];
      const double *brow = b + a.colidx[k] * ldb;
      for (int64_t q = 0; q < width; ++q)
        crow[q] += v * brow[q];
    }
  }
}

/// Rows [begin, end) of C = A %*% B, B and C with unit column stride.
template <bool Prefetch>
__attribute__((always_inline)) inline void
spmmRowsOf(const CsrView &a, const double *b, int64_t ldb, int64_t width,
           double *c, int64_t ldc, int64_t begin, int64_t end) {
  switch (width) {
  case 2:
    return spmmFixed<2, Prefetch>(a, b, ldb, c, ldc, begin, end);
  case 3:
    return spmmFixed<3, Prefetch>(a, b, ldb, c, ldc, begin, end);
  case 4:
    return spmmFixed<4, Prefetch>(a, b, ldb, c, ldc, begin, end);
  case 8:
    return spmmFixed<8, Prefetch>(a, b, ldb, c, ldc, begin, end);
  case 16:
    return spmmFixed<16, Prefetch>(a, b, ldb, c, ldc, begin, end);
  case 32:
    return spmmFixed<32, Prefetch>(a, b, ldb, c, ldc, begin, end);
  default:
    return spmmGeneric(a, b, ldb, width, c, ldc, begin, end);
  }
}

/// B's bytes above which SpMM prefetches its rows (about an L2).
constexpr int64_t kSpmmPrefetchBytes = int64_t(1) << 21;

__attribute__((target_clones("avx512f", "avx2", "default"))) void
spmmRows(const CsrView &a, const double *b, int64_t ldb, int64_t width,
         double *c, int64_t ldc, int64_t begin, int64_t end) {
  if (a.cols * ldb * int64_t(sizeof(double)) > kSpmmPrefetchBytes)
    return spmmRowsOf<true>(a, b, ldb, width, c, ldc, begin, end);
  return spmmRowsOf<false>(a, b, ldb, width, c, ldc, begin, end);
}

void spmm(const CsrView &a, const DenseView &b, const DenseView &c) {
  int64_t width = b.cols;
  int64_t threads =
      std::min(threadsFor(a.nnz() * width + a.rows * width, kMinWorkPerThread),
               std::max<int64_t>(a.rows, 1));
  std::vector<int64_t> bounds = splitRows(a, threads);
  if (c.colStride == 1 || width == 1)
    adviseHugePages(c.data, c.rows * c.rowStride * int64_t(sizeof(double)));
  if (width == 1) {
    memory::Vector<double> storage;
    const double *x = contiguousVector(b, storage);
    bool narrow = a.cols <= kNarrowCols && a.nnz() <= 16 * a.rows && haveAvx2();
    runThreads(threads, [&](int64_t t) {
      if (narrow)
        spmvRowsNarrow(a, x, c.data, c.rowStride, bounds[t], bounds[t + 1]);
      else
        spmvRows(a, x, c.data, c.rowStride, bounds[t], bounds[t + 1]);
    });
    return;
  }
  RowMajor rowsOfB = rowMajorOf(b);
  // A C with strided columns is formed row-major, then copied.
  memory::Vector<double> storage;
  double *out = c.data;
  int64_t ldc = c.rowStride;
  if (c.colStride != 1) {
    storage.resize(c.rows * width);
    out = storage.data();
    ldc = width;
  }
  runThreads(threads, [&](int64_t t) {
    spmmRows(a, rowsOfB.data, rowsOfB.rowStride, width, out, ldc, bounds[t],
             bounds[t + 1]);
    if (out != c.data)
      for (int64_t i = bounds[t]; i < bounds[t + 1]; ++i)
        for (int64_t q = 0; q < width; ++q)
          c.at(i, q) = out[i * ldc + q];
  });
}

//===----------------------------------------------------------------------===//
// t(A) %*% B
//===----------------------------------------------------------------------===//

/// C[colidx[k], :] += values[k] * B[i, :] for the entries k of every row i
/// in [begin, end) (with `Ranged`, only those with columns in [colBegin,
/// colEnd), found by binary search); C row-major with leading dimension
/// ldc. K is the width, or 0 for the runtime `width`.
template <int K, bool Ranged>
__attribute__((always_inline)) inline void
scatterFixed(const CsrView &a, const double *__restrict b, int64_t ldb,
             int64_t width, double *__restrict c, int64_t ldc, int64_t begin,
             int64_t end, int64_t colBegin, int64_t colEnd) {
  const int32_t *colidx = a.colidx;
  const double *values = a.values;
  for (int64_t i = begin; i < end; ++i) {
    int64_t first = Ranged ? lowerBound(a, i, colBegin) : a.begin(i);
    int64_t last = Ranged ? lowerBound(a, i, colEnd) : a.end(i);
    if constexpr (K == 0) {
      const double *brow = b + i * ldb;
      for (int64_t k = first; k < last; ++k) {
        double v = values[k];
        double *crow = c + colidx[k] * ldc;
        for (int64_t q = 0; q < width; ++q)
          crow[q] += v * brow[q];
      }
    } else {
      double brow[K];
      for (int q = 0; q < K; ++q)
        brow[q] = b[i * ldb + q];
      for (int64_t k = first; k < last; ++k) {
        double v = values[k];
        double *crow = c + colidx[k] * ldc;
        for (int q = 0; q < K; ++q)
          crow[q] += v * brow[q];
      }
    }
  }
}

template <bool Ranged>
__attribute__((always_inline)) inline void
scatterWidth(const CsrView &a, const double *b, int64_t ldb, int64_t width,
             double *c, int64_t ldc, int64_t begin, int64_t end,
             int64_t colBegin, int64_t colEnd) {
#define AMLS_SCATTER(K)                                                        \
  return scatterFixed<K, Ranged>(a, b, ldb, width, c, ldc, begin, end,         \
                                 colBegin, colEnd)
  switch (width) {
  case 1:
    AMLS_SCATTER(1);
  case 2:
    AMLS_SCATTER(2);
  case 4:
    AMLS_SCATTER(4);
  case 8:
    AMLS_SCATTER(8);
  default:
    AMLS_SCATTER(0);
  }
#undef AMLS_SCATTER
}

/// Adds t(A[begin:end, colBegin:colEnd]) %*% B[begin:end, :] into C (rows
/// of C are A's columns).
__attribute__((target_clones("avx512f", "avx2", "default"))) void
scatterRows(const CsrView &a, const double *b, int64_t ldb, int64_t width,
            double *c, int64_t ldc, int64_t begin, int64_t end,
            int64_t colBegin, int64_t colEnd) {
  if (colBegin == 0 && colEnd == a.cols)
    scatterWidth<false>(a, b, ldb, width, c, ldc, begin, end, colBegin, colEnd);
  else
    scatterWidth<true>(a, b, ldb, width, c, ldc, begin, end, colBegin, colEnd);
}

} // namespace

void amls::runtime::sparse::spmmTransposed(const CsrView &a, const DenseView &b,
                                           const DenseView &c) {
  int64_t width = b.cols;
  int64_t cells = a.cols * width;
  RowMajor rowsOfB = rowMajorOf(b);
  // C itself when its rows are contiguous, otherwise a row-major copy.
  bool direct = c.colStride == 1 || width == 1;
  int64_t ldc = direct ? c.rowStride : width;
  memory::Vector<double> storage;
  double *out = c.data;
  if (!direct) {
    storage.resize(cells);
    out = storage.data();
  }
  auto finish = [&](int64_t rowBegin, int64_t rowEnd) {
    if (out != c.data)
      for (int64_t j = rowBegin; j < rowEnd; ++j)
        for (int64_t q = 0; q < width; ++q)
          c.at(j, q) = out[j * ldc + q];
  };
  // Rows of C that are contiguous (ldc == width, e.g. a column vector) are
  // zeroed and summed as one range, not one call per row (t(A) %*% u on
  // g_unif spent 13% in memset for single cells).
  bool flat = ldc == width;
  auto zero = [&](int64_t rowBegin, int64_t rowEnd) {
    if (flat)
      return std::fill(out + rowBegin * width, out + rowEnd * width, 0.0);
    for (int64_t j = rowBegin; j < rowEnd; ++j)
      std::fill(out + j * ldc, out + j * ldc + width, 0.0);
  };

  int64_t threads = threadsFor(a.nnz() * width, kMinWorkPerThread);
  // Private copies cost zeroing and summing `cells` per thread: worth it
  // while that is small next to the product.
  bool partials = cells <= a.nnz() && cells * threads * 8 <= kMaxPartialBytes;
  if (threads > 1 && !partials) {
    // Each thread owns C's rows [cols * t / threads, cols * (t + 1) / ...).
    threads = std::min(threads, std::max<int64_t>(a.cols, 1));
    runThreads(threads, [&](int64_t t) {
      int64_t colBegin = a.cols * t / threads,
              colEnd = a.cols * (t + 1) / threads;
      zero(colBegin, colEnd);
      scatterRows(a, rowsOfB.data, rowsOfB.rowStride, width, out, ldc, 0,
                  a.rows, colBegin, colEnd);
      finish(colBegin, colEnd);
    });
    return;
  }
  std::vector<int64_t> bounds = splitRows(a, threads);
  // Thread 0 accumulates into `out`, thread t > 0 into copy t - 1, which
  // it zeroes itself (in parallel, and in its own cache).
  memory::Scratch<double> copies((threads - 1) * cells);
  runThreads(threads, [&](int64_t t) {
    double *target = t == 0 ? out : copies.data() + (t - 1) * cells;
    int64_t ld = t == 0 ? ldc : width;
    if (t == 0)
      zero(0, a.cols);
    else
      std::fill(target, target + cells, 0.0);
    scatterRows(a, rowsOfB.data, rowsOfB.rowStride, width, target, ld,
                bounds[t], bounds[t + 1], 0, a.cols);
  });
  if (threads == 1)
    return finish(0, a.cols);
  runThreads(threads, [&](int64_t t) {
    int64_t rowBegin = a.cols * t / threads,
            rowEnd = a.cols * (t + 1) / threads;
    if (flat) {
      for (int64_t u = 0; u + 1 < threads; ++u) {
        const double *copy = copies.data() + u * cells;
        for (int64_t x = rowBegin * width; x < rowEnd * width; ++x)
          out[x] += copy[x];
      }
      return finish(rowBegin, rowEnd);
    }
    for (int64_t j = rowBegin; j < rowEnd; ++j)
      for (int64_t u = 0; u + 1 < threads; ++u) {
        const double *copy = copies.data() + u * cells + j * width;
        double *row = out + j * ldc;
        for (int64_t q = 0; q < width; ++q)
          row[q] += copy[q];
      }
    finish(rowBegin, rowEnd);
  });
}

//===----------------------------------------------------------------------===//
// Dense %*% CSR
//===----------------------------------------------------------------------===//

namespace {

/// Rows [begin, end) of C = A %*% B: row i of C sums the rows of B scaled
/// by row i of A.
void denseTimesCsrRows(const DenseView &a, const CsrView &b, const DenseView &c,
                       int64_t begin, int64_t end,
                       memory::Vector<double> &scratch) {
  for (int64_t i = begin; i < end; ++i) {
    double *row = &c.at(i, 0);
    if (c.colStride != 1) {
      scratch.assign(b.cols, 0.0);
      row = scratch.data();
    } else {
      std::fill(row, row + b.cols, 0.0);
    }
    for (int64_t l = 0; l < b.rows; ++l) {
      double scale = a.at(i, l);
      for (int64_t k = b.begin(l); k < b.end(l); ++k)
        row[b.colidx[k]] += scale * b.values[k];
    }
    if (c.colStride != 1)
      for (int64_t j = 0; j < b.cols; ++j)
        c.at(i, j) = row[j];
  }
}

} // namespace

extern "C" void _mlir_ciface_amls_rt_csr_spmm(AmlsVectorI64 *a_rowptr,
                                              AmlsVectorI32 *a_colidx,
                                              AmlsVectorF64 *a_values,
                                              int64_t a_cols, AmlsMatrixF64 *b,
                                              AmlsMatrixF64 *c) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  DenseView db = denseOf(b), dc = denseOf(c);
  check(db.rows == a.cols && dc.rows == a.rows && dc.cols == db.cols,
        "CSR %*% dense", [&] {
          return "a " + shape(a.rows, a.cols) + " CSR times a " +
                 shape(db.rows, db.cols) + " matrix into " +
                 shape(dc.rows, dc.cols);
        });
  spmm(a, db, dc);
}

extern "C" void _mlir_ciface_amls_rt_csr_spmm_t(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsMatrixF64 *b, AmlsMatrixF64 *c) {
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  DenseView db = denseOf(b), dc = denseOf(c);
  check(db.rows == a.rows && dc.rows == a.cols && dc.cols == db.cols,
        "t(CSR) %*% dense", [&] {
          return "t() of a " + shape(a.rows, a.cols) + " CSR times a " +
                 shape(db.rows, db.cols) + " matrix into " +
                 shape(dc.rows, dc.cols);
        });
  spmmTransposed(a, db, dc);
}

extern "C" void _mlir_ciface_amls_rt_dense_csr_mm(
    AmlsMatrixF64 *a, AmlsVectorI64 *b_rowptr, AmlsVectorI32 *b_colidx,
    AmlsVectorF64 *b_values, int64_t b_cols, AmlsMatrixF64 *c) {
  CsrView sb = csrOf(b_rowptr, b_colidx, b_values, b_cols);
  DenseView da = denseOf(a), dc = denseOf(c);
  check(da.cols == sb.rows && dc.rows == da.rows && dc.cols == sb.cols,
        "dense %*% CSR", [&] {
          return "a " + shape(da.rows, da.cols) + " matrix times a " +
                 shape(sb.rows, sb.cols) + " CSR into " +
                 shape(dc.rows, dc.cols);
        });
  int64_t work = da.rows * (sb.nnz() + sb.rows);
  int64_t threads = threadsFor(work, kMinWorkPerThread);
  // t(C) = t(B) %*% t(A) when A has too few rows to share, or when A is a
  // transposed view (t(D) %*% X, naiveBayes's counts): a row of A would be
  // read down a column of the stored matrix, one cache line per element,
  // where t(A)'s rows are contiguous.
  bool columnMajor = da.rowStride == 1 && da.colStride != 1;
  if (threads > da.rows || columnMajor) {
    spmmTransposed(sb, da.transposed(), dc.transposed());
    return;
  }
  runThreads(threads, [&](int64_t t) {
    memory::Vector<double> scratch;
    denseTimesCsrRows(da, sb, dc, da.rows * t / threads,
                      da.rows * (t + 1) / threads, scratch);
  });
}
