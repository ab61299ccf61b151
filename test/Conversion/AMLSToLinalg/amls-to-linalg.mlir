// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg -canonicalize -verify-diagnostics | FileCheck %s

// Element-wise ops: one linalg.generic, broadcasting through constant-0
// indexing maps, scalars captured in the body.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func @elementwise
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf64>, %[[R:.*]]: tensor<1x3xf64>, %[[S:.*]]: f64) -> tensor<4x3xf64>
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x3xf64>
// CHECK: %[[A:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[R]] : tensor<4x3xf64>, tensor<1x3xf64>) outs(%[[E]] : tensor<4x3xf64>)
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[A]] : tensor<4x3xf64>)
// CHECK: arith.mulf %{{.*}}, %[[S]] : f64
func.func @elementwise(%X: !amls.matrix<4x3xf64>, %r: !amls.matrix<1x3xf64>, %s: f64) -> !amls.matrix<4x3xf64> {
  %0 = amls.add %X, %r : !amls.matrix<4x3xf64>, !amls.matrix<1x3xf64> -> !amls.matrix<4x3xf64>
  %1 = amls.mul %0, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  return %1 : !amls.matrix<4x3xf64>
}

// -----

// Unknown sizes come from tensor.dim. Either operand may turn out to be a
// vector at run time: the result size is the first operand's unless that is
// 1, the other operand's size must agree or be 1 (checked, with the op's
// location in the message), and an operand that is a vector is expanded
// before the element-wise loop.
// CHECK-LABEL: func @dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf64>, %[[Y:.*]]: tensor<?x?xf64>)
// CHECK: %[[XR:.*]] = tensor.dim %[[X]], %c0
// CHECK: %[[XR1:.*]] = arith.cmpi eq, %[[XR]], %c1
// CHECK: %[[YR:.*]] = tensor.dim %[[Y]], %c0
// CHECK: %[[ROWS:.*]] = arith.select %[[XR1]], %[[YR]], %[[XR]] : index
// CHECK: %[[COLS:.*]] = arith.select
// CHECK: %[[XEXP:.*]] = scf.if %{{.*}} -> (tensor<?x?xf64>) {
// CHECK: tensor.empty(%[[ROWS]], %[[COLS]])
// CHECK: linalg.index 0
// CHECK: tensor.extract %[[X]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[X]]
// CHECK: %[[YR2:.*]] = tensor.dim %[[Y]], %c0
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[YR2]], %[[ROWS]]
// CHECK: %[[VEC:.*]] = arith.cmpi eq, %[[YR2]], %c1
// CHECK: %[[OK:.*]] = arith.ori %[[SAME]], %[[VEC]]
// CHECK: %[[FLAG:.*]] = arith.extui %[[OK]]
// CHECK: call @amls_rt_check(%[[FLAG]]
// CHECK: call @amls_rt_check
// CHECK: %[[YEXP:.*]] = scf.if
// CHECK: tensor.empty(%[[ROWS]], %[[COLS]]) : tensor<?x?xf64>
// CHECK: linalg.generic {{.*}} ins(%[[XEXP]], %[[YEXP]] :
// CHECK: arith.subf
func.func @dynamic(%X: !amls.matrix<?x?xf64>, %Y: !amls.matrix<?x?xf64>) -> !amls.matrix<?x?xf64> {
  %0 = amls.sub %X, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

// -----

// The result's size is known; an operand of unknown size must have it, or
// be a vector expanded to it.
// CHECK-LABEL: func @known_result_unknown_operand
// CHECK-SAME: (%[[X:.*]]: tensor<5x3xf64>, %[[T:.*]]: tensor<?x?xf64>)
// CHECK: %[[TR:.*]] = tensor.dim %[[T]], %c0
// CHECK: arith.cmpi eq, %[[TR]], %c5
// CHECK: arith.cmpi eq, %[[TR]], %c1
// CHECK: call @amls_rt_check
// CHECK: call @amls_rt_check
// CHECK: %[[TEXP:.*]] = scf.if
// CHECK: tensor.empty() : tensor<5x3xf64>
// CHECK: %[[TC:.*]] = tensor.cast %[[TEXP]] : tensor<?x?xf64> to tensor<5x3xf64>
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[TC]] : tensor<5x3xf64>, tensor<5x3xf64>) outs(%{{.*}} : tensor<5x3xf64>)
func.func @known_result_unknown_operand(%X: !amls.matrix<5x3xf64>, %T: !amls.matrix<?x?xf64>) -> !amls.matrix<5x3xf64> {
  %0 = amls.add %X, %T : !amls.matrix<5x3xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<5x3xf64>
  return %0 : !amls.matrix<5x3xf64>
}

// -----

// CHECK-LABEL: func @unary_and_select
// CHECK: math.exp
// CHECK: math.floor
// CHECK: arith.cmpf une
// CHECK: arith.select
func.func @unary_and_select(%X: !amls.matrix<4x3xf64>, %s: f64) -> !amls.matrix<4x3xf64> {
  %0 = amls.exp %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %1 = amls.round %0 : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %2 = amls.ifelse %1, %X, %s : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  return %2 : !amls.matrix<4x3xf64>
}

// -----

// CHECK-LABEL: func @generation
// CHECK-DAG: arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00]]> : tensor<1x2xf64>
// CHECK-DAG: linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : tensor<?x?xf64>)
// CHECK: linalg.generic
// CHECK: linalg.index 0
// CHECK: linalg.index 1
// CHECK: func.call @amls_rt_rand(
func.func @generation(%n: index, %v: f64, %seed: i64) -> (!amls.matrix<?x?xf64>, !amls.matrix<1x2xf64>, !amls.matrix<?x?xf64>) {
  %0 = amls.fill %v, %n, %n : f64 -> !amls.matrix<?x?xf64>
  %1 = amls.constant dense<[[1.0, 2.0]]> : tensor<1x2xf64> -> !amls.matrix<1x2xf64>
  %2 = amls.rand %n, %n, %v, %v, %v seed %seed uniform : f64 -> !amls.matrix<?x?xf64>
  return %0, %1, %2 : !amls.matrix<?x?xf64>, !amls.matrix<1x2xf64>, !amls.matrix<?x?xf64>
}

// -----

// File I/O and printing call the runtime with matrix descriptors.
// CHECK-LABEL: func @io
// CHECK: call @amls_rt_file_rows
// CHECK: call @amls_rt_file_cols
// CHECK: %[[BUF:.*]] = memref.alloc
// CHECK: %[[VIEW:.*]] = memref.cast %[[BUF]] : memref<?x?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: call @amls_rt_read(%[[VIEW]]
// CHECK: call @amls_rt_print_matrix
// CHECK: call @amls_rt_write
func.func @io() {
  %X = amls.read "X.csv" csv : !amls.matrix<?x?xf64>
  amls.print %X : !amls.matrix<?x?xf64>
  amls.write %X, "Y.mtx" mm : !amls.matrix<?x?xf64>
  return
}

// -----

