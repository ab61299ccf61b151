// RUN: amls-opt %s -split-input-file -verify-diagnostics

func.func @mean_over_ranks(%s: f64) {
  // expected-error @+1 {{expected a sum, min or max over the ranks, found 'mean'}}
  %0 = amls.all_reduce mean %s : f64
  return
}

// -----

func.func @static_block(%v: !amls.matrix<1001x1xf64>) {
  // expected-error @+1 {{expected a block of rows with a row count that differs between ranks ('?'), found 500 rows}}
  %0 = amls.local_rows %v : !amls.matrix<1001x1xf64> -> !amls.matrix<500x1xf64>
  return
}

// -----

func.func @other_columns(%block: !amls.matrix<?x10xf64>) {
  // expected-error @+1 {{result #0 type '!amls.matrix<1001x9xf64>' is incompatible with '!amls.matrix<?x10xf64>' implied by the operands}}
  %0 = amls.all_gather_rows %block : !amls.matrix<?x10xf64> -> !amls.matrix<1001x9xf64>
  return
}

// -----

func.func @partitioned_scalar(%x: !amls.matrix<2x2xf64>) {
  // expected-error @+1 {{'amls.row_partitioned' names result #0, which is not a matrix}}
  %n = "amls.nrow"(%x) {amls.row_partitioned = array<i64: 0>} : (!amls.matrix<2x2xf64>) -> index
  return
}
