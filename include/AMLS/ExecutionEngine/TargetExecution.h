//===- TargetExecution.h - The session's half of a target -------*- C++ -*-===//
//
// A Target (AMLS/Pipelines/Target.h) is what the compiler knows of a
// machine; its TargetExecution is what the session does to run the
// target's programs: make the process ready for a device runtime (its
// driver, device and memory), complete the options from the device (the
// chip to compile for), say whether the caller's inputs can be read in
// place, and report the device's statistics. The compiler does not link
// this half (it needs the runtime); the session finds it by the target's
// device runtime, so a target on the host alone needs none.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_EXECUTIONENGINE_TARGETEXECUTION_H
#define AMLS_EXECUTIONENGINE_TARGETEXECUTION_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::amls {

struct SessionOptions;
class Target;

class TargetExecution {
public:
  virtual ~TargetExecution();

  /// The device runtime this prepares (Target::getDeviceRuntime).
  virtual StringRef getDeviceRuntime() const = 0;
  /// Makes the process ready to run programs on the device and completes
  /// `options` (the chip to compile for, when none is named). Returns why
  /// the target cannot run, or an empty string. Idempotent.
  virtual std::string prepare(SessionOptions &options) const = 0;
  /// Whether compiled code reads the caller's inputs where they are; if
  /// not, the session copies each into the runtime's pool, which the
  /// prepared device reaches.
  virtual bool readsInputsInPlace() const { return false; }
  /// Whether this process reports what the run did (amls-run's --stats and
  /// --timing): one process of those that run the program together.
  virtual bool isReportingProcess() const { return true; }
  /// Prints the device's statistics for `--stats` (amls-run); called in
  /// every process that runs the program, whether it reports or not.
  virtual void printStatistics(llvm::raw_ostream &os,
                               const SessionOptions &options) const {}
};

/// The execution half of `target`, or null when its programs run on the
/// host alone. The built-in ones (CUDA) are registered on first use.
const TargetExecution *getTargetExecution(const Target &target);
/// Adds the execution half of the targets whose device runtime it names.
void registerTargetExecution(std::unique_ptr<TargetExecution> execution);

/// The built-in device runtimes (lib/ExecutionEngine/Targets).
std::unique_ptr<TargetExecution> createCUDATargetExecution();
std::unique_ptr<TargetExecution> createMPITargetExecution();

} // namespace mlir::amls

#endif // AMLS_EXECUTIONENGINE_TARGETEXECUTION_H
