//===- Cublas.cpp - Dense products through cuBLAS, loaded with dlopen -----===//
//
// The products amls-use-blas{library=cublas} hands to a library under
// --target=gpu: _mlir_ciface_amls_rt_gpu_gemm_{f64,f32} take the same
// memref views as the CPU's amls_rt_gemm (row-major C; A and B row-major or
// transposed) and call cuBLAS on them: gemv for a vector C, syrk for the
// symmetric product of a matrix and its transposed view (tsmm), gemm for
// the rest. The operands live in managed memory (CUDA.h), which cuBLAS
// reads and writes like device memory. As the driver, cuBLAS is loaded on
// first use, so nothing links it; where it is missing, or an operand has
// no unit stride, the CPU's BLAS computes the product over the same memory
// (counted in the statistics).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/CUDA.h"
#include "AMLS/Runtime/Runtime.h"

#include "../Core/Failure.h"
#include "Driver.h"

#include <cublas_v2.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <mutex>

using namespace amls::runtime;
using namespace amls::runtime::cuda::detail;

namespace {

/// cuBLAS's functions, looked up by their versioned names.
struct Cublas {
#define AMLS_CUBLAS_SYMBOL(name) decltype(&::name) name = nullptr;
#include "CublasSymbols.def"
};

std::mutex cublasMutex;

/// The table's functions, bound to their (versioned) names.
std::vector<LibrarySymbol> cublasSymbols(Cublas &table) {
  return {
#define AMLS_CUBLAS_SYMBOL(name)                                               \
  {AMLS_CUDA_STRINGIFY_EXPANDED(name), reinterpret_cast<void **>(&table.name)},
#include "CublasSymbols.def"
  };
}

DynamicLibrary<Cublas> cublasLibrary("no cuBLAS",
                                     {
                                         "libcublas.so.13",
                                         "libcublas.so.12",
#ifdef AMLS_CUDA_LIBRARY_DIR
                                         AMLS_CUDA_LIBRARY_DIR "/libcublas.so",
#endif
                                     },
                                     cublasSymbols);
/// Its functions, once loaded (under cublasMutex).
const Cublas &cublasTable = cublasLibrary.functions();

/// The process's cuBLAS handle, created in device 0's primary context on
/// first use; null with `status` set when it cannot be. cuBLAS handles are
/// not for concurrent calls: callers hold cublasMutex.
cublasHandle_t handleLocked(cublasStatus_t &status) {
  static cublasHandle_t handle = nullptr;
  status = CUBLAS_STATUS_SUCCESS;
  if (!handle &&
      (status = cublasTable.cublasCreate(&handle)) != CUBLAS_STATUS_SUCCESS)
    handle = nullptr;
  return handle;
}

std::atomic<uint64_t> cublasProducts{0};
std::atomic<uint64_t> cublasSymmetricProducts{0};
std::atomic<uint64_t> cpuProducts{0};

/// The cuBLAS routines of one element type.
template <typename T> struct Routines;
template <> struct Routines<double> {
  static constexpr auto gemm = &Cublas::cublasDgemm;
  static constexpr auto gemv = &Cublas::cublasDgemv;
  static constexpr auto syrk = &Cublas::cublasDsyrk;
  static constexpr auto scal = &Cublas::cublasDscal;
  static constexpr auto geam = &Cublas::cublasDgeam;
};
template <> struct Routines<float> {
  static constexpr auto gemm = &Cublas::cublasSgemm;
  static constexpr auto gemv = &Cublas::cublasSgemv;
  static constexpr auto syrk = &Cublas::cublasSsyrk;
  static constexpr auto scal = &Cublas::cublasSscal;
  static constexpr auto geam = &Cublas::cublasSgeam;
};

cublasOperation_t operation(bool transpose) {
  return transpose ? CUBLAS_OP_T : CUBLAS_OP_N;
}

/// The symmetric product on cuBLAS as CublasSyrk describes it, in a
/// scratch matrix of device memory (kept between calls; the caller holds
/// cublasMutex). Returns the first failed call's status
/// (naming it in `call`), or success; sets `noScratch` when the scratch
/// could not be allocated (nothing was called then).
template <typename T>
cublasStatus_t symmetricProduct(const Driver &cu, cublasHandle_t handle,
                                const cuda::CublasSyrk &plan, const T *a, T *c,
                                bool &noScratch, std::string &call) {
  using R = Routines<T>;
  uint64_t cells = uint64_t(plan.n) * uint64_t(plan.n);
  static DeviceScratch scratchBlock;
  T *s = static_cast<T *>(scratchBlock.get(cu, cells * sizeof(T)));
  noScratch = !s;
  if (noScratch)
    return CUBLAS_STATUS_SUCCESS;
  CUdeviceptr scratch = reinterpret_cast<CUdeviceptr>(s);
  const T one = 1, zero = 0, half = T(0.5);
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  auto step = [&](const char *name, auto &&run) {
    if (status == CUBLAS_STATUS_SUCCESS &&
        (status = run()) != CUBLAS_STATUS_SUCCESS)
      call = name;
  };
  // The scratch's upper triangle stays zero: syrk writes the lower one.
  step("memset of the scratch matrix", [&] {
    return cu.cuMemsetD32Async(scratch, 0, cells * sizeof(T) / 4, nullptr)
               ? CUBLAS_STATUS_EXECUTION_FAILED
               : CUBLAS_STATUS_SUCCESS;
  });
  step("syrk", [&] {
    return (cublasTable.*R::syrk)(handle, CUBLAS_FILL_MODE_LOWER,
                                  operation(plan.transpose), plan.n, plan.k,
                                  &one, a, plan.ld, &zero, s, plan.n);
  });
  step("scal", [&] {
    return (cublasTable.*R::scal)(handle, plan.n, &half, s, plan.n + 1);
  });
  for (bool transpose : {false, true})
    step("geam", [&] {
      return (cublasTable.*R::geam)(handle, CUBLAS_OP_N, operation(transpose),
                                    plan.n, plan.n, &one, c, plan.ldResult,
                                    &one, s, plan.n, c, plan.ldResult);
    });
  // The calls are ordered on the legacy default stream (cuMemFree waits for
  // them where a large scratch goes back); a smaller one is kept for the
  // next call.
  scratchBlock.shrink(cu);
  return status;
}

/// C += A B on cuBLAS (gemv when C is a vector, syrk when B is A's
/// transposed view, else gemm), or on the CPU's BLAS (`cpu`) where cuBLAS
/// cannot.
template <typename T, typename Matrix>
void gpuGemm(Matrix *a, Matrix *b, Matrix *c,
             void (*cpu)(Matrix *, Matrix *, Matrix *)) {
  using R = Routines<T>;
  if (a->sizes[0] == 0 || b->sizes[1] == 0 || a->sizes[1] == 0)
    return;
  std::optional<cuda::CublasGemv> vectorPlan =
      cuda::planCublasGemv(layoutOf(a), layoutOf(b), layoutOf(c));
  std::optional<cuda::CublasSyrk> symmetricPlan;
  if (!vectorPlan && origin(a) == origin(b))
    symmetricPlan = cuda::planCublasSyrk(layoutOf(a), layoutOf(b), layoutOf(c));
  std::optional<cuda::CublasGemm> plan;
  if (!vectorPlan)
    plan = cuda::planCublasGemm(layoutOf(a), layoutOf(b), layoutOf(c));
  if ((!plan && !vectorPlan && !symmetricPlan) || !cuda::loadCublas().empty()) {
    ++cpuProducts;
    cpu(a, b, c);
    return;
  }
  // Everything that may fail is decided inside the scope and reported
  // after it: fail() leaves by longjmp under a host's trap, which would skip
  // the scope's destructors and leave the lock held.
  std::string problem;
  bool onDevice = true, symmetric = false;
  {
    ScopedContext scoped;
    const Driver &cu = ready();
    // Host-only memory (a program's constants) is not what cuBLAS reads:
    // such a product runs on the CPU.
    onDevice = isManaged(cu, origin(a)) && isManaged(cu, origin(b)) &&
               isManaged(cu, origin(c));
    if (onDevice) {
      std::lock_guard<std::mutex> lock(cublasMutex);
      cublasStatus_t status;
      cublasHandle_t handle = handleLocked(status);
      const T one = 1;
      std::string call = vectorPlan ? "gemv" : "gemm";
      bool noScratch = true;
      if (handle && symmetricPlan) {
        status = symmetricProduct<T>(cu, handle, *symmetricPlan, origin(a),
                                     origin(c), noScratch, call);
        symmetric = !noScratch;
      }
      if (handle && vectorPlan)
        status = (cublasTable.*R::gemv)(
            handle, operation(vectorPlan->transpose), vectorPlan->rows,
            vectorPlan->cols, &one,
            vectorPlan->matrixIsFirst ? origin(a) : origin(b), vectorPlan->ld,
            vectorPlan->matrixIsFirst ? origin(b) : origin(a),
            vectorPlan->incVector, &one, origin(c), vectorPlan->incResult);
      else if (handle && !symmetric && plan)
        status = (cublasTable.*
                  R::gemm)(handle, operation(plan->transposeFirst),
                           operation(plan->transposeSecond), plan->m, plan->n,
                           plan->k, &one, origin(b), plan->ldFirst, origin(a),
                           plan->ldSecond, &one, origin(c), plan->ldResult);
      else if (handle && !symmetric)
        onDevice = false; // No scratch for syrk, and no gemm plan.
      if (!handle)
        problem = std::string("cuBLAS: cublasCreate failed: ") +
                  cublasTable.cublasGetStatusName(status);
      else if (status != CUBLAS_STATUS_SUCCESS)
        problem = "cuBLAS: the " + call + " of " + std::to_string(a->sizes[0]) +
                  "x" + std::to_string(a->sizes[1]) + " by " +
                  std::to_string(b->sizes[0]) + "x" +
                  std::to_string(b->sizes[1]) +
                  " failed: " + cublasTable.cublasGetStatusName(status);
      // The handle's stream is the legacy default stream; the host (the
      // CPU's kernels, the caller) reads C next.
      else if (CUresult result = cu.cuStreamSynchronize(nullptr))
        problem = "cuStreamSynchronize failed: " + describe(result) +
                  " (waiting for cuBLAS)";
    }
  }
  if (!problem.empty())
    fail(std::move(problem));
  if (!onDevice) {
    ++cpuProducts;
    cpu(a, b, c);
    return;
  }
  ++cublasProducts;
  if (symmetric)
    ++cublasSymmetricProducts;
}

} // namespace

