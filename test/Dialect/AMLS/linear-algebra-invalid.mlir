// RUN: amls-opt %s -split-input-file -verify-diagnostics

// The verifiers of the linear-algebra ops: square inputs and right-hand
// sides where the sizes are known, result sizes.

func.func @solve_not_square(%A: !amls.matrix<3x2xf64>, %b: !amls.matrix<3x1xf64>) {
  // expected-error @+1 {{'amls.solve' op expects a square matrix, found 3x2}}
  %0 = amls.solve %A, %b : !amls.matrix<3x2xf64>, !amls.matrix<3x1xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @solve_rhs_rows(%A: !amls.matrix<3x3xf64>, %b: !amls.matrix<2x1xf64>) {
  // expected-error @+1 {{'amls.solve' op the right-hand side 2x1 needs one row per row of the 3x3 matrix}}
  %0 = amls.solve %A, %b : !amls.matrix<3x3xf64>, !amls.matrix<2x1xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @inv_not_square(%A: !amls.matrix<2x3xf64>) {
  // expected-error @+1 {{'amls.inv' op expects a square matrix, found 2x3}}
  %0 = amls.inv %A : !amls.matrix<2x3xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @det_not_square(%A: !amls.matrix<2x3xf64>) {
  // expected-error @+1 {{'amls.det' op expects a square matrix, found 2x3}}
  %0 = amls.det %A : !amls.matrix<2x3xf64> -> f64
  return
}

// -----

func.func @lu_not_square(%A: !amls.matrix<2x3xf64>) {
  // expected-error @+1 {{'amls.lu' op expects a square matrix, found 2x3}}
  %P, %L, %U = amls.lu %A : !amls.matrix<2x3xf64> -> !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
  return
}

// -----

func.func @eigen_values_column(%A: !amls.matrix<3x3xf64>) {
  // expected-error @+1 {{'amls.eigen' op result #0 type '!amls.matrix<3x3xf64>' is incompatible with '!amls.matrix<3x1xf64>' implied by the operands}}
  %w, %V = amls.eigen %A : !amls.matrix<3x3xf64> -> !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>
  return
}

// -----

func.func @svd_thin(%A: !amls.matrix<5x3xf64>) {
  // expected-error @+1 {{'amls.svd' op result #0 type '!amls.matrix<5x5xf64>' is incompatible with '!amls.matrix<5x3xf64>' implied by the operands}}
  %u, %s, %v = amls.svd %A : !amls.matrix<5x3xf64> -> !amls.matrix<5x5xf64>, !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>
  return
}

// -----

func.func @triangle_side(%X: !amls.matrix<4x4xf64>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'side' [lower, upper]}}
  %0 = amls.triangle middle %X : !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64>
  return
}