// Scalar files (SystemDS's write of a scalar, read(data_type="scalar")) are
// runtime calls, as printing is.
// CHECK-LABEL: func @scalar_files
// CHECK: %[[N:.*]] = call @amls_rt_read_scalar(
// CHECK: call @amls_rt_emit_f64(%[[N]]
// CHECK: call @amls_rt_write_text(
// CHECK: return %[[N]]
func.func @scalar_files() -> f64 {
  %n = amls.read_scalar "n" int : f64
  amls.write_scalar "m" int "{}" (%n : f64)
  return %n : f64
}

// -----

// Canonicalization turns an scf.if that picks one of two matrices into
// arith.select on matrices; it selects between the tensors.
// CHECK-LABEL: func @select_matrices
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: tensor<?x?xf64>, %[[B:.*]]: tensor<2x?xf64>)
// CHECK: %[[CAST:.*]] = tensor.cast %[[B]] : tensor<2x?xf64> to tensor<?x?xf64>
// CHECK: arith.select %[[C]], %[[A]], %[[CAST]] : tensor<?x?xf64>
func.func @select_matrices(%c: i1, %A: !amls.matrix<?x?xf64>, %B: !amls.matrix<2x?xf64>) -> !amls.matrix<?x?xf64> {
  %Bc = amls.cast %B : !amls.matrix<2x?xf64> -> !amls.matrix<?x?xf64>
  %s = arith.select %c, %A, %Bc : !amls.matrix<?x?xf64>
  return %s : !amls.matrix<?x?xf64>
}

// -----

// Messages are emitted piece by piece, then ended (stream 0: print,
// stream 1: stop).
// CHECK-LABEL: func @messages
// CHECK-DAG: %[[OUT:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ERR:.*]] = arith.constant 1 : i32
// CHECK: call @amls_rt_emit_text(%{{.*}}, %[[OUT]]) : (!llvm.ptr, i32) -> ()
// CHECK: call @amls_rt_emit_f64(%{{.*}}, %[[OUT]]) : (f64, i32) -> ()
// CHECK: call @amls_rt_emit_text
// CHECK: %[[WIDE:.*]] = arith.extui %{{.*}} : i1 to i32
// CHECK: call @amls_rt_emit_bool(%[[WIDE]], %[[OUT]])
// CHECK: call @amls_rt_emit_i64
// CHECK: call @amls_rt_emit_end(%[[OUT]]) : (i32) -> ()
// CHECK: call @amls_rt_emit_matrix(%{{.*}}, %[[ERR]])
// CHECK: call @amls_rt_emit_end(%[[ERR]])
// A {%spec} placeholder passes its conversion with the value.
// CHECK: call @amls_rt_emit_text
// CHECK: call @amls_rt_emit_formatted_f64(%{{.*}}, %{{.*}}, %[[OUT]]) : (f64, !llvm.ptr, i32) -> ()
// CHECK: call @amls_rt_emit_end(%[[OUT]])
func.func @messages(%s: f64, %b: i1, %n: index, %X: !amls.matrix<2x2xf64>) {
  amls.printf "s = {}, b = {}{}" (%s, %b, %n : f64, i1, index)
  amls.stop "{}" (%X : !amls.matrix<2x2xf64>)
  amls.printf "obj = {%5.4f}" (%s : f64)
  return
}

// -----

// Products are linalg.matmul; transposed operands are indexing maps.
// CHECK-DAG: #[[KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[KN:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @products
// CHECK: linalg.fill
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<100x10xf64>, tensor<10x5xf64>)
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[KN]], #[[MN]]] ins(%{{.*}}, %{{.*}} : tensor<100x10xf64>, tensor<100x10xf64>) outs(%{{.*}} : tensor<10x10xf64>)
func.func @products(%X: !amls.matrix<100x10xf64>, %Y: !amls.matrix<10x5xf64>) -> (!amls.matrix<100x5xf64>, !amls.matrix<10x10xf64>) {
  %0 = amls.matmul %X, %Y : !amls.matrix<100x10xf64>, !amls.matrix<10x5xf64> -> !amls.matrix<100x5xf64>
  %1 = amls.tsmm left %X : !amls.matrix<100x10xf64> -> !amls.matrix<10x10xf64>
  return %0, %1 : !amls.matrix<100x5xf64>, !amls.matrix<10x10xf64>
}

// -----

// A transposed matmul operand is not materialized: the product reads the
// transpose's input through a transposed map.
// CHECK-DAG: #[[KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func @transposed_operands
// CHECK-SAME: (%[[X:.*]]: tensor<100x10xf64>, %[[W:.*]]: tensor<5x100xf64>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.matmul indexing_maps = [#[[KM]], #[[NK]], #[[MN]]] ins(%[[X]], %[[W]] : tensor<100x10xf64>, tensor<5x100xf64>) outs(%{{.*}} : tensor<10x5xf64>)
func.func @transposed_operands(%X: !amls.matrix<100x10xf64>, %W: !amls.matrix<5x100xf64>) -> !amls.matrix<10x5xf64> {
  %tX = amls.transpose %X : !amls.matrix<100x10xf64> -> !amls.matrix<10x100xf64>
  %tW = amls.transpose %W : !amls.matrix<5x100xf64> -> !amls.matrix<100x5xf64>
  %product = amls.matmul %tX, %tW : !amls.matrix<10x100xf64>, !amls.matrix<100x5xf64> -> !amls.matrix<10x5xf64>
  return %product : !amls.matrix<10x5xf64>
}

// -----

// Aggregates are reductions into rank-0 or rank-1 tensors.
// CHECK-LABEL: func @aggregates
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
// CHECK: tensor.extract %{{.*}}[] : tensor<f64>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<4xf64>)
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf64> into tensor<4x1xf64>
func.func @aggregates(%X: !amls.matrix<4x3xf64>) -> (f64, !amls.matrix<4x1xf64>) {
  %0 = amls.agg sum all %X : !amls.matrix<4x3xf64> -> f64
  %1 = amls.agg max row %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x1xf64>
  return %0, %1 : f64, !amls.matrix<4x1xf64>
}

// -----

// CHECK-LABEL: func @reorganisation
// CHECK: linalg.transpose ins(%{{.*}} : tensor<4x3xf64>) outs(%{{.*}} : tensor<3x4xf64>) permutation = [1, 0]
// CHECK: tensor.extract_slice %{{.*}}[1, 0] [2, 3] [1, 1]
// CHECK: tensor.insert_slice
func.func @reorganisation(%X: !amls.matrix<4x3xf64>) -> (!amls.matrix<3x4xf64>, !amls.matrix<2x3xf64>, !amls.matrix<4x6xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %0 = amls.transpose %X : !amls.matrix<4x3xf64> -> !amls.matrix<3x4xf64>
  %1 = amls.slice %X[%c1 : %c3, %c0 : %c3] : !amls.matrix<4x3xf64> -> !amls.matrix<2x3xf64>
  %2 = amls.cbind %X, %X : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<4x6xf64>
  return %0, %1, %2 : !amls.matrix<3x4xf64>, !amls.matrix<2x3xf64>, !amls.matrix<4x6xf64>
}

// -----

// Results whose size depends on the data: the runtime sizes and fills them.
// CHECK-LABEL: func @data_dependent
// CHECK: call @amls_rt_count_nonempty
// CHECK: call @amls_rt_remove_empty
// CHECK: call @amls_rt_order
func.func @data_dependent(%X: !amls.matrix<?x3xf64>, %c: index) -> (!amls.matrix<?x3xf64>, !amls.matrix<?x3xf64>) {
  %0 = amls.remove_empty rows %X : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
  %1 = amls.order %X by %c : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
  return %0, %1 : !amls.matrix<?x3xf64>, !amls.matrix<?x3xf64>
}

