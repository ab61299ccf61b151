// Element-wise ops with every broadcasting form, against NumPy.
// RUN: %oracle %s --input X="rng.random((40, 30)) - 0.5" --input r="rng.random((1, 30)) + 0.5" --input c="rng.random((40, 1)) + 0.5" --arg s=2.5 --expect "X + r" --expect "c * X" --expect "X / r - s" --expect "np.maximum(X, 0)" --expect "(X > 0) * 1.0" --expect "np.exp(X) * np.abs(X)" --expect "np.where(X > 0, X, s)" -- --threads 1
// RUN: %oracle %s --input X="rng.random((40, 30)) - 0.5" --input r="rng.random((1, 30)) + 0.5" --input c="rng.random((40, 1)) + 0.5" --arg s=2.5 --expect "X + r" --expect "c * X" --expect "X / r - s" --expect "np.maximum(X, 0)" --expect "(X > 0) * 1.0" --expect "np.exp(X) * np.abs(X)" --expect "np.where(X > 0, X, s)" -- --threads 2

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %r: !amls.matrix<1x?xf64> {amls.name = "r"},
                %c: !amls.matrix<?x1xf64> {amls.name = "c"},
                %s: f64 {amls.name = "s"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>) {
  %zero = arith.constant 0.0 : f64
  %0 = amls.add %X, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.mul %c, %X : !amls.matrix<?x1xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %d = amls.div %X, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.sub %d, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %3 = amls.max %X, %zero : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %4 = amls.gt %X, %zero : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %e = amls.exp %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %a = amls.abs %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %5 = amls.mul %e, %a : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %6 = amls.ifelse %4, %X, %s : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  return %0, %1, %2, %3, %4, %5, %6 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
