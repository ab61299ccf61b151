//===- AMLSReorganisationOps.td - Reorganising matrices ----*- tablegen -*-===//
//
// Operations that move, select or count cells rather than compute them:
// transpose, reshape, diag, rev, cbind/rbind, slices, remove_empty, replace,
// table and order.
//
// Included from AMLSOps.td, which defines the base classes and type
// constraints used here.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSREORGANISATIONOPS_TD
#define AMLS_DIALECT_AMLSREORGANISATIONOPS_TD

//===----------------------------------------------------------------------===//
// Reorganisation
//===----------------------------------------------------------------------===//

def AMLS_TransposeOp : AMLS_InferOp<"transpose", [Pure]> {
  let summary = "transpose [t(X)]";
  let description = [{
    ```mlir
    %T = amls.transpose %X : !amls.matrix<4x3xf64> -> !amls.matrix<3x4xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def AMLS_ReshapeOp : AMLS_InferOp<"reshape", [Pure]> {
  let summary = "row-major reshape [matrix(X, rows, cols)]";
  let description = [{
    Reinterprets the cells of `input`, in row-major order, as a
    `rows x cols` matrix; the number of cells must not change.

    ```mlir
    %Y = amls.reshape %X, %r, %c : !amls.matrix<4x3xf64> -> !amls.matrix<2x6xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, Index:$rows, Index:$cols);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $input `,` $rows `,` $cols attr-dict `:` type($input) `->` type($result)
  }];
}

def AMLS_DiagOp : AMLS_InferOp<"diag", [Pure]> {
  let summary = "diagonal matrix from a vector, or diagonal of a matrix [diag(X)]";
  let description = [{
    For a column vector (Nx1) the result is the NxN diagonal matrix; for a
    square NxN matrix the result is the column vector of its diagonal.

    ```mlir
    %D = amls.diag %v : !amls.matrix<5x1xf64> -> !amls.matrix<5x5xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def AMLS_RevOp : AMLS_InferOp<"rev", [Pure]> {
  let summary = "reverse the order of rows [rev(X)]";
  let description = [{
    ```mlir
    %R = amls.rev %X : !amls.matrix<4x3xf64> -> !amls.matrix<4x3xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasCanonicalizer = 1;
}

class AMLS_ConcatOp<string mnemonic, string dml, string joined,
                    string shared, string example>
    : AMLS_InferOp<mnemonic, [Pure]> {
  let summary = "concatenate " # joined # " [" # dml # "]";
  let description = [{
    Places two or more matrices side by side (cbind) or on top of each other
    (rbind); all inputs must have the same number of }] # shared # [{.

    ```mlir
    }] # example # [{
    ```
  }];
  let arguments = (ins Variadic<AMLS_Matrix>:$inputs);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs) `->` type($result)";
}

def AMLS_CBindOp : AMLS_ConcatOp<"cbind", "cbind(A, B, ...)", "columns",
    "rows", "%C = amls.cbind %A, %B : !amls.matrix<4x3xf64>, "
            "!amls.matrix<4x1xf64> -> !amls.matrix<4x4xf64>">;
def AMLS_RBindOp : AMLS_ConcatOp<"rbind", "rbind(A, B, ...)", "rows",
    "columns", "%C = amls.rbind %A, %B : !amls.matrix<4x3xf64>, "
               "!amls.matrix<1x3xf64> -> !amls.matrix<5x3xf64>">;

def AMLS_SliceOp : AMLS_InferOp<"slice", [Pure]> {
  let summary = "right indexing [X[a:b, c:d]]";
  let description = [{
    Extracts rows `[rowBegin, rowEnd)` and columns `[colBegin, colEnd)`
    (0-based, half-open; the DML frontend converts from 1-based inclusive).
    Bounds must satisfy `0 <= begin <= end <= size`.

    ```mlir
    %S = amls.slice %X[%r0 : %r1, %c0 : %c1] : !amls.matrix<10x10xf64>
         -> !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, Index:$rowBegin, Index:$rowEnd,
                       Index:$colBegin, Index:$colEnd);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $input `[` $rowBegin `:` $rowEnd `,` $colBegin `:` $colEnd `]` attr-dict
    `:` type($input) `->` type($result)
  }];
}

def AMLS_InsertSliceOp : AMLS_InferOp<"insert_slice", [Pure]> {
  let summary = "left indexing [X[a:b, c:d] = Y]";
  let description = [{
    Returns a copy of `dest` whose rows `[rowBegin, rowEnd)` and columns
    `[colBegin, colEnd)` are replaced by `source`, which must have exactly
    that shape.

    ```mlir
    %Z = amls.insert_slice %Y into %X[%r0 : %r1, %c0 : %c1]
         : !amls.matrix<2x2xf64> into !amls.matrix<10x10xf64>
         -> !amls.matrix<10x10xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$source, AMLS_Matrix:$dest,
                       Index:$rowBegin, Index:$rowEnd, Index:$colBegin,
                       Index:$colEnd);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $source `into` $dest `[` $rowBegin `:` $rowEnd `,` $colBegin `:` $colEnd
    `]` attr-dict `:` type($source) `into` type($dest) `->` type($result)
  }];
}