// -----

// A result type that knows a size its operand's type does not (shape
// inference refined it through a loop): the operand is cast to the sizes
// either side knows, so linalg.transpose's types agree.
// CHECK-LABEL: func @transpose_refined
// CHECK: %[[IN:.*]] = tensor.cast %{{.*}} : tensor<?x?xf64> to tensor<1x5xf64>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<5x1xf64>
// CHECK: linalg.transpose ins(%[[IN]] : tensor<1x5xf64>) outs(%[[INIT]] : tensor<5x1xf64>)
func.func @transpose_refined(%X: !amls.matrix<?x?xf64>) -> !amls.matrix<5x1xf64> {
  %0 = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<5x1xf64>
  return %0 : !amls.matrix<5x1xf64>
}

// -----

// ?x1 and 1x? verify (either may be 1 at run time, as after a removeEmpty):
// the lowering checks at run time that not both broadcast, which would be
// an outer product.
// CHECK: llvm.mlir.global internal constant @[[OUTER:.*]]("'amls.mul' at {{.*}}: the operands would both be broadcast (an outer product)
// CHECK-LABEL: func @outer_unknown
// CHECK: %[[OK:.*]] = arith.xori
// CHECK: %[[FLAG:.*]] = arith.extui %[[OK]]
// CHECK: call @amls_rt_check(%[[FLAG]], %{{.*}})
// CHECK: linalg.generic
func.func @outer_unknown(%a: !amls.matrix<?x1xf64>, %b: !amls.matrix<1x?xf64>) -> !amls.matrix<?x?xf64> {
  %0 = amls.mul %a, %b : !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

// -----

// empty_return: a result that keeps no row has one (the runtime zeroes it).
// CHECK-LABEL: func @remove_empty_return
// CHECK: %[[COUNT:.*]] = call @amls_rt_count_nonempty
// CHECK: %[[KEPT:.*]] = arith.index_cast %[[COUNT]]
// CHECK: %[[ROWS:.*]] = arith.maxui %[[KEPT]], %c1
// CHECK: memref.alloc(%[[ROWS]]
// CHECK: call @amls_rt_remove_empty
func.func @remove_empty_return(%X: !amls.matrix<?x3xf64>) -> !amls.matrix<?x3xf64> {
  %0 = amls.remove_empty rows %X empty_return : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
  return %0 : !amls.matrix<?x3xf64>
}

// -----

// parfor runs its independent iterations as an scf.for.
// CHECK-LABEL: func @parfor
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<10x1xf64>)
// CHECK: tensor.insert_slice
// CHECK: scf.yield %{{.*}} : tensor<10x1xf64>
func.func @parfor(%init: !amls.matrix<10x1xf64>, %n: index) -> !amls.matrix<10x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 2.0 : f64
  %r = amls.parfor %c0 to %n step %c1 shared(%init : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    %i1 = arith.addi %i, %c1 : index
    %cell = amls.as_matrix %v : f64 -> !amls.matrix<1x1xf64>
    %next = amls.insert_slice %cell into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
    amls.yield %next : !amls.matrix<10x1xf64>
  } -> !amls.matrix<10x1xf64>
  return %r : !amls.matrix<10x1xf64>
}

// -----

// A planned parfor (independent, several workers) carries its plan to the
// scf.for, with how each result is merged.
// CHECK-LABEL: func @planned_parfor
// CHECK: scf.for
// CHECK: } {amls.parfor_plan = #amls.parfor_plan<workers = 2, partitioner = naive, task_size = 1, inner_threads = 1, result_merge = [1]>}
func.func @planned_parfor(%init: !amls.matrix<10x1xf64>, %n: index) -> !amls.matrix<10x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 2.0 : f64
  %r = amls.parfor %c0 to %n step %c1 shared(%init : !amls.matrix<10x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<10x1xf64>):
    %cell = amls.as_matrix %v : f64 -> !amls.matrix<1x1xf64>
    %next = amls.insert_slice %cell into %acc[%c0 : %c1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
    amls.yield %next : !amls.matrix<10x1xf64>
  } {independent, unchecked, workers = 2 : i64, partitioner = 0 : i32, inner_threads = 1 : i64, task_size = 1 : i64, result_merge = array<i32: 1>} -> !amls.matrix<10x1xf64>
  return %r : !amls.matrix<10x1xf64>
}

// -----

// CHECK-LABEL: func @sizes_and_casts
// CHECK-SAME: (%[[X:.*]]: tensor<?x3xf64>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %c0
// CHECK: tensor.cast %[[X]] : tensor<?x3xf64> to tensor<?x?xf64>
func.func @sizes_and_casts(%X: !amls.matrix<?x3xf64>) -> (index, !amls.matrix<?x?xf64>) {
  %0 = amls.nrow %X : !amls.matrix<?x3xf64>
  %1 = amls.cast %X : !amls.matrix<?x3xf64> -> !amls.matrix<?x?xf64>
  return %0, %1 : index, !amls.matrix<?x?xf64>
}

// -----

// Broadcasting a column vector, DML's floored %%, NaN-propagating max and
// comparisons giving 1/0 in the element type.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func @more_elementwise
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[ID]]]
// CHECK: math.powf
// CHECK: arith.divf
// CHECK-NEXT: math.floor
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: arith.subf
// CHECK: arith.maximumf
// CHECK: %[[GE:.*]] = arith.cmpf oge
// CHECK-NEXT: arith.select %[[GE]], %{{.*}}, %{{.*}} : f64
func.func @more_elementwise(%X: !amls.matrix<4x3xf64>, %c: !amls.matrix<4x1xf64>, %s: f64) -> (!amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>) {
  %0 = amls.pow %X, %c : !amls.matrix<4x3xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<4x3xf64>
  %1 = amls.mod %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  %2 = amls.max %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  %3 = amls.ge %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  return %0, %1, %2, %3 : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>
}

// -----

