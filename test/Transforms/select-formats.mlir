// RUN: amls-opt %s -split-input-file -amls-select-formats | FileCheck %s
// RUN: amls-opt %s -split-input-file -amls-select-formats=mode=dense | FileCheck %s --check-prefix=DENSE
// RUN: amls-opt %s -split-input-file -amls-select-formats="sparsity-turn-point=0.004" | FileCheck %s --check-prefix=TURN
// RUN: amls-opt %s -split-input-file -amls-select-formats=explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: not amls-opt %s -amls-select-formats=mode=coo 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: amls-opt %s -split-input-file -amls-select-formats=csr-results | FileCheck %s --check-prefix=RESULTS
// RUN: amls-opt %s -split-input-file -amls-select-formats="csr-results explain" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESULTS-EXPLAIN

// MODE: amls-select-formats: expected mode 'auto', 'dense' or 'csr', found 'coo'

// SystemDS's rule: CSR below 40% non-zeros. The producers have CSR kernels
// (read, X / v, transpose); the product's result is dense, computed without
// the transpose (t(t(p) %*% B)); a 0.5% matrix stays dense with the turn
// point at 0.4%.
// CHECK-LABEL: func @pagerank_setup
// CHECK: %[[A:.*]] = amls.read {{.*}} : !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// CHECK: amls.agg sum row %[[A]] : !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr> -> !amls.matrix<1000x1xf64>
// CHECK: amls.div {{.*}} -> !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// CHECK: amls.matmul {{.*}} : !amls.matrix<1x1000xf64>, !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr> -> !amls.matrix<1x1000xf64>
// CHECK-NOT: amls.convert
// DENSE-LABEL: func @pagerank_setup
// DENSE-NOT: format = csr
// TURN-LABEL: func @pagerank_setup
// TURN-NOT: format = csr
// TURN-LABEL: func @dense_consumers
// EXPLAIN: amls-select-formats: {{.*}}: result #0 of amls.read is CSR: !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// EXPLAIN: result #0 of amls.div is CSR
// EXPLAIN: result #0 of amls.transpose is CSR
func.func @pagerank_setup(%p: !amls.matrix<1000x1xf64>) -> !amls.matrix<1000x1xf64> {
  %A = amls.read "links.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %d = amls.agg sum row %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> !amls.matrix<1000x1xf64>
  %B = amls.div %A, %d : !amls.matrix<1000x1000xf64, sparsity = 0.005>, !amls.matrix<1000x1xf64> -> !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %G = amls.transpose %B : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %y = amls.matmul %G, %p : !amls.matrix<1000x1000xf64, sparsity = 0.005>, !amls.matrix<1000x1xf64> -> !amls.matrix<1000x1xf64>
  return %y : !amls.matrix<1000x1xf64>
}

// -----

// A consumer without a CSR kernel (exp) gets one dense copy, made right
// after the CSR matrix; the sum takes it CSR, and the loop carries it CSR
// (its initial value is).
// CHECK-LABEL: func @dense_consumers
// CHECK: %[[A:.*]] = amls.read {{.*}} format = csr>
// CHECK-NEXT: %[[D:.*]] = amls.convert %[[A]] : {{.*}} format = csr> -> !amls.matrix<1000x1000xf64, sparsity = 0.005>
// CHECK: amls.exp %[[D]]
// CHECK: amls.agg sum all %[[A]]
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[A]]) -> (!amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>)
// CHECK: return
// EXPLAIN: amls.exp takes a dense copy of a CSR matrix
func.func @dense_consumers(%n: index) -> (!amls.matrix<1000x1000xf64>, f64) {
  %A = amls.read "links.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %E = amls.exp %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> !amls.matrix<1000x1000xf64>
  %t = amls.agg sum all %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> f64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%X = %A) -> (!amls.matrix<1000x1000xf64, sparsity = 0.005>) {
    scf.yield %X : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  }
  %s = amls.add %E, %E : !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64>
  return %s, %t : !amls.matrix<1000x1000xf64>, f64
}

// -----

