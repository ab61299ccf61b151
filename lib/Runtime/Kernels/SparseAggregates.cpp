//===- SparseAggregates.cpp - Row and column aggregates of CSR ------------===//
//
// Row aggregates read each row's values; threads take row ranges of equal
// entries. Sums are compensated (KahanSum.h) except over rows of fewer than
// 16 entries, whose plain sum loses no more than a compensated one would
// return. Column aggregates scatter every entry into its column, so each
// thread aggregates its rows into a private row of partials (and, for min
// and max, counts the column's entries: a column with fewer than `rows`
// holds an implicit 0), merged at the end in parallel over columns. Where
// the partials would cost more than the entries (more columns than
// entries), one thread does it all.
//
// rowMaxs(G * t(c)) is the label propagation step of connected components:
// the max over a row's entries of G[i, j] * c[j], and 0 for a row with
// fewer entries than columns, in one pass without forming G * t(c).
//
// Cumulative aggregates (cumsum, cumprod, cummin, cummax down the columns)
// are dense: row i of the result combines row i - 1 with row i of the
// input, the implicit zeros included as 0 (a NaN or infinite partial
// product times an implicit 0 is NaN, as in the dense lowering). Rows
// depend on each other, so threads take ranges of columns.
//
//===----------------------------------------------------------------------===//

#include "KahanSum.h"
#include "SparseSupport.h"

#include <immintrin.h>

using namespace amls::runtime;
using namespace amls::runtime::sparse;

namespace {

/// Per-row pass over rows [begin, end), in parallel by entries.
template <typename Body> void forRowRanges(const CsrView &a, Body &&body) {
  int64_t threads = std::min(threadsFor(a.nnz() + a.rows, kMinWorkPerThread),
                             std::max<int64_t>(a.rows, 1));
  std::vector<int64_t> bounds = splitRows(a, threads);
  runThreads(threads, [&](int64_t t) { body(bounds[t], bounds[t + 1]); });
}

double rowAggregate(const CsrView &a, int32_t kind, int64_t i) {
  const double *values = a.values + a.begin(i);
  int64_t n = a.end(i) - a.begin(i);
  bool withZero = n < a.cols;
  switch (kind) {
  case AMLS_AGG_SUM: {
    KahanSum s0, s1;
    int64_t k = 0;
    for (; k + 2 <= n; k += 2) {
      s0.add(values[k]);
      s1.add(values[k + 1]);
    }
    if (k < n)
      s0.add(values[k]);
    s0.add(s1);
    return s0.sum;
  }
  case AMLS_AGG_SUMSQ: {
    KahanSum s0, s1;
    int64_t k = 0;
    for (; k + 2 <= n; k += 2) {
      s0.add(values[k] * values[k]);
      s1.add(values[k + 1] * values[k + 1]);
    }
    if (k < n)
      s0.add(values[k] * values[k]);
    s0.add(s1);
    return s0.sum;
  }
  case AMLS_AGG_MIN:
    return extremum<false>(
        n, [&](int64_t k) { return values[k]; }, withZero);
  default:
    return extremum<true>(
        n, [&](int64_t k) { return values[k]; }, withZero);
  }
}

/// Row sums (of squares) of rows [begin, end) into out[i * stride]. A short
/// row is one plain loop whose end is its only unpredictable branch (as in
/// SpMV); a long one uses two partial sums, as rowAggregate.
template <bool Square>
void rowSums(const CsrView &a, double *out, int64_t stride, int64_t begin,
             int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    int64_t n = a.end(i) - a.begin(i);
    if (n >= 16) {
      out[i * stride] =
          rowAggregate(a, Square ? AMLS_AGG_SUMSQ : AMLS_AGG_SUM, i);
      continue;
    }
    const double *values = a.values + a.begin(i);
    double s = 0.0;
    for (int64_t k = 0; k < n; ++k)
      s += Square ? values[k] * values[k] : values[k];
    out[i * stride] = s;
  }
}

