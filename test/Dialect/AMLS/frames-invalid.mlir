// RUN: amls-opt %s -split-input-file -verify-diagnostics

// The frame type and the verifiers of the frame and transform ops.

// expected-error @+1 {{expected a 2-D shape 'RxC' for a frame, found 1 dimension(s)}}
func.func @type_rank(%a: !amls.frame<4>)

// -----

// expected-error @+1 {{frame schema lists 2 column type(s) for 3 column(s)}}
func.func @schema_size(%a: !amls.frame<?x3, [str, f64]>)

// -----

// expected-error @+1 {{a frame with a schema states its column count}}
func.func @schema_without_cols(%a: !amls.frame<?x?, [str]>)

// -----

// expected-error @+1 {{expected a frame column type (str, f64, f32, i64, i32, bool), found 'f16'}}
func.func @schema_type(%a: !amls.frame<?x1, [f16]>)

// -----

func.func @separator() {
  // expected-error @+1 {{expects a separator without a quote or a line break, found '"'}}
  %F = amls.frame_read "x.csv" {sep = "\""} : !amls.frame<?x?>
  return
}

// -----

func.func @empty_separator(%F: !amls.frame<?x?>) {
  // expected-error @+1 {{expects a non-empty separator}}
  amls.frame_write %F, "x.csv" {sep = ""} : !amls.frame<?x?>
  return
}

// -----

func.func @as_matrix_sizes(%F: !amls.frame<10x3>) {
  // expected-error @+1 {{frame and matrix column counts differ: 3 vs 4}}
  %X = amls.frame_as_matrix %F : !amls.frame<10x3> -> !amls.matrix<10x4xf64>
  return
}

// -----

func.func @as_matrix_type(%F: !amls.frame<10x3>) {
  // expected-error @+1 {{expects an f64 matrix result, found 'i64'}}
  %X = amls.frame_as_matrix %F : !amls.frame<10x3> -> !amls.matrix<10x3xi64>
  return
}

// -----

func.func @encode_meta(%F: !amls.frame<?x3>, %spec: !amls.string) {
  // expected-error @+1 {{target and metadata column counts differ: 3 vs 2}}
  %X, %M = amls.transform_encode %F, %spec : !amls.frame<?x3> -> !amls.matrix<?x?xf64>, !amls.frame<?x2>
  return
}

// -----

func.func @encode_format(%F: !amls.frame<?x3>, %spec: !amls.string) {
  // expected-error @+1 {{produces a dense matrix, found format csr}}
  %X, %M = amls.transform_encode %F, %spec : !amls.frame<?x3> -> !amls.matrix<?x?xf64, format = csr>, !amls.frame<?x3>
  return
}

// -----

func.func @apply_meta(%F: !amls.frame<?x3>, %spec: !amls.string, %M: !amls.frame<?x4>) {
  // expected-error @+1 {{target and metadata column counts differ: 3 vs 4}}
  %X = amls.transform_apply %F, %spec, %M : !amls.frame<?x3>, !amls.frame<?x4> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @from_matrix_sizes(%X: !amls.matrix<3x2xf64>) {
  // expected-error @+1 {{matrix and frame row counts differ: 3 vs 4}}
  %F = amls.frame_from_matrix %X : !amls.matrix<3x2xf64> -> !amls.frame<4x2>
  return
}

// -----

func.func @from_matrix_schema(%X: !amls.matrix<3x2xf64>) {
  // expected-error @+1 {{makes FP64 columns, found the schema '!amls.frame<3x2, [f64, str]>'}}
  %F = amls.frame_from_matrix %X : !amls.matrix<3x2xf64> -> !amls.frame<3x2, [f64, str]>
  return
}
