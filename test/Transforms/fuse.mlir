// RUN: amls-opt %s -split-input-file -amls-fuse | FileCheck %s
// RUN: amls-opt %s -split-input-file -amls-fuse=fuse-all | FileCheck %s --check-prefix=ALL
// RUN: amls-opt %s -split-input-file -amls-fuse=fuse-no-redundancy | FileCheck %s --check-prefix=FNR
// RUN: amls-opt %s -split-input-file -amls-fuse-explain 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: not amls-opt %s -split-input-file -amls-fuse="fuse-all fuse-no-redundancy" 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: amls-opt %s -split-input-file -amls-fuse="explain cache-bandwidth=10e9" 2>&1 >/dev/null | FileCheck %s --check-prefix=NOCACHE
// RUN: amls-opt %s -split-input-file -amls-fuse="explain scalar-flops=1e12" 2>&1 >/dev/null | FileCheck %s --check-prefix=FASTSCALAR

// sum(X*Y*Z): one cell operator closed by the sum, reading each input once.
// CHECK-LABEL: func @sum_xyz
// CHECK: %[[S:.*]] = amls.fused cell aggregate [sum] all ins(%arg0, %arg1, %arg2)
// CHECK: ^bb0(%[[X:.*]]: f64, %[[Y:.*]]: f64, %[[Z:.*]]: f64):
// CHECK: %[[XY:.*]] = arith.mulf %[[X]], %[[Y]]
// CHECK: %[[XYZ:.*]] = arith.mulf %[[XY]], %[[Z]]
// CHECK: amls.yield %[[XYZ]]
// CHECK-NOT: amls.mul
// CHECK: return %[[S]]
// EXPLAIN: memo table:
// EXPLAIN: amls.mul: cell [2000x2000]
// EXPLAIN: amls.agg: cell closed by a full aggregate, magg [2000x2000] fuses
// EXPLAIN: interesting points: none
// EXPLAIN: operator: cell computing {{.*}} amls.agg from
// BOTH: amls-fuse: choose one of fuse-all and fuse-no-redundancy
func.func @sum_xyz(%X: !amls.matrix<2000x2000xf64>, %Y: !amls.matrix<2000x2000xf64>, %Z: !amls.matrix<2000x2000xf64>) -> f64 {
  %0 = amls.mul %X, %Y : !amls.matrix<2000x2000xf64>, !amls.matrix<2000x2000xf64> -> !amls.matrix<2000x2000xf64>
  %1 = amls.mul %0, %Z : !amls.matrix<2000x2000xf64>, !amls.matrix<2000x2000xf64> -> !amls.matrix<2000x2000xf64>
  %2 = amls.agg sum all %1 : !amls.matrix<2000x2000xf64> -> f64
  return %2 : f64
}

// -----

// The seed's example C = A + s*B; D = (C/2)^(C-1); E = exp(C-1), large:
// memory bound, so recomputing C in both consumers beats writing and
// reading it (fuse-all's plan, 0000). Fuse-no-redundancy materializes C and
// C-1.
// CHECK-LABEL: func @seed_example_large
// CHECK-COUNT-2: amls.fused cell ins(%arg1, %arg2, %arg0, %{{.*}})
// CHECK-NOT: amls.fused
// CHECK: return
// ALL-LABEL: func @seed_example_large
// ALL-COUNT-2: amls.fused cell
// ALL-NOT: amls.fused
// ALL: return
// FNR-LABEL: func @seed_example_large
// FNR: %[[C:.*]] = amls.fused cell ins(%arg1, %arg2, %arg0)
// FNR: %[[CM1:.*]] = amls.sub %[[C]]
// FNR: amls.fused cell ins(%[[C]], %{{.*}}, %[[CM1]])
// FNR: amls.exp %[[CM1]]
// EXPLAIN: interesting points: {{.*}}amls.add->{{.*}}amls.div {{.*}}amls.add->{{.*}}amls.sub {{.*}}amls.sub->{{.*}}amls.pow {{.*}}amls.sub->{{.*}}amls.exp
// EXPLAIN: 0000 cost
// EXPLAIN: 1111 cost
// EXPLAIN: chosen 0000
func.func @seed_example_large(%A: !amls.matrix<2000x2000xf64>, %B: !amls.matrix<2000x2000xf64>, %s: f64) -> (!amls.matrix<2000x2000xf64>, !amls.matrix<2000x2000xf64>) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %sB = amls.mul %B, %s : !amls.matrix<2000x2000xf64>, f64 -> !amls.matrix<2000x2000xf64>
  %C = amls.add %A, %sB : !amls.matrix<2000x2000xf64>, !amls.matrix<2000x2000xf64> -> !amls.matrix<2000x2000xf64>
  %C2 = amls.div %C, %two : !amls.matrix<2000x2000xf64>, f64 -> !amls.matrix<2000x2000xf64>
  %C1 = amls.sub %C, %one : !amls.matrix<2000x2000xf64>, f64 -> !amls.matrix<2000x2000xf64>
  %D = amls.pow %C2, %C1 : !amls.matrix<2000x2000xf64>, !amls.matrix<2000x2000xf64> -> !amls.matrix<2000x2000xf64>
  %E = amls.exp %C1 : !amls.matrix<2000x2000xf64> -> !amls.matrix<2000x2000xf64>
  return %D, %E : !amls.matrix<2000x2000xf64>, !amls.matrix<2000x2000xf64>
}

// -----

// The same program on 100x100 matrices: C fits in the cache between its
// producer and consumers while A and B come from memory, so the cost model
// materializes C (and lets both consumers recompute C-1).
// CHECK-LABEL: func @seed_example_small
// CHECK: %[[C:.*]] = amls.fused cell ins(%arg1, %arg2, %arg0)
// CHECK: amls.fused cell ins(%[[C]], %{{.*}}, %{{.*}})
// CHECK: math.powf
// CHECK: amls.fused cell ins(%[[C]], %{{.*}})
// CHECK: math.exp
// EXPLAIN: chosen 1100
// Without a faster cache (cache-bandwidth equal to the memory's), keeping C
// saves nothing and fuse-all wins at this size too.
// NOCACHE: amls-fuse: block in 'func.func' at {{.*}}fuse.mlir
// NOCACHE: amls-fuse: block in 'func.func' at {{.*}}fuse.mlir
// NOCACHE: chosen 0000
// NOCACHE: amls-fuse: block in 'func.func' at {{.*}}fuse.mlir
// NOCACHE: chosen 0000
func.func @seed_example_small(%A: !amls.matrix<100x100xf64>, %B: !amls.matrix<100x100xf64>, %s: f64) -> (!amls.matrix<100x100xf64>, !amls.matrix<100x100xf64>) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %sB = amls.mul %B, %s : !amls.matrix<100x100xf64>, f64 -> !amls.matrix<100x100xf64>
  %C = amls.add %A, %sB : !amls.matrix<100x100xf64>, !amls.matrix<100x100xf64> -> !amls.matrix<100x100xf64>
  %C2 = amls.div %C, %two : !amls.matrix<100x100xf64>, f64 -> !amls.matrix<100x100xf64>
  %C1 = amls.sub %C, %one : !amls.matrix<100x100xf64>, f64 -> !amls.matrix<100x100xf64>
  %D = amls.pow %C2, %C1 : !amls.matrix<100x100xf64>, !amls.matrix<100x100xf64> -> !amls.matrix<100x100xf64>
  %E = amls.exp %C1 : !amls.matrix<100x100xf64> -> !amls.matrix<100x100xf64>
  return %D, %E : !amls.matrix<100x100xf64>, !amls.matrix<100x100xf64>
}

