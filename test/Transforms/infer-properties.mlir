// RUN: amls-opt %s -split-input-file -amls-infer-properties -verify-diagnostics | FileCheck %s
// RUN: amls-opt %s -split-input-file -amls-infer-properties=estimator=worst -verify-diagnostics | FileCheck %s --check-prefix=WORST
// The output must not depend on where values happen to be allocated (the
// order of pointer-keyed containers): runs of the same input give the same
// output, casts included (see @cast_order below).
// RUN: amls-opt %s -split-input-file -amls-infer-properties -verify-diagnostics > %t.1
// RUN: amls-opt %s -split-input-file -amls-infer-properties -verify-diagnostics > %t.2
// RUN: amls-opt %s -split-input-file -amls-infer-properties -verify-diagnostics > %t.3
// RUN: diff %t.1 %t.2
// RUN: diff %t.1 %t.3

// Sizes from constant operands, also those computed by arith ops, and
// average-case sparsity: 1 - (1 - 0.01 * 1.0)^100 for the product.
// CHECK-LABEL: func @constants
// CHECK: amls.rand {{.*}} : f64 -> !amls.matrix<1000x100xf64, sparsity = 0.01>
// CHECK: amls.fill {{.*}} : f64 -> !amls.matrix<100x1xf64, sparsity = 1.0>
// CHECK: amls.matmul {{.*}} -> !amls.matrix<1000x1xf64, sparsity = 0.6339676587267705>
// CHECK: amls.slice {{.*}} -> !amls.matrix<5x1xf64, sparsity = 0.6339676587267705>
// One given size determines the other: 100000 cells / 10 rows.
// CHECK: amls.reshape {{.*}} -> !amls.matrix<10x10000xf64, sparsity = 0.01>
// CHECK: amls.agg sum all %{{.*}} : !amls.matrix<5x1xf64, sparsity = 0.6339676587267705> -> f64
// The function result keeps its declared type.
// CHECK: %[[R:.*]] = amls.cast %{{.*}} : !amls.matrix<10x10000xf64, sparsity = 0.01> -> !amls.matrix<?x?xf64>
// CHECK: return %{{.*}}, %[[R]]
// Worst case: min(1, 0.01 * 100) * min(1, 1.0 * 100).
// WORST-LABEL: func @constants
// WORST: amls.matmul {{.*}} -> !amls.matrix<1000x1xf64, sparsity = 1.0>
// WORST: amls.slice {{.*}} -> !amls.matrix<5x1xf64, sparsity = 1.0>
func.func @constants(%seed: i64, %n: index) -> (f64, !amls.matrix<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c10 = arith.constant 10 : index
  %c100 = arith.constant 100 : index
  %c1000 = arith.muli %c10, %c100 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %sp = arith.constant 0.01 : f64
  %X = amls.rand %c1000, %c100, %zero, %one, %sp seed %seed uniform : f64 -> !amls.matrix<?x?xf64>
  %v = amls.fill %one, %c100, %c1 : f64 -> !amls.matrix<?x?xf64>
  %y = amls.matmul %X, %v : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %s = amls.slice %y[%c5 : %c10, %c0 : %c1] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %r = amls.reshape %X, %c10, %n : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %t = amls.agg sum all %s : !amls.matrix<?x?xf64> -> f64
  return %t, %r : f64, !amls.matrix<?x?xf64>
}

// -----

// Declared sizes are kept and combined with inferred ones.
// CHECK-LABEL: func @declared_and_inferred
// CHECK: amls.cbind {{.*}} -> !amls.matrix<4x7xf64, sparsity = 0.5>
// CHECK: amls.tsmm left {{.*}} -> !amls.matrix<7x7xf64, sparsity = 0.68359375>
func.func @declared_and_inferred(%A: !amls.matrix<4x3xf64, sparsity = 0.5>, %B: !amls.matrix<?x4xf64, sparsity = 0.5>) {
  %C = amls.cbind %A, %B : !amls.matrix<4x3xf64, sparsity = 0.5>, !amls.matrix<?x4xf64, sparsity = 0.5> -> !amls.matrix<?x?xf64>
  // 1 - (1 - 0.5 * 0.5)^4 = 1 - 0.75^4 over the 4 rows.
  %G = amls.tsmm left %C : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  amls.print %G : !amls.matrix<?x?xf64>
  return
}

// -----

