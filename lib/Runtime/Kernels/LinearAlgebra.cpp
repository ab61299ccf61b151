//===- LinearAlgebra.cpp - solve, inv, det and the factorizations ---------===//
//
// DML's linear-algebra builtins through the LAPACK routines of the OpenBLAS
// the runtime loaded (Blas.cpp). LAPACK works on column-major arrays, so
// every kernel copies its input into one (the factorizations overwrite it
// anyway) and writes its results back into the program's row-major
// buffers.
//
// Results follow SystemDS, which computes them with Apache Commons Math:
// qr returns the Householder vectors H (column j is the reflector that
// maps I - H[,j] %*% t(H[,j]) / H[j,j]) and R, both m x n; lu returns P,
// L and U with P %*% A = L %*% U; eigen of a symmetric matrix returns the
// eigenvalues in ascending order and the eigenvectors as columns; svd
// returns the thin U, diag(s) and V. A singular matrix (solve, inv, lu), a
// matrix that is not positive definite (cholesky) or not symmetric
// (cholesky, eigen), and an input with NaN or infinite cells stop the
// program with an error naming the op, never a silent NaN.
//
//===----------------------------------------------------------------------===//

#include "../Core/Failure.h"
#include "OpenBlas.h"

#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <memory>
#include <numeric>
#include <string>

using amls::runtime::fail;
using amls::runtime::memory::Vector;

namespace {

// The Fortran interfaces (LP64: 32-bit integers). Character arguments
// carry their hidden lengths at the end, as gfortran passes them.
using DgesvFn = void (*)(int *, int *, double *, int *, int *, double *, int *,
                         int *);
using DgetrfFn = void (*)(int *, int *, double *, int *, int *, int *);
using DgetriFn = void (*)(int *, double *, int *, int *, double *, int *,
                          int *);
using DpotrfFn = void (*)(const char *, int *, double *, int *, int *, size_t);
using DgeqrfFn = void (*)(int *, int *, double *, int *, double *, double *,
                          int *, int *);
using DsyevrFn = void (*)(const char *, const char *, const char *, int *,
                          double *, int *, double *, double *, int *, int *,
                          double *, int *, double *, double *, int *, int *,
                          double *, int *, int *, int *, int *, size_t, size_t,
                          size_t);
using DgesddFn = void (*)(const char *, int *, int *, double *, int *, double *,
                          double *, int *, double *, int *, double *, int *,
                          int *, int *, size_t);

/// From this order on, LAPACK runs on OpenBLAS's threads; below it, with
/// OpenBLAS single-threaded: a few milliseconds of work gain little from a
/// second thread, and OpenBLAS's threads, spinning for a while after each
/// call, then competed with the program's parallel loops for the cores
/// (bench/threads.py).
constexpr int64_t kMinThreadedLapackOrder = 512;

/// The kernel being run: its DML name and the op's position for messages.
struct Kernel {
  const char *name;
  const char *where;
  /// OpenBLAS threaded for the kernel's large factorizations.
  std::unique_ptr<amls::runtime::ThreadedBlasSection> threaded = nullptr;

  /// Runs the rest of the kernel on OpenBLAS's threads when its matrices'
  /// larger dimension is large.
  void chooseThreads(int64_t order) {
    if (order >= kMinThreadedLapackOrder && !threaded)
      threaded = std::make_unique<amls::runtime::ThreadedBlasSection>();
  }

  [[noreturn]] void error(const std::string &problem) const {
    std::string message = std::string(name) + ": " + problem;
    fail(where && *where ? std::string(where) + ": " + message : message);
  }

  /// The LAPACK routine `symbol`.
  template <typename Fn> Fn routine(const char *symbol) const {
    auto fn = reinterpret_cast<Fn>(amls::runtime::openBlasSymbol(symbol));
    if (!fn)
      error(std::string("needs the LAPACK routine ") + symbol +
            " of OpenBLAS (libopenblas.so.0), which could not be loaded");
    return fn;
  }

