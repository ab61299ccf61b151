//===- Reductions.cpp - Reduction loop nests for the lowering -------------===//

#include "Reductions.h"

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/AMLSToLinalg/AMLSToLinalg.h"

#include <limits>

using namespace mlir;
using namespace mlir::amls;

namespace mlir::amls::lowering {

Reduction reductionFor(AggKind kind) {
  // Products may be reassociated so that LLVM vectorizes the reduction
  // loops (several partial accumulators); the result differs from a strict
  // left-to-right product only by rounding.
  // Floating-point sums are marked for --amls-compensate-sums, which
  // makes them Kahan sums as SystemDS computes them.
  auto reassociable = arith::FastMathFlags::reassoc;
  auto isFloat = [](Value v) { return isa<FloatType>(v.getType()); };
  auto compensatedSum = [](OpBuilder &b, Location l, Value acc,
                           Value x) -> Value {
    auto add = arith::AddFOp::create(b, l, acc, x);
    add->setAttr(AMLSDialect::getCompensateAttrName(), b.getUnitAttr());
    return add;
  };
  switch (kind) {
  case AggKind::Sum:
  case AggKind::Mean:
    return {0.0, [=](OpBuilder &b, Location l, Value x, Value acc) -> Value {
              return isFloat(x)
                         ? compensatedSum(b, l, acc, x)
                         : arith::AddIOp::create(b, l, acc, x).getResult();
            }};
  case AggKind::SumSq:
    return {0.0, [=](OpBuilder &b, Location l, Value x, Value acc) -> Value {
              if (!isFloat(x))
                return arith::AddIOp::create(b, l, acc,
                                             arith::MulIOp::create(b, l, x, x));
              return compensatedSum(b, l, acc,
                                    arith::MulFOp::create(b, l, x, x));
            }};
  case AggKind::Prod:
    return {1.0, [=](OpBuilder &b, Location l, Value x, Value acc) -> Value {
              return isFloat(x)
                         ? arith::MulFOp::create(b, l, acc, x, reassociable)
                               .getResult()
                         : arith::MulIOp::create(b, l, acc, x).getResult();
            }};
  case AggKind::Min:
    return {std::numeric_limits<double>::infinity(),
            [=](OpBuilder &b, Location l, Value x, Value acc) -> Value {
              return isFloat(x)
                         ? arith::MinimumFOp::create(b, l, acc, x).getResult()
                         : arith::MinSIOp::create(b, l, acc, x).getResult();
            }};
  case AggKind::Max:
    return {-std::numeric_limits<double>::infinity(),
            [=](OpBuilder &b, Location l, Value x, Value acc) -> Value {
              return isFloat(x)
                         ? arith::MaximumFOp::create(b, l, acc, x).getResult()
                         : arith::MaxSIOp::create(b, l, acc, x).getResult();
            }};
  default:
    llvm_unreachable("not a plain reduction");
  }
}

Value reductionInit(OpBuilder &b, Location loc, Type type, double value) {
  if (isa<FloatType>(type))
    return floatConstant(b, loc, type, value);
  int64_t integer = std::isinf(value)
                        ? (value > 0 ? std::numeric_limits<int64_t>::max()
                                     : std::numeric_limits<int64_t>::min())
                        : static_cast<int64_t>(value);
  return arith::ConstantOp::create(b, loc, type,
                                   b.getIntegerAttr(type, integer));
}

Value Reduction::merge(OpBuilder &b, Location loc, Value partial, Value acc,
                       bool sumOfSquares) const {
  if (!sumOfSquares)
    return combine(b, loc, partial, acc);
  return reductionFor(AggKind::Sum).combine(b, loc, partial, acc);
}

/// Rows [first, first + count) of `matrix`, or cells of a 1-D tensor.
static Value sliceLeading(OpBuilder &b, Location loc, Value tensor,
                          int64_t first, int64_t count) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<OpFoldResult> offsets(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes, strides(type.getRank(), b.getIndexAttr(1));
  offsets[0] = b.getIndexAttr(first);
  sizes.push_back(b.getIndexAttr(count));
  for (int64_t d = 1; d < type.getRank(); ++d)
    sizes.push_back(b.getIndexAttr(type.getDimSize(d)));
  return tensor::ExtractSliceOp::create(b, loc, tensor, offsets, sizes,
                                        strides);
}

static Value flatten(OpBuilder &b, Location loc, Value matrix) {
  return tensor::CollapseShapeOp::create(
      b, loc, matrix, SmallVector<ReassociationIndices>{{0, 1}});
}

Value BlockedReduction::view(OpBuilder &b, Location loc, Value matrix) const {
  auto type = cast<RankedTensorType>(matrix.getType());
  Type element = type.getElementType();
  if (!regrouped) {
    if (tail)
      matrix = sliceLeading(b, loc, matrix, 0, blocks * perBlock);
    return tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({blocks, perBlock, type.getDimSize(1)}, element),
        matrix, SmallVector<ReassociationIndices>{{0, 1}, {2}});
  }
  Value flat = flatten(b, loc, matrix);
  if (head || tail)
    flat = sliceLeading(b, loc, flat, head, blocks * perBlock * lanes);
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get({blocks, perBlock, lanes}, element), flat,
      SmallVector<ReassociationIndices>{{0, 1, 2}});
}