// scf.if joins its branches: equal sizes stay, different ones widen, and a
// different sparsity becomes unknown. Yields get casts to the joined type.
// CHECK-LABEL: func @if_join
// CHECK-SAME: %[[A:[^:]*]]: !amls.matrix<4x3xf64, sparsity = 0.5>, %[[B:[^:]*]]: !amls.matrix<4x5xf64>
// CHECK: %[[R:.*]]:2 = scf.if %{{.*}} -> (!amls.matrix<4x3xf64>, !amls.matrix<4x?xf64>)
// CHECK: %[[T:.*]] = amls.cast %[[A]] : !amls.matrix<4x3xf64, sparsity = 0.5> -> !amls.matrix<4x3xf64>
// CHECK: %[[U:.*]] = amls.cast %[[A]] : !amls.matrix<4x3xf64, sparsity = 0.5> -> !amls.matrix<4x?xf64>
// CHECK: scf.yield %[[T]], %[[U]] : !amls.matrix<4x3xf64>, !amls.matrix<4x?xf64>
// CHECK: } else {
// CHECK: %[[E:.*]] = amls.exp %[[A]] : !amls.matrix<4x3xf64, sparsity = 0.5> -> !amls.matrix<4x3xf64, sparsity = 1.0>
// CHECK: %[[V:.*]] = amls.cast %[[E]] : !amls.matrix<4x3xf64, sparsity = 1.0> -> !amls.matrix<4x3xf64>
// CHECK: %[[W:.*]] = amls.cast %[[B]] : !amls.matrix<4x5xf64> -> !amls.matrix<4x?xf64>
// CHECK: scf.yield %[[V]], %[[W]] : !amls.matrix<4x3xf64>, !amls.matrix<4x?xf64>
// CHECK: amls.agg sum row %[[R]]#1 : !amls.matrix<4x?xf64> -> !amls.matrix<4x1xf64>
func.func @if_join(%cond: i1, %A: !amls.matrix<4x3xf64, sparsity = 0.5>, %B: !amls.matrix<4x5xf64>) -> !amls.matrix<?x?xf64> {
  %r:2 = scf.if %cond -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
    %a = amls.cast %A : !amls.matrix<4x3xf64, sparsity = 0.5> -> !amls.matrix<?x?xf64>
    scf.yield %a, %a : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  } else {
    %e = amls.exp %A : !amls.matrix<4x3xf64, sparsity = 0.5> -> !amls.matrix<?x?xf64>
    %b = amls.cast %B : !amls.matrix<4x5xf64> -> !amls.matrix<?x?xf64>
    scf.yield %e, %b : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  }
  %s = amls.agg sum row %r#1 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %s : !amls.matrix<?x?xf64>
}

// -----

// A constant condition makes the other branch dead: the branch taken
// replaces the scf.if.
// CHECK-LABEL: func @if_constant_condition
// CHECK-SAME: (%[[A:.*]]: !amls.matrix<4x3xf64, sparsity = 0.5>,
// CHECK-NOT: scf.if
// CHECK: %[[C:.*]] = amls.cast %[[A]] : !amls.matrix<4x3xf64, sparsity = 0.5> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: return %[[C]]
func.func @if_constant_condition(%A: !amls.matrix<4x3xf64, sparsity = 0.5>, %B: !amls.matrix<7x7xf64>) -> !amls.matrix<?x?xf64> {
  %true = arith.constant true
  %r = scf.if %true -> (!amls.matrix<?x?xf64>) {
    %a = amls.cast %A : !amls.matrix<4x3xf64, sparsity = 0.5> -> !amls.matrix<?x?xf64>
    scf.yield %a : !amls.matrix<?x?xf64>
  } else {
    %b = amls.cast %B : !amls.matrix<7x7xf64> -> !amls.matrix<?x?xf64>
    scf.yield %b : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}

// -----

// A loop that keeps the size of its carried matrix keeps it known; the
// sparsity changes every iteration and widens to unknown.
// CHECK-LABEL: func @for_keeps_size
// CHECK: %[[INIT:.*]] = amls.cast %{{.*}} : !amls.matrix<10x10xf64, sparsity = 0.1> -> !amls.matrix<10x10xf64>
// CHECK: %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[W:.*]] = %[[INIT]]) -> (!amls.matrix<10x10xf64>)
// CHECK: amls.add %[[W]], %[[W]] : !amls.matrix<10x10xf64>, !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
// CHECK: scf.yield %{{.*}} : !amls.matrix<10x10xf64>
// CHECK: amls.agg sum all %[[R]] : !amls.matrix<10x10xf64> -> f64
func.func @for_keeps_size(%X: !amls.matrix<10x10xf64, sparsity = 0.1>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = amls.cast %X : !amls.matrix<10x10xf64, sparsity = 0.1> -> !amls.matrix<?x?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%W = %init) -> (!amls.matrix<?x?xf64>) {
    %next = amls.add %W, %W : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    scf.yield %next : !amls.matrix<?x?xf64>
  }
  %s = amls.agg sum all %r : !amls.matrix<?x?xf64> -> f64
  return %s : f64
}

