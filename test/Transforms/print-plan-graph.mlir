// RUN: amls-opt %s -split-input-file -amls-print-plan-graph 2>&1 >/dev/null | FileCheck %s
// REQUIRES: graphviz
// RUN: amls-opt %s -split-input-file -amls-print-plan-graph 2>&1 >/dev/null | dot -Tsvg | FileCheck %s --check-prefix=SVG
// RUN: amls-opt %s -split-input-file -amls-print-plan-graph | FileCheck %s --check-prefix=IR

// A fused cell operator is a filled cluster of its body's ops, named by its
// template and aggregation; its inputs' nodes feed the body's ops and its
// result is what the body yields. A product names the kernel its operands'
// formats select.
// CHECK-LABEL: digraph "amls plan" {
// CHECK: label="func @fused_sum"
// CHECK: [[X:n[0-9]+]] [label="X\n1000x10 f64, sparsity 0.01, csr", shape=ellipse];
// CHECK: [[V:n[0-9]+]] [label="v\n10x1 f64, dense", shape=ellipse];
// CHECK: [[Y:n[0-9]+]] [label="y\n1000x1 f64, dense", shape=ellipse];
// CHECK: [[P:n[0-9]+]] [label="matmul\n1000x1 f64, dense\nkernel csr x dense\nplan.py:3"];
// CHECK: label="fused magg aggregate sum -> f64 at plan.py:4"
// CHECK: [[D:n[0-9]+]] [label="arith.subf\nf64\n{{.*}}mlir:[[#]]"];
// CHECK: [[S:n[0-9]+]] [label="arith.mulf\nf64\n{{.*}}mlir:[[#]]"];
// CHECK: [[R:n[0-9]+]] [label="return", shape=ellipse];
// CHECK-DAG: [[X]] -> [[P]];
// CHECK-DAG: [[V]] -> [[P]];
// CHECK-DAG: [[P]] -> [[D]];
// CHECK-DAG: [[Y]] -> [[D]];
// CHECK-DAG: [[D]] -> [[S]];
// CHECK-DAG: [[S]] -> [[R]];
// SVG: <svg
// SVG: fused magg aggregate sum
// SVG: kernel csr x dense
// IR-LABEL: func @fused_sum
// IR: amls.fused magg
func.func @fused_sum(%X: !amls.matrix<1000x10xf64, sparsity = 0.01, format = csr> {amls.name = "X"},
                     %v: !amls.matrix<10x1xf64, format = dense> {amls.name = "v"},
                     %y: !amls.matrix<1000x1xf64, format = dense> {amls.name = "y"}) -> f64 {
  %p = amls.matmul %X, %v : !amls.matrix<1000x10xf64, sparsity = 0.01, format = csr>, !amls.matrix<10x1xf64, format = dense> -> !amls.matrix<1000x1xf64, format = dense> loc("plan.py":3:5)
  %s = amls.fused magg aggregate [sum] all ins(%p, %y) : (!amls.matrix<1000x1xf64, format = dense>, !amls.matrix<1000x1xf64, format = dense>) -> f64 {
  ^bb0(%a: f64, %b: f64):
    %d = arith.subf %a, %b : f64
    %q = arith.mulf %d, %d : f64
    amls.yield %q : f64
  } loc("plan.py":4:1)
  return %s : f64
}

// -----

// A loop is a dashed cluster with its loop-carried values; a collective of
// a distributed run is a hexagon; a constant operand is in its user's
// label.
// CHECK-LABEL: digraph "amls plan" {
// CHECK: label="func @loop"
// CHECK: label="scf.for at print-plan-graph.mlir:{{[0-9]+}}"
// CHECK: [[W:n[0-9]+]] [label="loop value\n10x1 f64", shape=ellipse, style=dashed];
// CHECK: [[T:n[0-9]+]] [label="mul\n10x1 f64\nconstants 0.5\n{{.*}}"];
// CHECK: [[A:n[0-9]+]] [label="all_reduce\n10x1 f64\n{{.*}}", shape=hexagon, style=filled, fillcolor="#f4cccc"];
// CHECK-DAG: [[W]] -> [[T]];
// CHECK-DAG: [[T]] -> [[A]];
func.func @loop(%w0: !amls.matrix<10x1xf64>, %n: index) -> !amls.matrix<10x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f64
  %w = scf.for %i = %c0 to %n step %c1 iter_args(%wi = %w0) -> (!amls.matrix<10x1xf64>) {
    %t = amls.mul %wi, %half : !amls.matrix<10x1xf64>, f64 -> !amls.matrix<10x1xf64>
    %r = amls.all_reduce sum %t : !amls.matrix<10x1xf64>
    scf.yield %r : !amls.matrix<10x1xf64>
  }
  return %w : !amls.matrix<10x1xf64>
}
