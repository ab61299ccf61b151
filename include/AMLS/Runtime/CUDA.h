//===- CUDA.h - The GPU side of the runtime (libamls_cuda_runtime) -*- C++
//-*-===//
//
// libamls_cuda_runtime implements the mgpu* functions that MLIR's gpu-to-llvm
// lowering calls (module load, kernel launch, streams, events, memory) on
// the CUDA driver API, which it loads with dlopen: the library builds and
// loads on machines without a driver, and says why when a program needs a
// device that is not there. Only --target=gpu sessions load it.
//
// Products: the dense matrix products the compiler hands to a library
// (amls-use-blas{library=cublas} under --target=gpu) call cuBLAS, and the
// products of a CSR and a dense matrix call cuSPARSE, both loaded with
// dlopen; without the library, or for operands it cannot take, they run on
// the CPU's BLAS or CSR kernels over the same (managed) memory.
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

#include "AMLS/Runtime/DeviceKernels.h"

#include <cstdint>
#include <optional>
#include <string>

namespace amls::runtime::cuda {

/// Blocks of the pool up to this many bytes (scalars, short vectors, the
/// partial results the host merges last) prefer host memory and are mapped
/// for the device, under --target=gpu: both sides use them where they are.
/// The compiler keeps small loops over such buffers on the CPU
/// (--amls-map-parallel-loops-to-gpu's min-work).
constexpr uint64_t kHostPreferredBytes = 64 << 10;

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
  /// The memory's peak bandwidth (GB/s) from its clock and bus width: what
  /// the bandwidth-bound benchmarks are measured against.
  double peakBandwidthGBs = 0;
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
  /// Bulk migrations of managed buffers (--amls-prefetch-gpu-buffers):
  /// inputs and what the host wrote, to the device; outputs and what a
  /// CPU-only operation reads, to the host.
  uint64_t migrationsToDevice = 0;
  uint64_t migrationBytesToDevice = 0;
  uint64_t migrationsToHost = 0;
  uint64_t migrationBytesToHost = 0;
  /// Device memory held for the library calls' scratch (syrk's matrix,
  /// cuSPARSE's buffers), reused from call to call: not a count since the
  /// last reset, what is held now.
  uint64_t scratchBytes = 0;
  /// Dense products run by cuBLAS (the symmetric ones, through syrk, also
  /// counted apart), and those run by the CPU's BLAS instead (no cuBLAS
  /// library, or operands cuBLAS cannot take).
  uint64_t cublasProducts = 0;
  uint64_t cublasSymmetricProducts = 0;
  uint64_t cpuProducts = 0;
  /// Products with a CSR operand and conversions of CSR to dense run by
  /// cuSPARSE, and those run by the runtime's CSR kernels instead.
  uint64_t cusparseCalls = 0;
  uint64_t cpuSparseCalls = 0;
};
Statistics getStatistics();
void resetStatistics();

/// Makes the host pool allocate its blocks as managed memory (after
/// initialize() succeeded). Cached system blocks are given back first.
void useManagedMemory();

/// "sm_90" for compute capability 9.0: the chip the device runs natively.
std::string chipName(int computeMajor, int computeMinor);

/// cuBLAS's library names, tried in order (the loader's search path, then
/// the toolkit AMLS was configured with).
std::string cublasLibraryCandidates();

/// Loads cuBLAS from `library` (null: the candidates) and looks up the
/// functions the runtime calls. Returns "" on success, else why not ("no
/// cuBLAS: ..."). The first successful load is kept for the process.
std::string loadCublas(const char *library = nullptr);

/// A dense matrix view as a memref descriptor gives it (elements).
struct MatrixLayout {
  int64_t rows, cols, rowStride, colStride;
};

/// How column-major cuBLAS computes the row-major C += A B: C is the
/// column-major t(C) = t(B) t(A), so cuBLAS's gemm is called as
/// gemm(transposeFirst, transposeSecond, m, n, k, 1, B, ldFirst, A,
/// ldSecond, 1, C, ldResult) with m = C's columns and n = C's rows.
struct CublasGemm {
  bool transposeFirst = false, transposeSecond = false;
  int m = 0, n = 0, k = 0;
  int ldFirst = 0, ldSecond = 0, ldResult = 0;
};

/// The cuBLAS call for C += A B, or nothing when an operand has no unit
/// stride, C is not row-major, or a size exceeds cuBLAS's int.
std::optional<CublasGemm> planCublasGemm(MatrixLayout a, MatrixLayout b,
                                         MatrixLayout c);

/// How cuBLAS's gemv computes C += A B when C is a vector: a column C = A b
/// takes A as the matrix (`matrixIsFirst`) and b as the vector, a row
/// C = a B (t(C) = t(B) t(a)) takes B and a. The call is gemv(transpose,
/// rows, cols, 1, matrix, ld, vector, incVector, 1, C, incResult), with the
/// matrix read column-major.
struct CublasGemv {
  bool transpose = false, matrixIsFirst = false;
  int rows = 0, cols = 0, ld = 0, incVector = 0, incResult = 0;
};

