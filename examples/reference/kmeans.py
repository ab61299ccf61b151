"""NumPy reference for examples/kmeans.dml (k-means++ seeding and Lloyd's
iterations).

generate(directory, size) writes records drawn around k well-separated centres;
reference(args) repeats the script's steps, drawing the k-means++ samples
from the same counter-based generator as amls.rand (test/Integration/
oracle.py has its NumPy version), and asserts that the result is a fixed point
of Lloyd's algorithm: every centroid is the mean of the records nearest to it.
"""

import importlib.util
import os

import numpy as np

SCRIPT = "kmeans.dml"
TOLERANCE = (1e-9, 1e-12)

# The large size iterates until the within-cluster sum of squares stops
# falling (eps 0): with eps 1e-12 and 100 iterations, Lloyd's algorithm on
# 200,000 records stopped while records still moved between clusters, and
# the reference's fixed-point self-check failed (centroid 2 off by 0.0024).
SIZES = {
    "small": dict(rows=600, cols=4, clusters=5, seed=51, eps=1e-12, maxi=100),
    "large": dict(rows=200000, cols=20, clusters=10, seed=52, eps=0,
                  maxi=1000),
    # Binned features (values on a 0.5 grid), for --formats=compressed.
    "categorical": dict(rows=20000, cols=8, clusters=5, seed=53, eps=1e-12,
                        maxi=100, categorical=True),
}

_ORACLE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "test", "Integration", "oracle.py")


def _amls_rand():
    spec = importlib.util.spec_from_file_location("amls_oracle", _ORACLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.amls_rand


def generate(directory, size="small"):
    spec = SIZES[size]
    n, m, k = spec["rows"], spec["cols"], spec["clusters"]
    rng = np.random.default_rng(spec["seed"])
    centres = rng.uniform(-10.0, 10.0, size=(k, m))
    X = centres[rng.integers(0, k, n)] + rng.standard_normal((n, m))
    if spec.get("categorical"):
        X = np.round(X * 2.0) / 2.0
    paths = {name: os.path.join(directory, name + ".csv") for name in ("X", "C", "Y")}
    np.savetxt(paths["X"], X, delimiter=",", fmt="%.17g")
    return {"X": paths["X"], "k": k, "C": paths["C"], "Y": paths["Y"],
            "maxi": spec["maxi"], "eps": spec["eps"], "seed": 7,
            "verbose": True}


def kmeans(X, k, max_iter, eps, seed):
    rand = _amls_rand()
    n = X.shape[0]
    sumXsq = float(np.sum(X ** 2))
    first = int(np.floor(rand(seed, 1, 1, 0.0, 1.0, 1.0)[0, 0] * n)) + 1
    C = X[first - 1:first, :]
    min_distances = np.sum((X - C) ** 2, axis=1, keepdims=True)
    for i in range(2, k + 1):
        cdf = np.cumsum(min_distances, axis=0)
        threshold = rand(seed + i, 1, 1, 0.0, 1.0, 1.0)[0, 0] * cdf[n - 1, 0]
        next_id = int(np.sum(cdf < threshold)) + 1
        C = np.vstack([C, X[next_id - 1:next_id, :]])
        min_distances = np.minimum(
            min_distances, np.sum((X - X[next_id - 1]) ** 2, axis=1, keepdims=True))
    wcss = np.inf
    iters = 0
    converged = False
    while not converged and iters < max_iter:
        D = -2 * (X @ C.T) + np.sum(C ** 2, axis=1)[None, :]
        minD = D.min(axis=1, keepdims=True)
        P = (D <= minD).astype(float)
        P = P / P.sum(axis=1, keepdims=True)
        P_denom = P.sum(axis=0)
        iters += 1
        wcss_new = float(np.sum(minD)) + sumXsq
        if P_denom.min() == 0:
            converged = True
        else:
            C = (P.T @ X) / P_denom[:, None]
            converged = wcss - wcss_new <= eps * wcss_new
            wcss = wcss_new
    D = -2 * (X @ C.T) + np.sum(C ** 2, axis=1)[None, :]
    Y = np.argmax(-D, axis=1)[:, None] + 1.0
    return C, Y


def reference(args):
    X = np.loadtxt(args["X"], delimiter=",", ndmin=2)
    k = int(args["k"])
    C, Y = kmeans(X, k, int(args.get("maxi", 100)), float(args.get("eps", 1e-6)),
                  int(args.get("seed", 7)))
    # Self-check: Lloyd's fixed point, each centroid the mean of its records.
    if float(args.get("eps", 1e-6)) <= 1e-9:
        for j in range(k):
            members = X[Y[:, 0] == j + 1]
            assert len(members) > 0, "kmeans reference: an empty cluster"
            err = np.abs(members.mean(axis=0) - C[j]).max()
            assert err < 1e-9, f"kmeans reference: centroid {j + 1} is off by {err:g}"
    return {args["C"]: C, args["Y"]: Y}


def check_output(text, args):
    Y = reference(args)[args["Y"]]
    sizes = np.bincount(Y[:, 0].astype(int) - 1, minlength=int(args["k"]))
    # toString prints a row as DML does: three decimals, space-separated.
    expected = "K-means: cluster sizes " + " ".join(f"{s:.3f}" for s in sizes)
    if expected not in text:
        return f"expected '{expected}'"
    return None
