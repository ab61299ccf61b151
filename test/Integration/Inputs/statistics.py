"""Data and NumPy/SciPy oracle for test/Integration/statistics.dml.

  statistics.py data DIR    writes the inputs (CSV) into DIR
  statistics.py check DIR   compares the script's outputs in DIR with
                            NumPy/SciPy and prints PASS or FAIL per output

Weighted statistics are checked against the unweighted ones of the data
with each value repeated by its (integer) weight: SystemDS's weights are
frequencies.
"""

import os
import sys

import numpy as np
from scipy import stats

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Oracles"))
from comparison import arrays_match  # noqa: E402


def inputs():
    rng = np.random.default_rng(5)
    # Ties, negative values and an n divisible by 4 and one that is not.
    x = np.round(rng.normal(3, 2, 200), 1)
    y = 0.5 * x + rng.normal(0, 1, 200)
    w = rng.integers(1, 5, 200).astype(float)
    g = rng.integers(1, 6, 200).astype(float)
    g[g == 4] = 5  # group 4 is empty
    x7 = x[:7]
    p = np.array([0.0, 0.1, 0.25, 0.5, 0.77, 1.0])
    a = np.arange(1, 6, dtype=float) - 2.5
    b = np.array([0.5, 1.0, 2.0, -1.0])
    bias = np.array([1.0, -2.0, 0.5])
    z = rng.integers(0, 7, (5, 6)).astype(float)
    return dict(x=x, y=y, w=w, g=g, x7=x7, p=p, a=a, b=b, bias=bias, z=z)


def iqm(values):
    """Each sorted value covers (i-1, i]; the part inside (n/4, 3n/4]
    counts, divided by n/2."""
    e = np.sort(values)
    n = len(e)
    ends = np.arange(1, n + 1)
    parts = np.clip(np.minimum(ends, 0.75 * n) -
                    np.maximum(ends - 1, 0.25 * n), 0, None)
    return (e * parts).sum() / (0.5 * n)


def expected(d):
    x, y, w, g, x7, p = d["x"], d["y"], d["w"], d["g"], d["x7"], d["p"]
    rep = lambda v: np.repeat(v, w.astype(int))
    out = {}
    for k in (2, 3, 4):
        out[f"moment{k}"] = stats.moment(x, k)
        out[f"moment_w{k}"] = stats.moment(rep(x), k)
    out["cov"] = np.cov(x, y)[0, 1]
    out["cov_w"] = np.cov(rep(x), rep(y))[0, 1]
    q = lambda v, pr: np.quantile(v, pr, method="inverted_cdf")
    out["quantile"] = q(x, 0.3)
    out["quantile_w"] = q(rep(x), 0.3)
    out["quantiles"] = q(x, p).reshape(-1, 1)
    out["quantiles_w"] = q(rep(x), p).reshape(-1, 1)
    out["quantiles7"] = q(x7, p).reshape(-1, 1)
    out["median"] = np.median(x)
    out["median7"] = np.median(x7)
    out["median_w"] = np.median(rep(x))
    out["iqm"] = stats.trim_mean(x, 0.25)  # n = 200: whole quartiles
    out["iqm7"] = iqm(x7)
    out["iqm_w"] = iqm(rep(x))
    groups = np.arange(1, 7)  # ngroups = 6: groups 4 and 6 are empty
    sel = [g == k for k in groups]
    out["agg_sum"] = np.array([x[s].sum() for s in sel]).reshape(-1, 1)
    out["agg_count"] = np.array([s.sum() for s in sel], float).reshape(-1, 1)
    nan = float("nan")
    five = sel[:5]  # without ngroups: groups 1..max(g) = 5
    out["agg_mean"] = np.array([x[s].mean() if s.any() else nan
                                for s in five]).reshape(-1, 1)
    out["agg_var"] = np.array([x[s].var(ddof=1) if s.sum() > 1 else 0.0
                               for s in sel]).reshape(-1, 1)
    out["agg_cm3"] = np.array([stats.moment(x[s], 3) if s.any() else nan
                               for s in five]).reshape(-1, 1)
    out["agg_var_w"] = np.array([np.var(rep(x)[rep(g) == k], ddof=1)
                                 if k != 4 else 0.0
                                 for k in range(1, 6)]).reshape(-1, 1)
    out["agg_sum_2col"] = np.array([[x[s].sum(), y[s].sum()] for s in sel[:5]])
    a, b = d["a"].reshape(-1, 1), d["b"].reshape(1, -1)
    out["outer_add"] = a + b
    out["outer_lt"] = (a < b).astype(float)
    out["outer_min"] = np.minimum(a, b)
    with np.errstate(invalid="ignore"):
        out["outer_pow"] = np.power(a, b)  # NaN for (-1.5)^0.5
    out["outer_ne"] = (a != b).astype(float)
    z = d["z"]
    out["unique"] = np.unique(z).reshape(-1, 1)
    out["count_distinct"] = float(len(np.unique(z)))
    out["contains"] = np.array([[1.0, 0.0, 0.0, 1.0]])
    out["xor"] = np.logical_xor(z > 3, z < 5).astype(float)
    bias = d["bias"].reshape(-1, 1)
    X = np.arange(12, dtype=float).reshape(2, 6)
    out["bias_add"] = X + np.repeat(bias[:, 0], 2)
    out["bias_multiply"] = X * np.repeat(bias[:, 0], 2)
    return out