// A loop whose initial value is CSR but whose body yields a product
// estimated dense carries it dense: carried CSR, the product would be
// converted in every iteration. The initial value takes a dense copy.
// CHECK-LABEL: func @dense_updates
// CHECK: %[[A:.*]] = amls.read {{.*}} format = csr>
// CHECK: %[[C:.*]] = amls.cast %[[A]] : {{.*}} -> !amls.matrix<1000x1000xf64, format = csr>
// CHECK: %[[D:.*]] = amls.convert %[[C]] : !amls.matrix<1000x1000xf64, format = csr> -> !amls.matrix<1000x1000xf64>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[D]]) -> (!amls.matrix<1000x1000xf64>)
// CHECK-NOT: amls.convert
// CHECK: return
func.func @dense_updates(%n: index, %B: !amls.matrix<1000x1000xf64>) -> !amls.matrix<1000x1000xf64> {
  %A = amls.read "links.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %C = amls.cast %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> !amls.matrix<1000x1000xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%X = %C) -> (!amls.matrix<1000x1000xf64>) {
    %P = amls.matmul %A, %B : !amls.matrix<1000x1000xf64, sparsity = 0.005>, !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64, sparsity = 1.0>
    %Q = amls.cast %P : !amls.matrix<1000x1000xf64, sparsity = 1.0> -> !amls.matrix<1000x1000xf64>
    scf.yield %Q : !amls.matrix<1000x1000xf64>
  }
  return %r : !amls.matrix<1000x1000xf64>
}

// -----

// The product of two dense matrices estimated sparse (0.6 x 0.6: 36%
// non-zeros) is computed dense and then converted for its CSR user: no
// element-wise kernel takes dense operands to a CSR result (SystemDS's
// RewriteEMultChainOpXYX, 2 * X * 3 * Y * 4 * X, crashed the lowering).
// CHECK-LABEL: func @sparse_product_of_dense_operands
// CHECK: %[[P:.*]] = amls.mul %{{.*}}, %{{.*}} : !amls.matrix<1000x1000xf64, sparsity = 0.6>, !amls.matrix<1000x1000xf64, sparsity = 0.6> -> !amls.matrix<1000x1000xf64, sparsity = 0.36>
// CHECK-NEXT: %[[C:.*]] = amls.convert %[[P]] : {{.*}} -> !amls.matrix<1000x1000xf64, sparsity = 0.36, format = csr>
// CHECK: amls.agg sum all %[[C]]
func.func @sparse_product_of_dense_operands(%X: !amls.matrix<1000x1000xf64, sparsity = 0.6>, %Y: !amls.matrix<1000x1000xf64, sparsity = 0.6>) -> f64 {
  %P = amls.mul %X, %Y : !amls.matrix<1000x1000xf64, sparsity = 0.6>, !amls.matrix<1000x1000xf64, sparsity = 0.6> -> !amls.matrix<1000x1000xf64, sparsity = 0.36>
  %s = amls.agg sum all %P : !amls.matrix<1000x1000xf64, sparsity = 0.36> -> f64
  return %s : f64
}

// -----

// A sparse matrix none of whose users takes CSR stays dense.
// CHECK-LABEL: func @no_csr_user
// CHECK-NOT: format = csr
func.func @no_csr_user() -> !amls.matrix<1000x1000xf64> {
  %A = amls.read "links.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %E = amls.exp %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> !amls.matrix<1000x1000xf64>
  return %E : !amls.matrix<1000x1000xf64>
}

// -----

