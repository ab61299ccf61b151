//===- Fused.cpp - Lower amls.fused operators -----------------------------===//
//
// Cell and multi-aggregate operators become one linalg.generic over the
// main input's cells, outer operators one generic that skips zero cells, and
// row operators an scf.forall over chunks of row blocks (docs/fusion.md).
// Block sizes, chunk counts and reduction splits come from the target's
// LoweringSchedule.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {

struct LowerRowBlockYield : public AMLSPattern<YieldOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (!loop || !loop->hasAttr(AMLSDialect::getRowBlockLoopAttrName()))
      return failure();
    Location loc = op.getLoc();
    auto kinds = dyn_cast<ArrayAttr>(
        loop->getAttr(AMLSDialect::getRowBlockLoopAttrName()));
    MLIRContext *context = rewriter.getContext();
    SmallVector<Value> next;
    for (auto [i, value] : llvm::enumerate(adaptor.getValues())) {
      Value carried = loop.getRegionIterArgs()[i];
      if (!kinds) {
        Value offset = arith::SubIOp::create(
            rewriter, loc, loop.getInductionVar(), loop.getLowerBound());
        SmallVector<OpFoldResult> offsets = {offset, rewriter.getIndexAttr(0)};
        SmallVector<OpFoldResult> sizes = {
            tensor::getMixedSize(rewriter, loc, value, 0),
            tensor::getMixedSize(rewriter, loc, value, 1)};
        SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
        next.push_back(tensor::InsertSliceOp::create(
            rewriter, loc, value, carried, offsets, sizes, strides));
        continue;
      }
      Reduction reduction =
          reductionFor(cast<AggKindAttr>(kinds[i]).getValue());
      auto type = dyn_cast<RankedTensorType>(value.getType());
      if (!type) {
        next.push_back(reduction.combine(rewriter, loc, value, carried));
        continue;
      }
      AffineMap identity = AffineMap::getMultiDimIdentityMap(2, context);
      next.push_back(
          linalg::GenericOp::create(
              rewriter, loc, type, value, carried, {identity, identity},
              iterators({false, false}),
              [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
                linalg::YieldOp::create(
                    nested, bodyLoc,
                    reduction.combine(nested, bodyLoc, args[0], args[1]));
              })
              .getResult(0));
    }
    rewriter.modifyOpInPlace(loop, [&] {
      loop->removeAttr(AMLSDialect::getRowBlockLoopAttrName());
    });
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, next);
    return success();
  }
};

/// Reduces dimension 0 of `partials` (one partial result per chunk) with
/// `reduction`: a tensor of the other dimensions (`sizes`), or the scalar
/// for 1-D partials.
Value mergeChunkPartials(OpBuilder &b, Location loc, Value partials,
                         ArrayRef<OpFoldResult> sizes,
                         const Reduction &reduction) {
  int64_t rank = cast<RankedTensorType>(partials.getType()).getRank();
  SmallVector<bool> reduced(rank, false);
  reduced[0] = true;
  Value merged = reducePartials(b, loc, partials, reduced, sizes,
                                reduction.init, reduction.combine);
  if (rank == 1)
    return tensor::ExtractOp::create(b, loc, merged, ValueRange{});
  return merged;
}

