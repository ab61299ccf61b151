//===- AMLSCollectiveOps.td - Collectives of a distributed run -*- tablegen -*-===//
//
// A distributed run (--amls-distribute) runs the same program on every rank
// of an MPI job. A matrix above the size threshold is split into blocks of
// rows, one per rank (DAPHNE's split: the first rows % ranks ranks hold one
// row more); everything else is replicated. These ops are where values
// cross between the two: they are the same on every rank, as all control
// flow is, so CSE, DCE and hoisting them is safe.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSCOLLECTIVEOPS_TD
#define AMLS_DIALECT_AMLSCOLLECTIVEOPS_TD

def AMLS_AllReduceOp : AMLS_InferOp<"all_reduce",
                                    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "combine a partial result over the ranks";
  let description = [{
    The sum, minimum or maximum, cell by cell, of `input` over the ranks of
    a distributed run; every rank gets the result. `input` is a partial
    result over each rank's block of rows: a full or column aggregate, a
    `t(X) %*% y`, a `t(X) %*% X`, the number of rows of a block. A run on
    one rank returns `input`.

    ```mlir
    %s = amls.all_reduce sum %partial : f64
    %g = amls.all_reduce sum %gram : !amls.matrix<10x10xf64>
    ```
  }];
  let arguments = (ins AMLS_MatrixOrScalar:$input, AMLS_AggKind:$kind);
  let results = (outs AMLS_MatrixOrScalar:$result);
  let assemblyFormat = "$kind $input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def AMLS_AllGatherRowsOp : AMLS_InferOp<"all_gather_rows", [Pure]> {
  let summary = "the whole matrix from each rank's block of rows";
  let description = [{
    Concatenates the ranks' blocks of rows of a row-partitioned matrix in
    rank order; every rank gets the whole matrix. This is the fallback of
    an op that needs rows of other ranks (a print, a write, an op with no
    distributed form), and `--amls-distribute=explain` says where it is
    inserted. The result's row count is the sum of the blocks' counts.

    ```mlir
    %X = amls.all_gather_rows %block : !amls.matrix<?x10xf64> -> !amls.matrix<1001x10xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def AMLS_LocalRowsOp : AMLS_InferOp<"local_rows", [Pure]> {
  let summary = "this rank's block of rows of a replicated matrix";
  let description = [{
    The rows of `input` that this rank holds of a matrix of the same row
    count split over the ranks, without communication: where a replicated
    matrix meets a row-partitioned one cell by cell (`matrix(0, nrow(X),
    1)` beside `X %*% w`), or where a loop carries a replicated initial
    value into a row-partitioned one.

    ```mlir
    %b = amls.local_rows %v : !amls.matrix<1001x1xf64> -> !amls.matrix<?x1xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$input);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def AMLS_LocalIterationsOp : AMLS_Op<"local_iterations", [Pure]> {
  let summary = "this rank's share of a parfor's iterations";
  let description = [{
    This rank's iterations of `lowerBound, lowerBound + step, ...` below
    `upperBound`, as the bounds and step of a loop: SystemDS's remote
    parfor over the ranks of a distributed run, its tasks dealt to the ranks
    by the parfor's task partitioner.
    - Without `cyclic` (the static partitioner: one task per rank), a
      contiguous block of them (DAPHNE's split of their count, as blocks of
      rows are split); the step is the loop's.
    - With `cyclic` (the naive, fixed and factoring partitioners, which
      SystemDS hands out as the workers ask, to even out iterations of
      unequal cost), tasks of one iteration dealt to the ranks in turn:
      rank r of N runs iterations r, r + N, r + 2N, ... (`localStep` is N
      steps).
    A rank may have none (`localLowerBound >= localUpperBound`). With one
    rank, the loop's own bounds and step.

    ```mlir
    %lo, %hi, %st = amls.local_iterations %lb to %ub step %step
    %lo, %hi, %st = amls.local_iterations %lb to %ub step %step cyclic
    ```
  }];
  let arguments = (ins Index:$lowerBound, Index:$upperBound, Index:$step,
                       UnitAttr:$cyclic);
  let results = (outs Index:$localLowerBound, Index:$localUpperBound,
                      Index:$localStep);
  let assemblyFormat =
      "$lowerBound `to` $upperBound `step` $step (`cyclic` $cyclic^)? attr-dict";
}

def AMLS_MergeRanksOp : AMLS_InferOp<"merge_ranks", [
    Pure, AllTypesMatch<["local", "before", "result"]>]> {
  let summary = "a parfor's results merged over the ranks that ran it";
  let description = [{
    Each cell of `local` (this rank's result of a parfor that ran its share
    of the iterations) from the last rank whose value differs, bit for bit,
    from `before`, the value before the loop; `before` where no rank changed
    it. Disjoint writes merge exactly; overlapping ones (an unchecked loop)
    keep the last rank's, as a parfor's workers merge. Every rank gets the
    merged matrix.

    ```mlir
    %R = amls.merge_ranks %local over %init : !amls.matrix<100x12xf64>
    ```
  }];
  let arguments = (ins AMLS_Matrix:$local, AMLS_Matrix:$before);
  let results = (outs AMLS_Matrix:$result);
  let assemblyFormat = "$local `over` $before attr-dict `:` type($result)";
}

#endif // AMLS_DIALECT_AMLSCOLLECTIVEOPS_TD
