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

#include "OpenBlas.h"
#include "Threads.h"

#include "AMLS/Runtime/Context.h"
#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <optional>
#include <type_traits>
#include <vector>

using amls::runtime::Context;

namespace {

using amls::runtime::runThreads;
using amls::runtime::threadsFor;

enum {
  kCblasRowMajor = 101,
  kCblasNoTrans = 111,
  kCblasTrans = 112,
  kCblasUpper = 121
};

template <typename T>
using GemmFn = void (*)(int, int, int, int, int, int, T, const T *, int,
                        const T *, int, T, T *, int);
template <typename T>
using GemvFn = void (*)(int, int, int, int, T, const T *, int, const T *, int,
                        T, T *, int);
template <typename T>
using SyrkFn = void (*)(int, int, int, int, int, T, const T *, int, T, T *,
                        int);
using SetThreadsFn = void (*)(int);
using GetThreadsFn = int (*)();

template <typename T> struct BlasRoutines {
  GemmFn<T> gemm = nullptr;
  GemvFn<T> gemv = nullptr;
  SyrkFn<T> syrk = nullptr;
};

struct Blas {
  BlasRoutines<double> f64;
  BlasRoutines<float> f32;
  SetThreadsFn setThreads = nullptr;
  GetThreadsFn getThreads = nullptr;
  /// The loaded library, for its LAPACK routines (OpenBlas.h).
  void *handle = nullptr;

  template <typename T> const BlasRoutines<T> &routines() const {
    if constexpr (std::is_same_v<T, double>)
      return f64;
    else
      return f32;
  }
};

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
    // No thread pool at load: OpenBLAS's threads start (and spin) only
    // when a ThreadedBlasSection first asks for them.
    setenv("OPENBLAS_NUM_THREADS", "1", /*overwrite=*/0);
    for (const char *name : {"libopenblas.so.0", "libopenblas.so"}) {
      void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
      if (!handle)
        continue;
      auto load = [&](auto &fn, const char *symbol) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(
            dlsym(handle, symbol));
      };
      load(blas.f64.gemm, "cblas_dgemm");
      load(blas.f64.gemv, "cblas_dgemv");
      load(blas.f64.syrk, "cblas_dsyrk");
      load(blas.f32.gemm, "cblas_sgemm");
      load(blas.f32.gemv, "cblas_sgemv");
      load(blas.f32.syrk, "cblas_ssyrk");
      load(blas.setThreads, "openblas_set_num_threads");
      load(blas.getThreads, "openblas_get_num_threads");
      if (blas.f64.gemm) {
        blas.handle = handle;
        break;
      }
    }
    // Single-threaded between ThreadedBlasSections, whatever the
    // environment asked for at load.
    if (blas.setThreads)
      blas.setThreads(1);
  });
  return blas;
}

} // namespace

void *amls::runtime::openBlasSymbol(const char *name) {
  const Blas &blas = getBlas();
  return blas.handle ? dlsym(blas.handle, name) : nullptr;
}

amls::runtime::SerialBlasSection::SerialBlasSection() {
  const Blas &blas = getBlas();
  if (blas.setThreads && blas.getThreads) {
    saved = blas.getThreads();
    if (saved > 1)
      blas.setThreads(1);
  }
}

amls::runtime::SerialBlasSection::~SerialBlasSection() {
  if (saved > 1)
    getBlas().setThreads(saved);
}

amls::runtime::ThreadedBlasSection::ThreadedBlasSection() {
  const Blas &blas = getBlas();
  Context &context = Context::current();
  int32_t threads = context.getThreads();
  if (!blas.setThreads || threads <= 1 || context.isBlasSerial() ||
      omp_in_parallel())
    return;
  blas.setThreads(threads);
  raised = true;
}

amls::runtime::ThreadedBlasSection::~ThreadedBlasSection() {
  if (raised)
    getBlas().setThreads(1);
}

// libomp's extension (omp.h of LLVM; the runtime is compiled against GCC's).
extern "C" void kmp_set_blocktime(int milliseconds) __attribute__((weak));

extern "C" void amls_rt_set_num_threads(int32_t threads) {
  Context::current().setThreads(threads);
  // libomp's workers spin for 200 ms after a parallel region before they
  // sleep; OpenBLAS's threads (LAPACK) running in that window shared the
  // cores with them (12 ridge solves after a threaded tsmm: 25 or 90 ms
  // from run to run). 1 ms still keeps the workers awake between the
  // back-to-back regions of a loop. The calling thread's setting applies
  // to the regions it starts; KMP_BLOCKTIME, where set, is the user's.
  if (kmp_set_blocktime && !std::getenv("KMP_BLOCKTIME"))
    kmp_set_blocktime(1);
  // OpenBLAS itself stays single-threaded (ThreadedBlasSection).
  getBlas();
}