/// The cuBLAS gemv for C += A B, or nothing when C is not a vector, the
/// matrix operand has no unit stride, or a size exceeds cuBLAS's int.
std::optional<CublasGemv> planCublasGemv(MatrixLayout a, MatrixLayout b,
                                         MatrixLayout c);

/// How cuBLAS computes C += A B when B is the transposed view of A's
/// storage (amls.tsmm: t(X) X or X t(X)), with half of gemm's
/// multiplications. The product P (n x n) is symmetric, so C read row- or
/// column-major is the same. The calls: syrk(lower, transpose, n, k, 1, A,
/// ld, 0, S, n) forms P's lower triangle in a zeroed n x n scratch S
/// (column-major); scal(n, 1/2, S, n + 1) halves S's diagonal; two in-place
/// geams add S and then t(S) to C (ldResult): P = S + t(S).
struct CublasSyrk {
  bool transpose = false;
  int n = 0, k = 0, ld = 0, ldResult = 0;
};

/// The inner dimension below which gemm computes a symmetric product:
/// syrk saves n^2 k / 2 multiply-adds, and its scratch costs about 5 n^2
/// memory accesses (the zeroing, the diagonal, two geams reading and
/// writing C). At an H200's 60 TFLOP/s of f64 and 4.8 TB/s, those cost
/// the same near k = 500. An estimate: not measured on a GPU.
constexpr int64_t kSyrkMinInner = 512;
/// The largest n whose n x n scratch cuBLAS's int indices address.
constexpr int64_t kSyrkMaxOrder = 46340;

/// The cuBLAS syrk for C += A B, or nothing when B is not the transposed
/// view of A (the caller also checks that both start at the same address),
/// C is a vector or larger than kSyrkMaxOrder, the inner dimension is
/// below `minInner`, A has no unit stride, or a size exceeds cuBLAS's int.
std::optional<CublasSyrk> planCublasSyrk(MatrixLayout a, MatrixLayout b,
                                         MatrixLayout c,
                                         int64_t minInner = kSyrkMinInner);

/// cuSPARSE's library names, tried in order (as cuBLAS's).
std::string cusparseLibraryCandidates();

/// Loads cuSPARSE from `library` (null: the candidates) and looks up the
/// functions the runtime calls. Returns "" on success, else why not ("no
/// cuSPARSE: ..."). The first successful load is kept for the process.
std::string loadCusparse(const char *library = nullptr);

/// The products with one CSR operand A that cuSPARSE computes: C = A B and
/// C = t(A) B (amls_rt_csr_spmm, amls_rt_csr_spmm_t) and C = D A for a
/// dense D (amls_rt_dense_csr_mm), the last as t(C) = t(A) t(D).
enum class SparseProduct { SparseDense, TransposedSparseDense, DenseSparse };

/// A dense operand as cuSPARSE's cusparseCreateDnMat takes it: rows x cols
/// with leading dimension ld, stored row- or column-major.
struct CusparseDense {
  int64_t rows = 0, cols = 0, ld = 0;
  bool rowMajor = true;
};

/// How cuSPARSE computes a SparseProduct: C' = op(A) B', op(A) = t(A) when
/// `transposeSparse`, where B' and C' are the dense operand and the result
/// as cuSPARSE reads them (t(D) and t(C) for DenseSparse). SpMV when
/// `vector` (B' and C' are single contiguous columns), SpMM otherwise; or,
/// with `toDense`, A written into the dense `result` (SparseToDense). A's
/// indices are passed as 32 bits (its row pointers narrowed).
struct CusparsePlan {
  bool vector = false, transposeSparse = false, toDense = false;
  CusparseDense dense, result;
};

/// How cuSPARSE reads a dense matrix it converts to CSR (its two phases,
/// amls_rt_csr_count_dense and amls_rt_csr_from_dense, both there), or
/// nothing when it is empty, has no unit stride, or has more cells than
/// 32-bit indices count (every cell may be an entry).
std::optional<CusparseDense> planCusparseFromDense(MatrixLayout dense);

/// The plan for writing a CSR A of `sparseRows` x `sparseCols` and `nnz`
/// entries into the dense `result` (amls_rt_csr_to_dense), or nothing when
/// the shapes differ, A has no rows or columns, its sizes exceed 32-bit
/// indices or the result has no unit stride.
std::optional<CusparsePlan> planCusparseToDense(int64_t sparseRows,
                                                int64_t sparseCols, int64_t nnz,
                                                MatrixLayout result);

/// The plan for a product with a CSR A of `sparseRows` x `sparseCols` and
/// `nnz` entries, or nothing when the shapes do not match, an operand is
/// empty, A's sizes exceed 32-bit indices, a dense operand has no unit
/// stride, or B' and C' are stored in different orders.
std::optional<CusparsePlan>
planCusparseProduct(SparseProduct kind, int64_t sparseRows, int64_t sparseCols,
                    int64_t nnz, MatrixLayout dense, MatrixLayout result);

} // namespace amls::runtime::cuda


#endif // AMLS_RUNTIME_CUDA_H
