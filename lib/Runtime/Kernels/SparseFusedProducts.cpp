//===- SparseFusedProducts.cpp - t(X) %*% X and the mmchain on CSR --------===//
//
// t(X) %*% X adds the outer product of every row with itself. Only the
// upper triangle is formed (cell (j1, j2) with j1 <= j2), then mirrored.
// Threads own ranges of result rows j1, chosen from the exact work of each
// j1 so that the triangle's uneven rows balance, and take their part of
// every row of X by binary search (the columns are sorted): no thread
// writes another's rows, nothing is copied, and every cell sums in the
// order of X's rows, as with one thread.
//
// The mmchain t(X) %*% (w * (X %*% v)) reads each row of X once, as
// MMChain.cpp does for dense X: the row's dot product with v, scaled by w,
// times the row, added to a per-thread partial result summed at the end.
// When X has more columns than entries, those partials would cost more
// than the product; X %*% v is then formed first and the transposed
// product (SparseProducts.cpp) picks its own way to share the work.
//
//===----------------------------------------------------------------------===//

#include "SparseSupport.h"

using namespace amls::runtime::sparse;

namespace {

/// Adds the upper-triangle outer products of the entries with columns in
/// [colBegin, colEnd) of rows [0, rows) into `out`.
void accumulateTriangle(const CsrView &x, const DenseView &out,
                        int64_t colBegin, int64_t colEnd) {
  bool all = colBegin == 0 && colEnd == x.cols;
  for (int64_t i = 0; i < x.rows; ++i) {
    int64_t first = all ? x.begin(i) : lowerBound(x, i, colBegin);
    int64_t last = all ? x.end(i) : lowerBound(x, i, colEnd);
    int64_t end = x.end(i);
    for (int64_t k1 = first; k1 < last; ++k1) {
      double v1 = x.values[k1];
      double *row = &out.at(x.colidx[k1], 0);
      if (out.colStride == 1) {
        for (int64_t k2 = k1; k2 < end; ++k2)
          row[x.colidx[k2]] += v1 * x.values[k2];
      } else {
        for (int64_t k2 = k1; k2 < end; ++k2)
          row[x.colidx[k2] * out.colStride] += v1 * x.values[k2];
      }
    }
  }
}

/// `threads` + 1 boundaries of result rows of about equal work: row j1
/// costs, summed over the rows of X holding column j1, the entries from j1
/// on.
std::vector<int64_t> splitTriangle(const CsrView &x, int64_t threads) {
  std::vector<int64_t> work(x.cols + 1, 0);
  for (int64_t i = 0; i < x.rows; ++i)
    for (int64_t k = x.begin(i); k < x.end(i); ++k)
      work[x.colidx[k] + 1] += x.end(i) - k;
  for (int64_t j = 0; j < x.cols; ++j)
    work[j + 1] += work[j];
  std::vector<int64_t> bounds(threads + 1, x.cols);
  bounds[0] = 0;
  auto total = static_cast<double>(work[x.cols]);
  for (int64_t t = 1; t < threads; ++t) {
    auto target = static_cast<int64_t>(total * t / threads);
    bounds[t] = std::max(bounds[t - 1],
                         std::lower_bound(work.begin(), work.end(), target) -
                             work.begin());
    bounds[t] = std::min(bounds[t], x.cols);
  }
  return bounds;
}

} // namespace

