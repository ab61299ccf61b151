// CSR kernels of removeEmpty (rows, columns, with a select), rev, replace
// (pattern != 0 keeps the pattern, NaN included; pattern 0 gives a dense
// result) and the cumulative aggregates against NumPy, on a matrix with
// empty rows and an empty column, an all-zero matrix (removeEmpty leaves
// 0 rows: its sizes are returned), a fully dense one, a 1-row and a
// 1-column matrix, and a 2000x300 matrix with a full column for the
// threaded paths. The oracle runs --formats=csr (every matrix CSR where a
// kernel exists) and --formats=dense too, and compares them.
// RUN: %oracle %s --input X="np.array([[0, 1.5, 0, 0, -2], [0, 0, 0, 0, 0], [3, 0, 0, 0.5, 0], [0, 0, 0, 0, 0], [-1, 0, 0, 2, 0], [0, 4, 0, 0, 1.0]])" --input S="np.array([[1], [1], [0], [0], [1], [0.0]])" --input T="np.array([[0, 1, 1, 0, 1.0]])" --input Z="np.zeros((5, 4))" --input F="rng.random((4, 3)) + 0.5" --input R="np.array([[0, 2, 0, 0, -1, 0.0]])" --input C="np.array([[0], [3], [0], [-2], [0], [0], [5.0]])" --input L="np.where(np.arange(300)[None, :] == 11, 1.0, (rng.random((2000, 300)) < 0.03) * (rng.random((2000, 300)) + 0.5))" --expect "X[X.any(axis=1)]" --expect "X[:, X.any(axis=0)]" --expect "X[S[:, 0] != 0]" --expect "X[:, T[0] != 0]" --expect "X[::-1]" --expect "np.where(X == 1.5, 9, X)" --expect "X" --expect "np.where(X == 0, -1, X)" --expect "np.cumsum(X, axis=0)" --expect "np.cumprod(X, axis=0)" --expect "np.minimum.accumulate(X, axis=0)" --expect "np.maximum.accumulate(X, axis=0)" --expect "0" --expect "4" --expect "Z[:, Z.any(axis=0)].shape[1] + 10 * Z.shape[0]" --expect "np.full((5, 4), 4.0)" --expect "np.cumprod(Z, axis=0)" --expect "F[F.any(axis=1)]" --expect "np.cumprod(F, axis=0)" --expect "F[::-1]" --expect "R[:, R.any(axis=0)]" --expect "np.cumsum(R, axis=0)" --expect "C[C.any(axis=1)]" --expect "C[::-1]" --expect "np.minimum.accumulate(C, axis=0)" --expect "L[L.any(axis=1)][::-1]" --expect "np.maximum.accumulate(np.cumsum(L, axis=0) - 40, axis=0)[-3:]" -- --threads 1
// RUN: %oracle %s --input X="np.array([[0, 1.5, 0, 0, -2], [0, 0, 0, 0, 0], [3, 0, 0, 0.5, 0], [0, 0, 0, 0, 0], [-1, 0, 0, 2, 0], [0, 4, 0, 0, 1.0]])" --input S="np.array([[1], [1], [0], [0], [1], [0.0]])" --input T="np.array([[0, 1, 1, 0, 1.0]])" --input Z="np.zeros((5, 4))" --input F="rng.random((4, 3)) + 0.5" --input R="np.array([[0, 2, 0, 0, -1, 0.0]])" --input C="np.array([[0], [3], [0], [-2], [0], [0], [5.0]])" --input L="np.where(np.arange(300)[None, :] == 11, 1.0, (rng.random((2000, 300)) < 0.03) * (rng.random((2000, 300)) + 0.5))" --expect "X[X.any(axis=1)]" --expect "X[:, X.any(axis=0)]" --expect "X[S[:, 0] != 0]" --expect "X[:, T[0] != 0]" --expect "X[::-1]" --expect "np.where(X == 1.5, 9, X)" --expect "X" --expect "np.where(X == 0, -1, X)" --expect "np.cumsum(X, axis=0)" --expect "np.cumprod(X, axis=0)" --expect "np.minimum.accumulate(X, axis=0)" --expect "np.maximum.accumulate(X, axis=0)" --expect "0" --expect "4" --expect "Z[:, Z.any(axis=0)].shape[1] + 10 * Z.shape[0]" --expect "np.full((5, 4), 4.0)" --expect "np.cumprod(Z, axis=0)" --expect "F[F.any(axis=1)]" --expect "np.cumprod(F, axis=0)" --expect "F[::-1]" --expect "R[:, R.any(axis=0)]" --expect "np.cumsum(R, axis=0)" --expect "C[C.any(axis=1)]" --expect "C[::-1]" --expect "np.minimum.accumulate(C, axis=0)" --expect "L[L.any(axis=1)][::-1]" --expect "np.maximum.accumulate(np.cumsum(L, axis=0) - 40, axis=0)[-3:]" --seed 3 -- --threads 2

