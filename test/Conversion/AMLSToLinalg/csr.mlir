// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg -canonicalize | FileCheck %s
// RUN: amls-opt %s -split-input-file -convert-amls-to-linalg="entry=kinds" | FileCheck %s --check-prefix=KINDS

// A CSR matrix converts to its row pointers, column indices, values and
// column count, across function boundaries too.
// CHECK-LABEL: func @signature
// CHECK-SAME: (%[[P:.*]]: tensor<101xi64>, %[[C:.*]]: tensor<?xi32>, %[[V:.*]]: tensor<?xf64>, %[[N:.*]]: index) -> (tensor<101xi64>, tensor<?xi32>, tensor<?xf64>, index)
// CHECK: return %[[P]], %[[C]], %[[V]], %{{.*}}
func.func @signature(%A: !amls.matrix<100x50xf64, format = csr>) -> !amls.matrix<100x50xf64, format = csr> {
  return %A : !amls.matrix<100x50xf64, format = csr>
}

// -----

// Conversions both ways: count, then fill; scatter into a dense buffer.
// CHECK-LABEL: func @convert
// CHECK: %[[PTR:.*]] = memref.alloc() : memref<101xi64>
// CHECK: %[[NNZ:.*]] = call @amls_rt_csr_count_dense
// CHECK: %[[N:.*]] = arith.index_cast %[[NNZ]] : i64 to index
// CHECK: memref.alloc(%[[N]]) : memref<?xi32>
// CHECK: memref.alloc(%[[N]]) : memref<?xf64>
// CHECK: call @amls_rt_csr_from_dense
// CHECK: call @amls_rt_csr_to_dense
func.func @convert(%X: !amls.matrix<100x50xf64>) -> !amls.matrix<100x50xf64> {
  %S = amls.convert %X : !amls.matrix<100x50xf64> -> !amls.matrix<100x50xf64, format = csr>
  %D = amls.convert %S : !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<100x50xf64>
  return %D : !amls.matrix<100x50xf64>
}

// -----

// A file read straight into CSR, its sizes checked against the type; the
// reader's arrays become the program's buffers (handed over, not copied).
// CHECK-LABEL: func @read_write
// CHECK: %[[H:.*]] = call @amls_rt_csr_read
// CHECK: call @amls_rt_csr_handle_rows(%[[H]])
// CHECK: call @amls_rt_csr_handle_cols(%[[H]])
// CHECK: call @amls_rt_check
// CHECK-NOT: memref.alloc
// CHECK: %[[PTR:.*]] = call @amls_rt_csr_take_rowptr(%[[H]], %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> memref<?xi64>
// CHECK: %[[IDX:.*]] = call @amls_rt_csr_take_colidx(%[[H]], %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> memref<?xi32>
// CHECK: %[[VAL:.*]] = call @amls_rt_csr_take_values(%[[H]], %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> memref<?xf64>
// CHECK: call @amls_rt_csr_free_handle(%[[H]])
// CHECK: call @amls_rt_csr_write
func.func @read_write() {
  %A = amls.read "in.mtx" mm : !amls.matrix<100x50xf64, format = csr>
  amls.write %A, "out.mtx" mm : !amls.matrix<100x50xf64, format = csr>
  return
}

// -----

// Products: SpMM, dense x CSR, SpGEMM in two phases, tsmm and mmchain.
// CHECK-LABEL: func @products
// CHECK: call @amls_rt_csr_spmm(
// CHECK: call @amls_rt_dense_csr_mm(
// CHECK: call @amls_rt_csr_spgemm_count(
// CHECK: call @amls_rt_csr_spgemm_fill(
// CHECK: call @amls_rt_csr_tsmm(
// CHECK: call @amls_rt_csr_mmchain(
func.func @products(%A: !amls.matrix<100x100xf64, format = csr>, %D: !amls.matrix<100x8xf64>, %E: !amls.matrix<8x100xf64>, %v: !amls.matrix<100x1xf64>) -> (!amls.matrix<100x8xf64>, !amls.matrix<8x100xf64>, !amls.matrix<100x100xf64, format = csr>, !amls.matrix<100x100xf64>, !amls.matrix<100x1xf64>) {
  %0 = amls.matmul %A, %D : !amls.matrix<100x100xf64, format = csr>, !amls.matrix<100x8xf64> -> !amls.matrix<100x8xf64>
  %1 = amls.matmul %E, %A : !amls.matrix<8x100xf64>, !amls.matrix<100x100xf64, format = csr> -> !amls.matrix<8x100xf64>
  %2 = amls.matmul %A, %A : !amls.matrix<100x100xf64, format = csr>, !amls.matrix<100x100xf64, format = csr> -> !amls.matrix<100x100xf64, format = csr>
  %3 = amls.tsmm left %A : !amls.matrix<100x100xf64, format = csr> -> !amls.matrix<100x100xf64>
  %4 = amls.mmchain %A, %v : !amls.matrix<100x100xf64, format = csr>, !amls.matrix<100x1xf64> -> !amls.matrix<100x1xf64>
  return %0, %1, %2, %3, %4 : !amls.matrix<100x8xf64>, !amls.matrix<8x100xf64>, !amls.matrix<100x100xf64, format = csr>, !amls.matrix<100x100xf64>, !amls.matrix<100x1xf64>
}

// -----

