// t(X) %*% (X %*% v)
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %v: !amls.matrix<?x1xf64> {amls.name = "v"}) -> !amls.matrix<?x?xf64> {
  %Xv = amls.matmul %X, %v : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r = amls.matmul %Xt, %Xv : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %r : !amls.matrix<?x?xf64>
}
