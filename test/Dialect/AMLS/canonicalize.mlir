// RUN: amls-opt %s -split-input-file -canonicalize | FileCheck %s

// CHECK-LABEL: func @sizes
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[N:.*]] = amls.ncol %{{.*}} : !amls.matrix<4x?xf64>
// CHECK: return %[[C4]], %[[N]]
func.func @sizes(%X: !amls.matrix<4x?xf64>) -> (index, index) {
  %r = amls.nrow %X : !amls.matrix<4x?xf64>
  %c = amls.ncol %X : !amls.matrix<4x?xf64>
  return %r, %c : index, index
}

// -----

// The type's sparsity is an estimate: nnz only folds for known contents.
// CHECK-LABEL: func @nnz
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-DAG: %[[SIX:.*]] = arith.constant 6 : i64
// CHECK-DAG: %[[EST:.*]] = amls.nnz %{{.*}} : !amls.matrix<2x3xf64, sparsity = 0.5>
// CHECK: return %[[THREE]], %[[ZERO]], %[[SIX]], %[[EST]]
func.func @nnz(%Y: !amls.matrix<2x3xf64, sparsity = 0.5>) -> (i64, i64, i64, i64) {
  %lit = amls.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 5.0]]> : tensor<2x3xf64> -> !amls.matrix<2x3xf64>
  %a = amls.nnz %lit : !amls.matrix<2x3xf64>
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %Z = amls.fill %zero, %c2, %c3 : f64 -> !amls.matrix<2x3xf64>
  %b = amls.nnz %Z : !amls.matrix<2x3xf64>
  %O = amls.fill %one, %c2, %c3 : f64 -> !amls.matrix<2x3xf64>
  %c = amls.nnz %O : !amls.matrix<2x3xf64>
  %d = amls.nnz %Y : !amls.matrix<2x3xf64, sparsity = 0.5>
  return %a, %b, %c, %d : i64, i64, i64, i64
}

// -----

// CHECK-LABEL: func @identities
// CHECK-SAME: (%[[X:.*]]: !amls.matrix<4x3xf64>)
// CHECK-NOT: amls.mul
// CHECK-NOT: amls.add
// CHECK-NOT: amls.sub
// CHECK-NOT: amls.div
// CHECK-NOT: amls.pow
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[X]]
func.func @identities(%X: !amls.matrix<4x3xf64>) -> (!amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %0 = amls.mul %X, %one : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  %1 = amls.mul %one, %X : f64, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %2 = amls.add %X, %zero : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  %3 = amls.add %zero, %X : f64, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %4 = amls.sub %X, %zero : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  %5 = amls.div %X, %one : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  %6 = amls.pow %X, %one : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  return %0, %1, %2, %3, %4, %5, %6 : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>
}

// -----

// Not identities: 0 - X, 1 / X, X * 2, X ^ 0.
// CHECK-LABEL: func @not_identities
// CHECK: amls.sub
// CHECK: amls.div
// CHECK: amls.mul
// CHECK: amls.pow
func.func @not_identities(%X: !amls.matrix<4x3xf64>) -> (!amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>) {
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %0 = amls.sub %zero, %X : f64, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %1 = amls.div %one, %X : f64, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %2 = amls.mul %X, %two : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  %3 = amls.pow %X, %zero : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  return %0, %1, %2, %3 : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>
}

// -----

// A more precise operand replaces the result through a cast.
// CHECK-LABEL: func @identity_cast
// CHECK-SAME: (%[[X:.*]]: !amls.matrix<4x3xf64, sparsity = 0.5>)
// CHECK: %[[C:.*]] = amls.cast %[[X]] : !amls.matrix<4x3xf64, sparsity = 0.5> -> !amls.matrix<?x?xf64>
// CHECK: return %[[C]]
func.func @identity_cast(%X: !amls.matrix<4x3xf64, sparsity = 0.5>) -> !amls.matrix<?x?xf64> {
  %one = arith.constant 1.0 : f64
  %0 = amls.mul %X, %one : !amls.matrix<4x3xf64, sparsity = 0.5>, f64 -> !amls.matrix<?x?xf64>
  return %0 : !amls.matrix<?x?xf64>
}

