// RUN: amls-opt %s -split-input-file -amls-distribute=min-cells=0 | FileCheck %s
// RUN: amls-opt %s -split-input-file -amls-distribute="min-cells=0 explain" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: amls-opt %s -split-input-file -amls-distribute=min-cells=20000 | FileCheck %s --check-prefix=SMALL

// SystemDS's distributed operators on a row-partitioned X (seed 001):
// X %*% p and element-wise ops of aligned blocks are local, t(X) %*% r and
// a full sum end in one all-reduce, nrow(X) is the whole matrix's count.
// CHECK-LABEL: func @gradient
// CHECK: %[[X:.*]] = amls.read "X.csv" csv {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x10xf64>
// CHECK: %[[Y:.*]] = amls.read "y.csv" csv {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x1xf64>
// CHECK: %[[XP:.*]] = amls.matmul %[[X]], %{{.*}} {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[R:.*]] = amls.sub %[[XP]], %[[Y]] {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[T:.*]] = amls.transpose %[[X]] : !amls.matrix<?x10xf64> -> !amls.matrix<10x?xf64>
// CHECK: %[[G:.*]] = amls.matmul %[[T]], %[[R]] : !amls.matrix<10x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<10x1xf64>
// CHECK: %[[GS:.*]] = amls.all_reduce sum %[[G]] : !amls.matrix<10x1xf64>
// CHECK: %[[S:.*]] = amls.agg sum all %[[R]]
// CHECK: %[[SS:.*]] = amls.all_reduce sum %[[S]] : f64
// CHECK: %[[N:.*]] = arith.constant 1001 : index
// CHECK: return %[[GS]], %[[SS]], %[[N]]
// EXPLAIN: amls-distribute: {{.*}}'amls.read': each rank reads its own rows
// EXPLAIN: 'amls.matmul': local on each block of rows
// EXPLAIN: 'amls.sub': local on each block of rows
// EXPLAIN: 'amls.transpose': local: the transpose of each block
// EXPLAIN: 'amls.matmul': local partial result per block, then all-reduce sum
// EXPLAIN: 'amls.agg': local partial result per block, then all-reduce sum
// EXPLAIN: 'amls.nrow': the whole matrix's row count, 1001
// A 1001x10 matrix has fewer cells than the threshold: replicated.
// SMALL-LABEL: func @gradient
// SMALL-NOT: amls.row_partitioned
// SMALL-NOT: amls.all_reduce
func.func @gradient(%p: !amls.matrix<10x1xf64>) -> (!amls.matrix<10x1xf64>, f64, index) {
  %X = amls.read "X.csv" csv : !amls.matrix<1001x10xf64>
  %y = amls.read "y.csv" csv : !amls.matrix<1001x1xf64>
  %Xp = amls.matmul %X, %p : !amls.matrix<1001x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<1001x1xf64>
  %r = amls.sub %Xp, %y : !amls.matrix<1001x1xf64>, !amls.matrix<1001x1xf64> -> !amls.matrix<1001x1xf64>
  %Xt = amls.transpose %X : !amls.matrix<1001x10xf64> -> !amls.matrix<10x1001xf64>
  %g = amls.matmul %Xt, %r : !amls.matrix<10x1001xf64>, !amls.matrix<1001x1xf64> -> !amls.matrix<10x1xf64>
  %s = amls.agg sum all %r : !amls.matrix<1001x1xf64> -> f64
  %n = amls.nrow %X : !amls.matrix<1001x10xf64>
  return %g, %s, %n : !amls.matrix<10x1xf64>, f64, index
}

// -----

