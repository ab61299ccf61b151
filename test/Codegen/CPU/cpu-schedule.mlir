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
