//===- ParforDependences.cpp - Are a parfor's iterations independent? -----===//
//
// Each shared matrix of an amls.parfor is followed from the body's block
// argument through its versions (amls.insert_slice results, values carried
// through scf.if/scf.for/scf.while and nested parfors) to the yield. Every
// insert_slice into a version is a write of a box of rows x columns, every
// slice of one a read; any other use reads the whole matrix, which another
// iteration may be writing: a dependency. The boxes' bounds are parsed into
// polynomials in the iteration number k (the body's index argument) and
// loop-invariant values; a dimension separates the iterations when all
// accesses of iteration k lie in one window of the stride (header comment
// of ParforDependences.h).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Analysis/ParforDependences.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <map>
#include <numeric>

using namespace mlir;
using namespace mlir::amls;

namespace {

constexpr double kEpsilon = 1e-9;

/// A polynomial over SSA values: coefficient per monomial (a sorted list of
/// values; the empty list is the constant term).
struct Poly {
  using Monomial = std::vector<const void *>;
  std::map<Monomial, double> terms;

  static Poly constant(double c) {
    Poly p;
    if (std::abs(c) > kEpsilon)
      p.terms[{}] = c;
    return p;
  }
  static Poly atom(Value v) {
    Poly p;
    p.terms[{v.getAsOpaquePointer()}] = 1.0;
    return p;
  }
  Poly operator+(const Poly &other) const {
    Poly sum = *this;
    for (auto &[monomial, c] : other.terms)
      sum.terms[monomial] += c;
    sum.prune();
    return sum;
  }
  Poly scaled(double factor) const {
    Poly p;
    for (auto &[monomial, c] : terms)
      p.terms[monomial] = c * factor;
    p.prune();
    return p;
  }
  Poly operator-(const Poly &other) const { return *this + other.scaled(-1); }
  Poly operator*(const Poly &other) const {
    Poly product;
    for (auto &[m1, c1] : terms)
      for (auto &[m2, c2] : other.terms) {
        Monomial m = m1;
        m.insert(m.end(), m2.begin(), m2.end());
        llvm::sort(m);
        product.terms[m] += c1 * c2;
      }
    product.prune();
    return product;
  }
  void prune() {
    for (auto it = terms.begin(); it != terms.end();)
      it = std::abs(it->second) <= kEpsilon ? terms.erase(it) : std::next(it);
  }
  std::optional<double> asConstant() const {
    if (terms.empty())
      return 0.0;
    if (terms.size() == 1 && terms.begin()->first.empty())
      return terms.begin()->second;
    return std::nullopt;
  }
  bool operator==(const Poly &other) const {
    return (*this - other).terms.empty();
  }
};

/// Which side of a range a bound is: min(a, b) is an upper bound of a range
/// end, max(a, b) a lower bound of its begin.
enum class Bound { Lower, Upper };
Bound flip(Bound b) { return b == Bound::Lower ? Bound::Upper : Bound::Lower; }

/// An access of a shared matrix: a box of rows and columns.
struct Access {
  Operation *op;
  bool write;
  Value begin[2], end[2];
};

class Analysis {
public:
  explicit Analysis(ParforOp parfor)
      : parfor(parfor), iteration(parfor.getBody().getArgument(0)) {}

  SharedMatrixDependence analyze(BlockArgument shared, unsigned position);

private:
  bool isInvariant(Value v);
  std::optional<Poly> parse(Value v, Bound bound, unsigned depth = 0);
  /// Whether `v` is an integer by construction (integer types, integer
  /// constants, and +, -, * of integers): rounding it changes nothing.
  bool isIntegral(Value v, unsigned depth = 0);
  /// Follows a version of the matrix to its uses; false after a
  /// dependency (in `result`).
  bool follow(Value version, unsigned position, SharedMatrixDependence &result);
  bool separates(int dimension, SharedMatrixDependence &result);
  bool gcdSeparates(int dimension);

