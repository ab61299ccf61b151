// --formats=auto (the default) compresses a large dense parameter that a
// loop multiplies when the session's look at its data (1,024 rows) finds
// at least half its columns with few distinct values: binned X (100000 x
// 12, 1.2M cells) is compressed without --formats=compressed, continuous X
// is not (its dense path untouched), and both match NumPy.
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input X="binned(100000, 12)" --input v="rng.random((12, 1))" --expect "power_steps(X, v, 3)" -- --threads 2 --formats-explain --stats 2>&1 | FileCheck %s
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input X="rng.random((100000, 12))" --input v="rng.random((12, 1))" --expect "power_steps(X, v, 3)" -- --threads 2 --formats-explain --stats 2>&1 | FileCheck %s --check-prefix=CONTINUOUS
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input X="binned(100000, 12)" --input v="rng.random((12, 1))" --expect "power_steps(X, v, 3)" -- --threads 2 --formats=dense --formats-explain 2>&1 | FileCheck %s --check-prefix=DENSE
// CHECK: amls-select-compression: {{.*}}: compress !amls.matrix<100000x12xf64{{.*}}> for 1 product(s) in the loop at
// CHECK: amls.compress 100000 x 12: compressed to {{[0-9]+}} bytes
// CHECK: amls-run compressed: 1 matrix compressed, 0 decompressed (0 bytes)
// CHECK: PASS: result 0
// CONTINUOUS-NOT: amls.compress
// CONTINUOUS-NOT: amls-run compressed:
// CONTINUOUS: PASS: result 0
// DENSE-NOT: amls.compress
// DENSE: PASS: result 0

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %v0: !amls.matrix<?x1xf64> {amls.name = "v"})
    -> !amls.matrix<?x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%v = %v0) -> (!amls.matrix<?x1xf64>) {
    %q = amls.matmul %X, %v : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %g = amls.matmul %t, %q : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %a = amls.abs %g : !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %s = amls.agg sum all %a : !amls.matrix<?x1xf64> -> f64
    %next = amls.div %g, %s : !amls.matrix<?x1xf64>, f64 -> !amls.matrix<?x1xf64>
    scf.yield %next : !amls.matrix<?x1xf64>
  }
  return %r : !amls.matrix<?x1xf64>
}
