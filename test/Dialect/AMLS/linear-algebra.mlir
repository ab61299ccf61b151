// RUN: amls-opt %s -split-input-file | amls-opt | FileCheck %s
// RUN: amls-opt %s -split-input-file --mlir-print-op-generic | amls-opt | FileCheck %s
// RUN: amls-opt %s -split-input-file --amls-infer-properties | FileCheck %s --check-prefix=INFER

// Round trip of the linear-algebra ops (AMLSLinearAlgebraOps.td), and the
// sizes --amls-infer-properties gives their results.

// CHECK-LABEL: func @solvers
// INFER-LABEL: func @solvers
func.func @solvers(%A: !amls.matrix<3x3xf64>, %b: !amls.matrix<3x2xf64>) {
  // CHECK: amls.solve %{{.*}}, %{{.*}} : !amls.matrix<3x3xf64>, !amls.matrix<3x2xf64> -> !amls.matrix<?x?xf64>
  // INFER: amls.solve {{.*}} -> !amls.matrix<3x2xf64>
  %0 = amls.solve %A, %b : !amls.matrix<3x3xf64>, !amls.matrix<3x2xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.inv %{{.*}} : !amls.matrix<3x3xf64> -> !amls.matrix<?x?xf64>
  // INFER: amls.inv {{.*}} -> !amls.matrix<3x3xf64>
  %1 = amls.inv %A : !amls.matrix<3x3xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.det %{{.*}} : !amls.matrix<3x3xf64> -> f64
  %2 = amls.det %A : !amls.matrix<3x3xf64> -> f64
  // CHECK: amls.cholesky %{{.*}} : !amls.matrix<3x3xf64> -> !amls.matrix<?x?xf64>
  // INFER: amls.cholesky {{.*}} -> !amls.matrix<3x3xf64>
  %3 = amls.cholesky %A : !amls.matrix<3x3xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

// CHECK-LABEL: func @factorizations
// INFER-LABEL: func @factorizations
func.func @factorizations(%A: !amls.matrix<5x3xf64>, %S: !amls.matrix<4x4xf64>) {
  // CHECK: amls.qr %{{.*}} : !amls.matrix<5x3xf64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  // INFER: amls.qr {{.*}} -> !amls.matrix<5x3xf64>, !amls.matrix<5x3xf64>
  %H, %R = amls.qr %A : !amls.matrix<5x3xf64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  // CHECK: amls.lu %{{.*}} : !amls.matrix<4x4xf64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  // INFER: amls.lu {{.*}} -> !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64>
  %P, %L, %U = amls.lu %S : !amls.matrix<4x4xf64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  // CHECK: amls.eigen %{{.*}} : !amls.matrix<4x4xf64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  // INFER: amls.eigen {{.*}} -> !amls.matrix<4x1xf64>, !amls.matrix<4x4xf64>
  %w, %V = amls.eigen %S : !amls.matrix<4x4xf64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  // The thin SVD: k = min(5, 3).
  // CHECK: amls.svd %{{.*}} : !amls.matrix<5x3xf64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  // INFER: amls.svd {{.*}} -> !amls.matrix<5x3xf64>, !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>
  %u, %s, %v = amls.svd %A : !amls.matrix<5x3xf64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  return
}

// -----

// CHECK-LABEL: func @partly_known
// INFER-LABEL: func @partly_known
func.func @partly_known(%A: !amls.matrix<?x3xf64>, %W: !amls.matrix<2x?xi64>) {
  // A square matrix with 3 columns has 3 rows.
  // INFER: amls.inv {{.*}} -> !amls.matrix<3x3xf64>
  %0 = amls.inv %A : !amls.matrix<?x3xf64> -> !amls.matrix<?x?xf64>
  // An integer matrix has f64 factors; k is unknown.
  // INFER: amls.svd {{.*}} -> !amls.matrix<2x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  %u, %s, %v = amls.svd %W : !amls.matrix<2x?xi64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  return
}

// -----

// CHECK-LABEL: func @triangles
func.func @triangles(%X: !amls.matrix<4x5xf64>) {
  // CHECK: amls.triangle lower %{{.*}} : !amls.matrix<4x5xf64> -> !amls.matrix<4x5xf64>
  %0 = amls.triangle lower %X : !amls.matrix<4x5xf64> -> !amls.matrix<4x5xf64>
  // CHECK: amls.triangle upper %{{.*}} diag values : !amls.matrix<4x5xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.triangle upper %X diag values : !amls.matrix<4x5xf64> -> !amls.matrix<?x?xf64>
  return
}
