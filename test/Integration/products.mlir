// Matrix products (generated loops and BLAS), tsmm and mmchain, against
// NumPy, with dynamic and static sizes.
// RUN: %oracle %s --input A="rng.random((70, 50))" --input B="rng.random((50, 40))" --input v="rng.random((50, 1))" --input w="rng.random((70, 1))" --expect "A @ B" --expect "A.T @ A" --expect "A @ A.T" --expect "A.T @ (A @ v)" --expect "A.T @ (w * (A @ v))" --expect "A.T @ w" --expect "w.T @ A" --expect "B.T @ A.T" -- --blas=never --threads 1
// RUN: %oracle %s --input A="rng.random((70, 50))" --input B="rng.random((50, 40))" --input v="rng.random((50, 1))" --input w="rng.random((70, 1))" --expect "A @ B" --expect "A.T @ A" --expect "A @ A.T" --expect "A.T @ (A @ v)" --expect "A.T @ (w * (A @ v))" --expect "A.T @ w" --expect "w.T @ A" --expect "B.T @ A.T" -- --blas=always --threads 2
// RUN: %oracle %s --input A="rng.random((3, 2))" --input B="rng.random((2, 4))" --input v="rng.random((2, 1))" --input w="rng.random((3, 1))" --expect "A @ B" --expect "A.T @ A" --expect "A @ A.T" --expect "A.T @ (A @ v)" --expect "A.T @ (w * (A @ v))" --expect "A.T @ w" --expect "w.T @ A" --expect "B.T @ A.T" -- --blas=auto

func.func @main(%A: !amls.matrix<?x?xf64> {amls.name = "A"},
                %B: !amls.matrix<?x?xf64> {amls.name = "B"},
                %v: !amls.matrix<?x1xf64> {amls.name = "v"},
                %w: !amls.matrix<?x1xf64> {amls.name = "w"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>,
        !amls.matrix<1x?xf64>, !amls.matrix<?x?xf64>) {
  %0 = amls.matmul %A, %B : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.tsmm left %A : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.tsmm right %A : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.mmchain %A, %v : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %4 = amls.mmchain %A, %v weights %w : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  // Transposed operands are read in place (gemv/gemm on transposed views).
  %tA = amls.transpose %A : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %tB = amls.transpose %B : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %tw = amls.transpose %w : !amls.matrix<?x1xf64> -> !amls.matrix<1x?xf64>
  %5 = amls.matmul %tA, %w : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %6 = amls.matmul %tw, %A : !amls.matrix<1x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %7 = amls.matmul %tB, %tA : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>, !amls.matrix<?x?xf64>
}
