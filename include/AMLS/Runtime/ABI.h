/*===- ABI.h - What the compiler and libamls_runtime share ---------*- C
-*-===*\
|*                                                                            *|
|* The one definition of the enums and descriptors that cross the boundary   *|
|* between compiled AMLS programs and libamls_runtime. Plain C, so that the  *|
|* runtime, the C API and other languages read the same header. The dialect  *|
|* keeps ODS enums with the same values (`FileFormat`, `RandPdf`,            *|
|* `MatrixFormat`); lib/Conversion/RuntimeABI checks them against this file  *|
|* at compile time.                                                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_RUNTIME_ABI_H
#define AMLS_RUNTIME_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Matrix file formats. Binary is the runtime's own fast format for large
/// inputs: the 8 bytes "AMLSMAT1", the row and column counts as
/// little-endian int64, then the cells as little-endian f64 in row-major
/// order (what NumPy's `tofile` writes). Text is SystemDS's text-cell
/// format: one "i j v" line (1-based) per non-zero cell, the sizes in the
/// `.mtd` file beside it.
typedef enum AmlsFileFormat {
  AMLS_FILE_CSV = 0,
  AMLS_FILE_MATRIX_MARKET = 1,
  AMLS_FILE_BINARY = 2,
  AMLS_FILE_TEXT = 3
} AmlsFileFormat;

/// Value types of scalars written to and read from files.
typedef enum AmlsValueType {
  AMLS_VALUE_DOUBLE = 0,
  AMLS_VALUE_INT = 1,
  AMLS_VALUE_BOOLEAN = 2,
  AMLS_VALUE_STRING = 3
} AmlsValueType;

/// Value types of frame columns (the ODS enum `FrameValueType`). Compiled
/// code passes a frame's schema as a string of their digits ("013": a
/// string, an FP64 and an INT64 column).
typedef enum AmlsFrameValueType {
  AMLS_FRAME_STRING = 0,
  AMLS_FRAME_FP64 = 1,
  AMLS_FRAME_FP32 = 2,
  AMLS_FRAME_INT64 = 3,
  AMLS_FRAME_INT32 = 4,
  AMLS_FRAME_BOOLEAN = 5
} AmlsFrameValueType;

/// Distributions of rand().
typedef enum AmlsRandomPdf {
  AMLS_PDF_UNIFORM = 0,
  AMLS_PDF_NORMAL = 1
} AmlsRandomPdf;

/// Physical layouts of a matrix. A compressed matrix (docs/compression.md)
/// is a handle to the runtime's CompressedMatrix, made and released inside
/// one compiled program: it never crosses the entry boundary.
typedef enum AmlsMatrixFormat {
  AMLS_MATRIX_DENSE = 0,
  AMLS_MATRIX_CSR = 1,
  AMLS_MATRIX_COMPRESSED = 2
} AmlsMatrixFormat;

/// Which product amls_rt_compressed_multiply computes of a compressed X and
/// a dense W.
typedef enum AmlsCompressedProduct {
  AMLS_COMPRESSED_X_W = 0,  /* X %*% W */
  AMLS_COMPRESSED_XT_W = 1, /* t(X) %*% W */
  AMLS_COMPRESSED_WT_X = 2  /* t(W) %*% X, as t(t(X) %*% W) */
} AmlsCompressedProduct;

/// Which aggregate amls_rt_compressed_aggregate computes of a compressed X:
/// its sum or mean over all cells (a 1 x 1 result), each row's (rows x 1)
/// or each column's (1 x cols).
typedef enum AmlsCompressedAggregate {
  AMLS_COMPRESSED_SUM_ALL = 0,
  AMLS_COMPRESSED_SUM_ROWS = 1,
  AMLS_COMPRESSED_SUM_COLS = 2,
  AMLS_COMPRESSED_MEAN_ALL = 3,
  AMLS_COMPRESSED_MEAN_ROWS = 4,
  AMLS_COMPRESSED_MEAN_COLS = 5
} AmlsCompressedAggregate;

/// Where the pieces of a message go: amls.printf prints on stdout,
/// amls.stop reports on stderr and ends the run with status 1,
/// amls.write_scalar writes the text to a file, amls.report prints a
/// compiler's diagnostic on stderr.
typedef enum AmlsMessageStream {
  AMLS_STREAM_PRINT = 0,
  AMLS_STREAM_STOP = 1,
  AMLS_STREAM_FILE = 2,
  AMLS_STREAM_STRING = 3,
  AMLS_STREAM_DIAGNOSTIC = 4
} AmlsMessageStream;

/// Layout of MLIR's `StridedMemRefType<double, 2>`: how a dense f64 matrix
/// is passed to the runtime (functions taking one use the `_mlir_ciface_`
/// names that `llvm.emit_c_interface` expects).
typedef struct AmlsMatrixF64 {
  double *allocated;
  double *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} AmlsMatrixF64;

/// Layout of MLIR's `StridedMemRefType<float, 2>`.
typedef struct AmlsMatrixF32 {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
} AmlsMatrixF32;

/// Layouts of MLIR's `StridedMemRefType<T, 1>`: the three buffers of a CSR
/// matrix (row offsets, column indices, values). Element i is
/// `aligned[offset + i]`: the compiler passes unit strides, and the CSR
/// kernels rely on it.
typedef struct AmlsVectorF64 {
  double *allocated;
  double *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} AmlsVectorF64;

