//===- Driver.h - The CUDA driver as libamls_cuda_runtime loads it -*- C++ -*-//
//
// Shared by the files of libamls_cuda_runtime: the driver's functions
// (loaded with dlopen, DriverSymbols.def), device 0's primary context, and
// how a failed call stops the program.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_RUNTIME_CUDA_DRIVER_H
#define AMLS_LIB_RUNTIME_CUDA_DRIVER_H

#include "AMLS/Runtime/CUDA.h"

#include <cuda.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#define AMLS_CUDA_STRINGIFY_EXPANDED(name) AMLS_CUDA_STRINGIFY(name)
#define AMLS_CUDA_STRINGIFY(name) #name

namespace amls::runtime::cuda::detail {

/// The driver's functions, looked up by their versioned names.
struct Driver {
#define AMLS_CUDA_SYMBOL(name) decltype(&::name) name = nullptr;
#include "DriverSymbols.def"
};

/// A function of a library loaded with dlopen: its (versioned) name and
/// where its address goes.
struct LibrarySymbol {
  const char *name;
  void **address;
};

/// Opens `library` and looks up every symbol into its address: "" on
/// success (the library stays loaded), else "<what>: <dlerror>" or
/// "<what>: <library> lacks <name>" with the library closed again. How
/// the driver (DriverSymbols.def), cuBLAS and cuSPARSE load.
std::string loadLibrary(const char *library, const char *what,
                        const std::vector<LibrarySymbol> &symbols);

/// A library of functions (`Table`, one pointer per function) loaded with
/// dlopen on first use, from a given name or from the first of its
/// candidate names that has every function: cuBLAS, cuSPARSE. The first
/// success is kept for the process, and so is the failure of all the
/// candidates. Its owner serializes the calls of load().
template <typename Table> class DynamicLibrary {
public:
  /// `missing` starts the messages ("no cuBLAS"); `symbols` binds each
  /// function's name to its place in a table.
  DynamicLibrary(const char *missing, std::vector<const char *> candidates,
                 std::vector<LibrarySymbol> (*symbols)(Table &))
      : missing(missing), candidates(std::move(candidates)), symbols(symbols) {}

  /// "" when the library is loaded (from `library`, or null: the
  /// candidates in order), else why not.
  std::string load(const char *library) {
    if (loaded)
      return "";
    if (library)
      return loadFrom(library);
    if (!problem.empty())
      return problem;
    for (const char *candidate : candidates)
      if (loadFrom(candidate).empty())
        return "";
    problem = std::string(missing) + ": none of " + candidateNames() + " loads";
    return problem;
  }

  /// The candidates' names, comma-separated.
  std::string candidateNames() const {
    std::string names;
    for (const char *candidate : candidates)
      names += (names.empty() ? "" : ", ") + std::string(candidate);
    return names;
  }

  /// The functions (null until load() succeeded).
  const Table &functions() const { return table; }

private:
  std::string loadFrom(const char *library) {
    Table fresh;
    std::string why = loadLibrary(library, missing, symbols(fresh));
    if (!why.empty())
      return why;
    table = fresh;
    loaded = true;
    return "";
  }

  const char *missing;
  std::vector<const char *> candidates;
  std::vector<LibrarySymbol> (*symbols)(Table &);
  Table table;
  bool loaded = false;
  std::string problem;
};

/// The driver table once device 0 is ready; otherwise the program stops
/// saying why ("--target=gpu: no CUDA driver: ...").
const Driver &ready();

/// "CUDA_ERROR_X (what it means)".
std::string describe(CUresult result);

/// Stops the program unless `result` is CUDA_SUCCESS: "<call> failed:
/// <describe> (<about>)".
void check(CUresult result, const char *call, const char *about = nullptr);

/// Device 0's context current for the scope (the calling thread may be any
/// of the host's: OpenMP workers, a session's caller).
struct ScopedContext {
  ScopedContext();
  ~ScopedContext();
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;
};

/// A view's leading dimension when it is row-major (unit column stride) or
/// column-major (unit row stride); a stride along a single row or column
/// is free.
struct UnitStride {
  bool rowMajor;
  int64_t leading;
};
std::optional<UnitStride> unitStride(MatrixLayout view);

/// A memref descriptor's matrix view, and its first element.
template <typename Matrix> MatrixLayout layoutOf(const Matrix *m) {
  return {m->sizes[0], m->sizes[1], m->strides[0], m->strides[1]};
}
template <typename Matrix> auto *origin(const Matrix *m) {
  return m->aligned + m->offset;
}

/// Whether `pointer` is managed memory (the pool's under --target=gpu),
/// which the libraries may be given; a program's constants and a caller's
/// arrays are host memory. Device 0's context must be current.
bool isManaged(const Driver &cu, const void *pointer);

/// Device memory that library calls need for their duration (cuBLAS's
/// syrk scratch, cuSPARSE's buffers and narrowed row pointers), kept from
/// one call to the next and grown when a call needs more: cuMemAlloc and
/// cuMemFree cost more than many of those calls, and cuMemFree waits for
/// the device. Its owner serializes the calls that use it (under the
/// library's lock), which are synchronous.
class DeviceScratch {
public:
  /// At least `bytes` of device memory, or null when the device has not
  /// that much to give.
  void *get(const Driver &cu, uint64_t bytes);
  /// Gives a block larger than `keep` bytes back after the call that
  /// needed it: one large product does not pin its scratch for good.
  void shrink(const Driver &cu, uint64_t keep = uint64_t(256) << 20);

private:
  CUdeviceptr block = 0;
  uint64_t capacity = 0;
};

/// The dense products cuBLAS and the CPU's BLAS ran (Cublas.cpp), for
/// getStatistics, and their reset.
void countProducts(Statistics &statistics);
void resetProducts();
/// The same for the products with a CSR operand (Cusparse.cpp).
void countSparseProducts(Statistics &statistics);
void resetSparseProducts();

} // namespace amls::runtime::cuda::detail

#endif // AMLS_LIB_RUNTIME_CUDA_DRIVER_H
