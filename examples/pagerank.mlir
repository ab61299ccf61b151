// PageRank by power iteration (seed 003), on a generated sparse graph:
//
//   G = rand(rows=n, cols=n, sparsity=0.01, seed=s)   # link weights
//   p = matrix(1/n, n, 1); e = matrix(1, n, 1); u = matrix(1/n, 1, n)
//   for (i in 1:iterations)
//     p = alpha * (G %*% p) + (1 - alpha) * (e %*% (u %*% p))
//
// The sparsity annotations `--amls-infer-properties` derives here are what
// later passes use to pick CSR for G and a sparse matrix-vector product.

func.func @main(%seed: i64 {amls.name = "seed"}, %iterations: index {amls.name = "iterations"},
                %alpha: f64 {amls.name = "alpha"}) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 10000 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %density = arith.constant 0.001 : f64
  %nf = arith.constant 10000.0 : f64
  %inv_n = arith.divf %one, %nf : f64
  %damping = arith.subf %one, %alpha : f64

  %G = amls.rand %n, %n, %zero, %one, %density seed %seed uniform : f64 -> !amls.matrix<?x?xf64>
  %p0 = amls.fill %inv_n, %n, %c1 : f64 -> !amls.matrix<?x?xf64>
  %e = amls.fill %one, %n, %c1 : f64 -> !amls.matrix<?x?xf64>
  %u = amls.fill %inv_n, %c1, %n : f64 -> !amls.matrix<?x?xf64>

  %p = scf.for %i = %c0 to %iterations step %c1 iter_args(%pi = %p0) -> (!amls.matrix<?x?xf64>) {
    %Gp = amls.matmul %G, %pi : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %link = amls.mul %alpha, %Gp : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %up = amls.matmul %u, %pi : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %eup = amls.matmul %e, %up : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %jump = amls.mul %damping, %eup : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %next = amls.add %link, %jump : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    scf.yield %next : !amls.matrix<?x?xf64>
  }
  return %p : !amls.matrix<?x?xf64>
}
