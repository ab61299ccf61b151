// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg -verify-diagnostics
// RUN: not amls-opt %s -split-input-file -convert-amls-to-linalg=schedule=tpu 2>&1 | FileCheck %s --check-prefix=SCHEDULE

// SCHEDULE: convert-amls-to-linalg: expected schedule 'cpu', 'gpu', 'mpi' or 'generic', found 'tpu'

// An op without a kernel for a CSR operand or result is an error that names
// the op and its types, never a silent densification.
func.func @csr_without_kernel(%X: !amls.matrix<4x4xf64, sparsity = 0.1, format = csr>) -> !amls.matrix<4x4xf64> {
  // expected-error @+1 {{'amls.exp' has no kernel for these storage formats ('!amls.matrix<4x4xf64, sparsity = 0.1, format = csr>' -> '!amls.matrix<4x4xf64>'); --amls-select-formats inserts amls.convert where a CSR matrix needs to be dense}}
  %0 = amls.exp %X : !amls.matrix<4x4xf64, sparsity = 0.1, format = csr> -> !amls.matrix<4x4xf64>
  return %0 : !amls.matrix<4x4xf64>
}

// -----

func.func @csr_result_without_kernel(%X: !amls.matrix<4x4xf64>) -> f64 {
  // expected-error @+1 {{'amls.exp' has no kernel for these storage formats}}
  %0 = amls.exp %X : !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64, format = csr>
  %1 = amls.agg sum all %0 : !amls.matrix<4x4xf64, format = csr> -> f64
  return %1 : f64
}

// -----

// Element-wise ops compute a CSR result from a CSR operand's pattern; with
// dense operands a CSR result is a conversion after the op (SystemDS's
// RewriteEMultChainOpXYX crashed the lowering here before the check).
func.func @csr_result_of_dense_operands(%X: !amls.matrix<4x4xf64>, %Y: !amls.matrix<4x4xf64>) -> f64 {
  // expected-error @+1 {{'amls.mul' has no kernel for these storage formats ('!amls.matrix<4x4xf64>', '!amls.matrix<4x4xf64>' -> '!amls.matrix<4x4xf64, format = csr>')}}
  %0 = amls.mul %X, %Y : !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64, format = csr>
  %1 = amls.agg sum all %0 : !amls.matrix<4x4xf64, format = csr> -> f64
  return %1 : f64
}

// -----

func.func @csr_result_of_dense_and_scalar(%X: !amls.matrix<4x4xf64>) -> f64 {
  %c = arith.constant 2.0 : f64
  // expected-error @+1 {{'amls.mul' has no kernel for these storage formats}}
  %0 = amls.mul %c, %X : f64, !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64, format = csr>
  %1 = amls.agg sum all %0 : !amls.matrix<4x4xf64, format = csr> -> f64
  return %1 : f64
}

// -----

// A fused operator over a CSR main input visits the stored values only, so
// its body must be zero where the main input is: x + 1 is not.
func.func @csr_fused_not_sparse_safe(%X: !amls.matrix<4x4xf64, sparsity = 0.1, format = csr>) -> f64 {
  %one = arith.constant 1.0 : f64
  // expected-error @+1 {{'amls.fused' has no kernel for these storage formats}}
  %s = amls.fused cell aggregate [sum] all ins(%X, %one) : (!amls.matrix<4x4xf64, sparsity = 0.1, format = csr>, f64) -> f64 {
  ^bb0(%x: f64, %c: f64):
    %p = arith.addf %x, %c : f64
    amls.yield %p : f64
  }
  return %s : f64
}

// -----

// A row operator over a CSR X whose body the CSR kernel does not cover
// (exp(X) is not zero where X is) has no kernel.
func.func @csr_fused_row_not_covered(%X: !amls.matrix<4x4xf64, sparsity = 0.1, format = csr>, %y: !amls.matrix<4x1xf64>) -> !amls.matrix<4x1xf64> {
  // expected-error @+1 {{'amls.fused' has no kernel for these storage formats}}
  %g = amls.fused row aggregate [sum] row_inputs 2 ins(%X, %y) : (!amls.matrix<4x4xf64, sparsity = 0.1, format = csr>, !amls.matrix<4x1xf64>) -> !amls.matrix<4x1xf64> {
  ^bb0(%x: !amls.matrix<?x4xf64, sparsity = 0.1, format = csr>, %yb: !amls.matrix<?x1xf64>):
    %t = amls.transpose %x : !amls.matrix<?x4xf64, sparsity = 0.1, format = csr> -> !amls.matrix<4x?xf64, sparsity = 0.1, format = csr>
    %e = amls.exp %x : !amls.matrix<?x4xf64, sparsity = 0.1, format = csr> -> !amls.matrix<?x4xf64>
    %r = amls.agg sum row %e : !amls.matrix<?x4xf64> -> !amls.matrix<?x1xf64>
    %p = amls.matmul %t, %r : !amls.matrix<4x?xf64, sparsity = 0.1, format = csr>, !amls.matrix<?x1xf64> -> !amls.matrix<4x1xf64>
    amls.yield %p : !amls.matrix<4x1xf64>
  }
  return %g : !amls.matrix<4x1xf64>
}

// -----

// max has no kernel on a compressed matrix (--amls-select-compression
// decompresses it first).
func.func @compressed_without_kernel(%X: !amls.matrix<400x4xf64>) -> f64 {
  %C = amls.compress %X : !amls.matrix<400x4xf64> -> !amls.matrix<400x4xf64, format = compressed>
  // expected-error @+1 {{'amls.agg' has no kernel for a compressed matrix; only its products (X %*% W, t(X) %*% W, t(W) %*% X, amls.mmchain, amls.tsmm left), sum and mean of all cells, rows or columns, nrow, ncol, scalar operations, t(X), amls.decompress and amls.release read one (--amls-select-compression)}}
  %s = amls.agg max all %C : !amls.matrix<400x4xf64, format = compressed> -> f64
  amls.release %C : !amls.matrix<400x4xf64, format = compressed>
  return %s : f64
}