/// The four values at `p` (squared), those of lanes >= count as +0.
template <bool Square>
__attribute__((target("avx2"), always_inline)) inline __m256d
maskedLanes(const double *p, __m256i count, __m256i lane) {
  __m256d mask = _mm256_castsi256_pd(_mm256_cmpgt_epi64(count, lane));
  __m256d v = _mm256_and_pd(_mm256_loadu_pd(p), mask);
  return Square ? _mm256_mul_pd(v, v) : v;
}

/// rowSums for rows of about 16 entries or fewer (graphs, t_10pct): a row
/// of up to 16 is one fixed 16-lane step, its values masked to the row,
/// with no branch on its length, where the plain loop mispredicts its end
/// about once per row. It reads 16 values from the row's start, beyond its
/// end but inside the array; the lanes past the end add +0. The summation
/// order depends on the row only, as the loop's.
template <bool Square>
__attribute__((target("avx2"))) void rowSumsShort(const CsrView &a, double *out,
                                                  int64_t stride, int64_t begin,
                                                  int64_t end) {
  const int64_t *rowptr = a.rowptr;
  const double *values = a.values;
  int64_t last = a.nnz() - 16;
  const __m256i lane0 = _mm256_setr_epi64x(0, 1, 2, 3);
  const __m256i lane1 = _mm256_setr_epi64x(4, 5, 6, 7);
  const __m256i lane2 = _mm256_setr_epi64x(8, 9, 10, 11);
  const __m256i lane3 = _mm256_setr_epi64x(12, 13, 14, 15);
  int64_t k = rowptr[begin];
  for (int64_t i = begin; i < end; ++i) {
    int64_t rowEnd = rowptr[i + 1];
    int64_t n = rowEnd - k;
    if (__builtin_expect(n > 16 || k > last, 0)) {
      out[i * stride] =
          rowAggregate(a, Square ? AMLS_AGG_SUMSQ : AMLS_AGG_SUM, i);
      k = rowEnd;
      continue;
    }
    __m256i count = _mm256_set1_epi64x(n);
    const double *row = values + k;
    __m256d t = _mm256_add_pd(
        _mm256_add_pd(maskedLanes<Square>(row, count, lane0),
                      maskedLanes<Square>(row + 4, count, lane1)),
        _mm256_add_pd(maskedLanes<Square>(row + 8, count, lane2),
                      maskedLanes<Square>(row + 12, count, lane3)));
    __m128d h =
        _mm_add_pd(_mm256_castpd256_pd128(t), _mm256_extractf128_pd(t, 1));
    out[i * stride] = _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
    k = rowEnd;
  }
}

/// Column partials of one thread: compensated sums (values and their
/// corrections), or extrema and entry counts.
struct ColumnPartial {
  memory::Vector<double> value;
  memory::Vector<double> correction;
  std::vector<int64_t> count;
};

void accumulateColumns(const CsrView &a, int32_t kind, int64_t begin,
                       int64_t end, ColumnPartial &p) {
  double *value = p.value.data();
  switch (kind) {
  case AMLS_AGG_SUM:
  case AMLS_AGG_SUMSQ: {
    double *correction = p.correction.data();
    bool square = kind == AMLS_AGG_SUMSQ;
    for (int64_t k = a.begin(begin); k < a.begin(end); ++k) {
      int32_t j = a.colidx[k];
      KahanSum s{value[j], correction[j]};
      s.add(square ? a.values[k] * a.values[k] : a.values[k]);
      value[j] = s.sum;
      correction[j] = s.correction;
    }
    return;
  }
  case AMLS_AGG_MIN:
    for (int64_t k = a.begin(begin); k < a.begin(end); ++k) {
      value[a.colidx[k]] = minimum(value[a.colidx[k]], a.values[k]);
      ++p.count[a.colidx[k]];
    }
    return;
  default:
    for (int64_t k = a.begin(begin); k < a.begin(end); ++k) {
      value[a.colidx[k]] = maximum(value[a.colidx[k]], a.values[k]);
      ++p.count[a.colidx[k]];
    }
    return;
  }
}