// -----

// L2SVM's line search (seed 000): both sums become one multi-aggregate pass
// over Xw, Xd and Y; no vector intermediate is materialized.
// CHECK-LABEL: func @l2svm_line_search
// CHECK: %[[GH:.*]]:2 = amls.fused magg aggregate [sum, sum] all ins(
// CHECK-NOT: amls.mul
// CHECK-NOT: amls.gt
// CHECK: return %[[GH]]#0, %[[GH]]#1
func.func @l2svm_line_search(%Xw: !amls.matrix<100000x1xf64>, %Xd: !amls.matrix<100000x1xf64>, %Y: !amls.matrix<100000x1xf64>, %step: f64) -> (f64, f64) {
  %one = arith.constant 1.0 : f64
  %zero = arith.constant 0.0 : f64
  %sXd = amls.mul %Xd, %step : !amls.matrix<100000x1xf64>, f64 -> !amls.matrix<100000x1xf64>
  %tmp = amls.add %Xw, %sXd : !amls.matrix<100000x1xf64>, !amls.matrix<100000x1xf64> -> !amls.matrix<100000x1xf64>
  %ytmp = amls.mul %Y, %tmp : !amls.matrix<100000x1xf64>, !amls.matrix<100000x1xf64> -> !amls.matrix<100000x1xf64>
  %out0 = amls.sub %one, %ytmp : f64, !amls.matrix<100000x1xf64> -> !amls.matrix<100000x1xf64>
  %sv = amls.gt %out0, %zero : !amls.matrix<100000x1xf64>, f64 -> !amls.matrix<100000x1xf64>
  %out = amls.mul %out0, %sv : !amls.matrix<100000x1xf64>, !amls.matrix<100000x1xf64> -> !amls.matrix<100000x1xf64>
  %a = amls.mul %out, %Y : !amls.matrix<100000x1xf64>, !amls.matrix<100000x1xf64> -> !amls.matrix<100000x1xf64>
  %b = amls.mul %a, %Xd : !amls.matrix<100000x1xf64>, !amls.matrix<100000x1xf64> -> !amls.matrix<100000x1xf64>
  %g = amls.agg sum all %b : !amls.matrix<100000x1xf64> -> f64
  %c = amls.mul %Xd, %sv : !amls.matrix<100000x1xf64>, !amls.matrix<100000x1xf64> -> !amls.matrix<100000x1xf64>
  %d = amls.mul %c, %Xd : !amls.matrix<100000x1xf64>, !amls.matrix<100000x1xf64> -> !amls.matrix<100000x1xf64>
  %h = amls.agg sum all %d : !amls.matrix<100000x1xf64> -> f64
  return %g, %h : f64, f64
}

// -----

// Not fused: unknown sizes (a ?x? operand may be a vector to broadcast at
// run time), a product between element-wise ops, a single op.
// CHECK-LABEL: func @not_fused
// CHECK-NOT: amls.fused
// CHECK: return
func.func @not_fused(%X: !amls.matrix<?x?xf64>, %A: !amls.matrix<10x10xf64>) -> (f64, f64, !amls.matrix<10x10xf64>) {
  %0 = amls.mul %X, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.agg sum all %0 : !amls.matrix<?x?xf64> -> f64
  %2 = amls.exp %A : !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
  %3 = amls.matmul %2, %A : !amls.matrix<10x10xf64>, !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
  %4 = amls.agg sum all %3 : !amls.matrix<10x10xf64> -> f64
  %5 = amls.abs %A : !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
  return %1, %4, %5 : f64, f64, !amls.matrix<10x10xf64>
}

// -----

