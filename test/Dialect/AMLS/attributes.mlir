// RUN: amls-opt %s -split-input-file | amls-opt -split-input-file | FileCheck %s

// The attributes passes and the session pass to one another round-trip.

// CHECK-LABEL: func.func @names
// CHECK-SAME: (%{{.*}}: !amls.matrix<?x?xf64> {amls.line_offset = 2 : i64, amls.name = "X"})
// CHECK-SAME: -> (f64 {amls.name = "s"}, i64 {amls.boolean, amls.name = "b"})
func.func @names(%X: !amls.matrix<?x?xf64> {amls.name = "X", amls.line_offset = 2 : i64})
    -> (f64 {amls.name = "s"}, i64 {amls.boolean, amls.name = "b"}) {
  %s = arith.constant 1.0 : f64
  %b = arith.constant 1 : i64
  return %s, %b : f64, i64
}

// -----

// CHECK-LABEL: func.func @plan
// CHECK: } {amls.parfor_plan = #amls.parfor_plan<workers = 4, partitioner = static, task_size = 2, inner_threads = 1, result_merge = [0, 1, 2]>}
func.func @plan(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
  } {amls.parfor_plan = #amls.parfor_plan<workers = 4, partitioner = static, task_size = 2, inner_threads = 1, result_merge = [0, 1, 2]>}
  return
}

// -----

// CHECK-LABEL: func.func @kinds
// CHECK-SAME: attributes {amls.result_kinds = [#amls.result_kind<dense>, #amls.result_kind<csr>, #amls.result_kind<float>, #amls.result_kind<integer>]}
func.func @kinds() attributes {amls.result_kinds = [#amls.result_kind<dense>, #amls.result_kind<csr>, #amls.result_kind<float>, #amls.result_kind<integer>]} {
  return
}

// -----

// CHECK-LABEL: func.func @sum
// CHECK: arith.addf %{{.*}}, %{{.*}} {amls.compensate} : f64
func.func @sum(%a: f64, %b: f64) -> f64 {
  %s = arith.addf %a, %b {amls.compensate} : f64
  return %s : f64
}