// t(D) %*% X with a CSR X (the format selection's form of t(X) %*% D) passes
// D to the dense-times-CSR kernel as a transposed view (strides swapped): no
// linalg.transpose copies D.
// CHECK-LABEL: func @transposed_dense_times_csr
// CHECK-SAME: (%[[D:[^:]*]]: tensor<1000x8xf64>
// CHECK-NOT: linalg.transpose
// CHECK: %[[BUF:.*]] = bufferization.to_buffer %[[D]]
// CHECK: %[[FLEX:.*]] = memref.cast %[[BUF]]
// CHECK: %[[VIEW:.*]] = memref.transpose %[[FLEX]] (d0, d1) -> (d1, d0)
// CHECK: call @amls_rt_dense_csr_mm(%[[VIEW]],
func.func @transposed_dense_times_csr(%D: !amls.matrix<1000x8xf64>, %X: !amls.matrix<1000x10xf64, format = csr>) -> !amls.matrix<8x10xf64> {
  %t = amls.transpose %D : !amls.matrix<1000x8xf64> -> !amls.matrix<8x1000xf64>
  %0 = amls.matmul %t, %X : !amls.matrix<8x1000xf64>, !amls.matrix<1000x10xf64, format = csr> -> !amls.matrix<8x10xf64>
  return %0 : !amls.matrix<8x10xf64>
}

// -----

// Full aggregates reduce the values (min/max with the implicit zeros where
// some cell is not stored), row and column aggregates call the runtime,
// means divide the sums.
// CHECK-LABEL: func @aggregates
// CHECK-DAG: %[[SUM:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[MIN:.*]] = arith.constant 2 : i32
// CHECK: call @amls_rt_values_reduce(%{{.*}}, %[[SUM]])
// CHECK: %[[M:.*]] = call @amls_rt_values_reduce(%{{.*}}, %[[MIN]])
// CHECK: %[[SOME:.*]] = arith.cmpi ult
// CHECK: %[[Z:.*]] = arith.minimumf %[[M]]
// CHECK: arith.select %[[SOME]], %[[Z]], %[[M]]
// CHECK: call @amls_rt_csr_row_agg(%{{.*}}, %[[SUM]]
// CHECK: call @amls_rt_csr_col_agg(%{{.*}}, %[[SUM]]
// CHECK: linalg.generic
// CHECK: arith.divf
func.func @aggregates(%A: !amls.matrix<100x50xf64, format = csr>) -> (f64, f64, !amls.matrix<100x1xf64>, !amls.matrix<1x50xf64>) {
  %0 = amls.agg sum all %A : !amls.matrix<100x50xf64, format = csr> -> f64
  %1 = amls.agg min all %A : !amls.matrix<100x50xf64, format = csr> -> f64
  %2 = amls.agg sum row %A : !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<100x1xf64>
  %3 = amls.agg mean col %A : !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<1x50xf64>
  return %0, %1, %2, %3 : f64, f64, !amls.matrix<100x1xf64>, !amls.matrix<1x50xf64>
}

// -----

// Element-wise ops keep the pattern: the result shares the row pointers and
// column indices; scalars map the values, dense operands are gathered by
// parallel loops over the rows. A division by a vector keeps the pattern
// when no divisor is 0 or NaN (counted at run time), and is computed dense,
// then stored CSR, otherwise.
// CHECK-LABEL: func @elementwise
// CHECK-SAME: (%[[P:.*]]: tensor<101xi64>, %[[C:.*]]: tensor<?xi32>, %[[V:.*]]: tensor<?xf64>, %{{.*}}: index, %[[D:.*]]: tensor<100x1xf64>, %[[S:.*]]: f64)
// CHECK: %[[M:.*]] = linalg.generic {{.*}} ins(%[[V]] : tensor<?xf64>)
// CHECK: arith.mulf %{{.*}}, %[[S]]
// CHECK: arith.cmpf ueq
// CHECK: %[[OK:.*]] = arith.cmpi eq
// CHECK: %[[Q:.*]]:3 = scf.if %[[OK]]
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: arith.divf
// CHECK: scf.yield %[[P]], %[[C]], %{{.*}} :
// CHECK: } else {
// CHECK: call @amls_rt_csr_to_dense
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: call @amls_rt_csr_count_dense
// CHECK: call @amls_rt_csr_from_dense
// CHECK: return %[[Q]]#0, %[[Q]]#1, %[[Q]]#2, %c50 :
func.func @elementwise(%A: !amls.matrix<100x50xf64, format = csr>, %d: !amls.matrix<100x1xf64>, %s: f64) -> !amls.matrix<100x50xf64, format = csr> {
  %0 = amls.mul %A, %s : !amls.matrix<100x50xf64, format = csr>, f64 -> !amls.matrix<100x50xf64, format = csr>
  %1 = amls.div %0, %d : !amls.matrix<100x50xf64, format = csr>, !amls.matrix<100x1xf64> -> !amls.matrix<100x50xf64, format = csr>
  return %1 : !amls.matrix<100x50xf64, format = csr>
}

// -----

// A * r for a row vector r reads r by column alone: one flat parallel loop
// over the stored values (no row pointers), the pattern kept.
// CHECK-LABEL: func @times_row_vector
// CHECK-SAME: (%[[P:.*]]: tensor<101xi64>, %[[C:.*]]: tensor<?xi32>, %[[V:.*]]: tensor<?xf64>, %{{.*}}: index, %[[R:.*]]: tensor<1x50xf64>)
// CHECK: %[[NNZ:.*]] = tensor.dim %[[V]]
// CHECK: %[[OUT:.*]] = memref.alloc(%[[NNZ]])
// CHECK: scf.parallel (%[[K:.*]]) = (%c0) to (%[[NNZ]]) step (%c1)
// CHECK-NOT: scf.for
// CHECK: %[[J:.*]] = tensor.extract %[[C]][%[[K]]]
// CHECK: %[[JI:.*]] = arith.index_cast %[[J]]
// CHECK: %[[RJ:.*]] = tensor.extract %[[R]][%c0, %[[JI]]]
// CHECK: %[[VK:.*]] = tensor.extract %[[V]][%[[K]]]
// CHECK: %[[X:.*]] = arith.mulf %[[VK]], %[[RJ]]
// CHECK: memref.store %[[X]], %[[OUT]][%[[K]]]
// CHECK: return %[[P]], %[[C]], %{{.*}}, %c50 :
func.func @times_row_vector(%A: !amls.matrix<100x50xf64, format = csr>, %r: !amls.matrix<1x50xf64>) -> !amls.matrix<100x50xf64, format = csr> {
  %0 = amls.mul %A, %r : !amls.matrix<100x50xf64, format = csr>, !amls.matrix<1x50xf64> -> !amls.matrix<100x50xf64, format = csr>
  return %0 : !amls.matrix<100x50xf64, format = csr>
}

