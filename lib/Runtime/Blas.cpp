//===- Blas.cpp - BLAS glue -----------------------------------------------===//
//
// Dense products go to OpenBLAS, loaded on first use. OpenBLAS picks its
// kernels from the CPU it detects when the library is loaded, and on some
// virtual machines it detects an old "Prescott" core and runs several times
// slower; unless the user chose a core with OPENBLAS_CORETYPE, the runtime
// sets it from the CPU's features before loading the library. Without
// OpenBLAS a portable loop nest computes the product.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <optional>

namespace {

enum { kCblasRowMajor = 101, kCblasNoTrans = 111 };

using DgemmFn = void (*)(int, int, int, int, int, int, double, const double *,
                         int, const double *, int, double, double *, int);
using SetThreadsFn = void (*)(int);

struct Blas {
  DgemmFn dgemm = nullptr;
  SetThreadsFn setThreads = nullptr;
};

std::atomic<int32_t> requestedThreads{0};

const char *coreTypeForThisCpu() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f"))
    return "SkylakeX";
  if (__builtin_cpu_supports("avx2"))
    return "Haswell";
  return nullptr;
}

const Blas &getBlas() {
  static Blas blas;
  static std::once_flag loaded;
  std::call_once(loaded, [] {
    if (!std::getenv("OPENBLAS_CORETYPE"))
      if (const char *core = coreTypeForThisCpu())
        setenv("OPENBLAS_CORETYPE", core, /*overwrite=*/0);
    for (const char *name : {"libopenblas.so.0", "libopenblas.so"}) {
      void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (!handle)
        continue;
      blas.dgemm = reinterpret_cast<DgemmFn>(dlsym(handle, "cblas_dgemm"));
      blas.setThreads = reinterpret_cast<SetThreadsFn>(
          dlsym(handle, "openblas_set_num_threads"));
      if (blas.dgemm)
        break;
    }
    if (blas.setThreads && requestedThreads > 0)
      blas.setThreads(requestedThreads);
  });
  return blas;
}

double at(const AmlsMatrixF64 *m, int64_t r, int64_t c) {
  return m->aligned[m->offset + r * m->strides[0] + c * m->strides[1]];
}

} // namespace

extern "C" void amls_rt_set_num_threads(int32_t threads) {
  requestedThreads = threads;
  const Blas &blas = getBlas();
  if (blas.setThreads && threads > 0)
    blas.setThreads(threads);
}

namespace {
enum { kCblasTrans = 112 };

/// How BLAS sees a matrix view: row-major as is, or a column-major view of
/// its transpose. Fails for views with no unit stride.
struct BlasOperand {
  int transpose;
  int leadingDimension;
};

std::optional<BlasOperand> asBlasOperand(const AmlsMatrixF64 *m) {
  int64_t rows = m->sizes[0], cols = m->sizes[1];
  if (m->strides[1] == 1 && m->strides[0] >= std::max<int64_t>(cols, 1))
    return BlasOperand{kCblasNoTrans,
                       static_cast<int>(std::max<int64_t>(m->strides[0], 1))};
  if (m->strides[0] == 1 && m->strides[1] >= std::max<int64_t>(rows, 1))
    return BlasOperand{kCblasTrans,
                       static_cast<int>(std::max<int64_t>(m->strides[1], 1))};
  return std::nullopt;
}
} // namespace

extern "C" void _mlir_ciface_amls_rt_gemm(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                                          AmlsMatrixF64 *c) {
  int64_t m = a->sizes[0], k = a->sizes[1], n = b->sizes[1];
  if (m == 0 || n == 0 || k == 0)
    return;
  const Blas &blas = getBlas();
  std::optional<BlasOperand> opA = asBlasOperand(a), opB = asBlasOperand(b);
  bool cRowMajor =
      c->strides[1] == 1 && c->strides[0] >= std::max<int64_t>(n, 1);
  if (blas.dgemm && opA && opB && cRowMajor) {
    blas.dgemm(kCblasRowMajor, opA->transpose, opB->transpose, m, n, k, 1.0,
               a->aligned + a->offset, opA->leadingDimension,
               b->aligned + b->offset, opB->leadingDimension, 1.0,
               c->aligned + c->offset,
               static_cast<int>(std::max<int64_t>(c->strides[0], 1)));
    return;
  }
  for (int64_t i = 0; i < m; ++i) {
    double *row = c->aligned + c->offset + i * c->strides[0];
    for (int64_t p = 0; p < k; ++p) {
      double aip = at(a, i, p);
      for (int64_t j = 0; j < n; ++j)
        row[j * c->strides[1]] += aip * at(b, p, j);
    }
  }
}
