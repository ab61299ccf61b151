// Sums as SystemDS computes them (Kahan, --amls-compensate-sums and the
// runtime's CSR kernels): over 4 million cells of 1e6 plus a fraction, the
// full sum, mean, sum of squares, fused sum of a product, row and column
// sums are within 4 units in the last place of the correctly rounded sums
// (math.fsum), dense and CSR, on 1 and 2 threads. Plain sums (--sums=plain)
// drift further in the column sums (32 units here; the full and row sums'
// partial sums over 32 lanes keep them within 4), which shows the data
// tells the two apart.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/compensated_sums.py data %t
// RUN: %mark_inputs %t
// RUN: amls-run %s --input X=%t/X.bin --input Y=%t/Y.bin --output 0=%t/0.bin --output 1=%t/1.bin --output 2=%t/2.bin --output 3=%t/3.bin --output 4=%t/4.bin --output 5=%t/5.bin --threads 2
// RUN: %python %S/Inputs/compensated_sums.py check %t | FileCheck %s
// RUN: %if differential %{ %clear_outputs %t %}
// RUN: %if differential %{ amls-run %s --input X=%t/X.bin --input Y=%t/Y.bin --output 0=%t/0.bin --output 1=%t/1.bin --output 2=%t/2.bin --output 3=%t/3.bin --output 4=%t/4.bin --output 5=%t/5.bin --threads 1 --O0 %}
// RUN: %if differential %{ %python %S/Inputs/compensated_sums.py check %t | FileCheck %s %}
// RUN: %if differential %{ %clear_outputs %t %}
// RUN: %if differential %{ amls-run %s --input X=%t/X.bin --input Y=%t/Y.bin --output 0=%t/0.bin --output 1=%t/1.bin --output 2=%t/2.bin --output 3=%t/3.bin --output 4=%t/4.bin --output 5=%t/5.bin --threads 2 --formats=csr %}
// RUN: %if differential %{ %python %S/Inputs/compensated_sums.py check %t | FileCheck %s %}
// RUN: %if differential %{ %clear_outputs %t %}
// RUN: %if differential %{ amls-run %s --input X=%t/X.bin --input Y=%t/Y.bin --output 0=%t/0.bin --output 1=%t/1.bin --output 2=%t/2.bin --output 3=%t/3.bin --output 4=%t/4.bin --output 5=%t/5.bin --threads 2 --sums=plain %}
// RUN: %if differential %{ %python %S/Inputs/compensated_sums.py check %t | FileCheck %s --check-prefix=PLAIN %}
// An infinite cell makes the sums infinite, not NaN: the correction is 0
// once a sum is infinite (inf - inf would be NaN), dense and CSR.
// RUN: %oracle %s --input X="np.where(np.arange(60000).reshape(300, 200) == 1407, np.inf, rng.random((300, 200)))" --expect "X.sum()" --expect "X.mean()" --expect "X.sum(axis=1, keepdims=True)" --expect "X.sum(axis=0, keepdims=True)" -- --entry special
// RUN: not amls-run %s --sums=pairwise 2>&1 | FileCheck %s --check-prefix=BAD
// CHECK: PASS: sum 1x1
// CHECK: PASS: mean 1x1
// CHECK: PASS: sumsq 1x1
// CHECK: PASS: sum_xy 1x1
// CHECK: PASS: row_sums 2000x1
// CHECK: PASS: col_sums 1x2000
// PLAIN: FAIL: col_sums 1x2000 off by
// BAD: amls-run: error: --sums expects kahan or plain, found 'pairwise'

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"})
    -> (f64, f64, f64, f64, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>) {
  %0 = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
  %1 = amls.agg mean all %X : !amls.matrix<?x?xf64> -> f64
  %2 = amls.agg sumsq all %X : !amls.matrix<?x?xf64> -> f64
  %xy = amls.mul %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.agg sum all %xy : !amls.matrix<?x?xf64> -> f64
  %4 = amls.agg sum row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %5 = amls.agg sum col %X : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  return %0, %1, %2, %3, %4, %5 : f64, f64, f64, f64, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>
}

func.func @special(%X: !amls.matrix<?x?xf64> {amls.name = "X"})
    -> (f64, f64, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>) {
  %0 = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
  %1 = amls.agg mean all %X : !amls.matrix<?x?xf64> -> f64
  %2 = amls.agg sum row %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
  %3 = amls.agg sum col %X : !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  return %0, %1, %2, %3 : f64, f64, !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>
}
