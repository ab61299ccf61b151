/*===- SparseKernels.h - CSR kernels of libamls_runtime -----------*- C -*-===*\
|*                                                                            *|
|* The functions compiled programs call on CSR matrices. A CSR matrix of R    *|
|* rows and C columns crosses the boundary as three 1-D buffers and its       *|
|* column count, written `CSR(x)` below:                                      *|
|*                                                                            *|
|*   AmlsVectorI64 *x_rowptr  R + 1 offsets, x_rowptr[0] = 0, [R] = nnz       *|
|*   AmlsVectorI32 *x_colidx  nnz column indices, ascending and unique in     *|
|*                            each row                                        *|
|*   AmlsVectorF64 *x_values  nnz values (stored zeros are allowed)           *|
|*   int64_t x_cols           C                                               *|
|*                                                                            *|
|* R is x_rowptr->sizes[0] - 1. Every CSR result has sorted unique column     *|
|* indices. Output buffers are allocated by the caller with the sizes each    *|
|* function states (a *_count function first gives the number of entries).    *|
|* Dense results are fully overwritten, never accumulated into. Implicit      *|
|* zeros are exact zeros: 0 * x contributes 0 even for an infinite or NaN x   *|
|* (the dialect's SparseSafe multiplication), while stored entries are        *|
|* computed as they are. Kernels use amls_rt_get_num_threads() threads.       *|
|*                                                                            *|
|* Aggregation kinds (the compiler's AggKind): 0 sum, 1 sum of squares,       *|
|* 2 min, 3 max. Min and max include the implicit zeros of a row (column)     *|
|* with fewer stored entries than its length and propagate NaN, like the      *|
|* dense lowering (arith.minimumf / maximumf); over an empty length they      *|
|* give +inf / -inf.                                                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_RUNTIME_SPARSEKERNELS_H
#define AMLS_RUNTIME_SPARSEKERNELS_H

#include "AMLS/Runtime/ABI.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * Conversion
 *===----------------------------------------------------------------------===*/

/// Fills rowptr (rows(x) + 1 entries) with the prefix counts of the cells of
/// x that are != 0 (NaN included) and returns their number.
int64_t _mlir_ciface_amls_rt_csr_count_dense(AmlsMatrixF64 *x,
                                             AmlsVectorI64 *rowptr);
/// Fills colidx and values from x, given rowptr as count_dense filled it.
void _mlir_ciface_amls_rt_csr_from_dense(AmlsMatrixF64 *x,
                                         AmlsVectorI64 *rowptr,
                                         AmlsVectorI32 *colidx,
                                         AmlsVectorF64 *values);
/// out (rows x cols) = a, every cell written.
void _mlir_ciface_amls_rt_csr_to_dense(AmlsVectorI64 *a_rowptr,
                                       AmlsVectorI32 *a_colidx,
                                       AmlsVectorF64 *a_values, int64_t a_cols,
                                       AmlsMatrixF64 *out);
/// out (rows x cols) = replace(a, pattern, replacement): every cell equal to
/// `pattern` (NaN matching NaN), implicit zeros included, becomes
/// `replacement` (a dense result: the kernel for a pattern of 0).
void _mlir_ciface_amls_rt_csr_replace_to_dense(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, double pattern, double replacement, AmlsMatrixF64 *out);
/// t(a): out_rowptr has cols + 1 entries, out_colidx / out_values nnz.
void _mlir_ciface_amls_rt_csr_transpose(AmlsVectorI64 *a_rowptr,
                                        AmlsVectorI32 *a_colidx,
                                        AmlsVectorF64 *a_values, int64_t a_cols,
                                        AmlsVectorI64 *out_rowptr,
                                        AmlsVectorI32 *out_colidx,
                                        AmlsVectorF64 *out_values);

/*===----------------------------------------------------------------------===*
 * Products
 *===----------------------------------------------------------------------===*/

/// c (rows(a) x k) = a %*% b (cols(a) x k).
void _mlir_ciface_amls_rt_csr_spmm(AmlsVectorI64 *a_rowptr,
                                   AmlsVectorI32 *a_colidx,
                                   AmlsVectorF64 *a_values, int64_t a_cols,
                                   AmlsMatrixF64 *b, AmlsMatrixF64 *c);
/// c (cols(a) x k) = t(a) %*% b (rows(a) x k), without forming t(a).
void _mlir_ciface_amls_rt_csr_spmm_t(AmlsVectorI64 *a_rowptr,
                                     AmlsVectorI32 *a_colidx,
                                     AmlsVectorF64 *a_values, int64_t a_cols,
                                     AmlsMatrixF64 *b, AmlsMatrixF64 *c);
