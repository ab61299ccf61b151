// Full aggregates over large static spaces run as parallel partial
// reductions over blocks of rows, merged afterwards; a row count with no
// small divisor (307) and small inputs keep one sequential reduction. Row
// aggregates with a multiple of 8 columns accumulate 8 lanes per row. All
// against NumPy, fused (sum of a product, row sums of exp(X*v) with a
// broadcast row vector v) and unfused (oracle.py's configurations).
// RUN: %oracle %s --input X="rng.random((300, 200)) - 0.3" --input Y="rng.random((300, 200))" --input v="rng.random((1, 200))" --rtol 1e-9 --atol 1e-9 --expect "X.sum()" --expect "(X**2).sum()" --expect "X.min()" --expect "X.max()" --expect "X.mean()" --expect "X.var(ddof=1)" --expect "np.sum(X * Y)" --expect "np.max(X * Y)" --expect "X.sum(axis=1, keepdims=True)" --expect "(X**2).sum(axis=1, keepdims=True)" --expect "X.min(axis=1, keepdims=True)" --expect "X.max(axis=1, keepdims=True)" --expect "np.exp(X * v).sum(axis=1, keepdims=True)" -- --threads 2
// RUN: %oracle %s --input X="rng.random((307, 200)) - 0.3" --input Y="rng.random((307, 200))" --input v="rng.random((1, 200))" --rtol 1e-9 --atol 1e-9 --expect "X.sum()" --expect "(X**2).sum()" --expect "X.min()" --expect "X.max()" --expect "X.mean()" --expect "X.var(ddof=1)" --expect "np.sum(X * Y)" --expect "np.max(X * Y)" --expect "X.sum(axis=1, keepdims=True)" --expect "(X**2).sum(axis=1, keepdims=True)" --expect "X.min(axis=1, keepdims=True)" --expect "X.max(axis=1, keepdims=True)" --expect "np.exp(X * v).sum(axis=1, keepdims=True)" -- --threads 2
// RUN: %oracle %s --input X="rng.random((40000, 1)) - 0.3" --input Y="rng.random((40000, 1))" --input v="rng.random((1, 1))" --rtol 1e-9 --atol 1e-9 --expect "X.sum()" --expect "(X**2).sum()" --expect "X.min()" --expect "X.max()" --expect "X.mean()" --expect "X.var(ddof=1)" --expect "np.sum(X * Y)" --expect "np.max(X * Y)" --expect "X.sum(axis=1, keepdims=True)" --expect "(X**2).sum(axis=1, keepdims=True)" --expect "X.min(axis=1, keepdims=True)" --expect "X.max(axis=1, keepdims=True)" --expect "np.exp(X * v).sum(axis=1, keepdims=True)" -- --threads 1

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"},
                %v: !amls.matrix<1x?xf64> {amls.name = "v"})
    -> (f64, f64, f64, f64, f64, f64, f64, f64, !amls.matrix<?x1xf64>,
        !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>,
        !amls.matrix<?x1xf64>) {
  %0 = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
  %1 = amls.agg sumsq all %X : !amls.matrix<?x?xf64> -> f64
  %2 = amls.agg min all %X : !amls.matrix<?x?xf64> -> f64
  %3 = amls.agg max all %X : !amls.matrix<?x?xf64> -> f64
  %4 = amls.agg mean all %X : !amls.matrix<?x?xf64> -> f64
  %5 = amls.agg var all %X : !amls.matrix<?x?xf64> -> f64
  %xy = amls.mul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %6 = amls.agg sum all %xy : !amls.matrix<?x?xf64> -> f64
  %7 = amls.agg max all %xy : !amls.matrix<?x?xf64> -> f64
  %8 = amls.agg sum row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %9 = amls.agg sumsq row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %10 = amls.agg min row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %11 = amls.agg max row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %xv = amls.mul %X, %v : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %e = amls.exp %xv : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %12 = amls.agg sum row %e : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : f64, f64, f64, f64, f64, f64, f64, f64, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>
}
