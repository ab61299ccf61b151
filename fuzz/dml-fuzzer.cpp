//===- dml-fuzzer.cpp - libFuzzer target for the DML frontend -------------===//
//
// Feeds arbitrary bytes to the DML lexer, parser and IR importer. Any crash,
// sanitizer report or hang is a bug: bad input must end in diagnostics.
// Built by the sanitizer build (fuzz/CMakeLists.txt) from the frontend's
// library; `make fuzz-dml` runs it.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Frontend/DML/ImportDML.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static mlir::MLIRContext *context = [] {
    auto *ctx = new mlir::MLIRContext(mlir::MLIRContext::Threading::DISABLED);
    // Diagnostics are expected; drop them.
    ctx->getDiagEngine().registerHandler(
        [](mlir::Diagnostic &) { return mlir::success(); });
    return ctx;
  }();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.dml"),
      llvm::SMLoc());
  mlir::amls::dml::ImportOptions options;
  options.arguments["X"] = "X.csv";
  options.arguments["n"] = "10";
  (void)mlir::amls::dml::importDML(sourceMgr, context, options);
  return 0;
}
