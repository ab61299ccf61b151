// Sizes of amls.read from Matrix Market headers and CSV files that exist at
// compile time
// (relative paths are relative to the working directory). A separate file
// from infer-properties.mlir because it needs a working directory with input
// files, and the conflicting-header case only errs when the file is found.
// RUN: cd %S/Inputs && amls-opt %s -split-input-file -amls-infer-properties -verify-diagnostics | FileCheck %s
// RUN: cd %S/Inputs && amls-opt %s -split-input-file -amls-infer-properties=file-metadata=false | FileCheck %s --check-prefix=OFF

// A general coordinate file gives sizes and sparsity (3 entries in 20
// cells); a symmetric one sizes only (the entries stand for up to twice as
// many non-zeros); an array file sizes only. Sizes flow on to the uses.
// CHECK-LABEL: func @header_sizes
// CHECK: amls.read "graph.mtx" mm : !amls.matrix<4x5xf64, sparsity = 0.15>
// CHECK: amls.read "symmetric.mtx" mm : !amls.matrix<3x3xf64>
// CHECK: amls.read "dense.mtx" mm : !amls.matrix<2x3xf64>
// CHECK: amls.transpose %{{.*}} : !amls.matrix<4x5xf64, sparsity = 0.15> -> !amls.matrix<5x4xf64, sparsity = 0.15>
// OFF-LABEL: func @header_sizes
// OFF: amls.read "graph.mtx" mm : !amls.matrix<?x?xf64>
func.func @header_sizes() -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %G = amls.read "graph.mtx" mm : !amls.matrix<?x?xf64>
  %S = amls.read "symmetric.mtx" mm : !amls.matrix<?x?xf64>
  %D = amls.read "dense.mtx" mm : !amls.matrix<?x?xf64>
  %T = amls.transpose %G : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %T, %S, %D : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

// Files that are missing at compile time keep the declared type; the
// run-time read sizes them.
// CHECK-LABEL: func @no_metadata
// CHECK: amls.read "missing.mtx" mm : !amls.matrix<?x?xf64>
// CHECK: amls.read "graph.csv" csv : !amls.matrix<?x?xf64>
func.func @no_metadata() -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %M = amls.read "missing.mtx" mm : !amls.matrix<?x?xf64>
  %C = amls.read "graph.csv" csv : !amls.matrix<?x?xf64>
  return %M, %C : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

func.func @header_contradicts_type() -> !amls.matrix<5x5xf64> {
  // expected-error @+1 {{'amls.read' op the Matrix Market header of 'graph.mtx' gives 4x5, but the result is declared '!amls.matrix<5x5xf64>'}}
  %G = amls.read "graph.mtx" mm : !amls.matrix<5x5xf64>
  return %G : !amls.matrix<5x5xf64>
}

// -----

// CSV files give their non-blank lines and the fields of the first one (no
// sparsity); a first line of names (a header the reader skips) leaves the
// sizes to the run-time read.
// CHECK-LABEL: func @csv_shapes
// CHECK: amls.read "small.csv" csv : !amls.matrix<3x2xf64>
// CHECK: amls.read "named.csv" csv : !amls.matrix<?x?xf64>
// OFF-LABEL: func @csv_shapes
// OFF: amls.read "small.csv" csv : !amls.matrix<?x?xf64>
func.func @csv_shapes() -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %S = amls.read "small.csv" csv : !amls.matrix<?x?xf64>
  %N = amls.read "named.csv" csv : !amls.matrix<?x?xf64>
  return %S, %N : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}

// -----

func.func @csv_contradicts_type() -> !amls.matrix<3x3xf64> {
  // expected-error @+1 {{'amls.read' op the CSV file 'small.csv' gives 3x2, but the result is declared '!amls.matrix<3x3xf64>'}}
  %S = amls.read "small.csv" csv : !amls.matrix<3x3xf64>
  return %S : !amls.matrix<3x3xf64>
}
