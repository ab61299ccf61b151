//===- BuiltinsStatistics.cpp - DML's statistics builtins -----------------===//
//
// moment, cov, quantile, median, interQuartileMean, aggregate (grouped),
// outer, sample, unique, countDistinct, contains, xor, assert, bias_add and
// bias_multiply. Each is composed of existing AMLS ops (element-wise ops,
// aggregates, order, table, rand, slices), which compute it exactly: no
// op of its own is needed. docs/dml.md states the semantics, which are
// SystemDS's: central moments divide by the sum of weights, cov and a
// group's variance by that sum minus one; quantile(X, p) is the value at
// sorted position ceil(p * n) (NumPy's "inverted_cdf"); median averages
// the two middle values of an even count.
//
// Shapes SystemDS checks when compiling (column vectors, equal lengths)
// are checked here at run time, where the sizes are known; checks of
// static sizes fold away.
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

namespace {

/// The IR the compositions below are made of: AMLS ops on matrices, arith
/// and math on f64 numbers, index arithmetic on sizes.
class Compose {
public:
  Compose(Importer &im, Location l) : im(im), b(im.getBuilder()), l(l) {}

  MatrixType m() { return im.matrixType(); }
  template <typename OpTy> Value cells(Value x, Value y) {
    return OpTy::create(b, l, m(), x, y);
  }
  Value sum(Value x) {
    return AggOp::create(b, l, im.f64(), AggKind::Sum, AggAxis::All, x);
  }
  Value colSums(Value x) {
    return AggOp::create(b, l, m(), AggKind::Sum, AggAxis::Col, x);
  }
  Value cumsum(Value x) {
    return CumAggOp::create(b, l, m(), CumAggKind::CumSum, x);
  }
  Value nrow(Value x) { return NRowOp::create(b, l, b.getIndexType(), x); }
  Value ncol(Value x) { return NColOp::create(b, l, b.getIndexType(), x); }
  Value fill(Value value, Value rows, Value cols) {
    return FillOp::create(b, l, m(), value, rows, cols);
  }
  Value cbind(ValueRange inputs) { return CBindOp::create(b, l, m(), inputs); }
  Value rbind(ValueRange inputs) { return RBindOp::create(b, l, m(), inputs); }
  Value transpose(Value x) { return TransposeOp::create(b, l, m(), x); }
  Value matmul(Value x, Value y) { return MatmulOp::create(b, l, m(), x, y); }
  /// 1, 2, ..., n as a column vector (n a non-negative f64).
  Value seq(Value n) { return SeqOp::create(b, l, m(), num(1), n, num(1)); }
  /// The rows of column vector `x` in increasing order.
  Value sort(Value x) {
    return OrderOp::create(b, l, m(), x, index(0), /*decreasing=*/false,
                           /*indices=*/false);
  }
  Value rows(Value x, Value begin, Value end) {
    return SliceOp::create(b, l, m(), x, begin, end, index(0), ncol(x));
  }
  Value column(Value x, int64_t j) {
    return SliceOp::create(b, l, m(), x, index(0), nrow(x), index(j),
                           index(j + 1));
  }
  /// Cell `row` (a 1-based f64) of column vector `x`.
  Value at(Value x, Value row) {
    Value end = im.toIndex(l, row);
    Value begin = arith::SubIOp::create(b, l, end, index(1));
    return AsScalarOp::create(
        b, l, im.f64(),
        SliceOp::create(b, l, m(), x, begin, end, index(0), index(1)));
  }
  /// result[i, j] = x[i] for column vector `x`: `cols` copies of it.
  Value repeatColumn(Value x, Value cols) {
    // x * 1 is x exactly (also -0, Inf and NaN).
    return cells<MulOp>(fill(num(1), nrow(x), cols), x);
  }