// replace matches the pattern, or NaN where the pattern is NaN.
// CHECK-LABEL: func @replace
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf64>, %[[P:.*]]: f64, %[[R:.*]]: f64)
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<?x?xf64>)
// CHECK: ^bb0(%[[IN:.*]]: f64, %{{.*}}: f64):
// CHECK-DAG: %[[EQ:.*]] = arith.cmpf oeq, %[[IN]], %[[P]] : f64
// CHECK-DAG: %[[PNAN:.*]] = arith.cmpf uno, %[[P]], %[[P]] : f64
// CHECK-DAG: %[[XNAN:.*]] = arith.cmpf uno, %[[IN]], %[[IN]] : f64
// CHECK: %[[BOTH:.*]] = arith.andi %[[XNAN]], %[[PNAN]] : i1
// CHECK: %[[MATCH:.*]] = arith.ori %[[EQ]], %[[BOTH]] : i1
// CHECK: arith.select %[[MATCH]], %[[R]], %[[IN]] : f64
func.func @replace(%X: !amls.matrix<?x?xf64>, %p: f64, %r: f64) -> !amls.matrix<?x?xf64> {
  %0 = amls.replace %X, %p, %r : !amls.matrix<?x?xf64>, f64, f64 -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

// -----

// seq: the length is computed (and its sign checked) at run time, the cells
// from linalg.index.
// CHECK-LABEL: func @seq
// CHECK-SAME: (%[[FROM:.*]]: f64, %[[TO:.*]]: f64, %[[STEP:.*]]: f64)
// CHECK: arith.subf %[[TO]], %[[FROM]]
// CHECK: call @amls_rt_check
// CHECK: %[[N:.*]] = arith.addi %{{.*}}, %c1 : index
// CHECK: tensor.empty(%[[N]]) : tensor<?x1xf64>
// CHECK: linalg.index 0
// CHECK: arith.mulf %{{.*}}, %[[STEP]]
// CHECK: arith.addf %[[FROM]]
func.func @seq(%from: f64, %to: f64, %step: f64) -> !amls.matrix<?x1xf64> {
  %0 = amls.seq %from, %to, %step : f64 -> !amls.matrix<?x1xf64>
  return %0 : !amls.matrix<?x1xf64>
}

// -----

// mmchain t(X) %*% (w * (X %*% v)): f64 goes to the runtime's one-pass
// kernel (weights flagged), other element types to two products, the first
// transposed through indexing maps.
// CHECK-DAG: #[[KM:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func @mmchain
// CHECK-SAME: (%[[X:.*]]: tensor<100x10xf64>, %[[V:.*]]: tensor<10x1xf64>, %[[W:.*]]: tensor<100x1xf64>)
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[XB:.*]] = bufferization.to_buffer %[[X]] read_only
// CHECK-DAG: %[[XV:.*]] = memref.cast %[[XB]]
// CHECK-DAG: %[[VB:.*]] = bufferization.to_buffer %[[V]] read_only
// CHECK-DAG: %[[VV:.*]] = memref.cast %[[VB]]
// CHECK-DAG: %[[WB:.*]] = bufferization.to_buffer %[[W]] read_only
// CHECK-DAG: %[[WV:.*]] = memref.cast %[[WB]]
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<10x1xf64>
// CHECK: %[[OUTV:.*]] = memref.cast %[[OUT]] : memref<10x1xf64> to memref<?x?xf64, strided
// CHECK: call @amls_rt_mmchain(%[[XV]], %[[VV]], %[[WV]], %[[OUTV]], %[[ONE]])
// CHECK-NOT: linalg.matmul
// CHECK: return
// CHECK-LABEL: func @mmchain_f32
// CHECK-SAME: (%[[X32:.*]]: tensor<100x10xf32>, %[[V32:.*]]: tensor<10x1xf32>, %[[W32:.*]]: tensor<100x1xf32>)
// CHECK: %[[XV32:.*]] = linalg.matmul ins(%[[X32]], %[[V32]] : tensor<100x10xf32>, tensor<10x1xf32>)
// CHECK: %[[WXV:.*]] = linalg.generic {{.*}} ins(%[[W32]], %[[XV32]] :
// CHECK: arith.mulf
// CHECK: linalg.matmul indexing_maps = [#[[KM]], {{.*}}] ins(%[[X32]], %[[WXV]] : tensor<100x10xf32>, tensor<100x1xf32>) outs(%{{.*}} : tensor<10x1xf32>)
func.func @mmchain(%X: !amls.matrix<100x10xf64>, %v: !amls.matrix<10x1xf64>, %w: !amls.matrix<100x1xf64>) -> !amls.matrix<10x1xf64> {
  %0 = amls.mmchain %X, %v weights %w : !amls.matrix<100x10xf64>, !amls.matrix<10x1xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<10x1xf64>
  return %0 : !amls.matrix<10x1xf64>
}

func.func @mmchain_f32(%X: !amls.matrix<100x10xf32>, %v: !amls.matrix<10x1xf32>, %w: !amls.matrix<100x1xf32>) -> !amls.matrix<10x1xf32> {
  %0 = amls.mmchain %X, %v weights %w : !amls.matrix<100x10xf32>, !amls.matrix<10x1xf32>, !amls.matrix<100x1xf32> -> !amls.matrix<10x1xf32>
  return %0 : !amls.matrix<10x1xf32>
}

// -----

// Column aggregates reduce dimension 0 into a row; var is two passes (their
// sums marked for --amls-compensate-sums), minindex carries value and
// 1-based index.
// CHECK-LABEL: func @column_aggregates
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: arith.minimumf
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, 5] : tensor<5xf64> into tensor<1x5xf64>
// CHECK: arith.addf %{{.*}} {amls.compensate}
// CHECK: arith.divf %{{.*}}, %cst_0
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.divf %{{.*}}, %cst :
// CHECK: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<5xf64>, tensor<5xf64>)
// CHECK: arith.cmpf ole
// CHECK: linalg.index 0
func.func @column_aggregates(%X: !amls.matrix<10x5xf64>) -> (!amls.matrix<1x5xf64>, !amls.matrix<1x5xf64>, !amls.matrix<1x5xf64>) {
  %0 = amls.agg min col %X : !amls.matrix<10x5xf64> -> !amls.matrix<1x5xf64>
  %1 = amls.agg var col %X : !amls.matrix<10x5xf64> -> !amls.matrix<1x5xf64>
  %2 = amls.agg minindex col %X : !amls.matrix<10x5xf64> -> !amls.matrix<1x5xf64>
  return %0, %1, %2 : !amls.matrix<1x5xf64>, !amls.matrix<1x5xf64>, !amls.matrix<1x5xf64>
}

// -----

// trace reads the diagonal through a (d0) -> (d0, d0) map; cumulative
// aggregates are a loop over rows combining each row with the one above.
// CHECK-DAG: #[[DIAG:.*]] = affine_map<(d0) -> (d0, d0)>
// CHECK-LABEL: func @trace_and_cumulative
// CHECK: linalg.generic {indexing_maps = [#[[DIAG]], {{.*}}], iterator_types = ["reduction"]}
// CHECK: scf.for %[[I:.*]] = %c1 to %c5 step %c1 iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<5x5xf64>)
// CHECK: %[[PREV:.*]] = arith.subi %[[I]], %c1
// CHECK: tensor.extract_slice %[[ACC]][%[[PREV]], 0] [1, 5] [1, 1]
// CHECK: arith.addf
// CHECK: tensor.insert_slice %{{.*}} into %[[ACC]][%[[I]], 0] [1, 5] [1, 1]
// CHECK: scf.for
// CHECK: arith.maximumf
func.func @trace_and_cumulative(%S: !amls.matrix<5x5xf64>) -> (f64, !amls.matrix<5x5xf64>, !amls.matrix<5x5xf64>) {
  %0 = amls.trace %S : !amls.matrix<5x5xf64> -> f64
  %1 = amls.cumagg cumsum %S : !amls.matrix<5x5xf64> -> !amls.matrix<5x5xf64>
  %2 = amls.cumagg cummax %S : !amls.matrix<5x5xf64> -> !amls.matrix<5x5xf64>
  return %0, %1, %2 : f64, !amls.matrix<5x5xf64>, !amls.matrix<5x5xf64>
}

// -----