// Row template (seed 000's MLogreg inner loop): Q = P[,1:5] * (X %*% V);
// H = t(X) %*% (Q - P[,1:5] * rowSums(Q)) reads X once, a block of rows at a
// time: X and P are row inputs, V a side input, the body computes blocks of
// rows and yields the block's partial t(Xb) %*% Rb, summed over the blocks.
// CHECK-LABEL: func @mlogreg_hessian
// CHECK: %[[H:.*]] = amls.fused row aggregate [sum] row_inputs 2 ins(%arg0, %arg1, %arg2) : (!amls.matrix<20000x100xf64>, !amls.matrix<20000x6xf64>, !amls.matrix<100x5xf64>) -> !amls.matrix<100x5xf64>
// CHECK: ^bb0(%[[X:.*]]: !amls.matrix<?x100xf64>, %[[P:.*]]: !amls.matrix<?x6xf64>, %[[V:.*]]: !amls.matrix<100x5xf64>):
// CHECK: %[[XT:.*]] = amls.transpose %[[X]] : !amls.matrix<?x100xf64> -> !amls.matrix<100x?xf64>
// CHECK: %[[N:.*]] = amls.nrow %[[P]]
// CHECK: %[[PK:.*]] = amls.slice %[[P]][%{{.*}} : %[[N]], %{{.*}}] : !amls.matrix<?x6xf64> -> !amls.matrix<?x5xf64>
// CHECK: %[[XV:.*]] = amls.matmul %[[X]], %[[V]] : !amls.matrix<?x100xf64>, !amls.matrix<100x5xf64> -> !amls.matrix<?x5xf64>
// CHECK: %[[Q:.*]] = amls.mul %[[PK]], %[[XV]]
// CHECK: %[[RS:.*]] = amls.agg sum row %[[Q]] : !amls.matrix<?x5xf64> -> !amls.matrix<?x1xf64>
// CHECK: %[[T:.*]] = amls.mul %[[PK]], %[[RS]]
// CHECK: %[[R:.*]] = amls.sub %[[Q]], %[[T]]
// CHECK: %[[HB:.*]] = amls.matmul %[[XT]], %[[R]] : !amls.matrix<100x?xf64>, !amls.matrix<?x5xf64> -> !amls.matrix<100x5xf64>
// CHECK: amls.yield %[[HB]] : !amls.matrix<100x5xf64>
// CHECK-NOT: amls.matmul
// CHECK-NOT: amls.transpose
// CHECK: return %[[H]]
// ALL-LABEL: func @mlogreg_hessian
// ALL: amls.fused row aggregate [sum] row_inputs 2
// FNR-LABEL: func @mlogreg_hessian
// FNR: amls.fused row aggregate [sum] row_inputs 2
// EXPLAIN: row template closing at amls.matmul {{.*}}: main input !amls.matrix<20000x100xf64>, 1 row inputs, 1 side inputs, 7 ops
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
// EXPLAIN: amls-fuse: 0 matrix results materialized
func.func @mlogreg_hessian(%X: !amls.matrix<20000x100xf64>, %P: !amls.matrix<20000x6xf64>, %V: !amls.matrix<100x5xf64>) -> !amls.matrix<100x5xf64> {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %c20000 = arith.constant 20000 : index
  %Pk = amls.slice %P[%c0 : %c20000, %c0 : %c5] : !amls.matrix<20000x6xf64> -> !amls.matrix<20000x5xf64>
  %XV = amls.matmul %X, %V : !amls.matrix<20000x100xf64>, !amls.matrix<100x5xf64> -> !amls.matrix<20000x5xf64>
  %Q = amls.mul %Pk, %XV : !amls.matrix<20000x5xf64>, !amls.matrix<20000x5xf64> -> !amls.matrix<20000x5xf64>
  %rs = amls.agg sum row %Q : !amls.matrix<20000x5xf64> -> !amls.matrix<20000x1xf64>
  %t = amls.mul %Pk, %rs : !amls.matrix<20000x5xf64>, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x5xf64>
  %R = amls.sub %Q, %t : !amls.matrix<20000x5xf64>, !amls.matrix<20000x5xf64> -> !amls.matrix<20000x5xf64>
  %Xt = amls.transpose %X : !amls.matrix<20000x100xf64> -> !amls.matrix<100x20000xf64>
  %H = amls.matmul %Xt, %R : !amls.matrix<100x20000xf64>, !amls.matrix<20000x5xf64> -> !amls.matrix<100x5xf64>
  return %H : !amls.matrix<100x5xf64>
}

// -----

// The same with the number of classes unknown at compile time (MLogreg's
// comes from the data); a value used after the product (Q) is computed
// outside and read as a row input; t(X) was hoisted out of the loop.
// CHECK-LABEL: func @row_template_in_loop
// CHECK-NOT: amls.transpose
// CHECK: scf.for
// CHECK: %[[XV:.*]] = amls.matmul %arg0
// CHECK: %[[Q:.*]] = amls.mul %arg1, %[[XV]]
// CHECK: %[[H:.*]] = amls.fused row aggregate [sum] row_inputs 3 ins(%arg0, %[[Q]], %arg1) : (!amls.matrix<20000x100xf64>, !amls.matrix<20000x?xf64>, !amls.matrix<20000x?xf64>) -> !amls.matrix<100x?xf64>
// CHECK: amls.transpose
// CHECK: amls.agg sum row
// CHECK: amls.yield %{{.*}} : !amls.matrix<100x?xf64>
// CHECK: scf.yield %[[H]], %[[Q]]
// EXPLAIN: row template closing at amls.matmul {{.*}}: main input !amls.matrix<20000x100xf64>, 2 row inputs, 0 side inputs, 4 ops
func.func @row_template_in_loop(%X: !amls.matrix<20000x100xf64>, %Pk: !amls.matrix<20000x?xf64>, %V: !amls.matrix<100x?xf64>, %n: index) -> (!amls.matrix<100x?xf64>, !amls.matrix<20000x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %Xt = amls.transpose %X : !amls.matrix<20000x100xf64> -> !amls.matrix<100x20000xf64>
  %XV0 = amls.matmul %X, %V : !amls.matrix<20000x100xf64>, !amls.matrix<100x?xf64> -> !amls.matrix<20000x?xf64>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %V, %Qacc = %XV0) -> (!amls.matrix<100x?xf64>, !amls.matrix<20000x?xf64>) {
    %XV = amls.matmul %X, %acc : !amls.matrix<20000x100xf64>, !amls.matrix<100x?xf64> -> !amls.matrix<20000x?xf64>
    %Q = amls.mul %Pk, %XV : !amls.matrix<20000x?xf64>, !amls.matrix<20000x?xf64> -> !amls.matrix<20000x?xf64>
    %rs = amls.agg sum row %Q : !amls.matrix<20000x?xf64> -> !amls.matrix<20000x1xf64>
    %t = amls.mul %Pk, %rs : !amls.matrix<20000x?xf64>, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x?xf64>
    %R = amls.sub %Q, %t : !amls.matrix<20000x?xf64>, !amls.matrix<20000x?xf64> -> !amls.matrix<20000x?xf64>
    %H = amls.matmul %Xt, %R : !amls.matrix<100x20000xf64>, !amls.matrix<20000x?xf64> -> !amls.matrix<100x?xf64>
    scf.yield %H, %Q : !amls.matrix<100x?xf64>, !amls.matrix<20000x?xf64>
  }
  return %r#0, %r#1 : !amls.matrix<100x?xf64>, !amls.matrix<20000x?xf64>
}

// -----

