//===- GPUTarget.cpp - An NVIDIA GPU: CUDA kernels, cuBLAS ----------------===//
//
// The parallel loops a kernel can run become CUDA kernels (NVVM, serialized
// by gpu-module-to-binary), large products go to cuBLAS, the rest runs on
// the CPU; the GPU's lowering schedule (lib/Codegen/GPU). Programs run on
// device 0, so the session prepares it and copies inputs to it.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/GPU/GPUSchedule.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Pipelines/Target.h"

#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::amls;

namespace {

class GPUTarget : public Target {
public:
  StringRef getName() const override { return "gpu"; }
  StringRef getDescription() const override {
    return "an NVIDIA GPU: parallel loops as CUDA kernels on device 0, the "
           "rest on the CPU";
  }
  std::string checkOptions(const CompileOptions &options) const override {
    return checkNVVMOptions(options.gpuChip, options.gpuFormat,
                            /*optLevel=*/3);
  }
  const LoweringSchedule &getLoweringSchedule() const override {
    return getGPULoweringSchedule();
  }
  void buildLoweringPipeline(OpPassManager &pm,
                             const CompileOptions &options) const override {
    LowerToNVVMOptions lowering;
    lowering.threads = options.threads;
    lowering.blas = options.blas;
    lowering.chip = options.gpuChip;
    lowering.features = options.gpuFeatures;
    lowering.format = options.gpuFormat;
    lowering.minWork = options.gpuMinWork;
    buildLinalgToNVVMPipeline(pm, lowering);
  }
  bool runsOnDevice() const override { return true; }
  StringRef getDeviceRuntime() const override { return "cuda"; }
  void registerPipelines() const override {
    registerPassPipeline(
        "amls-lower-to-nvvm",
        "Lower an AMLS program for an NVIDIA GPU: as --amls-lower-to-llvm, "
        "but the parallel loops a kernel can run become CUDA kernels "
        "(--amls-map-parallel-loops-to-gpu, outlining, NVVM, serialized by "
        "gpu-module-to-binary); the rest runs on the CPU",
        [name = getName()](
            OpPassManager &pm, StringRef text,
            function_ref<LogicalResult(const Twine &)> errorHandler) {
          LowerToNVVMOptions options;
          if (failed(options.parseFromString(text)))
            return failure();
          std::string problem =
              checkNVVMOptions(options.chip, options.format, options.optLevel);
          if (!problem.empty())
            return errorHandler("amls-lower-to-nvvm: " + problem);
          buildToLinalgPipeline(pm, /*compensatedSums=*/true, name);
          buildLinalgToNVVMPipeline(pm, options);
          return success();
        },
        [](function_ref<void(const mlir::detail::PassOptions &)> handler) {
          handler(LowerToNVVMOptions());
        });
  }
};

} // namespace

std::unique_ptr<Target> mlir::amls::createGPUTarget() {
  return std::make_unique<GPUTarget>();
}
