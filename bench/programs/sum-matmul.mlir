// sum(X %*% Y): the optimizer computes sum(t(colSums(X)) * rowSums(Y))
// instead of the product.
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"}) -> f64 {
  %p = amls.matmul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %s = amls.agg sum all %p : !amls.matrix<?x?xf64> -> f64
  return %s : f64
}
