// t(X) %*% X, as written: the optimizer makes it a tsmm (BLAS syrk).
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"}) -> !amls.matrix<?x?xf64> {
  %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %G = amls.matmul %Xt, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %G : !amls.matrix<?x?xf64>
}
