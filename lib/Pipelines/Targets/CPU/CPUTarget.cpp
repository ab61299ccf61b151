//===- CPUTarget.cpp - The host CPU: OpenMP, BLAS, LLVM -------------------===//
//
// Parallel loops through OpenMP (threads > 1), large dense products through
// BLAS, the CPU's lowering schedule (lib/Codegen/CPU).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/CPU/CPUSchedule.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Pipelines/Target.h"

using namespace mlir;
using namespace mlir::amls;

namespace {

class CPUTarget : public Target {
public:
  StringRef getName() const override { return "cpu"; }
  StringRef getDescription() const override {
    return "the host's cores (OpenMP, BLAS)";
  }
  const LoweringSchedule &getLoweringSchedule() const override {
    return getCPULoweringSchedule();
  }
  void buildLoweringPipeline(OpPassManager &pm,
                             const CompileOptions &options) const override {
    buildHostLoweringPipeline(pm, options);
  }
};

} // namespace

std::unique_ptr<Target> mlir::amls::createCPUTarget() {
  return std::make_unique<CPUTarget>();
}
