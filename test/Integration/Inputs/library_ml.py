"""Data and NumPy/SciPy oracle for test/Integration/library-ml.dml (the DML
library's classifiers and clustering).

  library_ml.py data DIR    writes the inputs (CSV) into DIR
  library_ml.py check DIR   compares the script's outputs in DIR

l2svm and multiLogReg are checked twice: against the examples' NumPy
transcriptions of the same iterations (examples/reference/, to ~1e-8), and,
where they run to convergence, against the optimum of their objective found
independently by scipy.optimize (L-BFGS-B). kmeans is checked against a NumPy
version of its runs that draws from the same counter-based generator as
amls.rand (test/Integration/oracle.py), and each centroid against the mean of
its records (a fixed point of Lloyd's iterations).
"""

import importlib.util
import os
import sys

import numpy as np

from results import check
from convex_optima import l2svm_optimum, mlogreg_optimum

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(ROOT, "examples", "reference"))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


l2svm_ref = load(os.path.join(ROOT, "examples", "reference", "l2svm.py"),
                 "l2svm_ref")
mlogreg_ref = load(os.path.join(ROOT, "examples", "reference", "mlogreg.py"),
                   "mlogreg_ref")
amls_rand = load(os.path.join(ROOT, "test", "Integration", "oracle.py"),
                 "amls_oracle").amls_rand


def inputs():
    rng = np.random.default_rng(23)
    n, m = 300, 5
    X = rng.standard_normal((n, m)) * [1, 3, 0.5, 2, 1] + [0, 1, -1, 0, 2]
    score = X @ rng.standard_normal(m) + 0.3 + rng.standard_normal(n)
    Y2 = np.where(score > 0, 2.0, 1.0).reshape(-1, 1)  # l2svm: labels 1/2
    W = rng.standard_normal((m, 3))
    Yk = (np.argmax(X @ W + rng.standard_normal((n, 3)), axis=1) + 1.0)
    centres = np.array([[0, 0, 0], [6, 6, 0], [-6, 3, 5], [2, -7, 1]], float)
    Xc = centres[rng.integers(0, 4, 400)] + rng.standard_normal((400, 3))
    return dict(X=X, Y2=Y2, Yk=Yk.reshape(-1, 1), Xc=Xc,
                Xt=rng.standard_normal((20, m)),
                Xq=rng.uniform(-8, 8, (30, 3)))


def mlogreg_predict(X, B, Y):
    m = X.shape[1]
    LT = X @ B[:m] + (B[m] if len(B) > m else 0)
    LT = np.hstack([LT, np.zeros((len(X), 1))])
    E = np.exp(LT - LT.max(axis=1, keepdims=True))
    M = E / E.sum(axis=1, keepdims=True)
    pred = np.argmax(M, axis=1).reshape(-1, 1) + 1.0
    return M, pred, 100.0 * np.mean(pred == Y)


# ---- kmeans -----------------------------------------------------------------

def kmeans(X, k, runs, max_iter, eps, per_centroid, seed):
    """kmeans.dml's runs in NumPy (seeds as documented there)."""
    n = len(X)
    sumXsq = np.sum(X ** 2)
    wanted = k * per_centroid
    best, C = np.inf, None
    for r in range(1, runs + 1):
        base = seed + (r - 1) * (k + 1)
        S = X
        if wanted < n:
            keep = amls_rand(base, n, 1, 0.0, 1.0, 1.0)[:, 0] < wanted / n
            if keep.sum() >= k:
                S = X[keep]
        size = len(S)
        u = amls_rand(base + 1, 1, 1, 0.0, 1.0, 1.0)[0, 0]
        Cr = S[[int(np.floor(u * size))]]
        nearest = ((S - Cr) ** 2).sum(axis=1)
        for i in range(2, k + 1):
            cdf = np.cumsum(nearest)
            t = amls_rand(base + i, 1, 1, 0.0, 1.0, 1.0)[0, 0] * cdf[-1]
            nxt = min(int(np.sum(cdf < t)), size - 1)
            Cr = np.vstack([Cr, S[nxt]])
            nearest = np.minimum(nearest, ((S - S[nxt]) ** 2).sum(axis=1))
        wcss, it, done = np.inf, 0, False
        while not done and it < max_iter:
            D = -2 * X @ Cr.T + (Cr ** 2).sum(axis=1)
            minD = D.min(axis=1, keepdims=True)
            P = (D <= minD).astype(float)
            P /= P.sum(axis=1, keepdims=True)
            sizes = P.sum(axis=0)
            it += 1
            new = minD.sum() + sumXsq
            if sizes.min() == 0:
                done = True
            else:
                Cr = (P.T @ X) / sizes[:, None]
                done = wcss - new <= eps * new
                wcss = new
        final = (-2 * X @ Cr.T + (Cr ** 2).sum(axis=1)).min(axis=1).sum() \
            + sumXsq
        if final < best:
            best, C = final, Cr
    return C


