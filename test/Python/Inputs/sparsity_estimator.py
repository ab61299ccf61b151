"""Session(sparsity_estimator=...): the same program on the same scipy.sparse
inputs gives NumPy's result under every estimator (the estimate changes the
plan, never a result), and an unknown estimator is an error naming the
expected ones."""

import numpy as np
import scipy.sparse as sp

import amls

rng = np.random.default_rng(5)
n = 3000
P = sp.csr_matrix((np.ones(n), (np.arange(n), rng.permutation(n))),
                  shape=(n, n))
X = sp.random(n, 400, density=0.01, format="csr", random_state=6)
codes = rng.integers(0, 30, size=n)
O = sp.csr_matrix((np.ones(n), (np.arange(n), codes)), shape=(n, 30))
expected = (P @ X).toarray()
expected_counts = (O.T @ O).toarray()
for estimator in ("mnc", "metadata", "worst"):
    session = amls.Session(threads=2, sparsity_estimator=estimator)
    f = session.compile_dml("C = P %*% X\nD = t(O) %*% O\n",
                            outputs=["C", "D"])
    out = f(P=P, X=X, O=O)
    C = np.asarray(out["C"])
    D = np.asarray(out["D"])
    assert not np.isnan(C).any() and not np.isnan(D).any()
    assert np.array_equal(C, expected), estimator
    assert np.array_equal(D, expected_counts), estimator
    print(f"{estimator}: P %*% X and t(O) %*% O as NumPy")
try:
    amls.Session(sparsity_estimator="exact")
except ValueError as error:
    print(f"error: {error}")
