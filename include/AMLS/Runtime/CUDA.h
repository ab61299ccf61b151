//===- CUDA.h - The GPU side of the runtime (libamls_cuda_runtime) -*- C++
//-*-===//
//
// libamls_cuda_runtime implements the mgpu* functions that MLIR's gpu-to-llvm
// lowering calls (module load, kernel launch, streams, events, memory) on
// the CUDA driver API, which it loads with dlopen: the library builds and
// loads on machines without a driver, and says why when a program needs a
// device that is not there. Only --target=gpu sessions load it.
//
// Buffers: for --target=gpu the host pool (Memory.h) takes its blocks from
// CUDA managed memory, so kernels, the runtime's CPU kernels and the caller
// share every buffer; the driver migrates pages to the side that touches
// them, and a matrix that only kernels touch stays on the device across ops
// and loop iterations. The pool's size classes, free lists and budget apply
// unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_CUDA_H
#define AMLS_RUNTIME_CUDA_H

#include <cstdint>
#include <string>

namespace amls::runtime::cuda {

/// The driver library's name (dlopen'ed from the loader's search path).
constexpr const char *kDriverLibrary = "libcuda.so.1";

/// Loads the driver from `library` and looks up every function the runtime
/// calls. Returns "" on success, else what is missing. Does not initialize
/// the driver; the first successful load is kept for the process.
std::string loadDriver(const char *library = kDriverLibrary);

/// Loads the driver and makes device 0's primary context usable. Returns ""
/// when a device is ready, else why not ("no CUDA driver: ...", "no CUDA
/// device: ..."). Safe to call from several threads; the answer is cached.
std::string initialize();

struct DeviceInfo {
  std::string name;
  int computeMajor = 0;
  int computeMinor = 0;
  int multiprocessors = 0;
  uint64_t totalBytes = 0;
  uint64_t freeBytes = 0;
  int driverVersion = 0;
};

/// The device initialize() made ready (initialize() must have succeeded).
DeviceInfo getDeviceInfo();

/// What ran on the device since the last reset.
struct Statistics {
  uint64_t modulesLoaded = 0;
  uint64_t kernelLaunches = 0;
  uint64_t managedBlocks = 0;
  uint64_t managedBytes = 0;
  uint64_t explicitCopies = 0;
  uint64_t explicitCopyBytes = 0;
};
Statistics getStatistics();
void resetStatistics();

/// Makes the host pool allocate its blocks as managed memory (after
/// initialize() succeeded). Cached system blocks are given back first.
void useManagedMemory();

/// "sm_90" for compute capability 9.0: the chip the device runs natively.
std::string chipName(int computeMajor, int computeMinor);

} // namespace amls::runtime::cuda

#endif // AMLS_RUNTIME_CUDA_H
