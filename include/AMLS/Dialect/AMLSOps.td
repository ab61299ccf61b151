//===- AMLSOps.td - AMLS operations ------------------------*- tablegen -*-===//
//
// Operations of the AMLS dialect. Each follows the DML (SystemDS) semantics
// of the builtin named in its summary; indices are 0-based and half-open.
//
// This file holds the type constraints and base classes; the operations are
// defined by family in the files included at its end.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSOPS_TD
#define AMLS_DIALECT_AMLSOPS_TD

include "AMLS/Dialect/AMLSDialect.td"
include "AMLS/Dialect/AMLSAttrs.td"
include "AMLS/Dialect/AMLSTypes.td"
include "AMLS/Dialect/AMLSInterfaces.td"
include "mlir/Interfaces/CastInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// The C++ type is the matrix type, but it has no stand-alone parse/print
// methods, so operations print it with its `!amls.matrix` prefix.
def AMLS_Matrix : Type<CPred<"::llvm::isa<::mlir::amls::MatrixType>($_self)">,
                       "AMLS matrix", "::mlir::amls::MatrixType">;

def AMLS_Scalar : AnyTypeOf<[AnyFloat, AnySignlessInteger, Index], "scalar">;
def AMLS_MatrixOrScalar : AnyTypeOf<[AMLS_Matrix, AMLS_Scalar],
                                    "AMLS matrix or scalar">;
def AMLS_String : Type<CPred<"::llvm::isa<::mlir::amls::StringType>($_self)">,
                       "AMLS string", "::mlir::amls::StringType">,
                  BuildableType<
                      "::mlir::amls::StringType::get($_builder.getContext())">;
def AMLS_Frame : Type<CPred<"::llvm::isa<::mlir::amls::FrameType>($_self)">,
                      "AMLS frame", "::mlir::amls::FrameType">;
/// What a message (print, stop, a written scalar, a built string) shows.
def AMLS_Printable : AnyTypeOf<[AMLS_Matrix, AMLS_Scalar, AMLS_String],
                               "AMLS matrix, scalar or string">;

class AMLS_InferOp<string mnemonic, list<Trait> traits = []>
    : AMLS_Op<mnemonic, !listconcat(traits, [
        DeclareOpInterfaceMethods<AMLS_InferMatrixPropertiesInterface>])>;

//===----------------------------------------------------------------------===//
// Operations by family, in this order (the order of the generated op list)
//===----------------------------------------------------------------------===//

include "AMLS/Dialect/AMLSGenerationAndIOOps.td"
include "AMLS/Dialect/AMLSElementwiseOps.td"
include "AMLS/Dialect/AMLSProductAndAggregateOps.td"
include "AMLS/Dialect/AMLSReorganisationOps.td"
include "AMLS/Dialect/AMLSLinearAlgebraOps.td"
include "AMLS/Dialect/AMLSNeuralNetworkOps.td"
include "AMLS/Dialect/AMLSSizeAndCastOps.td"
include "AMLS/Dialect/AMLSStatisticsOps.td"
include "AMLS/Dialect/AMLSRegionOps.td"
include "AMLS/Dialect/AMLSFrameOps.td"
include "AMLS/Dialect/AMLSCollectiveOps.td"

#endif // AMLS_DIALECT_AMLSOPS_TD
