// sum(X ^ 2): the optimizer makes it sumsq(X), one pass.
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"}) -> f64 {
  %two = arith.constant 2.0 : f64
  %sq = amls.pow %X, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %s = amls.agg sum all %sq : !amls.matrix<?x?xf64> -> f64
  return %s : f64
}
