// RUN: amls-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// The matrix type
//===----------------------------------------------------------------------===//

// expected-error @+1 {{expected a 2-D shape 'RxC' for a matrix, found 3 dimension(s)}}
func.func @type_rank(%a: !amls.matrix<4x3x2xf64>)

// -----

// expected-error @+1 {{matrix element type must be f64, f32 or i64, got 'i32'}}
func.func @type_element(%a: !amls.matrix<4x3xi32>)

// -----

// expected-error @+1 {{matrix sparsity must be in [0, 1], got 1.5}}
func.func @type_sparsity(%a: !amls.matrix<4x3xf64, sparsity = 1.5>)

// -----

// expected-error @+1 {{expected matrix format 'dense' or 'csr', found 'coo'}}
func.func @type_format(%a: !amls.matrix<4x3xf64, format = coo>)

// -----

// expected-error @+1 {{expected 'sparsity' or 'format' (each at most once), found 'sparsity'}}
func.func @type_repeated_key(%a: !amls.matrix<4x3xf64, sparsity = 0.5, sparsity = 0.5>)

// -----

// expected-error @+1 {{unknown AMLS type 'vector'}}
func.func @type_unknown(%a: !amls.vector<4xf64>)

//===----------------------------------------------------------------------===//
// Element-wise operations
//===----------------------------------------------------------------------===//

// -----

func.func @binary_no_matrix(%a: f64, %b: f64) {
  // expected-error @+1 {{'amls.add' op expects at least one matrix operand, found 'f64' and 'f64'}}
  %0 = amls.add %a, %b : f64, f64 -> !amls.matrix<1x1xf64>
  return
}

// -----

func.func @binary_element_types(%a: !amls.matrix<4x3xf64>, %b: !amls.matrix<4x3xf32>) {
  // expected-error @+1 {{'amls.mul' op right operand has element type 'f32', expected 'f64'}}
  %0 = amls.mul %a, %b : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf32> -> !amls.matrix<4x3xf64>
  return
}

// -----

func.func @binary_scalar_type(%a: !amls.matrix<4x3xf64>, %b: i64) {
  // expected-error @+1 {{'amls.mul' op right operand has element type 'i64', expected 'f64'}}
  %0 = amls.mul %a, %b : !amls.matrix<4x3xf64>, i64 -> !amls.matrix<4x3xf64>
  return
}

// -----

func.func @binary_broadcast(%a: !amls.matrix<4x3xf64>, %b: !amls.matrix<2x3xf64>) {
  // expected-error @+1 {{'amls.sub' op operand shapes 4x3 and 2x3 are not broadcast-compatible}}
  %0 = amls.sub %a, %b : !amls.matrix<4x3xf64>, !amls.matrix<2x3xf64> -> !amls.matrix<4x3xf64>
  return
}

// -----

func.func @binary_outer(%a: !amls.matrix<4x1xf64>, %b: !amls.matrix<1x3xf64>) {
  // expected-error @+1 {{'amls.add' op operand shapes 4x1 and 1x3 would both be broadcast (an outer product); DML broadcasts only a row or column vector against a matrix}}
  %0 = amls.add %a, %b : !amls.matrix<4x1xf64>, !amls.matrix<1x3xf64> -> !amls.matrix<4x3xf64>
  return
}


// -----

func.func @binary_float_only(%a: !amls.matrix<4x3xi64>) {
  // expected-error @+1 {{'amls.div' op is only defined on floating-point matrices, found element type 'i64'}}
  %0 = amls.div %a, %a : !amls.matrix<4x3xi64>, !amls.matrix<4x3xi64> -> !amls.matrix<4x3xi64>
  return
}

// -----

func.func @unary_float_only(%a: !amls.matrix<4x3xi64>) {
  // expected-error @+1 {{'amls.exp' op is only defined on floating-point matrices, found element type 'i64'}}
  %0 = amls.exp %a : !amls.matrix<4x3xi64> -> !amls.matrix<4x3xi64>
  return
}

// -----

func.func @binary_result(%a: !amls.matrix<4x3xf64>, %b: !amls.matrix<1x3xf64>) {
  // expected-error @+1 {{'amls.add' op result #0 type '!amls.matrix<4x4xf64>' is incompatible with '!amls.matrix<4x3xf64>' implied by the operands}}
  %0 = amls.add %a, %b : !amls.matrix<4x3xf64>, !amls.matrix<1x3xf64> -> !amls.matrix<4x4xf64>
  return
}

// -----

func.func @unary_result(%a: !amls.matrix<4x3xf64>) {
  // expected-error @+1 {{'amls.exp' op result #0 type '!amls.matrix<4x3xf32>' is incompatible with '!amls.matrix<4x3xf64, sparsity = 1.0>' implied by the operands}}
  %0 = amls.exp %a : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf32>
  return
}

// -----

func.func @ifelse_shapes(%c: !amls.matrix<4x3xf64>, %a: !amls.matrix<3x4xf64>, %s: f64) {
  // expected-error @+1 {{'amls.ifelse' op matrix operands must have the same shape, found 4x3 and 3x4}}
  %0 = amls.ifelse %c, %a, %s : !amls.matrix<4x3xf64>, !amls.matrix<3x4xf64>, f64 -> !amls.matrix<4x3xf64>
  return
}

// -----

func.func @ifelse_no_matrix(%c: f64, %s: f64) {
  // expected-error @+1 {{'amls.ifelse' op expects at least one matrix operand}}
  %0 = amls.ifelse %c, %s, %s : f64, f64, f64 -> !amls.matrix<1x1xf64>
  return
}

// -----

func.func @ifelse_value_types(%c: !amls.matrix<2x2xf64>, %a: !amls.matrix<2x2xf64>, %s: f32) {
  // expected-error @+1 {{'amls.ifelse' op false value has element type 'f32', expected 'f64'}}
  %0 = amls.ifelse %c, %a, %s : !amls.matrix<2x2xf64>, !amls.matrix<2x2xf64>, f32 -> !amls.matrix<2x2xf64>
  return
}

//===----------------------------------------------------------------------===//
// Data generation
//===----------------------------------------------------------------------===//


// -----

func.func @ifelse_value_element_type(%c: !amls.matrix<2x2xf64>, %a: i32) {
  // expected-error @+1 {{'amls.ifelse' op selected values must be f64, f32 or i64, found 'i32'}}
  %0 = amls.ifelse %c, %a, %a : !amls.matrix<2x2xf64>, i32, i32 -> !amls.matrix<2x2xf64>
  return
}
// -----

