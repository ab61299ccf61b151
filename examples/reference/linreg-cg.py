"""NumPy reference for examples/linreg-cg.dml (linear regression by CG).

generate(directory, size) writes X.csv and y.csv and returns the --arg pairs;
reference(args) recomputes B with the same CG iterations as the DML script and
asserts that the result agrees with the closed-form ridge solution and with
np.linalg.lstsq.
"""

import os

import numpy as np

from common import read_csv

SCRIPT = "linreg-cg.dml"
# (rtol, atol) for numpy.allclose against amls-run's output.
TOLERANCE = (1e-6, 1e-9)

SIZES = {
    "small": dict(rows=200, cols=10, seed=1),
    "large": dict(rows=100000, cols=100, seed=2),
    # Binned features (30 to 160 values per column), for --formats=compressed.
    "categorical": dict(rows=20000, cols=10, seed=3, categorical=True),
}


def generate(directory, size="small"):
    spec = SIZES[size]
    n, m = spec["rows"], spec["cols"]
    rng = np.random.default_rng(spec["seed"])
    # Features with different scales and offsets, so that icpt=2 (shift and
    # rescale) has something to do.
    scales = rng.uniform(0.5, 5.0, size=m)
    offsets = rng.uniform(-3.0, 3.0, size=m)
    # Correlated features: the singular values of the mixing matrix range
    # from 1 to 10, so CG needs a few dozen iterations rather than a handful.
    Q, _ = np.linalg.qr(rng.standard_normal((m, m)))
    mix = Q @ np.diag(np.geomspace(1.0, 10.0, m)) @ Q.T
    X = (rng.standard_normal((n, m)) @ mix) * scales + offsets
    if spec.get("categorical"):
        X = np.round(X * (1 + np.arange(m) % 4) / scales) / 4.0
    beta = rng.uniform(-2.0, 2.0, size=(m, 1))
    y = X @ beta + 3.0 + 0.1 * rng.standard_normal((n, 1))
    paths = {name: os.path.join(directory, name + ".csv") for name in ("X", "y", "B")}
    np.savetxt(paths["X"], X, delimiter=",")
    np.savetxt(paths["y"], y, delimiter=",")
    return {
        "X": paths["X"],
        "y": paths["y"],
        "B": paths["B"],
        "icpt": 2,
        "reg": 1e-6,
        "tol": 1e-9,
        "maxi": 0,
    }


def linreg_cg(X, y, icpt=0, reg=1e-6, tol=1e-6, maxi=0):
    """Statement-by-statement transcription of linreg-cg.dml.

    Returns (beta_out, beta_unscaled, scale_X, shift_X, lambda, X_ext, iters).
    """
    n, m = X.shape
    m_ext = m
    if icpt in (1, 2):
        X = np.hstack([X, np.ones((n, 1))])
        m_ext = X.shape[1]
    scale_lambda = np.ones((m_ext, 1))
    if icpt in (1, 2):
        scale_lambda[m_ext - 1, 0] = 0.0
    if icpt == 2:
        avg = X.sum(axis=0)[:, None] / n
        var = (((X ** 2).sum(axis=0))[:, None] - n * avg ** 2) / (n - 1)
        unsafe = (var <= 0).astype(float)
        scale_X = 1.0 / np.sqrt(var * (1 - unsafe) + unsafe)
        scale_X[m_ext - 1, 0] = 1.0
        shift_X = -avg * scale_X
        shift_X[m_ext - 1, 0] = 0.0
    else:
        scale_X = np.ones((m_ext, 1))
        shift_X = np.zeros((m_ext, 1))

    lam = scale_lambda * reg
    beta_u = np.zeros((m_ext, 1))
    max_iteration = maxi if maxi != 0 else m_ext

    r = -(X.T @ y)
    if icpt == 2:
        r = scale_X * r + shift_X * r[m_ext - 1, 0]
    p = -r
    norm_r2 = float(np.sum(r ** 2))
    target = norm_r2 * tol ** 2
    i = 0
    while i < max_iteration and norm_r2 > target:
        if icpt == 2:
            ssX_p = scale_X * p
            ssX_p[m_ext - 1, 0] += float(shift_X.T @ p)
        else:
            ssX_p = p
        q = X.T @ (X @ ssX_p)
        if icpt == 2:
            q = scale_X * q + shift_X * q[m_ext - 1, 0]
        q = q + lam * p
        a = norm_r2 / float(np.sum(p * q))
        beta_u = beta_u + a * p
        r = r + a * q
        old = norm_r2
        norm_r2 = float(np.sum(r ** 2))
        p = -r + (norm_r2 / old) * p
        i += 1

    if icpt == 2:
        beta = scale_X * beta_u
        beta[m_ext - 1, 0] += float(shift_X.T @ beta_u)
        out = np.hstack([beta, beta_u])
    else:
        beta = beta_u
        out = beta
    return out, beta_u, scale_X, shift_X, lam, X, i


def reference(args):
    X = read_csv(args["X"])
    y = read_csv(args["y"])
    icpt = int(args.get("icpt", 0))
    reg = float(args.get("reg", 1e-6))
    out, beta_u, scale_X, shift_X, lam, X_ext, iters = linreg_cg(
        X, y, icpt=icpt, reg=reg,
        tol=float(args.get("tol", 1e-6)), maxi=int(args.get("maxi", 0)))
    beta = out[:, :1]

    # Self-check 1: the closed-form ridge solution of the same (shifted and
    # rescaled) problem, (Xs'Xs + diag(lambda)) b = Xs'y, b = T^-1 beta.
    m_ext = X_ext.shape[1]
    T = np.diag(scale_X[:, 0])
    T[m_ext - 1, :] += shift_X[:, 0]
    Xs = X_ext @ T
    b_u = np.linalg.solve(Xs.T @ Xs + np.diag(lam[:, 0]), Xs.T @ y)
    err = np.max(np.abs(b_u - beta_u)) / np.max(np.abs(b_u))
    assert err < 1e-7, f"linreg-cg reference: CG differs from the ridge closed form by {err:g}"
    # Self-check 2: with a tiny lambda the betas are the least-squares fit.
    if reg <= 1e-4:
        b_ls = np.linalg.lstsq(X_ext, y, rcond=None)[0]
        err = np.max(np.abs(b_ls - beta)) / np.max(np.abs(b_ls))
        assert err < 1e-5, f"linreg-cg reference: CG differs from lstsq by {err:g}"
    return {args["B"]: out}
