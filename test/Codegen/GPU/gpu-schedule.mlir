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
// The 64000 partial results are merged on the device first: 500 threads
// (the fewest with at most 128 each) merge 128 each, consecutive threads
// reading consecutive partials; the host merges the 500.
// CHECK: tensor.collapse_shape {{.*}} : tensor<2000x32xf64> into tensor<64000xf64>
// CHECK: tensor.expand_shape {{.*}} output_shape [128, 500] : tensor<64000xf64> into tensor<128x500xf64>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "parallel"]
// CHECK-SAME: outs(%{{.*}} : tensor<500xf64>)
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK-SAME: ins(%{{.*}} : tensor<500xf64>) outs(%{{.*}} : tensor<f64>)
// CHECK-NOT: linalg.generic
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

// -----

// A row vector times the matrix cannot be regrouped into runs of 32 cells:
// the lanes are the 1000 columns, 250 blocks of 16 rows give 250000
// partial results, merged on the device in two stages (2000 threads of
// 125, then a warp's worth at least: 40 of 50), 40 left for the host.
// CHECK-LABEL: func.func @two_stages
// CHECK: outs(%{{.*}} : tensor<250x1000xf64>)
// CHECK: output_shape [125, 2000] : tensor<250000xf64> into tensor<125x2000xf64>
// CHECK: outs(%{{.*}} : tensor<2000xf64>)
// CHECK: output_shape [50, 40] : tensor<2000xf64> into tensor<50x40xf64>
// CHECK: outs(%{{.*}} : tensor<40xf64>)
// CHECK: ins(%{{.*}} : tensor<40xf64>) outs(%{{.*}} : tensor<f64>)
func.func @two_stages(%X: !amls.matrix<4000x1000xf64>,
                      %v: !amls.matrix<1x1000xf64>) -> f64 {
  %0 = amls.fused cell aggregate [sum] all ins(%X, %v) : (!amls.matrix<4000x1000xf64>, !amls.matrix<1x1000xf64>) -> f64 {
  ^bb0(%x: f64, %w: f64):
    %1 = arith.mulf %x, %w : f64
    amls.yield %1 : f64
  }
  return %0 : f64
}

// -----

// 512 partial results or fewer are merged on the host at once: a sum over
// 8192 x 4 cells has 64 blocks of 16 runs of 32 cells, 2048 partials, one
// stage of a warp (32 threads of 64).
// CHECK-LABEL: func.func @one_stage
// CHECK: outs(%{{.*}} : tensor<64x32xf64>)
// CHECK: output_shape [64, 32] : tensor<2048xf64> into tensor<64x32xf64>
// CHECK: ins(%{{.*}} : tensor<32xf64>) outs(%{{.*}} : tensor<f64>)
func.func @one_stage(%X: !amls.matrix<8192x4xf64>) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<8192x4xf64> -> f64
  return %0 : f64
}

// -----

// On the GPU an f64 mmchain is two products and a cell-wise product (the
// products go to cuBLAS), not the runtime's CPU kernel, which would pull X
// to the host; the CPU's schedule calls the kernel (amls-to-linalg.mlir).
// CHECK-LABEL: func.func @mmchain
// CHECK-NOT: amls_rt_mmchain
// CHECK: linalg.matmul
// CHECK: linalg.generic
// CHECK: arith.mulf
// CHECK: linalg.matmul
// CHECK-NOT: amls_rt_mmchain
func.func @mmchain(%X: !amls.matrix<2000x50xf64>, %v: !amls.matrix<50x1xf64>, %w: !amls.matrix<2000x1xf64>) -> !amls.matrix<50x1xf64> {
  %0 = amls.mmchain %X, %v weights %w : !amls.matrix<2000x50xf64>, !amls.matrix<50x1xf64>, !amls.matrix<2000x1xf64> -> !amls.matrix<50x1xf64>
  return %0 : !amls.matrix<50x1xf64>
}

// -----

// 100003 cells (a prime): no warp of lanes divides them, so 195 blocks
// (100003 / (32 x 16) cells per thread at least) of 16 steps over 32 lanes
// take 99840 cells, and the 163 after them are the tail, reduced on their
// own and merged; unsplit, the sum was one loop on the host.
// CHECK-LABEL: func.func @prime_cells
// CHECK: tensor.extract_slice %{{.*}}[0] [99840] [1]
// CHECK: tensor.expand_shape {{.*}} output_shape [195, 16, 32] : tensor<99840xf64> into tensor<195x16x32xf64>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: tensor.extract_slice %{{.*}}[99840] [163] [1]
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["reduction"]
// CHECK-SAME: ins(%{{.*}} : tensor<163xf64>)
func.func @prime_cells(%X: !amls.matrix<100003x1xf64>) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<100003x1xf64> -> f64
  return %0 : f64
}