// tsmm and column aggregates end in an all-reduce of their kind; a row
// aggregate stays a block; a replicated matrix of the blocks' row count
// meets them as its own block (no communication); a block written to a
// file is written by the ranks in turn, not gathered.
// CHECK-LABEL: func @gram
// SMALL-LABEL: func @gram
// CHECK: %[[X:.*]] = amls.read
// CHECK: %[[GRAM:.*]] = amls.tsmm left %[[X]] : !amls.matrix<?x10xf64> -> !amls.matrix<10x10xf64>
// CHECK: amls.all_reduce sum %[[GRAM]] : !amls.matrix<10x10xf64>
// CHECK: %[[MAX:.*]] = amls.agg max col %[[X]] : !amls.matrix<?x10xf64> -> !amls.matrix<1x10xf64>
// CHECK: amls.all_reduce max %[[MAX]] : !amls.matrix<1x10xf64>
// CHECK: %[[ROWS:.*]] = amls.agg sum row %[[X]] {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x10xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[ONES:.*]] = amls.fill
// CHECK: %[[BLOCK:.*]] = amls.local_rows %[[ONES]] : !amls.matrix<1001x1xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[SUM:.*]] = amls.add %[[ROWS]], %[[BLOCK]] {amls.row_partitioned = array<i64: 0>}
// CHECK-NOT: amls.all_gather_rows
// CHECK: amls.write %[[SUM]], "out.csv" csv {amls.row_partitioned_operands = array<i64: 0>} : !amls.matrix<?x1xf64>
// EXPLAIN: 'amls.tsmm': local partial result per block, then all-reduce sum
// EXPLAIN: 'amls.agg': local partial result per block, then all-reduce max
// EXPLAIN: 'amls.agg': local on each block of rows
// EXPLAIN: 'amls.add': local on each block of rows
// EXPLAIN: 'amls.write': each rank writes its rows, in rank order (one ordered write)
func.func @gram() -> (!amls.matrix<10x10xf64>, !amls.matrix<1x10xf64>) {
  %X = amls.read "X.csv" csv : !amls.matrix<1001x10xf64>
  %gram = amls.tsmm left %X : !amls.matrix<1001x10xf64> -> !amls.matrix<10x10xf64>
  %max = amls.agg max col %X : !amls.matrix<1001x10xf64> -> !amls.matrix<1x10xf64>
  %rows = amls.agg sum row %X : !amls.matrix<1001x10xf64> -> !amls.matrix<1001x1xf64>
  %one = arith.constant 1.0 : f64
  %c1 = arith.constant 1 : index
  %c1001 = arith.constant 1001 : index
  %ones = amls.fill %one, %c1001, %c1 : f64 -> !amls.matrix<1001x1xf64>
  %sum = amls.add %rows, %ones : !amls.matrix<1001x1xf64>, !amls.matrix<1001x1xf64> -> !amls.matrix<1001x1xf64>
  amls.write %sum, "out.csv" csv : !amls.matrix<1001x1xf64>
  return %gram, %max : !amls.matrix<10x10xf64>, !amls.matrix<1x10xf64>
}

// -----

// The gather fallback: a print and a product of two partitioned matrices
// need the whole matrices, which amls.all_gather_rows assembles (dense: a
// CSR block is converted to dense and back).
// CHECK-LABEL: func @gathered
// CHECK: %[[A:.*]] = amls.read "A.mtx" mm {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x1000xf64, sparsity = 0.01, format = csr>
// CHECK: %[[D:.*]] = amls.convert %[[A]] : !amls.matrix<?x1000xf64, sparsity = 0.01, format = csr> -> !amls.matrix<?x1000xf64, sparsity = 0.01, format = dense>
// CHECK: %[[W:.*]] = amls.all_gather_rows %[[D]] : !amls.matrix<?x1000xf64, sparsity = 0.01, format = dense> -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = dense>
// CHECK: %[[C:.*]] = amls.convert %[[W]] : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = dense> -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
// CHECK: amls.print %[[C]]
// EXPLAIN: 'amls.print': all-gather of its row-partitioned operands (not row-local: it prints or writes the whole matrix)
func.func @gathered() {
  %A = amls.read "A.mtx" mm : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  amls.print %A : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  return
}

// -----