/// c (m x cols(b)) = a (m x rows(b)) %*% b.
void _mlir_ciface_amls_rt_dense_csr_mm(AmlsMatrixF64 *a,
                                       AmlsVectorI64 *b_rowptr,
                                       AmlsVectorI32 *b_colidx,
                                       AmlsVectorF64 *b_values, int64_t b_cols,
                                       AmlsMatrixF64 *c);
/// a %*% b in two phases: the count fills out_rowptr (rows(a) + 1 entries)
/// and returns nnz; the fill writes the entries. The pattern is symbolic:
/// entries whose products cancel to 0 are kept as stored zeros.
int64_t _mlir_ciface_amls_rt_csr_spgemm_count(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsVectorI64 *b_rowptr, AmlsVectorI32 *b_colidx,
    AmlsVectorF64 *b_values, int64_t b_cols, AmlsVectorI64 *out_rowptr);
void _mlir_ciface_amls_rt_csr_spgemm_fill(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsVectorI64 *b_rowptr, AmlsVectorI32 *b_colidx,
    AmlsVectorF64 *b_values, int64_t b_cols, AmlsVectorI64 *out_rowptr,
    AmlsVectorI32 *out_colidx, AmlsVectorF64 *out_values);
/// out (cols x cols, dense) = t(x) %*% x.
void _mlir_ciface_amls_rt_csr_tsmm(AmlsVectorI64 *x_rowptr,
                                   AmlsVectorI32 *x_colidx,
                                   AmlsVectorF64 *x_values, int64_t x_cols,
                                   AmlsMatrixF64 *out);
/// out (cols x 1) = t(x) %*% (w * (x %*% v)) (w only with use_weights),
/// reading x once.
void _mlir_ciface_amls_rt_csr_mmchain(AmlsVectorI64 *x_rowptr,
                                      AmlsVectorI32 *x_colidx,
                                      AmlsVectorF64 *x_values, int64_t x_cols,
                                      AmlsMatrixF64 *v, AmlsMatrixF64 *w,
                                      AmlsMatrixF64 *out, int32_t use_weights);

/*===----------------------------------------------------------------------===*
 * Aggregates
 *===----------------------------------------------------------------------===*/

/// out (rows x 1): the aggregate `kind` of every row.
void _mlir_ciface_amls_rt_csr_row_agg(AmlsVectorI64 *a_rowptr,
                                      AmlsVectorI32 *a_colidx,
                                      AmlsVectorF64 *a_values, int64_t a_cols,
                                      int32_t kind, AmlsMatrixF64 *out);
/// out (1 x cols): the aggregate `kind` of every column.
void _mlir_ciface_amls_rt_csr_col_agg(AmlsVectorI64 *a_rowptr,
                                      AmlsVectorI32 *a_colidx,
                                      AmlsVectorF64 *a_values, int64_t a_cols,
                                      int32_t kind, AmlsMatrixF64 *out);
/// out (rows x cols, dense): the cumulative aggregate `kind` (the
/// compiler's CumAggKind: 0 cumsum, 1 cumprod, 2 cummin, 3 cummax) down
/// every column, row i combining rows 0..i, the implicit zeros included.
void _mlir_ciface_amls_rt_csr_cumagg(AmlsVectorI64 *a_rowptr,
                                     AmlsVectorI32 *a_colidx,
                                     AmlsVectorF64 *a_values, int64_t a_cols,
                                     int32_t kind, AmlsMatrixF64 *out);
/// out (rows x 1) = rowMaxs(g * t(c)) for a column (cols x 1) or row
/// (1 x cols) vector c, without forming g * t(c) (connected components).
void _mlir_ciface_amls_rt_csr_row_max_times(AmlsVectorI64 *g_rowptr,
                                            AmlsVectorI32 *g_colidx,
                                            AmlsVectorF64 *g_values,
                                            int64_t g_cols, AmlsMatrixF64 *c,
                                            AmlsMatrixF64 *out);

/*===----------------------------------------------------------------------===*
 * Reorganisation
 *===----------------------------------------------------------------------===*/

/// rev(a): the rows in reverse order (out: rows + 1, nnz, nnz entries).
void _mlir_ciface_amls_rt_csr_rev(AmlsVectorI64 *a_rowptr,
                                  AmlsVectorI32 *a_colidx,
                                  AmlsVectorF64 *a_values, int64_t a_cols,
                                  AmlsVectorI64 *out_rowptr,
                                  AmlsVectorI32 *out_colidx,
                                  AmlsVectorF64 *out_values);
/// removeEmpty(a, margin[, select]) (`margin` 0: rows, 1: columns) keeps
/// the rows (columns) that store a value != 0 (NaN included), or, with
/// use_select, those whose cell of `select` (rows x 1 for rows, 1 x cols
/// for columns; any other shape is an error) is != 0. count_nonempty
/// returns how many are kept; the count fills out_rowptr (result rows + 1
/// entries) and returns nnz; the fill writes the entries.
int64_t _mlir_ciface_amls_rt_csr_count_nonempty(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsMatrixF64 *select, int32_t margin, int32_t use_select);
int64_t _mlir_ciface_amls_rt_csr_remove_empty_count(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsMatrixF64 *select, int32_t margin, int32_t use_select,
    AmlsVectorI64 *out_rowptr);
