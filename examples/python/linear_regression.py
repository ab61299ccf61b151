"""Linear regression on NumPy data with AMLS: the normal equations solved by
a DML script called as a Python function, checked against NumPy's lstsq.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/linear_regression.py
"""

import time

import numpy as np

import amls

SCRIPT = """
# Ridge regression by the normal equations (SystemDS's lmDS).
A = t(X) %*% X + diag(matrix(reg, rows=ncol(X), cols=1))
beta = solve(A, t(X) %*% y)
residual = sum((X %*% beta - y) ^ 2)
"""


def main():
    rng = np.random.default_rng(7)
    X = rng.standard_normal((100000, 50))
    truth = rng.standard_normal(50)
    y = X @ truth + 0.01 * rng.standard_normal(100000)

    session = amls.Session(threads=2)
    regression = session.compile_dml(SCRIPT, outputs=["beta", "residual"])
    regression(X=X, y=y, reg=1e-8)               # compiles for these sizes
    start = time.perf_counter()
    out = regression(X=X, y=y, reg=1e-8)         # runs the compiled code
    amls_seconds = time.perf_counter() - start

    start = time.perf_counter()
    expected = np.linalg.lstsq(X, y, rcond=None)[0]
    numpy_seconds = time.perf_counter() - start

    beta = out["beta"][:, 0]
    print(f"coefficients (first 5): {np.round(beta[:5], 4)}")
    print(f"max difference from NumPy's lstsq: "
          f"{np.abs(beta - expected).max():.2e}")
    print(f"residual sum of squares: {out['residual']:.4f}")
    print(f"AMLS {amls_seconds * 1e3:.1f} ms, NumPy lstsq "
          f"{numpy_seconds * 1e3:.1f} ms")
    stats = session.stats()
    print(f"compilations {stats['compilations']}, "
          f"cache hits {stats['cache_hits']}")
    assert np.abs(beta - expected).max() < 1e-6


if __name__ == "__main__":
    main()
