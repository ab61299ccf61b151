//===- CInterface.cpp - The compressed kernels compiled code calls --------===//
//
// amls.compress lowers to amls_rt_compressed_compress, which plans and
// builds a CompressedMatrix and hands compiled code its address as a
// number; the products on it take that number back, and amls.release frees
// it. Operands arrive as memref descriptors, possibly strided: the kernels
// take row-major rows, so a strided operand is copied first (a vector or a
// narrow matrix: cheap next to the product).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Compressed.h"
#include "AMLS/Runtime/Runtime.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <vector>

using namespace amls::runtime;
using namespace amls::runtime::compressed;

namespace {

const CompressedMatrix &fromHandle(int64_t handle) {
  return **reinterpret_cast<std::shared_ptr<const CompressedMatrix> *>(handle);
}

/// The cells of `m` row-major: its own memory when rows are contiguous,
/// else a copy in `copy`. Sets the leading dimension.
const double *rowMajor(const AmlsMatrixF64 *m, memory::Vector<double> &copy,
                       int64_t &ld) {
  const double *base = m->aligned + m->offset;
  int64_t rows = m->sizes[0], cols = m->sizes[1];
  // One column: only the row stride matters.
  if (m->strides[1] == 1 || cols == 1) {
    ld = m->strides[0];
    return base;
  }
  copy.resize(uint64_t(rows) * cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      copy[r * cols + c] = base[r * m->strides[0] + c * m->strides[1]];
  ld = cols;
  return copy.data();
}

/// Runs `kernel(out, ldOut)` into `out`, through a row-major buffer when
/// `out` is strided.
template <typename Kernel> void intoRowMajor(AmlsMatrixF64 *out, Kernel kernel) {
  double *base = out->aligned + out->offset;
  int64_t rows = out->sizes[0], cols = out->sizes[1];
  if (out->strides[1] == 1 || cols == 1) {
    kernel(base, out->strides[0]);
    return;
  }
  memory::Vector<double> buffer(uint64_t(rows) * cols);
  kernel(buffer.data(), cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      base[r * out->strides[0] + c * out->strides[1]] = buffer[r * cols + c];
}

} // namespace

namespace {

/// Process-wide, as the runtime's threads are (--stats).
std::atomic<uint64_t> compressions{0}, decompressions{0}, decompressedBytes{0};

int64_t toHandle(std::shared_ptr<const CompressedMatrix> matrix) {
  return reinterpret_cast<int64_t>(
      new std::shared_ptr<const CompressedMatrix>(std::move(matrix)));
}

} // namespace

Statistics amls::runtime::compressed::getStatistics() {
  Statistics result;
  result.compressions = compressions.load();
  result.decompressions = decompressions.load();
  result.decompressedBytes = decompressedBytes.load();
  return result;
}

namespace {

/// Plans and compresses `source`, printing the plan and the result when
/// `explain`; the handle compiled code keeps.
int64_t compressToHandle(const Source &source, bool explain) {
  auto start = std::chrono::steady_clock::now();
  CompressionPlan plan = planCompression(source);
  auto planned = std::chrono::steady_clock::now();
  if (explain)
    std::fprintf(stderr, "amls.compress %lld x %lld: %s",
                 (long long)source.rows, (long long)source.cols,
                 plan.describe().c_str());
  if (!plan.compress) {
    // Not worth it: every column in one uncompressed group, which the
    // kernels multiply with BLAS.
    std::vector<int32_t> all(source.cols);
    std::iota(all.begin(), all.end(), 0);
    plan.groups = {{std::move(all), Encoding::Uncompressed, 0,
                    source.getSizeInBytes()}};
  }
  auto *handle = new std::shared_ptr<const CompressedMatrix>(
      compress(source, plan));
  ++compressions;
  if (explain) {
    auto seconds = [](auto from, auto to) {
      return std::chrono::duration<double>(to - from).count();
    };
    auto done = std::chrono::steady_clock::now();
    uint64_t bytes = (*handle)->getSizeInBytes();
    std::fprintf(stderr,
                 "amls.compress %lld x %lld: %s %llu bytes (%.2fx) in %.3f s "
                 "(planning %.3f s, encoding %.3f s)\n",
                 (long long)source.rows, (long long)source.cols,
                 plan.compress ? "compressed to" : "kept uncompressed,",
                 (unsigned long long)bytes,
                 bytes ? double(source.getSizeInBytes()) / double(bytes) : 0.0,
                 seconds(start, done), seconds(start, planned),
                 seconds(planned, done));
  }
  return reinterpret_cast<int64_t>(handle);
}

} // namespace

extern "C" int64_t _mlir_ciface_amls_rt_compressed_compress(AmlsMatrixF64 *x,
                                                            int32_t explain) {
  memory::Vector<double> copy;
  int64_t ld = 0;
  const double *cells = rowMajor(x, copy, ld);
  return compressToHandle(Source::dense(x->sizes[0], x->sizes[1], cells, ld),
                          explain != 0);
}

extern "C" int64_t _mlir_ciface_amls_rt_compressed_compress_csr(
    AmlsVectorI64 *rowptr, AmlsVectorI32 *colidx, AmlsVectorF64 *values,
    int64_t cols, int32_t explain) {
  // The CSR kernels' arrays are contiguous (SparseKernels.h).
  int64_t rows = rowptr->sizes[0] - 1;
  return compressToHandle(Source::csr(rows, cols,
                                      rowptr->aligned + rowptr->offset,
                                      colidx->aligned + colidx->offset,
                                      values->aligned + values->offset),
                          explain != 0);
}

extern "C" void amls_rt_compressed_release(int64_t handle) {
  delete reinterpret_cast<std::shared_ptr<const CompressedMatrix> *>(handle);
}

extern "C" int64_t amls_rt_compressed_size(int64_t handle, int32_t dim) {
  const CompressedMatrix &x = fromHandle(handle);
  return dim == 0 ? x.getRows() : x.getCols();
}

extern "C" void _mlir_ciface_amls_rt_compressed_multiply(int64_t handle,
                                                         AmlsMatrixF64 *w,
                                                         AmlsMatrixF64 *out,
                                                         int32_t product) {
  const CompressedMatrix &x = fromHandle(handle);
  memory::Vector<double> copy;
  int64_t ldw = 0;
  const double *rhs = rowMajor(w, copy, ldw);
  int64_t k = w->sizes[1];
  if (product == AMLS_COMPRESSED_WT_X) {
    // t(W) %*% X is t(t(X) %*% W): the cols(X) x k product, transposed
    // into the k x cols(X) result.
    int64_t cols = x.getCols();
    memory::Vector<double> xtw(uint64_t(cols) * k);
    x.multiplyLeftTransposed(rhs, ldw, k, xtw.data(), k);
    double *base = out->aligned + out->offset;
    for (int64_t j = 0; j < k; ++j)
      for (int64_t c = 0; c < cols; ++c)
        base[j * out->strides[0] + c * out->strides[1]] = xtw[c * k + j];
    return;
  }
  intoRowMajor(out, [&](double *result, int64_t ldOut) {
    if (product == AMLS_COMPRESSED_XT_W)
      x.multiplyLeftTransposed(rhs, ldw, k, result, ldOut);
    else
      x.multiplyRight(rhs, ldw, k, result, ldOut);
  });
}

extern "C" void _mlir_ciface_amls_rt_compressed_mmchain(int64_t handle,
                                                        AmlsMatrixF64 *v,
                                                        AmlsMatrixF64 *w,
                                                        AmlsMatrixF64 *out,
                                                        int32_t useWeights) {
  const CompressedMatrix &x = fromHandle(handle);
  memory::Vector<double> copy;
  int64_t ldv = 0;
  const double *vector = rowMajor(v, copy, ldv);
  const double *weights = useWeights ? w->aligned + w->offset : nullptr;
  int64_t ldw = useWeights ? w->strides[0] : 0;
  double *base = out->aligned + out->offset;
  if (out->strides[0] == 1) {
    x.multiplyChain(vector, ldv, weights, ldw, base);
    return;
  }
  memory::Vector<double> result(x.getCols());
  x.multiplyChain(vector, ldv, weights, ldw, result.data());
  for (int64_t c = 0; c < x.getCols(); ++c)
    base[c * out->strides[0]] = result[c];
}

extern "C" void _mlir_ciface_amls_rt_compressed_tsmm(int64_t handle,
                                                     AmlsMatrixF64 *out) {
  const CompressedMatrix &x = fromHandle(handle);
  intoRowMajor(out, [&](double *result, int64_t ldOut) {
    x.multiplyTransposedSelf(result, ldOut);
  });
}

extern "C" void _mlir_ciface_amls_rt_compressed_aggregate(int64_t handle,
                                                          AmlsMatrixF64 *out,
                                                          int32_t aggregate) {
  const CompressedMatrix &x = fromHandle(handle);
  double *base = out->aligned + out->offset;
  int64_t rows = x.getRows(), cols = x.getCols();
  switch (aggregate) {
  case AMLS_COMPRESSED_SUM_ALL:
    base[0] = x.sum();
    return;
  case AMLS_COMPRESSED_MEAN_ALL:
    base[0] = x.sum() / (double(rows) * double(cols));
    return;
  case AMLS_COMPRESSED_SUM_ROWS:
  case AMLS_COMPRESSED_MEAN_ROWS: {
    double scale = aggregate == AMLS_COMPRESSED_MEAN_ROWS ? double(cols) : 1.0;
    memory::Vector<double> sums(rows);
    x.rowSums(sums.data());
    for (int64_t r = 0; r < rows; ++r)
      base[r * out->strides[0]] = sums[r] / scale;
    return;
  }
  case AMLS_COMPRESSED_SUM_COLS:
  case AMLS_COMPRESSED_MEAN_COLS: {
    double scale = aggregate == AMLS_COMPRESSED_MEAN_COLS ? double(rows) : 1.0;
    memory::Vector<double> sums(cols);
    x.colSums(sums.data());
    for (int64_t c = 0; c < cols; ++c)
      base[c * out->strides[1]] = sums[c] / scale;
    return;
  }
  }
  amls_rt_check(0, "amls_rt_compressed_aggregate: unknown aggregate");
}

extern "C" int64_t amls_rt_compressed_value_count(int64_t handle) {
  return fromHandle(handle).getNumValues();
}

extern "C" void _mlir_ciface_amls_rt_compressed_values(int64_t handle,
                                                       AmlsMatrixF64 *out) {
  // A column vector the compiler allocated: one value per row.
  const CompressedMatrix &x = fromHandle(handle);
  double *base = out->aligned + out->offset;
  if (out->strides[0] == 1) {
    x.copyValues(base);
    return;
  }
  memory::Vector<double> values(x.getNumValues());
  x.copyValues(values.data());
  for (int64_t i = 0; i < int64_t(values.size()); ++i)
    base[i * out->strides[0]] = values[i];
}

extern "C" int64_t
_mlir_ciface_amls_rt_compressed_with_values(int64_t handle,
                                            AmlsMatrixF64 *values) {
  const CompressedMatrix &x = fromHandle(handle);
  const double *base = values->aligned + values->offset;
  if (values->strides[0] == 1)
    return toHandle(x.withValues(base));
  memory::Vector<double> copy(values->sizes[0]);
  for (int64_t i = 0; i < values->sizes[0]; ++i)
    copy[i] = base[i * values->strides[0]];
  return toHandle(x.withValues(copy.data()));
}

extern "C" void _mlir_ciface_amls_rt_compressed_decompress(int64_t handle,
                                                           AmlsMatrixF64 *out) {
  const CompressedMatrix &x = fromHandle(handle);
  ++decompressions;
  decompressedBytes += uint64_t(x.getRows()) * uint64_t(x.getCols()) * 8;
  intoRowMajor(
      out, [&](double *result, int64_t ldOut) { x.decompress(result, ldOut); });
}
