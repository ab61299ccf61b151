//===- MPITarget.cpp - Every rank of an MPI job ---------------------------===//
//
// SPMD over the ranks of an MPI job (mpirun): --amls-distribute splits the
// large matrices by rows and makes each op's collective explicit; each
// rank then runs the CPU target's code on its blocks, and the collectives
// go through libamls_runtime's MPI backend (lib/Runtime/Distributed).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/CPU/CPUSchedule.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Pipelines/Target.h"

using namespace mlir;
using namespace mlir::amls;

namespace {

class MPITarget : public Target {
public:
  StringRef getName() const override { return "mpi"; }
  StringRef getDescription() const override {
    return "every rank of an MPI job (mpirun): large matrices split by rows, "
           "the host's cores on each rank";
  }
  const LoweringSchedule &getLoweringSchedule() const override {
    return getCPULoweringSchedule();
  }
  void buildLoweringPipeline(OpPassManager &pm,
                             const CompileOptions &options) const override {
    buildHostLoweringPipeline(pm, options);
  }
  StringRef getDeviceRuntime() const override { return "mpi"; }
  bool partitionsRows() const override { return true; }
};

} // namespace

std::unique_ptr<Target> mlir::amls::createMPITarget() {
  return std::make_unique<MPITarget>();
}