std::string amls::runtime::cuda::cublasLibraryCandidates() {
  std::lock_guard<std::mutex> lock(cublasMutex);
  return cublasLibrary.candidateNames();
}

std::string amls::runtime::cuda::loadCublas(const char *library) {
  std::lock_guard<std::mutex> lock(cublasMutex);
  return cublasLibrary.load(library);
}

std::optional<cuda::CublasGemm>
amls::runtime::cuda::planCublasGemm(MatrixLayout a, MatrixLayout b,
                                    MatrixLayout c) {
  std::optional<UnitStride> first = unitStride(b), second = unitStride(a),
                            result = unitStride(c);
  if (!first || !second || !result || !result->rowMajor)
    return std::nullopt;
  // A row-major view read column-major is its transpose, which t(C) =
  // t(B) t(A) wants; a column-major one is the matrix itself and is
  // transposed by cuBLAS.
  CublasGemm plan;
  plan.transposeFirst = !first->rowMajor;
  plan.transposeSecond = !second->rowMajor;
  for (int64_t value : {c.cols, c.rows, a.cols, first->leading, second->leading,
                        result->leading})
    if (value > INT_MAX)
      return std::nullopt;
  plan.m = static_cast<int>(c.cols);
  plan.n = static_cast<int>(c.rows);
  plan.k = static_cast<int>(a.cols);
  plan.ldFirst = static_cast<int>(first->leading);
  plan.ldSecond = static_cast<int>(second->leading);
  plan.ldResult = static_cast<int>(result->leading);
  return plan;
}

