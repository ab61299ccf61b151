// RUN: amls-opt %s -split-input-file -amls-bufferize | FileCheck %s

// Left indexing in a loop updates the matrix in place: per iteration only
// the 1x1 result is allocated and copied into a view of the carried buffer,
// never the 1000x3 matrix.
// CHECK-LABEL: func @cumulative_sum
// CHECK-SAME: (%[[X:.*]]: memref<1000x3xf64>, %[[Y:.*]]: memref<1000x3xf64>)
// CHECK: scf.for
// CHECK-NOT: memref.alloc() {{.*}} : memref<1000x3xf64>
// CHECK-NOT: memref.copy {{.*}} to memref<1000x3xf64>
// CHECK: memref.alloc() {{.*}} : memref<1x1xf64>
// CHECK-NOT: memref.alloc() {{.*}} : memref<1000x3xf64>
// CHECK: %[[ROW:.*]] = memref.subview %[[X]]
// CHECK-NEXT: memref.copy %{{.*}}, %[[ROW]] : memref<1x1xf64> to memref<1x1xf64, strided<[3, 1], offset: ?>>
// CHECK-NOT: memref.copy {{.*}} to memref<1000x3xf64>
// CHECK: return
func.func @cumulative_sum(%X: !amls.matrix<1000x3xf64>, %Y: !amls.matrix<1000x3xf64>) -> !amls.matrix<1000x3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %r = scf.for %i = %c1 to %c1000 step %c1 iter_args(%acc = %X) -> (!amls.matrix<1000x3xf64>) {
    %p = arith.subi %i, %c1 : index
    %i1 = arith.addi %i, %c1 : index
    %prev = amls.slice %acc[%p : %i, %c0 : %c1] : !amls.matrix<1000x3xf64> -> !amls.matrix<1x1xf64>
    %y = amls.slice %Y[%i : %i1, %c0 : %c1] : !amls.matrix<1000x3xf64> -> !amls.matrix<1x1xf64>
    %s = amls.add %prev, %y : !amls.matrix<1x1xf64>, !amls.matrix<1x1xf64> -> !amls.matrix<1x1xf64>
    %n = amls.insert_slice %s into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<1000x3xf64> -> !amls.matrix<1000x3xf64>
    scf.yield %n : !amls.matrix<1000x3xf64>
  }
  return %r : !amls.matrix<1000x3xf64>
}

// -----

// When the old value is still read after the write (here summed), the
// write goes to a copy: the in-place update is the analysis's decision,
// not an assumption.
// CHECK-LABEL: func @old_value_read_after_the_write
// CHECK: scf.for
// CHECK: memref.alloc() {{.*}} : memref<1000x3xf64>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<1000x3xf64> to memref<1000x3xf64>
func.func @old_value_read_after_the_write(%X: !amls.matrix<1000x3xf64>, %Y: !amls.matrix<1000x3xf64>) -> (!amls.matrix<1000x3xf64>, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %zero = arith.constant 0.0 : f64
  %r:2 = scf.for %i = %c0 to %c1000 step %c1 iter_args(%acc = %X, %total = %zero) -> (!amls.matrix<1000x3xf64>, f64) {
    %i1 = arith.addi %i, %c1 : index
    %y = amls.slice %Y[%i : %i1, %c0 : %c1] : !amls.matrix<1000x3xf64> -> !amls.matrix<1x1xf64>
    %n = amls.insert_slice %y into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<1000x3xf64> -> !amls.matrix<1000x3xf64>
    %s = amls.agg sum all %acc : !amls.matrix<1000x3xf64> -> f64
    %t = arith.addf %total, %s : f64
    scf.yield %n, %t : !amls.matrix<1000x3xf64>, f64
  }
  return %r#0, %r#1 : !amls.matrix<1000x3xf64>, f64
}
