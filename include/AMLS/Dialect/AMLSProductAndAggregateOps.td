//===- AMLSProductAndAggregateOps.td - Linear algebra ------*- tablegen -*-===//
//
// Matrix products (matmul, tsmm, mmchain) and aggregates over all cells, rows
// or columns (agg, trace, cumagg).
//
// Included from AMLSOps.td, which defines the base classes and type
// constraints used here.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSPRODUCTANDAGGREGATEOPS_TD
#define AMLS_DIALECT_AMLSPRODUCTANDAGGREGATEOPS_TD

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

def AMLS_MatmulOp : AMLS_InferOp<"matmul", [Pure]> {
  let summary = "matrix product [A %*% B]";
  let description = [{
    ```mlir
    %C = amls.matmul %A, %B : !amls.matrix<4x8xf64>, !amls.matrix<8x2xf64>
         -> !amls.matrix<4x2xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$lhs, AMLS_Matrix:$rhs);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasFolder = 1;
}

def AMLS_TsmmOp : AMLS_InferOp<"tsmm", [Pure]> {
  let summary = "transpose-self product [t(X) %*% X, X %*% t(X)]";
  let description = [{
    `left` computes `t(X) %*% X` (CxC), `right` computes `X %*% t(X)` (RxR).
    The result is symmetric, so only one triangle needs to be computed.

    ```mlir
    %G = amls.tsmm left %X : !amls.matrix<1000x10xf64> -> !amls.matrix<10x10xf64>
    ```
  }];
  let arguments = (ins AMLS_TsmmSide:$side, AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$side $input attr-dict `:` type($input) `->` type($result)";
}

def AMLS_MMChainOp : AMLS_InferOp<"mmchain", [Pure]> {
  let summary = "matrix-multiply chain [t(X) %*% (w * (X %*% v))]";
  let description = [{
    Computes `t(X) %*% (X %*% v)`, or `t(X) %*% (w * (X %*% v))` with the
    optional weights `w`, in one pass over `X` (RxC). `v` is Cx1, `w` is Rx1
    and the result is Cx1.

    ```mlir
    %g = amls.mmchain %X, %v weights %w : !amls.matrix<?x10xf64>,
         !amls.matrix<10x1xf64>, !amls.matrix<?x1xf64> -> !amls.matrix<10x1xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input, AMLS_Matrix:$vector,
                       Optional<AMLS_Matrix>:$weights);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = [{
    $input `,` $vector (`weights` $weights^)? attr-dict `:` type($input) `,`
    type($vector) (`,` type($weights)^)? `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Aggregates
//===----------------------------------------------------------------------===//

def AMLS_AggOp : AMLS_InferOp<"agg", [Pure]> {
  let summary = "aggregate [sum, rowSums, colMeans, max, var, rowIndexMax, ...]";
  let description = [{
    Aggregates all cells (`all`, a scalar of the element type), each row
    (`row`, an Rx1 matrix) or each column (`col`, a 1xC matrix). `maxindex`
    and `minindex` (rowIndexMax/rowIndexMin, colIndexMax/...) return 1-based
    positions as in DML and are only defined per row or column. `var` and `sd`
    use the unbiased (n-1) estimator.

    ```mlir
    %s = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
    %r = amls.agg mean row %X : !amls.matrix<10x5xf64> -> !amls.matrix<10x1xf64>
    ```
  }];
  let arguments = (ins AMLS_AggKind:$kind, AMLS_AggAxis:$axis,
                       AMLS_Matrix:$input);
  let results = (outs AMLS_MatrixOrScalar:$result);
  let assemblyFormat = [{
    $kind $axis $input attr-dict `:` type($input) `->` type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def AMLS_TraceOp : AMLS_InferOp<"trace", [Pure]> {
  let summary = "sum of the diagonal [trace(X)]";
  let description = [{
    ```mlir
    %t = amls.trace %X : !amls.matrix<4x4xf64> -> f64
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Scalar:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def AMLS_CumAggOp : AMLS_InferOp<"cumagg", [Pure]> {
  let summary = "column-wise cumulative aggregate [cumsum, cumprod, cummin, cummax]";
  let description = [{
    Row `i` of the result aggregates rows `0..i` of the input, per column.

    ```mlir
    %c = amls.cumagg cumsum %X : !amls.matrix<5x2xf64> -> !amls.matrix<5x2xf64>
    ```
  }];
  let arguments = (ins AMLS_CumAggKind:$kind, AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$kind $input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

#endif // AMLS_DIALECT_AMLSPRODUCTANDAGGREGATEOPS_TD