// Small matrices, column vectors and unknown sparsity stay dense; a sparse
// result of an op without a CSR kernel (rand) is converted for the users
// that have one (the sum), not for the others (exp).
// CHECK-LABEL: func @rule_limits
// CHECK: amls.read "small.mtx" {{.*}} : !amls.matrix<10x10xf64, sparsity = 0.1>
// CHECK: amls.read "column.mtx" {{.*}} : !amls.matrix<100000x1xf64, sparsity = 0.01>
// CHECK: amls.read "unknown.csv" {{.*}} : !amls.matrix<1000x1000xf64>
// CHECK: %[[R:.*]] = amls.rand
// CHECK-NEXT: %[[C:.*]] = amls.convert %[[R]] : {{.*}} -> !amls.matrix<1000x1000xf64, sparsity = 0.001, format = csr>
// CHECK: amls.exp %[[R]]
// CHECK: amls.agg sum all %[[C]]
func.func @rule_limits(%seed: i64) -> (!amls.matrix<10x10xf64, sparsity = 0.1>, !amls.matrix<100000x1xf64, sparsity = 0.01>, !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>, f64) {
  %a = amls.read "small.mtx" mm : !amls.matrix<10x10xf64, sparsity = 0.1>
  %b = amls.read "column.mtx" mm : !amls.matrix<100000x1xf64, sparsity = 0.01>
  %c = amls.read "unknown.csv" csv : !amls.matrix<1000x1000xf64>
  %c1000 = arith.constant 1000 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %sp = arith.constant 0.001 : f64
  %r = amls.rand %c1000, %c1000, %zero, %one, %sp seed %seed uniform : f64 -> !amls.matrix<1000x1000xf64, sparsity = 0.001>
  %e = amls.exp %r : !amls.matrix<1000x1000xf64, sparsity = 0.001> -> !amls.matrix<1000x1000xf64>
  %s = amls.agg sum all %r : !amls.matrix<1000x1000xf64, sparsity = 0.001> -> f64
  return %a, %b, %c, %e, %s : !amls.matrix<10x10xf64, sparsity = 0.1>, !amls.matrix<100000x1xf64, sparsity = 0.01>, !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>, f64
}

// -----

// t(X) %*% u with a CSR X in the same block: t(t(u) %*% X), without t(X).
// CHECK-LABEL: func @transposed_product
// CHECK: %[[X:.*]] = amls.read {{.*}} format = csr>
// CHECK-NEXT: %[[U:.*]] = amls.transpose %arg0 : !amls.matrix<10000x1xf64> -> !amls.matrix<1x10000xf64>
// CHECK-NEXT: %[[P:.*]] = amls.matmul %[[U]], %[[X]] : {{.*}} -> !amls.matrix<1x500xf64>
// CHECK-NEXT: %[[R:.*]] = amls.transpose %[[P]] : !amls.matrix<1x500xf64> -> !amls.matrix<500x1xf64>
// CHECK-NEXT: return %[[R]]
// EXPLAIN: t(X) %*% D with a CSR X computed as t(t(D) %*% X), without t(X)
func.func @transposed_product(%u: !amls.matrix<10000x1xf64>) -> !amls.matrix<500x1xf64> {
  %A = amls.read "x.mtx" mm : !amls.matrix<10000x500xf64, sparsity = 0.01>
  %T = amls.transpose %A : !amls.matrix<10000x500xf64, sparsity = 0.01> -> !amls.matrix<500x10000xf64, sparsity = 0.01>
  %y = amls.matmul %T, %u : !amls.matrix<500x10000xf64, sparsity = 0.01>, !amls.matrix<10000x1xf64> -> !amls.matrix<500x1xf64>
  return %y : !amls.matrix<500x1xf64>
}

// -----

// A transpose outside the loop of its product is built once (CSR) and the
// products in the loop are row-parallel SpMVs.
// CHECK-LABEL: func @loop_invariant_transpose
// CHECK: %[[G:.*]] = amls.transpose {{.*}} -> !amls.matrix<500x10000xf64, sparsity = 0.01, format = csr>
// CHECK: scf.for
// CHECK: amls.matmul %[[G]], %{{.*}} : !amls.matrix<500x10000xf64, sparsity = 0.01, format = csr>, !amls.matrix<10000x1xf64> -> !amls.matrix<500x1xf64>
func.func @loop_invariant_transpose(%u: !amls.matrix<10000x1xf64>, %n: index) -> !amls.matrix<500x1xf64> {
  %A = amls.read "x.mtx" mm : !amls.matrix<10000x500xf64, sparsity = 0.01>
  %T = amls.transpose %A : !amls.matrix<10000x500xf64, sparsity = 0.01> -> !amls.matrix<500x10000xf64, sparsity = 0.01>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = amls.constant dense<0.0> : tensor<500x1xf64> -> !amls.matrix<500x1xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (!amls.matrix<500x1xf64>) {
    %y = amls.matmul %T, %u : !amls.matrix<500x10000xf64, sparsity = 0.01>, !amls.matrix<10000x1xf64> -> !amls.matrix<500x1xf64>
    scf.yield %y : !amls.matrix<500x1xf64>
  }
  return %r : !amls.matrix<500x1xf64>
}

