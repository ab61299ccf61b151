// RUN: amls-opt %s -split-input-file -verify-diagnostics -amls-lower-shard-collectives | FileCheck %s

// A sum over the ranks reduces a fresh copy in place through the runtime's
// one communicator; the grid goes with its last collective.
// CHECK-LABEL: func @reduce
// CHECK-NOT: shard.grid
// CHECK: %[[COPY:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf64>
// CHECK: memref.copy %{{.*}}, %[[COPY]]
// CHECK: %[[SUM:.*]] = arith.constant 0 : i32
// CHECK: call @amls_rt_dist_all_reduce(%{{.*}}, %[[SUM]])
// CHECK: bufferization.to_tensor %[[COPY]] restrict writable
// CHECK-NOT: shard.all_reduce
shard.grid @amls_ranks(shape = ?)
func.func @reduce(%t: tensor<10x1xf64>) -> tensor<10x1xf64> {
  %0 = shard.all_reduce %t on @amls_ranks grid_axes = [0] reduction = sum : tensor<10x1xf64> -> tensor<10x1xf64>
  return %0 : tensor<10x1xf64>
}

// -----

// CHECK-LABEL: func @maximum
// CHECK: %[[MAX:.*]] = arith.constant 3 : i32
// CHECK: call @amls_rt_dist_all_reduce(%{{.*}}, %[[MAX]])
shard.grid @amls_ranks(shape = ?)
func.func @maximum(%t: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %0 = shard.all_reduce %t on @amls_ranks grid_axes = [0] reduction = max : tensor<?x?xf64> -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}

// -----

// A product over the ranks is not what amls.all_reduce lowers to.
shard.grid @amls_ranks(shape = ?)
func.func @product(%t: tensor<4x4xf64>) -> tensor<4x4xf64> {
  // expected-error @+1 {{'shard.all_reduce' op expected a sum, min or max of a 2-D f64 tensor over the ranks, as amls.all_reduce lowers to}}
  %0 = shard.all_reduce %t on @amls_ranks grid_axes = [0] reduction = product : tensor<4x4xf64> -> tensor<4x4xf64>
  return %0 : tensor<4x4xf64>
}
