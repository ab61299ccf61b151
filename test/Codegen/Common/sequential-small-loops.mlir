// RUN: amls-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(amls-sequential-small-loops))' | FileCheck %s
// RUN: amls-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(amls-sequential-small-loops{min-iterations=10}))' | FileCheck %s --check-prefix=TEN

// A 1x3 loop runs sequentially; 200x100 = 20000 cells stay parallel (at the
// default threshold, 16384); with min-iterations=10 only the 1x3 loop is
// small.
// CHECK-LABEL: func @by_size
// CHECK: scf.for %{{.*}} = %c0 to %c1 step %c1
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c3 step %c1
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %c0) to (%c200, %c100)
// TEN-LABEL: func @by_size
// TEN: scf.for
// TEN: scf.parallel
func.func @by_size(%A: memref<1x3xf64>, %B: memref<200x100xf64>, %s: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %c3) step (%c1, %c1) {
    memref.store %s, %A[%i, %j] : memref<1x3xf64>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c200, %c100) step (%c1, %c1) {
    memref.store %s, %B[%i, %j] : memref<200x100xf64>
  }
  return
}

// -----

// The count includes nested sequential loops: column sums of a 100000x100
// matrix are 100 parallel iterations of a 100000-step reduction and stay
// parallel; a count unknown at compile time stays parallel too.
// CHECK-LABEL: func @nested_and_unknown
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c100)
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%arg2)
// CHECK-NOT: scf.for %{{.*}} = %c0 to %arg2
func.func @nested_and_unknown(%X: memref<100000x100xf64>, %out: memref<100xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c100000 = arith.constant 100000 : index
  scf.parallel (%j) = (%c0) to (%c100) step (%c1) {
    scf.for %i = %c0 to %c100000 step %c1 {
      %x = memref.load %X[%i, %j] : memref<100000x100xf64>
      %acc = memref.load %out[%j] : memref<100xf64>
      %sum = arith.addf %acc, %x : f64
      memref.store %sum, %out[%j] : memref<100xf64>
    }
  }
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %acc = memref.load %out[%c0] : memref<100xf64>
    memref.store %acc, %out[%c1] : memref<100xf64>
  }
  return
}

// -----

// A parallel loop nested in a large parallel loop runs sequentially inside
// it (the outer loop already uses the threads).
// CHECK-LABEL: func @nested_parallel
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c64)
// CHECK: scf.for %{{.*}} = %c0 to %c1000
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c8
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @nested_parallel(%X: memref<64x1000x8xf64>, %out: memref<64x8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%b) = (%c0) to (%c64) step (%c1) {
    scf.for %i = %c0 to %c1000 step %c1 {
      scf.parallel (%l) = (%c0) to (%c8) step (%c1) {
        %x = memref.load %X[%b, %i, %l] : memref<64x1000x8xf64>
        %acc = memref.load %out[%b, %l] : memref<64x8xf64>
        %sum = arith.addf %acc, %x : f64
        memref.store %sum, %out[%b, %l] : memref<64x8xf64>
      }
    }
  }
  return
}

// -----

// A parallel loop of unknown count inside a sequential loop (a column
// reduction of a run-time width: one region per row) runs in parallel only
// when its count reaches the threshold at run time.
// CHECK-LABEL: func @unknown_in_sequential
// CHECK: scf.for %[[I:.*]] = %c0 to %c100000 step %c1
// CHECK: %[[COUNT:.*]] = arith.muli
// CHECK: %[[LARGE:.*]] = arith.cmpi sge, %[[COUNT]], %c16384
// CHECK: scf.if %[[LARGE]] {
// CHECK-NEXT: scf.parallel (%{{.*}}) = (%c0) to (%arg2) step (%c1)
// CHECK: } else {
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %arg2 step %c1
// CHECK-NOT: scf.parallel
// CHECK: return
// TEN-LABEL: func @unknown_in_sequential
// TEN: arith.cmpi sge, %{{.*}}, %c10
func.func @unknown_in_sequential(%X: memref<100000x?xf64>, %out: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100000 = arith.constant 100000 : index
  scf.for %i = %c0 to %c100000 step %c1 {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      %x = memref.load %X[%i, %j] : memref<100000x?xf64>
      %acc = memref.load %out[%j] : memref<?xf64>
      %sum = arith.addf %acc, %x : f64
      memref.store %sum, %out[%j] : memref<?xf64>
    }
  }
  return
}

// -----

// A large loop in an OpenMP region (a parfor's workers, one inner thread
// each) runs sequentially on its worker: no nested region.
// CHECK-LABEL: func @in_parallel_region
// CHECK: omp.parallel
// CHECK-NOT: scf.parallel
// CHECK: scf.for %{{.*}} = %c0 to %c200 step %c1
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c100 step %c1
// CHECK: omp.terminator
func.func @in_parallel_region(%B: memref<200x100xf64>, %s: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c200 = arith.constant 200 : index
  omp.parallel {
    scf.parallel (%i, %j) = (%c0, %c0) to (%c200, %c100) step (%c1, %c1) {
      memref.store %s, %B[%i, %j] : memref<200x100xf64>
    }
    omp.terminator
  }
  return
}
