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

// -----

// `C = A * r` under a guard in a loop, A read from a file: the column
// indices are the file's (a buffer the runtime handed over), carried
// through an arith.select (the canonicalized scf.if) and read by a runtime
// kernel, which only reads a CSR argument's arrays. Forwarded uncopied.
// CHECK-LABEL: func @csr_pattern_through_select
// CHECK: scf.while (%[[C:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK-NOT: memref.copy
// CHECK: scf.condition(%{{.*}}) %[[C]], %{{.*}} : memref<?xi32>, f64
// CHECK: } do {
func.func private @amls_rt_csr_take_colidx(!llvm.ptr, !llvm.ptr) -> memref<?xi32>
func.func private @amls_rt_csr_trace(memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64) -> f64
func.func @csr_pattern_through_select(%h: !llvm.ptr, %rowptr: memref<?xi64, strided<[?], offset: ?>>, %values: memref<?xf64, strided<[?], offset: ?>>, %n: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %cols = arith.constant 8 : i64
  %file = func.call @amls_rt_csr_take_colidx(%h, %h) : (!llvm.ptr, !llvm.ptr) -> memref<?xi32>
  %d = memref.dim %file, %c0 : memref<?xi32>
  %init = memref.alloc(%d) : memref<?xi32>
  memref.copy %file, %init : memref<?xi32> to memref<?xi32>
  %r:2 = scf.while (%c = %init, %i = %zero) : (memref<?xi32>, f64) -> (memref<?xi32>, f64) {
    %go = arith.cmpf olt, %i, %n : f64
    %dc = memref.dim %c, %c0 : memref<?xi32>
    %copy = memref.alloc(%dc) : memref<?xi32>
    memref.copy %c, %copy : memref<?xi32> to memref<?xi32>
    scf.condition(%go) %copy, %i : memref<?xi32>, f64
  } do {
  ^bb0(%c: memref<?xi32>, %i: f64):
    %guard = arith.cmpf oge, %i, %zero : f64
    %next = arith.select %guard, %file, %c : memref<?xi32>
    %view = memref.cast %file : memref<?xi32> to memref<?xi32, strided<[?], offset: ?>>
    %t = func.call @amls_rt_csr_trace(%rowptr, %view, %values, %cols) : (memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64) -> f64
    %j = arith.addf %i, %t : f64
    scf.yield %next, %j : memref<?xi32>, f64
  }
  %rv = memref.cast %r#0 : memref<?xi32> to memref<?xi32, strided<[?], offset: ?>>
  %s = func.call @amls_rt_csr_trace(%rowptr, %rv, %values, %cols) : (memref<?xi64, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xf64, strided<[?], offset: ?>>, i64) -> f64
  return %s : f64
}

// -----

// The buffer carried through the select is the output of a runtime kernel
// in the loop (a CSR array it fills, not a CSR argument): the copy stays.
// CHECK-LABEL: func @written_by_runtime_kernel
// CHECK: scf.while
// CHECK: memref.copy
// CHECK: scf.condition
func.func private @amls_rt_csr_take_rowptr(!llvm.ptr, !llvm.ptr) -> memref<?xi64>
func.func private @amls_rt_csr_count_dense(memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xi64, strided<[?], offset: ?>>) -> i64
func.func @written_by_runtime_kernel(%h: !llvm.ptr, %m: memref<?x?xf64, strided<[?, ?], offset: ?>>, %n: f64) -> i64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %file = func.call @amls_rt_csr_take_rowptr(%h, %h) : (!llvm.ptr, !llvm.ptr) -> memref<?xi64>
  %d = memref.dim %file, %c0 : memref<?xi64>
  %init = memref.alloc(%d) : memref<?xi64>
  memref.copy %file, %init : memref<?xi64> to memref<?xi64>
  %r:2 = scf.while (%c = %init, %i = %zero) : (memref<?xi64>, f64) -> (memref<?xi64>, f64) {
    %go = arith.cmpf olt, %i, %n : f64
    %dc = memref.dim %c, %c0 : memref<?xi64>
    %copy = memref.alloc(%dc) : memref<?xi64>
    memref.copy %c, %copy : memref<?xi64> to memref<?xi64>
    scf.condition(%go) %copy, %i : memref<?xi64>, f64
  } do {
  ^bb0(%c: memref<?xi64>, %i: f64):
    %guard = arith.cmpf oge, %i, %zero : f64
    %next = arith.select %guard, %file, %c : memref<?xi64>
    %view = memref.cast %file : memref<?xi64> to memref<?xi64, strided<[?], offset: ?>>
    %k = func.call @amls_rt_csr_count_dense(%m, %view) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?xi64, strided<[?], offset: ?>>) -> i64
    %j = arith.addf %i, %one : f64
    scf.yield %next, %j : memref<?xi64>, f64
  }
  %s = memref.load %r#0[%c0] : memref<?xi64>
  return %s : i64
}

// -----

// A view of the initial buffer made before the loop and written inside it:
// the buffer may change under the forwarded name, so the copy stays.
// CHECK-LABEL: func @view_before_loop_written_inside
// CHECK: scf.while
// CHECK: memref.copy
// CHECK: scf.condition
func.func @view_before_loop_written_inside(%n: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %c0 = arith.constant 0 : index
  %outer = memref.alloc() : memref<8xf64>
  linalg.fill ins(%zero : f64) outs(%outer : memref<8xf64>)
  %alias = memref.cast %outer : memref<8xf64> to memref<?xf64>
  %init = memref.alloc() : memref<8xf64>
  memref.copy %outer, %init : memref<8xf64> to memref<8xf64>
  %r:2 = scf.while (%y = %init, %i = %zero) : (memref<8xf64>, f64) -> (memref<8xf64>, f64) {
    %go = arith.cmpf olt, %i, %n : f64
    %copy = memref.alloc() : memref<8xf64>
    memref.copy %y, %copy : memref<8xf64> to memref<8xf64>
    scf.condition(%go) %copy, %i : memref<8xf64>, f64
  } do {
  ^bb0(%y: memref<8xf64>, %i: f64):
    %guard = arith.cmpf ogt, %i, %one : f64
    %next = arith.select %guard, %outer, %y : memref<8xf64>
    memref.store %i, %alias[%c0] : memref<?xf64>
    %v = memref.load %y[%c0] : memref<8xf64>
    %j = arith.addf %i, %v : f64
    scf.yield %next, %j : memref<8xf64>, f64
  }
  %s = memref.load %r#0[%c0] : memref<8xf64>
  return %s : f64
}