  ParforOp parfor;
  Value iteration;
  llvm::DenseMap<Value, bool> invariant;
  /// How many min/max a parse replaced by one operand (a bound, not the
  /// value): a product or quotient of such a bound is only a bound when the
  /// other factor is a nonnegative constant.
  unsigned boundChoices = 0;
  llvm::DenseSet<Value> visited;
  std::vector<Access> accesses;
};

bool Analysis::isInvariant(Value v) {
  if (!parfor->isAncestor(v.getParentRegion()->getParentOp()))
    return true; // defined outside the loop
  if (auto it = invariant.find(v); it != invariant.end())
    return it->second;
  Operation *def = v.getDefiningOp();
  bool result = def && isMemoryEffectFree(def) && def->getNumRegions() == 0 &&
                llvm::all_of(def->getOperands(),
                             [&](Value operand) { return isInvariant(operand); });
  invariant[v] = result;
  return result;
}

bool Analysis::isIntegral(Value v, unsigned depth) {
  if (depth > 64)
    return false;
  if (v.getType().isIntOrIndex())
    return true;
  FloatAttr floatAttr;
  if (matchPattern(v, m_Constant(&floatAttr))) {
    double c = floatAttr.getValueAsDouble();
    return c == std::floor(c);
  }
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<arith::SIToFPOp, arith::UIToFPOp, math::FloorOp, math::CeilOp,
          math::RoundOp>(def))
    return true;
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::SelectOp,
          arith::MinimumFOp, arith::MaximumFOp, arith::MinNumFOp,
          arith::MaxNumFOp>(def))
    return llvm::all_of(def->getOperands(), [&](Value operand) {
      return operand.getType().isInteger(1) || isIntegral(operand, depth + 1);
    });
  return false;
}

