"""The optima of the DML library's convex training objectives, found
independently of the library's own iterations by scipy.optimize (L-BFGS-B):
the oracles of l2svm and multiLogReg run to convergence
(test/Integration/Inputs/library_ml.py, library_more.py,
test/Oracles/library_builtins.py)."""

import numpy as np
import scipy.optimize


def l2svm_optimum(X, Y, intercept, reg):
    """argmin 0.5 sum(max(0, 1 - y x'w)^2) + reg/2 |w|^2, Y in -1/+1."""
    if intercept:
        X = np.hstack([X, np.ones((len(X), 1))])

    def f(w):
        out = np.maximum(0.0, 1 - Y[:, 0] * (X @ w))
        return (0.5 * out @ out + reg / 2 * w @ w,
                reg * w - X.T @ (out * Y[:, 0]))
    res = scipy.optimize.minimize(f, np.zeros(X.shape[1]), jac=True,
                                  method="L-BFGS-B",
                                  options=dict(gtol=1e-12, ftol=1e-15,
                                               maxiter=10000))
    return res.x.reshape(-1, 1)


def mlogreg_optimum(X, Y, icpt, reg):
    """The regularized multinomial log-likelihood minimized by L-BFGS-B, in
    the (standardized, for icpt 2) coordinates multiLogReg regularizes in,
    mapped back to X's."""
    n, m = X.shape
    k = int(Y.max())
    Yind = np.eye(k)[Y[:, 0].astype(int) - 1]
    Z = X
    if icpt > 0:
        Z = np.hstack([X, np.ones((n, 1))])
    scale, shift = np.ones(Z.shape[1]), np.zeros(Z.shape[1])
    if icpt == 2:
        mu, sd = X.mean(axis=0), X.std(axis=0, ddof=1)
        scale[:m], shift[:m] = 1 / sd, -mu / sd
        Z = np.hstack([(X - mu) / sd, np.ones((n, 1))])
    lam = np.full((Z.shape[1], 1), reg)
    if icpt > 0:
        lam[-1] = 0
    D = Z.shape[1]

    def f(b):
        B = b.reshape(D, k - 1)
        LT = np.hstack([Z @ B, np.zeros((n, 1))])
        mx = LT.max(axis=1, keepdims=True)
        E = np.exp(LT - mx)
        lse = mx[:, 0] + np.log(E.sum(axis=1))
        P = E / E.sum(axis=1, keepdims=True)
        obj = -np.sum(Yind * LT) + lse.sum() + 0.5 * np.sum(lam * B ** 2)
        grad = Z.T @ (P[:, :k - 1] - Yind[:, :k - 1]) + lam * B
        return obj, grad.ravel()
    res = scipy.optimize.minimize(f, np.zeros(D * (k - 1)), jac=True,
                                  method="L-BFGS-B",
                                  options=dict(gtol=1e-11, ftol=1e-16,
                                               maxiter=20000))
    B = res.x.reshape(D, k - 1)
    out = scale[:, None] * B
    if icpt == 2:
        out[-1] += shift @ B
    return out
