// amls.read, amls.write and amls.print through the runtime, checked against
// hand-derived values.
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf 'a,b\n1,2\n3,4\n' > %t/X.csv
// RUN: sed 's|@DIR@|%t|g' %s > %t/program.mlir
// RUN: amls-run --threads 1 %t/program.mlir | FileCheck %s
// RUN: amls-run --threads 2 %t/program.mlir | FileCheck %s
// RUN: cat %t/Y.mtx | FileCheck %s --check-prefix=MTX
// RUN: cat %t/Y.csv | FileCheck %s --check-prefix=CSV

// CHECK: 2.000 4.000
// CHECK-NEXT: 6.000 8.000
// CHECK-NEXT: 20.0
// CHECK-NEXT: 4
// MTX: %%MatrixMarket matrix coordinate real general
// MTX-NEXT: 2 2 4
// MTX-NEXT: 1 1 2
// MTX-NEXT: 1 2 4
// MTX-NEXT: 2 1 6
// MTX-NEXT: 2 2 8
// CSV: 2,4
// CSV-NEXT: 6,8

func.func @main() {
  %two = arith.constant 2.0 : f64
  %X = amls.read "@DIR@/X.csv" csv : !amls.matrix<?x?xf64>
  %Y = amls.mul %X, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  amls.print %Y : !amls.matrix<?x?xf64>
  %s = amls.agg sum all %Y : !amls.matrix<?x?xf64> -> f64
  amls.print %s : f64
  %n = amls.nnz %Y : !amls.matrix<?x?xf64>
  amls.print %n : i64
  amls.write %Y, "@DIR@/Y.mtx" mm : !amls.matrix<?x?xf64>
  amls.write %Y, "@DIR@/Y.csv" csv : !amls.matrix<?x?xf64>
  return
}
