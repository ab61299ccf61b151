// RUN: amls-opt %s -split-input-file -cse | FileCheck %s
// RUN: amls-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=DCE

// Without a seed every amls.rand is a fresh random stream: never merged.
// CHECK-LABEL: func @rand_without_seed
// CHECK: %[[A:.*]] = amls.rand
// CHECK: %[[B:.*]] = amls.rand
// CHECK: return %[[A]], %[[B]]
func.func @rand_without_seed(%n: index, %v: f64) -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %a = amls.rand %n, %n, %v, %v, %v uniform : f64 -> !amls.matrix<?x?xf64>
  %b = amls.rand %n, %n, %v, %v, %v uniform : f64 -> !amls.matrix<?x?xf64>
  return %a, %b : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

// With the same explicit seed and arguments the matrices are equal: merged.
// CHECK-LABEL: func @rand_same_seed
// CHECK: %[[A:.*]] = amls.rand
// CHECK-NOT: amls.rand
// CHECK: return %[[A]], %[[A]]
func.func @rand_same_seed(%n: index, %v: f64, %seed: i64) -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %a = amls.rand %n, %n, %v, %v, %v seed %seed uniform : f64 -> !amls.matrix<?x?xf64>
  %b = amls.rand %n, %n, %v, %v, %v seed %seed uniform : f64 -> !amls.matrix<?x?xf64>
  return %a, %b : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

// Different seeds, or different distributions, are different matrices.
// CHECK-LABEL: func @rand_different_seeds
// CHECK-COUNT-3: amls.rand
func.func @rand_different_seeds(%n: index, %v: f64, %s1: i64, %s2: i64) -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %a = amls.rand %n, %n, %v, %v, %v seed %s1 uniform : f64 -> !amls.matrix<?x?xf64>
  %b = amls.rand %n, %n, %v, %v, %v seed %s2 uniform : f64 -> !amls.matrix<?x?xf64>
  %c = amls.rand %n, %n, %v, %v, %v seed %s1 normal : f64 -> !amls.matrix<?x?xf64>
  return %a, %b, %c : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

// Pure ops on the same operands merge; I/O never does.
// CHECK-LABEL: func @pure_and_io
// CHECK: %[[S:.*]] = amls.add
// CHECK-NOT: amls.add
// CHECK: amls.read
// CHECK: amls.read
// CHECK: return %[[S]], %[[S]]
func.func @pure_and_io(%X: !amls.matrix<4x4xf64>) -> (!amls.matrix<4x4xf64>, !amls.matrix<4x4xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %a = amls.add %X, %X : !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64>
  %b = amls.add %X, %X : !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64>
  %r1 = amls.read "X.csv" csv : !amls.matrix<?x?xf64>
  amls.write %X, "X.csv" csv : !amls.matrix<4x4xf64>
  %r2 = amls.read "X.csv" csv : !amls.matrix<?x?xf64>
  return %a, %b, %r1, %r2 : !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

// An unused seedless rand is still dead code; writes and prints are not.
// DCE-LABEL: func @dead_rand
// DCE: amls.rand
// DCE-NOT: amls.rand
// DCE: amls.print
// DCE: amls.write
func.func @dead_rand(%n: index, %v: f64) {
  %a = amls.rand %n, %n, %v, %v, %v uniform : f64 -> !amls.matrix<?x?xf64>
  %b = amls.rand %n, %n, %v, %v, %v uniform : f64 -> !amls.matrix<?x?xf64>
  amls.print %v : f64
  amls.write %b, "b.csv" csv : !amls.matrix<?x?xf64>
  return
}

// -----

// Two clock readings are two readings, in order: neither merged nor hoisted.
// CHECK-LABEL: func @time_readings
// CHECK: amls.time
// CHECK: amls.print
// CHECK: amls.time
func.func @time_readings(%v: f64) -> i64 {
  %t0 = amls.time : i64
  amls.print %v : f64
  %t1 = amls.time : i64
  %d = arith.subi %t1, %t0 : i64
  return %d : i64
}
