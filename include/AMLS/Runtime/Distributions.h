//===- Distributions.h - DML's cdf and icdf through Boost.Math --*- C++ -*-===//
//
// The cumulative distribution functions of DML (cdf, icdf, pnorm, qnorm,
// ...) and their inverses, computed by Boost.Math. One definition serves the
// runtime (amls_rt_distribution) and the folder of amls.distribution, so a
// constant and a run-time value cannot disagree.
//
// Boost reports a bad argument by throwing; the policy below makes it return
// NaN or infinity instead, and the arguments are checked before the call, so
// nothing here throws. Values outside a distribution's support and the
// probabilities 0 and 1 are answered here, as R and SciPy answer them (Boost
// rejects x < 0 for the chi-squared distribution, for example).
//
//===----------------------------------------------------------------------===//

#ifndef AMLS_RUNTIME_DISTRIBUTIONS_H
#define AMLS_RUNTIME_DISTRIBUTIONS_H

#include "AMLS/Runtime/ABI.h"

// GCC 12 warns of a variable in fisher_f.hpp that Boost sets on every path.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/exponential.hpp>
#include <boost/math/distributions/fisher_f.hpp>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <cmath>
#include <cstdint>
#include <limits>

namespace amls::distributions {

/// The distributions, numbered as AmlsDistribution (ABI.h).
enum Kind : int32_t {
  Normal = AMLS_DIST_NORMAL,
  Exp = AMLS_DIST_EXP,
  ChiSquared = AMLS_DIST_CHISQ,
  F = AMLS_DIST_F,
  T = AMLS_DIST_T
};

/// A value, or `error` (a message without position) for bad arguments.
struct Result {
  double value;
  const char *error;
};

namespace detail {
using Policy = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::ignore_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
    boost::math::policies::evaluation_error<
        boost::math::policies::ignore_error>,
    boost::math::policies::pole_error<boost::math::policies::ignore_error>,
    boost::math::policies::rounding_error<boost::math::policies::ignore_error>>;

template <typename Dist>
double evaluate(const Dist &dist, bool inverse, bool upperTail, double x) {
  if (inverse)
    return upperTail ? quantile(complement(dist, x)) : quantile(dist, x);
  return upperTail ? cdf(complement(dist, x)) : cdf(dist, x);
}
} // namespace detail

/// Why the parameters `a`, `b` of `kind` are invalid, or null: normal takes
/// (mean, sd), exp (rate), chisq and t (df), f (df1, df2).
inline const char *checkParameters(int32_t kind, double a, double b) {
  switch (kind) {
  case Normal:
    if (!std::isfinite(a))
      return "the mean must be finite";
    return b > 0 && std::isfinite(b) ? nullptr
                                     : "sd must be positive and finite";
  case Exp:
    return a > 0 && std::isfinite(a) ? nullptr
                                     : "the rate must be positive and finite";
  case ChiSquared:
  case T:
    return a > 0 ? nullptr : "df must be positive";
  case F:
    return a > 0 && b > 0 ? nullptr : "df1 and df2 must be positive";
  default:
    return "unknown distribution";
  }
}

/// P[X <= x] (P[X > x] if `upperTail`) for X of distribution `kind` with
/// parameters `a`, `b`; if `inverse`, the q with P[X <= q] = x (P[X > q] = x).
inline Result evaluate(int32_t kind, bool inverse, bool upperTail, double x,
                       double a, double b) {
  if (const char *error = checkParameters(kind, a, b))
    return {0, error};
  if (std::isnan(x))
    return {x, nullptr};
  const double inf = std::numeric_limits<double>::infinity();
  // The support is (-inf, inf) for normal and t, [0, inf) for the others.
  const double low = kind == Normal || kind == T ? -inf : 0.0;
  if (inverse) {
    if (x < 0 || x > 1)
      return {0, "the probability must be in [0, 1]"};
    if (x == 0 || x == 1)
      return {(x == 1) != upperTail ? inf : low, nullptr};
  } else if (x <= low || x == inf) {
    bool below = x <= low;
    return {below != upperTail ? 0.0 : 1.0, nullptr};
  }
  using namespace boost::math;
  using detail::Policy;
  switch (kind) {
  case Normal:
    return {detail::evaluate(normal_distribution<double, Policy>(a, b), inverse,
                             upperTail, x),
            nullptr};
  case Exp:
    return {detail::evaluate(exponential_distribution<double, Policy>(a),
                             inverse, upperTail, x),
            nullptr};
  case ChiSquared:
    return {detail::evaluate(chi_squared_distribution<double, Policy>(a),
                             inverse, upperTail, x),
            nullptr};
  case F:
    return {detail::evaluate(fisher_f_distribution<double, Policy>(a, b),
                             inverse, upperTail, x),
            nullptr};
  default:
    return {detail::evaluate(students_t_distribution<double, Policy>(a),
                             inverse, upperTail, x),
            nullptr};
  }
}

} // namespace amls::distributions

#endif // AMLS_RUNTIME_DISTRIBUTIONS_H
