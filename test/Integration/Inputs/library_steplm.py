"""Data and NumPy oracle for test/Integration/library-steplm.dml: steplm of
the DML library.

  library_steplm.py data DIR    writes the inputs (CSV) into DIR
  library_steplm.py check DIR   compares the script's outputs in DIR

Forward selection transcribed from steplm's documented rule: AIC = 2 k +
n log(RSS / n) with k coefficients (the intercept counted); a feature is
added while the smallest AIC of the candidates beats the best so far by
more than 0.1% of it. lm is the regularized normal equations solved
directly (reg spares the intercept; icpt 2 standardizes X with the sample
variance, reg applied on that scale, and maps the solution back).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_ml import oracle_main  # noqa: E402


def inputs():
    rng = np.random.default_rng(61)
    n, m = 120, 8
    X = rng.standard_normal((n, m)) * rng.uniform(0.5, 3, m) + rng.uniform(
        -2, 2, m)
    y = (2 * X[:, 0] - 1.5 * X[:, 3] + 0.7 * X[:, 6] + 3
         + 0.5 * rng.standard_normal(n))
    # a response orthogonal to every feature and the ones column, plus 5
    Z = np.hstack([X, np.ones((n, 1))])
    e = rng.standard_normal(n)
    e -= Z @ np.linalg.lstsq(Z, e, rcond=None)[0]
    return dict(X=X, y=y.reshape(-1, 1), ye=(e + 5).reshape(-1, 1))


def lm(X, y, icpt, reg):
    n, m = X.shape
    if icpt == 0:
        return np.linalg.solve(X.T @ X + reg * np.eye(m), X.T @ y)
    if icpt == 2:
        mu = X.mean(axis=0)
        sd = X.std(axis=0, ddof=1)
        sd[sd <= 0] = 1
        Z = np.hstack([(X - mu) / sd, np.ones((n, 1))])
    else:
        Z = np.hstack([X, np.ones((n, 1))])
    lam = np.full(m + 1, reg)
    lam[m] = 0
    b = np.linalg.solve(Z.T @ Z + np.diag(lam), Z.T @ y)
    if icpt == 2:
        b[:m] /= sd.reshape(-1, 1)
        b[m] -= (mu.reshape(1, -1) @ b[:m])[0]
    return b


def aic(X, y, icpt, reg):
    b = lm(X, y, icpt, reg)
    Z = np.hstack([X, np.ones((len(X), 1))]) if icpt else X
    rss = ((y - Z @ b) ** 2).sum()
    return 2 * Z.shape[1] + len(X) * np.log(rss / len(X))


def steplm(X, y, icpt, reg=1e-7):
    n, m = X.shape
    best = (2 + n * np.log(((y - y.mean()) ** 2).sum() / n) if icpt
            else n * np.log((y ** 2).sum() / n))
    chosen = []
    while len(chosen) < m:
        aics = [aic(X[:, chosen + [i]], y, icpt, reg) if i not in chosen
                else np.inf for i in range(m)]
        step = min(aics)
        if not (step < best and best - step > abs(0.001 * best)):
            break
        best = step
        chosen.append(int(np.argmin(aics)))
    B = np.zeros((m + (icpt != 0), 1))
    if not chosen:
        if icpt:
            B[m] = y.mean()
        return B, np.zeros((1, 1))
    b = lm(X[:, chosen], y, icpt, reg)
    B[chosen] = b[:len(chosen)]
    S = [c + 1.0 for c in chosen]
    if icpt:
        B[m] = b[len(chosen)]
        S.append(m + 1.0)
    return B, np.array([S])


def expected_outputs(d):
    X, y = d["X"], d["y"]
    out = {}
    for icpt in (0, 1, 2):
        B, S = steplm(X, y, icpt)
        out[f"B{icpt}"] = (B, 1e-8, 1e-10)
        out[f"S{icpt}"] = (S, 0, 0)
    B, S = steplm(X, d["ye"], 1)
    out["Be"] = (B, 1e-10, 1e-12)
    out["Se"] = (S, 0, 0)
    return out


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs))