  /// A matrix size as LAPACK's 32-bit integer.
  int lapackSize(int64_t size) const {
    if (size > INT_MAX / 2)
      error("the " + std::to_string(size) +
            "-row or -column matrix is too large for LAPACK");
    return static_cast<int>(size);
  }

  void checkSquare(const AmlsMatrixF64 *a) const {
    if (a->sizes[0] != a->sizes[1])
      error("expects a square matrix, found " + std::to_string(a->sizes[0]) +
            "x" + std::to_string(a->sizes[1]));
  }

  void checkFinite(AmlsMatrixF64 *a) const;
  void checkSymmetric(AmlsMatrixF64 *a) const;

  /// The order of the square, finite (and, with `symmetric`, symmetric)
  /// input `a`; reports any other.
  int squareInput(AmlsMatrixF64 *a, bool symmetric = false) {
    checkSquare(a);
    checkFinite(a);
    if (symmetric)
      checkSymmetric(a);
    chooseThreads(a->sizes[0]);
    return lapackSize(a->sizes[0]);
  }
};

/// A cell's value as messages show it (%g).
std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

double &at(AmlsMatrixF64 *m, int64_t r, int64_t c) {
  return m->aligned[m->offset + r * m->strides[0] + c * m->strides[1]];
}

void Kernel::checkFinite(AmlsMatrixF64 *a) const {
  for (int64_t r = 0; r < a->sizes[0]; ++r)
    for (int64_t c = 0; c < a->sizes[1]; ++c)
      if (!std::isfinite(at(a, r, c)))
        error("the matrix has a NaN or infinite cell at [" +
              std::to_string(r + 1) + ", " + std::to_string(c + 1) + "]");
}

void Kernel::checkSymmetric(AmlsMatrixF64 *a) const {
  // Commons Math's (and so SystemDS's) test: cells may differ by a relative
  // 1e-6, which products such as t(X) %*% X stay well within.
  for (int64_t r = 0; r < a->sizes[0]; ++r)
    for (int64_t c = 0; c < r; ++c) {
      double x = at(a, r, c), y = at(a, c, r);
      if (std::abs(x - y) > 1e-6 * std::max(std::abs(x), std::abs(y)))
        error("the matrix is not symmetric: cell [" + std::to_string(r + 1) +
              ", " + std::to_string(c + 1) + "] is " + number(x) + " but [" +
              std::to_string(c + 1) + ", " + std::to_string(r + 1) + "] is " +
              number(y));
    }
}

/// A column-major copy of `m` (leading dimension at least 1).
Vector<double> columnMajor(AmlsMatrixF64 *m) {
  int64_t rows = m->sizes[0], cols = m->sizes[1];
  Vector<double> out(std::max<int64_t>(rows * cols, 1));
  for (int64_t c = 0; c < cols; ++c)
    for (int64_t r = 0; r < rows; ++r)
      out[c * rows + r] = at(m, r, c);
  return out;
}

/// Writes the column-major rows x cols array `in` (leading dimension `ld`)
/// into `out`.
void fromColumnMajor(const double *in, int64_t ld, AmlsMatrixF64 *out) {
  for (int64_t r = 0; r < out->sizes[0]; ++r)
    for (int64_t c = 0; c < out->sizes[1]; ++c)
      at(out, r, c) = in[c * ld + r];
}

void fill(AmlsMatrixF64 *out, double value) {
  for (int64_t r = 0; r < out->sizes[0]; ++r)
    for (int64_t c = 0; c < out->sizes[1]; ++c)
      at(out, r, c) = value;
}

/// The LU factorization of the square `a` in place (dgetrf): the 1-based
/// pivots, and the position of the first zero pivot (1-based; 0 if none).
int factorLU(const Kernel &kernel, Vector<double> &a, int n,
             Vector<int> &pivots) {
  auto dgetrf = kernel.routine<DgetrfFn>("dgetrf_");
  pivots.assign(std::max(n, 1), 0);
  int lda = std::max(n, 1), info = 0;
  dgetrf(&n, &n, a.data(), &lda, pivots.data(), &info);
  if (info < 0)
    kernel.error("dgetrf rejected argument " + std::to_string(-info));
  return info;
}

[[noreturn]] void singular(const Kernel &kernel, int pivot) {
  kernel.error("the matrix is singular (pivot " + std::to_string(pivot) +
               " of its LU factorization is zero)");
}

/// The optimal workspace size a LAPACK workspace query returned.
int workspaceSize(double query) { return std::max(1, static_cast<int>(query)); }

} // namespace