// -----

// An scf.if with a CSR branch is CSR; the dense branch converts (only when
// taken), and a dense copy for a consumer in a branch is made in the branch.
// CHECK-LABEL: func @branches
// CHECK: %[[A:.*]] = amls.read {{.*}} format = csr>
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (!amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>)
// CHECK-NEXT: %[[D:.*]] = amls.convert %[[A]] : {{.*}}format = csr> -> !amls.matrix<1000x1000xf64, sparsity = 0.005>
// CHECK-NEXT: %[[E:.*]] = amls.exp %[[D]]
// CHECK-NEXT: %[[C:.*]] = amls.convert %[[E]] : {{.*}} -> !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// CHECK-NEXT: scf.yield %[[C]]
// CHECK: scf.yield %[[A]]
// CHECK: amls.agg sum all %[[R]] : !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// EXPLAIN: result #0 of scf.if is CSR (a branch yields CSR)
func.func @branches(%flag: i1) -> f64 {
  %A = amls.read "links.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %r = scf.if %flag -> (!amls.matrix<1000x1000xf64, sparsity = 0.005>) {
    %E = amls.exp %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> !amls.matrix<1000x1000xf64, sparsity = 0.005>
    scf.yield %E : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  } else {
    scf.yield %A : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  }
  %s = amls.agg sum all %r : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> f64
  return %s : f64
}

// -----

// table() adds one cell per pair of categories: 10,000 pairs in 10,000 rows
// give at most one non-zero per row, CSR for a column count read from the
// data (mlogreg's labels, taken as 3 or more) and dense for 2 columns.
// CHECK-LABEL: func @table_of_labels
// CHECK: %[[Y:.*]] = amls.table {{.*}} -> !amls.matrix<10000x?xf64, format = csr>
// CHECK: amls.matmul %{{.*}}, %[[Y]] : !amls.matrix<20x10000xf64>, !amls.matrix<10000x?xf64, format = csr> -> !amls.matrix<20x?xf64>
// CHECK: amls.table {{.*}} -> !amls.matrix<10000x2xf64>
// DENSE-LABEL: func @table_of_labels
// DENSE-NOT: format = csr
func.func @table_of_labels(%i: !amls.matrix<10000x1xf64>, %y: !amls.matrix<10000x1xf64>, %k: index, %X: !amls.matrix<10000x20xf64>) -> (!amls.matrix<20x?xf64>, !amls.matrix<20x2xf64>) {
  %n = arith.constant 10000 : index
  %two = arith.constant 2 : index
  %Y = amls.table %i, %y size %n, %k : !amls.matrix<10000x1xf64>, !amls.matrix<10000x1xf64> -> !amls.matrix<10000x?xf64>
  %t = amls.transpose %X : !amls.matrix<10000x20xf64> -> !amls.matrix<20x10000xf64>
  %g = amls.matmul %t, %Y : !amls.matrix<20x10000xf64>, !amls.matrix<10000x?xf64> -> !amls.matrix<20x?xf64>
  %Y2 = amls.table %i, %y size %n, %two : !amls.matrix<10000x1xf64>, !amls.matrix<10000x1xf64> -> !amls.matrix<10000x2xf64>
  %g2 = amls.matmul %t, %Y2 : !amls.matrix<20x10000xf64>, !amls.matrix<10000x2xf64> -> !amls.matrix<20x2xf64>
  return %g, %g2 : !amls.matrix<20x?xf64>, !amls.matrix<20x2xf64>
}

// -----

