//===- AMLSRegionOps.td - Operations with regions ----------*- tablegen -*-===//
//
// parfor, fused operators and the yield that terminates their bodies.
//
// Included from AMLSOps.td, which defines the base classes and type
// constraints used here.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSREGIONOPS_TD
#define AMLS_DIALECT_AMLSREGIONOPS_TD

//===----------------------------------------------------------------------===//
// Regions: parfor and fused operators
//===----------------------------------------------------------------------===//

def AMLS_ParforOp : AMLS_Op<"parfor", [
    AutomaticAllocationScope, RecursiveMemoryEffects, SingleBlock,
    DeclareOpInterfaceMethods<LoopLikeOpInterface>,
    DeclareOpInterfaceMethods<RegionBranchOpInterface,
                              ["getEntrySuccessorOperands"]>]> {
  let summary = "parallel loop writing disjoint slices of results [parfor]";
  let description = [{
    Runs the body for `lowerBound <= i < upperBound` in steps of `step`, in
    any order and in parallel. The body's block arguments are the induction
    variable and one matrix per `shared` operand (the result matrices). Each
    iteration must only write (with `amls.insert_slice`) slices of the shared
    matrices that no other iteration writes, and yields them; the op returns
    the merged matrices.

    ```mlir
    %R = amls.parfor %lb to %ub step %one shared(%init : !amls.matrix<100x1xf64>) {
    ^bb0(%i: index, %acc: !amls.matrix<100x1xf64>):
      ...
      amls.yield %acc2 : !amls.matrix<100x1xf64>
    } {partitioner = 3 : i32, workers = 2 : i64}
      -> !amls.matrix<100x1xf64>
    ```

    The attributes are DML's parfor options and the plan `--amls-parfor`
    completes: `workers` (`par=`), `partitioner` and `task_size`
    (`taskpartitioner=`, `tasksize=`; the partitioner is stored as its
    number: 0 naive, 1 static, 2 fixed, 3 factoring), `inner_threads` (the threads of the
    data-parallel ops in the body), `unchecked` (`check=0`: the dependency
    analysis is skipped) and `fixed_plan` (`opt=NONE`: the given options are
    used as they are); `shared_names` names the shared matrices in the
    source (for diagnostics). `--amls-parfor` sets `independent` on a loop whose
    iterations it proved independent (or that is `unchecked`); only those
    run in parallel. `result_merge` (absent: all in place) has one entry per
    shared matrix, a
    `ParforResultMerge` value: 0 (in place) where the iterations provably
    write disjoint parts, else (an `unchecked` loop) 1 (each worker updates
    a copy whose changed cells are merged) or 2 (the matrix is all zeros
    before the loop; each worker's nonzero cells are merged).
  }];
  let arguments = (ins Index:$lowerBound, Index:$upperBound, Index:$step,
                       Variadic<AMLS_Matrix>:$shared,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$workers,
                       OptionalAttr<AMLS_ParforPartitioner>:$partitioner,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$task_size,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$inner_threads,
                       UnitAttr:$unchecked, UnitAttr:$fixed_plan,
                       UnitAttr:$independent,
                       OptionalAttr<StrArrayAttr>:$shared_names,
                       OptionalAttr<DenseI32ArrayAttr>:$result_merge);
  let results = (outs Variadic<AMLS_Matrix>:$results);
  let builders = [
    // A parfor without options or plan (its body is added by the caller).
    OpBuilder<(ins "TypeRange":$resultTypes, "Value":$lowerBound,
                   "Value":$upperBound, "Value":$step, "ValueRange":$shared), [{
      build($_builder, $_state, resultTypes, lowerBound, upperBound, step,
            shared, /*workers=*/nullptr, /*partitioner=*/nullptr,
            /*task_size=*/nullptr, /*inner_threads=*/nullptr,
            /*unchecked=*/false, /*fixed_plan=*/false,
            /*independent=*/false, /*shared_names=*/nullptr,
            /*result_merge=*/nullptr);
    }]>
  ];
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $lowerBound `to` $upperBound `step` $step
    (`shared` `(` $shared^ `:` type($shared) `)`)? $body attr-dict
    (`->` type($results)^)?
  }];
  let hasVerifier = 1;
}