extern "C" void _mlir_ciface_amls_rt_solve(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                                           AmlsMatrixF64 *out,
                                           const char *where) {
  Kernel kernel{"solve", where};
  int n = kernel.squareInput(a);
  if (b->sizes[0] != n)
    kernel.error("the right-hand side has " + std::to_string(b->sizes[0]) +
                 " rows, but the matrix has " + std::to_string(n));
  int nrhs = kernel.lapackSize(b->sizes[1]);
  if (n == 0 || nrhs == 0)
    return;
  auto dgesv = kernel.routine<DgesvFn>("dgesv_");
  Vector<double> lu = columnMajor(a), x = columnMajor(b);
  Vector<int> pivots(n);
  int info = 0;
  dgesv(&n, &nrhs, lu.data(), &n, pivots.data(), x.data(), &n, &info);
  if (info > 0)
    singular(kernel, info);
  if (info < 0)
    kernel.error("dgesv rejected argument " + std::to_string(-info));
  fromColumnMajor(x.data(), n, out);
}

extern "C" void _mlir_ciface_amls_rt_inv(AmlsMatrixF64 *a, AmlsMatrixF64 *out,
                                         const char *where) {
  Kernel kernel{"inv", where};
  int n = kernel.squareInput(a);
  if (n == 0)
    return;
  Vector<double> lu = columnMajor(a);
  Vector<int> pivots;
  if (int zero = factorLU(kernel, lu, n, pivots))
    singular(kernel, zero);
  auto dgetri = kernel.routine<DgetriFn>("dgetri_");
  int lwork = -1, info = 0;
  double query = 0;
  dgetri(&n, lu.data(), &n, pivots.data(), &query, &lwork, &info);
  lwork = workspaceSize(query);
  Vector<double> work(lwork);
  dgetri(&n, lu.data(), &n, pivots.data(), work.data(), &lwork, &info);
  if (info != 0)
    kernel.error("dgetri failed with info " + std::to_string(info));
  fromColumnMajor(lu.data(), n, out);
}

extern "C" double _mlir_ciface_amls_rt_det(AmlsMatrixF64 *a,
                                           const char *where) {
  Kernel kernel{"det", where};
  int n = kernel.squareInput(a);
  if (n == 0)
    return 1.0; // the empty product
  Vector<double> lu = columnMajor(a);
  Vector<int> pivots;
  // A zero pivot is a singular matrix: its zero is in the product below.
  factorLU(kernel, lu, n, pivots);
  double det = 1.0;
  for (int i = 0; i < n; ++i) {
    det *= lu[static_cast<size_t>(i) * n + i];
    if (pivots[i] != i + 1)
      det = -det;
  }
  return det;
}

extern "C" void _mlir_ciface_amls_rt_cholesky(AmlsMatrixF64 *a,
                                              AmlsMatrixF64 *out,
                                              const char *where) {
  Kernel kernel{"cholesky", where};
  int n = kernel.squareInput(a, /*symmetric=*/true);
  if (n == 0)
    return;
  auto dpotrf = kernel.routine<DpotrfFn>("dpotrf_");
  Vector<double> l = columnMajor(a);
  int info = 0;
  dpotrf("L", &n, l.data(), &n, &info, 1);
  if (info > 0)
    kernel.error("the matrix is not positive definite (its leading minor of "
                 "order " +
                 std::to_string(info) + " is not positive)");
  if (info < 0)
    kernel.error("dpotrf rejected argument " + std::to_string(-info));
  // dpotrf leaves the upper triangle as it was.
  for (int c = 1; c < n; ++c)
    for (int r = 0; r < c; ++r)
      l[static_cast<size_t>(c) * n + r] = 0.0;
  fromColumnMajor(l.data(), n, out);
}

