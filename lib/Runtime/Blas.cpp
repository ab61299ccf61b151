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

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

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

extern "C" void _mlir_ciface_amls_rt_gemm(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                                          AmlsMatrixF64 *c) {
  int64_t m = a->sizes[0], k = a->sizes[1], n = b->sizes[1];
  const Blas &blas = getBlas();
  bool rowMajor = a->strides[1] == 1 && b->strides[1] == 1 &&
                  c->strides[1] == 1 && a->strides[0] >= k &&
                  b->strides[0] >= n && c->strides[0] >= n;
  if (blas.dgemm && rowMajor && m > 0 && n > 0 && k > 0) {
    // Leading dimensions must be at least 1 even for single rows.
    auto ld = [](int64_t stride, int64_t minimum) {
      return static_cast<int>(stride > minimum ? stride : minimum);
    };
    blas.dgemm(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, m, n, k, 1.0,
               a->aligned + a->offset, ld(a->strides[0], k),
               b->aligned + b->offset, ld(b->strides[0], n), 0.0,
               c->aligned + c->offset, ld(c->strides[0], n));
    return;
  }
  for (int64_t i = 0; i < m; ++i) {
    double *row = c->aligned + c->offset + i * c->strides[0];
    for (int64_t j = 0; j < n; ++j)
      row[j * c->strides[1]] = 0.0;
    for (int64_t p = 0; p < k; ++p) {
      double aip = at(a, i, p);
      for (int64_t j = 0; j < n; ++j)
        row[j * c->strides[1]] += aip * at(b, p, j);
    }
  }
}