SmallVector<std::pair<int64_t, int64_t>> BlockedReduction::rests() const {
  SmallVector<std::pair<int64_t, int64_t>> pieces;
  if (head)
    pieces.push_back({0, head});
  if (tail)
    pieces.push_back(
        {head + blocks * perBlock * (regrouped ? lanes : 1), tail});
  return pieces;
}

Value BlockedReduction::restView(OpBuilder &b, Location loc, Value matrix,
                                 int64_t first, int64_t count) const {
  if (regrouped)
    return sliceLeading(b, loc, flatten(b, loc, matrix), first, count);
  return sliceLeading(b, loc, matrix, first, count);
}

std::pair<Value, AffineMap>
BlockedReduction::bindRest(OpBuilder &b, Location loc, Value input,
                           RankedTensorType mainType, int64_t first,
                           int64_t count) const {
  MLIRContext *context = b.getContext();
  AffineExpr zero = getAffineConstantExpr(0, context);
  auto type = cast<RankedTensorType>(input.getType());
  bool broadcastRows = type.getDimSize(0) == 1 && mainType.getDimSize(0) != 1;
  if (regrouped) {
    // Every input has the main input's shape, or is a single cell.
    if (broadcastRows)
      return {input, AffineMap::get(1, 0, {zero, zero}, context)};
    return {restView(b, loc, input, first, count),
            AffineMap::get(1, 0, {getAffineDimExpr(0, context)}, context)};
  }
  AffineExpr row = getAffineDimExpr(0, context),
             col = getAffineDimExpr(1, context);
  bool alongCols = type.getDimSize(1) != 1 || mainType.getDimSize(1) == 1;
  if (broadcastRows)
    return {input,
            AffineMap::get(2, 0, {zero, alongCols ? col : zero}, context)};
  return {restView(b, loc, input, first, count),
          AffineMap::get(2, 0, {row, alongCols ? col : zero}, context)};
}

AffineMap BlockedReduction::restScalarMap(MLIRContext *context) const {
  return AffineMap::get(regrouped ? 1 : 2, 0, {}, context);
}

SmallVector<utils::IteratorType> BlockedReduction::restIterators() const {
  return SmallVector<utils::IteratorType>(regrouped ? 1 : 2,
                                          utils::IteratorType::reduction);
}

Value mergeRest(OpBuilder &b, Location loc, Value blocks, Value rest,
                const Reduction &reduction, bool sumOfSquares) {
  Value merged = reduction.merge(
      b, loc, tensor::ExtractOp::create(b, loc, rest, ValueRange{}),
      tensor::ExtractOp::create(b, loc, blocks, ValueRange{}), sumOfSquares);
  return tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({}, merged.getType()), merged);
}

std::pair<Value, AffineMap>
BlockedReduction::bind(OpBuilder &b, Location loc, Value input,
                       RankedTensorType mainType) const {
  MLIRContext *context = b.getContext();
  AffineExpr block = getAffineDimExpr(0, context),
             row = getAffineDimExpr(1, context),
             lane = getAffineDimExpr(2, context),
             zero = getAffineConstantExpr(0, context);
  auto type = cast<RankedTensorType>(input.getType());
  bool alongLanes =
      regrouped || type.getDimSize(1) != 1 || mainType.getDimSize(1) == 1;
  if (type.getDimSize(0) == 1 && mainType.getDimSize(0) != 1)
    return {input,
            AffineMap::get(3, 0, {zero, alongLanes && !regrouped ? lane : zero},
                           context)};
  return {
      view(b, loc, input),
      AffineMap::get(3, 0, {block, row, alongLanes ? lane : zero}, context)};
}

AffineMap BlockedReduction::partialMap(MLIRContext *context) const {
  return AffineMap::get(
      3, 0, {getAffineDimExpr(0, context), getAffineDimExpr(2, context)},
      context);
}