// -----

// CHECK-LABEL: func @involutions
// CHECK-SAME: (%[[X:.*]]: !amls.matrix<4x3xf64>)
// CHECK-NOT: amls.transpose
// CHECK-NOT: amls.neg
// CHECK-NOT: amls.rev
// CHECK: return %[[X]], %[[X]], %[[X]]
func.func @involutions(%X: !amls.matrix<4x3xf64>) -> (!amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>) {
  %t = amls.transpose %X : !amls.matrix<4x3xf64> -> !amls.matrix<3x4xf64>
  %tt = amls.transpose %t : !amls.matrix<3x4xf64> -> !amls.matrix<4x3xf64>
  %n = amls.neg %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %nn = amls.neg %n : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %r = amls.rev %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %rr = amls.rev %r : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  return %tt, %nn, %rr : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64>
}

// -----

// sum(matrix(v, r, c)) = v * r * c
// CHECK-LABEL: func @sum_of_fill
// CHECK-SAME: (%[[V:.*]]: f64, %[[R:.*]]: index, %[[C:.*]]: index)
// CHECK: %[[CELLS:.*]] = arith.muli %[[R]], %[[C]] : index
// CHECK: %[[I:.*]] = arith.index_cast %[[CELLS]] : index to i64
// CHECK: %[[F:.*]] = arith.sitofp %[[I]] : i64 to f64
// CHECK: %[[S:.*]] = arith.mulf %[[V]], %[[F]] : f64
// CHECK-NOT: amls.
// CHECK: return %[[S]]
func.func @sum_of_fill(%v: f64, %r: index, %c: index) -> f64 {
  %X = amls.fill %v, %r, %c : f64 -> !amls.matrix<?x?xf64>
  %s = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
  return %s : f64
}

// -----

