//===- BlasTest.cpp - BLAS glue -------------------------------------------===//

#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <dlfcn.h>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {
/// OPENBLAS_CORETYPE as the process started, before BLAS was loaded.
const std::string userCoreTypeAtStart = [] {
  const char *value = std::getenv("OPENBLAS_CORETYPE");
  return std::string(value ? value : "");
}();

AmlsMatrixF64 descriptor(std::vector<double> &data, int64_t rows, int64_t cols,
                         int64_t rowStride) {
  return {data.data(), data.data(), 0, {rows, cols}, {rowStride, 1}};
}
} // namespace

TEST(Blas, GemmMatchesTheDefinition) {
  const int64_t m = 37, k = 53, n = 29;
  std::vector<double> a(m * k), b(k * n), c(m * n, 0.0);
  for (int64_t i = 0; i < m * k; ++i)
    a[i] = amls_rt_rand(1, i, -1, 1, 1.0, AMLS_PDF_UNIFORM);
  for (int64_t i = 0; i < k * n; ++i)
    b[i] = amls_rt_rand(2, i, -1, 1, 1.0, AMLS_PDF_UNIFORM);
  AmlsMatrixF64 da = descriptor(a, m, k, k), db = descriptor(b, k, n, n),
                dc = descriptor(c, m, n, n);
  _mlir_ciface_amls_rt_gemm_f64(&da, &db, &dc);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double expected = 0;
      for (int64_t p = 0; p < k; ++p)
        expected += a[i * k + p] * b[p * n + j];
      EXPECT_NEAR(c[i * n + j], expected, 1e-12);
    }
}

TEST(Blas, GemmOnAStridedSubmatrix) {
  // A is the left 2x2 block of a 2x4 buffer: row stride 4.
  std::vector<double> a = {1, 2, 99, 99, 3, 4, 99, 99};
  std::vector<double> b = {5, 6, 7, 8};
  std::vector<double> c(4);
  AmlsMatrixF64 da = descriptor(a, 2, 2, 4), db = descriptor(b, 2, 2, 2),
                dc = descriptor(c, 2, 2, 2);
  _mlir_ciface_amls_rt_gemm_f64(&da, &db, &dc);
  EXPECT_EQ(c, (std::vector<double>{19, 22, 43, 50}));
}

TEST(Blas, GemmAccumulatesAndReadsTransposedViews) {
  // C += t(A) %*% B with A stored 2x2 row-major and read through a
  // column-major (transposed) view.
  std::vector<double> a = {1, 2, 3, 4};
  std::vector<double> b = {5, 6, 7, 8};
  std::vector<double> c = {1, 1, 1, 1};
  AmlsMatrixF64 transposed = {a.data(), a.data(), 0, {2, 2}, {1, 2}};
  AmlsMatrixF64 db = descriptor(b, 2, 2, 2), dc = descriptor(c, 2, 2, 2);
  _mlir_ciface_amls_rt_gemm_f64(&transposed, &db, &dc);
  // t(A) = [[1, 3], [2, 4]]; t(A) %*% B = [[26, 30], [38, 44]].
  EXPECT_EQ(c, (std::vector<double>{27, 31, 39, 45}));
}

/// t(X) %*% X and X %*% t(X) (the shapes of amls.tsmm: syrk) added to a
/// non-zero C, X a rows x cols block of a buffer with row stride `stride`,
/// against the definition.
void checkSymmetricProducts(int64_t rows, int64_t cols, int64_t stride) {
  std::vector<double> x(rows * stride);
  for (int64_t i = 0; i < rows * stride; ++i)
    x[i] = amls_rt_rand(3, i, -1, 1, 1.0, AMLS_PDF_UNIFORM);
  AmlsMatrixF64 plain = descriptor(x, rows, cols, stride);
  AmlsMatrixF64 transposed = {x.data(), x.data(), 0, {cols, rows}, {1, stride}};
  auto at = [&](int64_t i, int64_t j) { return x[i * stride + j]; };

  std::vector<double> gram(cols * cols);
  for (int64_t i = 0; i < cols * cols; ++i)
    gram[i] = static_cast<double>(i);
  std::vector<double> before = gram;
  AmlsMatrixF64 dgram = descriptor(gram, cols, cols, cols);
  _mlir_ciface_amls_rt_gemm_f64(&transposed, &plain, &dgram);
  for (int64_t i = 0; i < cols; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      double expected = before[i * cols + j];
      for (int64_t p = 0; p < rows; ++p)
        expected += at(p, i) * at(p, j);
      ASSERT_NEAR(gram[i * cols + j], expected, 1e-9) << i << "," << j;
    }

  // X %*% t(X), where small enough to check cell by cell.
  if (rows * rows <= 10000) {
    std::vector<double> inner(rows * rows, 1.0);
    AmlsMatrixF64 dinner = descriptor(inner, rows, rows, rows);
    _mlir_ciface_amls_rt_gemm_f64(&plain, &transposed, &dinner);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < rows; ++j) {
        double expected = 1.0;
        for (int64_t p = 0; p < cols; ++p)
          expected += at(i, p) * at(j, p);
        ASSERT_NEAR(inner[i * rows + j], expected, 1e-9) << i << "," << j;
      }
  }
}

