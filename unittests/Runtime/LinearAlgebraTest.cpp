//===- LinearAlgebraTest.cpp - solve, inv, det and the factorizations -----===//
//
// Small matrices with results derived by hand (and, for qr, SystemDS's
// Commons Math conventions), properties (A = U S t(V), A v = lambda v) on
// a larger one, and the errors: singular, non-square, not positive
// definite, not symmetric, NaN.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <dlfcn.h>
#include <vector>

namespace {
struct Dense {
  Dense(int64_t rows, int64_t cols, std::vector<double> values = {})
      : data(values.empty() ? std::vector<double>(rows * cols) : values),
        desc{data.data(), data.data(), 0, {rows, cols}, {cols, 1}} {}
  double operator()(int64_t r, int64_t c) const {
    return data[r * desc.sizes[1] + c];
  }
  std::vector<double> data;
  AmlsMatrixF64 desc;
};

void expectNear(const std::vector<double> &actual,
                const std::vector<double> &expected, double tolerance = 1e-12) {
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_NEAR(actual[i], expected[i], tolerance) << "cell " << i;
}

/// a %*% b.
Dense product(const Dense &a, const Dense &b, bool transposeB = false) {
  int64_t n = a.desc.sizes[0], k = a.desc.sizes[1];
  int64_t m = transposeB ? b.desc.sizes[0] : b.desc.sizes[1];
  Dense out(n, m);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < m; ++j)
      for (int64_t l = 0; l < k; ++l)
        out.data[i * m + j] += a(i, l) * (transposeB ? b(j, l) : b(l, j));
  return out;
}

/// A symmetric positive definite n x n matrix: M t(M) + n I.
Dense spd(int64_t n) {
  Dense m(n, n);
  for (int64_t i = 0; i < n * n; ++i)
    m.data[i] = std::sin(0.7 * i + 1.0);
  Dense a = product(m, m, /*transposeB=*/true);
  for (int64_t i = 0; i < n; ++i)
    a.data[i * n + i] += n;
  return a;
}
} // namespace

TEST(LinearAlgebra, SolveInverseDeterminant) {
  Dense a(2, 2, {2, 1, 1, 3}), b(2, 1, {3, 5}), x(2, 1);
  _mlir_ciface_amls_rt_solve(&a.desc, &b.desc, &x.desc, "");
  expectNear(x.data, {0.8, 1.4});
  Dense inverse(2, 2);
  _mlir_ciface_amls_rt_inv(&a.desc, &inverse.desc, "");
  expectNear(inverse.data, {0.6, -0.2, -0.2, 0.4});
  EXPECT_NEAR(_mlir_ciface_amls_rt_det(&a.desc, ""), 5.0, 1e-12);
  // A row swap changes the sign; a singular matrix has determinant 0; the
  // empty matrix has 1.
  Dense swap(2, 2, {0, 1, 1, 0}), singular(2, 2, {1, 2, 2, 4}), empty(0, 0);
  EXPECT_NEAR(_mlir_ciface_amls_rt_det(&swap.desc, ""), -1.0, 1e-12);
  EXPECT_EQ(_mlir_ciface_amls_rt_det(&singular.desc, ""), 0.0);
  EXPECT_EQ(_mlir_ciface_amls_rt_det(&empty.desc, ""), 1.0);
}

TEST(LinearAlgebra, SolveReadsStridedViews) {
  // The transpose of [[2, 1], [1, 3]] viewed column-major: the same matrix.
  std::vector<double> cells{2, 1, 1, 3};
  AmlsMatrixF64 a{cells.data(), cells.data(), 0, {2, 2}, {1, 2}};
  Dense b(2, 2, {3, 1, 5, 0}), x(2, 2);
  _mlir_ciface_amls_rt_solve(&a, &b.desc, &x.desc, "");
  expectNear(x.data, {0.8, 0.6, 1.4, -0.2});
}