  Value num(double v) { return im.constant(l, v); }
  Value index(int64_t v) { return im.indexConstant(l, v); }
  Value f64(Value index) { return im.indexToF64(l, index); }
  /// A size as an i64, which messages print as an integer.
  Value count(Value index) {
    return arith::IndexCastOp::create(b, l, b.getI64Type(), index);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, l, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, l, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, l, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, l, x, y); }
  Value max(Value x, Value y) { return arith::MaximumFOp::create(b, l, x, y); }
  Value ceil(Value x) { return math::CeilOp::create(b, l, x); }
  Value cmp(arith::CmpFPredicate predicate, Value x, Value y) {
    return arith::CmpFOp::create(b, l, predicate, x, y);
  }
  Value cmpIndex(arith::CmpIPredicate predicate, Value x, Value y) {
    return arith::CmpIOp::create(b, l, predicate, x, y);
  }
  Value select(Value condition, Value x, Value y) {
    return arith::SelectOp::create(b, l, condition, x, y);
  }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, l, x, y); }

  /// Stops the run unless `order` is 2, 3 or 4: the central moments SystemDS
  /// computes.
  void checkMomentOrder(Value order, llvm::StringRef what) {
    Value bad = cmp(arith::CmpFPredicate::UNE, order, num(2));
    for (double k : {3.0, 4.0})
      bad = arith::AndIOp::create(
          b, l, bad, cmp(arith::CmpFPredicate::UNE, order, num(k)));
    im.checkAtRunTime(l, bad,
                      "the order of '" + what + "' must be 2, 3 or 4, found {}",
                      order);
  }

  /// Stops the run unless `x` has one column.
  void checkColumnVector(Value x, llvm::StringRef what) {
    im.checkAtRunTime(l, cmpIndex(arith::CmpIPredicate::ne, ncol(x), index(1)),
                      what + " must be a column vector, found {} columns",
                      count(ncol(x)));
  }
  /// Stops the run unless `x` is a column vector as long as `like`.
  void checkSameColumn(Value x, Value like, llvm::StringRef what) {
    Value bad = orI(cmpIndex(arith::CmpIPredicate::ne, ncol(x), index(1)),
                    cmpIndex(arith::CmpIPredicate::ne, nrow(x), nrow(like)));
    im.checkAtRunTime(
        l, bad,
        what + " must be a column vector of {} rows, found {} x "
               "{}",
        ValueRange{count(nrow(like)), count(nrow(x)), count(ncol(x))});
  }

private:
  Importer &im;
  OpBuilder &b;
  Location l;
};

/// A column vector sorted for picking quantiles: its values, their
/// cumulative weights (null: weights 1, so the cumulative weight of row i
/// is i) and the total weight.
struct SortedValues {
  Value values, weights, cumulative, total;
};

SortedValues sortValues(Compose &c, Value x, Value weights) {
  if (!weights)
    return {c.sort(x), nullptr, nullptr, c.f64(c.nrow(x))};
  // Sort (value, weight) pairs by value.
  Value pairs = c.sort(c.cbind({x, weights}));
  Value w = c.column(pairs, 1);
  return {c.column(pairs, 0), w, c.cumsum(w), c.sum(w)};
}

} // namespace

//===----------------------------------------------------------------------===//
// Shared by the builders
//===----------------------------------------------------------------------===//

std::optional<llvm::SmallVector<const Expr *, 4>>
BuiltinCall::positionalArguments(size_t min, size_t max) {
  llvm::SmallVector<const Expr *, 4> values;
  for (const Argument &arg : call->args) {
    if (!arg.name.empty()) {
      im.error(arg.loc) << "'" << name << "' takes no named arguments";
      return std::nullopt;
    }
    values.push_back(arg.value.get());
  }
  if (values.size() < min || values.size() > max) {
    auto diag = im.error(where);
    diag << "'" << name << "' takes ";
    if (min == max)
      diag << min;
    else
      diag << min << " to " << max;
    diag << " arguments, found " << values.size();
    return std::nullopt;
  }
  return values;
}

std::optional<Value> BuiltinCall::weightsArgument(const Expr *expr, Value x) {
  std::optional<Value> weights = im.genMatrix(expr, "the weights");
  if (weights)
    Compose(im, l).checkSameColumn(*weights, x,
                                   "'" + name.str() + "': the weights");
  return weights;
}

//===----------------------------------------------------------------------===//
// Moments and covariance
//===----------------------------------------------------------------------===//

/// mean(X) of all cells; mean(X, W) the weighted mean sum(X * W) / sum(W)
/// (SystemDS's weights are frequencies, as in moment and cov).
DValue BuiltinCall::buildMean() {
  Compose c(im, l);
  std::optional<Value> x = matrixArgument();
  if (!x)
    return {};
  if (!args.has(1))
    return DValue::scalar(
        AggOp::create(builder, l, im.f64(), AggKind::Mean, AggAxis::All, *x));
  std::optional<Value> weights = im.genMatrix(args[1], "'weights'");
  if (!weights)
    return {};
  return DValue::scalar(
      c.div(c.sum(c.cells<MulOp>(*x, *weights)), c.sum(*weights)));
}

