// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg -verify-diagnostics
// RUN: not amls-opt %s -split-input-file -convert-amls-to-linalg=schedule=gpu 2>&1 | FileCheck %s --check-prefix=SCHEDULE

// SCHEDULE: convert-amls-to-linalg: expected schedule 'cpu' or 'generic', found 'gpu'

// The dense lowering does not take CSR matrices: an error names the value,
// never a silent drop of the format.
// expected-error @+1 {{argument #0 has type '!amls.matrix<4x4xf64, sparsity = 0.1, format = csr>', which the dense lowering cannot take}}
func.func @csr_argument(%X: !amls.matrix<4x4xf64, sparsity = 0.1, format = csr>) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<4x4xf64, sparsity = 0.1, format = csr> -> f64
  return %0 : f64
}

// -----

func.func @csr_result(%X: !amls.matrix<4x4xf64>) -> !amls.matrix<4x4xf64> {
  // expected-error @+1 {{result #0 has type '!amls.matrix<4x4xf64, format = csr>', which the dense lowering cannot take: CSR matrices are not lowered yet}}
  %0 = amls.convert %X : !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64, format = csr>
  %1 = amls.convert %0 : !amls.matrix<4x4xf64, format = csr> -> !amls.matrix<4x4xf64>
  return %1 : !amls.matrix<4x4xf64>
}
