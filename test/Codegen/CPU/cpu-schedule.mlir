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

// -----

// An entry parameter that starts 2 cells (16 bytes) past a cache line
// (amls.line_offset, from the execution session; NumPy's large arrays do):
// the 6 cells up to the next line are the head, and the blocks (8 x 39 x
// 32 cells of the 9994 left) start on the line, so that their vector loads
// do not straddle two lines; the 10 cells after them are the tail. The
// attribute is dropped from the parameter.
// CPU-LABEL: func @sum_from_a_line_offset
// CPU-NOT: amls.line_offset
// CPU: %[[FLAT:.*]] = tensor.collapse_shape
// CPU: %[[MAIN:.*]] = tensor.extract_slice %[[FLAT]][6] [9984] [1]
// CPU: tensor.expand_shape %[[MAIN]] {{.*}} into tensor<8x39x32xf64>
// CPU: %[[HEAD:.*]] = tensor.extract_slice %{{.*}}[0] [6] [1]
// CPU: linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%[[HEAD]] : tensor<6xf64>)
// CPU: %[[TAIL:.*]] = tensor.extract_slice %{{.*}}[9990] [10] [1]
// CPU: linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%[[TAIL]] : tensor<10xf64>)
// GENERIC-LABEL: func @sum_from_a_line_offset
// GENERIC-NOT: tensor.extract_slice
func.func @sum_from_a_line_offset(%X: !amls.matrix<10000x1xf64> {amls.line_offset = 2 : i64}) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<10000x1xf64> -> f64
  return %0 : f64
}

// -----

// f32 cells: 16 to a line, so an offset of 4 cells leaves a head of 12. A
// fused aggregate over two parameters with the same offset gets it too;
// with an input that is the program's own (aligned) buffer, no offset fits
// both and the split is the usual one (12000 = 12 x 125 x 8, exactly).
// CPU-LABEL: func @fused_line_offsets
// CPU: tensor.extract_slice %{{.*}}[0] [12] [1] : tensor<12000xf32> to tensor<12xf32>
// CPU: tensor.extract_slice %{{.*}}[11788] [212] [1] : tensor<12000xf32> to tensor<212xf32>
// CPU: tensor.extract_slice %{{.*}}[12] [11776] [1] : tensor<12000xf32> to tensor<11776xf32>
// CPU: tensor.expand_shape {{.*}} output_shape [8, 46, 32]
// CPU: linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%{{.*}}, %{{.*}} : tensor<12xf32>, tensor<12xf32>)
// CPU: linalg.generic {{.*}}iterator_types = ["reduction"]} ins(%{{.*}}, %{{.*}} : tensor<212xf32>, tensor<212xf32>)
// CPU: tensor.expand_shape {{.*}} output_shape [12, 125, 8]
// CPU-NOT: tensor.extract_slice
// CPU: return
func.func @fused_line_offsets(%X: !amls.matrix<12000x1xf32> {amls.line_offset = 4 : i64}, %Y: !amls.matrix<12000x1xf32> {amls.line_offset = 4 : i64}) -> (f32, f32) {
  %0 = amls.fused magg aggregate [sum] all ins(%X, %Y) : (!amls.matrix<12000x1xf32>, !amls.matrix<12000x1xf32>) -> f32 {
  ^bb0(%x: f32, %y: f32):
    %p = arith.mulf %x, %y : f32
    amls.yield %p : f32
  }
  %Z = amls.add %X, %Y : !amls.matrix<12000x1xf32>, !amls.matrix<12000x1xf32> -> !amls.matrix<12000x1xf32>
  %1 = amls.fused magg aggregate [sum] all ins(%X, %Z) : (!amls.matrix<12000x1xf32>, !amls.matrix<12000x1xf32>) -> f32 {
  ^bb0(%x: f32, %z: f32):
    %p = arith.mulf %x, %z : f32
    amls.yield %p : f32
  }
  return %0, %1 : f32, f32
}
