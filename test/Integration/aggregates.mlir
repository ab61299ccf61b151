// Aggregates on every axis, trace and cumulative aggregates, against NumPy
// (var and sd are unbiased, maxindex/minindex 1-based).
// RUN: %oracle %s --input X="rng.random((25, 13)) - 0.3" --rtol 1e-9 --atol 1e-9 --expect "X.sum()" --expect "(X**2).sum(axis=1, keepdims=True)" --expect "X.min(axis=0, keepdims=True)" --expect "X.max()" --expect "X.mean(axis=1, keepdims=True)" --expect "np.prod(X[:, :3] + 1, axis=0, keepdims=True)" --expect "X.var(ddof=1)" --expect "X.std(axis=0, ddof=1, keepdims=True)" --expect "np.argmax(X, axis=1)[:, None] + 1" --expect "np.argmin(X, axis=0)[None, :] + 1" --expect "np.trace(X[:13, :])" --expect "np.cumsum(X, axis=0)" --expect "np.cumprod(X + 1, axis=0)" --expect "np.minimum.accumulate(X, axis=0)" --expect "np.maximum.accumulate(X, axis=0)" -- --threads 2
// RUN: %oracle %s --input X="rng.random((25, 13)) - 0.3" --rtol 1e-9 --atol 1e-9 --expect "X.sum()" --expect "(X**2).sum(axis=1, keepdims=True)" --expect "X.min(axis=0, keepdims=True)" --expect "X.max()" --expect "X.mean(axis=1, keepdims=True)" --expect "np.prod(X[:, :3] + 1, axis=0, keepdims=True)" --expect "X.var(ddof=1)" --expect "X.std(axis=0, ddof=1, keepdims=True)" --expect "np.argmax(X, axis=1)[:, None] + 1" --expect "np.argmin(X, axis=0)[None, :] + 1" --expect "np.trace(X[:13, :])" --expect "np.cumsum(X, axis=0)" --expect "np.cumprod(X + 1, axis=0)" --expect "np.minimum.accumulate(X, axis=0)" --expect "np.maximum.accumulate(X, axis=0)" --seed 11 -- --threads 1

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"})
    -> (f64, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>, f64,
        !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>, f64,
        !amls.matrix<1x?xf64>, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>,
        f64, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c13 = arith.constant 13 : index
  %one = arith.constant 1.0 : f64
  %0 = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
  %1 = amls.agg sumsq row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %2 = amls.agg min col %X : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %3 = amls.agg max all %X : !amls.matrix<?x?xf64> -> f64
  %4 = amls.agg mean row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %nr = amls.nrow %X : !amls.matrix<?x?xf64>
  %first3 = amls.slice %X[%c0 : %nr, %c0 : %c3] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %p1 = amls.add %first3, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %5 = amls.agg prod col %p1 : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %6 = amls.agg var all %X : !amls.matrix<?x?xf64> -> f64
  %7 = amls.agg sd col %X : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %8 = amls.agg maxindex row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %9 = amls.agg minindex col %X : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %sq = amls.slice %X[%c0 : %c13, %c0 : %c13] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %10 = amls.trace %sq : !amls.matrix<?x?xf64> -> f64
  %11 = amls.cumagg cumsum %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %X1 = amls.add %X, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %12 = amls.cumagg cumprod %X1 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %13 = amls.cumagg cummin %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %14 = amls.cumagg cummax %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14 : f64, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>, f64, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>, f64, !amls.matrix<1x?xf64>, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>, f64, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
