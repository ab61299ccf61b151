/*===- DeviceKernels.h - libamls_cuda_runtime's functions, C ABI ---*- C
-*-===*\
|*                                                                            *|
|* The functions of libamls_cuda_runtime that compiled --target=gpu programs  *|
|* call: products on cuBLAS and cuSPARSE, the conversions between CSR and     *|
|* dense, and bulk migrations of managed memory. Each takes the arguments of  *|
|* its CPU twin (Runtime.h, SparseKernels.h; the twins are paired in          *|
|* RuntimeFunctions.def) and falls back to it where the library is missing    *|
|* or cannot take the operands.                                               *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_RUNTIME_DEVICEKERNELS_H
#define AMLS_RUNTIME_DEVICEKERNELS_H

#include "AMLS/Runtime/ABI.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// c = a * b on cuBLAS (amls_rt_gemm_f64/f32's arguments).
void _mlir_ciface_amls_rt_gpu_gemm_f64(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                                       AmlsMatrixF64 *c);
void _mlir_ciface_amls_rt_gpu_gemm_f32(AmlsMatrixF32 *a, AmlsMatrixF32 *b,
                                       AmlsMatrixF32 *c);

/// The CSR products on cuSPARSE: c = a * b, c = t(a) * b and c = a * b for a
/// dense a and a CSR b (amls_rt_csr_spmm, _spmm_t, amls_rt_dense_csr_mm).
void _mlir_ciface_amls_rt_gpu_csr_spmm(AmlsVectorI64 *a_rowptr,
                                       AmlsVectorI32 *a_colidx,
                                       AmlsVectorF64 *a_values, int64_t a_cols,
                                       AmlsMatrixF64 *b, AmlsMatrixF64 *c);
void _mlir_ciface_amls_rt_gpu_csr_spmm_t(AmlsVectorI64 *a_rowptr,
                                         AmlsVectorI32 *a_colidx,
                                         AmlsVectorF64 *a_values,
                                         int64_t a_cols, AmlsMatrixF64 *b,
                                         AmlsMatrixF64 *c);
void _mlir_ciface_amls_rt_gpu_dense_csr_mm(AmlsMatrixF64 *a,
                                           AmlsVectorI64 *b_rowptr,
                                           AmlsVectorI32 *b_colidx,
                                           AmlsVectorF64 *b_values,
                                           int64_t b_cols, AmlsMatrixF64 *c);

/// CSR to dense and back on cuSPARSE (amls_rt_csr_to_dense,
/// amls_rt_csr_count_dense, amls_rt_csr_from_dense).
void _mlir_ciface_amls_rt_gpu_csr_to_dense(AmlsVectorI64 *a_rowptr,
                                           AmlsVectorI32 *a_colidx,
                                           AmlsVectorF64 *a_values,
                                           int64_t a_cols, AmlsMatrixF64 *out);
int64_t _mlir_ciface_amls_rt_gpu_csr_count_dense(AmlsMatrixF64 *x,
                                                 AmlsVectorI64 *rowptr);
void _mlir_ciface_amls_rt_gpu_csr_from_dense(AmlsMatrixF64 *x,
                                             AmlsVectorI64 *rowptr,
                                             AmlsVectorI32 *colidx,
                                             AmlsVectorF64 *values);

/// Migrates the managed bytes at `address` to the device (`to_device` 1) or
/// the host in bulk, as --amls-prefetch-gpu-buffers has compiled programs
/// do; host memory and blocks of at most 64 KiB (kHostPreferredBytes,
/// CUDA.h) are left where they are. A hint: it never stops the program for
/// a range the driver refuses. Counted in Statistics::migrations*.
void amls_rt_gpu_prefetch(int64_t address, int64_t bytes, int32_t to_device);

#ifdef __cplusplus
}
#endif

#endif /* AMLS_RUNTIME_DEVICEKERNELS_H */