// A private function returns a sparse matrix CSR when a caller's user takes
// it (the product); the caller's other users (exp) share a dense copy, and
// the public function's results stay dense.
// CHECK-LABEL: func private @load
// CHECK-SAME: -> !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// CHECK: %[[A:.*]] = amls.read {{.*}} format = csr>
// CHECK-NEXT: return %[[A]] :
// CHECK-LABEL: func @uses_load
// CHECK-SAME: -> (!amls.matrix<1000x1xf64>, !amls.matrix<1000x1000xf64>)
// CHECK: %[[L:.*]] = call @load() : () -> !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// CHECK: %[[D:.*]] = amls.convert %[[L]] : !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr> -> !amls.matrix<1000x1000xf64, sparsity = 0.005>
// CHECK: amls.matmul %[[L]], %arg0 : !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// CHECK: amls.exp %[[D]]
// EXPLAIN: result #0 of @load is returned CSR
// DENSE-LABEL: func private @load
// DENSE-NOT: format = csr
func.func private @load() -> !amls.matrix<1000x1000xf64, sparsity = 0.005> {
  %A = amls.read "links.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  return %A : !amls.matrix<1000x1000xf64, sparsity = 0.005>
}
func.func @uses_load(%v: !amls.matrix<1000x1xf64>) -> (!amls.matrix<1000x1xf64>, !amls.matrix<1000x1000xf64>) {
  %A = call @load() : () -> !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %y = amls.matmul %A, %v : !amls.matrix<1000x1000xf64, sparsity = 0.005>, !amls.matrix<1000x1xf64> -> !amls.matrix<1000x1xf64>
  %e = amls.exp %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> !amls.matrix<1000x1000xf64>
  return %y, %e : !amls.matrix<1000x1xf64>, !amls.matrix<1000x1000xf64>
}

// -----

// removeEmpty, rev and replace() with a pattern != 0 keep a CSR matrix CSR;
// replace() whose pattern is 0 or unknown and cumulative aggregates take it
// CSR and give dense results; print takes it CSR. Nothing is converted.
// CHECK-LABEL: func @reorganisations
// CHECK: %[[A:.*]] = amls.read {{.*}} format = csr>
// CHECK-NEXT: %[[R:.*]] = amls.remove_empty rows %[[A]] select %{{.*}} : {{.*}} format = csr>, !amls.matrix<1000x1xf64> -> !amls.matrix<?x1000xf64, format = csr>
// CHECK-NEXT: %[[V:.*]] = amls.rev %[[A]] : {{.*}} -> !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// CHECK-NEXT: %[[K:.*]] = amls.replace %[[A]], %{{.*}}, %{{.*}} : {{.*}} -> !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// CHECK-NEXT: amls.replace %[[A]], %{{.*}}, %{{.*}} : {{.*}} -> !amls.matrix<1000x1000xf64, sparsity = 1.0>
// CHECK-NEXT: amls.replace %[[A]], %{{.*}}, %{{.*}} : {{.*}} -> !amls.matrix<1000x1000xf64>
// CHECK-NEXT: amls.cumagg cumsum %[[A]] : {{.*}} format = csr> -> !amls.matrix<1000x1000xf64>
// CHECK-NEXT: amls.print %[[A]] : {{.*}} format = csr>
// CHECK-NOT: amls.convert
// CHECK: return
// EXPLAIN: result #0 of amls.remove_empty is CSR
// EXPLAIN: result #0 of amls.rev is CSR
// EXPLAIN: result #0 of amls.replace is CSR
// EXPLAIN-NOT: takes a dense copy
func.func @reorganisations(%s: !amls.matrix<1000x1xf64>, %p: f64) -> (f64, f64, f64, !amls.matrix<1000x1000xf64, sparsity = 1.0>, !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>) {
  %zero = arith.constant 0.0 : f64
  %three = arith.constant 3.0 : f64
  %seven = arith.constant 7.0 : f64
  %A = amls.read "links.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %R = amls.remove_empty rows %A select %s : !amls.matrix<1000x1000xf64, sparsity = 0.005>, !amls.matrix<1000x1xf64> -> !amls.matrix<?x1000xf64>
  %V = amls.rev %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %K = amls.replace %A, %three, %seven : !amls.matrix<1000x1000xf64, sparsity = 0.005>, f64, f64 -> !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %D = amls.replace %A, %zero, %seven : !amls.matrix<1000x1000xf64, sparsity = 0.005>, f64, f64 -> !amls.matrix<1000x1000xf64, sparsity = 1.0>
  %P = amls.replace %A, %p, %seven : !amls.matrix<1000x1000xf64, sparsity = 0.005>, f64, f64 -> !amls.matrix<1000x1000xf64>
  %C = amls.cumagg cumsum %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> !amls.matrix<1000x1000xf64>
  amls.print %A : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %r = amls.agg sum all %R : !amls.matrix<?x1000xf64> -> f64
  %v = amls.agg sum all %V : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> f64
  %k = amls.agg sum all %K : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> f64
  return %r, %v, %k, %D, %P, %C : f64, f64, f64, !amls.matrix<1000x1000xf64, sparsity = 1.0>, !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>
}

