//===- Passes.td - AMLS transformation passes --------------*- tablegen -*-===//

#ifndef AMLS_TRANSFORMS_PASSES_TD
#define AMLS_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AMLSInferProperties : Pass<"amls-infer-properties"> {
  let summary = "Infer matrix sizes and sparsity and refine the IR's types";
  let description = [{
    Propagates matrix sizes, element types and sparsity estimates forward
    through the program and replaces each matrix value's type by the most
    precise one the analysis proves. Each op contributes its rule through
    `InferMatrixPropertiesInterface`; constant operands (also those computed
    by `arith` ops) are taken into account, e.g. the bounds of a slice or the
    sizes of a fill.

    Control flow is handled as a data-flow fixpoint over the lattice in
    which a known size or sparsity is more precise than an unknown one:
    values merging at `scf.if` results or carried around `scf.for`/`scf.while`
    loops take the join of their incoming types, so a loop that changes a
    size or sparsity widens it to unknown. Where a value's refined type is
    more precise than an edge or consumer requires (loop-carried values,
    function results, calls, ops of other dialects), an `amls.cast` keeps
    the IR well typed. Function arguments and results keep their declared
    types.

    Where the session saw a parameter's data, the parameter carries its MNC
    sketch (`amls.mnc`: the non-zeros of every row and column); with `mnc`
    (the default) the sketches propagate through products, element-wise
    ops, transposes, concatenations, slices and diagonals
    (`MNCSketchInterface`), and a value with a sketch takes its sparsity
    from it instead of from the metadata estimator: exact for products with
    a permutation, selection, one-hot or diagonal matrix, where the
    metadata's uniform assumption is far off.

    Inconsistencies that only become visible with the refined types (e.g.
    mismatched inner dimensions of a product once both are known) are
    reported as errors.

    Example:

    ```mlir
    %X = amls.rand %c100, %c10, %f0, %f1, %sp seed %s uniform
         : !amls.matrix<?x?xf64>
    %G = amls.tsmm left %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
    ```

    becomes

    ```mlir
    %X = amls.rand ... : !amls.matrix<100x10xf64, sparsity = 0.5>
    %G = amls.tsmm left %X : !amls.matrix<100x10xf64, sparsity = 0.5>
         -> !amls.matrix<10x10xf64, sparsity = 1.0>
    ```
  }];
  let options = [
    Option<"estimator", "estimator", "::mlir::amls::EstimatorKind",
           "::mlir::amls::EstimatorKind::AverageCase",
           "Sparsity estimator for the results of operations",
           [{::llvm::cl::values(
               clEnumValN(::mlir::amls::EstimatorKind::AverageCase, "avg",
                          "average case: uniformly distributed non-zeros"),
               clEnumValN(::mlir::amls::EstimatorKind::WorstCase, "worst",
                          "worst case: an upper bound on the non-zeros"))}]>,
    Option<"mnc", "mnc", "bool", "true",
           "Propagate the MNC sketches of parameters (amls.mnc) and take the "
           "sparsity of every value with a sketch from it">,
    Option<"fileMetadata", "file-metadata", "bool", "true",
           "Take the sizes of amls.read from a Matrix Market header or "
           "the lines and fields of a CSV file that exists at compile time">
  ];
  let dependentDialects = ["::mlir::amls::AMLSDialect"];
}

