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

// A parfor is a loop like any other: the grid search's t(X) %*% X (a tsmm)
// leaves its body and is computed once.
// CHECK-LABEL: func @parfor_invariant
// CHECK: %[[G:.*]] = amls.tsmm
// CHECK: amls.parfor
// CHECK-NOT: amls.tsmm
// CHECK: amls.add %[[G]]
func.func @parfor_invariant(%X: !amls.matrix<1000x10xf64>, %R: !amls.matrix<10x10xf64>) -> !amls.matrix<10x10xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %0 = amls.parfor %c0 to %c10 step %c1 shared(%R : !amls.matrix<10x10xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x10xf64>):
    %i64 = arith.index_cast %i : index to i64
    %f = arith.sitofp %i64 : i64 to f64
    %xt = amls.transpose %X : !amls.matrix<1000x10xf64> -> !amls.matrix<10x1000xf64>
    %g = amls.matmul %xt, %X : !amls.matrix<10x1000xf64>, !amls.matrix<1000x10xf64> -> !amls.matrix<10x10xf64>
    %a = amls.add %g, %f : !amls.matrix<10x10xf64>, f64 -> !amls.matrix<10x10xf64>
    %i1 = arith.addi %i, %c1 : index
    %row = amls.slice %a[%i : %i1, %c0 : %c10] : !amls.matrix<10x10xf64> -> !amls.matrix<1x10xf64>
    %w = amls.insert_slice %row into %acc[%i : %i1, %c0 : %c10] : !amls.matrix<1x10xf64> into !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
    amls.yield %w : !amls.matrix<10x10xf64>
  } -> !amls.matrix<10x10xf64>
  return %0 : !amls.matrix<10x10xf64>
}