// -----

// rowMaxs(G * t(c)): one max-times product, no temporary CSR matrix.
// CHECK-LABEL: func @components
// CHECK-NOT: scf.parallel
// CHECK: call @amls_rt_csr_row_max_times(
func.func @components(%G: !amls.matrix<100x100xf64, format = csr>, %c: !amls.matrix<100x1xf64>) -> !amls.matrix<100x1xf64> {
  %t = amls.transpose %c : !amls.matrix<100x1xf64> -> !amls.matrix<1x100xf64>
  %m = amls.mul %G, %t : !amls.matrix<100x100xf64, format = csr>, !amls.matrix<1x100xf64> -> !amls.matrix<100x100xf64, format = csr>
  %r = amls.agg max row %m : !amls.matrix<100x100xf64, format = csr> -> !amls.matrix<100x1xf64>
  return %r : !amls.matrix<100x1xf64>
}

// -----

// Reorganisations: transpose, slices (bounds checked, two phases),
// cbind/rbind; sizes and nnz.
// CHECK-LABEL: func @reorganisation
// CHECK: call @amls_rt_csr_transpose(
// CHECK: call @amls_rt_check
// CHECK: call @amls_rt_csr_slice_count(
// CHECK: call @amls_rt_csr_slice_fill(
// CHECK: call @amls_rt_csr_cbind(
// CHECK: call @amls_rt_csr_rbind(
// CHECK: arith.cmpf une
func.func @reorganisation(%A: !amls.matrix<100x50xf64, format = csr>, %r0: index, %r1: index) -> (!amls.matrix<50x100xf64, format = csr>, !amls.matrix<?x50xf64, format = csr>, !amls.matrix<100x100xf64, format = csr>, !amls.matrix<200x50xf64, format = csr>, i64) {
  %t = amls.transpose %A : !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<50x100xf64, format = csr>
  %c0 = arith.constant 0 : index
  %c50 = arith.constant 50 : index
  %s = amls.slice %A[%r0 : %r1, %c0 : %c50] : !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<?x50xf64, format = csr>
  %cb = amls.cbind %A, %A : !amls.matrix<100x50xf64, format = csr>, !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<100x100xf64, format = csr>
  %rb = amls.rbind %A, %A : !amls.matrix<100x50xf64, format = csr>, !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<200x50xf64, format = csr>
  %n = amls.nnz %A : !amls.matrix<100x50xf64, format = csr>
  return %t, %s, %cb, %rb, %n : !amls.matrix<50x100xf64, format = csr>, !amls.matrix<?x50xf64, format = csr>, !amls.matrix<100x100xf64, format = csr>, !amls.matrix<200x50xf64, format = csr>, i64
}

// -----

// table() builds its result CSR in two phases; trace, diag both ways and
// CSR op CSR (merged rows) call the runtime.
// CHECK-LABEL: func @table_trace_diag_merge
// CHECK-DAG: %[[SUB:.*]] = arith.constant 1 : i32
// CHECK: call @amls_rt_max_category
// CHECK: call @amls_rt_csr_table_count(
// CHECK: call @amls_rt_csr_table_fill(
// CHECK: call @amls_rt_csr_trace(
// CHECK: call @amls_rt_csr_diag(
// CHECK: call @amls_rt_csr_from_diagonal_count(
// CHECK: call @amls_rt_csr_from_diagonal_fill(
// CHECK: call @amls_rt_csr_merge_count({{.*}}, %[[SUB]],
// CHECK: call @amls_rt_csr_merge_fill({{.*}}, %[[SUB]],
func.func @table_trace_diag_merge(%a: !amls.matrix<100x1xf64>, %b: !amls.matrix<100x1xf64>, %A: !amls.matrix<100x100xf64, format = csr>) -> (!amls.matrix<?x?xf64, format = csr>, f64, !amls.matrix<100x100xf64, format = csr>) {
  %c100 = arith.constant 100 : index
  %t = amls.table %a, %b : !amls.matrix<100x1xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<?x?xf64, format = csr>
  %tr = amls.trace %A : !amls.matrix<100x100xf64, format = csr> -> f64
  %d = amls.diag %A : !amls.matrix<100x100xf64, format = csr> -> !amls.matrix<100x1xf64>
  %D = amls.diag %d : !amls.matrix<100x1xf64> -> !amls.matrix<100x100xf64, format = csr>
  %s = amls.sub %A, %D : !amls.matrix<100x100xf64, format = csr>, !amls.matrix<100x100xf64, format = csr> -> !amls.matrix<100x100xf64, format = csr>
  return %t, %tr, %s : !amls.matrix<?x?xf64, format = csr>, f64, !amls.matrix<100x100xf64, format = csr>
}

// -----

// u %*% A for a row vector u (t(A) %*% v rewritten by the format selection):
// the transposed product over A's rows on transposed views, no copies.
// CHECK-LABEL: func @row_vector_times_csr
// CHECK: %[[U:.*]] = memref.transpose
// CHECK: %[[OUT:.*]] = memref.transpose
// CHECK: call @amls_rt_csr_spmm_t({{.*}}, %{{.*}}, %{{.*}})
func.func @row_vector_times_csr(%u: !amls.matrix<1x100xf64>, %A: !amls.matrix<100x50xf64, format = csr>) -> !amls.matrix<1x50xf64> {
  %0 = amls.matmul %u, %A : !amls.matrix<1x100xf64>, !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<1x50xf64>
  return %0 : !amls.matrix<1x50xf64>
}