def AMLS_FusedOp : AMLS_InferOp<"fused", [
    Pure, SingleBlock, IsolatedFromAbove]> {
  let summary = "fused operator computing one loop nest";
  let description = [{
    The output of operator fusion. The template (`cell`, `magg`, `row`,
    `outer`) records the plan chosen by the fusion pass and selects the
    lowering.

    Cell-wise templates (`cell`, `magg`): the body computes the cell function
    of a fused chain of element-wise operations for one cell of the main
    (first) input, with one block argument per input (the cell value for
    matrices, the value itself for scalars). Without `aggregate` every result
    is a matrix of the main input's shape; with `aggregate` (one kind per
    result: sum, sumsq, min, max) the cell values are reduced over `axis`.

    ```mlir
    %s = amls.fused cell aggregate [sum] all ins(%X, %Y) : (!amls.matrix<?x?xf64>,
         !amls.matrix<?x?xf64>) -> f64 {
    ^bb0(%x: f64, %y: f64):
      %p = arith.mulf %x, %y : f64
      amls.yield %p : f64
    }
    ```

    Row template (`row`): the first `row_inputs` inputs (the main input first)
    have one row per row of the main input and are read a block of rows at a
    time; the body maps such a block (a matrix with any number of rows) to a
    block of each result, with row-local ops (`RowLocalityInterface`) that
    compute each row of their result from the same row of their operands
    (element-wise ops, row aggregates, products with a whole side input,
    column slices). The other inputs
    (side inputs and scalars) are passed whole. Without `aggregate` every
    result has one row per row of the main input, computed block by block;
    with `aggregate` (sum, min or max per result, no axis) the body yields a
    partial result per block (e.g. `t(Xb) %*% Rb`), and the blocks' partial
    results are combined. The main input is read from memory once.

    ```mlir
    %H = amls.fused row aggregate [sum] row_inputs 2 ins(%X, %P, %V)
         : (!amls.matrix<?x100xf64>, !amls.matrix<?x5xf64>,
            !amls.matrix<100x5xf64>) -> !amls.matrix<100x5xf64> {
    ^bb0(%x: !amls.matrix<?x100xf64>, %p: !amls.matrix<?x5xf64>,
         %v: !amls.matrix<100x5xf64>):
      %xv = amls.matmul %x, %v : ...
      %q = amls.mul %p, %xv : ...
      %xt = amls.transpose %x : ...
      %h = amls.matmul %xt, %q : ...
      amls.yield %h : !amls.matrix<100x5xf64>
    }
    ```

    Outer template (`outer`): inputs #1 and #2 are the factors `U` (RxK)
    and `V` (CxK) of the outer product `U %*% t(V)` of the main input's
    shape; the body sees the main input's cell, the cell of the product and
    the other inputs' cells or values (one argument fewer than inputs). The
    body must be zero wherever the main input is (sparse-safe, e.g.
    `X * log(U %*% t(V) + eps)`): cells where the main input is zero are
    skipped, the product's cell is computed only for the others. The only
    aggregation is a sum over all cells.

    ```mlir
    %s = amls.fused outer aggregate [sum] all ins(%X, %U, %V, %eps)
         : (!amls.matrix<?x?xf64>, !amls.matrix<?x10xf64>,
            !amls.matrix<?x10xf64>, f64) -> f64 {
    ^bb0(%x: f64, %uv: f64, %e: f64):
      %a = arith.addf %uv, %e : f64
      %l = math.log %a : f64
      %p = arith.mulf %x, %l : f64
      amls.yield %p : f64
    }
    ```
  }];
  let arguments = (ins AMLS_FusedTemplate:$kind,
                       OptionalAttr<AMLS_AggKindArrayAttr>:$aggregate,
                       OptionalAttr<AMLS_AggAxis>:$axis,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$row_inputs,
                       Variadic<AMLS_MatrixOrScalar>:$inputs);
  let results = (outs Variadic<AMLS_MatrixOrScalar>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind (`aggregate` custom<AggKindList>($aggregate)^)? ($axis^)?
    (`row_inputs` $row_inputs^)?
    `ins` `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    LogicalResult verifyRowTemplate(YieldOp yield);
    LogicalResult verifyRowLocalBody(uint64_t rowInputs);
    LogicalResult verifyOuterTemplate(YieldOp yield);
  }];
}

def AMLS_YieldOp : AMLS_Op<"yield", [
    Pure, Terminator, ReturnLike, ParentOneOf<["ParforOp", "FusedOp"]>]> {
  let summary = "terminator of parfor and fused bodies";
  let description = [{
    ```mlir
    amls.yield %v : f64
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
}

#endif // AMLS_DIALECT_AMLSREGIONOPS_TD