void _mlir_ciface_amls_rt_csr_remove_empty_fill(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsMatrixF64 *select, int32_t margin, int32_t use_select,
    AmlsVectorI64 *out_rowptr, AmlsVectorI32 *out_colidx,
    AmlsVectorF64 *out_values);

/// a[row_begin:row_end, col_begin:col_end] (0-based, half-open, in bounds):
/// the count fills out_rowptr (row_end - row_begin + 1 entries) and returns
/// nnz; the fill writes the entries with columns counted from col_begin.
int64_t _mlir_ciface_amls_rt_csr_slice_count(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, int64_t row_begin, int64_t row_end, int64_t col_begin,
    int64_t col_end, AmlsVectorI64 *out_rowptr);
void _mlir_ciface_amls_rt_csr_slice_fill(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, int64_t row_begin, int64_t row_end, int64_t col_begin,
    int64_t col_end, AmlsVectorI64 *out_rowptr, AmlsVectorI32 *out_colidx,
    AmlsVectorF64 *out_values);
/// cbind(a, b) (same rows) and rbind(a, b) (same columns); the result has
/// nnz(a) + nnz(b) entries.
void _mlir_ciface_amls_rt_csr_cbind(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsVectorI64 *b_rowptr, AmlsVectorI32 *b_colidx,
    AmlsVectorF64 *b_values, int64_t b_cols, AmlsVectorI64 *out_rowptr,
    AmlsVectorI32 *out_colidx, AmlsVectorF64 *out_values);
void _mlir_ciface_amls_rt_csr_rbind(
    AmlsVectorI64 *a_rowptr, AmlsVectorI32 *a_colidx, AmlsVectorF64 *a_values,
    int64_t a_cols, AmlsVectorI64 *b_rowptr, AmlsVectorI32 *b_colidx,
    AmlsVectorF64 *b_values, int64_t b_cols, AmlsVectorI64 *out_rowptr,
    AmlsVectorI32 *out_colidx, AmlsVectorF64 *out_values);

/*===----------------------------------------------------------------------===*
 * I/O
 *===----------------------------------------------------------------------===*/

/// Parses the file `path` (`format`: an AmlsFileFormat) straight into a CSR
/// matrix the runtime owns, cell for cell what amls_rt_read reads, and
/// returns a handle to it. Its sizes are asked for, then each csr_take
/// hands one of its arrays (rows + 1 / nnz / nnz entries) over to the
/// caller, who releases it to the pool (memory::release, or a memref
/// dealloc in compiled code), `what` naming it in the statistics;
/// csr_free_handle frees what is left. `rows`, `cols` and `where` as for
/// amls_rt_file_rows.
void *amls_rt_csr_read(const char *path, int32_t format, int64_t rows,
                       int64_t cols, const char *where);
int64_t amls_rt_csr_handle_rows(void *handle);
int64_t amls_rt_csr_handle_cols(void *handle);
void _mlir_ciface_amls_rt_csr_take_rowptr(AmlsVectorI64 *result, void *handle,
                                          const char *what);
void _mlir_ciface_amls_rt_csr_take_colidx(AmlsVectorI32 *result, void *handle,
                                          const char *what);
void _mlir_ciface_amls_rt_csr_take_values(AmlsVectorF64 *result, void *handle,
                                          const char *what);
void amls_rt_csr_free_handle(void *handle);
/// Prints a (or appends it to a message of `stream`, as
/// amls_rt_emit_matrix): the same text as for the dense matrix.
void _mlir_ciface_amls_rt_csr_print_matrix(AmlsVectorI64 *a_rowptr,
                                           AmlsVectorI32 *a_colidx,
                                           AmlsVectorF64 *a_values,
                                           int64_t a_cols);
void _mlir_ciface_amls_rt_csr_emit_matrix(AmlsVectorI64 *a_rowptr,
                                          AmlsVectorI32 *a_colidx,
                                          AmlsVectorF64 *a_values,
                                          int64_t a_cols, int32_t stream);
/// Writes a to `path`: the same bytes as amls_rt_write of the dense matrix,
/// and the same .mtd file.
void _mlir_ciface_amls_rt_csr_write(AmlsVectorI64 *a_rowptr,
                                    AmlsVectorI32 *a_colidx,
                                    AmlsVectorF64 *a_values, int64_t a_cols,
                                    const char *path, int32_t format);

#ifdef __cplusplus
}
#endif

#endif /* AMLS_RUNTIME_SPARSEKERNELS_H */
