//===- CompressedLowering.h - Shared by the compressed patterns -*- C++ -*-===//
//
// A compressed matrix converts to one index value, the handle of the
// runtime's CompressedMatrix (StorageLayouts.def). Its ops are runtime calls
// (lib/Runtime/Compressed/CInterface.cpp) on that handle: the products in
// CompressedProducts.cpp, the aggregates, scalar maps, sizes and
// decompression in CompressedCellOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_CONVERSION_AMLSTOLINALG_COMPRESSEDLOWERING_H
#define AMLS_LIB_CONVERSION_AMLSTOLINALG_COMPRESSEDLOWERING_H

#include "LoweringUtils.h"

namespace mlir::amls::lowering {

/// Matches only ops that read or make a compressed matrix, before the
/// dense and CSR patterns.
template <typename OpTy>
struct CompressedPattern : public OpConversionPattern<OpTy> {
  using OpAdaptor = typename OpTy::Adaptor;

  CompressedPattern(const TypeConverter &converter, MLIRContext *context,
                    const LoweringSchedule &)
      : OpConversionPattern<OpTy>(converter, context, /*benefit=*/3) {}

  virtual LogicalResult lower(OpTy op, OpAdaptor adaptor,
                              ConversionPatternRewriter &rewriter) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!llvm::any_of(op->getOperandTypes(), isCompressedMatrix) &&
        !llvm::any_of(op->getResultTypes(), isCompressedMatrix))
      return failure();
    return lower(op, adaptor, rewriter);
  }

  RankedTensorType tensorType(Value value) const {
    return dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(value.getType()));
  }

  /// Replaces `op`'s result by the rows x cols matrix that `call` (given
  /// the output buffer) writes through the runtime.
  void replaceWithRuntimeResult(ConversionPatternRewriter &rewriter, OpTy op,
                                Value rows, Value cols,
                                function_ref<void(Value out)> call) const {
    RankedTensorType type = tensorType(op.getResult());
    Value result =
        tensorFromRuntime(rewriter, op.getLoc(), type, rows, cols, call);
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), result, type));
  }
};

/// The handle as the runtime takes it (i64), and as compiled code keeps a
/// runtime call's i64 result (index).
Value runtimeHandle(OpBuilder &b, Location loc, Value handle);
Value handleFromRuntime(OpBuilder &b, Location loc, Value handle);

/// Rows (dim 0) or columns (dim 1) of the compressed matrix `handle`.
Value compressedSize(OpBuilder &b, Location loc, Operation *op, Value handle,
                     int32_t dim);

/// The aggregates, scalar maps, sizes and decompression.
void populateCompressedCellOpPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const LoweringSchedule &schedule);

} // namespace mlir::amls::lowering

#endif // AMLS_LIB_CONVERSION_AMLSTOLINALG_COMPRESSEDLOWERING_H
