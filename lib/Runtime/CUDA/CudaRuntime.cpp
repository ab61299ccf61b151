//===- CudaRuntime.cpp - mgpu* over the CUDA driver, loaded with dlopen ---===//
//
// The functions MLIR's gpu-to-llvm lowering calls (the ABI is listed in
// docs/gpu.md), implemented on the CUDA driver API as upstream's
// mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp does: device 0's primary
// context, retained once and pushed around each call. Unlike upstream, the
// driver is not linked but loaded on first use, and every driver error
// stops the program through the runtime's fail() with the call, the error's
// name and the kernel it concerns, instead of printing and going on.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/CUDA.h"
#include "AMLS/Runtime/Memory.h"

#include "../Core/Failure.h"
#include "Driver.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <dlfcn.h>
#include <mutex>
#include <unordered_map>
#include <vector>

using namespace amls::runtime;
using namespace amls::runtime::cuda::detail;

namespace {

/// The driver's functions, bound to their versioned names.
std::vector<LibrarySymbol> driverSymbols(Driver &table) {
  return {
#define AMLS_CUDA_SYMBOL(name)                                                 \
  {AMLS_CUDA_STRINGIFY_EXPANDED(name), reinterpret_cast<void **>(&table.name)},
#include "DriverSymbols.def"
  };
}

std::mutex loadMutex;
DynamicLibrary<Driver> driverLibrary("no CUDA driver",
                                     {amls::runtime::cuda::kDriverLibrary},
                                     driverSymbols);
/// The functions (null until loaded: describe() checks).
const Driver &driverTable = driverLibrary.functions();

std::string loadLocked(const char *library) {
  return driverLibrary.load(library);
}

} // namespace

std::string amls::runtime::cuda::detail::loadLibrary(
    const char *library, const char *what,
    const std::vector<LibrarySymbol> &symbols) {
  void *handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return std::string(what) + ": " + (why ? why : library);
  }
  for (const LibrarySymbol &symbol : symbols) {
    // POSIX's way to store a function's address from dlsym.
    *symbol.address = dlsym(handle, symbol.name);
    if (!*symbol.address) {
      dlclose(handle);
      return std::string(what) + ": " + library + " lacks " + symbol.name;
    }
  }
  return "";
}

/// Device bytes the library calls' scratch blocks hold.
static std::atomic<uint64_t> scratchBytes{0};

void *amls::runtime::cuda::detail::DeviceScratch::get(const Driver &cu,
                                                      uint64_t bytes) {
  if (bytes <= capacity && block)
    return reinterpret_cast<void *>(block);
  if (block) {
    cu.cuMemFree(block);
    scratchBytes -= capacity;
    block = 0;
    capacity = 0;
  }
  // Whole MiB, so that slowly growing sizes do not reallocate every call.
  constexpr uint64_t kGranule = uint64_t(1) << 20;
  uint64_t size =
      (std::max<uint64_t>(bytes, 1) + kGranule - 1) / kGranule * kGranule;
  if (cu.cuMemAlloc(&block, size) != CUDA_SUCCESS) {
    block = 0;
    return nullptr;
  }
  capacity = size;
  scratchBytes += size;
  return reinterpret_cast<void *>(block);
}

void amls::runtime::cuda::detail::DeviceScratch::shrink(const Driver &cu,
                                                        uint64_t keep) {
  if (!block || capacity <= keep)
    return;
  cu.cuMemFree(block);
  scratchBytes -= capacity;
  block = 0;
  capacity = 0;
}

std::optional<UnitStride>
amls::runtime::cuda::detail::unitStride(MatrixLayout view) {
  if (view.cols <= 1 || view.colStride == 1) {
    int64_t leading =
        view.rows <= 1 ? std::max<int64_t>(view.cols, 1) : view.rowStride;
    if (leading >= std::max<int64_t>(view.cols, 1))
      return UnitStride{true, leading};
  }
  if (view.rows <= 1 || view.rowStride == 1) {
    int64_t leading =
        view.cols <= 1 ? std::max<int64_t>(view.rows, 1) : view.colStride;
    if (leading >= std::max<int64_t>(view.rows, 1))
      return UnitStride{false, leading};
  }
  return std::nullopt;
}

