// The ops after a loop on a compressed matrix (--formats=compressed): X =
// abs(X0) is compressed before the power iteration's loop, and since the
// program made X, its later uses read the compressed form too: sum, colMeans
// and rowSums from the dictionaries, 2 * X + 1 as two scalar maps (a new
// compressed matrix each) whose product follows, and max, which has no
// kernel, of one decompressed copy (counted by --stats; nrow folds to the
// input's known size). The same program
// without the flag is the differential reference; NumPy the oracle.
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input X="binned(12000, 8)" --input v="rng.random((8, 1))" --expect "power_steps(np.abs(X), v, 3)" --expect "np.abs(X).sum()" --expect "np.abs(X).mean(axis=0, keepdims=True)" --expect "np.abs(X).sum(axis=1, keepdims=True)" --expect "(2 * np.abs(X) + 1) @ v" --expect "np.abs(X).max() * X.shape[0]" -- --threads 2 --formats=compressed --formats-explain --stats 2>&1 | FileCheck %s
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input X="binned(12000, 8)" --input v="rng.random((8, 1))" --expect "power_steps(np.abs(X), v, 3)" --expect "np.abs(X).sum()" --expect "np.abs(X).mean(axis=0, keepdims=True)" --expect "np.abs(X).sum(axis=1, keepdims=True)" --expect "(2 * np.abs(X) + 1) @ v" --expect "np.abs(X).max() * X.shape[0]" -- --threads 1 --formats=compressed
// RUN: %oracle %s --no-differential --define %S/Inputs/compressed_loops.py --input X="binned(12000, 8)" --input v="rng.random((8, 1))" --expect "power_steps(np.abs(X), v, 3)" --expect "np.abs(X).sum()" --expect "np.abs(X).mean(axis=0, keepdims=True)" --expect "np.abs(X).sum(axis=1, keepdims=True)" --expect "(2 * np.abs(X) + 1) @ v" --expect "np.abs(X).max() * X.shape[0]" -- --threads 2
// CHECK: amls-select-compression: {{.*}}: compress !amls.matrix<12000x8xf64{{.*}}> for {{[0-9]+}} product(s) in the loop at
// CHECK: amls-select-compression: {{.*}}: 4 later op(s) read the compressed matrix, 1 a decompressed copy
// CHECK: amls.compress 12000 x 8: compressed to {{[0-9]+}} bytes
// CHECK: amls-run compressed: 1 matrix compressed, 1 decompressed (768000 bytes)
// CHECK: PASS: result 5

func.func @main(%X0: !amls.matrix<?x?xf64> {amls.name = "X"},
                %v0: !amls.matrix<?x1xf64> {amls.name = "v"})
    -> (!amls.matrix<?x1xf64>, f64, !amls.matrix<1x?xf64>, !amls.matrix<?x1xf64>,
        !amls.matrix<?x1xf64>, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %X = amls.abs %X0 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%v = %v0) -> (!amls.matrix<?x1xf64>) {
    %q = amls.matmul %X, %v : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %g = amls.matmul %t, %q : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %a = amls.abs %g : !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
    %s = amls.agg sum all %a : !amls.matrix<?x1xf64> -> f64
    %next = amls.div %g, %s : !amls.matrix<?x1xf64>, f64 -> !amls.matrix<?x1xf64>
    scf.yield %next : !amls.matrix<?x1xf64>
  }
  %sum = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
  %means = amls.agg mean col %X : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %rows = amls.agg sum row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %X2 = amls.mul %X, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %X21 = amls.add %X2, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %p = amls.matmul %X21, %v0 : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %n = amls.nrow %X : !amls.matrix<?x?xf64>
  %max = amls.agg max all %X : !amls.matrix<?x?xf64> -> f64
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f64
  %scaled = arith.mulf %max, %nf : f64
  return %r, %sum, %means, %rows, %p, %scaled : !amls.matrix<?x1xf64>, f64, !amls.matrix<1x?xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, f64
}
