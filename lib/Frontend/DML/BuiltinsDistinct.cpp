//===- BuiltinsDistinct.cpp - rowCountDistinct, colCountDistinct ----------===//
//
// The number of distinct values in each row (column) of a matrix, composed
// of existing ops like countDistinct (BuiltinsStatistics.cpp): the cells as
// (row, value) pairs, sorted by value and then, stably, by row, so each
// row's values are adjacent and ascending; a pair that differs from the one
// before it starts a new value, and table() sums those starts per row. As
// in countDistinct, NaN differs from everything (each NaN counts).
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

namespace {
/// The n x 1 counts of distinct values in the rows of `x`.
Value distinctPerRow(Importer &im, Location l, Value x) {
  OpBuilder &b = im.getBuilder();
  MatrixType m = im.matrixType();
  auto index = [&](int64_t v) { return im.indexConstant(l, v); };
  auto slice = [&](Value v, Value rowBegin, Value rowEnd, int64_t col) {
    return SliceOp::create(b, l, m, v, rowBegin, rowEnd, index(col),
                           index(col + 1));
  };
  Value rows = NRowOp::create(b, l, b.getIndexType(), x);
  Value cols = NColOp::create(b, l, b.getIndexType(), x);
  Value cells = arith::MulIOp::create(b, l, rows, cols);
  Value values = ReshapeOp::create(b, l, m, x, cells, index(1));
  // Row ids 1..n of the cells in row-major order: ceil(k / cols).
  Value k = SeqOp::create(b, l, m, im.constant(l, 1), im.indexToF64(l, cells),
                          im.constant(l, 1));
  Value rowIds = CeilOp::create(
      b, l, m, DivOp::create(b, l, m, k, im.indexToF64(l, cols)));
  Value pairs = CBindOp::create(b, l, m, ValueRange{rowIds, values});
  Value sorted = OrderOp::create(
      b, l, m, OrderOp::create(b, l, m, pairs, index(1), false, false),
      index(0), false, false);
  // Each pair against the one before it (row 0 and NaN before the first).
  Value last = arith::SubIOp::create(b, l, cells, index(1));
  auto previous = [&](int64_t col, double before) {
    Value first =
        FillOp::create(b, l, m, im.constant(l, before), index(1), index(1));
    return RBindOp::create(
        b, l, m, ValueRange{first, slice(sorted, index(0), last, col)});
  };
  Value sortedRows = slice(sorted, index(0), cells, 0);
  Value starts =
      OrOp::create(b, l, m, NeOp::create(b, l, m, sortedRows, previous(0, 0)),
                   NeOp::create(b, l, m, slice(sorted, index(0), cells, 1),
                                previous(1, NAN)));
  Value ones = FillOp::create(b, l, m, im.constant(l, 1), cells, index(1));
  return TableOp::create(b, l, m, sortedRows, ones, starts, rows, index(1));
}
} // namespace

DValue BuiltinCall::buildCountDistinctByRow() {
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  if (name.starts_with("row"))
    return DValue::matrix(distinctPerRow(im, l, *x));
  // colCountDistinct(X) = t(rowCountDistinct(t(X))).
  MatrixType m = im.matrixType();
  Value transposed = TransposeOp::create(builder, l, m, *x);
  return DValue::matrix(
      TransposeOp::create(builder, l, m, distinctPerRow(im, l, transposed)));
}

/// countDistinct(X, dir) and countDistinctApprox(X, dir="rc", type="KMV",
/// k) with its row and column spellings: all cells (dir="rc"), per row
/// ("r") or per column ("c"). SystemDS estimates the approximate counts
/// with K-minimum values; the exact counts are within any estimate's
/// bounds, so AMLS returns those.
DValue BuiltinCall::buildCountDistinctApprox() {
  bool isFull = name.starts_with("countDistinct");
  bool approximate = name.ends_with("Approx");
  size_t typeIndex = isFull ? 2 : 1, kIndex = isFull ? 3 : 2;
  if (approximate && args.has(typeIndex)) {
    std::optional<std::string> type =
        im.genConstantString(args[typeIndex], "'type'");
    if (!type)
      return {};
    if (*type != "KMV") {
      im.error(args[typeIndex]->getLoc())
          << "unsupported type \"" << *type << "\" of '" << name
          << "': expected \"KMV\"";
      return {};
    }
  }
  if (approximate && args.has(kIndex) && !im.genNumber(args[kIndex], "'k'"))
    return {};
  std::string dir = "rc";
  if (isFull && args.has(1)) {
    std::optional<std::string> given = im.genConstantString(args[1], "'dir'");
    if (!given)
      return {};
    dir = *given;
  }
  if (dir == "rc") {
    if (isFull)
      return buildCountDistinct();
    return buildCountDistinctByRow();
  }
  if (dir != "r" && dir != "c") {
    im.error(args[1]->getLoc()) << "unsupported dir \"" << dir << "\" of '"
                                << name << "': expected \"rc\", \"r\" or \"c\"";
    return {};
  }
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  if (dir == "r")
    return DValue::matrix(distinctPerRow(im, l, *x));
  MatrixType m = im.matrixType();
  Value transposed = TransposeOp::create(builder, l, m, *x);
  return DValue::matrix(
      TransposeOp::create(builder, l, m, distinctPerRow(im, l, transposed)));
}