std::optional<Poly> Analysis::parse(Value v, Bound bound, unsigned depth) {
  if (depth > 64)
    return std::nullopt;
  if (v == iteration)
    return Poly::atom(v);
  if (auto constant = getConstantIntValue(v))
    return Poly::constant(static_cast<double>(*constant));
  FloatAttr floatAttr;
  if (matchPattern(v, m_Constant(&floatAttr)))
    return Poly::constant(floatAttr.getValueAsDouble());
  Operation *def = v.getDefiningOp();
  auto operand = [&](unsigned i, Bound b) {
    return parse(def->getOperand(i), b, depth + 1);
  };
  auto both = [&](auto combine, Bound rhsBound) -> std::optional<Poly> {
    std::optional<Poly> lhs = operand(0, bound), rhs = operand(1, rhsBound);
    if (!lhs || !rhs)
      return std::nullopt;
    return combine(*lhs, *rhs);
  };
  // min(a, b) <= a: an upper bound keeps the operand that depends on the
  // iteration (min(i * B, N) for the last block's end).
  auto choose = [&](Bound allowed) -> std::optional<Poly> {
    if (bound != allowed)
      return std::nullopt;
    ++boundChoices;
    std::optional<Poly> fallback;
    for (unsigned i = 0; i < 2; ++i)
      if (std::optional<Poly> p = operand(i, bound)) {
        for (auto &[monomial, c] : p->terms)
          if (llvm::is_contained(monomial, iteration.getAsOpaquePointer()))
            return p;
        fallback = p;
      }
    return fallback;
  };
  if (def) {
    std::optional<std::optional<Poly>> parsed =
        llvm::TypeSwitch<Operation *, std::optional<std::optional<Poly>>>(def)
            .Case<arith::AddIOp, arith::AddFOp>([&](auto) {
              return both([](Poly a, Poly b) { return a + b; }, bound);
            })
            .Case<arith::SubIOp, arith::SubFOp>([&](auto) {
              return both([](Poly a, Poly b) { return a - b; }, flip(bound));
            })
            .Case<arith::MulIOp, arith::MulFOp>([&](auto) -> std::optional<Poly> {
              unsigned before = boundChoices;
              std::optional<Poly> lhs = operand(0, bound);
              unsigned afterLhs = boundChoices;
              std::optional<Poly> rhs = operand(1, bound);
              if (!lhs || !rhs)
                return std::nullopt;
              // A bound times a negative or unknown factor is no bound.
              auto nonnegative = [](const Poly &p) {
                std::optional<double> c = p.asConstant();
                return c && *c >= 0;
              };
              if ((afterLhs != before && !nonnegative(*rhs)) ||
                  (boundChoices != afterLhs && !nonnegative(*lhs)))
                return std::nullopt;
              return *lhs * *rhs;
            })
            .Case<arith::DivFOp>([&](auto) -> std::optional<Poly> {
              unsigned before = boundChoices;
              std::optional<Poly> lhs = operand(0, bound);
              bool boundedLhs = boundChoices != before;
              std::optional<Poly> rhs = operand(1, bound);
              std::optional<double> c = rhs ? rhs->asConstant() : std::nullopt;
              if (!lhs || !c || std::abs(*c) <= kEpsilon ||
                  (boundedLhs && *c < 0) || boundChoices != before + boundedLhs)
                return std::nullopt;
              return lhs->scaled(1.0 / *c);
            })
            .Case<arith::IndexCastOp, arith::SIToFPOp, arith::ExtSIOp>(
                [&](auto) { return operand(0, bound); })
            // Rounding is the identity only on integers: floor(i / 2) or
            // i %% 2 is not i / 2.
            .Case<arith::FPToSIOp, math::FloorOp, math::RoundOp>(
                [&](auto) -> std::optional<Poly> {
                  if (!isIntegral(def->getOperand(0)))
                    return std::nullopt;
                  return operand(0, bound);
                })
            .Case<arith::MinSIOp, arith::MinimumFOp, arith::MinNumFOp>(
                [&](auto) { return choose(Bound::Upper); })
            .Case<arith::MaxSIOp, arith::MaximumFOp, arith::MaxNumFOp>(
                [&](auto) { return choose(Bound::Lower); })
            .Default([](Operation *) { return std::nullopt; });
    if (parsed)
      return *parsed;
  }
  // Loop-invariant values and the counters of loops inside the body are
  // atoms; anything else computed in the body is not understood.
  if (isInvariant(v))
    return Poly::atom(v);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(owner))
      if (arg == loop.getInductionVar())
        return Poly::atom(v);
    if (isa<ParforOp>(owner) && arg.getArgNumber() == 0)
      return Poly::atom(v);
  }
  return std::nullopt;
}