def check_samples(read):
    """sample(): sizes, ranges, distinctness without replacement, and the
    same draws for the same seed."""
    s1, s2, r = read("sample"), read("sample_again"), read("sample_replace")
    full = read("sample_all")
    ok = (s1.shape == (30, 1) and np.array_equal(s1, s2) and
          len(np.unique(s1)) == 30 and s1.min() >= 1 and s1.max() <= 50 and
          np.all(s1 == np.round(s1)))
    print(f"{'PASS' if ok else 'FAIL'}: sample 30 of 1..50")
    ok = (r.shape == (500, 1) and r.min() >= 1 and r.max() <= 3 and
          np.all(r == np.round(r)) and len(np.unique(r)) == 3)
    print(f"{'PASS' if ok else 'FAIL'}: sample with replacement")
    ok = np.array_equal(np.sort(full[:, 0]), np.arange(1, 11))
    print(f"{'PASS' if ok else 'FAIL'}: sample is a permutation")


def main():
    command, directory = sys.argv[1], sys.argv[2]
    d = inputs()
    if command == "data":
        for name in ("x", "y", "w", "g", "x7", "p", "a", "b", "bias", "z"):
            v = d[name]
            v = v.reshape(-1, 1) if v.ndim == 1 else v
            if name == "b":
                v = v.reshape(1, -1)
            np.savetxt(os.path.join(directory, name + ".csv"), v,
                       delimiter=",", fmt="%.17g")
        return
    read = lambda name: np.atleast_2d(np.loadtxt(
        os.path.join(directory, name + ".csv"), delimiter=",", ndmin=2))
    failures = 0
    for name, value in sorted(expected(d).items()):
        value = np.atleast_2d(np.asarray(value, float))
        try:
            actual = read(name)
        except OSError:
            print(f"FAIL: {name} missing")
            failures += 1
            continue
        ok = arrays_match(actual, value, 1e-10, 1e-10)
        failures += not ok
        print(f"{'PASS' if ok else 'FAIL'}: {name} "
              f"{value.shape[0]}x{value.shape[1]}"
              + ("" if ok else f"\n  got {actual.ravel()[:8]}\n"
                 f"  want {value.ravel()[:8]}"))
    try:
        check_samples(read)
    except OSError as error:
        print(f"FAIL: sample: {error}")


if __name__ == "__main__":
    main()
