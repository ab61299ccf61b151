//===- Reductions.h - Reduction loop nests for the lowering -----*- C++ -*-===//
//
// Aggregates, nnz, trace and fused operators reduce with the same
// machinery: the identity and combining step of each kind, reduction loop
// nests over all cells, rows or columns, and partial results over blocks of
// rows or lanes of a row (split as the target's LoweringSchedule says)
// merged afterwards.
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_LIB_CONVERSION_AMLSTOLINALG_REDUCTIONS_H
#define AMLS_LIB_CONVERSION_AMLSTOLINALG_REDUCTIONS_H

#include "LoweringUtils.h"

#include <functional>

namespace mlir::amls::lowering {

/// The identity of a reduction and its combining step.
struct Reduction {
  double init;
  std::function<Value(OpBuilder &, Location, Value cell, Value acc)> combine;

  /// Combines two partial results (sumsq's partial sums add up).
  Value merge(OpBuilder &b, Location loc, Value partial, Value acc,
              bool sumOfSquares) const;
};

/// The reduction of sum, mean (its sum), sumsq, prod, min and max.
Reduction reductionFor(AggKind kind);

/// `value` (an identity: 0, 1 or +-infinity) as a constant of `type`; the
/// infinities become the extreme integers.
Value reductionInit(OpBuilder &b, Location loc, Type type, double value);

/// A full reduction split into blocks of rows (FullReductionSplit): the
/// views of its inputs and the maps over (block, row in block, lane). The
/// innermost loop goes along the lanes and is element-wise, which LLVM
/// vectorizes (a scalar accumulator would stay in memory).
struct BlockedReduction : FullReductionSplit {
  BlockedReduction(FullReductionSplit split = {}) : FullReductionSplit(split) {}

  /// `matrix` (rows x cols, or rows x 1 when regrouped) viewed as blocks x
  /// perBlock x cols (x lanes when regrouped), without the head and tail.
  Value view(OpBuilder &b, Location loc, Value matrix) const;

  /// The cells (regrouped) or rows outside the blocks, as (first, count):
  /// the head, then the tail.
  SmallVector<std::pair<int64_t, int64_t>> rests() const;

  /// `count` cells of `matrix` from `first` (1-D) when regrouped, else
  /// `count` rows.
  Value restView(OpBuilder &b, Location loc, Value matrix, int64_t first,
                 int64_t count) const;

  /// An input of a fused operator whose main input has `mainType`, and its
  /// map over (block, row in block, lane): inputs along the rows are viewed
  /// in blocks, row vectors broadcast along the lanes (single cells when
  /// regrouped).
  std::pair<Value, AffineMap> bind(OpBuilder &b, Location loc, Value input,
                                   RankedTensorType mainType) const;

  /// The partial results' map over (block, row in block, lane).
  AffineMap partialMap(MLIRContext *context) const;

  SmallVector<utils::IteratorType> iterators() const;

  /// An input bound over a rest's cells (regrouped) or (row, column), as
  /// bind() binds it over the blocks.
  std::pair<Value, AffineMap> bindRest(OpBuilder &b, Location loc, Value input,
                                       RankedTensorType mainType, int64_t first,
                                       int64_t count) const;

  /// The map of a 0-d result (or extra) over a rest.
  AffineMap restScalarMap(MLIRContext *context) const;

  /// A rest's loops, all reductions.
  SmallVector<utils::IteratorType> restIterators() const;
};

/// Merges a full reduction's 0-d result over a rest (head or tail) into the
/// 0-d result over the blocks.
Value mergeRest(OpBuilder &b, Location loc, Value blocks, Value rest,
                const Reduction &reduction, bool sumOfSquares);

/// The AMLSDialect::getLineOffsetAttrName() that --convert-amls-to-linalg put
/// on a full aggregate `op`, or 0.
int64_t lineOffsetOf(Operation *op);

/// How the target splits a full reduction over `value`: not at all for
/// results of reductions or shapes unknown at compile time. With a
/// `lineOffset` (AMLSDialect::getLineOffsetAttrName()) the blocks of a
/// regrouped split start on the target's boundary, after a head.
BlockedReduction blockedReductionFor(const LoweringSchedule &schedule,
                                     Value value, bool contiguous,
                                     int64_t lineOffset = 0);

/// A row reduction with `lanes` partial results per row
/// (RowReductionSplit), one per lane of a view of each row as groups of
/// lanes, so that the innermost loop is element-wise (vectorized) instead of
/// a reduction into memory; the lanes are merged afterwards.
struct LaneSplit : RowReductionSplit {
  LaneSplit(RowReductionSplit split = {}) : RowReductionSplit(split) {}