DValue BuiltinCall::buildMoment() {
  // moment(X, order) and moment(X, W, order).
  auto positional = positionalArguments(2, 3);
  if (!positional)
    return {};
  Compose c(im, l);
  std::optional<Value> x = im.genMatrix((*positional)[0], "'moment'");
  if (!x)
    return {};
  c.checkColumnVector(*x, "the first argument of 'moment'");
  Value weights;
  if (positional->size() == 3) {
    std::optional<Value> given = weightsArgument((*positional)[1], *x);
    if (!given)
      return {};
    weights = *given;
  }
  const Expr *orderExpr = positional->back();
  std::optional<Value> order = im.genNumber(orderExpr, "the order");
  if (!order)
    return {};
  // SystemDS computes central moments of order 2, 3 and 4.
  auto badOrder = [](double k) { return k != 2 && k != 3 && k != 4; };
  FloatAttr constantOrder;
  if (matchPattern(*order, m_Constant(&constantOrder))) {
    if (badOrder(constantOrder.getValueAsDouble())) {
      im.error(orderExpr->getLoc())
          << "the order of 'moment' must be 2, 3 or 4, found "
          << constantOrder.getValueAsDouble();
      return {};
    }
  } else {
    c.checkMomentOrder(*order, "moment");
  }
  // Two passes: the (weighted) mean, then the mean power of the deviations.
  Value total = weights ? c.sum(weights) : c.f64(c.nrow(*x));
  Value weighted = weights ? c.cells<MulOp>(*x, weights) : *x;
  Value mean = c.div(c.sum(weighted), total);
  Value powers = c.cells<PowOp>(c.cells<SubOp>(*x, mean), *order);
  if (weights)
    powers = c.cells<MulOp>(powers, weights);
  return DValue::scalar(c.div(c.sum(powers), total));
}

DValue BuiltinCall::buildCov() {
  // cov(X, Y) and cov(X, Y, W): the sample covariance (divided by the
  // total weight minus one).
  auto positional = positionalArguments(2, 3);
  if (!positional)
    return {};
  Compose c(im, l);
  std::optional<Value> x = im.genMatrix((*positional)[0], "'cov'");
  std::optional<Value> y = im.genMatrix((*positional)[1], "'cov'");
  if (!x || !y)
    return {};
  c.checkColumnVector(*x, "the first argument of 'cov'");
  c.checkSameColumn(*y, *x, "the second argument of 'cov'");
  Value weights;
  if (positional->size() == 3) {
    std::optional<Value> given = weightsArgument((*positional)[2], *x);
    if (!given)
      return {};
    weights = *given;
  }
  auto weightedSum = [&](Value v) {
    return c.sum(weights ? c.cells<MulOp>(v, weights) : v);
  };
  Value total = weights ? c.sum(weights) : c.f64(c.nrow(*x));
  Value meanX = c.div(weightedSum(*x), total);
  Value meanY = c.div(weightedSum(*y), total);
  Value products =
      c.cells<MulOp>(c.cells<SubOp>(*x, meanX), c.cells<SubOp>(*y, meanY));
  return DValue::scalar(c.div(weightedSum(products), c.sub(total, c.num(1))));
}

//===----------------------------------------------------------------------===//
// Order statistics
//===----------------------------------------------------------------------===//

namespace {

/// The 1-based sorted positions (an f64, or a column vector of them) of
/// the first values whose cumulative weight reaches `position` (an f64, or
/// a column vector): the ceil(p * total) of quantiles.
Value firstReaching(Compose &c, const SortedValues &sorted, Value position,
                    bool vector) {
  if (!sorted.cumulative) {
    // Weights 1: the position itself, at least the first value.
    return vector ? c.cells<MaxOp>(position, c.num(1))
                  : c.max(position, c.num(1));
  }
  // Cumulative weights grow: count those below the position, plus one.
  if (!vector)
    return c.add(c.sum(c.cells<LtOp>(sorted.cumulative, position)), c.num(1));
  Value below =
      c.cells<LtOp>(c.repeatColumn(sorted.cumulative, c.nrow(position)),
                    c.transpose(position));
  return c.cells<AddOp>(c.transpose(c.colSums(below)), c.num(1));
}

} // namespace

