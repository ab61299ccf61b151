//===- ImportDML.h - DML scripts to AMLS IR ---------------------*- C++ -*-===//

#ifndef AMLS_FRONTEND_DML_IMPORTDML_H
#define AMLS_FRONTEND_DML_IMPORTDML_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir::amls::dml {

/// The DML library AMLS ships (share/amls/builtins beside the bin/ or lib/
/// of the tool or library holding the frontend), if it is there.
std::vector<std::string> getDefaultBuiltinDirs();

struct ImportOptions {
  /// Values of the script's command-line arguments (`$name`, `$1`), as
  /// given on the command line (`--arg name=value`). Numbers become
  /// numbers, TRUE/FALSE booleans, anything else a string.
  llvm::StringMap<std::string> arguments;
  /// Name of the function holding the script's top-level statements.
  std::string entryName = "main";
  /// Directories of the DML function library, searched in order: a call
  /// of a function `f` that the script does not define and AMLS has no
  /// builtin for loads `f.dml` from the first that has it, which must
  /// define `m_f` (SystemDS's convention for its DML-bodied builtins).
  std::vector<std::string> builtinDirs = getDefaultBuiltinDirs();

  /// For a host that calls the script as a function (the C API, Python):
  /// the script's inputs, in order, become the entry's parameters (named
  /// by `amls.name`). An input is read as a variable the script does not
  /// assign first, or as `$name` where `arguments` does not bind it.
  struct Input {
    enum class Kind { Matrix, Double, Integer, Boolean };
    std::string name;
    Kind kind;
  };
  std::vector<Input> inputs;
  /// Which variables the entry returns, by name, in order, each result
  /// named by `amls.name` (a boolean is returned as an i64 0 or 1 and
  /// marked `amls.boolean`). Unless `returnAssigned`, only `outputs`;
  /// with it, every variable the top level assigns (in name order) that
  /// holds a matrix, number or boolean at the end.
  std::vector<std::string> outputs;
  bool returnAssigned = false;
};

/// Parses the script in the main buffer of `sourceMgr` and builds a module:
/// one `func.func` per DML function plus the entry function. Reports every
/// error through the context's diagnostic engine (file:line:col) and
/// returns null if there was any.
OwningOpRef<ModuleOp> importDML(llvm::SourceMgr &sourceMgr,
                                MLIRContext *context,
                                const ImportOptions &options = {});

struct Script;

/// A DML library function's parameters and results as its definition
/// declares them.
struct LibraryFunctionSignature {
  struct Slot {
    std::string name;
    /// TypeSpec::Kind (AST.h): Matrix, Double, Integer, Boolean, String,
    /// List.
    int kind;
    bool hasDefault;
  };
  std::vector<Slot> parameters, results;
  std::string path;
};

/// The signature of library function `name` (m_NAME in NAME.dml, the first
/// of `builtinDirs` that has the file); nothing if no folder has it, or
/// with `problem` set if the file does not read, parse or define m_NAME.
std::optional<LibraryFunctionSignature>
findLibraryFunction(llvm::StringRef name,
                    llvm::ArrayRef<std::string> builtinDirs,
                    std::string &problem);

/// Imports a script built without DML text (the C API's expression graphs,
/// the Python package's lazy matrices) as importDML imports a parsed one.
/// Its positions point into buffers of `sourceMgr` other than the main one
/// (a Python file), named by their identifiers; the main buffer's name is
/// the position of what has none.
OwningOpRef<ModuleOp> importDMLScript(Script &script,
                                      llvm::SourceMgr &sourceMgr,
                                      MLIRContext *context,
                                      const ImportOptions &options = {});

} // namespace mlir::amls::dml

#endif // AMLS_FRONTEND_DML_IMPORTDML_H
