//===- SparseMerge.cpp - CSR op CSR, diagonals and traces -----------------===//
//
// Element-wise ops of two CSR matrices merge their rows: the union of the
// patterns for +, -, min and max (f(x, 0) and f(0, y) where only one side
// stores a value), the intersection for *. Two phases like every CSR
// result: count each row's non-zeros (computing f, since a cancellation
// such as x - x stores nothing), then fill. Rows are split among threads.
// Also the diagonal of a CSR matrix (a dense vector), a dense vector as a
// CSR diagonal matrix, and the trace.
//
//===----------------------------------------------------------------------===//

#include "SparseSupport.h"

#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

namespace {

using namespace amls::runtime::sparse;

constexpr int64_t kMinEntriesPerThread = 1 << 15;

template <int Op> double apply(double x, double y) {
  if constexpr (Op == AMLS_MERGE_ADD)
    return x + y;
  else if constexpr (Op == AMLS_MERGE_SUB)
    return x - y;
  else if constexpr (Op == AMLS_MERGE_MUL)
    return x * y;
  else if constexpr (Op == AMLS_MERGE_MIN)
    return minimum(x, y);
  else
    return maximum(x, y);
}

/// Visits the merged row i: emit(column, value) for every non-zero result.
template <int Op, typename Emit>
void mergeRow(const CsrView &a, const CsrView &b, int64_t i, Emit emit) {
  int64_t p = a.rowptr[i], pe = a.rowptr[i + 1];
  int64_t q = b.rowptr[i], qe = b.rowptr[i + 1];
  if constexpr (Op == AMLS_MERGE_MUL) {
    // The intersection: only columns both rows store.
    while (p < pe && q < qe) {
      int32_t ca = a.colidx[p], cb = b.colidx[q];
      if (ca == cb) {
        double value = a.values[p++] * b.values[q++];
        if (value != 0.0)
          emit(ca, value);
      } else if (ca < cb) {
        ++p;
      } else {
        ++q;
      }
    }
    return;
  }
  while (p < pe || q < qe) {
    int64_t ca = p < pe ? a.colidx[p] : INT64_MAX;
    int64_t cb = q < qe ? b.colidx[q] : INT64_MAX;
    double value;
    int64_t column;
    if (ca == cb) {
      value = apply<Op>(a.values[p++], b.values[q++]);
      column = ca;
    } else if (ca < cb) {
      column = ca;
      value = apply<Op>(a.values[p++], 0.0);
    } else {
      column = cb;
      value = apply<Op>(0.0, b.values[q++]);
    }
    if (value != 0.0)
      emit(column, value);
  }
}

/// Whether a and b are the same pattern (the same buffers, as in X * X):
/// then entry k of one meets entry k of the other and no merge is needed.
bool samePattern(const CsrView &a, const CsrView &b) {
  return a.rowptr == b.rowptr && a.colidx == b.colidx && a.rows == b.rows;
}

/// Row ranges of about equal entries, one per thread.
std::vector<int64_t> rowRanges(const CsrView &a, int64_t entries) {
  int64_t threads = std::min(threadsFor(entries, kMinEntriesPerThread),
                             std::max<int64_t>(a.rows, 1));
  return splitRows(a, threads);
}

/// out[i + 1] = the number of non-zero results of row i, summed up to the
/// row pointers: each thread counts its rows and sums them locally, then
/// adds the entries of the ranges before it.
template <int Op>
int64_t mergeCount(const CsrView &a, const CsrView &b, int64_t *out) {
  adviseHugePages(out, (a.rows + 1) * int64_t(sizeof(int64_t)));
  std::vector<int64_t> bounds = rowRanges(a, a.nnz() + b.nnz());
  int64_t threads = static_cast<int64_t>(bounds.size()) - 1;
  std::vector<int64_t> totals(threads, 0);
  bool same = samePattern(a, b);
  runThreads(threads, [&](int64_t t) {
    int64_t running = 0;
    for (int64_t i = bounds[t]; i < bounds[t + 1]; ++i) {
      if (same) {
        int64_t count = 0;
        for (int64_t k = a.begin(i); k < a.end(i); ++k)
          count += apply<Op>(a.values[k], b.values[k]) != 0.0;
        running += count;
      } else {
        mergeRow<Op>(a, b, i, [&](int64_t, double) { ++running; });
      }
      out[i + 1] = running;
    }
    totals[t] = running;
  });
  out[0] = 0;
  std::vector<int64_t> bases(threads, 0);
  for (int64_t t = 1; t < threads; ++t)
    bases[t] = bases[t - 1] + totals[t - 1];
  runThreads(threads, [&](int64_t t) {
    if (bases[t] != 0)
      for (int64_t i = bounds[t]; i < bounds[t + 1]; ++i)
        out[i + 1] += bases[t];
  });
  return out[a.rows];
}

template <int Op>
void mergeFill(const CsrView &a, const CsrView &b, const int64_t *rowptr,
               int32_t *colidx, double *values) {
  bool same = samePattern(a, b);
  adviseHugePages(colidx, rowptr[a.rows] * int64_t(sizeof(int32_t)));
  adviseHugePages(values, rowptr[a.rows] * int64_t(sizeof(double)));
  std::vector<int64_t> bounds = rowRanges(a, a.nnz() + b.nnz());
  runThreads(int64_t(bounds.size()) - 1, [&](int64_t t) {
    int64_t begin = bounds[t], end = bounds[t + 1];
    int64_t first = a.rowptr[begin], last = a.rowptr[end];
    if (same && rowptr[end] - rowptr[begin] == last - first) {
      // No result of the range is 0: the pattern is a's, the values one
      // vectorizable map.
      int32_t *columns = colidx + rowptr[begin] - first;
      double *cells = values + rowptr[begin] - first;
      std::copy(a.colidx + first, a.colidx + last, columns + first);
      for (int64_t k = first; k < last; ++k)
        cells[k] = apply<Op>(a.values[k], b.values[k]);
      return;
    }
    for (int64_t i = begin; i < end; ++i) {
      int64_t k = rowptr[i];
      if (same) {
        for (int64_t e = a.begin(i); e < a.end(i); ++e) {
          double value = apply<Op>(a.values[e], b.values[e]);
          if (value != 0.0) {
            colidx[k] = a.colidx[e];
            values[k++] = value;
          }
        }
        continue;
      }
      mergeRow<Op>(a, b, i, [&](int64_t column, double value) {
        colidx[k] = static_cast<int32_t>(column);
        values[k++] = value;
      });
    }
  });
}

/// Calls body with the merge op as a compile-time constant.
template <typename Body> auto dispatch(int32_t op, Body &&body) {
  check(op >= AMLS_MERGE_ADD && op <= AMLS_MERGE_MAX, "CSR merge",
        [&] { return "unknown merge op " + std::to_string(op); });
  switch (op) {
  case AMLS_MERGE_ADD:
    return body(std::integral_constant<int, AMLS_MERGE_ADD>());
  case AMLS_MERGE_SUB:
    return body(std::integral_constant<int, AMLS_MERGE_SUB>());
  case AMLS_MERGE_MUL:
    return body(std::integral_constant<int, AMLS_MERGE_MUL>());
  case AMLS_MERGE_MIN:
    return body(std::integral_constant<int, AMLS_MERGE_MIN>());
  default:
    return body(std::integral_constant<int, AMLS_MERGE_MAX>());
  }
}

} // namespace

