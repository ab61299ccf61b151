//===- ParforPrivateResults.cpp - Worker copies of merged parfor results --===//
//
// --amls-parfor-private-results: a result of a planned parfor whose writes
// --amls-parfor could not prove disjoint (an unchecked loop, `check=0`) is
// not updated in place by all workers. Each of the plan's k workers updates
// its own copy, and the copies are merged after the loop (SystemDS's result
// merge). On tensors, before bufferization:
//
//   %copies = k copies of %R (compare) or k x zeros (nonzeros)
//   %out = scf.for ... iter_args(%c = %copies) {
//     %w = amls_rt_parfor_worker(k)          // the worker's copy
//     %mine = tensor.extract_slice %c[%w, 0, 0] [1, rows, cols]
//     ... the body on %mine ...
//     %c2 = tensor.insert_slice %mine2 into %c[%w, 0, 0] [1, rows, cols]
//   }
//   %R2 = linalg.generic (rows, cols, w): the last copy whose cell differs
//         from %R's (compare, bit for bit) or is nonzero, else %R's cell
//
// Bufferization updates the copies in place, so --amls-parfor-workers sees
// a loop like any other; the merge is a parallel loop over the cells. A
// worker's copy starts as the value before the loop and only the worker
// writes it, so an iteration sees that value plus its own worker's earlier
// writes, as in SystemDS, and the merged result does not depend on how the
// other workers' writes interleave.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSTypes.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSPARFORPRIVATERESULTS
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// `tensor`'s size along `dim`, as an index value or attribute.
OpFoldResult sizeOf(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return b.getIndexAttr(type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, tensor, dim).getResult();
}

/// k copies of the matrix `init` (`before`) or k all-zero matrices of its
/// shape, as one k x rows x cols tensor.
Value makeCopies(OpBuilder &b, Location loc, Value init, int64_t k,
                 bool before) {
  auto type = cast<RankedTensorType>(init.getType());
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(k), sizeOf(b, loc, init, 0),
                                     sizeOf(b, loc, init, 1)};
  Value empty =
      tensor::EmptyOp::create(b, loc, sizes, type.getElementType()).getResult();
  if (!before) {
    Value zero =
        arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
    return linalg::FillOp::create(b, loc, zero, empty).getResult(0);
  }
  MLIRContext *ctx = b.getContext();
  AffineMap broadcast = AffineMap::get(
      3, 0, {getAffineDimExpr(1, ctx), getAffineDimExpr(2, ctx)}, ctx);
  auto copy = linalg::GenericOp::create(
      b, loc, empty.getType(), ValueRange{init}, ValueRange{empty},
      ArrayRef<AffineMap>{broadcast, b.getMultiDimIdentityMap(3)},
      SmallVector<utils::IteratorType>(3, utils::IteratorType::parallel),
      [](OpBuilder &nb, Location nl, ValueRange args) {
        linalg::YieldOp::create(nb, nl, args[0]);
      });
  return copy.getResult(0);
}

/// Whether `value` differs from `reference` bit for bit (a cell written
/// with the value it had, NaN included, is unchanged), or from zero when
/// `reference` is null.
Value differs(OpBuilder &b, Location loc, Value value, Value reference) {
  Type type = value.getType();
  if (auto floatType = dyn_cast<FloatType>(type)) {
    if (!reference)
      return arith::CmpFOp::create(
          b, loc, arith::CmpFPredicate::UNE, value,
          arith::ConstantOp::create(b, loc, b.getFloatAttr(floatType, 0)));
    Type bits = b.getIntegerType(floatType.getWidth());
    value = arith::BitcastOp::create(b, loc, bits, value);
    reference = arith::BitcastOp::create(b, loc, bits, reference);
  } else if (!reference) {
    reference = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  }
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value,
                               reference);
}

/// The merge of `copies` (k x rows x cols) into `init`: each cell is that of
/// the last copy in which it changed, else `init`'s.
Value mergeCopies(OpBuilder &b, Location loc, Value init, Value copies,
                  bool compare) {
  MLIRContext *ctx = b.getContext();
  AffineExpr r = getAffineDimExpr(0, ctx), c = getAffineDimExpr(1, ctx),
             w = getAffineDimExpr(2, ctx);
  AffineMap ofCopies = AffineMap::get(3, 0, {w, r, c}, ctx);
  AffineMap ofCell = AffineMap::get(3, 0, {r, c}, ctx);
  SmallVector<Value> inputs = {copies};
  SmallVector<AffineMap> maps = {ofCopies};
  if (compare) {
    inputs.push_back(init);
    maps.push_back(ofCell);
  }
  maps.push_back(ofCell);
  auto merge = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, ValueRange{init}, maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::reduction},
      [&](OpBuilder &nb, Location nl, ValueRange args) {
        Value cell = args[0];
        Value merged = args.back();
        Value changed = differs(nb, nl, cell, compare ? args[1] : Value());
        linalg::YieldOp::create(
            nb, nl,
            arith::SelectOp::create(nb, nl, changed, cell, merged).getResult());
      });
  return merge.getResult(0);
}

