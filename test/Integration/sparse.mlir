// CSR kernels against NumPy: products (SpMV, t(X) %*% u without the
// transpose, SpGEMM), aggregates with implicit zeros, sparse-safe and
// pattern-keeping element-wise ops, merges, transposes, slices,
// concatenation and nnz, A * r with a row vector r, on a matrix with empty rows and an empty column,
// an all-zero and a fully dense matrix, and a 3000x200 matrix with a full
// (long) column for the per-thread partial results at 2 threads. The
// oracle runs every configuration, including --formats=csr (every matrix
// CSR where a kernel exists) and --formats=dense, and compares them.
// RUN: %oracle %s --input X="np.array([[0, 1.5, 0, 0, -2], [0, 0, 0, 0, 0], [3, 0, 0, 0.5, 0], [0, 0, 0, 0, 0], [-1, 0, 0, 2, 0], [0, 4, 0, 0, 1.0]])" --input Y="rng.random((6, 5))" --input v="rng.random((5, 1))" --input u="rng.random((6, 1))" --input r="rng.random((1, 5)) + 0.5" --input L="np.where(np.arange(200)[None, :] == 7, 1.0, (rng.random((3000, 200)) < 0.05) * rng.random((3000, 200)))" --input w="rng.random((3000, 1))" --input Z="np.zeros((5, 5))" --input F="rng.random((4, 3)) + 0.1" --expect "X @ v" --expect "X.T @ u" --expect "X * Y" --expect "X / r" --expect "3 * X" --expect "X.sum()" --expect "X.min()" --expect "X.max()" --expect "X.sum(axis=1, keepdims=True)" --expect "X.max(axis=0, keepdims=True)" --expect "X.mean(axis=0, keepdims=True)" --expect "X.T" --expect "X[1:4, 0:3]" --expect "np.hstack([X, X])" --expect "np.vstack([X, X])" --expect "np.count_nonzero(X)" --expect "L.T @ w" --expect "L.sum(axis=0, keepdims=True)" --expect "X @ X.T" --expect "Z.max()" --expect "Z.sum(axis=1, keepdims=True)" --expect "F.min()" --input s="rng.random((1, 200)) - 0.5" --expect "np.abs(X - 0) * 2" --expect "L * s" -- --threads 1
// RUN: %oracle %s --input X="np.array([[0, 1.5, 0, 0, -2], [0, 0, 0, 0, 0], [3, 0, 0, 0.5, 0], [0, 0, 0, 0, 0], [-1, 0, 0, 2, 0], [0, 4, 0, 0, 1.0]])" --input Y="rng.random((6, 5))" --input v="rng.random((5, 1))" --input u="rng.random((6, 1))" --input r="rng.random((1, 5)) + 0.5" --input L="np.where(np.arange(200)[None, :] == 7, 1.0, (rng.random((3000, 200)) < 0.05) * rng.random((3000, 200)))" --input w="rng.random((3000, 1))" --input Z="np.zeros((5, 5))" --input F="rng.random((4, 3)) + 0.1" --expect "X @ v" --expect "X.T @ u" --expect "X * Y" --expect "X / r" --expect "3 * X" --expect "X.sum()" --expect "X.min()" --expect "X.max()" --expect "X.sum(axis=1, keepdims=True)" --expect "X.max(axis=0, keepdims=True)" --expect "X.mean(axis=0, keepdims=True)" --expect "X.T" --expect "X[1:4, 0:3]" --expect "np.hstack([X, X])" --expect "np.vstack([X, X])" --expect "np.count_nonzero(X)" --expect "L.T @ w" --expect "L.sum(axis=0, keepdims=True)" --expect "X @ X.T" --expect "Z.max()" --expect "Z.sum(axis=1, keepdims=True)" --expect "F.min()" --input s="rng.random((1, 200)) - 0.5" --expect "np.abs(X - 0) * 2" --expect "L * s" --seed 3 -- --threads 2

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"},
                %v: !amls.matrix<?x1xf64> {amls.name = "v"},
                %u: !amls.matrix<?x1xf64> {amls.name = "u"},
                %r: !amls.matrix<1x?xf64> {amls.name = "r"},
                %L: !amls.matrix<?x?xf64> {amls.name = "L"},
                %w: !amls.matrix<?x1xf64> {amls.name = "w"},
                %Z: !amls.matrix<?x?xf64> {amls.name = "Z"},
                %F: !amls.matrix<?x?xf64> {amls.name = "F"},
                %s: !amls.matrix<1x?xf64> {amls.name = "s"})
    -> (!amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64, f64, f64,
        !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, i64, !amls.matrix<?x1xf64>,
        !amls.matrix<1x?xf64>, !amls.matrix<?x?xf64>, f64,
        !amls.matrix<?x1xf64>, f64, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f64
  %0 = amls.matmul %X, %v : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.matmul %t, %u : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %2 = amls.mul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.div %X, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %x2 = amls.mul %X, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %4 = amls.add %X, %x2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %5 = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
  %6 = amls.agg min all %X : !amls.matrix<?x?xf64> -> f64
  %7 = amls.agg max all %X : !amls.matrix<?x?xf64> -> f64
  %8 = amls.agg sum row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %9 = amls.agg max col %X : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %10 = amls.agg mean col %X : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %11 = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %12 = amls.slice %X[%c1 : %c4, %c0 : %c3] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %13 = amls.cbind %X, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %14 = amls.rbind %X, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %15 = amls.nnz %X : !amls.matrix<?x?xf64>
  %lt = amls.transpose %L : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %16 = amls.matmul %lt, %w : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %17 = amls.agg sum col %L : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %18 = amls.matmul %X, %11 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %19 = amls.agg max all %Z : !amls.matrix<?x?xf64> -> f64
  %20 = amls.agg sum row %Z : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %21 = amls.agg min all %F : !amls.matrix<?x?xf64> -> f64
  %a = amls.abs %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %22 = amls.mul %a, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %23 = amls.mul %L, %s : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23
      : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64, f64, f64,
        !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, i64, !amls.matrix<?x1xf64>,
        !amls.matrix<1x?xf64>, !amls.matrix<?x?xf64>, f64,
        !amls.matrix<?x1xf64>, f64, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>
}
