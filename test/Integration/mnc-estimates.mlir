// The MNC sketches the session builds for its arguments: a one-hot O times
// W is MNC's exact case (one non-zero per row of O), and
// --formats-explain prints the estimate the formats rest on; with --stats
// the program reports the product's actual non-zeros after computing it.
// The metadata estimate assumes uniform non-zeros: 1 - (1 - 0.1 * 0.55)^10
// of 50,000 cells. The program's result (the nnz) is the oracle's check.
// RUN: %python %S/Inputs/mnc_inputs.py %t
// RUN: amls-run %s --input O=%t/onehot.csv --input W=%t/w.csv --formats-explain --stats 2>&1 | FileCheck %s
// RUN: amls-run %s --input O=%t/onehot.csv --input W=%t/w.csv --formats-explain --sparsity-estimator=metadata 2>&1 | FileCheck %s --check-prefix=METADATA
// RUN: not amls-run %s --input O=%t/onehot.csv --input W=%t/w.csv --sparsity-estimator=exact 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: amls-select-formats: loc({{.*}}mnc-estimates.mlir":[[LINE:[0-9]+]]{{.*}}): amls.matmul 1000x50: estimated nnz 27500
// CHECK: amls-select-formats: loc({{.*}}mnc-estimates.mlir":[[LINE]]{{.*}}): amls.matmul 1000x50: actual nnz 27500
// CHECK: 27500
// METADATA: amls.matmul 1000x50: estimated nnz 216{{[0-9][0-9]$}}
// METADATA-NOT: actual nnz
// METADATA: 27500
// BAD: sparsity-estimator 'mnc', 'metadata' or 'worst', found 'exact'

func.func @main(%O: !amls.matrix<?x?xf64> {amls.name = "O"},
                %W: !amls.matrix<?x?xf64> {amls.name = "W"}) -> i64 {
  %C = amls.matmul %O, %W : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
       -> !amls.matrix<?x?xf64>
  %n = amls.nnz %C : !amls.matrix<?x?xf64>
  return %n : i64
}
