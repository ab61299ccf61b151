// RUN: amls-opt %s -amls-lower-to-llvm | FileCheck %s
// RUN: amls-opt %s -amls-lower-to-llvm=threads=1 | FileCheck %s --check-prefix=SEQ

// The whole CPU pipeline ends in the LLVM dialect: parallel loops through
// OpenMP, sequential loops with threads=1, buffers from the runtime's pool
// (MLIR's generic allocation functions, Memory.h).
// CHECK-LABEL: llvm.func @scale
// CHECK: llvm.call @_mlir_memref_to_llvm_aligned_alloc
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK: llvm.fmul
// CHECK-NOT: amls.
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
// SEQ-LABEL: llvm.func @scale
// SEQ-NOT: omp.parallel
// SEQ: llvm.fmul
func.func @scale(%X: !amls.matrix<?x?xf64>, %s: f64) -> !amls.matrix<?x?xf64> {
  %0 = amls.mul %X, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %1 = amls.exp %0 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %1 : !amls.matrix<?x?xf64>
}