// -----

// Fused operators over a CSR main input loop over its stored values, rows
// in parallel: full aggregates collect one partial per row, reduced by the
// runtime; min and max start from 0 in rows with implicit zeros (fewer
// entries than columns); an element-wise result keeps the pattern (the
// same row pointers and column indices, new values).
// CHECK-LABEL: func @fused_cells
// CHECK-SAME: (%[[PTR:.*]]: tensor<1001xi64>, %[[IDX:.*]]: tensor<?xi32>, %[[VAL:.*]]: tensor<?xf64>, %[[COLS:.*]]: index, %[[V:.*]]: tensor<1x800xf64>, %[[C:.*]]: f64)
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: %[[ROW:.*]] = arith.subi
// CHECK: %[[FULL:.*]] = arith.cmpi eq, %[[ROW]]
// CHECK: %[[MAXINIT:.*]] = arith.select %[[FULL]], %{{.*}}, %{{.*}} : f64
// CHECK: scf.for %[[K:.*]] = {{.*}} iter_args(%[[SUM:.*]] = %{{.*}}, %[[MAX:.*]] = %[[MAXINIT]])
// CHECK: %[[J:.*]] = tensor.extract %[[IDX]][%[[K]]]
// CHECK: %[[X:.*]] = tensor.extract %[[VAL]][%[[K]]]
// CHECK: %[[Y:.*]] = tensor.extract %[[V]][%c0, %{{.*}}]
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[Y]]
// CHECK: arith.addf %[[SUM]], %[[P]]
// CHECK: arith.maximumf %[[MAX]], %[[P]]
// CHECK: call @amls_rt_values_reduce(%{{.*}}, %c0_i32)
// CHECK: call @amls_rt_values_reduce(%{{.*}}, %c3_i32)
// CHECK: scf.parallel
// CHECK: arith.minimumf
// CHECK: tensor.expand_shape {{.*}} into tensor<?x1xf64>
// CHECK: %[[NEW:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.parallel
// CHECK: math.sqrt
// CHECK: memref.store %{{.*}}, %[[NEW]][%{{.*}}]
// CHECK: %[[NEWVAL:.*]] = bufferization.to_tensor %[[NEW]]
// CHECK: return %{{.*}}, %{{.*}}, %[[PTR]], %[[IDX]], %[[NEWVAL]], %c800
func.func @fused_cells(%X: !amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>, %v: !amls.matrix<1x800xf64>, %c: f64) -> (f64, !amls.matrix<1000x1xf64>, !amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>) {
  %s:2 = amls.fused magg aggregate [sum, max] all ins(%X, %v) : (!amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>, !amls.matrix<1x800xf64>) -> (f64, f64) {
  ^bb0(%x: f64, %y: f64):
    %p = arith.mulf %x, %y : f64
    amls.yield %p, %p : f64, f64
  }
  %r = amls.fused cell aggregate [min] row ins(%X, %c) : (!amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>, f64) -> !amls.matrix<1000x1xf64> {
  ^bb0(%x: f64, %y: f64):
    %p = arith.mulf %x, %y : f64
    amls.yield %p : f64
  }
  %e = amls.fused cell ins(%X, %v) : (!amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>, !amls.matrix<1x800xf64>) -> !amls.matrix<1000x800xf64, sparsity = 0.01, format = csr> {
  ^bb0(%x: f64, %y: f64):
    %p = arith.mulf %x, %y : f64
    %q = math.sqrt %p : f64
    amls.yield %q : f64
  }
  return %s#0, %r, %e : f64, !amls.matrix<1000x1xf64>, !amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>
}

// -----

// removeEmpty stays CSR: the kept rows (columns) are counted, then the
// result is built in two phases; a select's length is checked at run time
// and the kernels get the margin (0 rows, 1 columns) and whether to select.
// CHECK-LABEL: func @remove_empty
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-DAG: %[[MSG:.*]] = llvm.mlir.addressof @{{.*}} : !llvm.ptr
// CHECK: %[[DIM:.*]] = tensor.dim %{{.*}}, %{{.*}} : tensor<?x1xf64>
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[DIM]], %c100
// CHECK: %[[FLAG:.*]] = arith.extui %[[OK]]
// CHECK: call @amls_rt_check(%[[FLAG]], %[[MSG]])
// CHECK: %[[KEPT:.*]] = call @amls_rt_csr_count_nonempty({{.*}}, %[[ZERO]], %[[ONE]])
// CHECK: %[[ROWS:.*]] = arith.index_cast %[[KEPT]] : i64 to index
// CHECK: %[[PTRS:.*]] = arith.addi %[[ROWS]], %c1
// CHECK: memref.alloc(%[[PTRS]]) : memref<?xi64>
// CHECK: %[[NNZ:.*]] = call @amls_rt_csr_remove_empty_count({{.*}}, %[[ZERO]], %[[ONE]], %{{.*}})
// CHECK: call @amls_rt_csr_remove_empty_fill({{.*}}, %[[ZERO]], %[[ONE]],
// CHECK: memref.alloc() : memref<0x0xf64>
// CHECK: call @amls_rt_csr_count_nonempty({{.*}}, %[[ONE]], %[[ZERO]])
// CHECK: memref.alloc() : memref<101xi64>
// CHECK: call @amls_rt_csr_remove_empty_count({{.*}}, %[[ONE]], %[[ZERO]], %{{.*}})
// CHECK: call @amls_rt_csr_remove_empty_fill({{.*}}, %[[ONE]], %[[ZERO]],
// CHECK: return {{.*}} : tensor<?xi64>, tensor<?xi32>, tensor<?xf64>, index, tensor<101xi64>, tensor<?xi32>, tensor<?xf64>, index
func.func @remove_empty(%A: !amls.matrix<100x50xf64, format = csr>, %s: !amls.matrix<?x1xf64>) -> (!amls.matrix<?x50xf64, format = csr>, !amls.matrix<100x?xf64, format = csr>) {
  %r = amls.remove_empty rows %A select %s : !amls.matrix<100x50xf64, format = csr>, !amls.matrix<?x1xf64> -> !amls.matrix<?x50xf64, format = csr>
  %c = amls.remove_empty cols %A : !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<100x?xf64, format = csr>
  return %r, %c : !amls.matrix<?x50xf64, format = csr>, !amls.matrix<100x?xf64, format = csr>
}

