//===- Cusparse.cpp - Products with a CSR operand through cuSPARSE --------===//
//
// The CSR products amls-use-blas{library=cublas} hands to a library under
// --target=gpu: _mlir_ciface_amls_rt_gpu_csr_spmm, _csr_spmm_t and
// _dense_csr_mm take the CPU kernels' arguments (SparseKernels.h) and call
// cuSPARSE's SpMV (a vector result) or SpMM on them; _csr_to_dense calls
// its SparseToDense. The CSR arrays and the
// dense operands live in managed memory (CUDA.h). cuSPARSE wants row
// pointers and column indices of one width: the row pointers (rows + 1
// entries, where the column indices are nnz) are narrowed to 32 bits into
// device memory for each call (a scratch block kept between calls, as is
// cuSPARSE's buffer). As cuBLAS, cuSPARSE is loaded on first use;
// where it is missing, or the operands do not fit, the runtime's CSR kernel
// computes the product over the same memory (counted in the statistics).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/CUDA.h"
#include "AMLS/Runtime/SparseKernels.h"

#include "../Core/Failure.h"
#include "Driver.h"

#include <cusparse.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <mutex>
#include <vector>

using namespace amls::runtime;
using namespace amls::runtime::cuda::detail;

namespace {

/// cuSPARSE's functions.
struct Cusparse {
#define AMLS_CUSPARSE_SYMBOL(name) decltype(&::name) name = nullptr;
#include "CusparseSymbols.def"
};

std::mutex cusparseMutex;

/// The table's functions, bound to their (versioned) names.
std::vector<LibrarySymbol> cusparseSymbols(Cusparse &table) {
  return {
#define AMLS_CUSPARSE_SYMBOL(name)                                             \
  {AMLS_CUDA_STRINGIFY_EXPANDED(name), reinterpret_cast<void **>(&table.name)},
#include "CusparseSymbols.def"
  };
}

// CUDA 12 and 13 both ship cuSPARSE 12.
DynamicLibrary<Cusparse> cusparseLibrary("no cuSPARSE",
                                         {
                                             "libcusparse.so.12",
#ifdef AMLS_CUDA_LIBRARY_DIR
                                             AMLS_CUDA_LIBRARY_DIR
                                             "/libcusparse.so",
#endif
                                         },
                                         cusparseSymbols);
/// Its functions, once loaded (under cusparseMutex).
const Cusparse &cusparseTable = cusparseLibrary.functions();

std::atomic<uint64_t> cusparseCalls{0};
std::atomic<uint64_t> cpuSparseCalls{0};

/// The arguments of one CSR product, as the CPU kernels take them.
struct CsrOperand {
  AmlsVectorI64 *rowptr;
  AmlsVectorI32 *colidx;
  AmlsVectorF64 *values;
  int64_t cols;
  int64_t rows() const { return rowptr->sizes[0] - 1; }
  const int64_t *rowPointers() const {
    return rowptr->aligned + rowptr->offset;
  }
  /// A CSR may be rows of a larger one (its offsets need not start at 0):
  /// its first entry, and its number of entries.
  int64_t first() const { return rowPointers()[0]; }
  int64_t entries() const {
    return rows() >= 0 ? rowPointers()[rows()] - first() : 0;
  }
};

/// cuSPARSE's handle and the scratch blocks, kept from one call to the
/// next; under cusparseMutex (a handle takes one call at a time).
cusparseHandle_t handle = nullptr;
DeviceScratch rowPointerBlock, bufferBlock;

/// The handle, created on first use: "" when there is one.
std::string readyHandleLocked() {
  if (handle)
    return "";
  if (cusparseStatus_t status = cusparseTable.cusparseCreate(&handle)) {
    handle = nullptr;
    return std::string("cuSPARSE: cusparseCreate failed: ") +
           cusparseTable.cusparseGetErrorName(status);
  }
  return "";
}

/// The steps of one cuSPARSE call sequence: each runs only while the ones
/// before succeeded; the first failure is kept with its step's name.
struct Steps {
  cusparseStatus_t status = CUSPARSE_STATUS_SUCCESS;
  std::string failed;
  template <typename Run> void operator()(const char *name, Run run) {
    if (status == CUSPARSE_STATUS_SUCCESS &&
        (status = run()) != CUSPARSE_STATUS_SUCCESS)
      failed = name;
  }
};

/// Runs the planned product or conversion on cuSPARSE: "" on success, else
/// what failed. The caller holds cusparseMutex.
std::string runOnCusparse(const Driver &cu, const cuda::CusparsePlan &plan,
                          const CsrOperand &a, int64_t nnz, const double *dense,
                          double *result) {
  const Cusparse &sp = cusparseTable;
  if (std::string problem = readyHandleLocked(); !problem.empty())
    return problem;
  // The row pointers narrowed to cuSPARSE's 32-bit indices (nnz fits).
  int64_t rows = a.rows();
  std::vector<int32_t> narrowed(rows + 1);
  const int64_t *wide = a.rowPointers();
  for (int64_t i = 0; i <= rows; ++i)
    narrowed[i] = static_cast<int32_t>(wide[i] - wide[0]);
  void *rowptr = rowPointerBlock.get(cu, narrowed.size() * sizeof(int32_t));
  if (!rowptr)
    return "cuMemAlloc failed for the row pointers of a " +
           std::to_string(rows) + " x " + std::to_string(a.cols) + " CSR";
  // From pageable memory the copy has taken `narrowed` when it returns.
  if (CUresult result =
          cu.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(rowptr),
                           reinterpret_cast<CUdeviceptr>(narrowed.data()),
                           narrowed.size() * sizeof(int32_t), nullptr))
    return "cuMemcpyAsync failed: " + describe(result) +
           " (the row pointers for cuSPARSE)";
  Steps step;
  auto allocateBuffer = [&](size_t bytes, void *&buffer) {
    buffer = bufferBlock.get(cu, bytes);
    return buffer ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
  };
  cusparseConstSpMatDescr_t sparse = nullptr;
  step("cusparseCreateConstCsr", [&] {
    return sp.cusparseCreateConstCsr(
        &sparse, rows, a.cols, nnz, rowptr,
        a.colidx->aligned + a.colidx->offset + a.first(),
        a.values->aligned + a.values->offset + a.first(), CUSPARSE_INDEX_32I,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  });
  cusparseOperation_t op = plan.transposeSparse
                               ? CUSPARSE_OPERATION_TRANSPOSE
                               : CUSPARSE_OPERATION_NON_TRANSPOSE;
  const double one = 1, zero = 0;
  size_t bufferBytes = 0;
  void *buffer = nullptr;
  if (plan.toDense) {
    cusparseDnMatDescr_t c = nullptr;
    step("cusparseCreateDnMat", [&] {
      return sp.cusparseCreateDnMat(&c, plan.result.rows, plan.result.cols,
                                    plan.result.ld, result, CUDA_R_64F,
                                    plan.result.rowMajor ? CUSPARSE_ORDER_ROW
                                                         : CUSPARSE_ORDER_COL);
    });
    step("cusparseSparseToDense_bufferSize", [&] {
      return sp.cusparseSparseToDense_bufferSize(
          handle, sparse, c, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &bufferBytes);
    });
    step("cuMemAlloc of SparseToDense's buffer",
         [&] { return allocateBuffer(bufferBytes, buffer); });
    step("cusparseSparseToDense", [&] {
      return sp.cusparseSparseToDense(
          handle, sparse, c, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, buffer);
    });
    if (c)
      sp.cusparseDestroyDnMat(c);
  } else if (plan.vector) {
    cusparseConstDnVecDescr_t x = nullptr;
    cusparseDnVecDescr_t y = nullptr;
    step("cusparseCreateConstDnVec", [&] {
      return sp.cusparseCreateConstDnVec(&x, plan.dense.rows, dense,
                                         CUDA_R_64F);
    });
    step("cusparseCreateDnVec", [&] {
      return sp.cusparseCreateDnVec(&y, plan.result.rows, result, CUDA_R_64F);
    });
    step("cusparseSpMV_bufferSize", [&] {
      return sp.cusparseSpMV_bufferSize(handle, op, &one, sparse, x, &zero, y,
                                        CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT,
                                        &bufferBytes);
    });
    step("cuMemAlloc of SpMV's buffer",
         [&] { return allocateBuffer(bufferBytes, buffer); });
    step("cusparseSpMV", [&] {
      return sp.cusparseSpMV(handle, op, &one, sparse, x, &zero, y, CUDA_R_64F,
                             CUSPARSE_SPMV_ALG_DEFAULT, buffer);
    });
    if (x)
      sp.cusparseDestroyDnVec(x);
    if (y)
      sp.cusparseDestroyDnVec(y);
  } else {
    auto order = [](const cuda::CusparseDense &m) {
      return m.rowMajor ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL;
    };
    cusparseConstDnMatDescr_t b = nullptr;
    cusparseDnMatDescr_t c = nullptr;
    step("cusparseCreateConstDnMat", [&] {
      return sp.cusparseCreateConstDnMat(&b, plan.dense.rows, plan.dense.cols,
                                         plan.dense.ld, dense, CUDA_R_64F,
                                         order(plan.dense));
    });
    step("cusparseCreateDnMat", [&] {
      return sp.cusparseCreateDnMat(&c, plan.result.rows, plan.result.cols,
                                    plan.result.ld, result, CUDA_R_64F,
                                    order(plan.result));
    });
    step("cusparseSpMM_bufferSize", [&] {
      return sp.cusparseSpMM_bufferSize(
          handle, op, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, sparse, b, &zero,
          c, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT, &bufferBytes);
    });
    step("cuMemAlloc of SpMM's buffer",
         [&] { return allocateBuffer(bufferBytes, buffer); });
    step("cusparseSpMM", [&] {
      return sp.cusparseSpMM(handle, op, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                             sparse, b, &zero, c, CUDA_R_64F,
                             CUSPARSE_SPMM_ALG_DEFAULT, buffer);
    });
    if (b)
      sp.cusparseDestroyDnMat(b);
    if (c)
      sp.cusparseDestroyDnMat(c);
  }
  if (sparse)
    sp.cusparseDestroySpMat(sparse);
  // The handle's stream is the legacy default stream: the host reads the
  // result next, and the next call reuses the scratch (unless it is large).
  CUresult waited = cu.cuStreamSynchronize(nullptr);
  rowPointerBlock.shrink(cu);
  bufferBlock.shrink(cu);
  if (step.status != CUSPARSE_STATUS_SUCCESS)
    return "cuSPARSE: " + step.failed + " failed for a " +
           std::to_string(rows) + " x " + std::to_string(a.cols) +
           " CSR with " + std::to_string(nnz) +
           " entries: " + sp.cusparseGetErrorName(step.status);
  if (waited != CUDA_SUCCESS)
    return "cuStreamSynchronize failed: " + describe(waited) +
           " (waiting for cuSPARSE)";
  return "";
}

/// The planned call on cuSPARSE where it can take it (`plan`), else `cpu`
/// (the runtime's CSR kernel) over the same memory. `dense` is the product's
/// dense operand (null for a conversion).
template <typename Cpu>
void onCusparse(std::optional<cuda::CusparsePlan> plan, const CsrOperand &a,
                AmlsMatrixF64 *dense, AmlsMatrixF64 *result, Cpu cpu) {
  int64_t nnz = a.entries();
  if (!plan || !cuda::loadCusparse().empty()) {
    ++cpuSparseCalls;
    cpu();
    return;
  }
  // As for cuBLAS: what may fail is reported after the scope.
  std::string problem;
  bool onDevice = true;
  {
    ScopedContext scoped;
    const Driver &cu = ready();
    for (const void *pointer :
         {static_cast<const void *>(a.colidx->aligned + a.colidx->offset),
          static_cast<const void *>(a.values->aligned + a.values->offset),
          static_cast<const void *>(dense ? origin(dense) : origin(result)),
          static_cast<const void *>(origin(result))})
      onDevice = onDevice && isManaged(cu, pointer);
    if (onDevice) {
      std::lock_guard<std::mutex> lock(cusparseMutex);
      problem = runOnCusparse(cu, *plan, a, nnz,
                              dense ? origin(dense) : nullptr, origin(result));
    }
  }
  if (!problem.empty())
    fail(std::move(problem));
  if (!onDevice) {
    ++cpuSparseCalls;
    cpu();
    return;
  }
  ++cusparseCalls;
}

/// A product with a CSR operand, on cuSPARSE where it can take it.
template <typename Cpu>
void sparseProduct(cuda::SparseProduct kind, const CsrOperand &a,
                   AmlsMatrixF64 *dense, AmlsMatrixF64 *result, Cpu cpu) {
  int64_t rows = a.rows();
  onCusparse(rows < 0
                 ? std::nullopt
                 : cuda::planCusparseProduct(kind, rows, a.cols, a.entries(),
                                             layoutOf(dense), layoutOf(result)),
             a, dense, result, cpu);
}

cuda::MatrixLayout transposed(cuda::MatrixLayout m) {
  return {m.cols, m.rows, m.colStride, m.rowStride};
}

/// Dense-to-CSR conversions whose count ran on cuSPARSE and whose fill has
/// not: that fill runs there too, on the row pointers cuSPARSE counted
/// (the CPU's fill given them could disagree). Under cusparseMutex.
struct PendingConversion {
  const double *dense;
  const int64_t *rowptr;
};
std::vector<PendingConversion> pendingConversions;

/// At most this many conversions pending: a count whose fill never runs (a
/// program that failed between them) is forgotten eventually.
constexpr size_t kMaxPendingConversions = 64;

/// Removes the pending conversion of `dense` into `rowptr`; whether there
/// was one.
bool takePending(const double *dense, const int64_t *rowptr) {
  auto it =
      std::find_if(pendingConversions.begin(), pendingConversions.end(),
                   [&](const PendingConversion &pending) {
                     return pending.dense == dense && pending.rowptr == rowptr;
                   });
  if (it == pendingConversions.end())
    return false;
  pendingConversions.erase(it);
  return true;
}

/// Dense to CSR on cuSPARSE (the caller holds cusparseMutex): the analysis
/// counts the entries into `nnz` and their row offsets into `rowptr`
/// (widened); with `colidx` and `values`, where the analysis must count
/// `nnz` again, the conversion fills them and `rowptr` again. "" on
/// success.
std::string denseToCsr(const Driver &cu, const cuda::CusparseDense &layout,
                       const double *dense, int64_t &nnz, int64_t *rowptr,
                       int32_t *colidx, double *values) {
  const Cusparse &sp = cusparseTable;
  if (std::string problem = readyHandleLocked(); !problem.empty())
    return problem;
  int64_t rows = layout.rows, cols = layout.cols;
  void *offsets = rowPointerBlock.get(cu, (rows + 1) * sizeof(int32_t));
  if (!offsets)
    return "cuMemAlloc failed for the row offsets of a " +
           std::to_string(rows) + " x " + std::to_string(cols) + " CSR";
  Steps step;
  cusparseConstDnMatDescr_t matrix = nullptr;
  cusparseSpMatDescr_t sparse = nullptr;
  size_t bufferBytes = 0;
  void *buffer = nullptr;
  int64_t counted = 0, ignoredRows = 0, ignoredCols = 0;
  step("cusparseCreateConstDnMat", [&] {
    return sp.cusparseCreateConstDnMat(
        &matrix, rows, cols, layout.ld, dense, CUDA_R_64F,
        layout.rowMajor ? CUSPARSE_ORDER_ROW : CUSPARSE_ORDER_COL);
  });
  step("cusparseCreateCsr", [&] {
    return sp.cusparseCreateCsr(&sparse, rows, cols, 0, offsets, nullptr,
                                nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F);
  });
  step("cusparseDenseToSparse_bufferSize", [&] {
    return sp.cusparseDenseToSparse_bufferSize(
        handle, matrix, sparse, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT,
        &bufferBytes);
  });
  step("cuMemAlloc of DenseToSparse's buffer", [&] {
    buffer = bufferBlock.get(cu, bufferBytes);
    return buffer ? CUSPARSE_STATUS_SUCCESS : CUSPARSE_STATUS_ALLOC_FAILED;
  });
  step("cusparseDenseToSparse_analysis", [&] {
    return sp.cusparseDenseToSparse_analysis(
        handle, matrix, sparse, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer);
  });
  step("cusparseSpMatGetSize", [&] {
    return sp.cusparseSpMatGetSize(sparse, &ignoredRows, &ignoredCols,
                                   &counted);
  });
  bool filling = colidx && values;
  bool agrees = !filling || counted == nnz;
  if (filling && agrees) {
    step("cusparseCsrSetPointers", [&] {
      return sp.cusparseCsrSetPointers(sparse, offsets, colidx, values);
    });
    step("cusparseDenseToSparse_convert", [&] {
      return sp.cusparseDenseToSparse_convert(
          handle, matrix, sparse, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer);
    });
  }
  if (matrix)
    sp.cusparseDestroyDnMat(matrix);
  if (sparse)
    sp.cusparseDestroySpMat(sparse);
  CUresult waited = cu.cuStreamSynchronize(nullptr);
  bufferBlock.shrink(cu);
  std::string what = "a " + std::to_string(rows) + " x " +
                     std::to_string(cols) + " matrix to CSR";
  if (step.status != CUSPARSE_STATUS_SUCCESS)
    return "cuSPARSE: " + step.failed + " failed for " + what + ": " +
           sp.cusparseGetErrorName(step.status);
  if (waited != CUDA_SUCCESS)
    return "cuStreamSynchronize failed: " + describe(waited) +
           " (waiting for cuSPARSE)";
  if (!agrees)
    return "cuSPARSE: converting " + what + " counted " +
           std::to_string(counted) + " entries, where its count had " +
           std::to_string(nnz);
  // The row offsets, widened into AMLS's row pointers: after the analysis
  // for the count (its total is the count's), and again after the
  // conversion, whose offsets are final whatever the analysis left.
  if (!filling)
    nnz = counted;
  {
    std::vector<int32_t> narrowed(rows + 1);
    if (CUresult result =
            cu.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(narrowed.data()),
                             reinterpret_cast<CUdeviceptr>(offsets),
                             narrowed.size() * sizeof(int32_t), nullptr);
        result != CUDA_SUCCESS ||
        (result = cu.cuStreamSynchronize(nullptr)) != CUDA_SUCCESS)
      return "cuMemcpyAsync failed: " + describe(result) +
             " (the row offsets cuSPARSE counted)";
    for (int64_t i = 0; i < rows; ++i)
      rowptr[i] = narrowed[i];
    rowptr[rows] = nnz;
  }
  rowPointerBlock.shrink(cu);
  return "";
}

} // namespace