SmallVector<utils::IteratorType> BlockedReduction::iterators() const {
  return {utils::IteratorType::parallel, utils::IteratorType::reduction,
          utils::IteratorType::parallel};
}

int64_t lineOffsetOf(Operation *op) {
  if (auto offset =
          op->getAttrOfType<IntegerAttr>(AMLSDialect::getLineOffsetAttrName()))
    return offset.getInt();
  return 0;
}

BlockedReduction blockedReductionFor(const LoweringSchedule &schedule,
                                     Value value, bool contiguous,
                                     int64_t lineOffset) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape())
    return {};
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  int64_t boundary = schedule.alignBlocksTo();
  unsigned bits = type.getElementType().getIntOrFloatBitWidth();
  if (lineOffset > 0 && boundary > 0 && bits % 8 == 0 &&
      (cols == 1 || contiguous)) {
    // The cells up to the next boundary form the head; the blocks start
    // on it.
    int64_t perBoundary = boundary / (bits / 8);
    int64_t head = (perBoundary - lineOffset % perBoundary) % perBoundary;
    if (head > 0 && head < rows * cols) {
      FullReductionSplit split =
          schedule.splitFullReduction(rows * cols - head, 1, true);
      if (split && split.regrouped) {
        split.head = head;
        return split;
      }
    }
  }
  return schedule.splitFullReduction(rows, cols, contiguous);
}

Value LaneSplit::view(OpBuilder &b, Location loc, Value matrix) const {
  auto type = cast<RankedTensorType>(matrix.getType());
  return tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get({type.getDimSize(0), groups, lanes},
                            type.getElementType()),
      matrix, SmallVector<ReassociationIndices>{{0}, {1, 2}});
}

SmallVector<utils::IteratorType> LaneSplit::iterators() const {
  return {utils::IteratorType::parallel, utils::IteratorType::reduction,
          utils::IteratorType::parallel};
}

std::pair<Value, AffineMap> LaneSplit::bind(OpBuilder &b, Location loc,
                                            Value input,
                                            RankedTensorType mainType) const {
  MLIRContext *context = b.getContext();
  AffineExpr row = getAffineDimExpr(0, context),
             group = getAffineDimExpr(1, context),
             lane = getAffineDimExpr(2, context),
             zero = getAffineConstantExpr(0, context);
  auto type = cast<RankedTensorType>(input.getType());
  AffineExpr rowExpr =
      type.getDimSize(0) != 1 || mainType.getDimSize(0) == 1 ? row : zero;
  if (type.getDimSize(1) == 1)
    return {input, AffineMap::get(3, 0, {rowExpr, zero}, context)};
  return {view(b, loc, input),
          AffineMap::get(3, 0, {rowExpr, group, lane}, context)};
}

LaneSplit laneSplitFor(const LoweringSchedule &schedule, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (!type.hasStaticShape())
    return {};
  return schedule.splitRowReduction(type.getDimSize(0), type.getDimSize(1));
}

/// Reduces the dimensions of `partials` marked in `reduced` with `combine`
/// (partial, accumulator), starting from `init`; the kept dimensions have
/// `keptSizes`.
Value reducePartials(
    OpBuilder &b, Location loc, Value partials, ArrayRef<bool> reduced,
    ArrayRef<OpFoldResult> keptSizes, double init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto type = cast<RankedTensorType>(partials.getType());
  Type elementType = type.getElementType();
  MLIRContext *context = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineExpr> kept;
  SmallVector<utils::IteratorType> iteratorTypes;
  for (int64_t d = 0; d < rank; ++d) {
    iteratorTypes.push_back(reduced[d] ? utils::IteratorType::reduction
                                       : utils::IteratorType::parallel);
    if (!reduced[d])
      kept.push_back(getAffineDimExpr(d, context));
  }
  Value empty = tensor::EmptyOp::create(b, loc, keptSizes, elementType);
  Value filled = linalg::FillOp::create(
                     b, loc, reductionInit(b, loc, elementType, init), empty)
                     .getResult(0);
  return linalg::GenericOp::create(
             b, loc, empty.getType(), partials, filled,
             {AffineMap::getMultiDimIdentityMap(rank, context),
              AffineMap::get(rank, 0, kept, context)},
             iteratorTypes,
             [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
               linalg::YieldOp::create(
                   nested, bodyLoc, combine(nested, bodyLoc, args[0], args[1]));
             })
      .getResult(0);
}

