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
#include <thread>
#include <vector>

namespace {

using namespace amls::runtime::sparse;

constexpr int64_t kMinEntriesPerThread = 1 << 15;

enum MergeOp { Add = 0, Sub = 1, Mul = 2, Min = 3, Max = 4 };

double apply(int op, double x, double y) {
  switch (op) {
  case Add:
    return x + y;
  case Sub:
    return x - y;
  case Mul:
    return x * y;
  case Min:
    return minimum(x, y);
  default:
    return maximum(x, y);
  }
}

/// Visits the merged row i: emit(column, value) for every non-zero result.
template <typename Emit>
void mergeRow(const CsrView &a, const CsrView &b, int op, int64_t i,
              Emit emit) {
  int64_t p = a.rowptr[i], pe = a.rowptr[i + 1];
  int64_t q = b.rowptr[i], qe = b.rowptr[i + 1];
  bool intersect = op == Mul;
  while (p < pe || q < qe) {
    int64_t ca = p < pe ? a.colidx[p] : INT64_MAX;
    int64_t cb = q < qe ? b.colidx[q] : INT64_MAX;
    double value;
    int64_t column;
    if (ca == cb) {
      value = apply(op, a.values[p++], b.values[q++]);
      column = ca;
    } else if (ca < cb) {
      column = ca;
      value = apply(op, a.values[p++], 0.0);
      if (intersect)
        continue;
    } else {
      column = cb;
      value = apply(op, 0.0, b.values[q++]);
      if (intersect)
        continue;
    }
    if (value != 0.0)
      emit(column, value);
  }
}

/// Runs body(begin, end) over ranges of rows of `a` with about equal
/// entries, one per thread.
template <typename Body>
void forRowRanges(const CsrView &a, int64_t entries, Body body) {
  int64_t threads = std::min(threadsFor(entries, kMinEntriesPerThread),
                             std::max<int64_t>(a.rows, 1));
  std::vector<int64_t> bounds = splitRows(a, threads);
  runThreads(threads, [&](int64_t t) { body(bounds[t], bounds[t + 1]); });
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
  forRowRanges(a, a.nnz() + b.nnz(), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      int64_t count = 0;
      mergeRow(a, b, op, i, [&](int64_t, double) { ++count; });
      out[i + 1] = count;
    }
  });
  out[0] = 0;
  for (int64_t i = 0; i < a.rows; ++i)
    out[i + 1] += out[i];
  return out[a.rows];
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
  forRowRanges(a, a.nnz() + b.nnz(), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      int64_t k = rowptr[i];
      mergeRow(a, b, op, i, [&](int64_t column, double value) {
        colidx[k] = static_cast<int32_t>(column);
        values[k++] = value;
      });
    }
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