// A side input larger than the cache violates the row template's
// constraint (infinite cost): nothing is fused into a row operator.
// CHECK-LABEL: func @row_template_side_input_too_large
// CHECK-NOT: amls.fused row
// CHECK: amls.matmul %arg0, %arg2
// CHECK: amls.matmul
// EXPLAIN: row template closing at amls.matmul {{.*}}, 1 row inputs, 1 side inputs, 5 ops
// EXPLAIN-NEXT: cost fused infinite (side inputs exceed the cache), unfused {{.*}} us: not fused
func.func @row_template_side_input_too_large(%X: !amls.matrix<20000x100xf64>, %P: !amls.matrix<20000x2000xf64>, %V: !amls.matrix<100x2000xf64>) -> !amls.matrix<100x2000xf64> {
  %XV = amls.matmul %X, %V : !amls.matrix<20000x100xf64>, !amls.matrix<100x2000xf64> -> !amls.matrix<20000x2000xf64>
  %Q = amls.mul %P, %XV : !amls.matrix<20000x2000xf64>, !amls.matrix<20000x2000xf64> -> !amls.matrix<20000x2000xf64>
  %rs = amls.agg sum row %Q : !amls.matrix<20000x2000xf64> -> !amls.matrix<20000x1xf64>
  %R = amls.sub %Q, %rs : !amls.matrix<20000x2000xf64>, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x2000xf64>
  %Xt = amls.transpose %X : !amls.matrix<20000x100xf64> -> !amls.matrix<100x20000xf64>
  %H = amls.matmul %Xt, %R : !amls.matrix<100x20000xf64>, !amls.matrix<20000x2000xf64> -> !amls.matrix<100x2000xf64>
  return %H : !amls.matrix<100x2000xf64>
}

// -----

// Outer template (seed 000): sum(X * log(U %*% t(V) + eps)) with a sparse X
// is one outer operator computing the product's cells only where X is
// non-zero; neither the 2000x2000 product nor the chain is materialized.
// CHECK-LABEL: func @outer_log_sum
// CHECK-NOT: amls.matmul
// CHECK: %[[S:.*]] = amls.fused outer aggregate [sum] all ins(%arg0, %arg1, %arg2, %{{.*}}) : (!amls.matrix<2000x2000xf64, sparsity = 0.01>, !amls.matrix<2000x20xf64>, !amls.matrix<2000x20xf64>, f64) -> f64
// CHECK: ^bb0(%[[X:.*]]: f64, %[[UV:.*]]: f64, %[[EPS:.*]]: f64):
// CHECK: %[[A:.*]] = arith.addf %[[UV]], %[[EPS]]
// CHECK: %[[L:.*]] = math.log %[[A]]
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[L]]
// CHECK: amls.yield %[[P]] : f64
// CHECK-NOT: amls.transpose
// CHECK: return %[[S]]
// ALL-LABEL: func @outer_log_sum
// ALL: amls.fused outer aggregate [sum] all
// EXPLAIN: outer template at amls.matmul {{.*}}: main input !amls.matrix<2000x2000xf64, sparsity = 0.01>, 3 element-wise ops, closed by a sum
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
func.func @outer_log_sum(%X: !amls.matrix<2000x2000xf64, sparsity = 0.01>, %U: !amls.matrix<2000x20xf64>, %V: !amls.matrix<2000x20xf64>) -> f64 {
  %eps = arith.constant 1.0e-15 : f64
  %Vt = amls.transpose %V : !amls.matrix<2000x20xf64> -> !amls.matrix<20x2000xf64>
  %UV = amls.matmul %U, %Vt : !amls.matrix<2000x20xf64>, !amls.matrix<20x2000xf64> -> !amls.matrix<2000x2000xf64>
  %A = amls.add %UV, %eps : !amls.matrix<2000x2000xf64>, f64 -> !amls.matrix<2000x2000xf64>
  %L = amls.log %A : !amls.matrix<2000x2000xf64> -> !amls.matrix<2000x2000xf64>
  %P = amls.mul %X, %L : !amls.matrix<2000x2000xf64, sparsity = 0.01>, !amls.matrix<2000x2000xf64> -> !amls.matrix<2000x2000xf64, sparsity = 0.01>
  %s = amls.agg sum all %P : !amls.matrix<2000x2000xf64, sparsity = 0.01> -> f64
  return %s : f64
}

// -----

// X * (U %*% t(V)) with a sparse X: an outer operator with a matrix result
// (zero where X is zero).
// CHECK-LABEL: func @outer_product_masked
// CHECK: %[[M:.*]] = amls.fused outer ins(%arg1, %arg0, %arg2) : (!amls.matrix<1000x800xf64, sparsity = 0.05>, !amls.matrix<1000x10xf64>, !amls.matrix<800x10xf64>) -> !amls.matrix<1000x800xf64, sparsity = 0.05>
// CHECK: ^bb0(%[[X:.*]]: f64, %[[UV:.*]]: f64):
// CHECK: %[[P:.*]] = arith.mulf %[[UV]], %[[X]]
// CHECK: amls.yield %[[P]]
// CHECK: return %[[M]]
func.func @outer_product_masked(%U: !amls.matrix<1000x10xf64>, %X: !amls.matrix<1000x800xf64, sparsity = 0.05>, %V: !amls.matrix<800x10xf64>) -> !amls.matrix<1000x800xf64, sparsity = 0.05> {
  %Vt = amls.transpose %V : !amls.matrix<800x10xf64> -> !amls.matrix<10x800xf64>
  %UV = amls.matmul %U, %Vt : !amls.matrix<1000x10xf64>, !amls.matrix<10x800xf64> -> !amls.matrix<1000x800xf64>
  %P = amls.mul %UV, %X : !amls.matrix<1000x800xf64>, !amls.matrix<1000x800xf64, sparsity = 0.05> -> !amls.matrix<1000x800xf64, sparsity = 0.05>
  return %P : !amls.matrix<1000x800xf64, sparsity = 0.05>
}

// -----

// The other side of the trade-off: with a dense X every cell needs its dot
// product in scalar code, which costs more than BLAS's product and one
// pass per op; the cost-based plan keeps the product (the cell planner
// fuses the chain), fuse-all takes the outer operator.
// CHECK-LABEL: func @outer_dense_not_fused
// CHECK: amls.matmul
// CHECK-NOT: amls.fused outer
// CHECK: amls.fused cell aggregate [sum] all
// ALL-LABEL: func @outer_dense_not_fused
// ALL: amls.fused outer aggregate [sum] all
// EXPLAIN: outer template at amls.matmul {{.*}}: main input !amls.matrix<2000x2000xf64, sparsity = 1.0>, 3 element-wise ops, closed by a sum
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: not fused
// With scalar code as fast as 1e12 flop/s, the same candidate is fused.
// FASTSCALAR: outer template at amls.matmul {{.*}}: main input !amls.matrix<2000x2000xf64, sparsity = 1.0>, 3 element-wise ops, closed by a sum
// FASTSCALAR-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
func.func @outer_dense_not_fused(%X: !amls.matrix<2000x2000xf64, sparsity = 1.0>, %U: !amls.matrix<2000x20xf64>, %V: !amls.matrix<2000x20xf64>) -> f64 {
  %eps = arith.constant 1.0e-15 : f64
  %Vt = amls.transpose %V : !amls.matrix<2000x20xf64> -> !amls.matrix<20x2000xf64>
  %UV = amls.matmul %U, %Vt : !amls.matrix<2000x20xf64>, !amls.matrix<20x2000xf64> -> !amls.matrix<2000x2000xf64>
  %A = amls.add %UV, %eps : !amls.matrix<2000x2000xf64>, f64 -> !amls.matrix<2000x2000xf64>
  %L = amls.log %A : !amls.matrix<2000x2000xf64> -> !amls.matrix<2000x2000xf64>
  %P = amls.mul %X, %L : !amls.matrix<2000x2000xf64, sparsity = 1.0>, !amls.matrix<2000x2000xf64> -> !amls.matrix<2000x2000xf64>
  %s = amls.agg sum all %P : !amls.matrix<2000x2000xf64> -> f64
  return %s : f64
}

