// RUN: amls-opt %s -split-input-file -amls-vectorize-loops -canonicalize | FileCheck %s

// The seed's loop: for (i in a:b) X[i, 1] = Y[i, 2] + Z[i, 1], with 0-based
// half-open rows [i, i+1): one block of rows [a, b), when the loop runs.
// CHECK-LABEL: func @seed_example
// CHECK-SAME: (%[[X:.*]]: !amls.matrix<10x2xf64>, %[[Y:.*]]: !amls.matrix<10x3xf64>, %[[Z:.*]]: !amls.matrix<10x2xf64>, %[[A:.*]]: index, %[[B:.*]]: index)
// CHECK-NOT: scf.for
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[A]], %[[B]]
// CHECK: %[[R:.*]] = scf.if %[[RUNS]]
// CHECK: %[[YS:.*]] = amls.slice %[[Y]][%[[A]] : %[[B]], %c1 : %c2] : !amls.matrix<10x3xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[ZS:.*]] = amls.slice %[[Z]][%[[A]] : %[[B]], %c0 : %c1] : !amls.matrix<10x2xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[S:.*]] = amls.add %[[YS]], %[[ZS]] : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[W:.*]] = amls.insert_slice %[[S]] into %[[X]][%[[A]] : %[[B]], %c0 : %c1]
// CHECK: scf.yield %[[W]]
// CHECK: } else {
// CHECK: scf.yield %[[X]]
// CHECK: return %[[R]]
func.func @seed_example(%X: !amls.matrix<10x2xf64>, %Y: !amls.matrix<10x3xf64>, %Z: !amls.matrix<10x2xf64>, %a: index, %b: index) -> !amls.matrix<10x2xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %a to %b step %c1 iter_args(%acc = %X) -> (!amls.matrix<10x2xf64>) {
    %i1 = arith.addi %i, %c1 : index
    %y = amls.slice %Y[%i : %i1, %c1 : %c2] : !amls.matrix<10x3xf64> -> !amls.matrix<1x1xf64>
    %z = amls.slice %Z[%i : %i1, %c0 : %c1] : !amls.matrix<10x2xf64> -> !amls.matrix<1x1xf64>
    %s = amls.add %y, %z : !amls.matrix<1x1xf64>, !amls.matrix<1x1xf64> -> !amls.matrix<1x1xf64>
    %n = amls.insert_slice %s into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<10x2xf64> -> !amls.matrix<10x2xf64>
    scf.yield %n : !amls.matrix<10x2xf64>
  }
  return %r : !amls.matrix<10x2xf64>
}

// -----

// DML's loop variable is a double: i = 2 + iv, and X[i, ] is rows
// [fptosi(i) - 1, fptosi(i)); reading Y one row below (i + 1) and a scalar
// defined outside the loop. Constant bounds 0:4 fold the guard.
// CHECK-LABEL: func @dml_loop_variable
// CHECK-NOT: scf.for
// CHECK-NOT: scf.if
// CHECK: %[[YS:.*]] = amls.slice %arg1[%c2 : %c6, %c0 : %c3] : !amls.matrix<8x3xf64> -> !amls.matrix<4x3xf64>
// CHECK: %[[P:.*]] = amls.mul %[[YS]], %arg2 : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
// CHECK: %[[W:.*]] = amls.insert_slice %[[P]] into %arg0[%c1 : %c5, %c0 : %c3]
// CHECK: return %[[W]]
func.func @dml_loop_variable(%X: !amls.matrix<8x3xf64>, %Y: !amls.matrix<8x3xf64>, %s: f64) -> !amls.matrix<8x3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %two = arith.constant 2.0 : f64
  %r = scf.for %iv = %c0 to %c4 step %c1 iter_args(%acc = %X) -> (!amls.matrix<8x3xf64>) {
    %0 = arith.index_cast %iv : index to i64
    %1 = arith.sitofp %0 : i64 to f64
    %i = arith.addf %1, %two : f64
    %2 = arith.fptosi %i : f64 to i64
    %end = arith.index_cast %2 : i64 to index
    %begin = arith.subi %end, %c1 : index
    %next = arith.addi %end, %c1 : index
    %y = amls.slice %Y[%end : %next, %c0 : %c3] : !amls.matrix<8x3xf64> -> !amls.matrix<1x3xf64>
    %p = amls.mul %y, %s : !amls.matrix<1x3xf64>, f64 -> !amls.matrix<1x3xf64>
    %n = amls.insert_slice %p into %acc[%begin : %end, %c0 : %c3] : !amls.matrix<1x3xf64> into !amls.matrix<8x3xf64> -> !amls.matrix<8x3xf64>
    scf.yield %n : !amls.matrix<8x3xf64>
  }
  return %r : !amls.matrix<8x3xf64>
}