// -----

// rev copies the rows into arrays of the input's sizes; replace() with a
// CSR result maps the stored values (one generic over them, the pattern
// shared), with a dense result the runtime writes every cell after the
// size check; cumulative aggregates are dense, written by the runtime
// (kind 1: cumprod).
// CHECK-LABEL: func @rev_replace_cumagg
// CHECK-SAME: (%[[P:.*]]: tensor<101xi64>, %[[C:.*]]: tensor<?xi32>, %[[V:.*]]: tensor<?xf64>, %{{.*}}: index,
// CHECK-DAG: %[[PROD:.*]] = arith.constant 1 : i32
// CHECK: %[[NNZ:.*]] = tensor.dim %[[V]]
// CHECK: memref.alloc() : memref<101xi64>
// CHECK: memref.alloc(%[[NNZ]]) : memref<?xi32>
// CHECK: memref.alloc(%[[NNZ]]) : memref<?xf64>
// CHECK: call @amls_rt_csr_rev(
// CHECK: %[[MAPPED:.*]] = linalg.generic {{.*}} ins(%[[V]] : tensor<?xf64>)
// CHECK: arith.cmpf oeq
// CHECK: arith.select
// CHECK: call @amls_rt_check_dense_size
// CHECK: call @amls_rt_csr_replace_to_dense({{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : ({{.*}}, i64, f64, f64, memref<?x?xf64, strided<[?, ?], offset: ?>>)
// CHECK: call @amls_rt_check_dense_size
// CHECK: call @amls_rt_csr_cumagg({{.*}}, %[[PROD]], %{{.*}})
// CHECK: return {{.*}}, %[[P]], %[[C]], %[[MAPPED]],
func.func @rev_replace_cumagg(%A: !amls.matrix<100x50xf64, format = csr>, %pattern: f64) -> (!amls.matrix<100x50xf64, format = csr>, !amls.matrix<100x50xf64, format = csr>, !amls.matrix<100x50xf64>, !amls.matrix<100x50xf64>) {
  %three = arith.constant 3.0 : f64
  %seven = arith.constant 7.0 : f64
  %r = amls.rev %A : !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<100x50xf64, format = csr>
  %k = amls.replace %A, %three, %seven : !amls.matrix<100x50xf64, format = csr>, f64, f64 -> !amls.matrix<100x50xf64, format = csr>
  %d = amls.replace %A, %pattern, %seven : !amls.matrix<100x50xf64, format = csr>, f64, f64 -> !amls.matrix<100x50xf64>
  %c = amls.cumagg cumprod %A : !amls.matrix<100x50xf64, format = csr> -> !amls.matrix<100x50xf64>
  return %r, %k, %d, %c : !amls.matrix<100x50xf64, format = csr>, !amls.matrix<100x50xf64, format = csr>, !amls.matrix<100x50xf64>, !amls.matrix<100x50xf64>
}

// -----

// print, printf and stop print a CSR matrix from its arrays (no dense copy).
// CHECK-LABEL: func @print
// CHECK-NOT: amls_rt_csr_to_dense
// CHECK: call @amls_rt_csr_print_matrix(
// CHECK: call @amls_rt_emit_text(
// CHECK: call @amls_rt_csr_emit_matrix({{.*}}, %{{.*}}) : ({{.*}}, i64, i32) -> ()
// CHECK: call @amls_rt_emit_f64(
// CHECK: call @amls_rt_emit_end(
// CHECK-NOT: amls_rt_csr_to_dense
func.func @print(%A: !amls.matrix<100x50xf64, format = csr>, %s: f64) {
  amls.print %A : !amls.matrix<100x50xf64, format = csr>
  amls.printf "A = {} and {}" (%A, %s : !amls.matrix<100x50xf64, format = csr>, f64)
  return
}

// -----