// -----

// Not an outer candidate: the product has a second user (it would have to
// be materialized anyway), and a chain that is not zero where X is
// (X + g).
// CHECK-LABEL: func @outer_not_candidates
// CHECK-NOT: amls.fused outer
// EXPLAIN-NOT: outer template
func.func @outer_not_candidates(%X: !amls.matrix<300x200xf64, sparsity = 0.01>, %U: !amls.matrix<300x5xf64>, %V: !amls.matrix<200x5xf64>) -> (!amls.matrix<300x200xf64>, !amls.matrix<300x200xf64>, !amls.matrix<300x200xf64>) {
  %Vt = amls.transpose %V : !amls.matrix<200x5xf64> -> !amls.matrix<5x200xf64>
  %UV = amls.matmul %U, %Vt : !amls.matrix<300x5xf64>, !amls.matrix<5x200xf64> -> !amls.matrix<300x200xf64>
  %P = amls.mul %X, %UV : !amls.matrix<300x200xf64, sparsity = 0.01>, !amls.matrix<300x200xf64> -> !amls.matrix<300x200xf64>
  %UV2 = amls.matmul %U, %Vt : !amls.matrix<300x5xf64>, !amls.matrix<5x200xf64> -> !amls.matrix<300x200xf64>
  %S = amls.add %X, %UV2 : !amls.matrix<300x200xf64, sparsity = 0.01>, !amls.matrix<300x200xf64> -> !amls.matrix<300x200xf64>
  return %P, %UV, %S : !amls.matrix<300x200xf64>, !amls.matrix<300x200xf64>, !amls.matrix<300x200xf64>
}

// -----

// Structural pruning (seed 000's cut sets): C feeds two chains that each
// have a value with two consumers. Once both references out of C are cut,
// the other four points form two independent sub-problems, each optimized
// alone (4 + 4 plans instead of 16 in that branch); the choice is the same
// as without the cut set.
// CHECK-LABEL: func @cut_set
// CHECK: amls.fused cell ins
// EXPLAIN: partition 0: %2 amls.add %4 amls.mul %5 amls.exp %6 amls.log %8 amls.mul %9 amls.exp %10 amls.sqrt
// EXPLAIN: 110000 cost
// EXPLAIN-NEXT: 110100 cost
// EXPLAIN-NEXT: 111000 cost
// EXPLAIN-NEXT: 111100 cost
// EXPLAIN-NEXT: 110000 cost
// EXPLAIN-NEXT: 110001 cost
// EXPLAIN-NEXT: 110010 cost
// EXPLAIN-NEXT: 110011 cost
// EXPLAIN-NEXT: chosen 110000
// EXPLAIN-NEXT: structural pruning: cut set %2 amls.add->%4 amls.mul %2 amls.add->%8 amls.mul (cut, the other points form 2 independent sub-problems)
func.func @cut_set(%A: !amls.matrix<1000x1000xf64>) -> (!amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %three = arith.constant 3.0 : f64
  %C = amls.add %A, %one : !amls.matrix<1000x1000xf64>, f64 -> !amls.matrix<1000x1000xf64>
  %D1 = amls.mul %C, %two : !amls.matrix<1000x1000xf64>, f64 -> !amls.matrix<1000x1000xf64>
  %E1 = amls.exp %D1 : !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64>
  %F1 = amls.log %D1 : !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64>
  %D2 = amls.mul %C, %three : !amls.matrix<1000x1000xf64>, f64 -> !amls.matrix<1000x1000xf64>
  %E2 = amls.exp %D2 : !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64>
  %F2 = amls.sqrt %D2 : !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64>
  return %C, %E1, %F1, %E2, %F2 : !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1000xf64>
}

// -----

// Chains that keep a CSR matrix's pattern fuse over its stored values:
// sum(X * Y) and sum(X ^ 2) share one magg operator, rowSums(abs(X) * 2) and
// the element-wise (X * v) * 3 are cell operators (the latter CSR). The
// single rowMaxs(X * u) is left to the max-times kernel, and exp(X) (not
// zero where X is) stays a dense op.
// CHECK-LABEL: func @sparse_cells
// CHECK: %[[S:.*]]:2 = amls.fused magg aggregate [sum, sum] all ins(%arg0, %arg1, %{{.*}}) : {{.*}} -> (f64, f64)
// CHECK: ^bb0(%[[X0:.*]]: f64, %[[Y:.*]]: f64, %[[C:.*]]: f64):
// CHECK: %[[XY:.*]] = arith.mulf %[[X0]], %[[Y]]
// CHECK: %[[X2:.*]] = math.powf %[[X0]], %[[C]]
// CHECK: amls.yield %[[XY]], %[[X2]]
// CHECK: %[[R:.*]] = amls.fused cell aggregate [sum] row ins(%arg0, %{{.*}}) : {{.*}} -> !amls.matrix<1000x1xf64>
// CHECK: ^bb0(%[[A:.*]]: f64, %[[TWO:.*]]: f64):
// CHECK: %[[ABS:.*]] = math.absf %[[A]]
// CHECK: arith.mulf %[[ABS]], %[[TWO]]
// CHECK: %[[E:.*]] = amls.fused cell ins(%arg0, %arg2, %{{.*}}) : (!amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, !amls.matrix<1x1000xf64>, f64) -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
// CHECK: amls.mul %arg0, %arg3
// CHECK: amls.agg max row
// CHECK: amls.exp
// CHECK-NOT: amls.fused
// CHECK: return %[[S]]#0, %[[S]]#1, %[[R]], %[[E]]
// EXPLAIN: sparse cell template at amls.agg {{.*}}: main input !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, 3 ops in 1 chain
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
// EXPLAIN: sparse cell template at amls.mul {{.*}} 2 ops in 1 chain
// EXPLAIN: sparse cell template at amls.agg {{.*}} 4 ops in 2 chains
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
func.func @sparse_cells(%X: !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, %Y: !amls.matrix<1000x1000xf64>, %v: !amls.matrix<1x1000xf64>, %u: !amls.matrix<1x1000xf64>) -> (f64, f64, !amls.matrix<1000x1xf64>, !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, !amls.matrix<1000x1xf64>, !amls.matrix<1000x1000xf64>) {
  %c2 = arith.constant 2.0 : f64
  %c3 = arith.constant 3.0 : f64
  %p = amls.mul %X, %Y : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  %s = amls.agg sum all %p : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr> -> f64
  %q = amls.pow %X, %c2 : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, f64 -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  %t = amls.agg sum all %q : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr> -> f64
  %a = amls.abs %X : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr> -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  %b = amls.mul %a, %c2 : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, f64 -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  %r = amls.agg sum row %b : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr> -> !amls.matrix<1000x1xf64>
  %m = amls.mul %X, %v : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, !amls.matrix<1x1000xf64> -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  %e = amls.mul %m, %c3 : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, f64 -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  %g = amls.mul %X, %u : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, !amls.matrix<1x1000xf64> -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  %gm = amls.agg max row %g : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr> -> !amls.matrix<1000x1xf64>
  %x = amls.convert %X : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr> -> !amls.matrix<1000x1000xf64, sparsity = 0.01>
  %ex = amls.exp %x : !amls.matrix<1000x1000xf64, sparsity = 0.01> -> !amls.matrix<1000x1000xf64>
  return %s, %t, %r, %e, %gm, %ex : f64, f64, !amls.matrix<1000x1xf64>, !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, !amls.matrix<1000x1xf64>, !amls.matrix<1000x1000xf64>
}

