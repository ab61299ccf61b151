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

def AMLS_RowLocalityInterface : OpInterface<"RowLocalityInterface"> {
  let cppNamespace = "::mlir::amls";
  let description = [{
    How an operation behaves when some of its operands are *blocks of rows*:
    the same range of rows of matrices with one row per row of a main input.
    An operation is row-local when, given blocks of rows of its row operands
    and the other operands whole (side inputs, broadcast row vectors,
    scalars), it computes exactly the corresponding block of rows of its
    result, or a partial result over the block that a sum, min or max
    combines over the blocks.

    This is the one definition of row-locality. The Row template's planner
    (`--amls-fuse`) asks it which ops may join a candidate, the verifier of
    `amls.fused row` asks it whether the body is row-local, and a parfor
    dependence analysis can ask it which ops keep a row partition. Callers
    go through `mlir::amls::getRowLocality(op, operandKinds)`, which applies
    the rules common to all ops (a partial result is only yielded; an op
    reading side inputs only computes the same for every block) and asks
    the op's model for the rest; an op without the interface is not
    row-local. The models (products, aggregates, slices, transposes, sizes,
    and every `ElementwiseOpInterface` op) are external models in
    `lib/Dialect/AMLSRowLocality.cpp`.
  }];
  let methods = [
    InterfaceMethod<[{
        What the op computes when its operands are of the given kinds (one
        per operand; at least one is `Rows` or `TransposedRows`, none is
        `Partial`, and `NumRows` only at operands for which `isRowEnd`
        holds): the kind of its results, a partial result with the kind
        that combines it over the blocks, or not row-local with the reason.
      }],
      "::mlir::amls::RowLocality", "getRowLocality",
      (ins "::llvm::ArrayRef<::mlir::amls::RowValueKind>":$operandKinds)>,
    InterfaceMethod<[{
        Whether operand #`operandIndex` is the end of the range of rows the
        op reads, where the number of rows of a block means all rows of the
        block (a slice's row end). Every other operand reading the number
        of rows of a block, which differs between blocks, is not
        row-local.
      }],
      "bool", "isRowEnd", (ins "unsigned":$operandIndex), [{}],
      /*defaultImplementation=*/[{ return false; }]>
  ];
}

def AMLS_CSRKernelInterface : OpInterface<"CSRKernelInterface"> {
  let cppNamespace = "::mlir::amls";
  let description = [{
    Which combinations of storage formats an operation has a kernel for:
    which of its matrix operands may be CSR (the others dense) and which
    of its matrix results may be produced as CSR. Dense operands and dense
    results everywhere always have a kernel and are never asked about.

    This is the one definition of what the CSR lowering covers.
    `--amls-select-formats` asks it where a value may stay CSR (and inserts
    `amls.convert` where it may not), and `--convert-amls-to-linalg`
    rejects, with an error naming the op, any op whose formats it does not
    accept. Callers go through `mlir::amls::hasCSRKernel(op, csrOperands,
    csrResults)`, which answers the all-dense case and ops without the
    interface. The models are external models in
    `lib/Dialect/AMLSCSRKernels.cpp`.
  }];
  let methods = [
    InterfaceMethod<[{
        Whether the op has a kernel when the operands marked in
        `csrOperands` (one flag per operand; only matrix operands are ever
        marked) are CSR and the results marked in `csrResults` are produced
        as CSR, every other matrix dense. At least one flag is set.
      }],
      "bool", "hasCSRKernel",
      (ins "::llvm::ArrayRef<bool>":$csrOperands,
           "::llvm::ArrayRef<bool>":$csrResults)>
  ];
}

def AMLS_CompressedKernelInterface : OpInterface<"CompressedKernelInterface"> {
  let cppNamespace = "::mlir::amls";
  let description = [{
    Whether an operation has a kernel for the compressed matrices among its
    operands and results (docs/compression.md): the ops that make, free and
    decompress the handle (`amls.compress`, `amls.release`,
    `amls.decompress`), the transpose the products read it through, the
    products the compressed kernels compute, `sum` and `mean` of all cells,
    rows or columns, `nrow` and `ncol`, and element-wise ops of one
    compressed matrix and scalars (a compressed result of rewritten
    dictionaries). This is the one definition of what the compressed lowering
    covers: `--convert-amls-to-linalg` rejects, with an error naming the
    op, any other op on a compressed matrix. Callers go through
    `mlir::amls::hasCompressedKernel(op)`, which answers ops without a
    compressed operand or result and ops without the interface (no
    kernel). The models are external models in
    `lib/Dialect/AMLSCompressedKernels.cpp`.
  }];
  let methods = [
    InterfaceMethod<[{
        Whether the op has a kernel for the formats its operands and
        results have (at least one of them compressed).
      }],
      "bool", "hasCompressedKernel", (ins)>
  ];
}

def AMLS_MNCSketchInterface : OpInterface<"MNCSketchInterface"> {
  let cppNamespace = "::mlir::amls";
  let description = [{
    How an operation's result sketch (MNC: the non-zeros of every row and
    column, lib/CostModel/MNCSketch.h) follows from its operands' sketches:
    exactly for reorganisations, by the MNC paper's estimators for products
    and element-wise operations. `--amls-infer-properties` propagates the
    sketches of parameters (`amls.mnc`) through the program with it and
    takes a result's sparsity from its sketch. The models are external
    models in `lib/Dialect/AMLSSketches.cpp`.
  }];
  let methods = [
    InterfaceMethod<[{
        The sketch of the op's (single, matrix) result, or null where it
        does not follow. `operandSketches` has one entry per operand, null
        for a scalar or a matrix without a sketch; `constantOperands` one
        per operand, null where not a known constant.
      }],
      "::mlir::amls::MNCSketchRef", "propagateSketch",
      (ins "::llvm::ArrayRef<::mlir::amls::MNCSketchRef>":$operandSketches,
           "::llvm::ArrayRef<::mlir::Attribute>":$constantOperands)>
  ];
}

// f(0, ...) = 0 on the main (first) input: zeros of the main input stay zero,
// so the operation can iterate over the non-zeros of a sparse input only.
def AMLS_SparseSafe : NativeOpTrait<"SparseSafe"> {
  let cppNamespace = "::mlir::amls";
}

#endif // AMLS_DIALECT_AMLSINTERFACES_TD
