"""Reference for library.dml: scaling, the l2svm primal optimum (SciPy),
nearest centroids and the mean squared error, computed independently."""

import numpy as np
from scipy import optimize

TOLERANCE = 1e-5  # l2svm stops at its own tolerance


def inputs(rng):
    X = rng.standard_normal((60, 3)) * [1.0, 5.0, 0.2] + [0.0, 2.0, -1.0]
    y = np.where(X[:, :1] @ [[1.0]] + 0.2 * X[:, 1:2] > 0.3, 1.0, -1.0)
    return {"X": X, "y": y, "C": X[[0, 10, 20], :]}


def l2svm(Z, y, reg=1.0):
    def objective(w):
        margin = np.maximum(0.0, 1.0 - y.ravel() * (Z @ w))
        return 0.5 * reg * w @ w + 0.5 * margin @ margin
    return optimize.minimize(objective, np.zeros(Z.shape[1]), method="BFGS",
                             options={"gtol": 1e-12}).x


def expected(i):
    X, y, C = i["X"], i["y"], i["C"]
    Z = (X - X.mean(axis=0)) / X.std(axis=0, ddof=1)
    scores = (Z @ l2svm(Z, y)).reshape(-1, 1)
    distances = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
    return {"scaled": Z, "predicted": (scores > 0).astype(float),
            "svm_margin": True,
            "kmeans_assign": (distances.argmin(axis=1) + 1.0).reshape(-1, 1),
            "mse": float(((scores - y) ** 2).mean())}