// -----

// A loop that grows its carried matrix widens the growing size to '?'.
// CHECK-LABEL: func @for_grows
// CHECK: scf.for {{.*}} -> (!amls.matrix<10x?xf64>)
// CHECK: amls.cbind %{{.*}}, %{{.*}} : !amls.matrix<10x?xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<10x?xf64>
// The row count stays known and folds.
// CHECK: %[[TEN:.*]] = arith.constant 10 : index
// CHECK-NEXT: return %[[TEN]] : index
func.func @for_grows(%X: !amls.matrix<10x1xf64>, %n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = amls.cast %X : !amls.matrix<10x1xf64> -> !amls.matrix<?x?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%W = %init) -> (!amls.matrix<?x?xf64>) {
    %next = amls.cbind %W, %X : !amls.matrix<?x?xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<?x?xf64>
    scf.yield %next : !amls.matrix<?x?xf64>
  }
  %rows = amls.nrow %r : !amls.matrix<?x?xf64>
  return %rows : index
}

// -----

// scf.while: the before-region arguments join the init value and the values
// from the after region.
// CHECK-LABEL: func @while_loop
// CHECK-SAME: (%[[X:.*]]: !amls.matrix<5x5xf64>)
// CHECK: scf.while (%{{.*}} = %[[X]]) : (!amls.matrix<5x5xf64>) -> !amls.matrix<5x5xf64>
// CHECK: amls.agg sum all %{{.*}} : !amls.matrix<5x5xf64> -> f64
// CHECK: scf.condition(%{{.*}}) %{{.*}} : !amls.matrix<5x5xf64>
// CHECK: ^bb0(%{{.*}}: !amls.matrix<5x5xf64>):
// CHECK: amls.mul %{{.*}}, %{{.*}} : !amls.matrix<5x5xf64>, f64 -> !amls.matrix<5x5xf64>
func.func @while_loop(%X: !amls.matrix<5x5xf64>) -> f64 {
  %half = arith.constant 0.5 : f64
  %eps = arith.constant 1.0e-3 : f64
  %init = amls.cast %X : !amls.matrix<5x5xf64> -> !amls.matrix<?x?xf64>
  %r = scf.while (%W = %init) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
    %s = amls.agg sum all %W : !amls.matrix<?x?xf64> -> f64
    %go = arith.cmpf ogt, %s, %eps : f64
    scf.condition(%go) %W : !amls.matrix<?x?xf64>
  } do {
  ^bb0(%W: !amls.matrix<?x?xf64>):
    %next = amls.mul %W, %half : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
    scf.yield %next : !amls.matrix<?x?xf64>
  }
  %total = amls.agg sum all %r : !amls.matrix<?x?xf64> -> f64
  return %total : f64
}

// -----

// nrow/ncol of a loop-carried value are constants once its size is known:
// the row q[m, ] (columns 0 to ncol(q)) of linreg-cg.dml keeps the loop's
// 4x1 vectors 4x1 (a 1x? row made them 4x?, and hid the mmchain).
// CHECK-LABEL: func @while_size_query
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (!amls.matrix<4x1xf64>) -> !amls.matrix<4x1xf64>
// CHECK: amls.slice {{.*}} -> !amls.matrix<1x1xf64>
// CHECK: amls.matmul {{.*}} -> !amls.matrix<4x1xf64>
func.func @while_size_query(%X: !amls.matrix<4x1xf64>, %s: !amls.matrix<4x1xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %eps = arith.constant 1.0e-3 : f64
  %init = amls.cast %X : !amls.matrix<4x1xf64> -> !amls.matrix<?x?xf64>
  %r = scf.while (%q = %init) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
    %t = amls.agg sum all %q : !amls.matrix<?x?xf64> -> f64
    %go = arith.cmpf ogt, %t, %eps : f64
    scf.condition(%go) %q : !amls.matrix<?x?xf64>
  } do {
  ^bb0(%q: !amls.matrix<?x?xf64>):
    %n = amls.ncol %q : !amls.matrix<?x?xf64>
    %row = amls.slice %q[%c3 : %c4, %c0 : %n] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %next = amls.matmul %s, %row : !amls.matrix<4x1xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    scf.yield %next : !amls.matrix<?x?xf64>
  }
  %total = amls.agg sum all %r : !amls.matrix<?x?xf64> -> f64
  return %total : f64
}