std::optional<std::pair<Value, Value>>
BuiltinCall::orderStatisticArguments(size_t extra) {
  // f(X, ...) or f(X, W, ...): `extra` arguments after the weights.
  auto positional = positionalArguments(1 + extra, 2 + extra);
  if (!positional)
    return std::nullopt;
  std::optional<Value> x =
      im.genMatrix((*positional)[0], "'" + name.str() + "'");
  if (!x)
    return std::nullopt;
  Compose(im, l).checkColumnVector(*x, "the first argument of '" + name.str() +
                                           "'");
  Value weights;
  if (positional->size() == 2 + extra) {
    std::optional<Value> given = weightsArgument((*positional)[1], *x);
    if (!given)
      return std::nullopt;
    weights = *given;
  }
  return std::make_pair(*x, weights);
}

DValue BuiltinCall::buildQuantile() {
  // quantile(X, p), quantile(X, P), quantile(X, W, p), quantile(X, W, P).
  auto xw = orderStatisticArguments(1);
  if (!xw)
    return {};
  Compose c(im, l);
  const Expr *pExpr = call->args.back().value.get();
  DValue p = im.genOperand(pExpr, "the probabilities of 'quantile'");
  if (!p.isValid())
    return {};
  bool vector = p.isMatrix();
  if (vector)
    c.checkColumnVector(p.value, "the probabilities of 'quantile'");
  Value lowest = vector ? AggOp::create(builder, l, im.f64(), AggKind::Min,
                                        AggAxis::All, p.value)
                              .getResult()
                        : p.value;
  Value highest = vector ? AggOp::create(builder, l, im.f64(), AggKind::Max,
                                         AggAxis::All, p.value)
                               .getResult()
                         : p.value;
  // ULT/UGT: NaN is outside too.
  im.checkAtRunTime(l,
                    c.orI(c.cmp(arith::CmpFPredicate::ULT, lowest, c.num(0)),
                          c.cmp(arith::CmpFPredicate::UGT, highest, c.num(1))),
                    "quantile: probabilities must be in [0, 1], found {} to {}",
                    ValueRange{lowest, highest});
  SortedValues sorted = sortValues(c, xw->first, xw->second);
  if (!vector) {
    Value position = c.ceil(c.mul(p.value, sorted.total));
    return DValue::scalar(
        c.at(sorted.values, firstReaching(c, sorted, position, false)));
  }
  Value positions = CeilOp::create(builder, l, im.matrixType(),
                                   c.cells<MulOp>(p.value, sorted.total));
  Value rows = firstReaching(c, sorted, positions, true);
  // Gather the picked rows: a 0/1 selection matrix times the values.
  Value count = c.nrow(p.value);
  Value select =
      TableOp::create(builder, l, im.matrixType(), c.seq(c.f64(count)), rows,
                      Value(), count, c.nrow(sorted.values));
  return DValue::matrix(c.matmul(select, sorted.values));
}

DValue BuiltinCall::buildMedian() {
  // median(X) and median(X, W): for an even total weight whose half falls
  // on the boundary between two values, their mean.
  auto xw = orderStatisticArguments(0);
  if (!xw)
    return {};
  Compose c(im, l);
  SortedValues sorted = sortValues(c, xw->first, xw->second);
  Value half = c.ceil(c.mul(sorted.total, c.num(0.5)));
  Value row = firstReaching(c, sorted, half, false);
  Value value = c.at(sorted.values, row);
  Value reached = sorted.cumulative ? c.at(sorted.cumulative, row) : row;
  Value even = c.cmp(arith::CmpFPredicate::OEQ,
                     arith::RemFOp::create(builder, l, sorted.total, c.num(2)),
                     c.num(0));
  Value onBoundary = arith::AndIOp::create(
      builder, l, even, c.cmp(arith::CmpFPredicate::OEQ, reached, half));
  Value last = c.f64(c.nrow(sorted.values));
  Value next =
      c.at(sorted.values,
           arith::MinimumFOp::create(builder, l, c.add(row, c.num(1)), last));
  Value mean = c.mul(c.add(value, next), c.num(0.5));
  return DValue::scalar(c.select(onBoundary, mean, value));
}