bool amls::runtime::cuda::detail::isManaged(const Driver &cu,
                                            const void *pointer) {
  unsigned managed = 0;
  return cu.cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                  reinterpret_cast<CUdeviceptr>(pointer)) ==
             CUDA_SUCCESS &&
         managed;
}

std::string amls::runtime::cuda::detail::describe(CUresult result) {
  const char *name = nullptr;
  const char *text = nullptr;
  if (driverTable.cuGetErrorName)
    driverTable.cuGetErrorName(result, &name);
  if (driverTable.cuGetErrorString)
    driverTable.cuGetErrorString(result, &text);
  // A stub or too old driver cannot name its errors; these are the ones a
  // machine without a usable GPU gives.
  if (!name) {
    switch (result) {
    case CUDA_ERROR_STUB_LIBRARY:
      name = "CUDA_ERROR_STUB_LIBRARY";
      text = "libcuda.so.1 is the toolkit's stub, not a driver";
      break;
    case CUDA_ERROR_NO_DEVICE:
      name = "CUDA_ERROR_NO_DEVICE";
      break;
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
      name = "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
      text = "the driver and the kernel module differ in version";
      break;
    default:
      break;
    }
  }
  std::string out = name ? name : "CUDA error " + std::to_string(result);
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}

namespace {

/// Device 0 and its primary context, set up once per process.
struct Device {
  std::once_flag once;
  std::string problem;
  CUdevice device = 0;
  CUcontext context = nullptr;
  amls::runtime::cuda::DeviceInfo info;
};

Device &device() {
  // Never destroyed: the kernels' module is unloaded by a global destructor,
  // which may run after this function's statics are gone.
  static Device *instance = new Device;
  return *instance;
}

void setUp(Device &state) {
  {
    std::lock_guard<std::mutex> lock(loadMutex);
    state.problem = loadLocked(amls::runtime::cuda::kDriverLibrary);
  }
  if (!state.problem.empty())
    return;
  const Driver &cu = driverTable;
  if (CUresult result = cu.cuInit(0)) {
    state.problem = "no CUDA device: cuInit failed: " + describe(result);
    return;
  }
  int count = 0;
  if (CUresult result = cu.cuDeviceGetCount(&count)) {
    state.problem = "no CUDA device: " + describe(result);
    return;
  }
  if (count == 0) {
    state.problem = "no CUDA device: the driver sees none";
    return;
  }
  if (CUresult result = cu.cuDeviceGet(&state.device, 0)) {
    state.problem = "no CUDA device: cuDeviceGet: " + describe(result);
    return;
  }
  if (CUresult result =
          cu.cuDevicePrimaryCtxRetain(&state.context, state.device)) {
    state.problem = "CUDA device 0 unusable: " + describe(result);
    return;
  }
  char name[256] = {0};
  cu.cuDeviceGetName(name, sizeof(name) - 1, state.device);
  state.info.name = name;
  cu.cuDeviceGetAttribute(&state.info.computeMajor,
                          CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                          state.device);
  cu.cuDeviceGetAttribute(&state.info.computeMinor,
                          CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                          state.device);
  cu.cuDeviceGetAttribute(&state.info.multiprocessors,
                          CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                          state.device);
  // Double data rate: two transfers per clock over the bus.
  int clockKHz = 0, busBits = 0;
  cu.cuDeviceGetAttribute(&clockKHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                          state.device);
  cu.cuDeviceGetAttribute(&busBits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                          state.device);
  state.info.peakBandwidthGBs = 2.0 * clockKHz * 1e3 * (busBits / 8) / 1e9;
  cu.cuDriverGetVersion(&state.info.driverVersion);
}

} // namespace

