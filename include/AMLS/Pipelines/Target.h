//===- Target.h - What AMLS compiles for ------------------------*- C++ -*-===//
//
// A target is an object registered under its name (the --target spelling):
// what it checks of the compile options, the LoweringSchedule that shapes
// --convert-amls-to-linalg's reductions and fused operators, the pipeline
// from linalg on tensors to the LLVM dialect, and whether its programs run
// on a device. Tools, the session and the bindings ask the registry; none
// compares target names (docs/design-notes.md, "Targets"). A new target is
// a folder under lib/Pipelines/Targets (and its Codegen and Runtime
// folders) and a line in Target.cpp's list of built-in targets.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_PIPELINES_TARGET_H
#define AMLS_PIPELINES_TARGET_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace mlir {
class OpPassManager;
namespace amls {

struct CompileOptions;
class LoweringSchedule;

class Target {
public:
  virtual ~Target();

  /// The --target spelling.
  virtual StringRef getName() const = 0;
  /// One line for --help.
  virtual StringRef getDescription() const = 0;
  /// What is wrong with the compile options this target reads (a GPU
  /// chip, a kernel format), or an empty string.
  virtual std::string checkOptions(const CompileOptions &options) const {
    return "";
  }
  /// The answers to the lowering's shape decisions for this machine.
  virtual const LoweringSchedule &getLoweringSchedule() const = 0;
  /// Linalg on tensors (after --convert-amls-to-linalg) to the LLVM
  /// dialect: bufferization, the target's loops and libraries, LLVM.
  virtual void buildLoweringPipeline(OpPassManager &pm,
                                     const CompileOptions &options) const = 0;
  /// Whether programs run (in part) on a device: the session prepares it
  /// (its driver, the chip to compile for) and copies the caller's inputs
  /// into memory the device reaches.
  virtual bool runsOnDevice() const { return false; }
  /// The device runtime the session prepares for this target's programs
  /// (TargetExecution, AMLS/ExecutionEngine/TargetExecution.h): "cuda", or
  /// empty when they run on the host alone.
  virtual StringRef getDeviceRuntime() const { return ""; }

  /// Whether programs run on every rank of an MPI job, their large
  /// matrices split by rows over the ranks (the compile plans the split
  /// with --amls-distribute).
  virtual bool partitionsRows() const { return false; }

  /// Registers the named pipelines that belong to this target alone (the
  /// GPU's amls-lower-to-nvvm), once, when the target is registered.
  virtual void registerPipelines() const {}
};

/// The target registered as `name`, or null. The built-in targets (CPU,
/// GPU) are registered on first use.
const Target *lookupTarget(StringRef name);
/// The first registered target whose programs run on `runtime`
/// (getDeviceRuntime), or null: amls-translate --amls-to-ptx compiles for
/// the "cuda" one.
const Target *lookupTargetForDeviceRuntime(StringRef runtime);

/// The target of a compile or session that names none; the one place the
/// tools, the session, the C API and the Python package take it from.
constexpr StringLiteral kDefaultTargetName = "cpu";
/// Adds a target (and its lowering schedule, under its name).
void registerTarget(std::unique_ptr<Target> target);
/// "'cpu' or 'gpu'": the registered names, for messages and --help.
std::string listTargetNames();

/// Registers the built-in targets and their schedules now (lookups do it on
/// first use; a tool that runs --convert-amls-to-linalg{schedule=NAME}
/// directly calls this, as registerAMLSPipelines does).
void registerBuiltinTargets();

/// The built-in targets (lib/Pipelines/Targets/{CPU,GPU}).
std::unique_ptr<Target> createCPUTarget();
std::unique_ptr<Target> createGPUTarget();
std::unique_ptr<Target> createMPITarget();

} // namespace amls
} // namespace mlir

#endif // AMLS_PIPELINES_TARGET_H
