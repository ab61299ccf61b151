"""Data and NumPy oracle for test/Integration/library-gridsearch.dml: the DML
library's gridSearch over lm (ridge regression's closed form in NumPy) and
over a two-column ridge model defined in the script, with and without k-fold
cross validation.

  library_gridsearch.py data DIR    writes the inputs (CSV) into DIR
  library_gridsearch.py check DIR   compares the script's outputs in DIR

Every grid point's loss is computed here, and the test fails (FAIL: ..._gap)
unless the smallest is smaller than the next by a clear margin, so that the
choice cannot flip with rounding.
"""

import itertools
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_ml import oracle_main  # noqa: E402
from results import check  # noqa: E402

REGS = [1e-4, 1e-2, 1.0, 100.0]
ICPTS = [0.0, 1.0]
LAMBDAS = [0.01, 1.0, 10.0, 100.0, 1000.0]


def inputs():
    rng = np.random.default_rng(5)
    n, nv, m = 42, 200, 6
    beta = rng.standard_normal((m, 1)) * 0.4
    W = rng.standard_normal((m, 2)) * 0.3

    def data(rows):
        X = rng.standard_normal((rows, m)) * [1, 2, 0.5, 1, 1.5, 1] + 0.5
        y = X @ beta + 1.5 + 2.0 * rng.standard_normal((rows, 1))
        Y = X @ W + 2.5 * rng.standard_normal((rows, 2))
        return X, y, Y

    X, y, Y = data(n)
    Xv, yv, Yv = data(nv)
    return dict(X=X, y=y, Y=Y, Xv=Xv, yv=yv, Yv=Yv)


def lm(X, y, icpt, reg):
    """lmDS: the regularized normal equations, the intercept (last) not
    regularized."""
    if icpt:
        X = np.hstack([X, np.ones((len(X), 1))])
    lam = np.full(X.shape[1], reg)
    if icpt:
        lam[-1] = 0
    return np.linalg.solve(X.T @ X + np.diag(lam), X.T @ y)


def lm_sse(X, y, B):
    """The script's loss: lmPredict's residuals squared and summed."""
    m = X.shape[1]
    yhat = X @ B[:m] + (B[m, 0] if len(B) == m + 1 else 0)
    return float(((y - yhat) ** 2).sum())


def ridge2(X, Y, lam):
    return np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ Y)


def ridge2_sse(X, Y, W):
    return float(((Y - X @ W) ** 2).sum())


def folds(n, k):
    """k folds of ceil(n / k) consecutive rows (the last may be shorter)."""
    size = -(-n // k)
    return [np.arange(i * size, min((i + 1) * size, n)) for i in range(k)]


def linear(model, numB):
    """The model's values column by column, padded with zeros to numB."""
    v = model.reshape(-1, order="F")
    return np.concatenate([v, np.zeros(numB - len(v))])


def search(grid, fit, loss, numB, train, test=None, k=None):
    """gridSearch: per grid point (first parameter slowest) the model and
    its loss on test (train when None), or with k the mean over k folds of
    train of the loss and of the model; the last smallest loss wins (as
    rowIndexMin picks).
    Returns B, opt and the relative gap to the next smallest loss."""
    models, losses = [], []
    for point in grid:
        if k is None:
            model = fit(*train, *point)
            models.append(linear(model, numB))
            losses.append(loss(*(test or train), model))
            continue
        n = len(train[0])
        fold_models, fold_losses = [], []
        for rows in folds(n, k):
            rest = np.setdiff1d(np.arange(n), rows)
            model = fit(*(a[rest] for a in train), *point)
            fold_models.append(linear(model, numB))
            fold_losses.append(loss(*(a[rows] for a in train), model))
        models.append(np.mean(fold_models, axis=0))
        losses.append(np.mean(fold_losses))
    losses = np.array(losses)
    best = len(losses) - 1 - int(np.argmin(losses[::-1]))
    second = np.partition(losses, 1)[1]
    gap = (second - losses[best]) / abs(losses[best])
    return (models[best].reshape(-1, 1),
            np.array([grid[best]], dtype=float), gap)


def searches(d):
    X, y, Y, Xv, yv, Yv = (d[k] for k in ("X", "y", "Y", "Xv", "yv", "Yv"))
    m = X.shape[1]
    lm_grid = list(itertools.product(REGS, ICPTS))
    lm_fit = lambda X, y, reg, icpt: lm(X, y, icpt, reg)  # noqa: E731
    ridge_grid = [(lam,) for lam in LAMBDAS]
    return {
        "gs": search(lm_grid, lm_fit, lm_sse, m + 1, (X, y), (Xv, yv)),
        "gs_train": search(lm_grid, lm_fit, lm_sse, m + 1, (X, y)),
        "gs_cv": search(lm_grid, lm_fit, lm_sse, m + 1, (X, y), k=4),
        "gs_multi": search(ridge_grid, ridge2, ridge2_sse, 2 * m + 3,
                           (X, Y), (Xv, Yv)),
        "gs_multi_cv": search(ridge_grid, ridge2, ridge2_sse, 2 * m + 3,
                              (X, Y), k=5),
    }


def expected_outputs(d):
    out = {}
    for name, (B, opt, _) in searches(d).items():
        out[name + "_B"] = (B, 1e-9, 1e-12)
        out[name + "_hp"] = (opt, 0, 0)
    return out


def margins(d, path):
    """FAIL unless each search's smallest loss is clearly the smallest."""
    failures = 0
    for name, (_, _, gap) in sorted(searches(d).items()):
        failures += not check(name + "_gap", np.array([[gap > 1e-10]]),
                              np.array([[True]]), 0, 0)
    return failures


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs, margins))
