// RUN: amls-opt %s -split-input-file -pass-pipeline='builtin.module(func.func(amls-elementwise-in-place))' | FileCheck %s

#map = affine_map<(d0, d1) -> (d0, d1)>

// X = X * 0.5 + Y in a loop: the carried X, read by this op only, becomes
// the init instead of the tensor.empty (which is erased); the
// loop-invariant Y, read again next iteration, is not chosen although it
// comes first.
// CHECK-LABEL: func @carried_operand
// CHECK: scf.for {{.*}} iter_args(%[[X:.*]] = %{{.*}})
// CHECK-NOT: tensor.empty
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %[[X]] : {{.*}}) outs(%[[X]] : tensor<1000x1000xf64>)
func.func @carried_operand(%Y0: tensor<1000x1000xf64>, %n: index) -> tensor<1000x1000xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f64
  %Y = tensor.empty() : tensor<1000x1000xf64>
  %Yfilled = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%Y0 : tensor<1000x1000xf64>) outs(%Y : tensor<1000x1000xf64>) {
  ^bb0(%y: f64, %o: f64):
    %d = arith.mulf %y, %y : f64
    linalg.yield %d : f64
  } -> tensor<1000x1000xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%X = %Yfilled) -> (tensor<1000x1000xf64>) {
    %e = tensor.empty() : tensor<1000x1000xf64>
    %s = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%Yfilled, %X : tensor<1000x1000xf64>, tensor<1000x1000xf64>) outs(%e : tensor<1000x1000xf64>) {
    ^bb0(%y: f64, %x: f64, %o: f64):
      %m = arith.mulf %x, %half : f64
      %a = arith.addf %m, %y : f64
      linalg.yield %a : f64
    } -> tensor<1000x1000xf64>
    scf.yield %s : tensor<1000x1000xf64>
  }
  return %r : tensor<1000x1000xf64>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>

// A function argument is not offered: writing it in place would make every
// caller copy it before the call.
// CHECK-LABEL: func @function_argument
// CHECK: %[[E:.*]] = tensor.empty
// CHECK: linalg.generic {{.*}} outs(%[[E]] :
func.func @function_argument(%X: tensor<?x?xf64>, %c: f64) -> tensor<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %X, %c0 : tensor<?x?xf64>
  %n = tensor.dim %X, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%X : tensor<?x?xf64>) outs(%e : tensor<?x?xf64>) {
  ^bb0(%x: f64, %o: f64):
    %a = arith.addf %x, %c : f64
    linalg.yield %a : f64
  } -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>