TEST(LinearAlgebra, Cholesky) {
  Dense a(2, 2, {4, 2, 2, 5}), l(2, 2);
  _mlir_ciface_amls_rt_cholesky(&a.desc, &l.desc, "");
  expectNear(l.data, {2, 0, 1, 2});
  Dense big = spd(30), bigL(30, 30);
  _mlir_ciface_amls_rt_cholesky(&big.desc, &bigL.desc, "");
  expectNear(product(bigL, bigL, /*transposeB=*/true).data, big.data, 1e-9);
  for (int64_t i = 0; i < 30; ++i)
    for (int64_t j = i + 1; j < 30; ++j)
      EXPECT_EQ(bigL(i, j), 0.0);
}

TEST(LinearAlgebra, QRFollowsCommonsMath) {
  // x = (3, 4): the reflector maps it to (-5, 0); h = (x + 5 e1) / 5.
  Dense a(2, 1, {3, 4}), h(2, 1), r(2, 1);
  _mlir_ciface_amls_rt_qr(&a.desc, &h.desc, &r.desc, "");
  expectNear(h.data, {1.6, 0.8});
  expectNear(r.data, {-5, 0});
  // A reduced column is still reflected: x -> -x, h = 2 e_j.
  Dense one(1, 1, {5}), h1(1, 1), r1(1, 1);
  _mlir_ciface_amls_rt_qr(&one.desc, &h1.desc, &r1.desc, "");
  expectNear(h1.data, {2});
  expectNear(r1.data, {-5});
  // Q = prod (I - h h' / h[j]) reproduces A = Q R on a 5 x 3 matrix.
  Dense x(5, 3), hx(5, 3), rx(5, 3);
  for (int i = 0; i < 15; ++i)
    x.data[i] = std::cos(1.3 * i);
  _mlir_ciface_amls_rt_qr(&x.desc, &hx.desc, &rx.desc, "");
  Dense qr = rx;
  for (int j = 2; j >= 0; --j) {
    // qr = (I - h h' / h[j]) qr
    for (int c = 0; c < 3; ++c) {
      double dot = 0;
      for (int i = 0; i < 5; ++i)
        dot += hx(i, j) * qr(i, c);
      for (int i = 0; i < 5; ++i)
        qr.data[i * 3 + c] -= hx(i, j) * dot / hx(j, j);
    }
  }
  expectNear(qr.data, x.data, 1e-12);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < std::min(i, 3); ++j)
      EXPECT_EQ(rx(i, j), 0.0);
}

TEST(LinearAlgebra, LUWithPartialPivoting) {
  Dense a(2, 2, {1, 2, 3, 4}), p(2, 2), l(2, 2), u(2, 2);
  _mlir_ciface_amls_rt_lu(&a.desc, &p.desc, &l.desc, &u.desc, "");
  expectNear(p.data, {0, 1, 1, 0});
  expectNear(l.data, {1, 0, 1.0 / 3, 1});
  expectNear(u.data, {3, 4, 0, 2.0 / 3});
  Dense big = spd(12);
  big.data[5] = -40; // not symmetric any more: pivoting moves rows
  Dense bp(12, 12), bl(12, 12), bu(12, 12);
  _mlir_ciface_amls_rt_lu(&big.desc, &bp.desc, &bl.desc, &bu.desc, "");
  expectNear(product(bp, big).data, product(bl, bu).data, 1e-10);
}

