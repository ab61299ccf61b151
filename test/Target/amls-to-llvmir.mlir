// RUN: amls-translate --amls-to-llvmir %s | FileCheck %s
// RUN: amls-translate --amls-to-llvmir --amls-threads=1 %s | FileCheck %s --check-prefix=SEQ
// RUN: amls-opt %s --amls-lower-to-llvm | amls-translate --mlir-to-llvmir | FileCheck %s

// The CPU pipeline and LLVM IR export in one step: parallel loops become
// OpenMP runtime calls, sequential ones plain loops.
// CHECK: define { ptr, ptr, i64, [2 x i64], [2 x i64] } @scale(
// CHECK: call void {{.*}}@__kmpc_fork_call(
// CHECK: fmul double
// SEQ: define { ptr, ptr, i64, [2 x i64], [2 x i64] } @scale(
// SEQ-NOT: __kmpc_fork_call
// SEQ: fmul double
func.func @scale(%X: !amls.matrix<?x?xf64>, %s: f64) -> !amls.matrix<?x?xf64> {
  %0 = amls.mul %X, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}
