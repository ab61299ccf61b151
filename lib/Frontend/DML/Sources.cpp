//===- Sources.cpp - source("file.dml") as ns, and ns::f(...) -------------===//
//
// `source(path) as ns` makes the functions of another script callable as
// `ns::f(...)`, as in SystemDS: the path is relative to the working
// directory (which `setwd(dir)` before it changes), else to `scripts/` in
// it (SystemDS's fallback for its own tree), and AMLS also looks beside
// the script that sources it. Only the sourced script's functions
// are imported; its other top-level statements do not run. A script
// sourced several times (by several scripts, or under several namespaces)
// is read once.
//
// The functions of a sourced script get the qualified name `P::f`, P being
// the first namespace it was sourced under (made unique), and every call
// in a script is rewritten to the qualified name it means: `ns::f` through
// that script's own namespaces, an unqualified call of one of its own
// functions to its qualified name. Calls then resolve by name alone, like
// the main script's, and diagnostics show the name the user wrote.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "AMLS/Frontend/DML/Parser.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <dlfcn.h>

using namespace mlir;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;
using llvm::SMLoc;

namespace {

/// Sourced scripts nest at most this deep (a cycle is read once; this
/// stops a chain of distinct files only).
constexpr unsigned kMaxSourceDepth = 64;

/// The file `path` names, relative to `workingDir` (SystemDS's rule), else
/// to `scriptDir` (the working directory as it would be there: a relative
/// setwd() resolves against it too); empty if none exists.
std::string findSourced(llvm::StringRef path, llvm::StringRef workingDir,
                        llvm::StringRef scriptDir) {
  if (llvm::sys::path::is_absolute(path))
    return llvm::sys::fs::is_regular_file(path) ? path.str() : std::string();
  llvm::SmallVector<llvm::SmallString<256>, 4> bases;
  bases.emplace_back(workingDir);
  // SystemDS's own fallback, for scripts run from its source tree.
  bases.emplace_back("scripts");
  if (!llvm::sys::path::is_absolute(workingDir)) {
    bases.emplace_back(scriptDir);
    llvm::sys::path::append(bases.back(), workingDir);
  }
  bases.emplace_back(scriptDir);
  for (const llvm::SmallString<256> &base : bases) {
    llvm::SmallString<256> candidate(base);
    llvm::sys::path::append(candidate, path);
    if (llvm::sys::fs::is_regular_file(candidate))
      return std::string(candidate);
  }
  return {};
}

} // namespace

bool Importer::resolveSources(Script &script, const SourceScope &scope,
                              unsigned depth) {
  bool ok = true;
  llvm::StringMap<std::string> namespaces; // ns -> prefix of its script
  llvm::StringMap<std::string> namespacePaths;
  llvm::StringSet<> failed; // namespaces whose script had errors
  std::string workingDir = ".";
  for (const StmtPtr &stmt : script.statements) {
    // setwd("dir") changes where the sources after it are looked for.
    if (auto *expr = llvm::dyn_cast<ExprStmt>(stmt.get())) {
      auto *call = llvm::dyn_cast<CallExpr>(expr->expr.get());
      if (call && call->callee == "setwd" && call->args.size() == 1)
        if (auto *dir = llvm::dyn_cast<StringExpr>(call->args[0].value.get()))
          workingDir = dir->value;
      continue;
    }
    auto *source = llvm::dyn_cast<SourceStmt>(stmt.get());
    if (!source)
      continue;
    std::string found = findSourced(source->path, workingDir, scope.directory);
    if (found.empty()) {
      failed.insert(source->name);
      error(source->getLoc())
          << "cannot find the sourced script '" << source->path
          << "' (looked in the working directory '" << workingDir
          << "' and in '" << scope.directory << "')";
      ok = false;
      continue;
    }
    llvm::SmallString<256> real;
    if (llvm::sys::fs::real_path(found, real))
      real = found;
    auto bound = namespacePaths.find(source->name);
    if (bound != namespacePaths.end()) {
      if (bound->second != real) {
        error(source->nameLoc)
            << "namespace '" << source->name << "' is already bound to '"
            << bound->second << "'";
        ok = false;
      }
      continue;
    }
    SourcedScript *sourced = loadSourced(source->getLoc(), source->path,
                                         source->name, real, depth);
    if (!sourced) {
      failed.insert(source->name);
      ok = false;
      continue;
    }
    namespaces[source->name] = sourced->prefix;
    namespacePaths[source->name] = std::string(real);
  }

  // Qualify this script's own functions (the main script's keep their
  // names) and the calls it makes.
  llvm::StringSet<> own;
  for (const StmtPtr &stmt : script.statements)
    if (auto *function = llvm::dyn_cast<FunctionStmt>(stmt.get())) {
      own.insert(function->name);
      if (!scope.prefix.empty())
        function->name = scope.prefix + "::" + function->name;
    }
  std::vector<const CallExpr *> calls;
  // The main script's top-level statements run: their calls count (the
  // walk does not enter function definitions).
  if (scope.prefix.empty())
    collectCalls(script.statements, calls);
  for (const StmtPtr &stmt : script.statements)
    if (auto *function = llvm::dyn_cast<FunctionStmt>(stmt.get())) {
      collectCalls(function->body, calls);
      for (const Parameter &p : function->parameters)
        collectCalls(p.defaultValue.get(), calls);
    }
  for (const CallExpr *constCall : calls) {
    // The syntax tree is the importer's own; the callee is rewritten once.
    auto *call = const_cast<CallExpr *>(constCall);
    llvm::StringRef callee = call->callee;
    auto [ns, name] = callee.split("::");
    if (name.empty()) {
      if (own.contains(callee)) {
        if (!scope.prefix.empty())
          call->callee = scope.prefix + "::" + call->callee;
      } else if (!isBuiltin(callee)) {
        // A function of the DML library (SystemDS's DML-bodied builtins).
        std::string qualified =
            loadLibraryFunction(callee, call->getLoc(), depth);
        if (!qualified.empty())
          call->callee = qualified;
      }
      continue;
    }
    auto target = namespaces.find(ns);
    if (failed.contains(ns))
      continue; // reported where the script was read
    if (target == namespaces.end()) {
      error(call->getLoc())
          << "unknown namespace '" << ns << "' in '" << callee
          << "': expected source(\"file.dml\") as " << ns << " before it";
      ok = false;
      continue;
    }
    const SourcedScript &sourced = *sourcedByPrefix.lookup(target->second);
    if (!sourced.functions.contains(name)) {
      error(call->getLoc()) << "'" << name << "' is not a function of '"
                            << sourced.path << "' (sourced as '" << ns << "')";
      ok = false;
      continue;
    }
    call->callee = target->second + "::" + name.str();
  }
  return ok;
}