std::string amls::runtime::cuda::cusparseLibraryCandidates() {
  std::lock_guard<std::mutex> lock(cusparseMutex);
  return cusparseLibrary.candidateNames();
}

std::string amls::runtime::cuda::loadCusparse(const char *library) {
  std::lock_guard<std::mutex> lock(cusparseMutex);
  return cusparseLibrary.load(library);
}

std::optional<cuda::CusparsePlan> amls::runtime::cuda::planCusparseProduct(
    SparseProduct kind, int64_t sparseRows, int64_t sparseCols, int64_t nnz,
    MatrixLayout dense, MatrixLayout result) {
  CusparsePlan plan;
  plan.transposeSparse = kind != SparseProduct::SparseDense;
  // D A is computed as t(C) = t(A) t(D).
  MatrixLayout b =
      kind == SparseProduct::DenseSparse ? transposed(dense) : dense;
  MatrixLayout c =
      kind == SparseProduct::DenseSparse ? transposed(result) : result;
  int64_t opRows = plan.transposeSparse ? sparseCols : sparseRows;
  int64_t opCols = plan.transposeSparse ? sparseRows : sparseCols;
  if (b.rows != opCols || c.rows != opRows || c.cols != b.cols)
    return std::nullopt;
  if (opRows <= 0 || opCols <= 0 || b.cols <= 0 || nnz < 0)
    return std::nullopt;
  if (sparseRows >= INT_MAX || sparseCols > INT_MAX || nnz > INT_MAX)
    return std::nullopt;
  auto contiguousColumn = [](MatrixLayout m) {
    return m.cols == 1 && (m.rows <= 1 || m.rowStride == 1);
  };
  plan.vector = contiguousColumn(b) && contiguousColumn(c);
  if (plan.vector) {
    plan.dense = {b.rows, 1, b.rows, false};
    plan.result = {c.rows, 1, c.rows, false};
    return plan;
  }
  std::optional<UnitStride> storedB = unitStride(b), storedC = unitStride(c);
  if (!storedB || !storedC || storedB->rowMajor != storedC->rowMajor)
    return std::nullopt;
  plan.dense = {b.rows, b.cols, storedB->leading, storedB->rowMajor};
  plan.result = {c.rows, c.cols, storedC->leading, storedC->rowMajor};
  return plan;
}