extern "C" int32_t amls_rt_get_num_threads(void) {
  return Context::current().getThreads();
}

extern "C" void amls_rt_blas_serial(int32_t serial) {
  // Only the program's main thread calls this, around parallel loops.
  Context::current().setBlasSerial(serial != 0);
}

namespace {

/// How BLAS sees a matrix view: row-major as is, or a column-major view of
/// its transpose. Fails for views with no unit stride.
struct BlasOperand {
  int transpose;
  int leadingDimension;
};

template <typename Matrix>
std::optional<BlasOperand> asBlasOperand(const Matrix *m) {
  int64_t rows = m->sizes[0], cols = m->sizes[1];
  if (m->strides[1] == 1 && m->strides[0] >= std::max<int64_t>(cols, 1))
    return BlasOperand{kCblasNoTrans,
                       static_cast<int>(std::max<int64_t>(m->strides[0], 1))};
  if (m->strides[0] == 1 && m->strides[1] >= std::max<int64_t>(rows, 1))
    return BlasOperand{kCblasTrans,
                       static_cast<int>(std::max<int64_t>(m->strides[1], 1))};
  return std::nullopt;
}

template <typename Matrix> auto *origin(const Matrix *m) {
  return m->aligned + m->offset;
}

/// Below this many rows (columns, inner products) per thread, a product is
/// not split along them.
constexpr int64_t kMinExtentPerThread = 64;

/// Below this many cells of the matrix per thread, gemv runs on the calling
/// thread.
constexpr int64_t kMinGemvCellsPerThread = int64_t(1) << 16;

/// y += op(A) x through gemv, where op(A) is `rows` x `cols` and A is the
/// BLAS view `opA` of `a`. A large product is split into blocks of the
/// stored matrix, one per OpenMP thread, each a single-threaded gemv: gemv
/// is short and bound by memory bandwidth, and OpenBLAS's own threads,
/// spinning while the program's OpenMP loops run and the other way round,
/// took 15-20% of l2svm's time in sched_yield on two cores.
template <typename T, typename Matrix>
void gemv(const BlasRoutines<T> &blas, const Matrix *a, BlasOperand opA,
          int64_t rows, int64_t cols, const T *x, int64_t incX, T *y,
          int64_t incY) {
  // The stored matrix S is m x n row-major: op(A) = S (NoTrans) or t(S).
  bool plain = opA.transpose == kCblasNoTrans;
  int64_t m = plain ? rows : cols, n = plain ? cols : rows;
  const T *s = origin(a);
  int64_t lda = opA.leadingDimension;
  auto call = [&](int64_t rowBegin, int64_t rowEnd, int64_t colBegin,
                  int64_t colEnd, T *out, int64_t incOut) {
    // Rows of S pair with x (t(S) x) or with y (S x); columns the other way.
    int64_t xStart = plain ? colBegin : rowBegin;
    int64_t yStart = plain ? rowBegin : colBegin;
    blas.gemv(kCblasRowMajor, opA.transpose,
              static_cast<int>(rowEnd - rowBegin),
              static_cast<int>(colEnd - colBegin), T(1),
              s + rowBegin * lda + colBegin, static_cast<int>(lda),
              x + xStart * incX, static_cast<int>(incX), T(1),
              out + yStart * incOut, static_cast<int>(incOut));
  };
  int64_t threads = threadsFor(m * n, kMinGemvCellsPerThread);
  if (threads <= 1 || incX <= 0 || incY <= 0) {
    call(0, m, 0, n, y, incY);
    return;
  }
  // Split S's rows (contiguous blocks) unless they are too few.
  bool splitRows = m >= kMinExtentPerThread * threads || m >= n;
  int64_t extent = splitRows ? m : n;
  threads = std::min(threads, extent);
  // Blocks along y's dimension write disjoint parts of y; along x's they
  // each form a partial y, summed after (the first thread's into y).
  bool partial = splitRows != plain;
  int64_t length = plain ? m : n;
  std::vector<T> partials(partial ? (threads - 1) * length : 0, T(0));
  amls::runtime::SerialBlasSection serial;
  runThreads(threads, [&](int64_t t) {
    int64_t begin = extent * t / threads, end = extent * (t + 1) / threads;
    T *out = partial && t > 0 ? &partials[(t - 1) * length] : y;
    int64_t incOut = out == y ? incY : 1;
    if (splitRows)
      call(begin, end, 0, n, out, incOut);
    else
      call(0, m, begin, end, out, incOut);
  });
  for (int64_t t = 1; partial && t < threads; ++t)
    for (int64_t i = 0; i < length; ++i)
      y[i * incY] += partials[(t - 1) * length + i];
}

/// Below this many multiply-adds per thread, gemm runs on the calling
/// thread.
constexpr int64_t kMinGemmWorkPerThread = int64_t(1) << 20;

/// C += t(X) %*% X or X %*% t(X) through syrk when A and B are the two
/// views of one matrix that make the product symmetric (amls.tsmm lowers to
/// such a product): half the multiplications of gemm. syrk computes the
/// upper triangle into a scratch matrix, which is added to both triangles
/// of C. False if the operands are not of that form.
template <typename T, typename Matrix>
bool symmetricRankK(const BlasRoutines<T> &blas, const Matrix *a,
                    const BlasOperand &opA, const Matrix *b,
                    const BlasOperand &opB, Matrix *c) {
  int64_t n = c->sizes[0], k = a->sizes[1];
  if (!blas.syrk || origin(a) != origin(b) || opA.transpose == opB.transpose ||
      opA.leadingDimension != opB.leadingDimension || c->sizes[1] != n ||
      b->sizes[0] != k || b->sizes[1] != n || n < 2)
    return false;
  // A is n x k; row-major with trans = NoTrans when A is stored as is (the
  // product is A t(A)), Trans when A is t(X) for a stored X (t(X) X). With
  // several threads and a long inner dimension (a tall X), each thread
  // forms the product of a block of X's rows (syrk, OpenBLAS
  // single-threaded) in its own scratch matrix, summed after.
  int64_t threads = threadsFor(n * n * k / 2, kMinGemmWorkPerThread);
  // Each further thread's scratch matrix must be worth its memory.
  constexpr int64_t kMaxScratchBytes = int64_t(256) << 20;
  if (k < kMinExtentPerThread * threads ||
      threads * n * n * int64_t(sizeof(T)) > kMaxScratchBytes)
    threads = 1;
  T *scratch = static_cast<T *>(std::calloc(threads * n * n, sizeof(T)));
  if (!scratch)
    return false;
  auto syrk = [&](int64_t begin, int64_t end, T *out) {
    const T *block = opA.transpose == kCblasNoTrans
                         ? origin(a) + begin
                         : origin(a) + begin * opA.leadingDimension;
    blas.syrk(kCblasRowMajor, kCblasUpper, opA.transpose, static_cast<int>(n),
              static_cast<int>(end - begin), T(1), block, opA.leadingDimension,
              T(0), out, static_cast<int>(n));
  };
  if (threads <= 1) {
    syrk(0, k, scratch);
  } else {
    amls::runtime::SerialBlasSection serial;
    runThreads(threads, [&](int64_t t) {
      syrk(k * t / threads, k * (t + 1) / threads, scratch + t * n * n);
    });
  }
  T *out = origin(c);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i; j < n; ++j) {
      T value = 0;
      for (int64_t t = 0; t < threads; ++t)
        value += scratch[t * n * n + i * n + j];
      out[i * c->strides[0] + j * c->strides[1]] += value;
      if (j != i)
        out[j * c->strides[0] + i * c->strides[1]] += value;
    }
  std::free(scratch);
  return true;
}