func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %S: !amls.matrix<?x1xf64> {amls.name = "S"},
                %T: !amls.matrix<1x?xf64> {amls.name = "T"},
                %Z: !amls.matrix<?x?xf64> {amls.name = "Z"},
                %F: !amls.matrix<?x?xf64> {amls.name = "F"},
                %R: !amls.matrix<?x?xf64> {amls.name = "R"},
                %C: !amls.matrix<?x?xf64> {amls.name = "C"},
                %L: !amls.matrix<?x?xf64> {amls.name = "L"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        i64, i64, i64, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0.0 : f64
  %minus1 = arith.constant -1.0 : f64
  %four = arith.constant 4.0 : f64
  %nine = arith.constant 9.0 : f64
  %forty = arith.constant 40.0 : f64
  %pattern = arith.constant 1.5 : f64
  %nan = arith.constant 0x7FF8000000000000 : f64
  %0 = amls.remove_empty rows %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %1 = amls.remove_empty cols %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %2 = amls.remove_empty rows %X select %S : !amls.matrix<?x?xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
  %3 = amls.remove_empty cols %X select %T : !amls.matrix<?x?xf64>, !amls.matrix<1x?xf64> -> !amls.matrix<?x?xf64>
  %4 = amls.rev %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %5 = amls.replace %X, %pattern, %nine : !amls.matrix<?x?xf64>, f64, f64 -> !amls.matrix<?x?xf64>
  %6 = amls.replace %X, %nan, %nine : !amls.matrix<?x?xf64>, f64, f64 -> !amls.matrix<?x?xf64>
  %7 = amls.replace %X, %zero, %minus1 : !amls.matrix<?x?xf64>, f64, f64 -> !amls.matrix<?x?xf64>
  %8 = amls.cumagg cumsum %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %9 = amls.cumagg cumprod %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %10 = amls.cumagg cummin %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %11 = amls.cumagg cummax %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  // All-zero: no row is kept (the sizes: 0 x 4), no column either.
  %zr = amls.remove_empty rows %Z : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %zrr = amls.nrow %zr : !amls.matrix<?x?xf64>
  %zrc = amls.ncol %zr : !amls.matrix<?x?xf64>
  %zrr64 = arith.index_cast %zrr : index to i64
  %zrc64 = arith.index_cast %zrc : index to i64
  %zc = amls.remove_empty cols %Z : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %zcc = amls.ncol %zc : !amls.matrix<?x?xf64>
  %zcr = amls.nrow %zc : !amls.matrix<?x?xf64>
  %zsize = arith.muli %zcr, %c10 : index
  %zsum = arith.addi %zsize, %zcc : index
  %13 = arith.index_cast %zsum : index to i64
  %14 = amls.replace %Z, %zero, %four : !amls.matrix<?x?xf64>, f64, f64 -> !amls.matrix<?x?xf64>
  %15 = amls.cumagg cumprod %Z : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %16 = amls.remove_empty rows %F : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %17 = amls.cumagg cumprod %F : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %18 = amls.rev %F : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %19 = amls.remove_empty cols %R : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %20 = amls.cumagg cumsum %R : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %21 = amls.remove_empty rows %C : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %22 = amls.rev %C : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %23 = amls.cumagg cummin %C : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %le = amls.remove_empty rows %L : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %24 = amls.rev %le : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %ls = amls.cumagg cumsum %L : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %lm = amls.sub %ls, %forty : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %lx = amls.cumagg cummax %lm : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %ln = amls.nrow %L : !amls.matrix<?x?xf64>
  %lnc = amls.ncol %L : !amls.matrix<?x?xf64>
  %c3 = arith.constant 3 : index
  %lb = arith.subi %ln, %c3 : index
  %25 = amls.slice %lx[%lb : %ln, %c0 : %lnc] : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %zrr64, %zrc64, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25
      : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        i64, i64, i64, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>,
        !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