// CHECK-LABEL: func @reshape_diag_rev
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf64>, %[[V:.*]]: tensor<4x1xf64>, %[[R:.*]]: index, %[[C:.*]]: index)
// CHECK: %[[CELLS:.*]] = arith.muli %[[R]], %[[C]] : index
// CHECK: arith.cmpi eq, %[[CELLS]], %c12 : index
// CHECK: call @amls_rt_check
// CHECK: %[[SHAPE:.*]] = tensor.from_elements %[[R]], %[[C]] : tensor<2xindex>
// CHECK: tensor.reshape %[[X]](%[[SHAPE]])
// CHECK: %[[DI:.*]] = linalg.index 0
// CHECK: %[[DJ:.*]] = linalg.index 1
// CHECK: %[[ON:.*]] = arith.cmpi eq, %[[DI]], %[[DJ]]
// CHECK: tensor.extract %[[V]][%[[DI]], %c0]
// CHECK: arith.select %[[ON]]
// CHECK: %[[RI:.*]] = linalg.index 0
// CHECK: %[[RJ:.*]] = linalg.index 1
// CHECK: %[[FLIP:.*]] = arith.subi %c3, %[[RI]]
// CHECK: tensor.extract %[[X]][%[[FLIP]], %[[RJ]]]
// CHECK: tensor.insert_slice %[[X]] into %{{.*}}[0, 0] [4, 3] [1, 1] : tensor<4x3xf64> into tensor<8x3xf64>
// CHECK: tensor.insert_slice %[[X]] into %{{.*}}[4, 0] [4, 3] [1, 1] : tensor<4x3xf64> into tensor<8x3xf64>
func.func @reshape_diag_rev(%X: !amls.matrix<4x3xf64>, %v: !amls.matrix<4x1xf64>, %r: index, %c: index) -> (!amls.matrix<?x?xf64>, !amls.matrix<4x4xf64>, !amls.matrix<4x3xf64>, !amls.matrix<8x3xf64>) {
  %0 = amls.reshape %X, %r, %c : !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.diag %v : !amls.matrix<4x1xf64> -> !amls.matrix<4x4xf64>
  %2 = amls.rev %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %3 = amls.rbind %X, %X : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<8x3xf64>
  return %0, %1, %2, %3 : !amls.matrix<?x?xf64>, !amls.matrix<4x4xf64>, !amls.matrix<4x3xf64>, !amls.matrix<8x3xf64>
}

// -----

// table without a size: the runtime finds the largest category of each
// operand, then fills the counts.
// CHECK-LABEL: func @table
// CHECK: %[[ROWS:.*]] = call @amls_rt_max_category
// CHECK: %[[R:.*]] = arith.index_cast %[[ROWS]]
// CHECK: %[[COLS:.*]] = call @amls_rt_max_category
// CHECK: %[[C:.*]] = arith.index_cast %[[COLS]]
// CHECK: memref.alloc(%[[R]], %[[C]]) : memref<?x?xf64>
// CHECK: call @amls_rt_table
func.func @table(%a: !amls.matrix<?x1xf64>, %b: !amls.matrix<?x1xf64>) -> !amls.matrix<?x?xf64> {
  %0 = amls.table %a, %b : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

// -----

// ncol of a known size is a constant; nnz counts non-zeros into i64;
// as_scalar extracts; convert between dense types is a no-op.
// CHECK-LABEL: func @scalars_of_matrices
// CHECK-SAME: (%[[X:.*]]: tensor<?x10xf64>, %[[ONE:.*]]: tensor<1x1xf64>)
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<?x10xf64>) outs(%{{.*}} : tensor<i64>)
// CHECK: arith.cmpf une
// CHECK: arith.extui %{{.*}} : i1 to i64
// CHECK: %[[NNZ:.*]] = tensor.extract %{{.*}}[] : tensor<i64>
// CHECK: %[[S:.*]] = tensor.extract %[[ONE]][%c0, %c0] : tensor<1x1xf64>
// CHECK: return %c10, %[[NNZ]], %[[S]], %[[X]]
func.func @scalars_of_matrices(%X: !amls.matrix<?x10xf64>, %one: !amls.matrix<1x1xf64>) -> (index, i64, f64, !amls.matrix<?x10xf64, sparsity = 0.5>) {
  %0 = amls.ncol %X : !amls.matrix<?x10xf64>
  %1 = amls.nnz %X : !amls.matrix<?x10xf64>
  %2 = amls.as_scalar %one : !amls.matrix<1x1xf64> -> f64
  %3 = amls.convert %X : !amls.matrix<?x10xf64> -> !amls.matrix<?x10xf64, sparsity = 0.5>
  return %0, %1, %2, %3 : index, i64, f64, !amls.matrix<?x10xf64, sparsity = 0.5>
}

// -----

// Fused operators: one linalg.generic with the fused body. Two aggregates
// of a magg share the pass as two reduction outputs; a row vector side
// input is broadcast along the rows; scalars are used directly.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[ALL:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[PERROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func @fused
// CHECK-SAME: (%[[X:.*]]: tensor<4x3xf64>, %[[V:.*]]: tensor<1x3xf64>, %[[S:.*]]: f64)
// CHECK: %[[MAGG:.*]]:2 = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ALL]], #[[ALL]]], iterator_types = ["reduction", "reduction"]} ins(%[[X]], %[[V]] : tensor<4x3xf64>, tensor<1x3xf64>)
// CHECK: ^bb0(%[[XC:.*]]: f64, %[[VC:.*]]: f64, %[[SUM:.*]]: f64, %[[MAX:.*]]: f64):
// CHECK: %[[P:.*]] = arith.mulf %[[XC]], %[[VC]]
// CHECK: %[[Q:.*]] = arith.mulf %[[P]], %[[S]]
// CHECK: %[[NEWSUM:.*]] = arith.addf %[[SUM]], %[[P]]
// CHECK: %[[NEWMAX:.*]] = arith.maximumf %[[MAX]], %[[Q]]
// CHECK: linalg.yield %[[NEWSUM]], %[[NEWMAX]]
// CHECK: tensor.extract %[[MAGG]]#0[]
// CHECK: tensor.extract %[[MAGG]]#1[]
// CHECK: %[[RS:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[PERROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<4x3xf64>)
// CHECK: math.exp
// CHECK: tensor.expand_shape %[[RS]] {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xf64> into tensor<4x1xf64>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[X]] : tensor<4x3xf64>) outs(%{{.*}} : tensor<4x3xf64>)
// CHECK: arith.mulf
// CHECK: math.exp
func.func @fused(%X: !amls.matrix<4x3xf64>, %v: !amls.matrix<1x3xf64>, %s: f64) -> (f64, f64, !amls.matrix<4x1xf64>, !amls.matrix<4x3xf64>) {
  %0:2 = amls.fused magg aggregate [sum, max] all ins(%X, %v, %s) : (!amls.matrix<4x3xf64>, !amls.matrix<1x3xf64>, f64) -> (f64, f64) {
  ^bb0(%x: f64, %y: f64, %t: f64):
    %p = arith.mulf %x, %y : f64
    %q = arith.mulf %p, %t : f64
    amls.yield %p, %q : f64, f64
  }
  %1 = amls.fused cell aggregate [sum] row ins(%X) : (!amls.matrix<4x3xf64>) -> !amls.matrix<4x1xf64> {
  ^bb0(%x: f64):
    %e = math.exp %x : f64
    amls.yield %e : f64
  }
  %2 = amls.fused cell ins(%X, %s) : (!amls.matrix<4x3xf64>, f64) -> !amls.matrix<4x3xf64> {
  ^bb0(%x: f64, %t: f64):
    %p = arith.mulf %x, %t : f64
    %e = math.exp %p : f64
    amls.yield %e : f64
  }
  return %0#0, %0#1, %1, %2 : f64, f64, !amls.matrix<4x1xf64>, !amls.matrix<4x3xf64>
}

