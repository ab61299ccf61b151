// RUN: amls-opt %s -split-input-file -amls-parfor="threads=2 explain" -verify-diagnostics 2>/dev/null | FileCheck %s
// RUN: amls-opt %s -split-input-file -amls-parfor="threads=2 explain" -verify-diagnostics 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: amls-opt %s -split-input-file -amls-parfor="threads=2 memory-limit=1000000 explain" -verify-diagnostics 2>&1 >/dev/null | FileCheck %s --check-prefix=MEMORY

// The dependency analysis and plan of --amls-parfor (seed 001). A shared
// matrix is independent when every access of iteration i lies in a window
// of one stride along rows or columns; the explain lines give the
// dimension and stride and the plan (workers x inner threads, the
// partitioner and the tasks when the iteration count is known).

// R[i, ] = ...: rows by stride 1. 100 iterations of a 1x1000 row: worth
// two workers; factoring for k = 2: ceil(100/4) = 25 twice, then 13, 6,
// 3, 2, 1.
// EXPLAIN: amls-parfor: parfor at {{.*}}parfor.mlir:[[@LINE+13]]:8: R by rows (stride 1)
// EXPLAIN-NEXT: amls-parfor: plan: 2 workers x 1 inner thread, factoring, 100 iterations in 12 tasks (25, 25, 13, 13, 6, 6, 3, 3, 2, 2, 1, 1)
// With a budget of 1 MB, the body's 816,000 bytes (a 100x1000 result, two
// 1x1000 rows) fit once, not twice: one worker.
// MEMORY: amls-parfor: plan: 1 worker x 2 inner threads, factoring, 100 iterations in 7 tasks (50, 25, 13, 6, 3, 2, 1); 2 workers' matrices would exceed the memory budget
// CHECK-LABEL: func @rows
// CHECK: amls.parfor
// CHECK: {independent, inner_threads = 1 : i64, partitioner = 3 : i32, shared_names = ["R"], task_size = 1 : i64, workers = 2 : i64}
func.func @rows(%X: !amls.matrix<100x1000xf64>, %R: !amls.matrix<100x1000xf64>) -> !amls.matrix<100x1000xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %c1000 = arith.constant 1000 : index
  %0 = amls.parfor %c0 to %c100 step %c1 shared(%R : !amls.matrix<100x1000xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<100x1000xf64>):
    %i1 = arith.addi %i, %c1 : index
    %row = amls.slice %X[%i : %i1, %c0 : %c1000] : !amls.matrix<100x1000xf64> -> !amls.matrix<1x1000xf64>
    %e = amls.exp %row : !amls.matrix<1x1000xf64> -> !amls.matrix<1x1000xf64>
    %w = amls.insert_slice %e into %acc[%i : %i1, %c0 : %c1000] : !amls.matrix<1x1000xf64> into !amls.matrix<100x1000xf64> -> !amls.matrix<100x1000xf64>
    amls.yield %w : !amls.matrix<100x1000xf64>
  } {shared_names = ["R"]} -> !amls.matrix<100x1000xf64>
  return %0 : !amls.matrix<100x1000xf64>
}

// -----

// R[, i] (1-based DML: columns i-1 .. i, from a floating-point counter as
// the importer builds it) and a read of the same column: columns by stride
// 1. Only 8 iterations of 10 cells: too little work for threads.
// EXPLAIN: amls-parfor: parfor at {{.*}}: R by columns (stride 1)
// EXPLAIN-NEXT: amls-parfor: plan: 1 worker x 2 inner threads, factoring, 8 iterations in 4 tasks (4, 2, 1, 1); ~800 cell operations in all: too little for threads
// CHECK-LABEL: func @columns
func.func @columns(%R: !amls.matrix<10x8xf64>) -> !amls.matrix<10x8xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1.0 : f64
  %0 = amls.parfor %c0 to %c8 step %c1 shared(%R : !amls.matrix<10x8xf64>) {
  ^bb0(%k: index, %acc: !amls.matrix<10x8xf64>):
    %k64 = arith.index_cast %k : index to i64
    %kf = arith.sitofp %k64 : i64 to f64
    %if = arith.addf %kf, %one : f64
    %ii = arith.fptosi %if : f64 to i64
    %i = arith.index_cast %ii : i64 to index
    %im1 = arith.subi %i, %c1 : index
    %col = amls.slice %acc[%c0 : %c10, %im1 : %i] : !amls.matrix<10x8xf64> -> !amls.matrix<10x1xf64>
    %d = amls.add %col, %if : !amls.matrix<10x1xf64>, f64 -> !amls.matrix<10x1xf64>
    %w = amls.insert_slice %d into %acc[%c0 : %c10, %im1 : %i] : !amls.matrix<10x1xf64> into !amls.matrix<10x8xf64> -> !amls.matrix<10x8xf64>
    amls.yield %w : !amls.matrix<10x8xf64>
  } {shared_names = ["R"]} -> !amls.matrix<10x8xf64>
  return %0 : !amls.matrix<10x8xf64>
}

