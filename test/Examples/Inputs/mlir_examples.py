"""NumPy references of the AMLS IR examples (examples/*.mlir), for
test/Examples/mlir-examples.test through oracle.py --define (amls_rand, the
runtime's rand() in NumPy, comes from oracle.py)."""

import scipy.sparse


def linreg_cg_beta(seed):
    """examples/linreg-cg.mlir generates y = X beta with no noise, so CG
    with lambda = 0 to a small tolerance recovers beta itself."""
    return amls_rand(int(seed), 100, 1, 0.0, 1.0, 1.0, "normal")


def pagerank(seed, iterations, alpha, n=10000, density=0.001):
    """examples/pagerank.mlir: power iteration p = alpha G p + (1 - alpha)
    e (u p) from p = 1/n, G = rand(n, n, 0, 1, density, seed), generated
    by blocks of rows into a sparse matrix."""
    blocks = []
    for first in range(0, n, 1000):
        block = amls_rand(int(seed), n, n, 0.0, 1.0, density,
                          first_row=first, row_count=1000)
        blocks.append(scipy.sparse.csr_matrix(block))
    G = scipy.sparse.vstack(blocks).tocsr()
    p = np.full((n, 1), 1.0 / n)
    for _ in range(int(iterations)):
        p = alpha * (G @ p) + (1 - alpha) * p.mean()
    return p