TEST(LinearAlgebra, EigenAscending) {
  Dense a(2, 2, {2, 1, 1, 2}), values(2, 1), vectors(2, 2);
  _mlir_ciface_amls_rt_eigen(&a.desc, &values.desc, &vectors.desc, "");
  expectNear(values.data, {1, 3});
  // Unit eigenvectors (up to sign): (1, -1) / sqrt(2) and (1, 1) / sqrt(2).
  double s = std::sqrt(0.5);
  EXPECT_NEAR(std::abs(vectors(0, 0)), s, 1e-12);
  EXPECT_NEAR(vectors(0, 0), -vectors(1, 0), 1e-12);
  EXPECT_NEAR(vectors(0, 1), vectors(1, 1), 1e-12);
  Dense big = spd(20), bigValues(20, 1), bigVectors(20, 20);
  _mlir_ciface_amls_rt_eigen(&big.desc, &bigValues.desc, &bigVectors.desc, "");
  Dense av = product(big, bigVectors);
  for (int i = 0; i < 20; ++i) {
    if (i > 0) {
      EXPECT_LE(bigValues(i - 1, 0), bigValues(i, 0));
    }
    for (int j = 0; j < 20; ++j)
      EXPECT_NEAR(av(i, j), bigValues(j, 0) * bigVectors(i, j), 1e-9);
  }
}

TEST(LinearAlgebra, ThinSVD) {
  Dense a(3, 2, {1, 2, 3, 4, 5, 6}), u(3, 2), s(2, 2), v(2, 2);
  _mlir_ciface_amls_rt_svd(&a.desc, &u.desc, &s.desc, &v.desc, "");
  // The singular values of this matrix: sqrt((91 +- sqrt(8185)) / 2).
  EXPECT_NEAR(s(0, 0), std::sqrt((91 + std::sqrt(8185.0)) / 2), 1e-12);
  EXPECT_NEAR(s(1, 1), std::sqrt((91 - std::sqrt(8185.0)) / 2), 1e-12);
  EXPECT_EQ(s(0, 1), 0.0);
  expectNear(product(product(u, s), v, /*transposeB=*/true).data, a.data,
             1e-12);
  // A wide matrix: U is m x m, V n x m.
  Dense w(2, 3, {1, 0, 2, 0, 3, 0}), wu(2, 2), ws(2, 2), wv(3, 2);
  _mlir_ciface_amls_rt_svd(&w.desc, &wu.desc, &ws.desc, &wv.desc, "");
  expectNear(product(product(wu, ws), wv, /*transposeB=*/true).data, w.data,
             1e-12);
}

TEST(LinearAlgebra, Triangles) {
  Dense x(2, 3, {1, 2, 3, 4, 5, 6}), out(2, 3);
  _mlir_ciface_amls_rt_triangle(&x.desc, &out.desc, 1, 0, 1);
  expectNear(out.data, {0, 0, 0, 4, 0, 0});
  _mlir_ciface_amls_rt_triangle(&x.desc, &out.desc, 1, 1, 0);
  expectNear(out.data, {1, 0, 0, 1, 1, 0});
  _mlir_ciface_amls_rt_triangle(&x.desc, &out.desc, 0, 1, 1);
  expectNear(out.data, {1, 2, 3, 0, 5, 6});
  _mlir_ciface_amls_rt_triangle(&x.desc, &out.desc, 0, 0, 0);
  expectNear(out.data, {0, 1, 1, 0, 0, 1});
}

TEST(LinearAlgebraDeathTest, SingularMatrices) {
  Dense a(2, 2, {1, 2, 2, 4}), b(2, 1, {1, 1}), x(2, 1), p(2, 2), l(2, 2),
      u(2, 2);
  EXPECT_EXIT(_mlir_ciface_amls_rt_solve(&a.desc, &b.desc, &x.desc,
                                         "'amls.solve' at f.dml:3:5"),
              ::testing::ExitedWithCode(1),
              "'amls.solve' at f.dml:3:5: solve: the matrix is singular "
              "\\(pivot 2 of its LU factorization is zero\\)");
  EXPECT_EXIT(_mlir_ciface_amls_rt_inv(&a.desc, &p.desc, ""),
              ::testing::ExitedWithCode(1), "inv: the matrix is singular");
  EXPECT_EXIT(_mlir_ciface_amls_rt_lu(&a.desc, &p.desc, &l.desc, &u.desc, ""),
              ::testing::ExitedWithCode(1), "lu: the matrix is singular");
}