std::optional<cuda::CusparsePlan>
amls::runtime::cuda::planCusparseToDense(int64_t sparseRows, int64_t sparseCols,
                                         int64_t nnz, MatrixLayout result) {
  if (result.rows != sparseRows || result.cols != sparseCols ||
      sparseRows <= 0 || sparseCols <= 0 || nnz < 0 || sparseRows >= INT_MAX ||
      sparseCols > INT_MAX || nnz > INT_MAX)
    return std::nullopt;
  std::optional<UnitStride> stored = unitStride(result);
  if (!stored)
    return std::nullopt;
  CusparsePlan plan;
  plan.toDense = true;
  plan.result = {result.rows, result.cols, stored->leading, stored->rowMajor};
  return plan;
}

extern "C" void _mlir_ciface_amls_rt_gpu_csr_to_dense(AmlsVectorI64 *a_rowptr,
                                                      AmlsVectorI32 *a_colidx,
                                                      AmlsVectorF64 *a_values,
                                                      int64_t a_cols,
                                                      AmlsMatrixF64 *out) {
  CsrOperand a{a_rowptr, a_colidx, a_values, a_cols};
  int64_t rows = a.rows();
  onCusparse(rows < 0 ? std::nullopt
                      : cuda::planCusparseToDense(rows, a_cols, a.entries(),
                                                  layoutOf(out)),
             a, nullptr, out, [&] {
               _mlir_ciface_amls_rt_csr_to_dense(a_rowptr, a_colidx, a_values,
                                                 a_cols, out);
             });
}

