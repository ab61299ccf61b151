// RUN: amls-opt %s -split-input-file -amls-simplify-dynamic -canonicalize | FileCheck %s

// X %*% y with a 1x1 y -> X * as_scalar(y); a 2x1 factor is a real product.
// CHECK-LABEL: func @product_with_single_cell
// CHECK: %[[S:.*]] = amls.as_scalar %arg1
// CHECK: %[[M:.*]] = amls.mul %arg0, %[[S]] : !amls.matrix<10x1xf64>, f64
// CHECK: %[[P:.*]] = amls.matmul %arg2, %arg3
// CHECK: return %[[M]], %[[P]]
func.func @product_with_single_cell(%X: !amls.matrix<10x1xf64>, %y: !amls.matrix<1x1xf64>, %Z: !amls.matrix<10x2xf64>, %W: !amls.matrix<2x1xf64>) -> (!amls.matrix<10x1xf64>, !amls.matrix<10x1xf64>) {
  %0 = amls.matmul %X, %y : !amls.matrix<10x1xf64>, !amls.matrix<1x1xf64> -> !amls.matrix<10x1xf64>
  %1 = amls.matmul %Z, %W : !amls.matrix<10x2xf64>, !amls.matrix<2x1xf64> -> !amls.matrix<10x1xf64>
  return %0, %1 : !amls.matrix<10x1xf64>, !amls.matrix<10x1xf64>
}

// -----

// Aggregates that are identities on a 1x1 matrix, a single row or column;
// sumsq of a cell and colSums of a square matrix stay.
// CHECK-LABEL: func @single_cells_and_vectors
// CHECK: %[[C:.*]] = amls.as_scalar %arg0
// CHECK: %[[SQ:.*]] = amls.agg sumsq all %arg0
// CHECK: %[[CS:.*]] = amls.agg sum col %arg3
// CHECK: return %[[C]], %arg1, %arg2, %arg1, %[[SQ]], %[[CS]]
func.func @single_cells_and_vectors(%c: !amls.matrix<1x1xf64>, %r: !amls.matrix<1x5xf64>, %v: !amls.matrix<5x1xf64>, %X: !amls.matrix<5x5xf64>) -> (f64, !amls.matrix<1x5xf64>, !amls.matrix<5x1xf64>, !amls.matrix<1x5xf64>, f64, !amls.matrix<1x5xf64>) {
  %0 = amls.agg sum all %c : !amls.matrix<1x1xf64> -> f64
  %1 = amls.agg mean col %r : !amls.matrix<1x5xf64> -> !amls.matrix<1x5xf64>
  %2 = amls.agg max row %v : !amls.matrix<5x1xf64> -> !amls.matrix<5x1xf64>
  %3 = amls.cumagg cumsum %r : !amls.matrix<1x5xf64> -> !amls.matrix<1x5xf64>
  %4 = amls.agg sumsq all %c : !amls.matrix<1x1xf64> -> f64
  %5 = amls.agg sum col %X : !amls.matrix<5x5xf64> -> !amls.matrix<1x5xf64>
  return %0, %1, %2, %3, %4, %5 : f64, !amls.matrix<1x5xf64>, !amls.matrix<5x1xf64>, !amls.matrix<1x5xf64>, f64, !amls.matrix<1x5xf64>
}

// -----

// CHECK-LABEL: func @dot_product
// CHECK: %[[T:.*]] = amls.transpose %arg0 : !amls.matrix<?x1xf64> -> !amls.matrix<1x?xf64>
// CHECK: %[[D:.*]] = amls.matmul %[[T]], %arg1 : {{.*}} -> !amls.matrix<1x1xf64>
// CHECK: amls.as_scalar %[[D]]
// CHECK: %[[Q:.*]] = amls.mul %arg2, %arg2
// CHECK: amls.agg sum all %[[Q]]
// A vector computed element-wise is left to fusion:
// CHECK: %[[E:.*]] = amls.exp %arg0
// CHECK: %[[EB:.*]] = amls.mul %[[E]], %arg1
// CHECK: amls.agg sum all %[[EB]]
func.func @dot_product(%a: !amls.matrix<?x1xf64>, %b: !amls.matrix<?x1xf64>, %X: !amls.matrix<?x?xf64>) -> (f64, f64, f64) {
  %p = amls.mul %a, %b : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %0 = amls.agg sum all %p : !amls.matrix<?x1xf64> -> f64
  %q = amls.mul %X, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.agg sum all %q : !amls.matrix<?x?xf64> -> f64
  %e = amls.exp %a : !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %eb = amls.mul %e, %b : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %2 = amls.agg sum all %eb : !amls.matrix<?x1xf64> -> f64
  return %0, %1, %2 : f64, f64, f64
}

// -----