TEST(Blas, SymmetricProductsAccumulateBothTriangles) {
  amls_rt_set_num_threads(2);
  checkSymmetricProducts(6, 3, 5);
  // Tall: the threads each form the product of a block of rows.
  checkSymmetricProducts(5000, 30, 33);
}

TEST(Blas, WideSymmetricProductsSplitTheInnerDimension) {
  // X %*% t(X) for a wide X (30 x 5000): blocks of X's columns per thread.
  amls_rt_set_num_threads(2);
  const int64_t rows = 30, cols = 5000;
  std::vector<double> x(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i)
    x[i] = amls_rt_rand(4, i, -1, 1, 1.0, AMLS_PDF_UNIFORM);
  AmlsMatrixF64 plain = descriptor(x, rows, cols, cols);
  AmlsMatrixF64 transposed = {x.data(), x.data(), 0, {cols, rows}, {1, cols}};
  std::vector<double> outer(rows * rows, -2.0);
  AmlsMatrixF64 douter = descriptor(outer, rows, rows, rows);
  _mlir_ciface_amls_rt_gemm_f64(&plain, &transposed, &douter);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < rows; ++j) {
      double expected = -2.0;
      for (int64_t p = 0; p < cols; ++p)
        expected += x[i * cols + p] * x[j * cols + p];
      ASSERT_NEAR(outer[i * rows + j], expected, 1e-9) << i << "," << j;
    }
}

TEST(Blas, MatrixVectorShapesMatchTheDefinition) {
  // X is 3x2; t(X) %*% v, X %*% w and u %*% X go through gemv: check each
  // against hand-computed values, with X read plain and transposed.
  std::vector<double> x = {1, 2, 3, 4, 5, 6};
  std::vector<double> v = {1, 1, 2}, w = {10, 1}, u = {1, 0, -1};
  AmlsMatrixF64 dx = descriptor(x, 3, 2, 2);
  AmlsMatrixF64 transposedX = {x.data(), x.data(), 0, {2, 3}, {1, 2}};

  std::vector<double> xw(3);
  AmlsMatrixF64 dw = descriptor(w, 2, 1, 1), dxw = descriptor(xw, 3, 1, 1);
  _mlir_ciface_amls_rt_gemm_f64(&dx, &dw, &dxw);
  EXPECT_EQ(xw, (std::vector<double>{12, 34, 56}));

  std::vector<double> txv(2);
  AmlsMatrixF64 dv = descriptor(v, 3, 1, 1), dtxv = descriptor(txv, 2, 1, 1);
  _mlir_ciface_amls_rt_gemm_f64(&transposedX, &dv, &dtxv);
  EXPECT_EQ(txv, (std::vector<double>{14, 18}));

  std::vector<double> ux(2);
  AmlsMatrixF64 du = descriptor(u, 1, 3, 3), dux = descriptor(ux, 1, 2, 2);
  _mlir_ciface_amls_rt_gemm_f64(&du, &dx, &dux);
  EXPECT_EQ(ux, (std::vector<double>{-4, -4}));

  // w' t(X) = t(X w): the row-vector form with a transposed right operand.
  std::vector<double> wtx(3);
  AmlsMatrixF64 wRow = descriptor(w, 1, 2, 2), dwtx = descriptor(wtx, 1, 3, 3);
  _mlir_ciface_amls_rt_gemm_f64(&wRow, &transposedX, &dwtx);
  EXPECT_EQ(wtx, (std::vector<double>{12, 34, 56}));
}

TEST(Blas, SinglePrecisionGemm) {
  std::vector<float> a = {1, 2, 3, 4}, b = {5, 6, 7, 8}, c(4), v = {1, 2},
                     av(2);
  auto descriptor32 = [](std::vector<float> &data, int64_t rows, int64_t cols) {
    return AmlsMatrixF32{data.data(), data.data(), 0, {rows, cols}, {cols, 1}};
  };
  AmlsMatrixF32 da = descriptor32(a, 2, 2), db = descriptor32(b, 2, 2),
                dc = descriptor32(c, 2, 2), dv = descriptor32(v, 2, 1),
                dav = descriptor32(av, 2, 1);
  _mlir_ciface_amls_rt_gemm_f32(&da, &db, &dc);
  EXPECT_EQ(c, (std::vector<float>{19, 22, 43, 50}));
  _mlir_ciface_amls_rt_gemm_f32(&da, &dv, &dav);
  EXPECT_EQ(av, (std::vector<float>{5, 11}));
}