extern "C" void _mlir_ciface_amls_rt_gpu_csr_spmm(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsMatrixF64 *b, AmlsMatrixF64 *c) {
  sparseProduct(cuda::SparseProduct::SparseDense,
                {a_rowptr, a_colidx, a_values, a_cols}, b, c, [&] {
                  _mlir_ciface_amls_rt_csr_spmm(a_rowptr, a_colidx, a_values,
                                                a_cols, b, c);
                });
}

extern "C" void _mlir_ciface_amls_rt_gpu_csr_spmm_t(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsMatrixF64 *b, AmlsMatrixF64 *c) {
  sparseProduct(cuda::SparseProduct::TransposedSparseDense,
                {a_rowptr, a_colidx, a_values, a_cols}, b, c, [&] {
                  _mlir_ciface_amls_rt_csr_spmm_t(a_rowptr, a_colidx, a_values,
                                                  a_cols, b, c);
                });
}

extern "C" void _mlir_ciface_amls_rt_gpu_dense_csr_mm(
    AmlsMatrixF64 *a, AmlsVectorI64 *b_rowptr, AmlsVectorI32 *b_colidx,
    AmlsVectorF64 *b_values, int64_t b_cols, AmlsMatrixF64 *c) {
  sparseProduct(cuda::SparseProduct::DenseSparse,
                {b_rowptr, b_colidx, b_values, b_cols}, a, c, [&] {
                  _mlir_ciface_amls_rt_dense_csr_mm(a, b_rowptr, b_colidx,
                                                    b_values, b_cols, c);
                });
}