// -----

// R[i, j] in an inner loop over j: rows by stride 1 (the column varies
// inside the iteration). par=4 on 2 threads is capped.
// EXPLAIN: amls-parfor: parfor at {{.*}}: R by rows (stride 1)
// EXPLAIN-NEXT: amls-parfor: plan: 2 workers x 1 inner thread, naive, 500 iterations in 500 tasks (1, 1, {{.*}}, ...); par=4 capped at the 2 threads
// CHECK-LABEL: func @cells_in_inner_loop
func.func @cells_in_inner_loop(%R: !amls.matrix<500x500xf64>) -> !amls.matrix<500x500xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c500 = arith.constant 500 : index
  %v = arith.constant 2.0 : f64
  %0 = amls.parfor %c0 to %c500 step %c1 shared(%R : !amls.matrix<500x500xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<500x500xf64>):
    %i1 = arith.addi %i, %c1 : index
    %inner = scf.for %j = %c0 to %c500 step %c1 iter_args(%a = %acc) -> (!amls.matrix<500x500xf64>) {
      %j1 = arith.addi %j, %c1 : index
      %cell = amls.fill %v, %c1, %c1 : f64 -> !amls.matrix<1x1xf64>
      %w = amls.insert_slice %cell into %a[%i : %i1, %j : %j1] : !amls.matrix<1x1xf64> into !amls.matrix<500x500xf64> -> !amls.matrix<500x500xf64>
      scf.yield %w : !amls.matrix<500x500xf64>
    }
    amls.yield %inner : !amls.matrix<500x500xf64>
  } {shared_names = ["R"], workers = 4 : i64, partitioner = 0 : i32} -> !amls.matrix<500x500xf64>
  return %0 : !amls.matrix<500x500xf64>
}

// -----

// Blocks of B rows, B known at run time: rows [i*B, min((i+1)*B, N)).
// The window's width B equals the stride B.
// EXPLAIN: amls-parfor: parfor at {{.*}}: P by rows (a stride known at run time)
// EXPLAIN-NEXT: amls-parfor: plan: 2 workers x 1 inner thread, factoring, iterations known at run time
// CHECK-LABEL: func @row_blocks
func.func @row_blocks(%X: !amls.matrix<?x20xf64>, %P: !amls.matrix<?x20xf64>, %B: index, %blocks: index) -> !amls.matrix<?x20xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c20 = arith.constant 20 : index
  %n = amls.nrow %X : !amls.matrix<?x20xf64>
  %0 = amls.parfor %c0 to %blocks step %c1 shared(%P : !amls.matrix<?x20xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<?x20xf64>):
    %begin = arith.muli %i, %B : index
    %i1 = arith.addi %i, %c1 : index
    %next = arith.muli %i1, %B : index
    %end = arith.minsi %next, %n : index
    %Xb = amls.slice %X[%begin : %end, %c0 : %c20] : !amls.matrix<?x20xf64> -> !amls.matrix<?x20xf64>
    %s = amls.sigmoid %Xb : !amls.matrix<?x20xf64> -> !amls.matrix<?x20xf64>
    %w = amls.insert_slice %s into %acc[%begin : %end, %c0 : %c20] : !amls.matrix<?x20xf64> into !amls.matrix<?x20xf64> -> !amls.matrix<?x20xf64>
    amls.yield %w : !amls.matrix<?x20xf64>
  } {shared_names = ["P"]} -> !amls.matrix<?x20xf64>
  return %0 : !amls.matrix<?x20xf64>
}

// -----

