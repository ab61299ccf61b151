// RUN: amls-opt %s -split-input-file -amls-fold-reduction-inits | FileCheck %s

// A compensated sum (a sum and its compensation, each filled by its own
// loop): both cells become values of the sequential loop, starting at the
// fill values, stored once after it; the filling loops go.
// CHECK-LABEL: func @compensated_sum
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[SUM:.*]] = memref.alloc() : memref<64x32xf64>
// CHECK-DAG: %[[COMP:.*]] = memref.alloc() : memref<64x32xf64>
// CHECK-NOT: memref.store %[[ZERO]]
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK: %[[R:.*]]:2 = scf.for %[[K:.*]] = {{.*}} iter_args(%[[S:.*]] = %[[ZERO]], %[[C:.*]] = %[[ZERO]]) -> (f64, f64) {
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[I]], %[[K]], %[[J]]]
// CHECK-NEXT: %[[Y:.*]] = arith.subf %[[V]], %[[C]]
// CHECK-NEXT: %[[T:.*]] = arith.addf %[[S]], %[[Y]]
// CHECK: scf.yield %[[T]], %{{.*}} : f64, f64
// CHECK-NEXT: }
// CHECK-DAG: memref.store %[[R]]#0, %[[SUM]][%[[I]], %[[J]]]
// CHECK-DAG: memref.store %[[R]]#1, %[[COMP]][%[[I]], %[[J]]]
// CHECK-NOT: memref.load %[[SUM]]
// CHECK: return %[[SUM]]
func.func @compensated_sum(%x: memref<64x16x32xf64>) -> memref<64x32xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f64
  %sum = memref.alloc() : memref<64x32xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
    memref.store %zero, %sum[%i, %j] : memref<64x32xf64>
    scf.reduce
  }
  %comp = memref.alloc() : memref<64x32xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
    memref.store %zero, %comp[%i, %j] : memref<64x32xf64>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c32) step (%c1, %c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = memref.load %x[%i, %k, %j] : memref<64x16x32xf64>
      %s = memref.load %sum[%i, %j] : memref<64x32xf64>
      %c = memref.load %comp[%i, %j] : memref<64x32xf64>
      %y = arith.subf %v, %c : f64
      %t = arith.addf %s, %y : f64
      %d = arith.subf %t, %s : f64
      %e = arith.subf %d, %y : f64
      memref.store %t, %sum[%i, %j] : memref<64x32xf64>
      memref.store %e, %comp[%i, %j] : memref<64x32xf64>
    }
    scf.reduce
  }
  return %sum : memref<64x32xf64>
}

// -----

// A maximum over a row of dynamic length, from -inf: one dimension, bounds
// that are the same values.
// CHECK-LABEL: func @row_max
// CHECK-DAG: %[[NEG:.*]] = arith.constant 0xFFF0000000000000
// CHECK: scf.parallel
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[M:.*]] = %[[NEG]]) -> (f64) {
// CHECK: arith.maximumf %[[M]],
// CHECK: memref.store %[[R]], %{{.*}}[%{{.*}}] : memref<?xf64>
func.func @row_max(%x: memref<?x?xf64>, %rows: index, %cols: index) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %neg = arith.constant 0xFFF0000000000000 : f64
  %max = memref.alloc(%rows) : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    memref.store %neg, %max[%i] : memref<?xf64>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%rows) step (%c1) {
    scf.for %k = %c0 to %cols step %c1 {
      %v = memref.load %x[%i, %k] : memref<?x?xf64>
      %m = memref.load %max[%i] : memref<?xf64>
      %n = arith.maximumf %m, %v : f64
      memref.store %n, %max[%i] : memref<?xf64>
    }
    scf.reduce
  }
  return %max : memref<?xf64>
}

// -----

