//===- DataDependent.cpp - Lower removeEmpty, table, order ----------------===//
//
// Ops whose result size depends on the data: the runtime computes the size
// first, then fills a buffer of that size.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

struct LowerRemoveEmpty : public LowerToValue<RemoveEmptyOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(RemoveEmptyOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Value input = asRuntimeMatrix(rewriter, loc, adaptor.getInput());
    bool rows = op.getMargin() == Margin::Rows;
    if (adaptor.getSelect())
      checkRemoveEmptySelect(
          rewriter, loc, op, rows, dimOf(rewriter, loc, adaptor.getInput(), 0),
          dimOf(rewriter, loc, adaptor.getInput(), 1), adaptor.getSelect());
    Value select = adaptor.getSelect()
                       ? asRuntimeMatrix(rewriter, loc, adaptor.getSelect())
                       : input;
    Value margin =
        i32Constant(rewriter, loc, rows ? AMLS_MARGIN_ROWS : AMLS_MARGIN_COLS);
    Value useSelect = i32Constant(rewriter, loc, adaptor.getSelect() ? 1 : 0);
    Value kept64 =
        callRuntime(rewriter, loc, op, RuntimeFunction::CountNonEmpty,
                    {input, select, margin, useSelect});
    Value kept = keptExtent(rewriter, loc, op, kept64);
    Value resultRows =
        rows ? kept : dimOf(rewriter, loc, adaptor.getInput(), 0);
    Value resultCols =
        rows ? dimOf(rewriter, loc, adaptor.getInput(), 1) : kept;
    return tensorFromRuntime(
        rewriter, loc, type, resultRows, resultCols, [&](Value out) {
          callRuntime(rewriter, loc, op, RuntimeFunction::RemoveEmpty,
                      {input, select, out, margin, useSelect});
        });
  }
};

struct LowerTable : public LowerToValue<TableOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(TableOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Value lhs = asRuntimeMatrix(rewriter, loc, adaptor.getLhs());
    Value rhs = asRuntimeMatrix(rewriter, loc, adaptor.getRhs());
    Value weights = adaptor.getWeights()
                        ? asRuntimeMatrix(rewriter, loc, adaptor.getWeights())
                        : lhs;
    Value useWeights = i32Constant(rewriter, loc, adaptor.getWeights() ? 1 : 0);
    Value rows = tableExtent(rewriter, loc, op, adaptor.getRows(), lhs);
    Value cols = tableExtent(rewriter, loc, op, adaptor.getCols(), rhs);
    return tensorFromRuntime(rewriter, loc, type, rows, cols, [&](Value out) {
      callRuntime(rewriter, loc, op, RuntimeFunction::Table,
                  {lhs, rhs, weights, out, useWeights});
    });
  }
};

struct LowerOrder : public LowerToValue<OrderOp> {
  using LowerToValue::LowerToValue;
  FailureOr<Value> lower(OrderOp op, OpAdaptor adaptor,
                         ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Value input = adaptor.getInput();
    Value rows = dimOf(rewriter, loc, input, 0);
    Value cols = op.getIndices() ? indexConstant(rewriter, loc, 1)
                                 : dimOf(rewriter, loc, input, 1);
    Value by = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                          adaptor.getBy());
    Value matrix = asRuntimeMatrix(rewriter, loc, input);
    Value decreasing = i32Constant(rewriter, loc, op.getDecreasing() ? 1 : 0);
    Value indices = i32Constant(rewriter, loc, op.getIndices() ? 1 : 0);
    return tensorFromRuntime(rewriter, loc, type, rows, cols, [&](Value out) {
      callRuntime(rewriter, loc, op, RuntimeFunction::Order,
                  {matrix, out, by, decreasing, indices});
    });
  }
};

} // namespace

void mlir::amls::populateAMLSDataDependentLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerRemoveEmpty, LowerTable, LowerOrder>(patterns, converter,
                                                        schedule);
}
