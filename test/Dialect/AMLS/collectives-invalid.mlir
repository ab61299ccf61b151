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

// -----

func.func @partitioned_past_the_results() {
  // expected-error @+1 {{'amls.row_partitioned' names result #1 of an op with 1 results}}
  %X = amls.read "X.csv" csv {amls.row_partitioned = array<i64: 1>} : !amls.matrix<?x10xf64>
  return
}

// -----

func.func @partitioned_not_an_array() {
  // expected-error @+1 {{expected 'amls.row_partitioned' to be an array of result numbers, found 0 : i64}}
  %X = amls.read "X.csv" csv {amls.row_partitioned = 0 : i64} : !amls.matrix<?x10xf64>
  return
}

// -----

func.func @merge_other_sizes(%a: !amls.matrix<10x12xf64>, %b: !amls.matrix<10x11xf64>) {
  // expected-error @+1 {{all of {local, before, result} have same type}}
  %0 = "amls.merge_ranks"(%a, %b) : (!amls.matrix<10x12xf64>, !amls.matrix<10x11xf64>) -> !amls.matrix<10x12xf64>
  return
}

// -----

// expected-error @+1 {{expected 'amls.row_partitioned' of parameter #0 to be a unit attribute on a matrix parameter, found 1 : i64}}
func.func @partitioned_parameter_not_unit(%X: !amls.matrix<?x10xf64> {amls.row_partitioned = 1 : i64}) {
  return
}

// -----

// expected-error @+1 {{expected 'amls.row_partitioned' of parameter #0 to be a unit attribute on a matrix parameter, found unit}}
func.func @partitioned_scalar_parameter(%x: f64 {amls.row_partitioned}) {
  return
}

// -----

func.func @partitioned_operand_out_of_range(%X: !amls.matrix<?x10xf64>) {
  // expected-error @+1 {{'amls.row_partitioned_operands' names operand #1 of an op with 1 operands}}
  amls.write %X, "X.csv" csv {amls.row_partitioned_operands = array<i64: 1>} : !amls.matrix<?x10xf64>
  return
}

// -----

func.func @partitioned_operands_with_results(%X: !amls.matrix<?x10xf64>) {
  // expected-error @+1 {{'amls.row_partitioned_operands' belongs on an op without results}}
  %t = amls.transpose %X {amls.row_partitioned_operands = array<i64: 0>} : !amls.matrix<?x10xf64> -> !amls.matrix<10x?xf64>
  return
}

// -----

func.func @partitioned_operands_not_an_array(%X: !amls.matrix<?x10xf64>) {
  // expected-error @+1 {{expected 'amls.row_partitioned_operands' to be an array of operand numbers, found 0 : i64}}
  amls.write %X, "X.csv" csv {amls.row_partitioned_operands = 0 : i64} : !amls.matrix<?x10xf64>
  return
}
