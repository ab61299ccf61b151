//===- CSRDataDependent.cpp - table() as a CSR matrix ---------------------===//
//
// table(a, b[, w]) has at most one non-zero per input pair: built CSR by
// the runtime in two phases (count the cells of each row, then fill), its
// size given or the largest category, as for the dense result.
//
//===----------------------------------------------------------------------===//

#include "CSRLowering.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

struct LowerCSRTable : public CSRPattern<TableOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(TableOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Operands: lhs, rhs, then the optional weights, rows and cols.
    TableOp::Adaptor adaptor(
        llvm::map_to_vector(operands, [](ValueRange v) { return v.front(); }),
        op);
    Value lhs = asRuntimeMatrix(rewriter, loc, adaptor.getLhs());
    Value rhs = asRuntimeMatrix(rewriter, loc, adaptor.getRhs());
    Value weights = adaptor.getWeights()
                        ? asRuntimeMatrix(rewriter, loc, adaptor.getWeights())
                        : lhs;
    Value useWeights = i32Constant(rewriter, loc, adaptor.getWeights() ? 1 : 0);
    Value rows = tableExtent(rewriter, loc, op, adaptor.getRows(), lhs);
    Value cols = tableExtent(rewriter, loc, op, adaptor.getCols(), rhs);
    auto toI64 = [&](Value index) -> Value {
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                        index);
    };
    SmallVector<Value> args = {lhs,        rhs,         weights,
                               useWeights, toI64(rows), toI64(cols)};
    CSRMatrix result = csrFromTwoPhases(
        rewriter, loc, op.getType(), rows, cols,
        [&](Value rowptr) {
          SmallVector<Value> count(args);
          count.push_back(rowptr);
          return callRuntime(rewriter, loc, op, RuntimeFunction::CSRTableCount,
                             count);
        },
        [&](ValueRange arrays) {
          SmallVector<Value> fill(args);
          llvm::append_range(fill, arrays);
          callRuntime(rewriter, loc, op, RuntimeFunction::CSRTableFill, fill);
        });
    replaceWithCSR(rewriter, op, result);
    return success();
  }
};

} // namespace

void mlir::amls::lowering::populateCSRDataDependentPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerCSRTable>(patterns, converter, schedule);
}