DValue BuiltinCall::buildInterQuartileMean() {
  // The mean of the sorted values between the total weight's quartiles:
  // value i covers (cumulative[i] - weight[i], cumulative[i]] of the total;
  // its part inside (total / 4, 3 total / 4] counts.
  auto xw = orderStatisticArguments(0);
  if (!xw)
    return {};
  Compose c(im, l);
  SortedValues sorted = sortValues(c, xw->first, xw->second);
  Value ends = sorted.cumulative ? sorted.cumulative : c.seq(sorted.total);
  Value starts = sorted.weights ? c.cells<SubOp>(ends, sorted.weights)
                                : c.cells<SubOp>(ends, c.num(1));
  Value first = c.mul(sorted.total, c.num(0.25));
  Value last = c.mul(sorted.total, c.num(0.75));
  Value inside =
      c.cells<SubOp>(c.cells<MinOp>(ends, last), c.cells<MaxOp>(starts, first));
  Value parts = c.cells<MaxOp>(inside, c.num(0));
  return DValue::scalar(c.div(c.sum(c.cells<MulOp>(sorted.values, parts)),
                              c.mul(sorted.total, c.num(0.5))));
}

//===----------------------------------------------------------------------===//
// Grouped aggregates
//===----------------------------------------------------------------------===//

DValue BuiltinCall::buildGroupedAggregate() {
  // aggregate(target=X, groups=G, fn=..., weights=W, order=k, ngroups=n):
  // one row per group 1..n (n defaults to max(G)), one column per column
  // of X. Sums are products with the n x groups indicator matrix.
  Compose c(im, l);
  std::optional<Value> x = im.genMatrix(args[0], "'target'");
  std::optional<Value> groups = im.genMatrix(args[1], "'groups'");
  std::optional<std::string> fn = im.genConstantString(args[2], "'fn'");
  if (!x || !groups || !fn)
    return {};
  enum class Fn { Sum, Count, Mean, Variance, CentralMoment };
  std::optional<Fn> kind = llvm::StringSwitch<std::optional<Fn>>(*fn)
                               .Case("sum", Fn::Sum)
                               .Case("count", Fn::Count)
                               .Case("mean", Fn::Mean)
                               .Case("variance", Fn::Variance)
                               .Case("centralmoment", Fn::CentralMoment)
                               .Default(std::nullopt);
  if (!kind) {
    im.error(args[2]->getLoc())
        << "unsupported aggregate function \"" << *fn
        << "\": expected \"sum\", \"count\", \"mean\", \"variance\" or "
           "\"centralmoment\"";
    return {};
  }
  c.checkSameColumn(*groups, *x, "the groups of 'aggregate'");
  Value weights;
  if (args.has(3)) {
    std::optional<Value> given = weightsArgument(args[3], *x);
    if (!given)
      return {};
    weights = *given;
  }
  Value order;
  if (*kind == Fn::CentralMoment) {
    if (!args.has(4)) {
      im.error(where) << "aggregate(fn=\"centralmoment\") needs 'order'";
      return {};
    }
    std::optional<Value> given = im.genNumber(args[4], "'order'");
    if (!given)
      return {};
    order = *given;
    c.checkMomentOrder(order, "aggregate");
  } else if (args.has(4)) {
    im.error(args[4]->getLoc())
        << "'order' is only for aggregate(fn=\"centralmoment\")";
    return {};
  }
  Value rows = c.nrow(*x);
  Value rowNumbers = c.seq(c.f64(rows));
  Value indicator;
  if (args.has(5)) {
    std::optional<Value> count = im.genNumber(args[5], "'ngroups'");
    if (!count)
      return {};
    indicator = TableOp::create(builder, l, im.matrixType(), rowNumbers,
                                *groups, Value(), rows, im.toIndex(l, *count));
  } else {
    indicator = TableOp::create(builder, l, im.matrixType(), rowNumbers,
                                *groups, Value(), Value(), Value());
  }
  Value byGroup = c.transpose(indicator);
  auto groupSums = [&](Value v) {
    return c.matmul(byGroup, weights ? c.cells<MulOp>(v, weights) : v);
  };
  Value counts = groupSums(c.fill(c.num(1), rows, c.ncol(*x)));
  if (*kind == Fn::Count)
    return DValue::matrix(counts);
  Value sums = groupSums(*x);
  if (*kind == Fn::Sum)
    return DValue::matrix(sums);
  Value means = c.cells<DivOp>(sums, counts);
  if (*kind == Fn::Mean)
    return DValue::matrix(means);
  // Deviations from each row's group mean (an empty group's NaN mean
  // would reach every row through the product: 0 * NaN).
  Value definedMeans =
      IfElseOp::create(builder, l, im.matrixType(),
                       c.cells<EqOp>(counts, c.num(0)), c.num(0), means);
  Value deviations = c.cells<SubOp>(*x, c.matmul(indicator, definedMeans));
  Value power = order ? order : c.num(2);
  Value moments = groupSums(c.cells<PowOp>(deviations, power));
  if (*kind == Fn::CentralMoment)
    return DValue::matrix(c.cells<DivOp>(moments, counts));
  // The sample variance; 0 for a group of one value, as in SystemDS (and
  // for an empty group).
  Value variance = c.cells<DivOp>(moments, c.cells<SubOp>(counts, c.num(1)));
  return DValue::matrix(IfElseOp::create(builder, l, im.matrixType(),
                                         c.cells<LeOp>(counts, c.num(1)),
                                         c.num(0), variance));
}

