"""Data and NumPy oracle for test/Integration/library-clean.dml (the DML
library's outlierBySd, outlierByIQR and cvlm).

  library_clean.py data DIR    writes the inputs (CSV) into DIR
  library_clean.py check DIR   compares the script's outputs in DIR

The outlier rounds are written here from their documentation (statistics
over the non-zero, non-NaN cells for outlierBySd, over the non-NaN cells
for outlierByIQR; SystemDS's quantile; the stopping rules); cvlm's folds
are fitted with NumPy's solve of the regularized normal equations
(library_linalg.lm).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_linalg import lm  # noqa: E402
from library_ml import oracle_main  # noqa: E402


def inputs():
    rng = np.random.default_rng(53)
    X = rng.standard_normal((60, 3)) * [1, 5, 0.2] + [2, -1, 10]
    X[3, 0] = 40.0     # far outliers
    X[17, 1] = -90.0
    X[40, 2] = 14.0
    X[41, 2] = 11.2    # an outlier only once the others are gone
    X[8, 1] = np.nan   # missing cells are never outliers
    Xc = rng.standard_normal((47, 4))
    yc = Xc @ [1.0, -2.0, 0.5, 3.0] + 0.7 + 0.1 * rng.standard_normal(47)
    return dict(X=X, Xc=Xc, yc=yc.reshape(-1, 1))


def repair(X, marked, method):
    if method == 0:
        return X[~marked.any(axis=1)]
    Y = X.copy()
    Y[marked] = 0.0 if method == 1 else np.nan
    return Y


def rounds(X, k, method, max_iterations, statistics):
    """The repair rounds: `statistics(X)` gives the bounds' centre terms."""
    before, after, count = 0.0, 1.0, 0
    while max_iterations == 0 or count < max_iterations:
        stats = statistics(X)
        lower, upper = stats[-2], stats[-1]
        with np.errstate(invalid="ignore"):
            marked = (X < lower) | (X > upper)
        if marked.sum() > 1 and after != 0 and before != after:
            before = np.nansum(X)
            X = repair(X, marked, method)
            after = np.nansum(X)
        else:
            break
        count += 1
    return X, stats


def sd_statistics(k):
    def statistics(X):
        Z = np.nan_to_num(X, nan=0.0)
        counted = Z != 0
        cells = counted.sum(axis=0)
        mean = Z.sum(axis=0) / cells
        sd = np.sqrt((counted * (Z - mean) ** 2).sum(axis=0) / (cells - 1))
        return mean, sd, mean - k * sd, mean + k * sd
    return statistics


def quantile(v, p):
    v = np.sort(v)
    return v[max(int(np.ceil(p * len(v))), 1) - 1]


def iqr_statistics(k):
    def statistics(X):
        m = X.shape[1]
        q1, q3 = np.zeros(m), np.zeros(m)
        if len(X) > 1:
            for j in range(m):
                column = X[~np.isnan(X[:, j]), j]
                q1[j], q3[j] = quantile(column, 0.25), quantile(column, 0.75)
        iqr = q3 - q1
        return q1, q3, iqr, q1 - k * iqr, q3 + k * iqr
    return statistics


def cvlm(X, y, k, icpt, reg):
    n = len(X)
    size = n // k
    predict = y.copy()
    betas = []
    for i in range(k):
        first, last = i * size, (i + 1) * size
        # the last fold trains on the rows before it only (SystemDS's folds)
        train = np.r_[0:first, last:n] if i < k - 1 else np.r_[0:first]
        B = lm(X[train], y[train], icpt, reg)
        predict[first:last] = X[first:last] @ B[:X.shape[1]] + (
            B[-1] if icpt > 0 else 0)
        betas.append(B[:, 0])
    return predict, np.array(betas)


def expected_outputs(d):
    X = d["X"]
    out = {}
    for name, k, method, maxi in (("sd1", 3.0, 1, 0), ("sd0", 2.0, 0, 0),
                                  ("sd2", 3.0, 2, 1)):
        Y, (mean, sd, _, _) = rounds(X, k, method, maxi, sd_statistics(k))
        out[name] = (Y, 1e-12, 0)
        out[name + "_mean"] = (mean.reshape(1, -1), 1e-12, 0)
        out[name + "_sd"] = (sd.reshape(1, -1), 1e-12, 0)
    for name, k, method, maxi in (("iqr1", 1.5, 1, 0), ("iqr0", 1.5, 0, 2),
                                  ("iqr2", 3.0, 2, 0)):
        Y, (q1, q3, iqr, _, _) = rounds(X, k, method, maxi,
                                        iqr_statistics(k))
        out[name] = (Y, 1e-12, 0)
        out[name + "_q"] = (np.vstack([q1, q3, iqr]), 1e-12, 0)
    for name, k, icpt, reg in (("cv0", 4, 0, 1e-7), ("cv1", 5, 1, 0.5),
                               ("cv2", 3, 2, 1e-3)):
        predict, betas = cvlm(d["Xc"], d["yc"], k, icpt, reg)
        out[name + "_pred"] = (predict, 1e-9, 1e-10)
        out[name + "_beta"] = (betas, 1e-9, 1e-10)
    return out


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs))
