// Row fused operators over a CSR X whose dense rows are wider than the 16
// columns held as scalars, or of a width known only at run time (k =
// max(kk), read from the data, as MLogreg's classes): the rows live in
// per-thread scratch rows, computed by loops over their columns.
// - MLogreg's Hessian-vector product t(X) %*% (Q - P * rowSums(Q)), Q = P *
//   (X %*% V), with 17 columns and with k columns;
// - a multi-class L2SVM gradient t(X) %*% ((1 - Y * (X %*% W)) * Y), k
//   columns;
// - a 1-row side vector q, rowMaxs, rowMins, rowSumsSq and exp(-abs()) of
//   wide rows, a narrow slice of a wide row times a side matrix T (3 x k);
// - the all-zero Z, X2 = X[7:8, ] (two rows, one per thread, the second
//   empty) and the 1-row X1 = X[2, ].
// X has empty rows (every 7th), empty columns and a full column (7). The
// oracle compares every configuration (unfused, dense, csr) with NumPy, at
// 1 and 2 threads, with k = 23 and k = 4 (the run-time width below 16).
// RUN: %oracle %s --input X="np.where(np.arange(100)[None, :] == 7, 1.0, np.where((np.arange(100)[None, :] %% 47 == 3) | (np.arange(3000)[:, None] %% 7 == 0), 0.0, (rng.random((3000, 100)) < 0.05) * (rng.random((3000, 100)) - 0.3)))" --input kk="np.array([[23.0]])" --input P17="rng.random((3000, 17))" --input V17="rng.random((100, 17)) - 0.5" --input Pf="rng.random((3000, 30))" --input Vf="rng.random((100, 30)) - 0.5" --input Yf="np.where(rng.random((3000, 30)) < 0.5, -1.0, 1.0)" --input q="rng.random((1, 30)) - 0.5" --input T="rng.random((3, 30)) - 0.5" --input Z="np.zeros((100, 50))" --input U="rng.random((50, 30))" --input PZ="rng.random((100, 30))" --input V1="rng.random((100, 30)) - 0.5" --input P1="rng.random((2, 30))" --expect "X.T @ ((lambda Q: Q - P17 * Q.sum(axis=1, keepdims=True))(P17 * (X @ V17)))" --expect "X.T @ ((lambda P, Q: Q - P * Q.sum(axis=1, keepdims=True))(Pf[:, :23], Pf[:, :23] * (X @ Vf[:, :23])))" --expect "X.T @ ((1 - Yf[:, :23] * (X @ Vf[:, 1:24])) * Yf[:, :23])" --expect "X.T @ ((lambda XV: XV * q[:, :23] + XV.max(axis=1, keepdims=True) - Pf[:, :23].min(axis=1, keepdims=True) * (XV ** 2).sum(axis=1, keepdims=True) + np.exp(-np.abs(XV)) + XV[:, :3] @ T[:, :23])(X @ Vf[:, 2:25]))" --expect "Z.T @ (PZ[:, :23] * (Z @ U[:, :23]))" --expect "X[6:8].T @ ((lambda P, Q: Q - P * Q.sum(axis=1, keepdims=True))(P1[:, :23], P1[:, :23] * (X[6:8] @ V1[:, :23])))" --expect "X[1:2].T @ ((lambda P, Q: Q - P * Q.sum(axis=1, keepdims=True))(P1[:1, :23], P1[:1, :23] * (X[1:2] @ V1[:, :23])))" -- --threads 1
// RUN: %oracle %s --input X="np.where(np.arange(100)[None, :] == 7, 1.0, np.where((np.arange(100)[None, :] %% 47 == 3) | (np.arange(3000)[:, None] %% 7 == 0), 0.0, (rng.random((3000, 100)) < 0.05) * (rng.random((3000, 100)) - 0.3)))" --input kk="np.array([[23.0]])" --input P17="rng.random((3000, 17))" --input V17="rng.random((100, 17)) - 0.5" --input Pf="rng.random((3000, 30))" --input Vf="rng.random((100, 30)) - 0.5" --input Yf="np.where(rng.random((3000, 30)) < 0.5, -1.0, 1.0)" --input q="rng.random((1, 30)) - 0.5" --input T="rng.random((3, 30)) - 0.5" --input Z="np.zeros((100, 50))" --input U="rng.random((50, 30))" --input PZ="rng.random((100, 30))" --input V1="rng.random((100, 30)) - 0.5" --input P1="rng.random((2, 30))" --expect "X.T @ ((lambda Q: Q - P17 * Q.sum(axis=1, keepdims=True))(P17 * (X @ V17)))" --expect "X.T @ ((lambda P, Q: Q - P * Q.sum(axis=1, keepdims=True))(Pf[:, :23], Pf[:, :23] * (X @ Vf[:, :23])))" --expect "X.T @ ((1 - Yf[:, :23] * (X @ Vf[:, 1:24])) * Yf[:, :23])" --expect "X.T @ ((lambda XV: XV * q[:, :23] + XV.max(axis=1, keepdims=True) - Pf[:, :23].min(axis=1, keepdims=True) * (XV ** 2).sum(axis=1, keepdims=True) + np.exp(-np.abs(XV)) + XV[:, :3] @ T[:, :23])(X @ Vf[:, 2:25]))" --expect "Z.T @ (PZ[:, :23] * (Z @ U[:, :23]))" --expect "X[6:8].T @ ((lambda P, Q: Q - P * Q.sum(axis=1, keepdims=True))(P1[:, :23], P1[:, :23] * (X[6:8] @ V1[:, :23])))" --expect "X[1:2].T @ ((lambda P, Q: Q - P * Q.sum(axis=1, keepdims=True))(P1[:1, :23], P1[:1, :23] * (X[1:2] @ V1[:, :23])))" --seed 5 -- --threads 2 --fuse-explain 2>&1 | FileCheck %s --check-prefixes=CHECK%differential_checks
// k = 4 at run time: the same loops over fewer columns.
// RUN: %oracle %s --input X="np.where(np.arange(100)[None, :] == 7, 1.0, np.where((np.arange(100)[None, :] %% 47 == 3) | (np.arange(3000)[:, None] %% 7 == 0), 0.0, (rng.random((3000, 100)) < 0.05) * (rng.random((3000, 100)) - 0.3)))" --input kk="np.array([[4.0]])" --input P17="rng.random((3000, 17))" --input V17="rng.random((100, 17)) - 0.5" --input Pf="rng.random((3000, 30))" --input Vf="rng.random((100, 30)) - 0.5" --input Yf="np.where(rng.random((3000, 30)) < 0.5, -1.0, 1.0)" --input q="rng.random((1, 30)) - 0.5" --input T="rng.random((3, 30)) - 0.5" --input Z="np.zeros((100, 50))" --input U="rng.random((50, 30))" --input PZ="rng.random((100, 30))" --input V1="rng.random((100, 30)) - 0.5" --input P1="rng.random((2, 30))" --expect "X.T @ ((lambda Q: Q - P17 * Q.sum(axis=1, keepdims=True))(P17 * (X @ V17)))" --expect "X.T @ ((lambda P, Q: Q - P * Q.sum(axis=1, keepdims=True))(Pf[:, :4], Pf[:, :4] * (X @ Vf[:, :4])))" --expect "X.T @ ((1 - Yf[:, :4] * (X @ Vf[:, 1:5])) * Yf[:, :4])" --expect "X.T @ ((lambda XV: XV * q[:, :4] + XV.max(axis=1, keepdims=True) - Pf[:, :4].min(axis=1, keepdims=True) * (XV ** 2).sum(axis=1, keepdims=True) + np.exp(-np.abs(XV)) + XV[:, :3] @ T[:, :4])(X @ Vf[:, 2:6]))" --expect "Z.T @ (PZ[:, :4] * (Z @ U[:, :4]))" --expect "X[6:8].T @ ((lambda P, Q: Q - P * Q.sum(axis=1, keepdims=True))(P1[:, :4], P1[:, :4] * (X[6:8] @ V1[:, :4])))" --expect "X[1:2].T @ ((lambda P, Q: Q - P * Q.sum(axis=1, keepdims=True))(P1[:1, :4], P1[:1, :4] * (X[1:2] @ V1[:, :4])))" --seed 9 -- --threads 2
// Every candidate over a CSR X fuses, the 1-row X1 aside (the planner
// leaves a main input of one row to the unfused ops).
// CHECK: row template closing at amls.transpose {{.*}}: main input !amls.matrix<3000x100xf64, sparsity = {{.*}}, format = csr>, 1 row inputs, 1 side inputs, 6 ops
// CHECK-NEXT: cost fused {{.*}}: fused
// CHECK: row template closing at amls.transpose {{.*}}: main input !amls.matrix<3000x100xf64, sparsity = {{.*}}, format = csr>, 1 row inputs, 1 side inputs, 6 ops
// CHECK-NEXT: cost fused {{.*}}: fused
// CHECK: row template closing at amls.transpose {{.*}}: main input !amls.matrix<3000x100xf64, sparsity = {{.*}}, format = csr>, 1 row inputs, 2 side inputs, 5 ops
// CHECK-NEXT: cost fused {{.*}}: fused
// CHECK: row template closing at amls.transpose {{.*}}: main input !amls.matrix<3000x100xf64, sparsity = {{.*}}, format = csr>, 1 row inputs, 3 side inputs, 16 ops
// CHECK-NEXT: cost fused {{.*}}: fused
// CHECK: row template closing at amls.transpose {{.*}}: main input !amls.matrix<100x50xf64, sparsity = 0{{.*}}, format = csr>, 1 row inputs, 1 side inputs, 3 ops
// CHECK-NEXT: cost fused {{.*}}: fused
// CHECK: row template closing at amls.transpose {{.*}}: main input !amls.matrix<2x100xf64, sparsity = {{.*}}, format = csr>, 1 row inputs, 1 side inputs, 6 ops
// CHECK-NEXT: cost fused {{.*}}: fused
// CHECK-NOT: not fused
// CHECK: PASS: result 6
// DIFFERENTIAL: PASS: csr

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %kk: !amls.matrix<?x?xf64> {amls.name = "kk"},
                %P17: !amls.matrix<?x?xf64> {amls.name = "P17"},
                %V17: !amls.matrix<?x?xf64> {amls.name = "V17"},
                %Pf: !amls.matrix<?x?xf64> {amls.name = "Pf"},
                %Vf: !amls.matrix<?x?xf64> {amls.name = "Vf"},
                %Yf: !amls.matrix<?x?xf64> {amls.name = "Yf"},
                %qf: !amls.matrix<?x?xf64> {amls.name = "q"},
                %Tf: !amls.matrix<?x?xf64> {amls.name = "T"},
                %Z: !amls.matrix<?x?xf64> {amls.name = "Z"},
                %Uf: !amls.matrix<?x?xf64> {amls.name = "U"},
                %PZf: !amls.matrix<?x?xf64> {amls.name = "PZ"},
                %V1f: !amls.matrix<?x?xf64> {amls.name = "V1"},
                %P1f: !amls.matrix<?x?xf64> {amls.name = "P1"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f64
  // k from the data: known only at run time.
  %kmax = amls.agg max all %kk : !amls.matrix<?x?xf64> -> f64
  %k64 = arith.fptosi %kmax : f64 to i64
  %k = arith.index_cast %k64 : i64 to index
  %n = amls.nrow %X : !amls.matrix<?x?xf64>
  %m = amls.ncol %X : !amls.matrix<?x?xf64>
  %P = amls.slice %Pf[%c0 : %n, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %V = amls.slice %Vf[%c0 : %m, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Y = amls.slice %Yf[%c0 : %n, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %q = amls.slice %qf[%c0 : %c1, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %T = amls.slice %Tf[%c0 : %c3, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // MLogreg's Hessian-vector product, 17 columns.
  %XV17 = amls.matmul %X, %V17 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Q17 = amls.mul %P17, %XV17 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %rs17 = amls.agg sum row %Q17 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %t17 = amls.mul %P17, %rs17 : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %R17 = amls.sub %Q17, %t17 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %H17 = amls.matmul %Xt, %R17 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // The same with k columns.
  %XV = amls.matmul %X, %V : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Q = amls.mul %P, %XV : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %rs = amls.agg sum row %Q : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %t = amls.mul %P, %rs : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %R = amls.sub %Q, %t : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Xt1 = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %H = amls.matmul %Xt1, %R : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // A multi-class L2SVM gradient, k columns.
  %c2 = arith.constant 2 : index
  %k1 = arith.addi %k, %c1 : index
  %k2 = arith.addi %k, %c2 : index
  %W = amls.slice %Vf[%c0 : %m, %c1 : %k1] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %XW = amls.matmul %X, %W : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %YXW = amls.mul %Y, %XW : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %out = amls.sub %one, %YXW : f64, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %outY = amls.mul %out, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Xt2 = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %G = amls.matmul %Xt2, %outY : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // Broadcast side vector, row aggregates of wide rows, a narrow slice.
  %V2 = amls.slice %Vf[%c0 : %m, %c2 : %k2] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %XV2 = amls.matmul %X, %V2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %a0 = amls.mul %XV2, %q : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %mx = amls.agg max row %XV2 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %a1 = amls.add %a0, %mx : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %mn = amls.agg min row %P : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %sq = amls.agg sumsq row %XV2 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %mnsq = amls.mul %mn, %sq : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %a2 = amls.sub %a1, %mnsq : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %ab = amls.abs %XV2 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %nab = amls.neg %ab : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %ex = amls.exp %nab : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %a3 = amls.add %a2, %ex : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %s3 = amls.slice %XV2[%c0 : %n, %c0 : %c3] : !amls.matrix<?x?xf64> -> !amls.matrix<?x3xf64>
  %s3T = amls.matmul %s3, %T : !amls.matrix<?x3xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %a4 = amls.add %a3, %s3T : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Xt3 = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %B = amls.matmul %Xt3, %a4 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // The all-zero Z.
  %nz = amls.nrow %Z : !amls.matrix<?x?xf64>
  %mz = amls.ncol %Z : !amls.matrix<?x?xf64>
  %U = amls.slice %Uf[%c0 : %mz, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %PZ = amls.slice %PZf[%c0 : %nz, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %ZU = amls.matmul %Z, %U : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %RZ = amls.mul %PZ, %ZU : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Zt = amls.transpose %Z : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %HZ = amls.matmul %Zt, %RZ : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // X2, rows 6 and 7 of X (CSR; row 7 is empty): one row per thread.
  %X2 = amls.slice %X[%c6 : %c8, %c0 : %m] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %m2 = amls.ncol %X2 : !amls.matrix<?x?xf64>
  %VX2 = amls.slice %V1f[%c0 : %m2, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %PX2 = amls.slice %P1f[%c0 : %c2, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %XVX2 = amls.matmul %X2, %VX2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Q2 = amls.mul %PX2, %XVX2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %rs2 = amls.agg sum row %Q2 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %t2 = amls.mul %PX2, %rs2 : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %R2 = amls.sub %Q2, %t2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %X2t = amls.transpose %X2 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %H2 = amls.matmul %X2t, %R2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // The 1-row X1, row 1 of X (CSR): the planner leaves a main input of
  // one row unfused.
  %X1 = amls.slice %X[%c1 : %c2, %c0 : %m] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %m1 = amls.ncol %X1 : !amls.matrix<?x?xf64>
  %V1 = amls.slice %V1f[%c0 : %m1, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %P1 = amls.slice %P1f[%c0 : %c1, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %XV1 = amls.matmul %X1, %V1 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Q1 = amls.mul %P1, %XV1 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %rs1 = amls.agg sum row %Q1 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %t1 = amls.mul %P1, %rs1 : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %R1 = amls.sub %Q1, %t1 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %X1t = amls.transpose %X1 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %H1 = amls.matmul %X1t, %R1 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %H17, %H, %G, %B, %HZ, %H2, %H1 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
