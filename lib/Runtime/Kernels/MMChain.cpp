//===- MMChain.cpp - t(X) %*% (w * (X %*% v)) in one pass over X ----------===//
//
// amls.mmchain (conjugate gradient's and logistic regression's inner
// product) as two gemv calls over all of X reads X twice from memory. This
// kernel reads it once: a block of rows small enough for the second-level
// cache is multiplied by v, scaled by the rows' weights and multiplied back
// (t(block) %*% q) while it is still in the cache, both through OpenBLAS's
// gemv, as SystemDS's mmchain does row by row. Rows are split into one
// contiguous range per thread, each with its own partial result, summed at
// the end, on OpenMP's threads (Threads.h) with OpenBLAS single-threaded.
// Without OpenBLAS, or for a strided X, loops do the same row by row.
//
//===----------------------------------------------------------------------===//

#include "OpenBlas.h"
#include "Threads.h"

#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <cstdint>

namespace {

/// Below this many cells of X a single thread is faster than starting more.
constexpr int64_t kMinCellsPerThread = 1 << 16;

/// Bytes of X per block of rows: well inside the second-level cache, so the
/// second gemv reads the block from there.
constexpr int64_t kBlockBytes = int64_t(256) << 10;

enum { kCblasRowMajor = 101, kCblasNoTrans = 111, kCblasTrans = 112 };
using DgemvFn = void (*)(int, int, int, int, double, const double *, int,
                         const double *, int, double, double *, int);

/// out[0..cols) += t(X[begin, end)) (w * (X[begin, end) v)) block by block
/// through gemv, for X with unit column stride.
void accumulateBlocks(DgemvFn gemv, const double *x, int64_t rowStride,
                      int64_t begin, int64_t end, int64_t cols, const double *v,
                      const double *w, int64_t weightStride, double *out) {
  int64_t blockRows = std::max<int64_t>(
      16, kBlockBytes / std::max<int64_t>(cols * int64_t(sizeof(double)), 1));
  amls::runtime::memory::Vector<double> q(std::min(blockRows, end - begin));
  for (int64_t first = begin; first < end; first += blockRows) {
    int n = static_cast<int>(std::min(blockRows, end - first));
    const double *block = x + first * rowStride;
    gemv(kCblasRowMajor, kCblasNoTrans, n, static_cast<int>(cols), 1.0, block,
         static_cast<int>(rowStride), v, 1, 0.0, q.data(), 1);
    if (w)
      for (int i = 0; i < n; ++i)
        q[i] *= w[(first + i) * weightStride];
    gemv(kCblasRowMajor, kCblasTrans, n, static_cast<int>(cols), 1.0, block,
         static_cast<int>(rowStride), q.data(), 1, 1.0, out, 1);
  }
}

/// out[0..cols) += w * (row . v) * row for rows [begin, end) of a matrix with
/// unit column stride. Compiled for several instruction sets, the best
/// chosen when the library is loaded.
__attribute__((target_clones("avx512f", "avx2", "default"))) void
accumulateContiguousRows(const double *x, int64_t rowStride, int64_t begin,
                         int64_t end, int64_t cols, const double *v,
                         const double *w, int64_t weightStride, double *out) {
  constexpr int kLanes = 8;
  int64_t vectorCols = cols - cols % kLanes;
  for (int64_t i = begin; i < end; ++i) {
    const double *row = x + i * rowStride;
    // Independent partial sums so that the dot product vectorizes.
    double partial[kLanes] = {};
    for (int64_t j = 0; j < vectorCols; j += kLanes)
      for (int lane = 0; lane < kLanes; ++lane)
        partial[lane] += row[j + lane] * v[j + lane];
    double dot = 0;
    for (int lane = 0; lane < kLanes; ++lane)
      dot += partial[lane];
    for (int64_t j = vectorCols; j < cols; ++j)
      dot += row[j] * v[j];
    double scale = w ? dot * w[i * weightStride] : dot;
    if (scale == 0)
      continue;
    for (int64_t j = 0; j < cols; ++j)
      out[j] += scale * row[j];
  }
}

/// The same for any strides (transposed or strided views of X).
void accumulateStridedRows(const AmlsMatrixF64 *x, int64_t begin, int64_t end,
                           const double *v, const double *w,
                           int64_t weightStride, double *out) {
  const double *base = x->aligned + x->offset;
  int64_t cols = x->sizes[1];
  for (int64_t i = begin; i < end; ++i) {
    const double *row = base + i * x->strides[0];
    double dot = 0;
    for (int64_t j = 0; j < cols; ++j)
      dot += row[j * x->strides[1]] * v[j];
    double scale = w ? dot * w[i * weightStride] : dot;
    for (int64_t j = 0; j < cols; ++j)
      out[j] += scale * row[j * x->strides[1]];
  }
}

/// A contiguous copy of a column vector (views may be strided).
amls::runtime::memory::Vector<double> columnOf(const AmlsMatrixF64 *m) {
  amls::runtime::memory::Vector<double> values(m->sizes[0]);
  for (int64_t i = 0; i < m->sizes[0]; ++i)
    values[i] = m->aligned[m->offset + i * m->strides[0]];
  return values;
}

} // namespace

extern "C" void _mlir_ciface_amls_rt_mmchain(AmlsMatrixF64 *x, AmlsMatrixF64 *v,
                                             AmlsMatrixF64 *w,
                                             AmlsMatrixF64 *out,
                                             int32_t useWeights) {
  int64_t rows = x->sizes[0], cols = x->sizes[1];
  amls::runtime::memory::Vector<double> vector = columnOf(v);
  const double *weights = useWeights ? w->aligned + w->offset
                                     : static_cast<const double *>(nullptr);
  int64_t weightStride = useWeights ? w->strides[0] : 0;
  bool contiguous = x->strides[1] == 1;
  auto gemv = reinterpret_cast<DgemvFn>(
      contiguous && x->strides[0] >= cols && x->strides[0] <= INT32_MAX
          ? amls::runtime::openBlasSymbol("cblas_dgemv")
          : nullptr);
  auto accumulate = [&](int64_t begin, int64_t end, double *partial) {
    if (gemv)
      accumulateBlocks(gemv, x->aligned + x->offset, x->strides[0], begin, end,
                       cols, vector.data(), weights, weightStride, partial);
    else if (contiguous)
      accumulateContiguousRows(x->aligned + x->offset, x->strides[0], begin,
                               end, cols, vector.data(), weights, weightStride,
                               partial);
    else
      accumulateStridedRows(x, begin, end, vector.data(), weights, weightStride,
                            partial);
  };

  int64_t threads =
      std::min(amls::runtime::threadsFor(rows * cols, kMinCellsPerThread),
               std::max<int64_t>(rows, 1));
  amls::runtime::memory::Vector<double> partials(threads * cols, 0.0);
  amls::runtime::SerialBlasSection serial;
  amls::runtime::runThreads(threads, [&](int64_t t) {
    accumulate(rows * t / threads, rows * (t + 1) / threads,
               &partials[t * cols]);
  });

  double *result = out->aligned + out->offset;
  for (int64_t j = 0; j < cols; ++j) {
    double sum = 0;
    for (int64_t t = 0; t < threads; ++t)
      sum += partials[t * cols + j];
    result[j * out->strides[0]] = sum;
  }
}