bool Analysis::follow(Value version, unsigned position,
                      SharedMatrixDependence &result) {
  if (!visited.insert(version).second)
    return true;
  for (OpOperand &use : version.getUses()) {
    Operation *user = use.getOwner();
    unsigned index = use.getOperandNumber();
    auto dependency = [&](const std::string &why) {
      result.reason = why;
      result.first = user;
      return false;
    };
    if (auto insert = dyn_cast<InsertSliceOp>(user)) {
      if (use.get() != insert.getDest())
        return dependency("inserted as a whole into another matrix");
      accesses.push_back({user,
                          true,
                          {insert.getRowBegin(), insert.getColBegin()},
                          {insert.getRowEnd(), insert.getColEnd()}});
      ++result.writes;
      if (!follow(insert.getResult(), position, result))
        return false;
    } else if (auto slice = dyn_cast<SliceOp>(user)) {
      accesses.push_back({user,
                          false,
                          {slice.getRowBegin(), slice.getColBegin()},
                          {slice.getRowEnd(), slice.getColEnd()}});
      ++result.reads;
    } else if (isa<NRowOp, NColOp>(user)) {
      continue; // the sizes do not change
    } else if (auto yield = dyn_cast<YieldOp>(user)) {
      Operation *parent = yield->getParentOp();
      if (parent == parfor.getOperation()) {
        if (index != position)
          return dependency("yielded as another shared matrix");
        continue;
      }
      auto nested = dyn_cast<ParforOp>(parent);
      if (!nested)
        return dependency("read as a whole");
      if (!follow(nested.getResult(index), position, result))
        return false;
    } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      Operation *parent = yield->getParentOp();
      if (!isa<scf::IfOp, scf::ForOp, scf::WhileOp>(parent))
        return dependency("read as a whole");
      // A while loop's body yields into its condition region's arguments
      // (below), not into its results.
      if (!isa<scf::WhileOp>(parent) &&
          !follow(parent->getResult(index), position, result))
        return false;
      // A loop carries the version into its next iteration.
      if (auto loop = dyn_cast<scf::ForOp>(parent))
        if (!follow(loop.getRegionIterArgs()[index], position, result))
          return false;
      if (auto loop = dyn_cast<scf::WhileOp>(parent))
        if (!follow(loop.getBeforeArguments()[index], position, result))
          return false;
    } else if (auto loop = dyn_cast<scf::ForOp>(user)) {
      unsigned iterArg = index - loop.getNumControlOperands();
      if (!follow(loop.getRegionIterArgs()[iterArg], position, result) ||
          !follow(loop.getResult(iterArg), position, result))
        return false;
    } else if (auto loop = dyn_cast<scf::WhileOp>(user)) {
      if (!follow(loop.getBeforeArguments()[index], position, result))
        return false;
    } else if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
      auto loop = cast<scf::WhileOp>(condition->getParentOp());
      if (index == 0)
        return dependency("read as a whole");
      if (!follow(loop.getAfterArguments()[index - 1], position, result) ||
          !follow(loop.getResult(index - 1), position, result))
        return false;
    } else if (auto nested = dyn_cast<ParforOp>(user)) {
      unsigned shared = index - 3;
      if (index < 3)
        return dependency("read as a whole");
      if (!follow(nested.getBody().getArgument(shared + 1), position, result) ||
          !follow(nested.getResult(shared), position, result))
        return false;
    } else {
      return dependency("read as a whole");
    }
  }
  return true;
}

/// Splits `p` into s * k + rest; fails when k appears otherwise (k^2, or
/// times a value the body computes).
static std::optional<std::pair<Poly, Poly>>
splitIteration(const Poly &p, const void *k,
               llvm::function_ref<bool(const void *)> isInvariantAtom) {
  Poly stride, rest;
  for (auto &[monomial, c] : p.terms) {
    unsigned ks = llvm::count(monomial, k);
    if (ks > 1)
      return std::nullopt;
    Poly::Monomial others;
    for (const void *atom : monomial)
      if (atom != k)
        others.push_back(atom);
    if (ks == 1) {
      if (!llvm::all_of(others, isInvariantAtom))
        return std::nullopt;
      stride.terms[others] += c;
    } else {
      // The window's offset must not vary within the iteration.
      if (!llvm::all_of(others, isInvariantAtom))
        return std::nullopt;
      rest.terms[monomial] += c;
    }
  }
  return std::make_pair(stride, rest);
}

