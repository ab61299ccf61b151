"""Data and NumPy oracle for test/Integration/library.dml.

  library.py data DIR    writes the inputs (CSV) into DIR
  library.py check DIR   compares the script's outputs in DIR with NumPy
"""

import os
import sys

import numpy as np


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


def main():
    mode, directory = sys.argv[1], sys.argv[2]
    X, y = inputs()
    if mode == "data":
        np.savetxt(os.path.join(directory, "X.csv"), X, delimiter=",",
                   fmt="%.17g")
        np.savetxt(os.path.join(directory, "y.csv"), y, delimiter=",",
                   fmt="%.17g")
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
    failures = 0
    for name, value in sorted(expected.items()):
        actual = read(name)
        # CG to a relative residual of 1e-12: the solution to ~1e-9.
        tol = 1e-7 if name.startswith(("B", "yhat")) else 1e-12
        ok = actual.shape == value.shape and np.allclose(
            actual, value, rtol=tol, atol=tol)
        print(f"{'PASS' if ok else 'FAIL'}: {name} "
              f"{'x'.join(map(str, value.shape))}")
        if not ok:
            failures += 1
            print(f"  AMLS {actual.ravel()[:8]}\n  NumPy {value.ravel()[:8]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
