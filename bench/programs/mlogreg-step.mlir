// One Hessian-vector product of MLogreg's inner loop (seed 000):
//   Q = P[, 1:k] * (X %*% V);  H = t(X) %*% (Q - P[, 1:k] * rowSums(Q))
// with k = ncol(P) - 1. Fused, this is one row-template operator that reads
// X once, a cache-sized block of rows at a time.
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %P: !amls.matrix<?x?xf64> {amls.name = "P"},
                %V: !amls.matrix<?x?xf64> {amls.name = "V"}) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = amls.nrow %P : !amls.matrix<?x?xf64>
  %k1 = amls.ncol %P : !amls.matrix<?x?xf64>
  %k = arith.subi %k1, %c1 : index
  %Pk = amls.slice %P[%c0 : %n, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %XV = amls.matmul %X, %V : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Q = amls.mul %Pk, %XV : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %rs = amls.agg sum row %Q : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %t = amls.mul %Pk, %rs : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %R = amls.sub %Q, %t : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %H = amls.matmul %Xt, %R : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %H : !amls.matrix<?x?xf64>
}
