//===- CSRLowering.h - Shared by the CSR lowering patterns ------*- C++ -*-===//
//
// A CSR matrix converts to the values of its fields (StorageLayouts.def):
// row pointers (tensor of R+1 i64), column indices (tensor of nnz i32),
// values (tensor of nnz f64) and the number of columns (index). Kernels are
// runtime calls on views of these tensors, or generated loops over the values;
// results are buffers allocated here and handed back as tensors, so
// bufferization and the ownership-based deallocation manage them like dense
// matrices.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_CONVERSION_AMLSTOLINALG_CSRLOWERING_H
#define AMLS_LIB_CONVERSION_AMLSTOLINALG_CSRLOWERING_H

#include "LoweringUtils.h"

#include "AMLS/CostModel/PropertyLattice.h"

namespace mlir::amls::lowering {

/// The converted values of a CSR matrix.
struct CSRMatrix {
  Value rowptr, colidx, values, cols;

  static CSRMatrix fromRange(ValueRange range);
  SmallVector<Value> asRange() const;

  Value rows(OpBuilder &b, Location loc) const;
  /// Number of stored entries.
  Value nnz(OpBuilder &b, Location loc) const;
  /// The four runtime arguments (CSR in the runtime table).
  void appendRuntimeArgs(OpBuilder &b, Location loc,
                         SmallVectorImpl<Value> &args) const;
};

/// The types a CSR matrix type converts to (MatrixTypeConverter).
void getCSRTypes(MatrixType type, SmallVectorImpl<Type> &types);

/// An uninitialized 1-D buffer of `size` elements; `role` ("the values")
/// names it in the runtime's statistics (describeBuffer).
Value allocVector(OpBuilder &b, Location loc, Type elementType, Value size,
                  StringRef role = "");
/// A buffer as the runtime takes it (getRuntimeVectorType).
Value runtimeVector(OpBuilder &b, Location loc, Value buffer);
/// A filled buffer handed back as a tensor.
Value vectorTensor(OpBuilder &b, Location loc, Value buffer);
/// A read-only runtime view of a 1-D tensor.
Value runtimeVectorOf(OpBuilder &b, Location loc, Value tensor);

/// The CSR matrix of `type` built from filled buffers, cast to the
/// converted types.
CSRMatrix csrFromBuffers(OpBuilder &b, Location loc, MatrixType type,
                         Value rowptr, Value colidx, Value values, Value cols);

/// A CSR result whose number of non-zeros is known up front: allocates the
/// arrays (rows + 1, nnz, nnz) and lets the runtime's `fill` write them
/// (called with `args` and the three arrays).
CSRMatrix csrFromKernel(OpBuilder &b, Location loc, Operation *op,
                        MatrixType type, Value rows, Value nnz, Value cols,
                        ArrayRef<Value> args, RuntimeFunction fill);

/// A CSR result computed in two phases: the runtime's `count` (called with
/// `args` and the row pointers) fills the row pointers and returns the
/// number of non-zeros; `fill` (with `args` and the three arrays) then
/// writes all three arrays.
CSRMatrix csrFromKernels(OpBuilder &b, Location loc, Operation *op,
                         MatrixType type, Value rows, Value cols,
                         ArrayRef<Value> args, RuntimeFunction count,
                         RuntimeFunction fill);

/// A dense result of `x`'s shape written by `kernel`, called with x's
/// arrays, `args` and the result. A result that would not fit in memory
/// stops the program first with `what` (after the op's location), the
/// shape and the bytes.
Value denseFromKernel(OpBuilder &b, Location loc, Operation *op,
                      RankedTensorType type, const CSRMatrix &x,
                      ArrayRef<Value> args, RuntimeFunction kernel,
                      const Twine &what);

/// The dense form of a CSR matrix (a tensor of `type`); stops with the op,
/// the shape and the bytes when it would not fit in memory.
Value denseFromCSR(OpBuilder &b, Location loc, Operation *op,
                   const CSRMatrix &input, RankedTensorType type);
/// The CSR form of a dense tensor, for a result of `type`.
CSRMatrix csrFromDense(OpBuilder &b, Location loc, Operation *op,
                       MatrixType type, Value dense);
/// The same pattern (row pointers and column indices) with new values.
/// In a linalg.generic over a 2-D result, the cell of `matrix` at the
/// iteration's (i, j), row 0 where `rowVector` and column 0 where
/// `colVector` hold (DML broadcasting a vector).
Value broadcastCell(OpBuilder &b, Location loc, Value matrix, Value rowVector,
                    Value colVector);
/// Size `dim` of the CSR matrix `x` of AMLS type `type`: a constant where
/// the type knows it.
Value csrSize(OpBuilder &b, Location loc, Type type, const CSRMatrix &x,
              int64_t dim);
/// `x` (of AMLS type `xType`) as a rows x cols matrix of `type`: `x` where
/// it has that shape, otherwise (a CSR vector that DML broadcasts, its size
/// known only at run time) its row or column repeated.
CSRMatrix broadcastCSR(OpBuilder &b, Location loc, Operation *op,
                       MatrixType type, Type xType, const CSRMatrix &x,
                       Value rows, Value cols);
CSRMatrix withValues(const CSRMatrix &pattern, Value values);

/// The number of ranges the rows of a CSR matrix are split into for
/// per-thread partial results: amls_rt_get_num_threads(), at most one per
/// row and at least one.
Value threadRowRanges(OpBuilder &b, Location loc, Operation *op, Value rows);
/// A parallel loop over `ranges` equal ranges of `rows` rows; `body` gets
/// the range's number and its rows [lo, hi).
void forEachRowRange(
    OpBuilder &b, Location loc, Value rows, Value ranges,
    function_ref<void(OpBuilder &, Location, Value range, Value lo, Value hi)>
        body);
/// Whether `op` is G * r (G CSR, r a dense row vector) whose only user is
/// rowMaxs: connected components' rowMaxs(G * t(c)), one max-times
/// product (amls_rt_csr_row_max_times) without the temporary CSR matrix.
/// G * r is then replaced by G's values (it has G's shape, so the types
/// agree), which rowMaxs reads as its operand.
bool isRowMaxTimesReadThrough(Operation *op);

/// Base of the CSR patterns: matches ops with a CSR operand or result
/// (before the dense patterns, which take the rest).
template <typename OpTy> struct CSRPattern : public OpConversionPattern<OpTy> {
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;

  CSRPattern(const TypeConverter &converter, MLIRContext *context,
             const LoweringSchedule &schedule)
      : OpConversionPattern<OpTy>(converter, context, /*benefit=*/2),
        schedule(schedule) {}

  virtual LogicalResult lower(OpTy op, ArrayRef<ValueRange> operands,
                              ConversionPatternRewriter &rewriter) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!touchesCSRMatrix(op))
      return failure();
    return lower(op, adaptor.getOperands(), rewriter);
  }

  /// Replaces `op`'s single result by a CSR matrix (cast to its types).
  void replaceWithCSR(ConversionPatternRewriter &rewriter, Operation *op,
                      CSRMatrix csr) const {
    Location loc = op->getLoc();
    auto type = cast<MatrixType>(op->getResult(0).getType());
    SmallVector<Type> types;
    getCSRTypes(type, types);
    csr.rowptr = castTo(rewriter, loc, csr.rowptr, types[0]);
    csr.colidx = castTo(rewriter, loc, csr.colidx, types[1]);
    csr.values = castTo(rewriter, loc, csr.values, types[2]);
    if (isKnownSize(type.getCols()))
      csr.cols = indexConstant(rewriter, loc, type.getCols());
    SmallVector<SmallVector<Value>> values;
    values.push_back(csr.asRange());
    rewriter.replaceOpWithMultiple(op, std::move(values));
  }

  /// Replaces `op`'s single result by a dense tensor (cast to its type).
  void replaceWithDense(ConversionPatternRewriter &rewriter, Operation *op,
                        Value tensor) const {
    Type type = this->getTypeConverter()->convertType(op->getResultTypes()[0]);
    rewriter.replaceOp(op, isa<RankedTensorType>(type)
                               ? castTo(rewriter, op->getLoc(), tensor, type)
                               : tensor);
  }

  const LoweringSchedule &schedule;
};

/// The CSR patterns of each family (CSR<Family>.cpp).
void populateCSRProductPatterns(const TypeConverter &converter,
                                RewritePatternSet &patterns,
                                const LoweringSchedule &schedule);
void populateCSRAggregatePatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  const LoweringSchedule &schedule);
void populateCSRElementwisePatterns(const TypeConverter &converter,
                                    RewritePatternSet &patterns,
                                    const LoweringSchedule &schedule);
void populateCSRDataDependentPatterns(const TypeConverter &converter,
                                      RewritePatternSet &patterns,
                                      const LoweringSchedule &schedule);
void populateCSRFusedPatterns(const TypeConverter &converter,
                              RewritePatternSet &patterns,
                              const LoweringSchedule &schedule);
void populateCSRFusedRowPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns,
                                 const LoweringSchedule &schedule);
void populateCSRReorganisationPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns,
                                       const LoweringSchedule &schedule);

} // namespace mlir::amls::lowering

#endif // AMLS_LIB_CONVERSION_AMLSTOLINALG_CSRLOWERING_H