const Driver &amls::runtime::cuda::detail::ready() {
  Device &state = device();
  std::call_once(state.once, [&] { setUp(state); });
  if (!state.problem.empty())
    fail("--target=gpu: " + state.problem);
  return driverTable;
}

ScopedContext::ScopedContext() {
  const Driver &cu = ready();
  if (CUresult result = cu.cuCtxPushCurrent(device().context))
    fail("cuCtxPushCurrent failed: " + describe(result));
}

ScopedContext::~ScopedContext() {
  CUcontext popped = nullptr;
  driverTable.cuCtxPopCurrent(&popped);
}

void amls::runtime::cuda::detail::check(CUresult result, const char *call,
                                        const char *about) {
  if (result == CUDA_SUCCESS)
    return;
  std::string message = std::string(call) + " failed: " + describe(result);
  if (about)
    message += std::string(" (") + about + ")";
  fail(std::move(message));
}

namespace {

struct Counters {
  std::atomic<uint64_t> modulesLoaded{0};
  std::atomic<uint64_t> kernelLaunches{0};
  std::atomic<uint64_t> managedBlocks{0};
  std::atomic<uint64_t> managedBytes{0};
  std::atomic<uint64_t> explicitCopies{0};
  std::atomic<uint64_t> explicitCopyBytes{0};
  std::atomic<uint64_t> migrationsToDevice{0};
  std::atomic<uint64_t> migrationBytesToDevice{0};
  std::atomic<uint64_t> migrationsToHost{0};
  std::atomic<uint64_t> migrationBytesToHost{0};
} counters;

/// Kernel names by function, for the messages of failed launches.
std::mutex namesMutex;
std::unordered_map<CUfunction, std::string> kernelNames;

std::string kernelName(CUfunction function) {
  std::lock_guard<std::mutex> lock(namesMutex);
  auto it = kernelNames.find(function);
  return it == kernelNames.end() ? std::string("?") : it->second;
}

/// The page before a block's payload holds only the pool's header, and
/// stays on the host: freeing a block the device wrote reads its header
/// without migrating the payload's first page (measured on an H200: the
/// cell-wise bench took 27 ms instead of 14).
constexpr uint64_t kHeaderPageBytes = 4096;
// Blocks up to cuda::kHostPreferredBytes (a reduction's last partial
// results, scalars, short vectors) stay on the host and the device reads
// and writes them where they are, instead of both sides faulting them over
// every time the other wrote them (same bench: 11 ms instead of 14).
using amls::runtime::cuda::kHostPreferredBytes;

void advise(CUdeviceptr pointer, uint64_t bytes, CUmem_advise advice,
            CUmemLocationType type, int id) {
  CUmemLocation location{};
  location.type = type;
  location.id = id;
  check(driverTable.cuMemAdvise(pointer, bytes, advice, location),
        "cuMemAdvise");
}

void *allocateManagedBlock(uint64_t bytes) {
  ScopedContext scoped;
  CUdeviceptr pointer = 0;
  if (driverTable.cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL))
    return nullptr; // The pool reports the refusal with the budget.
  ++counters.managedBlocks;
  counters.managedBytes += bytes;
  advise(pointer, kHeaderPageBytes, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
         CU_MEM_LOCATION_TYPE_HOST, 0);
  if (bytes <= kHeaderPageBytes + kHostPreferredBytes) {
    advise(pointer, bytes, CU_MEM_ADVISE_SET_PREFERRED_LOCATION,
           CU_MEM_LOCATION_TYPE_HOST, 0);
    advise(pointer, bytes, CU_MEM_ADVISE_SET_ACCESSED_BY,
           CU_MEM_LOCATION_TYPE_DEVICE, static_cast<int>(device().device));
  }
  return reinterpret_cast<void *>(pointer);
}

