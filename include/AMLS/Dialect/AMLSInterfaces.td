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

def AMLS_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let cppNamespace = "::mlir::amls";
  let description = [{
    An operation that computes every result cell from the cells at the same
    position of its matrix operands (after broadcasting) and its scalar
    operands. The cell computation is available as IR, so that lowerings and
    fusion can build loop bodies without knowing the op.
  }];
  let methods = [
    InterfaceMethod<[{
        Builds the computation of one result cell. `cells` has one value per
        operand, in operand order: the cell of a matrix operand, or the
        scalar operand itself, all of the element type (or `i1`/any scalar
        for conditions). Returns a value of the result element type.
      }],
      "::mlir::Value", "buildCellComputation",
      (ins "::mlir::OpBuilder &":$builder, "::mlir::Location":$loc,
           "::mlir::ValueRange":$cells)>,
    InterfaceMethod<[{
        Whether the cell computation can be built for matrices of
        `elementType` (some functions exist only on floating point).
      }],
      "bool", "supportsElementType", (ins "::mlir::Type":$elementType), [{}],
      /*defaultImplementation=*/[{ return true; }]>
  ];
}

// f(0, ...) = 0 on the main (first) input: zeros of the main input stay zero,
// so the operation can iterate over the non-zeros of a sparse input only.
def AMLS_SparseSafe : NativeOpTrait<"SparseSafe"> {
  let cppNamespace = "::mlir::amls";
}

#endif // AMLS_DIALECT_AMLSINTERFACES_TD
