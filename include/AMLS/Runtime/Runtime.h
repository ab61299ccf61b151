/*===- Runtime.h - libamls_runtime C ABI ---------------------------*- C
-*-===*\
|*                                                                            *|
|* The functions compiled AMLS programs call. Matrices cross the boundary as  *|
|* MLIR memref descriptors (StridedMemRefType<double, 2>); functions taking   *|
|* them use the `_mlir_ciface_` names that `llvm.emit_c_interface` expects.   *|
|*                                                                            *|
|* Errors inside a running program (a missing file, a malformed line) print   *|
|* "amls: <file>:<line>: <problem>" to stderr and exit with status 1.         *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_RUNTIME_RUNTIME_H
#define AMLS_RUNTIME_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Layout of MLIR's `StridedMemRefType<double, 2>`.
typedef struct AmlsMatrixF64 {
  double *allocated;
  double *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} AmlsMatrixF64;

/// File formats; the values match `amls::FileFormat`.
enum { AMLS_RT_CSV = 0, AMLS_RT_MATRIX_MARKET = 1 };
/// Distributions; the values match `amls::RandPdf`.
enum { AMLS_RT_UNIFORM = 0, AMLS_RT_NORMAL = 1 };

/// Rows and columns of the matrix in `path`.
void amls_rt_file_dims(const char *path, int32_t format, int64_t *rows,
                       int64_t *cols);
/// Reads `path` into `dest`, whose sizes come from `amls_rt_file_dims`.
void _mlir_ciface_amls_rt_read(AmlsMatrixF64 *dest, const char *path,
                               int32_t format);
/// Writes `source` to `path` with full precision.
void _mlir_ciface_amls_rt_write(AmlsMatrixF64 *source, const char *path,
                                int32_t format);
/// Prints a matrix as DML's print(toString(X)) does.
void _mlir_ciface_amls_rt_print_matrix(AmlsMatrixF64 *source);
/// Prints a scalar as DML's print(x) does.
void amls_rt_print_f64(double value);
void amls_rt_print_i64(int64_t value);

/// Cell `cell` (row-major index) of rand(..., seed): a counter-based
/// generator, so every cell is a function of (seed, cell) only and the
/// matrix is the same at any thread count.
double amls_rt_rand(uint64_t seed, uint64_t cell, double min, double max,
                    double sparsity, int32_t pdf);
/// The seed of a rand() without one: fresh on every call.
uint64_t amls_rt_fresh_seed(void);

/// C = A %*% B through BLAS (dgemm), C preallocated with the right sizes.
void _mlir_ciface_amls_rt_gemm(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                               AmlsMatrixF64 *c);
/// Number of threads BLAS and the runtime's kernels use.
void amls_rt_set_num_threads(int32_t threads);

#ifdef __cplusplus
}
#endif

#endif /* AMLS_RUNTIME_RUNTIME_H */