// A loop carries a block where its body makes one: the replicated initial
// value enters as its block, and the loop's value is a block throughout.
// CHECK-LABEL: func @carried
// CHECK: %[[INIT:.*]] = amls.fill
// CHECK: %[[BLOCK:.*]] = amls.local_rows %[[INIT]] : !amls.matrix<1001x1xf64> -> !amls.matrix<?x1xf64>
// CHECK: scf.for {{.*}} iter_args(%[[Q:.*]] = %[[BLOCK]]) -> (!amls.matrix<?x1xf64>)
// CHECK: amls.matmul {{.*}} -> !amls.matrix<?x1xf64>
// CHECK: amls.add {{.*}} -> !amls.matrix<?x1xf64>
// CHECK: }
// CHECK: amls.agg sum all
// CHECK: amls.all_reduce sum
func.func @carried(%w: !amls.matrix<10x1xf64>) -> f64 {
  %X = amls.read "X.csv" csv : !amls.matrix<1001x10xf64>
  %zero = arith.constant 0.0 : f64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c1001 = arith.constant 1001 : index
  %init = amls.fill %zero, %c1001, %c1 : f64 -> !amls.matrix<1001x1xf64>
  %q = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %init) -> (!amls.matrix<1001x1xf64>) {
    %Xw = amls.matmul %X, %w : !amls.matrix<1001x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<1001x1xf64>
    %next = amls.add %acc, %Xw : !amls.matrix<1001x1xf64>, !amls.matrix<1001x1xf64> -> !amls.matrix<1001x1xf64>
    scf.yield %next : !amls.matrix<1001x1xf64>
  }
  %s = amls.agg sum all %q : !amls.matrix<1001x1xf64> -> f64
  return %s : f64
}

// -----

// PageRank's products: with G = t(A) and A split by rows, G %*% p sums over
// each rank's rows of A with its block of p; t(p) %*% A (SelectFormats'
// form of the CSR product) takes p's block of columns. Each ends in one
// all-reduce of an n-vector.
// CHECK-LABEL: func @pagerank_products
// CHECK: %[[A:.*]] = amls.read "G.mtx" mm {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x100xf64>
// CHECK: %[[G:.*]] = amls.transpose %[[A]] : !amls.matrix<?x100xf64> -> !amls.matrix<100x?xf64>
// CHECK: %[[PB:.*]] = amls.local_rows %[[P:.*]] : !amls.matrix<100x1xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[GP:.*]] = amls.matmul %[[G]], %[[PB]] : !amls.matrix<100x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<100x1xf64>
// CHECK: amls.all_reduce sum %[[GP]] : !amls.matrix<100x1xf64>
// CHECK: %[[TP:.*]] = amls.transpose %[[U:.*]] : !amls.matrix<1x100xf64> -> !amls.matrix<100x1xf64>
// CHECK: %[[UB:.*]] = amls.local_rows %[[TP]] : !amls.matrix<100x1xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[UC:.*]] = amls.transpose %[[UB]] : !amls.matrix<?x1xf64> -> !amls.matrix<1x?xf64>
// CHECK: %[[UA:.*]] = amls.matmul %[[UC]], %[[A]] : !amls.matrix<1x?xf64>, !amls.matrix<?x100xf64> -> !amls.matrix<1x100xf64>
// CHECK: amls.all_reduce sum %[[UA]] : !amls.matrix<1x100xf64>
func.func @pagerank_products(%p: !amls.matrix<100x1xf64>, %u: !amls.matrix<1x100xf64>)
    -> (!amls.matrix<100x1xf64>, !amls.matrix<1x100xf64>) {
  %A = amls.read "G.mtx" mm : !amls.matrix<100x100xf64>
  %G = amls.transpose %A : !amls.matrix<100x100xf64> -> !amls.matrix<100x100xf64>
  %Gp = amls.matmul %G, %p : !amls.matrix<100x100xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<100x1xf64>
  %uA = amls.matmul %u, %A : !amls.matrix<1x100xf64>, !amls.matrix<100x100xf64> -> !amls.matrix<1x100xf64>
  return %Gp, %uA : !amls.matrix<100x1xf64>, !amls.matrix<1x100xf64>
}