//===----------------------------------------------------------------------===//
// outer, sample, unique, countDistinct
//===----------------------------------------------------------------------===//

DValue BuiltinCall::buildOuter() {
  // outer(A, B, op): result[i, j] = A[i] op B[j] for a column vector A and
  // a row vector B.
  DValue a = im.genOperand(args[0], "the first argument of 'outer'");
  DValue b = im.genOperand(args[1], "the second argument of 'outer'");
  std::optional<std::string> op = im.genConstantString(args[2], "'op'");
  if (!a.isValid() || !b.isValid() || !op)
    return {};
  // The element-wise operators, by their DML spelling.
  std::optional<BinaryOp> binary;
  for (BinaryOp candidate :
       {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div,
        BinaryOp::Pow, BinaryOp::Mod, BinaryOp::IntDiv, BinaryOp::Lt,
        BinaryOp::Le, BinaryOp::Gt, BinaryOp::Ge, BinaryOp::Eq, BinaryOp::Ne,
        BinaryOp::And, BinaryOp::Or})
    if (spelling(candidate) == *op)
      binary = candidate;
  bool isMin = *op == "min", isMax = *op == "max";
  if (!binary && !isMin && !isMax) {
    im.error(args[2]->getLoc())
        << "unsupported operation \"" << *op
        << "\" for 'outer': expected one of + - * / ^ %% %/% < <= > >= == != "
           "& | min max";
    return {};
  }
  Compose c(im, l);
  Value left = im.asMatrix(l, a), right = im.asMatrix(l, b);
  c.checkColumnVector(left, "the first argument of 'outer'");
  im.checkAtRunTime(
      l, c.cmpIndex(arith::CmpIPredicate::ne, c.nrow(right), c.index(1)),
      "the second argument of 'outer' must be a row vector, found {} rows",
      c.count(c.nrow(right)));
  // Copies of A, one per column of B; B then broadcasts as a row vector.
  Value copies = c.repeatColumn(left, c.ncol(right));
  if (isMin)
    return DValue::matrix(c.cells<MinOp>(copies, right));
  if (isMax)
    return DValue::matrix(c.cells<MaxOp>(copies, right));
  return im.genBinary(*binary, DValue::matrix(copies), DValue::matrix(right),
                      where);
}