typedef struct AmlsVectorI64 {
  int64_t *allocated;
  int64_t *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} AmlsVectorI64;

typedef struct AmlsVectorI32 {
  int32_t *allocated;
  int32_t *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
} AmlsVectorI32;

/// Element types of matrices (DML's double, and AMLS's f32 and i64).
typedef enum AmlsElementType {
  AMLS_ELEMENT_F64 = 0,
  AMLS_ELEMENT_F32 = 1,
  AMLS_ELEMENT_I64 = 2
} AmlsElementType;

/// How a parfor's iterations are cut into tasks (seed 001): one iteration
/// per task (naive), one task per worker (static), tasks of a given size
/// (fixed), or batches of one task per worker that halve in size (factoring:
/// R_0 = n, l_i = ceil(R_i / (2k)), R_{i+1} = R_i - k * l_i). The values are
/// those of the ODS enum `ParforPartitioner`.
typedef enum AmlsParforPartitioner {
  AMLS_PARFOR_NAIVE = 0,
  AMLS_PARFOR_STATIC = 1,
  AMLS_PARFOR_FIXED = 2,
  AMLS_PARFOR_FACTORING = 3
} AmlsParforPartitioner;

/// The op of amls_rt_csr_merge_count/fill: a op b cell by cell.
typedef enum AmlsMergeOp {
  AMLS_MERGE_ADD = 0,
  AMLS_MERGE_SUB = 1,
  AMLS_MERGE_MUL = 2,
  AMLS_MERGE_MIN = 3,
  AMLS_MERGE_MAX = 4
} AmlsMergeOp;

/// The aggregation of amls_rt_values_reduce, amls_rt_csr_row_agg and
/// amls_rt_csr_col_agg. The values are those of the ODS enum `AggKind`
/// (its mean is a sum the compiled code divides).
typedef enum AmlsAggKind {
  AMLS_AGG_SUM = 0,
  AMLS_AGG_SUMSQ = 1,
  AMLS_AGG_MIN = 2,
  AMLS_AGG_MAX = 3
} AmlsAggKind;

/// The aggregation of amls_rt_csr_cumagg; the values of `CumAggKind`.
typedef enum AmlsCumAggKind {
  AMLS_CUMAGG_SUM = 0,
  AMLS_CUMAGG_PROD = 1,
  AMLS_CUMAGG_MIN = 2,
  AMLS_CUMAGG_MAX = 3
} AmlsCumAggKind;

/// The pooling of amls_rt_pool and amls_rt_pool_backward; the values of
/// `PoolingKind`.
typedef enum AmlsPoolKind { AMLS_POOL_MAX = 0, AMLS_POOL_AVG = 1 } AmlsPoolKind;

/// The distribution of amls_rt_distribution; the values of `Distribution`.
typedef enum AmlsDistribution {
  AMLS_DIST_NORMAL = 0,
  AMLS_DIST_EXP = 1,
  AMLS_DIST_CHISQ = 2,
  AMLS_DIST_F = 3,
  AMLS_DIST_T = 4
} AmlsDistribution;

/// What amls_rt_remove_empty and amls_rt_csr_remove_empty_* drop and
/// amls_rt_count_non_empty counts: rows or columns.
typedef enum AmlsMargin {
  AMLS_MARGIN_ROWS = 0,
  AMLS_MARGIN_COLS = 1
} AmlsMargin;

/// Where a matrix's memory lives (the GPU comes with its backend).
typedef enum AmlsTarget { AMLS_TARGET_CPU = 0 } AmlsTarget;

/// A matrix as a host program hands it to an execution session or gets it
/// back: a descriptor of memory, not the memory. For AMLS_MATRIX_DENSE, cell
/// (r, c) is element `r * strides[0] + c * strides[1]` of `data`, in
/// `element_type`. For AMLS_MATRIX_CSR (f64 only), row r's non-zeros are
/// entries row_offsets[r] to row_offsets[r + 1] - 1 of `column_indices`
/// (0-based, ascending within a row) and of `data`; `nnz` is
/// row_offsets[rows] and `strides` are unused.
///
/// `allocation` says who frees the memory: NULL for memory the host program
/// owns and lends (inputs are read in place, never copied or written), and
/// for a result the block the compiled code allocated, which whoever holds
/// the result frees with the runtime's release() (it need not equal
/// `data`). A CSR result has three blocks: `allocation` holds the values,
/// `row_offsets_allocation` and `column_indices_allocation` the other two
/// arrays.
typedef struct AmlsMatrixRef {
  AmlsMatrixFormat format;
  AmlsElementType element_type;
  AmlsTarget target;
  int64_t rows;
  int64_t cols;
  void *data;
  int64_t strides[2];
  void *allocation;
  /// AMLS_MATRIX_CSR: the rows + 1 row offsets and the nnz column indices.
  const int64_t *row_offsets;
  const int32_t *column_indices;
  int64_t nnz;
  void *row_offsets_allocation;
  void *column_indices_allocation;
} AmlsMatrixRef;

#ifdef __cplusplus
}
#endif

#endif /* AMLS_RUNTIME_ABI_H */