/// A row-template operator: an scf.forall over chunks of row blocks, each
/// chunk a loop over its blocks that runs the body on slices of the row
/// inputs (which stay in cache while the body's ops read them) and
/// accumulates partial results or writes the blocks of row-wise results;
/// the chunks' partial results are merged afterwards. BLAS calls in the
/// body run single-threaded: the chunks are the parallelism. Sizes of the
/// results that their types leave open come from running the body on an
/// empty block (no rows, no work) first.
LogicalResult lowerRowTemplate(FusedOp op, FusedOp::Adaptor adaptor,
                               ConversionPatternRewriter &rewriter,
                               const TypeConverter &converter,
                               const LoweringSchedule &schedule) {
  Location loc = op.getLoc();
  ValueRange operands = adaptor.getInputs();
  unsigned numRowInputs = op.getRowInputs().value_or(1);
  Value main = operands.front();
  if (!isa<RankedTensorType>(main.getType()))
    return op.emitOpError("expects a matrix as its main input");
  Value rows = dimOf(rewriter, loc, main, 0);
  int64_t rowBytes = 0;
  // The bytes of a row of the inputs whose width is known only at run time.
  Value dynamicRowBytes;
  for (auto [i, operand] : llvm::enumerate(operands.take_front(numRowInputs))) {
    auto type = cast<RankedTensorType>(operand.getType());
    if (i > 0)
      checkEqual(rewriter, loc, dimOf(rewriter, loc, operand, 0), rows, op,
                 "row input #" + std::to_string(i) +
                     " differs in rows from the main input");
    int64_t elementBytes =
        std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
    if (!type.isDynamicDim(1)) {
      rowBytes += type.getDimSize(1) * elementBytes;
      continue;
    }
    Value bytes =
        arith::MulIOp::create(rewriter, loc, dimOf(rewriter, loc, operand, 1),
                              indexConstant(rewriter, loc, elementBytes));
    dynamicRowBytes =
        dynamicRowBytes
            ? arith::AddIOp::create(rewriter, loc, dynamicRowBytes, bytes)
            : bytes;
  }
  // Planned with the widths known; the others add theirs at run time.
  RowBlockSchedule rowBlocks = schedule.scheduleRowBlocks(rowBytes);
  Value block = indexConstant(rewriter, loc, rowBlocks.blockRows);
  if (dynamicRowBytes && rowBlocks.blockBytes > 0) {
    // blockBytes / bytes of a row, rounded down to the row multiple, within
    // [minRows, maxRows] (the same rule as for static widths).
    Value totalRowBytes = arith::MaxUIOp::create(
        rewriter, loc,
        arith::AddIOp::create(rewriter, loc, dynamicRowBytes,
                              indexConstant(rewriter, loc, rowBytes)),
        indexConstant(rewriter, loc, 1));
    Value multiple = indexConstant(rewriter, loc, rowBlocks.rowMultiple);
    Value fit = arith::DivUIOp::create(
        rewriter, loc, indexConstant(rewriter, loc, rowBlocks.blockBytes),
        totalRowBytes);
    fit = arith::MulIOp::create(
        rewriter, loc, arith::DivUIOp::create(rewriter, loc, fit, multiple),
        multiple);
    block = arith::MinUIOp::create(
        rewriter, loc,
        arith::MaxUIOp::create(rewriter, loc, fit,
                               indexConstant(rewriter, loc, rowBlocks.minRows)),
        indexConstant(rewriter, loc, rowBlocks.maxRows));
  }

  Block &body = op.getBody().front();
  // The body's arguments for rows [begin, begin + length) (the arguments
  // may have less precise types than the inputs).
  auto bodyArguments = [&](Value begin, Value length) {
    SmallVector<Value> arguments;
    for (auto [i, operand, arg] :
         llvm::enumerate(operands, body.getArguments())) {
      Value value = operand;
      if (i < numRowInputs) {
        SmallVector<OpFoldResult> offsets = {begin, rewriter.getIndexAttr(0)};
        SmallVector<OpFoldResult> sizes = {
            length, tensor::getMixedSize(rewriter, loc, operand, 1)};
        SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
        value = tensor::ExtractSliceOp::create(rewriter, loc, operand, offsets,
                                               sizes, strides);
      }
      Type argType = converter.convertType(arg.getType());
      arguments.push_back(isa<RankedTensorType>(argType)
                              ? castTo(rewriter, loc, value, argType)
                              : value);
    }
    return arguments;
  };

  std::optional<ArrayAttr> kinds = op.getAggregate();
  SmallVector<Type> resultTypes;
  for (Value result : op.getResults())
    resultTypes.push_back(converter.convertType(result.getType()));
  Value zero = indexConstant(rewriter, loc, 0);
  // Sizes of the results (partial results, or the columns of row-wise
  // results).
  SmallVector<SmallVector<OpFoldResult>> resultSizes(resultTypes.size());
  bool dynamicSizes = false;
  for (auto [r, type] : llvm::enumerate(resultTypes))
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      for (int64_t d = 0; d < 2; ++d)
        resultSizes[r].push_back(rewriter.getIndexAttr(tensor.getDimSize(d)));
      dynamicSizes |= kinds ? !tensor.hasStaticShape() : tensor.isDynamicDim(1);
    }
  if (dynamicSizes) {
    auto yield = cast<YieldOp>(body.getTerminator());
    SmallVector<Type> probeTypes;
    for (Type type : yield.getValues().getTypes())
      probeTypes.push_back(converter.convertType(type));
    SmallVector<Value> arguments = bodyArguments(zero, zero);
    auto probe = scf::ExecuteRegionOp::create(rewriter, loc, probeTypes);
    Block *probeBlock = new Block();
    probe.getRegion().push_back(probeBlock);
    rewriter.cloneRegionBefore(op.getBody(), probe.getRegion(),
                               probe.getRegion().end());
    Block *copy = &probe.getRegion().back();
    rewriter.inlineBlockBefore(copy, probeBlock, probeBlock->end(), arguments);
    for (auto [r, value] : llvm::enumerate(probe.getResults()))
      if (isa<RankedTensorType>(value.getType()))
        for (int64_t d = kinds ? 0 : 1; d < 2; ++d)
          resultSizes[r][d] = tensor::getMixedSize(rewriter, loc, value, d);
  }

  auto ceilDiv = [&](Value a, Value b) -> Value {
    return arith::CeilDivUIOp::create(rewriter, loc, a, b);
  };
  Value one = indexConstant(rewriter, loc, 1);
  Value blocks = ceilDiv(rows, block);
  Value chunks = arith::MinUIOp::create(
      rewriter, loc, blocks, indexConstant(rewriter, loc, rowBlocks.maxChunks));
  Value chunkRows = arith::MulIOp::create(
      rewriter, loc,
      ceilDiv(blocks, arith::MaxUIOp::create(rewriter, loc, chunks, one)),
      block);

  SmallVector<Value> outs;
  for (auto [r, type] : llvm::enumerate(resultTypes)) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    Type elementType = tensor ? tensor.getElementType() : type;
    // Row-wise results in full; otherwise one partial result per chunk.
    SmallVector<OpFoldResult> sizes = {chunks};
    if (!kinds)
      sizes = {rows, resultSizes[r][1]};
    else if (tensor)
      llvm::append_range(sizes, resultSizes[r]);
    outs.push_back(tensor::EmptyOp::create(rewriter, loc, sizes, elementType));
  }

  callRuntime(rewriter, loc, op, RuntimeFunction::BlasSerial,
              {i32Constant(rewriter, loc, 1)});
  SmallVector<OpFoldResult> upperBounds = {chunks};
  auto forall =
      scf::ForallOp::create(rewriter, loc, upperBounds, outs, std::nullopt);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(forall.getTerminator());
    Value chunk = forall.getInductionVar(0);
    Value lo = arith::MulIOp::create(rewriter, loc, chunk, chunkRows);
    Value hi = arith::MinUIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, lo, chunkRows),
        rows);
    // An empty chunk (past the last block) still writes identity partials.
    lo = arith::MinUIOp::create(rewriter, loc, lo, hi);
    Value chunkSize = arith::SubIOp::create(rewriter, loc, hi, lo);
    SmallVector<OpFoldResult> unitStrides(3, rewriter.getIndexAttr(1));
    SmallVector<Value> inits;
    for (auto [r, type] : llvm::enumerate(resultTypes)) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!kinds) {
        SmallVector<OpFoldResult> offsets = {lo, rewriter.getIndexAttr(0)};
        SmallVector<OpFoldResult> sizes = {chunkSize, resultSizes[r][1]};
        inits.push_back(tensor::ExtractSliceOp::create(
            rewriter, loc, forall.getRegionIterArgs()[r], offsets, sizes,
            ArrayRef(unitStrides).take_front(2)));
        continue;
      }
      Reduction reduction =
          reductionFor(cast<AggKindAttr>((*kinds)[r]).getValue());
      Type elementType = tensor ? tensor.getElementType() : type;
      Value identity =
          reductionInit(rewriter, loc, elementType, reduction.init);
      if (!tensor) {
        inits.push_back(identity);
        continue;
      }
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, resultSizes[r], elementType);
      inits.push_back(
          linalg::FillOp::create(rewriter, loc, identity, empty).getResult(0));
    }

    auto loop = scf::ForOp::create(rewriter, loc, lo, hi, block, inits);
    loop->setAttr(AMLSDialect::getRowBlockLoopAttrName(),
                  kinds ? Attribute(*kinds) : rewriter.getUnitAttr());
    rewriter.setInsertionPointToStart(loop.getBody());
    Value begin = loop.getInductionVar();
    Value end = arith::MinUIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, begin, block), hi);
    Value length = arith::SubIOp::create(rewriter, loc, end, begin);
    SmallVector<Value> arguments = bodyArguments(begin, length);
    rewriter.inlineBlockBefore(&body, loop.getBody(), loop.getBody()->end(),
                               arguments);

    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    for (auto [r, type] : llvm::enumerate(resultTypes)) {
      Value value = loop.getResult(r);
      Value shared = forall.getRegionIterArgs()[r];
      auto tensor = dyn_cast<RankedTensorType>(type);
      SmallVector<OpFoldResult> offsets, sizes;
      if (!kinds) {
        offsets = {lo, rewriter.getIndexAttr(0)};
        sizes = {chunkSize, resultSizes[r][1]};
      } else {
        offsets.push_back(chunk);
        sizes.push_back(rewriter.getIndexAttr(1));
        if (!tensor) {
          OpBuilder::InsertionGuard scalarGuard(rewriter);
          rewriter.setInsertionPoint(forall.getTerminator());
          value = tensor::FromElementsOp::create(
              rewriter, loc, RankedTensorType::get({1}, type), value);
        } else {
          offsets.append(2, rewriter.getIndexAttr(0));
          llvm::append_range(sizes, resultSizes[r]);
        }
      }
      tensor::ParallelInsertSliceOp::create(
          rewriter, loc, value, shared, offsets, sizes,
          ArrayRef(unitStrides).take_front(offsets.size()));
    }
  }
  callRuntime(rewriter, loc, op, RuntimeFunction::BlasSerial,
              {i32Constant(rewriter, loc, 0)});

  SmallVector<Value> results;
  for (auto [r, type] : llvm::enumerate(resultTypes)) {
    Value value = forall.getResult(r);
    if (kinds)
      value = mergeChunkPartials(
          rewriter, loc, value, resultSizes[r],
          reductionFor(cast<AggKindAttr>((*kinds)[r]).getValue()));
    results.push_back(isa<RankedTensorType>(type)
                          ? castTo(rewriter, loc, value, type)
                          : value);
  }
  rewriter.replaceOp(op, results);
  return success();
}

