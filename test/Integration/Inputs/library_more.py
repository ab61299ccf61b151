"""Data and NumPy/SciPy oracle for test/Integration/library-more.dml: msvm,
naiveBayes, the error metrics, set operations, split and winsorize of the DML
library.

  library_more.py data DIR    writes the inputs (CSV) into DIR
  library_more.py check DIR   compares the script's outputs in DIR
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_ml import (amls_rand, l2svm_optimum, l2svm_ref,  # noqa: E402
                        oracle_main)


def inputs():
    rng = np.random.default_rng(31)
    n, m = 240, 4
    X = rng.standard_normal((n, m)) * [1, 2, 0.5, 1.5]
    Y = (np.argmax(X @ rng.standard_normal((m, 3)), axis=1) + 1.0)
    counts = rng.poisson([[3, 1, 0.5, 2, 4]], size=(90, 5)).astype(float)
    C = rng.integers(1, 4, 90).astype(float)
    counts[C == 2, 1] += rng.poisson(4, (C == 2).sum())
    counts[C == 3, 4] += rng.poisson(5, (C == 3).sum())
    A = rng.standard_normal((30, 3))
    B = A + 0.3 * rng.standard_normal((30, 3))
    B[0, 0] = -A[0, 0]  # a sign change (smape's denominator stays positive)
    W = rng.standard_normal((50, 3)) * [1, 10, 100]
    W[5, 1] = np.nan
    return dict(X=X, Y=Y.reshape(-1, 1), Xt=rng.standard_normal((25, m)),
                D=counts, C=C.reshape(-1, 1),
                Dt=rng.poisson(2, (15, 5)).astype(float), A=A, B=B,
                P=np.array([[0.0], [0.25], [0.5], [0.9], [1.0]]),
                S1=np.array([[5, 3, 3, 8, 1, 9, 1]], float).T,
                S2=np.array([[3, 7, 9], [9, 4, 5]], float), W=W)


def quantiles(values, P):
    """SystemDS's quantile: the sorted value at max(1, ceil(p N))."""
    v = np.sort(values.ravel())
    pos = np.maximum(np.ceil(P[:, 0] * len(v)), 1).astype(int) - 1
    return v[pos].reshape(1, -1)


def expected_outputs(d):
    X, Y, P = d["X"], d["Y"], d["P"]
    out = {}
    Xi = np.hstack([X, np.ones((len(X), 1))])
    cols, opts = [], []
    for c in (1, 2, 3):
        Yc = 2.0 * (Y == c) - 1
        cols.append(l2svm_ref.l2svm(Xi, Yc, intercept=False, epsilon=1e-12,
                                    reg=1.0, maxIterations=100,
                                    maxii=20)[0])
        opts.append(l2svm_optimum(Xi, Yc, False, 1.0))
    Wm = np.hstack(cols)
    out["msvm_W"] = (Wm, 1e-8, 1e-10)
    out["msvm_W_opt"] = (np.hstack(opts), 1e-5, 1e-6)
    raw = d["Xt"] @ Wm[:4] + Wm[4]
    out["msvm_raw"] = (raw, 1e-8, 1e-10)
    out["msvm_y"] = (np.argmax(raw, axis=1).reshape(-1, 1) + 1.0, 0, 0)
    # msvm with a missing class (labels 1 and 3): its column is -Inf.
    Y13 = np.where(Y == 2, 3.0, Y)
    w1 = l2svm_ref.l2svm(X, 2.0 * (Y13 == 1) - 1, intercept=False,
                         epsilon=0.001, reg=1.0, maxIterations=100,
                         maxii=20)[0]
    w3 = l2svm_ref.l2svm(X, 2.0 * (Y13 == 3) - 1, intercept=False,
                         epsilon=0.001, reg=1.0, maxIterations=100,
                         maxii=20)[0]
    out["msvm_gap"] = (np.hstack([w1, np.full((4, 1), -np.inf), w3]),
                       1e-8, 1e-10)

    D, C = d["D"], d["C"][:, 0].astype(int)
    k = C.max()
    counts = np.array([D[C == c].sum(axis=0) for c in range(1, k + 1)])
    prior = np.bincount(C, minlength=k + 1)[1:].reshape(-1, 1) / len(C)
    for name, lap in (("nb0", 0.5), ("nb", 1.0)):
        cond = (counts + lap) / (counts.sum(axis=1, keepdims=True)
                                 + D.shape[1] * lap)
        out[name + "_prior"] = (prior, 1e-12, 0)
        out[name + "_cond"] = (cond, 1e-12, 0)
    raw = d["Dt"] @ np.log(cond).T + np.log(prior).T  # laplace 1
    out["nb_raw"] = (raw, 1e-12, 1e-12)
    out["nb_y"] = (np.argmax(raw, axis=1).reshape(-1, 1) + 1.0, 0, 0)

    A, B = d["A"], d["B"]
    errors = {
        "mse": (A - B) ** 2,
        "mae": np.abs(A - B),
        "mape": np.abs(A - B) / np.abs(A),
        "smape": np.abs(A - B) / ((np.abs(A) + np.abs(B)) / 2),
        "msmape": np.abs(A - B) / (np.maximum(np.abs(A) + np.abs(B) + 1e-10,
                                              0.5 + 1e-10) / 2),
    }
    for name, e in errors.items():
        out[name] = (np.array([[e.mean()]]), 1e-12, 0)
        out[name + "_q"] = (quantiles(e, P), 1e-12, 0)
    rmse = np.sqrt(errors["mse"].mean())
    out["rmse"] = (np.array([[rmse]]), 1e-12, 0)
    out["rmse_q"] = (np.sqrt(quantiles(errors["mse"], P)), 1e-12, 0)
    span = A.max() - A.min()
    out["nrmse"] = (np.array([[rmse / span]]), 1e-12, 0)
    out["nrmse_q"] = (np.sqrt(quantiles(errors["mse"], P)) / span, 1e-12, 0)

    S1, S2 = d["S1"], d["S2"]
    out["intersect"] = (np.intersect1d(S1, S2).reshape(-1, 1), 0, 0)
    out["setdiff"] = (np.setdiff1d(S1, S2).reshape(-1, 1), 0, 0)
    out["setdiff2"] = (np.setdiff1d(S2, S1).reshape(-1, 1), 0, 0)

    k = int(np.floor(0.7 * len(X)))
    out["split_xtr"] = (X[:k], 0, 0)
    out["split_xte"] = (X[k:], 0, 0)
    out["split_yte"] = (Y[k:], 0, 0)
    train = amls_rand(13, len(X), 1, 0.0, 1.0, 1.0)[:, 0] <= 0.6
    out["split_sxtr"] = (X[train], 0, 0)
    out["split_sxte"] = (X[~train], 0, 0)
    out["split_sytr"] = (Y[train], 0, 0)

    Wz = np.nan_to_num(d["W"], nan=0.0)
    lo = np.array([quantiles(Wz[:, [c]], np.array([[0.1]]))[0, 0]
                   for c in range(3)]).reshape(1, -1)
    hi = np.array([quantiles(Wz[:, [c]], np.array([[0.85]]))[0, 0]
                   for c in range(3)]).reshape(1, -1)
    out["wins_lo"] = (lo, 0, 0)
    out["wins_hi"] = (hi, 0, 0)
    with np.errstate(invalid="ignore"):
        out["wins_Y"] = (np.minimum(np.maximum(d["W"], lo), hi), 0, 0)
    out["wins_apply"] = (np.clip(2 * Wz, lo, hi), 0, 0)
    return out


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs))
