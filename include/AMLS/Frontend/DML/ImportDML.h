//===- ImportDML.h - DML scripts to AMLS IR ---------------------*- C++ -*-===//

#ifndef AMLS_FRONTEND_DML_IMPORTDML_H
#define AMLS_FRONTEND_DML_IMPORTDML_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::amls::dml {

struct ImportOptions {
  /// Values of the script's command-line arguments (`$name`, `$1`), as
  /// given on the command line (`--arg name=value`). Numbers become
  /// numbers, TRUE/FALSE booleans, anything else a string.
  llvm::StringMap<std::string> arguments;
  /// Name of the function holding the script's top-level statements.
  std::string entryName = "main";
};

/// Parses the script in the main buffer of `sourceMgr` and builds a module:
/// one `func.func` per DML function plus the entry function. Reports every
/// error through the context's diagnostic engine (file:line:col) and
/// returns null if there was any.
OwningOpRef<ModuleOp> importDML(llvm::SourceMgr &sourceMgr,
                                MLIRContext *context,
                                const ImportOptions &options = {});

} // namespace mlir::amls::dml

#endif // AMLS_FRONTEND_DML_IMPORTDML_H
