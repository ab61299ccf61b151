// Chains of products that amls-run reorders once the inputs fix the sizes
// (--amls-matmul-chain after specialization), against NumPy: the textbook
// chain, PageRank's teleport term e %*% u %*% p and a chain through a
// transpose, t(A3 %*% A4) %*% w -> t(A4) %*% (t(A3) %*% w).
// RUN: %oracle %s --input A1="rng.random((30, 35))" --input A2="rng.random((35, 15))" --input A3="rng.random((15, 5))" --input A4="rng.random((5, 10))" --input A5="rng.random((10, 20))" --input A6="rng.random((20, 25))" --input e="np.ones((300, 1))" --input u="np.full((1, 300), 1 / 300)" --input p="rng.random((300, 1))" --input w="rng.random((15, 1))" --expect "A1 @ A2 @ A3 @ A4 @ A5 @ A6" --expect "e @ u @ p" --expect "(A3 @ A4).T @ w" -- --threads 1
// RUN: %oracle %s --input A1="rng.random((30, 35))" --input A2="rng.random((35, 15))" --input A3="rng.random((15, 5))" --input A4="rng.random((5, 10))" --input A5="rng.random((10, 20))" --input A6="rng.random((20, 25))" --input e="np.ones((300, 1))" --input u="np.full((1, 300), 1 / 300)" --input p="rng.random((300, 1))" --input w="rng.random((15, 1))" --expect "A1 @ A2 @ A3 @ A4 @ A5 @ A6" --expect "e @ u @ p" --expect "(A3 @ A4).T @ w" -- --threads 2

func.func @main(%a1: !amls.matrix<?x?xf64> {amls.name = "A1"},
                %a2: !amls.matrix<?x?xf64> {amls.name = "A2"},
                %a3: !amls.matrix<?x?xf64> {amls.name = "A3"},
                %a4: !amls.matrix<?x?xf64> {amls.name = "A4"},
                %a5: !amls.matrix<?x?xf64> {amls.name = "A5"},
                %a6: !amls.matrix<?x?xf64> {amls.name = "A6"},
                %e: !amls.matrix<?x?xf64> {amls.name = "e"},
                %u: !amls.matrix<?x?xf64> {amls.name = "u"},
                %p: !amls.matrix<?x?xf64> {amls.name = "p"},
                %w: !amls.matrix<?x?xf64> {amls.name = "w"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %0 = amls.matmul %a1, %a2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.matmul %0, %a3 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.matmul %1, %a4 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.matmul %2, %a5 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %4 = amls.matmul %3, %a6 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %eu = amls.matmul %e, %u : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %t = amls.matmul %eu, %p : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %a34 = amls.matmul %a3, %a4 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %ta34 = amls.transpose %a34 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %tw = amls.matmul %ta34, %w : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %4, %t, %tw : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