/// C += op(A) op(B) (m x k times k x n, C row-major) through gemm, split
/// like gemv: blocks of C's rows, else of its columns, one per OpenMP
/// thread, each a single-threaded gemm. Where both are too few to share
/// (kmeans's t(P) %*% X: 10 x 200000 times 200000 x 20), blocks of the
/// inner dimension form partial products, summed after; OpenBLAS splits
/// only m and n, so it ran such products on one thread.
template <typename T, typename Matrix>
void gemmOnThreads(const BlasRoutines<T> &blas, const Matrix *a,
                   BlasOperand opA, const Matrix *b, BlasOperand opB, Matrix *c,
                   int64_t m, int64_t n, int64_t k) {
  int64_t ldc = std::max<int64_t>(c->strides[0], 1);
  // Offsets of op(X)'s element (row, col) in a BLAS view's storage.
  auto at = [](const Matrix *x, BlasOperand op, int64_t row, int64_t col) {
    return op.transpose == kCblasNoTrans
               ? origin(x) + row * op.leadingDimension + col
               : origin(x) + col * op.leadingDimension + row;
  };
  auto call = [&](int64_t rows, int64_t cols, int64_t inner, const T *left,
                  const T *right, T *out, int64_t ldOut) {
    blas.gemm(kCblasRowMajor, opA.transpose, opB.transpose,
              static_cast<int>(rows), static_cast<int>(cols),
              static_cast<int>(inner), T(1), left, opA.leadingDimension, right,
              opB.leadingDimension, T(1), out, static_cast<int>(ldOut));
  };
  int64_t threads = threadsFor(m * n * k, kMinGemmWorkPerThread);
  if (threads <= 1) {
    call(m, n, k, origin(a), origin(b), origin(c), ldc);
    return;
  }
  amls::runtime::SerialBlasSection serial;
  // Disjoint blocks of C where it has enough rows or columns, else blocks
  // of the inner dimension where it is long (each thread then reads its
  // part of A and B once), else whichever of C's dimensions is larger.
  int64_t enough = kMinExtentPerThread * threads;
  bool splitInner = m < enough && n < enough && k >= enough;
  if (!splitInner && (m >= enough || (n < enough && m >= n))) {
    threads = std::min(threads, m);
    runThreads(threads, [&](int64_t t) {
      int64_t begin = m * t / threads, end = m * (t + 1) / threads;
      call(end - begin, n, k, at(a, opA, begin, 0), origin(b),
           origin(c) + begin * ldc, ldc);
    });
    return;
  }
  if (!splitInner) {
    threads = std::min(threads, n);
    runThreads(threads, [&](int64_t t) {
      int64_t begin = n * t / threads, end = n * (t + 1) / threads;
      call(m, end - begin, k, origin(a), at(b, opB, 0, begin),
           origin(c) + begin, ldc);
    });
    return;
  }
  std::vector<T> partials((threads - 1) * m * n, T(0));
  runThreads(threads, [&](int64_t t) {
    int64_t begin = k * t / threads, end = k * (t + 1) / threads;
    T *out = t == 0 ? origin(c) : &partials[(t - 1) * m * n];
    call(m, n, end - begin, at(a, opA, 0, begin), at(b, opB, begin, 0), out,
         t == 0 ? ldc : n);
  });
  for (int64_t t = 1; t < threads; ++t)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        origin(c)[i * ldc + j] += partials[((t - 1) * m + i) * n + j];
}

