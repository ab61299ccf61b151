"""Data and NumPy/SciPy oracle for test/Integration/library-misc.dml:
outlierBySdApply, outlierByIQRApply, symmetricDifference, logSumExp, mcc,
psnr, softmax, na_locf, imputeByMean(Apply), imputeByMedian(Apply),
imputeByMode(Apply).

  library_misc.py data DIR    writes the inputs (CSV) into DIR
  library_misc.py check DIR   compares the script's outputs in DIR
"""

import os
import sys

import numpy as np
import scipy.special

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_ml import oracle_main  # noqa: E402


def inputs():
    rng = np.random.default_rng(61)
    O = rng.normal(10, 2, (20, 4))
    O[3, 0], O[7, 2], O[15, 3] = 40, -30, 25  # far outliers
    O[5, 1] = O[11, 2] = np.nan
    cm = np.nanmean(O, axis=0, keepdims=True)
    cs = np.nanstd(O, axis=0, ddof=1, keepdims=True)
    q1 = np.nanpercentile(O, 25, axis=0, keepdims=True)
    q3 = np.nanpercentile(O, 75, axis=0, keepdims=True)
    # within both kinds of bounds but one cell
    O1 = (q1 + q3) / 2 + rng.uniform(-0.5, 0.5, (20, 4)) * (q3 - q1)
    O1[9, 1] = 100
    A = rng.permutation(np.arange(1, 16)).astype(float)[:10, None]
    B = np.array([[3.], [14], [20], [21], [-2], [3], [7]])
    M = rng.normal(0, 3, (8, 6))
    Y = np.array([[0.], [1], [1], [0], [1], [0], [0], [1], [1], [1], [0],
                  [0]])
    P = np.column_stack([(rng.random(12) < 0.5), Y[:, 0] != (rng.random(12)
                         < 0.2), np.zeros(12)]).astype(float)
    P[0, 0], P[1, 0] = 0, 1  # both values in the first column
    R = rng.integers(0, 256, (9, 7)).astype(float)
    S = np.clip(R + rng.integers(-20, 21, R.shape), 0, 255)
    nan = np.nan
    N = np.array([[nan, 1, nan, 0],
                  [nan, nan, nan, nan],
                  [2, 3, nan, 5],
                  [nan, nan, nan, 0],
                  [4, 6, nan, nan],
                  [nan, nan, nan, 7],
                  [8, nan, nan, nan]])
    C = np.column_stack([rng.integers(-3, 20, 10), rng.integers(0, 9, 10),
                         [1, 2, 2, 3, 4, 2, 1, 3, 2, 4],
                         [4, 4, 1, 1, 1, 3, 4, 2, 4, 1]]).astype(float)
    C[[1, 6], 0] = nan  # 8 numbers left
    C[[0, 4, 8], 1] = nan  # 7
    C[[2, 5], 2] = nan
    C[[0, 3, 9], 3] = nan
    C2 = rng.integers(0, 5, (6, 4)).astype(float)
    C2[rng.random((6, 4)) < 0.3] = nan
    return dict(O=O, O1=O1, cm=cm, cs=cs, q1=q1, q3=q3, iqr=q3 - q1, A=A,
                B=B, M=M, Y=Y, P=P, R=R, S=S, N=N, C=C, C2=C2,
                cat=np.array([[0., 0, 1, 1]]))


def repair(X, marked, method):
    """SystemDS's Apply functions: a repair only where more than one cell
    is marked."""
    if marked.sum() <= 1:
        return X
    if method == 0:
        return X[~marked.any(axis=1)]
    return np.where(marked, 0.0 if method == 1 else np.nan, X)


def mcc(p, y):
    tp = np.sum((p == 1) & (y == 1))
    tn = np.sum((p == 0) & (y == 0))
    fp = np.sum((p == 1) & (y == 0))
    fn = np.sum((p == 0) & (y == 1))
    den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    return 0.0 if den == 0 else (tp * tn - fp * fn) / np.sqrt(den)


