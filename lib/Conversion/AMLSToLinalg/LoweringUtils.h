//===- LoweringUtils.h - Shared by the AMLS-to-linalg patterns --*- C++ -*-===//
//
// Builders every op family's lowering uses: constants and sizes, run-time
// checks with the op's location, matrices passed to and from the runtime,
// and the base class of the op patterns.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_CONVERSION_AMLSTOLINALG_LOWERINGUTILS_H
#define AMLS_LIB_CONVERSION_AMLSTOLINALG_LOWERINGUTILS_H

#include "AMLS/Conversion/AMLSToLinalg/AMLSToLinalg.h"
#include "AMLS/Conversion/AMLSToLinalg/LoweringSchedule.h"
#include "AMLS/Conversion/ElementConversion.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::amls::lowering {

Value i32Constant(OpBuilder &b, Location loc, int32_t value);
Value indexConstant(OpBuilder &b, Location loc, int64_t value);
Value floatConstant(OpBuilder &b, Location loc, Type type, double value);

/// Size `dim` of a 2-D tensor: a constant when static.
Value dimOf(OpBuilder &b, Location loc, Value tensor, int64_t dim);

/// An uninitialized tensor of `type` whose dynamic sizes are among `sizes`.
Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<Value> sizes);

/// `value` as `type` (a tensor.cast where the types differ).
Value castTo(OpBuilder &b, Location loc, Value value, Type type);

/// "'op' at file:line:col" of an op, for run-time messages.
std::string describe(Operation *op);

/// A run-time check: when `condition` is false the runtime reports
/// `message` (with the op's location) and exits with status 1.
void check(OpBuilder &b, Location loc, Value condition, Operation *op,
           const Twine &message);

/// A run-time check that two sizes agree (none when both are constants:
/// the verifier has checked them).
void checkEqual(OpBuilder &b, Location loc, Value lhs, Value rhs, Operation *op,
                const Twine &message);

/// The sizes of an element-wise result of two operands of rows0 x cols0
/// and rows1 x cols1, which DML broadcasts along a dimension where one of
/// them is 1; a run-time check (naming the op and both shapes) that they
/// are equal otherwise.
std::pair<Value, Value> broadcastShapes(OpBuilder &b, Location loc,
                                        Operation *op, Value rows0, Value cols0,
                                        Value rows1, Value cols1);

/// Iterator types of a loop nest: reduction where `reduced`.
SmallVector<utils::IteratorType> iterators(ArrayRef<bool> reduced);

/// A runtime call declared by the table in RuntimeABI.
inline Value callRuntime(OpBuilder &b, Location loc, Operation *from,
                         RuntimeFunction function, ValueRange args = {}) {
  return createRuntimeCall(b, loc, from, function, args);
}

/// A read-only view of a tensor as a runtime matrix (an f64 copy of an f32
/// or i64 matrix).
Value asRuntimeMatrix(OpBuilder &b, Location loc, Value tensor);

/// A size of table()'s result: the given one, or the largest category in
/// `categories` (a runtime matrix).
Value tableExtent(OpBuilder &b, Location loc, Operation *op, Value given,
                  Value categories);

/// A run-time check that removeEmpty's `select` (a 2-D tensor) has one
/// cell per row (`byRows`: a column vector) or per column of the rows x
/// cols input.
void checkRemoveEmptySelect(OpBuilder &b, Location loc, Operation *op,
                            bool byRows, Value rows, Value cols, Value select);

/// A copy of `operand` expanded to `sizes` along the dimensions in
/// `expand`, where its size is 1 at run time (DML broadcasting a vector whose
/// size was unknown at compile time); `operand` itself otherwise.
Value expandIfVector(OpBuilder &b, Location loc, Value operand,
                     ArrayRef<Value> sizes, ArrayRef<bool> expand);

/// removeEmpty's kept rows (columns) as an index from the runtime's i64
/// count: at least one with `empty_return` (the padding row is zeros).
Value keptExtent(OpBuilder &b, Location loc, RemoveEmptyOp op, Value count);

/// Allocates a rows x cols f64 buffer, lets `fill` write it through the
/// runtime, and returns it as a tensor of `type` (converting the elements to
/// its element type).
Value tensorFromRuntime(OpBuilder &b, Location loc, RankedTensorType type,
                        Value rows, Value cols,
                        function_ref<void(Value matrix)> fill);

/// The base of the op patterns: the type converter's tensor types and the
/// target's schedule.
template <typename OpTy> struct AMLSPattern : public OpConversionPattern<OpTy> {
  using OpAdaptor = typename OpTy::Adaptor;

  AMLSPattern(const TypeConverter &converter, MLIRContext *context,
              const LoweringSchedule &schedule)
      : OpConversionPattern<OpTy>(converter, context), schedule(schedule) {}

  RankedTensorType tensorType(Value value) const {
    return dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(value.getType()));
  }

  const LoweringSchedule &schedule;
};

/// A pattern for an op with one result: `lower` builds the value that
/// replaces it (cast to the converted result type where that is a tensor),
/// or fails after reporting why.
template <typename OpTy> struct LowerToValue : public AMLSPattern<OpTy> {
  using AMLSPattern<OpTy>::AMLSPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  virtual FailureOr<Value> lower(OpTy op, OpAdaptor adaptor,
                                 ConversionPatternRewriter &rewriter) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    FailureOr<Value> value = lower(op, adaptor, rewriter);
    if (failed(value))
      return failure();
    Type type = this->getTypeConverter()->convertType(op->getResultTypes()[0]);
    rewriter.replaceOp(op, isa<RankedTensorType>(type)
                               ? castTo(rewriter, op.getLoc(), *value, type)
                               : *value);
    return success();
  }
};

/// Adds the patterns `Patterns...` built from the lowering's arguments.
template <typename... Patterns>
void addPatterns(RewritePatternSet &patterns, const TypeConverter &converter,
                 const LoweringSchedule &schedule) {
  patterns.add<Patterns...>(converter, patterns.getContext(), schedule);
}

} // namespace mlir::amls::lowering

#endif // AMLS_LIB_CONVERSION_AMLSTOLINALG_LOWERINGUTILS_H