func.func @fill_value_type(%v: index, %n: index) {
  // expected-error @+1 {{'amls.fill' op fill value must be f64, f32 or i64, found 'index'}}
  %0 = amls.fill %v, %n, %n : index -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @fill_negative(%v: f64) {
  %m1 = arith.constant -1 : index
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'amls.fill' op row count must be non-negative, got -1}}
  %0 = amls.fill %v, %m1, %c3 : f64 -> !amls.matrix<?x3xf64>
  return
}

// -----

func.func @fill_size(%v: f64) {
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'amls.fill' op result #0 type '!amls.matrix<4x3xf64>' is incompatible with '!amls.matrix<3x3xf64>' implied by the operands}}
  %0 = amls.fill %v, %c3, %c3 : f64 -> !amls.matrix<4x3xf64>
  return
}

// -----

func.func @rand_sparsity(%n: index, %v: f64) {
  %sp = arith.constant 2.0 : f64
  // expected-error @+1 {{'amls.rand' op sparsity must be in [0, 1], got 2}}
  %0 = amls.rand %n, %n, %v, %v, %sp uniform : f64 -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @rand_range(%n: index, %sp: f64) {
  %lo = arith.constant 5.0 : f64
  %hi = arith.constant 1.0 : f64
  // expected-error @+1 {{'amls.rand' op min (5) must not exceed max (1)}}
  %0 = amls.rand %n, %n, %lo, %hi, %sp uniform : f64 -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @rand_element_type(%n: index, %v: f16) {
  // expected-error @+1 {{'amls.rand' op random values must be f64 or f32, found 'f16'}}
  %0 = amls.rand %n, %n, %v, %v, %v uniform : f16 -> !amls.matrix<?x?xf64>
  return
}

// -----

// min and max do not matter for a normal distribution.
func.func @rand_normal_ignores_range(%n: index, %sp: f64) {
  %lo = arith.constant 5.0 : f64
  %hi = arith.constant 1.0 : f64
  %0 = amls.rand %n, %n, %lo, %hi, %sp normal : f64 -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @rand_negative(%v: f64) {
  %c2 = arith.constant 2 : index
  %m3 = arith.constant -3 : index
  // expected-error @+1 {{'amls.rand' op column count must be non-negative, got -3}}
  %0 = amls.rand %c2, %m3, %v, %v, %v uniform : f64 -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @seq_zero_increment(%a: f64, %b: f64) {
  %zero = arith.constant 0.0 : f64
  // expected-error @+1 {{'amls.seq' op increment must not be zero}}
  %0 = amls.seq %a, %b, %zero : f64 -> !amls.matrix<?x1xf64>
  return
}


// -----

func.func @seq_element_type(%a: f16) {
  // expected-error @+1 {{'amls.seq' op sequence values must be f64 or f32, found 'f16'}}
  %0 = amls.seq %a, %a, %a : f16 -> !amls.matrix<?x1xf64>
  return
}
// -----

func.func @seq_wrong_sign() {
  %from = arith.constant 1.0 : f64
  %to = arith.constant 10.0 : f64
  %incr = arith.constant -1.0 : f64
  // expected-error @+1 {{'amls.seq' op increment -1 has the wrong sign to go from 1 to 10}}
  %0 = amls.seq %from, %to, %incr : f64 -> !amls.matrix<?x1xf64>
  return
}

// -----

func.func @seq_nan() {
  %from = arith.constant 0.0 : f64
  %to = arith.constant 0x7FF8000000000000 : f64
  %incr = arith.constant 1.0 : f64
  // expected-error @+1 {{'amls.seq' op cannot generate a sequence from 0 to nan in steps of 1}}
  %0 = amls.seq %from, %to, %incr : f64 -> !amls.matrix<?x1xf64>
  return
}

// -----

func.func @constant_rank() {
  // expected-error @+1 {{'amls.constant' op literal must have a static 2-D shape, found 'tensor<3xf64>'}}
  %0 = amls.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf64> -> !amls.matrix<3x1xf64>
  return
}

// -----

func.func @constant_element_type() {
  // expected-error @+1 {{'amls.constant' op literal element type must be f64, f32 or i64, found 'i32'}}
  %0 = amls.constant dense<1> : tensor<1x1xi32> -> !amls.matrix<1x1xi64>
  return
}

// -----

func.func @constant_shape() {
  // expected-error @+1 {{'amls.constant' op result #0 type '!amls.matrix<2x1xf64>' is incompatible with '!amls.matrix<1x2xf64, sparsity = 1.0>' implied by the operands}}
  %0 = amls.constant dense<[[1.0, 2.0]]> : tensor<1x2xf64> -> !amls.matrix<2x1xf64>
  return
}

//===----------------------------------------------------------------------===//
// Products and aggregates
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_inner(%a: !amls.matrix<4x3xf64>, %b: !amls.matrix<4x2xf64>) {
  // expected-error @+1 {{'amls.matmul' op inner dimensions differ: 4x3 %*% 4x2}}
  %0 = amls.matmul %a, %b : !amls.matrix<4x3xf64>, !amls.matrix<4x2xf64> -> !amls.matrix<4x2xf64>
  return
}

// -----

func.func @matmul_element_types(%a: !amls.matrix<4x3xf64>, %b: !amls.matrix<3x2xi64>) {
  // expected-error @+1 {{'amls.matmul' op right operand has element type 'i64', expected 'f64'}}
  %0 = amls.matmul %a, %b : !amls.matrix<4x3xf64>, !amls.matrix<3x2xi64> -> !amls.matrix<4x2xf64>
  return
}

// -----

func.func @tsmm_result(%a: !amls.matrix<100x10xf64>) {
  // expected-error @+1 {{'amls.tsmm' op result #0 type '!amls.matrix<100x100xf64>' is incompatible with '!amls.matrix<10x10xf64>' implied by the operands}}
  %0 = amls.tsmm left %a : !amls.matrix<100x10xf64> -> !amls.matrix<100x100xf64>
  return
}

// -----

func.func @mmchain_vector(%X: !amls.matrix<100x10xf64>, %v: !amls.matrix<9x1xf64>) {
  // expected-error @+1 {{'amls.mmchain' op vector must be 10x1 for a 100x10 matrix, found 9x1}}
  %0 = amls.mmchain %X, %v : !amls.matrix<100x10xf64>, !amls.matrix<9x1xf64> -> !amls.matrix<10x1xf64>
  return
}

// -----

func.func @mmchain_weights(%X: !amls.matrix<100x10xf64>, %v: !amls.matrix<10x1xf64>, %w: !amls.matrix<10x1xf64>) {
  // expected-error @+1 {{'amls.mmchain' op weights must be 100x1 for a 100x10 matrix, found 10x1}}
  %0 = amls.mmchain %X, %v weights %w : !amls.matrix<100x10xf64>, !amls.matrix<10x1xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
  return
}

// -----

func.func @agg_index_all(%X: !amls.matrix<10x5xf64>) {
  // expected-error @+1 {{'amls.agg' op 'maxindex' needs a 'row' or 'col' axis}}
  %0 = amls.agg maxindex all %X : !amls.matrix<10x5xf64> -> f64
  return
}

// -----

func.func @agg_row_shape(%X: !amls.matrix<10x5xf64>) {
  // expected-error @+1 {{'amls.agg' op result #0 type '!amls.matrix<1x5xf64>' is incompatible with '!amls.matrix<10x1xf64>' implied by the operands}}
  %0 = amls.agg sum row %X : !amls.matrix<10x5xf64> -> !amls.matrix<1x5xf64>
  return
}

// -----

func.func @agg_scalar_type(%X: !amls.matrix<10x5xf64>) {
  // expected-error @+1 {{'amls.agg' op result #0 type 'f32' is incompatible with 'f64' implied by the operands}}
  %0 = amls.agg sum all %X : !amls.matrix<10x5xf64> -> f32
  return
}

// -----

func.func @trace_square(%X: !amls.matrix<4x3xf64>) {
  // expected-error @+1 {{'amls.trace' op expects a square matrix, found 4x3}}
  %0 = amls.trace %X : !amls.matrix<4x3xf64> -> f64
  return
}

// -----

func.func @cumagg_shape(%X: !amls.matrix<4x3xf64>) {
  // expected-error @+1 {{'amls.cumagg' op result #0 type '!amls.matrix<3x4xf64>' is incompatible with '!amls.matrix<4x3xf64>' implied by the operands}}
  %0 = amls.cumagg cumsum %X : !amls.matrix<4x3xf64> -> !amls.matrix<3x4xf64>
  return
}

//===----------------------------------------------------------------------===//
// Reorganisation
//===----------------------------------------------------------------------===//

// -----

func.func @transpose_shape(%X: !amls.matrix<4x3xf64>) {
  // expected-error @+1 {{'amls.transpose' op result #0 type '!amls.matrix<4x3xf64>' is incompatible with '!amls.matrix<3x4xf64>' implied by the operands}}
  %0 = amls.transpose %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  return
}

// -----

func.func @reshape_cells(%X: !amls.matrix<4x3xf64>) {
  %c5 = arith.constant 5 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'amls.reshape' op cannot reshape 4x3 (12 cells) into 5x2 (10 cells)}}
  %0 = amls.reshape %X, %c5, %c2 : !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @reshape_divisor(%X: !amls.matrix<4x3xf64>, %n: index) {
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'amls.reshape' op cannot reshape 4x3 (12 cells) into 5 rows or columns}}
  %0 = amls.reshape %X, %c5, %n : !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @diag_shape(%X: !amls.matrix<4x3xf64>) {
  // expected-error @+1 {{'amls.diag' op expects a column vector or a square matrix, found 4x3}}
  %0 = amls.diag %X : !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @cbind_rows(%a: !amls.matrix<4x3xf64>, %b: !amls.matrix<5x1xf64>) {
  // expected-error @+1 {{'amls.cbind' op input #1 has 5x1 but input #0 has 4x3: the number of rows must match}}
  %0 = amls.cbind %a, %b : !amls.matrix<4x3xf64>, !amls.matrix<5x1xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @cbind_one_input(%a: !amls.matrix<4x3xf64>) {
  // expected-error @+1 {{'amls.cbind' op expects at least two inputs, found 1}}
  %0 = amls.cbind %a : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  return
}

// -----

func.func @rbind_cols(%a: !amls.matrix<4x3xf64>, %b: !amls.matrix<1x2xf64>) {
  // expected-error @+1 {{'amls.rbind' op input #1 has 1x2 but input #0 has 4x3: the number of columns must match}}
  %0 = amls.rbind %a, %b : !amls.matrix<4x3xf64>, !amls.matrix<1x2xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @rbind_element_types(%a: !amls.matrix<4x3xf64>, %b: !amls.matrix<1x3xi64>) {
  // expected-error @+1 {{'amls.rbind' op input #1 has element type 'i64', expected 'f64'}}
  %0 = amls.rbind %a, %b : !amls.matrix<4x3xf64>, !amls.matrix<1x3xi64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @slice_negative(%X: !amls.matrix<10x10xf64>, %n: index) {
  %m1 = arith.constant -1 : index
  // expected-error @+1 {{'amls.slice' op row begin -1 is negative}}
  %0 = amls.slice %X[%m1 : %n, %n : %n] : !amls.matrix<10x10xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @slice_reversed(%X: !amls.matrix<10x10xf64>, %n: index) {
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  // expected-error @+1 {{'amls.slice' op column range [5, 2) is reversed}}
  %0 = amls.slice %X[%n : %n, %c5 : %c2] : !amls.matrix<10x10xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @slice_out_of_bounds(%X: !amls.matrix<10x10xf64>) {
  %c0 = arith.constant 0 : index
  %c11 = arith.constant 11 : index
  // expected-error @+1 {{'amls.slice' op row range end 11 exceeds the 10 rows of the matrix}}
  %0 = amls.slice %X[%c0 : %c11, %c0 : %c11] : !amls.matrix<10x10xf64> -> !amls.matrix<?x?xf64>
  return
}


// -----

func.func @slice_begin_out_of_bounds(%X: !amls.matrix<10x10xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c12 = arith.constant 12 : index
  // expected-error @+1 {{'amls.slice' op row begin 12 exceeds the 10 rows of the matrix}}
  %0 = amls.slice %X[%c12 : %n, %c0 : %n] : !amls.matrix<10x10xf64> -> !amls.matrix<?x?xf64>
  return
}
// -----

func.func @slice_result(%X: !amls.matrix<10x10xf64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'amls.slice' op result #0 type '!amls.matrix<3x2xf64>' is incompatible with '!amls.matrix<2x2xf64>' implied by the operands}}
  %0 = amls.slice %X[%c0 : %c2, %c0 : %c2] : !amls.matrix<10x10xf64> -> !amls.matrix<3x2xf64>
  return
}

// -----

func.func @slice_declared_too_large(%X: !amls.matrix<3x3xf64>, %n: index) {
  // expected-error @+1 {{'amls.slice' op result 5x5 is larger than the 3x3 input}}
  %0 = amls.slice %X[%n : %n, %n : %n] : !amls.matrix<3x3xf64> -> !amls.matrix<5x5xf64>
  return
}

// -----

func.func @slice_negative_end(%X: !amls.matrix<10x10xf64>, %n: index) {
  %m2 = arith.constant -2 : index
  // expected-error @+1 {{'amls.slice' op column end -2 is negative}}
  %0 = amls.slice %X[%n : %n, %n : %m2] : !amls.matrix<10x10xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @insert_slice_too_large(%Y: !amls.matrix<5x5xf64>, %X: !amls.matrix<3x3xf64>, %n: index) {
  // expected-error @+1 {{'amls.insert_slice' op source 5x5 does not fit into the 3x3 destination}}
  %0 = amls.insert_slice %Y into %X[%n : %n, %n : %n] : !amls.matrix<5x5xf64> into !amls.matrix<3x3xf64> -> !amls.matrix<3x3xf64>
  return
}

// -----

func.func @reshape_zero(%X: !amls.matrix<3x3xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'amls.reshape' op cannot reshape 3x3 (9 cells) into 0 rows or columns}}
  %0 = amls.reshape %X, %c0, %n : !amls.matrix<3x3xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @insert_slice_shape(%Y: !amls.matrix<3x3xf64>, %X: !amls.matrix<10x10xf64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  // expected-error @+1 {{'amls.insert_slice' op source is 3x3 but the target range is 2x2}}
  %0 = amls.insert_slice %Y into %X[%c0 : %c2, %c0 : %c2] : !amls.matrix<3x3xf64> into !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
  return
}

// -----

func.func @insert_slice_bounds(%Y: !amls.matrix<?x?xf64>, %X: !amls.matrix<10x10xf64>, %n: index) {
  %c12 = arith.constant 12 : index
  // expected-error @+1 {{'amls.insert_slice' op column range end 12 exceeds the 10 columns of the matrix}}
  %0 = amls.insert_slice %Y into %X[%n : %n, %n : %c12] : !amls.matrix<?x?xf64> into !amls.matrix<10x10xf64> -> !amls.matrix<10x10xf64>
  return
}

// -----

func.func @remove_empty_select(%X: !amls.matrix<4x3xf64>, %s: !amls.matrix<1x3xf64>) {
  // expected-error @+1 {{'amls.remove_empty' op select must be a column vector of 4x1 for a 4x3 matrix, found 1x3}}
  %0 = amls.remove_empty rows %X select %s : !amls.matrix<4x3xf64>, !amls.matrix<1x3xf64> -> !amls.matrix<?x3xf64>
  return
}

// -----

func.func @table_vectors(%a: !amls.matrix<?x2xf64>, %b: !amls.matrix<?x1xf64>) {
  // expected-error @+1 {{'amls.table' op expects column vectors of category ids, found ?x2}}
  %0 = amls.table %a, %b : !amls.matrix<?x2xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @table_lengths(%a: !amls.matrix<5x1xf64>, %b: !amls.matrix<6x1xf64>) {
  // expected-error @+1 {{'amls.table' op category vectors differ in length: 5x1 and 6x1}}
  %0 = amls.table %a, %b : !amls.matrix<5x1xf64>, !amls.matrix<6x1xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @table_weights(%a: !amls.matrix<5x1xf64>, %w: !amls.matrix<4x1xf64>) {
  // expected-error @+1 {{'amls.table' op weights must be 5x1 like the category vectors, found 4x1}}
  %0 = amls.table %a, %a weights %w : !amls.matrix<5x1xf64>, !amls.matrix<5x1xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @table_half_size(%a: !amls.matrix<5x1xf64>, %n: index) {
  // expected-error @+1 {{'amls.table' op expects both an output row and column count, or neither}}
  %0 = "amls.table"(%a, %a, %n) <{operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>}> : (!amls.matrix<5x1xf64>, !amls.matrix<5x1xf64>, index) -> !amls.matrix<?x?xf64>
  return
}

// -----

func.func @order_column(%X: !amls.matrix<?x3xf64>) {
  %c3 = arith.constant 3 : index
  // expected-error @+1 {{'amls.order' op sort column 4 is outside the ?x3 matrix}}
  %0 = amls.order %X by %c3 : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
  return
}

// -----

func.func @order_indices_shape(%X: !amls.matrix<?x3xf64>, %c: index) {
  // expected-error @+1 {{'amls.order' op result #0 type '!amls.matrix<?x3xf64>' is incompatible with '!amls.matrix<?x1xf64, sparsity = 1.0>' implied by the operands}}
  %0 = amls.order %X by %c indices : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
  return
}

//===----------------------------------------------------------------------===//
// Sizes, casts, conversions
//===----------------------------------------------------------------------===//

// -----

func.func @as_scalar_shape(%X: !amls.matrix<3x1xf64>) {
  // expected-error @+1 {{'amls.as_scalar' op expects a 1x1 matrix, found 3x1}}
  %0 = amls.as_scalar %X : !amls.matrix<3x1xf64> -> f64
  return
}

// -----

func.func @as_matrix_type(%i: index) {
  // expected-error @+1 {{'amls.as_matrix' op scalar must be f64, f32 or i64, found 'index'}}
  %0 = amls.as_matrix %i : index -> !amls.matrix<1x1xf64>
  return
}

// -----

func.func @cast_sizes(%X: !amls.matrix<4x3xf64>) {
  // expected-error @+1 {{'amls.cast' op operand type '!amls.matrix<4x3xf64>' and result type '!amls.matrix<3x4xf64>' are cast incompatible}}
  %0 = amls.cast %X : !amls.matrix<4x3xf64> -> !amls.matrix<3x4xf64>
  return
}

// -----

func.func @cast_element_type(%X: !amls.matrix<4x3xf64>) {
  // expected-error @+1 {{'amls.cast' op operand type '!amls.matrix<4x3xf64>' and result type '!amls.matrix<4x3xf32>' are cast incompatible}}
  %0 = amls.cast %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf32>
  return
}

// -----

func.func @cast_format(%X: !amls.matrix<4x3xf64, format = dense>) {
  // expected-error @+1 {{'amls.cast' op operand type '!amls.matrix<4x3xf64, format = dense>' and result type '!amls.matrix<4x3xf64, format = csr>' are cast incompatible}}
  %0 = amls.cast %X : !amls.matrix<4x3xf64, format = dense> -> !amls.matrix<4x3xf64, format = csr>
  return
}

// -----

func.func @convert_shape(%X: !amls.matrix<4x3xf64>) {
  // expected-error @+1 {{'amls.convert' op result #0 type '!amls.matrix<3x3xf64, format = csr>' is incompatible with '!amls.matrix<4x3xf64, format = csr>' implied by the operands}}
  %0 = amls.convert %X : !amls.matrix<4x3xf64> -> !amls.matrix<3x3xf64, format = csr>
  return
}

//===----------------------------------------------------------------------===//
// parfor
//===----------------------------------------------------------------------===//

// -----

func.func @parfor_arguments(%init: !amls.matrix<10x1xf64>, %n: index) {
  // expected-error @+1 {{'amls.parfor' op body must take the induction variable and one argument per shared matrix (2), found 1}}
  %r = amls.parfor %n to %n step %n shared(%init : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index):
    amls.yield %init : !amls.matrix<10x1xf64>
  } -> !amls.matrix<10x1xf64>
  return
}

// -----

func.func @parfor_induction(%init: !amls.matrix<10x1xf64>, %n: index) {
  // expected-error @+1 {{'amls.parfor' op induction variable must be 'index', found 'i64'}}
  %r = amls.parfor %n to %n step %n shared(%init : !amls.matrix<10x1xf64>) {
  ^bb0(%i: i64, %acc: !amls.matrix<10x1xf64>):
    amls.yield %acc : !amls.matrix<10x1xf64>
  } -> !amls.matrix<10x1xf64>
  return
}

// -----

func.func @parfor_merge_count(%init: !amls.matrix<10x1xf64>, %n: index) {
  // expected-error @+1 {{'amls.parfor' op expects one 'result_merge' entry per shared matrix (1), found 2}}
  %r = amls.parfor %n to %n step %n shared(%init : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    amls.yield %acc : !amls.matrix<10x1xf64>
  } {result_merge = array<i32: 1, 1>} -> !amls.matrix<10x1xf64>
  return
}

// -----

func.func @parfor_merge_mode(%init: !amls.matrix<10x1xf64>, %n: index) {
  // expected-error @+1 {{'amls.parfor' op expects 'result_merge' entries 0 (in place), 1 (compare) or 2 (nonzeros), found 3}}
  %r = amls.parfor %n to %n step %n shared(%init : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    amls.yield %acc : !amls.matrix<10x1xf64>
  } {result_merge = array<i32: 3>} -> !amls.matrix<10x1xf64>
  return
}

// -----

func.func @parfor_results(%init: !amls.matrix<10x1xf64>, %n: index) {
  // expected-error @+1 {{'amls.parfor' op expects one result per shared matrix (1), found 0}}
  amls.parfor %n to %n step %n shared(%init : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    amls.yield %acc : !amls.matrix<10x1xf64>
  }
  return
}

// -----

func.func @parfor_types(%init: !amls.matrix<10x1xf64>, %n: index) {
  // expected-error @+1 {{'amls.parfor' op shared matrix #0 has type '!amls.matrix<10x1xf64>' but its body argument is '!amls.matrix<?x1xf64>' and its result is '!amls.matrix<10x1xf64>'}}
  %r = amls.parfor %n to %n step %n shared(%init : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<?x1xf64>):
    amls.yield %init : !amls.matrix<10x1xf64>
  } -> !amls.matrix<10x1xf64>
  return
}

// -----

func.func @parfor_yield(%init: !amls.matrix<10x1xf64>, %n: index) {
  %r = amls.parfor %n to %n step %n shared(%init : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    // expected-error @+1 {{'amls.yield' op must yield the shared matrices' types '!amls.matrix<10x1xf64>', found}}
    amls.yield
  } -> !amls.matrix<10x1xf64>
  return
}

//===----------------------------------------------------------------------===//
// fused
//===----------------------------------------------------------------------===//


// -----

func.func @parfor_terminator(%init: !amls.matrix<10x1xf64>, %n: index) {
  // expected-error @+1 {{'amls.parfor' op body must end in 'amls.yield'}}
  %r = amls.parfor %n to %n step %n shared(%init : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    llvm.unreachable
  } -> !amls.matrix<10x1xf64>
  return
}
// -----

func.func @fused_arguments(%X: !amls.matrix<?x?xf64>) {
  // expected-error @+1 {{'amls.fused' op body must take one argument per input (1), found 2}}
  %0 = amls.fused cell ins(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64, %y: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_yield_count(%X: !amls.matrix<?x?xf64>) {
  %0 = amls.fused cell ins(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64):
    // expected-error @+1 {{'amls.yield' op must yield one value per result (1), found 2}}
    amls.yield %x, %x : f64, f64
  }
  return
}


// -----

func.func @fused_terminator(%X: !amls.matrix<?x?xf64>) {
  // expected-error @+1 {{'amls.fused' op body must end in 'amls.yield'}}
  %0 = amls.fused cell ins(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64):
    llvm.unreachable
  }
  return
}
// -----

func.func @fused_axis_missing(%X: !amls.matrix<?x?xf64>) {
  // expected-error @+1 {{'amls.fused' op an aggregating fused operator needs an axis}}
  %0 = amls.fused cell aggregate [sum] ins(%X) : (!amls.matrix<?x?xf64>) -> f64 {
  ^bb0(%x: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_axis_alone(%X: !amls.matrix<?x?xf64>) {
  // expected-error @+1 {{'amls.fused' op an axis needs 'aggregate'}}
  %0 = amls.fused cell all ins(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_magg(%X: !amls.matrix<?x?xf64>) {
  // expected-error @+1 {{'amls.fused' op a 'magg' operator must aggregate}}
  %0 = amls.fused magg ins(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_aggregate_count(%X: !amls.matrix<?x?xf64>) {
  // expected-error @+1 {{'amls.fused' op expects one aggregation per result (1), found 2}}
  %0 = amls.fused magg aggregate [sum, max] all ins(%X) : (!amls.matrix<?x?xf64>) -> f64 {
  ^bb0(%x: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_aggregate_kind(%X: !amls.matrix<?x?xf64>) {
  // expected-error @+1 {{'amls.fused' op fused aggregation must be sum, sumsq, min or max, found mean}}
  %0 = amls.fused cell aggregate [mean] all ins(%X) : (!amls.matrix<?x?xf64>) -> f64 {
  ^bb0(%x: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_aggregate_keyword(%X: !amls.matrix<?x?xf64>) {
  // expected-error @+1 {{expected an aggregation kind, found 'average'}}
  %0 = amls.fused cell aggregate [average] all ins(%X) : (!amls.matrix<?x?xf64>) -> f64 {
  ^bb0(%x: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_argument_type(%X: !amls.matrix<?x?xf64>) {
  // expected-error @+1 {{'amls.fused' op body argument #0 must be the cell type 'f64' of input #0, found 'f32'}}
  %0 = amls.fused cell ins(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f32):
    amls.yield %x : f32
  }
  return
}

// -----

func.func @fused_yield_type(%X: !amls.matrix<?x?xf64>, %i: i64) {
  %0 = amls.fused cell ins(%X, %i) : (!amls.matrix<?x?xf64>, i64) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64, %j: i64):
    // expected-error @+1 {{'amls.yield' op value #0 must be the cell type 'f64' of result #0, found 'i64'}}
    amls.yield %j : i64
  }
  return
}

// -----

func.func @fused_main_input(%s: f64) {
  // expected-error @+1 {{'amls.fused' op expects a matrix as its first (main) input}}
  %0 = amls.fused cell ins(%s) : (f64) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_result_shape(%X: !amls.matrix<4x3xf64>) {
  // expected-error @+1 {{'amls.fused' op result #0 type '!amls.matrix<4x1xf64>' is incompatible with '!amls.matrix<1x3xf64>' implied by the operands}}
  %0 = amls.fused cell aggregate [sum] col ins(%X) : (!amls.matrix<4x3xf64>) -> !amls.matrix<4x1xf64> {
  ^bb0(%x: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @yield_parent(%s: f64) {
  // expected-error @+1 {{'amls.yield' op expects parent op to be one of 'amls.parfor, amls.fused'}}
  amls.yield %s : f64
}

// -----

func.func @printf_count(%s: f64) {
  // expected-error @+1 {{'amls.printf' op format has 2 '{}' placeholder(s) but 1 value(s) are given}}
  amls.printf "{} and {%5.4f}" (%s : f64)
  return
}

// -----

func.func @printf_unterminated_spec(%s: f64) {
  // expected-error @+1 {{'amls.printf' op format has an unterminated '{%' placeholder at position 4}}
  amls.printf "obj {%5.4f" (%s : f64)
  return
}

// -----

func.func @stop_brace(%s: f64) {
  // expected-error @+1 {{'amls.stop' op format has an unmatched '{' at position 4 (write '{{' or '}}' for a literal brace)}}
  amls.stop "bad {x} {}" (%s : f64)
  return
}

// -----

func.func @fused_row_inputs_missing(%X: !amls.matrix<?x3xf64>) {
  // expected-error @+1 {{'amls.fused' op a 'row' operator needs 'row_inputs'}}
  %0 = amls.fused row ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    amls.yield %x : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_inputs_cell(%X: !amls.matrix<?x3xf64>) {
  // expected-error @+1 {{'amls.fused' op 'row_inputs' needs the row template}}
  %0 = amls.fused cell row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_row_inputs_count(%X: !amls.matrix<?x3xf64>) {
  // expected-error @+1 {{'amls.fused' op has 2 row inputs but only 1 inputs}}
  %0 = amls.fused row row_inputs 2 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    amls.yield %x : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_block_static(%X: !amls.matrix<10x3xf64>) {
  // expected-error @+1 {{'amls.fused' op body argument #0 is a block of rows of row input #0 and must have '?' rows, found '!amls.matrix<10x3xf64>'}}
  %0 = amls.fused row row_inputs 1 ins(%X) : (!amls.matrix<10x3xf64>) -> !amls.matrix<10x3xf64> {
  ^bb0(%x: !amls.matrix<10x3xf64>):
    amls.yield %x : !amls.matrix<10x3xf64>
  }
  return
}

// -----

func.func @fused_row_side_input(%X: !amls.matrix<?x3xf64>, %V: !amls.matrix<3x2xf64>) {
  // expected-error @+1 {{'amls.fused' op body argument #1 must be compatible with '!amls.matrix<3x2xf64>', found '!amls.matrix<4x2xf64>'}}
  %0 = amls.fused row row_inputs 1 ins(%X, %V) : (!amls.matrix<?x3xf64>, !amls.matrix<3x2xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>, %v: !amls.matrix<4x2xf64>):
    amls.yield %x : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_axis(%X: !amls.matrix<?x3xf64>) {
  // expected-error @+1 {{'amls.fused' op a 'row' operator aggregates over blocks of rows, without an axis}}
  %0 = amls.fused row aggregate [sum] all row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> f64 {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %s = amls.agg sum all %x : !amls.matrix<?x3xf64> -> f64
    amls.yield %s : f64
  }
  return
}

// -----

func.func @fused_row_sumsq(%X: !amls.matrix<?x3xf64>) {
  // expected-error @+1 {{'amls.fused' op a 'row' operator combines partial results with sum, min or max, found sumsq for result #0}}
  %0 = amls.fused row aggregate [sumsq] row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> f64 {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %s = amls.agg sum all %x : !amls.matrix<?x3xf64> -> f64
    amls.yield %s : f64
  }
  return
}

// -----

func.func @fused_row_partial_type(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row aggregate [sum] row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<1x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    // expected-error @+1 {{'amls.yield' op partial result #0 must have the result's type '!amls.matrix<1x3xf64>', found '!amls.matrix<?x3xf64>'}}
    amls.yield %x : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_scalar_rows(%X: !amls.matrix<?x3xf64>) {
  // expected-error @+1 {{'amls.fused' op result #0 of a row operator without aggregation must be a matrix}}
  %0 = amls.fused row row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> f64 {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %s = amls.agg sum all %x : !amls.matrix<?x3xf64> -> f64
    amls.yield %s : f64
  }
  return
}

// -----

func.func @fused_row_block_result(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x1xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = amls.slice %x[%c0 : %c1, %c0 : %c1] : !amls.matrix<?x3xf64> -> !amls.matrix<1x1xf64>
    // expected-error @+1 {{'amls.yield' op value #0 must be a block of rows '!amls.matrix<?x1xf64>', found '!amls.matrix<1x1xf64>'}}
    amls.yield %s : !amls.matrix<1x1xf64>
  }
  return
}

// -----

func.func @fused_outer_inputs(%X: !amls.matrix<?x?xf64>) {
  // expected-error @+1 {{'amls.fused' op an 'outer' operator needs the main input and the factors U and V of U %*% t(V), found 1 inputs}}
  %0 = amls.fused outer ins(%X) : (!amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_outer_arguments(%X: !amls.matrix<?x?xf64>, %U: !amls.matrix<?x3xf64>, %V: !amls.matrix<?x3xf64>) {
  // expected-error @+1 {{'amls.fused' op body must take one argument per input but one for the factors U and V (2), found 3}}
  %0 = amls.fused outer ins(%X, %U, %V) : (!amls.matrix<?x?xf64>, !amls.matrix<?x3xf64>, !amls.matrix<?x3xf64>) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64, %u: f64, %v: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_outer_shapes(%X: !amls.matrix<10x20xf64>, %U: !amls.matrix<10x3xf64>, %V: !amls.matrix<30x3xf64>) {
  // expected-error @+1 {{'amls.fused' op factors '!amls.matrix<10x3xf64>' and '!amls.matrix<30x3xf64>' do not give U %*% t(V) the shape of '!amls.matrix<10x20xf64>'}}
  %0 = amls.fused outer ins(%X, %U, %V) : (!amls.matrix<10x20xf64>, !amls.matrix<10x3xf64>, !amls.matrix<30x3xf64>) -> !amls.matrix<10x20xf64> {
  ^bb0(%x: f64, %uv: f64):
    %p = arith.mulf %x, %uv : f64
    amls.yield %p : f64
  }
  return
}

// -----

func.func @fused_outer_max(%X: !amls.matrix<?x?xf64>, %U: !amls.matrix<?x3xf64>, %V: !amls.matrix<?x3xf64>) {
  // expected-error @+1 {{'amls.fused' op an 'outer' operator aggregates with sum over all cells}}
  %0 = amls.fused outer aggregate [max] all ins(%X, %U, %V) : (!amls.matrix<?x?xf64>, !amls.matrix<?x3xf64>, !amls.matrix<?x3xf64>) -> f64 {
  ^bb0(%x: f64, %uv: f64):
    %p = arith.mulf %x, %uv : f64
    amls.yield %p : f64
  }
  return
}

// -----

func.func @fused_row_not_all_rows(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    // expected-error @+1 {{'amls.slice' op is not row-local in a 'row' operator: a slice must keep all rows of the block}}
    %s = amls.slice %x[%c1 : %c3, %c0 : %c3] : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    amls.yield %s : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_cumulative(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    // expected-error @+1 {{'amls.cumagg' op is not row-local in a 'row' operator: its rows may depend on other rows}}
    %c = amls.cumagg cumsum %x : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    amls.yield %c : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_product_of_rows(%X: !amls.matrix<?x3xf64>, %Y: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row row_inputs 2 ins(%X, %Y) : (!amls.matrix<?x3xf64>, !amls.matrix<?x3xf64>) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>, %y: !amls.matrix<?x3xf64>):
    %yt = amls.transpose %y : !amls.matrix<?x3xf64> -> !amls.matrix<3x?xf64>
    // expected-error @+1 {{'amls.matmul' op is not row-local in a 'row' operator: a product must be rows %*% side input or t(rows) %*% rows}}
    %p = amls.matmul %x, %yt : !amls.matrix<?x3xf64>, !amls.matrix<3x?xf64> -> !amls.matrix<?x?xf64>
    amls.yield %p : !amls.matrix<?x?xf64>
  }
  return
}

// -----

func.func @fused_row_partial_reused(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row aggregate [sum] row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<3x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %xt = amls.transpose %x : !amls.matrix<?x3xf64> -> !amls.matrix<3x?xf64>
    %g = amls.matmul %xt, %x : !amls.matrix<3x?xf64>, !amls.matrix<?x3xf64> -> !amls.matrix<3x3xf64>
    // expected-error @+1 {{'amls.exp' op is not row-local in a 'row' operator: it reads a partial result over a block of rows}}
    %e = amls.exp %g : !amls.matrix<3x3xf64> -> !amls.matrix<3x3xf64>
    amls.yield %e : !amls.matrix<3x3xf64>
  }
  return
}

// -----

func.func @fused_row_partial_not_aggregated(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x1xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %s = amls.agg sum col %x : !amls.matrix<?x3xf64> -> !amls.matrix<1x3xf64>
    // expected-error @+1 {{'amls.transpose' op is not row-local in a 'row' operator: it reads a partial result over a block of rows}}
    %t = amls.transpose %s : !amls.matrix<1x3xf64> -> !amls.matrix<3x1xf64>
    %p = amls.matmul %x, %t : !amls.matrix<?x3xf64>, !amls.matrix<3x1xf64> -> !amls.matrix<?x1xf64>
    amls.yield %p : !amls.matrix<?x1xf64>
  }
  return
}

// -----

func.func @fused_row_yields_partial(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %xt = amls.transpose %x : !amls.matrix<?x3xf64> -> !amls.matrix<3x?xf64>
    %g = amls.matmul %xt, %x : !amls.matrix<3x?xf64>, !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    // expected-error @+1 {{'amls.yield' op value #0 is not a block of rows of the result}}
    amls.yield %g : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_aggregates_rows(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row aggregate [sum] row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %e = amls.exp %x : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    // expected-error @+1 {{'amls.yield' op value #0 is not a partial result over a block of rows}}
    amls.yield %e : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_partial_kind(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row aggregate [max] row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<3x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %xt = amls.transpose %x : !amls.matrix<?x3xf64> -> !amls.matrix<3x?xf64>
    %g = amls.matmul %xt, %x : !amls.matrix<3x?xf64>, !amls.matrix<?x3xf64> -> !amls.matrix<3x3xf64>
    // expected-error @+1 {{'amls.yield' op value #0 is combined over the blocks with sum, not max}}
    amls.yield %g : !amls.matrix<3x3xf64>
  }
  return
}

// -----

func.func @fused_row_block_size(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %n = amls.nrow %x : !amls.matrix<?x3xf64>
    // expected-error @+1 {{'arith.index_cast' op is not row-local in a 'row' operator: it reads the number of rows of a block}}
    %i = arith.index_cast %n : index to i64
    %f = arith.sitofp %i : i64 to f64
    %d = amls.div %x, %f : !amls.matrix<?x3xf64>, f64 -> !amls.matrix<?x3xf64>
    amls.yield %d : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_mean(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row aggregate [sum] row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> f64 {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    // expected-error @+1 {{'amls.agg' op is not row-local in a 'row' operator: a full or column aggregate over a block of rows must be a sum, min or max to be combined over the blocks}}
    %m = amls.agg mean all %x : !amls.matrix<?x3xf64> -> f64
    amls.yield %m : f64
  }
  return
}

// -----

func.func @fused_row_transposed_elementwise(%X: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row row_inputs 1 ins(%X) : (!amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>):
    %xt = amls.transpose %x : !amls.matrix<?x3xf64> -> !amls.matrix<3x?xf64>
    // expected-error @+1 {{'amls.exp' op is not row-local in a 'row' operator: a transposed block of rows is only read by a product t(rows) %*% rows}}
    %e = amls.exp %xt : !amls.matrix<3x?xf64> -> !amls.matrix<3x?xf64>
    amls.yield %x : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_elementwise_side(%X: !amls.matrix<?x3xf64>, %S: !amls.matrix<2x3xf64>) {
  %0 = amls.fused row row_inputs 1 ins(%X, %S) : (!amls.matrix<?x3xf64>, !amls.matrix<2x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>, %s: !amls.matrix<2x3xf64>):
    // expected-error @+1 {{'amls.add' op is not row-local in a 'row' operator: an element-wise operand is neither a block of rows nor broadcast along the rows}}
    %a = amls.add %x, %s : !amls.matrix<?x3xf64>, !amls.matrix<2x3xf64> -> !amls.matrix<?x3xf64>
    amls.yield %a : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_row_slice_other_block(%X: !amls.matrix<?x3xf64>, %Y: !amls.matrix<?x3xf64>) {
  %0 = amls.fused row row_inputs 2 ins(%X, %Y) : (!amls.matrix<?x3xf64>, !amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>, %y: !amls.matrix<?x3xf64>):
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %n = amls.nrow %y : !amls.matrix<?x3xf64>
    // expected-error @+1 {{'amls.slice' op is not row-local in a 'row' operator: a slice must keep all rows of the block}}
    %s = amls.slice %x[%c0 : %n, %c0 : %c3] : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    amls.yield %s : !amls.matrix<?x3xf64>
  }
  return
}

// -----

func.func @fused_outer_results(%X: !amls.matrix<?x?xf64>, %U: !amls.matrix<?x3xf64>, %V: !amls.matrix<?x3xf64>) {
  %0:2 = amls.fused outer ins(%X, %U, %V) : (!amls.matrix<?x?xf64>, !amls.matrix<?x3xf64>, !amls.matrix<?x3xf64>) -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  ^bb0(%x: f64, %uv: f64):
    // expected-error @+1 {{'amls.yield' op must yield one value per result (2), found 1}}
    amls.yield %x : f64
  }
  return
}

// -----

func.func @fused_outer_two_results(%X: !amls.matrix<?x?xf64>, %U: !amls.matrix<?x3xf64>, %V: !amls.matrix<?x3xf64>) {
  // expected-error @+1 {{'amls.fused' op an 'outer' operator has one result, found 2}}
  %0:2 = amls.fused outer ins(%X, %U, %V) : (!amls.matrix<?x?xf64>, !amls.matrix<?x3xf64>, !amls.matrix<?x3xf64>) -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  ^bb0(%x: f64, %uv: f64):
    amls.yield %x, %uv : f64, f64
  }
  return
}

// -----

func.func @fused_outer_factor_type(%X: !amls.matrix<?x?xf64>, %U: !amls.matrix<?x3xf32>, %V: !amls.matrix<?x3xf32>) {
  // expected-error @+1 {{'amls.fused' op factors must have the main input's element type 'f64'}}
  %0 = amls.fused outer ins(%X, %U, %V) : (!amls.matrix<?x?xf64>, !amls.matrix<?x3xf32>, !amls.matrix<?x3xf32>) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64, %uv: f64):
    amls.yield %x : f64
  }
  return
}

// -----

func.func @write_scalar_placeholders(%x: f64) {
  // expected-error @below {{'amls.write_scalar' op format has 2 '{}' placeholder(s) but 1 value(s) are given}}
  amls.write_scalar "out/x" double "{}{}" (%x : f64)
  return
}

// -----

func.func @string_format_count(%s: !amls.string) -> !amls.string {
  // expected-error @+1 {{'amls.string_format' op format has 0 '{}' placeholder(s) but 1 value(s) are given}}
  %t = amls.string_format "text" (%s : !amls.string) : !amls.string
  return %t : !amls.string
}

// -----

func.func @string_compare_number(%s: !amls.string, %x: f64) -> i1 {
  // expected-error @+1 {{operand #1 must be AMLS string, but got 'f64'}}
  %b = "amls.string_compare"(%s, %x) {predicate = 0 : i32} : (!amls.string, f64) -> i1
  return %b : i1
}

// -----

func.func @compress_compressed(%X: !amls.matrix<4x4xf64, format = compressed>) {
  // expected-error @+1 {{'amls.compress' op compresses a dense or CSR matrix, not one of format compressed}}
  %C = amls.compress %X : !amls.matrix<4x4xf64, format = compressed> -> !amls.matrix<4x4xf64, format = compressed>
  return
}

// -----

func.func @compress_to_dense(%X: !amls.matrix<4x4xf64>) {
  // expected-error @+1 {{'amls.compress' op result must have format = compressed, found '!amls.matrix<4x4xf64>'}}
  %C = amls.compress %X : !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64>
  return
}

// -----

func.func @compress_resized(%X: !amls.matrix<4x4xf64>) {
  // expected-error @+1 {{'amls.compress' op result must have the input's sizes and element type}}
  %C = amls.compress %X : !amls.matrix<4x4xf64> -> !amls.matrix<4x5xf64, format = compressed>
  return
}

// -----

func.func @compress_i64(%X: !amls.matrix<4x4xi64>) {
  // expected-error @+1 {{'amls.compress' op compresses f64 cells, not 'i64'}}
  %C = amls.compress %X : !amls.matrix<4x4xi64> -> !amls.matrix<4x4xi64, format = compressed>
  return
}

// -----

func.func @release_dense(%X: !amls.matrix<4x4xf64>) {
  // expected-error @+1 {{'amls.release' op releases a compressed matrix, not '!amls.matrix<4x4xf64>'}}
  amls.release %X : !amls.matrix<4x4xf64>
  return
}

// -----

func.func @decompress_dense(%X: !amls.matrix<4x4xf64>) {
  // expected-error @+1 {{'amls.decompress' op decompresses a matrix of format compressed, not '!amls.matrix<4x4xf64>'}}
  %D = amls.decompress %X : !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64>
  return
}

// -----

func.func @decompress_to_csr(%C: !amls.matrix<4x4xf64, format = compressed>) {
  // expected-error @+1 {{'amls.decompress' op result must be dense, found '!amls.matrix<4x4xf64, format = csr>'}}
  %D = amls.decompress %C : !amls.matrix<4x4xf64, format = compressed> -> !amls.matrix<4x4xf64, format = csr>
  return
}

// -----

func.func @decompress_resized(%C: !amls.matrix<4x4xf64, format = compressed>) {
  // expected-error @+1 {{'amls.decompress' op result must have the input's sizes and element type, found '!amls.matrix<4x5xf64>' for '!amls.matrix<4x4xf64, format = compressed>'}}
  %D = amls.decompress %C : !amls.matrix<4x4xf64, format = compressed> -> !amls.matrix<4x5xf64>
  return
}