// sum(A %*% B) -> sum(t(colSums(A)) * rowSums(B)), which is a dot product
// (the transposes cancel in canonicalization).
// CHECK-LABEL: func @sum_of_product
// CHECK: amls.agg sum col %arg0 : !amls.matrix<100x50xf64> -> !amls.matrix<1x50xf64>
// CHECK: amls.agg sum row %arg1 : !amls.matrix<50x80xf64> -> !amls.matrix<50x1xf64>
// CHECK: amls.matmul {{.*}} : !amls.matrix<1x50xf64>, !amls.matrix<50x1xf64> -> !amls.matrix<1x1xf64>
// CHECK-NOT: !amls.matrix<100x80xf64>
func.func @sum_of_product(%A: !amls.matrix<100x50xf64>, %B: !amls.matrix<50x80xf64>) -> f64 {
  %p = amls.matmul %A, %B : !amls.matrix<100x50xf64>, !amls.matrix<50x80xf64> -> !amls.matrix<100x80xf64>
  %0 = amls.agg sum all %p : !amls.matrix<100x80xf64> -> f64
  return %0 : f64
}

// -----

// diag(X %*% Y) -> rowSums(X * t(Y)); sum(diag(S)) -> trace(S); the sum of
// diag(v) of a vector (a diagonal matrix) stays.
// CHECK-LABEL: func @diagonals
// CHECK: %[[T:.*]] = amls.transpose %arg1 : !amls.matrix<3x6xf64> -> !amls.matrix<6x3xf64>
// CHECK: %[[C:.*]] = amls.mul %arg0, %[[T]]
// CHECK: %[[R:.*]] = amls.agg sum row %[[C]] : !amls.matrix<6x3xf64> -> !amls.matrix<6x1xf64>
// CHECK: %[[TR:.*]] = amls.trace %arg2
// CHECK: %[[D:.*]] = amls.diag %arg3
// CHECK: %[[S:.*]] = amls.agg sum all %[[D]]
// CHECK: return %[[R]], %[[TR]], %[[S]]
func.func @diagonals(%X: !amls.matrix<6x3xf64>, %Y: !amls.matrix<3x6xf64>, %S: !amls.matrix<4x4xf64>, %v: !amls.matrix<4x1xf64>) -> (!amls.matrix<6x1xf64>, f64, f64) {
  %p = amls.matmul %X, %Y : !amls.matrix<6x3xf64>, !amls.matrix<3x6xf64> -> !amls.matrix<6x6xf64>
  %0 = amls.diag %p : !amls.matrix<6x6xf64> -> !amls.matrix<6x1xf64>
  %d = amls.diag %S : !amls.matrix<4x4xf64> -> !amls.matrix<4x1xf64>
  %1 = amls.agg sum all %d : !amls.matrix<4x1xf64> -> f64
  %D = amls.diag %v : !amls.matrix<4x1xf64> -> !amls.matrix<4x4xf64>
  %2 = amls.agg sum all %D : !amls.matrix<4x4xf64> -> f64
  return %0, %1, %2 : !amls.matrix<6x1xf64>, f64, f64
}

// -----

// CHECK-LABEL: func @product_with_ones
// CHECK: %[[R:.*]] = amls.agg sum row %arg0
// CHECK: %[[C:.*]] = amls.agg sum col %arg0
// CHECK: %[[TWOS:.*]] = amls.fill
// CHECK: %[[P:.*]] = amls.matmul %arg0, %[[TWOS]]
// CHECK: return %[[R]], %[[C]], %[[P]]
func.func @product_with_ones(%X: !amls.matrix<?x?xf64>, %n: index, %m: index) -> (!amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>, !amls.matrix<?x1xf64>) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %c1 = arith.constant 1 : index
  %ones = amls.fill %one, %n, %c1 : f64 -> !amls.matrix<?x1xf64>
  %0 = amls.matmul %X, %ones : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %row = amls.fill %one, %c1, %m : f64 -> !amls.matrix<1x?xf64>
  %1 = amls.matmul %row, %X : !amls.matrix<1x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<1x?xf64>
  %twos = amls.fill %two, %n, %c1 : f64 -> !amls.matrix<?x1xf64>
  %2 = amls.matmul %X, %twos : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  return %0, %1, %2 : !amls.matrix<?x1xf64>, !amls.matrix<1x?xf64>, !amls.matrix<?x1xf64>
}

// -----

