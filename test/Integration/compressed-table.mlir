// A one-hot matrix built in the program by table(seq(1, n), codes) and
// multiplied in a loop is compressed (--formats=compressed; dense here, as
// its width is known only once the codes are: 4.8 MB for 28 KB compressed):
// the power iteration's t(X) %*% (X %*% v) reads the compressed X, whose 30
// disjoint columns co-code into one DDC group of 31 tuples, and so does
// colSums after the loop. NumPy's
// one-hot matrix is the oracle; the same program without the flag is the
// differential reference.
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input codes="rng.integers(1, 31, (20000, 1)).astype(float)" --input v="rng.random((30, 1))" --expect "power_steps(one_hot(codes, 30), v, 4)" --expect "one_hot(codes, 30).sum(axis=0, keepdims=True)" -- --threads 2 --formats=compressed --formats-explain --stats 2>&1 | FileCheck %s
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input codes="rng.integers(1, 31, (20000, 1)).astype(float)" --input v="rng.random((30, 1))" --expect "power_steps(one_hot(codes, 30), v, 4)" --expect "one_hot(codes, 30).sum(axis=0, keepdims=True)" -- --threads 2
// CHECK: amls-select-compression: {{.*}}: compress !amls.matrix<{{.*}}> for 1 product(s) in the loop at
// CHECK: amls-select-compression: {{.*}}: 1 later op(s) read the compressed matrix, 0 a decompressed copy
// CHECK: amls.compress 20000 x 30: compress: 1 groups
// CHECK-NEXT: DDC columns [0-29] distinct 31
// CHECK: amls.compress 20000 x 30: compressed to {{[0-9]+}} bytes
// CHECK: amls-run compressed: 1 matrix compressed, 0 decompressed (0 bytes)
// CHECK: PASS: result 1

func.func @main(%codes: !amls.matrix<?x1xf64> {amls.name = "codes"},
                %v0: !amls.matrix<?x1xf64> {amls.name = "v"})
    -> (!amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f64
  %n = amls.nrow %codes : !amls.matrix<?x1xf64>
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f64
  %i = amls.seq %one, %nf, %one : f64 -> !amls.matrix<?x1xf64>
  %X = amls.table %i, %codes : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%v = %v0) -> (!amls.matrix<?x1xf64>) {
    %q = amls.matmul %X, %v : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %g = amls.matmul %t, %q : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %a = amls.abs %g : !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %s = amls.agg sum all %a : !amls.matrix<?x1xf64> -> f64
    %next = amls.div %g, %s : !amls.matrix<?x1xf64>, f64 -> !amls.matrix<?x1xf64>
    scf.yield %next : !amls.matrix<?x1xf64>
  }
  %counts = amls.agg sum col %X : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  return %r, %counts : !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>
}
