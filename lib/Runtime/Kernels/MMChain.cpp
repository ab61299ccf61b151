//===- MMChain.cpp - t(X) %*% (w * (X %*% v)) in one pass over X ----------===//
//
// amls.mmchain (conjugate gradient's and logistic regression's inner
// product) as two gemv calls reads X twice from memory. This kernel reads
// each row of X once: it forms the row's dot product with v, scales it by
// the row's weight, and adds the scaled row to the result while the row is
// still in the first-level cache, as SystemDS's mmchain does. Rows are split
// into one contiguous range per thread, each with its own partial result,
// summed at the end.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <thread>
#include <vector>

namespace {

/// Below this many cells of X a single thread is faster than starting more.
constexpr int64_t kMinCellsPerThread = 1 << 16;

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
  auto accumulate = [&](int64_t begin, int64_t end, double *partial) {
    if (contiguous)
      accumulateContiguousRows(x->aligned + x->offset, x->strides[0], begin,
                               end, cols, vector.data(), weights, weightStride,
                               partial);
    else
      accumulateStridedRows(x, begin, end, vector.data(), weights, weightStride,
                            partial);
  };

  int64_t threads = std::max<int64_t>(amls_rt_get_num_threads(), 1);
  threads =
      std::min(threads, std::max<int64_t>(rows * cols / kMinCellsPerThread, 1));
  threads = std::min(threads, std::max<int64_t>(rows, 1));
  amls::runtime::memory::Vector<double> partials(threads * cols, 0.0);
  std::vector<std::thread> workers;
  for (int64_t t = 1; t < threads; ++t)
    workers.emplace_back(accumulate, rows * t / threads,
                         rows * (t + 1) / threads, &partials[t * cols]);
  accumulate(0, rows / threads, partials.data());
  for (std::thread &worker : workers)
    worker.join();

  double *result = out->aligned + out->offset;
  for (int64_t j = 0; j < cols; ++j) {
    double sum = 0;
    for (int64_t t = 0; t < threads; ++t)
      sum += partials[t * cols + j];
    result[j * out->strides[0]] = sum;
  }
}