// -----

// A size that changes from one iteration to the next is no constant: the
// loop's matrix gains a column per iteration, and ncol stays unknown.
// CHECK-LABEL: func @while_growing_size_query
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (!amls.matrix<4x?xf64>) -> !amls.matrix<4x?xf64>
// CHECK: amls.slice {{.*}} -> !amls.matrix<1x?xf64>
func.func @while_growing_size_query(%X: !amls.matrix<4x1xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %eps = arith.constant 1.0e-3 : f64
  %init = amls.cast %X : !amls.matrix<4x1xf64> -> !amls.matrix<?x?xf64>
  %r = scf.while (%q = %init) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
    %t = amls.agg sum all %q : !amls.matrix<?x?xf64> -> f64
    %go = arith.cmpf ogt, %t, %eps : f64
    scf.condition(%go) %q : !amls.matrix<?x?xf64>
  } do {
  ^bb0(%q: !amls.matrix<?x?xf64>):
    %n = amls.ncol %q : !amls.matrix<?x?xf64>
    %row = amls.slice %q[%c3 : %c4, %c0 : %n] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %t = amls.agg sum all %row : !amls.matrix<?x?xf64> -> f64
    %next = amls.cbind %q, %X : !amls.matrix<?x?xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<?x?xf64>
    scf.yield %next : !amls.matrix<?x?xf64>
  }
  %total = amls.agg sum all %r : !amls.matrix<?x?xf64> -> f64
  return %total : f64
}

// -----

// Calls see the declared parameter types; the callee is analysed with its
// own declared argument types.
// CHECK-LABEL: func.func private @callee
// CHECK: amls.transpose %{{.*}} : !amls.matrix<?x3xf64> -> !amls.matrix<3x?xf64>
// CHECK-LABEL: func @caller
// CHECK: %[[E:.*]] = amls.exp %{{.*}} : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64, sparsity = 1.0>
// CHECK: %[[C:.*]] = amls.cast %[[E]] : !amls.matrix<4x3xf64, sparsity = 1.0> -> !amls.matrix<?x3xf64>
// CHECK: call @callee(%[[C]])
func.func private @callee(%A: !amls.matrix<?x3xf64>) -> !amls.matrix<?x?xf64> {
  %t = amls.transpose %A : !amls.matrix<?x3xf64> -> !amls.matrix<?x?xf64>
  return %t : !amls.matrix<?x?xf64>
}
func.func @caller(%A: !amls.matrix<4x3xf64>) -> !amls.matrix<?x?xf64> {
  %e = amls.exp %A : !amls.matrix<4x3xf64> -> !amls.matrix<?x3xf64>
  %r = func.call @callee(%e) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x?xf64>
  return %r : !amls.matrix<?x?xf64>
}

// -----

// parfor's shared matrices flow like loop-carried values.
// CHECK-LABEL: func @parfor
// CHECK: amls.parfor {{.*}} shared(%{{.*}} : !amls.matrix<100x1xf64>) {
// CHECK: ^bb0(%{{.*}}: index, %{{.*}}: !amls.matrix<100x1xf64>):
// CHECK: amls.insert_slice {{.*}} : !amls.matrix<1x1xf64, sparsity = 1.0> into !amls.matrix<100x1xf64> -> !amls.matrix<100x1xf64>
// CHECK: } -> !amls.matrix<100x1xf64>
func.func @parfor(%n: index) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f64
  %two = arith.constant 2.0 : f64
  %init = amls.fill %zero, %c100, %c1 : f64 -> !amls.matrix<?x?xf64>
  %r = amls.parfor %c0 to %n step %c1 shared(%init : !amls.matrix<?x?xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<?x?xf64>):
    %i1 = arith.addi %i, %c1 : index
    %cell = amls.as_matrix %two : f64 -> !amls.matrix<?x?xf64>
    %next = amls.insert_slice %cell into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<?x?xf64> into !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    amls.yield %next : !amls.matrix<?x?xf64>
  } -> !amls.matrix<?x?xf64>
  return %r : !amls.matrix<?x?xf64>
}

