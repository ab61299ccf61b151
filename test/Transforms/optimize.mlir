// RUN: amls-opt %s --amls-optimize | FileCheck %s

// The pipeline's rewrites compose: sum(t(X) %*% X) becomes sum(A %*% B) ->
// sum(t(colSums(t(X))) * rowSums(X)) -> a dot product of the row sums
// (a tsmm of a vector), loop-invariant code motion hoists it out of the
// loop, and t(X) %*% (X %*% v) becomes an mmchain.
// CHECK-LABEL: func @pipeline
// CHECK-SAME: (%[[X:.*]]: !amls.matrix<1000x10xf64>, %[[V:.*]]: !amls.matrix<10x1xf64>, %{{.*}}: index)
// CHECK: %[[R:.*]] = amls.agg sum row %[[X]] : !amls.matrix<1000x10xf64> -> !amls.matrix<1000x1xf64>
// CHECK: %[[G:.*]] = amls.tsmm left %[[R]] : !amls.matrix<1000x1xf64> -> !amls.matrix<1x1xf64>
// CHECK: %[[S:.*]] = amls.as_scalar %[[G]]
// CHECK: scf.for
// CHECK-NOT: amls.
// CHECK: arith.addf %{{.*}}, %[[S]]
// CHECK: scf.yield
// CHECK: %[[M:.*]] = amls.mmchain %[[X]], %[[V]]
// CHECK-NOT: amls.matmul
// CHECK: return %[[M]]
func.func @pipeline(%X: !amls.matrix<1000x10xf64>, %v: !amls.matrix<10x1xf64>, %n: index) -> (!amls.matrix<10x1xf64>, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %t = amls.transpose %X : !amls.matrix<1000x10xf64> -> !amls.matrix<10x1000xf64>
    %G = amls.matmul %t, %X : !amls.matrix<10x1000xf64>, !amls.matrix<1000x10xf64> -> !amls.matrix<10x10xf64>
    %s = amls.agg sum all %G : !amls.matrix<10x10xf64> -> f64
    %next = arith.addf %acc, %s : f64
    scf.yield %next : f64
  }
  %t = amls.transpose %X : !amls.matrix<1000x10xf64> -> !amls.matrix<10x1000xf64>
  %xv = amls.matmul %X, %v : !amls.matrix<1000x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<1000x1xf64>
  %g = amls.matmul %t, %xv : !amls.matrix<10x1000xf64>, !amls.matrix<1000x1xf64> -> !amls.matrix<10x1xf64>
  return %g, %r : !amls.matrix<10x1xf64>, f64
}
