"""Reference for distributions.dml: scipy.stats (R's parametrization, as
SystemDS's: exp by its rate, scipy's scale = 1 / rate).

The quantiles are SciPy's ppf/isf refined by root-finding on its cdf/sf:
SciPy's own inverse of the F distribution is off by 2e-5 (relative) at
p = 1e-12 (its sf at the quantile it returns is 0.99998e-12), while its
cdf and sf are accurate to about 1e-15."""

import numpy as np
from scipy import optimize, stats

# Boost.Math and SciPy agree to about 1e-13 relative; the quantiles in the
# far tails (where x moves a lot for a small change of p) to a little less.
TOLERANCE = 1e-9

Q = [-30, -6, -1.5, 0, 0.3, 1, 2.5, 7, 25, 60]
P = [1e-12, 0.001, 0.05, 0.3, 0.5, 0.77, 0.95, 0.999, 1 - 1e-6, 1 - 1e-9]


def inputs(rng):
    return {"q": np.array(Q, dtype=float).reshape(-1, 1),
            "p": np.array(P, dtype=float).reshape(-1, 1)}


def quantile(d, p, upper=False):
    """x with P[X <= x] = p (P[X > x] = p if upper), to full precision."""
    guess = d.isf(p) if upper else d.ppf(p)
    # Compare the smaller tail in logs: relative precision in both tails.
    if (p <= 0.5) != upper:
        def h(x):
            return np.log(d.cdf(x)) - np.log(p if not upper else 1 - p)
    else:
        def h(x):
            return np.log(d.sf(x)) - np.log(p if upper else 1 - p)
    if h(guess) == 0:
        return guess
    step = 1e-9 * max(1.0, abs(guess))
    while np.sign(h(guess - step)) == np.sign(h(guess + step)):
        step *= 4
    return optimize.brentq(h, guess - step, guess + step, xtol=1e-300,
                           rtol=4 * np.finfo(float).eps)


def quantiles(d, p, upper=False):
    with np.errstate(divide="ignore"):  # log(0) while bracketing
        return np.array([quantile(d, x, upper) for x in p])


def expected(i):
    q = i["q"].ravel()
    p = i["p"].ravel()
    dists = [stats.norm(1.5, 2), stats.expon(scale=1 / 5), stats.chi2(3),
             stats.f(4, 7), stats.t(5)]
    cdf = np.column_stack([f(q) for d in dists for f in (d.cdf, d.sf)])
    icdf = np.column_stack([quantiles(d, p, upper) for d in dists
                            for upper in (False, True)])
    generic = [stats.norm(), stats.expon(), stats.chi2(0.5), stats.f(1, 30),
               stats.t(1.5)]
    return {
        "cdf": cdf,
        "log_cdf": np.log(np.where(cdf == 0, 1.0, cdf)),
        "cdf_generic": np.column_stack([
            generic[0].cdf(q), generic[1].cdf(q), generic[2].sf(q),
            generic[3].cdf(q), generic[4].sf(q)]),
        "icdf": icdf,
        "icdf_generic": np.column_stack([quantiles(d, p) for d in generic]),
        "constants": [[stats.norm.cdf(1.96), quantiles(stats.norm(), [0.975])[0],
                       stats.t.cdf(-2.5, 3),
                       quantiles(stats.chi2(10), [0.05], upper=True)[0],
                       stats.f.sf(1.3, 4, 7),
                       quantiles(stats.expon(scale=2), [0.25])[0]]],
    }
