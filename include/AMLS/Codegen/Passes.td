//===- Passes.td - AMLS code generation passes -------------*- tablegen -*-===//
//
// Passes that run on the lowered program (linalg, memref, scf): element-wise
// results in place before bufferization, the CPU's BLAS calls and loop
// schedules.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_CODEGEN_PASSES_TD
#define AMLS_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def AMLSCompensateSums : Pass<"amls-compensate-sums"> {
  let summary = "Sum floating-point reductions with Kahan's compensation";
  let description = [{
    SystemDS sums with Kahan's compensated summation (its `KahanPlus`) in
    `sum`, `mean`, `sumSq`, `rowSums`/`colSums`, the moments and its fused
    operators; a plain sum of four million cells differs from SystemDS's
    and R's results by more than their tests' tolerance (1e-10). On tensors,
    after `--convert-amls-to-linalg`, every floating-point accumulation
    `acc + x` that the lowering marks as the sum of an aggregate (the
    `amls.compensate` attribute of the `arith.addf`) and that is the whole
    update of a `linalg.generic` output or an `scf.for` iteration argument
    gets a second accumulator, the running correction `c`, initialised to
    0, and the update becomes SystemDS's step:
    `y = x + c; s' = s + y; c' = y - (s' - s)`, with `c' = 0` once `s'` is
    infinite (as SystemDS: `inf - inf` would make the correction, and then
    the sum, NaN). The new operations carry no
    fast-math flags, so LLVM keeps their order; the lowering's blocked and
    lane-split reductions keep the innermost loop element-wise, so the
    compensated loops still vectorize. Each stage of a split reduction
    (the partial sums and their merge) is compensated, so the result is
    within a few rounding errors of the exact sum, independent of its
    length. Matrix products and other additions are left alone, as
    SystemDS leaves them. With `plain`, the marked sums stay plain and
    reassociable instead (LLVM may keep several partial sums), as before
    this pass existed: `amls-run --sums=plain` measures what the
    compensation costs.
  }];
  let options = [
    Option<"plain", "plain", "bool", "false",
           "Leave the sums uncompensated (and reassociable)">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def AMLSGuardAliasedBuffers : Pass<"amls-guard-aliased-buffers"> {
  let summary = "Keep one-shot bufferization from writing into a buffer that is also read directly";
  let description = [{
    Before one-shot bufferization, drops `writable` from a
    `bufferization.to_tensor` whose buffer (or a view of it) has a user
    that may run after it. The lowering wraps each buffer a runtime call
    filled as `to_tensor restrict writable` and hands matrices to runtime
    calls through `to_buffer`; the canonicalizer folds
    `to_buffer(to_tensor(%m))` to `%m`, and the call then reads `%m`
    behind the analysis's back. Without this pass,
    `Y = X; Y[2:3, 1] = Z; write(X, ...)` over a matrix X read from a file
    updated X's buffer in place and wrote the updated cells as X. A buffer
    read only through its tensor keeps `writable` and its in-place updates.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def AMLSFuseElementwise : Pass<"amls-fuse-elementwise"> {
  let summary = "Fuse element-wise linalg ops and fold reshapes, sparing products";
  let description = [{
    Upstream's `linalg-fuse-elementwise-ops` (the same patterns: producer
    into consumer fusion of element-wise `linalg.generic`s with a single
    use, reshapes folded into their producers and consumers by expansion,
    `tensor.expand_shape` bubbled up, constants folded), except that no
    reshape is folded into or out of a contraction (a `linalg.matmul` or a
    matmul-like generic). Upstream folds the `tensor.expand_shape` with
    which the lowering splits a reduction into parallel blocks of rows
    (`sum((X %*% v) * y)`) into the product that produces it; the product
    then is a generic loop nest instead of a `linalg.matmul`, and
    `--amls-use-blas` no longer calls BLAS for it. With the products
    spared, reductions over a product's result run as parallel blocks like
    every other reduction.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def AMLSElementwiseInPlace : Pass<"amls-elementwise-in-place"> {
  let summary = "Offer element-wise ops a buffer they may write their result to";
  let description = [{
    Before one-shot bufferization (on tensors, after element-wise fusion),
    gives every element-wise `linalg.generic` (parallel iterators only)
    whose result is initialised by a `tensor.empty` it never reads another
    init of the result's 2-D type: first an input read through the
    identity map by this op only (the loop-carried `X` of
    `X = X * 0.5 + Y`, not the loop-invariant `Y`), then the dead old value
    of the loop-carried variable the result updates (`Z = X + i` in a loop
    that reads the old `Z` nowhere), then any such input.
    Destination-passing style leaves the decision to the bufferization
    analysis: it writes the result into that buffer where nothing reads the
    old value afterwards (the op itself reads each cell before writing it,
    which the analysis knows of element-wise ops), and otherwise allocates
    a new buffer without a copy, since the op does not read its init,
    exactly as for the `tensor.empty`. In a loop the update then is
    equivalent to the iteration's argument, so `scf.for` and `scf.while`
    carry one buffer (an `scf.while` otherwise copies a carried matrix every
    iteration). Inputs that are function arguments are not offered: writing
    one in place would make the caller copy it before the call. CSR value
    arrays (1-D) are left alone.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def AMLSElideWhileCopies : Pass<"amls-elide-while-copies"> {
  let summary = "Forward an scf.while's carried buffers without a copy where safe";
  let description = [{
    After one-shot bufferization (before deallocation), removes the copy
    that bufferization puts in an `scf.while`'s "before" region for a
    loop-carried buffer whose update is not equivalent to the iteration's
    argument (`y = A %*% x` yields the product's new buffer), and forwards
    the argument itself, where no write can tell the difference: the
    forwarded buffer, the "after" region's argument and the loop's result
    are only read (through views, `scf.if` results and `arith.select`s;
    a runtime kernel reads the arrays of its CSR arguments), and every
    buffer that can arrive as the argument is the "after" argument again, a
    buffer allocated in the "after" region, or one allocated before the
    loop (or handed over by the runtime, such as a CSR array read from a
    file) that nothing writes inside the loop or after it. Other loops keep
    their copies.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def AMLSLowerShardCollectives
    : Pass<"amls-lower-shard-collectives", "ModuleOp"> {
  let summary = "Lower upstream shard collectives on tensors to the runtime's "
                "MPI calls";
  let description = [{
    `--convert-amls-to-linalg` lowers `amls.all_reduce` of a matrix to
    upstream `shard.all_reduce` on its tensor, over the one-axis grid
    `@amls_ranks` of the run's ranks. MLIR 22's own path
    (`--convert-shard-to-mpi`, the `mpi` dialect's LLVM lowering) creates
    a communicator per collective and never frees it, and mis-lowers Open
    MPI's handles (docs/design-notes.md, "Distributed runs"); this pass
    lowers each `shard.all_reduce` over `@amls_ranks` to a call of
    libamls_runtime's `amls_rt_dist_all_reduce` on a copy of its input,
    which reduces in place on the one communicator of the process, and
    erases the grid.
  }];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::arith::ArithDialect",
  ];
}

def AMLSUseBlas : Pass<"amls-use-blas", "ModuleOp"> {
  let summary = "Run large dense products through BLAS (and, for the GPU, "
                "CSR products through cuSPARSE)";
  let description = [{
    After bufferization, replaces `linalg.matmul` on `f64` or `f32` memrefs
    (plain or with transposed operand maps) by a call to the runtime's
    `amls_rt_gemm_f64` / `amls_rt_gemm_f32` (OpenBLAS gemv for
    matrix-vector shapes, gemm otherwise, with the right kernel for the
    CPU; transposed operands are passed as transposed views). With `mode=auto`, products of at least `min-flops`
    multiply-adds call BLAS and smaller ones keep the generated loops; the
    decision is made at compile time for static sizes and at run time
    otherwise. `mode=always` and `mode=never` force one side.

    `library=cublas` (the GPU pipeline) calls `amls_rt_gpu_gemm_f64` /
    `amls_rt_gpu_gemm_f32` of libamls_cuda_runtime instead, which run the
    product on cuBLAS (and on the CPU's BLAS where cuBLAS is missing or
    cannot take the operands). It also redirects the products of a CSR and
    a dense matrix (`amls_rt_csr_spmm`, `amls_rt_csr_spmm_t`,
    `amls_rt_dense_csr_mm`) and the conversions between CSR and dense
    (`amls_rt_csr_to_dense`, `amls_rt_csr_count_dense`,
    `amls_rt_csr_from_dense`), whatever their sizes and the mode, to their
    cuSPARSE versions (`amls_rt_gpu_...` of the same names), which take
    the same arguments (and run the CPU's CSR kernels where cuSPARSE is
    missing or cannot take the operands).
  }];
  let options = [
    Option<"mode", "mode", "std::string", "\"auto\"",
           "When to call BLAS: auto, always or never">,
    Option<"library", "library", "std::string", "\"openblas\"",
           "Which BLAS the calls go to: openblas (the CPU's, through "
           "libamls_runtime) or cublas (libamls_cuda_runtime)">,
    Option<"minFlops", "min-flops", "int64_t", "32768",
           "Smallest product (M*N*K) that calls BLAS in auto mode">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def AMLSCheckBufferSizes : Pass<"amls-check-buffer-sizes", "ModuleOp"> {
  let summary = "Check and announce every buffer before it is allocated";
  let description = [{
    Before each `memref.alloc` (after bufferization), calls the runtime's
    `amls_rt_check_buffer_size` with the sizes, the element bytes and the
    op's location. The runtime stops the program with that location when a
    size is negative, when the bytes overflow 64 bits (the lowering to LLVM
    multiplies them without a check, and a wrapped size would allocate a
    small buffer that the code then writes past), or when the buffer would
    exceed the memory budget (Memory.h), and `amls-run --stats` names the
    largest buffers by it. The description names the AMLS op whose
    lowering allocated the buffer and the format and shape of its result
    (`--convert-amls-to-linalg` puts them in the locations of what it
    lowers), a CSR array's role, and the source position: "a buffer of
    'amls.matmul' (dense 1000x1000 result) at f.dml:3:5". Buffers of rank
    above 3 are not announced.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def AMLSParforPrivateResults : Pass<"amls-parfor-private-results"> {
  let summary = "Give each parfor worker its own copy of a result to merge";
  let description = [{
    On tensors, before bufferization. A result of a planned parfor
    (`amls.parfor_plan`) whose `result_merge` entry is 1 (compare) or 2
    (nonzeros), i.e. a result of an unchecked loop (`check=0`) whose writes
    were not proven disjoint, becomes `workers` copies (k x rows x cols:
    copies of the value before the loop, or zeros). Each iteration works on
    the copy of the worker that runs it (`amls_rt_parfor_worker`) and
    writes it back in place; after the loop, each cell is taken from the
    last copy in which it differs from the value before the loop, bit for
    bit (compare), or is nonzero (nonzeros), else kept: SystemDS's result
    merge with and without compare, as one parallel loop over the cells.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def AMLSParforWorkers : Pass<"amls-parfor-workers", "ModuleOp"> {
  let summary = "Run planned parfor loops on worker threads";
  let description = [{
    After bufferization, an `scf.for` that the lowering marked with a
    parfor plan (`amls.parfor_plan`: workers, partitioner, task size, inner
    threads) becomes an OpenMP parallel region of `workers` threads, each
    taking tasks from the runtime's queue (`amls_rt_parfor_begin`/`next`/
    `task_first`/`task_end`/`end`, lib/Runtime/Parallel/Parfor.cpp) until
    none is left and running the task's iterations. The threads are the
    OpenMP runtime's, the same pool the data-parallel loops use; the
    parallel loops inside run sequentially on their worker
    (`amls-sequential-small-loops`), and BLAS runs on the calling
    thread while the workers run (`amls_rt_blas_serial`). Only loops whose
    shared matrices bufferization updates in place (no loop-carried
    buffers) run in parallel: their iterations write disjoint parts of one
    buffer each. A marked loop that still carries buffers stays
    sequential, with a warning.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::omp::OpenMPDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect"
  ];
}

def AMLSTrapParallelFailures
    : Pass<"amls-trap-parallel-failures", "ModuleOp"> {
  let summary = "Return failures inside parallel loops after the loop";
  let description = [{
    A run-time failure (a check, memory refused, a file, `stop()`) on a
    thread of an OpenMP region cannot leave the region by a jump: the team
    waits for every thread. Before the OpenMP conversion, every outermost
    `scf.parallel` whose body may fail (a call of a runtime function that
    can fail or of a function of the program, an allocation) runs each
    iteration under a trap of its own (`amls_rt_region_trap` and `_setjmp`;
    include/AMLS/Codegen/Common/FailureTraps.h): a failure keeps its message
    in the region's record and ends the iteration, the remaining
    iterations are skipped, the threads join as usual, and
    `amls_rt_region_close` after the loop raises the failure on the thread
    that started it, which ends the program or returns to an embedding
    host's trap. Loops that cannot fail (element-wise and reduction loops)
    are left alone. `--amls-parfor-workers` sets the same traps around a
    parfor's tasks.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::ub::UBDialect"
  ];
}

def AMLSSequentialSmallLoops : Pass<"amls-sequential-small-loops"> {
  let summary = "Run small parallel loops sequentially";
  let description = [{
    Replaces every outermost `scf.parallel` whose iteration count is a
    constant below `min-iterations`, every `scf.parallel` nested in
    another one (the outer loop already uses the threads; nested OpenMP
    regions would start once per outer iteration), and every `scf.parallel`
    inside an `omp.parallel` region (a parfor's workers), by nested
    `scf.for` loops. The count is
    the product of the loop's trip counts and those of the loops nested in
    it (the largest among siblings), so a column reduction over a tall
    matrix counts all of its cells. Loops with a count unknown at compile
    time stay parallel, except inside a sequential loop (`scf.for`,
    `scf.while`), where each iteration would start a region: there an
    `scf.if` on the count at run time picks the parallel loop or its
    sequential copy (a column reduction of a run-time width is a sequential
    loop over the rows around a parallel loop over the columns). amls-run's pipeline runs it with threads > 1,
    before the OpenMP conversion: an OpenMP parallel region costs
    microseconds to start, more than a loop over a few cells takes (a DML
    loop updating one cell per iteration ran 16x slower on two threads
    than on one without it).
  }];
  let options = [
    Option<"minIterations", "min-iterations", "int64_t", "16384",
           "Loops with fewer iterations (nested loops included) run "
           "sequentially">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def AMLSParallelDimsFirst : Pass<"amls-parallel-dims-first"> {
  let summary = "Put the parallel dimensions of linalg.generic ops first";
  let description = [{
    The GPU target's step before `--convert-linalg-to-parallel-loops`:
    every `linalg.generic` with a reduction dimension before a parallel
    one is interchanged so that all its parallel dimensions come first, in
    their order, then its reductions. A split reduction's iteration space
    (blocks, cells of a block, lanes) becomes (blocks, lanes, cells), and
    the parallel loop covers both blocks and lanes: each lane a thread, a
    warp's lanes reading consecutive cells, instead of a loop over the lanes
    in each thread. The results are the same; only the loop order changes.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def AMLSFoldReductionInits : Pass<"amls-fold-reduction-inits"> {
  let summary = "Accumulate reductions in registers, from their fill value";
  let description = [{
    The GPU target's step after `--convert-linalg-to-parallel-loops`: a
    reduction into a fresh buffer arrives as two `scf.parallel` loops over
    the same space, one storing the neutral value into every cell (the
    `linalg.fill` of the reduction's output) and one whose sequential
    `scf.for` loads its cell, updates it and stores it back in every
    iteration. The cell becomes an `iter_args` value of the `scf.for`,
    starting at the fill's value and stored once after it, and the filling
    loop is erased: on the GPU one kernel instead of two, and the
    accumulator in a register instead of a load and a store of global
    memory per iteration.

    It applies where the buffer comes from `memref.alloc`, the fill stores
    a value defined outside its loop at the cell of its induction
    variables, the next loop that uses the buffer has the same bounds and
    steps and touches it only in one load and one later store of that same
    cell, both directly in one `scf.for` directly in its body, and nothing
    between the two loops uses the buffer. The results are the same,
    including where the sequential loop runs no iteration (the fill's
    value is stored).
  }];
  let statistics = [
    Statistic<"numFolded", "folded", "Reductions that accumulate in a value">
  ];
  let dependentDialects = [
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def AMLSPrefetchGPUBuffers : Pass<"amls-prefetch-gpu-buffers", "ModuleOp"> {
  let summary = "Migrate buffers in bulk where their side changes";
  let description = [{
    The GPU target's step after `--convert-parallel-loops-to-gpu`. Every
    buffer is managed memory, which the driver migrates page by page,
    fault by fault, to the side that touches it. This pass follows each
    buffer (the allocation a view reads) through the program's structured
    control flow, knowing whether it is fresh (just allocated: nothing of
    the program's in it to move), on the host, on the device, unknown (a
    program input) or either (mixed), and inserts
    `amls_rt_gpu_prefetch(address, bytes, to_device)` (a bulk
    `cuMemPrefetchAsync`, counted by the runtime) before

    - a kernel (`gpu.launch`), cuBLAS or cuSPARSE call that touches a
      buffer that is not fresh and not known to be on the device: the
      program's inputs, what the host wrote;
    - a host operation (a load or store, a runtime kernel of the CPU, a
      loop kept on the CPU, the function's results) that touches a buffer
      that is or may be on the device: what a CPU-only operation needs,
      and the program's outputs.

    Loops are iterated to a fixpoint first: a matrix only kernels touch in
    CG's loop moves once, before it. A call of one of the program's
    functions may move its buffers (mixed after it). Buffers whose static
    size is at most 64 KiB stay on the host and are not migrated (the
    runtime skips such dynamic ones too). Migrations are hints: the
    results are the same without them, only the driver's faults move the
    pages then.
  }];
  let statistics = [
    Statistic<"numPrefetches", "prefetches", "Bulk migrations inserted">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def AMLSMapParallelLoopsToGPU : Pass<"amls-map-parallel-loops-to-gpu"> {
  let summary = "Tile the parallel loops a GPU can run and map them to it";
  let description = [{
    The GPU target's first step after bufferization and
    `--convert-linalg-to-parallel-loops`: every outermost `scf.parallel` of
    one to three dimensions whose body a kernel can run is tiled and marked
    with the `mapping` attribute that upstream's
    `--convert-parallel-loops-to-gpu` turns into a `gpu.launch`. The tiles
    are the thread blocks: `block-size` threads along the innermost
    dimension (consecutive threads touch consecutive cells of a row-major
    buffer, so their loads coalesce), and for two or more dimensions
    `block-rows` along the one before it; the outermost dimension is the
    grid's x (up to 2^31 - 1 blocks, where y and z allow 65535). Loops
    nested in a mapped loop run sequentially in each thread (the
    reductions of `rowSums` and the products' inner loops).

    A body qualifies when it only computes (arith, math, index, affine
    and scf operations), reads and writes memrefs, and touches no memref
    that lives in host-only memory (`memref.get_global` constants, through
    any view of them): buffers come from the runtime's pool, which the GPU
    target backs with managed memory. A loop that calls a function (the
    runtime's random numbers, its kernels), allocates, or carries
    reduction results stays on the CPU, where the rest of the pipeline
    lowers it as it does without a GPU.

    The cost rule: a loop a kernel could run stays on the CPU too when its
    work (its iterations times those of the longest loop nest inside it,
    all known at compile time) is below `min-work` and every buffer it
    touches is at most 64 KiB (cuda::kHostPreferredBytes: the runtime keeps
    such blocks in host memory, mapped for the device). Such a loop costs
    the CPU less than one synchronous launch costs the host (about 65 us
    per launch with its page faults, measured on an H200: docs/gpu.md),
    and its data is already on the host. A loop over a larger buffer stays a kernel however small
    its work: running it on the CPU would pull the buffer's pages from the
    device. `min-work=0` maps every loop a kernel can run.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", "128",
           "Threads of a block along the innermost loop dimension">,
    Option<"blockRows", "block-rows", "int64_t", "2",
           "Threads of a block along the dimension before it (loops of two "
           "or more dimensions)">,
    Option<"minWork", "min-work", "int64_t", "65536",
           "Loops over buffers of at most 64 KiB whose work (iterations of "
           "the loop nest) is below this run on the CPU; 0 maps every loop "
           "a kernel can run">
  ];
  let statistics = [
    Statistic<"numKernelLoops", "kernel-loops",
              "Parallel loops mapped to the GPU">,
    Statistic<"numHostLoops", "host-loops",
              "Outermost parallel loops kept on the CPU">,
    Statistic<"numSmallLoops", "small-loops",
              "Of those, loops a kernel could run kept on the CPU by the "
              "cost rule (min-work)">
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // AMLS_CODEGEN_PASSES_TD
