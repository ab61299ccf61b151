// The loops --amls-fold-reduction-inits rewrites, executed before and after
// it (lowered by upstream passes and run by mlir-runner): a sum and a
// maximum accumulated into fresh buffers, and a maximum over no
// iterations, which keeps its fill value. x[i, k, j] = 4i + k + 3j, so the
// sums over k = 0..2 are 12i + 9j + 3 and the maxima 4i + 3j + 2.
// RUN: amls-opt %s | mlir-opt --pass-pipeline="builtin.module(convert-scf-to-cf,expand-strided-metadata,finalize-memref-to-llvm,convert-func-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s
// RUN: amls-opt %s -amls-fold-reduction-inits | FileCheck %s --check-prefix=FOLDED
// RUN: amls-opt %s -amls-fold-reduction-inits | mlir-opt --pass-pipeline="builtin.module(convert-scf-to-cf,expand-strided-metadata,finalize-memref-to-llvm,convert-func-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs | FileCheck %s
//
// FOLDED-COUNT-2: iter_args
// CHECK: sizes = [4, 2]
// CHECK-NEXT: {{\[}}[3,   12],
// CHECK-NEXT: [15,   24],
// CHECK-NEXT: [27,   36],
// CHECK-NEXT: [39,   48]]
// CHECK: sizes = [4, 2]
// CHECK-NEXT: {{\[}}[2,   5],
// CHECK-NEXT: [6,   9],
// CHECK-NEXT: [10,   13],
// CHECK-NEXT: [14,   17]]
// CHECK: sizes = [4, 2]
// CHECK-NEXT: {{\[}}[-inf,   -inf],
// CHECK-NEXT: [-inf,   -inf],
// CHECK-NEXT: [-inf,   -inf],
// CHECK-NEXT: [-inf,   -inf]]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f64
  %neg = arith.constant 0xFFF0000000000000 : f64
  %x = memref.alloc() : memref<4x3x2xf64>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c3 step %c1 {
      scf.for %j = %c0 to %c2 step %c1 {
        %a = arith.muli %i, %c4 : index
        %b = arith.addi %a, %k : index
        %c = arith.muli %j, %c3 : index
        %d = arith.addi %b, %c : index
        %n = arith.index_cast %d : index to i64
        %v = arith.sitofp %n : i64 to f64
        memref.store %v, %x[%i, %k, %j] : memref<4x3x2xf64>
      }
    }
  }
  %sum = memref.alloc() : memref<4x2xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c2) step (%c1, %c1) {
    memref.store %zero, %sum[%i, %j] : memref<4x2xf64>
    scf.reduce
  }
  %max = memref.alloc() : memref<4x2xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c2) step (%c1, %c1) {
    memref.store %neg, %max[%i, %j] : memref<4x2xf64>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c2) step (%c1, %c1) {
    scf.for %k = %c0 to %c3 step %c1 {
      %v = memref.load %x[%i, %k, %j] : memref<4x3x2xf64>
      %s = memref.load %sum[%i, %j] : memref<4x2xf64>
      %m = memref.load %max[%i, %j] : memref<4x2xf64>
      %t = arith.addf %s, %v : f64
      %u = arith.maximumf %m, %v : f64
      memref.store %t, %sum[%i, %j] : memref<4x2xf64>
      memref.store %u, %max[%i, %j] : memref<4x2xf64>
    }
    scf.reduce
  }
  %empty = memref.alloc() : memref<4x2xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c2) step (%c1, %c1) {
    memref.store %neg, %empty[%i, %j] : memref<4x2xf64>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c2) step (%c1, %c1) {
    scf.for %k = %c0 to %c0 step %c1 {
      %v = memref.load %x[%i, %k, %j] : memref<4x3x2xf64>
      %m = memref.load %empty[%i, %j] : memref<4x2xf64>
      %u = arith.maximumf %m, %v : f64
      memref.store %u, %empty[%i, %j] : memref<4x2xf64>
    }
    scf.reduce
  }
  %0 = memref.cast %sum : memref<4x2xf64> to memref<*xf64>
  call @printMemrefF64(%0) : (memref<*xf64>) -> ()
  %1 = memref.cast %max : memref<4x2xf64> to memref<*xf64>
  call @printMemrefF64(%1) : (memref<*xf64>) -> ()
  %2 = memref.cast %empty : memref<4x2xf64> to memref<*xf64>
  call @printMemrefF64(%2) : (memref<*xf64>) -> ()
  memref.dealloc %x : memref<4x3x2xf64>
  memref.dealloc %sum : memref<4x2xf64>
  memref.dealloc %max : memref<4x2xf64>
  memref.dealloc %empty : memref<4x2xf64>
  return
}
