// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg | FileCheck %s

// A frame is the i64 handle of the runtime's frame: reading it passes the
// na.strings joined by 0x1F and the schema as a digit per column
// (AmlsFrameValueType), and checks the sizes the type states.
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("015\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("NA\1F?\00")
// CHECK-LABEL: func @read
// CHECK: %[[F:.*]] = call @amls_rt_frame_read(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> i64
// CHECK: call @amls_rt_frame_rows(%[[F]])
// CHECK: call @amls_rt_frame_cols(%[[F]])
// CHECK: call @amls_rt_check
// CHECK: return %[[F]] : i64
func.func @read() -> !amls.frame<?x3, [str, f64, bool]> {
  %F = amls.frame_read "in.csv" {header = true, na_strings = ["NA", "?"]} : !amls.frame<?x3, [str, f64, bool]>
  return %F : !amls.frame<?x3, [str, f64, bool]>
}

// -----

// transformencode fits an encoder, takes its metadata frame, asks for the
// encoded sizes, fills a buffer of them and releases the encoder.
// CHECK-LABEL: func @encode
// CHECK: %[[E:.*]] = call @amls_rt_transform_fit(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, !llvm.ptr) -> i64
// CHECK: %[[M:.*]] = call @amls_rt_transform_meta(%[[E]])
// CHECK: call @amls_rt_transform_rows(%[[E]], %{{.*}})
// CHECK: call @amls_rt_transform_cols(%[[E]])
// CHECK: call @amls_rt_transform_apply(%{{.*}}, %[[E]], %{{.*}}, %{{.*}})
// CHECK: call @amls_rt_transform_release(%[[E]])
// CHECK: return %{{.*}}, %[[M]]
func.func @encode(%F: !amls.frame<?x2>, %spec: !amls.string)
    -> (!amls.matrix<?x?xf64>, !amls.frame<?x2>) {
  %X, %M = amls.transform_encode %F, %spec : !amls.frame<?x2> -> !amls.matrix<?x?xf64>, !amls.frame<?x2>
  return %X, %M : !amls.matrix<?x?xf64>, !amls.frame<?x2>
}

// -----

// transformapply and transformdecode rebuild the encoder from the metadata.
// CHECK-LABEL: func @apply_and_decode
// CHECK: %[[A:.*]] = call @amls_rt_transform_from_meta
// CHECK: call @amls_rt_transform_apply(%{{.*}}, %[[A]], %{{.*}}, %{{.*}})
// CHECK: call @amls_rt_transform_release(%[[A]])
// CHECK: %[[D:.*]] = call @amls_rt_transform_from_meta
// CHECK: %[[G:.*]] = call @amls_rt_transform_decode(%[[D]], %{{.*}}, %{{.*}})
// CHECK: call @amls_rt_transform_release(%[[D]])
// CHECK: return %{{.*}}, %[[G]]
func.func @apply_and_decode(%F: !amls.frame<?x2>, %spec: !amls.string,
                            %M: !amls.frame<?x2>)
    -> (!amls.matrix<?x?xf64>, !amls.frame<?x2>) {
  %Y = amls.transform_apply %F, %spec, %M : !amls.frame<?x2>, !amls.frame<?x2> -> !amls.matrix<?x?xf64>
  %G = amls.transform_decode %Y, %spec, %M : !amls.matrix<?x?xf64>, !amls.frame<?x2> -> !amls.frame<?x2>
  return %Y, %G : !amls.matrix<?x?xf64>, !amls.frame<?x2>
}

// -----

// CHECK-LABEL: func @text
// CHECK: call @amls_rt_frame_to_string(%{{.*}}, %c3_i64, %c100_i64)
// CHECK: call @amls_rt_frame_as_matrix
// CHECK: call @amls_rt_frame_write
// CHECK: call @amls_rt_read_text
func.func @text(%F: !amls.frame<?x2>) -> (!amls.string, !amls.matrix<?x2xf64>, !amls.string) {
  %s = amls.frame_to_string %F {rows = 3} : !amls.frame<?x2>
  %X = amls.frame_as_matrix %F : !amls.frame<?x2> -> !amls.matrix<?x2xf64>
  amls.frame_write %F, "out.csv" : !amls.frame<?x2>
  %t = amls.read_text "spec.json"
  return %s, %X, %t : !amls.string, !amls.matrix<?x2xf64>, !amls.string
}

// -----

// The frame operations are runtime calls on handles; indices pass as i64.
// CHECK-LABEL: func @operations
// CHECK: %[[I:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK: %[[G:.*]] = call @amls_rt_frame_slice(%{{.*}}, %[[I]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, !llvm.ptr) -> i64
// CHECK: call @amls_rt_frame_from_matrix(%{{.*}}) : (memref<?x?xf64, strided<[?, ?], offset: ?>>) -> i64
// CHECK: call @amls_rt_frame_cbind(%{{.*}}, %[[G]], %{{.*}}) : (i64, i64, !llvm.ptr) -> i64
// CHECK: call @amls_rt_frame_rbind
// CHECK: %[[S:.*]] = call @amls_rt_frame_detect_schema(%{{.*}}) : (i64) -> i64
// CHECK: call @amls_rt_frame_apply_schema(%{{.*}}, %[[S]], %{{.*}})
// CHECK: call @amls_rt_frame_cell(%[[G]], %{{.*}}) : (i64, !llvm.ptr) -> !llvm.ptr
func.func @operations(%F: !amls.frame<?x4>, %X: !amls.matrix<3x2xf64>,
                      %i: index, %j: index) -> (!amls.frame<?x?>, !amls.frame<?x4>, !amls.string) {
  %G = amls.frame_slice %F[%i : %j, %i : %j] : !amls.frame<?x4> -> !amls.frame<?x?>
  %A = amls.frame_from_matrix %X : !amls.matrix<3x2xf64> -> !amls.frame<3x2>
  %C = amls.frame_cbind %A, %G : !amls.frame<3x2>, !amls.frame<?x?> -> !amls.frame<?x?>
  %R = amls.frame_rbind %F, %F : !amls.frame<?x4>, !amls.frame<?x4> -> !amls.frame<?x4>
  %S = amls.frame_detect_schema %R : !amls.frame<?x4> -> !amls.frame<1x4>
  %T = amls.frame_apply_schema %R, %S : !amls.frame<?x4>, !amls.frame<1x4> -> !amls.frame<?x4>
  %c = amls.frame_cell %G : !amls.frame<?x?>
  return %C, %T, %c : !amls.frame<?x?>, !amls.frame<?x4>, !amls.string
}