def AMLSMatmulChain : Pass<"amls-matmul-chain"> {
  let summary = "Reorder chains of matrix products by dynamic programming";
  let description = [{
    Finds maximal chains `A1 %*% A2 %*% ... %*% An` of `amls.matmul` ops
    (an inner product belongs to the chain when the chain is its only user),
    looking through transposes (`t(A %*% B) %*% C` is the chain `t(B)`,
    `t(A)`, `C`, when the transpose and the product have no other user; the
    transposed factors are read through `amls.transpose`, which the lowering
    never materializes), and rebuilds each with the parenthesization that needs the fewest scalar
    multiplications, computed by the classic O(n^3) dynamic program
    (`MatmulChainPlan` in `lib/Analysis`). A chain is only reordered when all
    its factors have known sizes and the new order is strictly cheaper; the
    chain's result keeps its type.

    With `mode=sparse` the cost counts the multiplications of non-zero pairs
    under uniformly distributed non-zeros, using the factors' estimated
    sparsity (unknown counts as dense) and the average-case estimator for
    the sparsity of partial products, so that a sparse factor is multiplied
    while its partner is still small or sparse. With `mode=mnc` (the
    pipeline's with `--sparsity-estimator=mnc`, its default), a chain whose
    factors all have MNC sketches (a parameter's `amls.mnc`, or the uniform
    sketch of a matrix of sparsity 0 or 1) counts each product's non-zero
    pairs from the sketches, sum_j |A:j| |Bj:|, and propagates the partial
    products' sketches; other chains are costed as with `mode=sparse`.

    Example (PageRank's teleport term, n x 1, 1 x n, n x 1):

    ```mlir
    %eu = amls.matmul %e, %u : !amls.matrix<1000x1xf64>, !amls.matrix<1x1000xf64>
          -> !amls.matrix<1000x1000xf64>
    %t = amls.matmul %eu, %p : !amls.matrix<1000x1000xf64>, !amls.matrix<1000x1xf64>
         -> !amls.matrix<1000x1xf64>
    ```

    becomes `e %*% (u %*% p)`, 2,000 instead of 2,000,000 multiplications:

    ```mlir
    %up = amls.matmul %u, %p : !amls.matrix<1x1000xf64>, !amls.matrix<1000x1xf64>
          -> !amls.matrix<1x1xf64>
    %t = amls.matmul %e, %up : !amls.matrix<1000x1xf64>, !amls.matrix<1x1xf64>
         -> !amls.matrix<1000x1xf64>
    ```
  }];
  let options = [
    Option<"mode", "mode", "::mlir::amls::MatmulChainCost",
           "::mlir::amls::MatmulChainCost::Dense",
           "Cost model of a product",
           [{::llvm::cl::values(
               clEnumValN(::mlir::amls::MatmulChainCost::Dense, "dense",
                          "p*q*r scalar multiplications"),
               clEnumValN(::mlir::amls::MatmulChainCost::Sparse, "sparse",
                          "multiplications of non-zero pairs, from the "
                          "estimated sparsity"),
               clEnumValN(::mlir::amls::MatmulChainCost::MNC, "mnc",
                          "multiplications of non-zero pairs, from the "
                          "factors' MNC sketches where all have one"))}]>
  ];
  let dependentDialects = ["::mlir::amls::AMLSDialect"];
}

def AMLSSimplify : Pass<"amls-simplify"> {
  let summary = "Static algebraic rewrites (SystemDS's static HOP rewrites)";
  let description = [{
    Rewrites that hold whatever the matrix sizes, applied to a fixpoint
    together with the AMLS ops' canonicalization patterns (identities such
    as `X*1`, `X+0`, `X^1`, involutions `t(t(X))`, `rev(rev(X))`, `-(-X)`,
    `sum(matrix(v, r, c))` and constant folding). New ops get their types
    from the ops' inference rules. None of the rewrites changes a result
    when the data holds NaN or Inf (rounding aside): rewrites that would are
    restricted, as noted.

    | rewrite | condition |
    |---|---|
    | `sum(s*X)`, `sum(X*s)` -> `s*sum(X)`; same for `rowSums`, `colSums` | `s` a scalar |
    | `sum(-X)` -> `-sum(X)` | floating point |
    | `trace(X %*% Y)` -> `sum(X * t(Y))` | the product has no other use |
    | `agg(t(X))`, `agg(rev(X))` -> `agg(X)` over all cells | any aggregate but the index kinds |
    | `colAgg(t(X))` -> `t(rowAgg(X))`, `rowAgg(t(X))` -> `t(colAgg(X))` | any aggregate |
    | `colAgg(rev(X))` -> `colAgg(X)` | any aggregate but the index kinds |
    | `sum(rowSums(X))`, `sum(colSums(X))` -> `sum(X)`; same for `min`/`max` of row or column minima/maxima | |
    | `sum(X^2)` -> `sumsq(X)` | exponent the constant 2 |
    | `X + X` -> `2 * X` | `X` a matrix |
    | `X * X` -> `X^2` | `X` a floating-point matrix |
    | `min(X, X)`, `max(X, X)` -> `X`; `ifelse(C, X, X)` -> `X` | `X` a matrix |
    | `ifelse(c, A, B)` -> `A` or `B` | `c` a constant scalar, the chosen value a matrix |
    | `1 / (1 + exp(-X))`, `1 / (exp(-X) + 1)` -> `sigmoid(X)` | |
    | `(-X) %*% Y`, `X %*% (-Y)` -> `-(X %*% Y)` | the negation has no other use |
    | `(X %*% Y)[i, j]` -> `X[i, ] %*% Y[, j]` | the product has no other use |
    | `t(cbind(t(A), t(B), ...))` -> `rbind(A, B, ...)` and the `rbind` twin | every input a transpose |
    | `!(A == B)` -> `A != B`, `!(A != B)` -> `A == B` | |
    | `!(A > B)` -> `A <= B`, and `>=`, `<`, `<=` likewise | `i64` matrices only (with NaN both comparisons are false) |
    | `X - Y*X`, `X - X*Y` -> `(1 - Y) * X` | the product has no other use |
    | `s + X` -> `X + s`, `s * X` -> `X * s` (canonical form) | `s` a scalar, `X` a matrix |
    | `rand(r, c, a, b, sp) * s` -> `rand(r, c, a*s, b*s, sp)` | uniform, `s` a constant >= 0, the generator has no other use |
    | `X * (X != 0)`, `(X != 0) * X` -> `X` | |
    | `X - (-Y)` -> `X + Y`; `X + (-Y)`, `(-Y) + X` -> `X - Y`; `-(X - Y)` -> `Y - X` | |
    | `f(f(X))` -> `f(X)` for `abs`, `round`, `floor`, `ceil`, `sign`; `abs(-X)` -> `abs(X)` | |
    | `replace(X, p, p)` -> `X` | `p` the same constant (or both NaN) |
    | `as_scalar(as_matrix(s))` -> `s` | |
    | `nrow(t(X))` -> `ncol(X)`, `ncol(t(X))` -> `nrow(X)` | |
  }];
  let dependentDialects = ["::mlir::amls::AMLSDialect",
                           "::mlir::arith::ArithDialect"];
}

def AMLSSimplifyDynamic : Pass<"amls-simplify-dynamic"> {
  let summary = "Size-dependent algebraic rewrites (SystemDS's dynamic HOP rewrites)";
  let description = [{
    Rewrites whose condition depends on what inference knows: sizes (a 1x1
    operand, a vector, a square matrix) and sparsity (an all-zero matrix),
    plus the rewrites into the fused physical operators `amls.tsmm` and
    `amls.mmchain`. Run it after `--amls-infer-properties` (amls-run does,
    on the sizes of the actual inputs). Like `--amls-simplify`, no rewrite
    changes a result when the data holds NaN or Inf (rounding aside), which
    is why `X %*% 0` is not folded (a NaN or Inf in `X` makes cells NaN).

    | rewrite | condition |
    |---|---|
    | `X %*% y`, `y %*% X` -> `X * as_scalar(y)` | `y` is 1x1 |
    | `sum(X)`, `min`, `max`, `mean`, `prod` -> `as_scalar(X)` | `X` is 1x1 |
    | `colSums(X)` -> `X` (also means, minima, maxima, products) | `X` has one row |
    | `rowSums(X)` -> `X` (likewise) | `X` has one column |
    | `cumsum(X)`, `cumprod`, `cummin`, `cummax` -> `X` | `X` has one row |
    | `sum(v1 * v2)` -> `as_scalar(t(v1) %*% v2)` | both column vectors, neither computed by an element-wise op (those are left to `--amls-fuse`) |
    | `sum(A %*% B)` -> `sum(t(colSums(A)) * rowSums(B))` | the product has no other use |
    | `diag(X %*% Y)` -> `rowSums(X * t(Y))` | the product is square with known n > 1, no other use |
    | `sum(diag(X))` -> `trace(X)` | `X` square with known n > 1 |
    | `X %*% matrix(1, n, 1)` -> `rowSums(X)` | |
    | `matrix(1, 1, m) %*% X` -> `colSums(X)` | |
    | `t(X) %*% X` -> `tsmm left X` | |
    | `X %*% t(X)` -> `tsmm right X` | |
    | `t(X) %*% (X %*% v)` -> `mmchain(X, v)` | `v` a column vector, the inner product has no other use |
    | `t(X) %*% (w * (X %*% v))` -> `mmchain(X, v, w)` | `v`, `w` column vectors, no other uses |
    | `X[0:nrow, 0:ncol]` -> `X` | constant bounds equal to the known sizes |
    | `X[0:nrow, 0:ncol] = Y` -> `Y` | `Y` has the known size of `X` |
    | `X[, a:b] = A; X[, b:c] = B; ...` -> `cbind(A, B, ...)` | the blocks' constant bounds tile all of `X`'s known columns without overlap, each block all rows |
    | `X[a:b, ] = A; X[b:c, ] = B; ...` -> `rbind(A, B, ...)` | likewise for rows |
    | `sum(Z)`, `sumsq`, `mean`, `min`, `max` -> `0` | `Z` has sparsity 0 and known, non-zero size |
    | `nnz(Z)` -> `0` | `Z` has sparsity 0 |
    | `as_matrix(as_scalar(X))` -> `X` | |

    Not done, on purpose: `t(X) %*% y` -> `t(t(y) %*% X)` (SystemDS avoids
    materializing `t(X)`; the AMLS lowering never materializes a transposed
    matmul operand, it reads it through the indexing maps or BLAS's
    transpose flag).
  }];
  let dependentDialects = ["::mlir::amls::AMLSDialect",
                           "::mlir::arith::ArithDialect"];
}

def AMLSInterprocedural : Pass<"amls-ipa", "::mlir::ModuleOp"> {
  let summary = "Inter-procedural analysis: specialize functions per call "
                "signature, inline small ones, remove dead ones";
  let description = [{
    Carries what inference knows at call sites into the called functions, as
    SystemDS's IPA does for DML functions, so that the rewrites and matmul
    chains inside a function see the sizes of its actual arguments:

    1. Every call's signature is computed from the caller's inferred types:
       the most precise type of each matrix operand (looking through the
       `amls.cast` inference put there for the call) and the value of each
       constant scalar operand.
    2. The callee is specialized per distinct signature: its matrix
       parameters take the signature's types, its constant scalar
       parameters are replaced by the constants and removed, and inference
       runs on its body. A private function whose calls all share one
       signature is specialized in place; otherwise each signature gets a
       private clone (`f_0`, `f_1`, ...) and its calls are redirected.
    3. The callee's results are propagated back: a matrix result takes the
       inferred type of the returned values, a scalar result that every
       return yields as the same constant becomes that constant at the
       call sites.

    These steps repeat, with inference over the whole module in between,
    until no call's signature changes (at most `max-iterations` rounds):
    results of one call refine the arguments of the next, and values
    carried around loops at call sites converge as in the
    intra-procedural analysis (their types are the loop fixpoint's).

    Then calls to functions of at most `inline-threshold` operations (all
    nested operations counted) are inlined by MLIR's inliner (bottom-up over
    the call graph, through the dialects' inliner interfaces), and private
    functions that are no longer called are removed (`symbol-dce`). Functions on a cycle of the call graph (recursion)
    are neither specialized nor inlined, and external declarations are left
    alone. Public functions (the program's entry) keep their signature.

    Example: after specialization, `@pageRank` (examples/pagerank.dml) is
    called with 1000x1000 and 1000x1 matrices and `alpha = 0.85`, so the
    teleport term `e %*% u %*% p` in its loop has known sizes and
    `--amls-matmul-chain` evaluates it as `e %*% (u %*% p)`.
  }];
  let options = [
    Option<"inlineThreshold", "inline-threshold", "unsigned", "20",
           "Inline calls to functions of at most this many operations "
           "(0: never inline)">,
    Option<"maxIterations", "max-iterations", "unsigned", "8",
           "Rounds of specialization and inference at most">
  ];
  let dependentDialects = ["::mlir::amls::AMLSDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def AMLSVectorizeLoops : Pass<"amls-vectorize-loops"> {
  let summary = "Loops computing one row per iteration as whole-block "
                "operations (SystemDS's loop vectorization)";
  let description = [{
    A loop that writes row `i` of a matrix from row `i` of others,

    ```
    for (i in a:b) X[i, 1] = Y[i, 2] + Z[i, 1]
    ```

    becomes one left indexing of the block of rows,
    `X[a:b, 1] = Y[a:b, 2] + Z[a:b, 1]`, guarded by `a <= b` (a loop that
    does not run leaves `X` as it was). In the IR: an `scf.for` with step 1
    carrying one matrix, whose yielded value is an `amls.insert_slice` into
    the carried matrix at rows `[i+c, i+c+1)`, computed from

    - `amls.slice`s at rows `[i+d, i+d+1)` of matrices defined outside the
      loop, or of the carried matrix when `d = c` (the row is read before the
      iteration writes it, and no other iteration writes it) or the columns
      read and written are disjoint constants;
    - element-wise ops on those rows and on scalars defined outside the
      loop;

    with column bounds defined outside the loop, every matrix one row of
    the same known number of columns, and no other op with effects. Row
    bounds are recognized as `i + constant` through index arithmetic and
    through the double-valued loop variables of DML
    (`fptosi(sitofp(i) + 2.0)`), which are exact below 2^53.

    Loops with another carried value, a carried dependence (row `i` reading
    row `i-1` of the written matrix), a step other than 1 or any other op
    are left alone.
  }];
  let dependentDialects = ["::mlir::amls::AMLSDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def AMLSSelectCompression : Pass<"amls-select-compression"> {
  let summary = "Compress the matrices a loop multiplies (compressed linear "
                "algebra)";
  let description = [{
    Finds the dense or CSR f64 matrices (never a column vector) defined
    outside a loop (`scf.for`, `scf.while`) that the loop multiplies: the
    left operand of `amls.matmul` (also read through `amls.transpose`,
    `t(X) %*% w`) with a right operand of at most `max-rhs-cols` columns,
    the right operand of `t(W) %*% X` with `W` of at most `max-rhs-cols`
    columns, the input of `amls.mmchain` and of `amls.tsmm left`. What
    reads a compressed matrix is `CompressedKernelInterface`'s. It runs
    after the format selection and before fusion, which leaves the
    products on a compressed matrix alone. For each matrix, it inserts
    `amls.compress` before the outermost such loop and lets those products
    read the compressed matrix (the runtime's kernels on column groups,
    docs/compression.md). Every later op with a kernel on the compressed
    form reads it as well: products with narrow operands, `sum`/`mean` of
    all cells, rows or columns, `nrow`/`ncol`, and scalar operations, whose
    compressed results are read the same way (a scalar operation only where
    all its result's uses have kernels). The other later ops read an
    `amls.decompress` copy where that lets the dense source be freed (a
    dense matrix the program computed, each copy made at most once per
    compression), and the source otherwise (a parameter, a CSR matrix, an
    op in a loop). Each compressed matrix gets an `amls.release` after its
    last use. With `only-compressible` (amls-run's and the sessions'
    default `--formats=auto`), a candidate must hold a parameter's cells
    that the session marked `amls.compressible` (the parameter itself, a
    `cbind` of it with a column such as an intercept's ones, or a private
    function's parameter that every call passes such a matrix). Matrices of known size with fewer than `min-cells`
    cells are left alone. The plan is made at run time from the data: where
    compression does not pay 2x, the matrix is kept as one uncompressed
    group. `explain` prints a line per compressed matrix at compile time and
    makes the run print each plan and the resulting groups on stderr.
    amls-run's `--formats=compressed` adds this pass.
  }];
  let options = [
    Option<"minCells", "min-cells", "int64_t", "65536",
           "Matrices of known size with fewer cells stay dense">,
    Option<"maxRhsCols", "max-rhs-cols", "int64_t", "64",
           "Products whose right operand has more columns stay dense">,
    Option<"explain", "explain", "bool", "false",
           "Print the compressed matrices (and, at run time, their plans) "
           "on stderr">,
    Option<"onlyCompressible", "only-compressible", "bool", "false",
           "Only matrices whose cells come from a parameter marked "
           "amls.compressible (--formats=auto: the session saw data that "
           "looks compressible)">,
  ];
  let statistics = [
    Statistic<"numCompressed", "compressed-matrices",
              "amls.compress ops inserted">,
    Statistic<"numDecompressed", "decompressions",
              "amls.decompress ops inserted">,
  ];
}

def AMLSSelectFormats : Pass<"amls-select-formats"> {
  let summary = "Choose dense or CSR storage for every matrix (SystemDS's "
                "sparse-format decision)";
  let description = [{
    Sets `format = csr` on the matrices that are best stored sparse and
    inserts `amls.convert` where a consumer needs the other format.

    A matrix is stored CSR when its estimated sparsity is below
    `sparsity-turn-point` (SystemDS's SPARSITY_TURN_POINT, 0.4), it has more
    than one column and at least `min-cells` cells, and its producer has a
    kernel that produces CSR from its operands' formats (the ops'
    `CSRKernelInterface`, e.g. `read`, `transpose`, `X * Y`, `X / v`,
    sparse-safe functions, CSR %*% CSR; element-wise ops also where sizes
    are known only at run time, and binary ops with a dense result such as
    `P - Y`, which read the CSR operand's stored values). An op without a
    kernel for a CSR
    operand gets an `amls.convert` to dense in front of it (of that operand
    only where a kernel takes its other CSR operands, as removeEmpty takes
    its matrix but not a CSR select vector); so do values leaving public
    functions and calls to them, which stay dense; a loop carries CSR where
    its initial value is CSR and what its body yields is estimated sparse
    (with `--formats=csr`: wherever its initial value is CSR), an scf.if
    result is CSR where a branch yields CSR, and a private function takes a
    sparse argument CSR where its body can and returns a CSR result CSR
    where a caller's user takes it (with `csr-results`, an entry, a public
    function that nothing calls, returns CSR results CSR, and its return
    takes CSR as a user). Where a sparse value comes from
    an op without a CSR kernel (rand with a low sparsity), it is converted
    to CSR when one of its users has a kernel for it.

    `mode=dense` keeps everything dense; `mode=csr` stores every matrix CSR
    wherever the kernels allow, whatever its sparsity (for differential
    testing against `mode=dense`). Sizes must be known (amls-run specializes
    on its inputs); a matrix whose size is unknown stays dense in `auto`
    mode. Formats already set in the input are kept. `explain` prints one
    line per CSR matrix and per conversion on stderr, and one per product of
    known size and sparsity with the `estimated nnz N` the choice rests on
    (MNC's estimate where the operands have sketches); with `actual-nnz`
    the program also reports each such product's `actual nnz M` on stderr
    when it has computed it (an `amls.nnz` and an `amls.report` after it).
  }];
  let options = [
    Option<"mode", "mode", "std::string", "\"auto\"",
           "auto (sparsity-based), dense (no CSR), csr (CSR wherever a kernel "
           "exists)">,
    Option<"sparsityTurnPoint", "sparsity-turn-point", "double", "0.4",
           "Sparsity below which a matrix is stored CSR">,
    Option<"minCells", "min-cells", "int64_t", "4096",
           "Matrices with fewer cells stay dense">,
    Option<"explain", "explain", "bool", "false",
           "Print the CSR matrices and conversions on stderr">,
    Option<"actualNnz", "actual-nnz", "bool", "false",
           "With explain, the program reports the non-zeros of each product "
           "it computes on stderr">,
    Option<"csrResults", "csr-results", "bool", "false",
           "Public functions that nothing calls (entries) return the "
           "matrices they compute CSR as CSR instead of dense copies (the "
           "execution session's CSR results)">,
  ];
  let statistics = [
    Statistic<"numCSR", "csr-matrices", "Matrices stored CSR">,
    Statistic<"numConverts", "conversions", "amls.convert ops inserted">,
  ];
}

def AMLSCheckMemory : Pass<"amls-check-memory", "ModuleOp"> {
  let summary = "Reject values whose known size exceeds the memory budget";
  let description = [{
    Before a program runs, every matrix result whose size is known is
    checked against the memory budget (`limit` bytes; amls-run's
    `--memory-limit`, default 80% of the machine's memory): its dense bytes
    (rows x cols x element bytes) or, for a CSR matrix, the 8 bytes per row
    of its row pointers (its non-zeros are only estimated). A value beyond the budget is an error
    at its op's location (the DML line) with the shape, the format and the
    bytes, instead of a failed allocation at run time. The arithmetic
    cannot overflow (rows x cols x 8 beyond 2^63 is reported as such).
    Values inside an `scf.if` branch are left to the run-time check (the
    branch may never be taken), as are those of unknown size. Runs after
    fusion: a fused operator's intermediates are never allocated. `limit=0`
    checks nothing.
  }];
  let options = [
    Option<"limit", "limit", "uint64_t", "0",
           "The memory budget in bytes (0: no check)">,
  ];
}

def AMLSPrintPlanGraph : Pass<"amls-print-plan-graph", "ModuleOp"> {
  let summary = "Print the program as a Graphviz data-flow graph on stderr";
  let description = [{
    Writes the module as a DOT graph (`writePlanGraph`, the picture of
    amls-run's `--explain=dot` and Python's `explain()`), leaving it as it
    is: one node per op with its results' shapes, sparsity and formats (the
    constants it reads and its DML line in the label), edges along the
    data flow; a fused operator is a filled cluster of its body's ops named
    by its template and aggregation; loops, branches and parfor are dashed
    clusters of their bodies; products name the kernel their operands'
    formats select (`kernel csr x dense`); the collectives of a distributed
    run are red hexagons and blocks of rows are marked `blocks of rows`.
    Run it after the optimizer (the session draws the plan after fusion).
  }];
}

def AMLSDistribute : Pass<"amls-distribute", "ModuleOp"> {
  let summary = "Plan an SPMD run over MPI ranks: row-partitioned matrices, "
                "replicated ones, and the collective each op needs (SystemDS's "
                "distributed operators, seed 001)";
  let description = [{
    Every rank of a distributed run runs the same program. This pass
    decides which matrices are split by blocks of rows over the ranks and
    which are replicated, and makes each op's distributed form explicit.

    A `read` of a matrix with at least `min-cells` cells (sizes from the
    file's metadata; unknown sizes count as large) is row-partitioned: each
    rank reads its own block of rows. So is a function's parameter marked
    `amls.row_partitioned` (a session's row blocks: the caller passes each
    rank's rows), whatever its size; the mark is dropped once read. From
    there the partition follows the
    ops' `RowLocalityInterface`, the same definition of row-locality that
    the Row fusion template uses:
    - element-wise ops of aligned blocks, row aggregates and `X %*% v` with
      a replicated `v` stay local and partitioned; a replicated matrix with
      the blocks' row count meets them as its own block (`amls.local_rows`,
      no communication); scalars and row vectors broadcast;
    - full and column aggregates (sum, min, max, sum of squares, mean;
      variance and standard deviation in two passes, the whole mean
      first), the trace (each block's square on the diagonal),
      `t(X) %*% y`, `t(X) %*% X`
      and `t(X) %*% (w * (X %*% v))` compute a partial result per block
      that one `amls.all_reduce` combines; `nrow` of a block becomes the
      whole matrix's row count (a constant where it is known);
    - a `write` of a block is one ordered write: the ranks write their rows
      in turn into the file (`amls.row_partitioned_operands`), nothing
      gathered;
    - anything else that reads a block (a print, a product of two
      partitioned matrices, a reorganisation, a return) gets the whole
      matrix through `amls.all_gather_rows` first: the documented gather
      fallback.
    Loops and branches carry a partitioned value where any path brings one
    (the analysis is a forward data-flow analysis over the region
    branches); a replicated value entering such a loop enters as its own
    block. Blocks flow into private functions (DML's) and back out. Each op
    without regions that has partitioned results records them in
    `amls.row_partitioned`, and their row counts become `?`.

    An independent `amls.parfor` whose body reads no block runs each
    rank's share of the iterations (`amls.local_iterations`) and merges
    its results over the ranks (`amls.merge_ranks`): SystemDS's remote
    parfor. One whose body communicates runs every iteration on every rank,
    on one worker.

    `explain` prints one line per op that reads a block: its distributed
    form and the collective it ends in.
  }];
  let dependentDialects = ["::mlir::amls::AMLSDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
  let options = [
    Option<"minCells", "min-cells", "int64_t", "100000",
           "the cells from which a read matrix is row-partitioned">,
    Option<"explain", "explain", "bool", "false",
           "print each op's distributed form on stderr">,
  ];
}

def AMLSParfor : Pass<"amls-parfor"> {
  let summary = "parfor dependency analysis and parallel plan (seed 001)";
  let description = [{
    Proves that the iterations of each `amls.parfor` are independent: a
    shared (result) matrix may only be written by left indexing at
    positions that differ between iterations, and read only inside the
    part its iteration writes (include/AMLS/Analysis/ParforDependences.h:
    windows of an affine stride in the loop variable, symbolic strides such
    as `R[(i-1)*B+1 : i*B, ]`, and a GCD test for single cells). A loop that
    fails is an error naming the matrix and the two accesses (DML
    positions), unless it is `unchecked` (`check=0`). A proven loop gets
    `independent` and a plan: `workers` (the parfor's `par`, at most
    `threads`, at most the iterations, fewer when the body's matrices times
    the workers exceed `memory-limit`, and 1 when the whole loop is too
    small to pay for starting threads), the task `partitioner` (factoring
    unless the script chose one) and `inner_threads` for the data-parallel
    ops inside: 1 with several workers (their parallel loops run
    sequentially and BLAS on the calling thread), all threads with one. `opt=NONE`
    (`fixed_plan`) keeps the script's options as they are. `explain` prints
    each plan on stderr.
  }];
  let options = [
    Option<"threads", "threads", "unsigned", "1",
           "Threads of the process (the most workers a plan gets)">,
    Option<"memoryLimit", "memory-limit", "uint64_t", "0",
           "Memory budget in bytes shared by the workers (0: none)">,
    Option<"explain", "explain", "bool", "false",
           "Print the dependency analysis and plan of each parfor on stderr">,
  ];
}

def AMLSFuse : Pass<"amls-fuse"> {
  let summary = "Cost-based operator fusion into amls.fused (SystemML's "
                "codegen optimizer)";
  let description = [{
    Fuses chains of element-wise operations, with an aggregate
    (`sum`, `sumsq`, `min`, `max` over all cells, rows or columns) closing
    them, into `amls.fused` operators that lower to one loop nest each and
    never materialize the intermediates (seed 000; docs/fusion.md).

    Per block, element-wise ops and aggregates whose sizes are known form
    the planner's dataflow graph. Candidate exploration records which
    inputs each op can fuse (the memo table); plan partitions are the
    connected components of these fusion references; every reference out of
    an op with several consumers is an interesting point, decided between
    fusing (the consumer recomputes the op) and materializing. The default
    mode enumerates each partition's decisions exactly, pruned with lower
    and upper cost bounds (greedily above `max-exact-points`), under the
    analytical cost model T_write + max(T_read, T_compute) per fused
    operator; `fuse-all` and `fuse-no-redundancy` are the seed's heuristic
    baselines. Full aggregates of a partition that read common inputs
    share one pass (`magg`). Chains that keep a CSR matrix's pattern
    (after `--amls-select-formats`) fuse into cell and magg operators over
    its stored values, costed by non-zeros (docs/sparse.md). `explain` prints the memo table, partitions,
    interesting points, every plan costed and the chosen operators on
    stderr (`--amls-fuse-explain` is the same).

    With `explain`, the last line counts the matrix values computed per
    iteration of innermost loops after fusion (casts aside): the seed's
    measure of materialized intermediates (L2SVM's line search: 0). The
    statistic `inner-loop-matrices` holds the same count where LLVM was
    built with statistics.

    The Row and Outer templates are not explored yet: matrix products and
    row-wise operations stay unfused.
  }];
  let options = [
    Option<"fuseAll", "fuse-all", "bool", "false",
           "Fuse every reference (heuristic baseline)">,
    Option<"fuseNoRedundancy", "fuse-no-redundancy", "bool", "false",
           "Materialize every op with several consumers (heuristic "
           "baseline)">,
    Option<"explain", "explain", "bool", "false",
           "Print the memo table, partitions, plans and costs on stderr">,
    Option<"maxExactPoints", "max-exact-points", "unsigned", "20",
           "Enumerate partitions with at most this many interesting points "
           "exactly, larger ones greedily">,
    Option<"maxPlans", "max-plans", "uint64_t", "65536",
           "Cost at most this many plans per partition exactly, then "
           "continue greedily from the best (bounds compile time)">,
    Option<"memoryBandwidth", "memory-bandwidth", "double", "10e9",
           "Cost model: memory bandwidth in bytes/s">,
    Option<"cacheBandwidth", "cache-bandwidth", "double", "50e9",
           "Cost model: cache bandwidth in bytes/s, for intermediates that "
           "fit in the cache">,
    Option<"cacheBytes", "cache-bytes", "double", "1048576",
           "Cost model: cache size in bytes">,
    Option<"peakFlops", "peak-flops", "double", "20e9",
           "Cost model: floating-point operations per second">,
    Option<"scalarFlops", "scalar-flops", "double", "2e9",
           "Cost model: floating-point operations per second of scalar code "
           "(the Outer template's dot products)">
  ];
  let statistics = [
    Statistic<"numFused", "fused-operators", "Fused operators created">,
    Statistic<"numFusedOps", "fused-ops", "Ops computed inside fused operators">,
    Statistic<"numInnerLoopMatrices", "inner-loop-matrices",
              "Matrix results materialized per iteration of innermost loops "
              "after fusion (seed 000's count of intermediates)">
  ];
  let dependentDialects = ["::mlir::amls::AMLSDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // AMLS_TRANSFORMS_PASSES_TD
