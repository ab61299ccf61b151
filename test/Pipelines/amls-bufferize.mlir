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

// -----

// X = X * 0.5 + Y in a for loop: the fused element-wise op writes into the
// carried X (amls-elementwise-in-place offers it, the analysis finds it
// dead), so the loop allocates nothing and copies nothing (X is a function
// argument, writable here as in @cumulative_sum). The loop then carries no
// buffer at all.
// CHECK-LABEL: func @for_update_in_place
// CHECK-SAME: (%[[X:.*]]: memref<1000x3xf64>, %[[Y:.*]]: memref<1000x3xf64>)
// CHECK-NOT: memref.alloc
// CHECK: scf.for
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[Y]] : {{.*}}) outs(%[[X]] : memref<1000x3xf64>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: return
func.func @for_update_in_place(%X: !amls.matrix<1000x3xf64>, %Y: !amls.matrix<1000x3xf64>) -> !amls.matrix<1000x3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %half = arith.constant 0.5 : f64
  %r = scf.for %i = %c0 to %c100 step %c1 iter_args(%acc = %X) -> (!amls.matrix<1000x3xf64>) {
    %h = amls.mul %acc, %half : !amls.matrix<1000x3xf64>, f64 -> !amls.matrix<1000x3xf64>
    %n = amls.add %h, %Y : !amls.matrix<1000x3xf64>, !amls.matrix<1000x3xf64> -> !amls.matrix<1000x3xf64>
    scf.yield %n : !amls.matrix<1000x3xf64>
  }
  return %r : !amls.matrix<1000x3xf64>
}

// -----

// The same in a while loop: the update is equivalent to the iteration's
// argument, so scf.while's bufferization does not copy the carried matrix
// before each iteration (it did while the update had a buffer of its own).
// The dead old value of Z, updated from X (which is read again), takes the
// new Z.
// CHECK-LABEL: func @while_update_in_place
// CHECK-SAME: (%[[X:.*]]: memref<1000x3xf64>, %[[Z:.*]]: memref<1000x3xf64>)
// CHECK-NOT: memref.alloc
// CHECK: scf.while
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {{.*}} ins(%[[X]] : {{.*}}) outs(%[[Z]] : memref<1000x3xf64>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {{.*}} ins(%[[X]] : {{.*}}) outs(%[[X]] : memref<1000x3xf64>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: return
func.func @while_update_in_place(%X: !amls.matrix<1000x3xf64>, %Z0: !amls.matrix<1000x3xf64>) -> (!amls.matrix<1000x3xf64>, !amls.matrix<1000x3xf64>) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %hundred = arith.constant 100.0 : f64
  %r:3 = scf.while (%acc = %X, %z = %Z0, %i = %zero) : (!amls.matrix<1000x3xf64>, !amls.matrix<1000x3xf64>, f64) -> (!amls.matrix<1000x3xf64>, !amls.matrix<1000x3xf64>, f64) {
    %go = arith.cmpf olt, %i, %hundred : f64
    scf.condition(%go) %acc, %z, %i : !amls.matrix<1000x3xf64>, !amls.matrix<1000x3xf64>, f64
  } do {
  ^bb0(%acc: !amls.matrix<1000x3xf64>, %z: !amls.matrix<1000x3xf64>, %i: f64):
    %next = arith.addf %i, %one : f64
    %nz = amls.add %acc, %next : !amls.matrix<1000x3xf64>, f64 -> !amls.matrix<1000x3xf64>
    %n = amls.mul %acc, %next : !amls.matrix<1000x3xf64>, f64 -> !amls.matrix<1000x3xf64>
    scf.yield %n, %nz, %next : !amls.matrix<1000x3xf64>, !amls.matrix<1000x3xf64>, f64
  }
  return %r#0, %r#1 : !amls.matrix<1000x3xf64>, !amls.matrix<1000x3xf64>
}

// -----

// Y = X + 1 with X summed afterwards: Y gets a new buffer, without a copy
// of X (the op never reads its init), and X is not written.
// CHECK-LABEL: func @operand_read_later
// CHECK-SAME: (%[[X:.*]]: memref<1000x3xf64>)
// CHECK-NOT: memref.copy
// CHECK: %[[Y:.*]] = memref.alloc() {{.*}} : memref<1000x3xf64>
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {{.*}} ins(%[[X]] : {{.*}}) outs(%[[Y]] : memref<1000x3xf64>)
// CHECK-NOT: memref.copy
// CHECK: return
func.func @operand_read_later(%X: !amls.matrix<1000x3xf64>) -> (!amls.matrix<1000x3xf64>, f64) {
  %one = arith.constant 1.0 : f64
  %y = amls.add %X, %one : !amls.matrix<1000x3xf64>, f64 -> !amls.matrix<1000x3xf64>
  %s = amls.agg sum all %X : !amls.matrix<1000x3xf64> -> f64
  return %y, %s : !amls.matrix<1000x3xf64>, f64
}

// -----

// A sum over a product's result runs as parallel blocks of rows, and the
// product stays a linalg.matmul (a BLAS call later): element-wise fusion
// does not fold the blocks' view (an expand_shape of the product itself,
// the side input being a broadcast row) into it.
// CHECK-LABEL: func @weighted_sum_of_product
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<1000x100xf64>, memref<100x100xf64>) outs(%[[P:.*]] : memref<1000x100xf64>)
// CHECK: %[[V:.*]] = memref.expand_shape %[[P]] {{\[\[}}0, 1], [2]] output_shape [8, 125, 100]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[V]], %{{.*}} : memref<8x125x100xf64>, memref<1x100xf64>)
func.func @weighted_sum_of_product(%X: !amls.matrix<1000x100xf64>, %W: !amls.matrix<100x100xf64>, %r: !amls.matrix<1x100xf64>) -> f64 {
  %0 = amls.matmul %X, %W : !amls.matrix<1000x100xf64>, !amls.matrix<100x100xf64> -> !amls.matrix<1000x100xf64>
  %1 = amls.fused cell aggregate [sum] all ins(%0, %r) : (!amls.matrix<1000x100xf64>, !amls.matrix<1x100xf64>) -> f64 {
  ^bb0(%x: f64, %c: f64):
    %p = arith.mulf %x, %c : f64
    amls.yield %p : f64
  }
  return %1 : f64
}