/// Merges partial results: all of them into a 0-d tensor, or, with
/// `perRow`, the lanes of each row (rows x lanes into rows).
Value mergePartials(OpBuilder &b, Location loc, Value partials,
                    const Reduction &reduction, bool sumOfSquares,
                    const LoweringSchedule &schedule, bool perRow) {
  auto merge = [&](OpBuilder &nested, Location bodyLoc, Value partial,
                   Value acc) {
    return reduction.merge(nested, bodyLoc, partial, acc, sumOfSquares);
  };
  auto type = cast<RankedTensorType>(partials.getType());
  if (perRow) {
    SmallVector<bool> reduced(type.getRank(), true);
    reduced[0] = false;
    return reducePartials(b, loc, partials, reduced,
                          {b.getIndexAttr(type.getDimSize(0))}, reduction.init,
                          merge);
  }
  // Stages that run in parallel: `count` partial results viewed as
  // count / lanes x lanes, the lanes reduced separately.
  if (type.hasStaticShape()) {
    int64_t count = type.getNumElements();
    while (int64_t lanes = schedule.splitMerge(count)) {
      Value flat = partials;
      if (cast<RankedTensorType>(flat.getType()).getRank() != 1) {
        ReassociationIndices all =
            llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
        flat = tensor::CollapseShapeOp::create(
            b, loc, flat, SmallVector<ReassociationIndices>{all});
      }
      Value view = tensor::ExpandShapeOp::create(
          b, loc,
          RankedTensorType::get({count / lanes, lanes}, type.getElementType()),
          flat, SmallVector<ReassociationIndices>{{0, 1}});
      partials = reducePartials(b, loc, view, {true, false},
                                {b.getIndexAttr(lanes)}, reduction.init, merge);
      type = cast<RankedTensorType>(partials.getType());
      count = lanes;
    }
  }
  SmallVector<bool> reduced(type.getRank(), true);
  return reducePartials(b, loc, partials, reduced, {}, reduction.init, merge);
}

std::pair<RankedTensorType, SmallVector<Value>>
ReductionBuilder::outputShape() const {
  auto type = cast<RankedTensorType>(input.getType());
  switch (axis) {
  case AggAxis::All:
    return {RankedTensorType::get({}, resultElementType), {}};
  case AggAxis::Row:
    return {RankedTensorType::get({type.getDimSize(0)}, resultElementType),
            {dimOf(b, loc, input, 0)}};
  case AggAxis::Col:
    return {RankedTensorType::get({type.getDimSize(1)}, resultElementType),
            {dimOf(b, loc, input, 1)}};
  }
  llvm_unreachable("unknown axis");
}

AffineMap ReductionBuilder::outputMap() const {
  MLIRContext *context = b.getContext();
  switch (axis) {
  case AggAxis::All:
    return AffineMap::get(2, 0, {}, context);
  case AggAxis::Row:
    return AffineMap::get(2, 0, {getAffineDimExpr(0, context)}, context);
  case AggAxis::Col:
    return AffineMap::get(2, 0, {getAffineDimExpr(1, context)}, context);
  }
  llvm_unreachable("unknown axis");
}

SmallVector<bool> ReductionBuilder::reducedDims() const {
  return {axis != AggAxis::Row, axis != AggAxis::Col};
}

Value ReductionBuilder::reduce(
    double init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
    ValueRange extras,
    function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf,
    bool sumOfSquares) const {
  if (axis == AggAxis::All)
    if (BlockedReduction blocked = blockedReductionFor(
            schedule, input, /*contiguous=*/extras.empty(), lineOffset))
      return reduceInBlocks(blocked, init, combine, extras, cellOf,
                            sumOfSquares);
  if (axis == AggAxis::Row)
    if (LaneSplit split = laneSplitFor(schedule, input))
      return reduceRowsInLanes(split, init, combine, extras, cellOf,
                               sumOfSquares);
  auto [outputType, sizes] = outputShape();
  return reduceIntoPartials(input, outputType, outputMap(), outputMap(),
                            iterators(reducedDims()), init, combine, extras,
                            cellOf, dynamicOnly(outputType, sizes));
}

