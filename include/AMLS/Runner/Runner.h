//===- Runner.h - Specialize, compile and run AMLS programs -----*- C++ -*-===//
//
// The JIT behind amls-run, usable by any frontend that embeds AMLS: it binds
// concrete inputs to a program's entry function, specializes the program to
// their exact sizes and sparsity (the seeds' dynamic recompilation), runs
// the optimizer and the CPU lowering, JIT-compiles with MLIR's
// ExecutionEngine, and runs it. Compiled code is cached per input signature:
// calling again with inputs of the same types reuses it.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNNER_RUNNER_H
#define AMLS_RUNNER_RUNNER_H

#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Runtime/MatrixIO.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <string>

namespace mlir {
class ExecutionEngine;
namespace amls {
namespace runtime = ::amls::runtime;

/// A value passed to or returned from a compiled program.
struct RuntimeValue {
  enum class Kind { Matrix, Float, Integer };
  Kind kind = Kind::Float;
  runtime::Matrix matrix;
  double number = 0.0;

  static RuntimeValue ofMatrix(runtime::Matrix matrix);
  static RuntimeValue ofFloat(double value);
  static RuntimeValue ofInteger(int64_t value);
};

struct RunnerOptions {
  std::string entry = "main";
  /// Worker threads of parallel loops and BLAS; 1 generates sequential code.
  unsigned threads = 2;
  /// When dense products call BLAS: auto, always, never.
  std::string blas = "auto";
  bool printIRAfterAll = false;
  bool passStatistics = false;
  /// The optimizer's rewrite families (parseOptimizeFamilies); `none` is
  /// --O0 (inference still specializes the sizes).
  std::string rewrites = "all";
  /// Operator fusion after the optimizer: cost (cost-based plans),
  /// fuse-all, fuse-no-redundancy or none.
  std::string fusion = "cost";
  /// Print the fusion plans (--amls-fuse's explain) on stderr.
  bool fusionExplain = false;
};

/// Milliseconds spent in each phase of the last run.
struct PhaseTimes {
  double optimize = 0, compile = 0, execute = 0;
  bool compiled = false; // false when the cache served the run
};

class ProgramRunner {
public:
  struct Parameter {
    std::string name;
    Type type;
  };

  /// Takes the program; reports a missing or unusable entry function as an
  /// error at the module and fails.
  static FailureOr<std::unique_ptr<ProgramRunner>>
  create(OwningOpRef<ModuleOp> module, RunnerOptions options);
  ~ProgramRunner();

  /// The entry's parameters. A parameter's name is its `amls.name`
  /// argument attribute, or `argN`.
  ArrayRef<Parameter> getParameters() const { return parameters; }
  /// Index of the parameter called `name` (or numbered `name`), if any.
  std::optional<unsigned> findParameter(StringRef name) const;

  /// Runs the entry on `args` (one per parameter), compiling a version
  /// specialized to their types unless one is cached. Problems (an argument
  /// that contradicts the declared type, a size error found by inference)
  /// are reported through the context's diagnostics.
  FailureOr<SmallVector<RuntimeValue>> run(ArrayRef<RuntimeValue> args);

  unsigned getNumCompilations() const { return numCompilations; }
  const PhaseTimes &getLastTimes() const { return lastTimes; }

private:
  ProgramRunner(OwningOpRef<ModuleOp> module, RunnerOptions options);

  /// The specialized, lowered and JIT-compiled program for `args`.
  FailureOr<ExecutionEngine *> compile(ArrayRef<RuntimeValue> args);

  OwningOpRef<ModuleOp> program;
  RunnerOptions options;
  SmallVector<Parameter> parameters;
  llvm::StringMap<std::unique_ptr<ExecutionEngine>> cache;
  unsigned numCompilations = 0;
  PhaseTimes lastTimes;
};

/// The dialects and LLVM IR translations a runner's context needs.
void registerRunnerDialects(DialectRegistry &registry);

} // namespace amls
} // namespace mlir

#endif // AMLS_RUNNER_RUNNER_H