// -----

// A fused operator's side input whose size is unknown where the main
// input's is not 1 (13x? against 13x5) may be a vector at run time: it must
// match the main input or be 1 there, and is expanded where it is 1.
// CHECK: llvm.mlir.global internal constant @{{.*}}("'amls.fused' at {{.*}}: input #1 differs in size from the main input, and is not a vector to broadcast
// CHECK-LABEL: func @fused_side_vector
// CHECK-SAME: (%[[X:.*]]: tensor<13x5xf64>, %[[V:.*]]: tensor<13x?xf64>)
// CHECK: %[[COLS:.*]] = tensor.dim %[[V]], %c1
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[COLS]], %c5
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %[[COLS]], %c1
// CHECK: %[[OK:.*]] = arith.ori %[[SAME]], %[[ONE]]
// CHECK: %[[FLAG:.*]] = arith.extui %[[OK]]
// CHECK: call @amls_rt_check(%[[FLAG]]
// CHECK: %[[IS_VECTOR:.*]] = arith.cmpi eq, %{{.*}}, %c1
// CHECK: %[[EXPANDED:.*]] = scf.if %[[IS_VECTOR]]
// CHECK: tensor.extract %[[V]][%{{.*}}, %c0]
// CHECK: %[[SIDE:.*]] = tensor.cast %[[EXPANDED]] : tensor<13x?xf64> to tensor<13x5xf64>
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[SIDE]] : tensor<13x5xf64>, tensor<13x5xf64>)
func.func @fused_side_vector(%X: !amls.matrix<13x5xf64>, %V: !amls.matrix<13x?xf64>) -> !amls.matrix<13x5xf64> {
  %0 = amls.fused cell ins(%X, %V) : (!amls.matrix<13x5xf64>, !amls.matrix<13x?xf64>) -> !amls.matrix<13x5xf64> {
  ^bb0(%x: f64, %v: f64):
    %s = arith.addf %x, %v : f64
    amls.yield %s : f64
  }
  return %0 : !amls.matrix<13x5xf64>
}

// -----

// Outer template: one generic over X's cells, rows in parallel (one partial
// sum per row, merged afterwards); a zero cell leaves the sum as it is, any
// other computes the dot product of row i of U and row j of V and the body.
// CHECK-LABEL: func @outer_template
// CHECK-SAME: (%[[X:.*]]: tensor<300x200xf64>, %[[U:.*]]: tensor<300x5xf64>, %[[V:.*]]: tensor<200x5xf64>, %[[EPS:.*]]: f64)
// CHECK: %[[ROWS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<300x200xf64>) outs(%{{.*}} : tensor<300xf64>)
// CHECK: ^bb0(%[[CELL:.*]]: f64, %[[ACC:.*]]: f64):
// CHECK: %[[I:.*]] = linalg.index 0
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[NZ:.*]] = arith.cmpf une, %[[CELL]]
// CHECK: %[[R:.*]] = scf.if %[[NZ]] -> (f64) {
// CHECK: %[[DOT:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[S:.*]] = %{{.*}})
// CHECK: tensor.extract %[[U]][%[[I]], %[[K]]]
// CHECK: tensor.extract %[[V]][%[[J]], %[[K]]]
// CHECK: %[[A:.*]] = arith.addf %[[DOT]], %[[EPS]]
// CHECK: %[[L:.*]] = math.log %[[A]]
// CHECK: %[[P:.*]] = arith.mulf %[[CELL]], %[[L]]
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[P]]
// CHECK: scf.yield %[[SUM]]
// CHECK: } else {
// CHECK: scf.yield %[[ACC]]
// CHECK: linalg.yield %[[R]]
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[ROWS]] : tensor<300xf64>)
func.func @outer_template(%X: !amls.matrix<300x200xf64>, %U: !amls.matrix<300x5xf64>, %V: !amls.matrix<200x5xf64>, %eps: f64) -> f64 {
  %s = amls.fused outer aggregate [sum] all ins(%X, %U, %V, %eps) : (!amls.matrix<300x200xf64>, !amls.matrix<300x5xf64>, !amls.matrix<200x5xf64>, f64) -> f64 {
  ^bb0(%x: f64, %uv: f64, %e: f64):
    %a = arith.addf %uv, %e : f64
    %l = math.log %a : f64
    %p = arith.mulf %x, %l : f64
    amls.yield %p : f64
  }
  return %s : f64
}

// -----