// -----

// Connected components' step: c is a block once the loop carries u, so
// t(c) is gathered (its n values, once per iteration) and broadcast over
// the blocks of G; nothing else moves. cbind of aligned blocks is a block.
// CHECK-LABEL: func @components_step
// CHECK: %[[G:.*]] = amls.read "G.mtx" mm {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x100xf64>
// CHECK: scf.while
// CHECK: %[[C:.*]] = amls.transpose %[[T:.*]] : !amls.matrix<1x?xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[CW:.*]] = amls.all_gather_rows %[[C]] : !amls.matrix<?x1xf64> -> !amls.matrix<100x1xf64>
// CHECK: %[[TC:.*]] = amls.transpose %[[CW]] : !amls.matrix<100x1xf64> -> !amls.matrix<1x100xf64>
// CHECK: amls.mul %[[G]], %[[TC]] {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x100xf64>, !amls.matrix<1x100xf64> -> !amls.matrix<?x100xf64>
// CHECK: amls.cbind {{.*}} {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x2xf64>
func.func @components_step(%n: i64) -> !amls.matrix<100x2xf64> {
  %G = amls.read "G.mtx" mm : !amls.matrix<100x100xf64>
  %one = arith.constant 1.0 : f64
  %c100 = arith.constant 100.0 : f64
  %zero = arith.constant 0.0 : f64
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %seq = amls.seq %one, %c100, %one : f64 -> !amls.matrix<100x1xf64>
  %r:2 = scf.while (%c = %seq, %i = %c0) : (!amls.matrix<100x1xf64>, i64) -> (!amls.matrix<100x1xf64>, i64) {
    %more = arith.cmpi slt, %i, %n : i64
    scf.condition(%more) %c, %i : !amls.matrix<100x1xf64>, i64
  } do {
  ^bb0(%c: !amls.matrix<100x1xf64>, %i: i64):
    %tc = amls.transpose %c : !amls.matrix<100x1xf64> -> !amls.matrix<1x100xf64>
    %gc = amls.mul %G, %tc : !amls.matrix<100x100xf64>, !amls.matrix<1x100xf64> -> !amls.matrix<100x100xf64>
    %rm = amls.agg max row %gc : !amls.matrix<100x100xf64> -> !amls.matrix<100x1xf64>
    %u = amls.max %rm, %c : !amls.matrix<100x1xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<100x1xf64>
    %next = arith.addi %i, %c1 : i64
    scf.yield %u, %next : !amls.matrix<100x1xf64>, i64
  }
  %both = amls.cbind %r#0, %r#0 : !amls.matrix<100x1xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<100x2xf64>
  return %both : !amls.matrix<100x2xf64>
}

// -----

