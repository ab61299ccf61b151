// RUN: amls-opt %s -split-input-file -amls-compensate-sums | FileCheck %s
// RUN: amls-opt %s -split-input-file -amls-compensate-sums=plain | FileCheck %s --check-prefix=PLAIN

// A marked full sum gets a correction output, initialised to 0, and
// SystemDS's KahanPlus step: y = x + c; s' = s + y; c' = y - (s' - s), or
// 0 once s' is infinite.
// CHECK-LABEL: func.func @full_sum
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<f64>
// CHECK: %[[CORR:.*]] = linalg.fill ins(%[[ZERO]] : f64) outs(%[[EMPTY]] : tensor<f64>)
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK-SAME: iterator_types = ["reduction", "reduction"]
// CHECK-SAME: outs(%[[INIT]], %[[CORR]] : tensor<f64>, tensor<f64>)
// CHECK-NEXT: ^bb0(%[[X:.*]]: f64, %[[S:.*]]: f64, %[[C:.*]]: f64):
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[X]], %[[C]] : f64
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[S]], %[[Y]] : f64
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[T]], %[[S]] : f64
// CHECK-NEXT: %[[L:.*]] = arith.subf %[[Y]], %[[D]] : f64
// CHECK-NEXT: %[[ABS:.*]] = math.absf %[[T]] : f64
// CHECK-NEXT: %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
// CHECK-NEXT: %[[IS_INF:.*]] = arith.cmpf oeq, %[[ABS]], %[[INF]] : f64
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NEXT: %[[L2:.*]] = arith.select %[[IS_INF]], %[[Z]], %[[L]] : f64
// CHECK-NEXT: linalg.yield %[[T]], %[[L2]] : f64, f64
// CHECK: return %[[R]]#0
// CHECK-NOT: amls.compensate
// PLAIN-LABEL: func.func @full_sum
// PLAIN: linalg.generic
// PLAIN: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f64
// PLAIN-NOT: amls.compensate
// PLAIN-NOT: arith.subf
func.func @full_sum(%x: tensor<4x8xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %init = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<4x8xf64>) outs(%init : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %s = arith.addf %acc, %a {amls.compensate} : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %r : tensor<f64>
}

// -----

// Row sums of a matrix of run-time size: the correction has the
// accumulator's dynamic shape and map. Only the marked sum of the two
// outputs is compensated; the max stays as it is.
// CHECK-LABEL: func.func @row_sum_and_max
// CHECK: %[[DIM:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?xf64>
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[DIM]]) : tensor<?xf64>
// CHECK: %[[CORR:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%[[EMPTY]] : tensor<?xf64>)
// CHECK: %[[R:.*]]:3 = linalg.generic
// CHECK-SAME: indexing_maps = [#{{.*}}, #[[ROW:.*]], #[[ROW]], #[[ROW]]]
// CHECK-SAME: outs(%{{.*}}, %{{.*}}, %[[CORR]] : tensor<?xf64>, tensor<?xf64>, tensor<?xf64>)
// CHECK: arith.subf
// CHECK: arith.subf
// CHECK: arith.maximumf
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @row_sum_and_max(%x: tensor<?x?xf64>, %sums: tensor<?xf64>, %maxs: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<?x?xf64>) outs(%sums, %maxs : tensor<?xf64>, tensor<?xf64>) {
  ^bb0(%a: f64, %s: f64, %m: f64):
    %sum = arith.addf %a, %s {amls.compensate} : f64
    %max = arith.maximumf %m, %a : f64
    linalg.yield %sum, %max : f64, f64
  } -> (tensor<?xf64>, tensor<?xf64>)
  return %r#0, %r#1 : tensor<?xf64>, tensor<?xf64>
}

// -----

// A loop-carried sum (the CSR row kernels' scf.for) gets a carried
// correction.
// CHECK-LABEL: func.func @loop_sum
// CHECK: %[[R:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}) -> (f64, f64)
// CHECK: %[[Y:.*]] = arith.addf %{{.*}}, %[[C]] : f64
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[S]], %[[Y]] : f64
// CHECK-NEXT: %[[D:.*]] = arith.subf %[[T]], %[[S]] : f64
// CHECK-NEXT: %[[L:.*]] = arith.subf %[[Y]], %[[D]] : f64
// CHECK: %[[L2:.*]] = arith.select %{{.*}}, %{{.*}}, %[[L]] : f64
// CHECK-NEXT: scf.yield %[[T]], %[[L2]] : f64, f64
// CHECK: return %[[R]]#0
func.func @loop_sum(%v: tensor<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f64) {
    %x = tensor.extract %v[%k] : tensor<?xf64>
    %s = arith.addf %acc, %x {amls.compensate} : f64
    scf.yield %s : f64
  }
  return %r : f64
}

// -----

// Left alone: an unmarked sum (a product's accumulation), an element-wise
// generic, an accumulator read twice, an integer sum.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: arith.subf
// CHECK: return
func.func @untouched(%x: tensor<4x8xf64>, %init: tensor<f64>, %out: tensor<4x8xf64>, %i: tensor<4xi64>, %iinit: tensor<i64>) -> (tensor<f64>, tensor<4x8xf64>, tensor<f64>, tensor<i64>) {
  %dot = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<4x8xf64>) outs(%init : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %p = arith.mulf %a, %a : f64
    %s = arith.addf %acc, %p : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  %cells = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf64>) outs(%out : tensor<4x8xf64>) {
  ^bb0(%a: f64, %o: f64):
    %s = arith.addf %o, %a {amls.compensate} : f64
    linalg.yield %s : f64
  } -> tensor<4x8xf64>
  %twice = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<4x8xf64>) outs(%init : tensor<f64>) {
  ^bb0(%a: f64, %acc: f64):
    %m = arith.maximumf %acc, %a : f64
    %s = arith.addf %acc, %m {amls.compensate} : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  %isum = linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]}
      ins(%i : tensor<4xi64>) outs(%iinit : tensor<i64>) {
  ^bb0(%a: i64, %acc: i64):
    %s = arith.addi %acc, %a : i64
    linalg.yield %s : i64
  } -> tensor<i64>
  return %dot, %cells, %twice, %isum : tensor<f64>, tensor<4x8xf64>, tensor<f64>, tensor<i64>
}
