// MLogreg's inner CG loop reduced to its Hessian-vector products: iters
// times V = V + 1e-6 * t(X) %*% (Q - P[, 1:k] * rowSums(Q)) with Q =
// P[, 1:k] * (X %*% V), k = ncol(P) - 1. t(X) is loop-invariant (hoisted);
// over a CSR X the product is one row-template operator per iteration.
// The time per iteration is the difference of two runs (iters = 11 and 1)
// divided by 10.
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %P: !amls.matrix<?x?xf64> {amls.name = "P"},
                %V0: !amls.matrix<?x?xf64> {amls.name = "V"},
                %iters: i64 {amls.name = "iters"}) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %step = arith.constant 1.0e-6 : f64
  %n = amls.nrow %P : !amls.matrix<?x?xf64>
  %k1 = amls.ncol %P : !amls.matrix<?x?xf64>
  %k = arith.subi %k1, %c1 : index
  %Pk = amls.slice %P[%c0 : %n, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %m = arith.index_cast %iters : i64 to index
  %r = scf.for %i = %c0 to %m step %c1 iter_args(%V = %V0) -> (!amls.matrix<?x?xf64>) {
    %XV = amls.matmul %X, %V : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %Q = amls.mul %Pk, %XV : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %rs = amls.agg sum row %Q : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
    %t = amls.mul %Pk, %rs : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
    %R = amls.sub %Q, %t : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %H = amls.matmul %Xt, %R : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %sH = amls.mul %H, %step : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
    %Vn = amls.add %V, %sH : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    scf.yield %Vn : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}