extern "C" void _mlir_ciface_amls_rt_csr_tsmm(AmlsVectorI64 *x_rowptr,
                                              AmlsVectorI32 *x_colidx,
                                              AmlsVectorF64 *x_values,
                                              int64_t x_cols,
                                              AmlsMatrixF64 *out) {
  CsrView x = csrOf(x_rowptr, x_colidx, x_values, x_cols);
  DenseView o = denseOf(out);
  check(o.rows == x.cols && o.cols == x.cols, "t(CSR) %*% CSR", [&] {
    return "a " + shape(o.rows, o.cols) + " result for t(X) %*% X of a " +
           shape(x.rows, x.cols) + " X";
  });
  // The products formed: about nnz * (mean row length) / 2.
  double meanRow =
      x.rows ? static_cast<double>(x.nnz()) / static_cast<double>(x.rows) : 0;
  auto products = static_cast<int64_t>(x.nnz() * (meanRow + 1) / 2);
  int64_t threads =
      std::min(threadsFor(products + x.cols * x.cols / 8, kMinWorkPerThread),
               std::max<int64_t>(x.cols, 1));
  std::vector<int64_t> bounds =
      threads > 1 ? splitTriangle(x, threads) : std::vector<int64_t>{0, x.cols};
  runThreads(threads, [&](int64_t t) {
    for (int64_t j = bounds[t]; j < bounds[t + 1]; ++j)
      for (int64_t c = 0; c < x.cols; ++c)
        o.at(j, c) = 0.0;
    accumulateTriangle(x, o, bounds[t], bounds[t + 1]);
  });
  // Mirror the upper triangle, in parallel over row ranges of the lower.
  runThreads(threads, [&](int64_t t) {
    for (int64_t j = x.cols * t / threads; j < x.cols * (t + 1) / threads; ++j)
      for (int64_t c = 0; c < j; ++c)
        o.at(j, c) = o.at(c, j);
  });
}

extern "C" void _mlir_ciface_amls_rt_csr_mmchain(
    AmlsVectorI64 *x_rowptr, AmlsVectorI32 *x_colidx, AmlsVectorF64 *x_values,
    int64_t x_cols, AmlsMatrixF64 *v, AmlsMatrixF64 *w, AmlsMatrixF64 *out,
    int32_t use_weights) {
  CsrView x = csrOf(x_rowptr, x_colidx, x_values, x_cols);
  DenseView dv = denseOf(v), dout = denseOf(out);
  check(dv.rows * dv.cols == x.cols && dout.rows == x.cols && dout.cols == 1,
        "CSR mmchain", [&] {
          return "t(X) %*% (X %*% v) of a " + shape(x.rows, x.cols) + " X, a " +
                 shape(dv.rows, dv.cols) + " v and a " +
                 shape(dout.rows, dout.cols) + " result";
        });
  memory::Vector<double> vStorage, wStorage;
  const double *vector = contiguousVector(dv, vStorage);
  const double *weights = nullptr;
  if (use_weights) {
    DenseView dw = denseOf(w);
    check(dw.rows * dw.cols == x.rows, "CSR mmchain", [&] {
      return "weights " + shape(dw.rows, dw.cols) + " for a " +
             shape(x.rows, x.cols) + " X";
    });
    weights = contiguousVector(dw, wStorage);
  }
  auto scaledDot = [&](int64_t i) {
    double dot = 0.0;
    for (int64_t k = x.begin(i); k < x.end(i); ++k)
      dot += x.values[k] * vector[x.colidx[k]];
    return weights ? dot * weights[i] : dot;
  };

  int64_t threads = std::min(threadsFor(2 * x.nnz(), kMinWorkPerThread),
                             std::max<int64_t>(x.rows, 1));
  if (threads > 1 && x.cols > x.nnz() / 2) {
    // Partials over the columns would cost more than the product.
    memory::Vector<double> q(x.rows);
    std::vector<int64_t> bounds = splitRows(x, threads);
    runThreads(threads, [&](int64_t t) {
      for (int64_t i = bounds[t]; i < bounds[t + 1]; ++i)
        q[i] = scaledDot(i);
    });
    spmmTransposed(x, DenseView{q.data(), x.rows, 1, 1, 1}, dout);
    return;
  }
  std::vector<int64_t> bounds = splitRows(x, threads);
  memory::Vector<double> partials(threads * x.cols, 0.0);
  runThreads(threads, [&](int64_t t) {
    double *partial = partials.data() + t * x.cols;
    for (int64_t i = bounds[t]; i < bounds[t + 1]; ++i) {
      double scale = scaledDot(i);
      for (int64_t k = x.begin(i); k < x.end(i); ++k)
        partial[x.colidx[k]] += scale * x.values[k];
    }
  });
  runThreads(threads, [&](int64_t t) {
    for (int64_t j = x.cols * t / threads; j < x.cols * (t + 1) / threads;
         ++j) {
      double sum = 0.0;
      for (int64_t u = 0; u < threads; ++u)
        sum += partials[u * x.cols + j];
      dout.at(j, 0) = sum;
    }
  });
}