// CHECK-LABEL: func @tsmm
// CHECK: %[[T:.*]] = amls.transpose %arg0
// CHECK: %[[L:.*]] = amls.tsmm left %arg0 : !amls.matrix<1000x10xf64> -> !amls.matrix<10x10xf64>
// CHECK: %[[R:.*]] = amls.tsmm right %arg0 : !amls.matrix<1000x10xf64> -> !amls.matrix<1000x1000xf64>
// CHECK: %[[P:.*]] = amls.matmul %[[T]], %arg1
// CHECK: return %[[L]], %[[R]], %[[P]]
func.func @tsmm(%X: !amls.matrix<1000x10xf64>, %Y: !amls.matrix<1000x10xf64>) -> (!amls.matrix<10x10xf64>, !amls.matrix<1000x1000xf64>, !amls.matrix<10x10xf64>) {
  %t = amls.transpose %X : !amls.matrix<1000x10xf64> -> !amls.matrix<10x1000xf64>
  %0 = amls.matmul %t, %X : !amls.matrix<10x1000xf64>, !amls.matrix<1000x10xf64> -> !amls.matrix<10x10xf64>
  %1 = amls.matmul %X, %t : !amls.matrix<1000x10xf64>, !amls.matrix<10x1000xf64> -> !amls.matrix<1000x1000xf64>
  %2 = amls.matmul %t, %Y : !amls.matrix<10x1000xf64>, !amls.matrix<1000x10xf64> -> !amls.matrix<10x10xf64>
  return %0, %1, %2 : !amls.matrix<10x10xf64>, !amls.matrix<1000x1000xf64>, !amls.matrix<10x10xf64>
}

// -----

// t(X) %*% (X %*% v) and t(X) %*% (w * (X %*% v)) -> mmchain; not for a
// matrix V.
// CHECK-LABEL: func @mmchain
// CHECK: %[[A:.*]] = amls.mmchain %arg0, %arg1 : !amls.matrix<?x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
// CHECK: %[[B:.*]] = amls.mmchain %arg0, %arg1 weights %arg2
// CHECK: %[[XV:.*]] = amls.matmul %arg0, %arg3
// CHECK: %[[C:.*]] = amls.matmul %{{.*}}, %[[XV]]
// CHECK: return %[[A]], %[[B]], %[[C]]
func.func @mmchain(%X: !amls.matrix<?x10xf64>, %v: !amls.matrix<10x1xf64>, %w: !amls.matrix<?x1xf64>, %V: !amls.matrix<10x3xf64>) -> (!amls.matrix<10x1xf64>, !amls.matrix<10x1xf64>, !amls.matrix<10x3xf64>) {
  %t = amls.transpose %X : !amls.matrix<?x10xf64> -> !amls.matrix<10x?xf64>
  %xv = amls.matmul %X, %v : !amls.matrix<?x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<?x1xf64>
  %0 = amls.matmul %t, %xv : !amls.matrix<10x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<10x1xf64>
  %xv2 = amls.matmul %X, %v : !amls.matrix<?x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<?x1xf64>
  %wxv = amls.mul %w, %xv2 : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x1xf64>
  %1 = amls.matmul %t, %wxv : !amls.matrix<10x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<10x1xf64>
  %xV = amls.matmul %X, %V : !amls.matrix<?x10xf64>, !amls.matrix<10x3xf64> -> !amls.matrix<?x3xf64>
  %2 = amls.matmul %t, %xV : !amls.matrix<10x?xf64>, !amls.matrix<?x3xf64> -> !amls.matrix<10x3xf64>
  return %0, %1, %2 : !amls.matrix<10x1xf64>, !amls.matrix<10x1xf64>, !amls.matrix<10x3xf64>
}

// -----

// CHECK-LABEL: func @full_slices
// CHECK-NOT: amls.insert_slice
// CHECK: %[[S:.*]] = amls.slice %arg0[%c1 : %c4, %c0 : %c3]
// CHECK: return %arg0, %arg1, %[[S]]
func.func @full_slices(%X: !amls.matrix<4x3xf64>, %Y: !amls.matrix<4x3xf64>) -> (!amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<3x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %0 = amls.slice %X[%c0 : %c4, %c0 : %c3] : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %1 = amls.insert_slice %Y into %X[%c0 : %c4, %c0 : %c3] : !amls.matrix<4x3xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %2 = amls.slice %X[%c1 : %c4, %c0 : %c3] : !amls.matrix<4x3xf64> -> !amls.matrix<3x3xf64>
  return %0, %1, %2 : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<3x3xf64>
}

// -----