std::optional<cuda::CublasGemv>
amls::runtime::cuda::planCublasGemv(MatrixLayout a, MatrixLayout b,
                                    MatrixLayout c) {
  // A column C = A b (also a single cell), else a row C = a B.
  bool column = c.cols == 1;
  if (!column && c.rows != 1)
    return std::nullopt;
  MatrixLayout matrix = column ? a : b, vector = column ? b : a;
  std::optional<UnitStride> stored = unitStride(matrix);
  if (!stored)
    return std::nullopt;
  // Consecutive elements of the vector and of C: along b's and C's rows
  // for a column, along a's and C's columns for a row (any for one).
  auto increment = [](int64_t length, int64_t stride) {
    return length <= 1 ? int64_t(1) : stride;
  };
  int64_t incVector = column ? increment(vector.rows, vector.rowStride)
                             : increment(vector.cols, vector.colStride);
  int64_t incResult =
      column ? increment(c.rows, c.rowStride) : increment(c.cols, c.colStride);
  CublasGemv plan;
  plan.matrixIsFirst = column;
  // Read column-major, a row-major matrix is its transpose. A column wants
  // A itself (transposed back when row-major), a row wants t(B).
  int64_t storedRows = stored->rowMajor ? matrix.cols : matrix.rows;
  int64_t storedCols = stored->rowMajor ? matrix.rows : matrix.cols;
  plan.transpose = column ? stored->rowMajor : !stored->rowMajor;
  for (int64_t value :
       {storedRows, storedCols, stored->leading, incVector, incResult})
    if (value > INT_MAX || value < 1)
      return std::nullopt;
  plan.rows = static_cast<int>(storedRows);
  plan.cols = static_cast<int>(storedCols);
  plan.ld = static_cast<int>(stored->leading);
  plan.incVector = static_cast<int>(incVector);
  plan.incResult = static_cast<int>(incResult);
  return plan;
}

