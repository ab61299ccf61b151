// Element-wise ops on CSR matrices whose sizes are known only at run time
// (tables sized by the data) stay CSR: products with a dense matrix, sums
// and products of two patterns, a dense result (D - Y) written from the
// stored values without a dense copy of Y, and fused chains closed by
// aggregates. Y has empty rows (rows 4, 11, ... of a map to row 1) and an
// empty column (no label 4); R and C are CSR vectors (1 x 6 and 2000 x 1
// at run time) that DML broadcasts against D, repeated to its shape.
// RUN: %oracle %s --input a="np.where(np.arange(2000) %% 7 == 3, 1, np.arange(2000) + 1)[:, None]" --input b="np.array([1, 2, 3, 5, 6])[rng.integers(0, 5, 2000)][:, None]" --input a2="np.arange(2000)[::-1][:, None] + 1.0" --input D="rng.random((2000, 6)) - 0.5" --input o="np.ones((3, 1))" --input c="np.array([[1.0], [3.0], [6.0]])" --expect "(np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6) * D * D).sum()" --expect "np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6) * D" --expect "D - np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6)" --expect "np.abs(np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6) * D).sum(axis=1, keepdims=True)" --expect "np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6) + np.bincount(((a2 - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6)" --expect "np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6) * np.bincount(((a2 - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6)" --expect "np.array([[1.0, 0, 1, 0, 0, 1]]) * D" --expect "np.bincount((a - 1).astype(int).ravel(), minlength=2000)[:, None] * D" --expect "np.zeros((2000, 6))" -- --threads 2
// RUN: %oracle %s --no-differential --input a="np.where(np.arange(2000) %% 7 == 3, 1, np.arange(2000) + 1)[:, None]" --input b="np.array([1, 2, 3, 5, 6])[rng.integers(0, 5, 2000)][:, None]" --input a2="np.arange(2000)[::-1][:, None] + 1.0" --input D="rng.random((2000, 6)) - 0.5" --input o="np.ones((3, 1))" --input c="np.array([[1.0], [3.0], [6.0]])" --expect "(np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6) * D * D).sum()" --expect "np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6) * D" --expect "D - np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6)" --expect "np.abs(np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6) * D).sum(axis=1, keepdims=True)" --expect "np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6) + np.bincount(((a2 - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6)" --expect "np.bincount(((a - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6) * np.bincount(((a2 - 1) * 6 + b - 1).astype(int).ravel(), minlength=12000).reshape(2000, 6)" --expect "np.array([[1.0, 0, 1, 0, 0, 1]]) * D" --expect "np.bincount((a - 1).astype(int).ravel(), minlength=2000)[:, None] * D" --expect "np.zeros((2000, 6))" -- --threads 1 --formats-explain --fuse-explain 2>&1 | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '1\n2\n3\n4\n' > %t/a.csv
// RUN: printf '1\n2\n3\n3\n' > %t/b.csv
// RUN: printf '1,2\n3,4\n5,6\n7,8\n' > %t/D.csv
// RUN: printf '1\n' > %t/o.csv
// RUN: not amls-run %s --input a=%t/a.csv --input b=%t/b.csv --input a2=%t/a.csv --input D=%t/D.csv --input o=%t/o.csv --input c=%t/o.csv --formats=csr 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: amls: 'amls.{{mul|fused}}' at {{.*}}sparse-dynamic.mlir:{{[0-9]+}}:{{[0-9]+}}: the operands' sizes differ and neither is a vector to broadcast (4x3 and 4x2)
//
// Y (2000 x max(b)) is CSR, and so are the products with its pattern;
// D - Y is dense without a dense copy of Y; only the public function's
// results are converted.
// CHECK: result #0 of amls.table is CSR: !amls.matrix<2000x?xf64, format = csr>
// CHECK-NOT: amls.{{sub|mul|add|abs}} takes a dense copy
// CHECK: result #0 of amls.mul is CSR: !amls.matrix<2000x6xf64, format = csr>
// CHECK-NOT: amls.{{sub|mul|add|abs}} takes a dense copy
// CHECK: result #0 of amls.mul is CSR: !amls.matrix<2000x?xf64, format = csr>
// CHECK-NOT: amls.{{sub|mul|add|abs}} takes a dense copy
// CHECK: func.return takes a dense copy
// CHECK: sparse cell template at amls.agg {{.*}}: main input !amls.matrix<2000x?xf64, format = csr>, 2 ops in 1 chain
// CHECK-NEXT: : fused

func.func @main(%a: !amls.matrix<?x1xf64> {amls.name = "a"},
                %b: !amls.matrix<?x1xf64> {amls.name = "b"},
                %a2: !amls.matrix<?x1xf64> {amls.name = "a2"},
                %D: !amls.matrix<?x?xf64> {amls.name = "D"},
                %o: !amls.matrix<?x1xf64> {amls.name = "o"},
                %c: !amls.matrix<?x1xf64> {amls.name = "c"})
    -> (f64, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  // As MLogreg's table(seq(1, N), Y, N, max(Y)): N rows, max(b) columns.
  %n = amls.nrow %a : !amls.matrix<?x1xf64>
  %maxb = amls.agg max all %b : !amls.matrix<?x1xf64> -> f64
  %k64 = arith.fptosi %maxb : f64 to i64
  %k = arith.index_cast %k64 : i64 to index
  %Y = amls.table %a, %b size %n, %k : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %Y2 = amls.table %a2, %b : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %R = amls.table %o, %c : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %ones = amls.div %a, %a : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %C = amls.table %a, %ones : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %YD = amls.mul %Y, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Dsq = amls.mul %D, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %YD2 = amls.mul %Y, %Dsq : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %0 = amls.agg sum all %YD2 : !amls.matrix<?x?xf64> -> f64
  %2 = amls.sub %D, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %YD3 = amls.mul %D, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %abs = amls.abs %YD3 : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.agg sum row %abs : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %4 = amls.add %Y, %Y2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %5 = amls.mul %Y, %Y2 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %6 = amls.mul %R, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %7 = amls.mul %C, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %zero = arith.constant 0.0 : f64
  %8 = amls.mul %Y, %zero : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  return %0, %YD, %2, %3, %4, %5, %6, %7, %8 : f64, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