// An input read transposed is not offered: the op would overwrite cells
// it has yet to read.
// CHECK-LABEL: func @transposed
// CHECK: %[[V:.*]] = linalg.fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x4xf64>
// CHECK: linalg.generic {{.*}} ins(%[[V]] : {{.*}}) outs(%[[E]] :
func.func @transposed(%c: f64) -> tensor<4x4xf64> {
  %e0 = tensor.empty() : tensor<4x4xf64>
  %v = linalg.fill ins(%c : f64) outs(%e0 : tensor<4x4xf64>) -> tensor<4x4xf64>
  %e = tensor.empty() : tensor<4x4xf64>
  %t = linalg.generic {indexing_maps = [#transposed, #map], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<4x4xf64>) outs(%e : tensor<4x4xf64>) {
  ^bb0(%x: f64, %o: f64):
    linalg.yield %x : f64
  } -> tensor<4x4xf64>
  return %t : tensor<4x4xf64>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>

// An input of another element type cannot hold the result.
// CHECK-LABEL: func @other_element_type
// CHECK: %[[V:.*]] = linalg.fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x4xf64>
// CHECK: linalg.generic {{.*}} ins(%[[V]] : {{.*}}) outs(%[[E]] :
func.func @other_element_type(%c: f32) -> tensor<4x4xf64> {
  %e0 = tensor.empty() : tensor<4x4xf32>
  %v = linalg.fill ins(%c : f32) outs(%e0 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf64>
  %w = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<4x4xf32>) outs(%e : tensor<4x4xf64>) {
  ^bb0(%x: f32, %o: f64):
    %x64 = arith.extf %x : f32 to f64
    linalg.yield %x64 : f64
  } -> tensor<4x4xf64>
  return %w : tensor<4x4xf64>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>

// An op that reads its init (here the tensor.empty's undefined cells, as
// an accumulation would) keeps it: the input's values are not the init's.
// CHECK-LABEL: func @init_read
// CHECK: %[[V:.*]] = linalg.fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x4xf64>
// CHECK: linalg.generic {{.*}} ins(%[[V]] : {{.*}}) outs(%[[E]] :
func.func @init_read(%c: f64) -> tensor<4x4xf64> {
  %e0 = tensor.empty() : tensor<4x4xf64>
  %v = linalg.fill ins(%c : f64) outs(%e0 : tensor<4x4xf64>) -> tensor<4x4xf64>
  %e = tensor.empty() : tensor<4x4xf64>
  %u = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%v : tensor<4x4xf64>) outs(%e : tensor<4x4xf64>) {
  ^bb0(%x: f64, %o: f64):
    %s = arith.addf %x, %o : f64
    linalg.yield %s : f64
  } -> tensor<4x4xf64>
  return %u : tensor<4x4xf64>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>

// CSR value arrays (1-D) are left alone.
// CHECK-LABEL: func @values_array
// CHECK: %[[V:.*]] = linalg.fill
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8xf64>
// CHECK: linalg.generic {{.*}} ins(%[[V]] : {{.*}}) outs(%[[E]] :
func.func @values_array(%c: f64) -> tensor<8xf64> {
  %e0 = tensor.empty() : tensor<8xf64>
  %v = linalg.fill ins(%c : f64) outs(%e0 : tensor<8xf64>) -> tensor<8xf64>
  %e = tensor.empty() : tensor<8xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v : tensor<8xf64>) outs(%e : tensor<8xf64>) {
  ^bb0(%x: f64, %o: f64):
    %s = arith.mulf %x, %c : f64
    linalg.yield %s : f64
  } -> tensor<8xf64>
  return %r : tensor<8xf64>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>
#transposed = affine_map<(d0, d1) -> (d1, d0)>

// Of two results (after fusion), only one can take the one input; an input
// read again later (%v) is offered after one read by this op only (%w), and
// still offered: the bufferization analysis decides.
// CHECK-LABEL: func @two_results
// CHECK-DAG: %[[V:.*]] = linalg.fill {{.*}} -> tensor<4x4xf64>
// CHECK-DAG: %[[W:.*]] = linalg.fill {{.*}} -> tensor<4x4xf64>
// CHECK: linalg.generic {{.*}} ins(%[[V]], %[[W]] : {{.*}}) outs(%[[W]], %[[V]] : tensor<4x4xf64>, tensor<4x4xf64>)
func.func @two_results(%c: f64, %d: f64) -> (tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x4xf64>) {
  %e0 = tensor.empty() : tensor<4x4xf64>
  %v = linalg.fill ins(%c : f64) outs(%e0 : tensor<4x4xf64>) -> tensor<4x4xf64>
  %e1 = tensor.empty() : tensor<4x4xf64>
  %w = linalg.fill ins(%d : f64) outs(%e1 : tensor<4x4xf64>) -> tensor<4x4xf64>
  %e2 = tensor.empty() : tensor<4x4xf64>
  %e3 = tensor.empty() : tensor<4x4xf64>
  %r:2 = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%v, %w : tensor<4x4xf64>, tensor<4x4xf64>) outs(%e2, %e3 : tensor<4x4xf64>, tensor<4x4xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64, %p: f64):
    %s = arith.addf %x, %y : f64
    %m = arith.mulf %x, %y : f64
    linalg.yield %s, %m : f64, f64
  } -> (tensor<4x4xf64>, tensor<4x4xf64>)
  return %r#0, %r#1, %v : tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x4xf64>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>

// Z = X + i in a for and a while loop, with X read again afterwards (it is
// no candidate, being read by another op too): the dead old Z takes the new
// Z, before the input X that the bufferization would have to refuse.
// CHECK-LABEL: func @dead_old_value
// CHECK: scf.for {{.*}} iter_args(%[[X:.*]] = %{{.*}}, %[[Z:.*]] = %{{.*}})
// CHECK: linalg.generic {{.*}} ins(%[[X]] : {{.*}}) outs(%[[Z]] :
// CHECK: scf.while
// CHECK: do {
// CHECK-NEXT: ^bb0(%[[WX:.*]]: tensor<4x4xf64>, %[[WZ:.*]]: tensor<4x4xf64>):
// CHECK: linalg.generic {{.*}} ins(%[[WX]] : {{.*}}) outs(%[[WZ]] :
func.func @dead_old_value(%X0: tensor<4x4xf64>, %n: index, %c: f64) -> (tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%X = %X0, %Z = %X0) -> (tensor<4x4xf64>, tensor<4x4xf64>) {
    %e = tensor.empty() : tensor<4x4xf64>
    %z = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%X : tensor<4x4xf64>) outs(%e : tensor<4x4xf64>) {
    ^bb0(%x: f64, %o: f64):
      %a = arith.addf %x, %c : f64
      linalg.yield %a : f64
    } -> tensor<4x4xf64>
    %x = tensor.insert %c into %X[%c0, %c0] : tensor<4x4xf64>
    scf.yield %x, %z : tensor<4x4xf64>, tensor<4x4xf64>
  }
  %w:2 = scf.while (%X = %X0, %Z = %X0) : (tensor<4x4xf64>, tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>) {
    %go = arith.cmpf olt, %c, %c : f64
    scf.condition(%go) %X, %Z : tensor<4x4xf64>, tensor<4x4xf64>
  } do {
  ^bb0(%X: tensor<4x4xf64>, %Z: tensor<4x4xf64>):
    %e = tensor.empty() : tensor<4x4xf64>
    %z = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%X : tensor<4x4xf64>) outs(%e : tensor<4x4xf64>) {
    ^bb0(%x: f64, %o: f64):
      %a = arith.addf %x, %c : f64
      linalg.yield %a : f64
    } -> tensor<4x4xf64>
    %x = tensor.insert %c into %X[%c0, %c0] : tensor<4x4xf64>
    scf.yield %x, %z : tensor<4x4xf64>, tensor<4x4xf64>
  }
  return %r#0, %r#1, %w#0, %w#1 : tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x4xf64>, tensor<4x4xf64>
}

