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
  let hasConstantMaterializer = 1;
  // The matrix type is parsed and printed by hand (builtin `4x?xf64` style),
  // so that operations print it with its `!amls.` prefix.
  let extraClassDeclaration = [{
    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    void printType(::mlir::Type type,
                   ::mlir::DialectAsmPrinter &printer) const override;

  private:
    void registerTypes();
  }];
}

class AMLS_Op<string mnemonic, list<Trait> traits = []>
    : Op<AMLS_Dialect, mnemonic, traits>;

#endif // AMLS_DIALECT_AMLSDIALECT_TD
