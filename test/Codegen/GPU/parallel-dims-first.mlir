// RUN: amls-opt %s -split-input-file -amls-parallel-dims-first | FileCheck %s

// A split reduction's first stage (blocks, cells, lanes) becomes (blocks,
// lanes, cells): the maps follow the new order, the body is unchanged.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @split_sum
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.addf
#in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d2)>
func.func @split_sum(%x: memref<64x16x32xf64>, %s: memref<64x32xf64>) {
  linalg.generic {indexing_maps = [#in, #out],
                  iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%x : memref<64x16x32xf64>) outs(%s : memref<64x32xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %r = arith.addf %acc, %a : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// Already in order, all parallel or all reductions: unchanged.
// CHECK-LABEL: func.func @in_order
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: iterator_types = ["reduction", "reduction"]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#all = affine_map<(d0, d1) -> ()>
func.func @in_order(%x: memref<8x4xf64>, %r: memref<8xf64>, %t: memref<f64>) {
  linalg.generic {indexing_maps = [#id, #row],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x4xf64>) outs(%r : memref<8xf64>) {
  ^bb0(%a: f64, %acc: f64):
    %s = arith.addf %acc, %a : f64
    linalg.yield %s : f64
  }
  linalg.generic {indexing_maps = [#id, #all],
                  iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<8x4xf64>) outs(%t : memref<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %s = arith.addf %acc, %a : f64
    linalg.yield %s : f64
  }
  return
}