template <int32_t Kind> double cumulate(double previous, double cell) {
  if constexpr (Kind == AMLS_CUMAGG_SUM)
    return previous + cell;
  else if constexpr (Kind == AMLS_CUMAGG_PROD)
    return previous * cell;
  else if constexpr (Kind == AMLS_CUMAGG_MIN)
    return minimum(previous, cell);
  else
    return maximum(previous, cell);
}

/// Columns [begin, end) of the cumulative aggregate of `a` into `o`.
template <int32_t Kind>
void cumulateColumns(const CsrView &a, const DenseView &o, int64_t begin,
                     int64_t end) {
  bool allColumns = begin == 0 && end == a.cols;
  int64_t stride = o.colStride;
  for (int64_t i = 0; i < a.rows; ++i) {
    double *row = &o.at(i, 0);
    const double *previous = i ? &o.at(i - 1, 0) : nullptr;
    if (i == 0) {
      for (int64_t j = begin; j < end; ++j)
        row[j * stride] = 0.0;
    } else {
      for (int64_t j = begin; j < end; ++j)
        row[j * stride] = cumulate<Kind>(previous[j * stride], 0.0);
    }
    int64_t first = allColumns ? a.begin(i) : lowerBound(a, i, begin);
    int64_t last = allColumns ? a.end(i) : lowerBound(a, i, end);
    for (int64_t k = first; k < last; ++k) {
      int64_t j = a.colidx[k];
      row[j * stride] =
          i ? cumulate<Kind>(previous[j * stride], a.values[k]) : a.values[k];
    }
  }
}

} // namespace

extern "C" void _mlir_ciface_amls_rt_csr_row_agg(AmlsVectorI64 *a_rowptr,
                                                 AmlsVectorI32 *a_colidx,
                                                 AmlsVectorF64 *a_values,
                                                 int64_t a_cols, int32_t kind,
                                                 AmlsMatrixF64 *out) {
  static const char *kKernel = "row aggregate of CSR";
  checkAggKind(kind, kKernel);
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  DenseView o = denseOf(out);
  checkResultShape(o, a.rows, 1, a, kKernel);
  bool shortRows = a.nnz() <= 16 * a.rows && haveAvx2();
  forRowRanges(a, [&](int64_t begin, int64_t end) {
    if (kind == AMLS_AGG_SUM)
      return shortRows ? rowSumsShort<false>(a, o.data, o.rowStride, begin, end)
                       : rowSums<false>(a, o.data, o.rowStride, begin, end);
    if (kind == AMLS_AGG_SUMSQ)
      return shortRows ? rowSumsShort<true>(a, o.data, o.rowStride, begin, end)
                       : rowSums<true>(a, o.data, o.rowStride, begin, end);
    for (int64_t i = begin; i < end; ++i)
      o.at(i, 0) = rowAggregate(a, kind, i);
  });
}

extern "C" void _mlir_ciface_amls_rt_csr_col_agg(AmlsVectorI64 *a_rowptr,
                                                 AmlsVectorI32 *a_colidx,
                                                 AmlsVectorF64 *a_values,
                                                 int64_t a_cols, int32_t kind,
                                                 AmlsMatrixF64 *out) {
  static const char *kKernel = "column aggregate of CSR";
  checkAggKind(kind, kKernel);
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  DenseView o = denseOf(out);
  checkResultShape(o, 1, a.cols, a, kKernel);
  bool isExtremum = kind == AMLS_AGG_MIN || kind == AMLS_AGG_MAX;
  double init = kind == AMLS_AGG_MIN ? std::numeric_limits<double>::infinity()
                : kind == AMLS_AGG_MAX
                    ? -std::numeric_limits<double>::infinity()
                    : 0.0;
  int64_t threads = std::min(threadsFor(a.nnz(), kMinWorkPerThread),
                             std::max<int64_t>(a.rows, 1));
  if (a.cols > a.nnz() / 2)
    threads = 1;
  std::vector<int64_t> bounds = splitRows(a, threads);
  std::vector<ColumnPartial> partials(threads);
  runThreads(threads, [&](int64_t t) {
    ColumnPartial &p = partials[t];
    p.value.assign(a.cols, init);
    if (isExtremum)
      p.count.assign(a.cols, 0);
    else
      p.correction.assign(a.cols, 0.0);
    accumulateColumns(a, kind, bounds[t], bounds[t + 1], p);
  });
  runThreads(threads, [&](int64_t t) {
    for (int64_t j = a.cols * t / threads; j < a.cols * (t + 1) / threads;
         ++j) {
      if (!isExtremum) {
        KahanSum sum;
        for (int64_t u = 0; u < threads; ++u)
          sum.add(KahanSum{partials[u].value[j], partials[u].correction[j]});
        o.at(0, j) = sum.sum;
        continue;
      }
      double value = partials[0].value[j];
      int64_t count = partials[0].count[j];
      for (int64_t u = 1; u < threads; ++u) {
        double other = partials[u].value[j];
        count += partials[u].count[j];
        value = kind == AMLS_AGG_MIN ? minimum(value, other)
                                     : maximum(value, other);
      }
      if (isExtremum && count < a.rows)
        value =
            kind == AMLS_AGG_MIN ? minimum(value, 0.0) : maximum(value, 0.0);
      o.at(0, j) = value;
    }
  });
}

