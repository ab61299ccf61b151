// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg -canonicalize | FileCheck %s

// The linear-algebra ops lower to one call of their LAPACK kernel in the
// runtime, which fills result buffers sized from the input and reports
// errors with the op's position.

// CHECK-LABEL: func @solve
// CHECK-SAME: (%[[A:.*]]: tensor<?x?xf64>, %[[B:.*]]: tensor<?x2xf64>)
// CHECK-DAG: %[[WHERE:.*]] = llvm.mlir.addressof @amls_str_{{.*}} : !llvm.ptr
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %[[C0]]
// CHECK: %[[X:.*]] = memref.alloc(%[[N]]) : memref<?x2xf64>
// CHECK: call @amls_rt_solve(%{{.*}}, %{{.*}}, %{{.*}}, %[[WHERE]])
// CHECK: bufferization.to_tensor %{{.*}} restrict writable
func.func @solve(%A: !amls.matrix<?x?xf64>, %b: !amls.matrix<?x2xf64>) -> !amls.matrix<?x2xf64> {
  %0 = amls.solve %A, %b : !amls.matrix<?x?xf64>, !amls.matrix<?x2xf64> -> !amls.matrix<?x2xf64>
  return %0 : !amls.matrix<?x2xf64>
}

// -----

// CHECK-DAG: llvm.mlir.global internal constant @amls_str_{{.*}}("'amls.det' at {{.*}}linear-algebra.mlir:{{[0-9]+}}:{{[0-9]+}}\00")
// CHECK-LABEL: func @det_and_inverse
// CHECK: %[[D:.*]] = call @amls_rt_det(%{{.*}}, %{{.*}}) : ({{.*}}, !llvm.ptr) -> f64
// CHECK: memref.alloc() : memref<4x4xf64>
// CHECK: call @amls_rt_inv
// CHECK: memref.alloc() : memref<4x4xf64>
// CHECK: call @amls_rt_cholesky
// CHECK: return %[[D]]
func.func @det_and_inverse(%A: !amls.matrix<4x4xf64>) -> (f64, !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64>) {
  %0 = amls.det %A : !amls.matrix<4x4xf64> -> f64
  %1 = amls.inv %A : !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64>
  %2 = amls.cholesky %A : !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64>
  return %0, %1, %2 : f64, !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64>
}

// -----

// Every result buffer exists before the one call that fills them all.
// CHECK-LABEL: func @factorizations
// CHECK: memref.alloc() : memref<5x3xf64>
// CHECK: memref.alloc() : memref<5x3xf64>
// CHECK: call @amls_rt_qr(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-COUNT-2: bufferization.to_tensor
// CHECK: memref.alloc() : memref<5x3xf64>
// CHECK: memref.alloc() : memref<3x3xf64>
// CHECK: memref.alloc() : memref<3x3xf64>
// CHECK: call @amls_rt_svd
// CHECK: memref.alloc() : memref<3x3xf64>
// CHECK: memref.alloc() : memref<3x3xf64>
// CHECK: memref.alloc() : memref<3x3xf64>
// CHECK: call @amls_rt_lu
// CHECK: memref.alloc() : memref<3x1xf64>
// CHECK: memref.alloc() : memref<3x3xf64>
// CHECK: call @amls_rt_eigen
func.func @factorizations(%A: !amls.matrix<5x3xf64>, %S: !amls.matrix<3x3xf64>) -> (!amls.matrix<5x3xf64>, !amls.matrix<5x3xf64>, !amls.matrix<5x3xf64>, !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>, !amls.matrix<3x1xf64>) {
  %H, %R = amls.qr %A : !amls.matrix<5x3xf64> -> !amls.matrix<5x3xf64>, !amls.matrix<5x3xf64>
  %u, %s, %v = amls.svd %A : !amls.matrix<5x3xf64> -> !amls.matrix<5x3xf64>, !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>
  %P, %L, %U = amls.lu %S : !amls.matrix<3x3xf64> -> !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>
  %w, %V = amls.eigen %S : !amls.matrix<3x3xf64> -> !amls.matrix<3x1xf64>, !amls.matrix<3x3xf64>
  return %H, %R, %u, %s, %P, %V, %w : !amls.matrix<5x3xf64>, !amls.matrix<5x3xf64>, !amls.matrix<5x3xf64>, !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>, !amls.matrix<3x1xf64>
}

// -----

// The thin SVD of a matrix of unknown size: k = min(rows, cols).
// CHECK-LABEL: func @svd_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x?xf64>)
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[A]], %c0
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[A]], %c1
// CHECK: %[[K:.*]] = arith.minui %[[M]], %[[N]] : index
// CHECK: memref.alloc(%[[M]], %[[K]])
// CHECK: memref.alloc(%[[K]], %[[K]])
// CHECK: memref.alloc(%[[N]], %[[K]])
// CHECK: call @amls_rt_svd
func.func @svd_dynamic(%A: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  %u, %s, %v = amls.svd %A : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  return %v : !amls.matrix<?x?xf64>
}

// -----

// The side and flags are the kernel's i32 arguments.
// CHECK-LABEL: func @triangle
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: call @amls_rt_triangle(%{{.*}}, %{{.*}}, %[[ZERO]], %[[ONE]], %[[ZERO]])
func.func @triangle(%X: !amls.matrix<4x5xf64>) -> !amls.matrix<4x5xf64> {
  %0 = amls.triangle upper %X diag : !amls.matrix<4x5xf64> -> !amls.matrix<4x5xf64>
  return %0 : !amls.matrix<4x5xf64>
}
