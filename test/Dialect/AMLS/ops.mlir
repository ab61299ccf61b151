// RUN: amls-opt %s | amls-opt | FileCheck %s
// RUN: amls-opt %s --mlir-print-op-generic | amls-opt | FileCheck %s

// Round trip of every op and every form of the matrix type.

// CHECK-LABEL: func @types
// CHECK-SAME: !amls.matrix<4x3xf64>
// CHECK-SAME: !amls.matrix<?x?xf32>
// CHECK-SAME: !amls.matrix<0x7xi64>
// CHECK-SAME: !amls.matrix<10x?xf64, sparsity = 0.25>
// CHECK-SAME: !amls.matrix<?x5xf64, format = csr>
// CHECK-SAME: !amls.matrix<2x2xf64, sparsity = 1.0e-05, format = dense>
func.func @types(%a: !amls.matrix<4x3xf64>, %b: !amls.matrix<?x?xf32>,
                 %c: !amls.matrix<0x7xi64>,
                 %d: !amls.matrix<10x?xf64, sparsity = 0.25>,
                 %e: !amls.matrix<?x5xf64, format = csr>,
                 %f: !amls.matrix<2x2xf64, sparsity = 0.00001, format = dense>) {
  return
}

// CHECK-LABEL: func @data_generation
func.func @data_generation(%r: index, %c: index, %v: f64, %seed: i64) {
  // CHECK: amls.fill %{{.*}}, %{{.*}}, %{{.*}} : f64 -> !amls.matrix<?x?xf64>
  %0 = amls.fill %v, %r, %c : f64 -> !amls.matrix<?x?xf64>
  // CHECK: amls.rand %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} seed %{{.*}} uniform : f64 -> !amls.matrix<?x?xf64>
  %1 = amls.rand %r, %c, %v, %v, %v seed %seed uniform : f64 -> !amls.matrix<?x?xf64>
  // CHECK: amls.rand %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} normal : f64 -> !amls.matrix<?x?xf64>
  %2 = amls.rand %r, %c, %v, %v, %v normal : f64 -> !amls.matrix<?x?xf64>
  // CHECK: amls.seq %{{.*}}, %{{.*}}, %{{.*}} : f64 -> !amls.matrix<?x1xf64>
  %3 = amls.seq %v, %v, %v : f64 -> !amls.matrix<?x1xf64>
  // CHECK: amls.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
  %4 = amls.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64> -> !amls.matrix<2x2xf64>
  // CHECK: amls.constant dense<7> : tensor<1x3xi64> -> !amls.matrix<1x3xi64>
  %5 = amls.constant dense<7> : tensor<1x3xi64> -> !amls.matrix<1x3xi64>
  return
}

// CHECK-LABEL: func @io
func.func @io(%s: f64) {
  // CHECK: %[[X:.*]] = amls.read "data/X.csv" csv : !amls.matrix<?x?xf64>
  %X = amls.read "data/X.csv" csv : !amls.matrix<?x?xf64>
  // CHECK: amls.read "data/A.mtx" mm : !amls.matrix<?x?xf64>
  %A = amls.read "data/A.mtx" mm : !amls.matrix<?x?xf64>
  // CHECK: amls.write %[[X]], "out/X.mtx" mm : !amls.matrix<?x?xf64>
  amls.write %X, "out/X.mtx" mm : !amls.matrix<?x?xf64>
  // CHECK: amls.print %[[X]] : !amls.matrix<?x?xf64>
  amls.print %X : !amls.matrix<?x?xf64>
  // CHECK: amls.printf "X = {}, {{[{][{]}}literal{{[}][}]}}" (%[[X]] : !amls.matrix<?x?xf64>)
  amls.printf "X = {}, {{literal}}" (%X : !amls.matrix<?x?xf64>)
  // CHECK: amls.printf "done"{{$}}
  amls.printf "done"
  // CHECK: amls.stop "bad {}" (%[[X]] : !amls.matrix<?x?xf64>)
  amls.stop "bad {}" (%X : !amls.matrix<?x?xf64>)
  // CHECK: amls.print %{{.*}} : f64
  amls.print %s : f64
  // CHECK: %{{.*}} = amls.read_scalar "data/n" int : f64
  %n = amls.read_scalar "data/n" int : f64
  // CHECK: amls.write_scalar "out/n" double "{}" (%{{.*}} : f64)
  amls.write_scalar "out/n" double "{}" (%n : f64)
  // CHECK: amls.write_scalar "out/name" string "run 7"{{$}}
  amls.write_scalar "out/name" string "run 7"
  return
}

