"""Data and NumPy/SciPy oracles for five DML library functions called
through the bindings (test/Python/builtins.test, test/CAPI/builtins.test):
lm, l2svm, multiLogReg, kmeans and pca, each run to convergence, so that
the optimum (or, for kmeans, Lloyd's fixed point on separated clusters, and
for pca the eigenvectors up to sign) is the oracle.

  library_builtins.py data DIR    writes the inputs as CSV files, DIR/
                                  script.dml (reads them, calls the five,
                                  writes the results) and DIR/shadow/lm.dml
  library_builtins.py check DIR   compares the CSV results written there
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from comparison import first_mismatch  # noqa: E402
from convex_optima import l2svm_optimum, mlogreg_optimum  # noqa: E402

# The calls, with the arguments that run each to convergence. A result
# named NAME is the first output; the oracle compares what `expected` says.
SCRIPT = """\
B = lm(X=X, y=y, verbose=FALSE)
w = l2svm(X=X, Y=Ysvm, epsilon=1e-12, maxIterations=1000)
M = multiLogReg(X=X, Y=Yk, icpt=0, tol=1e-12, reg=1.0, maxi=200,
                verbose=FALSE)
[C, labels] = kmeans(X=Xk, k=3, runs=3, seed=11)
[P, components, centering, scalefactor] = pca(X=Xp, K=2)
"""
INPUTS = ["X", "y", "Ysvm", "Yk", "Xk", "Xp"]
OUTPUTS = ["B", "w", "M", "C", "P"]
# An lm.dml for a builtins folder searched before AMLS's own: B is 42s.
SHADOW_LM = """\
m_lm = function(Matrix[Double] X, Matrix[Double] y, Integer icpt = 0,
                Double reg = 1e-7, Double tol = 1e-7, Integer maxi = 0,
                Boolean verbose = TRUE) return (Matrix[Double] B) {
  B = matrix(42, rows=ncol(X), cols=1)
}
"""


def data(seed=7):
    rng = np.random.default_rng(seed)
    n, m = 200, 5
    X = rng.standard_normal((n, m))
    y = X @ rng.standard_normal((m, 1)) + 0.1 * rng.standard_normal((n, 1))
    Ysvm = np.where(X[:, :1] + 0.5 * X[:, 1:2] > 0.2, 1.0, -1.0)
    Yk = 1.0 + np.argmax(X[:, :3] + 0.3 * rng.standard_normal((n, 3)),
                         axis=1).reshape(-1, 1)
    centers = np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]])
    Xk = np.vstack([c + rng.standard_normal((50, 2)) for c in centers])
    Xp = rng.standard_normal((100, 4)) @ rng.standard_normal((4, 4))
    return dict(X=X, y=y, Ysvm=Ysvm, Yk=Yk, Xk=Xk, Xp=Xp)


def lm(X, y, reg=1e-7):
    return np.linalg.solve(X.T @ X + reg * np.eye(X.shape[1]), X.T @ y)


def kmeans_centroids(Xk):
    """The means of the three generated blobs (50 rows each), which Lloyd's
    iterations reach from any seeding on clusters this far apart."""
    return np.vstack([Xk[i * 50:(i + 1) * 50].mean(axis=0)
                      for i in range(3)])


def pca_projection(Xp, K=2):
    Z = (Xp - Xp.mean(axis=0)) / Xp.std(axis=0, ddof=1)
    values, vectors = np.linalg.eigh(np.cov(Z, rowvar=False))
    return Z @ vectors[:, np.argsort(values)[::-1][:K]]


def sorted_rows(C):
    return C[np.lexsort(C.T[::-1])]


def align_signs(P, reference):
    """P's columns with the signs of the reference's (an eigenvector is
    unique up to its sign)."""
    signs = np.sign(np.sum(P * reference, axis=0))
    signs[signs == 0] = 1.0
    return P * signs


def check(results, d):
    """Lines 'PASS: name' or 'FAIL: name: why' for the results (a dict of
    NumPy arrays) against the oracles."""
    expected = {
        "B": (lm(d["X"], d["y"]), results["B"], 1e-8),
        "w": (l2svm_optimum(d["X"], d["Ysvm"], False, 1.0), results["w"],
              1e-6),
        "M": (mlogreg_optimum(d["X"], d["Yk"], 0, 1.0), results["M"], 1e-5),
        "C": (sorted_rows(kmeans_centroids(d["Xk"])),
              sorted_rows(np.asarray(results["C"])), 1e-9),
    }
    reference = pca_projection(d["Xp"])
    expected["P"] = (reference, align_signs(np.asarray(results["P"]),
                                            reference), 1e-8)
    lines = []
    for name in OUTPUTS:
        want, got, rtol = expected[name]
        got = np.atleast_2d(np.asarray(got, dtype=np.float64))
        if got.shape != want.shape:
            lines.append(f"FAIL: {name}: shape {got.shape}, oracle "
                         f"{want.shape}")
            continue
        scale = max(1.0, float(np.abs(want).max()))
        problem = first_mismatch(got, want, rtol, rtol * scale)
        lines.append(f"FAIL: {name}: {problem}" if problem else
                     f"PASS: {name} {want.shape[0]}x{want.shape[1]}")
    return lines


def main():
    command, folder = sys.argv[1], sys.argv[2]
    d = data()
    if command == "data":
        for name in INPUTS:
            np.savetxt(os.path.join(folder, name + ".csv"), d[name],
                       delimiter=",", fmt="%.17g")
        with open(os.path.join(folder, "script.dml"), "w") as out:
            out.write("".join(f'{name} = read($dir + "/{name}.csv")\n'
                              for name in INPUTS))
            out.write(SCRIPT)
            out.write("".join(f'write({name}, $dir + "/{name}.csv", '
                              f'format="csv")\n' for name in OUTPUTS))
        os.makedirs(os.path.join(folder, "shadow"), exist_ok=True)
        with open(os.path.join(folder, "shadow", "lm.dml"), "w") as out:
            out.write(SHADOW_LM)
        return 0
    results = {}
    for name in OUTPUTS:
        path = os.path.join(folder, name + ".csv")
        if not os.path.exists(path):
            print(f"FAIL: {name}: not written")
            return 1
        results[name] = np.loadtxt(path, delimiter=",", ndmin=2)
    lines = check(results, d)
    print("\n".join(lines))
    return 0 if all(line.startswith("PASS") for line in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
