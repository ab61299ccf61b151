// RUN: amls-opt %s -split-input-file -amls-select-compression=min-cells=0 | FileCheck %s
// RUN: amls-opt %s -split-input-file -amls-select-compression | FileCheck %s --check-prefix=SMALL
// RUN: amls-opt %s -split-input-file -amls-select-compression="min-cells=0 explain" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN

// X %*% v and t(X) %*% w in a loop: X is compressed once before the loop
// and released after it; both products read the compressed X (the second
// through a transpose of it); the sum after the loop reads the dense X.
// Below 65,536 cells (the default min-cells) nothing is compressed.
// CHECK-LABEL: func @cg_like
// CHECK: %[[C:.*]] = amls.compress %[[X:.*]] : !amls.matrix<100x4xf64> -> !amls.matrix<100x4xf64, format = compressed>
// CHECK: %[[T:.*]] = amls.transpose %[[C]] : !amls.matrix<100x4xf64, format = compressed> -> !amls.matrix<4x100xf64, format = compressed>
// CHECK: scf.for
// CHECK: amls.matmul %[[C]], %{{.*}} : !amls.matrix<100x4xf64, format = compressed>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
// CHECK: amls.matmul %[[T]], %{{.*}} : !amls.matrix<4x100xf64, format = compressed>, !amls.matrix<100x1xf64> -> !amls.matrix<4x1xf64>
// CHECK: }
// CHECK-NEXT: amls.release %[[C]] : !amls.matrix<100x4xf64, format = compressed>
// CHECK: amls.agg sum all %[[X]] : !amls.matrix<100x4xf64>
// SMALL-LABEL: func @cg_like
// SMALL-NOT: amls.compress
// EXPLAIN: amls-select-compression: {{.*}}: compress !amls.matrix<100x4xf64> for 2 product(s) in the loop at
func.func @cg_like(%X: !amls.matrix<100x4xf64>, %v0: !amls.matrix<4x1xf64>,
                   %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %v0) -> (!amls.matrix<4x1xf64>) {
    %q = amls.matmul %X, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
    %t = amls.transpose %X : !amls.matrix<100x4xf64> -> !amls.matrix<4x100xf64>
    %g = amls.matmul %t, %q : !amls.matrix<4x100xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<4x1xf64>
    scf.yield %g : !amls.matrix<4x1xf64>
  }
  %s = amls.agg sum all %X : !amls.matrix<100x4xf64> -> f64
  return %s : f64
}

// -----

// The outermost loop that does not define X; mmchain and tsmm left read the
// compressed X, tsmm right (X %*% t(X)) and a wide right operand do not.
// CHECK-LABEL: func @nested
// CHECK: amls.compress
// CHECK-NEXT: scf.for
// CHECK: scf.for
// CHECK: amls.mmchain %{{.*}}, %{{.*}} : !amls.matrix<100x4xf64, format = compressed>
// CHECK: amls.tsmm left %{{.*}} : !amls.matrix<100x4xf64, format = compressed>
// CHECK: amls.tsmm right %{{.*}} : !amls.matrix<100x4xf64> ->
// CHECK: amls.matmul %{{.*}}, %{{.*}} : !amls.matrix<100x4xf64>, !amls.matrix<4x100xf64>
// CHECK: amls.release
func.func @nested(%X: !amls.matrix<100x4xf64>, %v: !amls.matrix<4x1xf64>,
                  %W: !amls.matrix<4x100xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %a = amls.mmchain %X, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<4x1xf64>
      %b = amls.tsmm left %X : !amls.matrix<100x4xf64> -> !amls.matrix<4x4xf64>
      %c = amls.tsmm right %X : !amls.matrix<100x4xf64> -> !amls.matrix<100x100xf64>
      %d = amls.matmul %X, %W : !amls.matrix<100x4xf64>, !amls.matrix<4x100xf64> -> !amls.matrix<100x100xf64>
      amls.print %a : !amls.matrix<4x1xf64>
      amls.print %b : !amls.matrix<4x4xf64>
      amls.print %c : !amls.matrix<100x100xf64>
      amls.print %d : !amls.matrix<100x100xf64>
    }
  }
  return
}

// -----