/// The OpenBLAS core AMLS should pick, by the first CPU feature present
/// (docs/performance.md: OpenBLAS's own detection picks slower kernels on
/// these CPUs); none of them: OpenBLAS's choice.
constexpr std::pair<const char *, const char *> kCoreByCpuFlag[] = {
    {"avx512f", "SkylakeX"},
    {"avx2", "Haswell"},
};

/// The CPU's feature flags as the kernel reports them (/proc/cpuinfo), not
/// through the compiler's builtins the runtime uses.
std::vector<std::string> cpuFlags() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0)
      continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    return {std::istream_iterator<std::string>(words), {}};
  }
  return {};
}

TEST(Blas, PicksAFastOpenBlasCore) {
  // Loading BLAS sets the core type for this CPU unless the user chose one.
  std::vector<double> one = {1};
  AmlsMatrixF64 d = descriptor(one, 1, 1, 1);
  _mlir_ciface_amls_rt_gemm_f64(&d, &d, &d);
  std::vector<std::string> flags = cpuFlags();
  ASSERT_FALSE(flags.empty()) << "no flags line in /proc/cpuinfo";
  const char *expected = nullptr;
  for (auto [flag, core] : kCoreByCpuFlag)
    if (!expected && std::find(flags.begin(), flags.end(), flag) != flags.end())
      expected = core;
  // A core the user chose is left alone.
  if (!userCoreTypeAtStart.empty())
    expected = userCoreTypeAtStart.c_str();
  const char *chosen = std::getenv("OPENBLAS_CORETYPE");
  if (expected)
    EXPECT_STREQ(chosen, expected);
  else
    EXPECT_EQ(chosen, nullptr) << "a core set on a CPU without AVX2";
}

TEST(Blas, OpenBlasStaysSingleThreaded) {
  // OpenBLAS's own thread count, read through the library the runtime
  // loaded (dlopen of a loaded library returns it again): one, whatever
  // amls_rt_set_num_threads asks for (the BLAS kernels split their work on
  // the OpenMP threads) and around parfor workers.
  amls_rt_set_num_threads(2);
  void *openblas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(openblas, nullptr) << "OpenBLAS (libopenblas.so.0) is not "
                                   "loaded: the runtime needs it";
  auto getThreads =
      reinterpret_cast<int (*)()>(dlsym(openblas, "openblas_get_num_threads"));
  ASSERT_NE(getThreads, nullptr);
  EXPECT_EQ(getThreads(), 1);
  amls_rt_blas_serial(1);
  EXPECT_EQ(getThreads(), 1);
  amls_rt_blas_serial(0);
  EXPECT_EQ(getThreads(), 1);
  dlclose(openblas);
}

TEST(Blas, ThreadedMatrixVectorProductsMatchTheDefinition) {
  // Large enough for gemv to split the matrix among the OpenMP threads:
  // tall X (blocks of rows: disjoint parts of X v, partial sums of t(X) u)
  // and wide X (blocks of columns: partial sums of X v, disjoint parts of
  // t(X) u), each accumulating into C as BLAS does. OpenBLAS's own thread
  // count is the same before and after.
  amls_rt_set_num_threads(2);
  void *openblas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_NOLOAD);
  auto getThreads = openblas ? reinterpret_cast<int (*)()>(
                                   dlsym(openblas, "openblas_get_num_threads"))
                             : nullptr;
  int blasThreads = getThreads ? getThreads() : 0;
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{70001, 7},
                            std::pair<int64_t, int64_t>{5, 60013}}) {
    std::vector<double> x(rows * cols), v(cols), u(rows);
    for (int64_t i = 0; i < rows * cols; ++i)
      x[i] = amls_rt_rand(3, i, -1, 1, 1.0, AMLS_PDF_UNIFORM);
    for (int64_t j = 0; j < cols; ++j)
      v[j] = amls_rt_rand(4, j, -1, 1, 1.0, AMLS_PDF_UNIFORM);
    for (int64_t i = 0; i < rows; ++i)
      u[i] = amls_rt_rand(5, i, -1, 1, 1.0, AMLS_PDF_UNIFORM);
    AmlsMatrixF64 dx = descriptor(x, rows, cols, cols);
    AmlsMatrixF64 transposedX = {
        x.data(), x.data(), 0, {cols, rows}, {1, cols}};

    std::vector<double> xv(rows, 1.0); // C += X v: starts at 1
    AmlsMatrixF64 dv = descriptor(v, cols, 1, 1),
                  dxv = descriptor(xv, rows, 1, 1);
    _mlir_ciface_amls_rt_gemm_f64(&dx, &dv, &dxv);
    for (int64_t i = 0; i < rows; ++i) {
      double expected = 1.0;
      for (int64_t j = 0; j < cols; ++j)
        expected += x[i * cols + j] * v[j];
      ASSERT_NEAR(xv[i], expected, 1e-9) << rows << "x" << cols << " row " << i;
    }

    std::vector<double> txu(cols, -1.0); // C += t(X) u: starts at -1
    AmlsMatrixF64 du = descriptor(u, rows, 1, 1),
                  dtxu = descriptor(txu, cols, 1, 1);
    _mlir_ciface_amls_rt_gemm_f64(&transposedX, &du, &dtxu);
    for (int64_t j = 0; j < cols; ++j) {
      double expected = -1.0;
      for (int64_t i = 0; i < rows; ++i)
        expected += x[i * cols + j] * u[i];
      ASSERT_NEAR(txu[j], expected, 1e-9)
          << rows << "x" << cols << " col " << j;
    }
    if (getThreads)
      EXPECT_EQ(getThreads(), blasThreads);
  }
}

