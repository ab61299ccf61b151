//===- VectorizeLoops.cpp - Row loops as slice operations
//------------------===//
//
// SystemDS's loop vectorization (seed 002, "program-level rewrites"): a loop
// whose iterations each compute one row of a left indexing from the same row
// of other matrices,
//
//   for (i in a:b) X[i, 1] = Y[i, 2] + Z[i, 1]
//
// is the single left indexing X[a:b, 1] = Y[a:b, 2] + Z[a:b, 1]: one pass of
// whole-column operations instead of b-a+1 iterations of 1x1 ones.
//
//===----------------------------------------------------------------------===//

#include "Rewrites/RewriteUtils.h"

#include "AMLS/CostModel/PropertyLattice.h"
#include "AMLS/Dialect/AMLSInterfaces.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSVECTORIZELOOPS
#include "AMLS/Transforms/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::rewrite;

namespace {

std::optional<double> floatOffsetFrom(Value value, Value iv);

/// `offset` where `value` is `iv + offset` for every iteration. DML loop
/// variables are doubles, so the frontend computes them as
/// fptosi(sitofp(iv) + from); that equals iv + from exactly while both stay
/// below 2^53, which any loop that executes does (and an index that large
/// fails the slices' bounds checks before and after the rewrite).
std::optional<int64_t> offsetFrom(Value value, Value iv) {
  if (value == iv)
    return 0;
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return offsetFrom(op->getOperand(0), iv);
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    bool add = isa<arith::AddIOp>(op);
    if (std::optional<int64_t> c = getConstantIntValue(op->getOperand(1)))
      if (std::optional<int64_t> base = offsetFrom(op->getOperand(0), iv))
        return add ? *base + *c : *base - *c;
    if (add)
      if (std::optional<int64_t> c = getConstantIntValue(op->getOperand(0)))
        if (std::optional<int64_t> base = offsetFrom(op->getOperand(1), iv))
          return *base + *c;
    return std::nullopt;
  }
  if (isa<arith::FPToSIOp>(op)) {
    std::optional<double> offset = floatOffsetFrom(op->getOperand(0), iv);
    if (!offset || *offset != std::trunc(*offset) || std::fabs(*offset) > 1e15)
      return std::nullopt;
    return static_cast<int64_t>(*offset);
  }
  return std::nullopt;
}

std::optional<double> constantFloat(Value value) {
  APFloat constant(0.0);
  if (!matchPattern(value, m_ConstantFloat(&constant)))
    return std::nullopt;
  return constant.convertToDouble();
}

/// The float twin of offsetFrom: `value` is `sitofp(iv) + offset`.
std::optional<double> floatOffsetFrom(Value value, Value iv) {
  Operation *op = value.getDefiningOp();
  if (!op)
    return std::nullopt;
  if (isa<arith::SIToFPOp>(op)) {
    std::optional<int64_t> offset = offsetFrom(op->getOperand(0), iv);
    return offset ? std::optional<double>(*offset) : std::nullopt;
  }
  if (isa<arith::AddFOp, arith::SubFOp>(op)) {
    bool add = isa<arith::AddFOp>(op);
    if (std::optional<double> c = constantFloat(op->getOperand(1)))
      if (std::optional<double> base = floatOffsetFrom(op->getOperand(0), iv))
        return add ? *base + *c : *base - *c;
    if (add)
      if (std::optional<double> c = constantFloat(op->getOperand(0)))
        if (std::optional<double> base = floatOffsetFrom(op->getOperand(1), iv))
          return *base + *c;
    return std::nullopt;
  }
  if (isa<arith::MulFOp>(op) && constantFloat(op->getOperand(1)) == 1.0)
    return floatOffsetFrom(op->getOperand(0), iv);
  return std::nullopt;
}

/// Row `iv + offset` of a slice or left indexing, if its row range is that
/// single row.
template <typename SliceLikeOp>
std::optional<int64_t> singleRowOffset(SliceLikeOp op, Value iv) {
  std::optional<int64_t> begin = offsetFrom(op.getRowBegin(), iv);
  std::optional<int64_t> end = offsetFrom(op.getRowEnd(), iv);
  if (!begin || !end || *end != *begin + 1)
    return std::nullopt;
  return begin;
}