// CHECK-LABEL: func @fold_elementwise
// CHECK-DAG: amls.constant dense<{{\[\[}}1.100000e+01, 2.200000e+01], [1.300000e+01, 2.400000e+01]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
// CHECK-DAG: amls.constant dense<{{\[\[}}2.000000e+00, 4.000000e+00], [6.000000e+00, 8.000000e+00]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
// CHECK-DAG: amls.constant dense<{{\[\[}}1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
// CHECK-DAG: amls.constant dense<{{\[\[}}-1.000000e+00, -2.000000e+00], [-3.000000e+00, -4.000000e+00]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
// CHECK-NOT: amls.add
// CHECK-NOT: amls.mul
// CHECK-NOT: amls.mod
// CHECK-NOT: amls.neg
func.func @fold_elementwise() -> (!amls.matrix<2x2xf64>, !amls.matrix<2x2xf64>, !amls.matrix<2x2xf64>, !amls.matrix<2x2xf64>) {
  %A = amls.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
  %row = amls.constant dense<[[10.0, 20.0]]> : tensor<1x2xf64> -> !amls.matrix<1x2xf64>
  %two = arith.constant 2.0 : f64
  // Row-vector broadcasting: [[1+10, 2+20], [3+10, 4+20]].
  %0 = amls.add %A, %row : !amls.matrix<2x2xf64>, !amls.matrix<1x2xf64> -> !amls.matrix<2x2xf64>
  %1 = amls.mul %two, %A : f64, !amls.matrix<2x2xf64> -> !amls.matrix<2x2xf64>
  %I = amls.constant dense<[[1.0, 0.0], [0.0, 1.0]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
  %2 = amls.mul %I, %I : !amls.matrix<2x2xf64>, !amls.matrix<2x2xf64> -> !amls.matrix<2x2xf64>
  %3 = amls.neg %A : !amls.matrix<2x2xf64> -> !amls.matrix<2x2xf64>
  return %0, %1, %2, %3 : !amls.matrix<2x2xf64>, !amls.matrix<2x2xf64>, !amls.matrix<2x2xf64>, !amls.matrix<2x2xf64>
}

// -----

// DML's %% and %/% round towards negative infinity: -3 %% 2 = 1, -3 %/% 2 = -2.
// CHECK-LABEL: func @fold_dml_semantics
// CHECK-DAG: amls.constant dense<1.000000e+00> : tensor<1x2xf64> -> !amls.matrix<1x2xf64>
// CHECK-DAG: amls.constant dense<{{\[\[}}-2.000000e+00, 2.000000e+00]]> : tensor<1x2xf64> -> !amls.matrix<1x2xf64>
// CHECK-DAG: amls.constant dense<{{\[\[}}0.000000e+00, 1.000000e+00]]> : tensor<1x2xf64> -> !amls.matrix<1x2xf64>
func.func @fold_dml_semantics() -> (!amls.matrix<1x2xf64>, !amls.matrix<1x2xf64>, !amls.matrix<1x2xf64>) {
  %A = amls.constant dense<[[-3.0, 5.0]]> : tensor<1x2xf64> -> !amls.matrix<1x2xf64>
  %two = arith.constant 2.0 : f64
  %0 = amls.mod %A, %two : !amls.matrix<1x2xf64>, f64 -> !amls.matrix<1x2xf64>
  %1 = amls.intdiv %A, %two : !amls.matrix<1x2xf64>, f64 -> !amls.matrix<1x2xf64>
  %2 = amls.gt %A, %two : !amls.matrix<1x2xf64>, f64 -> !amls.matrix<1x2xf64>
  return %0, %1, %2 : !amls.matrix<1x2xf64>, !amls.matrix<1x2xf64>, !amls.matrix<1x2xf64>
}

// -----

// CHECK-LABEL: func @fold_products
// [[1,2],[3,4]] %*% [[5],[6]] = [[17],[39]]
// CHECK-DAG: amls.constant dense<{{\[\[}}1.700000e+01], [3.900000e+01]]> : tensor<2x1xf64> -> !amls.matrix<2x1xf64>
// CHECK-DAG: amls.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
// CHECK-NOT: amls.matmul
// CHECK-NOT: amls.transpose
func.func @fold_products() -> (!amls.matrix<2x1xf64>, !amls.matrix<2x2xf64>) {
  %A = amls.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
  %v = amls.constant dense<[[5.0], [6.0]]> : tensor<2x1xf64> -> !amls.matrix<2x1xf64>
  %0 = amls.matmul %A, %v : !amls.matrix<2x2xf64>, !amls.matrix<2x1xf64> -> !amls.matrix<2x1xf64>
  %1 = amls.transpose %A : !amls.matrix<2x2xf64> -> !amls.matrix<2x2xf64>
  return %0, %1 : !amls.matrix<2x1xf64>, !amls.matrix<2x2xf64>
}

// -----

// Aggregates of [[1, 2, 3], [4, 5, 6]].
// CHECK-LABEL: func @fold_aggregates
// CHECK-DAG: %[[SUM:.*]] = arith.constant 2.100000e+01 : f64
// CHECK-DAG: %[[SUMSQ:.*]] = arith.constant 9.100000e+01 : f64
// CHECK-DAG: %[[MEAN:.*]] = arith.constant 3.500000e+00 : f64
// CHECK-DAG: %[[PROD:.*]] = arith.constant 7.200000e+02 : f64
// CHECK-DAG: %[[MIN:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG: %[[TRACE:.*]] = arith.constant 5.000000e+00 : f64
// CHECK-DAG: amls.constant dense<{{\[\[}}6.000000e+00], [1.500000e+01]]> : tensor<2x1xf64> -> !amls.matrix<2x1xf64>
// CHECK-DAG: amls.constant dense<{{\[\[}}4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<1x3xf64> -> !amls.matrix<1x3xf64>
// CHECK-DAG: amls.constant dense<3.000000e+00> : tensor<2x1xf64> -> !amls.matrix<2x1xf64>
// CHECK-DAG: amls.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00], [5.000000e+00, 7.000000e+00, 9.000000e+00]]> : tensor<2x3xf64> -> !amls.matrix<2x3xf64>
// CHECK-NOT: amls.agg
// CHECK-NOT: amls.trace
// CHECK-NOT: amls.cumagg
// The variance happens to equal the mean.
// CHECK: return %[[SUM]], %[[SUMSQ]], %[[MEAN]], %[[MEAN]], %[[PROD]], %[[MIN]], %[[TRACE]],
func.func @fold_aggregates() -> (f64, f64, f64, f64, f64, f64, f64, !amls.matrix<2x1xf64>, !amls.matrix<1x3xf64>, !amls.matrix<2x1xf64>, !amls.matrix<2x3xf64>) {
  %A = amls.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf64> -> !amls.matrix<2x3xf64>
  %sum = amls.agg sum all %A : !amls.matrix<2x3xf64> -> f64
  %sumsq = amls.agg sumsq all %A : !amls.matrix<2x3xf64> -> f64
  %mean = amls.agg mean all %A : !amls.matrix<2x3xf64> -> f64
  // Unbiased: sum((x - 3.5)^2) / 5 = 17.5 / 5.
  %var = amls.agg var all %A : !amls.matrix<2x3xf64> -> f64
  %prod = amls.agg prod all %A : !amls.matrix<2x3xf64> -> f64
  %min = amls.agg min all %A : !amls.matrix<2x3xf64> -> f64
  %S = amls.constant dense<[[1.0, 9.0], [9.0, 4.0]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
  %trace = amls.trace %S : !amls.matrix<2x2xf64> -> f64
  %rows = amls.agg sum row %A : !amls.matrix<2x3xf64> -> !amls.matrix<2x1xf64>
  %cols = amls.agg max col %A : !amls.matrix<2x3xf64> -> !amls.matrix<1x3xf64>
  // 1-based position of each row's maximum.
  %idx = amls.agg maxindex row %A : !amls.matrix<2x3xf64> -> !amls.matrix<2x1xf64>
  %cum = amls.cumagg cumsum %A : !amls.matrix<2x3xf64> -> !amls.matrix<2x3xf64>
  return %sum, %sumsq, %mean, %var, %prod, %min, %trace, %rows, %cols, %idx, %cum : f64, f64, f64, f64, f64, f64, f64, !amls.matrix<2x1xf64>, !amls.matrix<1x3xf64>, !amls.matrix<2x1xf64>, !amls.matrix<2x3xf64>
}

// -----

// CHECK-LABEL: func @fold_as_scalar
// CHECK: %[[C:.*]] = arith.constant 4.200000e+01 : f64
// CHECK: return %[[C]]
func.func @fold_as_scalar() -> f64 {
  %A = amls.constant dense<[[42.0]]> : tensor<1x1xf64> -> !amls.matrix<1x1xf64>
  %s = amls.as_scalar %A : !amls.matrix<1x1xf64> -> f64
  return %s : f64
}

// -----

// Literals above the folding limit (4096 cells) are left alone.
// CHECK-LABEL: func @no_fold_large
// CHECK: amls.exp
func.func @no_fold_large() -> !amls.matrix<100x100xf64> {
  %A = amls.constant dense<1.0> : tensor<100x100xf64> -> !amls.matrix<100x100xf64>
  %0 = amls.exp %A : !amls.matrix<100x100xf64> -> !amls.matrix<100x100xf64>
  return %0 : !amls.matrix<100x100xf64>
}

// -----

// CHECK-LABEL: func @casts
// CHECK-SAME: (%[[X:.*]]: !amls.matrix<4x3xf64>)
// CHECK: %[[C:.*]] = amls.cast %[[X]] : !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
// CHECK: return %[[X]], %[[C]], %[[X]]
func.func @casts(%X: !amls.matrix<4x3xf64>) -> (!amls.matrix<4x3xf64>, !amls.matrix<?x?xf64>, !amls.matrix<4x3xf64>) {
  %0 = amls.cast %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %1 = amls.cast %X : !amls.matrix<4x3xf64> -> !amls.matrix<?x3xf64>
  %2 = amls.cast %1 : !amls.matrix<?x3xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.cast %2 : !amls.matrix<?x?xf64> -> !amls.matrix<4x3xf64>
  %4 = amls.convert %3 : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  return %0, %2, %4 : !amls.matrix<4x3xf64>, !amls.matrix<?x?xf64>, !amls.matrix<4x3xf64>
}

// -----

// SystemDS semantics: the last extreme wins ties, min/max propagate NaN,
// the variance of one value is 0, round is Java's floor(x + 0.5).
// CHECK-LABEL: func @fold_dml_edge_cases
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FF8000000000000 : f64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: amls.constant dense<3.000000e+00> : tensor<1x1xf64>
// CHECK-DAG: amls.constant dense<5.000000e+00> : tensor<1x1xf64>
// CHECK-DAG: amls.constant dense<{{\[\[}}-1.000000e+00, -2.000000e+00, 3.000000e+00, 0.000000e+00]]> : tensor<1x4xf64>
// CHECK: return {{.*}}%[[NAN]], %[[ZERO]]
func.func @fold_dml_edge_cases() -> (!amls.matrix<1x1xf64>, !amls.matrix<1x1xf64>, !amls.matrix<1x4xf64>, f64, f64) {
  %A = amls.constant dense<[[2.0, 5.0, 5.0, 1.0, 1.0]]> : tensor<1x5xf64> -> !amls.matrix<1x5xf64>
  %maxi = amls.agg maxindex row %A : !amls.matrix<1x5xf64> -> !amls.matrix<1x1xf64>
  %mini = amls.agg minindex row %A : !amls.matrix<1x5xf64> -> !amls.matrix<1x1xf64>
  %R = amls.constant dense<[[-1.5, -2.5, 2.5, 0x7FF8000000000000]]> : tensor<1x4xf64> -> !amls.matrix<1x4xf64>
  %rounded = amls.round %R : !amls.matrix<1x4xf64> -> !amls.matrix<1x4xf64>
  %N = amls.constant dense<[[1.0, 0x7FF8000000000000, 0.0]]> : tensor<1x3xf64> -> !amls.matrix<1x3xf64>
  %min = amls.agg min all %N : !amls.matrix<1x3xf64> -> f64
  %one = amls.constant dense<[[7.0]]> : tensor<1x1xf64> -> !amls.matrix<1x1xf64>
  %var = amls.agg var all %one : !amls.matrix<1x1xf64> -> f64
  return %maxi, %mini, %rounded, %min, %var : !amls.matrix<1x1xf64>, !amls.matrix<1x1xf64>, !amls.matrix<1x4xf64>, f64, f64
}

// -----

// An identity never changes the physical format: no cast from CSR to an
// unformatted matrix is created.
// CHECK-LABEL: func @identity_keeps_format
// CHECK: amls.mul
// CHECK: amls.transpose
// CHECK: amls.transpose
func.func @identity_keeps_format(%X: !amls.matrix<4x4xf64, format = csr>) -> (!amls.matrix<4x4xf64>, !amls.matrix<4x4xf64>) {
  %one = arith.constant 1.0 : f64
  %0 = amls.mul %X, %one : !amls.matrix<4x4xf64, format = csr>, f64 -> !amls.matrix<4x4xf64>
  %t = amls.transpose %X : !amls.matrix<4x4xf64, format = csr> -> !amls.matrix<4x4xf64>
  %tt = amls.transpose %t : !amls.matrix<4x4xf64> -> !amls.matrix<4x4xf64>
  return %0, %tt : !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64>
}

// -----

// Poison (a matrix not assigned on a path) is poison of any size and format:
// casts and conversions of it fold away.
// CHECK-LABEL: func @poison_casts
// CHECK-DAG: %[[C:.*]] = ub.poison : !amls.matrix<4x3xf64>
// CHECK-DAG: %[[S:.*]] = ub.poison : !amls.matrix<4x3xf64, format = csr>
// CHECK-NOT: amls.cast
// CHECK-NOT: amls.convert
// CHECK: return %[[C]], %[[S]]
func.func @poison_casts() -> (!amls.matrix<4x3xf64>, !amls.matrix<4x3xf64, format = csr>) {
  %p = ub.poison : !amls.matrix<?x?xf64>
  %c = amls.cast %p : !amls.matrix<?x?xf64> -> !amls.matrix<4x3xf64>
  %s = amls.convert %c : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64, format = csr>
  return %c, %s : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64, format = csr>
}