/// An outer-template operator: one linalg.generic over the main input's
/// cells (rows in parallel); where the main input's cell is zero the body
/// is skipped (the result is zero there, the sum unchanged), elsewhere the
/// cell of U %*% t(V) is the dot product of row i of U and row j of V.
LogicalResult lowerOuterTemplate(FusedOp op, FusedOp::Adaptor adaptor,
                                 ConversionPatternRewriter &rewriter,
                                 const TypeConverter &converter,
                                 const LoweringSchedule &schedule) {
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  ValueRange operands = adaptor.getInputs();
  Value main = operands[0], u = operands[1], v = operands[2];
  for (Value matrix : {main, u, v})
    if (!isa<RankedTensorType>(matrix.getType()))
      return op.emitOpError("expects matrices as main input and factors");
  if (llvm::any_of(operands.drop_front(3), [](Value operand) {
        return isa<RankedTensorType>(operand.getType());
      }))
    return op.emitOpError("the outer template takes scalars besides the "
                          "main input and the factors");
  auto mainType = cast<RankedTensorType>(main.getType());
  Type elementType = mainType.getElementType();
  Value rows = dimOf(rewriter, loc, main, 0),
        cols = dimOf(rewriter, loc, main, 1), rank = dimOf(rewriter, loc, u, 1);
  checkEqual(rewriter, loc, dimOf(rewriter, loc, u, 0), rows, op,
             "factor U differs in rows from the main input");
  checkEqual(rewriter, loc, dimOf(rewriter, loc, v, 0), cols, op,
             "factor V differs in rows from the main input's columns");
  checkEqual(rewriter, loc, dimOf(rewriter, loc, v, 1), rank, op,
             "factors U and V differ in columns");

  bool aggregated = op.getAggregate().has_value();
  Reduction reduction = reductionFor(AggKind::Sum);
  Value zero = floatConstant(rewriter, loc, elementType, 0.0);
  Value init;
  AffineMap outputMap;
  SmallVector<utils::IteratorType> iteratorTypes = iterators({false, false});
  if (aggregated) {
    // One partial sum per row: rows in parallel, merged afterwards.
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<OpFoldResult>{rows}, elementType);
    init = linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    outputMap = AffineMap::get(2, 0, {getAffineDimExpr(0, context)}, context);
    iteratorTypes = iterators({false, true});
  } else {
    init = emptyTensor(
        rewriter, loc,
        cast<RankedTensorType>(converter.convertType(op.getType(0))),
        {rows, cols});
    outputMap = AffineMap::getMultiDimIdentityMap(2, context);
  }

  Block &body = op.getBody().front();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, init.getType(), main, init,
      {AffineMap::getMultiDimIdentityMap(2, context), outputMap}, iteratorTypes,
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        Value cell = args[0], acc = args[1];
        // linalg.index must be in the generic's own body.
        Value i = linalg::IndexOp::create(b, bodyLoc, 0);
        Value j = linalg::IndexOp::create(b, bodyLoc, 1);
        Value nonZero = arith::CmpFOp::create(
            b, bodyLoc, arith::CmpFPredicate::UNE, cell, zero);
        auto ifOp = scf::IfOp::create(
            b, bodyLoc, nonZero,
            [&](OpBuilder &then, Location thenLoc) {
              auto dot = scf::ForOp::create(
                  then, thenLoc, indexConstant(then, thenLoc, 0), rank,
                  indexConstant(then, thenLoc, 1), ValueRange{zero},
                  [&](OpBuilder &inner, Location innerLoc, Value k,
                      ValueRange sums) {
                    Value uik = tensor::ExtractOp::create(inner, innerLoc, u,
                                                          ValueRange{i, k});
                    Value vjk = tensor::ExtractOp::create(inner, innerLoc, v,
                                                          ValueRange{j, k});
                    Value product =
                        arith::MulFOp::create(inner, innerLoc, uik, vjk);
                    scf::YieldOp::create(
                        inner, innerLoc,
                        ValueRange{arith::AddFOp::create(inner, innerLoc,
                                                         sums[0], product)});
                  });
              IRMapping mapping;
              mapping.map(body.getArgument(0), cell);
              mapping.map(body.getArgument(1), dot.getResult(0));
              for (auto [arg, operand] :
                   llvm::zip(body.getArguments().drop_front(2),
                             operands.drop_front(3)))
                mapping.map(arg, operand);
              for (Operation &bodyOp : body.without_terminator())
                then.clone(bodyOp, mapping);
              Value value = mapping.lookup(body.getTerminator()->getOperand(0));
              if (aggregated)
                value = reduction.combine(then, thenLoc, value, acc);
              scf::YieldOp::create(then, thenLoc, value);
            },
            [&](OpBuilder &otherwise, Location otherwiseLoc) {
              scf::YieldOp::create(otherwise, otherwiseLoc,
                                   aggregated ? acc : zero);
            });
        linalg::YieldOp::create(b, bodyLoc, ifOp.getResult(0));
      });
  Value result = generic.getResult(0);
  if (aggregated) {
    Value merged = mergePartials(rewriter, loc, result, reduction,
                                 /*sumOfSquares=*/false, schedule);
    rewriter.replaceOp(
        op, tensor::ExtractOp::create(rewriter, loc, merged, ValueRange{})
                .getResult());
    return success();
  }
  rewriter.replaceOp(
      op, castTo(rewriter, loc, result, converter.convertType(op.getType(0))));
  return success();
}