  /// `matrix` (rows x cols, or 1 x cols) viewed as rows x groups x lanes.
  Value view(OpBuilder &b, Location loc, Value matrix) const;

  SmallVector<utils::IteratorType> iterators() const;

  /// An input of a fused operator whose main input has `mainType`, and its
  /// map over (row, group, lane): inputs along the columns are viewed as
  /// groups of lanes, column vectors broadcast along them.
  std::pair<Value, AffineMap> bind(OpBuilder &b, Location loc, Value input,
                                   RankedTensorType mainType) const;
};

/// How the target splits a row reduction over `value`.
LaneSplit laneSplitFor(const LoweringSchedule &schedule, Value value);

/// Reduces the dimensions of `partials` marked in `reduced` with `combine`
/// (partial, accumulator), starting from `init`; the kept dimensions have
/// `keptSizes`.
Value reducePartials(
    OpBuilder &b, Location loc, Value partials, ArrayRef<bool> reduced,
    ArrayRef<OpFoldResult> keptSizes, double init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine);

/// Merges partial results: all of them into a 0-d tensor, in the stages the
/// target's schedule asks for (LoweringSchedule::splitMerge), or, with
/// `perRow`, the lanes of each row (rows x lanes into rows).
Value mergePartials(OpBuilder &b, Location loc, Value partials,
                    const Reduction &reduction, bool sumOfSquares,
                    const LoweringSchedule &schedule, bool perRow = false);

/// Reduces `input` over `axis` into a tensor of rank 0 (all), or rank 1
/// (row: one value per row, col: one per column), with `extra` tensors of
/// the same shape as further inputs (for var/sd: the means).
struct ReductionBuilder {
  OpBuilder &b;
  Location loc;
  Value input;
  AggAxis axis;
  Type resultElementType;
  const LoweringSchedule &schedule;
  /// Of the input's first cell past the target's boundary
  /// (AMLSDialect::getLineOffsetAttrName()).
  int64_t lineOffset = 0;

  /// The rank-0 or rank-1 output shape and its sizes.
  std::pair<RankedTensorType, SmallVector<Value>> outputShape() const;

  /// The output's map over (row, column).
  AffineMap outputMap() const;

  SmallVector<bool> reducedDims() const;

  /// One reduction; `cellOf` maps the input cell (and the `extras` cells) to
  /// the value reduced.
  Value reduce(
      double init,
      function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
      ValueRange extras = {},
      function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf = nullptr,
      bool sumOfSquares = false) const;

  /// A full reduction as partial reductions over blocks of rows
  /// (BlockedReduction), merged afterwards. `extras` are 0-d.
  Value reduceInBlocks(
      const BlockedReduction &blocked, double init,
      function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
      ValueRange extras,
      function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf,
      bool sumOfSquares) const;

  /// A row reduction with partial results per lane of each row (LaneSplit),
  /// merged afterwards. `extras` are per row (1-D).
  Value reduceRowsInLanes(
      const LaneSplit &split, double init,
      function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
      ValueRange extras,
      function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf,
      bool sumOfSquares) const;

  /// Reduces `view` (the input or a 3-D view of it) into `partialType`
  /// through `partialMap` (`extraMap` for every extra operand; the dynamic
  /// sizes of the result in `dynamicSizes`).
  Value reduceIntoPartials(
      Value view, RankedTensorType partialType, AffineMap extraMap,
      AffineMap partialMap, ArrayRef<utils::IteratorType> iteratorTypes,
      double init,
      function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
      ValueRange extras,
      function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf,
      ValueRange dynamicSizes = {}) const;

  /// An integer cell as the (floating-point) result element type.
  Value toResultType(OpBuilder &nested, Location bodyLoc, Value cell) const;

  /// The sizes among `sizes` that `type` leaves dynamic.
  static SmallVector<Value> dynamicOnly(RankedTensorType type,
                                        ArrayRef<Value> sizes);

  /// Applies `fn` to every element of a rank-0/1 reduction result.
  Value map(Value reduced,
            function_ref<Value(OpBuilder &, Location, Value)> fn) const;
};

} // namespace mlir::amls::lowering

#endif // AMLS_LIB_CONVERSION_AMLSTOLINALG_REDUCTIONS_H