void releaseManagedBlock(void *block) {
  ScopedContext scoped;
  check(driverTable.cuMemFree(reinterpret_cast<CUdeviceptr>(block)),
        "cuMemFree");
}

const memory::BlockSource managedBlocks = {
    allocateManagedBlock, releaseManagedBlock, kHeaderPageBytes};

} // namespace

//===----------------------------------------------------------------------===//
// The C++ interface (CUDA.h)
//===----------------------------------------------------------------------===//

std::string amls::runtime::cuda::loadDriver(const char *library) {
  std::lock_guard<std::mutex> lock(loadMutex);
  return loadLocked(library);
}

std::string amls::runtime::cuda::initialize() {
  Device &state = device();
  std::call_once(state.once, [&] { setUp(state); });
  return state.problem;
}

amls::runtime::cuda::DeviceInfo amls::runtime::cuda::getDeviceInfo() {
  ScopedContext scoped;
  DeviceInfo info = device().info;
  size_t freeBytes = 0, totalBytes = 0;
  if (driverTable.cuMemGetInfo(&freeBytes, &totalBytes) == CUDA_SUCCESS) {
    info.freeBytes = freeBytes;
    info.totalBytes = totalBytes;
  }
  return info;
}

amls::runtime::cuda::Statistics amls::runtime::cuda::getStatistics() {
  Statistics stats;
  stats.modulesLoaded = counters.modulesLoaded;
  stats.kernelLaunches = counters.kernelLaunches;
  stats.managedBlocks = counters.managedBlocks;
  stats.managedBytes = counters.managedBytes;
  stats.explicitCopies = counters.explicitCopies;
  stats.explicitCopyBytes = counters.explicitCopyBytes;
  stats.migrationsToDevice = counters.migrationsToDevice;
  stats.migrationBytesToDevice = counters.migrationBytesToDevice;
  stats.migrationsToHost = counters.migrationsToHost;
  stats.migrationBytesToHost = counters.migrationBytesToHost;
  stats.scratchBytes = scratchBytes;
  countProducts(stats);
  countSparseProducts(stats);
  return stats;
}

void amls::runtime::cuda::resetStatistics() {
  counters.modulesLoaded = 0;
  counters.kernelLaunches = 0;
  counters.managedBlocks = 0;
  counters.managedBytes = 0;
  counters.explicitCopies = 0;
  counters.explicitCopyBytes = 0;
  counters.migrationsToDevice = 0;
  counters.migrationBytesToDevice = 0;
  counters.migrationsToHost = 0;
  counters.migrationBytesToHost = 0;
  resetProducts();
  resetSparseProducts();
}

void amls::runtime::cuda::useManagedMemory() {
  ready();
  memory::setBlockSource(&managedBlocks);
}

std::string amls::runtime::cuda::chipName(int computeMajor, int computeMinor) {
  return "sm_" + std::to_string(computeMajor) + std::to_string(computeMinor);
}

//===----------------------------------------------------------------------===//
// The mgpu* ABI of MLIR 22's gpu-to-llvm
//===----------------------------------------------------------------------===//

extern "C" {

void *mgpuModuleLoad(void *data, size_t /*size*/) {
  ScopedContext scoped;
  CUmodule module = nullptr;
  check(driverTable.cuModuleLoadData(&module, data), "cuModuleLoadData",
        "loading the program's kernels");
  ++counters.modulesLoaded;
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  ScopedContext scoped;
  CUmodule module = nullptr;
  char log[4096] = {0};
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(intptr_t(optLevel)), log,
                    reinterpret_cast<void *>(uintptr_t(sizeof(log) - 1))};
  CUresult result =
      driverTable.cuModuleLoadDataEx(&module, data, 3, options, values);
  if (result != CUDA_SUCCESS)
    fail("cuModuleLoadDataEx failed: " + describe(result) +
         " (JIT-compiling the program's PTX): " + log);
  ++counters.modulesLoaded;
  return module;
}