/// A cell or multi-aggregate fused operator: one linalg.generic over the
/// main input's cells whose body is the fused body; side inputs broadcast
/// where their type has size 1 along a dimension the main input does not,
/// scalars are used directly; each aggregated result is one reduction
/// output of the same loop nest.
struct LowerFused : public AMLSPattern<FusedOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(FusedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getKind() == FusedTemplate::Row)
      return lowerRowTemplate(op, adaptor, rewriter, *getTypeConverter(),
                              schedule);
    if (op.getKind() == FusedTemplate::Outer)
      return lowerOuterTemplate(op, adaptor, rewriter, *getTypeConverter(),
                                schedule);
    if (op.getKind() != FusedTemplate::Cell &&
        op.getKind() != FusedTemplate::MAgg)
      return op.emitOpError("the ") << stringifyFusedTemplate(op.getKind())
                                    << " template has no lowering yet";
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    ValueRange operands = adaptor.getInputs();
    Value main = operands.front();
    auto mainType = dyn_cast<RankedTensorType>(main.getType());
    if (!mainType)
      return op.emitOpError("expects a matrix as its main input");
    Value rows = dimOf(rewriter, loc, main, 0),
          cols = dimOf(rewriter, loc, main, 1);

    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<int> inputOf(operands.size(), -1);
    for (auto [i, operand] : llvm::enumerate(operands)) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        continue;
      SmallVector<AffineExpr> exprs;
      // A side input whose size is unknown may turn out to be a vector at
      // run time (the result of removeEmpty or table): it broadcasts as an
      // unfused element-wise op's operand does.
      SmallVector<bool> expand = {false, false};
      for (int64_t d = 0; d < 2; ++d) {
        bool broadcast = type.getDimSize(d) == 1 && mainType.getDimSize(d) != 1;
        exprs.push_back(broadcast ? getAffineConstantExpr(0, context)
                                  : getAffineDimExpr(d, context));
        if (broadcast || i == 0 ||
            (!type.isDynamicDim(d) && !mainType.isDynamicDim(d)))
          continue;
        Value dim = dimOf(rewriter, loc, operand, d);
        Value size = d == 0 ? rows : cols;
        expand[d] = type.isDynamicDim(d) && mainType.getDimSize(d) != 1;
        Value matches = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, dim, size);
        if (expand[d])
          matches = arith::OrIOp::create(
              rewriter, loc, matches,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                    dim, indexConstant(rewriter, loc, 1)));
        check(rewriter, loc, matches, op,
              "input #" + std::to_string(i) +
                  " differs in size from the main input, and is not a "
                  "vector to broadcast");
      }
      inputOf[i] = inputs.size();
      inputs.push_back(
          expand[0] || expand[1]
              ? expandIfVector(rewriter, loc, operand, {rows, cols}, expand)
              : operand);
      maps.push_back(AffineMap::get(2, 0, exprs, context));
    }

    std::optional<ArrayAttr> kinds = op.getAggregate();
    AggAxis axis = op.getAxis().value_or(AggAxis::All);
    // Large static aggregates accumulate partial results (per block of rows
    // for full aggregates, per lane for row aggregates), merged afterwards.
    BlockedReduction blocked;
    LaneSplit split;
    if (kinds) {
      if (axis == AggAxis::All)
        blocked = blockedReductionFor(schedule, main,
                                      llvm::all_of(inputs,
                                                   [&](Value input) {
                                                     return input.getType() ==
                                                            mainType;
                                                   }),
                                      lineOffsetOf(op));
      else if (axis == AggAxis::Row)
        split = laneSplitFor(schedule, main);
    }
    // The inputs over the cells (or rows) the blocks leave (the head and
    // the tail), before they are bound to the blocks.
    SmallVector<std::pair<int64_t, int64_t>> rests = blocked.rests();
    SmallVector<SmallVector<Value>> restInputs(rests.size());
    SmallVector<SmallVector<AffineMap>> restMaps(rests.size());
    for (auto [rest, first, count] : llvm::enumerate(
             llvm::make_first_range(rests), llvm::make_second_range(rests)))
      for (Value input : inputs) {
        auto [restInput, restMap] =
            blocked.bindRest(rewriter, loc, input, mainType, first, count);
        restInputs[rest].push_back(restInput);
        restMaps[rest].push_back(restMap);
      }
    for (auto [input, map] : llvm::zip(inputs, maps)) {
      if (split)
        std::tie(input, map) = split.bind(rewriter, loc, input, mainType);
      else if (blocked)
        std::tie(input, map) = blocked.bind(rewriter, loc, input, mainType);
    }
    SmallVector<Value> inits;
    SmallVector<Type> initTypes;
    SmallVector<Reduction> reductions;
    for (auto [r, result] : llvm::enumerate(op.getResults())) {
      Type resultType = getTypeConverter()->convertType(result.getType());
      if (!kinds) {
        auto tensor = cast<RankedTensorType>(resultType);
        inits.push_back(emptyTensor(rewriter, loc, tensor, {rows, cols}));
        initTypes.push_back(tensor);
        maps.push_back(AffineMap::getMultiDimIdentityMap(2, context));
        continue;
      }
      Type elementType = resultType;
      if (auto tensor = dyn_cast<RankedTensorType>(resultType))
        elementType = tensor.getElementType();
      ReductionBuilder builder{rewriter, loc,         main,
                               axis,     elementType, schedule};
      auto [outputType, sizes] = builder.outputShape();
      AffineMap outputMap = builder.outputMap();
      if (blocked) {
        outputType = RankedTensorType::get(
            {blocked.blocks,
             blocked.regrouped ? blocked.lanes : mainType.getDimSize(1)},
            elementType);
        sizes = {};
        outputMap = blocked.partialMap(context);
      }
      if (split) {
        outputType = RankedTensorType::get(
            {mainType.getDimSize(0), split.lanes}, elementType);
        sizes = {};
        outputMap = AffineMap::get(
            3, 0, {getAffineDimExpr(0, context), getAffineDimExpr(2, context)},
            context);
      }
      Reduction reduction =
          reductionFor(cast<AggKindAttr>((*kinds)[r]).getValue());
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, outputType.getShape(), elementType,
          ReductionBuilder::dynamicOnly(outputType, sizes));
      inits.push_back(
          linalg::FillOp::create(
              rewriter, loc,
              reductionInit(rewriter, loc, elementType, reduction.init), empty)
              .getResult(0));
      initTypes.push_back(outputType);
      maps.push_back(outputMap);
      reductions.push_back(std::move(reduction));
    }
    SmallVector<bool> reduced = {false, false};
    if (kinds)
      reduced = {axis != AggAxis::Row, axis != AggAxis::Col};
    SmallVector<utils::IteratorType> iteratorTypes = iterators(reduced);
    if (blocked)
      iteratorTypes = blocked.iterators();
    if (split)
      iteratorTypes = split.iterators();

    Block &body = op.getBody().front();
    // The fused body over `inputs`, combined into (or yielding) `inits`.
    auto buildGeneric = [&](TypeRange types, ValueRange genericInputs,
                            ValueRange outs, ArrayRef<AffineMap> genericMaps,
                            ArrayRef<utils::IteratorType> loops) {
      return linalg::GenericOp::create(
          rewriter, loc, types, genericInputs, outs, genericMaps, loops,
          [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
            IRMapping mapping;
            for (auto [i, operand] : llvm::enumerate(operands))
              mapping.map(body.getArgument(i),
                          inputOf[i] >= 0 ? args[inputOf[i]] : operand);
            for (Operation &nested : body.without_terminator())
              b.clone(nested, mapping);
            SmallVector<Value> yielded;
            ValueRange outputs = args.drop_front(genericInputs.size());
            for (auto [r, value] : llvm::enumerate(
                     cast<YieldOp>(body.getTerminator()).getValues())) {
              Value cell = mapping.lookupOrDefault(value);
              yielded.push_back(
                  kinds ? reductions[r].combine(b, bodyLoc, cell, outputs[r])
                        : cell);
            }
            linalg::YieldOp::create(b, bodyLoc, yielded);
          });
    };
    auto generic = buildGeneric(initTypes, inputs, inits, maps, iteratorTypes);
    // The 0-d results over the head and the tail, merged into the blocks'
    // below.
    SmallVector<linalg::GenericOp> restGenerics;
    for (auto [restInputsOfOne, restMapsOfOne] :
         llvm::zip(restInputs, restMaps)) {
      SmallVector<Value> restInits;
      for (auto [reduction, init] : llvm::zip(reductions, inits)) {
        Type elementType = getElementTypeOrSelf(init.getType());
        Value empty = tensor::EmptyOp::create(rewriter, loc,
                                              ArrayRef<int64_t>{}, elementType);
        restInits.push_back(
            linalg::FillOp::create(
                rewriter, loc,
                reductionInit(rewriter, loc, elementType, reduction.init),
                empty)
                .getResult(0));
      }
      restMapsOfOne.append(restInits.size(),
                           blocked.restScalarMap(rewriter.getContext()));
      restGenerics.push_back(
          buildGeneric(ValueRange(restInits).getTypes(), restInputsOfOne,
                       restInits, restMapsOfOne, blocked.restIterators()));
    }

    SmallVector<Value> results;
    for (auto [r, result] : llvm::enumerate(op.getResults())) {
      Value value = generic.getResult(r);
      Type resultType = getTypeConverter()->convertType(result.getType());
      if (kinds && axis == AggAxis::All) {
        bool sumOfSquares =
            cast<AggKindAttr>((*kinds)[r]).getValue() == AggKind::SumSq;
        if (blocked)
          value = mergePartials(rewriter, loc, value, reductions[r],
                                sumOfSquares, schedule);
        for (linalg::GenericOp rest : restGenerics)
          value = mergeRest(rewriter, loc, value, rest.getResult(r),
                            reductions[r], sumOfSquares);
        value = tensor::ExtractOp::create(rewriter, loc, value, ValueRange{});
      } else if (kinds) {
        if (split)
          value = mergePartials(rewriter, loc, value, reductions[r],
                                cast<AggKindAttr>((*kinds)[r]).getValue() ==
                                    AggKind::SumSq,
                                schedule, /*perRow=*/true);
        bool perRow = axis == AggAxis::Row;
        int64_t length = cast<RankedTensorType>(value.getType()).getDimSize(0);
        OpFoldResult lengthSize = getAsOpFoldResult(perRow ? rows : cols);
        SmallVector<OpFoldResult> shape =
            perRow ? SmallVector<OpFoldResult>{lengthSize,
                                               rewriter.getIndexAttr(1)}
                   : SmallVector<OpFoldResult>{rewriter.getIndexAttr(1),
                                               lengthSize};
        auto expandedType = RankedTensorType::get(
            perRow ? SmallVector<int64_t>{length, 1}
                   : SmallVector<int64_t>{1, length},
            cast<RankedTensorType>(value.getType()).getElementType());
        value = tensor::ExpandShapeOp::create(
            rewriter, loc, expandedType, value,
            SmallVector<ReassociationIndices>{{0, 1}}, shape);
        value = castTo(rewriter, loc, value, resultType);
      } else {
        value = castTo(rewriter, loc, value, resultType);
      }
      results.push_back(value);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::amls::populateAMLSFusedLoweringPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    const LoweringSchedule &schedule) {
  addPatterns<LowerRowBlockYield, LowerFused>(patterns, converter, schedule);
}
