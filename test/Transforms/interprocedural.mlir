// RUN: amls-opt %s --split-input-file --amls-ipa=inline-threshold=0 -verify-diagnostics | FileCheck %s
// RUN: amls-opt %s --split-input-file --amls-ipa -verify-diagnostics | FileCheck %s --check-prefix=INLINE
// RUN: amls-opt %s --split-input-file --amls-ipa=inline-threshold=1 -verify-diagnostics | FileCheck %s --check-prefix=THRESHOLD1
// RUN: amls-opt %s --split-input-file --amls-ipa="inline-threshold=0 max-iterations=1" -verify-diagnostics | FileCheck %s --check-prefix=ONEROUND

// Two call signatures: a private clone for each; the original, no longer
// called, is removed. The callers see the inferred result types; public
// functions keep theirs.
// CHECK-NOT: func.func private @gram(
// CHECK-LABEL: func.func private @gram_1(
// CHECK-SAME: %{{.*}}: !amls.matrix<3x7xf64>) -> !amls.matrix<7x7xf64>
// CHECK: amls.matmul {{.*}} -> !amls.matrix<7x7xf64>
// CHECK-LABEL: func.func private @gram_0(
// CHECK-SAME: %{{.*}}: !amls.matrix<20x4xf64>) -> !amls.matrix<4x4xf64>
// CHECK-LABEL: func.func @two_signatures(
// CHECK-SAME: %[[A:.*]]: !amls.matrix<20x4xf64>, %[[B:.*]]: !amls.matrix<3x7xf64>) -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>)
// CHECK: call @gram_0(%[[A]]) : (!amls.matrix<20x4xf64>) -> !amls.matrix<4x4xf64>
// CHECK: call @gram_1(%[[B]]) : (!amls.matrix<3x7xf64>) -> !amls.matrix<7x7xf64>

// Inlined (3 ops including the return): no function is left but the caller.
// INLINE-NOT: func.func private
// INLINE-LABEL: func.func @two_signatures(
// INLINE-NOT: call
// INLINE: amls.matmul {{.*}} -> !amls.matrix<4x4xf64>
// INLINE: amls.matmul {{.*}} -> !amls.matrix<7x7xf64>

// With a threshold of one operation, @gram (two) is not inlined.
// THRESHOLD1-LABEL: func.func @two_signatures(
// THRESHOLD1: call @gram_0
// THRESHOLD1: call @gram_1
func.func private @gram(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %g = amls.matmul %t, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %g : !amls.matrix<?x?xf64>
}
func.func @two_signatures(%A: !amls.matrix<20x4xf64>, %B: !amls.matrix<3x7xf64>)
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %a = amls.cast %A : !amls.matrix<20x4xf64> -> !amls.matrix<?x?xf64>
  %b = amls.cast %B : !amls.matrix<3x7xf64> -> !amls.matrix<?x?xf64>
  %0 = call @gram(%a) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  %1 = call @gram(%b) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  return %0, %1 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

// Constant scalar arguments become constants in the callee (the loop's
// trip count is known) and leave the signature; a constant scalar result
// becomes a constant at the call site. A function whose calls all share one
// signature keeps its name.
// CHECK-LABEL: func.func private @scale_loop(
// CHECK-SAME: %[[X:.*]]: !amls.matrix<20x4xf64>) -> (!amls.matrix<20x4xf64>, f64)
// CHECK-DAG: %[[N:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[S:.*]] = arith.constant 5.000000e-01 : f64
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]]
// CHECK: amls.mul %{{.*}}, %[[S]] : !amls.matrix<20x4xf64>, f64 -> !amls.matrix<20x4xf64>
// CHECK-LABEL: func.func @constants(
// CHECK: %[[K:.*]] = arith.constant 4.000000e+00 : f64
// CHECK: call @scale_loop(%{{.*}}) : (!amls.matrix<20x4xf64>) -> (!amls.matrix<20x4xf64>, f64)
// CHECK: arith.addf %[[K]]

