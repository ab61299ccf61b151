// Full aggregates over large static spaces run as parallel partial
// reductions over blocks of rows, merged afterwards; a row count with no
// small divisor (307) and small inputs keep one sequential reduction. All
// against NumPy, fused (sum of a product) and unfused (oracle.py's
// configurations).
// RUN: %oracle %s --input X="rng.random((300, 200)) - 0.3" --input Y="rng.random((300, 200))" --rtol 1e-9 --atol 1e-9 --expect "X.sum()" --expect "(X**2).sum()" --expect "X.min()" --expect "X.max()" --expect "X.mean()" --expect "X.var(ddof=1)" --expect "np.sum(X * Y)" --expect "np.max(X * Y)" -- --threads 2
// RUN: %oracle %s --input X="rng.random((307, 200)) - 0.3" --input Y="rng.random((307, 200))" --rtol 1e-9 --atol 1e-9 --expect "X.sum()" --expect "(X**2).sum()" --expect "X.min()" --expect "X.max()" --expect "X.mean()" --expect "X.var(ddof=1)" --expect "np.sum(X * Y)" --expect "np.max(X * Y)" -- --threads 2
// RUN: %oracle %s --input X="rng.random((40000, 1)) - 0.3" --input Y="rng.random((40000, 1))" --rtol 1e-9 --atol 1e-9 --expect "X.sum()" --expect "(X**2).sum()" --expect "X.min()" --expect "X.max()" --expect "X.mean()" --expect "X.var(ddof=1)" --expect "np.sum(X * Y)" --expect "np.max(X * Y)" -- --threads 1

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"})
    -> (f64, f64, f64, f64, f64, f64, f64, f64) {
  %0 = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
  %1 = amls.agg sumsq all %X : !amls.matrix<?x?xf64> -> f64
  %2 = amls.agg min all %X : !amls.matrix<?x?xf64> -> f64
  %3 = amls.agg max all %X : !amls.matrix<?x?xf64> -> f64
  %4 = amls.agg mean all %X : !amls.matrix<?x?xf64> -> f64
  %5 = amls.agg var all %X : !amls.matrix<?x?xf64> -> f64
  %xy = amls.mul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %6 = amls.agg sum all %xy : !amls.matrix<?x?xf64> -> f64
  %7 = amls.agg max all %xy : !amls.matrix<?x?xf64> -> f64
  return %0, %1, %2, %3, %4, %5, %6, %7 : f64, f64, f64, f64, f64, f64, f64, f64
}
