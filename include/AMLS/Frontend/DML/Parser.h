//===- Parser.h - DML recursive-descent parser ------------------*- C++ -*-===//

#ifndef AMLS_FRONTEND_DML_PARSER_H
#define AMLS_FRONTEND_DML_PARSER_H

#include "AMLS/Frontend/DML/AST.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

namespace mlir::amls::dml {

/// Receives each syntax error at the offending token's location.
using ErrorReporter =
    llvm::function_ref<void(llvm::SMLoc, const llvm::Twine &)>;

/// Parses a whole script. Reports every syntax error it can recover from
/// (it resynchronizes at the next statement) and returns the script only
/// if there were none.
std::optional<Script> parseScript(llvm::StringRef buffer,
                                  ErrorReporter reportError);

} // namespace mlir::amls::dml

#endif // AMLS_FRONTEND_DML_PARSER_H
