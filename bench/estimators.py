#!/usr/bin/env python3
"""make bench-estimators: amls.sklearn against scikit-learn on the same NumPy
data at 2 threads (issue 44): fit time (best of --repeat fits after a first
one, whose compile time is reported apart), with the training objective or
accuracy of both; and the lazy API against the same program in DML. Not a
test: a measurement. Run with OPENBLAS_CORETYPE=SkylakeX (docs/performance.md).

    estimators.py [--scale 1.0] [--repeat 3] [--only "k-means"]
"""

import argparse
import os
import resource
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "2")
os.environ.setdefault("OMP_NUM_THREADS", "2")

import numpy as np  # noqa: E402
import sklearn.cluster  # noqa: E402
import sklearn.decomposition  # noqa: E402
import sklearn.linear_model  # noqa: E402
import sklearn.svm  # noqa: E402

import amls  # noqa: E402
from amls import sklearn as asl  # noqa: E402


def best_of(repeat, fit):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fit()
        times.append(time.perf_counter() - start)
    return min(times)


def first_fit(fit):
    session = amls.get_session()
    before = session.stats()
    start = time.perf_counter()
    fit()
    total = time.perf_counter() - start
    after = session.stats()
    compile_s = (after["optimize_ms"] - before["optimize_ms"] +
                 after["compile_ms"] - before["compile_ms"]) / 1000
    return total, compile_s


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--scale", type=float, default=1.0,
                        help="row counts times this")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="",
                        help="run the cases whose name starts with this "
                             "(one process per case keeps the runtimes' "
                             "spinning threads from timing each other)")
    args = parser.parse_args()
    amls.set_session(amls.Session(threads=2))
    rng = np.random.default_rng(42)
    rows = lambda n: max(1000, int(n * args.scale))  # noqa: E731

    n, m = rows(200_000), 100
    X = rng.normal(size=(n, m))
    w = rng.normal(size=m)
    y = X @ w + rng.normal(size=n)
    labels2 = np.where(X @ w + rng.normal(size=n) > 0, 1, 0)
    n5, m5 = rows(100_000), 50
    centers = rng.normal(scale=2.0, size=(5, m5))
    classes5 = rng.integers(0, 5, size=n5)
    X5 = centers[classes5] + rng.normal(size=(n5, m5))
    nk, mk, k = rows(200_000), 20, 10
    Xk = rng.normal(scale=3.0, size=(k, mk))[rng.integers(0, k, size=nk)] + \
        rng.normal(size=(nk, mk))
    C0 = Xk[:k].copy()

    def svm_objective(model, X, y, C):
        coef = np.ravel(model.coef_)
        margin = np.maximum(0, 1 - (2 * y - 1) * (X @ coef + model.intercept_[0]))
        return 0.5 * (coef @ coef + model.intercept_[0] ** 2) + C * (margin ** 2).sum()

    cases = [
        (f"ridge {n}x{m}", lambda: asl.Ridge(alpha=1.0),
         lambda: sklearn.linear_model.Ridge(alpha=1.0), X, y,
         lambda e: f"R^2 {e.score(X, y):.6f}"),
        (f"LinearSVC {n}x{m}",
         lambda: asl.LinearSVC(C=1.0, tol=1e-4),
         lambda: sklearn.svm.LinearSVC(C=1.0, tol=1e-4, dual=False), X,
         labels2,
         lambda e: f"objective {svm_objective(e, X, labels2, 1.0):.6g}, "
                   f"accuracy {e.score(X, labels2):.4f}"),
        (f"logistic 5 classes {n5}x{m5}",
         lambda: asl.LogisticRegression(C=1.0, tol=1e-6),
         lambda: sklearn.linear_model.LogisticRegression(C=1.0, tol=1e-6,
                                                         max_iter=1000),
         X5, classes5, lambda e: f"accuracy {e.score(X5, classes5):.4f}"),
        (f"k-means k={k} 20 iterations {nk}x{mk}",
         lambda: asl.KMeans(k, init=C0, n_init=1, max_iter=20, tol=0.0),
         lambda: sklearn.cluster.KMeans(k, init=C0, n_init=1, max_iter=20,
                                        tol=0.0, algorithm="lloyd"),
         Xk, None, lambda e: f"inertia {e.inertia_:.8g}"),
        (f"PCA 10 components {n}x{m}", lambda: asl.PCA(10),
         lambda: sklearn.decomposition.PCA(10, svd_solver="full"), X, None,
         lambda e: f"explained {e.explained_variance_ratio_.sum():.6f}"),
    ]
    print(f"| case | scikit-learn s | AMLS s | speed-up | AMLS first fit s "
          f"(compile s) | scikit-learn | AMLS |")
    print("|---|---|---|---|---|---|---|")
    for name, ours, theirs, data, target, quality in cases:
        if not name.startswith(args.only):
            continue
        fit_args = (data,) if target is None else (data, target)
        ours_model, ref_model = ours(), theirs()
        first, compile_s = first_fit(lambda: ours_model.fit(*fit_args))
        ours_s = best_of(args.repeat, lambda: ours_model.fit(*fit_args))
        ref_s = best_of(args.repeat, lambda: ref_model.fit(*fit_args))
        print(f"| {name} | {ref_s:.3f} | {ours_s:.3f} | {ref_s / ours_s:.2f}x "
              f"| {first:.2f} ({compile_s:.2f}) | {quality(ref_model)} | "
              f"{quality(ours_model)} |", flush=True)

    # The lazy API against the same program in DML: ridge's normal
    # equations and residual.
    session = amls.get_session()
    script = session.compile_dml(
        "b = solve(t(X) %*% X + 0.5 * diag(matrix(1, ncol(X), 1)), t(X) %*% y)\n"
        "r = sum((X %*% b - y) ^ 2)\n", outputs=["b", "r"])

    def lazy():
        A, v = amls.array(X), amls.array(y)
        b = amls.solve(A.T @ A + 0.5 * amls.diag(amls.ones(m)), A.T @ v)
        return amls.compute(b, ((A @ b - v) ** 2).sum())

    lazy(), script(X=X, y=y)
    lazy_s = best_of(args.repeat, lazy)
    dml_s = best_of(args.repeat, lambda: script(X=X, y=y))
    print(f"\nlazy API {lazy_s:.4f} s, DML {dml_s:.4f} s: lazy / DML = "
          f"{lazy_s / dml_s:.3f}")
    print(f"peak memory (process): "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