// CHECK-LABEL: func @binary
func.func @binary(%X: !amls.matrix<4x3xf64>, %row: !amls.matrix<1x3xf64>,
                  %col: !amls.matrix<4x1xf64>, %s: f64) {
  // CHECK: amls.add %{{.*}}, %{{.*}} : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %0 = amls.add %X, %X : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  // CHECK: amls.sub %{{.*}}, %{{.*}} : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  %1 = amls.sub %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.mul %{{.*}}, %{{.*}} : f64, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %2 = amls.mul %s, %X : f64, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  // CHECK: amls.div %{{.*}}, %{{.*}} : !amls.matrix<4x3xf64>, !amls.matrix<1x3xf64> -> !amls.matrix<4x3xf64>
  %3 = amls.div %X, %row : !amls.matrix<4x3xf64>, !amls.matrix<1x3xf64> -> !amls.matrix<4x3xf64>
  // CHECK: amls.pow %{{.*}}, %{{.*}} : !amls.matrix<4x3xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<4x3xf64>
  %4 = amls.pow %X, %col : !amls.matrix<4x3xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<4x3xf64>
  // CHECK: amls.min
  %5 = amls.min %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.max
  %6 = amls.max %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.mod
  %7 = amls.mod %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.intdiv
  %8 = amls.intdiv %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.lt
  %9 = amls.lt %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.le
  %10 = amls.le %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.gt
  %11 = amls.gt %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.ge
  %12 = amls.ge %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.eq
  %13 = amls.eq %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.ne
  %14 = amls.ne %X, %s : !amls.matrix<4x3xf64>, f64 -> !amls.matrix<4x3xf64>
  // CHECK: amls.and
  %15 = amls.and %X, %X : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  // CHECK: amls.or
  %16 = amls.or %X, %X : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  // A column vector on the left.
  // CHECK: amls.sub %{{.*}}, %{{.*}} : !amls.matrix<4x1xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %17 = amls.sub %col, %X : !amls.matrix<4x1xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  return
}

// CHECK-LABEL: func @unary
func.func @unary(%X: !amls.matrix<?x?xf64>) {
  // CHECK: amls.neg %{{.*}} : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %0 = amls.neg %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.not
  %1 = amls.not %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.abs
  %2 = amls.abs %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.exp
  %3 = amls.exp %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.log
  %4 = amls.log %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.sqrt
  %5 = amls.sqrt %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.round
  %6 = amls.round %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.floor
  %7 = amls.floor %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.ceil
  %8 = amls.ceil %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.sign
  %9 = amls.sign %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.sigmoid
  %10 = amls.sigmoid %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.sin
  %11 = amls.sin %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.cos
  %12 = amls.cos %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.tanh
  %13 = amls.tanh %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.isnan
  %14 = amls.isnan %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return
}

// CHECK-LABEL: func @ifelse
func.func @ifelse(%C: !amls.matrix<4x4xf64>, %X: !amls.matrix<4x4xf64>, %s: f64) {
  // CHECK: amls.ifelse %{{.*}}, %{{.*}}, %{{.*}} : !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64>, f64 -> !amls.matrix<4x4xf64>
  %0 = amls.ifelse %C, %X, %s : !amls.matrix<4x4xf64>, !amls.matrix<4x4xf64>, f64 -> !amls.matrix<4x4xf64>
  return
}

// CHECK-LABEL: func @products
func.func @products(%X: !amls.matrix<100x10xf64>, %v: !amls.matrix<10x1xf64>,
                    %w: !amls.matrix<100x1xf64>) {
  // CHECK: amls.matmul %{{.*}}, %{{.*}} : !amls.matrix<100x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<100x1xf64>
  %0 = amls.matmul %X, %v : !amls.matrix<100x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<100x1xf64>
  // CHECK: amls.tsmm left %{{.*}} : !amls.matrix<100x10xf64> -> !amls.matrix<10x10xf64>
  %1 = amls.tsmm left %X : !amls.matrix<100x10xf64> -> !amls.matrix<10x10xf64>
  // CHECK: amls.tsmm right %{{.*}} : !amls.matrix<100x10xf64> -> !amls.matrix<100x100xf64>
  %2 = amls.tsmm right %X : !amls.matrix<100x10xf64> -> !amls.matrix<100x100xf64>
  // CHECK: amls.mmchain %{{.*}}, %{{.*}} : !amls.matrix<100x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
  %3 = amls.mmchain %X, %v : !amls.matrix<100x10xf64>, !amls.matrix<10x1xf64> -> !amls.matrix<10x1xf64>
  // CHECK: amls.mmchain %{{.*}}, %{{.*}} weights %{{.*}} : !amls.matrix<100x10xf64>, !amls.matrix<10x1xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<10x1xf64>
  %4 = amls.mmchain %X, %v weights %w : !amls.matrix<100x10xf64>, !amls.matrix<10x1xf64>, !amls.matrix<100x1xf64> -> !amls.matrix<10x1xf64>
  return
}