// INLINE-LABEL: func.func @constants(
// INLINE-NOT: call
// INLINE: scf.for
func.func private @scale_loop(%X: !amls.matrix<?x?xf64>, %n: index, %s: f64) -> (!amls.matrix<?x?xf64>, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant 4.0 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %X) -> !amls.matrix<?x?xf64> {
    %m = amls.mul %acc, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
    scf.yield %m : !amls.matrix<?x?xf64>
  }
  return %r, %k : !amls.matrix<?x?xf64>, f64
}
func.func @constants(%A: !amls.matrix<20x4xf64>) -> (!amls.matrix<?x?xf64>, f64) {
  %c3 = arith.constant 3 : index
  %half = arith.constant 0.5 : f64
  %a = amls.cast %A : !amls.matrix<20x4xf64> -> !amls.matrix<?x?xf64>
  %0:2 = call @scale_loop(%a, %c3, %half) : (!amls.matrix<?x?xf64>, index, f64) -> (!amls.matrix<?x?xf64>, f64)
  %1 = arith.addf %0#1, %half : f64
  return %0#0, %1 : !amls.matrix<?x?xf64>, f64
}

// -----

// A constant result makes a later call's argument constant: the second
// round specializes the argument away; with one round it stays.
// CHECK-LABEL: func.func private @repeat(
// CHECK-SAME: %{{.*}}: !amls.matrix<2x3xf64>) -> !amls.matrix<2x3xf64>
// CHECK: arith.constant 3 : index
// CHECK-LABEL: func.func @constant_result(
// CHECK: call @repeat(%{{.*}}) : (!amls.matrix<2x3xf64>) -> !amls.matrix<2x3xf64>

// ONEROUND-LABEL: func.func private @repeat(
// ONEROUND-SAME: %{{.*}}: !amls.matrix<2x3xf64>, %{{.*}}: index) -> !amls.matrix<2x3xf64>
// ONEROUND-LABEL: func.func @constant_result(
// ONEROUND: %[[N:.*]] = arith.constant 3 : index
// ONEROUND: call @repeat(%{{.*}}, %[[N]]) : (!amls.matrix<2x3xf64>, index) -> !amls.matrix<2x3xf64>
func.func private @count() -> index {
  %c3 = arith.constant 3 : index
  return %c3 : index
}
func.func private @repeat(%X: !amls.matrix<?x?xf64>, %n: index) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %X) -> !amls.matrix<?x?xf64> {
    %e = amls.exp %acc : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    scf.yield %e : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}