extern "C" int64_t _mlir_ciface_amls_rt_csr_merge_count(
    AmlsVectorI64 *aRowptr, AmlsVectorI32 *aColidx, AmlsVectorF64 *aValues,
    int64_t aCols, AmlsVectorI64 *bRowptr, AmlsVectorI32 *bColidx,
    AmlsVectorF64 *bValues, int64_t bCols, int32_t op,
    AmlsVectorI64 *outRowptr) {
  CsrView a = csrOf(aRowptr, aColidx, aValues, aCols);
  CsrView b = csrOf(bRowptr, bColidx, bValues, bCols);
  int64_t *out = outRowptr->aligned + outRowptr->offset;
  return dispatch(op, [&](auto kind) {
    return mergeCount<decltype(kind)::value>(a, b, out);
  });
}

extern "C" void _mlir_ciface_amls_rt_csr_merge_fill(
    AmlsVectorI64 *aRowptr, AmlsVectorI32 *aColidx, AmlsVectorF64 *aValues,
    int64_t aCols, AmlsVectorI64 *bRowptr, AmlsVectorI32 *bColidx,
    AmlsVectorF64 *bValues, int64_t bCols, int32_t op, AmlsVectorI64 *outRowptr,
    AmlsVectorI32 *outColidx, AmlsVectorF64 *outValues) {
  CsrView a = csrOf(aRowptr, aColidx, aValues, aCols);
  CsrView b = csrOf(bRowptr, bColidx, bValues, bCols);
  const int64_t *rowptr = outRowptr->aligned + outRowptr->offset;
  int32_t *colidx = outColidx->aligned + outColidx->offset;
  double *values = outValues->aligned + outValues->offset;
  dispatch(op, [&](auto kind) {
    mergeFill<decltype(kind)::value>(a, b, rowptr, colidx, values);
  });
}