DValue BuiltinCall::buildSample() {
  // sample(range, size[, replace][, seed]) and sample(range, size, seed):
  // a column vector of `size` integers from 1..range.
  Compose c(im, l);
  std::optional<Value> range = im.genNumber(args[0], "'range'");
  std::optional<Value> size = im.genNumber(args[1], "'size'");
  if (!range || !size)
    return {};
  bool replace = false;
  const Expr *seedExpr = args.has(3) ? args[3] : nullptr;
  if (args.has(2)) {
    // The third argument is `replace` if a boolean, else the seed.
    bool named = llvm::any_of(
        call->args, [](const Argument &arg) { return arg.name == "replace"; });
    DValue third = im.gen(args[2]);
    if (!third.isValid())
      return {};
    BoolAttr flag;
    if (third.kind == DValue::Kind::Bool) {
      if (!matchPattern(third.value, m_Constant(&flag))) {
        im.error(args[2]->getLoc()) << "'replace' of 'sample' must be known "
                                       "before the script runs";
        return {};
      }
      replace = flag.getValue();
    } else if (third.kind == DValue::Kind::Scalar && !named && !seedExpr) {
      seedExpr = args[2];
    } else {
      im.error(args[2]->getLoc()) << "expected TRUE or FALSE for 'replace', "
                                     "found "
                                  << kindName(third.kind);
      return {};
    }
  }
  Value seed;
  if (seedExpr) {
    std::optional<Value> given = seedArgument(seedExpr);
    if (!given)
      return {};
    seed = *given;
  }
  im.checkAtRunTime(
      l,
      c.orI(c.cmp(arith::CmpFPredicate::ULT, *range, c.num(1)),
            c.cmp(arith::CmpFPredicate::ULT, *size, c.num(0))),
      "sample: expected a range of 1 or more and a size of 0 or more, found "
      "range {} and size {}",
      ValueRange{*range, *size});
  Value zero = c.num(0), one = c.num(1);
  if (replace) {
    auto [rows, cols] = im.toSizes(l, *size, one, "sample");
    Value uniform = RandOp::create(builder, l, im.matrixType(), rows, cols,
                                   zero, one, one, seed, RandPdf::Uniform);
    // floor(u * range) + 1 is in 1..range; the min guards rounding up.
    Value draws =
        c.cells<AddOp>(FloorOp::create(builder, l, im.matrixType(),
                                       c.cells<MulOp>(uniform, *range)),
                       one);
    return DValue::matrix(c.cells<MinOp>(draws, *range));
  }
  im.checkAtRunTime(l, c.cmp(arith::CmpFPredicate::OGT, *size, *range),
                    "sample: cannot draw {} values from 1..{} without "
                    "replacement",
                    ValueRange{*size, *range});
  // The first `size` of a random permutation: the order of uniform keys.
  auto [rows, cols] = im.toSizes(l, *range, one, "sample");
  Value keys = RandOp::create(builder, l, im.matrixType(), rows, cols, zero,
                              one, one, seed, RandPdf::Uniform);
  Value permutation = OrderOp::create(builder, l, im.matrixType(), keys,
                                      c.index(0), /*decreasing=*/false,
                                      /*indices=*/true);
  return DValue::matrix(c.rows(permutation, c.index(0), im.toIndex(l, *size)));
}

std::optional<Value> BuiltinCall::distinctValues(const Expr *dir) {
  std::optional<Value> x = matrixArgument();
  if (!x)
    return std::nullopt;
  if (dir) {
    std::optional<std::string> text = im.genConstantString(dir, "'dir'");
    if (!text)
      return std::nullopt;
    if (*text != "rc") {
      im.error(dir->getLoc()) << "'" << name << "' with dir=\"" << *text
                              << "\" is not supported: only dir=\"rc\" (all "
                                 "cells)";
      return std::nullopt;
    }
  }
  Compose c(im, l);
  Value cells = arith::MulIOp::create(builder, l, c.nrow(*x), c.ncol(*x));
  Value sorted = c.sort(
      ReshapeOp::create(builder, l, im.matrixType(), *x, cells, c.index(1)));
  // Keep each value that differs from the one before it; NaN differs from
  // everything, so the first value is always kept.
  Value nan = c.fill(c.num(NAN), c.index(1), c.index(1));
  Value changes = c.cells<NeOp>(c.rbind({sorted, nan}), c.rbind({nan, sorted}));
  return RemoveEmptyOp::create(builder, l, im.matrixType(), Margin::Rows,
                               sorted, c.rows(changes, c.index(0), cells))
      .getResult();
}

DValue BuiltinCall::buildUnique() {
  // The distinct values of all cells, as a sorted column vector.
  std::optional<Value> values = distinctValues(args.has(1) ? args[1] : nullptr);
  if (!values)
    return {};
  return DValue::matrix(*values);
}

DValue BuiltinCall::buildCountDistinct() {
  std::optional<Value> values = distinctValues(args.has(1) ? args[1] : nullptr);
  if (!values)
    return {};
  return DValue::integerScalar(im.indexToF64(
      l, NRowOp::create(builder, l, builder.getIndexType(), *values)));
}

