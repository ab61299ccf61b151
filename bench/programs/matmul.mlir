// X %*% Y
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"}) -> !amls.matrix<?x?xf64> {
  %p = amls.matmul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %p : !amls.matrix<?x?xf64>
}