std::optional<cuda::CublasSyrk>
amls::runtime::cuda::planCublasSyrk(MatrixLayout a, MatrixLayout b,
                                    MatrixLayout c, int64_t minInner) {
  // B must read A's storage transposed, and C must be square and not a
  // vector (gemv's).
  if (b.rows != a.cols || b.cols != a.rows || b.rowStride != a.colStride ||
      b.colStride != a.rowStride || c.rows != a.rows || c.cols != a.rows ||
      c.rows < 2 || c.rows > kSyrkMaxOrder || a.cols < minInner)
    return std::nullopt;
  std::optional<UnitStride> stored = unitStride(a), result = unitStride(c);
  if (!stored || !result)
    return std::nullopt;
  for (int64_t value : {c.rows, a.cols, stored->leading, result->leading})
    if (value > INT_MAX)
      return std::nullopt;
  // Read column-major, a row-major A is t(A) (k x n): P = A t(A) is syrk's
  // op(M) t(op(M)) with op = transpose; a column-major A is itself (n x k).
  CublasSyrk plan;
  plan.transpose = stored->rowMajor;
  plan.n = static_cast<int>(c.rows);
  plan.k = static_cast<int>(a.cols);
  plan.ld = static_cast<int>(stored->leading);
  plan.ldResult = static_cast<int>(result->leading);
  return plan;
}

extern "C" void _mlir_ciface_amls_rt_gpu_gemm_f64(AmlsMatrixF64 *a,
                                                  AmlsMatrixF64 *b,
                                                  AmlsMatrixF64 *c) {
  gpuGemm<double>(a, b, c, _mlir_ciface_amls_rt_gemm_f64);
}

extern "C" void _mlir_ciface_amls_rt_gpu_gemm_f32(AmlsMatrixF32 *a,
                                                  AmlsMatrixF32 *b,
                                                  AmlsMatrixF32 *c) {
  gpuGemm<float>(a, b, c, _mlir_ciface_amls_rt_gemm_f32);
}

void amls::runtime::cuda::detail::countProducts(Statistics &statistics) {
  statistics.cublasProducts = cublasProducts;
  statistics.cublasSymmetricProducts = cublasSymmetricProducts;
  statistics.cpuProducts = cpuProducts;
}

void amls::runtime::cuda::detail::resetProducts() {
  cublasProducts = 0;
  cublasSymmetricProducts = 0;
  cpuProducts = 0;
}