extern "C" double _mlir_ciface_amls_rt_csr_trace(AmlsVectorI64 *rowptr,
                                                 AmlsVectorI32 *colidx,
                                                 AmlsVectorF64 *values,
                                                 int64_t cols) {
  CsrView a = csrOf(rowptr, colidx, values, cols);
  double trace = 0.0;
  for (int64_t i = 0; i < std::min(a.rows, a.cols); ++i) {
    int64_t k = lowerBound(a, i, i);
    if (k < a.end(i) && a.colidx[k] == i)
      trace += a.values[k];
  }
  return trace;
}

extern "C" void _mlir_ciface_amls_rt_csr_diag(AmlsVectorI64 *rowptr,
                                              AmlsVectorI32 *colidx,
                                              AmlsVectorF64 *values,
                                              int64_t cols,
                                              AmlsMatrixF64 *out) {
  CsrView a = csrOf(rowptr, colidx, values, cols);
  double *data = out->aligned + out->offset;
  for (int64_t i = 0; i < a.rows; ++i) {
    int64_t k = lowerBound(a, i, i);
    data[i * out->strides[0]] =
        (k < a.end(i) && a.colidx[k] == i) ? a.values[k] : 0.0;
  }
}

extern "C" int64_t
_mlir_ciface_amls_rt_csr_from_diagonal_count(AmlsMatrixF64 *vector,
                                             AmlsVectorI64 *rowptr) {
  int64_t n = vector->sizes[0];
  int64_t *out = rowptr->aligned + rowptr->offset;
  const double *data = vector->aligned + vector->offset;
  out[0] = 0;
  for (int64_t i = 0; i < n; ++i)
    out[i + 1] = out[i] + (data[i * vector->strides[0]] != 0.0);
  return out[n];
}

extern "C" void _mlir_ciface_amls_rt_csr_from_diagonal_fill(
    AmlsMatrixF64 *vector, AmlsVectorI64 *rowptr, AmlsVectorI32 *colidx,
    AmlsVectorF64 *values) {
  int64_t n = vector->sizes[0];
  const int64_t *pointers = rowptr->aligned + rowptr->offset;
  int32_t *columns = colidx->aligned + colidx->offset;
  double *cells = values->aligned + values->offset;
  const double *data = vector->aligned + vector->offset;
  for (int64_t i = 0; i < n; ++i) {
    double value = data[i * vector->strides[0]];
    if (value != 0.0) {
      columns[pointers[i]] = static_cast<int32_t>(i);
      cells[pointers[i]] = value;
    }
  }
}
