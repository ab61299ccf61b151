// MLogreg's Hessian-vector product (bench/programs/mlogreg-step.mlir) as a
// row-template operator against NumPy: rows a multiple of the block (320
// rows for 100 columns), not a multiple (3001: a partial last block), fewer
// than a block (37), and more blocks than chunks (20000 rows: 63 blocks in
// 32 chunks); one and two threads. oracle.py also runs it unfused and with
// the fusion heuristics.
// RUN: %oracle %S/../../bench/programs/mlogreg-step.mlir --input X="rng.random((3200, 100))" --input P="rng.random((3200, 6))" --input V="rng.standard_normal((100, 5))" --expect "X.T @ ((lambda Q: Q - P[:, :5] * Q.sum(axis=1, keepdims=True))(P[:, :5] * (X @ V)))" -- --threads 2
// RUN: %oracle %S/../../bench/programs/mlogreg-step.mlir --input X="rng.random((3001, 100))" --input P="rng.random((3001, 4))" --input V="rng.standard_normal((100, 3))" --expect "X.T @ ((lambda Q: Q - P[:, :3] * Q.sum(axis=1, keepdims=True))(P[:, :3] * (X @ V)))" -- --threads 1
// RUN: %oracle %S/../../bench/programs/mlogreg-step.mlir --input X="rng.random((37, 10))" --input P="rng.random((37, 3))" --input V="rng.standard_normal((10, 2))" --expect "X.T @ ((lambda Q: Q - P[:, :2] * Q.sum(axis=1, keepdims=True))(P[:, :2] * (X @ V)))" -- --threads 2
// RUN: %oracle %S/../../bench/programs/mlogreg-step.mlir --no-differential --input X="rng.random((20000, 100))" --input P="rng.random((20000, 6))" --input V="rng.standard_normal((100, 5))" --expect "X.T @ ((lambda Q: Q - P[:, :5] * Q.sum(axis=1, keepdims=True))(P[:, :5] * (X @ V)))" -- --threads 2
// The plan: one row-template operator; nothing materialized.
// RUN: %oracle %S/../../bench/programs/mlogreg-step.mlir --no-differential --input X="rng.random((3001, 100))" --input P="rng.random((3001, 4))" --input V="rng.standard_normal((100, 3))" --expect "X.T @ ((lambda Q: Q - P[:, :3] * Q.sum(axis=1, keepdims=True))(P[:, :3] * (X @ V)))" -- --threads 2 --fuse-explain 2>&1 | FileCheck %s
// CHECK: row template closing at amls.matmul {{.*}}mlogreg-step.mlir":20:8): main input !amls.matrix<3001x100xf64{{.*}}>, 1 row inputs, 1 side inputs, 7 ops
// CHECK-NEXT: cost fused {{.*}}: fused
// CHECK: PASS: result 0 matches
// A row operator whose body also reads t(X) whole, as a side input
// (Y %*% t(X)), besides the transposed block of the closing product.
// RUN: %oracle %s --input X="0.3 * rng.random((100, 3))" --input Y="0.3 * rng.random((100, 3))" --expect "X.T @ np.exp(Y @ X.T)" -- --threads 2 --fuse-explain 2>&1 | FileCheck %s --check-prefix=SIDE
// SIDE: row template closing at amls.matmul {{.*}}: main input !amls.matrix<100x3xf64{{.*}}>, 1 row inputs, 1 side inputs, 3 ops
// SIDE-NEXT: cost fused {{.*}}: fused
// SIDE: PASS: result 0 matches
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"}) -> !amls.matrix<?x?xf64> {
  %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %G = amls.matmul %Y, %Xt : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %E = amls.exp %G : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %H = amls.matmul %Xt, %E : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %H : !amls.matrix<?x?xf64>
}
