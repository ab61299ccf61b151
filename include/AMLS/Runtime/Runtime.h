/*===- Runtime.h - libamls_runtime C ABI ---------------------------*- C
-*-===*\
|*                                                                            *|
|* The functions compiled AMLS programs call. Matrices cross the boundary as  *|
|* the descriptors of ABI.h; functions taking them use the `_mlir_ciface_`    *|
|* names that `llvm.emit_c_interface` expects. The compiler's side of this    *|
|* contract is the table in lib/Conversion/RuntimeABI.                        *|
|*                                                                            *|
|* The CSR kernels are declared in SparseKernels.h.                           *|
|*                                                                            *|
|* Errors inside a running program (a missing file, a malformed line) print   *|
|* "amls: <file>:<line>: <problem>" to stderr and exit with status 1, unless  *|
|* the host runs the program under a trap (AMLS/Runtime/Failure.h).          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_RUNTIME_RUNTIME_H
#define AMLS_RUNTIME_RUNTIME_H

#include "AMLS/Runtime/ABI.h"
#include "AMLS/Runtime/SparseKernels.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Rows and columns of the matrix in `path` (`format`: an AmlsFileFormat).
/// A text-cell file's come from its .mtd file, else from `rows` and `cols`
/// (what the read states; -1 where it states nothing). Errors begin with
/// `where`, the read in the program ("'amls.read' at f.dml:3:5").
int64_t amls_rt_file_rows(const char *path, int32_t format, int64_t rows,
                          int64_t cols, const char *where);
int64_t amls_rt_file_cols(const char *path, int32_t format, int64_t rows,
                          int64_t cols, const char *where);
/// Reads `path` into `dest`, whose sizes come from `amls_rt_file_rows/cols`.
void _mlir_ciface_amls_rt_read(AmlsMatrixF64 *dest, const char *path,
                               int32_t format, const char *where);
/// Writes `source` to `path` with full precision, and its .mtd file.
void _mlir_ciface_amls_rt_write(AmlsMatrixF64 *source, const char *path,
                                int32_t format);
/// Writes the message emitted to AMLS_STREAM_FILE (a scalar's text) to
/// `path`, and a .mtd file of data type scalar and `valueType` (an
/// AmlsValueType).
void amls_rt_write_text(const char *path, int32_t valueType);
/// The scalar in the text file `path` (written by amls_rt_write_text or
/// SystemDS): a double, an integer or TRUE/FALSE (1 or 0) by `valueType`.
double amls_rt_read_scalar(const char *path, int32_t valueType,
                           const char *where);
/// Nanoseconds on a monotonic clock (DML's time()).
int64_t amls_rt_time_ns(void);
/// Prints a matrix as DML's print(toString(X)) does.
void _mlir_ciface_amls_rt_print_matrix(AmlsMatrixF64 *source);
/// Prints a scalar as DML's print(x) does.
void amls_rt_print_f64(double value);
void amls_rt_print_i64(int64_t value);

/// A failed run-time check of a compiled program (a size that contradicts
/// the program, an index out of bounds): reports and exits with status 1.
void amls_rt_check(int32_t ok, const char *message);
/// amls_rt_check for two operands' sizes: the message names both shapes.
void amls_rt_check_shapes(int32_t ok, int64_t rows0, int64_t cols0,
                          int64_t rows1, int64_t cols1, const char *message);

/// Cell `cell` (row-major index) of rand(..., seed): a counter-based
/// generator, so every cell is a function of (seed, cell) only and the
/// matrix is the same at any thread count.
double amls_rt_rand(uint64_t seed, uint64_t cell, double min, double max,
                    double sparsity, int32_t pdf);
/// The seed of a rand() without one: fresh on every call.
uint64_t amls_rt_fresh_seed(void);

/// Messages of amls.printf and amls.stop (`stream` is an AmlsMessageStream),
/// emitted piece by piece and ended with amls_rt_emit_end. Pieces go to a
/// per-thread buffer.
void amls_rt_emit_text(const char *text, int32_t stream);
void amls_rt_emit_f64(double value, int32_t stream);
void amls_rt_emit_i64(int64_t value, int32_t stream);
void amls_rt_emit_bool(int32_t value, int32_t stream);
/// `value` with the C conversion `spec` ("%5.4f", "%d", ...; integer
/// conversions take the value truncated); non-finite values as DML prints
/// them.
void amls_rt_emit_formatted_f64(double value, const char *spec, int32_t stream);
void _mlir_ciface_amls_rt_emit_matrix(AmlsMatrixF64 *source, int32_t stream);
void amls_rt_emit_end(int32_t stream);
/// The string emitted to AMLS_STREAM_STRING so far (amls.string_format),
/// which the runtime keeps until the program ends.
const char *amls_rt_string_take(void);
/// <0, 0 or >0 as `a` sorts before, equal to or after `b` (bytewise).
int32_t amls_rt_string_compare(const char *a, const char *b);

/// C += A %*% B through BLAS (gemv for matrix-vector shapes, gemm
/// otherwise). A and B may be row-major or column-major views (a transposed
/// operand is a column-major view); C is row-major.
void _mlir_ciface_amls_rt_gemm_f64(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                                   AmlsMatrixF64 *c);
void _mlir_ciface_amls_rt_gemm_f32(AmlsMatrixF32 *a, AmlsMatrixF32 *b,
                                   AmlsMatrixF32 *c);

/// out = t(X) %*% (w * (X %*% v)) (w only when `useWeights`), reading X once
/// (amls.mmchain). v and w are column vectors; out is cols(X) x 1.
void _mlir_ciface_amls_rt_mmchain(AmlsMatrixF64 *x, AmlsMatrixF64 *v,
                                  AmlsMatrixF64 *w, AmlsMatrixF64 *out,
                                  int32_t useWeights);

/// Compressed matrices (docs/compression.md, amls.compress): a handle to a
/// runtime CompressedMatrix of `x`'s cells (all in one uncompressed group
/// where the plan finds compression not worth 2x), printing the plan and the
/// groups on stderr when `explain`; freed by amls_rt_compressed_release.
int64_t _mlir_ciface_amls_rt_compressed_compress(AmlsMatrixF64 *x,
                                                 int32_t explain);
/// The same of a CSR matrix (its arrays as the CSR kernels take them,
/// SparseKernels.h), read row by row without densifying it.
int64_t _mlir_ciface_amls_rt_compressed_compress_csr(AmlsVectorI64 *rowptr,
                                                     AmlsVectorI32 *colidx,
                                                     AmlsVectorF64 *values,
                                                     int64_t cols,
                                                     int32_t explain);
void amls_rt_compressed_release(int64_t handle);
/// The rows (dim 0) or columns (dim 1) of a compressed matrix.
int64_t amls_rt_compressed_size(int64_t handle, int32_t dim);
/// out = X %*% w, t(X) %*% w or t(w) %*% X (`product`, an
/// AmlsCompressedProduct).
void _mlir_ciface_amls_rt_compressed_multiply(int64_t handle, AmlsMatrixF64 *w,
                                              AmlsMatrixF64 *out,
                                              int32_t product);
/// out = t(X) %*% (w * (X %*% v)) (w only when `useWeights`).
void _mlir_ciface_amls_rt_compressed_mmchain(int64_t handle, AmlsMatrixF64 *v,
                                             AmlsMatrixF64 *w,
                                             AmlsMatrixF64 *out,
                                             int32_t useWeights);
/// out = t(X) %*% X.
void _mlir_ciface_amls_rt_compressed_tsmm(int64_t handle, AmlsMatrixF64 *out);
/// out = the sum or mean of all cells (1 x 1), each row's (rows x 1) or each
/// column's (1 x cols) (`aggregate`, an AmlsCompressedAggregate).
void _mlir_ciface_amls_rt_compressed_aggregate(int64_t handle,
                                               AmlsMatrixF64 *out,
                                               int32_t aggregate);
/// The values every cell of X is one of (CompressedMatrix::copyValues): their
/// count, and a copy into `out` (count x 1).
int64_t amls_rt_compressed_value_count(int64_t handle);
void _mlir_ciface_amls_rt_compressed_values(int64_t handle, AmlsMatrixF64 *out);
/// A new compressed matrix: X's codes with `values` (count x 1) instead of
/// its values; amls.release frees it.
int64_t _mlir_ciface_amls_rt_compressed_with_values(int64_t handle,
                                                    AmlsMatrixF64 *values);
/// out (rows x cols) = the cells of X; counted for --stats.
void _mlir_ciface_amls_rt_compressed_decompress(int64_t handle,
                                                AmlsMatrixF64 *out);

/// Frames (docs/frames.md): a handle to a runtime frame, kept until the
/// process ends. `where` names the op for messages. A CSV file read with a
/// header line of names (`header`), fields separated by `sep`, the strings of
/// `naStrings` (joined by 0x1F) missing, and `schema` a digit per column
/// (AmlsFrameValueType; "" reads every column as a string).
int64_t amls_rt_frame_read(const char *path, int32_t header, const char *sep,
                           const char *naStrings, const char *schema,
                           const char *where);
/// Writes the frame as CSV and its .mtd file.
void amls_rt_frame_write(int64_t frame, const char *path, int32_t header,
                         const char *sep, const char *where);
int64_t amls_rt_frame_rows(int64_t frame);
int64_t amls_rt_frame_cols(int64_t frame);
/// As SystemDS's toString(F), at most `rows` rows and `cols` columns (-1:
/// all); the text lives until the process ends.
const char *amls_rt_frame_to_string(int64_t frame, int64_t rows, int64_t cols);
/// dest (rows x cols of the frame) = its cells as numbers (NaN: missing).
void _mlir_ciface_amls_rt_frame_as_matrix(AmlsMatrixF64 *dest, int64_t frame,
                                          const char *where);
/// F[rowBegin:rowEnd, colBegin:colEnd] (0-based, half-open; checked).
int64_t amls_rt_frame_slice(int64_t frame, int64_t rowBegin, int64_t rowEnd,
                            int64_t colBegin, int64_t colEnd,
                            const char *where);
/// as.frame(X): FP64 columns C1, C2, ...
int64_t _mlir_ciface_amls_rt_frame_from_matrix(AmlsMatrixF64 *x);
/// cbind(A, B) (equal rows) and rbind(A, B) (equal columns).
int64_t amls_rt_frame_cbind(int64_t a, int64_t b, const char *where);
int64_t amls_rt_frame_rbind(int64_t a, int64_t b, const char *where);
/// detectSchema(F) (1 x C type names) and applySchema(F, S).
int64_t amls_rt_frame_detect_schema(int64_t frame);
int64_t amls_rt_frame_apply_schema(int64_t frame, int64_t schema,
                                   const char *where);
/// colnames(F): a 1 x C frame of the column names.
int64_t amls_rt_frame_colnames(int64_t frame);
/// as.scalar(F) of a 1 x 1 frame: its cell as text ("NULL" where missing).
const char *amls_rt_frame_cell(int64_t frame, const char *where);
/// The whole file as a string (DML's read(..., value_type="string")).
const char *amls_rt_read_text(const char *path, const char *where);
/// The encoders of a transform spec, fitted to `frame` (transformencode) or
/// rebuilt from the metadata frame `meta` (transformapply, -decode); freed
/// by amls_rt_transform_release.
int64_t amls_rt_transform_fit(int64_t frame, const char *spec,
                              const char *where);
int64_t amls_rt_transform_from_meta(int64_t meta, const char *spec,
                                    const char *where);
void amls_rt_transform_release(int64_t encoder);
/// The metadata frame of a fitted encoder.
int64_t amls_rt_transform_meta(int64_t encoder);
/// The rows of `frame` the encoder keeps (the spec's omit) and the columns
/// it encodes them into.
int64_t amls_rt_transform_rows(int64_t encoder, int64_t frame);
int64_t amls_rt_transform_cols(int64_t encoder);
/// dest (rows x cols as above, row-major) = the encoded frame.
void _mlir_ciface_amls_rt_transform_apply(AmlsMatrixF64 *dest, int64_t encoder,
                                          int64_t frame, const char *where);
/// The frame the encoded matrix `source` decodes to.
int64_t _mlir_ciface_amls_rt_transform_decode(int64_t encoder,
                                              AmlsMatrixF64 *source,
                                              const char *where);

/// sum, sum of squares, min or max (`kind`: 0-3, AggKind's values) of the
/// values of a vector (a CSR matrix's stored values): vectorized,
/// multi-threaded above a size threshold. NaN propagates; an empty vector
/// gives the identity (0, 0, +inf, -inf).
double _mlir_ciface_amls_rt_values_reduce(AmlsVectorF64 *values, int32_t kind);

/// A CSR matrix's arrays: row pointers (rows + 1), column indices and
/// values (nnz each), and the column count; the kernels of CSR results
/// write caller-allocated arrays, counting first where the size is not
/// known (SparseKernels.h has the others).
#define AMLS_CSR_PARAMS(name)                                                  \
  AmlsVectorI64 *name##_rowptr, AmlsVectorI32 *name##_colidx,                  \
      AmlsVectorF64 *name##_values, int64_t name##_cols

/// a op b for two CSR matrices of the same shape (`op`: 0 +, 1 -, 2 *,
/// 3 min, 4 max): the union of their patterns (the intersection for *),
/// without the zeros the op produces. Count fills out_rowptr (rows + 1)
/// and returns the number of non-zeros; fill writes the arrays.
int64_t _mlir_ciface_amls_rt_csr_merge_count(AMLS_CSR_PARAMS(a),
                                             AMLS_CSR_PARAMS(b), int32_t op,
                                             AmlsVectorI64 *out_rowptr);
void _mlir_ciface_amls_rt_csr_merge_fill(AMLS_CSR_PARAMS(a), AMLS_CSR_PARAMS(b),
                                         int32_t op, AmlsVectorI64 *out_rowptr,
                                         AmlsVectorI32 *out_colidx,
                                         AmlsVectorF64 *out_values);
/// trace(A) and diag(A) (rows x 1) of a CSR matrix.
double _mlir_ciface_amls_rt_csr_trace(AMLS_CSR_PARAMS(a));
void _mlir_ciface_amls_rt_csr_diag(AMLS_CSR_PARAMS(a), AmlsMatrixF64 *out);
/// diag(v) of a dense column vector as an n x n CSR matrix (its non-zeros).
int64_t _mlir_ciface_amls_rt_csr_from_diagonal_count(AmlsMatrixF64 *vector,
                                                     AmlsVectorI64 *rowptr);
void _mlir_ciface_amls_rt_csr_from_diagonal_fill(AmlsMatrixF64 *vector,
                                                 AmlsVectorI64 *rowptr,
                                                 AmlsVectorI32 *colidx,
                                                 AmlsVectorF64 *values);

/// table(a, b[, w]) as a rows x cols CSR matrix (cells outside dropped,
/// duplicates summed): count fills the row pointers and returns nnz.
int64_t _mlir_ciface_amls_rt_csr_table_count(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                                             AmlsMatrixF64 *w,
                                             int32_t use_weights, int64_t rows,
                                             int64_t cols,
                                             AmlsVectorI64 *rowptr);
void _mlir_ciface_amls_rt_csr_table_fill(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                                         AmlsMatrixF64 *w, int32_t use_weights,
                                         int64_t rows, int64_t cols,
                                         AmlsVectorI64 *rowptr,
                                         AmlsVectorI32 *colidx,
                                         AmlsVectorF64 *values);

/// Stops with "<what>: the dense RxC result needs N bytes, more than the
/// memory limit of M bytes" where a rows x cols f64 matrix would not fit in
/// the memory budget (a CSR matrix converted to dense; Memory.h).
void amls_rt_check_dense_size(int64_t rows, int64_t cols, const char *what);

/// Stops with `what` (the buffer's location) where a d0 x d1 x d2 buffer of
/// `elementBytes` elements has a negative size, overflows 64 bits or would
/// exceed the memory budget (--amls-check-buffer-sizes; Memory.cpp).
void amls_rt_check_buffer_size(int64_t d0, int64_t d1, int64_t d2,
                               int64_t elementBytes, const char *what);

/// Data-dependent results. `margin` is 0 for rows, 1 for columns; without
/// `use_select` the select argument is ignored.
int64_t _mlir_ciface_amls_rt_count_nonempty(AmlsMatrixF64 *x,
                                            AmlsMatrixF64 *select,
                                            int32_t margin, int32_t use_select);
void _mlir_ciface_amls_rt_remove_empty(AmlsMatrixF64 *x, AmlsMatrixF64 *select,
                                       AmlsMatrixF64 *out, int32_t margin,
                                       int32_t use_select);
/// The largest category id of a column vector (ids are positive integers).
int64_t _mlir_ciface_amls_rt_max_category(AmlsMatrixF64 *ids);
/// out[a[i]-1, b[i]-1] += w[i] (or 1) for ids inside out; out is zeroed.
void _mlir_ciface_amls_rt_table(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                                AmlsMatrixF64 *w, AmlsMatrixF64 *out,
                                int32_t use_weights);
/// Rows of x stably sorted by column `by` (0-based), or their 1-based
/// positions when `indices` is set.
void _mlir_ciface_amls_rt_order(AmlsMatrixF64 *x, AmlsMatrixF64 *out,
                                int64_t by, int32_t decreasing,
                                int32_t indices);
/// Linear algebra through OpenBLAS's LAPACK (Kernels/LinearAlgebra.cpp),
/// with SystemDS's results; every result is allocated by the caller with
/// the sizes given. Errors (a singular or non-square matrix, ...) begin
/// with `where`, the op in the program ("'amls.solve' at f.dml:3:5").
/// out (n x k) = solve(a, b) for a square n x n a and n x k b.
void _mlir_ciface_amls_rt_solve(AmlsMatrixF64 *a, AmlsMatrixF64 *b,
                                AmlsMatrixF64 *out, const char *where);
/// out (n x n) = inv(a).
void _mlir_ciface_amls_rt_inv(AmlsMatrixF64 *a, AmlsMatrixF64 *out,
                              const char *where);
/// det(a) (0 for a singular matrix).
double _mlir_ciface_amls_rt_det(AmlsMatrixF64 *a, const char *where);
/// cdf(x) (the upper tail if `upperTail`), or if `inverse` the quantile of
/// probability x, of distribution `kind` (amls::distributions::Kind) with
/// parameters a, b; invalid parameters stop the program (`where`: the op).
double amls_rt_distribution(int32_t kind, int32_t inverse, int32_t upperTail,
                            double x, double a, double b, const char *where);
/// The lower-triangular out (n x n) with out %*% t(out) = a.
void _mlir_ciface_amls_rt_cholesky(AmlsMatrixF64 *a, AmlsMatrixF64 *out,
                                   const char *where);
/// [h, r] = qr(a): the Householder vectors and R, both m x n.
void _mlir_ciface_amls_rt_qr(AmlsMatrixF64 *a, AmlsMatrixF64 *h,
                             AmlsMatrixF64 *r, const char *where);
/// [p, l, u] = lu(a), each n x n, with p %*% a = l %*% u.
void _mlir_ciface_amls_rt_lu(AmlsMatrixF64 *a, AmlsMatrixF64 *p,
                             AmlsMatrixF64 *l, AmlsMatrixF64 *u,
                             const char *where);
/// [values (n x 1, ascending), vectors (n x n)] = eigen(a) of a symmetric a.
void _mlir_ciface_amls_rt_eigen(AmlsMatrixF64 *a, AmlsMatrixF64 *values,
                                AmlsMatrixF64 *vectors, const char *where);
/// [u (m x k), s (k x k), v (n x k)] = svd(a), k = min(m, n).
void _mlir_ciface_amls_rt_svd(AmlsMatrixF64 *a, AmlsMatrixF64 *u,
                              AmlsMatrixF64 *s, AmlsMatrixF64 *v,
                              const char *where);
/// lower.tri / upper.tri (`lower` set or not) of x: the cells strictly
/// below (above) the diagonal, and the diagonal with `diagonal`, are x's
/// cells with `values` and 1 without; all others 0.
void _mlir_ciface_amls_rt_triangle(AmlsMatrixF64 *x, AmlsMatrixF64 *out,
                                   int32_t lower, int32_t diagonal,
                                   int32_t values);
/// DML's deep-learning builtins (Kernels/Convolution.cpp) on SystemDS's
/// layout: `input` N x (C*H*W), `filter` F x (C*R*S), `dout` and the
/// output N x (F*P*Q) (pooling: N x (C*P*Q)) with P = (H + 2*pad_h - R) /
/// stride_h + 1 and Q likewise. Results are allocated by the caller;
/// errors (a geometry out of range or disagreeing with the matrices)
/// begin with `where`.
void _mlir_ciface_amls_rt_conv2d(AmlsMatrixF64 *input, AmlsMatrixF64 *filter,
                                 AmlsMatrixF64 *out, int64_t n, int64_t c,
                                 int64_t h, int64_t w, int64_t f, int64_t r,
                                 int64_t s, int64_t stride_h, int64_t stride_w,
                                 int64_t pad_h, int64_t pad_w,
                                 const char *where);
/// The gradient (F x (C*R*S)) of conv2d's filter.
void _mlir_ciface_amls_rt_conv2d_backward_filter(
    AmlsMatrixF64 *input, AmlsMatrixF64 *dout, AmlsMatrixF64 *out, int64_t n,
    int64_t c, int64_t h, int64_t w, int64_t f, int64_t r, int64_t s,
    int64_t stride_h, int64_t stride_w, int64_t pad_h, int64_t pad_w,
    const char *where);
/// The gradient (N x (C*H*W)) of conv2d's input.
void _mlir_ciface_amls_rt_conv2d_backward_data(
    AmlsMatrixF64 *filter, AmlsMatrixF64 *dout, AmlsMatrixF64 *out, int64_t n,
    int64_t c, int64_t h, int64_t w, int64_t f, int64_t r, int64_t s,
    int64_t stride_h, int64_t stride_w, int64_t pad_h, int64_t pad_w,
    const char *where);
/// max_pool (`kind` 0) or avg_pool (1) with R x S windows.
void _mlir_ciface_amls_rt_pool(AmlsMatrixF64 *input, AmlsMatrixF64 *out,
                               int32_t kind, int64_t n, int64_t c, int64_t h,
                               int64_t w, int64_t r, int64_t s,
                               int64_t stride_h, int64_t stride_w,
                               int64_t pad_h, int64_t pad_w, const char *where);
/// The gradient (N x (C*H*W)) of a pooling's input given `dout`.
void _mlir_ciface_amls_rt_pool_backward(AmlsMatrixF64 *input,
                                        AmlsMatrixF64 *dout, AmlsMatrixF64 *out,
                                        int32_t kind, int64_t n, int64_t c,
                                        int64_t h, int64_t w, int64_t r,
                                        int64_t s, int64_t stride_h,
                                        int64_t stride_w, int64_t pad_h,
                                        int64_t pad_w, const char *where);
/// Number of threads BLAS and the runtime's kernels use.
void amls_rt_set_num_threads(int32_t threads);
/// The number set by amls_rt_set_num_threads (1 before any call).
int32_t amls_rt_get_num_threads(void);
/// With `serial` set, BLAS runs on the calling thread only until the next
/// call without it (parallel loops whose iterations call BLAS).
void amls_rt_blas_serial(int32_t serial);

/// parfor's task queue (lib/Runtime/Parallel/Parfor.cpp). The compiled
/// program cuts `iterations` iterations into tasks with `partitioner`
/// (AmlsParforPartitioner; `task_size` for FIXED) for `workers` workers and
/// returns the queue; each worker thread then takes the next task until
/// none is left (self-scheduling) and runs iterations [first, end) of it.
/// The queue is freed by amls_rt_parfor_end, after the workers joined.
void *amls_rt_parfor_begin(int64_t iterations, int32_t partitioner,
                           int64_t task_size, int32_t workers);
/// The index of the next task, or -1 when every task was taken.
int64_t amls_rt_parfor_next(void *queue);
/// The first iteration (0-based) of task `task`.
int64_t amls_rt_parfor_task_first(void *queue, int64_t task);
/// One past the last iteration of task `task`.
int64_t amls_rt_parfor_task_end(void *queue, int64_t task);
void amls_rt_parfor_end(void *queue);
/// Which of `copies` worker-private copies of a merged parfor result the
/// calling thread updates: its number in the workers' team, modulo
/// `copies` (0 outside a parallel region; a parfor nested in a worker runs
/// on that worker alone, whose copies are its own).
int64_t amls_rt_parfor_worker(int64_t copies);

/// Failures inside a parallel region (AMLS/Runtime/Failure.h). The compiled
/// program opens a region's record before the region, runs each iteration
/// (each parfor task) of it under a trap,
///
///   buf = amls_rt_region_trap(region);
///   if (buf) { if (_setjmp(buf) == 0) body(); amls_rt_region_untrap(); }
///
/// and closes the record after the region. A failure in `body` on a thread
/// of the region keeps its message in the record (the first one wins) and
/// returns to the trap; amls_rt_region_trap then returns null, so that the
/// region's other iterations are skipped, and amls_rt_region_close fails
/// with the message on the calling thread, outside the region.
void *amls_rt_region_open(void);
/// The buffer to set the trap on, or null when the region already failed.
void *amls_rt_region_trap(void *region);
/// Removes the calling thread's innermost trap.
void amls_rt_region_untrap(void);
/// Frees the record; fails with its message if the region failed.
void amls_rt_region_close(void *region);

#ifdef __cplusplus
}
#endif

#endif /* AMLS_RUNTIME_RUNTIME_H */
