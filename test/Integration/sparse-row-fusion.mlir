// Fused operators over the rows of a CSR main input (the Row template over
// sparse rows) and fused column aggregates over CSR (the sparse cell
// template):
// - t(X) %*% ((1 - y * (X %*% w)) * y), L2SVM's gradient;
// - t(X) %*% ((X %*% S) * P * rowSums(X * Y)): a product with a narrow
//   side matrix, a pattern-keeping chain closed by a row sum, row inputs;
// - t(N) %*% (rowMins(N) + rowMaxs(abs(N) * 2) * (N %*% T)): row minimums
//   and maximums that must see the implicit zeros (N's first 20 rows are
//   full, so theirs are stored values);
// - t(Z) %*% ((Z %*% T) * 2 + 1) over the all-zero Z;
// - colSums(X * q), colMaxs(-abs(X)), colMins(X ^ 2 * p), colSumsSq(X * 3),
//   colMaxs(N * 2); X has empty rows, empty columns (3, 50, ...) and a full
//   column (7), so columns with and without implicit zeros;
// - colMins(R * 2) of a 1-row R and colMaxs(-C) of a 1-column C.
// X, N and Z are CSR in the default setting, R and C with --formats=csr;
// the oracle compares every configuration (unfused, dense, csr) with NumPy,
// at 1 and 2 threads.
// RUN: %oracle %s --input X="np.where(np.arange(200)[None, :] == 7, 1.0, np.where((np.arange(200)[None, :] % 47 == 3) | (np.arange(3000)[:, None] % 7 == 0), 0.0, (rng.random((3000, 200)) < 0.05) * (rng.random((3000, 200)) - 0.3)))" --input y="np.where(rng.random((3000, 1)) < 0.5, -1.0, 1.0)" --input w="rng.random((200, 1)) - 0.5" --input S="rng.random((200, 3)) - 0.5" --input P="rng.random((3000, 3))" --input Y="rng.random((3000, 200)) + 0.5" --input N="np.where(np.arange(600)[:, None] < 20, rng.random((600, 8)) + 0.1, (rng.random((600, 8)) < 0.1) * (rng.random((600, 8)) - 0.5))" --input T="rng.random((8, 2)) - 0.5" --input Z="np.zeros((100, 50))" --input U="rng.random((50, 2))" --input R="np.array([[0, 2.5, 0, -1, 0, 3.0]])" --input C="np.array([[0], [1.5], [0], [-2], [0.5]])" --input q="rng.random((1, 200)) - 0.5" --input p="rng.random((1, 200)) + 0.5" --expect "X.T @ ((1 - y * (X @ w)) * y)" --expect "X.T @ ((X @ S) * P * (X * Y).sum(axis=1, keepdims=True))" --expect "N.T @ (N.min(axis=1, keepdims=True) + (np.abs(N) * 2).max(axis=1, keepdims=True) * (N @ T))" --expect "Z.T @ ((Z @ U) * 2 + 1)" --expect "(X * q).sum(axis=0, keepdims=True)" --expect "(-np.abs(X)).max(axis=0, keepdims=True)" --expect "(X ** 2 * p).min(axis=0, keepdims=True)" --expect "((X * 3) ** 2).sum(axis=0, keepdims=True)" --expect "(N * 2).max(axis=0, keepdims=True)" --expect "(R * 2).min(axis=0, keepdims=True)" --expect "(-C).max(axis=0, keepdims=True)" -- --threads 1
// RUN: %oracle %s --input X="np.where(np.arange(200)[None, :] == 7, 1.0, np.where((np.arange(200)[None, :] % 47 == 3) | (np.arange(3000)[:, None] % 7 == 0), 0.0, (rng.random((3000, 200)) < 0.05) * (rng.random((3000, 200)) - 0.3)))" --input y="np.where(rng.random((3000, 1)) < 0.5, -1.0, 1.0)" --input w="rng.random((200, 1)) - 0.5" --input S="rng.random((200, 3)) - 0.5" --input P="rng.random((3000, 3))" --input Y="rng.random((3000, 200)) + 0.5" --input N="np.where(np.arange(600)[:, None] < 20, rng.random((600, 8)) + 0.1, (rng.random((600, 8)) < 0.1) * (rng.random((600, 8)) - 0.5))" --input T="rng.random((8, 2)) - 0.5" --input Z="np.zeros((100, 50))" --input U="rng.random((50, 2))" --input R="np.array([[0, 2.5, 0, -1, 0, 3.0]])" --input C="np.array([[0], [1.5], [0], [-2], [0.5]])" --input q="rng.random((1, 200)) - 0.5" --input p="rng.random((1, 200)) + 0.5" --expect "X.T @ ((1 - y * (X @ w)) * y)" --expect "X.T @ ((X @ S) * P * (X * Y).sum(axis=1, keepdims=True))" --expect "N.T @ (N.min(axis=1, keepdims=True) + (np.abs(N) * 2).max(axis=1, keepdims=True) * (N @ T))" --expect "Z.T @ ((Z @ U) * 2 + 1)" --expect "(X * q).sum(axis=0, keepdims=True)" --expect "(-np.abs(X)).max(axis=0, keepdims=True)" --expect "(X ** 2 * p).min(axis=0, keepdims=True)" --expect "((X * 3) ** 2).sum(axis=0, keepdims=True)" --expect "(N * 2).max(axis=0, keepdims=True)" --expect "(R * 2).min(axis=0, keepdims=True)" --expect "(-C).max(axis=0, keepdims=True)" --seed 5 -- --threads 2 --fuse-explain 2>&1 | FileCheck %s --check-prefixes=AUTO%differential_checks
// In the default setting the four row candidates over CSR fuse, and so do
// the column aggregates over X and N.
// AUTO: row template closing at amls.transpose {{.*}}: main input !amls.matrix<3000x200xf64, sparsity = {{.*}}, format = csr>, 1 row inputs, 2 side inputs, 5 ops
// AUTO-NEXT: cost fused {{.*}}: fused
// AUTO: row template closing at amls.transpose {{.*}}: main input !amls.matrix<3000x200xf64, sparsity = {{.*}}, format = csr>, 2 row inputs, 1 side inputs, 6 ops
// AUTO-NEXT: cost fused {{.*}}: fused
// AUTO: row template closing at amls.transpose {{.*}}: main input !amls.matrix<600x8xf64, sparsity = {{.*}}, format = csr>
// AUTO-NEXT: cost fused {{.*}}: fused
// AUTO: row template closing at amls.transpose {{.*}}: main input !amls.matrix<100x50xf64, sparsity = 0{{.*}}, format = csr>
// AUTO-NEXT: cost fused {{.*}}: fused
// AUTO-COUNT-5: sparse cell template at amls.agg {{.*}}, format = csr>, {{[0-9]}} ops in 1 chain
// AUTO-NOT: not fused
// AUTO: PASS: result 10
// DIFFERENTIAL: PASS: csr

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %y: !amls.matrix<?x1xf64> {amls.name = "y"},
                %w: !amls.matrix<?x1xf64> {amls.name = "w"},
                %S: !amls.matrix<?x?xf64> {amls.name = "S"},
                %P: !amls.matrix<?x?xf64> {amls.name = "P"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"},
                %N: !amls.matrix<?x?xf64> {amls.name = "N"},
                %T: !amls.matrix<?x?xf64> {amls.name = "T"},
                %Z: !amls.matrix<?x?xf64> {amls.name = "Z"},
                %U: !amls.matrix<?x?xf64> {amls.name = "U"},
                %R: !amls.matrix<?x?xf64> {amls.name = "R"},
                %C: !amls.matrix<?x?xf64> {amls.name = "C"},
                %q: !amls.matrix<1x?xf64> {amls.name = "q"},
                %p: !amls.matrix<1x?xf64> {amls.name = "p"})
    -> (!amls.matrix<?x1xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>,
        !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>,
        !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  // L2SVM's gradient.
  %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Xw = amls.matmul %X, %w : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %yXw = amls.mul %y, %Xw : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %out = amls.sub %one, %yXw : f64, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %outy = amls.mul %out, %y : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %g0 = amls.matmul %Xt, %outy : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  // A narrow product, row inputs and a row sum of a pattern-keeping chain.
  %XS = amls.matmul %X, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %XSP = amls.mul %XS, %P : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %XY = amls.mul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %rs = amls.agg sum row %XY : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %R1 = amls.mul %XSP, %rs : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %Xt1 = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %g1 = amls.matmul %Xt1, %R1 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // Row minimums and maximums with and without implicit zeros.
  %Nmin = amls.agg min row %N : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %Nabs = amls.abs %N : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Nabs2 = amls.mul %Nabs, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %Nmax = amls.agg max row %Nabs2 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %NT = amls.matmul %N, %T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %NmaxNT = amls.mul %Nmax, %NT : !amls.matrix<?x1xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %R2 = amls.add %Nmin, %NmaxNT : !amls.matrix<?x1xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Nt = amls.transpose %N : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %g2 = amls.matmul %Nt, %R2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // The all-zero matrix.
  %ZU = amls.matmul %Z, %U : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %ZU2 = amls.mul %ZU, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %R3 = amls.add %ZU2, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %Zt = amls.transpose %Z : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %g3 = amls.matmul %Zt, %R3 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // Column aggregates.
  %three = arith.constant 3.0 : f64
  %Xq = amls.mul %X, %q : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %c0 = amls.agg sum col %Xq : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %Xa = amls.abs %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Xna = amls.neg %Xa : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %c1 = amls.agg max col %Xna : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %X2 = amls.pow %X, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %X2p = amls.mul %X2, %p : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %c2 = amls.agg min col %X2p : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %X3 = amls.mul %X, %three : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %c3 = amls.agg sumsq col %X3 : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %N2 = amls.mul %N, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %c4 = amls.agg max col %N2 : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %R4 = amls.mul %R, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %c5 = amls.agg min col %R4 : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %Cn = amls.neg %C : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %c6 = amls.agg max col %Cn : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  return %g0, %g1, %g2, %g3, %c0, %c1, %c2, %c3, %c4, %c5, %c6 : !amls.matrix<?x1xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>, !amls.matrix<1x?xf64>
}
