"""NumPy reference for examples/mlogreg.dml (multinomial logistic regression,
trust-region Newton with inner conjugate gradient).

generate(directory, size) writes X.csv and Y.csv (labels 1..k) and returns the
--arg pairs; reference(args) runs the same iterations as the DML script and
asserts that the result is the optimum of the regularized objective.
"""

import math
import os

import numpy as np

from common import as_bool, read_csv

SCRIPT = "mlogreg.dml"
TOLERANCE = (1e-6, 1e-9)

SIZES = {
    "small": dict(rows=200, cols=10, classes=3, seed=21),
    # Enough rows for the label matrix table(seq(1, N), Y) to be stored CSR.
    "medium": dict(rows=2000, cols=10, classes=3, seed=23),
    "large": dict(rows=100000, cols=100, classes=5, seed=22),
    # Binned features (a few dozen values per column), for
    # --formats=compressed.
    "categorical": dict(rows=20000, cols=10, classes=3, seed=24,
                        categorical=True),
}


def generate(directory, size="small"):
    spec = SIZES[size]
    n, m, k = spec["rows"], spec["cols"], spec["classes"]
    rng = np.random.default_rng(spec["seed"])
    X = rng.standard_normal((n, m)) * rng.uniform(0.5, 3.0, size=m) + rng.uniform(-2.0, 2.0, size=m)
    if spec.get("categorical"):
        X = np.round(X * 4.0) / 4.0
    W = rng.standard_normal((m, k)) / np.sqrt(m)
    # Sample the labels from the softmax of a linear model (not separable).
    logits = (X - X.mean(axis=0)) @ W + rng.uniform(-0.5, 0.5, size=k)
    prob = np.exp(logits - logits.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    u = rng.uniform(size=(n, 1))
    Y = 1.0 + (u > np.cumsum(prob, axis=1)).sum(axis=1, keepdims=True)
    Y = np.minimum(Y, k)
    paths = {name: os.path.join(directory, name + ".csv") for name in ("X", "Y", "B")}
    np.savetxt(paths["X"], X, delimiter=",")
    np.savetxt(paths["Y"], Y, delimiter=",", fmt="%d")
    return {
        "X": paths["X"],
        "Y": paths["Y"],
        "B": paths["B"],
        "icpt": 2,
        "reg": 1.0,
        "tol": 1e-9,
        "maxi": 100,
        "maxii": 20,
        "verbose": True,
    }


def multilogreg(X, Y, icpt=2, tol=1e-6, reg=1.0, maxi=100, maxii=20):
    """Statement-by-statement transcription of the DML function multiLogReg.

    Returns (betas, details) where details has what the self-check needs.
    """
    eta0, eta1, eta2 = 0.0001, 0.25, 0.75
    sigma1, sigma2, sigma3 = 0.25, 0.5, 4.0
    psi = 0.1

    N, D = X.shape
    if icpt in (1, 2):
        X = np.hstack([X, np.ones((N, 1))])
        D = X.shape[1]
    scale_lambda = np.ones((D, 1))
    if icpt in (1, 2):
        scale_lambda[D - 1, 0] = 0.0
    if icpt == 2:
        avg = X.sum(axis=0)[:, None] / N
        var = (((X ** 2).sum(axis=0))[:, None] - N * avg ** 2) / (N - 1)
        unsafe = (var <= 0).astype(float)
        scale_X = 1.0 / np.sqrt(var * (1 - unsafe) + unsafe)
        scale_X[D - 1, 0] = 1.0
        shift_X = -avg * scale_X
        shift_X[D - 1, 0] = 0.0
        rowSums_X_sq = (X ** 2) @ (scale_X ** 2) + X @ (2 * scale_X * shift_X) + np.sum(shift_X ** 2)
    else:
        scale_X = np.ones((D, 1))
        shift_X = np.zeros((D, 1))
        rowSums_X_sq = (X ** 2).sum(axis=1, keepdims=True)

    def ssX(A):      # (SHIFT/SCALE TRANSFORM) %*% A
        if icpt != 2:
            return A
        out = scale_X * A
        out[D - 1, :] += (shift_X.T @ A)[0]
        return out

    def tssX(A):     # t(SHIFT/SCALE TRANSFORM) %*% A
        if icpt != 2:
            return A
        return scale_X * A + shift_X @ A[D - 1:D, :]

    max_y = Y.max()
    if Y.min() <= 0:
        Y = Y + (-Y + max_y + 1) * (Y <= 0)
        max_y = max_y + 1
    labels = Y[:, 0].astype(int)
    Yind = np.zeros((N, int(max_y)))
    Yind[np.arange(N), labels - 1] = 1.0
    K = Yind.shape[1] - 1

    lam = (scale_lambda @ np.ones((1, K))) * reg
    delta = 0.5 * math.sqrt(D) / np.max(np.sqrt(rowSums_X_sq))

    B = np.zeros((D, K))
    P = np.ones((N, K + 1)) / (K + 1)
    obj = N * math.log(K + 1)

    Grad = tssX(X.T @ (P[:, :K] - Yind[:, :K])) + lam * B
    norm_Grad = math.sqrt(np.sum(Grad ** 2))
    norm_Grad_initial = norm_Grad
    if maxii == 0:
        maxii = D * K
    it = 1
    converge = norm_Grad < tol or it > maxi
    while not converge:
        S = np.zeros((D, K))
        R = -Grad
        V = R
        delta2 = delta ** 2
        inneriter = 1
        norm_R2 = float(np.sum(R ** 2))
        innerconverge = math.sqrt(norm_R2) <= psi * norm_Grad
        boundary = 0
        while not innerconverge:
            Q = P[:, :K] * (X @ ssX(V))
            HV = tssX(X.T @ (Q - P[:, :K] * (Q.sum(axis=1, keepdims=True) @ np.ones((1, K)))))
            HV = HV + lam * V
            alpha = norm_R2 / float(np.sum(V * HV))
            Snew = S + alpha * V
            if float(np.sum(Snew ** 2)) <= delta2:
                S = Snew
                R = R - alpha * HV
                old = norm_R2
                norm_R2 = float(np.sum(R ** 2))
                V = R + (norm_R2 / old) * V
                innerconverge = math.sqrt(norm_R2) <= psi * norm_Grad
            else:
                boundary = 1
                sv = float(np.sum(S * V))
                v2 = float(np.sum(V ** 2))
                s2 = float(np.sum(S ** 2))
                rad = math.sqrt(sv ** 2 + v2 * (delta2 - s2))
                if sv >= 0:
                    alpha = (delta2 - s2) / (sv + rad)
                else:
                    alpha = (rad - sv) / v2
                S = S + alpha * V
                R = R - alpha * HV
                innerconverge = True
            inneriter += 1
            innerconverge = innerconverge or inneriter > maxii

        gs = float(np.sum(S * Grad))
        qk = -0.5 * (gs - float(np.sum(S * R)))
        B_new = B + S
        LT = np.hstack([X @ ssX(B_new), np.zeros((N, 1))])
        LT = LT - LT.max(axis=1, keepdims=True) @ np.ones((1, K + 1))
        exp_LT = np.exp(LT)
        P_new = exp_LT / (exp_LT.sum(axis=1, keepdims=True) @ np.ones((1, K + 1)))
        obj_new = (-float(np.sum(Yind * LT)) + float(np.sum(np.log(exp_LT.sum(axis=1))))
                   + 0.5 * float(np.sum(lam * B_new ** 2)))
        actred = obj - obj_new
        rho = actred / qk
        accepted = rho > eta0
        snorm = math.sqrt(np.sum(S ** 2))
        if it == 1:
            delta = min(delta, snorm)
        alpha2 = obj_new - obj - gs
        alpha = sigma3 if alpha2 <= 0 else max(sigma1, -0.5 * gs / alpha2)
        if rho < eta0:
            delta = min(max(alpha, sigma1) * snorm, sigma2 * delta)
        elif rho < eta1:
            delta = max(sigma1 * delta, min(alpha * snorm, sigma2 * delta))
        elif rho < eta2:
            delta = max(sigma1 * delta, min(alpha * snorm, sigma3 * delta))
        else:
            delta = max(delta, min(alpha * snorm, sigma3 * delta))
        if accepted:
            B = B_new
            P = P_new
            Grad = tssX(X.T @ (P[:, :K] - Yind[:, :K])) + lam * B
            norm_Grad = math.sqrt(np.sum(Grad ** 2))
            obj = obj_new
        it += 1
        converge = (norm_Grad < tol * norm_Grad_initial or it > maxi
                    or (boundary == 0 and abs(actred) < (abs(obj) + abs(obj_new)) * 1e-14))

    B_out = ssX(B)
    details = dict(X=X, Yind=Yind, K=K, lam=lam, scale_X=scale_X, shift_X=shift_X,
                   iterations=it - 1, norm_Grad=norm_Grad, norm_Grad_initial=norm_Grad_initial)
    return B_out, details


def reference(args):
    X = read_csv(args["X"])
    Y = read_csv(args["Y"])
    icpt = int(args.get("icpt", 2))
    B, det = multilogreg(X, Y, icpt=icpt, tol=float(args.get("tol", 1e-6)),
                         reg=float(args.get("reg", 1.0)), maxi=int(args.get("maxi", 100)),
                         maxii=int(args.get("maxii", 20)))
    # Self-check: at B the gradient of the objective in the original
    # coordinates, t(X) (P - Y) + lambda_orig * B, vanishes.  The penalty is
    # lambda * sum(B_scaled^2) with B_scaled = T^-1 B, so its gradient is
    # T^-T diag(lambda) T^-1 B.
    Xe, Yind, K, lam = det["X"], det["Yind"], det["K"], det["lam"]
    D = Xe.shape[1]
    T = np.diag(det["scale_X"][:, 0])
    if icpt == 2:
        T[D - 1, :] += det["shift_X"][:, 0]
    Tinv = np.linalg.inv(T)
    LT = np.hstack([Xe @ B, np.zeros((Xe.shape[0], 1))])
    P = np.exp(LT - LT.max(axis=1, keepdims=True))
    P /= P.sum(axis=1, keepdims=True)
    grad = Xe.T @ (P[:, :K] - Yind[:, :K]) + Tinv.T @ (lam * (Tinv @ B))
    grad0 = Xe.T @ (1.0 / (K + 1) - Yind[:, :K])
    rel = np.linalg.norm(grad) / np.linalg.norm(grad0)
    if float(args.get("tol", 1e-6)) <= 1e-8:
        assert rel < 1e-7, f"mlogreg reference: not converged, relative gradient norm {rel:g}"
    return {args["B"]: B}