// Cells 2i and 4i+1 have different strides, and no window holds both; a
// GCD test separates them: gcd(2, 4) = 2 does not divide 1. opt=NONE
// keeps the script's two workers for a small loop.
// EXPLAIN: amls-parfor: parfor at {{.*}}: R by rows (GCD test)
// EXPLAIN-NEXT: amls-parfor: plan: 2 workers x 1 inner thread, static, 10 iterations in 2 tasks (5, 5)
// CHECK-LABEL: func @gcd
func.func @gcd(%R: !amls.matrix<50x1xf64>) -> !amls.matrix<50x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %v = arith.constant 1.0 : f64
  %0 = amls.parfor %c0 to %c10 step %c1 shared(%R : !amls.matrix<50x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<50x1xf64>):
    %cell = amls.fill %v, %c1, %c1 : f64 -> !amls.matrix<1x1xf64>
    %a = arith.muli %i, %c2 : index
    %a1 = arith.addi %a, %c1 : index
    %w1 = amls.insert_slice %cell into %acc[%a : %a1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<50x1xf64> -> !amls.matrix<50x1xf64>
    %b = arith.muli %i, %c4 : index
    %b1 = arith.addi %b, %c1 : index
    %b2 = arith.addi %b, %c2 : index
    %w2 = amls.insert_slice %cell into %w1[%b1 : %b2, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<50x1xf64> -> !amls.matrix<50x1xf64>
    amls.yield %w2 : !amls.matrix<50x1xf64>
  } {shared_names = ["R"], workers = 2 : i64, partitioner = 1 : i32, fixed_plan} -> !amls.matrix<50x1xf64>
  return %0 : !amls.matrix<50x1xf64>
}

// -----

// Every iteration writes row 1: rejected.
func.func @same_row(%R: !amls.matrix<10x10xf64>, %n: index) -> !amls.matrix<10x10xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %v = arith.constant 1.0 : f64
  // expected-note @below {{in this parfor}}
  %0 = amls.parfor %c0 to %n step %c1 shared(%R : !amls.matrix<10x10xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x10xf64>):
    %row = amls.fill %v, %c1, %c10 : f64 -> !amls.matrix<1x10xf64>
    // expected-error @below {{parfor: iterations may depend on each other through 'R': iterations may write the same part; each iteration must write its own rows or columns}}
    %w = amls.insert_slice %row into %acc[%c0 : %c1, %c0 : %c10] : !amls.matrix<1x10xf64> into !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
    amls.yield %w : !amls.matrix<10x10xf64>
  } {shared_names = ["R"]} -> !amls.matrix<10x10xf64>
  return %0 : !amls.matrix<10x10xf64>
}

// -----

// R[i, ] = R[i-1, ] + 1: the read reaches the previous iteration's row.
func.func @previous_row(%R: !amls.matrix<10x10xf64>) -> !amls.matrix<10x10xf64> {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %v = arith.constant 1.0 : f64
  // expected-note @below {{in this parfor}}
  %0 = amls.parfor %c1 to %c10 step %c1 shared(%R : !amls.matrix<10x10xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x10xf64>):
    %im1 = arith.subi %i, %c1 : index
    %i1 = arith.addi %i, %c1 : index
    %prev = amls.slice %acc[%im1 : %i, %c0 : %c10] : !amls.matrix<10x10xf64> -> !amls.matrix<1x10xf64>
    %next = amls.add %prev, %v : !amls.matrix<1x10xf64>, f64 -> !amls.matrix<1x10xf64>
    // expected-error-re @below {{parfor: iterations may depend on each other through 'R': the parts these two accesses touch may overlap between iterations (the other access: {{.*}}parfor.mlir:{{[0-9]+}}:{{[0-9]+}})}}
    %w = amls.insert_slice %next into %acc[%i : %i1, %c0 : %c10] : !amls.matrix<1x10xf64> into !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
    amls.yield %w : !amls.matrix<10x10xf64>
  } {shared_names = ["R"]} -> !amls.matrix<10x10xf64>
  return %0 : !amls.matrix<10x10xf64>
}

// -----

// sum(R) in the body reads what other iterations write.
func.func @whole_read(%R: !amls.matrix<10x1xf64>) -> !amls.matrix<10x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  // expected-note @below {{in this parfor}}
  %0 = amls.parfor %c0 to %c10 step %c1 shared(%R : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    // expected-error @below {{parfor: iterations may depend on each other through 'R': read as a whole}}
    %s = amls.agg sum all %acc : !amls.matrix<10x1xf64> -> f64
    %i1 = arith.addi %i, %c1 : index
    %cell = amls.fill %s, %c1, %c1 : f64 -> !amls.matrix<1x1xf64>
    %w = amls.insert_slice %cell into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
    amls.yield %w : !amls.matrix<10x1xf64>
  } {shared_names = ["R"]} -> !amls.matrix<10x1xf64>
  return %0 : !amls.matrix<10x1xf64>
}

// -----

