// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg=schedule=gpu | FileCheck %s

// The GPU's schedule (lib/Codegen/GPU/GPUSchedule.cpp): a full sum over
// 4000x4000 cells as 2000 blocks (the largest divisor of the 500000 runs
// of 32 cells up to 2048) of 250 steps over 32 lanes, a warp's width; the
// CPU's schedule takes 16 blocks of 64 lanes (test/Codegen/CPU).
// CHECK-LABEL: func.func @full
// CHECK: tensor.expand_shape {{.*}} output_shape [2000, 250, 32] : tensor<16000000xf64> into tensor<2000x250x32xf64>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-SAME: outs(%{{.*}} : tensor<2000x32xf64>)
func.func @full(%X: !amls.matrix<4000x4000xf64>) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<4000x4000xf64> -> f64
  return %0 : f64
}

// -----

// A row sum keeps 32 lanes per row: 1024 columns as 32 groups of 32.
// CHECK-LABEL: func.func @rows
// CHECK: tensor.expand_shape {{.*}} output_shape [1000, 32, 32] : tensor<1000x1024xf64> into tensor<1000x32x32xf64>
// CHECK: tensor<1000x32xf64>
func.func @rows(%X: !amls.matrix<1000x1024xf64>) -> !amls.matrix<1000x1xf64> {
  %0 = amls.agg sum row %X : !amls.matrix<1000x1024xf64> -> !amls.matrix<1000x1xf64>
  return %0 : !amls.matrix<1000x1xf64>
}

// -----

// Below 2^15 cells nothing is split: one reduction.
// CHECK-LABEL: func.func @small
// CHECK-NOT: expand_shape
// CHECK: iterator_types = ["reduction", "reduction"]
func.func @small(%X: !amls.matrix<100x100xf64>) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<100x100xf64> -> f64
  return %0 : f64
}
