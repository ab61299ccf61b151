//===- Diagnostics.cpp - Diagnostics in DML terms -------------------------===//

#include "AMLS/Frontend/DML/Diagnostics.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace mlir;
using namespace mlir::amls::dml;

llvm::StringRef mlir::amls::dml::dmlConstructOf(llvm::StringRef opName) {
  llvm::StringRef mnemonic = opName;
  mnemonic.consume_front("amls.");
  return llvm::StringSwitch<llvm::StringRef>(mnemonic)
      .Case("add", "+")
      .Case("sub", "-")
      .Case("mul", "*")
      .Case("div", "/")
      .Case("pow", "^")
      .Case("mod", "%%")
      .Case("intdiv", "%/%")
      .Case("lt", "<")
      .Case("le", "<=")
      .Case("gt", ">")
      .Case("ge", ">=")
      .Case("eq", "==")
      .Case("ne", "!=")
      .Case("and", "&")
      .Case("or", "|")
      .Case("neg", "unary -")
      .Case("not", "!")
      .Case("isnan", "isNaN")
      .Cases({"matmul", "tsmm", "mmchain"}, "%*%")
      .Case("agg", "aggregate")
      .Case("cumagg", "cumulative aggregate")
      .Case("transpose", "t")
      .Case("reshape", "matrix(X, rows, cols)")
      .Case("fill", "matrix(v, rows, cols)")
      .Case("constant", "matrix literal")
      .Case("slice", "indexing")
      .Case("insert_slice", "left indexing")
      .Case("remove_empty", "removeEmpty")
      .Case("as_scalar", "as.scalar")
      .Case("as_matrix", "as.matrix")
      .Cases({"read_scalar", "write_scalar"}, "scalar file")
      .Case("printf", "print")
      .Case("fused", "fused operator")
      .Case("pool", "max_pool/avg_pool")
      .Case("pool_backward", "max_pool_backward/avg_pool_backward")
      .Default(mnemonic);
}

std::string mlir::amls::dml::toDMLMessage(llvm::StringRef message) {
  // Operation::emitOpError writes "'<name>' op " first.
  if (!message.starts_with("'amls."))
    return message.str();
  size_t close = message.find("' op ");
  if (close == llvm::StringRef::npos)
    return message.str();
  llvm::StringRef construct = dmlConstructOf(message.slice(1, close));
  // Operators are quoted ("'%*%': ..."), named constructs are not.
  std::string shown = std::isalpha(static_cast<unsigned char>(construct[0]))
                          ? construct.str()
                          : "'" + construct.str() + "'";
  return shown + ": " + message.drop_front(close + 5).str();
}

DMLDiagnosticHandler::DMLDiagnosticHandler(llvm::SourceMgr &sourceMgr,
                                           MLIRContext *context)
    : DMLDiagnosticHandler(sourceMgr, context, llvm::errs()) {}

DMLDiagnosticHandler::DMLDiagnosticHandler(llvm::SourceMgr &sourceMgr,
                                           MLIRContext *context,
                                           llvm::raw_ostream &os)
    : SourceMgrDiagnosticHandler(sourceMgr, context, os) {
  context->printOpOnDiagnostic(false);
  setHandler([this](Diagnostic &diag) {
    Diagnostic rewritten(diag.getLocation(), diag.getSeverity());
    rewritten << toDMLMessage(diag.str());
    for (Diagnostic &note : diag.getNotes()) {
      std::string text = note.str();
      if (llvm::StringRef(text).starts_with("see current operation"))
        continue;
      rewritten.attachNote(note.getLocation()) << toDMLMessage(text);
    }
    emitDiagnostic(rewritten);
  });
}
