// RUN: amls-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(amls-fuse-elementwise))' | FileCheck %s

// The lowering's blocked view of a product's result (sum over 2 blocks of
// rows) stays a reshape of the linalg.matmul: folding it into the product,
// as upstream's linalg-fuse-elementwise-ops does, would leave a generic loop
// nest that --amls-use-blas cannot call BLAS for.
// CHECK-LABEL: func @product_keeps_its_reshape
// CHECK: %[[P:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<1000x101xf64>, tensor<101x1xf64>)
// CHECK: %[[V:.*]] = tensor.expand_shape %[[P]] {{\[\[}}0, 1], [2]] output_shape [2, 500, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[V]] : tensor<2x500x1xf64>)
func.func @product_keeps_its_reshape(%X: tensor<1000x101xf64>, %v: tensor<101x1xf64>) -> tensor<2x1xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1000x1xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<1000x1xf64>) -> tensor<1000x1xf64>
  %p = linalg.matmul ins(%X, %v : tensor<1000x101xf64>, tensor<101x1xf64>) outs(%f : tensor<1000x1xf64>) -> tensor<1000x1xf64>
  %blocks = tensor.expand_shape %p [[0, 1], [2]] output_shape [2, 500, 1] : tensor<1000x1xf64> into tensor<2x500x1xf64>
  %pe = tensor.empty() : tensor<2x1xf64>
  %pf = linalg.fill ins(%zero : f64) outs(%pe : tensor<2x1xf64>) -> tensor<2x1xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(b, r, l) -> (b, r, l)>, affine_map<(b, r, l) -> (b, l)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%blocks : tensor<2x500x1xf64>) outs(%pf : tensor<2x1xf64>) {
  ^bb0(%x: f64, %acc: f64):
    %sq = arith.mulf %x, %x : f64
    %a = arith.addf %acc, %sq : f64
    linalg.yield %a : f64
  } -> tensor<2x1xf64>
  return %s : tensor<2x1xf64>
}

// -----

// An element-wise producer still takes the reshape (upstream's folding by
// expansion) and fuses into the blocked reduction that reads it.
// CHECK-LABEL: func @elementwise_takes_the_reshape
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[V:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [2, 500, 1]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[V]] : tensor<2x500x1xf64>)
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK-NOT: linalg.generic
func.func @elementwise_takes_the_reshape(%y: tensor<1000x1xf64>) -> tensor<2x1xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<1000x1xf64>
  %d = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%y : tensor<1000x1xf64>) outs(%e : tensor<1000x1xf64>) {
  ^bb0(%x: f64, %o: f64):
    %t = arith.mulf %x, %x : f64
    linalg.yield %t : f64
  } -> tensor<1000x1xf64>
  %blocks = tensor.expand_shape %d [[0, 1], [2]] output_shape [2, 500, 1] : tensor<1000x1xf64> into tensor<2x500x1xf64>
  %pe = tensor.empty() : tensor<2x1xf64>
  %pf = linalg.fill ins(%zero : f64) outs(%pe : tensor<2x1xf64>) -> tensor<2x1xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(b, r, l) -> (b, r, l)>, affine_map<(b, r, l) -> (b, l)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%blocks : tensor<2x500x1xf64>) outs(%pf : tensor<2x1xf64>) {
  ^bb0(%x: f64, %acc: f64):
    %sq = arith.mulf %x, %x : f64
    %a = arith.addf %acc, %sq : f64
    linalg.yield %a : f64
  } -> tensor<2x1xf64>
  return %s : tensor<2x1xf64>
}
