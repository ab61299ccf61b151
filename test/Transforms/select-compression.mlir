// RUN: amls-opt %s -split-input-file -amls-select-compression=min-cells=0 | FileCheck %s
// RUN: amls-opt %s -split-input-file -amls-select-compression | FileCheck %s --check-prefix=SMALL
// RUN: amls-opt %s -split-input-file -amls-select-compression="min-cells=0 explain" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: amls-opt %s -split-input-file -amls-select-compression="min-cells=0 only-compressible" | FileCheck %s --check-prefix=AUTO

// X %*% v and t(X) %*% w in a loop: X is compressed once before the loop;
// both products read the compressed X (the second through a transpose of
// it), and so does the sum after the loop, after which it is released.
// Below 65,536 cells (the default min-cells) nothing is compressed.
// CHECK-LABEL: func @cg_like
// CHECK: %[[C:.*]] = amls.compress %[[X:.*]] : !amls.matrix<100x4xf64> -> !amls.matrix<100x4xf64, format = compressed>
// CHECK: %[[T:.*]] = amls.transpose %[[C]] : !amls.matrix<100x4xf64, format = compressed> -> !amls.matrix<4x100xf64, format = compressed>
// CHECK: scf.for
// CHECK: amls.matmul %[[C]], %{{.*}} : !amls.matrix<100x4xf64, format = compressed>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
// CHECK: amls.matmul %[[T]], %{{.*}} : !amls.matrix<4x100xf64, format = compressed>, !amls.matrix<100x1xf64> -> !amls.matrix<4x1xf64>
// CHECK: }
// CHECK-NEXT: amls.agg sum all %[[C]] : !amls.matrix<100x4xf64, format = compressed>
// CHECK-NEXT: amls.release %[[C]] : !amls.matrix<100x4xf64, format = compressed>
// SMALL-LABEL: func @cg_like
// SMALL-NOT: = amls.compress
// EXPLAIN: amls-select-compression: {{.*}}: compress !amls.matrix<100x4xf64> for 2 product(s) in the loop at
// EXPLAIN-NEXT: amls-select-compression: {{.*}}: 1 later op(s) read the compressed matrix, 0 a decompressed copy
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

// -----

// X computed by the program (its buffer can go once X is compressed): after
// the loop, colMeans, nrow and a scalar operation read the compressed X,
// the latter making a compressed 2 * X that its product reads and that is
// released after it; max has no kernel and reads a decompressed copy, after
// which X is released.
// CHECK-LABEL: func @later_uses
// CHECK: %[[X:.*]] = amls.abs
// CHECK: %[[C:.*]] = amls.compress %[[X]]
// CHECK: scf.for
// CHECK: }
// CHECK-NEXT: amls.agg mean col %[[C]] : !amls.matrix<100x4xf64, format = compressed> -> !amls.matrix<1x4xf64>
// CHECK-NEXT: amls.nrow %[[C]] : !amls.matrix<100x4xf64, format = compressed>
// CHECK-NEXT: %[[Y:.*]] = amls.mul %[[C]], %{{.*}} : !amls.matrix<100x4xf64, format = compressed>, f64 -> !amls.matrix<100x4xf64, format = compressed>
// CHECK-NEXT: amls.matmul %[[Y]], %{{.*}} : !amls.matrix<100x4xf64, format = compressed>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
// CHECK-NEXT: amls.release %[[Y]]
// CHECK-NEXT: %[[D:.*]] = amls.decompress %[[C]] : !amls.matrix<100x4xf64, format = compressed> -> !amls.matrix<100x4xf64>
// CHECK-NEXT: amls.release %[[C]]
// CHECK-NEXT: amls.agg max all %[[D]] : !amls.matrix<100x4xf64> -> f64
// EXPLAIN: compress !amls.matrix<100x4xf64> for 1 product(s)
// EXPLAIN-NEXT: 3 later op(s) read the compressed matrix, 1 a decompressed copy
func.func @later_uses(%X0: !amls.matrix<100x4xf64>, %v: !amls.matrix<4x1xf64>,
                      %n: index)
    -> (!amls.matrix<1x4xf64>, index, !amls.matrix<100x1xf64>, f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %X = amls.abs %X0 : !amls.matrix<100x4xf64> -> !amls.matrix<100x4xf64>
  scf.for %i = %c0 to %n step %c1 {
    %q = amls.matmul %X, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
    amls.print %q : !amls.matrix<100x1xf64>
  }
  %m = amls.agg mean col %X : !amls.matrix<100x4xf64> -> !amls.matrix<1x4xf64>
  %r = amls.nrow %X : !amls.matrix<100x4xf64>
  %Y = amls.mul %X, %two : !amls.matrix<100x4xf64>, f64 -> !amls.matrix<100x4xf64>
  %p = amls.matmul %Y, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
  %x = amls.agg max all %X : !amls.matrix<100x4xf64> -> f64
  return %m, %r, %p, %x : !amls.matrix<1x4xf64>, index, !amls.matrix<100x1xf64>, f64
}

// -----