// -----

// Refined types expose a mismatch the declared ones hid.
func.func @mismatch_found(%v: f64) -> !amls.matrix<?x?xf64> {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %A = amls.fill %v, %c3, %c4 : f64 -> !amls.matrix<?x?xf64>
  %B = amls.fill %v, %c3, %c4 : f64 -> !amls.matrix<?x?xf64>
  // expected-error @+1 {{'amls.matmul' op inner dimensions differ: 3x4 %*% 3x4}}
  %C = amls.matmul %A, %B : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %C : !amls.matrix<?x?xf64>
}

// -----

// nrow/ncol of refined types become constants, which refine further ops.
// CHECK-LABEL: func @size_queries
// CHECK-NOT: amls.ncol
// CHECK: amls.fill %{{.*}} : f64 -> !amls.matrix<3x7xf64>
// CHECK: %[[C7:.*]] = arith.constant 7 : index
// CHECK-NEXT: amls.fill %{{.*}}, %[[C7]], %{{.*}} : f64 -> !amls.matrix<7x1xf64, sparsity = 0.0>
// CHECK: amls.matmul {{.*}} -> !amls.matrix<3x1xf64, sparsity = 0.0>
func.func @size_queries(%v: f64) -> !amls.matrix<?x?xf64> {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %zero = arith.constant 0.0 : f64
  %X = amls.fill %v, %c3, %c7 : f64 -> !amls.matrix<?x?xf64>
  %n = amls.ncol %X : !amls.matrix<?x?xf64>
  %w = amls.fill %zero, %n, %c1 : f64 -> !amls.matrix<?x?xf64>
  %y = amls.matmul %X, %w : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %y : !amls.matrix<?x?xf64>
}

// -----

// The first visit of the loop body sees B as 1x1, which does not fit the
// product; the fixpoint (B is 1x1 or 5x5: ?x?) does. No error.
// CHECK-LABEL: func @intermediate_state
// CHECK: scf.for {{.*}} -> (!amls.matrix<?x?xf64, sparsity = 0.0>)
// CHECK: amls.matmul %{{.*}}, %{{.*}} : !amls.matrix<?x?xf64, sparsity = 0.0>, !amls.matrix<5x1xf64> -> !amls.matrix<?x1xf64, sparsity = 0.0>
func.func @intermediate_state(%n: index, %v: !amls.matrix<5x1xf64>) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %z = arith.constant 0.0 : f64
  %B0 = amls.fill %z, %c1, %c1 : f64 -> !amls.matrix<?x?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%B = %B0) -> (!amls.matrix<?x?xf64>) {
    %p = arith.cmpi ugt, %i, %c0 : index
    scf.if %p {
      %y = amls.matmul %B, %v : !amls.matrix<?x?xf64>, !amls.matrix<5x1xf64> -> !amls.matrix<?x?xf64>
      amls.print %y : !amls.matrix<?x?xf64>
    }
    %B1 = amls.fill %z, %c5, %c5 : f64 -> !amls.matrix<?x?xf64>
    scf.yield %B1 : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}

// -----

