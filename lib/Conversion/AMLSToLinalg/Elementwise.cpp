//===- Elementwise.cpp - Lower element-wise ops ---------------------------===//
//
// Every op with ElementwiseOpInterface becomes one linalg.generic whose body
// the interface builds; operands broadcast through the indexing maps.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

/// Any op with ElementwiseOpInterface: one linalg.generic over the result,
/// broadcasting operands whose size is statically 1 along a dimension
/// through the indexing maps. An operand whose size is unknown may still be
/// a vector at run time; it is expanded first when it is.
struct LowerElementwise
    : public OpInterfaceConversionPattern<ElementwiseOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;

  LogicalResult
  matchAndRewrite(ElementwiseOpInterface op, ArrayRef<Value> adaptorOperands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op->getResult(0).getType()));
    if (!resultType)
      return failure();
    Type elementType = resultType.getElementType();
    if (!isa<FloatType>(elementType) && !op.supportsElementType(elementType))
      return op->emitOpError("on ")
             << elementType << " matrices is not supported by the lowering";

    SmallVector<Value> operands(adaptorOperands);
    auto matrixType = [&](unsigned i) {
      return dyn_cast<RankedTensorType>(operands[i].getType());
    };
    // Sizes of the result: static, or from the operands not statically 1
    // along that dimension, where an operand of size 1 gives way to the
    // others (broadcasting decided at run time).
    SmallVector<Value> sizes;
    // Per dimension, the operand the size is read first from: its size is
    // the result's or 1 by construction. When it is the only candidate it
    // needs no expansion either.
    SmallVector<int64_t> firstSource = {-1, -1};
    SmallVector<bool> soleSource = {false, false};
    for (int64_t d = 0; d < 2; ++d) {
      if (!resultType.isDynamicDim(d)) {
        sizes.push_back(indexConstant(rewriter, loc, resultType.getDimSize(d)));
        continue;
      }
      SmallVector<unsigned> candidates;
      for (unsigned i = 0; i < operands.size(); ++i)
        if (auto type = matrixType(i); type && type.getDimSize(d) != 1)
          candidates.push_back(i);
      if (candidates.empty()) {
        sizes.push_back(indexConstant(rewriter, loc, 1));
        continue;
      }
      firstSource[d] = candidates.front();
      soleSource[d] = candidates.size() == 1;
      Value size = dimOf(rewriter, loc, operands[candidates.front()], d);
      Value one = indexConstant(rewriter, loc, 1);
      for (unsigned i : llvm::drop_begin(candidates)) {
        Value isVector = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, size, one);
        size =
            arith::SelectOp::create(rewriter, loc, isVector,
                                    dimOf(rewriter, loc, operands[i], d), size);
      }
      sizes.push_back(size);
    }

    // Two matrices may each turn out to be a vector along another
    // dimension at run time (13x1 and 1x?): DML broadcasts one vector
    // against a matrix, not both (an outer product), which inference could
    // rule out only where the sizes are known.
    if (operands.size() == 2 && matrixType(0) && matrixType(1) &&
        !(matrixType(0).hasStaticShape() && matrixType(1).hasStaticShape())) {
      Value one = indexConstant(rewriter, loc, 1);
      auto broadcasts = [&](unsigned i, int64_t d) -> Value {
        Value isOne =
            arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                  dimOf(rewriter, loc, operands[i], d), one);
        Value grows = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ne, sizes[d], one);
        return arith::AndIOp::create(rewriter, loc, isOne, grows);
      };
      Value outer = arith::OrIOp::create(
          rewriter, loc,
          arith::AndIOp::create(rewriter, loc, broadcasts(0, 0),
                                broadcasts(1, 1)),
          arith::AndIOp::create(rewriter, loc, broadcasts(0, 1),
                                broadcasts(1, 0)));
      Value ok = arith::XOrIOp::create(
          rewriter, loc, outer,
          arith::ConstantIntOp::create(rewriter, loc, 1, /*width=*/1));
      check(rewriter, loc, ok, op,
            "the operands would both be broadcast (an outer product); DML "
            "broadcasts only a row or column vector against a matrix");
    }

    // Check each operand's sizes against the result's; expand the operands
    // that may be vectors at run time.
    for (unsigned i = 0; i < operands.size(); ++i) {
      RankedTensorType type = matrixType(i);
      if (!type)
        continue;
      SmallVector<bool> expand = {false, false};
      for (int64_t d = 0; d < 2; ++d) {
        bool first = firstSource[d] == static_cast<int64_t>(i);
        if (type.getDimSize(d) == 1 || (first && soleSource[d]))
          continue;
        if (type.isDynamicDim(d) && resultType.getDimSize(d) != 1)
          expand[d] = true;
        Value dim = dimOf(rewriter, loc, operands[i], d);
        if (first ||
            (getConstantIntValue(dim) && getConstantIntValue(sizes[d])))
          continue; // Holds by construction, or verified statically.
        Value matches = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, dim, sizes[d]);
        if (expand[d]) {
          matches = arith::OrIOp::create(
              rewriter, loc, matches,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                    dim, indexConstant(rewriter, loc, 1)));
        }
        check(rewriter, loc, matches, op,
              "operand #" + Twine(i) + " has a different size in dimension " +
                  Twine(d) + " than the result, and is not a vector to " +
                  "broadcast");
      }
      if (expand[0] || expand[1])
        operands[i] = expandIfVector(rewriter, loc, operands[i], sizes, expand);
    }

    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<int> inputOf(operands.size(), -1);
    MLIRContext *context = rewriter.getContext();
    for (auto [i, operand] : llvm::enumerate(operands)) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        continue;
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < 2; ++d) {
        bool broadcast =
            type.getDimSize(d) == 1 && resultType.getDimSize(d) != 1;
        exprs.push_back(broadcast ? getAffineConstantExpr(0, context)
                                  : getAffineDimExpr(d, context));
      }
      inputOf[i] = inputs.size();
      inputs.push_back(operand);
      maps.push_back(AffineMap::get(2, 0, exprs, context));
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(2, context));

    Value init = emptyTensor(rewriter, loc, resultType, sizes);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, inputs, init, maps,
        iterators({false, false}),
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          SmallVector<Value> cells;
          for (auto [i, operand] : llvm::enumerate(operands))
            cells.push_back(inputOf[i] >= 0 ? args[inputOf[i]] : operand);
          Value result = op.buildCellComputation(b, bodyLoc, cells);
          linalg::YieldOp::create(b, bodyLoc, result);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::amls::populateAMLSElementwiseLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &) {
  patterns.add<LowerElementwise>(converter, patterns.getContext());
}
