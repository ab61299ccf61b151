// RUN: amls-opt %s -split-input-file -amls-infer-properties -verify-diagnostics | FileCheck %s
// RUN: amls-opt %s -split-input-file -amls-infer-properties=mnc=false -verify-diagnostics | FileCheck %s --check-prefix=METADATA

// A permutation times X: MNC's product estimate is exact (one non-zero per
// row of P): sum_j |P:j| |Xj:| = 3 + 0 + 1 + 0 = 4 of 12 cells. The
// metadata estimate assumes uniform non-zeros: 1 - (1 - 0.25 * 0.33)^4.
// CHECK-LABEL: func @permutation
// CHECK: amls.matmul {{.*}} -> !amls.matrix<4x3xf64, sparsity = 0.33>
// METADATA-LABEL: func @permutation
// METADATA: amls.matmul {{.*}} -> !amls.matrix<4x3xf64, sparsity = 0.2913
func.func @permutation(
    %P: !amls.matrix<4x4xf64, sparsity = 0.25, format = csr>
        {amls.mnc = #amls.mnc<rows = [1, 1, 1, 1], cols = [1, 1, 1, 1]>},
    %X: !amls.matrix<4x3xf64, sparsity = 0.33, format = csr>
        {amls.mnc = #amls.mnc<rows = [3, 0, 1, 0], cols = [2, 1, 1]>})
    -> !amls.matrix<?x?xf64> {
  %0 = amls.matmul %P, %X : !amls.matrix<4x4xf64, sparsity = 0.25, format = csr>,
       !amls.matrix<4x3xf64, sparsity = 0.33, format = csr> -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

// -----

// A selection matrix times a dense X (no sketch: its type says every cell
// is non-zero): the selected rows are full, sparsity 1. The metadata
// estimate: 1 - (1 - 0.25)^4.
// CHECK-LABEL: func @selection_of_dense
// CHECK: amls.matmul {{.*}} -> !amls.matrix<2x5xf64, sparsity = 1.0>
// METADATA-LABEL: func @selection_of_dense
// METADATA: amls.matmul {{.*}} -> !amls.matrix<2x5xf64, sparsity = 0.68359375>
func.func @selection_of_dense(
    %S: !amls.matrix<2x4xf64, sparsity = 0.25, format = csr>
        {amls.mnc = #amls.mnc<rows = [1, 1], cols = [1, 0, 0, 1]>},
    %X: !amls.matrix<4x5xf64, sparsity = 1.0>) -> !amls.matrix<?x?xf64> {
  %0 = amls.matmul %S, %X : !amls.matrix<2x4xf64, sparsity = 0.25, format = csr>,
       !amls.matrix<4x5xf64, sparsity = 1.0> -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

// -----

// Element-wise ops: X * 2 keeps X's pattern and X == 0 is its complement,
// exactly; the product of P with each is exact again (4 and 8 of 12).
// CHECK-LABEL: func @elementwise
// CHECK: %[[M:.*]] = amls.mul {{.*}} -> !amls.matrix<4x3xf64, sparsity = 0.33>
// CHECK: %[[E:.*]] = amls.eq {{.*}} -> !amls.matrix<4x3xf64, sparsity = 0.67>
// CHECK: amls.matmul %{{.*}}, %[[M]] {{.*}} -> !amls.matrix<4x3xf64, sparsity = 0.33>
// CHECK: amls.matmul %{{.*}}, %[[E]] {{.*}} -> !amls.matrix<4x3xf64, sparsity = 0.67>
// CHECK: amls.transpose {{.*}} -> !amls.matrix<3x4xf64, sparsity = 0.33
func.func @elementwise(
    %P: !amls.matrix<4x4xf64, sparsity = 0.25, format = csr>
        {amls.mnc = #amls.mnc<rows = [1, 1, 1, 1], cols = [1, 1, 1, 1]>},
    %X: !amls.matrix<4x3xf64, sparsity = 0.33, format = csr>
        {amls.mnc = #amls.mnc<rows = [3, 0, 1, 0], cols = [2, 1, 1]>})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %two = arith.constant 2.0 : f64
  %zero = arith.constant 0.0 : f64
  %m = amls.mul %X, %two : !amls.matrix<4x3xf64, sparsity = 0.33, format = csr>, f64
       -> !amls.matrix<?x?xf64>
  %e = amls.eq %X, %zero : !amls.matrix<4x3xf64, sparsity = 0.33, format = csr>, f64
       -> !amls.matrix<?x?xf64>
  %pm = amls.matmul %P, %m : !amls.matrix<4x4xf64, sparsity = 0.25, format = csr>,
        !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %pe = amls.matmul %P, %e : !amls.matrix<4x4xf64, sparsity = 0.25, format = csr>,
        !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %t = amls.transpose %X : !amls.matrix<4x3xf64, sparsity = 0.33, format = csr>
       -> !amls.matrix<?x?xf64>
  return %pm, %pe, %t : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

// A loop that changes the matrix it carries: the sketch entering and the
// one coming round differ, so the carried value has none, and the product
// in the loop (estimated from the sketch on the first visit only) has an
// unknown sparsity, as without sketches: never the first visit's estimate.
// CHECK-LABEL: func @loop_changes_sketch
// CHECK: scf.for
// CHECK: amls.matmul {{.*}} -> !amls.matrix<4x3xf64>{{$}}
// METADATA-LABEL: func @loop_changes_sketch
// METADATA: amls.matmul {{.*}} -> !amls.matrix<4x3xf64>{{$}}
func.func @loop_changes_sketch(
    %P: !amls.matrix<4x4xf64, sparsity = 0.25, format = csr>
        {amls.mnc = #amls.mnc<rows = [2, 1, 1, 0], cols = [1, 1, 1, 1]>},
    %X: !amls.matrix<4x3xf64, sparsity = 0.33, format = csr>
        {amls.mnc = #amls.mnc<rows = [3, 0, 1, 0], cols = [2, 1, 1]>},
    %n: index) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = amls.convert %X : !amls.matrix<4x3xf64, sparsity = 0.33, format = csr>
       -> !amls.matrix<4x3xf64, sparsity = 0.33>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x)
      -> (!amls.matrix<4x3xf64, sparsity = 0.33>) {
    %y = amls.matmul %P, %acc : !amls.matrix<4x4xf64, sparsity = 0.25, format = csr>,
         !amls.matrix<4x3xf64, sparsity = 0.33> -> !amls.matrix<?x?xf64>
    %z = amls.cast %y : !amls.matrix<?x?xf64> -> !amls.matrix<4x3xf64, sparsity = 0.33>
    scf.yield %z : !amls.matrix<4x3xf64, sparsity = 0.33>
  }
  %out = amls.cast %r : !amls.matrix<4x3xf64, sparsity = 0.33> -> !amls.matrix<?x?xf64>
  return %out : !amls.matrix<?x?xf64>
}

// -----

// expected-error @+1 {{invalid MNC sketch: the row counts sum to 3 but the column counts to 2}}
func.func private @sums_differ(%X: !amls.matrix<2x2xf64> {amls.mnc = #amls.mnc<rows = [2, 1], cols = [1, 1]>})

// -----

// expected-error @+1 {{an elided MNC sketch cannot be parsed}}
func.func private @elided(%X: !amls.matrix<?x?xf64> {amls.mnc = #amls.mnc<elided 5000x5000, nnz = 7>})

// -----

// expected-error @+1 {{expected the MNC sketch of parameter #0 to have the shape of '!amls.matrix<3x2xf64>', found 2x2}}
func.func private @wrong_shape(%X: !amls.matrix<3x2xf64> {amls.mnc = #amls.mnc<rows = [1, 1], cols = [1, 1]>})

// -----

// expected-error @+1 {{expected 'amls.mnc' of parameter #0 to be an MNC sketch on a matrix parameter}}
func.func private @not_a_matrix(%x: f64 {amls.mnc = #amls.mnc<rows = [1], cols = [1]>})
