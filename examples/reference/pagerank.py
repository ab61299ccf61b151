"""NumPy reference for examples/pagerank.dml (PageRank by power iteration).

generate(directory, size) writes a random directed link graph (every page has
at least one outgoing link, a few pages are popular) as Matrix Market;
reference(args) runs the same power iterations and asserts that, after
enough of them, the result is the principal eigenvector of the Google matrix.
"""

import os

import numpy as np

import common
import scipy.io
import scipy.sparse

SCRIPT = "pagerank.dml"
TOLERANCE = (1e-9, 1e-14)

SIZES = {
    "small": dict(pages=500, links=4000, seed=41, iterations=100),
    # The scale: 1,000,000 pages, 10,000,000 links, read and run
    # sparse (CSR) within 2 GB.
    "large": dict(pages=1_000_000, links=10_000_000, seed=42, iterations=20),
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
    src, dst = src[keep], dst[keep]
    # Pages whose only link was a self-link get one to the next page.
    degree = np.bincount(src, minlength=n)
    lonely = np.flatnonzero(degree == 0)
    src = np.concatenate([src, lonely])
    dst = np.concatenate([dst, (lonely + 1) % n])
    path = os.path.join(directory, "links.mtx")
    common.write_mtx(path, (n, n), src, dst)
    return {"G": path, "p": os.path.join(directory, "ranks.csv"),
            "alpha": 0.85, "maxi": spec["iterations"]}


def reference(args):
    A = common.read_mtx(args["G"])
    alpha = float(args.get("alpha", 0.85))
    maxi = int(args.get("maxi", 20))
    n = A.shape[0]
    G = scipy.sparse.diags(1.0 / np.asarray(A.sum(axis=1)).ravel()) @ A
    G = G.T.tocsr()
    p = np.full((n, 1), 1.0 / n)
    for _ in range(maxi):
        p = alpha * (G @ p) + (1 - alpha) * p.sum() / n
    # Self-check: the principal eigenvector of the Google matrix, scaled to
    # sum 1, is the fixed point the power iteration converges to (the error
    # shrinks by alpha per iteration); dense, so only for small graphs.
    if alpha ** maxi < 1e-6 and n <= 5000:
        G = G.toarray()
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