// Row template: an scf.forall over at most 32 chunks of blocks of 320 rows
// (100 columns of f64: 256 KiB per block); each chunk loops over its blocks,
// runs the body on a slice of X and combines the block's partial results
// into its accumulators (sum: addition, max: maximum), which go to the
// chunk's slot of the partial results; the slots are merged afterwards.
// BLAS is single-threaded while the chunks run.
// CHECK-LABEL: func @row_template
// CHECK-SAME: (%[[X:.*]]: tensor<?x100xf64>, %[[V:.*]]: tensor<100x5xf64>)
// CHECK-DAG: %[[BLOCK:.*]] = arith.constant 320 : index
// CHECK-DAG: %[[MAXCHUNKS:.*]] = arith.constant 32 : index
// CHECK: %[[N:.*]] = tensor.dim %[[X]]
// CHECK: %[[BLOCKS:.*]] = arith.ceildivui %[[N]], %[[BLOCK]]
// CHECK: %[[CHUNKS:.*]] = arith.minui %[[BLOCKS]], %[[MAXCHUNKS]]
// CHECK: %[[PARTIALS:.*]] = tensor.empty(%[[CHUNKS]]) : tensor<?x100x5xf64>
// CHECK: %[[MAXES:.*]] = tensor.empty(%[[CHUNKS]]) : tensor<?xf64>
// CHECK: call @amls_rt_blas_serial(%c1_i32)
// CHECK: %[[ALL:.*]]:2 = scf.forall (%[[C:.*]]) in (%[[CHUNKS]]) shared_outs(%[[P:.*]] = %[[PARTIALS]], %[[M:.*]] = %[[MAXES]])
// CHECK: %[[SUMS:.*]]:2 = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %[[BLOCK]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[MAX:.*]] = %{{.*}})
// CHECK: %[[XB:.*]] = tensor.extract_slice %[[X]][%[[B]], 0] [%{{.*}}, 100] [1, 1]
// CHECK: %[[XV:.*]] = linalg.matmul ins(%[[XB]], %[[V]] : tensor<?x100xf64>, tensor<100x5xf64>)
// CHECK: %[[H:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[XB]], %[[XV]] : tensor<?x100xf64>, tensor<?x5xf64>)
// CHECK: %[[BMAX:.*]] = tensor.extract
// CHECK: %[[NEXT:.*]] = linalg.generic {{.*}} ins(%[[H]] : tensor<100x5xf64>) outs(%[[ACC]] : tensor<100x5xf64>)
// CHECK: arith.addf
// CHECK: %[[NEXTMAX:.*]] = arith.maximumf %[[MAX]], %[[BMAX]]
// CHECK: scf.yield %[[NEXT]], %[[NEXTMAX]]
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %[[SUMS]]#0 into %[[P]][%[[C]], 0, 0] [1, 100, 5] [1, 1, 1]
// CHECK-NEXT: tensor.parallel_insert_slice %{{.*}} into %[[M]][%[[C]]] [1] [1]
// CHECK: call @amls_rt_blas_serial(%c0_i32)
// CHECK: %[[H:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "parallel"]} ins(%[[ALL]]#0 : tensor<?x100x5xf64>)
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[ALL]]#1 : tensor<?xf64>)
// CHECK: arith.maximumf
func.func @row_template(%X: !amls.matrix<?x100xf64>, %V: !amls.matrix<100x5xf64>) -> (!amls.matrix<100x5xf64>, f64) {
  %0:2 = amls.fused row aggregate [sum, max] row_inputs 1 ins(%X, %V) : (!amls.matrix<?x100xf64>, !amls.matrix<100x5xf64>) -> (!amls.matrix<100x5xf64>, f64) {
  ^bb0(%x: !amls.matrix<?x100xf64>, %v: !amls.matrix<100x5xf64>):
    %xv = amls.matmul %x, %v : !amls.matrix<?x100xf64>, !amls.matrix<100x5xf64> -> !amls.matrix<?x5xf64>
    %xt = amls.transpose %x : !amls.matrix<?x100xf64> -> !amls.matrix<100x?xf64>
    %h = amls.matmul %xt, %xv : !amls.matrix<100x?xf64>, !amls.matrix<?x5xf64> -> !amls.matrix<100x5xf64>
    %m = amls.agg max all %xv : !amls.matrix<?x5xf64> -> f64
    amls.yield %h, %m : !amls.matrix<100x5xf64>, f64
  }
  return %0#0, %0#1 : !amls.matrix<100x5xf64>, f64
}

// -----

// A row input of run-time width (P: ? columns): the rows of a block come
// from its width at run time, 256 KiB / (800 + 8 * cols(P)) bytes per row,
// rounded down to a multiple of 8, within [8, 1024].
// CHECK-LABEL: func @row_template_dynamic_width
// CHECK-SAME: (%[[X:.*]]: tensor<?x100xf64>, %[[P:.*]]: tensor<?x?xf64>,
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[C800:.*]] = arith.constant 800 : index
// CHECK-DAG: %[[C1024:.*]] = arith.constant 1024 : index
// CHECK-DAG: %[[BYTES:.*]] = arith.constant 262144 : index
// CHECK: %[[W:.*]] = tensor.dim %[[P]], %c1
// CHECK: %[[WB:.*]] = arith.muli %[[W]], %[[C8]]
// CHECK: %[[ROW:.*]] = arith.addi %[[WB]], %[[C800]]
// CHECK: %[[ROW1:.*]] = arith.maxui %[[ROW]], %c1
// CHECK: %[[FIT:.*]] = arith.divui %[[BYTES]], %[[ROW1]]
// CHECK: %[[FIT8:.*]] = arith.divui %[[FIT]], %[[C8]]
// CHECK: %[[FITR:.*]] = arith.muli %[[FIT8]], %[[C8]]
// CHECK: %[[LOW:.*]] = arith.maxui %[[FITR]], %[[C8]]
// CHECK: %[[BLOCK:.*]] = arith.minui %[[LOW]], %[[C1024]]
// CHECK: arith.ceildivui %{{.*}}, %[[BLOCK]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %[[BLOCK]]
func.func @row_template_dynamic_width(%X: !amls.matrix<?x100xf64>, %P: !amls.matrix<?x?xf64>, %V: !amls.matrix<100x5xf64>) -> !amls.matrix<100x5xf64> {
  %0 = amls.fused row aggregate [sum] row_inputs 2 ins(%X, %P, %V) : (!amls.matrix<?x100xf64>, !amls.matrix<?x?xf64>, !amls.matrix<100x5xf64>) -> !amls.matrix<100x5xf64> {
  ^bb0(%x: !amls.matrix<?x100xf64>, %p: !amls.matrix<?x?xf64>, %v: !amls.matrix<100x5xf64>):
    %xv = amls.matmul %x, %v : !amls.matrix<?x100xf64>, !amls.matrix<100x5xf64> -> !amls.matrix<?x5xf64>
    %xt = amls.transpose %x : !amls.matrix<?x100xf64> -> !amls.matrix<100x?xf64>
    %h = amls.matmul %xt, %xv : !amls.matrix<100x?xf64>, !amls.matrix<?x5xf64> -> !amls.matrix<100x5xf64>
    amls.yield %h : !amls.matrix<100x5xf64>
  }
  return %0 : !amls.matrix<100x5xf64>
}

// -----

// Row-wise results: each chunk writes its blocks into its rows.
// CHECK-LABEL: func @row_template_rows
// CHECK: %[[OUT:.*]] = tensor.empty(%{{.*}}) : tensor<?x5xf64>
// CHECK: scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%[[O:.*]] = %[[OUT]])
// CHECK: %[[HI:.*]] = arith.minui
// CHECK: %[[LO:.*]] = arith.minui %{{.*}}, %[[HI]]
// CHECK: %[[CHUNK:.*]] = tensor.extract_slice %[[O]][%[[LO]], 0] [%[[LEN:.*]], 5] [1, 1]
// CHECK: scf.for %[[B:.*]] = %[[LO]] to %{{.*}} step %{{.*}} iter_args(%[[ROWS:.*]] = %[[CHUNK]])
// CHECK: %[[XV:.*]] = linalg.matmul
// CHECK: %[[AT:.*]] = arith.subi %[[B]], %[[LO]]
// CHECK: tensor.insert_slice %[[XV]] into %[[ROWS]][%[[AT]], 0]
// CHECK: tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[LO]], 0] [%[[LEN]], 5] [1, 1]
func.func @row_template_rows(%X: !amls.matrix<?x100xf64>, %V: !amls.matrix<100x5xf64>) -> !amls.matrix<?x5xf64> {
  %0 = amls.fused row row_inputs 1 ins(%X, %V) : (!amls.matrix<?x100xf64>, !amls.matrix<100x5xf64>) -> !amls.matrix<?x5xf64> {
  ^bb0(%x: !amls.matrix<?x100xf64>, %v: !amls.matrix<100x5xf64>):
    %xv = amls.matmul %x, %v : !amls.matrix<?x100xf64>, !amls.matrix<100x5xf64> -> !amls.matrix<?x5xf64>
    amls.yield %xv : !amls.matrix<?x5xf64>
  }
  return %0 : !amls.matrix<?x5xf64>
}

// -----