TEST(LinearAlgebraDeathTest, ShapesAndValues) {
  Dense wide(2, 3), out(2, 3), b(3, 1), x(2, 1);
  EXPECT_EXIT(_mlir_ciface_amls_rt_inv(&wide.desc, &out.desc, ""),
              ::testing::ExitedWithCode(1),
              "inv: expects a square matrix, found 2x3");
  Dense a(2, 2, {2, 1, 1, 3});
  EXPECT_EXIT(_mlir_ciface_amls_rt_solve(&a.desc, &b.desc, &x.desc, ""),
              ::testing::ExitedWithCode(1),
              "solve: the right-hand side has 3 rows, but the matrix has 2");
  Dense nan(2, 2, {1, 0, 0, NAN}), values(2, 1), vectors(2, 2);
  EXPECT_EXIT(
      _mlir_ciface_amls_rt_eigen(&nan.desc, &values.desc, &vectors.desc, ""),
      ::testing::ExitedWithCode(1),
      "eigen: the matrix has a NaN or infinite cell at \\[2, 2\\]");
}

TEST(LinearAlgebraDeathTest, CholeskyNeedsSymmetricPositiveDefinite) {
  Dense indefinite(2, 2, {1, 2, 2, 1}), l(2, 2);
  EXPECT_EXIT(_mlir_ciface_amls_rt_cholesky(&indefinite.desc, &l.desc, ""),
              ::testing::ExitedWithCode(1),
              "cholesky: the matrix is not positive definite \\(its leading "
              "minor of order 2 is not positive\\)");
  Dense skew(2, 2, {4, 1, 2, 5});
  EXPECT_EXIT(_mlir_ciface_amls_rt_cholesky(&skew.desc, &l.desc, ""),
              ::testing::ExitedWithCode(1),
              "cholesky: the matrix is not symmetric: cell \\[2, 1\\] is "
              "2 but \\[1, 2\\] is 1");
  Dense values(2, 1), vectors(2, 2);
  EXPECT_EXIT(
      _mlir_ciface_amls_rt_eigen(&skew.desc, &values.desc, &vectors.desc, ""),
      ::testing::ExitedWithCode(1), "eigen: the matrix is not symmetric");
}

TEST(LinearAlgebra, LapackLeavesOpenBlasSingleThreaded) {
  // A small solve runs with OpenBLAS single-threaded, a large one on
  // OpenBLAS's threads; both leave OpenBLAS single-threaded after, and the
  // large one solves A x = A 1 (x = 1).
  amls_rt_set_num_threads(2);
  void *openblas = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_NOLOAD);
  ASSERT_NE(openblas, nullptr) << "OpenBLAS (libopenblas.so.0) is not "
                                   "loaded: the runtime needs it";
  auto getThreads =
      reinterpret_cast<int (*)()>(dlsym(openblas, "openblas_get_num_threads"));
  ASSERT_NE(getThreads, nullptr);
  Dense a(2, 2, {2, 1, 1, 3}), b(2, 1, {3, 5}), x(2, 1);
  _mlir_ciface_amls_rt_solve(&a.desc, &b.desc, &x.desc, "");
  expectNear(x.data, {0.8, 1.4});
  EXPECT_EQ(getThreads(), 1);
  const int64_t n = 600;
  Dense large(n, n), rhs(n, 1), solution(n, 1);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      large.data[i * n + j] = i == j ? n : std::sin(0.3 * i + 0.7 * j);
      rhs.data[i] += large.data[i * n + j];
    }
  _mlir_ciface_amls_rt_solve(&large.desc, &rhs.desc, &solution.desc, "");
  expectNear(solution.data, std::vector<double>(n, 1.0), 1e-10);
  EXPECT_EQ(getThreads(), 1);
  dlclose(openblas);
}