bool Analysis::separates(int dimension, SharedMatrixDependence &result) {
  const void *k = iteration.getAsOpaquePointer();
  auto isInvariantAtom = [&](const void *atom) {
    return isInvariant(Value::getFromOpaquePointer(atom));
  };
  std::optional<Poly> stride;
  std::vector<Poly> begins, ends;
  for (const Access &access : accesses) {
    std::optional<Poly> b = parse(access.begin[dimension], Bound::Lower);
    std::optional<Poly> e = parse(access.end[dimension], Bound::Upper);
    if (!b || !e)
      return false;
    auto sb = splitIteration(*b, k, isInvariantAtom);
    auto se = splitIteration(*e, k, isInvariantAtom);
    if (!sb || !se || !(sb->first == se->first))
      return false;
    if (!stride)
      stride = sb->first;
    else if (!(*stride == sb->first))
      return false;
    begins.push_back(sb->second);
    ends.push_back(se->second);
  }
  if (!stride || stride->terms.empty())
    return false;
  // |s|: a constant; c * select(p, a, -a) (the step of a DML loop whose
  // direction is known at run time only) is |c| * |a|; otherwise a
  // symbolic stride whose terms agree in sign.
  Poly width = *stride;
  auto [monomial, coefficient] = *stride->terms.begin();
  FloatAttr a, b;
  IntegerAttr ia, ib;
  std::optional<double> magnitude;
  if (stride->terms.size() == 1 && monomial.size() == 1)
    if (auto select = Value::getFromOpaquePointer(monomial[0])
                          .getDefiningOp<arith::SelectOp>()) {
      if (matchPattern(select.getTrueValue(), m_Constant(&a)) &&
          matchPattern(select.getFalseValue(), m_Constant(&b)) &&
          std::abs(a.getValueAsDouble()) == std::abs(b.getValueAsDouble()))
        magnitude = std::abs(coefficient * a.getValueAsDouble());
      else if (matchPattern(select.getTrueValue(), m_Constant(&ia)) &&
               matchPattern(select.getFalseValue(), m_Constant(&ib)) &&
               std::abs(ia.getInt()) == std::abs(ib.getInt()))
        magnitude = std::abs(coefficient * ia.getInt());
    }
  if (magnitude) {
    width = Poly::constant(*magnitude);
  } else {
    bool positive = llvm::all_of(stride->terms,
                                 [](auto &term) { return term.second > 0; });
    bool negative = llvm::all_of(stride->terms,
                                 [](auto &term) { return term.second < 0; });
    if (!positive && !negative)
      return false;
    if (negative)
      width = width.scaled(-1);
  }
  if (width.terms.empty())
    return false;
  // Every access of an iteration within one window of that width.
  for (const Poly &end : ends)
    for (const Poly &begin : begins) {
      std::optional<double> excess = (end - begin - width).asConstant();
      if (!excess || *excess > kEpsilon)
        return false;
    }
  result.dimension = dimension;
  if (std::optional<double> c = width.asConstant())
    result.how = "stride " + std::to_string(static_cast<int64_t>(*c));
  else
    result.how = "a stride known at run time";
  return true;
}

bool Analysis::gcdSeparates(int dimension) {
  // Single cells s_a * k + b_a, constant integers: two accesses meet in
  // different iterations only if gcd(s_a, s_b) divides b_b - b_a (and, for
  // equal strides, only when b_a == b_b, in the same iteration).
  struct Cell {
    int64_t stride, offset;
  };
  std::vector<Cell> cells;
  const void *k = iteration.getAsOpaquePointer();
  for (const Access &access : accesses) {
    std::optional<Poly> b = parse(access.begin[dimension], Bound::Lower);
    std::optional<Poly> e = parse(access.end[dimension], Bound::Upper);
    if (!b || !e)
      return false;
    std::optional<double> length = (*e - *b).asConstant();
    if (!length || std::abs(*length - 1) > kEpsilon)
      return false;
    double stride = 0, offset = 0;
    for (auto &[monomial, c] : b->terms) {
      if (monomial.empty())
        offset = c;
      else if (monomial.size() == 1 && monomial[0] == k)
        stride = c;
      else
        return false;
    }
    if (stride != std::floor(stride) || offset != std::floor(offset) ||
        stride == 0)
      return false;
    cells.push_back({static_cast<int64_t>(stride), static_cast<int64_t>(offset)});
  }
  for (const Cell &a : cells)
    for (const Cell &b : cells) {
      int64_t difference = b.offset - a.offset;
      if (a.stride == b.stride) {
        if (difference % a.stride != 0)
          continue; // never the same cell
        if (difference != 0)
          return false; // iterations difference / stride apart meet
        continue;
      }
      if (difference % std::gcd(a.stride, b.stride) == 0)
        return false;
    }
  return !cells.empty();
}