// A row operator over a CSR X: one range of rows per thread, each with its
// own zeroed partial t(X) %*% R (cols x 2); per row, X %*% S and the row
// maximum loop over the stored values only (the maximum starts from 0 in
// rows with implicit zeros), the dense row R is two scalars, and the close
// adds x_ij * R into row j of the thread's partial; the partials are summed
// afterwards, cell by cell.
// CHECK-LABEL: func @fused_rows
// CHECK-SAME: (%[[PTR:.*]]: tensor<1001xi64>, %[[IDX:.*]]: tensor<?xi32>, %[[VAL:.*]]: tensor<?xf64>, %[[COLS:.*]]: index, %[[Y:.*]]: tensor<1000x1xf64>, %[[S:.*]]: tensor<800x2xf64>, %[[K:.*]]: f64)
// CHECK-DAG: %[[NEGINF:.*]] = arith.constant 0xFFF0000000000000 : f64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[THREADS:.*]] = call @amls_rt_get_num_threads()
// CHECK: %[[T:.*]] = arith.index_cast %[[THREADS]]
// CHECK: %[[T1:.*]] = arith.minui %[[T]], %c1000
// CHECK: %[[CHUNKS:.*]] = arith.maxui %[[T1]], %c1
// CHECK: %[[CELLS:.*]] = arith.muli %[[COLS]], %c2
// CHECK: %[[ALL:.*]] = arith.muli %[[CHUNKS]], %[[CELLS]]
// CHECK: %[[PARTIALS:.*]] = memref.alloc(%[[ALL]]) : memref<?xf64>
// CHECK: scf.parallel (%[[CHUNK:.*]]) = (%c0) to (%[[CHUNKS]])
// CHECK: %[[BASE:.*]] = arith.muli %[[CHUNK]], %[[CELLS]]
// CHECK: memref.store %[[ZERO]], %[[PARTIALS]]
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %c1 {
// CHECK: %[[FULL:.*]] = arith.cmpi eq, %{{.*}}, %[[COLS]]
// CHECK: %[[XS:.*]]:2 = scf.for %[[E:.*]] = %[[BEGIN:.*]] to %[[END:.*]] step %c1 iter_args
// CHECK: tensor.extract %[[S]][%{{.*}}, %c0]
// CHECK: tensor.extract %[[S]][%{{.*}}, %c1]
// CHECK: %[[INIT:.*]] = arith.select %[[FULL]], %[[NEGINF]], %[[ZERO]]
// CHECK: %[[MAX:.*]] = scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step %c1 iter_args(%{{.*}} = %[[INIT]])
// CHECK: arith.mulf %{{.*}}, %[[K]]
// CHECK: arith.maximumf
// CHECK: %[[R0:.*]] = arith.mulf %[[XS]]#0, %[[MAX]]
// CHECK: %[[R1:.*]] = arith.mulf %[[XS]]#1, %[[MAX]]
// CHECK: tensor.extract %[[Y]][%[[I]], %c0]
// CHECK: scf.for %{{.*}} = %[[BEGIN]] to %[[END]] step %c1 {
// CHECK: %[[J:.*]] = arith.index_cast
// CHECK: %[[ROW:.*]] = arith.muli %[[J]], %c2
// CHECK: %[[AT:.*]] = arith.addi %[[BASE]], %[[ROW]]
// CHECK: memref.load %[[PARTIALS]][%[[AT]]]
// CHECK: memref.store %{{.*}}, %[[PARTIALS]][%[[AT]]]
// CHECK: %[[AT1:.*]] = arith.addi %[[AT]], %c1
// CHECK: memref.store %{{.*}}, %[[PARTIALS]][%[[AT1]]]
// CHECK: %[[OUT:.*]] = memref.alloc(%[[CELLS]]) : memref<?xf64>
// CHECK: scf.parallel (%[[CELL:.*]]) = (%c0) to (%[[CELLS]])
// CHECK: scf.for %{{.*}} = %c0 to %[[CHUNKS]] step %c1 iter_args
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[CELL]]]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [%[[COLS]], 2]
func.func @fused_rows(%X: !amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>, %y: !amls.matrix<1000x1xf64>, %S: !amls.matrix<800x2xf64>, %c: f64) -> !amls.matrix<800x2xf64> {
  %g = amls.fused row aggregate [sum] row_inputs 2 ins(%X, %y, %S, %c) : (!amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>, !amls.matrix<1000x1xf64>, !amls.matrix<800x2xf64>, f64) -> !amls.matrix<800x2xf64> {
  ^bb0(%x: !amls.matrix<?x800xf64, sparsity = 0.01, format = csr>, %yb: !amls.matrix<?x1xf64>, %s: !amls.matrix<800x2xf64>, %k: f64):
    %t = amls.transpose %x : !amls.matrix<?x800xf64, sparsity = 0.01, format = csr> -> !amls.matrix<800x?xf64, sparsity = 0.01, format = csr>
    %xs = amls.matmul %x, %s : !amls.matrix<?x800xf64, sparsity = 0.01, format = csr>, !amls.matrix<800x2xf64> -> !amls.matrix<?x2xf64>
    %xk = amls.mul %x, %k : !amls.matrix<?x800xf64, sparsity = 0.01, format = csr>, f64 -> !amls.matrix<?x800xf64, sparsity = 0.01, format = csr>
    %m = amls.agg max row %xk : !amls.matrix<?x800xf64, sparsity = 0.01, format = csr> -> !amls.matrix<?x1xf64>
    %r = amls.mul %xs, %m : !amls.matrix<?x2xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x2xf64>
    %r2 = amls.mul %r, %yb : !amls.matrix<?x2xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x2xf64>
    %p = amls.matmul %t, %r2 : !amls.matrix<800x?xf64, sparsity = 0.01, format = csr>, !amls.matrix<?x2xf64> -> !amls.matrix<800x2xf64>
    amls.yield %p : !amls.matrix<800x2xf64>
  }
  return %g : !amls.matrix<800x2xf64>
}

// -----

