/*===- Dialect.h - AMLS C API: the amls dialect and its types -------*- C -*-===*\
|*                                                                            *|
|* Registers the `amls` dialect with an MlirContext or MlirDialectRegistry   *|
|* and builds and inspects `!amls.matrix` types, so that a frontend that     *|
|* builds IR through MLIR's C API can emit AMLS ops (by their generic form,  *|
|* mlirOperationCreate with names such as "amls.matmul").                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef AMLS_C_DIALECT_H
#define AMLS_C_DIALECT_H

#include "amls-c/Support.h"
#include "AMLS/Runtime/ABI.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(AMLS, amls);

/// The size of a matrix dimension that is not known before the run (`?`).
AMLS_CAPI_EXPORTED int64_t amlsMatrixTypeGetDynamicSize(void);

/// `!amls.matrix<rows x cols x elementType>` (f64, f32 or i64), without
/// sparsity or format; a null type when the element type is not one of
/// those or a size is negative (other than the dynamic size).
AMLS_CAPI_EXPORTED MlirType amlsMatrixTypeGet(MlirContext context,
                                              int64_t rows, int64_t cols,
                                              MlirType elementType);
/// The same with an estimated fraction of non-zeros in [0, 1] (negative:
/// unknown) and a storage format.
AMLS_CAPI_EXPORTED MlirType amlsMatrixTypeGetWithProperties(
    MlirContext context, int64_t rows, int64_t cols, MlirType elementType,
    double sparsity, AmlsMatrixFormat format);

AMLS_CAPI_EXPORTED bool amlsTypeIsAMatrix(MlirType type);
AMLS_CAPI_EXPORTED int64_t amlsMatrixTypeGetRows(MlirType type);
AMLS_CAPI_EXPORTED int64_t amlsMatrixTypeGetCols(MlirType type);
AMLS_CAPI_EXPORTED MlirType amlsMatrixTypeGetElementType(MlirType type);
/// The estimated fraction of non-zeros, or a negative value if unknown.
AMLS_CAPI_EXPORTED double amlsMatrixTypeGetSparsity(MlirType type);
/// Whether the type names a storage format, and which.
AMLS_CAPI_EXPORTED bool amlsMatrixTypeHasFormat(MlirType type);
AMLS_CAPI_EXPORTED AmlsMatrixFormat amlsMatrixTypeGetFormat(MlirType type);

#ifdef __cplusplus
}
#endif

#endif /* AMLS_C_DIALECT_H */
