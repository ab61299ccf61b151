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

// -----

// Aggregates are runtime calls on the handle (AmlsCompressedAggregate: 0 sum
// of all cells, read back from a 1 x 1 buffer, 4 rowMeans, 2 colSums);
// a scalar operation copies the values out,
// applies the op's cell computation to them in a linalg.generic and builds a
// new handle of the results; amls.decompress writes the dense cells.
// CHECK-LABEL: func @cell_ops
// CHECK: %[[H:.*]] = call @amls_rt_compressed_compress
// CHECK: call @amls_rt_compressed_aggregate(%{{.*}}, %{{.*}}, %c0_i32{{.*}}) :
// CHECK: tensor.extract
// CHECK: call @amls_rt_compressed_aggregate(%{{.*}}, %{{.*}}, %c4_i32{{.*}}) :
// CHECK: call @amls_rt_compressed_aggregate(%{{.*}}, %{{.*}}, %c2_i32{{.*}}) :
// CHECK: %[[N:.*]] = call @amls_rt_compressed_value_count
// CHECK: call @amls_rt_compressed_values
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: %[[M:.*]] = call @amls_rt_compressed_with_values
// CHECK: call @amls_rt_compressed_multiply
// CHECK: call @amls_rt_compressed_release
// CHECK: call @amls_rt_compressed_decompress
// CHECK: call @amls_rt_compressed_release
func.func @cell_ops(%X: !amls.matrix<400x4xf64>, %v: !amls.matrix<4x1xf64>,
                    %s: f64)
    -> (f64, !amls.matrix<400x1xf64>, !amls.matrix<1x4xf64>,
        !amls.matrix<400x1xf64>, !amls.matrix<400x4xf64>) {
  %C = amls.compress %X : !amls.matrix<400x4xf64> -> !amls.matrix<400x4xf64, format = compressed>
  %sum = amls.agg sum all %C : !amls.matrix<400x4xf64, format = compressed> -> f64
  %rm = amls.agg mean row %C : !amls.matrix<400x4xf64, format = compressed> -> !amls.matrix<400x1xf64>
  %cs = amls.agg sum col %C : !amls.matrix<400x4xf64, format = compressed> -> !amls.matrix<1x4xf64>
  %Y = amls.mul %C, %s : !amls.matrix<400x4xf64, format = compressed>, f64 -> !amls.matrix<400x4xf64, format = compressed>
  %q = amls.matmul %Y, %v : !amls.matrix<400x4xf64, format = compressed>, !amls.matrix<4x1xf64> -> !amls.matrix<400x1xf64>
  amls.release %Y : !amls.matrix<400x4xf64, format = compressed>
  %D = amls.decompress %C : !amls.matrix<400x4xf64, format = compressed> -> !amls.matrix<400x4xf64>
  amls.release %C : !amls.matrix<400x4xf64, format = compressed>
  return %sum, %rm, %cs, %q, %D : f64, !amls.matrix<400x1xf64>, !amls.matrix<1x4xf64>, !amls.matrix<400x1xf64>, !amls.matrix<400x4xf64>
}

// -----

// nrow and ncol of a compressed matrix of unknown size: the handle's.
// CHECK-LABEL: func @sizes
// CHECK: call @amls_rt_compressed_size(%{{.*}}, %c0_i32{{.*}}) : (i64, i32) -> i64
// CHECK: call @amls_rt_compressed_size(%{{.*}}, %c1_i32{{.*}}) : (i64, i32) -> i64
func.func @sizes(%X: !amls.matrix<?x?xf64>) -> (index, index) {
  %C = amls.compress %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64, format = compressed>
  %r = amls.nrow %C : !amls.matrix<?x?xf64, format = compressed>
  %c = amls.ncol %C : !amls.matrix<?x?xf64, format = compressed>
  amls.release %C : !amls.matrix<?x?xf64, format = compressed>
  return %r, %c : index, index
}
