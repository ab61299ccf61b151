"""NumPy reference for examples/l2svm.dml (L2SVM, nonlinear CG + Newton line search).

generate(directory, size) writes X.csv and Y.csv (labels -1/+1) and returns
the --arg pairs; reference(args) runs the same iterations as the DML script
and asserts that the result is (close to) the optimum of the primal objective.
"""

import os

import numpy as np

from common import as_bool, read_csv, read_matrix, write_text_cell

SCRIPT = "l2svm.dml"
# A tight epsilon (1e-12) brings both runs to within ~1e-7 of the optimum, so
# even a stopping test that flips by one iteration stays inside these bounds.
TOLERANCE = (1e-6, 1e-8)

SIZES = {
    "small": dict(rows=200, cols=10, seed=11),
    "large": dict(rows=100000, cols=100, seed=12),
    # Binned features (a few dozen values per column), for
    # --formats=compressed.
    "categorical": dict(rows=20000, cols=10, seed=13, categorical=True),
    # Six categorical features one-hot encoded (78 columns, 6 non-zeros a
    # row): CSR, which --formats=compressed compresses without densifying.
    "onehot": dict(rows=20000, cols=78, seed=14,
                   categories=(3, 5, 8, 12, 20, 30)),
}


def generate(directory, size="small"):
    spec = SIZES[size]
    n, m = spec["rows"], spec["cols"]
    rng = np.random.default_rng(spec["seed"])
    X = rng.standard_normal((n, m)) * rng.uniform(0.5, 2.0, size=m)
    if spec.get("categorical"):
        X = np.round(X * 4.0) / 4.0
    if spec.get("categories"):
        X = np.hstack([np.eye(c)[rng.integers(0, c, n)]
                       for c in spec["categories"]])
    w = rng.standard_normal((m, 1))
    # Noisy linear labels with an offset: not separable, so there are support
    # vectors on both sides and the intercept matters.
    score = X @ w + 0.5 + 0.5 * np.sqrt(m) * rng.standard_normal((n, 1))
    Y = np.where(score > 0, 1.0, -1.0)
    paths = {name: os.path.join(directory, name + ".csv") for name in ("X", "Y", "w")}
    if spec.get("categories"):
        # Text-cell with its .mtd: read straight into CSR.
        paths["X"] = os.path.join(directory, "X")
        write_text_cell(paths["X"], X)
    else:
        np.savetxt(paths["X"], X, delimiter=",")
    np.savetxt(paths["Y"], Y, delimiter=",")
    return {
        "X": paths["X"],
        "Y": paths["Y"],
        "model": paths["w"],
        "icpt": True,
        "reg": 1.0,
        "tol": 1e-12,
        "maxi": 100,
        "maxii": 20,
        "verbose": True,
    }


def l2svm(X, Y, intercept=False, epsilon=0.001, reg=1.0, maxIterations=100, maxii=20):
    """Statement-by-statement transcription of the DML function l2svm.

    Returns (w, X_with_intercept, Y_scaled, outer_iterations).
    """
    check_min, check_max = Y.min(), Y.max()
    if check_min != -1 or check_max != 1:
        Y = 2 / (check_max - check_min) * Y - (check_min + check_max) / (check_max - check_min)
    if intercept:
        X = np.hstack([X, np.ones((X.shape[0], 1))])
    w = np.zeros((X.shape[1], 1))
    g_old = X.T @ Y
    s = g_old
    Xw = np.zeros((X.shape[0], 1))
    it = 0
    cont = True
    while cont and it < maxIterations:
        step_sz = 0.0
        Xd = X @ s
        wd = reg * float(np.sum(w * s))
        dd = reg * float(np.sum(s * s))
        cont1 = True
        iiter = 0
        while cont1 and iiter < maxii:
            out = 1 - Y * (Xw + step_sz * Xd)
            sv = (out > 0).astype(float)
            out = out * sv
            g = wd + step_sz * dd - float(np.sum(out * Y * Xd))
            h = dd + float(np.sum(Xd * sv * Xd))
            step_sz = step_sz - g / h
            cont1 = g * g / h >= epsilon
            iiter += 1
        w = w + step_sz * s
        Xw = Xw + step_sz * Xd
        out = 1 - Y * Xw
        sv = (out > 0).astype(float)
        out = sv * out
        obj = 0.5 * float(np.sum(out * out)) + reg / 2 * float(np.sum(w * w))
        g_new = X.T @ (out * Y) - reg * w
        tmp = float(np.sum(s * g_old))
        cont = (step_sz * tmp >= epsilon * obj) and float(np.sum(s ** 2)) != 0
        be = float(np.sum(g_new * g_new)) / float(np.sum(g_old * g_old))
        s = be * s + g_new
        g_old = g_new
        it += 1
    return w, X, Y, it


def reference(args):
    X = read_matrix(args["X"])
    Y = read_csv(args["Y"])
    reg = float(args.get("reg", 1.0))
    w, Xi, Ys, iters = l2svm(
        X, Y, intercept=as_bool(args.get("icpt", False)),
        epsilon=float(args.get("tol", 0.001)), reg=reg,
        maxIterations=int(args.get("maxi", 100)), maxii=int(args.get("maxii", 20)))
    # Self-check: the gradient of the (convex, piecewise quadratic) objective
    # vanishes at the result, relative to the gradient at w = 0.
    if float(args.get("tol", 0.001)) <= 1e-9:
        out = np.maximum(0.0, 1 - Ys * (Xi @ w))
        grad = reg * w - Xi.T @ (out * Ys)
        grad0 = Xi.T @ Ys
        rel = np.linalg.norm(grad) / np.linalg.norm(grad0)
        assert rel < 1e-5, f"l2svm reference: not converged, relative gradient norm {rel:g}"
    return {args["model"]: w}
