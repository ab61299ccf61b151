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

    Sizes that are `?` are read at run time with `tensor.dim`. Where two
    unknown sizes must agree (element-wise operands, products, slices within
    bounds), a run-time check (`amls_rt_check`) reports a violation with the
    op's location and exits with status 1.
    Broadcasting a row or column vector needs the vector's size 1 to be known
    statically; `--amls-infer-properties` (or amls-run's specialization to
    the inputs) provides it.
  }];
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
    "::mlir::tensor::TensorDialect"
  ];
}

def AMLSUseBlas : Pass<"amls-use-blas", "ModuleOp"> {
  let summary = "Run large dense products through BLAS";
  let description = [{
    After bufferization, replaces `linalg.matmul` on `f64` or `f32` memrefs
    (plain or with transposed operand maps) by a call to the runtime's
    `amls_rt_gemm_f64` / `amls_rt_gemm_f32` (OpenBLAS gemv for
    matrix-vector shapes, gemm otherwise, with the right kernel for the
    CPU; transposed operands are passed as transposed views). With `mode=auto`, products of at least `min-flops`
    multiply-adds call BLAS and smaller ones keep the generated loops; the
    decision is made at compile time for static sizes and at run time
    otherwise. `mode=always` and `mode=never` force one side.
  }];
  let options = [
    Option<"mode", "mode", "std::string", "\"auto\"",
           "When to call BLAS: auto, always or never">,
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

def AMLSSequentialSmallLoops : Pass<"amls-sequential-small-loops"> {
  let summary = "Run small parallel loops sequentially";
  let description = [{
    Replaces every outermost `scf.parallel` whose iteration count is a
    constant below `min-iterations`, and every `scf.parallel` nested in
    another one (the outer loop already uses the threads; nested OpenMP
    regions would start once per outer iteration), by nested `scf.for`
    loops. The count is
    the product of the loop's trip counts and those of the loops nested in
    it (the largest among siblings), so a column reduction over a tall
    matrix counts all of its cells. Loops with a count unknown at compile
    time stay parallel. amls-run's pipeline runs it with threads > 1,
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

#endif // AMLS_CONVERSION_PASSES_TD