/// The values that flow into `version` where control flow merges: both
/// branches' yields for an scf.if result, the initial value and the body's
/// yield for a loop result (scf.for, nested parfor) or a while loop's state.
static SmallVector<Value> mergedSources(Value version) {
  SmallVector<Value> sources;
  auto yielded = [](Block &block, unsigned index) {
    return block.getTerminator()->getOperand(index);
  };
  if (auto argument = dyn_cast<BlockArgument>(version)) {
    auto loop = dyn_cast<scf::WhileOp>(argument.getOwner()->getParentOp());
    if (loop && argument.getOwner() == loop.getBeforeBody()) {
      unsigned index = argument.getArgNumber();
      sources = {loop.getInits()[index], yielded(*loop.getAfterBody(), index)};
    }
    return sources;
  }
  auto result = cast<OpResult>(version);
  Operation *owner = result.getOwner();
  unsigned index = result.getResultNumber();
  if (auto branches = dyn_cast<scf::IfOp>(owner)) {
    for (Region *region :
         {&branches.getThenRegion(), &branches.getElseRegion()})
      if (!region->empty())
        sources.push_back(yielded(region->front(), index));
  } else if (auto loop = dyn_cast<scf::ForOp>(owner)) {
    sources = {loop.getInitArgs()[index], yielded(*loop.getBody(), index)};
  } else if (auto nested = dyn_cast<ParforOp>(owner)) {
    sources = {nested.getShared()[index],
               yielded(nested.getBody().front(), index)};
  }
  return sources;
}

SharedMatrixDependence Analysis::analyze(BlockArgument shared,
                                         unsigned position) {
  SharedMatrixDependence result;
  result.argument = shared;
  accesses.clear();
  visited.clear();
  if (!follow(shared, position, result))
    return result;
  // The matrix the body yields must be a version of the shared one: a
  // matrix assigned as a whole replaces what other iterations write.
  auto yield = cast<YieldOp>(parfor.getBody().front().getTerminator());
  if (!visited.contains(yield.getOperand(position))) {
    result.reason = "assigned as a whole in the body (only left indexing "
                    "may update it)";
    result.first = yield.getOperand(position).getDefiningOp()
                       ? yield.getOperand(position).getDefiningOp()
                       : yield.getOperation();
    return result;
  }
  // A version merged at an scf.if, a loop or a nested parfor must be a
  // version on every path into it: a branch or loop that assigns the
  // matrix as a whole replaces what other iterations write.
  for (Value version : llvm::to_vector(visited))
    for (Value source : mergedSources(version))
      if (!visited.contains(source)) {
        result.reason = "assigned as a whole on some path in the body (only "
                        "left indexing may update it)";
        result.first = source.getDefiningOp()
                           ? source.getDefiningOp()
                           : version.getParentRegion()->getParentOp();
        return result;
      }
  if (accesses.empty()) {
    result.independent = true;
    result.how = "not written";
    return result;
  }
  for (int dimension : {0, 1}) {
    if (separates(dimension, result)) {
      result.independent = true;
      return result;
    }
  }
  for (int dimension : {0, 1})
    if (gcdSeparates(dimension)) {
      result.independent = true;
      result.dimension = dimension;
      result.how = "GCD test";
      return result;
    }
  // Name a write, and the access it may meet (another one, or itself in
  // another iteration).
  auto write = llvm::find_if(accesses, [](const Access &a) { return a.write; });
  result.first = write != accesses.end() ? write->op : accesses.front().op;
  for (const Access &access : accesses)
    if (access.op != result.first) {
      result.second = access.op;
      break;
    }
  result.reason = result.second ? "the parts these two accesses touch may "
                                  "overlap between iterations"
                                : "iterations may write the same part";
  return result;
}

} // namespace

std::vector<SharedMatrixDependence>
mlir::amls::analyzeParforDependences(ParforOp parfor) {
  std::vector<SharedMatrixDependence> results;
  Analysis analysis(parfor);
  Block &body = parfor.getBody().front();
  for (unsigned i = 1; i < body.getNumArguments(); ++i)
    results.push_back(analysis.analyze(body.getArgument(i), i - 1));
  return results;
}