Importer::SourcedScript *
Importer::loadSourced(SMLoc where, llvm::StringRef shownPath,
                      llvm::StringRef namespaceName, llvm::StringRef realPath,
                      unsigned depth) {
  if (auto it = sourcedByPath.find(realPath); it != sourcedByPath.end())
    return it->second;
  if (depth >= kMaxSourceDepth) {
    error(where) << "sourced scripts nest more than " << kMaxSourceDepth
                 << " deep";
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getFile(realPath);
  if (!buffer) {
    error(where) << "cannot read the sourced script '" << shownPath
                 << "': " << buffer.getError().message();
    return nullptr;
  }
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(*buffer), where);
  bool parsed = true;
  std::optional<Script> script =
      parseScript(sourceMgr.getMemoryBuffer(id)->getBuffer(),
                  [&](SMLoc where, const llvm::Twine &message) {
                    parsed = false;
                    error(where) << message.str();
                  });
  if (!script || !parsed)
    return nullptr;

  auto owned = std::make_unique<SourcedScript>();
  SourcedScript *sourced = owned.get();
  sourced->path = shownPath.str();
  sourced->script = std::make_unique<Script>(std::move(*script));
  // The first namespace it is sourced under names its functions.
  std::string prefix = namespaceName.str();
  for (unsigned n = 2; sourcedByPrefix.count(prefix); ++n)
    prefix = namespaceName.str() + "#" + std::to_string(n);
  sourced->prefix = prefix;
  for (const StmtPtr &stmt : sourced->script->statements)
    if (auto *function = llvm::dyn_cast<FunctionStmt>(stmt.get()))
      sourced->functions.insert(function->name);
  sourcedByPath[realPath] = sourced;
  sourcedByPrefix[prefix] = sourced;
  sourcedScripts.push_back(std::move(owned));

  SourceScope scope;
  scope.prefix = prefix;
  scope.directory = llvm::sys::path::parent_path(realPath).str();
  if (!resolveSources(*sourced->script, scope, depth + 1))
    return nullptr;
  return sourced;
}

std::vector<const Script *> Importer::scriptsInOrder(const Script &main) const {
  std::vector<const Script *> scripts{&main};
  for (const std::unique_ptr<SourcedScript> &sourced : sourcedScripts)
    scripts.push_back(sourced->script.get());
  return scripts;
}

std::string Importer::loadLibraryFunction(llvm::StringRef name, SMLoc where,
                                          unsigned depth) {
  if (auto it = libraryFunctions.find(name); it != libraryFunctions.end())
    return it->second;
  libraryFunctions[name] = ""; // a library script calling itself
  for (const std::string &directory : options.builtinDirs) {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, name + ".dml");
    if (!llvm::sys::fs::is_regular_file(path))
      continue;
    llvm::SmallString<256> real;
    if (llvm::sys::fs::real_path(path, real))
      real = path;
    SourcedScript *library =
        loadSourced(where, path, name, real, depth + 1);
    if (!library)
      return "";
    std::string function = "m_" + name.str();
    if (!library->functions.contains(function)) {
      error(where) << "the library script '" << path
                   << "' defines no function '" << function << "'";
      return "";
    }
    std::string qualified = library->prefix + "::" + function;
    libraryFunctions[name] = qualified;
    return qualified;
  }
  return "";
}

/// The file that holds this code: a tool in bin/ (amls-run links the
/// frontend statically) or libAMLSCAPI.so in lib/, which the C API and the
/// Python package load. The main executable is /usr/bin/python3 from
/// Python, so it cannot stand for the install. For the main executable
/// dladdr may name argv[0], relative to a directory since left: only an
/// absolute path counts, else /proc/self/exe does.
static std::string fileHoldingFrontend() {
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&mlir::amls::dml::getDefaultBuiltinDirs),
             &info) &&
      info.dli_fname && llvm::sys::path::is_absolute(info.dli_fname)) {
    llvm::SmallString<256> path;
    if (!llvm::sys::fs::real_path(info.dli_fname, path))
      return std::string(path);
  }
  static int anchor;
  return llvm::sys::fs::getMainExecutable("amls",
                                          static_cast<void *>(&anchor));
}

std::vector<std::string> mlir::amls::dml::getDefaultBuiltinDirs() {
  // bin/ and lib/ sit beside share/amls/builtins, in the build tree and
  // where `make install` puts them alike.
  std::string file = fileHoldingFrontend();
  if (file.empty())
    return {};
  llvm::SmallString<256> directory(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(file)));
  llvm::sys::path::append(directory, "share", "amls", "builtins");
  if (!llvm::sys::fs::is_directory(directory))
    return {};
  return {std::string(directory)};
}
