// RUN: amls-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected 'amls.name' of parameter #0 to be a string, found 3 : i64}}
func.func @name_not_string(%x: f64 {amls.name = 3 : i64}) {
  return
}

// -----

// expected-error @+1 {{expected 'amls.line_offset' of parameter #0 to be a non-negative integer, found -1 : i64}}
func.func @negative_offset(%x: !amls.matrix<?x?xf64> {amls.line_offset = -1 : i64}) {
  return
}

// -----

// expected-error @+1 {{expected 'amls.boolean' of result #0 to be a unit attribute on an integer result}}
func.func @boolean_float() -> (f64 {amls.boolean}) {
  %s = arith.constant 1.0 : f64
  return %s : f64
}

// -----

// expected-error @+1 {{unknown parameter attribute 'amls.nmae' on parameter #0}}
func.func @misspelt(%x: f64 {amls.nmae = "x"}) {
  return
}

// -----

// expected-error @+1 {{unknown result attribute 'amls.line_offset' on result #0}}
func.func @offset_on_result() -> (f64 {amls.line_offset = 1 : i64}) {
  %s = arith.constant 1.0 : f64
  return %s : f64
}

// -----

func.func @plan_as_dictionary(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{expected 'amls.parfor_plan' to be #amls.parfor_plan<...>, found {workers = 2 : i64}}}
  scf.for %i = %c0 to %n step %c1 {
  } {amls.parfor_plan = {workers = 2 : i64}}
  return
}

// -----

func.func @plan_off_loop(%a: f64, %b: f64) -> f64 {
  // expected-error @+1 {{'amls.parfor_plan' belongs on a loop}}
  %s = arith.addf %a, %b {amls.parfor_plan = #amls.parfor_plan<workers = 2, partitioner = naive, task_size = 1, inner_threads = 1>} : f64
  return %s : f64
}

// -----

func.func @plan_no_workers(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+2 {{expected workers, task_size and inner_threads of at least 1, found 0, 1 and 1}}
  scf.for %i = %c0 to %n step %c1 {
  } {amls.parfor_plan = #amls.parfor_plan<workers = 0, partitioner = naive, task_size = 1, inner_threads = 1>}
  return
}

// -----

func.func @plan_bad_merge(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+2 {{expected result_merge entries 0 (in place), 1 (compare) or 2 (nonzeros), found 7}}
  scf.for %i = %c0 to %n step %c1 {
  } {amls.parfor_plan = #amls.parfor_plan<workers = 2, partitioner = naive, task_size = 1, inner_threads = 1, result_merge = [7]>}
  return
}

// -----

func.func @compensate_on_mul(%a: f64, %b: f64) -> f64 {
  // expected-error @+1 {{'amls.compensate' belongs on arith.addf}}
  %s = arith.mulf %a, %b {amls.compensate} : f64
  return %s : f64
}

// -----

// expected-error @+1 {{expected 'amls.result_kinds' to be an array of #amls.result_kind<...>, found ["dense"]}}
func.func @kinds_as_strings() attributes {amls.result_kinds = ["dense"]} {
  return
}

// -----

func.func @unknown(%a: f64, %b: f64) -> f64 {
  // expected-error @+1 {{unknown attribute 'amls.fast'}}
  %s = arith.addf %a, %b {amls.fast} : f64
  return %s : f64
}

// -----

// amls.compressible marks a matrix parameter (the session's look at its
// data), as a unit attribute.
// expected-error @+1 {{expected 'amls.compressible' of parameter #0 to be a unit attribute on a matrix parameter, found unit}}
func.func @compressible_scalar(%x: f64 {amls.compressible}) {
  return
}

// -----

// expected-error @+1 {{expected 'amls.compressible' of parameter #0 to be a unit attribute on a matrix parameter, found true}}
func.func @compressible_not_unit(%X: !amls.matrix<4x4xf64> {amls.compressible = true}) {
  return
}
