// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg | FileCheck %s

// A compressed matrix is the index-typed handle amls_rt_compressed_compress
// returns; its products are runtime calls on it (t(X) reads the same handle
// with the transposed flag set), and amls.release frees it.
// CHECK-LABEL: func @products
// CHECK: %[[H:.*]] = call @amls_rt_compressed_compress(%{{.*}}, %{{.*}}) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, i32) -> i64
// CHECK: arith.index_cast %[[H]] : i64 to index
// CHECK: call @amls_rt_compressed_size
// CHECK: call @amls_rt_compressed_multiply(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i32{{.*}}) :
// CHECK: call @amls_rt_compressed_multiply(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i32{{.*}}) :
// CHECK: call @amls_rt_compressed_mmchain
// CHECK: call @amls_rt_compressed_tsmm
// CHECK: call @amls_rt_compressed_release
func.func @products(%X: !amls.matrix<400x4xf64>, %v: !amls.matrix<4x1xf64>,
                    %y: !amls.matrix<400x1xf64>)
    -> (!amls.matrix<400x1xf64>, !amls.matrix<4x1xf64>, !amls.matrix<4x1xf64>,
        !amls.matrix<4x4xf64>) {
  %C = amls.compress %X : !amls.matrix<400x4xf64> -> !amls.matrix<400x4xf64, format = compressed>
  %T = amls.transpose %C : !amls.matrix<400x4xf64, format = compressed> -> !amls.matrix<4x400xf64, format = compressed>
  %q = amls.matmul %C, %v : !amls.matrix<400x4xf64, format = compressed>, !amls.matrix<4x1xf64> -> !amls.matrix<400x1xf64>
  %g = amls.matmul %T, %y : !amls.matrix<4x400xf64, format = compressed>, !amls.matrix<400x1xf64> -> !amls.matrix<4x1xf64>
  %h = amls.mmchain %C, %v : !amls.matrix<400x4xf64, format = compressed>, !amls.matrix<4x1xf64> -> !amls.matrix<4x1xf64>
  %G = amls.tsmm left %C : !amls.matrix<400x4xf64, format = compressed> -> !amls.matrix<4x4xf64>
  amls.release %C : !amls.matrix<400x4xf64, format = compressed>
  return %q, %g, %h, %G : !amls.matrix<400x1xf64>, !amls.matrix<4x1xf64>, !amls.matrix<4x1xf64>, !amls.matrix<4x4xf64>
}