// What is left alone: loops over other spaces, a buffer something reads
// between the fill and the reduction, a reduction that reads its cell
// after writing it, one that reads another cell, one nested two loops deep,
// a fill of a value computed in the filling loop, and a buffer that is not
// a fresh allocation.
// CHECK-LABEL: func @left_alone
// CHECK-NOT: iter_args
// CHECK: return
func.func @left_alone(%x: memref<64x16xf64>, %arg: memref<64xf64>, %out: memref<f64>) -> (memref<64xf64>, memref<64xf64>, memref<64xf64>, memref<64xf64>, memref<64xf64>, memref<64xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f64
  // Other bounds.
  %a = memref.alloc() : memref<64xf64>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %a[%i] : memref<64xf64>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c32) step (%c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = memref.load %x[%i, %k] : memref<64x16xf64>
      %s = memref.load %a[%i] : memref<64xf64>
      %t = arith.addf %s, %v : f64
      memref.store %t, %a[%i] : memref<64xf64>
    }
    scf.reduce
  }
  // Read in between.
  %b = memref.alloc() : memref<64xf64>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %b[%i] : memref<64xf64>
    scf.reduce
  }
  %first = memref.load %b[%c0] : memref<64xf64>
  memref.store %first, %out[] : memref<f64>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = memref.load %x[%i, %k] : memref<64x16xf64>
      %s = memref.load %b[%i] : memref<64xf64>
      %t = arith.addf %s, %v : f64
      memref.store %t, %b[%i] : memref<64xf64>
    }
    scf.reduce
  }
  // Read after the write.
  %c = memref.alloc() : memref<64xf64>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %c[%i] : memref<64xf64>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = memref.load %x[%i, %k] : memref<64x16xf64>
      memref.store %v, %c[%i] : memref<64xf64>
      %s = memref.load %c[%i] : memref<64xf64>
      %t = arith.addf %s, %v : f64
      memref.store %t, %x[%i, %k] : memref<64x16xf64>
    }
    scf.reduce
  }
  // Another cell.
  %d = memref.alloc() : memref<64xf64>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %d[%i] : memref<64xf64>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = memref.load %x[%i, %k] : memref<64x16xf64>
      %s = memref.load %d[%k] : memref<64xf64>
      %t = arith.addf %s, %v : f64
      memref.store %t, %d[%i] : memref<64xf64>
    }
    scf.reduce
  }
  // Two loops deep.
  %e = memref.alloc() : memref<64xf64>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %e[%i] : memref<64xf64>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %h = %c0 to %c2 step %c1 {
      scf.for %k = %c0 to %c16 step %c1 {
        %v = memref.load %x[%i, %k] : memref<64x16xf64>
        %s = memref.load %e[%i] : memref<64xf64>
        %t = arith.addf %s, %v : f64
        memref.store %t, %e[%i] : memref<64xf64>
      }
    }
    scf.reduce
  }
  // A value computed in the filling loop.
  %f = memref.alloc() : memref<64xf64>
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %n = arith.index_cast %i : index to i64
    %w = arith.sitofp %n : i64 to f64
    memref.store %w, %f[%i] : memref<64xf64>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = memref.load %x[%i, %k] : memref<64x16xf64>
      %s = memref.load %f[%i] : memref<64xf64>
      %t = arith.addf %s, %v : f64
      memref.store %t, %f[%i] : memref<64xf64>
    }
    scf.reduce
  }
  // Not a fresh allocation.
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %zero, %arg[%i] : memref<64xf64>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %k = %c0 to %c16 step %c1 {
      %v = memref.load %x[%i, %k] : memref<64x16xf64>
      %s = memref.load %arg[%i] : memref<64xf64>
      %t = arith.addf %s, %v : f64
      memref.store %t, %arg[%i] : memref<64xf64>
    }
    scf.reduce
  }
  return %a, %b, %c, %d, %e, %f : memref<64xf64>, memref<64xf64>, memref<64xf64>, memref<64xf64>, memref<64xf64>, memref<64xf64>
}
