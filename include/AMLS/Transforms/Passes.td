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
                          "worst case: an upper bound on the non-zeros"))}]>
  ];
  let dependentDialects = ["::mlir::amls::AMLSDialect"];
}

#endif // AMLS_TRANSFORMS_PASSES_TD