def nearest(X, C):
    D = ((X[:, None, :] - C[None, :, :]) ** 2).sum(-1)
    return np.argmin(D, axis=1).reshape(-1, 1) + 1.0


def expected_outputs(d):
    X, Y2, Yk, Xc = d["X"], d["Y2"], d["Yk"], d["Xc"]
    Ypm = 2 * Y2 - 3  # 1/2 -> -1/+1
    out = {}  # name -> (value, rtol, atol)
    w, _, _, _ = l2svm_ref.l2svm(X, Y2, intercept=True, epsilon=1e-12,
                                 reg=1.0, maxIterations=100, maxii=20)
    out["svm_w1"] = (w, 1e-8, 1e-10)
    out["svm_w1_opt"] = (l2svm_optimum(X, Ypm, True, 1.0), 1e-5, 1e-6)
    w0, _, _, _ = l2svm_ref.l2svm(X, Ypm, intercept=False, epsilon=0.001,
                                  reg=0.5, maxIterations=3, maxii=20)
    out["svm_w0"] = (w0, 1e-9, 1e-12)
    out["svm_raw"] = (d["Xt"] @ w[:5] + w[5], 1e-8, 1e-10)
    out["svm_y"] = (np.ones((20, 1)), 0, 0)
    for icpt in (0, 1, 2):
        B, _ = mlogreg_ref.multilogreg(X, Yk, icpt=icpt, tol=1e-12, reg=0.5,
                                       maxi=100, maxii=0)
        # Converged: the last iteration's stopping tests (a gradient norm
        # or an objective change near their thresholds) may fall either
        # way between the runs, which moves B by up to ~1e-7 relative.
        out[f"mlr_B{icpt}"] = (B, 1e-6, 1e-9)
        out[f"mlr_B{icpt}_opt"] = (mlogreg_optimum(X, Yk, icpt, 0.5),
                                   1e-5, 1e-6)
    B3, _ = mlogreg_ref.multilogreg(X, Yk, icpt=2, tol=1e-6, reg=1.0, maxi=2,
                                    maxii=3)
    out["mlr_B_short"] = (B3, 1e-9, 1e-12)
    B, _ = mlogreg_ref.multilogreg(X, Yk, icpt=2, tol=1e-12, reg=0.5,
                                   maxi=100, maxii=0)
    M, pred, acc = mlogreg_predict(X, B, Yk)
    out["mlr_M"] = (M, 1e-6, 1e-10)
    out["mlr_pred"] = (pred, 0, 0)
    out["mlr_acc"] = (np.array([[acc]]), 1e-12, 0)
    C = kmeans(Xc, 4, runs=3, max_iter=100, eps=1e-12, per_centroid=20,
               seed=5)
    out["km_C"] = (C, 1e-9, 1e-12)
    out["km_Y"] = (nearest(Xc, C), 0, 0)
    out["km_pred"] = (nearest(d["Xq"], C), 0, 0)
    return out


def write_inputs(d, path):
    for name, value in d.items():
        np.savetxt(path(name), value, delimiter=",", fmt="%.17g")


def compare(expected, path):
    """PASS/FAIL per output (NAME_opt compares NAME's file with a second
    oracle); returns the number of failures."""
    failures = 0
    for name, (value, rtol, atol) in sorted(expected.items()):
        base = name[:-4] if name.endswith("_opt") else name
        actual = np.loadtxt(path(base), delimiter=",", ndmin=2)
        failures += not check(name, actual, value, rtol, atol,
                              equal_nan=True)
    return failures


def oracle_main(inputs, expected_outputs, more_checks=None):
    """`NAME.py data DIR` writes inputs() into DIR, `NAME.py check DIR`
    compares the outputs there with expected_outputs(inputs()) (and
    more_checks(inputs, path) failures); the exit status of a library
    oracle."""
    mode, directory = sys.argv[1], sys.argv[2]
    d = inputs()
    path = lambda name: os.path.join(directory, name + ".csv")
    if mode == "data":
        write_inputs(d, path)
        return 0
    failures = compare(expected_outputs(d), path)
    if more_checks:
        failures += more_checks(d, path)
    return 1 if failures else 0


def kmeans_fixed_point(d, path):
    """kmeans: every centroid the mean of its records (Lloyd's fixed
    point)."""
    C = np.loadtxt(path("km_C"), delimiter=",", ndmin=2)
    Y = nearest(d["Xc"], C)[:, 0]
    ok = all(np.allclose(d["Xc"][Y == j + 1].mean(axis=0), C[j], rtol=1e-9,
                         atol=1e-12) for j in range(len(C)))
    print(f"{'PASS' if ok else 'FAIL'}: km_fixed_point")
    return not ok


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs, kmeans_fixed_point))