extern "C" void _mlir_ciface_amls_rt_csr_row_max_times(
    AmlsVectorI64 *g_rowptr, AmlsVectorI32 *g_colidx, AmlsVectorF64 *g_values,
    int64_t g_cols, AmlsMatrixF64 *c, AmlsMatrixF64 *out) {
  static const char *kKernel = "rowMaxs(CSR * t(c))";
  CsrView g = csrOf(g_rowptr, g_colidx, g_values, g_cols);
  DenseView dc = denseOf(c), o = denseOf(out);
  check((dc.rows == 1 || dc.cols == 1) && dc.rows * dc.cols == g.cols &&
            o.rows == g.rows && o.cols == 1,
        kKernel, [&] {
          return "a " + shape(g.rows, g.cols) + " G, a " +
                 shape(dc.rows, dc.cols) + " c and a " + shape(o.rows, o.cols) +
                 " result";
        });
  memory::Vector<double> storage;
  const double *labels = contiguousVector(dc, storage);
  forRowRanges(g, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const double *values = g.values + g.begin(i);
      const int32_t *cols = g.colidx + g.begin(i);
      int64_t n = g.end(i) - g.begin(i);
      o.at(i, 0) = extremum<true>(
          n, [&](int64_t k) { return values[k] * labels[cols[k]]; },
          n < g.cols);
    }
  });
}

extern "C" void _mlir_ciface_amls_rt_csr_cumagg(AmlsVectorI64 *a_rowptr,
                                                AmlsVectorI32 *a_colidx,
                                                AmlsVectorF64 *a_values,
                                                int64_t a_cols, int32_t kind,
                                                AmlsMatrixF64 *out) {
  static const char *kKernel = "cumulative aggregate of CSR";
  check(kind >= AMLS_CUMAGG_SUM && kind <= AMLS_CUMAGG_MAX, kKernel,
        [&] { return "unknown cumulative aggregate " + std::to_string(kind); });
  CsrView a = csrOf(a_rowptr, a_colidx, a_values, a_cols);
  DenseView o = denseOf(out);
  checkResultShape(o, a.rows, a.cols, a, kKernel);
  int64_t threads =
      std::min(threadsFor(a.rows * a.cols + a.nnz(), 4 * kMinWorkPerThread),
               std::max<int64_t>(a.cols, 1));
  runThreads(threads, [&](int64_t t) {
    int64_t begin = a.cols * t / threads, end = a.cols * (t + 1) / threads;
    switch (kind) {
    case AMLS_CUMAGG_SUM:
      return cumulateColumns<AMLS_CUMAGG_SUM>(a, o, begin, end);
    case AMLS_CUMAGG_PROD:
      return cumulateColumns<AMLS_CUMAGG_PROD>(a, o, begin, end);
    case AMLS_CUMAGG_MIN:
      return cumulateColumns<AMLS_CUMAGG_MIN>(a, o, begin, end);
    default:
      return cumulateColumns<AMLS_CUMAGG_MAX>(a, o, begin, end);
    }
  });
}
