"""NumPy reference for examples/pagerank.dml (PageRank by power iteration).

generate(directory, size) writes a random directed link graph (every page has
at least one outgoing link, a few pages are popular) as Matrix Market;
reference(args) runs the same power iterations and asserts that, after
enough of them, the result is the principal eigenvector of the Google matrix.
"""

import os

import numpy as np
import scipy.io
import scipy.sparse

SCRIPT = "pagerank.dml"
TOLERANCE = (1e-9, 1e-14)

SIZES = {
    "small": dict(pages=500, links=4000, seed=41),
    "large": dict(pages=5000, links=100000, seed=42),
}


def generate(directory, size="small"):
    spec = SIZES[size]
    rng = np.random.default_rng(spec["seed"])
    n = spec["pages"]
    # Preferential targets: a Zipf-like popularity, so the ranks differ.
    popularity = 1.0 / np.arange(1, n + 1) ** 0.8
    popularity = popularity[rng.permutation(n)]
    src = np.concatenate([np.arange(n), rng.integers(0, n, spec["links"] - n)])
    dst = rng.choice(n, size=len(src), p=popularity / popularity.sum())
    keep = src != dst
    A = scipy.sparse.coo_matrix((np.ones(keep.sum()), (src[keep], dst[keep])),
                                shape=(n, n)).tocsr()
    A.data[:] = 1.0
    # Pages whose only link was a self-link get one to the next page.
    for i in np.flatnonzero(np.diff(A.indptr) == 0):
        A[i, (i + 1) % n] = 1.0
    path = os.path.join(directory, "links.mtx")
    scipy.io.mmwrite(path, A, field="real", symmetry="general")
    return {"G": path, "p": os.path.join(directory, "ranks.csv"),
            "alpha": 0.85, "maxi": 100}


def reference(args):
    A = scipy.io.mmread(args["G"]).toarray()
    alpha = float(args.get("alpha", 0.85))
    maxi = int(args.get("maxi", 20))
    n = A.shape[0]
    G = (A / A.sum(axis=1, keepdims=True)).T
    p = np.full((n, 1), 1.0 / n)
    e = np.ones((n, 1))
    u = np.full((1, n), 1.0 / n)
    for _ in range(maxi):
        p = alpha * (G @ p) + (1 - alpha) * (e @ (u @ p))
    # Self-check: the principal eigenvector of the Google matrix, scaled to
    # sum 1, is the fixed point the power iteration converges to (the error
    # shrinks by alpha per iteration).
    if alpha ** maxi < 1e-6:
        M = alpha * G + (1 - alpha) / n
        values, vectors = np.linalg.eig(M)
        v = np.real(vectors[:, np.argmax(np.real(values))])
        v = v / v.sum()
        err = np.abs(v - p[:, 0]).max() / v.max()
        assert err < 1e-5, f"pagerank reference: not the eigenvector ({err:g})"
    return {args["p"]: p}


def check_output(text, args):
    p = reference(args)[args["p"]]
    top = int(np.argmax(p[:, 0])) + 1
    expected = f"top page {top}"
    if expected not in text:
        return f"expected '{expected}' in the summary line"
    return None