// CHECK-LABEL: func @aggregates
func.func @aggregates(%X: !amls.matrix<10x5xf64>) {
  // CHECK: amls.agg sum all %{{.*}} : !amls.matrix<10x5xf64> -> f64
  %0 = amls.agg sum all %X : !amls.matrix<10x5xf64> -> f64
  // CHECK: amls.agg sumsq row %{{.*}} : !amls.matrix<10x5xf64> -> !amls.matrix<10x1xf64>
  %1 = amls.agg sumsq row %X : !amls.matrix<10x5xf64> -> !amls.matrix<10x1xf64>
  // CHECK: amls.agg min col %{{.*}} : !amls.matrix<10x5xf64> -> !amls.matrix<1x5xf64>
  %2 = amls.agg min col %X : !amls.matrix<10x5xf64> -> !amls.matrix<1x5xf64>
  // CHECK: amls.agg max all
  %3 = amls.agg max all %X : !amls.matrix<10x5xf64> -> f64
  // CHECK: amls.agg mean row
  %4 = amls.agg mean row %X : !amls.matrix<10x5xf64> -> !amls.matrix<10x1xf64>
  // CHECK: amls.agg prod all
  %5 = amls.agg prod all %X : !amls.matrix<10x5xf64> -> f64
  // CHECK: amls.agg var col
  %6 = amls.agg var col %X : !amls.matrix<10x5xf64> -> !amls.matrix<1x5xf64>
  // CHECK: amls.agg sd all
  %7 = amls.agg sd all %X : !amls.matrix<10x5xf64> -> f64
  // CHECK: amls.agg maxindex row
  %8 = amls.agg maxindex row %X : !amls.matrix<10x5xf64> -> !amls.matrix<10x1xf64>
  // CHECK: amls.agg minindex col
  %9 = amls.agg minindex col %X : !amls.matrix<10x5xf64> -> !amls.matrix<1x5xf64>
  // CHECK: amls.trace %{{.*}} : !amls.matrix<5x5xf64> -> f64
  %S = amls.tsmm left %X : !amls.matrix<10x5xf64> -> !amls.matrix<5x5xf64>
  %10 = amls.trace %S : !amls.matrix<5x5xf64> -> f64
  // CHECK: amls.cumagg cumsum %{{.*}} : !amls.matrix<10x5xf64> -> !amls.matrix<10x5xf64>
  %11 = amls.cumagg cumsum %X : !amls.matrix<10x5xf64> -> !amls.matrix<10x5xf64>
  // CHECK: amls.cumagg cumprod
  %12 = amls.cumagg cumprod %X : !amls.matrix<10x5xf64> -> !amls.matrix<10x5xf64>
  // CHECK: amls.cumagg cummin
  %13 = amls.cumagg cummin %X : !amls.matrix<10x5xf64> -> !amls.matrix<10x5xf64>
  // CHECK: amls.cumagg cummax
  %14 = amls.cumagg cummax %X : !amls.matrix<10x5xf64> -> !amls.matrix<10x5xf64>
  return
}