// Rows of a width known only at run time (MLogreg's k classes): the widths
// are checked once, before the rows; each thread keeps its wide rows in
// its part of one scratch buffer allocated before the parallel loop (a
// cache line apart), computed by loops over their columns; the result is
// a 2-D buffer.
// CHECK-LABEL: func @fused_rows_wide
// CHECK-DAG: %[[PW:.*]] = tensor.dim %arg4, %c1 : tensor<1000x?xf64>
// CHECK-DAG: %[[K:.*]] = tensor.dim %arg5, %c1 : tensor<800x?xf64>
// CHECK: call @amls_rt_check
// CHECK: %[[STRIDE:.*]] = arith.addi %{{.*}}, %c8 : index
// CHECK: %[[CHUNKS:.*]] = arith.maxui
// CHECK: %[[PARTIALS:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[CELLS:.*]] = arith.muli %[[CHUNKS]], %[[STRIDE]]
// CHECK: %[[SCRATCH:.*]] = memref.alloc(%[[CELLS]]) : memref<?xf64>
// CHECK: scf.parallel (%[[CHUNK:.*]]) = (%c0) to (%[[CHUNKS]])
// CHECK: arith.muli %[[CHUNK]], %[[STRIDE]]
// CHECK: scf.for
// X %*% V: blocks of 16, 4 and 1 columns, the block's sums carried over
// the row's stored entries.
// CHECK: scf.for %[[C0:.*]] = %c0 to %{{.*}} step %c16
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64)
// CHECK: tensor.extract %arg5[%{{.*}}, %[[C0]]]
// CHECK: memref.store %{{.*}}, %[[SCRATCH]]
// CHECK: step %c4
// CHECK: iter_args({{.*}}) -> (f64, f64, f64, f64)
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[K]] step %c1
// CHECK: iter_args({{.*}}) -> (f64)
// rowSums(Q), then the close adds a block of R into each entry's row.
// CHECK: scf.for {{.*}} iter_args
// CHECK: memref.load %[[SCRATCH]]
// CHECK: step %c16
// CHECK-COUNT-16: memref.load %[[SCRATCH]]
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[PARTIALS]]
// CHECK-NOT: memref.alloc(
// CHECK: memref.alloc(%arg3, %{{.*}}) : memref<?x?xf64>
// CHECK: bufferization.to_tensor
func.func @fused_rows_wide(%X: !amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>, %P: !amls.matrix<1000x?xf64>, %V: !amls.matrix<800x?xf64>) -> !amls.matrix<800x?xf64> {
  %g = amls.fused row aggregate [sum] row_inputs 2 ins(%X, %P, %V) : (!amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>, !amls.matrix<1000x?xf64>, !amls.matrix<800x?xf64>) -> !amls.matrix<800x?xf64> {
  ^bb0(%x: !amls.matrix<?x800xf64, sparsity = 0.01, format = csr>, %p: !amls.matrix<?x?xf64>, %v: !amls.matrix<800x?xf64>):
    %t = amls.transpose %x : !amls.matrix<?x800xf64, sparsity = 0.01, format = csr> -> !amls.matrix<800x?xf64, sparsity = 0.01, format = csr>
    %xv = amls.matmul %x, %v : !amls.matrix<?x800xf64, sparsity = 0.01, format = csr>, !amls.matrix<800x?xf64> -> !amls.matrix<?x?xf64>
    %q = amls.mul %p, %xv : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %rs = amls.agg sum row %q : !amls.matrix<?x?xf64> -> !amls.matrix<?x1xf64>
    %pr = amls.mul %p, %rs : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
    %r = amls.sub %q, %pr : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    %h = amls.matmul %t, %r : !amls.matrix<800x?xf64, sparsity = 0.01, format = csr>, !amls.matrix<?x?xf64> -> !amls.matrix<800x?xf64>
    amls.yield %h : !amls.matrix<800x?xf64>
  }
  return %g : !amls.matrix<800x?xf64>
}

// -----

// A column aggregate over a CSR X: each thread's range of rows combines
// into its own row of partial minimums and counts each column's entries;
// the merge takes 0 into a column with fewer entries than rows.
// CHECK-LABEL: func @fused_columns
// CHECK-SAME: (%[[PTR:.*]]: tensor<1001xi64>, %[[IDX:.*]]: tensor<?xi32>, %[[VAL:.*]]: tensor<?xf64>, %[[COLS:.*]]: index, %[[V:.*]]: tensor<1x800xf64>)
// CHECK-DAG: %[[ROWS:.*]] = arith.constant 1000 : i64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[INF:.*]] = arith.constant 0x7FF0000000000000 : f64
// CHECK: call @amls_rt_get_num_threads()
// CHECK: %[[CHUNKS:.*]] = arith.maxui
// CHECK: %[[SLOTS:.*]] = arith.muli %[[CHUNKS]], %[[COLS]]
// CHECK: %[[MINS:.*]] = memref.alloc(%[[SLOTS]]) : memref<?xf64>
// CHECK: %[[COUNTS:.*]] = memref.alloc(%[[SLOTS]]) : memref<?xi64>
// CHECK: scf.parallel (%[[CHUNK:.*]]) = (%c0) to (%[[CHUNKS]])
// CHECK: %[[BASE:.*]] = arith.muli %[[CHUNK]], %[[COLS]]
// CHECK: memref.store %[[INF]], %[[MINS]]
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[J:.*]] = arith.index_cast
// CHECK: %[[AT:.*]] = arith.addi %[[BASE]], %[[J]]
// CHECK: tensor.extract %[[V]][%c0, %[[J]]]
// CHECK: %[[M:.*]] = arith.minimumf
// CHECK: memref.store %[[M]], %[[MINS]][%[[AT]]]
// CHECK: memref.store %{{.*}}, %[[COUNTS]][%[[AT]]]
// CHECK: %[[OUT:.*]] = memref.alloc(%[[COLS]]) : memref<?xf64>
// CHECK: scf.parallel (%[[C:.*]]) = (%c0) to (%[[COLS]])
// CHECK: %[[MERGED:.*]]:2 = scf.for %{{.*}} = %c0 to %[[CHUNKS]]
// CHECK: %[[FULL:.*]] = arith.cmpi eq, %[[MERGED]]#1, %[[ROWS]]
// CHECK: %[[WITHZERO:.*]] = arith.minimumf %[[MERGED]]#0, %[[ZERO]]
// CHECK: %[[RES:.*]] = arith.select %[[FULL]], %[[MERGED]]#0, %[[WITHZERO]]
// CHECK: memref.store %[[RES]], %[[OUT]][%[[C]]]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1]] output_shape [1, %[[COLS]]]
func.func @fused_columns(%X: !amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>, %v: !amls.matrix<1x800xf64>) -> !amls.matrix<1x800xf64> {
  %r = amls.fused cell aggregate [min] col ins(%X, %v) : (!amls.matrix<1000x800xf64, sparsity = 0.01, format = csr>, !amls.matrix<1x800xf64>) -> !amls.matrix<1x800xf64> {
  ^bb0(%x: f64, %y: f64):
    %p = arith.mulf %x, %y : f64
    amls.yield %p : f64
  }
  return %r : !amls.matrix<1x800xf64>
}

