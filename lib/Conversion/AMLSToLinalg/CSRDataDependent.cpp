//===- CSRDataDependent.cpp - table() and removeEmpty as CSR matrices -----===//
//
// table(a, b[, w]) has at most one non-zero per input pair: built CSR by
// the runtime in two phases (count the cells of each row, then fill), its
// size given or the largest category, as for the dense result.
// removeEmpty of a CSR matrix keeps it CSR: the kept rows (columns) are
// counted first, then the result is built in two phases.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/ABI.h"
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
    CSRMatrix result = csrFromKernels(
        rewriter, loc, op, op.getType(), rows, cols, args,
        RuntimeFunction::CSRTableCount, RuntimeFunction::CSRTableFill);
    replaceWithCSR(rewriter, op, result);
    return success();
  }
};

/// removeEmpty of a CSR matrix: the runtime counts the kept rows
/// (columns), then builds the CSR result in two phases.
struct LowerCSRRemoveEmpty : public CSRPattern<RemoveEmptyOp> {
  using CSRPattern::CSRPattern;
  LogicalResult lower(RemoveEmptyOp op, ArrayRef<ValueRange> operands,
                      ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    CSRMatrix x = CSRMatrix::fromRange(operands[0]);
    bool byRows = op.getMargin() == Margin::Rows;
    Value rows = x.rows(rewriter, loc);
    Value select;
    if (op.getSelect()) {
      Value selectTensor = operands[1].front();
      checkRemoveEmptySelect(rewriter, loc, op, byRows, rows, x.cols,
                             selectTensor);
      select = asRuntimeMatrix(rewriter, loc, selectTensor);
    } else {
      // Not read without a select: an empty matrix.
      Type f64 = rewriter.getF64Type();
      select = memref::CastOp::create(
          rewriter, loc, getRuntimeMatrixType(f64),
          memref::AllocOp::create(rewriter, loc, MemRefType::get({0, 0}, f64)));
    }
    SmallVector<Value> args;
    x.appendRuntimeArgs(rewriter, loc, args);
    args.append({select,
                 i32Constant(rewriter, loc,
                             byRows ? AMLS_MARGIN_ROWS : AMLS_MARGIN_COLS),
                 i32Constant(rewriter, loc, op.getSelect() ? 1 : 0)});
    Value kept =
        keptExtent(rewriter, loc, op,
                   callRuntime(rewriter, loc, op,
                               RuntimeFunction::CSRCountNonEmpty, args));
    CSRMatrix result = csrFromKernels(
        rewriter, loc, op, op.getType(), byRows ? kept : rows,
        byRows ? x.cols : kept, args, RuntimeFunction::CSRRemoveEmptyCount,
        RuntimeFunction::CSRRemoveEmptyFill);
    replaceWithCSR(rewriter, op, result);
    return success();
  }
};

} // namespace

void mlir::amls::lowering::populateCSRDataDependentPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerCSRTable, LowerCSRRemoveEmpty>(patterns, converter,
                                                  schedule);
}
