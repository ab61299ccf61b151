"""Data and NumPy oracle for test/Integration/library-linalg.dml.

  library_linalg.py data DIR    writes the inputs (CSV) into DIR
  library_linalg.py check DIR   compares the script's outputs in DIR

lmDS and lm against the regularized normal equations on an explicitly
formed (intercept column, standardized) Z; pca against NumPy's covariance
and eigh (components compared with each column's largest cell positive,
the projections flipped with them), pcaTransform and pcaInverse.
"""

import os
import sys

import numpy as np

from linear_algebra import compare, reader


def inputs():
    rng = np.random.default_rng(17)
    X = rng.standard_normal((120, 5)) @ rng.standard_normal((5, 5))
    X = X * [1, 10, 0.5, 3, 2] + [0, 5, -2, 1, 100]
    X[:, 4] = 7.0  # constant: variance 0, only shifted by lmDS's icpt = 2
    y = X @ [1.5, -0.2, 2, 0.25, 0] + 3 + 0.1 * rng.standard_normal(120)
    P = rng.standard_normal((80, 4)) @ np.diag([5, 3, 1, 0.3])
    P = P @ rng.standard_normal((4, 4)) + [1, -2, 3, 0]
    return X, y.reshape(-1, 1), P


def lm(X, y, icpt, reg):
    n, m = X.shape
    k = m + (icpt > 0)
    Z = np.hstack([X, np.ones((n, 1))]) if icpt > 0 else X.copy()
    s, d = np.ones(k), np.zeros(k)
    if icpt == 2:
        mu, var = X.mean(axis=0), X.var(axis=0, ddof=1)
        s[:m] = 1 / np.sqrt(np.where(var > 0, var, 1.0))
        d[:m] = -mu * s[:m]
        Z = Z * s + d
    lam = np.full(k, reg)
    if icpt > 0:
        lam[-1] = 0
    beta = np.linalg.solve(Z.T @ Z + np.diag(lam), Z.T @ y[:, 0])
    B = s * beta
    if icpt == 2:
        B[-1] += d @ beta
    return B.reshape(-1, 1)


def scaled(X, center, scale):
    Z, C, S = X.copy(), np.zeros((0, 0)), np.zeros((0, 0))
    if center:
        C = Z.mean(axis=0, keepdims=True)
        Z = Z - C
    if scale:
        sd = np.sqrt((Z ** 2).sum(axis=0, keepdims=True) / (len(X) - 1))
        S = np.where(sd == 0, 1.0, sd)
        Z = Z / S
    return Z, C, S


def signs(V):
    return np.sign(V[np.argmax(np.abs(V), axis=0), np.arange(V.shape[1])])


def pca(X, K, center, scale):
    Z, C, S = scaled(X, center, scale)
    w, V = np.linalg.eigh(np.cov(Z, rowvar=False))
    V = V[:, ::-1][:, :K]
    V = V * signs(V)
    return Z @ V, V, C, S


def expected(X, y, P):
    out = {}
    for icpt in (0, 1, 2):
        out[f"lmDS{icpt}"] = lm(X, y, icpt, 1e-3)
    out["lm1"] = lm(X, y, 1, 1e-3)
    for label, c, s in [("cs", True, True), ("c", True, False),
                        ("none", False, False)]:
        R, V, C, S = pca(P, 2, c, s)
        out[f"pcaR_{label}"], out[f"pcaV_{label}"] = R, V
    R, V, C, S = pca(P, 3, True, True)
    out["pcaC"], out["pcaS"], out["pcaV3"] = C, S, V
    Q = 2 * P[:10]
    T = ((Q - C) / S) @ V
    out["transform"] = T
    out["inverse"] = (T @ V.T) * S + C
    out["roundtrip"] = P  # all 4 components: the exact inverse
    return out


def main():
    mode, directory = sys.argv[1], sys.argv[2]
    X, y, P = inputs()
    if mode == "data":
        for name, value in (("X", X), ("y", y), ("P", P)):
            np.savetxt(os.path.join(directory, name + ".csv"), value,
                       delimiter=",", fmt="%.17g")
        return 0
    read = reader(directory)

    def adjust(name, actual):
        # Components and projections up to the components' signs.
        if name.startswith("pcaV"):
            return actual * signs(actual)
        if name.startswith("pcaR"):
            return actual * signs(read("pcaV" + name[4:]))
        if name == "transform":
            return actual * signs(read("pcaV3"))
        return actual

    return compare(expected(X, y, P), read, adjust)


if __name__ == "__main__":
    sys.exit(main())
