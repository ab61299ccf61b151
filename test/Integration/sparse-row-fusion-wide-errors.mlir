// Widths known only at run time are checked once, before the rows, by
// the fused CSR row operator: P (k columns) times X %*% V (k + 1 columns)
// stops with the op and the message instead of reading past a row.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; rng = np.random.default_rng(1); np.savetxt('%t/X.csv', (rng.random((300, 40)) < 0.05) * rng.random((300, 40)), delimiter=','); np.savetxt('%t/P.csv', rng.random((300, 30)), delimiter=','); np.savetxt('%t/V.csv', rng.random((40, 30)), delimiter=','); np.savetxt('%t/k.csv', [[20.0]], delimiter=',')"
// RUN: not amls-run %s --input X=%t/X.csv --input P=%t/P.csv --input V=%t/V.csv --input kk=%t/k.csv --fuse-explain 2>&1 | FileCheck %s
// CHECK: row template closing at amls.transpose
// CHECK-NEXT: cost fused {{.*}}: fused
// CHECK: amls: 'amls.mul' at {{.*}}sparse-row-fusion-wide-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: the rows of the operands differ in width and neither has one column

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Pf: !amls.matrix<?x?xf64> {amls.name = "P"},
                %Vf: !amls.matrix<?x?xf64> {amls.name = "V"},
                %kk: !amls.matrix<?x?xf64> {amls.name = "kk"}) -> !amls.matrix<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kmax = amls.agg max all %kk : !amls.matrix<?x?xf64> -> f64
  %k64 = arith.fptosi %kmax : f64 to i64
  %k = arith.index_cast %k64 : i64 to index
  %k1 = arith.addi %k, %c1 : index
  %n = amls.nrow %X : !amls.matrix<?x?xf64>
  %m = amls.ncol %X : !amls.matrix<?x?xf64>
  %P = amls.slice %Pf[%c0 : %n, %c0 : %k] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %V = amls.slice %Vf[%c0 : %m, %c0 : %k1] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %XV = amls.matmul %X, %V : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Q = amls.mul %P, %XV : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %rs = amls.agg sum row %Q : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %t = amls.mul %P, %rs : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %R = amls.sub %Q, %t : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %Xt = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %H = amls.matmul %Xt, %R : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %H : !amls.matrix<?x?xf64>
}