// CHECK-LABEL: func @reorganisation
func.func @reorganisation(%X: !amls.matrix<4x3xf64>, %v: !amls.matrix<4x1xf64>,
                          %i: index, %j: index) {
  // CHECK: amls.transpose %{{.*}} : !amls.matrix<4x3xf64> -> !amls.matrix<3x4xf64>
  %0 = amls.transpose %X : !amls.matrix<4x3xf64> -> !amls.matrix<3x4xf64>
  // CHECK: amls.reshape %{{.*}}, %{{.*}}, %{{.*}} : !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.reshape %X, %i, %j : !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.diag %{{.*}} : !amls.matrix<4x1xf64> -> !amls.matrix<4x4xf64>
  %2 = amls.diag %v : !amls.matrix<4x1xf64> -> !amls.matrix<4x4xf64>
  // CHECK: amls.rev %{{.*}} : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %3 = amls.rev %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  // CHECK: amls.cbind %{{.*}}, %{{.*}}, %{{.*}} : !amls.matrix<4x3xf64>, !amls.matrix<4x1xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<4x7xf64>
  %4 = amls.cbind %X, %v, %X : !amls.matrix<4x3xf64>, !amls.matrix<4x1xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<4x7xf64>
  // CHECK: amls.rbind %{{.*}}, %{{.*}} : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
  %T = amls.transpose %0 : !amls.matrix<3x4xf64> -> !amls.matrix<4x3xf64>
  %5 = amls.rbind %X, %T : !amls.matrix<4x3xf64>, !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.slice %{{.*}}[%{{.*}} : %{{.*}}, %{{.*}} : %{{.*}}] : !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
  %6 = amls.slice %X[%i : %j, %i : %j] : !amls.matrix<4x3xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.insert_slice %{{.*}} into %{{.*}}[%{{.*}} : %{{.*}}, %{{.*}} : %{{.*}}] : !amls.matrix<?x?xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  %7 = amls.insert_slice %6 into %X[%i : %j, %i : %j] : !amls.matrix<?x?xf64> into !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
  // CHECK: amls.remove_empty rows %{{.*}} : !amls.matrix<4x3xf64> -> !amls.matrix<?x3xf64>
  %8 = amls.remove_empty rows %X : !amls.matrix<4x3xf64> -> !amls.matrix<?x3xf64>
  // CHECK: amls.remove_empty rows %{{.*}} select %{{.*}} : !amls.matrix<4x3xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<?x3xf64>
  %9 = amls.remove_empty rows %X select %v : !amls.matrix<4x3xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<?x3xf64>
  // CHECK: amls.remove_empty cols
  %10 = amls.remove_empty cols %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x?xf64>
  // CHECK: amls.remove_empty rows %{{.*}} select %{{.*}} empty_return : !amls.matrix<4x3xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<?x3xf64>
  %11 = amls.remove_empty rows %X select %v empty_return : !amls.matrix<4x3xf64>, !amls.matrix<4x1xf64> -> !amls.matrix<?x3xf64>
  return
}

// CHECK-LABEL: func @data_dependent
func.func @data_dependent(%X: !amls.matrix<?x3xf64>, %a: !amls.matrix<?x1xf64>,
                          %b: !amls.matrix<?x1xf64>, %p: f64, %r: index) {
  // CHECK: amls.replace %{{.*}}, %{{.*}}, %{{.*}} : !amls.matrix<?x3xf64>, f64, f64 -> !amls.matrix<?x3xf64>
  %0 = amls.replace %X, %p, %p : !amls.matrix<?x3xf64>, f64, f64 -> !amls.matrix<?x3xf64>
  // CHECK: amls.table %{{.*}}, %{{.*}} : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.table %a, %b : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.table %{{.*}}, %{{.*}} weights %{{.*}} size %{{.*}}, %{{.*}} : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.table %a, %b weights %a size %r, %r : !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  // CHECK: amls.order %{{.*}} by %{{.*}} : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
  %3 = amls.order %X by %r : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
  // CHECK: amls.order %{{.*}} by %{{.*}} decreasing indices : !amls.matrix<?x3xf64> -> !amls.matrix<?x1xf64>
  %4 = amls.order %X by %r decreasing indices : !amls.matrix<?x3xf64> -> !amls.matrix<?x1xf64>
  return
}