extern "C" void _mlir_ciface_amls_rt_qr(AmlsMatrixF64 *a, AmlsMatrixF64 *h,
                                        AmlsMatrixF64 *r, const char *where) {
  Kernel kernel{"qr", where};
  kernel.checkFinite(a);
  int m = kernel.lapackSize(a->sizes[0]), n = kernel.lapackSize(a->sizes[1]);
  kernel.chooseThreads(std::max(m, n));
  fill(h, 0.0);
  fill(r, 0.0);
  int k = std::min(m, n);
  if (k == 0)
    return;
  auto dgeqrf = kernel.routine<DgeqrfFn>("dgeqrf_");
  Vector<double> qr = columnMajor(a), tau(k);
  int lwork = -1, info = 0;
  double query = 0;
  dgeqrf(&m, &n, qr.data(), &m, tau.data(), &query, &lwork, &info);
  lwork = workspaceSize(query);
  Vector<double> work(lwork);
  dgeqrf(&m, &n, qr.data(), &m, tau.data(), work.data(), &lwork, &info);
  if (info != 0)
    kernel.error("dgeqrf failed with info " + std::to_string(info));
  auto cell = [&](int row, int col) -> double & {
    return qr[static_cast<size_t>(col) * m + row];
  };
  for (int j = 0; j < k; ++j) {
    // LAPACK's reflector j is I - tau v v' with v[j] = 1 and v below the
    // diagonal in column j; Commons Math's is I - h h' / h[j] with
    // h = tau v. Where the column is already reduced LAPACK reflects
    // nothing (tau = 0) but Commons Math still maps x[j] to -x[j]
    // (h = 2 e_j): R's row j changes sign. A zero column stays zero.
    double sign = 1.0;
    if (tau[j] == 0.0 && cell(j, j) != 0.0) {
      sign = -1.0;
      at(h, j, j) = 2.0;
    } else if (tau[j] != 0.0) {
      at(h, j, j) = tau[j];
      for (int i = j + 1; i < m; ++i)
        at(h, i, j) = tau[j] * cell(i, j);
    }
    for (int c = j; c < n; ++c)
      at(r, j, c) = sign * cell(j, c);
  }
}

extern "C" void _mlir_ciface_amls_rt_lu(AmlsMatrixF64 *a, AmlsMatrixF64 *p,
                                        AmlsMatrixF64 *l, AmlsMatrixF64 *u,
                                        const char *where) {
  Kernel kernel{"lu", where};
  int n = kernel.squareInput(a);
  fill(p, 0.0);
  fill(l, 0.0);
  fill(u, 0.0);
  if (n == 0)
    return;
  Vector<double> lu = columnMajor(a);
  Vector<int> pivots;
  // Commons Math (SystemDS) has no factors of a singular matrix.
  if (int zero = factorLU(kernel, lu, n, pivots))
    singular(kernel, zero);
  // dgetrf swapped row i with row pivots[i] - 1, in order: row i of P A is
  // row order[i] of A.
  Vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  for (int i = 0; i < n; ++i)
    std::swap(order[i], order[pivots[i] - 1]);
  for (int i = 0; i < n; ++i) {
    at(p, i, order[i]) = 1.0;
    at(l, i, i) = 1.0;
    for (int j = 0; j < n; ++j) {
      double value = lu[static_cast<size_t>(j) * n + i];
      if (j < i)
        at(l, i, j) = value;
      else
        at(u, i, j) = value;
    }
  }
}

