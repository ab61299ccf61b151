// Comparisons, NaN handling, replace, literals and type-level ops
// (as_matrix, cast, convert) against NumPy, at 1 and 2 threads and with
// static sizes after specialization.
// RUN: %oracle %s --input X="np.where(rng.random((25, 15)) < 0.2, np.nan, np.round(rng.random((25, 15)) * 4))" --input Y="rng.random((25, 15))" --expect "np.where(np.isnan(X), -1.0, X)" --expect "np.where(X == 2, 7.0, X)" --expect "np.isnan(X) * 1.0" --expect "(Y >= 0.5) * 1.0 + (X == 1) * 2.0 + (X != 3) * 4.0" --expect "np.array([[1.0, 2.0], [3.0, 4.0]]) * Y[0:2, 0:2]" --expect "np.array([[Y.sum()]])" --expect "Y * 3" --expect "0 - Y" -- --threads 1
// RUN: %oracle %s --input X="np.where(rng.random((7, 40)) < 0.5, np.nan, np.round(rng.random((7, 40))))" --input Y="rng.random((7, 40))" --expect "np.where(np.isnan(X), -1.0, X)" --expect "np.where(X == 2, 7.0, X)" --expect "np.isnan(X) * 1.0" --expect "(Y >= 0.5) * 1.0 + (X == 1) * 2.0 + (X != 3) * 4.0" --expect "np.array([[1.0, 2.0], [3.0, 4.0]]) * Y[0:2, 0:2]" --expect "np.array([[Y.sum()]])" --expect "Y * 3" --expect "0 - Y" -- --threads 2

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<2x2xf64>, !amls.matrix<1x1xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %nan = arith.constant 0x7FF8000000000000 : f64
  %minus1 = arith.constant -1.0 : f64
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %three = arith.constant 3.0 : f64
  %four = arith.constant 4.0 : f64
  %seven = arith.constant 7.0 : f64
  %0 = amls.replace %X, %nan, %minus1 : !amls.matrix<?x?xf64>, f64, f64 -> !amls.matrix<?x?xf64>
  %1 = amls.replace %X, %two, %seven : !amls.matrix<?x?xf64>, f64, f64 -> !amls.matrix<?x?xf64>
  %2 = amls.isnan %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %ge = amls.ge %Y, %half : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %eq = amls.eq %X, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %eq2 = amls.mul %eq, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %ne = amls.ne %X, %three : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %ne4 = amls.mul %ne, %four : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %s = amls.add %ge, %eq2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.add %s, %ne4 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %lit = amls.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
  %corner = amls.slice %Y[%c0 : %c2, %c0 : %c2] : !amls.matrix<?x?xf64> -> !amls.matrix<2x2xf64>
  %4 = amls.mul %lit, %corner : !amls.matrix<2x2xf64>, !amls.matrix<2x2xf64> -> !amls.matrix<2x2xf64>
  %total = amls.agg sum all %Y : !amls.matrix<?x?xf64> -> f64
  %5 = amls.as_matrix %total : f64 -> !amls.matrix<1x1xf64>
  %dense = amls.cast %Y : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64, sparsity = 1.0>
  %6 = amls.mul %dense, %three : !amls.matrix<?x?xf64, sparsity = 1.0>, f64 -> !amls.matrix<?x?xf64>
  %conv = amls.convert %Y : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64, sparsity = 1.0>
  %7 = amls.neg %conv : !amls.matrix<?x?xf64, sparsity = 1.0> -> !amls.matrix<?x?xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<2x2xf64>, !amls.matrix<1x1xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
