// RUN: amls-opt %s | amls-opt | FileCheck %s

// CHECK-LABEL: func @round_trip
// CHECK: amls.all_reduce sum %{{.*}} : f64
// CHECK: amls.all_reduce max %{{.*}} : !amls.matrix<1x10xf64>
// CHECK: amls.all_gather_rows %{{.*}} : !amls.matrix<?x10xf64> -> !amls.matrix<1001x10xf64>
// CHECK: amls.local_rows %{{.*}} : !amls.matrix<1001x1xf64> -> !amls.matrix<?x1xf64>
func.func @round_trip(%s: f64, %m: !amls.matrix<1x10xf64>,
                      %block: !amls.matrix<?x10xf64>,
                      %v: !amls.matrix<1001x1xf64>) {
  %0 = amls.all_reduce sum %s : f64
  %1 = amls.all_reduce max %m : !amls.matrix<1x10xf64>
  %2 = amls.all_gather_rows %block : !amls.matrix<?x10xf64> -> !amls.matrix<1001x10xf64>
  %3 = amls.local_rows %v : !amls.matrix<1001x1xf64> -> !amls.matrix<?x1xf64>
  return
}
