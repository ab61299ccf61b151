// RUN: amls-opt %s | amls-opt | FileCheck %s
// RUN: amls-opt %s --mlir-print-op-generic | amls-opt | FileCheck %s
// RUN: amls-opt %s --canonicalize | FileCheck %s --check-prefix=FOLD

// Round trip of the frame type and the frame and transform ops; the size
// ops fold where the type states the size.

// CHECK-LABEL: func @types
// CHECK-SAME: !amls.frame<?x?>
// CHECK-SAME: !amls.frame<10x3, [str, f64, i64]>
// CHECK-SAME: !amls.frame<0x6, [str, f64, f32, i64, i32, bool]>
func.func @types(%a: !amls.frame<?x?>, %b: !amls.frame<10x3, [str, f64, i64]>,
                 %c: !amls.frame<0x6, [str, f64, f32, i64, i32, bool]>) {
  return
}

// -----

// CHECK-LABEL: func @read_and_write
// CHECK: %[[F:.*]] = amls.frame_read "data/homes.csv" {header = true, na_strings = ["NA", ""], sep = ";"} : !amls.frame<?x?>
// CHECK: amls.frame_write %[[F]], "out/F.csv" {header = false} : !amls.frame<?x?>
// CHECK: amls.read_text "data/spec.json"
func.func @read_and_write() -> !amls.string {
  %F = amls.frame_read "data/homes.csv" {header = true, sep = ";", na_strings = ["NA", ""]} : !amls.frame<?x?>
  amls.frame_write %F, "out/F.csv" {header = false} : !amls.frame<?x?>
  %spec = amls.read_text "data/spec.json"
  return %spec : !amls.string
}

// -----

// CHECK-LABEL: func @transform
// CHECK: %[[X:.*]], %[[M:.*]] = amls.transform_encode %{{.*}}, %{{.*}} : !amls.frame<?x4> -> !amls.matrix<?x?xf64>, !amls.frame<?x4>
// CHECK: amls.transform_apply %{{.*}}, %{{.*}}, %[[M]] : !amls.frame<?x4>, !amls.frame<?x4> -> !amls.matrix<?x?xf64>
// CHECK: amls.transform_decode %[[X]], %{{.*}}, %[[M]] : !amls.matrix<?x?xf64>, !amls.frame<?x4> -> !amls.frame<?x4>
// CHECK: amls.frame_as_matrix %{{.*}} : !amls.frame<?x4> -> !amls.matrix<?x4xf64>
// CHECK: amls.frame_to_string %{{.*}} {rows = 5 : i64} : !amls.frame<?x4>
func.func @transform(%F: !amls.frame<?x4>, %spec: !amls.string)
    -> (!amls.matrix<?x?xf64>, !amls.frame<?x4>, !amls.matrix<?x4xf64>, !amls.string) {
  %X, %M = amls.transform_encode %F, %spec : !amls.frame<?x4> -> !amls.matrix<?x?xf64>, !amls.frame<?x4>
  %Y = amls.transform_apply %F, %spec, %M : !amls.frame<?x4>, !amls.frame<?x4> -> !amls.matrix<?x?xf64>
  %G = amls.transform_decode %X, %spec, %M : !amls.matrix<?x?xf64>, !amls.frame<?x4> -> !amls.frame<?x4>
  %N = amls.frame_as_matrix %G : !amls.frame<?x4> -> !amls.matrix<?x4xf64>
  %s = amls.frame_to_string %F {rows = 5} : !amls.frame<?x4>
  return %Y, %G, %N, %s : !amls.matrix<?x?xf64>, !amls.frame<?x4>, !amls.matrix<?x4xf64>, !amls.string
}

// -----

// FOLD-LABEL: func @sizes
// FOLD-DAG: %[[C4:.*]] = arith.constant 4 : index
// FOLD-DAG: %[[R:.*]] = amls.frame_nrow %{{.*}} : !amls.frame<?x4>
// FOLD: return %[[R]], %[[C4]]
func.func @sizes(%F: !amls.frame<?x4>) -> (index, index) {
  %r = amls.frame_nrow %F : !amls.frame<?x4>
  %c = amls.frame_ncol %F : !amls.frame<?x4>
  return %r, %c : index, index
}

// -----

// CHECK-LABEL: func @operations
// CHECK: amls.frame_slice %{{.*}}[%{{.*}} : %{{.*}}, %{{.*}} : %{{.*}}] : !amls.frame<?x4> -> !amls.frame<?x?>
// CHECK: amls.frame_from_matrix %{{.*}} : !amls.matrix<3x2xf64> -> !amls.frame<3x2, [f64, f64]>
// CHECK: amls.frame_cbind %{{.*}}, %{{.*}} : !amls.frame<?x4>, !amls.frame<?x?> -> !amls.frame<?x?>
// CHECK: amls.frame_rbind %{{.*}}, %{{.*}} : !amls.frame<?x4>, !amls.frame<?x4> -> !amls.frame<?x4>
// CHECK: amls.frame_detect_schema %{{.*}} : !amls.frame<?x4> -> !amls.frame<1x4>
// CHECK: amls.frame_apply_schema %{{.*}}, %{{.*}} : !amls.frame<?x4>, !amls.frame<1x4> -> !amls.frame<?x4>
// CHECK: amls.frame_cell %{{.*}} : !amls.frame<?x?>
func.func @operations(%F: !amls.frame<?x4>, %X: !amls.matrix<3x2xf64>,
                      %i: index, %j: index) -> !amls.string {
  %G = amls.frame_slice %F[%i : %j, %i : %j] : !amls.frame<?x4> -> !amls.frame<?x?>
  %A = amls.frame_from_matrix %X : !amls.matrix<3x2xf64> -> !amls.frame<3x2, [f64, f64]>
  %C = amls.frame_cbind %F, %G : !amls.frame<?x4>, !amls.frame<?x?> -> !amls.frame<?x?>
  %R = amls.frame_rbind %F, %F : !amls.frame<?x4>, !amls.frame<?x4> -> !amls.frame<?x4>
  %S = amls.frame_detect_schema %R : !amls.frame<?x4> -> !amls.frame<1x4>
  %T = amls.frame_apply_schema %F, %S : !amls.frame<?x4>, !amls.frame<1x4> -> !amls.frame<?x4>
  %c = amls.frame_cell %G : !amls.frame<?x?>
  return %c : !amls.string
}
