//===- CUDAExecution.cpp - Running programs on a CUDA device --------------===//
//
// The session's half of the GPU target: loads the CUDA driver, opens
// device 0 and backs the runtime's buffer pool with managed memory, which
// both the host code and the kernels reach (so the caller's inputs, host
// memory, are copied into the pool). Without cuda.h at configure time the
// target reports that it cannot run.
//
//===----------------------------------------------------------------------===//

#include "AMLS/ExecutionEngine/Session.h"
#include "AMLS/ExecutionEngine/TargetExecution.h"
#ifdef AMLS_HAVE_CUDA_RUNTIME
#include "AMLS/Runtime/CUDA.h"
#endif

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace mlir;
using namespace mlir::amls;

namespace {

class CUDAExecution : public TargetExecution {
public:
  StringRef getDeviceRuntime() const override { return "cuda"; }

  std::string prepare(SessionOptions &options) const override {
#ifdef AMLS_HAVE_CUDA_RUNTIME
    std::string problem = ::amls::runtime::cuda::initialize();
    if (!problem.empty())
      return "--target=" + options.target + ": " + problem;
    static std::once_flag managed;
    std::call_once(managed, [] { ::amls::runtime::cuda::useManagedMemory(); });
    if (options.gpuChip.empty()) {
      ::amls::runtime::cuda::DeviceInfo device =
          ::amls::runtime::cuda::getDeviceInfo();
      options.gpuChip = ::amls::runtime::cuda::chipName(device.computeMajor,
                                                        device.computeMinor);
    }
    return "";
#else
    return "--target=" + options.target +
           ": this AMLS was built without the CUDA runtime (cuda.h was not "
           "found when it was configured)";
#endif
  }

  void printStatistics(llvm::raw_ostream &os,
                       const SessionOptions &options) const override {
#ifdef AMLS_HAVE_CUDA_RUNTIME
    namespace cuda = ::amls::runtime::cuda;
    cuda::DeviceInfo device = cuda::getDeviceInfo();
    cuda::Statistics gpu = cuda::getStatistics();
    os << llvm::formatv(
        "amls-run gpu: {0} ({1}, {2} multiprocessors), kernels compiled "
        "for {3}: {4} module load(s), {5} kernel launch(es), {6} managed "
        "block(s) ({7} bytes), {8} explicit copies ({9} bytes), dense "
        "products: {10} on cuBLAS ({11} through syrk), {12} on the CPU, "
        "CSR products and conversions: {13} on cuSPARSE, {14} on the CPU, "
        "migrations: {15} to the device ({16} bytes), {17} to the host "
        "({18} bytes), {19} bytes of library scratch held\n",
        device.name, cuda::chipName(device.computeMajor, device.computeMinor),
        device.multiprocessors, options.gpuChip, gpu.modulesLoaded,
        gpu.kernelLaunches, gpu.managedBlocks, gpu.managedBytes,
        gpu.explicitCopies, gpu.explicitCopyBytes, gpu.cublasProducts,
        gpu.cublasSymmetricProducts, gpu.cpuProducts, gpu.cusparseCalls,
        gpu.cpuSparseCalls, gpu.migrationsToDevice, gpu.migrationBytesToDevice,
        gpu.migrationsToHost, gpu.migrationBytesToHost, gpu.scratchBytes);
#endif
  }
};

} // namespace

std::unique_ptr<TargetExecution> mlir::amls::createCUDATargetExecution() {
  return std::make_unique<CUDAExecution>();
}
