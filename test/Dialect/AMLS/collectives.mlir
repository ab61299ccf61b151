// RUN: amls-opt %s | amls-opt | FileCheck %s

// CHECK-LABEL: func @round_trip
// CHECK: amls.all_reduce sum %{{.*}} : f64
// CHECK: amls.all_reduce max %{{.*}} : !amls.matrix<1x10xf64>
// CHECK: amls.all_gather_rows %{{.*}} : !amls.matrix<?x10xf64> -> !amls.matrix<1001x10xf64>
// CHECK: amls.local_rows %{{.*}} : !amls.matrix<1001x1xf64> -> !amls.matrix<?x1xf64>
// CHECK: amls.local_iterations %{{.*}} to %{{.*}} step %{{.*}}{{$}}
// CHECK: amls.local_iterations %{{.*}} to %{{.*}} step %{{.*}} cyclic
// CHECK: amls.merge_ranks %{{.*}} over %{{.*}} : !amls.matrix<1001x1xf64>
// CHECK: amls.read "X.csv" csv {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x10xf64>
func.func @round_trip(%s: f64, %m: !amls.matrix<1x10xf64>,
                      %block: !amls.matrix<?x10xf64>,
                      %v: !amls.matrix<1001x1xf64>) {
  %0 = amls.all_reduce sum %s : f64
  %1 = amls.all_reduce max %m : !amls.matrix<1x10xf64>
  %2 = amls.all_gather_rows %block : !amls.matrix<?x10xf64> -> !amls.matrix<1001x10xf64>
  %3 = amls.local_rows %v : !amls.matrix<1001x1xf64> -> !amls.matrix<?x1xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lo, %hi, %st = amls.local_iterations %c0 to %c1 step %c1
  %lo2, %hi2, %st2 = amls.local_iterations %c0 to %c1 step %c1 cyclic
  %4 = amls.merge_ranks %v over %v : !amls.matrix<1001x1xf64>
  %5 = amls.read "X.csv" csv {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x10xf64>
  return
}