// Not in a loop, or defined inside the loop: nothing to gain.
// CHECK-LABEL: func @no_loop
// CHECK-NOT: amls.compress
func.func @no_loop(%X: !amls.matrix<100x4xf64>, %v: !amls.matrix<4x1xf64>,
                   %n: index) -> !amls.matrix<100x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %Y = amls.add %X, %X : !amls.matrix<100x4xf64>, !amls.matrix<100x4xf64> -> !amls.matrix<100x4xf64>
    %q = amls.matmul %Y, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
    amls.print %q : !amls.matrix<100x1xf64>
  }
  %q = amls.matmul %X, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
  return %q : !amls.matrix<100x1xf64>
}

// -----

// k-means: X %*% t(C) reads X on the left, the centroids' t(P) %*% X on the
// right (t(t(X) %*% P)); one compress serves both. A column vector is never
// compressed (its products are scalings and dot products).
// CHECK-LABEL: func @kmeans_like
// CHECK: %[[C:.*]] = amls.compress %{{.*}} : !amls.matrix<100x4xf64> -> !amls.matrix<100x4xf64, format = compressed>
// CHECK: scf.for
// CHECK: amls.matmul %[[C]], %{{.*}} : !amls.matrix<100x4xf64, format = compressed>, !amls.matrix<4x3xf64> -> !amls.matrix<100x3xf64>
// CHECK: %[[TP:.*]] = amls.transpose %{{.*}} : !amls.matrix<100x3xf64> -> !amls.matrix<3x100xf64>
// CHECK: amls.matmul %[[TP]], %[[C]] : !amls.matrix<3x100xf64>, !amls.matrix<100x4xf64, format = compressed> -> !amls.matrix<3x4xf64>
// CHECK: amls.release %[[C]]
// CHECK-NOT: amls.compress
// CHECK: return
// EXPLAIN: amls-select-compression: {{.*}}: compress !amls.matrix<100x4xf64> for 2 product(s) in the loop at
func.func @kmeans_like(%X: !amls.matrix<100x4xf64>, %C0: !amls.matrix<4x3xf64>,
                       %y: !amls.matrix<100x1xf64>, %w: !amls.matrix<1x2xf64>,
                       %n: index) -> !amls.matrix<4x3xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%C = %C0) -> (!amls.matrix<4x3xf64>) {
    %D = amls.matmul %X, %C : !amls.matrix<100x4xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<100x3xf64>
    %P = amls.abs %D : !amls.matrix<100x3xf64> -> !amls.matrix<100x3xf64>
    %tP = amls.transpose %P : !amls.matrix<100x3xf64> -> !amls.matrix<3x100xf64>
    %S = amls.matmul %tP, %X : !amls.matrix<3x100xf64>, !amls.matrix<100x4xf64> -> !amls.matrix<3x4xf64>
    %tS = amls.transpose %S : !amls.matrix<3x4xf64> -> !amls.matrix<4x3xf64>
    %o = amls.matmul %y, %w : !amls.matrix<100x1xf64>, !amls.matrix<1x2xf64> -> !amls.matrix<100x2xf64>
    amls.print %o : !amls.matrix<100x2xf64>
    scf.yield %tS : !amls.matrix<4x3xf64>
  }
  return %r : !amls.matrix<4x3xf64>
}

// -----

// A CSR matrix compresses too (the runtime reads its rows' non-zeros).
// CHECK-LABEL: func @csr_input
// CHECK: %[[C:.*]] = amls.compress %{{.*}} : !amls.matrix<1000x60xf64, sparsity = 0.1, format = csr> -> !amls.matrix<1000x60xf64, sparsity = 0.1, format = compressed>
// CHECK: scf.for
// CHECK: amls.matmul %[[C]], %{{.*}} : !amls.matrix<1000x60xf64, sparsity = 0.1, format = compressed>, !amls.matrix<60x1xf64> -> !amls.matrix<1000x1xf64>
// CHECK: amls.release %[[C]]
func.func @csr_input(%X: !amls.matrix<1000x60xf64, sparsity = 0.1, format = csr>,
                     %v: !amls.matrix<60x1xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %q = amls.matmul %X, %v : !amls.matrix<1000x60xf64, sparsity = 0.1, format = csr>, !amls.matrix<60x1xf64> -> !amls.matrix<1000x1xf64>
    amls.print %q : !amls.matrix<1000x1xf64>
  }
  return
}
