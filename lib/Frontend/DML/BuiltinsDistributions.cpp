//===- BuiltinsDistributions.cpp - cdf, icdf, pnorm, qnorm, ... -----------===//
//
// DML's probability distribution functions: cdf(target, dist, ...) and
// icdf(target, dist, ...), and the per-distribution spellings pnorm, pexp,
// pchisq, pf, pt and qnorm, qexp, qchisq, qf, qt, with SystemDS's parameter
// names and defaults (normal: mean = 0, sd = 1; exp: rate = 1; chisq and
// t: df; f: df1 and df2, required). Each is one amls.distribution op, which
// the runtime computes with Boost.Math. Parameters known at import are
// checked here, in DML terms; the runtime checks the others.
//
//===----------------------------------------------------------------------===//

#include "BuiltinCall.h"

#include "AMLS/Runtime/Distributions.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstdio>
#include <string>

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::dml;
using namespace mlir::amls::dml::importer;

namespace {
/// A parameter of a distribution and its default (none: required).
struct DistributionParameter {
  llvm::StringRef name;
  std::optional<double> defaultValue;
};

/// The parameters of `dist`, in the order of amls.distribution's operands.
llvm::SmallVector<DistributionParameter, 2> parametersOf(Distribution dist) {
  switch (dist) {
  case Distribution::Normal:
    return {{"mean", 0.0}, {"sd", 1.0}};
  case Distribution::Exp:
    return {{"rate", 1.0}};
  case Distribution::ChiSquared:
  case Distribution::T:
    return {{"df", std::nullopt}};
  case Distribution::F:
    return {{"df1", std::nullopt}, {"df2", std::nullopt}};
  }
  llvm_unreachable("unknown distribution");
}

/// A number as DML users write it (0.1, not 1.000000e-01).
std::string formatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.15g", v);
  return text;
}

/// The distribution of pnorm, qt, ...; none for cdf and icdf.
std::optional<Distribution> distributionOfName(llvm::StringRef name) {
  if (name == "cdf" || name == "icdf")
    return std::nullopt;
  return llvm::StringSwitch<Distribution>(name.drop_front())
      .Case("norm", Distribution::Normal)
      .Case("exp", Distribution::Exp)
      .Case("chisq", Distribution::ChiSquared)
      .Case("f", Distribution::F)
      .Default(Distribution::T);
}
/// Whether `v`, parameter #0 (`first`) or #1 of `dist`, is invalid (NaN
/// included), as distributions::checkParameters decides.
Value badParameter(Importer &im, Location l, Distribution dist, bool first,
                   Value v) {
  OpBuilder &b = im.getBuilder();
  auto cmp = [&](arith::CmpFPredicate predicate, Value x, double c) {
    return arith::CmpFOp::create(b, l, predicate, x, im.constant(l, c));
  };
  const double inf = INFINITY;
  if (dist == Distribution::Normal && first) // the mean: finite
    return cmp(arith::CmpFPredicate::UEQ, math::AbsFOp::create(b, l, v), inf);
  Value notPositive = cmp(arith::CmpFPredicate::ULE, v, 0);
  if (dist == Distribution::Normal || dist == Distribution::Exp)
    return arith::OrIOp::create(b, l, notPositive,
                                cmp(arith::CmpFPredicate::OEQ, v, inf));
  return notPositive;
}
} // namespace

std::pair<std::vector<llvm::StringRef>, size_t>
BuiltinCall::distributionSignature(llvm::StringRef name) {
  std::optional<Distribution> dist = distributionOfName(name);
  if (!dist)
    return {{"target", "dist", "mean", "sd", "rate", "df", "df1", "df2",
             "lower.tail"},
            2};
  std::vector<llvm::StringRef> parameters = {"target"};
  size_t required = 1;
  for (const DistributionParameter &p : parametersOf(*dist)) {
    parameters.push_back(p.name);
    required += !p.defaultValue;
  }
  parameters.push_back("lower.tail");
  return {parameters, required};
}

