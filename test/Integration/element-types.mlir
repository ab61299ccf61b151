// f32 and i64 matrices run end to end: amls-run converts bound inputs and
// results at the boundary, the runtime's f64 I/O and printing convert too.
// RUN: %oracle %s --input X="rng.random((30, 7))" --input N="rng.integers(-50, 50, (9, 4))" --arg s=2.5 --expect "X * s" --expect "X.T @ X" --expect "X.sum()" --expect "N * N - N" --expect "N.sum()" --expect "N.max(axis=1, keepdims=True)" --rtol 1e-5 -- --threads 1
// RUN: %oracle %s --input X="rng.random((300, 70))" --input N="rng.integers(-50, 50, (9, 40))" --arg s=-1.5 --expect "X * s" --expect "X.T @ X" --expect "X.sum()" --expect "N * N - N" --expect "N.sum()" --expect "N.max(axis=1, keepdims=True)" --rtol 1e-5 -- --threads 2 --blas=always

// Printing converts to the runtime's f64; a non-integer input for an i64
// parameter is an error naming the cell.
// RUN: rm -rf %t && mkdir -p %t
// RUN: printf '1.5,2\n3,4.25\n' > %t/X.csv
// RUN: printf '1,-2\n3,4\n' > %t/N.csv
// RUN: printf '1,2.5\n' > %t/bad.csv
// RUN: amls-run %s --entry show --input X=%t/X.csv --input N=%t/N.csv | FileCheck %s --check-prefix=PRINT
// PRINT: 1.500 2.000
// PRINT-NEXT: 3.000 4.250
// PRINT-NEXT: 1.000 -2.000
// PRINT-NEXT: 3.000 4.000
// RUN: not amls-run %s --entry show --input X=%t/X.csv --input N=%t/bad.csv 2>&1 | FileCheck %s --check-prefix=NOTINT
// NOTINT: error: parameter 'N' is declared '!amls.matrix<?x?xi64>' but the input has 2.5 at row 1, column 2 (expected an integer)

func.func @main(%X: !amls.matrix<?x?xf32> {amls.name = "X"},
                %N: !amls.matrix<?x?xi64> {amls.name = "N"},
                %s: f32 {amls.name = "s"})
    -> (!amls.matrix<?x?xf32>, !amls.matrix<?x?xf32>, f32,
        !amls.matrix<?x?xi64>, i64, !amls.matrix<?x1xi64>) {
  %0 = amls.mul %X, %s : !amls.matrix<?x?xf32>, f32 -> !amls.matrix<?x?xf32>
  %t = amls.transpose %X : !amls.matrix<?x?xf32> -> !amls.matrix<?x?xf32>
  %1 = amls.matmul %t, %X : !amls.matrix<?x?xf32>, !amls.matrix<?x?xf32> -> !amls.matrix<?x?xf32>
  %2 = amls.agg sum all %X : !amls.matrix<?x?xf32> -> f32
  %sq = amls.mul %N, %N : !amls.matrix<?x?xi64>, !amls.matrix<?x?xi64> -> !amls.matrix<?x?xi64>
  %3 = amls.sub %sq, %N : !amls.matrix<?x?xi64>, !amls.matrix<?x?xi64> -> !amls.matrix<?x?xi64>
  %4 = amls.agg sum all %N : !amls.matrix<?x?xi64> -> i64
  %5 = amls.agg max row %N : !amls.matrix<?x?xi64> -> !amls.matrix<?x1xi64>
  return %0, %1, %2, %3, %4, %5 : !amls.matrix<?x?xf32>, !amls.matrix<?x?xf32>, f32, !amls.matrix<?x?xi64>, i64, !amls.matrix<?x1xi64>
}

func.func @show(%X: !amls.matrix<?x?xf32> {amls.name = "X"},
                %N: !amls.matrix<?x?xi64> {amls.name = "N"}) {
  amls.print %X : !amls.matrix<?x?xf32>
  amls.print %N : !amls.matrix<?x?xi64>
  return
}