// -----

// Without a kernel for all its CSR operands, an op takes a dense copy of
// just the one it needs dense where that gives a kernel: removeEmpty's
// select vector (a slice of a CSR matrix, hence CSR), not the matrix.
// CHECK-LABEL: func @dense_copy_of_one_operand
// CHECK: %[[A:.*]] = amls.read "links.mtx" {{.*}} format = csr>
// CHECK: %[[S:.*]] = amls.slice {{.*}} -> !amls.matrix<1000x1xf64, sparsity = 0.01, format = csr>
// CHECK-NEXT: %[[D:.*]] = amls.convert %[[S]] : {{.*}} format = csr> -> !amls.matrix<1000x1xf64, sparsity = 0.01>
// CHECK-NEXT: amls.remove_empty rows %[[A]] select %[[D]] : !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>, !amls.matrix<1000x1xf64, sparsity = 0.01> -> !amls.matrix<?x1000xf64, format = csr>
// CHECK-NOT: amls.convert
// CHECK: return
// EXPLAIN: result #0 of amls.slice is CSR
// EXPLAIN-NEXT: amls.remove_empty takes a dense copy of a CSR matrix
// EXPLAIN-NEXT: result #0 of amls.remove_empty is CSR
func.func @dense_copy_of_one_operand() -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1000 = arith.constant 1000 : index
  %A = amls.read "links.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %B = amls.read "labels.mtx" mm : !amls.matrix<1000x10xf64, sparsity = 0.01>
  %s = amls.slice %B[%c0 : %c1000, %c0 : %c1] : !amls.matrix<1000x10xf64, sparsity = 0.01> -> !amls.matrix<1000x1xf64, sparsity = 0.01>
  %R = amls.remove_empty rows %A select %s : !amls.matrix<1000x1000xf64, sparsity = 0.005>, !amls.matrix<1000x1xf64, sparsity = 0.01> -> !amls.matrix<?x1000xf64>
  %r = amls.agg sum all %R : !amls.matrix<?x1000xf64> -> f64
  return %r : f64
}

// -----