// The after region is dead: its argument still gets the type of the
// results that the same condition operand feeds.
// CHECK-LABEL: func @dead_after_region
// CHECK: scf.while (%{{.*}} = %{{.*}}) : (!amls.matrix<10x1xf64, sparsity = 0.0>) -> !amls.matrix<?x?xf64>
// CHECK: %[[C:.*]] = amls.cast %{{.*}} : !amls.matrix<10x1xf64, sparsity = 0.0> -> !amls.matrix<?x?xf64>
// CHECK: scf.condition(%{{.*}}) %[[C]] : !amls.matrix<?x?xf64>
// CHECK: ^bb0(%{{.*}}: !amls.matrix<?x?xf64>):
func.func @dead_after_region() -> !amls.matrix<?x?xf64> {
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %z = arith.constant 0.0 : f64
  %f = arith.constant false
  %R0 = amls.fill %z, %c10, %c1 : f64 -> !amls.matrix<?x?xf64>
  %r = scf.while (%A = %R0) : (!amls.matrix<?x?xf64>) -> (!amls.matrix<?x?xf64>) {
    scf.condition(%f) %A : !amls.matrix<?x?xf64>
  } do {
  ^bb0(%B: !amls.matrix<?x?xf64>):
    %C = amls.rbind %B, %B : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    scf.yield %C : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}

// -----

// A declared type the program contradicts is reported by the pass.
func.func @declared_conflict(%v: f64) -> !amls.matrix<4x4xf64> {
  %c5 = arith.constant 5 : index
  %A = amls.fill %v, %c5, %c5 : f64 -> !amls.matrix<?x?xf64>
  // expected-error @+1 {{'amls.cast' op result #0 is declared '!amls.matrix<4x4xf64>' but the program implies '!amls.matrix<5x5xf64>'}}
  %B = amls.cast %A : !amls.matrix<?x?xf64> -> !amls.matrix<4x4xf64>
  return %B : !amls.matrix<4x4xf64>
}

// -----

// Slices whose bounds are i and i + c (or j - c and j) have extent c even
// where i is unknown: the rows of a loop over X[i, ].
// CHECK-LABEL: func @slice_extent_from_bounds
// CHECK: amls.slice %arg0[%arg1 : %{{.*}}, %c0 : %c3] : !amls.matrix<10x3xf64> -> !amls.matrix<1x3xf64>
// CHECK: amls.slice %arg0[%{{.*}} : %arg1, %c0 : %c3] : !amls.matrix<10x3xf64> -> !amls.matrix<2x3xf64>
// CHECK: amls.slice %arg0[%arg1 : %arg2, %c0 : %c3] : !amls.matrix<10x3xf64> -> !amls.matrix<?x3xf64>
func.func @slice_extent_from_bounds(%X: !amls.matrix<10x3xf64>, %i: index, %j: index) -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %next = arith.addi %c1, %i : index
  %prev = arith.subi %i, %c2 : index
  %0 = amls.slice %X[%i : %next, %c0 : %c3] : !amls.matrix<10x3xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.slice %X[%prev : %i, %c0 : %c3] : !amls.matrix<10x3xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.slice %X[%i : %j, %c0 : %c3] : !amls.matrix<10x3xf64> -> !amls.matrix<?x?xf64>
  return %0, %1, %2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

// A branch on a constant is dead to the analysis, though the value it
// forwards (refined to 4x2) differs from the live branch's 4x3: the live
// branch replaces the scf.if, its value cast to the declared result type.
// CHECK-LABEL: func @dead_branch_forwards_another_size
// CHECK: %[[X:.*]] = amls.fill {{.*}} -> !amls.matrix<4x2xf64
// CHECK-NOT: scf.if
// CHECK: %[[W:.*]] = amls.cbind %[[X]], %{{.*}} -> !amls.matrix<4x3xf64>
// CHECK: %[[R:.*]] = amls.cast %[[W]] : !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
// CHECK: return %[[R]]
func.func @dead_branch_forwards_another_size(%c: !amls.matrix<4x1xf64>) -> !amls.matrix<?x?xf64> {
  %true = arith.constant true
  %zero = arith.constant 0.0 : f64
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %X = amls.fill %zero, %c4, %c2 : f64 -> !amls.matrix<?x?xf64>
  %r = scf.if %true -> (!amls.matrix<?x?xf64>) {
    %wide = amls.cbind %X, %c : !amls.matrix<?x?xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<?x?xf64>
    scf.yield %wide : !amls.matrix<?x?xf64>
  } else {
    scf.yield %X : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}

// -----

// Casts back to the declared types for consumers outside the dialect come
// in IR order: owner by owner, operand by operand. (They once followed the
// pointer order of a DenseMap and changed from run to run.)
// CHECK-LABEL: func @cast_order
// CHECK: %[[H:.*]] = amls.fill {{.*}} -> !amls.matrix<8x1xf64>
// CHECK: %[[S0:.*]] = amls.cast %[[C:.*]] : !amls.matrix<3x1xf64> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: %[[S1:.*]] = amls.cast %[[H]] : !amls.matrix<8x1xf64> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: call @sink(%[[S0]], %[[S1]])
// CHECK-NEXT: amls.cast %{{.*}} : !amls.matrix<5x1xf64> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: amls.cast %{{.*}} : !amls.matrix<2x1xf64> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: amls.cast %[[H]] : !amls.matrix<8x1xf64> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: amls.cast %{{.*}} : !amls.matrix<1x1xf64> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: amls.cast %{{.*}} : !amls.matrix<7x1xf64> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: amls.cast %[[C]] : !amls.matrix<3x1xf64> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: amls.cast %{{.*}} : !amls.matrix<6x1xf64> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: amls.cast %{{.*}} : !amls.matrix<4x1xf64> -> !amls.matrix<?x?xf64>
// CHECK-NEXT: return
func.func private @sink(!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>)
func.func @cast_order(%x: f64) -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %a = amls.fill %x, %c1, %c1 : f64 -> !amls.matrix<?x?xf64>
  %b = amls.fill %x, %c2, %c1 : f64 -> !amls.matrix<?x?xf64>
  %c = amls.fill %x, %c3, %c1 : f64 -> !amls.matrix<?x?xf64>
  %d = amls.fill %x, %c4, %c1 : f64 -> !amls.matrix<?x?xf64>
  %e = amls.fill %x, %c5, %c1 : f64 -> !amls.matrix<?x?xf64>
  %f = amls.fill %x, %c6, %c1 : f64 -> !amls.matrix<?x?xf64>
  %g = amls.fill %x, %c7, %c1 : f64 -> !amls.matrix<?x?xf64>
  %h = amls.fill %x, %c8, %c1 : f64 -> !amls.matrix<?x?xf64>
  call @sink(%c, %h) : (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) -> ()
  return %e, %b, %h, %a, %g, %c, %f, %d : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

// The branch not taken may hold ops whose refined operand sizes do not fit
// (`if (nrow(S) > 0) Y = Y / S` for a 0x0 S, as in SystemDS's scaleApply):
// they never run, are not checked, and go with the branch.
// CHECK-LABEL: func @untaken_branch_with_sizes_that_do_not_fit
// CHECK-NOT: amls.div
// CHECK-NOT: scf.if
// CHECK: return
func.func @untaken_branch_with_sizes_that_do_not_fit(%X: !amls.matrix<3x2xf64>) -> !amls.matrix<?x?xf64> {
  %zero = arith.constant 0.0 : f64
  %c0 = arith.constant 0 : index
  %S = amls.fill %zero, %c0, %c0 : f64 -> !amls.matrix<?x?xf64>
  %n = amls.nrow %S : !amls.matrix<?x?xf64>
  %some = arith.cmpi sgt, %n, %c0 : index
  %Xd = amls.cast %X : !amls.matrix<3x2xf64> -> !amls.matrix<?x?xf64>
  %r = scf.if %some -> (!amls.matrix<?x?xf64>) {
    %q = amls.div %Xd, %S : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    scf.yield %q : !amls.matrix<?x?xf64>
  } else {
    scf.yield %Xd : !amls.matrix<?x?xf64>
  }
  return %r : !amls.matrix<?x?xf64>
}

// -----

// A matrix assigned only inside a loop (DML's `muNext` in glm) enters the
// loop as ub.poison: no fact about it joins with the assignments, so the
// loop carries the assigned 5x1, and the poison takes that type without a
// cast (a cast's run-time size check would fail on it).
// CHECK-LABEL: func @poison_is_bottom
// CHECK: %[[P:.*]] = ub.poison : !amls.matrix<5x1xf64, sparsity = 1.0>
// CHECK-NOT: amls.cast
// CHECK: scf.while (%{{.*}} = %[[P]]{{.*}}) : (!amls.matrix<5x1xf64, sparsity = 1.0>, index)
// CHECK: return
func.func @poison_is_bottom(%x: !amls.matrix<5x1xf64>, %n: index) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = ub.poison : !amls.matrix<?x?xf64>
  %r:2 = scf.while (%m = %p, %i = %c0) : (!amls.matrix<?x?xf64>, index) -> (!amls.matrix<?x?xf64>, index) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %m, %i : !amls.matrix<?x?xf64>, index
  } do {
  ^bb0(%m: !amls.matrix<?x?xf64>, %i: index):
    %y = amls.exp %x : !amls.matrix<5x1xf64> -> !amls.matrix<5x1xf64>
    %yd = amls.cast %y : !amls.matrix<5x1xf64> -> !amls.matrix<?x?xf64>
    %next = arith.addi %i, %c1 : index
    scf.yield %yd, %next : !amls.matrix<?x?xf64>, index
  }
  return %r#0 : !amls.matrix<?x?xf64>
}