// -----

// Sizes known only at run time: the operands' shapes are checked (the
// message names both), and a CSR operand that turns out to be a vector
// DML broadcasts is repeated to the result's shape (scf.if, through a
// dense copy); otherwise Y * D maps Y's stored values. D - Y is dense:
// every cell gets D's, then Y's stored cells D - y, no dense copy of Y.
// CHECK-LABEL: func @dynamic_elementwise
// CHECK-SAME: (%[[PTR:.*]]: tensor<?xi64>, %[[IDX:.*]]: tensor<?xi32>, %[[VAL:.*]]: tensor<?xf64>, %[[COLS:.*]]: index, %[[D:.*]]: tensor<?x?xf64>)
// CHECK: call @amls_rt_check_shapes
// CHECK: %[[X:.*]]:3 = scf.if
// CHECK-NEXT: scf.yield %[[PTR]], %[[IDX]], %[[VAL]]
// CHECK: call @amls_rt_csr_to_dense
// CHECK: call @amls_rt_csr_from_dense
// CHECK: scf.parallel
// CHECK: scf.for %[[K:.*]] =
// CHECK: tensor.extract %[[D]]
// CHECK: %[[Y:.*]] = tensor.extract %[[X]]#2[%[[K]]]
// CHECK: arith.mulf %[[Y]]
// CHECK: call @amls_rt_check_shapes
// CHECK: %[[Z:.*]]:3 = scf.if
// CHECK: call @amls_rt_csr_from_dense
// CHECK: call @amls_rt_check_dense_size
// CHECK: %[[OUT:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf64>
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: scf.for %[[J:.*]] = %c0
// CHECK: %[[DIJ:.*]] = tensor.extract %[[D]]
// CHECK: memref.store %[[DIJ]], %[[OUT]][%[[I]], %[[J]]]
// CHECK: scf.for %[[K2:.*]] =
// CHECK: %[[Y2:.*]] = tensor.extract %[[Z]]#2[%[[K2]]]
// CHECK: %[[DIFF:.*]] = arith.subf %{{.*}}, %[[Y2]]
// CHECK: memref.store %[[DIFF]], %[[OUT]][%[[I]], %{{.*}}]
// CHECK-NOT: amls_rt_csr_to_dense
// CHECK: return
func.func @dynamic_elementwise(%Y: !amls.matrix<?x?xf64, format = csr>, %D: !amls.matrix<?x?xf64>) -> (!amls.matrix<?x?xf64, format = csr>, !amls.matrix<?x?xf64>) {
  %0 = amls.mul %Y, %D : !amls.matrix<?x?xf64, format = csr>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64, format = csr>
  %1 = amls.sub %D, %Y : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64, format = csr> -> !amls.matrix<?x?xf64>
  return %0, %1 : !amls.matrix<?x?xf64, format = csr>, !amls.matrix<?x?xf64>
}

// -----

// Two CSR operands of unknown sizes: checked, broadcast where one is a
// vector, then merged by the runtime.
// CHECK-LABEL: func @dynamic_merge
// CHECK: call @amls_rt_check_shapes
// CHECK: scf.if
// CHECK: scf.if
// CHECK: call @amls_rt_csr_merge_count
// CHECK: call @amls_rt_csr_merge_fill
func.func @dynamic_merge(%X: !amls.matrix<?x?xf64, format = csr>, %Y: !amls.matrix<?x?xf64, format = csr>) -> !amls.matrix<?x?xf64, format = csr> {
  %0 = amls.add %X, %Y : !amls.matrix<?x?xf64, format = csr>, !amls.matrix<?x?xf64, format = csr> -> !amls.matrix<?x?xf64, format = csr>
  return %0 : !amls.matrix<?x?xf64, format = csr>
}

// -----

// A CSR matrix not assigned on a path: row pointers, no entries.
// CHECK-LABEL: func @poison_csr
// CHECK-DAG: %[[ROWS:.*]] = tensor.empty() : tensor<5xi64>
// CHECK-DAG: %[[COLS:.*]] = tensor.empty() : tensor<0xi32>
// CHECK-DAG: %[[VALUES:.*]] = tensor.empty() : tensor<0xf64>
// CHECK: return %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<5xi64>, tensor<?xi32>, tensor<?xf64>, index
func.func @poison_csr() -> !amls.matrix<4x3xf64, format = csr> {
  %p = ub.poison : !amls.matrix<4x3xf64, format = csr>
  return %p : !amls.matrix<4x3xf64, format = csr>
}

// -----

// entry=NAME records how NAME's results come back before a CSR result
// becomes its four values (--amls-wrap-entry groups them by it); other
// functions get nothing.
// KINDS-LABEL: func @kinds
// KINDS-SAME: attributes {amls.result_kinds = [#amls.result_kind<csr>, #amls.result_kind<dense>, #amls.result_kind<float>, #amls.result_kind<integer>]}
// KINDS-LABEL: func @helper
// KINDS-NOT: amls.result_kinds
// KINDS: return
func.func @kinds(%A: !amls.matrix<3x2xf64, format = csr>, %B: !amls.matrix<3x2xf64>,
                 %s: f64, %b: i1)
    -> (!amls.matrix<3x2xf64, format = csr>, !amls.matrix<3x2xf64>, f64, i1) {
  return %A, %B, %s, %b : !amls.matrix<3x2xf64, format = csr>, !amls.matrix<3x2xf64>, f64, i1
}
func.func @helper(%s: f64) -> f64 {
  return %s : f64
}
