// Outer-template operators against NumPy: sum(X * log(U %*% t(V) + 1e-15))
// (bench/programs/outer-log.mlir) and X * (U %*% t(V)) with a sparse X (5%
// non-zeros, the density amls-run reads from the data), one and two
// threads; oracle.py also runs them unfused and with the heuristics.
// RUN: %oracle %S/../../bench/programs/outer-log.mlir --input X="(rng.random((300, 200)) < 0.05) * rng.random((300, 200))" --input U="rng.random((300, 8))" --input V="rng.random((200, 8))" --expect "np.sum(X * np.log(U @ V.T + 1e-15))" --rtol 1e-10 -- --threads 2
// RUN: %oracle %s --input X="(rng.random((301, 150)) < 0.05) * rng.random((301, 150))" --input U="rng.random((301, 4))" --input V="rng.random((150, 4))" --expect "X * (U @ V.T)" -- --threads 1
// The plans: one outer operator each.
// RUN: %oracle %S/../../bench/programs/outer-log.mlir --no-differential --input X="(rng.random((300, 200)) < 0.05) * rng.random((300, 200))" --input U="rng.random((300, 8))" --input V="rng.random((200, 8))" --expect "np.sum(X * np.log(U @ V.T + 1e-15))" --rtol 1e-10 -- --threads 2 --fuse-explain 2>&1 | FileCheck %s --check-prefix=LOG
// LOG: outer template at amls.matmul {{.*}}: main input !amls.matrix<300x200xf64, sparsity = {{.*}}>, 3 element-wise ops, closed by a sum
// LOG-NEXT: cost fused {{.*}}: fused
// LOG: PASS: result 0 matches
// RUN: %oracle %s --no-differential --input X="(rng.random((301, 150)) < 0.05) * rng.random((301, 150))" --input U="rng.random((301, 4))" --input V="rng.random((150, 4))" --expect "X * (U @ V.T)" -- --threads 1 --fuse-explain 2>&1 | FileCheck %s --check-prefix=MASK
// MASK: outer template at amls.matmul {{.*}}, 1 element-wise ops
// MASK-NEXT: cost fused {{.*}}: fused
// MASK: PASS: result 0 matches
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %U: !amls.matrix<?x?xf64> {amls.name = "U"},
                %V: !amls.matrix<?x?xf64> {amls.name = "V"}) -> !amls.matrix<?x?xf64> {
  %Vt = amls.transpose %V : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %UV = amls.matmul %U, %Vt : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %P = amls.mul %X, %UV : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %P : !amls.matrix<?x?xf64>
}
