/*===- Value.h - AMLS C API: values passed to and from programs -----*- C -*-===*\
|*                                                                            *|
|* A value is a matrix, a float or an integer. An input matrix borrows the   *|
|* caller's memory when it is dense f64 with a unit stride in one           *|
|* dimension: a contiguous row-major matrix is read in place by the         *|
|* compiled code, other layouts are copied into row-major order by each     *|
|* run. f32 and i64 cells are converted once, when the value is made, into  *|
|* a row-major f64 copy that the value owns. A result matrix owns the       *|
|* allocated: it is freed with the value, or handed to the caller            *|
|* (amlsValueTakeMatrix), who frees it with amlsMatrixMemoryFree. Values     *|
|* belong to no session and may be used with any.                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_C_VALUE_H
#define AMLS_C_VALUE_H

#include "amls-c/Support.h"
#include "AMLS/Runtime/ABI.h"

#ifdef __cplusplus
extern "C" {
#endif

AMLS_DEFINE_C_API_STRUCT(AmlsValue, void);

typedef enum AmlsValueKind {
  AMLS_VALUE_KIND_MATRIX = 0,
  AMLS_VALUE_KIND_FLOAT = 1,
  AMLS_VALUE_KIND_INTEGER = 2
} AmlsValueKind;

/// A `rows` x `cols` matrix whose cell (r, c) is element
/// `r * rowStride + c * colStride` of `data`, of `elementType` (f64, f32 or
/// i64). Data with a unit stride is borrowed: the caller keeps it alive and
/// unchanged while a run reads it. A run reads a row-major matrix in place
/// when the program's parameter has its element type (DML's are f64; AMLS
/// IR may declare f32 or i64) and otherwise copies it once, converted;
/// other strides are converted now. Null for a negative size, null data
/// with cells, or another element type.
AMLS_CAPI_EXPORTED AmlsValue amlsValueCreateDense(const void *data,
                                                  AmlsElementType elementType,
                                                  int64_t rows, int64_t cols,
                                                  int64_t rowStride,
                                                  int64_t colStride);
/// A `rows` x `cols` CSR matrix over the caller's arrays, borrowed like
/// dense f64 data: `rowOffsets` (rows + 1 entries, from 0), and as many
/// `columnIndices` (0-based, ascending within a row) and `values` as
/// rowOffsets[rows]. A program takes it as CSR, without a copy; a run
/// checks the arrays first and fails naming what is wrong. Null for a
/// negative size or a null array that must hold entries.
AMLS_CAPI_EXPORTED AmlsValue amlsValueCreateCSR(int64_t rows, int64_t cols,
                                                const int64_t *rowOffsets,
                                                const int32_t *columnIndices,
                                                const double *values);
AMLS_CAPI_EXPORTED AmlsValue amlsValueCreateFloat(double value);
AMLS_CAPI_EXPORTED AmlsValue amlsValueCreateInteger(int64_t value);
/// Marks a matrix value as this process's block of rows of a matrix split
/// by rows over the processes of a session of target "mpi" (each MPI rank
/// passes its rows, amlsSessionGetRowBlock's share; the program computes
/// on the whole matrix). False (and no change) for a value that is not a
/// matrix.
AMLS_CAPI_EXPORTED bool amlsValueSetRowBlock(AmlsValue value, bool isRowBlock);
AMLS_CAPI_EXPORTED void amlsValueDestroy(AmlsValue value);

static inline bool amlsValueIsNull(AmlsValue value) { return !value.ptr; }

AMLS_CAPI_EXPORTED AmlsValueKind amlsValueGetKind(AmlsValue value);
/// A float or an integer value as a double.
AMLS_CAPI_EXPORTED double amlsValueGetFloat(AmlsValue value);
/// An integer value (a float truncated).
AMLS_CAPI_EXPORTED int64_t amlsValueGetInteger(AmlsValue value);
/// The descriptor of a matrix value (its memory stays the value's; the
/// descriptor's `allocation` is NULL for borrowed memory). False for a
/// value that is not a matrix.
AMLS_CAPI_EXPORTED bool amlsValueGetMatrix(AmlsValue value,
                                           AmlsMatrixRef *matrix);
/// Hands a result matrix's memory to the caller: fills `matrix`, whose
/// `allocation` (and for a CSR result `row_offsets_allocation` and
/// `column_indices_allocation`) the caller frees with amlsMatrixMemoryFree,
/// and leaves the value an empty matrix. False (and nothing changes) for a value that is
/// not a matrix, borrows its memory, or shares it with another value.
AMLS_CAPI_EXPORTED bool amlsValueTakeMatrix(AmlsValue value,
                                            AmlsMatrixRef *matrix);
/// Frees the `allocation` of a matrix taken with amlsValueTakeMatrix
/// (NULL does nothing).
AMLS_CAPI_EXPORTED void amlsMatrixMemoryFree(void *allocation);

#ifdef __cplusplus
}
#endif

#endif /* AMLS_C_VALUE_H */
