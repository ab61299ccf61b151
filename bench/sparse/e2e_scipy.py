#!/usr/bin/env python3
"""End-to-end SciPy runs of the graph examples, for bench/sparse/run.py:
read the Matrix Market file, compute, write the result (CSV, one value per
line), as `amls-run examples/pagerank.dml` and `examples/components.dml` do.

  e2e_scipy.py pagerank G.mtx OUT.csv [--iters 20] [--alpha 0.85]
  e2e_scipy.py components G.mtx OUT.csv

Prints one line: e2e=NAME read_s=... compute_s=... write_s=... checksum=...
iterations=... (the checksum of scipy_kernels.py). The harness measures the
process's wall time and peak memory from outside.
"""

import os
import sys

# One thread for NumPy's BLAS, as in the kernel timings (set before import).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402

import scipy.sparse as sp  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402
import scipy_kernels  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("algorithm", choices=["pagerank", "components"])
    parser.add_argument("matrix")
    parser.add_argument("output")
    parser.add_argument("--iters", type=int,
                        default=scipy_kernels.PAGERANK_ITERATIONS)
    parser.add_argument("--alpha", type=float, default=scipy_kernels.ALPHA)
    options = parser.parse_args()

    start = time.perf_counter()
    A = gen.read_mtx(options.matrix)
    read_s = time.perf_counter() - start

    start = time.perf_counter()
    iterations = 0
    if options.algorithm == "pagerank":
        result = scipy_kernels.pagerank(A, options.iters, options.alpha)
    else:
        # components.dml removes self-edges when trace(G) != 0.
        if A.diagonal().sum() != 0:
            A = (A - sp.diags(A.diagonal())).tocsr()
            A.eliminate_zeros()
        result, iterations = scipy_kernels.components(A)
    compute_s = time.perf_counter() - start

    start = time.perf_counter()
    with open(options.output, "w") as out:
        out.write("\n".join(map(repr, result.tolist())))
        out.write("\n")
    write_s = time.perf_counter() - start
    print(f"e2e={options.algorithm} threads=1 read_s={read_s:.3f} "
          f"compute_s={compute_s:.3f} write_s={write_s:.3f} "
          f"checksum={scipy_kernels.checksum(result)!r} "
          f"iterations={iterations}")


if __name__ == "__main__":
    main()
