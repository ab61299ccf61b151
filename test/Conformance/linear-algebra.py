"""Reference for linear-algebra.dml: NumPy's LAPACK bindings."""

import numpy as np

TOLERANCE = 1e-8  # factorizations of a conditioned 6x6 matrix


def inputs(rng):
    M = rng.standard_normal((6, 6))
    X = rng.standard_normal((50, 4))
    return {"A": M @ M.T + 6 * np.eye(6), "b": rng.standard_normal((6, 1)),
            "X": X, "y": X @ [[1.0], [-2.0], [0.5], [3.0]]
            + 0.01 * rng.standard_normal((50, 1))}


def expected(i):
    A = i["A"]
    return {"solved": np.linalg.solve(A, i["b"]), "inverse": np.linalg.inv(A),
            "det": np.linalg.det(A), "cholesky": np.linalg.cholesky(A),
            "eigenvalues": np.linalg.eigvalsh(A).reshape(-1, 1),
            "lower": np.tril(A),
            "lm": np.linalg.lstsq(i["X"], i["y"], rcond=None)[0]}