// Full aggregates over at least 32768 static cells: partial results per
// block (the parallel dimension) and per lane (the innermost, element-wise
// loop), merged by a second reduction; sumsq merges its partial sums with
// additions. Inputs of the reduced shape are contiguous blocks of rows:
// each is regrouped into runs of up to 64 cells, the most that leave 8
// blocks, else the most with fewer (2 blocks of 3125 runs of 16 for
// 1000x100, 8 blocks of 625 runs of 8 for the 40000x1 column vector), so
// the partial results of a block stay in registers. With a broadcast row
// vector, the cells of a block keep their columns: one partial result per
// block and column (8 blocks of 125 rows).
// CHECK-LABEL: func @blocked_full_reductions
// CHECK: %[[FLATX:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<1000x100xf64> into tensor<100000xf64>
// CHECK: %[[B:.*]] = tensor.expand_shape %[[FLATX]] {{\[\[}}0, 1, 2]] output_shape [2, 3125, 16] : tensor<100000xf64> into tensor<2x3125x16xf64>
// CHECK: %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[B]] : tensor<2x3125x16xf64>) outs(%{{.*}} : tensor<2x16xf64>)
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]} ins(%[[P]] : tensor<2x16xf64>) outs(%{{.*}} : tensor<f64>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f64, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[IN]] {amls.compensate}
// CHECK-NEXT: linalg.yield %[[S]]
// CHECK: tensor.extract %[[M]][]
// CHECK: tensor.expand_shape {{.*}} into tensor<2x3125x16xf64>
// CHECK: tensor.expand_shape {{.*}} into tensor<2x3125x16xf64>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} {{.*}} outs(%{{.*}} : tensor<2x16xf64>)
// CHECK: arith.maximumf
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %arg2 {{\[\[}}0, 1]] : tensor<40000x1xf64> into tensor<40000xf64>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [8, 625, 8] : tensor<40000xf64> into tensor<8x625x8xf64>
// CHECK: %[[BX:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [8, 125, 100] : tensor<1000x100xf64> into tensor<8x125x100xf64>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[BX]], %arg3 : tensor<8x125x100xf64>, tensor<1x100xf64>) outs(%{{.*}} : tensor<8x100xf64>)
func.func @blocked_full_reductions(%X: !amls.matrix<1000x100xf64>, %Y: !amls.matrix<1000x100xf64>, %v: !amls.matrix<40000x1xf64>, %r: !amls.matrix<1x100xf64>) -> (f64, f64, f64, f64) {
  %0 = amls.agg sumsq all %X : !amls.matrix<1000x100xf64> -> f64
  %1 = amls.fused cell aggregate [max] all ins(%X, %Y) : (!amls.matrix<1000x100xf64>, !amls.matrix<1000x100xf64>) -> f64 {
  ^bb0(%x: f64, %y: f64):
    %p = arith.mulf %x, %y : f64
    amls.yield %p : f64
  }
  %2 = amls.agg sum all %v : !amls.matrix<40000x1xf64> -> f64
  %3 = amls.fused cell aggregate [sum] all ins(%X, %r) : (!amls.matrix<1000x100xf64>, !amls.matrix<1x100xf64>) -> f64 {
  ^bb0(%x: f64, %c: f64):
    %p = arith.mulf %x, %c : f64
    amls.yield %p : f64
  }
  return %0, %1, %2, %3 : f64, f64, f64, f64
}

// -----

// Also over the result of a product: the blocked view is a reshape of the
// linalg.matmul, which --amls-fuse-elementwise leaves in place (the product
// stays a BLAS call; test/Codegen/CPU/fuse-elementwise.mlir).
// CHECK-LABEL: func @blocks_over_products
// CHECK: %[[P:.*]] = linalg.matmul
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[P]]
// CHECK: %[[V:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [2, 3125, 16]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%[[V]] : tensor<2x3125x16xf64>)
func.func @blocks_over_products(%X: !amls.matrix<1000x100xf64>, %W: !amls.matrix<100x100xf64>) -> f64 {
  %0 = amls.matmul %X, %W : !amls.matrix<1000x100xf64>, !amls.matrix<100x100xf64> -> !amls.matrix<1000x100xf64>
  %1 = amls.agg sum all %0 : !amls.matrix<1000x100xf64> -> f64
  return %1 : f64
}

// -----

// The runtime works on f64: other element types are converted on the way.
// CHECK-LABEL: func @runtime_converts_f32
// CHECK-SAME: (%[[X:[^:]*]]: tensor<?x?xf32>,
// CHECK: %[[WIDE:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x?xf32>) outs(%{{.*}} : tensor<?x?xf64>)
// CHECK: arith.extf %{{.*}} : f32 to f64
// CHECK: bufferization.to_buffer %[[WIDE]]
// CHECK: call @amls_rt_print_matrix
// CHECK: %[[CELL:.*]] = func.call @amls_rt_rand
// CHECK-NEXT: arith.truncf %[[CELL]] : f64 to f32
func.func @runtime_converts_f32(%X: !amls.matrix<?x?xf32>, %n: index, %v: f32, %seed: i64) -> !amls.matrix<?x?xf32> {
  amls.print %X : !amls.matrix<?x?xf32>
  %0 = amls.rand %n, %n, %v, %v, %v seed %seed uniform : f32 -> !amls.matrix<?x?xf32>
  return %0 : !amls.matrix<?x?xf32>
}

// -----

// Runtime f64 cells become i64 truncated towards zero, NaN becoming 0
// (fptosi of NaN is poison).
// CHECK-LABEL: func @runtime_converts_i64
// CHECK: call @amls_rt_read
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x?xi64>)
// CHECK: ^bb0(%[[CELL:.*]]: f64, %{{.*}}: i64):
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[CELL]], %[[CELL]] : f64
// CHECK: %[[CLEAN:.*]] = arith.select %[[NAN]], %{{.*}}, %[[CELL]] : f64
// CHECK: arith.fptosi %[[CLEAN]] : f64 to i64
func.func @runtime_converts_i64() -> !amls.matrix<?x?xi64> {
  %X = amls.read "X.csv" csv : !amls.matrix<?x?xi64>
  return %X : !amls.matrix<?x?xi64>
}

// -----

// x ^ 2 with a constant 2 is x * x (what the optimizer makes of X * X), no
// libm call per cell; another exponent stays math.powf.
// CHECK-LABEL: func @square
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f64, %{{.*}}: f64):
// CHECK-NEXT: arith.mulf %[[IN]], %[[IN]] : f64
// CHECK: linalg.generic
// CHECK: math.powf
func.func @square(%X: !amls.matrix<4x3xf64>) -> (!amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>) {
  %two = arith.constant 2.0 : f64
  %three = arith.constant 3.0 : f64
  %0 = amls.pow %X, %two : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  %1 = amls.pow %X, %three : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  return %0, %1 : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>
}

// -----

// A matrix not assigned on a path: an uninitialized tensor, without cells
// where a size is unknown.
// CHECK-LABEL: func @poison_matrix
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x0xf64>
// CHECK: %[[C:.*]] = tensor.cast %[[E]] : tensor<4x0xf64> to tensor<4x?xf64>
// CHECK: return %[[C]]
func.func @poison_matrix() -> !amls.matrix<4x?xf64> {
  %p = ub.poison : !amls.matrix<4x?xf64>
  return %p : !amls.matrix<4x?xf64>
}
