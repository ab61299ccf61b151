//===- AMLSDialect.td - AMLS dialect definition ------------*- tablegen -*-===//
//
// The AMLS dialect: linear-algebra ML programs over matrices whose sizes and
// sparsity are inferred by the compiler.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_DIALECT_AMLSDIALECT_TD
#define AMLS_DIALECT_AMLSDIALECT_TD

include "mlir/IR/OpBase.td"

def AMLS_Dialect : Dialect {
  let name = "amls";
  let cppNamespace = "::mlir::amls";
  let summary = "Linear-algebra ML programs with inferred sizes and sparsity";
  let description = [{
    The `amls` dialect represents DML-style linear-algebra programs. Its
    central type is `!amls.matrix<RxCxT[, sparsity = s][, format = f]>`, a 2-D
    matrix whose sizes may be unknown (`?`), whose estimated fraction of
    non-zeros may be recorded, and whose physical format (dense or CSR) is
    chosen late by the optimizer. Scalars are builtin types (`f64`, `f32`,
    `i64`, `i1`, `index`) and are computed with `arith` and `math`.

    Operations follow DML semantics (SystemDS): element-wise operations
    broadcast scalars and row/column vectors, aggregates reduce over all cells,
    rows or columns, and indices in the IR are 0-based and half-open.
  }];
  // ub.poison stands for a matrix not assigned on every path (DML scoping).
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::ub::UBDialect"];
  let useDefaultTypePrinterParser = 0;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // The attributes that passes and the session read from each other's IR
  // are named here and checked by the dialect's verifiers (AMLSDialect.cpp).
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  // The matrix type is parsed and printed by hand (builtin `4x?xf64` style),
  // so that operations print it with its `!amls.` prefix.
  let extraClassDeclaration = [{
    /// A parameter's or result's name for binding (StringAttr; the DML
    /// import sets it, the session and the bindings read it).
    static constexpr ::llvm::StringLiteral getNameAttrName() {
      return "amls.name";
    }
    /// A result that is a DML boolean returned as an i64 0 or 1 (UnitAttr).
    static constexpr ::llvm::StringLiteral getBooleanAttrName() {
      return "amls.boolean";
    }
    /// The cells by which a matrix parameter starts past a 64-byte boundary
    /// (non-negative i64; the session sets it, the lowering of full
    /// aggregates reads it).
    static constexpr ::llvm::StringLiteral getLineOffsetAttrName() {
      return "amls.line_offset";
    }
    /// The `arith.addf` accumulating an aggregate's sum (UnitAttr; the
    /// lowering sets it, --amls-compensate-sums reads it).
    static constexpr ::llvm::StringLiteral getCompensateAttrName() {
      return "amls.compensate";
    }
    /// A planned parfor's `scf.for` (ParforPlanAttr).
    static constexpr ::llvm::StringLiteral getParforPlanAttrName() {
      return "amls.parfor_plan";
    }
    /// The `scf.for` over the row blocks of a row-template operator, inside
    /// --convert-amls-to-linalg (UnitAttr, or one AggKind per result).
    static constexpr ::llvm::StringLiteral getRowBlockLoopAttrName() {
      return "amls.row_block_loop";
    }
    /// The results of an op that are blocks of rows of a matrix split over
    /// the ranks of a distributed run (DenseI64ArrayAttr of result numbers;
    /// --amls-distribute sets it; a read with it reads this rank's rows).
    /// On a function's matrix parameter (UnitAttr), the caller passes each
    /// rank's block (a session's row blocks); --amls-distribute reads it.
    static constexpr ::llvm::StringLiteral getRowPartitionedAttrName() {
      return "amls.row_partitioned";
    }
    /// The MNC sketch of the data a matrix parameter receives
    /// (MNCSketchAttr; the session sets it, --amls-infer-properties reads
    /// it).
    static constexpr ::llvm::StringLiteral getMNCSketchAttrName() {
      return "amls.mnc";
    }
    /// On a dense matrix parameter (UnitAttr), the data the session
    /// specialized to looks compressible (compressed::looksCompressible):
    /// --amls-select-compression{only-compressible} may compress it.
    static constexpr ::llvm::StringLiteral getCompressibleAttrName() {
      return "amls.compressible";
    }
    /// The operands of an op without results that are this rank's blocks
    /// of rows, which the op takes as they are (DenseI64ArrayAttr of operand
    /// numbers; --amls-distribute sets it on a write, which the ranks then
    /// write in turn).
    static constexpr ::llvm::StringLiteral getRowPartitionedOperandsAttrName() {
      return "amls.row_partitioned_operands";
    }
    /// Whether getRowPartitionedOperandsAttrName names operand #`operand`
    /// of `op`.
    static bool isRowPartitionedOperand(::mlir::Operation *op,
                                        unsigned operand);
    /// How each result of a public function crosses the boundary
    /// (ResultKindArrayAttr; --convert-amls-to-linalg sets it,
    /// --amls-wrap-entry and the session read it).
    static constexpr ::llvm::StringLiteral getResultKindsAttrName() {
      return "amls.result_kinds";
    }

    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    void printType(::mlir::Type type,
                   ::mlir::DialectAsmPrinter &printer) const override;

  private:
    void registerTypes();
    void registerAttributes();
  }];
}

class AMLS_Op<string mnemonic, list<Trait> traits = []>
    : Op<AMLS_Dialect, mnemonic, traits>;

#endif // AMLS_DIALECT_AMLSDIALECT_TD
