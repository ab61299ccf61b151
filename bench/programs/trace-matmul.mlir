// trace(X %*% Y): the optimizer computes sum(X * t(Y)) instead of the
// product.
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"}) -> f64 {
  %p = amls.matmul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %t = amls.trace %p : !amls.matrix<?x?xf64> -> f64
  return %t : f64
}