// -----

// Reading the matrix being written: its own row i (read before this
// iteration writes it) or columns the loop never writes come from the
// matrix before the loop.
// CHECK-LABEL: func @reads_of_the_written_matrix
// CHECK-NOT: scf.for
// CHECK: %[[OWN:.*]] = amls.slice %arg0[%c0 : %c5, %c0 : %c1]
// CHECK: %[[OTHER:.*]] = amls.slice %arg0[%c1 : %c6, %c1 : %c2]
// CHECK: %[[S:.*]] = amls.add %[[OWN]], %[[OTHER]]
// CHECK: amls.insert_slice %[[S]] into %arg0[%c0 : %c5, %c0 : %c1]
func.func @reads_of_the_written_matrix(%X: !amls.matrix<6x2xf64>) -> !amls.matrix<6x2xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %X) -> (!amls.matrix<6x2xf64>) {
    %i1 = arith.addi %i, %c1 : index
    %i2 = arith.addi %i, %c2 : index
    %own = amls.slice %acc[%i : %i1, %c0 : %c1] : !amls.matrix<6x2xf64> -> !amls.matrix<1x1xf64>
    %other = amls.slice %acc[%i1 : %i2, %c1 : %c2] : !amls.matrix<6x2xf64> -> !amls.matrix<1x1xf64>
    %s = amls.add %own, %other : !amls.matrix<1x1xf64>, !amls.matrix<1x1xf64> -> !amls.matrix<1x1xf64>
    %n = amls.insert_slice %s into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<6x2xf64> -> !amls.matrix<6x2xf64>
    scf.yield %n : !amls.matrix<6x2xf64>
  }
  return %r : !amls.matrix<6x2xf64>
}

// -----