// A sum of squares adds up over the blocks; a mean is the blocks' sum over
// the whole count (1001 rows, 10010 cells).
// CHECK-LABEL: func @moments
// CHECK: %[[SQ:.*]] = amls.agg sumsq all %[[X:.*]] : !amls.matrix<?x10xf64> -> f64
// CHECK: amls.all_reduce sum %[[SQ]] : f64
// CHECK: %[[S:.*]] = amls.agg sum col %[[X]] : !amls.matrix<?x10xf64> -> !amls.matrix<1x10xf64>
// CHECK: %[[T:.*]] = amls.all_reduce sum %[[S]] : !amls.matrix<1x10xf64>
// CHECK: %[[N:.*]] = arith.constant 1001 : index
// CHECK: %[[D:.*]] = arith.uitofp
// CHECK: amls.div %[[T]], %[[D]] : !amls.matrix<1x10xf64>, f64 -> !amls.matrix<1x10xf64>
// CHECK: %[[A:.*]] = amls.agg sum all %[[X]] : !amls.matrix<?x10xf64> -> f64
// CHECK: %[[AT:.*]] = amls.all_reduce sum %[[A]] : f64
// CHECK: arith.muli
// CHECK: arith.divf %[[AT]]
// EXPLAIN: 'amls.agg': a mean: local partial sum per block, then all-reduce sum, divided by the whole count
func.func @moments() -> (f64, !amls.matrix<1x10xf64>, f64) {
  %X = amls.read "X.csv" csv : !amls.matrix<1001x10xf64>
  %sq = amls.agg sumsq all %X : !amls.matrix<1001x10xf64> -> f64
  %mean = amls.agg mean col %X : !amls.matrix<1001x10xf64> -> !amls.matrix<1x10xf64>
  %all = amls.agg mean all %X : !amls.matrix<1001x10xf64> -> f64
  return %sq, %mean, %all : f64, !amls.matrix<1x10xf64>, f64
}

// -----

// A loop reading rows X[i, ] of a block needs the whole X: it is gathered
// once, before the loop, not in every iteration.
// CHECK-LABEL: func @rows_in_a_loop
// CHECK: %[[X:.*]] = amls.read
// CHECK: %[[W:.*]] = amls.all_gather_rows %[[X]] : !amls.matrix<?x10xf64> -> !amls.matrix<1001x10xf64>
// CHECK-NEXT: scf.for
// CHECK: amls.slice %[[W]]
// CHECK-NOT: amls.all_gather_rows
// CHECK: return
func.func @rows_in_a_loop() -> !amls.matrix<1x10xf64> {
  %X = amls.read "X.csv" csv : !amls.matrix<1001x10xf64>
  %zero = arith.constant 0.0 : f64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %init = amls.fill %zero, %c1, %c10 : f64 -> !amls.matrix<1x10xf64>
  %acc = scf.for %i = %c0 to %c10 step %c1 iter_args(%a = %init) -> (!amls.matrix<1x10xf64>) {
    %next = arith.addi %i, %c1 : index
    %row = amls.slice %X[%i : %next, %c0 : %c10] : !amls.matrix<1001x10xf64> -> !amls.matrix<1x10xf64>
    %sum = amls.add %a, %row : !amls.matrix<1x10xf64>, !amls.matrix<1x10xf64> -> !amls.matrix<1x10xf64>
    scf.yield %sum : !amls.matrix<1x10xf64>
  }
  return %acc : !amls.matrix<1x10xf64>
}

// -----

