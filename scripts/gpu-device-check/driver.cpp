//===- driver.cpp - Runs an ahead-of-time compiled AMLS program on a GPU --===//
//
// The GPU machines AMLS is checked on have a driver and no MLIR, so the
// device check (bundle.sh) compiles each program here with amls-translate
// --amls-target=gpu and links it with this driver, which prepares the
// device as amls-run --target=gpu does (CUDA.h) and runs the program's
// entry. The program prints its own results. memrefCopy, which amls-run
// takes from MLIR's C runner utilities (a library that needs libMLIR), is
// defined here.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/CUDA.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>

extern "C" void amls_program();

namespace {
/// A ranked memref descriptor as the LLVM lowering lays it out.
struct Descriptor {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t sizesAndStrides[]; // sizes[rank], then strides[rank]
};
struct Unranked {
  int64_t rank;
  Descriptor *descriptor;
};

void copyDimension(int64_t elementBytes, int64_t rank, int64_t dim,
                   const int64_t *sizes, const int64_t *sourceStrides,
                   const int64_t *targetStrides, const char *source,
                   char *target) {
  if (dim == rank) {
    std::memcpy(target, source, elementBytes);
    return;
  }
  for (int64_t i = 0; i < sizes[dim]; ++i)
    copyDimension(elementBytes, rank, dim + 1, sizes, sourceStrides,
                  targetStrides, source + i * sourceStrides[dim] * elementBytes,
                  target + i * targetStrides[dim] * elementBytes);
}
} // namespace

extern "C" void memrefCopy(int64_t elementBytes, Unranked *source,
                           Unranked *target) {
  int64_t rank = source->rank;
  Descriptor *from = source->descriptor, *to = target->descriptor;
  const int64_t *sizes = from->sizesAndStrides;
  copyDimension(elementBytes, rank, 0, sizes, sizes + rank,
                to->sizesAndStrides + rank,
                from->aligned + from->offset * elementBytes,
                to->aligned + to->offset * elementBytes);
}

int main() {
  using namespace amls::runtime;
#ifndef AMLS_DRIVER_GPU
  // The CPU build of the same program, timed against the GPU build (the
  // whole program: end to end).
  auto cpuStart = std::chrono::steady_clock::now();
  amls_program();
  std::fflush(stdout);
  std::fprintf(stderr, "amls-cpu-driver: %.1f ms\n",
               std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - cpuStart)
                   .count());
  return 0;
#endif
  std::string problem = cuda::initialize();
  if (!problem.empty()) {
    std::fprintf(stderr, "amls-gpu-driver: --target=gpu: %s\n",
                 problem.c_str());
    return 1;
  }
  cuda::useManagedMemory();
  auto start = std::chrono::steady_clock::now();
  amls_program();
  double ms = std::chrono::duration<double, std::milli>(
                  std::chrono::steady_clock::now() - start)
                  .count();
  std::fflush(stdout);
  cuda::DeviceInfo device = cuda::getDeviceInfo();
  cuda::Statistics stats = cuda::getStatistics();
  std::string cublas = cuda::loadCublas();
  std::string whyCPU =
      stats.cpuProducts && !cublas.empty() ? " (" + cublas + ")" : "";
  std::fprintf(stderr,
               "amls-gpu-driver: %s (%s, %d SMs, %.0f GB/s peak, driver %d): "
               "%.1f ms, %llu module(s), %llu kernel launch(es), %llu "
               "managed block(s) (%llu bytes), products: %llu on cuBLAS "
               "(%llu through syrk), %llu on the CPU%s, CSR products and "
               "conversions: %llu on cuSPARSE, %llu on the CPU, migrations: "
               "%llu to the device (%llu bytes), %llu to the host (%llu "
               "bytes)\n",
               device.name.c_str(),
               cuda::chipName(device.computeMajor, device.computeMinor).c_str(),
               device.multiprocessors, device.peakBandwidthGBs,
               device.driverVersion, ms,
               (unsigned long long)stats.modulesLoaded,
               (unsigned long long)stats.kernelLaunches,
               (unsigned long long)stats.managedBlocks,
               (unsigned long long)stats.managedBytes,
               (unsigned long long)stats.cublasProducts,
               (unsigned long long)stats.cublasSymmetricProducts,
               (unsigned long long)stats.cpuProducts, whyCPU.c_str(),
               (unsigned long long)stats.cusparseCalls,
               (unsigned long long)stats.cpuSparseCalls,
               (unsigned long long)stats.migrationsToDevice,
               (unsigned long long)stats.migrationBytesToDevice,
               (unsigned long long)stats.migrationsToHost,
               (unsigned long long)stats.migrationBytesToHost);
  return 0;
}