extern "C" void _mlir_ciface_amls_rt_eigen(AmlsMatrixF64 *a,
                                           AmlsMatrixF64 *values,
                                           AmlsMatrixF64 *vectors,
                                           const char *where) {
  Kernel kernel{"eigen", where};
  int n = kernel.squareInput(a, /*symmetric=*/true);
  if (n == 0)
    return;
  auto dsyevr = kernel.routine<DsyevrFn>("dsyevr_");
  Vector<double> lower = columnMajor(a), w(n), z(static_cast<size_t>(n) * n);
  Vector<int> support(2 * static_cast<size_t>(n));
  double vl = 0, vu = 0, abstol = 0, workQuery = 0;
  int il = 0, iu = 0, found = 0, lwork = -1, liwork = -1, iworkQuery = 0,
      info = 0;
  auto run = [&](double *work, int *iwork) {
    dsyevr("V", "A", "L", &n, lower.data(), &n, &vl, &vu, &il, &iu, &abstol,
           &found, w.data(), z.data(), &n, support.data(), work, &lwork, iwork,
           &liwork, &info, 1, 1, 1);
  };
  run(&workQuery, &iworkQuery);
  lwork = workspaceSize(workQuery);
  liwork = std::max(1, iworkQuery);
  Vector<double> work(lwork);
  Vector<int> iwork(liwork);
  run(work.data(), iwork.data());
  if (info != 0 || found != n)
    kernel.error("dsyevr did not converge (info " + std::to_string(info) + ")");
  // dsyevr returns the eigenvalues in ascending order, as SystemDS does.
  for (int i = 0; i < n; ++i)
    at(values, i, 0) = w[i];
  fromColumnMajor(z.data(), n, vectors);
}

extern "C" void _mlir_ciface_amls_rt_svd(AmlsMatrixF64 *a, AmlsMatrixF64 *u,
                                         AmlsMatrixF64 *s, AmlsMatrixF64 *v,
                                         const char *where) {
  Kernel kernel{"svd", where};
  kernel.checkFinite(a);
  int m = kernel.lapackSize(a->sizes[0]), n = kernel.lapackSize(a->sizes[1]);
  kernel.chooseThreads(std::max(m, n));
  int k = std::min(m, n);
  fill(s, 0.0);
  if (k == 0)
    return;
  auto dgesdd = kernel.routine<DgesddFn>("dgesdd_");
  Vector<double> copy = columnMajor(a), sigma(k),
                 left(static_cast<size_t>(m) * k),
                 rightT(static_cast<size_t>(k) * n);
  Vector<int> iwork(8 * static_cast<size_t>(k));
  int lwork = -1, info = 0;
  double query = 0;
  dgesdd("S", &m, &n, copy.data(), &m, sigma.data(), left.data(), &m,
         rightT.data(), &k, &query, &lwork, iwork.data(), &info, 1);
  lwork = workspaceSize(query);
  Vector<double> work(lwork);
  dgesdd("S", &m, &n, copy.data(), &m, sigma.data(), left.data(), &m,
         rightT.data(), &k, work.data(), &lwork, iwork.data(), &info, 1);
  if (info != 0)
    kernel.error("dgesdd did not converge (info " + std::to_string(info) + ")");
  fromColumnMajor(left.data(), m, u);
  for (int i = 0; i < k; ++i)
    at(s, i, i) = sigma[i];
  // V is the transpose of the k x n VT (column-major, leading dimension k).
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < k; ++c)
      at(v, r, c) = rightT[static_cast<size_t>(r) * k + c];
}

extern "C" void _mlir_ciface_amls_rt_triangle(AmlsMatrixF64 *x,
                                              AmlsMatrixF64 *out, int32_t lower,
                                              int32_t diagonal,
                                              int32_t values) {
  for (int64_t r = 0; r < x->sizes[0]; ++r)
    for (int64_t c = 0; c < x->sizes[1]; ++c) {
      bool inside = r == c ? diagonal != 0 : (lower ? r > c : r < c);
      at(out, r, c) = !inside ? 0.0 : values ? at(x, r, c) : 1.0;
    }
}