// SystemDS's remote parfor: an independent parfor whose body reads no block
// runs this rank's share of the iterations (by default dealt in turn; a
// static partitioner's contiguous block: @grid_static), and its results
// are merged over the ranks; one whose body communicates runs every
// iteration on every rank, on one worker.
// CHECK-LABEL: func @grid
// CHECK: %[[LO:.*]], %[[HI:.*]], %[[ST:.*]] = amls.local_iterations %[[C0:.*]] to %[[C12:.*]] step %[[C1:.*]] cyclic
// CHECK: %[[R:.*]] = amls.parfor %[[LO]] to %[[HI]] step %[[ST]] shared(%[[INIT:.*]] : !amls.matrix<10x12xf64>)
// CHECK: %[[M:.*]] = amls.merge_ranks %[[R]] over %[[INIT]] : !amls.matrix<10x12xf64>
// CHECK: amls.parfor %[[C0]] to %[[C12]] step %[[C1]]
// CHECK: amls.agg sum all
// CHECK: amls.all_reduce sum
// CHECK: workers = 1 : i64
// CHECK: return %[[M]]
// EXPLAIN: 'amls.parfor': each rank runs its share of the iterations (dealt in turn) on its workers, then the results are merged over the ranks
// EXPLAIN: 'amls.parfor': every iteration on every rank, one worker: its body reads blocks of rows
func.func @grid(%R: !amls.matrix<10x12xf64>, %S: !amls.matrix<1x12xf64>)
    -> (!amls.matrix<10x12xf64>, !amls.matrix<1x12xf64>) {
  %X = amls.read "X.csv" csv : !amls.matrix<1001x10xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %one = arith.constant 1.0 : f64
  %0 = amls.parfor %c0 to %c12 step %c1 shared(%R : !amls.matrix<10x12xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x12xf64>):
    %i1 = arith.addi %i, %c1 : index
    %col = amls.fill %one, %c10, %c1 : f64 -> !amls.matrix<10x1xf64>
    %w = amls.insert_slice %col into %acc[%c0 : %c10, %i : %i1] : !amls.matrix<10x1xf64> into !amls.matrix<10x12xf64> -> !amls.matrix<10x12xf64>
    amls.yield %w : !amls.matrix<10x12xf64>
  } {independent, workers = 2 : i64} -> !amls.matrix<10x12xf64>
  %1 = amls.parfor %c0 to %c12 step %c1 shared(%S : !amls.matrix<1x12xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<1x12xf64>):
    %i1 = arith.addi %i, %c1 : index
    %s = amls.agg sum all %X : !amls.matrix<1001x10xf64> -> f64
    %cell = amls.fill %s, %c1, %c1 : f64 -> !amls.matrix<1x1xf64>
    %w = amls.insert_slice %cell into %acc[%c0 : %c1, %i : %i1] : !amls.matrix<1x1xf64> into !amls.matrix<1x12xf64> -> !amls.matrix<1x12xf64>
    amls.yield %w : !amls.matrix<1x12xf64>
  } {independent, workers = 2 : i64} -> !amls.matrix<1x12xf64>
  return %0, %1 : !amls.matrix<10x12xf64>, !amls.matrix<1x12xf64>
}

// -----

// Blocks flow into DML's functions (private ones) and back: the callee
// runs on each rank's blocks, instead of the call gathering them.
// CHECK-LABEL: func private @scores
// CHECK-SAME: (%{{.*}}: !amls.matrix<?x10xf64>, %{{.*}}: !amls.matrix<10x1xf64>) -> (!amls.matrix<?x1xf64>, f64)
// CHECK: amls.matmul {{.*}} -> !amls.matrix<?x1xf64>
// CHECK: amls.all_reduce sum
// CHECK-LABEL: func @caller
// CHECK: %[[X:.*]] = amls.read
// CHECK: %[[R:.*]]:2 = call @scores(%[[X]], %{{.*}}) {amls.row_partitioned = array<i64: 0>} : (!amls.matrix<?x10xf64>, !amls.matrix<10x1xf64>) -> (!amls.matrix<?x1xf64>, f64)
// CHECK: amls.all_gather_rows %[[R]]#0 : !amls.matrix<?x1xf64> -> !amls.matrix<1001x1xf64>
// EXPLAIN: 'func.call': its function runs on each rank's blocks
func.func private @scores(%X: !amls.matrix<1001x10xf64>, %w: !amls.matrix<10x1xf64>)
    -> (!amls.matrix<1001x1xf64>, f64) {
  %s = amls.matmul %X, %w : !amls.matrix<1001x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<1001x1xf64>
  %t = amls.agg sum all %s : !amls.matrix<1001x1xf64> -> f64
  return %s, %t : !amls.matrix<1001x1xf64>, f64
}
func.func @caller(%w: !amls.matrix<10x1xf64>) -> (!amls.matrix<1001x1xf64>, f64) {
  %X = amls.read "X.csv" csv : !amls.matrix<1001x10xf64>
  %r:2 = call @scores(%X, %w) : (!amls.matrix<1001x10xf64>, !amls.matrix<10x1xf64>) -> (!amls.matrix<1001x1xf64>, f64)
  return %r#0, %r#1 : !amls.matrix<1001x1xf64>, f64
}

// -----

