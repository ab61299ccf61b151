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
// CHECK: call @amls_rt_compressed_multiply(%{{.*}}, %{{.*}}, %{{.*}}, %c2_i32{{.*}}) :
// CHECK: call @amls_rt_compressed_release
func.func @products(%X: !amls.matrix<400x4xf64>, %v: !amls.matrix<4x1xf64>,
                    %y: !amls.matrix<400x1xf64>, %P: !amls.matrix<400x3xf64>)
    -> (!amls.matrix<400x1xf64>, !amls.matrix<4x1xf64>, !amls.matrix<4x1xf64>,
        !amls.matrix<4x4xf64>, !amls.matrix<3x4xf64>) {
  %C = amls.compress %X : !amls.matrix<400x4xf64> -> !amls.matrix<400x4xf64, format = compressed>
  %T = amls.transpose %C : !amls.matrix<400x4xf64, format = compressed> -> !amls.matrix<4x400xf64, format = compressed>
  %q = amls.matmul %C, %v : !amls.matrix<400x4xf64, format = compressed>, !amls.matrix<4x1xf64> -> !amls.matrix<400x1xf64>
  %g = amls.matmul %T, %y : !amls.matrix<4x400xf64, format = compressed>, !amls.matrix<400x1xf64> -> !amls.matrix<4x1xf64>
  %h = amls.mmchain %C, %v : !amls.matrix<400x4xf64, format = compressed>, !amls.matrix<4x1xf64> -> !amls.matrix<4x1xf64>
  %G = amls.tsmm left %C : !amls.matrix<400x4xf64, format = compressed> -> !amls.matrix<4x4xf64>
  %tP = amls.transpose %P : !amls.matrix<400x3xf64> -> !amls.matrix<3x400xf64>
  %S = amls.matmul %tP, %C : !amls.matrix<3x400xf64>, !amls.matrix<400x4xf64, format = compressed> -> !amls.matrix<3x4xf64>
  amls.release %C : !amls.matrix<400x4xf64, format = compressed>
  return %q, %g, %h, %G, %S : !amls.matrix<400x1xf64>, !amls.matrix<4x1xf64>, !amls.matrix<4x1xf64>, !amls.matrix<4x4xf64>, !amls.matrix<3x4xf64>
}

// -----

// A CSR matrix is compressed from its arrays (row pointers, column indices,
// values, column count), never densified.
// CHECK-LABEL: func @csr_compress
// CHECK-NOT: amls_rt_csr_to_dense
// CHECK: %[[H:.*]] = call @amls_rt_compressed_compress_csr(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64, i32) -> i64
// CHECK: call @amls_rt_compressed_multiply
// CHECK: call @amls_rt_compressed_release
func.func @csr_compress(%X: !amls.matrix<400x40xf64, sparsity = 0.05, format = csr>,
                        %v: !amls.matrix<40x1xf64>) -> !amls.matrix<400x1xf64> {
  %C = amls.compress %X : !amls.matrix<400x40xf64, sparsity = 0.05, format = csr> -> !amls.matrix<400x40xf64, sparsity = 0.05, format = compressed>
  %q = amls.matmul %C, %v : !amls.matrix<400x40xf64, sparsity = 0.05, format = compressed>, !amls.matrix<40x1xf64> -> !amls.matrix<400x1xf64>
  amls.release %C : !amls.matrix<400x40xf64, sparsity = 0.05, format = compressed>
  return %q : !amls.matrix<400x1xf64>
}