void mgpuModuleUnload(void *module) {
  // From a global destructor, also when the program stops because the load
  // failed.
  if (!module || !device().problem.empty())
    return;
  // At exit the driver may have torn itself down before this destructor
  // runs (CUDA_ERROR_DEINITIALIZED); its modules are gone with it then.
  if (driverTable.cuCtxPushCurrent(device().context) != CUDA_SUCCESS)
    return;
  CUresult result = driverTable.cuModuleUnload(static_cast<CUmodule>(module));
  CUcontext popped = nullptr;
  driverTable.cuCtxPopCurrent(&popped);
  if (result != CUDA_ERROR_DEINITIALIZED)
    check(result, "cuModuleUnload");
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  ScopedContext scoped;
  CUfunction function = nullptr;
  check(driverTable.cuModuleGetFunction(&function,
                                        static_cast<CUmodule>(module), name),
        "cuModuleGetFunction", name);
  std::lock_guard<std::mutex> lock(namesMutex);
  kernelNames[function] = name;
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedMemoryBytes, void *stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  ScopedContext scoped;
  auto *kernel = static_cast<CUfunction>(function);
  CUresult result = driverTable.cuLaunchKernel(
      kernel, gridX, gridY, gridZ, blockX, blockY, blockZ, sharedMemoryBytes,
      static_cast<CUstream>(stream), params, extra);
  if (result != CUDA_SUCCESS) {
    std::string about = "kernel " + kernelName(kernel) + ", grid " +
                        std::to_string(gridX) + "x" + std::to_string(gridY) +
                        "x" + std::to_string(gridZ) + ", block " +
                        std::to_string(blockX) + "x" + std::to_string(blockY) +
                        "x" + std::to_string(blockZ);
    check(result, "cuLaunchKernel", about.c_str());
  }
  ++counters.kernelLaunches;
}

// gpu-to-llvm creates and destroys a stream around every synchronous
// launch; creating one costs about as much as a small kernel, so destroyed
// streams are kept for the next launch (they are empty: each was
// synchronized before its destruction).
std::mutex streamMutex;
std::vector<CUstream> idleStreams;

void *mgpuStreamCreate() {
  {
    std::lock_guard<std::mutex> lock(streamMutex);
    if (!idleStreams.empty()) {
      CUstream stream = idleStreams.back();
      idleStreams.pop_back();
      return stream;
    }
  }
  ScopedContext scoped;
  CUstream stream = nullptr;
  check(driverTable.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
        "cuStreamCreate");
  return stream;
}

void mgpuStreamDestroy(void *stream) {
  std::lock_guard<std::mutex> lock(streamMutex);
  idleStreams.push_back(static_cast<CUstream>(stream));
}

void mgpuStreamSynchronize(void *stream) {
  ScopedContext scoped;
  // Errors of asynchronous launches (a kernel that faulted) surface here.
  check(driverTable.cuStreamSynchronize(static_cast<CUstream>(stream)),
        "cuStreamSynchronize", "waiting for the program's kernels");
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  ScopedContext scoped;
  check(driverTable.cuStreamWaitEvent(static_cast<CUstream>(stream),
                                      static_cast<CUevent>(event), 0),
        "cuStreamWaitEvent");
}

void *mgpuEventCreate() {
  ScopedContext scoped;
  CUevent event = nullptr;
  check(driverTable.cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
        "cuEventCreate");
  return event;
}

void mgpuEventDestroy(void *event) {
  ScopedContext scoped;
  check(driverTable.cuEventDestroy(static_cast<CUevent>(event)),
        "cuEventDestroy");
}

void mgpuEventSynchronize(void *event) {
  ScopedContext scoped;
  check(driverTable.cuEventSynchronize(static_cast<CUevent>(event)),
        "cuEventSynchronize");
}

