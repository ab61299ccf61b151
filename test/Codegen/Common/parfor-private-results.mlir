// RUN: amls-opt %s -split-input-file -amls-parfor-private-results | FileCheck %s

// result_merge 1 (compare): the loop carries one copy of R per worker
// (2 x 10 x 4, each the value before the loop); an iteration works on the
// copy of the worker that runs it and writes it back; after the loop each
// cell is the last copy's that differs from R's bit for bit, else R's.
// CHECK-DAG: #[[BCAST:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[COPIES:.*]] = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
// CHECK-DAG: #[[CELL:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @compare
// CHECK-SAME: (%[[R:.*]]: tensor<10x4xf64>
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x10x4xf64>
// CHECK: %[[INIT:.*]] = linalg.generic {indexing_maps = [#[[BCAST]], #[[ID]]], {{.*}}} ins(%[[R]] : tensor<10x4xf64>) outs(%[[EMPTY]] : tensor<2x10x4xf64>)
// CHECK: %[[LOOP:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[C:.*]] = %[[INIT]]) -> (tensor<2x10x4xf64>) {
// CHECK: %[[K:.*]] = arith.constant 2 : i64
// CHECK: %[[W64:.*]] = func.call @amls_rt_parfor_worker(%[[K]])
// CHECK: %[[W:.*]] = arith.index_cast %[[W64]]
// CHECK: %[[MINE:.*]] = tensor.extract_slice %[[C]][%[[W]], 0, 0] [1, 10, 4] [1, 1, 1] : tensor<2x10x4xf64> to tensor<10x4xf64>
// CHECK: %[[ROW:.*]] = tensor.extract_slice %[[MINE]]
// CHECK: %[[NEW:.*]] = tensor.insert_slice %{{.*}} into %[[MINE]]
// CHECK: %[[BACK:.*]] = tensor.insert_slice %[[NEW]] into %[[C]][%[[W]], 0, 0] [1, 10, 4] [1, 1, 1]
// CHECK: scf.yield %[[BACK]]
// CHECK: } {amls.parfor_plan = #amls.parfor_plan<{{.*}}result_merge = [1]>}
// CHECK: %[[MERGED:.*]] = linalg.generic {indexing_maps = [#[[COPIES]], #[[CELL]], #[[CELL]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[LOOP]], %[[R]] : tensor<2x10x4xf64>, tensor<10x4xf64>) outs(%[[R]] : tensor<10x4xf64>)
// CHECK: ^bb0(%[[CELLV:.*]]: f64, %[[BEFORE:.*]]: f64, %[[ACC:.*]]: f64):
// CHECK: %[[B1:.*]] = arith.bitcast %[[CELLV]] : f64 to i64
// CHECK: %[[B2:.*]] = arith.bitcast %[[BEFORE]] : f64 to i64
// CHECK: %[[CHANGED:.*]] = arith.cmpi ne, %[[B1]], %[[B2]]
// CHECK: %[[PICK:.*]] = arith.select %[[CHANGED]], %[[CELLV]], %[[ACC]]
// CHECK: linalg.yield %[[PICK]]
// CHECK: return %[[MERGED]]
func.func @compare(%R: tensor<10x4xf64>) -> tensor<10x4xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %R) -> (tensor<10x4xf64>) {
    %i1 = arith.addi %i, %c1 : index
    %next = tensor.extract_slice %acc[%i1, 0] [1, 4] [1, 1] : tensor<10x4xf64> to tensor<1x4xf64>
    %w = tensor.insert_slice %next into %acc[%i, 0] [1, 4] [1, 1] : tensor<1x4xf64> into tensor<10x4xf64>
    scf.yield %w : tensor<10x4xf64>
  } {amls.parfor_plan = #amls.parfor_plan<workers = 2, partitioner = factoring, task_size = 1, inner_threads = 1, result_merge = [1]>}
  return %r : tensor<10x4xf64>
}

// -----

// result_merge 2 (nonzeros) for the first result, of dynamic size: the
// copies start as zeros and the merge takes a copy's nonzero cells; the
// second result (0) stays one tensor updated in place.
// CHECK-LABEL: func @nonzeros
// CHECK-SAME: (%[[Z:.*]]: tensor<?x3xf64>, %[[S:.*]]: tensor<8xf64>
// CHECK: %[[ROWS:.*]] = tensor.dim %[[Z]], %{{.*}}
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[ROWS]]) : tensor<4x?x3xf64>
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%[[EMPTY]] : tensor<4x?x3xf64>)
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[C:.*]] = %[[ZEROS]], %[[SACC:.*]] = %[[S]]) -> (tensor<4x?x3xf64>, tensor<8xf64>)
// CHECK: func.call @amls_rt_parfor_worker
// CHECK: tensor.extract_slice %[[C]]
// CHECK: tensor.insert %{{.*}} into %[[SACC]]
// CHECK: scf.yield %{{.*}}, %{{.*}} : tensor<4x?x3xf64>, tensor<8xf64>
// CHECK: %[[MERGED:.*]] = linalg.generic {{.*}} ins(%[[LOOP]]#0 : tensor<4x?x3xf64>) outs(%[[Z]] : tensor<?x3xf64>)
// CHECK: ^bb0(%[[V:.*]]: f64, %[[ACC:.*]]: f64):
// CHECK: %[[NZ:.*]] = arith.cmpf une, %[[V]], %{{.*}} : f64
// CHECK: arith.select %[[NZ]], %[[V]], %[[ACC]]
// CHECK: return %[[MERGED]], %[[LOOP]]#1
func.func @nonzeros(%Z: tensor<?x3xf64>, %S: tensor<8xf64>, %n: index) -> (tensor<?x3xf64>, tensor<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 1.0 : f64
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%z = %Z, %s = %S) -> (tensor<?x3xf64>, tensor<8xf64>) {
    %z2 = tensor.insert %v into %z[%c0, %c0] : tensor<?x3xf64>
    %s2 = tensor.insert %v into %s[%i] : tensor<8xf64>
    scf.yield %z2, %s2 : tensor<?x3xf64>, tensor<8xf64>
  } {amls.parfor_plan = #amls.parfor_plan<workers = 4, partitioner = factoring, task_size = 1, inner_threads = 1, result_merge = [2, 0]>}
  return %r#0, %r#1 : tensor<?x3xf64>, tensor<8xf64>
}

// -----

// A loop without merged results, or planned for one worker, is left as it
// is.
// CHECK-LABEL: func @untouched
// CHECK-NOT: amls_rt_parfor_worker
// CHECK-NOT: tensor<1x10x4xf64>
func.func @untouched(%R: tensor<10x4xf64>) -> tensor<10x4xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %v = arith.constant 1.0 : f64
  %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %R) -> (tensor<10x4xf64>) {
    %w = tensor.insert %v into %acc[%i, %c0] : tensor<10x4xf64>
    scf.yield %w : tensor<10x4xf64>
  } {amls.parfor_plan = #amls.parfor_plan<workers = 2, partitioner = factoring, task_size = 1, inner_threads = 1>}
  %r2 = scf.for %i = %c0 to %c9 step %c1 iter_args(%acc = %r) -> (tensor<10x4xf64>) {
    %w = tensor.insert %v into %acc[%i, %c1] : tensor<10x4xf64>
    scf.yield %w : tensor<10x4xf64>
  } {amls.parfor_plan = #amls.parfor_plan<workers = 1, partitioner = factoring, task_size = 1, inner_threads = 2, result_merge = [1]>}
  return %r2 : tensor<10x4xf64>
}
