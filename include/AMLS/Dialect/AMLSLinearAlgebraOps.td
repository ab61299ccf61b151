//===- AMLSLinearAlgebraOps.td - Solvers and factorizations -*- tablegen -*-===//
//
// DML's linear-algebra builtins: solve, inv, det, cholesky, the multi-result
// factorizations qr, lu, eigen and svd, and lower.tri/upper.tri. They are
// computed by LAPACK (OpenBLAS's) in the runtime and follow SystemDS's
// conventions for the results (the runtime's LinearAlgebra.cpp). Errors
// such as a singular matrix are run-time errors naming the op.
//
// Included from AMLSOps.td, which defines the base classes and type
// constraints used here.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSLINEARALGEBRAOPS_TD
#define AMLS_DIALECT_AMLSLINEARALGEBRAOPS_TD

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def AMLS_SolveOp : AMLS_InferOp<"solve", [Pure]> {
  let summary = "solution of a square linear system [solve(A, b)]";
  let description = [{
    The `N x K` matrix `X` with `A %*% X = b`, for a square `N x N` `A`
    (LU with partial pivoting). A singular `A` is a run-time error.

    ```mlir
    %x = amls.solve %A, %b : !amls.matrix<3x3xf64>, !amls.matrix<3x1xf64>
         -> !amls.matrix<3x1xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$matrix, AMLS_Matrix:$rhs);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $matrix `,` $rhs attr-dict `:` type($matrix) `,` type($rhs) `->`
    type($result)
  }];
}

def AMLS_InverseOp : AMLS_InferOp<"inv", [Pure]> {
  let summary = "matrix inverse [inv(A)]";
  let description = [{
    The inverse of a square matrix; a singular matrix is a run-time error.

    ```mlir
    %I = amls.inv %A : !amls.matrix<3x3xf64> -> !amls.matrix<3x3xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def AMLS_DeterminantOp : AMLS_InferOp<"det", [Pure]> {
  let summary = "determinant [det(A)]";
  let description = [{
    The determinant of a square matrix (0 for a singular one; 1 for the
    empty matrix).

    ```mlir
    %d = amls.det %A : !amls.matrix<3x3xf64> -> f64
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs F64:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def AMLS_CholeskyOp : AMLS_InferOp<"cholesky", [Pure]> {
  let summary = "Cholesky factor [cholesky(A)]";
  let description = [{
    The lower-triangular `L` with `L %*% t(L) = A` of a symmetric positive
    definite `A`; any other matrix is a run-time error.

    ```mlir
    %L = amls.cholesky %A : !amls.matrix<3x3xf64> -> !amls.matrix<3x3xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def AMLS_QROp : AMLS_InferOp<"qr", [Pure]> {
  let summary = "QR factorization [[H, R] = qr(A)]";
  let description = [{
    For an `M x N` `A`: the `M x N` lower-trapezoidal Householder vectors
    `H` and the `M x N` upper-triangular `R`, as SystemDS returns them:
    `t(Q) = P_k ... P_1` with `P_j = I - H[,j] %*% t(H[,j]) / H[j,j]`
    (a zero column `j` reflects nothing), and `A = Q %*% R`.

    ```mlir
    %H, %R = amls.qr %A : !amls.matrix<5x3xf64>
             -> !amls.matrix<5x3xf64>, !amls.matrix<5x3xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$householder, AMLS_Matrix:$r);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($householder) `,` type($r)
  }];
}

def AMLS_LUOp : AMLS_InferOp<"lu", [Pure]> {
  let summary = "LU factorization with partial pivoting [[P, L, U] = lu(A)]";
  let description = [{
    For a square `A`: the permutation `P`, the unit lower-triangular `L`
    and the upper-triangular `U` with `P %*% A = L %*% U`. A singular `A`
    is a run-time error (SystemDS has no factors for it).

    ```mlir
    %P, %L, %U = amls.lu %A : !amls.matrix<3x3xf64> -> !amls.matrix<3x3xf64>,
                 !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$permutation, AMLS_Matrix:$lower,
                      AMLS_Matrix:$upper);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($permutation) `,`
    type($lower) `,` type($upper)
  }];
}

def AMLS_EigenOp : AMLS_InferOp<"eigen", [Pure]> {
  let summary = "symmetric eigendecomposition [[values, vectors] = eigen(A)]";
  let description = [{
    For a symmetric `N x N` `A`: its eigenvalues as an `N x 1` column in
    ascending order and the unit eigenvectors as the columns of an `N x N`
    matrix, in the same order. A matrix that is not symmetric is a
    run-time error.

    ```mlir
    %w, %V = amls.eigen %A : !amls.matrix<3x3xf64>
             -> !amls.matrix<3x1xf64>, !amls.matrix<3x3xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$values, AMLS_Matrix:$vectors);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($values) `,` type($vectors)
  }];
}

def AMLS_SVDOp : AMLS_InferOp<"svd", [Pure]> {
  let summary = "thin singular value decomposition [[U, S, V] = svd(A)]";
  let description = [{
    For an `M x N` `A` and `K = min(M, N)`: `U` (`M x K`), the diagonal
    `S` (`K x K`, singular values descending) and `V` (`N x K`) with
    `A = U %*% S %*% t(V)`.

    ```mlir
    %U, %S, %V = amls.svd %A : !amls.matrix<5x3xf64> -> !amls.matrix<5x3xf64>,
                 !amls.matrix<3x3xf64>, !amls.matrix<3x3xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$u, AMLS_Matrix:$s, AMLS_Matrix:$v);
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($u) `,` type($s) `,` type($v)
  }];
}

def AMLS_TriangleOp : AMLS_InferOp<"triangle", [Pure]> {
  let summary = "triangular part [lower.tri(X, diag, values), upper.tri(...)]";
  let description = [{
    The cells strictly below (`lower`) or above (`upper`) the diagonal, and
    the diagonal with `diag`: `X`'s cells with `values`, else 1. All other
    cells are 0.

    ```mlir
    %L = amls.triangle lower %X diag values : !amls.matrix<4x4xf64>
         -> !amls.matrix<4x4xf64>
    ```
  }];
  let arguments = (ins AMLS_TriangleSide:$side, AMLS_Matrix:$input,
                       UnitAttr:$diag, UnitAttr:$values);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $side $input (`diag` $diag^)? (`values` $values^)? attr-dict `:`
    type($input) `->` type($result)
  }];
}

#endif // AMLS_DIALECT_AMLSLINEARALGEBRAOPS_TD