std::optional<cuda::CusparseDense>
amls::runtime::cuda::planCusparseFromDense(MatrixLayout dense) {
  // Every cell may be an entry: the count must fit 32-bit indices.
  if (dense.rows <= 0 || dense.cols <= 0 || dense.rows >= INT_MAX ||
      dense.cols > INT_MAX || dense.rows * dense.cols > INT_MAX)
    return std::nullopt;
  std::optional<UnitStride> stored = unitStride(dense);
  if (!stored)
    return std::nullopt;
  return CusparseDense{dense.rows, dense.cols, stored->leading,
                       stored->rowMajor};
}

extern "C" int64_t
_mlir_ciface_amls_rt_gpu_csr_count_dense(AmlsMatrixF64 *x,
                                         AmlsVectorI64 *rowptr) {
  int64_t *offsets = rowptr->aligned + rowptr->offset;
  {
    // A count starts afresh (a failed program may have left one pending).
    std::lock_guard<std::mutex> lock(cusparseMutex);
    takePending(origin(x), offsets);
  }
  std::optional<cuda::CusparseDense> layout =
      cuda::planCusparseFromDense(layoutOf(x));
  // Row pointers of another length: the CPU's kernel says so.
  if (!layout || rowptr->sizes[0] != layout->rows + 1 ||
      !cuda::loadCusparse().empty()) {
    ++cpuSparseCalls;
    return _mlir_ciface_amls_rt_csr_count_dense(x, rowptr);
  }
  std::string problem;
  bool onDevice = false;
  int64_t nnz = 0;
  {
    ScopedContext scoped;
    const Driver &cu = ready();
    onDevice = isManaged(cu, origin(x));
    if (onDevice) {
      std::lock_guard<std::mutex> lock(cusparseMutex);
      problem =
          denseToCsr(cu, *layout, origin(x), nnz, offsets, nullptr, nullptr);
      if (problem.empty()) {
        if (pendingConversions.size() == kMaxPendingConversions)
          pendingConversions.erase(pendingConversions.begin());
        pendingConversions.push_back({origin(x), offsets});
      }
    }
  }
  if (!problem.empty())
    fail(std::move(problem));
  if (!onDevice) {
    ++cpuSparseCalls;
    return _mlir_ciface_amls_rt_csr_count_dense(x, rowptr);
  }
  ++cusparseCalls;
  return nnz;
}

