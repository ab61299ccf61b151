"""The sparse benchmark kernels: their names, the matrices they run on, and
their SciPy versions (single-threaded: SciPy's sparse kernels have one
thread, and the harness limits OpenBLAS to one).

Every system computes a kernel from the same inputs and reports the same
checksum, so the harness can compare them:

  x[j] = j / n      (1-based j; n = ncol(A)): the SpMV operand
  u[i] = i / m      (m = nrow(A)): the t(A) %*% u operand
  X[j, l] = x[j] * l, l = 1..k: the SpMM operand
  r = t(x)          the dense row vector of A * r

  checksum(R) = sum_i (i / rows(R)) * rowSum_i(R) for a matrix R; a vector
  is weighted by its own index, whatever its orientation; a scalar is itself.

GraphBLAS (graphblas_bench.c) and AMLS (programs/*.dml) compute the same
inputs and checksums; keep the three in step.
"""

import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

ALPHA = 0.85
PAGERANK_ITERATIONS = 20


@dataclass(frozen=True)
class Kernel:
    name: str          # the id in graphblas_bench.c and programs/NAME.dml
    label: str         # the table's row label
    square_only: bool  # needs a square A


KERNELS = [
    Kernel("spmv", "SpMV A %*% x", False),
    Kernel("spmtv", "t(A) %*% u", False),
    Kernel("spmm8", "SpMM A %*% X, k=8", False),
    Kernel("spmm32", "SpMM A %*% X, k=32", False),
    Kernel("ew_row", "A * r (dense row vector)", False),
    Kernel("ew_self", "A * A", False),
    Kernel("rowsums", "rowSums(A)", False),
    Kernel("colsums", "colSums(A)", False),
    Kernel("sum", "sum(A)", False),
    Kernel("spgemm", "SpGEMM A %*% A", True),
    Kernel("pagerank", f"PageRank, {PAGERANK_ITERATIONS} it.", True),
    Kernel("components", "components (to convergence)", True),
]
BY_NAME = {kernel.name: kernel for kernel in KERNELS}


def ramp(n):
    """1/n, 2/n, ..., n/n."""
    return np.arange(1, n + 1, dtype=np.float64) / n


def checksum(result):
    """The checksum defined in the module docstring."""
    if np.isscalar(result) or np.ndim(result) == 0:
        return float(result)
    if sp.issparse(result):
        if result.shape[0] == 1:
            rows = result.toarray().ravel()
        else:
            rows = np.asarray(result.sum(axis=1)).ravel()
    else:
        result = np.asarray(result)
        if result.ndim == 1 or result.shape[0] == 1:
            rows = result.ravel()
        else:
            rows = result.sum(axis=1)
    return float(np.dot(ramp(len(rows)), rows))


def row_divide(A, d):
    """A / d with d a column vector: A[i, j] / d[i] (an exact division, as
    DML's A / rowSums(A))."""
    B = A.copy()
    B.data /= np.repeat(d, np.diff(A.indptr))
    return B


def pagerank(A, iterations=PAGERANK_ITERATIONS, alpha=ALPHA):
    """examples/pagerank.dml: G = t(A / rowSums(A)), then `iterations` times
    p = alpha * (G %*% p) + (1 - alpha) * sum(p) / n (the teleport term
    e %*% u %*% p with u = 1/n)."""
    n = A.shape[0]
    d = np.asarray(A.sum(axis=1)).ravel()
    G = row_divide(A, d).T.tocsr()
    p = np.full(n, 1.0 / n)
    for _ in range(iterations):
        p = alpha * (G @ p) + (1 - alpha) * p.sum() / n
    return p


def undirected(A):
    """The pattern of A + t(A) without the diagonal: components' input."""
    G = (A + A.T).tocoo()
    off = G.row != G.col
    return sp.csr_matrix((np.ones(off.sum()), (G.row[off], G.col[off])),
                         shape=G.shape)


def components(G):
    """examples/components.dml, literally: c = seq(1, n); repeat
    u = max(rowMaxs(G * t(c)), c) until no label changes. Returns the labels
    and the number of iterations (the last one changes nothing)."""
    c = np.arange(1, G.shape[0] + 1, dtype=np.float64)
    iterations = 0
    while True:
        u = np.maximum(G.multiply(c[None, :]).max(axis=1).toarray().ravel(),
                       c)
        diff = int((u != c).sum())
        c = u
        iterations += 1
        if diff == 0:
            return c, iterations


def prepare(name, A):
    """The untimed inputs of kernel `name` on A, and the timed function."""
    m, n = A.shape
    if name == "spmv":
        x = ramp(n)
        return lambda: A @ x
    if name == "spmtv":
        u = ramp(m)
        return lambda: A.T @ u
    if name in ("spmm8", "spmm32"):
        X = np.outer(ramp(n), np.arange(1, int(name[4:]) + 1, dtype=float))
        return lambda: A @ X
    if name == "ew_row":
        # A.multiply with a dense row vector (SciPy 1.10 returns COO).
        r = ramp(n)[None, :]
        return lambda: A.multiply(r)
    if name == "ew_self":
        return lambda: A.multiply(A)
    if name == "rowsums":
        return lambda: A.sum(axis=1)
    if name == "colsums":
        return lambda: A.sum(axis=0)
    if name == "sum":
        return lambda: A.sum()
    if name == "spgemm":
        return lambda: A @ A  # SciPy leaves the column indices unsorted
    if name == "pagerank":
        return lambda: pagerank(A)
    if name == "components":
        G = undirected(A)
        return lambda: components(G)
    raise ValueError(f"unknown kernel {name}")


def time_kernel(fn, reps, budget):
    """Runs fn at least 3 and at most `reps` times, stopping once `budget`
    seconds are spent: (sorted times, last result)."""
    times = []
    result = None
    while len(times) < reps and (len(times) < 3 or sum(times) < budget):
        result = None  # free the previous result before timing the next
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return sorted(times), result
