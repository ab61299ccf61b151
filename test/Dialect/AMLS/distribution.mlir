// RUN: amls-opt %s -split-input-file -canonicalize | FileCheck %s --check-prefix=FOLD

// The folder of amls.distribution (Boost.Math, as the runtime computes it;
// the values are SciPy's). Verifier errors: distribution-invalid.mlir.

// FOLD-LABEL: @fold
// FOLD-DAG: arith.constant 0.97500210485177{{[0-9]*}} : f64
// FOLD-DAG: arith.constant 2.35336343480182{{[0-9]*}} : f64
// FOLD-DAG: arith.constant 0.22313016014842{{[0-9]*}} : f64
// FOLD-NOT: amls.distribution
func.func @fold() -> (f64, f64, f64) {
  %q = arith.constant 1.96 : f64
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %p = amls.distribution normal %q(%zero, %one)
  %a = arith.constant 0.05 : f64
  %df = arith.constant 3.0 : f64
  %t = amls.distribution t %a(%df) inverse upper_tail
  %x = arith.constant 3.0 : f64
  %two = arith.constant 2.0 : f64
  %c = amls.distribution chisq %x(%two) upper_tail
  return %p, %t, %c : f64, f64, f64
}

// -----

// Run-time values are left to the runtime.
// FOLD-LABEL: @runtime
// FOLD: amls.distribution normal
func.func @runtime(%x: f64, %sd: f64) -> f64 {
  %zero = arith.constant 0.0 : f64
  %p = amls.distribution normal %x(%zero, %sd)
  return %p : f64
}