extern "C" void _mlir_ciface_amls_rt_gpu_csr_from_dense(AmlsMatrixF64 *x,
                                                        AmlsVectorI64 *rowptr,
                                                        AmlsVectorI32 *colidx,
                                                        AmlsVectorF64 *values) {
  int64_t *offsets = rowptr->aligned + rowptr->offset;
  bool countedThere = false;
  {
    std::lock_guard<std::mutex> lock(cusparseMutex);
    countedThere = takePending(origin(x), offsets);
  }
  if (!countedThere) {
    ++cpuSparseCalls;
    _mlir_ciface_amls_rt_csr_from_dense(x, rowptr, colidx, values);
    return;
  }
  // The count's plan held for this matrix (and a pending count is only
  // recorded with one).
  std::optional<cuda::CusparseDense> planned =
      cuda::planCusparseFromDense(layoutOf(x));
  if (!planned)
    fail("cuSPARSE counted the entries of a matrix it cannot convert");
  cuda::CusparseDense layout = *planned;
  int64_t nnz = offsets[layout.rows];
  if (nnz == 0) {
    ++cusparseCalls;
    return;
  }
  std::string problem;
  {
    ScopedContext scoped;
    const Driver &cu = ready();
    int32_t *columns = colidx->aligned + colidx->offset;
    double *entries = values->aligned + values->offset;
    if (!isManaged(cu, columns) || !isManaged(cu, entries)) {
      problem = "cuSPARSE counted the entries of a " +
                std::to_string(layout.rows) + " x " +
                std::to_string(layout.cols) +
                " matrix, whose CSR arrays are not device memory";
    } else {
      std::lock_guard<std::mutex> lock(cusparseMutex);
      problem =
          denseToCsr(cu, layout, origin(x), nnz, offsets, columns, entries);
    }
  }
  if (!problem.empty())
    fail(std::move(problem));
  ++cusparseCalls;
}

void amls::runtime::cuda::detail::countSparseProducts(Statistics &statistics) {
  statistics.cusparseCalls = cusparseCalls;
  statistics.cpuSparseCalls = cpuSparseCalls;
}

void amls::runtime::cuda::detail::resetSparseProducts() {
  cusparseCalls = 0;
  cpuSparseCalls = 0;
}