struct VectorizeRowLoop : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    if (loop.getNumRegionIterArgs() != 1 ||
        getConstantIntValue(loop.getStep()) != 1 ||
        !isMatrix(loop.getRegionIterArgs()[0]))
      return failure();
    Value iv = loop.getInductionVar();
    Value carried = loop.getRegionIterArgs()[0];
    auto isInvariant = [&](Value value) {
      return loop.isDefinedOutsideOfLoop(value);
    };
    auto insert = loop.getYieldedValues()[0].getDefiningOp<InsertSliceOp>();
    if (!insert || insert->getBlock() != loop.getBody() ||
        insert.getDest() != carried)
      return rewriter.notifyMatchFailure(loop, "not a left indexing per row");
    std::optional<int64_t> writtenRow = singleRowOffset(insert, iv);
    if (!writtenRow || !isInvariant(insert.getColBegin()) ||
        !isInvariant(insert.getColEnd()))
      return rewriter.notifyMatchFailure(loop, "not a left indexing of row i");
    int64_t cols = colsOf(insert.getSource());
    if (!isKnownSize(cols) || isInvariant(insert.getSource()))
      return rewriter.notifyMatchFailure(loop, "not a row computed per row");

    // Every matrix the body computes is one row of `cols` columns: slices of
    // row i + offset, and element-wise operations on them and on invariant
    // scalars. Other ops must be free of effects (index arithmetic).
    SmallVector<Operation *> rowOps;
    for (Operation &op : loop.getBody()->without_terminator()) {
      if (&op == insert.getOperation())
        continue;
      bool hasMatrix =
          llvm::any_of(op.getResultTypes(), llvm::IsaPred<MatrixType>) ||
          llvm::any_of(op.getOperandTypes(), llvm::IsaPred<MatrixType>);
      if (!hasMatrix) {
        if (!isMemoryEffectFree(&op) || op.getNumRegions() != 0)
          return rewriter.notifyMatchFailure(&op, "has effects");
        continue;
      }
      if (op.getNumResults() != 1 || rowsOf(op.getResult(0)) != 1 ||
          colsOf(op.getResult(0)) != cols)
        return rewriter.notifyMatchFailure(&op, "not one row");
      if (auto slice = dyn_cast<SliceOp>(op)) {
        std::optional<int64_t> row = singleRowOffset(slice, iv);
        if (!row || !isInvariant(slice.getColBegin()) ||
            !isInvariant(slice.getColEnd()))
          return rewriter.notifyMatchFailure(&op, "not a slice of row i");
        if (slice.getInput() == carried) {
          // Reading the matrix being written: row i before this iteration's
          // write (no other iteration writes it), or columns never written.
          if (*row != *writtenRow && !disjointColumns(slice, insert))
            return rewriter.notifyMatchFailure(&op, "loop-carried dependence");
        } else if (!isInvariant(slice.getInput())) {
          return rewriter.notifyMatchFailure(&op, "slice of a loop value");
        }
        rowOps.push_back(&op);
        continue;
      }
      if (!isa<ElementwiseOpInterface>(op) || !isMemoryEffectFree(&op))
        return rewriter.notifyMatchFailure(&op, "not element-wise");
      for (Value operand : op.getOperands()) {
        bool rowValue =
            isMatrix(operand) && !isInvariant(operand) && operand != carried;
        bool invariantScalar = !isMatrix(operand) && isInvariant(operand);
        if (!rowValue && !invariantScalar)
          return rewriter.notifyMatchFailure(&op, "operand not a row value");
      }
      rowOps.push_back(&op);
    }
    // The carried matrix is read only by the slices above and the write.
    for (Operation *user : carried.getUsers())
      if (user != insert.getOperation() && !isa<SliceOp>(user))
        return rewriter.notifyMatchFailure(loop, "matrix read otherwise");

    // The rows a:b as one block, when the loop runs at all.
    Location loc = loop.getLoc();
    Value lower = loop.getLowerBound(), upper = loop.getUpperBound();
    Value init = loop.getInitArgs()[0];
    Type resultType = loop.getResult(0).getType();
    Value runs = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                       lower, upper);
    auto branch = scf::IfOp::create(rewriter, loc, TypeRange{resultType}, runs,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(branch.elseBlock());
      scf::YieldOp::create(rewriter, loc, init);
      rewriter.setInsertionPointToStart(branch.thenBlock());
      auto shifted = [&](Value bound, int64_t offset) -> Value {
        if (offset == 0)
          return bound;
        // Folded where the bound is a constant, so that inference gives the
        // block its size.
        Value c = arith::ConstantIndexOp::create(rewriter, loc, offset);
        return rewriter.createOrFold<arith::AddIOp>(loc, bound, c);
      };
      IRMapping mapping;
      mapping.map(carried, init);
      for (Operation *op : rowOps) {
        Value result;
        if (auto slice = dyn_cast<SliceOp>(op)) {
          int64_t row = *singleRowOffset(slice, iv);
          result = build<SliceOp>(
              rewriter, op->getLoc(), elementTypeOf(slice.getResult()),
              mapping.lookupOrDefault(slice.getInput()), shifted(lower, row),
              shifted(upper, row), slice.getColBegin(), slice.getColEnd());
        } else {
          Operation *clone = rewriter.clone(*op, mapping);
          clone->getResult(0).setType(
              unknownMatrix(op->getResult(0).getType()));
          inferResultTypes(clone);
          result = clone->getResult(0);
        }
        mapping.map(op->getResult(0), result);
      }
      Value block = build<InsertSliceOp>(
          rewriter, insert.getLoc(), elementTypeOf(insert.getResult()),
          mapping.lookupOrDefault(insert.getSource()), init,
          shifted(lower, *writtenRow), shifted(upper, *writtenRow),
          insert.getColBegin(), insert.getColEnd());
      if (block.getType() != resultType)
        block = CastOp::create(rewriter, loc, resultType, block);
      scf::YieldOp::create(rewriter, loc, block);
    }
    rewriter.replaceOp(loop, branch.getResults());
    return success();
  }

  static bool disjointColumns(SliceOp read, InsertSliceOp write) {
    std::optional<int64_t> readBegin = getConstantIntValue(read.getColBegin()),
                           readEnd = getConstantIntValue(read.getColEnd()),
                           writeBegin =
                               getConstantIntValue(write.getColBegin()),
                           writeEnd = getConstantIntValue(write.getColEnd());
    return readBegin && readEnd && writeBegin && writeEnd &&
           (*readEnd <= *writeBegin || *writeEnd <= *readBegin);
  }
};

struct VectorizeLoopsPass
    : public amls::impl::AMLSVectorizeLoopsBase<VectorizeLoopsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateVectorizeLoopsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::amls::populateVectorizeLoopsPatterns(RewritePatternSet &patterns) {
  patterns.add<VectorizeRowLoop>(patterns.getContext());
}
