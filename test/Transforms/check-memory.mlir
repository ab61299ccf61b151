// RUN: amls-opt %s -split-input-file -amls-check-memory=limit=1000000 -verify-diagnostics
// RUN: amls-opt %s -split-input-file -amls-check-memory | FileCheck %s

// Without a limit nothing is checked.
// CHECK-LABEL: func @dense_too_large
// CHECK-LABEL: func @csr_fits
// CHECK-LABEL: func @csr_rows
// CHECK-LABEL: func @beyond_int64
// CHECK-LABEL: func @in_branch

// A dense 1000x1000 f64 matrix needs 8,000,000 bytes.
func.func @dense_too_large(%v: f64) -> !amls.matrix<1000x1000xf64> {
  %c = arith.constant 1000 : index
  // expected-error @+1 {{the 1000x1000 dense result of amls.fill needs 8000000 bytes, more than the memory limit of 1000000 bytes (amls-run --memory-limit)}}
  %X = amls.fill %v, %c, %c : f64 -> !amls.matrix<1000x1000xf64>
  return %X : !amls.matrix<1000x1000xf64>
}

// -----

// A CSR matrix is checked by its row pointers only (8 x 1001 bytes here),
// whatever its estimated non-zeros (12 x 10^6 + 8 x 1001 at sparsity 1);
// a 100x100 dense matrix (80,000 bytes) fits too. 200,000 rows of row
// pointers (1,600,008 bytes) do not.
func.func @csr_fits(%X: !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, %v: f64) -> (!amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x100xf64>) {
  %c = arith.constant 100 : index
  %Y = amls.mul %X, %v : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, f64 -> !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>
  %Z = amls.fill %v, %c, %c : f64 -> !amls.matrix<100x100xf64>
  %F = amls.mul %X, %v : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, f64 -> !amls.matrix<1000x1000xf64, sparsity = 1.0, format = csr>
  return %Y, %Z : !amls.matrix<1000x1000xf64, sparsity = 0.01, format = csr>, !amls.matrix<100x100xf64>
}

// -----

func.func @csr_rows(%X: !amls.matrix<200000x10xf64, sparsity = 0.01, format = csr>, %v: f64) -> !amls.matrix<200000x10xf64, sparsity = 0.01, format = csr> {
  // expected-error @+1 {{the 200000x10 CSR result of amls.mul needs 1600008 bytes, more than the memory limit of 1000000 bytes}}
  %Y = amls.mul %X, %v : !amls.matrix<200000x10xf64, sparsity = 0.01, format = csr>, f64 -> !amls.matrix<200000x10xf64, sparsity = 0.01, format = csr>
  return %Y : !amls.matrix<200000x10xf64, sparsity = 0.01, format = csr>
}

// -----

// rows x cols x 8 beyond 2^63 is reported, not wrapped.
func.func @beyond_int64(%v: f64) -> !amls.matrix<4294967296x4294967296xf64> {
  %c = arith.constant 4294967296 : index
  // expected-error @+1 {{the 4294967296x4294967296 dense result of amls.fill needs 147573952589676412928 bytes}}
  %X = amls.fill %v, %c, %c : f64 -> !amls.matrix<4294967296x4294967296xf64>
  return %X : !amls.matrix<4294967296x4294967296xf64>
}

// -----

// A branch may never be taken: its values are left to the run-time check.
func.func @in_branch(%p: i1, %v: f64) -> f64 {
  %r = scf.if %p -> f64 {
    %c = arith.constant 1000 : index
    %X = amls.fill %v, %c, %c : f64 -> !amls.matrix<1000x1000xf64>
    %s = amls.agg sum all %X : !amls.matrix<1000x1000xf64> -> f64
    scf.yield %s : f64
  } else {
    scf.yield %v : f64
  }
  return %r : f64
}

// -----

// A compressed matrix's size is its plan's, known only at run time: a
// one-hot matrix of 8 MB dense (above the limit) kept CSR and compressed
// is not reported.
func.func @compressed(%X: !amls.matrix<1000x1000xf64, sparsity = 0.001, format = csr>) {
  %C = amls.compress %X : !amls.matrix<1000x1000xf64, sparsity = 0.001, format = csr> -> !amls.matrix<1000x1000xf64, sparsity = 0.001, format = compressed>
  amls.release %C : !amls.matrix<1000x1000xf64, sparsity = 0.001, format = compressed>
  return
}
