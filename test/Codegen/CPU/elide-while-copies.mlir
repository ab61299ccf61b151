// RUN: amls-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(amls-elide-while-copies))' | FileCheck %s

// The shape one-shot bufferization gives `while (...) { y = A %*% x }`:
// the before region copies the carried y, the after region yields the
// product's new buffer (or its argument), and y is only read afterwards.
// The argument is forwarded without the copy.
// CHECK-LABEL: func @product_update
// CHECK: scf.while (%[[B:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: scf.condition(%{{.*}}) %[[B]], %{{.*}} : memref<8xf64>, f64
// CHECK: } do {
// CHECK: memref.alloc() : memref<8xf64>
// CHECK: call @product
func.func private @product(memref<8xf64>)
func.func @product_update(%n: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %init = memref.alloc() : memref<8xf64>
  linalg.fill ins(%zero : f64) outs(%init : memref<8xf64>)
  %r:2 = scf.while (%y = %init, %i = %zero) : (memref<8xf64>, f64) -> (memref<8xf64>, f64) {
    %go = arith.cmpf olt, %i, %n : f64
    %copy = memref.alloc() : memref<8xf64>
    memref.copy %y, %copy : memref<8xf64> to memref<8xf64>
    scf.condition(%go) %copy, %i : memref<8xf64>, f64
  } do {
  ^bb0(%y: memref<8xf64>, %i: f64):
    %odd = arith.cmpf ogt, %i, %one : f64
    %next = scf.if %odd -> (memref<8xf64>) {
      %p = memref.alloc() : memref<8xf64>
      func.call @product(%p) : (memref<8xf64>) -> ()
      scf.yield %p : memref<8xf64>
    } else {
      scf.yield %y : memref<8xf64>
    }
    %v = memref.load %y[%c0] : memref<8xf64>
    %j = arith.addf %i, %v : f64
    scf.yield %next, %j : memref<8xf64>, f64
  }
  %s = memref.load %r#0[%c0] : memref<8xf64>
  return %s : f64
}

// -----

// The after region writes its argument in place: it must be a copy.
// CHECK-LABEL: func @written_in_body
// CHECK: scf.while
// CHECK: memref.copy
// CHECK: scf.condition
func.func @written_in_body(%n: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %init = memref.alloc() : memref<8xf64>
  linalg.fill ins(%zero : f64) outs(%init : memref<8xf64>)
  %r:2 = scf.while (%y = %init, %i = %zero) : (memref<8xf64>, f64) -> (memref<8xf64>, f64) {
    %go = arith.cmpf olt, %i, %n : f64
    %copy = memref.alloc() : memref<8xf64>
    memref.copy %y, %copy : memref<8xf64> to memref<8xf64>
    scf.condition(%go) %copy, %i : memref<8xf64>, f64
  } do {
  ^bb0(%y: memref<8xf64>, %i: f64):
    memref.store %i, %y[%c0] : memref<8xf64>
    %p = memref.alloc() : memref<8xf64>
    memref.copy %y, %p : memref<8xf64> to memref<8xf64>
    %j = arith.addf %i, %one : f64
    scf.yield %p, %j : memref<8xf64>, f64
  }
  %s = memref.load %init[%c0] : memref<8xf64>
  %t = memref.load %r#0[%c0] : memref<8xf64>
  %u = arith.addf %s, %t : f64
  return %u : f64
}

// -----

// The initial buffer is written after the loop, whose result may be that
// buffer (no iteration): the copy stays.
// CHECK-LABEL: func @init_written_after
// CHECK: scf.while
// CHECK: memref.copy
// CHECK: scf.condition
func.func private @product(memref<8xf64>)
func.func @init_written_after(%n: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %init = memref.alloc() : memref<8xf64>
  linalg.fill ins(%zero : f64) outs(%init : memref<8xf64>)
  %r:2 = scf.while (%y = %init, %i = %zero) : (memref<8xf64>, f64) -> (memref<8xf64>, f64) {
    %go = arith.cmpf olt, %i, %n : f64
    %copy = memref.alloc() : memref<8xf64>
    memref.copy %y, %copy : memref<8xf64> to memref<8xf64>
    scf.condition(%go) %copy, %i : memref<8xf64>, f64
  } do {
  ^bb0(%y: memref<8xf64>, %i: f64):
    %p = memref.alloc() : memref<8xf64>
    func.call @product(%p) : (memref<8xf64>) -> ()
    %j = arith.addf %i, %one : f64
    scf.yield %p, %j : memref<8xf64>, f64
  }
  linalg.fill ins(%one : f64) outs(%init : memref<8xf64>)
  %s = memref.load %init[%c0] : memref<8xf64>
  %t = memref.load %r#0[%c0] : memref<8xf64>
  %u = arith.addf %s, %t : f64
  return %u : f64
}

// -----

// The update is a buffer allocated before the loop and written in every
// iteration: the after region's argument would be that buffer while it is
// written. The copy stays.
// CHECK-LABEL: func @hoisted_update
// CHECK: scf.while
// CHECK: memref.copy
// CHECK: scf.condition
func.func private @product(memref<8xf64>)
func.func @hoisted_update(%n: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %init = memref.alloc() : memref<8xf64>
  %buffer = memref.alloc() : memref<8xf64>
  linalg.fill ins(%zero : f64) outs(%init : memref<8xf64>)
  %r:2 = scf.while (%y = %init, %i = %zero) : (memref<8xf64>, f64) -> (memref<8xf64>, f64) {
    %go = arith.cmpf olt, %i, %n : f64
    %copy = memref.alloc() : memref<8xf64>
    memref.copy %y, %copy : memref<8xf64> to memref<8xf64>
    scf.condition(%go) %copy, %i : memref<8xf64>, f64
  } do {
  ^bb0(%y: memref<8xf64>, %i: f64):
    %v = memref.load %y[%c0] : memref<8xf64>
    func.call @product(%buffer) : (memref<8xf64>) -> ()
    %j = arith.addf %i, %v : f64
    scf.yield %buffer, %j : memref<8xf64>, f64
  }
  %t = memref.load %r#0[%c0] : memref<8xf64>
  return %t : f64
}

// -----

// The result is returned: the caller may write it, and it may be the
// initial buffer. The copy stays.
// CHECK-LABEL: func @returned
// CHECK: scf.while
// CHECK: memref.copy
// CHECK: scf.condition
func.func private @product(memref<8xf64>)
func.func @returned(%init: memref<8xf64>, %n: f64) -> memref<8xf64> {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r:2 = scf.while (%y = %init, %i = %zero) : (memref<8xf64>, f64) -> (memref<8xf64>, f64) {
    %go = arith.cmpf olt, %i, %n : f64
    %copy = memref.alloc() : memref<8xf64>
    memref.copy %y, %copy : memref<8xf64> to memref<8xf64>
    scf.condition(%go) %copy, %i : memref<8xf64>, f64
  } do {
  ^bb0(%y: memref<8xf64>, %i: f64):
    %p = memref.alloc() : memref<8xf64>
    func.call @product(%p) : (memref<8xf64>) -> ()
    %j = arith.addf %i, %one : f64
    scf.yield %p, %j : memref<8xf64>, f64
  }
  return %r#0 : memref<8xf64>
}