// CHECK-LABEL: func @sizes_and_casts
func.func @sizes_and_casts(%X: !amls.matrix<?x10xf64>, %one: !amls.matrix<1x1xf64>, %s: f64) {
  // CHECK: amls.nrow %{{.*}} : !amls.matrix<?x10xf64>
  %0 = amls.nrow %X : !amls.matrix<?x10xf64>
  // CHECK: amls.ncol %{{.*}} : !amls.matrix<?x10xf64>
  %1 = amls.ncol %X : !amls.matrix<?x10xf64>
  // CHECK: amls.nnz %{{.*}} : !amls.matrix<?x10xf64>
  %2 = amls.nnz %X : !amls.matrix<?x10xf64>
  // CHECK: amls.as_scalar %{{.*}} : !amls.matrix<1x1xf64> -> f64
  %3 = amls.as_scalar %one : !amls.matrix<1x1xf64> -> f64
  // CHECK: amls.as_matrix %{{.*}} : f64 -> !amls.matrix<1x1xf64>
  %4 = amls.as_matrix %s : f64 -> !amls.matrix<1x1xf64>
  // CHECK: amls.cast %{{.*}} : !amls.matrix<?x10xf64> -> !amls.matrix<?x?xf64, sparsity = 0.5>
  %5 = amls.cast %X : !amls.matrix<?x10xf64> -> !amls.matrix<?x?xf64, sparsity = 0.5>
  // CHECK: amls.convert %{{.*}} : !amls.matrix<?x10xf64> -> !amls.matrix<?x10xf64, format = csr>
  %6 = amls.convert %X : !amls.matrix<?x10xf64> -> !amls.matrix<?x10xf64, format = csr>
  return
}

// CHECK-LABEL: func @parfor
func.func @parfor(%init: !amls.matrix<100x1xf64>, %n: index) -> !amls.matrix<100x1xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %v = arith.constant 2.0 : f64
  // CHECK: amls.parfor %{{.*}} to %{{.*}} step %{{.*}} shared(%{{.*}} : !amls.matrix<100x1xf64>) {
  // CHECK-NEXT: ^bb0(%[[I:.*]]: index, %[[ACC:.*]]: !amls.matrix<100x1xf64>):
  // CHECK: amls.insert_slice
  // CHECK: amls.yield %{{.*}} : !amls.matrix<100x1xf64>
  // CHECK-NEXT: } -> !amls.matrix<100x1xf64>
  %r = amls.parfor %c0 to %n step %c1 shared(%init : !amls.matrix<100x1xf64>) {
  ^bb0(%i: index, %acc: !amls.matrix<100x1xf64>):
    %i1 = arith.addi %i, %c1 : index
    %cell = amls.as_matrix %v : f64 -> !amls.matrix<1x1xf64>
    %next = amls.insert_slice %cell into %acc[%i : %i1, %c0 : %c1] : !amls.matrix<1x1xf64> into !amls.matrix<100x1xf64> -> !amls.matrix<100x1xf64>
    amls.yield %next : !amls.matrix<100x1xf64>
  } -> !amls.matrix<100x1xf64>
  return %r : !amls.matrix<100x1xf64>
}

// CHECK-LABEL: func @fused
func.func @fused(%X: !amls.matrix<?x?xf64>, %Y: !amls.matrix<?x?xf64>, %s: f64,
                 %R: !amls.matrix<?x3xf64>, %V: !amls.matrix<3x2xf64>) {
  // CHECK: amls.fused cell ins(%{{.*}}, %{{.*}}) : (!amls.matrix<?x?xf64>, f64) -> !amls.matrix<?x?xf64> {
  // CHECK-NEXT: ^bb0(%{{.*}}: f64, %{{.*}}: f64):
  %0 = amls.fused cell ins(%X, %s) : (!amls.matrix<?x?xf64>, f64) -> !amls.matrix<?x?xf64> {
  ^bb0(%x: f64, %c: f64):
    %p = arith.mulf %x, %c : f64
    amls.yield %p : f64
  }
  // CHECK: amls.fused magg aggregate [sum, max] all ins(%{{.*}}, %{{.*}}) : (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) -> (f64, f64)
  %1:2 = amls.fused magg aggregate [sum, max] all ins(%X, %Y) : (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) -> (f64, f64) {
  ^bb0(%x: f64, %y: f64):
    %p = arith.mulf %x, %y : f64
    amls.yield %p, %x : f64, f64
  }
  // CHECK: amls.fused row aggregate [sum] row_inputs 1 ins(%{{.*}}, %{{.*}}) : (!amls.matrix<?x3xf64>, !amls.matrix<3x2xf64>) -> !amls.matrix<3x2xf64>
  %2 = amls.fused row aggregate [sum] row_inputs 1 ins(%R, %V) : (!amls.matrix<?x3xf64>, !amls.matrix<3x2xf64>) -> !amls.matrix<3x2xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>, %v: !amls.matrix<3x2xf64>):
    %xv = amls.matmul %x, %v : !amls.matrix<?x3xf64>, !amls.matrix<3x2xf64> -> !amls.matrix<?x2xf64>
    %xt = amls.transpose %x : !amls.matrix<?x3xf64> -> !amls.matrix<3x?xf64>
    %h = amls.matmul %xt, %xv : !amls.matrix<3x?xf64>, !amls.matrix<?x2xf64> -> !amls.matrix<3x2xf64>
    amls.yield %h : !amls.matrix<3x2xf64>
  }
  // CHECK: amls.fused row row_inputs 1 ins(%{{.*}}, %{{.*}}) : (!amls.matrix<?x3xf64>, !amls.matrix<3x2xf64>) -> !amls.matrix<?x2xf64>
  %3 = amls.fused row row_inputs 1 ins(%R, %V) : (!amls.matrix<?x3xf64>, !amls.matrix<3x2xf64>) -> !amls.matrix<?x2xf64> {
  ^bb0(%x: !amls.matrix<?x3xf64>, %v: !amls.matrix<3x2xf64>):
    %xv = amls.matmul %x, %v : !amls.matrix<?x3xf64>, !amls.matrix<3x2xf64> -> !amls.matrix<?x2xf64>
    amls.yield %xv : !amls.matrix<?x2xf64>
  }
  return
}

