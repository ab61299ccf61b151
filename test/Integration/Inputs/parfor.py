"""Data and NumPy oracle for test/Integration/parfor.dml.

  parfor.py data DIR             writes the inputs (CSV) into DIR
  parfor.py check DIR BASE TAG...
                                 compares the outputs of run BASE and of
                                 each run TAG with NumPy, and every TAG's
                                 with BASE's (a sequential run): they must
                                 be identical.
"""

import os
import sys

import numpy as np

from results import check

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from oracle import amls_rand  # noqa: E402


def data(directory):
    rng = np.random.default_rng(19)
    X = rng.standard_normal((1000, 8))
    y = X @ rng.standard_normal((8, 1)) + 0.1 * rng.standard_normal((1000, 1))
    D = rng.standard_normal((300, 6)) @ rng.standard_normal((6, 6))
    W = 0.3 * rng.standard_normal((8, 3))
    labels = rng.integers(1, 5, size=(1000, 1)).astype(float)
    perm = (rng.permutation(1000) + 1).astype(float)[:, None]
    for name, value in dict(X=X, y=y, D=D, W=W, labels=labels,
                            perm=perm).items():
        np.savetxt(os.path.join(directory, name + ".csv"), value,
                   delimiter=",", fmt="%.17g")


def load(directory, name):
    return np.loadtxt(os.path.join(directory, name + ".csv"), delimiter=",",
                      ndmin=2)


def ridge(X, y, reg):
    return np.linalg.solve(X.T @ X + reg * np.eye(X.shape[1]), X.T @ y)


def expected(directory):
    X, y, D, W = (load(directory, n) for n in ("X", "y", "D", "W"))
    labels = load(directory, "labels")
    perm = load(directory, "perm").astype(int)[:, 0]
    reg = 10.0 ** np.arange(-1, -13, -1)
    grid = np.vstack([ridge(X, y, r).T for r in reg])
    m = D.shape[1]
    corr = np.triu(np.corrcoef(D, rowvar=False), k=1)
    assert corr.shape == (m, m)
    E = np.exp(X @ W)
    scores = E / E.sum(axis=1, keepdims=True)
    k = int(labels.max())
    classes = np.hstack([ridge(X, 2.0 * (labels == c) - 1, 1.0)
                         for c in range(1, k + 1)])
    random = np.vstack([amls_rand(7 + i, 50, 4, -1.0, 1.0, 1.0).sum(axis=0)
                        for i in range(1, 21)])
    norms = np.linalg.norm(D, axis=0)[None, :]
    shift = X[:200].copy()
    shift[:199] = 2 * X[1:200]
    scatter = np.zeros((len(perm), 4))
    scatter[perm - 1] = X[:, :4]
    return dict(grid=grid, corr=corr, scores=scores, classes=classes,
                random=random, norms=norms, shift=shift, scatter=scatter)


def main():
    if sys.argv[1] == "data":
        data(sys.argv[2])
        return 0
    directory, tags = sys.argv[2], sys.argv[3:]
    reference = expected(directory)
    baseline = {name: load(directory, f"{name}_{tags[0]}")
                for name in reference}
    ok = True
    for tag in tags:
        same = True
        if tag == tags[0] and len(tags) > 1:
            for name, value in reference.items():
                ok &= check(f"{name} {tag}", baseline[name], value,
                            rtol=1e-9, atol=1e-11)
            continue
        for name, value in reference.items():
            actual = load(directory, f"{name}_{tag}")
            ok &= check(f"{name} {tag}", actual, value, rtol=1e-9, atol=1e-11)
            same &= np.array_equal(actual, baseline[name])
        if len(tags) > 1:
            print(f"{'PASS' if same else 'FAIL'}: identical {tag}")
            ok &= same
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