// A parameter stays alive anyway: max reads it instead of a decompressed
// copy. A scalar operation whose result is returned keeps the dense X too
// (its result would need decompressing).
// CHECK-LABEL: func @parameter_stays
// CHECK: %[[C:.*]] = amls.compress %[[X:[^ ]*]]
// CHECK: scf.for
// CHECK: }
// CHECK-NEXT: amls.release %[[C]]
// CHECK-NEXT: amls.agg max all %[[X]] : !amls.matrix<100x4xf64> -> f64
// CHECK-NEXT: amls.mul %[[X]], %{{.*}} : !amls.matrix<100x4xf64>, f64 -> !amls.matrix<100x4xf64>
// CHECK-NOT: amls.decompress
func.func @parameter_stays(%X: !amls.matrix<100x4xf64>, %v: !amls.matrix<4x1xf64>,
                           %n: index) -> (f64, !amls.matrix<100x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  scf.for %i = %c0 to %n step %c1 {
    %q = amls.matmul %X, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
    amls.print %q : !amls.matrix<100x1xf64>
  }
  %x = amls.agg max all %X : !amls.matrix<100x4xf64> -> f64
  %Y = amls.mul %X, %two : !amls.matrix<100x4xf64>, f64 -> !amls.matrix<100x4xf64>
  return %x, %Y : f64, !amls.matrix<100x4xf64>
}

// -----

// In the loop: a scalar operation on X feeding a product is a compressed
// map, released in the loop body after the product; max has no kernel and
// reads the dense X, which must then stay (a copy per iteration would cost
// more than keeping it).
// CHECK-LABEL: func @in_loop
// CHECK: %[[X:.*]] = amls.abs
// CHECK: %[[C:.*]] = amls.compress %[[X]]
// CHECK: scf.for
// CHECK: %[[Y:.*]] = amls.mul %[[C]], %{{.*}} : !amls.matrix<100x4xf64, format = compressed>, f64 -> !amls.matrix<100x4xf64, format = compressed>
// CHECK-NEXT: amls.matmul %[[Y]], %{{.*}} : !amls.matrix<100x4xf64, format = compressed>
// CHECK-NEXT: amls.release %[[Y]]
// CHECK: amls.agg max all %[[X]] : !amls.matrix<100x4xf64> -> f64
// CHECK: }
// CHECK-NEXT: amls.release %[[C]]
// CHECK-NOT: amls.decompress
func.func @in_loop(%X0: !amls.matrix<100x4xf64>, %v: !amls.matrix<4x1xf64>,
                   %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %X = amls.abs %X0 : !amls.matrix<100x4xf64> -> !amls.matrix<100x4xf64>
  scf.for %i = %c0 to %n step %c1 {
    %ii = arith.index_cast %i : index to i64
    %s = arith.sitofp %ii : i64 to f64
    %q = amls.matmul %X, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
    %Y = amls.mul %X, %s : !amls.matrix<100x4xf64>, f64 -> !amls.matrix<100x4xf64>
    %p = amls.matmul %Y, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
    %x = amls.agg max all %X : !amls.matrix<100x4xf64> -> f64
    amls.print %q : !amls.matrix<100x1xf64>
    amls.print %p : !amls.matrix<100x1xf64>
    amls.print %x : f64
  }
  return
}

// -----

// only-compressible (--formats=auto): only matrices holding the cells of a
// parameter the session marked amls.compressible: %X, not %Y.
// AUTO-LABEL: func @auto_marked
// AUTO: amls.compress %arg0
// AUTO-NOT: amls.compress
// AUTO: return
func.func @auto_marked(%X: !amls.matrix<100x4xf64> {amls.compressible},
                       %Y: !amls.matrix<100x4xf64>,
                       %v: !amls.matrix<4x1xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %p = amls.matmul %X, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
    %q = amls.matmul %Y, %v : !amls.matrix<100x4xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<100x1xf64>
    amls.print %p : !amls.matrix<100x1xf64>
    amls.print %q : !amls.matrix<100x1xf64>
  }
  return
}

// -----

// Through a call: the private function's X is cbind(the marked parameter,
// ones) at its only call, so its loop compresses X; the same function
// called with an unmarked matrix does not.
// AUTO-LABEL: func private @train
// AUTO: amls.compress %arg0
// AUTO-LABEL: func private @train_unmarked
// AUTO-NOT: amls.compress
// AUTO-LABEL: func @auto_call
func.func private @train(%X: !amls.matrix<100x5xf64>, %v: !amls.matrix<5x1xf64>,
                         %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %p = amls.matmul %X, %v : !amls.matrix<100x5xf64>, !amls.matrix<5x1xf64> -> !amls.matrix<100x1xf64>
    amls.print %p : !amls.matrix<100x1xf64>
  }
  return
}
func.func private @train_unmarked(%X: !amls.matrix<100x5xf64>,
                                  %v: !amls.matrix<5x1xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %p = amls.matmul %X, %v : !amls.matrix<100x5xf64>, !amls.matrix<5x1xf64> -> !amls.matrix<100x1xf64>
    amls.print %p : !amls.matrix<100x1xf64>
  }
  return
}
func.func @auto_call(%X: !amls.matrix<100x4xf64> {amls.compressible},
                     %Y: !amls.matrix<100x5xf64>,
                     %v: !amls.matrix<5x1xf64>, %n: index) {
  %one = arith.constant 1.0 : f64
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %ones = amls.fill %one, %c100, %c1 : f64 -> !amls.matrix<100x1xf64>
  %X1 = amls.cbind %X, %ones : !amls.matrix<100x4xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<100x5xf64>
  func.call @train(%X1, %v, %n) : (!amls.matrix<100x5xf64>, !amls.matrix<5x1xf64>, index) -> ()
  func.call @train_unmarked(%Y, %v, %n) : (!amls.matrix<100x5xf64>, !amls.matrix<5x1xf64>, index) -> ()
  return
}
