"""Data and SciPy oracle for test/Integration/library-glm.dml (the DML
library's glm and glmPredict).

  library_glm.py data DIR    writes the inputs (CSV) into DIR
  library_glm.py check DIR   compares the script's outputs in DIR

The oracle does not iterate as glm does: it solves the penalized score
equations, d/d beta [log-likelihood - 0.5 sum(lambda beta^2)] = 0, written
from each family's log-likelihood and the chain rule (not glm's working
weights), with scipy.optimize.root, and checks
that the root is a minimum of the penalized negative log-likelihood
(scipy.optimize.minimize from it finds nothing lower).
"""

import os
import sys

import numpy as np
import scipy.optimize


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_ml import oracle_main  # noqa: E402


def inputs():
    rng = np.random.default_rng(41)
    n, m = 200, 3
    X = rng.standard_normal((n, m)) * [1, 2, 0.5] + [0, 1, -1]
    eta = X @ np.array([0.4, -0.3, 0.8]) + 0.2
    Yg = (eta + 0.5 * rng.standard_normal(n)).reshape(-1, 1)
    Yb = np.where(rng.uniform(size=n) < 1 / (1 + np.exp(-eta)), 1.0, -1.0)
    Yp = rng.poisson(np.exp(0.5 * eta)).astype(float).reshape(-1, 1)
    trials = rng.integers(1, 8, n)
    pos = rng.binomial(trials, 1 / (1 + np.exp(-eta)))
    Ybc = np.stack([pos, trials - pos], axis=1).astype(float)
    Ym = rng.gamma(4.0, np.exp(0.3 * eta) / 4.0).reshape(-1, 1)
    return dict(X=X, Yg=Yg, Yb=Yb.reshape(-1, 1), Yp=Yp, Ybc=Ybc, Ym=Ym,
                Xt=rng.standard_normal((15, m)))


# Each model: (mean of eta, log-likelihood of mu given y) per family/link.
def model(family, link):
    means = {
        "identity": lambda e: e,
        "log": np.exp,
        "logit": lambda e: 1 / (1 + np.exp(-e)),
        "cloglog": lambda e: 1 - np.exp(-np.exp(e)),
        "sqrt": lambda e: e ** 2,
    }
    loglik = {
        "gaussian": lambda y, t, mu: -0.5 * np.sum((y - mu) ** 2),
        "poisson": lambda y, t, mu: np.sum(y * np.log(mu) - mu),
        "gamma": lambda y, t, mu: np.sum(-y / mu - np.log(mu)),
        "binomial": lambda y, t, mu: np.sum(y * np.log(mu)
                                            + (t - y) * np.log(1 - mu)),
    }
    return means[link], loglik[family]


def fit(name, X, y, trials, family, link, icpt, reg):
    """The penalized maximum-likelihood beta (glm's layout: icpt 2 gives
    the original X's and the standardized X's columns)."""
    n, m = X.shape
    Z = X
    if icpt > 0:
        Z = np.hstack([X, np.ones((n, 1))])
    scale = np.ones(Z.shape[1])
    shift = np.zeros(Z.shape[1])
    if icpt == 2:
        means = X.mean(axis=0)
        sd = X.std(axis=0, ddof=1)
        scale[:m] = 1 / sd
        shift[:m] = -means / sd
        Z = Z * scale + shift
    lam = np.full(Z.shape[1], reg)
    if icpt > 0:
        lam[-1] = 0
    mean, loglik = model(family, link)

    def objective(b):
        return -loglik(y, trials, mean(Z @ b)) + 0.5 * np.sum(lam * b * b)

    derivative = {  # d mu / d eta
        "identity": lambda e: np.ones_like(e),
        "log": np.exp,
        "logit": lambda e: np.exp(-e) / (1 + np.exp(-e)) ** 2,
        "cloglog": lambda e: np.exp(e - np.exp(e)),
        "sqrt": lambda e: 2 * e,
    }[link]
    dloglik = {  # d log-likelihood / d mu
        "gaussian": lambda mu: y - mu,
        "poisson": lambda mu: y / mu - 1,
        "gamma": lambda mu: y / mu ** 2 - 1 / mu,
        "binomial": lambda mu: y / mu - (trials - y) / (1 - mu),
    }[family]

    def score(b):
        e = Z @ b
        return -Z.T @ (dloglik(mean(e)) * derivative(e)) + lam * b

    # a start in each link's range: least squares on the linked responses
    # (0 for the binomial links)
    linked = {"identity": lambda: y, "log": lambda: np.log(y + 0.5),
              "sqrt": lambda: np.sqrt(y + 0.5),
              "logit": lambda: np.zeros_like(y),
              "cloglog": lambda: np.zeros_like(y)}[link]()
    start = np.linalg.lstsq(Z, linked, rcond=None)[0]
    b = scipy.optimize.root(score, start, tol=1e-14).x
    # a root, and a minimum: nothing lower nearby
    assert np.abs(score(b)).max() < 1e-8 * (1 + abs(objective(b))), name
    with np.errstate(all="ignore"):
        polish = scipy.optimize.minimize(objective, b, method="Nelder-Mead")
    assert objective(b) <= polish.fun + 1e-12 * abs(polish.fun), name
    B = scale * b
    if icpt == 2:
        B[-1] += shift @ b
        return np.stack([B, b], axis=1)
    return B.reshape(-1, 1)


def expected_outputs(d):
    X = d["X"]
    ones = np.ones(len(X))
    yb = (d["Yb"][:, 0] == 1).astype(float)
    out = {}
    cases = {
        "gauss": (d["Yg"][:, 0], ones, "gaussian", "identity", 0, 0.0),
        "gauss_icpt": (d["Yg"][:, 0], ones, "gaussian", "identity", 1, 0.0),
        "gauss_reg": (d["Yg"][:, 0], ones, "gaussian", "identity", 2, 5.0),
        "logit": (yb, ones, "binomial", "logit", 1, 0.0),
        "logit_reg": (yb, ones, "binomial", "logit", 2, 2.0),
        "binom": (d["Ybc"][:, 0], d["Ybc"].sum(axis=1), "binomial",
                  "logit", 1, 0.0),
        "cloglog": (yb, ones, "binomial", "cloglog", 1, 0.0),
        "poisson": (d["Yp"][:, 0], ones, "poisson", "log", 1, 0.0),
        "poisson_sqrt": (d["Yp"][:, 0], ones, "poisson", "sqrt", 1, 0.0),
        "gamma_log": (d["Ym"][:, 0], ones, "gamma", "log", 1, 0.0),
    }
    for name, (y, t, family, link, icpt, reg) in cases.items():
        out[name] = (fit(name, X, y, t, family, link, icpt, reg), 1e-6, 1e-7)
    # glmPredict: the means of the Poisson fit on new rows
    B = out["poisson"][0]
    out["pred_poisson"] = (np.exp(d["Xt"] @ B[:-1] + B[-1]), 1e-6, 1e-8)
    B = out["logit"][0]
    p = 1 / (1 + np.exp(-(d["Xt"] @ B[:-1] + B[-1])))
    out["pred_logit"] = (np.hstack([p, 1 - p]), 1e-6, 1e-8)
    return out


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs))