//===----------------------------------------------------------------------===//
// contains, xor, assert, bias_add, bias_multiply
//===----------------------------------------------------------------------===//

DValue BuiltinCall::buildContains() {
  // Whether any cell equals the pattern; a NaN pattern finds NaN cells.
  Compose c(im, l);
  std::optional<Value> x = im.genMatrix(args[0], "'target'");
  std::optional<Value> pattern = im.genNumber(args[1], "'pattern'");
  if (!x || !pattern)
    return {};
  auto found = [&](Value matches) {
    return c.cmp(arith::CmpFPredicate::OGT, c.sum(matches), c.num(0));
  };
  Value equal = found(c.cells<EqOp>(*x, *pattern));
  FloatAttr constant;
  if (matchPattern(*pattern, m_Constant(&constant)) &&
      !std::isnan(constant.getValueAsDouble()))
    return DValue::boolean(equal);
  Value nanFound = found(IsNaNOp::create(builder, l, im.matrixType(), *x));
  Value isNaN = c.cmp(arith::CmpFPredicate::UNO, *pattern, *pattern);
  return DValue::boolean(c.select(isNaN, nanFound, equal));
}

DValue BuiltinCall::buildXor() {
  DValue a = im.genOperand(args[0], "the first argument of 'xor'");
  DValue b = im.genOperand(args[1], "the second argument of 'xor'");
  if (!a.isValid() || !b.isValid())
    return {};
  Compose c(im, l);
  // Non-zero (NaN included) is true, as for & and |.
  if (a.isMatrix() || b.isMatrix())
    return DValue::matrix(c.cells<NeOp>(c.cells<NeOp>(a.value, c.num(0)),
                                        c.cells<NeOp>(b.value, c.num(0))));
  return DValue::boolean(
      arith::XOrIOp::create(builder, l, im.toI1(l, a), im.toI1(l, b)));
}

DValue BuiltinCall::buildAssert() {
  DValue condition = im.gen(args[0]);
  if (!condition.isValid())
    return {};
  if (!condition.isNumeric()) {
    im.error(args[0]->getLoc()) << "expected a boolean for 'assert', found "
                                << kindName(condition.kind);
    return {};
  }
  Value failed = arith::XOrIOp::create(builder, l, im.toI1(l, condition),
                                       im.boolConstant(l, true));
  im.checkAtRunTime(l, failed, "assertion failed");
  return {};
}

DValue BuiltinCall::buildBias() {
  // bias_add(X, b) and bias_multiply(X, b): X has C blocks of columns (one
  // per channel), b one value per channel (C x 1).
  Compose c(im, l);
  std::optional<Value> x = im.genMatrix(args[0], "'input'");
  std::optional<Value> bias = im.genMatrix(args[1], "'bias'");
  if (!x || !bias)
    return {};
  Value channels = c.nrow(*bias), cols = c.ncol(*x);
  Value bad =
      c.orI(c.cmpIndex(arith::CmpIPredicate::ne, c.ncol(*bias), c.index(1)),
            c.orI(c.cmpIndex(arith::CmpIPredicate::eq, channels, c.index(0)),
                  c.cmpIndex(arith::CmpIPredicate::ne,
                             arith::RemUIOp::create(builder, l, cols, channels),
                             c.index(0))));
  // Guard the division below: the check stops the run first.
  im.checkAtRunTime(
      l, bad,
      "'" + name +
          "': the bias must be a column vector whose "
          "length divides the {} columns of the "
          "input, found {} x {}",
      ValueRange{c.count(cols), c.count(channels), c.count(c.ncol(*bias))});
  Value safeChannels = arith::MaxUIOp::create(builder, l, channels, c.index(1));
  Value perChannel = arith::DivUIOp::create(builder, l, cols, safeChannels);
  // Each channel's value repeated over its block of columns, as a row.
  Value row =
      ReshapeOp::create(builder, l, im.matrixType(),
                        c.repeatColumn(*bias, perChannel), c.index(1), cols);
  if (name == "bias_add")
    return DValue::matrix(c.cells<AddOp>(*x, row));
  return DValue::matrix(c.cells<MulOp>(*x, row));
}
