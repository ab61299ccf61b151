// Fused operators over the stored values of a CSR main input (the sparse
// cell template): a multi-aggregate sum(X * Y), sum(X ^ 2); row sums of
// abs(X) * 2; the element-wise (X * r) * 3, which keeps X's pattern; max and
// row minimums that must see the implicit zeros (max(-abs(X) * Y) is 0,
// rowMins(abs(X) * Y) is 0 in rows with zeros), and the same over a fully
// dense "sparse" F, which has none, and over M, whose first 10 rows are full
// (their minimum and maximum are stored values, the others' are 0). L (3000 x 200 at 5% with a full column)
// is CSR in the default setting, X and F with --formats=csr; the oracle
// compares every configuration (unfused, dense, csr) with NumPy, at 1 and 2
// threads.
// RUN: %oracle %s --input X="np.array([[0, 1.5, 0, 0, -2], [0, 0, 0, 0, 0], [3, 0, 0, 0.5, 0], [0, 0, 0, 0, 0], [-1, 0, 0, 2, 0], [0, 4, 0, 0, 1.0]])" --input Y="rng.random((6, 5)) + 0.5" --input r="rng.random((1, 5))" --input F="rng.random((4, 3)) + 0.1" --input L="np.where(np.arange(200)[None, :] == 7, 1.0, (rng.random((3000, 200)) < 0.05) * rng.random((3000, 200)))" --input q="rng.random((1, 200)) - 0.5" --input M="np.where(np.arange(300)[:, None] < 10, rng.random((300, 20)) + 0.1, (rng.random((300, 20)) < 0.05) * rng.random((300, 20)))" --input p="rng.random((1, 20)) + 0.5" --expect "(X * Y).sum()" --expect "(X ** 2).sum()" --expect "(np.abs(X) * 2).sum(axis=1, keepdims=True)" --expect "X * r * 3" --expect "(-np.abs(X) * Y).max()" --expect "(np.abs(X) * Y).min(axis=1, keepdims=True)" --expect "(F * 2).min()" --expect "(-F * 2).max(axis=1, keepdims=True)" --expect "(L * q).sum(axis=1, keepdims=True)" --expect "(np.abs(L) * q).max()" --expect "((L * 2) ** 2).sum()" --expect "(M * p).min(axis=1, keepdims=True)" --expect "(-np.abs(M) * p).max(axis=1, keepdims=True)" -- --threads 1
// RUN: %oracle %s --input X="np.array([[0, 1.5, 0, 0, -2], [0, 0, 0, 0, 0], [3, 0, 0, 0.5, 0], [0, 0, 0, 0, 0], [-1, 0, 0, 2, 0], [0, 4, 0, 0, 1.0]])" --input Y="rng.random((6, 5)) + 0.5" --input r="rng.random((1, 5))" --input F="rng.random((4, 3)) + 0.1" --input L="np.where(np.arange(200)[None, :] == 7, 1.0, (rng.random((3000, 200)) < 0.05) * rng.random((3000, 200)))" --input q="rng.random((1, 200)) - 0.5" --input M="np.where(np.arange(300)[:, None] < 10, rng.random((300, 20)) + 0.1, (rng.random((300, 20)) < 0.05) * rng.random((300, 20)))" --input p="rng.random((1, 20)) + 0.5" --expect "(X * Y).sum()" --expect "(X ** 2).sum()" --expect "(np.abs(X) * 2).sum(axis=1, keepdims=True)" --expect "X * r * 3" --expect "(-np.abs(X) * Y).max()" --expect "(np.abs(X) * Y).min(axis=1, keepdims=True)" --expect "(F * 2).min()" --expect "(-F * 2).max(axis=1, keepdims=True)" --expect "(L * q).sum(axis=1, keepdims=True)" --expect "(np.abs(L) * q).max()" --expect "((L * 2) ** 2).sum()" --expect "(M * p).min(axis=1, keepdims=True)" --expect "(-np.abs(M) * p).max(axis=1, keepdims=True)" --seed 5 -- --threads 2 --fuse-explain 2>&1 | FileCheck %s --check-prefix=AUTO
// In the default setting L and M are CSR and their chains fuse: the row
// aggregates, and the max and sum over all cells of L as one
// multi-aggregate.
// AUTO: sparse cell template at amls.agg {{.*}}: main input !amls.matrix<3000x200xf64, sparsity = {{.*}}, format = csr>, 2 ops in 1 chain
// AUTO-NEXT: cost fused {{.*}}: fused
// AUTO: sparse cell template at amls.agg {{.*}}: main input !amls.matrix<300x20xf64, sparsity = {{.*}}, format = csr>, 2 ops in 1 chain
// AUTO-NEXT: cost fused {{.*}}: fused
// AUTO: sparse cell template at amls.agg {{.*}}: main input !amls.matrix<300x20xf64, sparsity = {{.*}}, format = csr>, 4 ops in 1 chain
// AUTO-NEXT: cost fused {{.*}}: fused
// AUTO: sparse cell template at amls.agg {{.*}}: main input !amls.matrix<3000x200xf64, sparsity = {{.*}}, format = csr>, 5 ops in 2 chains
// AUTO-NEXT: cost fused {{.*}}: fused
// AUTO-NOT: sparse cell template
// AUTO: PASS

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"},
                %r: !amls.matrix<1x?xf64> {amls.name = "r"},
                %F: !amls.matrix<?x?xf64> {amls.name = "F"},
                %L: !amls.matrix<?x?xf64> {amls.name = "L"},
                %q: !amls.matrix<1x?xf64> {amls.name = "q"},
                %M: !amls.matrix<?x?xf64> {amls.name = "M"},
                %p: !amls.matrix<1x?xf64> {amls.name = "p"})
    -> (f64, f64, !amls.matrix<?x1xf64>, !amls.matrix<?x?xf64>, f64,
        !amls.matrix<?x1xf64>, f64, !amls.matrix<?x1xf64>,
        !amls.matrix<?x1xf64>, f64, f64, !amls.matrix<?x1xf64>,
        !amls.matrix<?x1xf64>) {
  %two = arith.constant 2.0 : f64
  %three = arith.constant 3.0 : f64
  %xy = amls.mul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %0 = amls.agg sum all %xy : !amls.matrix<?x?xf64> -> f64
  %x2 = amls.pow %X, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %1 = amls.agg sum all %x2 : !amls.matrix<?x?xf64> -> f64
  %ax = amls.abs %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %ax2 = amls.mul %ax, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %2 = amls.agg sum row %ax2 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %xr = amls.mul %X, %r : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.mul %xr, %three : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %nx = amls.neg %ax : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %nxy = amls.mul %nx, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %4 = amls.agg max all %nxy : !amls.matrix<?x?xf64> -> f64
  %axy = amls.mul %ax, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %5 = amls.agg min row %axy : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %f2 = amls.mul %F, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %6 = amls.agg min all %f2 : !amls.matrix<?x?xf64> -> f64
  %nf = amls.neg %F : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %nf2 = amls.mul %nf, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %7 = amls.agg max row %nf2 : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %lq = amls.mul %L, %q : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %8 = amls.agg sum row %lq : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %al = amls.abs %L : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %alq = amls.mul %al, %q : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %9 = amls.agg max all %alq : !amls.matrix<?x?xf64> -> f64
  %l2 = amls.mul %L, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %l22 = amls.pow %l2, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %10 = amls.agg sum all %l22 : !amls.matrix<?x?xf64> -> f64
  %mp = amls.mul %M, %p : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %11 = amls.agg min row %mp : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %am = amls.abs %M : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %nam = amls.neg %am : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %namp = amls.mul %nam, %p : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %12 = amls.agg max row %namp : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : f64, f64, !amls.matrix<?x1xf64>, !amls.matrix<?x?xf64>, f64, !amls.matrix<?x1xf64>, f64, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, f64, f64, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>
}
