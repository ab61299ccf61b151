//===- Diagnostics.h - Diagnostics in DML terms -----------------*- C++ -*-===//
//
// Errors found after import (shape inference, the memory check) are
// reported by AMLS ops; for a DML script they should read as DML: the
// construct the user wrote, not the IR op, and no IR dump.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_FRONTEND_DML_DIAGNOSTICS_H
#define AMLS_FRONTEND_DML_DIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"

namespace mlir::amls::dml {

/// The DML construct an AMLS op implements, for messages ("%*%" for
/// amls.matmul, "left indexing" for amls.insert_slice); the op's mnemonic
/// where DML spells it the same.
llvm::StringRef dmlConstructOf(llvm::StringRef opName);

/// Rewrites "'amls.matmul' op inner dimensions differ" into
/// "%*%: inner dimensions differ"; other text is unchanged.
std::string toDMLMessage(llvm::StringRef message);

/// Prints diagnostics like SourceMgrDiagnosticHandler, in DML terms: an
/// op's name gives way to its DML construct (toDMLMessage) and the op is
/// not printed ("see current operation" is for .mlir input).
class DMLDiagnosticHandler : public SourceMgrDiagnosticHandler {
public:
  DMLDiagnosticHandler(llvm::SourceMgr &sourceMgr, MLIRContext *context);
  /// The same, printing to `os` (an embedding host's error message).
  DMLDiagnosticHandler(llvm::SourceMgr &sourceMgr, MLIRContext *context,
                       llvm::raw_ostream &os);
};

} // namespace mlir::amls::dml

#endif // AMLS_FRONTEND_DML_DIAGNOSTICS_H