// -----

// MLogreg's sum(Y * LT) with the label matrix Y CSR and its column count
// known only at run time: the chain keeps Y's pattern (the lowering checks
// the sizes), so it is one cell operator over Y's stored values.
// CHECK-LABEL: func @sparse_cells_dynamic
// CHECK: amls.fused cell aggregate [sum] all ins(%arg0, %arg1) : (!amls.matrix<20000x?xf64, format = csr>, !amls.matrix<20000x?xf64>) -> f64
// CHECK-NOT: amls.mul
// EXPLAIN: sparse cell template at amls.agg {{.*}}: main input !amls.matrix<20000x?xf64, format = csr>, 2 ops in 1 chain
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
func.func @sparse_cells_dynamic(%Y: !amls.matrix<20000x?xf64, format = csr>, %LT: !amls.matrix<20000x?xf64>) -> f64 {
  %p = amls.mul %Y, %LT : !amls.matrix<20000x?xf64, format = csr>, !amls.matrix<20000x?xf64> -> !amls.matrix<20000x?xf64, format = csr>
  %s = amls.agg sum all %p : !amls.matrix<20000x?xf64, format = csr> -> f64
  return %s : f64
}

// -----

// Row template over a CSR X: L2SVM's gradient t(X) %*% ((1 - y * (X %*% w)) * y),
// which --amls-select-formats wrote as t(t(R) %*% X), is one row operator
// whose body reads X's block, y (a row input), w and the constant 1.
// CHECK-LABEL: func @csr_row_l2svm
// CHECK: %[[G:.*]] = amls.fused row aggregate [sum] row_inputs 2 ins(%arg0, %arg1, %{{.*}}, %arg2) : (!amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<20000x1xf64>, f64, !amls.matrix<100x1xf64>) -> !amls.matrix<100x1xf64>
// CHECK: ^bb0(%[[X:.*]]: !amls.matrix<?x100xf64, sparsity = 0.01, format = csr>, %[[Y:.*]]: !amls.matrix<?x1xf64>, %[[ONE:.*]]: f64, %[[W:.*]]: !amls.matrix<100x1xf64>):
// CHECK: %[[XT:.*]] = amls.transpose %[[X]]
// CHECK: %[[XW:.*]] = amls.matmul %[[X]], %[[W]]
// CHECK: %[[YXW:.*]] = amls.mul %[[Y]], %[[XW]]
// CHECK: %[[OUT:.*]] = amls.sub %[[ONE]], %[[YXW]]
// CHECK: %[[R:.*]] = amls.mul %[[OUT]], %[[Y]]
// CHECK: %[[P:.*]] = amls.matmul %[[XT]], %[[R]] : !amls.matrix<100x?xf64, sparsity = 0.01, format = csr>, !amls.matrix<?x1xf64> -> !amls.matrix<100x1xf64>
// CHECK: amls.yield %[[P]]
// CHECK-NOT: amls.transpose
// CHECK-NOT: amls.matmul
// CHECK: return %[[G]]
// EXPLAIN: row template closing at amls.transpose {{.*}}: main input !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, 1 row inputs, 2 side inputs, 5 ops
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
func.func @csr_row_l2svm(%X: !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, %y: !amls.matrix<20000x1xf64>, %w: !amls.matrix<100x1xf64>) -> !amls.matrix<100x1xf64> {
  %one = arith.constant 1.0 : f64
  %xw = amls.matmul %X, %w : !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x1xf64> -> !amls.matrix<20000x1xf64>
  %yx = amls.mul %y, %xw : !amls.matrix<20000x1xf64>, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x1xf64>
  %o = amls.sub %one, %yx : f64, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x1xf64>
  %oy = amls.mul %o, %y : !amls.matrix<20000x1xf64>, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x1xf64>
  %t = amls.transpose %oy : !amls.matrix<20000x1xf64> -> !amls.matrix<1x20000xf64>
  %g = amls.matmul %t, %X : !amls.matrix<1x20000xf64>, !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr> -> !amls.matrix<1x100xf64>
  %gt = amls.transpose %g : !amls.matrix<1x100xf64> -> !amls.matrix<100x1xf64>
  return %gt : !amls.matrix<100x1xf64>
}

// -----