Value ReductionBuilder::reduceInBlocks(
    const BlockedReduction &blocked, double init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
    ValueRange extras,
    function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf,
    bool sumOfSquares) const {
  MLIRContext *context = b.getContext();
  Value view = blocked.view(b, loc, input);
  auto partialType = RankedTensorType::get(
      {blocked.blocks, cast<RankedTensorType>(view.getType()).getDimSize(2)},
      resultElementType);
  Value partials =
      reduceIntoPartials(view, partialType, AffineMap::get(3, 0, {}, context),
                         blocked.partialMap(context), blocked.iterators(), init,
                         combine, extras, cellOf);
  Reduction reduction{init, combine};
  Value merged =
      mergePartials(b, loc, partials, reduction, sumOfSquares, schedule);
  AffineMap scalarMap = blocked.restScalarMap(context);
  for (auto [first, count] : blocked.rests()) {
    Value rest = reduceIntoPartials(
        blocked.restView(b, loc, input, first, count),
        RankedTensorType::get({}, resultElementType), scalarMap, scalarMap,
        blocked.restIterators(), init, combine, extras, cellOf);
    merged = mergeRest(b, loc, merged, rest, reduction, sumOfSquares);
  }
  return merged;
}

Value ReductionBuilder::reduceRowsInLanes(
    const LaneSplit &split, double init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
    ValueRange extras,
    function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf,
    bool sumOfSquares) const {
  MLIRContext *context = b.getContext();
  int64_t rows = cast<RankedTensorType>(input.getType()).getDimSize(0);
  AffineExpr row = getAffineDimExpr(0, context),
             lane = getAffineDimExpr(2, context);
  Value partials = reduceIntoPartials(
      split.view(b, loc, input),
      RankedTensorType::get({rows, split.lanes}, resultElementType),
      AffineMap::get(3, 0, {row}, context),
      AffineMap::get(3, 0, {row, lane}, context), split.iterators(), init,
      combine, extras, cellOf);
  return mergePartials(b, loc, partials, Reduction{init, combine}, sumOfSquares,
                       schedule, /*perRow=*/true);
}

Value ReductionBuilder::reduceIntoPartials(
    Value view, RankedTensorType partialType, AffineMap extraMap,
    AffineMap partialMap, ArrayRef<utils::IteratorType> iteratorTypes,
    double init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
    ValueRange extras,
    function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf,
    ValueRange dynamicSizes) const {
  Value empty = tensor::EmptyOp::create(b, loc, partialType.getShape(),
                                        resultElementType, dynamicSizes);
  Value filled =
      linalg::FillOp::create(
          b, loc, reductionInit(b, loc, resultElementType, init), empty)
          .getResult(0);
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(
      cast<RankedTensorType>(view.getType()).getRank(), b.getContext())};
  maps.append(extras.size(), extraMap);
  maps.push_back(partialMap);
  SmallVector<Value> inputs = {view};
  inputs.append(extras.begin(), extras.end());
  return linalg::GenericOp::create(
             b, loc, partialType, inputs, filled, maps, iteratorTypes,
             [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
               Value cell = cellOf ? cellOf(nested, bodyLoc, args.drop_back())
                                   : toResultType(nested, bodyLoc, args[0]);
               linalg::YieldOp::create(
                   nested, bodyLoc,
                   combine(nested, bodyLoc, cell, args.back()));
             })
      .getResult(0);
}

Value ReductionBuilder::toResultType(OpBuilder &nested, Location bodyLoc,
                                     Value cell) const {
  if (cell.getType() == resultElementType)
    return cell;
  return arith::SIToFPOp::create(nested, bodyLoc, resultElementType, cell);
}

SmallVector<Value> ReductionBuilder::dynamicOnly(RankedTensorType type,
                                                 ArrayRef<Value> sizes) {
  SmallVector<Value> dynamic;
  for (auto [i, size] : llvm::enumerate(sizes))
    if (type.isDynamicDim(i))
      dynamic.push_back(size);
  return dynamic;
}

Value ReductionBuilder::map(
    Value reduced, function_ref<Value(OpBuilder &, Location, Value)> fn) const {
  auto type = cast<RankedTensorType>(reduced.getType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    sizes.push_back(type.isDynamicDim(d)
                        ? tensor::DimOp::create(b, loc, reduced, d).getResult()
                        : indexConstant(b, loc, type.getDimSize(d)));
  Value empty = tensor::EmptyOp::create(
      b, loc, type.getShape(), type.getElementType(), dynamicOnly(type, sizes));
  auto id = AffineMap::getMultiDimIdentityMap(type.getRank(), b.getContext());
  return linalg::GenericOp::create(
             b, loc, type, reduced, empty, {id, id},
             SmallVector<utils::IteratorType>(type.getRank(),
                                              utils::IteratorType::parallel),
             [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
               linalg::YieldOp::create(nested, bodyLoc,
                                       fn(nested, bodyLoc, args[0]));
             })
      .getResult(0);
}

} // namespace mlir::amls::lowering
