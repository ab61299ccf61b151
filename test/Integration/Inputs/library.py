"""Data and NumPy oracle for test/Integration/library.dml.

  library.py data DIR    writes the inputs (CSV) into DIR
  library.py check DIR   compares the script's outputs in DIR with NumPy
"""

import os
import sys

import numpy as np

from results import check


def inputs():
    rng = np.random.default_rng(11)
    X = rng.random((200, 6)) * [1, 10, 100, 1, 3, 5] + [0, -5, 20, 0, 1, 2]
    X[:, 3] = 4.0  # a constant column: variance 0
    y = X @ [1.5, -2, 0.25, 0, 3, 1] + 7 + 0.1 * rng.standard_normal(200)
    return X, y.reshape(-1, 1)


def scale(X, center, scale):
    out, centering, factor = X.copy(), np.zeros((0, 0)), np.zeros((0, 0))
    if center:
        centering = np.nan_to_num(X.mean(axis=0, keepdims=True), nan=0.0)
        out = out - centering
    if scale:
        sd = np.sqrt((out ** 2).sum(axis=0, keepdims=True) / (len(X) - 1))
        factor = np.where(np.isnan(sd) | (sd == 0), 1.0, sd)
        out = out / factor
    return out, centering, factor


def lm(X, y, icpt, reg):
    """The regularized normal equations lmCG solves, directly."""
    n, m = X.shape
    Z, s, d = X, np.ones(m), np.zeros(m)
    lam = np.full(m, reg)
    if icpt > 0:
        Z = np.hstack([X, np.ones((n, 1))])
        s, d, lam = np.ones(m + 1), np.zeros(m + 1), np.r_[lam, 0.0]
    if icpt == 2:
        mu = X.mean(axis=0)
        var = X.var(axis=0, ddof=1)
        s[:m] = np.where(var <= 1e-300, 1.0, 1.0 / np.sqrt(np.maximum(var, 1e-300)))
        d[:m] = -mu * s[:m]
        Z = Z * s + np.outer(np.ones(n), d)
    beta = np.linalg.solve(Z.T @ Z + np.diag(lam), Z.T @ y[:, 0])
    B = s * beta
    if icpt == 2:
        B[m] += d @ beta
    return B.reshape(-1, 1)


def graph():
    """Two components {1, 2, 4} and {3, 5}, and vertex 6 alone."""
    G = np.zeros((6, 6))
    for a, b in [(1, 2), (2, 4), (3, 5)]:
        G[a - 1, b - 1] = G[b - 1, a - 1] = 1
    return G


def labels():
    P = np.array([1, 2, 2, 3, 1, 1, 2, 3], float).reshape(-1, 1)
    Y = np.array([1, 2, 1, 3, 1, 2, 2, 2], float).reshape(-1, 1)
    return P, Y


def more(X):
    """The other library functions' results, by output file name."""
    out = {}
    cmin, cmax = X.min(axis=0, keepdims=True), X.max(axis=0, keepdims=True)
    span = np.where(cmax == cmin, 1.0, cmax - cmin)
    out["normalize"] = (X - cmin) / span
    out["normalize_cmin"], out["normalize_cmax"] = cmin, cmax
    out["normalize_apply"] = (2 * X - cmin) / span
    centered, centering, factor = scale(X, True, True)
    out["scale_apply"] = (2 * X - centering) / factor
    out["scale_apply_c"] = 2 * X - centering
    keep = [0, 1, 2, 4, 5]  # without the constant column (NaN)
    out["cor"] = np.corrcoef(X[:, keep], rowvar=False)
    pts = X[:5, :3]
    out["dist"] = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(-1))
    categories = np.array([3, 1, 2, 3, 1], float).reshape(-1, 1)
    out["onehot"] = np.eye(4)[categories[:, 0].astype(int) - 1]
    P, Y = labels()
    counts = np.zeros((3, 3))
    for p, y in zip(P[:, 0], Y[:, 0]):
        counts[int(p) - 1, int(y) - 1] += 1
    out["confusion_sum"] = counts
    out["confusion_avg"] = counts / counts.sum(axis=0, keepdims=True)
    out["components"] = np.array([4, 4, 5, 4, 5, 6], float).reshape(-1, 1)
    G = graph()
    G = G / np.maximum(G.sum(axis=0, keepdims=True), 1)
    p = np.full((6, 1), 1 / 6)
    u = np.full((1, 6), 1 / 6)
    for _ in range(20):
        p = 0.85 * (G @ p) + 0.15 * (np.ones((6, 1)) @ (u @ p))
    out["pagerank"] = p
    return out


def main():
    mode, directory = sys.argv[1], sys.argv[2]
    X, y = inputs()
    if mode == "data":
        np.savetxt(os.path.join(directory, "X.csv"), X, delimiter=",",
                   fmt="%.17g")
        np.savetxt(os.path.join(directory, "y.csv"), y, delimiter=",",
                   fmt="%.17g")
        np.savetxt(os.path.join(directory, "G.csv"), graph(), delimiter=",",
                   fmt="%.17g")
        P, Y = labels()
        np.savetxt(os.path.join(directory, "P.csv"), P, delimiter=",")
        np.savetxt(os.path.join(directory, "Y.csv"), Y, delimiter=",")
        return 0
    read = lambda name: np.atleast_2d(np.loadtxt(
        os.path.join(directory, name + ".csv"), delimiter=",", ndmin=2))
    expected = {}
    for label, c, s in [("cs", True, True), ("c", True, False),
                        ("s", False, True)]:
        out, centering, factor = scale(X, c, s)
        expected["scale_" + label] = out
        if c:
            expected["centering_" + label] = centering
        if s:
            expected["factor_" + label] = factor
    for icpt in (0, 1, 2):
        B = lm(X, y, icpt, 1e-3)
        expected[f"B{icpt}"] = B
        m = X.shape[1]
        expected[f"yhat{icpt}"] = X @ B[:m] + (B[m] if icpt > 0 else 0)
    expected.update(more(X))
    failures = 0
    for name, value in sorted(expected.items()):
        actual = read(name)
        # CG to a relative residual of 1e-12: the solution to ~1e-9.
        tol = 1e-7 if name.startswith(("B", "yhat")) else 1e-12
        failures += not check(name, actual, value, tol, tol)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