// R[ceil(i/2), ]: iterations 1 and 2 write the same row (stride 1/2).
func.func @half_stride(%R: !amls.matrix<10x1xf64>) -> !amls.matrix<10x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %half = arith.constant 2.0 : f64
  %v = arith.constant 1.0 : f64
  // expected-note @below {{in this parfor}}
  %0 = amls.parfor %c0 to %c10 step %c1 shared(%R : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    %i64 = arith.index_cast %i : index to i64
    %if = arith.sitofp %i64 : i64 to f64
    %h = arith.divf %if, %half : f64
    %hi = arith.fptosi %h : f64 to i64
    %r = arith.index_cast %hi : i64 to index
    %r1 = arith.addi %r, %c1 : index
    %cell = amls.fill %v, %c1, %c1 : f64 -> !amls.matrix<1x1xf64>
    // expected-error @below {{through 'R': iterations may write the same part}}
    %w = amls.insert_slice %cell into %acc[%r : %r1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
    amls.yield %w : !amls.matrix<10x1xf64>
  } {shared_names = ["R"]} -> !amls.matrix<10x1xf64>
  return %0 : !amls.matrix<10x1xf64>
}

// -----

// check=0 (unchecked): the same loop runs as independent, as asked.
// Each worker then updates its own copy of R, merged after the loop by the
// cells that changed (result_merge 1: R is not known to be all zeros).
// EXPLAIN: amls-parfor: parfor at {{.*}}: R dependent: a copy per worker, merged by the cells that changed (check=0: run as independent)
// CHECK-LABEL: func @unchecked
// CHECK: independent
// CHECK-SAME: result_merge = array<i32: 1>
func.func @unchecked(%R: !amls.matrix<10x10xf64>) -> !amls.matrix<10x10xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %v = arith.constant 1.0 : f64
  %0 = amls.parfor %c0 to %c10 step %c1 shared(%R : !amls.matrix<10x10xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x10xf64>):
    %row = amls.fill %v, %c1, %c10 : f64 -> !amls.matrix<1x10xf64>
    %w = amls.insert_slice %row into %acc[%c0 : %c1, %c0 : %c10] : !amls.matrix<1x10xf64> into !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
    amls.yield %w : !amls.matrix<10x10xf64>
  } {shared_names = ["R"], unchecked} -> !amls.matrix<10x10xf64>
  return %0 : !amls.matrix<10x10xf64>
}

// -----

// An unchecked loop with a result that starts as matrix(0, ...) and one
// that it writes by rows: the first is merged by its nonzero cells
// (result_merge 2), the second stays in place (0).
// EXPLAIN: amls-parfor: parfor at {{.*}}: Z dependent: a copy per worker, merged by its nonzero cells; R by rows (stride 1) (check=0: run as independent)
// CHECK-LABEL: func @unchecked_zeros
// CHECK: result_merge = array<i32: 2, 0>
func.func @unchecked_zeros(%R: !amls.matrix<10x10xf64>, %n: index) -> (!amls.matrix<?x10xf64>, !amls.matrix<10x10xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f64
  %v = arith.constant 1.0 : f64
  %Z = amls.fill %zero, %n, %c10 : f64 -> !amls.matrix<?x10xf64>
  %0:2 = amls.parfor %c0 to %c10 step %c1 shared(%Z, %R : !amls.matrix<?x10xf64>, !amls.matrix<10x10xf64>) {
  ^bb0(%i: index, %z: !amls.matrix<?x10xf64>, %acc: !amls.matrix<10x10xf64>):
    %row = amls.fill %v, %c1, %c10 : f64 -> !amls.matrix<1x10xf64>
    %z2 = amls.insert_slice %row into %z[%c0 : %c1, %c0 : %c10] : !amls.matrix<1x10xf64> into !amls.matrix<?x10xf64> -> !amls.matrix<?x10xf64>
    %i1 = arith.addi %i, %c1 : index
    %w = amls.insert_slice %row into %acc[%i : %i1, %c0 : %c10] : !amls.matrix<1x10xf64> into !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
    amls.yield %z2, %w : !amls.matrix<?x10xf64>, !amls.matrix<10x10xf64>
  } {shared_names = ["Z", "R"], unchecked} -> !amls.matrix<?x10xf64>, !amls.matrix<10x10xf64>
  return %0#0, %0#1 : !amls.matrix<?x10xf64>, !amls.matrix<10x10xf64>
}

// -----

