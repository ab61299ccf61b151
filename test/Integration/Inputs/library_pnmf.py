"""Data and NumPy oracle for test/Integration/library-pnmf.dml: pnmf of the
DML library.

  library_pnmf.py data DIR    writes the inputs (CSV) into DIR
  library_pnmf.py check DIR   compares the script's outputs in DIR

The start W, H is rand(min=0, max=0.025, seed) for both, AMLS's generator
reproduced by amls_rand (test/Integration/oracle.py); the multiplicative
updates are transcribed from Liu et al. (WWW 2010), H first, then W with
the new H. The objective of the AMLS runs after 1..8 iterations must also
decrease monotonically (a property of the updates, up to eps).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_ml import amls_rand, oracle_main  # noqa: E402
from results import check  # noqa: E402


def inputs():
    rng = np.random.default_rng(41)
    W = rng.gamma(2.0, 1.0, (40, 3))
    H = rng.gamma(1.5, 1.0, (3, 25))
    X = rng.poisson(W @ H).astype(float)
    return dict(X=X)


def pnmf(X, rnk, eps, maxi, seed):
    n, m = X.shape
    W = amls_rand(seed, n, rnk, 0.0, 0.025, 1.0)
    H = amls_rand(seed, rnk, m, 0.0, 0.025, 1.0)
    for _ in range(maxi):
        H = H * (W.T @ (X / (W @ H + eps))) / W.sum(axis=0).reshape(-1, 1)
        W = W * ((X / (W @ H + eps)) @ H.T) / H.sum(axis=1).reshape(1, -1)
    return W, H


def objective(X, W, H, eps):
    WH = W @ H
    return WH.sum() - (X * np.log(WH + eps)).sum()


def expected_outputs(d):
    X = d["X"]
    out = {}
    W, H = pnmf(X, 3, 1e-8, 0, 11)
    out["W0"] = (W, 0, 0)
    out["H0"] = (H, 0, 0)
    W, H = pnmf(X, 3, 1e-8, 10, 11)
    out["W10"] = (W, 1e-9, 1e-12)
    out["H10"] = (H, 1e-9, 1e-12)
    W, H = pnmf(X, 2, 1e-4, 2, 5)
    out["W2"] = (W, 1e-9, 1e-12)
    out["H2"] = (H, 1e-9, 1e-12)
    obj = [objective(X, *pnmf(X, 3, 1e-8, k, 11), 1e-8) for k in range(1, 9)]
    out["obj"] = (np.array(obj).reshape(-1, 1), 1e-10, 0)
    return out


def decreasing(d, path):
    """The AMLS objective after 1..8 iterations never rises."""
    obj = np.loadtxt(path("obj"), delimiter=",", ndmin=2)[:, 0]
    ok = bool(np.all(np.diff(obj) <= 1e-9 * np.abs(obj[1:])))
    print(f"{'PASS' if ok else 'FAIL'}: obj decreases monotonically")
    if not ok:
        print(f"  AMLS  {obj}")
    return not ok


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs, decreasing))
