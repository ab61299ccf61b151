"""Data and NumPy oracle for test/Integration/library-batchnorm.dml:
batch_norm2d and batch_norm2d_backward of the DML library.

  library_batchnorm.py data DIR    writes the inputs (CSV) into DIR
  library_batchnorm.py check DIR   compares the script's outputs in DIR

The images are reshaped to N x C x (Hin*Win) (SystemDS's channel-major
rows) and normalized per channel over axes 0 and 2. The backward pass is
checked twice: against the textbook closed form dX = inv_var / M * (M dnorm
- sum(dnorm) - norm sum(dnorm norm)), and against central finite differences
of the forward pass (loss sum(dout * out)) in dX, gamma and beta. A backward
pass from the moving averages as the cache is checked against the chain rule
through the mean and variance written out per cell.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_ml import oracle_main  # noqa: E402
from results import check  # noqa: E402

N, C, HW = 5, 3, 8


def inputs():
    rng = np.random.default_rng(53)
    X = rng.standard_normal((N, C * HW)) * 2 + 1
    X[:, HW:2 * HW] += 5  # a channel far from 0
    return dict(X=X, gamma=rng.uniform(0.5, 2, (C, 1)),
                beta=rng.standard_normal((C, 1)),
                ema_mean=rng.standard_normal((C, 1)),
                ema_var=rng.uniform(0.5, 3, (C, 1)),
                dout=rng.standard_normal((N, C * HW)))


def forward(X, gamma, beta, em, ev, mode, eps, mu):
    X3 = X.reshape(N, C, HW)
    if mode == "train":
        mean = X3.mean(axis=(0, 2))
        var = X3.var(axis=(0, 2))
        em_upd = mu * em[:, 0] + (1 - mu) * mean
        ev_upd = mu * ev[:, 0] + (1 - mu) * var
    else:
        mean, var, em_upd, ev_upd = em[:, 0], ev[:, 0], em[:, 0], ev[:, 0]
    inv = 1 / np.sqrt(var + eps)
    out = ((X3 - mean[:, None]) * inv[:, None] * gamma[:, 0][:, None]
           + beta[:, 0][:, None])
    col = lambda v: v.reshape(-1, 1)
    return (out.reshape(N, C * HW), col(em_upd), col(ev_upd), col(mean),
            col(inv))


def channel_sums(A):
    return A.reshape(N, C, HW).sum(axis=(0, 2))


def expected_outputs(d):
    X, g, b, em, ev, dout = (d["X"], d["gamma"], d["beta"], d["ema_mean"],
                             d["ema_var"], d["dout"])
    out = {}
    names = ("out", "emam", "emav", "cmean", "cinv")
    for mode, eps, mu in (("train", 1e-3, 0.9), ("test", 1e-5, 0.99)):
        for name, value in zip(names, forward(X, g, b, em, ev, mode, eps,
                                              mu)):
            out[mode + "_" + name] = (value, 1e-12, 1e-12)

    # closed form of the training pass's gradients
    _, _, _, mean, inv = forward(X, g, b, em, ev, "train", 1e-3, 0.9)
    M = N * HW
    X3, D3 = X.reshape(N, C, HW), dout.reshape(N, C, HW)
    norm = (X3 - mean[:, 0][:, None]) * inv[:, 0][:, None]
    dnorm = D3 * g[:, 0][:, None]
    dX = (inv[:, 0][:, None] / M
          * (M * dnorm - dnorm.sum(axis=(0, 2))[:, None]
             - norm * (dnorm * norm).sum(axis=(0, 2))[:, None]))
    out["bwd_dX"] = (dX.reshape(N, C * HW), 1e-10, 1e-12)
    out["bwd_dgamma"] = ((D3 * norm).sum(axis=(0, 2)).reshape(-1, 1),
                         1e-10, 1e-12)
    out["bwd_dbeta"] = (D3.sum(axis=(0, 2)).reshape(-1, 1), 1e-10, 1e-12)

    # another cache (moving averages): the chain rule cell by cell
    cm, ci = em[:, 0], 1 / np.sqrt(ev[:, 0] + 1e-5)
    cen = X3 - cm[:, None]
    dvar = (-0.5 * dnorm * cen * ci[:, None] ** 3).sum(axis=(0, 2))
    dmean = ((-dnorm * ci[:, None]).sum(axis=(0, 2))
             + dvar * (-2 / M * cen).sum(axis=(0, 2)))
    dX2 = (dnorm * ci[:, None] + dmean[:, None] / M
           + 2 / M * cen * dvar[:, None])
    out["bwd2_dX"] = (dX2.reshape(N, C * HW), 1e-10, 1e-12)
    out["bwd2_dgamma"] = ((D3 * cen * ci[:, None]).sum(axis=(0, 2))
                          .reshape(-1, 1), 1e-10, 1e-12)
    return out


def finite_differences(d, path):
    """The backward pass's results against central finite differences of
    NumPy's training pass, loss sum(dout * out)."""
    X, g, b, em, ev, dout = (d["X"], d["gamma"], d["beta"], d["ema_mean"],
                             d["ema_var"], d["dout"])
    loss = lambda X_, g_, b_: (dout * forward(X_, g_, b_, em, ev, "train",
                                              1e-3, 0.9)[0]).sum()
    h = 1e-6

    def fd(A, f):
        G = np.zeros_like(A)
        for idx in np.ndindex(A.shape):
            Ap, Am = A.copy(), A.copy()
            Ap[idx] += h
            Am[idx] -= h
            G[idx] = (f(Ap) - f(Am)) / (2 * h)
        return G
    failures = 0
    for name, G in (("dX", fd(X, lambda A: loss(A, g, b))),
                    ("dgamma", fd(g, lambda A: loss(X, A, b))),
                    ("dbeta", fd(b, lambda A: loss(X, g, A)))):
        actual = np.loadtxt(path("bwd_" + name), delimiter=",", ndmin=2)
        failures += not check(f"bwd_{name} finite differences", actual, G,
                              1e-5, 1e-6)
    return failures


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs, finite_differences))