// Parameters the caller passes as each rank's rows (a session's row
// blocks, marked amls.row_partitioned) are blocks whatever their size;
// the mark is read and dropped, and a block returned is gathered.
// CHECK-LABEL: func @blocks_passed
// CHECK-SAME: (%[[X:.*]]: !amls.matrix<?x4xf64>, %[[Y:.*]]: !amls.matrix<?x1xf64>, %{{.*}}: !amls.matrix<4x1xf64>) -> (!amls.matrix<4x1xf64>, !amls.matrix<100x1xf64>, index)
// CHECK: %[[XB:.*]] = amls.matmul %[[X]], %{{.*}} {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[R:.*]] = amls.sub %[[Y]], %[[XB]] {amls.row_partitioned = array<i64: 0>}
// CHECK: amls.all_reduce sum %{{.*}} : !amls.matrix<4x1xf64>
// CHECK: %[[N:.*]] = arith.constant 100 : index
// CHECK: %[[RW:.*]] = amls.all_gather_rows %[[R]] : !amls.matrix<?x1xf64> -> !amls.matrix<100x1xf64>
// CHECK: return %{{.*}}, %[[RW]], %[[N]]
// EXPLAIN: 'func.func': parameter #0: each rank passes its own rows
// EXPLAIN: 'func.func': parameter #1: each rank passes its own rows
// SMALL-LABEL: func @blocks_passed
// SMALL-SAME: !amls.matrix<?x4xf64>
// SMALL: amls.all_reduce
func.func @blocks_passed(%X: !amls.matrix<100x4xf64> {amls.row_partitioned},
                         %y: !amls.matrix<100x1xf64> {amls.row_partitioned},
                         %beta: !amls.matrix<4x1xf64>)
    -> (!amls.matrix<4x1xf64>, !amls.matrix<100x1xf64>, index) {
  %Xb = amls.matmul %X, %beta : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
  %r = amls.sub %y, %Xb : !amls.matrix<100x1xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<100x1xf64>
  %Xt = amls.transpose %X : !amls.matrix<100x4xf64> -> !amls.matrix<4x100xf64>
  %g = amls.matmul %Xt, %r : !amls.matrix<4x100xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<4x1xf64>
  %n = amls.nrow %X : !amls.matrix<100x4xf64>
  return %g, %r, %n : !amls.matrix<4x1xf64>, !amls.matrix<100x1xf64>, index
}

// -----

// A variance over blocks in two passes, as one process computes it: the
// whole mean (all-reduce of the partial sums over the whole count), then
// the partial sums of squared deviations from it, all-reduced, over the
// count - 1; a standard deviation is its square root.
// CHECK-LABEL: func @variances
// CHECK: %[[X:.*]] = amls.read
// CHECK: %[[S:.*]] = amls.agg sum all %[[X]] : !amls.matrix<?x10xf64> -> f64
// CHECK: %[[T:.*]] = amls.all_reduce sum %[[S]] : f64
// CHECK: %[[M:.*]] = arith.divf %[[T]], %[[N:.*]] : f64
// CHECK: %[[D:.*]] = amls.sub %[[X]], %[[M]] {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x10xf64>, f64 -> !amls.matrix<?x10xf64>
// CHECK: %[[Q:.*]] = amls.agg sumsq all %[[D]] : !amls.matrix<?x10xf64> -> f64
// CHECK: %[[QS:.*]] = amls.all_reduce sum %[[Q]] : f64
// CHECK: %[[N1:.*]] = arith.subf %[[N]], %{{.*}} : f64
// CHECK: %[[V:.*]] = arith.divf %[[QS]], %[[N1]] : f64
// CHECK: amls.agg sum col %[[X]] : !amls.matrix<?x10xf64> -> !amls.matrix<1x10xf64>
// CHECK: amls.sub %[[X]], %{{.*}} {amls.row_partitioned = array<i64: 0>} : !amls.matrix<?x10xf64>, !amls.matrix<1x10xf64> -> !amls.matrix<?x10xf64>
// CHECK: amls.agg sumsq col
// CHECK: %[[CV:.*]] = amls.div
// CHECK: %[[CS:.*]] = amls.sqrt %[[CV]] : !amls.matrix<1x10xf64> -> !amls.matrix<1x10xf64>
// CHECK: return %[[V]], %[[CS]]
// EXPLAIN: 'amls.agg': a variance: the whole mean (all-reduce sum), then the local sums of squared deviations from it, all-reduce sum, divided by the whole count - 1
// EXPLAIN: 'amls.agg': a standard deviation (the square root of a variance): the whole mean
func.func @variances() -> (f64, !amls.matrix<1x10xf64>) {
  %X = amls.read "X.csv" csv : !amls.matrix<1001x10xf64>
  %v = amls.agg var all %X : !amls.matrix<1001x10xf64> -> f64
  %s = amls.agg sd col %X : !amls.matrix<1001x10xf64> -> !amls.matrix<1x10xf64>
  return %v, %s : f64, !amls.matrix<1x10xf64>
}

