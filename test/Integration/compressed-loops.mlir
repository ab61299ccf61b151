// Products on a compressed matrix (--formats=compressed): X (12000 x 8 of
// binned values, 144,000 cells) is compressed before the loop, whose
// products read it: t(X) %*% (X %*% v) (an amls.mmchain after the
// rewrites), X %*% W and t(X) %*% P for a 3-column W. The same program
// without the flag is the differential reference; NumPy the oracle.
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input X="binned(12000, 8)" --input v="rng.random((8, 1))" --input W="rng.random((8, 3)) - 0.5" --expect "power_steps(X, v, 5)" --expect "projections(X, W, 5)" -- --threads 2 --formats=compressed
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input X="binned(12000, 8)" --input v="rng.random((8, 1))" --input W="rng.random((8, 3)) - 0.5" --expect "power_steps(X, v, 5)" --expect "projections(X, W, 5)" -- --threads 1 --formats=compressed --formats-explain 2>&1 | FileCheck %s
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input X="binned(12000, 8)" --input v="rng.random((8, 1))" --input W="rng.random((8, 3)) - 0.5" --expect "power_steps(X, v, 5)" --expect "projections(X, W, 5)" -- --threads 2
// Continuous values do not compress 2x: the plan keeps X as one
// uncompressed group (its products BLAS on it), and the run says so.
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input X="rng.random((12000, 8))" --input v="rng.random((8, 1))" --input W="rng.random((8, 3)) - 0.5" --expect "power_steps(X, v, 5)" --expect "projections(X, W, 5)" -- --threads 2 --formats=compressed --formats-explain 2>&1 | FileCheck %s --check-prefix=KEPT
// KEPT: amls.compress 12000 x 8: keep: {{[0-9]+}} groups
// KEPT: amls.compress 12000 x 8: kept uncompressed, 768000 bytes (1.00x) in {{[0-9.]+}} s
// CHECK: amls-select-compression: {{.*}}: compress !amls.matrix<12000x8xf64{{.*}}> for 3 product(s) in the loop at
// CHECK: amls.compress 12000 x 8: compress: {{[0-9]+}} groups
// CHECK: DDC columns
// CHECK: amls.compress 12000 x 8: compressed to {{[0-9]+}} bytes
// CHECK: PASS: result 1

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %v0: !amls.matrix<?x1xf64> {amls.name = "v"},
                %W: !amls.matrix<?x3xf64> {amls.name = "W"})
    -> (!amls.matrix<?x1xf64>, !amls.matrix<?x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.0 : f64
  %r:2 = scf.for %i = %c0 to %c5 step %c1
      iter_args(%v = %v0, %acc = %W) -> (!amls.matrix<?x1xf64>, !amls.matrix<?x3xf64>) {
    %q = amls.matmul %X, %v : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %g = amls.matmul %t, %q : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %a = amls.abs %g : !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %s = amls.agg sum all %a : !amls.matrix<?x1xf64> -> f64
    %next = amls.div %g, %s : !amls.matrix<?x1xf64>, f64 -> !amls.matrix<?x1xf64>
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f64
    %k = arith.addf %fi, %one : f64
    %Wk = amls.mul %W, %k : !amls.matrix<?x3xf64>, f64 -> !amls.matrix<?x3xf64>
    %P = amls.matmul %X, %Wk : !amls.matrix<?x?xf64>, !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    %R = amls.matmul %t, %P : !amls.matrix<?x?xf64>, !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    %acc2 = amls.add %acc, %R : !amls.matrix<?x3xf64>, !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    scf.yield %next, %acc2 : !amls.matrix<?x1xf64>, !amls.matrix<?x3xf64>
  }
  %accW = amls.sub %r#1, %W : !amls.matrix<?x3xf64>, !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
  return %r#0, %accW : !amls.matrix<?x1xf64>, !amls.matrix<?x3xf64>
}