/// Gives each worker of `loop` its own copy of the results `merges` marks
/// (1 compare, 2 nonzeros) and merges them after it.
void privatizeResults(RewriterBase &rewriter, scf::ForOp loop,
                      ArrayRef<int32_t> merges, int64_t workers) {
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  SmallVector<Value> inits(loop.getInitArgs());
  SmallVector<bool> merged(inits.size(), false), compare(inits.size(), false);
  for (auto [i, mode] : llvm::enumerate(merges)) {
    if (i >= inits.size() ||
        mode == static_cast<int32_t>(ParforResultMerge::InPlace))
      continue;
    auto type = dyn_cast<RankedTensorType>(inits[i].getType());
    if (!type || type.getRank() != 2)
      continue;
    merged[i] = true;
    compare[i] = mode == static_cast<int32_t>(ParforResultMerge::Compare);
    inits[i] = makeCopies(rewriter, loc, inits[i], workers, compare[i]);
  }
  if (llvm::none_of(merged, [](bool m) { return m; }))
    return;

  auto newLoop =
      scf::ForOp::create(rewriter, loc, loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), inits);
  newLoop->setAttrs(loop->getAttrs());
  Block *body = newLoop.getBody();
  rewriter.setInsertionPointToStart(body);
  Value k = arith::ConstantOp::create(rewriter, loc,
                                      rewriter.getI64IntegerAttr(workers));
  Value worker = arith::IndexCastOp::create(
      rewriter, loc, rewriter.getIndexType(),
      createRuntimeCall(rewriter, loc, loop, RuntimeFunction::ParforWorker,
                        {k}));
  // The slice of worker w's copy, per merged result.
  auto sliceOf = [&](unsigned i) {
    Value init = loop.getInitArgs()[i];
    SmallVector<OpFoldResult> offsets = {worker, rewriter.getIndexAttr(0),
                                         rewriter.getIndexAttr(0)};
    SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1),
                                       sizeOf(rewriter, loc, init, 0),
                                       sizeOf(rewriter, loc, init, 1)};
    SmallVector<OpFoldResult> strides(3, rewriter.getIndexAttr(1));
    return std::make_tuple(offsets, sizes, strides);
  };
  SmallVector<Value> arguments = {newLoop.getInductionVar()};
  for (auto [i, arg] : llvm::enumerate(newLoop.getRegionIterArgs())) {
    if (!merged[i]) {
      arguments.push_back(arg);
      continue;
    }
    auto [offsets, sizes, strides] = sliceOf(i);
    arguments.push_back(tensor::ExtractSliceOp::create(
        rewriter, loc, cast<RankedTensorType>(loop.getInitArgs()[i].getType()),
        arg, offsets, sizes, strides));
  }
  rewriter.mergeBlocks(loop.getBody(), body, arguments);

  auto yield = cast<scf::YieldOp>(body->getTerminator());
  rewriter.setInsertionPoint(yield);
  SmallVector<Value> yielded(yield.getOperands());
  for (auto [i, arg] : llvm::enumerate(newLoop.getRegionIterArgs())) {
    if (!merged[i])
      continue;
    auto [offsets, sizes, strides] = sliceOf(i);
    yielded[i] = tensor::InsertSliceOp::create(rewriter, loc, yielded[i], arg,
                                               offsets, sizes, strides);
  }
  rewriter.modifyOpInPlace(yield,
                           [&] { yield.getResultsMutable().assign(yielded); });

  rewriter.setInsertionPointAfter(newLoop);
  SmallVector<Value> results(newLoop.getResults());
  for (auto [i, result] : llvm::enumerate(results))
    if (merged[i])
      result =
          mergeCopies(rewriter, loc, loop.getInitArgs()[i], result, compare[i]);
  rewriter.replaceOp(loop, results);
}

struct ParforPrivateResultsPass
    : public mlir::amls::impl::AMLSParforPrivateResultsBase<
          ParforPrivateResultsPass> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (auto plan = loop->getAttrOfType<ParforPlanAttr>(
              AMLSDialect::getParforPlanAttrName()))
        if (plan.getResultMerge() && plan.getWorkers() > 1)
          loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ForOp loop : loops) {
      auto plan = loop->getAttrOfType<ParforPlanAttr>(
          AMLSDialect::getParforPlanAttrName());
      privatizeResults(rewriter, loop, plan.getResultMerge().asArrayRef(),
                       plan.getWorkers());
    }
  }
};

} // namespace
