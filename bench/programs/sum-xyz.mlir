// sum(X * Y * Z): an element-wise chain with a full aggregate.
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"},
                %Z: !amls.matrix<?x?xf64> {amls.name = "Z"}) -> f64 {
  %xy = amls.mul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %xyz = amls.mul %xy, %Z : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %s = amls.agg sum all %xyz : !amls.matrix<?x?xf64> -> f64
  return %s : f64
}