void mgpuEventRecord(void *event, void *stream) {
  ScopedContext scoped;
  check(driverTable.cuEventRecord(static_cast<CUevent>(event),
                                  static_cast<CUstream>(stream)),
        "cuEventRecord");
}

void *mgpuMemAlloc(uint64_t bytes, void * /*stream*/, bool hostShared) {
  ScopedContext scoped;
  CUdeviceptr pointer = 0;
  if (bytes == 0)
    return nullptr;
  if (hostShared)
    check(driverTable.cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL),
          "cuMemAllocManaged");
  else
    check(driverTable.cuMemAlloc(&pointer, bytes), "cuMemAlloc");
  return reinterpret_cast<void *>(pointer);
}

void mgpuMemFree(void *pointer, void * /*stream*/) {
  if (!pointer)
    return;
  ScopedContext scoped;
  check(driverTable.cuMemFree(reinterpret_cast<CUdeviceptr>(pointer)),
        "cuMemFree");
}

void mgpuMemcpy(void *destination, void *source, size_t bytes, void *stream) {
  ScopedContext scoped;
  ++counters.explicitCopies;
  counters.explicitCopyBytes += bytes;
  check(driverTable.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(destination),
                                  reinterpret_cast<CUdeviceptr>(source), bytes,
                                  static_cast<CUstream>(stream)),
        "cuMemcpyAsync");
}

/// --amls-prefetch-gpu-buffers' bulk migrations: a hint, so nothing it
/// cannot do stops the program (host memory, a range the driver refuses);
/// blocks that stay on the host are left there.
void amls_rt_gpu_prefetch(int64_t address, int64_t bytes, int32_t toDevice) {
  if (bytes <= static_cast<int64_t>(kHostPreferredBytes))
    return;
  ScopedContext scoped;
  const Driver &cu = ready();
  const void *pointer = reinterpret_cast<const void *>(address);
  if (!isManaged(cu, pointer))
    return;
  CUmemLocation location{};
  location.type =
      toDevice ? CU_MEM_LOCATION_TYPE_DEVICE : CU_MEM_LOCATION_TYPE_HOST;
  location.id = toDevice ? static_cast<int>(device().device) : 0;
  // On the legacy default stream, waited for: the next access (a kernel on
  // another stream, or the host) finds the pages where they went.
  if (cu.cuMemPrefetchAsync(static_cast<CUdeviceptr>(address),
                            static_cast<size_t>(bytes), location, 0,
                            nullptr) != CUDA_SUCCESS ||
      cu.cuStreamSynchronize(nullptr) != CUDA_SUCCESS)
    return;
  (toDevice ? counters.migrationsToDevice : counters.migrationsToHost)++;
  (toDevice ? counters.migrationBytesToDevice
            : counters.migrationBytesToHost) += static_cast<uint64_t>(bytes);
}

void mgpuMemset32(void *destination, unsigned int value, size_t count,
                  void *stream) {
  ScopedContext scoped;
  check(driverTable.cuMemsetD32Async(reinterpret_cast<CUdeviceptr>(destination),
                                     value, count,
                                     static_cast<CUstream>(stream)),
        "cuMemsetD32Async");
}

void mgpuMemset16(void *destination, unsigned short value, size_t count,
                  void *stream) {
  ScopedContext scoped;
  check(driverTable.cuMemsetD16Async(reinterpret_cast<CUdeviceptr>(destination),
                                     value, count,
                                     static_cast<CUstream>(stream)),
        "cuMemsetD16Async");
}

void mgpuSetDefaultDevice(int32_t deviceIndex) {
  // Device 0 is the one AMLS uses; asking for another is a usage error
  // (multi-GPU is not supported yet).
  if (deviceIndex != 0)
    fail("--target=gpu: only device 0 is supported, the program asked for " +
         std::to_string(deviceIndex));
}

} // extern "C"