/// C += A %*% B: gemv for matrix-vector shapes (OpenBLAS's gemm is slow on
/// them), syrk for t(X) %*% X and X %*% t(X), gemm otherwise, loops when
/// BLAS is missing or a view has no unit stride.
template <typename T, typename Matrix>
void gemm(const Matrix *a, const Matrix *b, Matrix *c) {
  int64_t m = a->sizes[0], k = a->sizes[1], n = b->sizes[1];
  if (m == 0 || n == 0 || k == 0)
    return;
  const BlasRoutines<T> &blas = getBlas().routines<T>();
  std::optional<BlasOperand> opA = asBlasOperand(a), opB = asBlasOperand(b);
  // BLAS rejects zero increments; a stride along a single element is free.
  auto increment = [](int64_t stride) { return stride == 0 ? 1 : stride; };
  if (blas.gemv && n == 1 && opA && m > 1) {
    gemv(blas, a, *opA, m, k, origin(b), increment(b->strides[0]), origin(c),
         increment(c->strides[0]));
    return;
  }
  if (blas.gemv && m == 1 && opB && n > 1) {
    // c = a B is t(c) = t(B) t(a).
    BlasOperand transposedB = *opB;
    transposedB.transpose =
        opB->transpose == kCblasNoTrans ? kCblasTrans : kCblasNoTrans;
    gemv(blas, b, transposedB, n, k, origin(a), increment(a->strides[1]),
         origin(c), increment(c->strides[1]));
    return;
  }
  if (opA && opB && symmetricRankK(blas, a, *opA, b, *opB, c))
    return;
  bool cRowMajor =
      c->strides[1] == 1 && c->strides[0] >= std::max<int64_t>(n, 1);
  if (blas.gemm && opA && opB && cRowMajor) {
    gemmOnThreads(blas, a, *opA, b, *opB, c, m, n, k);
    return;
  }
  auto at = [](const Matrix *x, int64_t r, int64_t col) {
    return origin(x)[r * x->strides[0] + col * x->strides[1]];
  };
  for (int64_t i = 0; i < m; ++i) {
    T *row = origin(c) + i * c->strides[0];
    for (int64_t p = 0; p < k; ++p) {
      T aip = at(a, i, p);
      for (int64_t j = 0; j < n; ++j)
        row[j * c->strides[1]] += aip * at(b, p, j);
    }
  }
}

} // namespace

extern "C" void _mlir_ciface_amls_rt_gemm_f64(AmlsMatrixF64 *a,
                                              AmlsMatrixF64 *b,
                                              AmlsMatrixF64 *c) {
  gemm<double>(a, b, c);
}

extern "C" void _mlir_ciface_amls_rt_gemm_f32(AmlsMatrixF32 *a,
                                              AmlsMatrixF32 *b,
                                              AmlsMatrixF32 *c) {
  gemm<float>(a, b, c);
}
