// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg | FileCheck %s --check-prefix=CPU
// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg=schedule=generic | FileCheck %s --check-prefix=GENERIC

// The lowering asks the target how to split reductions. The CPU's schedule
// splits a full sum over 256x256 cells into 64 blocks of 64 lanes (a view
// of the matrix, reduced in parallel, merged afterwards; eight registers of
// independent Kahan sums); the generic schedule keeps one reduction loop
// nest.
// CPU-LABEL: func @full_sum
// CPU: tensor.expand_shape {{.*}} into tensor<64x16x64xf64>
// CPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// CPU: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// GENERIC-LABEL: func @full_sum
// GENERIC-NOT: tensor.expand_shape
// GENERIC: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// GENERIC-NOT: linalg.generic
func.func @full_sum(%X: !amls.matrix<256x256xf64>) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<256x256xf64> -> f64
  return %0 : f64
}

// -----

// Row sums over 64 columns: 32 lanes per row on the CPU, merged per row.
// CPU-LABEL: func @row_sums
// CPU: tensor.expand_shape {{.*}} into tensor<1024x2x32xf64>
// CPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// GENERIC-LABEL: func @row_sums
// GENERIC-NOT: tensor.expand_shape {{.*}} into tensor<1024x2x32xf64>
// GENERIC: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
func.func @row_sums(%X: !amls.matrix<1024x64xf64>) -> !amls.matrix<1024x1xf64> {
  %0 = amls.agg sum row %X : !amls.matrix<1024x64xf64> -> !amls.matrix<1024x1xf64>
  return %0 : !amls.matrix<1024x1xf64>
}

// -----

// A small sum (under 8192 cells) is not split on the CPU either.
// CPU-LABEL: func @small_sum
// CPU-NOT: tensor.expand_shape
// CPU: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// GENERIC-LABEL: func @small_sum
func.func @small_sum(%X: !amls.matrix<80x100xf64>) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<80x100xf64> -> f64
  return %0 : f64
}

// -----

// From 8192 cells on a sum is split into lanes, so that its compensated
// steps are independent and vectorized instead of one dependent chain
// (an L2SVM line search over 20000 rows: 0.244 ms per iteration unsplit,
// 0.011 ms split): 10000 cells as 2 blocks of 625 runs of 8 lanes.
// CPU-LABEL: func @sum_in_lanes
// CPU: tensor.expand_shape {{.*}} output_shape [2, 625, 8] : tensor<10000xf64> into tensor<2x625x8xf64>
// CPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// GENERIC-LABEL: func @sum_in_lanes
func.func @sum_in_lanes(%X: !amls.matrix<100x100xf64>) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<100x100xf64> -> f64
  return %0 : f64
}

// -----

// Cells that no block and lane counts divide (10007, a prime) are split
// into 8 blocks of 39 runs of 32 lanes (9984 cells), and the 23 cells after
// them are reduced on their own and added to the merged blocks: without
// the tail, the sum was one sequential compensated chain (an L2SVM step
// over 3999999 rows 10x slower than over 4000000).
// CPU-LABEL: func @sum_with_tail
// CPU: %[[FLAT:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<10007x1xf64> into tensor<10007xf64>
// CPU: %[[MAIN:.*]] = tensor.extract_slice %[[FLAT]][0] [9984] [1]
// CPU: tensor.expand_shape %[[MAIN]] {{.*}} output_shape [8, 39, 32] : tensor<9984xf64> into tensor<8x39x32xf64>
// CPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// CPU: %[[BLOCKS:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]
// CPU: %[[REST:.*]] = tensor.extract_slice %{{.*}}[9984] [23] [1] : tensor<10007xf64> to tensor<23xf64>
// CPU: %[[TAIL:.*]] = linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%[[REST]] : tensor<23xf64>)
// CPU-DAG: %[[T:.*]] = tensor.extract %[[TAIL]][]
// CPU-DAG: %[[B:.*]] = tensor.extract %[[BLOCKS]][]
// CPU: arith.addf %[[B]], %[[T]]
// GENERIC-LABEL: func @sum_with_tail
// GENERIC-NOT: tensor.extract_slice
func.func @sum_with_tail(%X: !amls.matrix<10007x1xf64>) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<10007x1xf64> -> f64
  return %0 : f64
}

// -----

// A fused aggregate over 1001 x 9 cells with a broadcast row vector (not
// regrouped: the lanes are the columns) takes 8 blocks of 125 rows; the
// last row is the tail, where the row vector is broadcast as in the blocks.
// CPU-LABEL: func @fused_rows_with_tail
// CPU-SAME: (%[[X:.*]]: tensor<1001x9xf64>, %[[V:.*]]: tensor<1x9xf64>)
// CPU-DAG: %[[LAST:.*]] = tensor.extract_slice %[[X]][1000, 0] [1, 9] [1, 1] : tensor<1001x9xf64> to tensor<1x9xf64>
// CPU-DAG: %[[BLOCKROWS:.*]] = tensor.extract_slice %[[X]][0, 0] [1000, 9] [1, 1]
// CPU: tensor.expand_shape %[[BLOCKROWS]] {{.*}} into tensor<8x125x9xf64>
// CPU: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]
// CPU: %[[TAIL:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]} ins(%[[LAST]], %[[V]] : tensor<1x9xf64>, tensor<1x9xf64>)
// CPU-NEXT: ^bb0
// CPU-NEXT: arith.mulf
// CPU-NEXT: arith.addf
// CPU: %[[BLOCKS:.*]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]} ins(%{{.*}} : tensor<8x9xf64>)
// CPU-DAG: %[[T:.*]] = tensor.extract %[[TAIL]][]
// CPU-DAG: %[[B:.*]] = tensor.extract %[[BLOCKS]][]
// CPU: arith.addf %[[B]], %[[T]]
func.func @fused_rows_with_tail(%X: !amls.matrix<1001x9xf64>, %v: !amls.matrix<1x9xf64>) -> f64 {
  %0 = amls.fused magg aggregate [sum] all ins(%X, %v) : (!amls.matrix<1001x9xf64>, !amls.matrix<1x9xf64>) -> f64 {
  ^bb0(%x: f64, %y: f64):
    %p = arith.mulf %x, %y : f64
    amls.yield %p : f64
  }
  return %0 : f64
}
