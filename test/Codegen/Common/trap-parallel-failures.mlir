// RUN: amls-opt %s -split-input-file -amls-trap-parallel-failures | FileCheck %s

// A parallel loop whose iterations check something runs each iteration
// under a trap of the region's record: opened before the loop, closed
// (its failure raised) after it. setjmp is declared returns_twice.
// CHECK: llvm.func @_setjmp(!llvm.ptr) -> i32 attributes {passthrough = ["returns_twice"]}
// CHECK-LABEL: func @checked
// CHECK: %[[F:.*]] = call @amls_rt_region_open()
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK-NEXT: %[[BUF:.*]] = func.call @amls_rt_region_trap(%[[F]])
// CHECK-NEXT: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT: %[[ARMED:.*]] = llvm.icmp "ne" %[[BUF]], %[[NULL]]
// CHECK-NEXT: scf.if %[[ARMED]] {
// CHECK-NEXT: %[[JUMPED:.*]] = llvm.call @_setjmp(%[[BUF]])
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[SET:.*]] = arith.cmpi eq, %[[JUMPED]], %[[ZERO]]
// CHECK-NEXT: scf.if %[[SET]] {
// CHECK-NEXT: arith.cmpi ne, %[[I]]
// CHECK: func.call @amls_rt_check
// CHECK-NEXT: }
// CHECK-NEXT: func.call @amls_rt_region_untrap()
// CHECK-NEXT: }
// CHECK-NEXT: scf.reduce
// CHECK: call @amls_rt_region_close(%[[F]])
// CHECK-NEXT: return
llvm.mlir.global internal constant @msg("bad\00") {addr_space = 0 : i32}
func.func private @amls_rt_check(i32, !llvm.ptr)
func.func @checked(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %ne = arith.cmpi ne, %i, %c7 : index
    %ok = arith.extui %ne : i1 to i32
    %p = llvm.mlir.addressof @msg : !llvm.ptr
    func.call @amls_rt_check(%ok, %p) : (i32, !llvm.ptr) -> ()
    scf.reduce
  }
  return
}

// -----

// Element-wise loops and loops that only print or draw random numbers
// cannot fail: no trap, no record.
// CHECK-LABEL: func @cannot_fail
// CHECK-NOT: amls_rt_region
// CHECK-NOT: _setjmp
// CHECK: return
func.func private @amls_rt_rand(i64, i64, f64, f64, f64, i32) -> f64
func.func @cannot_fail(%A: memref<?xf64>, %n: index, %seed: i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %pdf = arith.constant 0 : i32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %cell = arith.index_cast %i : index to i64
    %r = func.call @amls_rt_rand(%seed, %cell, %zero, %one, %one, %pdf) : (i64, i64, f64, f64, f64, i32) -> f64
    %a = memref.load %A[%i] : memref<?xf64>
    %s = arith.addf %a, %r : f64
    memref.store %s, %A[%i] : memref<?xf64>
    scf.reduce
  }
  return
}

// -----

// An allocation may exceed the memory budget, and a function of the
// program may fail: both loops are trapped. Only the outermost loop of a
// nest gets the trap (its iterations hold the inner loop).
// CHECK-LABEL: func @allocates
// CHECK: call @amls_rt_region_open()
// CHECK: scf.parallel
// CHECK: llvm.call @_setjmp
// CHECK: scf.parallel
// CHECK-NOT: amls_rt_region_trap
// CHECK: memref.alloc
// CHECK: amls_rt_region_untrap
// CHECK: amls_rt_region_close
// CHECK-LABEL: func @calls
// CHECK: call @amls_rt_region_open()
// CHECK: func.call @helper
// CHECK: amls_rt_region_close
func.func @allocates(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%m) step (%c1) {
      %t = memref.alloc(%m) : memref<?xf64>
      memref.dealloc %t : memref<?xf64>
      scf.reduce
    }
    scf.reduce
  }
  return
}
func.func private @helper(index)
func.func @calls(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    func.call @helper(%i) : (index) -> ()
    scf.reduce
  }
  return
}

// -----

// A reduction's value leaves the trap as the trap's result: poison when
// the iteration failed or was skipped (the loop then fails after it).
// CHECK-LABEL: func @reduces
// CHECK: scf.parallel
// CHECK: %[[SUM:.*]] = scf.if %{{.*}} -> (f64) {
// CHECK: %[[DONE:.*]] = scf.if %{{.*}} -> (f64) {
// CHECK: %[[V:.*]] = func.call @value
// CHECK-NEXT: scf.yield %[[V]] : f64
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[P1:.*]] = ub.poison : f64
// CHECK-NEXT: scf.yield %[[P1]] : f64
// CHECK: func.call @amls_rt_region_untrap()
// CHECK-NEXT: scf.yield %[[DONE]] : f64
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[P2:.*]] = ub.poison : f64
// CHECK-NEXT: scf.yield %[[P2]] : f64
// CHECK: scf.reduce(%[[SUM]] : f64)
func.func private @value(index) -> f64
func.func @reduces(%n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %v = func.call @value(%i) : (index) -> f64
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %s = arith.addf %a, %b : f64
      scf.reduce.return %s : f64
    }
  }
  return %sum : f64
}

// -----

// The loops of a parfor's workers (an omp.parallel, whose tasks
// --amls-parfor-workers traps) are left alone.
// CHECK-LABEL: func @in_workers
// CHECK-NOT: amls_rt_region
// CHECK: return
func.func @in_workers(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  omp.parallel {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      func.call @helper(%i) : (index) -> ()
      scf.reduce
    }
    omp.terminator
  }
  return
}
func.func private @helper(index)
