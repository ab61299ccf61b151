// Reorganisation, indexing, generation and size ops, against NumPy.
// Indices are 0-based and half-open in the IR: X[2:5, 1:3].
// RUN: %oracle %s --input X="rng.random((6, 4))" --input d="rng.random((5, 1))" --arg from=2 --arg to=5 --expect "X.T" --expect "X.reshape(3, 8)" --expect "np.diag(d[:, 0])" --expect "np.diag(X[:4, :])[:, None]" --expect "X[::-1, :]" --expect "np.hstack([X, X[:, :1]])" --expect "np.vstack([X, X[:2, :]])" --expect "X[2:5, 1:3]" --expect "np.where(np.arange(6)[:, None] * 0 + np.array([[0, 1, 1, 0]]) * ((np.arange(6) >= 2) & (np.arange(6) < 5))[:, None], 7.0, X)" --expect "np.full((3, 2), 1.5)" --expect "np.arange(2.0, 5.0 + 1e-9, 0.5)[:, None]" --expect "6" --expect "4" --expect "24" --expect "X[1, 2]" -- --threads 2
// RUN: %oracle %s --input X="rng.random((6, 4))" --input d="rng.random((5, 1))" --arg from=2 --arg to=5 --expect "X.T" --expect "X.reshape(3, 8)" --expect "np.diag(d[:, 0])" --expect "np.diag(X[:4, :])[:, None]" --expect "X[::-1, :]" --expect "np.hstack([X, X[:, :1]])" --expect "np.vstack([X, X[:2, :]])" --expect "X[2:5, 1:3]" --expect "np.where(np.arange(6)[:, None] * 0 + np.array([[0, 1, 1, 0]]) * ((np.arange(6) >= 2) & (np.arange(6) < 5))[:, None], 7.0, X)" --expect "np.full((3, 2), 1.5)" --expect "np.arange(2.0, 5.0 + 1e-9, 0.5)[:, None]" --expect "6" --expect "4" --expect "24" --expect "X[1, 2]" --seed 11 -- --threads 1
// Static sizes declared in the program take the same path without '?'.
// RUN: %oracle %s --input X="rng.random((6, 4))" --expect "X.T @ X" --expect "X.sum(axis=0, keepdims=True)" -- --entry static

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %d: !amls.matrix<?x1xf64> {amls.name = "d"},
                %from: index {amls.name = "from"},
                %to: index {amls.name = "to"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64>, index, index, i64,
        f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %seven = arith.constant 7.0 : f64
  %fill = arith.constant 1.5 : f64
  %f2 = arith.constant 2.0 : f64
  %f5 = arith.constant 5.0 : f64
  %half = arith.constant 0.5 : f64
  %0 = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.reshape %X, %c3, %c8 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.diag %d : !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %sq = amls.slice %X[%c0 : %c4, %c0 : %c4] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.diag %sq : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %4 = amls.rev %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %nr = amls.nrow %X : !amls.matrix<?x?xf64>
  %col0 = amls.slice %X[%c0 : %nr, %c0 : %c1] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %5 = amls.cbind %X, %col0 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %nc = amls.ncol %X : !amls.matrix<?x?xf64>
  %top = amls.slice %X[%c0 : %c2, %c0 : %nc] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %6 = amls.rbind %X, %top : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %7 = amls.slice %X[%from : %to, %c1 : %c3] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %rows = arith.subi %to, %from : index
  %patch = amls.fill %seven, %rows, %c2 : f64 -> !amls.matrix<?x?xf64>
  %8 = amls.insert_slice %patch into %X[%from : %to, %c1 : %c3] : !amls.matrix<?x?xf64> into !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %9 = amls.fill %fill, %c3, %c2 : f64 -> !amls.matrix<?x?xf64>
  %10 = amls.seq %f2, %f5, %half : f64 -> !amls.matrix<?x1xf64>
  %n = amls.nnz %X : !amls.matrix<?x?xf64>
  %cell = amls.slice %X[%c1 : %c2, %c2 : %c3] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %12 = amls.as_scalar %cell : !amls.matrix<?x?xf64> -> f64
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %nr, %nc, %n, %12 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64>, index, index, i64, f64
}

func.func @static(%X: !amls.matrix<6x4xf64> {amls.name = "X"})
    -> (!amls.matrix<4x4xf64>, !amls.matrix<1x4xf64>) {
  %0 = amls.tsmm left %X : !amls.matrix<6x4xf64> -> !amls.matrix<4x4xf64>
  %1 = amls.agg sum col %X : !amls.matrix<6x4xf64> -> !amls.matrix<1x4xf64>
  return %0, %1 : !amls.matrix<4x4xf64>, !amls.matrix<1x4xf64>
}
