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

#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

namespace {

constexpr int64_t kMinEntriesPerThread = 1 << 15;

struct CSRView {
  const int64_t *rowptr;
  const int32_t *colidx;
  const double *values;
  int64_t rows, cols;
};

CSRView view(AmlsVectorI64 *rowptr, AmlsVectorI32 *colidx,
             AmlsVectorF64 *values, int64_t cols) {
  return {rowptr->aligned + rowptr->offset, colidx->aligned + colidx->offset,
          values->aligned + values->offset, rowptr->sizes[0] - 1, cols};
}

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
    return (std::isnan(x) || std::isnan(y)) ? NAN : std::min(x, y);
  default:
    return (std::isnan(x) || std::isnan(y)) ? NAN : std::max(x, y);
  }
}

/// Visits the merged row i: emit(column, value) for every non-zero result.
template <typename Emit>
void mergeRow(const CSRView &a, const CSRView &b, int op, int64_t i,
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

/// Runs body(begin, end) over row ranges with about equal entries.
template <typename Body>
void forRowRanges(const int64_t *rowptr, int64_t rows, int64_t entries,
                  Body body) {
  int64_t threads = std::max<int64_t>(amls_rt_get_num_threads(), 1);
  threads =
      std::min(threads, std::max<int64_t>(entries / kMinEntriesPerThread, 1));
  threads = std::min(threads, std::max<int64_t>(rows, 1));
  if (threads == 1) {
    body(0, rows);
    return;
  }
  // Boundaries at equal shares of the entries of the first matrix.
  std::vector<int64_t> bounds(threads + 1, rows);
  bounds[0] = 0;
  for (int64_t t = 1; t < threads; ++t) {
    int64_t target = rowptr[0] + (rowptr[rows] - rowptr[0]) * t / threads;
    bounds[t] =
        std::upper_bound(rowptr, rowptr + rows + 1, target) - rowptr - 1;
    bounds[t] = std::clamp<int64_t>(bounds[t], bounds[t - 1], rows);
  }
  std::vector<std::thread> workers;
  for (int64_t t = 1; t < threads; ++t)
    workers.emplace_back(body, bounds[t], bounds[t + 1]);
  body(bounds[0], bounds[1]);
  for (std::thread &worker : workers)
    worker.join();
}

} // namespace

extern "C" int64_t _mlir_ciface_amls_rt_csr_merge_count(
    AmlsVectorI64 *aRowptr, AmlsVectorI32 *aColidx, AmlsVectorF64 *aValues,
    int64_t aCols, AmlsVectorI64 *bRowptr, AmlsVectorI32 *bColidx,
    AmlsVectorF64 *bValues, int64_t bCols, int32_t op,
    AmlsVectorI64 *outRowptr) {
  CSRView a = view(aRowptr, aColidx, aValues, aCols);
  CSRView b = view(bRowptr, bColidx, bValues, bCols);
  int64_t *out = outRowptr->aligned + outRowptr->offset;
  forRowRanges(a.rowptr, a.rows, a.rowptr[a.rows] + b.rowptr[b.rows],
               [&](int64_t begin, int64_t end) {
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
  CSRView a = view(aRowptr, aColidx, aValues, aCols);
  CSRView b = view(bRowptr, bColidx, bValues, bCols);
  const int64_t *rowptr = outRowptr->aligned + outRowptr->offset;
  int32_t *colidx = outColidx->aligned + outColidx->offset;
  double *values = outValues->aligned + outValues->offset;
  forRowRanges(a.rowptr, a.rows, a.rowptr[a.rows] + b.rowptr[b.rows],
               [&](int64_t begin, int64_t end) {
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
  CSRView a = view(rowptr, colidx, values, cols);
  double trace = 0.0;
  for (int64_t i = 0; i < std::min(a.rows, a.cols); ++i) {
    const int32_t *begin = a.colidx + a.rowptr[i];
    const int32_t *end = a.colidx + a.rowptr[i + 1];
    const int32_t *at = std::lower_bound(begin, end, static_cast<int32_t>(i));
    if (at != end && *at == i)
      trace += a.values[at - a.colidx];
  }
  return trace;
}

extern "C" void _mlir_ciface_amls_rt_csr_diag(AmlsVectorI64 *rowptr,
                                              AmlsVectorI32 *colidx,
                                              AmlsVectorF64 *values,
                                              int64_t cols,
                                              AmlsMatrixF64 *out) {
  CSRView a = view(rowptr, colidx, values, cols);
  double *data = out->aligned + out->offset;
  for (int64_t i = 0; i < a.rows; ++i) {
    const int32_t *begin = a.colidx + a.rowptr[i];
    const int32_t *end = a.colidx + a.rowptr[i + 1];
    const int32_t *at = std::lower_bound(begin, end, static_cast<int32_t>(i));
    data[i * out->strides[0]] =
        (at != end && *at == i) ? a.values[at - a.colidx] : 0.0;
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