// The same gradient over a compressed X (--amls-select-compression runs
// before fusion): the products stay the runtime's compressed kernels, no
// row operator reads X, and the element-wise work between them is one cell
// operator.
// CHECK-LABEL: func @compressed_l2svm
// CHECK: %[[XW:.*]] = amls.matmul %arg0, %arg2 : !amls.matrix<20000x100xf64, format = compressed>
// CHECK: %[[R:.*]] = amls.fused cell ins(%arg1, %[[XW]], %{{.*}})
// CHECK: %[[T:.*]] = amls.transpose %[[R]]
// CHECK: amls.matmul %[[T]], %arg0 : !amls.matrix<1x20000xf64>, !amls.matrix<20000x100xf64, format = compressed> -> !amls.matrix<1x100xf64>
// CHECK-NOT: amls.fused row
// EXPLAIN-NOT: main input !amls.matrix<20000x100xf64, format = compressed>
func.func @compressed_l2svm(%X: !amls.matrix<20000x100xf64, format = compressed>, %y: !amls.matrix<20000x1xf64>, %w: !amls.matrix<100x1xf64>) -> !amls.matrix<100x1xf64> {
  %one = arith.constant 1.0 : f64
  %xw = amls.matmul %X, %w : !amls.matrix<20000x100xf64, format = compressed>, !amls.matrix<100x1xf64> -> !amls.matrix<20000x1xf64>
  %yx = amls.mul %y, %xw : !amls.matrix<20000x1xf64>, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x1xf64>
  %o = amls.sub %one, %yx : f64, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x1xf64>
  %oy = amls.mul %o, %y : !amls.matrix<20000x1xf64>, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x1xf64>
  %t = amls.transpose %oy : !amls.matrix<20000x1xf64> -> !amls.matrix<1x20000xf64>
  %g = amls.matmul %t, %X : !amls.matrix<1x20000xf64>, !amls.matrix<20000x100xf64, format = compressed> -> !amls.matrix<1x100xf64>
  %gt = amls.transpose %g : !amls.matrix<1x100xf64> -> !amls.matrix<100x1xf64>
  return %gt : !amls.matrix<100x1xf64>
}

// -----

// A narrow product X %*% S, row inputs and rowSums(X * Y) (a chain keeping
// X's pattern, computed at X's stored entries) in one row operator; the
// CSR X * Y stays inside.
// CHECK-LABEL: func @csr_row_aggregates
// CHECK: %[[G:.*]] = amls.fused row aggregate [sum] row_inputs 3 ins(%arg0, %arg3, %arg1, %arg2)
// CHECK: amls.mul %{{.*}}, %{{.*}} : !amls.matrix<?x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<?x100xf64> -> !amls.matrix<?x100xf64, sparsity = 0.01, format = csr>
// CHECK: amls.agg sum row
// CHECK: amls.matmul %{{.*}}, %{{.*}} : !amls.matrix<?x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x4xf64> -> !amls.matrix<?x4xf64>
// CHECK: amls.yield
// CHECK-NOT: amls.mul
// CHECK: return %[[G]]
// EXPLAIN: row template closing at amls.transpose {{.*}}: main input !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, 2 row inputs, 1 side inputs, 6 ops
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
func.func @csr_row_aggregates(%X: !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, %Y: !amls.matrix<20000x100xf64>, %S: !amls.matrix<100x4xf64>, %P: !amls.matrix<20000x4xf64>) -> !amls.matrix<100x4xf64> {
  %p = amls.mul %X, %Y : !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<20000x100xf64> -> !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>
  %rs = amls.agg sum row %p : !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr> -> !amls.matrix<20000x1xf64>
  %xs = amls.matmul %X, %S : !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x4xf64> -> !amls.matrix<20000x4xf64>
  %q = amls.mul %xs, %P : !amls.matrix<20000x4xf64>, !amls.matrix<20000x4xf64> -> !amls.matrix<20000x4xf64>
  %r = amls.mul %q, %rs : !amls.matrix<20000x4xf64>, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x4xf64>
  %t = amls.transpose %r : !amls.matrix<20000x4xf64> -> !amls.matrix<4x20000xf64>
  %g = amls.matmul %t, %X : !amls.matrix<4x20000xf64>, !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr> -> !amls.matrix<4x100xf64>
  %gt = amls.transpose %g : !amls.matrix<4x100xf64> -> !amls.matrix<100x4xf64>
  return %gt : !amls.matrix<100x4xf64>
}

// -----

// Over a CSR X, rows wider than the 16 columns held as scalars (X %*% S
// with 40 columns) and rows of a width known only at run time (X %*% V,
// MLogreg's k classes) are computed in scratch rows: both fuse.
// CHECK-LABEL: func @csr_row_wide
// CHECK: amls.fused row aggregate [sum] row_inputs 1 ins(%arg0, %{{.*}}, %arg1)
// CHECK: amls.matmul %{{.*}}, %{{.*}} : !amls.matrix<?x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x40xf64> -> !amls.matrix<?x40xf64>
// CHECK: amls.fused row aggregate [sum] row_inputs 2 ins(%arg0, %arg3, %arg2)
// CHECK: amls.matmul %{{.*}}, %{{.*}} : !amls.matrix<?x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x?xf64> -> !amls.matrix<?x?xf64>
// CHECK: amls.agg sum row
// CHECK: amls.yield
// CHECK: return
// EXPLAIN: row template closing at amls.transpose {{.*}}, 0 row inputs, 2 side inputs, 3 ops
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
// EXPLAIN: row template closing at amls.transpose {{.*}}, 1 row inputs, 1 side inputs, 6 ops
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
func.func @csr_row_wide(%X: !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, %S: !amls.matrix<100x40xf64>, %V: !amls.matrix<100x?xf64>, %P: !amls.matrix<20000x?xf64>) -> (!amls.matrix<100x40xf64>, !amls.matrix<100x?xf64>) {
  %two = arith.constant 2.0 : f64
  %xs = amls.matmul %X, %S : !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x40xf64> -> !amls.matrix<20000x40xf64>
  %q = amls.mul %xs, %two : !amls.matrix<20000x40xf64>, f64 -> !amls.matrix<20000x40xf64>
  %t = amls.transpose %q : !amls.matrix<20000x40xf64> -> !amls.matrix<40x20000xf64>
  %g = amls.matmul %t, %X : !amls.matrix<40x20000xf64>, !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr> -> !amls.matrix<40x100xf64>
  %gt = amls.transpose %g : !amls.matrix<40x100xf64> -> !amls.matrix<100x40xf64>
  // MLogreg's Hessian-vector product, t(X) %*% (Q - P * rowSums(Q)).
  %xv = amls.matmul %X, %V : !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x?xf64> -> !amls.matrix<20000x?xf64>
  %Q = amls.mul %P, %xv : !amls.matrix<20000x?xf64>, !amls.matrix<20000x?xf64> -> !amls.matrix<20000x?xf64>
  %rs = amls.agg sum row %Q : !amls.matrix<20000x?xf64> -> !amls.matrix<20000x1xf64>
  %Prs = amls.mul %P, %rs : !amls.matrix<20000x?xf64>, !amls.matrix<20000x1xf64> -> !amls.matrix<20000x?xf64>
  %R = amls.sub %Q, %Prs : !amls.matrix<20000x?xf64>, !amls.matrix<20000x?xf64> -> !amls.matrix<20000x?xf64>
  %Rt = amls.transpose %R : !amls.matrix<20000x?xf64> -> !amls.matrix<?x20000xf64>
  %h = amls.matmul %Rt, %X : !amls.matrix<?x20000xf64>, !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr> -> !amls.matrix<?x100xf64>
  %ht = amls.transpose %h : !amls.matrix<?x100xf64> -> !amls.matrix<100x?xf64>
  return %gt, %ht : !amls.matrix<100x40xf64>, !amls.matrix<100x?xf64>
}