// -----

#map = affine_map<(d0, d1) -> (d0, d1)>

// A buffer a runtime call filled (bufferization.to_tensor) stays out, and
// so does a slice of it, a view of the same buffer: canonicalization folds
// later runtime calls' reads of it into the memref, which the bufferization
// analysis does not see (`Y = X[1:2, ] * 2; print(X)` printed Y's cells in
// X; found by random programs).
// CHECK-LABEL: func @runtime_buffer_and_its_slice
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<4x4xf64>
// CHECK: linalg.generic {{.*}} outs(%[[E1]] : tensor<4x4xf64>)
// CHECK: %[[E2:.*]] = tensor.empty() : tensor<2x4xf64>
// CHECK: linalg.generic {{.*}} outs(%[[E2]] : tensor<2x4xf64>)
func.func @runtime_buffer_and_its_slice(%m: memref<4x4xf64>, %c: f64) -> (tensor<4x4xf64>, tensor<2x4xf64>) {
  %t = bufferization.to_tensor %m restrict writable : memref<4x4xf64> to tensor<4x4xf64>
  %e = tensor.empty() : tensor<4x4xf64>
  %a = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%t : tensor<4x4xf64>) outs(%e : tensor<4x4xf64>) {
  ^bb0(%x: f64, %o: f64):
    %y = arith.mulf %x, %c : f64
    linalg.yield %y : f64
  } -> tensor<4x4xf64>
  %s = tensor.extract_slice %t[0, 0] [2, 4] [1, 1] : tensor<4x4xf64> to tensor<2x4xf64>
  %e2 = tensor.empty() : tensor<2x4xf64>
  %b = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<2x4xf64>) outs(%e2 : tensor<2x4xf64>) {
  ^bb0(%x: f64, %o: f64):
    %y = arith.mulf %x, %c : f64
    linalg.yield %y : f64
  } -> tensor<2x4xf64>
  return %a, %b : tensor<4x4xf64>, tensor<2x4xf64>
}
