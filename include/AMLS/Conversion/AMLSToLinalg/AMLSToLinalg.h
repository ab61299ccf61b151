//===- AMLSToLinalg.h - Lowering AMLS to linalg on tensors ------*- C++ -*-===//
//
// The patterns of --convert-amls-to-linalg, one populate function per op
// family (lib/Conversion/AMLSToLinalg/<Family>.cpp), and the type converter
// from matrices to tensors. Target-dependent shape decisions come from a
// LoweringSchedule.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_CONVERSION_AMLSTOLINALG_AMLSTOLINALG_H
#define AMLS_CONVERSION_AMLSTOLINALG_AMLSTOLINALG_H

#include "AMLS/Conversion/AMLSToLinalg/LoweringSchedule.h"

#include "AMLS/Dialect/AMLSTypes.h"
#include "AMLS/Runtime/ABI.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::amls {

/// `!amls.matrix<RxCxT>` to `tensor<RxCxT>`, a CSR matrix to its row
/// pointers, column indices, values and column count (a 1:N conversion);
/// other types unchanged.
class MatrixTypeConverter : public TypeConverter {
public:
  MatrixTypeConverter();
};

/// The storage layout of `type` (StorageLayouts.def).
AmlsMatrixFormat getStorageFormat(MatrixType type);
/// The types the fields of `type`'s layout lower to, in the layout's order:
/// a tensor of the matrix's shape and element type for its cells, 1-D
/// tensors for arrays, `index` for numbers.
void getStorageTypes(MatrixType type, SmallVectorImpl<Type> &types);
/// How a value of `type` (before the conversion) is returned from compiled
/// code: a matrix in its layout, a float or an integer; none for others.
std::optional<ResultKind> getResultKind(Type type);

/// Reports every op under `root` that takes or produces a CSR matrix
/// without a kernel for it (CSRKernelInterface), before the conversion.
LogicalResult checkMatrixFormats(Operation *root);

/// Element-wise ops (ElementwiseOpInterface): one linalg.generic each.
void populateAMLSElementwiseLoweringPatterns(const TypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             const LoweringSchedule &schedule);
/// fill, constant, seq, rand.
void populateAMLSDataGenerationLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule);
/// read, write, print, printf, stop: runtime calls.
void populateAMLSIOLoweringPatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const LoweringSchedule &schedule);
/// A distributed run's all_reduce, all_gather_rows and local_rows.
void populateAMLSCollectiveLoweringPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const LoweringSchedule &schedule);
/// matmul, tsmm, mmchain.
void populateAMLSProductLoweringPatterns(const TypeConverter &converter,
                                         RewritePatternSet &patterns,
                                         const LoweringSchedule &schedule);
/// agg, trace, cumulative aggregates.
void populateAMLSAggregateLoweringPatterns(const TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           const LoweringSchedule &schedule);
/// transpose, reshape, rev, diag, cbind, rbind, slice, insert_slice.
void populateAMLSReorganisationLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule);
/// remove_empty, table, order: sizes from the data.
void populateAMLSDataDependentLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule);
/// solve, inv, det, cholesky, qr, lu, eigen, svd, triangle: LAPACK calls.
void populateAMLSLinearAlgebraLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule);
/// conv2d, its gradients, pool, pool_backward: runtime kernels.
void populateAMLSNeuralNetworkLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule);
/// nrow, ncol, nnz, as_scalar, as_matrix, cast, convert, select.
void populateAMLSScalarLoweringPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        const LoweringSchedule &schedule);
/// parfor and its yield.
void populateAMLSRegionLoweringPatterns(const TypeConverter &converter,
                                        RewritePatternSet &patterns,
                                        const LoweringSchedule &schedule);
/// amls.fused (cell, magg, row, outer).
void populateAMLSFusedLoweringPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringSchedule &schedule);

/// The CSR kernels (CSRKernelInterface): conversions, I/O and sizes;
/// products; aggregates; element-wise ops; reorganisations.
void populateAMLSCSRLoweringPatterns(const TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     const LoweringSchedule &schedule);

/// amls.compress and amls.release, and the products on a compressed matrix
/// (runtime calls on its handle).
void populateAMLSCompressedLoweringPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const LoweringSchedule &schedule);

/// Frames and the transform ops (runtime calls on frame handles).
void populateAMLSFrameLoweringPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringSchedule &schedule);

/// All of the above.
void populateAMLSToLinalgConversionPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            const LoweringSchedule &schedule);

} // namespace mlir::amls

#endif // AMLS_CONVERSION_AMLSTOLINALG_AMLSTOLINALG_H