DValue BuiltinCall::buildDistribution() {
  std::vector<llvm::StringRef> parameters = distributionSignature(name).first;
  auto argument = [&](llvm::StringRef parameter) -> const Expr * {
    size_t i = llvm::find(parameters, parameter) - parameters.begin();
    return i < parameters.size() && args.has(i) ? args[i] : nullptr;
  };
  bool inverse = name == "icdf" || name.starts_with("q");

  std::optional<Distribution> dist = distributionOfName(name);
  if (!dist) {
    std::optional<std::string> text = im.genConstantString(
        argument("dist"), "'dist' of '" + name.str() + "'");
    if (!text)
      return {};
    dist = symbolizeDistribution(*text);
    if (!dist) {
      im.error(argument("dist")->getLoc())
          << "unknown distribution \"" << *text << "\" for '" << name
          << "': expected \"normal\", \"exp\", \"chisq\", \"f\" or \"t\"";
      return {};
    }
    // cdf and icdf take the parameters of every distribution: only those
    // of `dist` may be given.
    auto own = parametersOf(*dist);
    for (llvm::StringRef p : {"mean", "sd", "rate", "df", "df1", "df2"}) {
      if (!argument(p) ||
          llvm::any_of(
              own, [&](const DistributionParameter &o) { return o.name == p; }))
        continue;
      auto diag = im.error(argument(p)->getLoc());
      diag << "'" << name << "' with dist=\"" << *text
           << "\" has no parameter '" << p << "'; it takes:";
      for (const DistributionParameter &o : own)
        diag << " " << o.name;
      return {};
    }
  }

  std::optional<Value> target =
      im.genNumber(argument("target"), "'target' of '" + name.str() + "'");
  if (!target)
    return {};
  if (inverse) {
    std::optional<double> p = Importer::constantNumber(*target);
    if (p && (*p < 0 || *p > 1)) {
      im.error(argument("target")->getLoc())
          << "'target' of '" << name << "' is a probability: expected a "
          << "value in [0, 1], found " << formatNumber(*p);
      return {};
    }
    if (!p) {
      Value bad = arith::OrIOp::create(
          builder, l,
          arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OLT, *target,
                                im.constant(l, 0)),
          arith::CmpFOp::create(builder, l, arith::CmpFPredicate::OGT, *target,
                                im.constant(l, 1)));
      im.checkAtRunTime(l, bad,
                        "'target' of '" + name +
                            "' is a probability: expected a value in [0, 1], "
                            "found {}",
                        *target);
    }
  }

  llvm::SmallVector<Value, 2> values;
  for (const DistributionParameter &p : parametersOf(*dist)) {
    const Expr *given = argument(p.name);
    if (!given && !p.defaultValue) {
      im.error(where) << "'" << name << "' with dist=\""
                      << stringifyDistribution(*dist)
                      << "\" is missing its argument '" << p.name << "'";
      return {};
    }
    if (!given) {
      values.push_back(im.constant(l, *p.defaultValue));
      continue;
    }
    std::optional<Value> value =
        im.genNumber(given, "'" + p.name.str() + "' of '" + name.str() + "'");
    if (!value)
      return {};
    // The message for a bad value of this parameter, with 1 (valid for
    // every parameter) standing for the other one.
    bool first = values.empty();
    auto problem = [&](double v) {
      return ::amls::distributions::checkParameters(
          static_cast<int32_t>(*dist), first ? v : 1.0, first ? 1.0 : v);
    };
    if (std::optional<double> known = Importer::constantNumber(*value)) {
      if (const char *error = problem(*known)) {
        im.error(given->getLoc())
            << "'" << name << "': " << error << ", found "
            << formatNumber(*known);
        return {};
      }
    } else {
      // Checked when the script runs, in DML terms (the runtime checks
      // again, for IR from elsewhere).
      im.checkAtRunTime(l, badParameter(im, l, *dist, first, *value),
                        "'" + name + "': " + problem(NAN) + ", found {}",
                        *value);
    }
    values.push_back(*value);
  }

  bool lowerTail = true;
  if (argument("lower.tail")) {
    size_t i = llvm::find(parameters, "lower.tail") - parameters.begin();
    std::optional<bool> flag = flagArgument(i, "'lower.tail'");
    if (!flag)
      return {};
    lowerTail = *flag;
  }
  auto op = DistributionOp::create(builder, l, builder.getF64Type(), *target,
                                   values, *dist, inverse, !lowerTail);
  return DValue::scalar(op);
}
