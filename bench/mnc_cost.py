#!/usr/bin/env python3
"""What the MNC sketches cost (issue 45): the same programs compiled and
run with Session(sparsity_estimator="mnc") and "metadata" on sparse inputs,
in fresh sessions. The difference of the optimizer times (the session
builds the sketches of its CSR arguments and the inference propagates
them inside it) against the run time of the program. Not a test: a
measurement.

    mnc_cost.py [--vertices 1000000] [--links 10000000] [--repeat 3]
"""

import argparse
import time

import numpy as np
import scipy.sparse as sp

import amls

PAGERANK = """
outdegree = rowSums(A)
G = t(A / outdegree)
p = matrix(1 / nrow(A), rows = nrow(A), cols = 1)
for (i in 1:20)
  p = alpha * (G %*% p) + (1 - alpha) / nrow(A)
"""

# One-hot codes times a weight matrix, and the co-occurrence of the codes:
# products whose estimate is exact with MNC (the codes' rows have one
# non-zero each).
ONE_HOT = """
S = O %*% W
C = t(O) %*% O
s = sum(S) + sum(C)
"""


def graph(n, links, rng):
    rows = rng.integers(0, n, size=links)
    cols = np.minimum((rng.random(links) ** 3 * n).astype(np.int64), n - 1)
    A = sp.csr_matrix((np.ones(links), (rows, cols)), shape=(n, n))
    A.sum_duplicates()
    A = A + sp.eye(n, format="csr")  # every page links somewhere
    A.data[:] = 1.0
    return A.tocsr()


def measure(source, outputs, inputs, estimator, repeat):
    optimize, execute = [], []
    for _ in range(repeat):
        session = amls.Session(threads=2, sparsity_estimator=estimator)
        function = session.compile_dml(source, outputs=outputs)
        function(**inputs)
        stats = session.stats()
        optimize.append(stats["optimize_ms"])
        start = time.perf_counter()
        function(**inputs)
        execute.append((time.perf_counter() - start) * 1000)
    return min(optimize), min(execute)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vertices", type=int, default=1_000_000)
    parser.add_argument("--links", type=int, default=10_000_000)
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    A = graph(args.vertices, args.links, rng)
    codes = rng.integers(0, 50, size=args.rows)
    O = sp.csr_matrix((np.ones(args.rows), (np.arange(args.rows), codes)),
                      shape=(args.rows, 50))
    W = rng.random((50, 20))
    cases = [
        (f"PageRank, {args.vertices} vertices, {A.nnz} links", PAGERANK,
         ["p"], dict(A=A, alpha=0.85)),
        (f"one-hot {args.rows} x 50 codes", ONE_HOT, ["s"], dict(O=O, W=W)),
    ]
    print("| program | optimizer ms, metadata | optimizer ms, mnc | sketch "
          "cost ms | run ms | sketch cost / run |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, source, outputs, inputs in cases:
        meta_opt, meta_run = measure(source, outputs, inputs, "metadata",
                                     args.repeat)
        mnc_opt, mnc_run = measure(source, outputs, inputs, "mnc",
                                   args.repeat)
        cost = max(0.0, mnc_opt - meta_opt)
        print(f"| {name} | {meta_opt:.1f} | {mnc_opt:.1f} | {cost:.1f} | "
              f"{mnc_run:.1f} | {cost / mnc_run:.1%} |", flush=True)


if __name__ == "__main__":
    main()