def AMLS_RemoveEmptyOp : AMLS_InferOp<"remove_empty", [Pure]> {
  let summary = "drop all-zero rows or columns [removeEmpty(X, margin, select)]";
  let description = [{
    Removes the rows (or columns) that contain only zeros, or, with `select`
    (a column vector for rows, a row vector for columns), keeps exactly the
    rows (columns) whose selector is non-zero. The result size depends on the
    data. With `empty_return` (DML's `empty.return=TRUE`, its default, as in
    SystemDS) a result that would keep no row (column) is one row (column)
    of zeros instead.

    ```mlir
    %Y = amls.remove_empty rows %X empty_return : !amls.matrix<100x5xf64> -> !amls.matrix<?x5xf64>
    ```
  }];
  let arguments = (ins AMLS_Margin:$margin, AMLS_Matrix:$input,
                       Optional<AMLS_Matrix>:$select, UnitAttr:$empty_return);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $margin $input (`select` $select^)? (`empty_return` $empty_return^)?
    attr-dict `:` type($input) (`,` type($select)^)? `->` type($result)
  }];
}

def AMLS_ReplaceOp : AMLS_InferOp<"replace", [
    Pure, DeclareOpInterfaceMethods<AMLS_ElementwiseOpInterface>]> {
  let summary = "replace cells equal to a pattern [replace(X, pattern, replacement)]";
  let description = [{
    Replaces every cell equal to `pattern` (NaN matches NaN) by `replacement`.
    On an i64 matrix the cells are compared as floating-point numbers (a NaN
    or fractional pattern matches nothing) and the replacement is truncated
    towards zero.

    ```mlir
    %Y = amls.replace %X, %nan, %zero : !amls.matrix<?x?xf64>, f64, f64
         -> !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, AnyFloat:$pattern,
                       AnyFloat:$replacement);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $input `,` $pattern `,` $replacement attr-dict `:` type($input) `,`
    type($pattern) `,` type($replacement) `->` type($result)
  }];
}

def AMLS_TableOp : AMLS_InferOp<"table", [Pure, AttrSizedOperandSegments]> {
  let summary = "contingency table [table(A, B, W, rows, cols)]";
  let description = [{
    For column vectors `A` and `B` of 1-based category ids, counts (or sums
    the `weights` of) each pair: `result[A[i]-1, B[i]-1] += W[i]`. Without
    `size` the result is `max(A) x max(B)`; with it, pairs outside the given
    size are dropped.

    ```mlir
    %T = amls.table %a, %b size %r, %c : !amls.matrix<?x1xf64>,
         !amls.matrix<?x1xf64> -> !amls.matrix<?x?xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$lhs, AMLS_Matrix:$rhs,
                       Optional<AMLS_Matrix>:$weights, Optional<Index>:$rows,
                       Optional<Index>:$cols);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs (`weights` $weights^)? (`size` $rows^ `,` $cols)? attr-dict
    `:` type($lhs) `,` type($rhs) (`,` type($weights)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def AMLS_OrderOp : AMLS_InferOp<"order", [Pure]> {
  let summary = "sort rows by a column [order(X, by, decreasing, index.return)]";
  let description = [{
    Sorts the rows of `input` by column `by` (0-based), stably. With
    `indices` the result is the Rx1 vector of 1-based row positions instead.

    ```mlir
    %S = amls.order %X by %c decreasing : !amls.matrix<?x3xf64> -> !amls.matrix<?x3xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, Index:$by, UnitAttr:$decreasing,
                       UnitAttr:$indices);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $input `by` $by (`decreasing` $decreasing^)? (`indices` $indices^)?
    attr-dict `:` type($input) `->` type($result)
  }];
}

#endif // AMLS_DIALECT_AMLSREORGANISATIONOPS_TD
