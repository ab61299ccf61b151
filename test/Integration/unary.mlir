// Unary and remaining binary element-wise ops, against NumPy (DML
// semantics: Java's round, R's %% and %/%).
// RUN: %oracle %s --input X="np.round(rng.random((30, 20)) * 8 - 4, 1)" --input Y="rng.random((30, 20)) + 0.5" --expect "np.sqrt(np.abs(X))" --expect "np.log(Y)" --expect "np.floor(X + 0.5)" --expect "np.floor(X) + np.ceil(X)" --expect "np.sign(X)" --expect "1 / (1 + np.exp(-X))" --expect "np.sin(X) + np.cos(X) + np.tanh(X)" --expect "(X == 0) * 1.0" --expect "np.power(Y, X)" --expect "X - np.floor(X / Y) * Y" --expect "np.floor(X / Y)" --expect "np.minimum(X, Y)" --expect "((X != 0) & (Y > 1)) * 1.0 + ((X <= 0) | (Y < 1)) * 1.0" --expect "0 - X" -- --threads 2
// RUN: %oracle %s --input X="np.round(rng.random((30, 20)) * 8 - 4, 1)" --input Y="rng.random((30, 20)) + 0.5" --expect "np.sqrt(np.abs(X))" --expect "np.log(Y)" --expect "np.floor(X + 0.5)" --expect "np.floor(X) + np.ceil(X)" --expect "np.sign(X)" --expect "1 / (1 + np.exp(-X))" --expect "np.sin(X) + np.cos(X) + np.tanh(X)" --expect "(X == 0) * 1.0" --expect "np.power(Y, X)" --expect "X - np.floor(X / Y) * Y" --expect "np.floor(X / Y)" --expect "np.minimum(X, Y)" --expect "((X != 0) & (Y > 1)) * 1.0 + ((X <= 0) | (Y < 1)) * 1.0" --expect "0 - X" --seed 11 -- --threads 1

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %a = amls.abs %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %0 = amls.sqrt %a : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.log %Y : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.round %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %f = amls.floor %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %c = amls.ceil %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.add %f, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %4 = amls.sign %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %5 = amls.sigmoid %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %s = amls.sin %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %co = amls.cos %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %t = amls.tanh %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %sc = amls.add %s, %co : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %6 = amls.add %sc, %t : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %7 = amls.not %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %8 = amls.pow %Y, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %9 = amls.mod %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %10 = amls.intdiv %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %11 = amls.min %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %yg = amls.gt %Y, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %and = amls.and %X, %yg : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %xl = amls.le %X, %zero : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %yl = amls.lt %Y, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %or = amls.or %xl, %yl : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %12 = amls.add %and, %or : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %13 = amls.neg %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