// MLogreg's label matrix: table(seq(1, N), y, N, max(y)) has N rows and a
// column count read from the data. It is CSR (at most N non-zeros), and so
// is Y * LT (Y's pattern, the same bound) whatever LT's size: the sizes
// are checked, and a CSR vector broadcast, at run time. P - Y is dense,
// computed from Y's stored values without a dense copy.
// CHECK-LABEL: func @dynamic_labels
// CHECK: %[[Y:.*]] = amls.table {{.*}} -> !amls.matrix<20000x?xf64, format = csr>
// CHECK: %[[YL:.*]] = amls.mul %[[Y]], %{{.*}} : !amls.matrix<20000x?xf64, format = csr>, !amls.matrix<20000x?xf64> -> !amls.matrix<20000x?xf64, format = csr>
// CHECK: amls.agg sum all %[[YL]] : !amls.matrix<20000x?xf64, format = csr>
// CHECK: amls.sub %{{.*}}, %[[Y]] : !amls.matrix<20000x?xf64>, !amls.matrix<20000x?xf64, format = csr> -> !amls.matrix<20000x?xf64>
// CHECK-NOT: amls.convert
// DENSE-LABEL: func @dynamic_labels
// DENSE-NOT: format = csr
// EXPLAIN: result #0 of amls.table is CSR: !amls.matrix<20000x?xf64, format = csr>
// EXPLAIN-NEXT: result #0 of amls.mul is CSR: !amls.matrix<20000x?xf64, format = csr>
func.func @dynamic_labels(%seq: !amls.matrix<20000x1xf64>, %y: !amls.matrix<20000x1xf64>, %LT: !amls.matrix<20000x?xf64>, %P: !amls.matrix<20000x?xf64>) -> (f64, !amls.matrix<20000x?xf64>) {
  %n = arith.constant 20000 : index
  %max = amls.agg max all %y : !amls.matrix<20000x1xf64> -> f64
  %k64 = arith.fptosi %max : f64 to i64
  %k = arith.index_cast %k64 : i64 to index
  %Y = amls.table %seq, %y size %n, %k : !amls.matrix<20000x1xf64>, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x?xf64>
  %YL = amls.mul %Y, %LT : !amls.matrix<20000x?xf64>, !amls.matrix<20000x?xf64> -> !amls.matrix<20000x?xf64>
  %s = amls.agg sum all %YL : !amls.matrix<20000x?xf64> -> f64
  %G = amls.sub %P, %Y : !amls.matrix<20000x?xf64>, !amls.matrix<20000x?xf64> -> !amls.matrix<20000x?xf64>
  return %s, %G : f64, !amls.matrix<20000x?xf64>
}

// -----

// A matrix assigned in one branch only is poison in the other: it becomes
// CSR with the assigned one, without a conversion (it is never read).
// CHECK-LABEL: func @poison_branch
// CHECK: scf.if %{{.*}} -> (!amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>)
// CHECK-NEXT: %[[A:.*]] = amls.read {{.*}} format = csr>
// CHECK-NEXT: scf.yield %[[A]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[P:.*]] = ub.poison : !amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>
// CHECK-NEXT: scf.yield %[[P]]
// CHECK-NOT: amls.convert
// CHECK: return
func.func @poison_branch(%flag: i1) -> f64 {
  %p = ub.poison : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %r = scf.if %flag -> (!amls.matrix<1000x1000xf64, sparsity = 0.005>) {
    %A = amls.read "links.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.005>
    scf.yield %A : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  } else {
    scf.yield %p : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  }
  %s = amls.agg sum all %r : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> f64
  return %s : f64
}

// -----

// With csr-results an entry (public, called by nothing) returns the sparse
// matrices it computes CSR, without the dense copy; a result computed
// dense stays dense, and without the option every result is dense.
// RESULTS-LABEL: func @entry_results
// RESULTS-SAME: -> (!amls.matrix<1000x1000xf64, sparsity = 0.005, format = csr>, !amls.matrix<1000x1000xf64>, f64)
// RESULTS: %[[A:.*]] = amls.read {{.*}} format = csr>
// RESULTS: %[[S:.*]] = amls.mul %[[A]], {{.*}} format = csr>
// RESULTS-NOT: amls.convert %[[S]]
// RESULTS: return %[[S]], %{{.*}}, %{{.*}} :
// CHECK-LABEL: func @entry_results
// CHECK-SAME: -> (!amls.matrix<1000x1000xf64, sparsity = 0.005>, !amls.matrix<1000x1000xf64>, f64)
// CHECK: amls.convert
// RESULTS-EXPLAIN: result #0 of @entry_results is returned CSR
// RESULTS-EXPLAIN-NOT: result #1 of @entry_results
func.func @entry_results(%c: f64) -> (!amls.matrix<1000x1000xf64, sparsity = 0.005>, !amls.matrix<1000x1000xf64>, f64) {
  %A = amls.read "links.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %S = amls.mul %A, %c : !amls.matrix<1000x1000xf64, sparsity = 0.005>, f64 -> !amls.matrix<1000x1000xf64, sparsity = 0.005>
  %E = amls.exp %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> !amls.matrix<1000x1000xf64>
  %t = amls.agg sum all %A : !amls.matrix<1000x1000xf64, sparsity = 0.005> -> f64
  return %S, %E, %t : !amls.matrix<1000x1000xf64, sparsity = 0.005>, !amls.matrix<1000x1000xf64>, f64
}
