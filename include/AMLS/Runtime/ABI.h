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
/// order (what NumPy's `tofile` writes).
typedef enum AmlsFileFormat {
  AMLS_FILE_CSV = 0,
  AMLS_FILE_MATRIX_MARKET = 1,
  AMLS_FILE_BINARY = 2
} AmlsFileFormat;

/// Distributions of rand().
typedef enum AmlsRandomPdf {
  AMLS_PDF_UNIFORM = 0,
  AMLS_PDF_NORMAL = 1
} AmlsRandomPdf;

/// Physical layouts of a matrix.
typedef enum AmlsMatrixFormat {
  AMLS_MATRIX_DENSE = 0,
  AMLS_MATRIX_CSR = 1
} AmlsMatrixFormat;

/// Where the pieces of a message go: amls.printf prints on stdout,
/// amls.stop reports on stderr and ends the run with status 1.
typedef enum AmlsMessageStream {
  AMLS_STREAM_PRINT = 0,
  AMLS_STREAM_STOP = 1
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

#ifdef __cplusplus
}
#endif

#endif /* AMLS_RUNTIME_ABI_H */
