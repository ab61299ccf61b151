//===- LibrarySignature.cpp - What a DML library function takes ----------===//
//
// The parameters and results of m_NAME in NAME.dml, read with the parser the
// importer uses: hosts that call library functions by name (the Python
// package's lazy API) learn how many results a call has and of which kinds
// from the library itself.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Frontend/DML/ImportDML.h"

#include "AMLS/Frontend/DML/AST.h"
#include "AMLS/Frontend/DML/Parser.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

using namespace mlir::amls::dml;

static LibraryFunctionSignature::Slot slotOf(const Parameter &parameter) {
  return {parameter.name, static_cast<int>(parameter.type.kind),
          static_cast<bool>(parameter.defaultValue)};
}

std::optional<LibraryFunctionSignature>
mlir::amls::dml::findLibraryFunction(llvm::StringRef name,
                                     llvm::ArrayRef<std::string> builtinDirs,
                                     std::string &problem) {
  for (const std::string &directory : builtinDirs) {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, name + ".dml");
    if (!llvm::sys::fs::is_regular_file(path))
      continue;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      problem = "cannot read '" + path.str().str() +
                "': " + buffer.getError().message();
      return std::nullopt;
    }
    std::optional<Script> script = parseScript(
        (*buffer)->getBuffer(), [](llvm::SMLoc, const llvm::Twine &) {});
    if (!script) {
      problem = "the library script '" + path.str().str() +
                "' does not parse";
      return std::nullopt;
    }
    std::string function = "m_" + name.str();
    for (const StmtPtr &stmt : script->statements) {
      auto *definition = llvm::dyn_cast<FunctionStmt>(stmt.get());
      if (!definition || definition->name != function)
        continue;
      LibraryFunctionSignature signature;
      signature.path = path.str().str();
      for (const Parameter &parameter : definition->parameters)
        signature.parameters.push_back(slotOf(parameter));
      for (const Parameter &result : definition->results)
        signature.results.push_back(slotOf(result));
      return signature;
    }
    problem = "the library script '" + path.str().str() +
              "' defines no function '" + function + "'";
    return std::nullopt;
  }
  return std::nullopt;
}
