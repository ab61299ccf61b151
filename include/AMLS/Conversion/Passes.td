//===- Passes.td - AMLS conversion passes ------------------*- tablegen -*-===//

#ifndef AMLS_CONVERSION_PASSES_TD
#define AMLS_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertAMLSToLinalg : Pass<"convert-amls-to-linalg", "ModuleOp"> {
  let summary = "Lower dense AMLS matrices to linalg on tensors";
  let description = [{
    Converts `!amls.matrix<RxCxT>` to `tensor<RxCxT>` and every op on dense
    matrices to `linalg` (named ops where one fits: `linalg.matmul`,
    `linalg.transpose`, `linalg.fill`; `linalg.generic` otherwise) plus
    `tensor`, `arith`, `math` and `scf`. Element-wise ops get their loop body
    from `ElementwiseOpInterface`. Ops that need the runtime (file I/O,
    printing, random numbers, and the ops whose result size depends on the
    data: `remove_empty`, `table`, `order`) become calls into
    libamls_runtime (`amls_rt_*`). `amls.parfor` becomes an `scf.for`.
    `amls.fused` becomes one `linalg.generic` (cell, magg, outer: zero cells
    of the main input skipped) or, for the row template, an `scf.forall`
    over chunks of row blocks, bracketed by `amls_rt_blas_serial(1)` /
    `amls_rt_blas_serial(0)` so that BLAS calls in the chunks run on their
    own thread (docs/fusion.md).

    Each AMLS op's location gets a name before it is lowered: the op and
    the format and shape of its result (`'amls.matmul' (dense 1000x1000
    result)`), which everything it lowers to inherits, so that run-time
    messages and statistics about buffers name the op (docs/memory.md).

    Sizes that are `?` are read at run time with `tensor.dim`. Where two
    unknown sizes must agree (element-wise operands, products, slices within
    bounds), a run-time check (`amls_rt_check`) reports a violation with the
    op's location and exits with status 1.
    Broadcasting a row or column vector needs the vector's size 1 to be known
    statically; `--amls-infer-properties` (or amls-run's specialization to
    the inputs) provides it.

    The lowering is target-neutral; how reductions are split into blocks of
    rows and lanes and how row-template operators are blocked come from a
    `LoweringSchedule` registered by a target under its name
    (`schedule=cpu`: lib/Codegen/CPU; `schedule=gpu`: lib/Codegen/GPU;
    none: the default target's, the CPU's) or `schedule=generic` (no
    splits, one chunk). A full reduction whose cells no block and lane counts divide
    reduces the cells after the blocks (the tail) on its own. An entry
    parameter with an `amls.line_offset = N` attribute (its first cell N
    cells past a 64-byte boundary; the execution session sets it for the
    caller's arrays) makes the full reductions over it reduce the cells up
    to the next boundary (the head) on their own, so that the blocks'
    vector loads start on it; the attribute is dropped. With `entry=NAME`
    the function NAME gets `amls.result_kinds`, one `#amls.result_kind` per
    result, recorded before a CSR result becomes several values.
    Matrices with
    `format = csr` are rejected with an error naming the op: the dense
    lowering does not take them.
  }];
  let options = [
    Option<"schedule", "schedule", "std::string", "\"\"",
           "Whose answers to the lowering's shape decisions (reduction "
           "splits, row blocks) to use: a target's (cpu, gpu), generic "
           "(no splits), or empty for the default target's">,
    Option<"entry", "entry", "std::string", "\"\"",
           "Record on this function how each of its results is returned "
           "(amls.result_kinds: a dense or CSR matrix, a float, an "
           "integer), which --amls-wrap-entry reads; none when empty">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def AMLSWrapEntry : Pass<"amls-wrap-entry", "ModuleOp"> {
  let summary = "Adapt the entry function to the execution session's ABI";
  let description = [{
    Runs after `--convert-amls-to-linalg`. Adds `amls_main`, a public
    function with the C interface (`llvm.emit_c_interface`) that takes the
    arguments of the entry function `entry` (f64 matrices whatever the
    entry's element types: they are converted inside, and are read-only,
    since the session lends the caller's buffers), calls the entry and
    returns its results: matrices as `tensor<?x?xf64>`, floats as `f64`,
    integers and indices as `i64` (booleans as 0 or 1). The execution
    session (lib/ExecutionEngine) calls `amls_main` and takes the returned
    buffers over: ownership-based deallocation makes a public function's
    results owned by its caller, copying a result that aliases an argument.
    Entries with results other than matrices, floats and integers are
    rejected.
  }];
  let options = [
    Option<"entry", "entry", "std::string", "\"main\"",
           "The function to adapt">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // AMLS_CONVERSION_PASSES_TD