TEST(Blas, ThreadedProductsMatchTheDefinition) {
  // Large enough for gemm to split among the OpenMP threads: by C's rows
  // (tall), by its columns (wide) and, both too few, by the inner dimension
  // (partial products summed). A and B are read plain and transposed; C
  // starts at 0.5 (gemm accumulates).
  amls_rt_set_num_threads(2);
  struct Shape {
    int64_t m, n, k;
  };
  for (Shape s :
       {Shape{3000, 7, 120}, Shape{5, 3000, 150}, Shape{10, 20, 20000}}) {
    for (bool transposed : {false, true}) {
      SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.k) + " * " +
                   std::to_string(s.k) + "x" + std::to_string(s.n) +
                   (transposed ? ", transposed views" : ""));
      std::vector<double> a(s.m * s.k), b(s.k * s.n), c(s.m * s.n, 0.5);
      for (int64_t i = 0; i < s.m * s.k; ++i)
        a[i] = amls_rt_rand(6, i, -1, 1, 1.0, AMLS_PDF_UNIFORM);
      for (int64_t i = 0; i < s.k * s.n; ++i)
        b[i] = amls_rt_rand(7, i, -1, 1, 1.0, AMLS_PDF_UNIFORM);
      // Element (i, p) of A is a[i * k + p] plain, a[p * m + i] transposed.
      auto atA = [&](int64_t i, int64_t p) {
        return transposed ? a[p * s.m + i] : a[i * s.k + p];
      };
      auto atB = [&](int64_t p, int64_t j) {
        return transposed ? b[j * s.k + p] : b[p * s.n + j];
      };
      AmlsMatrixF64 da =
          transposed
              ? AmlsMatrixF64{a.data(), a.data(), 0, {s.m, s.k}, {1, s.m}}
              : descriptor(a, s.m, s.k, s.k);
      AmlsMatrixF64 db =
          transposed
              ? AmlsMatrixF64{b.data(), b.data(), 0, {s.k, s.n}, {1, s.k}}
              : descriptor(b, s.k, s.n, s.n);
      AmlsMatrixF64 dc = descriptor(c, s.m, s.n, s.n);
      _mlir_ciface_amls_rt_gemm_f64(&da, &db, &dc);
      for (int64_t i = 0; i < s.m; ++i)
        for (int64_t j = 0; j < s.n; ++j) {
          double expected = 0.5;
          for (int64_t p = 0; p < s.k; ++p)
            expected += atA(i, p) * atB(p, j);
          ASSERT_NEAR(c[i * s.n + j], expected, 1e-9) << i << "," << j;
        }
    }
  }
}

// libomp's extension, declared weak as in the runtime.
extern "C" int kmp_get_blocktime(void) __attribute__((weak));

TEST(Blas, OpenMPWorkersSleepSoonAfterARegion) {
  // Setting the thread count makes libomp's workers sleep 1 ms after a
  // parallel region (not spin 200 ms against OpenBLAS's threads), unless
  // the user chose a blocktime.
  if (!kmp_get_blocktime || std::getenv("KMP_BLOCKTIME"))
    GTEST_SKIP() << "not libomp, or KMP_BLOCKTIME set by the user";
  amls_rt_set_num_threads(2);
  EXPECT_EQ(kmp_get_blocktime(), 1);
}