// -----

// CHECK-LABEL: func @grid_static
// CHECK: %[[LO:.*]], %[[HI:.*]], %[[ST:.*]] = amls.local_iterations %{{.*}} to %{{.*}} step %{{.*}}{{$}}
// CHECK: amls.parfor %[[LO]] to %[[HI]] step %[[ST]]
// EXPLAIN: 'amls.parfor': each rank runs its share of the iterations (a contiguous block) on its workers, then the results are merged over the ranks
func.func @grid_static(%R: !amls.matrix<10x12xf64>) -> !amls.matrix<10x12xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c12 = arith.constant 12 : index
  %one = arith.constant 1.0 : f64
  %0 = amls.parfor %c0 to %c12 step %c1 shared(%R : !amls.matrix<10x12xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x12xf64>):
    %i1 = arith.addi %i, %c1 : index
    %col = amls.fill %one, %c10, %c1 : f64 -> !amls.matrix<10x1xf64>
    %w = amls.insert_slice %col into %acc[%c0 : %c10, %i : %i1] : !amls.matrix<10x1xf64> into !amls.matrix<10x12xf64> -> !amls.matrix<10x12xf64>
    amls.yield %w : !amls.matrix<10x12xf64>
  } {independent, partitioner = 1 : i32, workers = 2 : i64} -> !amls.matrix<10x12xf64>
  return %0 : !amls.matrix<10x12xf64>
}

// -----

// A trace over blocks: each block's rows [first, first + m) meet the
// diagonal in the columns of the same numbers; the trace of that square,
// then an all-reduce.
// CHECK-LABEL: func @trace
// CHECK: %[[X:.*]] = amls.read
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[N:.*]] = arith.constant 1000 : index
// CHECK: %[[LO:.*]], %[[HI:.*]], %{{.*}} = amls.local_iterations %[[C0]] to %[[N]] step %[[C1]]{{$}}
// CHECK: %[[M:.*]] = amls.nrow %[[X]]
// CHECK: %[[SQ:.*]] = amls.slice %[[X]][%[[C0]] : %[[M]], %[[LO]] : %[[HI]]] : !amls.matrix<?x1000xf64> -> !amls.matrix<?x?xf64>
// CHECK: %[[T:.*]] = amls.trace %[[SQ]] : !amls.matrix<?x?xf64> -> f64
// CHECK: %[[W:.*]] = amls.all_reduce sum %[[T]] : f64
// CHECK: return %[[W]]
// EXPLAIN: 'amls.trace': a trace: each block's square on the diagonal (its rows, the columns of their numbers), its trace, then all-reduce sum
func.func @trace() -> f64 {
  %X = amls.read "X.csv" csv : !amls.matrix<1000x1000xf64>
  %t = amls.trace %X : !amls.matrix<1000x1000xf64> -> f64
  return %t : f64
}