// R[2 * floor(i / 2)] (DML's 2 * (i %/% 2)): iterations 2j and 2j+1 write
// the same row. Rounding is the identity only on integers, so the bound
// is not understood and the loop is rejected.
func.func @rounded_index(%R: !amls.matrix<10x1xf64>) -> !amls.matrix<10x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %two = arith.constant 2.0 : f64
  %v = arith.constant 1.0 : f64
  // expected-note @below {{in this parfor}}
  %0 = amls.parfor %c0 to %c5 step %c1 shared(%R : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    %i64 = arith.index_cast %i : index to i64
    %if = arith.sitofp %i64 : i64 to f64
    %h = arith.divf %if, %two : f64
    %f = math.floor %h : f64
    %m = arith.mulf %f, %two : f64
    %mi = arith.fptosi %m : f64 to i64
    %r = arith.index_cast %mi : i64 to index
    %r1 = arith.addi %r, %c1 : index
    %cell = amls.fill %v, %c1, %c1 : f64 -> !amls.matrix<1x1xf64>
    // expected-error @below {{through 'R': iterations may write the same part}}
    %w = amls.insert_slice %cell into %acc[%r : %r1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
    amls.yield %w : !amls.matrix<10x1xf64>
  } {shared_names = ["R"]} -> !amls.matrix<10x1xf64>
  return %0 : !amls.matrix<10x1xf64>
}

// -----

// Rows [i, -1 * min(-i, -n)) = [i, max(i, n)): a min is an upper bound,
// but times -1 it is a lower one; every iteration writes up to row n.
func.func @negated_min(%R: !amls.matrix<10x1xf64>, %n: index) -> !amls.matrix<10x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m1 = arith.constant -1 : index
  %c10 = arith.constant 10 : index
  // expected-note @below {{in this parfor}}
  %0 = amls.parfor %c0 to %c10 step %c1 shared(%R : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    %ni = arith.muli %i, %m1 : index
    %nn = arith.muli %n, %m1 : index
    %lo = arith.minsi %ni, %nn : index
    %end = arith.muli %lo, %m1 : index
    %rows = arith.subi %end, %i : index
    %v = arith.constant 1.0 : f64
    %part = amls.fill %v, %rows, %c1 : f64 -> !amls.matrix<?x1xf64>
    // expected-error @below {{through 'R': iterations may write the same part}}
    %w = amls.insert_slice %part into %acc[%i : %end, %c0 : %c1] : !amls.matrix<?x1xf64> into !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
    amls.yield %w : !amls.matrix<10x1xf64>
  } {shared_names = ["R"]} -> !amls.matrix<10x1xf64>
  return %0 : !amls.matrix<10x1xf64>
}

// -----

// R = matrix(i, 1, 1) in the body: the matrix is replaced as a whole.
func.func @whole_assignment(%R: !amls.matrix<1x1xf64>) -> !amls.matrix<1x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %v = arith.constant 1.0 : f64
  // expected-note @below {{in this parfor}}
  %0 = amls.parfor %c0 to %c10 step %c1 shared(%R : !amls.matrix<1x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<1x1xf64>):
    // expected-error @below {{through 'R': assigned as a whole in the body (only left indexing may update it)}}
    %new = amls.fill %v, %c1, %c1 : f64 -> !amls.matrix<1x1xf64>
    amls.yield %new : !amls.matrix<1x1xf64>
  } {shared_names = ["R"]} -> !amls.matrix<1x1xf64>
  return %0 : !amls.matrix<1x1xf64>
}

// -----

// if (i == 3) R = matrix(0, 10, 1) else R[i, 1] = 1: one branch replaces
// the whole matrix.
func.func @whole_assignment_in_branch(%R: !amls.matrix<10x1xf64>) -> !amls.matrix<10x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %v = arith.constant 1.0 : f64
  %z = arith.constant 0.0 : f64
  // expected-note @below {{in this parfor}}
  %0 = amls.parfor %c0 to %c10 step %c1 shared(%R : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    %is3 = arith.cmpi eq, %i, %c3 : index
    %next = scf.if %is3 -> (!amls.matrix<10x1xf64>) {
      // expected-error @below {{through 'R': assigned as a whole on some path in the body (only left indexing may update it)}}
      %zeros = amls.fill %z, %c10, %c1 : f64 -> !amls.matrix<10x1xf64>
      scf.yield %zeros : !amls.matrix<10x1xf64>
    } else {
      %i1 = arith.addi %i, %c1 : index
      %cell = amls.fill %v, %c1, %c1 : f64 -> !amls.matrix<1x1xf64>
      %w = amls.insert_slice %cell into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
      scf.yield %w : !amls.matrix<10x1xf64>
    }
    amls.yield %next : !amls.matrix<10x1xf64>
  } {shared_names = ["R"]} -> !amls.matrix<10x1xf64>
  return %0 : !amls.matrix<10x1xf64>
}