func.func @constant_result(%A: !amls.matrix<2x3xf64>) -> !amls.matrix<?x?xf64> {
  %a = amls.cast %A : !amls.matrix<2x3xf64> -> !amls.matrix<?x?xf64>
  %n = call @count() : () -> index
  %0 = call @repeat(%a, %n) : (!amls.matrix<?x?xf64>, index) -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

// -----

// Nested calls are specialized transitively; inlining goes callees first.
// Functions no longer called are removed.
// CHECK-NOT: @unused
// CHECK-LABEL: func.func private @inner(
// CHECK-SAME: !amls.matrix<20x4xf64>) -> !amls.matrix<4x20xf64>
// CHECK-LABEL: func.func private @outer(
// CHECK-SAME: !amls.matrix<20x4xf64>) -> !amls.matrix<4x4xf64>
// CHECK: call @inner(%{{.*}}) : (!amls.matrix<20x4xf64>) -> !amls.matrix<4x20xf64>
// CHECK-LABEL: func.func @nested(
// CHECK: call @outer(%{{.*}}) : (!amls.matrix<20x4xf64>) -> !amls.matrix<4x4xf64>

// INLINE-NOT: func.func private
// INLINE-LABEL: func.func @nested(
// INLINE-NEXT: amls.transpose %{{.*}} : !amls.matrix<20x4xf64> -> !amls.matrix<4x20xf64>
// INLINE-NEXT: amls.matmul {{.*}} -> !amls.matrix<4x4xf64>

// THRESHOLD1-LABEL: func.func private @outer(
// THRESHOLD1-NOT: call
// THRESHOLD1: amls.transpose
// THRESHOLD1-LABEL: func.func @nested(
// THRESHOLD1: call @outer
func.func private @inner(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %t : !amls.matrix<?x?xf64>
}
func.func private @outer(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  %t = call @inner(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  %p = amls.matmul %t, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %p : !amls.matrix<?x?xf64>
}
func.func private @unused(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  return %X : !amls.matrix<?x?xf64>
}
func.func @nested(%A: !amls.matrix<20x4xf64>) -> !amls.matrix<?x?xf64> {
  %a = amls.cast %A : !amls.matrix<20x4xf64> -> !amls.matrix<?x?xf64>
  %0 = call @outer(%a) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

// -----

// A call in a loop converges like the loop: the carried matrix gains rows
// on every iteration, so the signature of the fixpoint keeps the columns.
// CHECK-LABEL: func.func private @grow(
// CHECK-SAME: !amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64>
// CHECK-NOT: func.func private
// CHECK-LABEL: func.func @in_loop(
// CHECK: scf.for {{.*}} -> (!amls.matrix<?x3xf64>)
// CHECK: func.call @grow(%{{.*}}) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64>
func.func private @grow(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  %r = amls.rbind %X, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %r : !amls.matrix<?x?xf64>
}
func.func @in_loop(%A: !amls.matrix<2x3xf64>, %n: index) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = amls.cast %A : !amls.matrix<2x3xf64> -> !amls.matrix<?x?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> !amls.matrix<?x?xf64> {
    %g = func.call @grow(%acc) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
    scf.yield %g : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}

// -----

// Left alone: recursion, a function whose symbol is used other than by a
// call, an external declaration.
// CHECK-LABEL: func.func private @recurse(
// CHECK-SAME: !amls.matrix<?x?xf64>, %{{.*}}: index) -> !amls.matrix<?x?xf64>
// CHECK-LABEL: func.func private @referenced(
// CHECK-SAME: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
// CHECK-LABEL: func.func private @external(!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
// CHECK-LABEL: func.func @left_alone(
// CHECK: call @recurse(%{{.*}}, %{{.*}}) : (!amls.matrix<?x?xf64>, index) -> !amls.matrix<?x?xf64>
// CHECK: call @referenced(%{{.*}}) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
// CHECK: call @external(%{{.*}}) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>

// INLINE-LABEL: func.func @left_alone(
// INLINE: call @recurse
// INLINE: call @referenced
// INLINE: call @external
func.func private @recurse(%X: !amls.matrix<?x?xf64>, %n: index) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %done -> !amls.matrix<?x?xf64> {
    scf.yield %X : !amls.matrix<?x?xf64>
  } else {
    %m = arith.subi %n, %c1 : index
    %d = amls.add %X, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %s = func.call @recurse(%d, %m) : (!amls.matrix<?x?xf64>, index) -> !amls.matrix<?x?xf64>
    scf.yield %s : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}
func.func private @referenced(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  return %X : !amls.matrix<?x?xf64>
}
func.func private @external(!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
func.func @left_alone(%A: !amls.matrix<2x3xf64>) -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>) {
  %c2 = arith.constant 2 : index
  %a = amls.cast %A : !amls.matrix<2x3xf64> -> !amls.matrix<?x?xf64>
  %0 = call @recurse(%a, %c2) : (!amls.matrix<?x?xf64>, index) -> !amls.matrix<?x?xf64>
  %1 = call @referenced(%a) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  %2 = call @external(%a) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  %f = func.constant @referenced : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  return %0, %1, %2, %f : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
}

// -----

// A public callee is cloned (privately); its own signature stays.
// CHECK-LABEL: func.func @api(
// CHECK-SAME: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
// CHECK-LABEL: func.func private @api_0(
// CHECK-SAME: !amls.matrix<2x3xf64>) -> !amls.matrix<2x3xf64, sparsity = 1.0>
// CHECK-LABEL: func.func @calls_api(
// CHECK: call @api_0
func.func @api(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  %e = amls.exp %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %e : !amls.matrix<?x?xf64>
}
func.func @calls_api(%A: !amls.matrix<2x3xf64>) -> !amls.matrix<?x?xf64> {
  %a = amls.cast %A : !amls.matrix<2x3xf64> -> !amls.matrix<?x?xf64>
  %0 = call @api(%a) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

// -----

// An inconsistency that only the arguments reveal is an error in the
// callee, with a note at the call.
func.func private @product(%X: !amls.matrix<?x?xf64>, %Y: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  // expected-error @+1 {{'amls.matmul' op inner dimensions differ: 2x3 %*% 2x3}}
  %p = amls.matmul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %p : !amls.matrix<?x?xf64>
}
func.func @mismatch(%A: !amls.matrix<2x3xf64>) -> !amls.matrix<?x?xf64> {
  %a = amls.cast %A : !amls.matrix<2x3xf64> -> !amls.matrix<?x?xf64>
  // expected-note @+1 {{in @product specialized to the arguments of this call}}
  %0 = call @product(%a, %a) : (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}
