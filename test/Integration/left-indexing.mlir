// Left indexing against NumPy: chains that overwrite a matrix block by
// block (rewritten to cbind/rbind), a row loop (vectorized into one block
// operation; also with an empty range) and a loop with a carried dependence
// (kept, updating the matrix in place).
// RUN: %oracle %s --input A="rng.random((7, 1))" --input B="rng.random((7, 2))" --input Y="rng.random((7, 3))" --arg a=2 --arg b=6 --expect "np.hstack([A, B])" --expect "np.vstack([B[:3, :], B[3:, :]])" --expect "np.hstack([np.where((np.arange(7) >= a) & (np.arange(7) < b), Y[:, 1] * 2.0 + A[:, 0], 0.0)[:, None], np.zeros((7, 1))])" --expect "np.hstack([np.cumsum(Y[:, :1], axis=0), Y[:, 1:]])" -- --threads 2
// RUN: %oracle %s --input A="rng.random((7, 1))" --input B="rng.random((7, 2))" --input Y="rng.random((7, 3))" --arg a=5 --arg b=3 --expect "np.hstack([A, B])" --expect "B" --expect "np.zeros((7, 2))" --expect "np.hstack([np.cumsum(Y[:, :1], axis=0), Y[:, 1:]])" -- --threads 1

func.func @main(%A: !amls.matrix<?x1xf64> {amls.name = "A"},
                %B: !amls.matrix<?x2xf64> {amls.name = "B"},
                %Y: !amls.matrix<?x3xf64> {amls.name = "Y"},
                %a: index {amls.name = "a"},
                %b: index {amls.name = "b"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %two = arith.constant 2.0 : f64
  %n = amls.nrow %A : !amls.matrix<?x1xf64>
  // X = matrix(0, n, 3); X[, 1] = A; X[, 2:3] = B
  %X0 = amls.fill %zero, %n, %c3 : f64 -> !amls.matrix<?x?xf64>
  %X1 = amls.insert_slice %A into %X0[%c0 : %n, %c0 : %c1] : !amls.matrix<?x1xf64> into !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %X2 = amls.insert_slice %B into %X1[%c0 : %n, %c1 : %c3] : !amls.matrix<?x2xf64> into !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // R = matrix(0, n, 2); R[1:3, ] = B[1:3, ]; R[4:n, ] = B[4:n, ]
  %R0 = amls.fill %zero, %n, %c2 : f64 -> !amls.matrix<?x?xf64>
  %top = amls.slice %B[%c0 : %c3, %c0 : %c2] : !amls.matrix<?x2xf64> -> !amls.matrix<?x?xf64>
  %bottom = amls.slice %B[%c3 : %n, %c0 : %c2] : !amls.matrix<?x2xf64> -> !amls.matrix<?x?xf64>
  %R1 = amls.insert_slice %top into %R0[%c0 : %c3, %c0 : %c2] : !amls.matrix<?x?xf64> into !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %R2 = amls.insert_slice %bottom into %R1[%c3 : %n, %c0 : %c2] : !amls.matrix<?x?xf64> into !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // V = matrix(0, n, 2); for (i in a:b-1) V[i, 1] = Y[i, 2] * 2 + A[i, 1]
  %V0 = amls.fill %zero, %n, %c2 : f64 -> !amls.matrix<?x?xf64>
  %V = scf.for %i = %a to %b step %c1 iter_args(%acc = %V0) -> (!amls.matrix<?x?xf64>) {
    %i1 = arith.addi %i, %c1 : index
    %y = amls.slice %Y[%i : %i1, %c1 : %c2] : !amls.matrix<?x3xf64> -> !amls.matrix<?x?xf64>
    %ya = amls.mul %y, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
    %ai = amls.slice %A[%i : %i1, %c0 : %c1] : !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
    %s = amls.add %ya, %ai : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %next = amls.insert_slice %s into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<?x?xf64> into !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    scf.yield %next : !amls.matrix<?x?xf64>
  }
  // C = Y; for (i in 2:n) C[i, 1] = C[i-1, 1] + Y[i, 1]
  %C = scf.for %i = %c1 to %n step %c1 iter_args(%acc = %Y) -> (!amls.matrix<?x3xf64>) {
    %p = arith.subi %i, %c1 : index
    %i1 = arith.addi %i, %c1 : index
    %prev = amls.slice %acc[%p : %i, %c0 : %c1] : !amls.matrix<?x3xf64> -> !amls.matrix<?x?xf64>
    %y = amls.slice %Y[%i : %i1, %c0 : %c1] : !amls.matrix<?x3xf64> -> !amls.matrix<?x?xf64>
    %s = amls.add %prev, %y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %next = amls.insert_slice %s into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<?x?xf64> into !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    scf.yield %next : !amls.matrix<?x3xf64>
  }
  %Cd = amls.cast %C : !amls.matrix<?x3xf64> -> !amls.matrix<?x?xf64>
  return %X2, %R2, %V, %Cd : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
