// RUN: amls-opt %s -split-input-file -amls-wrap-entry -verify-diagnostics | FileCheck %s

// Matrices and scalars: the wrapper takes the entry's arguments (matrices
// read-only) and returns its results, a matrix as tensor<?x?xf64>.
// CHECK-LABEL: func.func @amls_main(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3xf64> {bufferization.writable = false},
// CHECK-SAME:      %[[S:.*]]: f64) -> (tensor<?x?xf64>, f64)
// CHECK-SAME:      attributes {amls.result_kinds = [#amls.result_kind<dense>, #amls.result_kind<float>], llvm.emit_c_interface}
// CHECK:         %[[R:.*]]:2 = call @main(%[[X]], %[[S]])
// CHECK:         %[[M:.*]] = tensor.cast %[[R]]#0 : tensor<2x3xf64> to tensor<?x?xf64>
// CHECK:         return %[[M]], %[[R]]#1 : tensor<?x?xf64>, f64
func.func @main(%X: tensor<2x3xf64>, %s: f64) -> (tensor<2x3xf64>, f64)
    attributes {amls.result_kinds = [#amls.result_kind<dense>, #amls.result_kind<float>]} {
  return %X, %s : tensor<2x3xf64>, f64
}

// -----

// f32 and i64 matrices cross as they are (a caller's array of that type is
// read in place); results cross as f64, an f32 scalar result widened.
// CHECK-LABEL: func.func @amls_main(
// CHECK-SAME:      %[[X:.*]]: tensor<?x4xf32> {bufferization.writable = false},
// CHECK-SAME:      %[[N:.*]]: tensor<2x2xi64> {bufferization.writable = false})
// CHECK-SAME:      -> (tensor<?x?xf64>, f64)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[R:.*]]:2 = call @main(%[[X]], %[[N]])
// CHECK:         %[[OUT:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[R]]#0 : tensor<?x4xf32>)
// CHECK:           arith.extf
// CHECK:         %[[M:.*]] = tensor.cast %[[OUT]] : tensor<?x4xf64> to tensor<?x?xf64>
// CHECK:         %[[F:.*]] = arith.extf %[[R]]#1 : f32 to f64
// CHECK:         return %[[M]], %[[F]]
func.func @main(%X: tensor<?x4xf32>, %N: tensor<2x2xi64>) -> (tensor<?x4xf32>, f32)
    attributes {amls.result_kinds = [#amls.result_kind<dense>, #amls.result_kind<float>]} {
  %c = arith.constant 1.0 : f32
  return %X, %c : tensor<?x4xf32>, f32
}

// -----

// Matrices of other element types cross as f64 and convert inside; the
// arrays of a CSR matrix (rank 1) cross as they are.
// CHECK-LABEL: func.func @amls_main(
// CHECK-SAME:      %[[B:.*]]: tensor<3x3xf64> {bufferization.writable = false},
// CHECK-SAME:      %[[P:.*]]: tensor<4xi64> {bufferization.writable = false},
// CHECK-SAME:      %[[C:.*]]: tensor<?xi32> {bufferization.writable = false},
// CHECK-SAME:      %[[V:.*]]: tensor<?xf64> {bufferization.writable = false},
// CHECK-SAME:      %[[K:.*]]: index)
// CHECK:         %[[IN:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[B]] : tensor<3x3xf64>)
// CHECK:         call @main(%[[IN]], %[[P]], %[[C]], %[[V]], %[[K]])
func.func @main(%B: tensor<3x3xi32>, %rowptr: tensor<4xi64>, %colidx: tensor<?xi32>,
                %values: tensor<?xf64>, %cols: index) -> f64
    attributes {amls.result_kinds = [#amls.result_kind<float>]} {
  %c = arith.constant 1.0 : f64
  return %c : f64
}

// -----

// A CSR result (csr-results) goes out as its layout's fields: the arrays as
// 1-D buffers of unknown size, the number of columns as i64.
// CHECK-LABEL: func.func @amls_main(
// CHECK-SAME:      -> (tensor<?xi64>, tensor<?xi32>, tensor<?xf64>, i64)
// CHECK:         %[[R:.*]]:4 = call @main(
// CHECK-DAG:     %[[P:.*]] = tensor.cast %[[R]]#0 : tensor<4xi64> to tensor<?xi64>
// CHECK-DAG:     %[[K:.*]] = arith.index_cast %[[R]]#3 : index to i64
// CHECK:         return %[[P]], %[[R]]#1, %[[R]]#2, %[[K]] : tensor<?xi64>, tensor<?xi32>, tensor<?xf64>, i64
func.func @main(%rowptr: tensor<4xi64>, %colidx: tensor<?xi32>,
                %values: tensor<?xf64>, %cols: index)
    -> (tensor<4xi64>, tensor<?xi32>, tensor<?xf64>, index)
    attributes {amls.result_kinds = [#amls.result_kind<csr>]} {
  return %rowptr, %colidx, %values, %cols
      : tensor<4xi64>, tensor<?xi32>, tensor<?xf64>, index
}

// -----

// Integers come back as i64: indices cast, booleans as 0 or 1, narrower
// integers sign-extended.
// CHECK-LABEL: func.func @amls_main() -> (i64, i64, i64, i64)
// CHECK:         %[[R:.*]]:4 = call @main()
// CHECK-DAG:     %[[I:.*]] = arith.index_cast %[[R]]#0 : index to i64
// CHECK-DAG:     %[[B:.*]] = arith.extui %[[R]]#1 : i1 to i64
// CHECK-DAG:     %[[N:.*]] = arith.extsi %[[R]]#2 : i32 to i64
// CHECK:         return %[[I]], %[[B]], %[[N]], %[[R]]#3 : i64, i64, i64, i64
func.func @main() -> (index, i1, i32, i64)
    attributes {amls.result_kinds = [#amls.result_kind<integer>, #amls.result_kind<integer>, #amls.result_kind<integer>, #amls.result_kind<integer>]} {
  %i = arith.constant 3 : index
  %b = arith.constant true
  %n = arith.constant -2 : i32
  %l = arith.constant 7 : i64
  return %i, %b, %n, %l : index, i1, i32, i64
}

// -----

// An entry without results: the wrapper returns nothing.
// CHECK-LABEL: func.func @amls_main(%{{.*}}: f64) attributes {llvm.emit_c_interface}
// CHECK-NEXT:    call @main(%{{.*}}) : (f64) -> ()
// CHECK-NEXT:    return
func.func @main(%x: f64) {
  return
}

// -----

// --convert-amls-to-linalg records no kinds for a result it cannot return.
// expected-error @+1 {{amls-wrap-entry: 'main' has no 'amls.result_kinds' (--convert-amls-to-linalg records it for functions that return matrices, floats and integers only)}}
func.func @main(%x: f64) -> (f64, vector<4xf64>) {
  %v = arith.constant dense<1.0> : vector<4xf64>
  return %x, %v : f64, vector<4xf64>
}

// -----

// The kinds must account for every lowered result: a CSR result is four.
// expected-error @+1 {{amls-wrap-entry: 'amls.result_kinds' describes 4 lowered results, but 'main' returns 2}}
func.func @main(%p: tensor<?xi64>, %x: f64) -> (tensor<?xi64>, f64)
    attributes {amls.result_kinds = [#amls.result_kind<csr>]} {
  return %p, %x : tensor<?xi64>, f64
}

// -----

// expected-error @+1 {{amls-wrap-entry: no function 'main'}}
module {
  func.func @train(%x: f64) -> f64 {
    return %x : f64
  }
}

// -----

// expected-error @+1 {{amls-wrap-entry: no function 'main'}}
module {
  func.func private @main(%x: f64) -> f64
}

// -----

// expected-error @+1 {{amls-wrap-entry: the module already has a symbol 'amls_main'}}
module {
  func.func @main(%x: f64) -> f64 {
    return %x : f64
  }
  func.func @amls_main() {
    return
  }
}