def locf(X):
    """imputeTS::na_locf: forward fill, leading NaN from the first value,
    columns of NaN 0, by walking each column."""
    out = X.copy()
    for j in range(X.shape[1]):
        col = X[:, j]
        seen = [v for v in col if not np.isnan(v)]
        last = seen[0] if seen else 0.0
        for i in range(len(col)):
            if np.isnan(col[i]):
                out[i, j] = last
            else:
                last = col[i]
    return out


def mode_vec(X):
    """The most frequent value >= 1 of each column (the largest of equally
    frequent ones), 0 without any."""
    out = np.zeros((1, X.shape[1]))
    for j in range(X.shape[1]):
        v = X[:, j][X[:, j] >= 1]
        if len(v):
            values, counts = np.unique(v, return_counts=True)
            out[0, j] = values[counts == counts.max()].max()
    return out


def fill(X, vec):
    return np.where(np.isnan(X), vec, X)


def expected_outputs(d):
    O, O1 = d["O"], d["O1"]
    out = {}
    lo, hi = d["cm"] - 2 * d["cs"], d["cm"] + 2 * d["cs"]
    marked = (O < lo) | (O > hi)
    for m in (0, 1, 2):
        out[f"sd{m}"] = (repair(O, marked, m), 0, 0)
    assert ((O1 < lo) | (O1 > hi)).sum() == 1
    out["sd_one"] = (O1, 0, 0)  # one marked cell: unchanged
    lo = d["q1"] - 1.5 * d["iqr"]
    hi = d["q3"] + 1.5 * d["iqr"]
    marked = (O < lo) | (O > hi)
    for m in (0, 1, 2):
        out[f"iqr{m}"] = (repair(O, marked, m), 0, 0)
    assert ((O1 < lo) | (O1 > hi)).sum() == 1
    out["iqr_one"] = (O1, 0, 0)
    out["symdiff"] = (np.setxor1d(d["A"], d["B"])[:, None], 0, 0)
    out["symdiff_same"] = (np.array([[0.]]), 0, 0)
    M = d["M"]
    out["lse_rows"] = (scipy.special.logsumexp(M, axis=1)[:, None], 1e-12,
                       1e-12)
    out["lse_cols"] = (scipy.special.logsumexp(M, axis=0)[None, :], 1e-12,
                       1e-12)
    out["lse_none"] = (np.array([[scipy.special.logsumexp(M)]]), 1e-12, 1e-12)
    out["lse_big"] = (scipy.special.logsumexp(M[:3] * 1000, axis=1)[:, None],
                      1e-12, 1e-9)
    out["softmax"] = (scipy.special.softmax(M, axis=1), 1e-12, 1e-15)
    P, Y = d["P"], d["Y"][:, 0]
    out["mcc"] = (np.array([[mcc(P[:, 0], Y), mcc(P[:, 1], Y),
                             mcc(P[:, 2], Y), mcc(1 - Y, Y)]]), 1e-12, 1e-15)
    R, S = d["R"], d["S"]
    out["psnr"] = (np.array([[10 * np.log10(R.max() ** 2 /
                                            np.mean((R - S) ** 2))]]),
                   1e-12, 1e-12)
    N = d["N"]
    out["locf"] = (locf(N), 0, 0)
    out["nocb"] = (locf(N[::-1])[::-1], 0, 0)
    C, C2, cat = d["C"], d["C2"], d["cat"]
    modes = mode_vec(C)
    numeric = cat == 0
    means = np.where(numeric, np.nanmean(C, axis=0), modes)
    medians = np.where(numeric, np.nanmedian(C, axis=0), modes)
    out["mean_vec"] = (means, 1e-13, 0)
    out["mean_x"] = (fill(C, means), 1e-13, 0)
    out["mean_apply"] = (fill(C2, means), 1e-13, 0)
    out["median_vec"] = (medians, 0, 0)
    out["median_x"] = (fill(C, medians), 0, 0)
    out["median_apply"] = (fill(C2, medians), 0, 0)
    out["mode_vec"] = (modes, 0, 0)
    out["mode_x"] = (fill(C, modes), 0, 0)
    out["mode_apply"] = (fill(C2, modes), 0, 0)
    return out


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs))
