// Row aggregates over matrices with a multiple of 8 columns accumulate 8
// lanes per row and merge them (the two-pass moments included), against
// NumPy; 201 columns keep one accumulator per row.
// RUN: %oracle %s --input X="rng.random((300, 200)) - 0.3" --rtol 1e-9 --atol 1e-9 --expect "X.mean(axis=1, keepdims=True)" --expect "X.var(axis=1, ddof=1, keepdims=True)" --expect "X.std(axis=1, ddof=1, keepdims=True)" --expect "np.prod(1 + X / 100, axis=1, keepdims=True)" -- --threads 2
// RUN: %oracle %s --input X="rng.random((300, 201)) - 0.3" --rtol 1e-9 --atol 1e-9 --expect "X.mean(axis=1, keepdims=True)" --expect "X.var(axis=1, ddof=1, keepdims=True)" --expect "X.std(axis=1, ddof=1, keepdims=True)" --expect "np.prod(1 + X / 100, axis=1, keepdims=True)" -- --threads 1

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"})
    -> (!amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>,
        !amls.matrix<?x1xf64>) {
  %hundred = arith.constant 100.0 : f64
  %one = arith.constant 1.0 : f64
  %0 = amls.agg mean row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %1 = amls.agg var row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %2 = amls.agg sd row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %s = amls.div %X, %hundred : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %p = amls.add %s, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %3 = amls.agg prod row %p : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  return %0, %1, %2, %3 : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>
}