// Left indexings that overwrite a matrix block by block become a cbind
// (column blocks, in column order whatever the order of the indexings) or
// an rbind (row blocks).
// CHECK-LABEL: func @left_indexing_chains
// CHECK-DAG: %[[C:.*]] = amls.cbind %arg1, %arg2 : !amls.matrix<4x1xf64>, !amls.matrix<4x2xf64> -> !amls.matrix<4x3xf64>
// CHECK-DAG: %[[R:.*]] = amls.rbind %arg3, %arg4, %arg3 : !amls.matrix<1x3xf64>, !amls.matrix<2x3xf64>, !amls.matrix<1x3xf64> -> !amls.matrix<4x3xf64>
// CHECK-NOT: amls.insert_slice
// CHECK: return %[[C]], %[[R]]
func.func @left_indexing_chains(%X: !amls.matrix<4x3xf64>, %A: !amls.matrix<4x1xf64>, %B: !amls.matrix<4x2xf64>, %r: !amls.matrix<1x3xf64>, %R: !amls.matrix<2x3xf64>) -> (!amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %0 = amls.insert_slice %B into %X[%c0 : %c4, %c1 : %c3] : !amls.matrix<4x2xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %1 = amls.insert_slice %A into %0[%c0 : %c4, %c0 : %c1] : !amls.matrix<4x1xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %2 = amls.insert_slice %r into %X[%c0 : %c1, %c0 : %c3] : !amls.matrix<1x3xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %3 = amls.insert_slice %R into %2[%c1 : %c3, %c0 : %c3] : !amls.matrix<2x3xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %4 = amls.insert_slice %r into %3[%c3 : %c4, %c0 : %c3] : !amls.matrix<1x3xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  return %1, %4 : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>
}

// -----

// Not rewritten: a chain that leaves a column of X, overlapping blocks (the
// later one wins partly), a block of part of the rows, unknown sizes.
// CHECK-LABEL: func @left_indexing_chains_kept
// CHECK-NOT: amls.cbind
// CHECK-NOT: amls.rbind
// CHECK-COUNT-8: amls.insert_slice
// CHECK-NOT: amls.cbind
func.func @left_indexing_chains_kept(%X: !amls.matrix<4x3xf64>, %A: !amls.matrix<4x1xf64>, %B: !amls.matrix<4x2xf64>, %P: !amls.matrix<2x1xf64>, %D: !amls.matrix<?x3xf64>, %Ad: !amls.matrix<?x1xf64>, %Bd: !amls.matrix<?x2xf64>) -> (!amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<?x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %0 = amls.insert_slice %A into %X[%c0 : %c4, %c0 : %c1] : !amls.matrix<4x1xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %1 = amls.insert_slice %A into %0[%c0 : %c4, %c2 : %c3] : !amls.matrix<4x1xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %2 = amls.insert_slice %B into %X[%c0 : %c4, %c1 : %c3] : !amls.matrix<4x2xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %3 = amls.insert_slice %B into %2[%c0 : %c4, %c0 : %c2] : !amls.matrix<4x2xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %4 = amls.insert_slice %B into %X[%c0 : %c4, %c1 : %c3] : !amls.matrix<4x2xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %5 = amls.insert_slice %P into %4[%c0 : %c2, %c0 : %c1] : !amls.matrix<2x1xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %n = amls.nrow %D : !amls.matrix<?x3xf64>
  %6 = amls.insert_slice %Bd into %D[%c0 : %n, %c1 : %c3] : !amls.matrix<?x2xf64> into !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
  %7 = amls.insert_slice %Ad into %6[%c0 : %n, %c0 : %c1] : !amls.matrix<?x1xf64> into !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
  return %1, %3, %5, %7 : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<?x3xf64>
}

// -----

// Aggregates of a known all-zero matrix; not the max of an empty one
// (-Inf) or a product.
// CHECK-LABEL: func @zeros
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.0
// CHECK-DAG: %[[NNZ:.*]] = arith.constant 0 : i64
// CHECK: %[[MAX:.*]] = amls.agg max all %arg1
// CHECK: %[[PROD:.*]] = amls.agg prod all %arg0
// CHECK: %[[M:.*]] = amls.as_matrix %arg2
// CHECK: return %[[ZERO]], %[[NNZ]], %[[MAX]], %[[PROD]], %[[M]]
func.func @zeros(%Z: !amls.matrix<4x3xf64, sparsity = 0.0>, %E: !amls.matrix<0x3xf64, sparsity = 0.0>, %s: f64) -> (f64, i64, f64, f64, !amls.matrix<1x1xf64>) {
  %0 = amls.agg sum all %Z : !amls.matrix<4x3xf64, sparsity = 0.0> -> f64
  %1 = amls.nnz %Z : !amls.matrix<4x3xf64, sparsity = 0.0>
  %2 = amls.agg max all %E : !amls.matrix<0x3xf64, sparsity = 0.0> -> f64
  %3 = amls.agg prod all %Z : !amls.matrix<4x3xf64, sparsity = 0.0> -> f64
  %m = amls.as_matrix %s : f64 -> !amls.matrix<1x1xf64>
  %sc = amls.as_scalar %m : !amls.matrix<1x1xf64> -> f64
  %4 = amls.as_matrix %sc : f64 -> !amls.matrix<1x1xf64>
  return %0, %1, %2, %3, %4 : f64, i64, f64, f64, !amls.matrix<1x1xf64>
}