// Left alone: a carried dependence (row i reads row i-1 of the written
// column: a cumulative sum), a step of 2, an effect in the body, the same
// row written every iteration, a product in the body, a second carried
// value.
// CHECK-LABEL: func @not_vectorized
// CHECK-COUNT-6: scf.for
// CHECK-NOT: scf.if
func.func @not_vectorized(%X: !amls.matrix<6x2xf64>, %Y: !amls.matrix<6x2xf64>, %M: !amls.matrix<2x2xf64>, %t: f64) -> (!amls.matrix<6x2xf64>, !amls.matrix<6x2xf64>, !amls.matrix<6x2xf64>, !amls.matrix<6x2xf64>, !amls.matrix<6x2xf64>, !amls.matrix<6x2xf64>, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %cumsum = scf.for %i = %c1 to %c6 step %c1 iter_args(%acc = %X) -> (!amls.matrix<6x2xf64>) {
    %p = arith.subi %i, %c1 : index
    %i1 = arith.addi %i, %c1 : index
    %prev = amls.slice %acc[%p : %i, %c0 : %c1] : !amls.matrix<6x2xf64> -> !amls.matrix<1x1xf64>
    %y = amls.slice %Y[%i : %i1, %c0 : %c1] : !amls.matrix<6x2xf64> -> !amls.matrix<1x1xf64>
    %s = amls.add %prev, %y : !amls.matrix<1x1xf64>, !amls.matrix<1x1xf64> -> !amls.matrix<1x1xf64>
    %n = amls.insert_slice %s into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<6x2xf64> -> !amls.matrix<6x2xf64>
    scf.yield %n : !amls.matrix<6x2xf64>
  }
  %strided = scf.for %i = %c0 to %c6 step %c2 iter_args(%acc = %X) -> (!amls.matrix<6x2xf64>) {
    %i1 = arith.addi %i, %c1 : index
    %y = amls.slice %Y[%i : %i1, %c0 : %c2] : !amls.matrix<6x2xf64> -> !amls.matrix<1x2xf64>
    %n = amls.insert_slice %y into %acc[%i : %i1, %c0 : %c2] : !amls.matrix<1x2xf64> into !amls.matrix<6x2xf64> -> !amls.matrix<6x2xf64>
    scf.yield %n : !amls.matrix<6x2xf64>
  }
  %printing = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %X) -> (!amls.matrix<6x2xf64>) {
    %i1 = arith.addi %i, %c1 : index
    %y = amls.slice %Y[%i : %i1, %c0 : %c2] : !amls.matrix<6x2xf64> -> !amls.matrix<1x2xf64>
    amls.printf "row {}" (%i : index)
    %n = amls.insert_slice %y into %acc[%i : %i1, %c0 : %c2] : !amls.matrix<1x2xf64> into !amls.matrix<6x2xf64> -> !amls.matrix<6x2xf64>
    scf.yield %n : !amls.matrix<6x2xf64>
  }
  %same = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %X) -> (!amls.matrix<6x2xf64>) {
    %i1 = arith.addi %i, %c1 : index
    %y = amls.slice %Y[%i : %i1, %c0 : %c2] : !amls.matrix<6x2xf64> -> !amls.matrix<1x2xf64>
    %n = amls.insert_slice %y into %acc[%c0 : %c1, %c0 : %c2] : !amls.matrix<1x2xf64> into !amls.matrix<6x2xf64> -> !amls.matrix<6x2xf64>
    scf.yield %n : !amls.matrix<6x2xf64>
  }
  %product = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %X) -> (!amls.matrix<6x2xf64>) {
    %i1 = arith.addi %i, %c1 : index
    %y = amls.slice %Y[%i : %i1, %c0 : %c2] : !amls.matrix<6x2xf64> -> !amls.matrix<1x2xf64>
    %m = amls.matmul %y, %M : !amls.matrix<1x2xf64>, !amls.matrix<2x2xf64> -> !amls.matrix<1x2xf64>
    %n = amls.insert_slice %m into %acc[%i : %i1, %c0 : %c2] : !amls.matrix<1x2xf64> into !amls.matrix<6x2xf64> -> !amls.matrix<6x2xf64>
    scf.yield %n : !amls.matrix<6x2xf64>
  }
  %two:2 = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %X, %total = %t) -> (!amls.matrix<6x2xf64>, f64) {
    %i1 = arith.addi %i, %c1 : index
    %y = amls.slice %Y[%i : %i1, %c0 : %c2] : !amls.matrix<6x2xf64> -> !amls.matrix<1x2xf64>
    %n = amls.insert_slice %y into %acc[%i : %i1, %c0 : %c2] : !amls.matrix<1x2xf64> into !amls.matrix<6x2xf64> -> !amls.matrix<6x2xf64>
    %more = arith.addf %total, %t : f64
    scf.yield %n, %more : !amls.matrix<6x2xf64>, f64
  }
  return %cumsum, %strided, %printing, %same, %product, %two#0, %two#1 : !amls.matrix<6x2xf64>, !amls.matrix<6x2xf64>, !amls.matrix<6x2xf64>, !amls.matrix<6x2xf64>, !amls.matrix<6x2xf64>, !amls.matrix<6x2xf64>, f64
}
