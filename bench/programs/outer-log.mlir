// sum(X * log(U %*% t(V) + 1e-15)) (seed 000's Outer template, e.g. the
// loss of a non-negative matrix factorization): fused, the product's cells
// are computed only where X is non-zero.
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %U: !amls.matrix<?x?xf64> {amls.name = "U"},
                %V: !amls.matrix<?x?xf64> {amls.name = "V"}) -> f64 {
  %eps = arith.constant 1.0e-15 : f64
  %Vt = amls.transpose %V : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %UV = amls.matmul %U, %Vt : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %A = amls.add %UV, %eps : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %L = amls.log %A : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %P = amls.mul %X, %L : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %s = amls.agg sum all %P : !amls.matrix<?x?xf64> -> f64
  return %s : f64
}