// -----

// What the CSR row kernel does not cover stays unfused, with the reason: a
// CSR row input other than X, and a row of unknown width computed from a
// narrow row of 3 columns (held as scalars, not readable at a run-time
// column).
// CHECK-LABEL: func @csr_row_not_covered
// CHECK-NOT: amls.fused row
// CHECK: return
// EXPLAIN: row template closing at amls.transpose {{.*}}, 1 row inputs, 2 side inputs, 3 ops
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: not fused (no CSR kernel for the body: only X may be CSR)
// EXPLAIN: row template closing at amls.transpose {{.*}}, 1 row inputs, 1 side inputs, 3 ops
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: not fused (no CSR kernel for the body: 'amls.mul' computes a row wider than 16 columns or of unknown width from a narrow row of more than one column)
func.func @csr_row_not_covered(%X: !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, %Z: !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, %v: !amls.matrix<100x1xf64>, %S: !amls.matrix<100x3xf64>, %P: !amls.matrix<20000x?xf64>) -> (!amls.matrix<100x1xf64>, !amls.matrix<100x?xf64>) {
  %two = arith.constant 2.0 : f64
  %zv = amls.matmul %Z, %v : !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x1xf64> -> !amls.matrix<20000x1xf64>
  %zv2 = amls.mul %zv, %two : !amls.matrix<20000x1xf64>, f64 -> !amls.matrix<20000x1xf64>
  %t2 = amls.transpose %zv2 : !amls.matrix<20000x1xf64> -> !amls.matrix<1x20000xf64>
  %h = amls.matmul %t2, %X : !amls.matrix<1x20000xf64>, !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr> -> !amls.matrix<1x100xf64>
  %ht = amls.transpose %h : !amls.matrix<1x100xf64> -> !amls.matrix<100x1xf64>
  %xs = amls.matmul %X, %S : !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x3xf64> -> !amls.matrix<20000x3xf64>
  %q = amls.mul %xs, %P : !amls.matrix<20000x3xf64>, !amls.matrix<20000x?xf64> -> !amls.matrix<20000x?xf64>
  %qt = amls.transpose %q : !amls.matrix<20000x?xf64> -> !amls.matrix<?x20000xf64>
  %g = amls.matmul %qt, %X : !amls.matrix<?x20000xf64>, !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr> -> !amls.matrix<?x100xf64>
  %gt = amls.transpose %g : !amls.matrix<?x100xf64> -> !amls.matrix<100x?xf64>
  return %ht, %gt : !amls.matrix<100x1xf64>, !amls.matrix<100x?xf64>
}

// -----

// t(X) hoisted out of a loop (a CSR t(X) built once): the close t(X) %*% R
// in the loop fuses with X's rows.
// CHECK-LABEL: func @csr_row_hoisted_transpose
// CHECK: scf.for
// CHECK: amls.fused row aggregate [sum] row_inputs 1 ins(%arg0, %{{.*}}, %{{.*}})
// CHECK: amls.yield
// CHECK-NOT: amls.matmul
// CHECK: scf.yield
// EXPLAIN: row template closing at amls.matmul {{.*}}: main input !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, 0 row inputs, 2 side inputs, 3 ops
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
func.func @csr_row_hoisted_transpose(%X: !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, %w0: !amls.matrix<100x1xf64>, %n: index) -> !amls.matrix<100x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f64
  %Xt = amls.transpose %X : !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr> -> !amls.matrix<100x20000xf64, sparsity = 0.01, format = csr>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%w = %w0) -> (!amls.matrix<100x1xf64>) {
    %xw = amls.matmul %X, %w : !amls.matrix<20000x100xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x1xf64> -> !amls.matrix<20000x1xf64>
    %e = amls.mul %xw, %half : !amls.matrix<20000x1xf64>, f64 -> !amls.matrix<20000x1xf64>
    %g = amls.matmul %Xt, %e : !amls.matrix<100x20000xf64, sparsity = 0.01, format = csr>, !amls.matrix<20000x1xf64> -> !amls.matrix<100x1xf64>
    scf.yield %g : !amls.matrix<100x1xf64>
  }
  return %r : !amls.matrix<100x1xf64>
}

// -----

// Column aggregates close sparse cell chains too: colSums(X * Y) and
// colMaxs(abs(X)) are cell operators over X's stored values.
// CHECK-LABEL: func @csr_col_aggregates
// CHECK: %[[S:.*]] = amls.fused cell aggregate [sum] col ins(%arg0, %arg1) : (!amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, !amls.matrix<1000x1000xf64>) -> !amls.matrix<1x1000xf64>
// CHECK: arith.mulf
// CHECK: %[[M:.*]] = amls.fused cell aggregate [max] col ins(%arg0) : (!amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>) -> !amls.matrix<1x1000xf64>
// CHECK: math.absf
// CHECK: return %[[S]], %[[M]]
// EXPLAIN: sparse cell template at amls.agg {{.*}}: main input !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, 2 ops in 1 chain
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
// EXPLAIN: sparse cell template at amls.agg {{.*}}: main input !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, 2 ops in 1 chain
// EXPLAIN-NEXT: cost fused {{.*}} us, unfused {{.*}} us: fused
func.func @csr_col_aggregates(%X: !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, %Y: !amls.matrix<1000x1000xf64>) -> (!amls.matrix<1x1000xf64>, !amls.matrix<1x1000xf64>) {
  %p = amls.mul %X, %Y : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, !amls.matrix<1000x1000xf64> -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  %s = amls.agg sum col %p : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr> -> !amls.matrix<1x1000xf64>
  %a = amls.abs %X : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr> -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  %m = amls.agg max col %a : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr> -> !amls.matrix<1x1000xf64>
  return %s, %m : !amls.matrix<1x1000xf64>, !amls.matrix<1x1000xf64>
}