// Every row-local kind (RowLocalityInterface): a slice keeping all rows, a
// column minimum and t(rows) %*% rows combined over the blocks, a row
// vector broadcast, a row aggregate, and ncol of a block (the same for
// every block) read as a side scalar.
// CHECK-LABEL: func @fused_row_locality
func.func @fused_row_locality(%X: !amls.matrix<?x3xf64>, %w: !amls.matrix<1x3xf64>) {
  // CHECK: amls.fused row aggregate [sum, min] row_inputs 1
  %0:2 = amls.fused row aggregate [sum, min] row_inputs 1 ins(%X, %w) : (!amls.matrix<?x3xf64>, !amls.matrix<1x3xf64>) -> (!amls.matrix<3x1xf64>, !amls.matrix<1x2xf64>) {
  ^bb0(%x: !amls.matrix<?x3xf64>, %v: !amls.matrix<1x3xf64>):
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %n = amls.nrow %x : !amls.matrix<?x3xf64>
    %s = amls.slice %x[%c0 : %n, %c0 : %c2] : !amls.matrix<?x3xf64> -> !amls.matrix<?x2xf64>
    %lo = amls.agg min col %s : !amls.matrix<?x2xf64> -> !amls.matrix<1x2xf64>
    %m = amls.ncol %x : !amls.matrix<?x3xf64>
    %mi = arith.index_cast %m : index to i64
    %mf = arith.sitofp %mi : i64 to f64
    %b = amls.mul %x, %v : !amls.matrix<?x3xf64>, !amls.matrix<1x3xf64> -> !amls.matrix<?x3xf64>
    %d = amls.div %b, %mf : !amls.matrix<?x3xf64>, f64 -> !amls.matrix<?x3xf64>
    %r = amls.agg sum row %d : !amls.matrix<?x3xf64> -> !amls.matrix<?x1xf64>
    %xt = amls.transpose %x : !amls.matrix<?x3xf64> -> !amls.matrix<3x?xf64>
    %h = amls.matmul %xt, %r : !amls.matrix<3x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<3x1xf64>
    amls.yield %h, %lo : !amls.matrix<3x1xf64>, !amls.matrix<1x2xf64>
  }
  return
}

// Strings computed at run time: built like a message, compared, printed.
// CHECK-LABEL: func @run_time_strings
// CHECK: %[[S:.*]] = amls.string_format "n = {}" (%{{.*}} : i64) : !amls.string
// CHECK: %[[T:.*]] = amls.string_format "{}!" (%[[S]] : !amls.string) : !amls.string
// CHECK: amls.string_compare lt, %[[S]], %[[T]]
// CHECK: amls.printf "{}" (%[[T]] : !amls.string)
func.func @run_time_strings(%n: i64) -> i1 {
  %s = amls.string_format "n = {}" (%n : i64) : !amls.string
  %t = amls.string_format "{}!" (%s : !amls.string) : !amls.string
  %lt = amls.string_compare lt, %s, %t
  amls.printf "{}" (%t : !amls.string)
  return %lt : i1
}
