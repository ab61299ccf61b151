"""PageRank on a scipy.sparse link graph with AMLS: the power iteration of
examples/pagerank.dml called as a Python function on a CSR adjacency
matrix (taken as CSR, without a dense copy), checked against the same
iteration in SciPy.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/pagerank.py [pages]
"""

import sys
import time

import numpy as np
import scipy.sparse as sp

import amls

SCRIPT = """
# PageRank by power iteration (SystemDS's pageRank builtin, seed 003).
n = nrow(A)
G = t(A / rowSums(A))                  # column-stochastic transitions
p = matrix(1 / n, rows=n, cols=1)
e = matrix(1, rows=n, cols=1)
u = matrix(1 / n, rows=1, cols=n)
i = 0
while (i < maxi) {
  p = alpha * (G %*% p) + (1 - alpha) * (e %*% u %*% p)
  i = i + 1
}
"""


def link_graph(pages, links_per_page, seed=11):
    """A random web: every page links to the next (so none is a dead end)
    and to `links_per_page` pages drawn with a preference for low numbers
    (a few popular pages)."""
    rng = np.random.default_rng(seed)
    sources = np.repeat(np.arange(pages), links_per_page)
    targets = (pages * rng.random(sources.size) ** 3).astype(np.int64)
    ring = np.arange(pages)
    rows = np.concatenate([sources, ring])
    cols = np.concatenate([targets, (ring + 1) % pages])
    A = sp.csr_matrix((np.ones(rows.size), (rows, cols)),
                      shape=(pages, pages))
    A.data[:] = 1.0                    # duplicate links count once
    return A


def scipy_pagerank(A, alpha, iterations):
    n = A.shape[0]
    outdegree = np.asarray(A.sum(axis=1)).ravel()
    G = (sp.diags(1.0 / outdegree) @ A).T.tocsr()
    p = np.full(n, 1.0 / n)
    for _ in range(iterations):
        p = alpha * (G @ p) + (1 - alpha) * p.sum() / n
    return p


def main():
    pages = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
    alpha, iterations = 0.85, 50
    A = link_graph(pages, links_per_page=8)
    print(f"{pages} pages, {A.nnz} links (scipy.sparse CSR, "
          f"{A.nnz / pages ** 2:.1e} of the cells)")

    session = amls.Session(threads=2)
    pagerank = session.compile_dml(SCRIPT, outputs=["p"])
    pagerank(A=A, alpha=alpha, maxi=iterations)        # compiles
    start = time.perf_counter()
    p = pagerank(A=A, alpha=alpha, maxi=iterations)["p"][:, 0]
    amls_seconds = time.perf_counter() - start

    start = time.perf_counter()
    expected = scipy_pagerank(A, alpha, iterations)
    scipy_seconds = time.perf_counter() - start

    difference = np.abs(p - expected).max() / expected.max()
    top = np.argsort(-p)[:5]
    print(f"top pages: {top.tolist()}")
    print(f"sum of the ranks: {p.sum():.12f}")
    print(f"max difference from SciPy (relative to the largest rank): "
          f"{difference:.2e}")
    print(f"AMLS {amls_seconds * 1e3:.1f} ms, SciPy "
          f"{scipy_seconds * 1e3:.1f} ms ({iterations} iterations)")
    stats = session.stats()
    print(f"compilations {stats['compilations']}, "
          f"cache hits {stats['cache_hits']}, peak memory "
          f"{stats['peak_memory_bytes'] / 2 ** 20:.1f} MiB")
    assert difference < 1e-10
    assert np.array_equal(top, np.argsort(-expected)[:5])


if __name__ == "__main__":
    main()
