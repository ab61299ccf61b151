"""Data and NumPy/SciPy oracle for test/Integration/linear-algebra.dml.

  linear-algebra.py data DIR    writes the inputs (CSV) into DIR
  linear-algebra.py check DIR   compares the script's outputs in DIR

Random matrices of 1x1, 5x5 and 200x200 (and rectangular ones for qr and
svd). Eigenvectors and singular vectors are unique up to sign: both sides
are compared with each column's largest cell made positive. qr follows
SystemDS (Apache Commons Math): its Householder vectors and R are computed
here by that algorithm, written out in NumPy.
"""

import os
import sys

import numpy as np
import scipy.linalg

from results import check


def inputs():
    rng = np.random.default_rng(5)
    data = {}
    for n in (1, 5, 200):
        data[f"A{n}"] = rng.standard_normal((n, n)) + (n ** 0.5) * np.eye(n)
        data[f"B{n}"] = rng.standard_normal((n, 3))
        M = rng.standard_normal((n, n))
        data[f"S{n}"] = M @ M.T + n * np.eye(n)  # symmetric positive definite
    data["T"] = rng.standard_normal((7, 4))  # tall
    data["W"] = rng.standard_normal((3, 6))  # wide
    return data


def commons_qr(A):
    """Commons Math's QRDecomposition: H (Householder vectors) and R."""
    m, n = A.shape
    R = A.astype(float).copy()
    H = np.zeros((m, n))
    for j in range(min(m, n)):
        x = R[j:, j].copy()
        a = -np.linalg.norm(x) if x[0] > 0 else np.linalg.norm(x)
        if a == 0:
            continue
        v = x.copy()
        v[0] -= a
        # I - v v' / (-a v[0]) is the reflection mapping x to a e1.
        R[j:, j:] -= np.outer(v, v @ R[j:, j:]) / (-a * v[0])
        H[j:, j] = v / -a
    return H, np.triu(R)


def signed(V):
    """V with each column's largest cell (by magnitude) positive."""
    V = np.array(V, dtype=float)
    rows = np.argmax(np.abs(V), axis=0)
    return V * np.sign(V[rows, np.arange(V.shape[1])])


def expected(data):
    out = {}
    dets = []
    for n in (1, 5, 200):
        A, B, S = data[f"A{n}"], data[f"B{n}"], data[f"S{n}"]
        out[f"solve{n}"] = np.linalg.solve(A, B)
        out[f"inv{n}"] = np.linalg.inv(A)
        dets.append(np.linalg.det(A))
        out[f"chol{n}"] = np.linalg.cholesky(S)
        P, L, U = scipy.linalg.lu(A)  # A = P L U: SystemDS's P is P'
        out[f"luP{n}"], out[f"luL{n}"], out[f"luU{n}"] = P.T, L, U
        w, V = np.linalg.eigh(S)
        out[f"eval{n}"], out[f"evec{n}"] = w.reshape(-1, 1), signed(V)
        out[f"qrH{n}"], out[f"qrR{n}"] = commons_qr(A)
    out["det"] = np.array(dets).reshape(-1, 1)
    for name in ("T", "W", "A5"):
        X = data[name]
        out[f"qrH{name}"], out[f"qrR{name}"] = commons_qr(X)
        U, s, Vt = np.linalg.svd(X, full_matrices=False)
        # A column of U flips with the same column of V.
        flip = np.sign(U[np.argmax(np.abs(U), axis=0), np.arange(U.shape[1])])
        out[f"svdU{name}"], out[f"svdS{name}"] = U * flip, np.diag(s)
        out[f"svdV{name}"] = Vt.T * flip
    A = data["A5"]
    out["lower"] = np.tril(A, -1)
    out["lowerDiagMask"] = np.tril(np.ones_like(A))
    out["upper"] = np.triu(A, 1)
    out["upperDiag"] = np.triu(A)
    out["upperWideMask"] = np.triu(np.ones((3, 6)), 1)
    return out


def reader(directory):
    """Reads the script's output NAME.csv in `directory`."""
    return lambda name: np.loadtxt(os.path.join(directory, name + ".csv"),
                                   delimiter=",", ndmin=2)


def compare(expected, read, adjust=lambda name, actual: actual, tol=1e-8):
    """Prints PASS or FAIL with the shape for each expected output (in name
    order) read and `adjust`ed; 1 if any failed."""
    failures = 0
    for name, value in sorted(expected.items()):
        actual = adjust(name, read(name))
        failures += not check(name, actual, value, tol, tol)
    return 1 if failures else 0


def main():
    mode, directory = sys.argv[1], sys.argv[2]
    data = inputs()
    if mode == "data":
        for name, value in data.items():
            np.savetxt(os.path.join(directory, name + ".csv"), value,
                       delimiter=",", fmt="%.17g")
        return 0
    read = reader(directory)

    def adjust(name, actual):
        if name.startswith("evec"):
            return signed(actual)
        if name.startswith(("svdU", "svdV")):
            U = read("svdU" + name[4:])
            return actual * np.sign(U[np.argmax(np.abs(U), axis=0),
                                      np.arange(U.shape[1])])
        return actual

    return compare(expected(data), read, adjust)


if __name__ == "__main__":
    sys.exit(main())
