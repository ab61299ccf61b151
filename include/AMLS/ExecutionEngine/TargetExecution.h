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
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::amls {

struct SessionOptions;
class Target;

/// One process's block of rows of a matrix argument, and the whole
/// matrix's shape that combineRowBlocks fills in.
struct RowBlockShape {
  /// The parameter's name, for messages.
  std::string name;
  /// This process's block: its rows, columns and non-zeros (an estimate).
  int64_t rows = 0;
  int64_t cols = 0;
  double nonZeros = 0;
  /// CSR (else dense): every process's block must be stored alike.
  bool csr = false;
  /// False when this process rejected its arguments (its own message says
  /// why): the others then fail too, instead of waiting for it.
  bool accepted = true;
  /// The whole matrix: its rows and non-zeros over all the processes.
  int64_t wholeRows = 0;
  double wholeNonZeros = 0;
};

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
  /// This process's number among the processes that run each program
  /// together, and their count (a target of one process: 0 of 1).
  virtual std::pair<int64_t, int64_t> getProcessRank() const { return {0, 1}; }
  /// The first row and the row count of this process's block of a matrix
  /// of `rows` rows split by rows over those processes.
  virtual std::pair<int64_t, int64_t> getRowBlock(int64_t rows) const {
    return {0, rows};
  }
  /// Completes `blocks`, this process's row blocks of a run's arguments
  /// (RuntimeValue::isRowBlock), to the whole matrices' shapes, which every
  /// process computes alike. Returns why the blocks are not a split the
  /// compiled code takes (each process's block is its getRowBlock share of
  /// the rows, all of the same columns and format), the same on every
  /// process, or an
  /// empty string. A collective: every process calls it with as many
  /// blocks.
  virtual std::string combineRowBlocks(MutableArrayRef<RowBlockShape> blocks)
      const {
    return "the target runs a program in one process, which takes whole "
           "matrices";
  }
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
