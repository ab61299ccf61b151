//===- AMLSInterfaces.td - AMLS interfaces and traits ------*- tablegen -*-===//

#ifndef AMLS_DIALECT_AMLSINTERFACES_TD
#define AMLS_DIALECT_AMLSINTERFACES_TD

include "mlir/IR/OpBase.td"

def AMLS_InferMatrixPropertiesInterface
    : OpInterface<"InferMatrixPropertiesInterface"> {
  let cppNamespace = "::mlir::amls";
  let description = [{
    Computes the types of an operation's results (matrix sizes, element type
    and estimated sparsity, or the scalar type) from the types of its operands
    and from those operands whose value is a known constant.

    The same rule serves two clients: the verifier, which checks that the
    declared result types are compatible with what the operands imply (and
    reports mismatched operand shapes), and `--amls-infer-properties`, which
    replaces declared types by the more precise inferred ones.
  }];
  let methods = [
    InterfaceMethod<[{
        Appends one inferred type per result to `inferredTypes`. Unknown
        sizes are `ShapedType::kDynamic` and unknown sparsity is absent.
        Returns failure (after reporting through `context`) when the operand
        types or constants are inconsistent, e.g. mismatched inner dimensions.
      }],
      "::llvm::LogicalResult", "inferMatrixProperties",
      (ins "const ::mlir::amls::MatrixInferenceContext &":$context,
           "::llvm::SmallVectorImpl<::mlir::Type> &":$inferredTypes)>
  ];
  let verify = [{
    return ::mlir::amls::detail::verifyInferredMatrixProperties($_op);
  }];
}

// f(0, ...) = 0 on the main (first) input: zeros of the main input stay zero,
// so the operation can iterate over the non-zeros of a sparse input only.
def AMLS_SparseSafe : NativeOpTrait<"SparseSafe"> {
  let cppNamespace = "::mlir::amls";
}

#endif // AMLS_DIALECT_AMLSINTERFACES_TD
