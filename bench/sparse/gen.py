#!/usr/bin/env python3
"""The sparse benchmark matrices: generated from fixed seeds, written once as
Matrix Market files and cached.

Matrices (values are multiples of 1/16 in [1/16, 1], exact in decimal and in
binary, so every reader parses the same doubles; graph links are 1):

  g_unif        100,000 x 100,000, 10 distinct random columns per row
                (no diagonal entry): 1,000,000 non-zeros
  g_pow         100,000 x 100,000, power-law row degrees (exponent 2.1,
                at least 1, at most 10,000), random columns: ~1.0M non-zeros
  t_10pct       1,000,000 x 100, every cell non-zero with probability 0.1:
                ~10M non-zeros
  graph_1m      1,000,000 vertices, exactly 10,000,000 directed links, no
                self-links: a ring i -> i+1 (so every vertex has an out-link,
                as PageRank's min(outdegree) check needs) plus links with
                power-law out-degrees to targets of Zipf-like popularity
  graph_1m_sym  the undirected graph_1m: the pattern of A + t(A) with both
                directions stored ("general" symmetry), for components.dml
  g_unif_sym    the same for g_unif (the end-to-end runs of --quick)

Files go to build/bench/sparse/NAME.mtx (coordinate, real, general, 1-based,
sorted by row then column, no duplicates) with NAME.json next to them
holding the generation parameters: a file whose parameters match is reused.

Usage: gen.py [--out DIR] [NAME ...]    (default: all matrices)
Library: path(name, out_dir) generates when needed; read_mtx(path) reads a
file as a scipy.sparse CSR matrix (faster than scipy.io.mmread).
"""

import argparse
import json
import os
import sys
import time

import numpy as np
import scipy.sparse as sp

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "..", "build", "bench", "sparse")

# Bump when the generators change: cached files are then regenerated.
VERSION = 1

MATRICES = {
    "g_unif": dict(kind="uniform", n=100_000, per_row=10, seed=101),
    "g_pow": dict(kind="powerlaw", n=100_000, mean_degree=10, exponent=2.1,
                  max_degree=10_000, seed=102),
    "t_10pct": dict(kind="tall", rows=1_000_000, cols=100, density=0.1,
                    seed=103),
    "graph_1m": dict(kind="graph", n=1_000_000, links=10_000_000,
                     exponent=2.1, popularity=0.8, seed=104),
    "graph_1m_sym": dict(kind="symmetrized", source="graph_1m"),
    "g_unif_sym": dict(kind="symmetrized", source="g_unif"),
}

# Value k/16 for k = 1..16 as text, exactly (0.0625, 0.125, ..., 1).
VALUE_TEXT = np.array([np.format_float_positional(k / 16, trim="-")
                       for k in range(1, 17)])


def random_values(rng, count):
    """Index 0..15 into VALUE_TEXT (value (index + 1) / 16) per entry."""
    return rng.integers(0, 16, count, dtype=np.int8)


def distinct_columns(rng, n, degrees):
    """Row and column indices (CSR order) with degrees[i] distinct random
    columns in row i, none on the diagonal. Rows with a collision are
    redrawn until there is none (rare for degrees << n)."""
    rows = np.repeat(np.arange(len(degrees), dtype=np.int64), degrees)
    cols = rng.integers(0, n, len(rows), dtype=np.int64)
    while True:
        keys = rows * n + cols
        order = np.argsort(keys, kind="stable")
        rows, cols, keys = rows[order], cols[order], keys[order]
        bad = np.zeros(len(keys), dtype=bool)
        bad[1:] = keys[1:] == keys[:-1]
        bad |= rows == cols
        if not bad.any():
            return rows, cols
        cols[bad] = rng.integers(0, n, int(bad.sum()), dtype=np.int64)


def power_law_degrees(rng, count, mean, exponent, low, high):
    """`count` integer degrees in [low, high] from a continuous power law
    P(d) ~ d^-exponent, rescaled so that their mean is about `mean`."""
    raw = (1.0 - rng.random(count)) ** (-1.0 / (exponent - 1.0))
    degrees = np.clip(np.rint(raw * mean / raw.mean()), low, high)
    return degrees.astype(np.int64)


def gen_uniform(spec):
    rng = np.random.default_rng(spec["seed"])
    n = spec["n"]
    rows, cols = distinct_columns(
        rng, n, np.full(n, spec["per_row"], dtype=np.int64))
    return (n, n), rows, cols, random_values(rng, len(rows))


def gen_powerlaw(spec):
    rng = np.random.default_rng(spec["seed"])
    n = spec["n"]
    degrees = power_law_degrees(rng, n, spec["mean_degree"], spec["exponent"],
                                1, spec["max_degree"])
    rows, cols = distinct_columns(rng, n, degrees)
    return (n, n), rows, cols, random_values(rng, len(rows))


def gen_tall(spec):
    rng = np.random.default_rng(spec["seed"])
    m, n = spec["rows"], spec["cols"]
    rows, cols = [], []
    chunk = 100_000
    for start in range(0, m, chunk):
        mask = rng.random((min(chunk, m - start), n)) < spec["density"]
        r, c = np.nonzero(mask)  # row-major: already in CSR order
        rows.append(r.astype(np.int64) + start)
        cols.append(c.astype(np.int64))
    rows, cols = np.concatenate(rows), np.concatenate(cols)
    return (m, n), rows, cols, random_values(rng, len(rows))


def gen_graph(spec):
    """Directed links: the ring plus power-law out-degrees with popular
    targets, deduplicated, self-links dropped, trimmed or topped up to
    exactly spec["links"]."""
    rng = np.random.default_rng(spec["seed"])
    n, links = spec["n"], spec["links"]
    ring = np.arange(n, dtype=np.int64) * n + (np.arange(n) + 1) % n
    # Popularity ~ rank^-popularity over a random order of the vertices.
    popularity = 1.0 / np.arange(1, n + 1) ** spec["popularity"]
    cdf = np.cumsum(popularity[rng.permutation(n)])
    cdf /= cdf[-1]
    degrees = power_law_degrees(rng, n, (links - n) / n * 1.02,
                                spec["exponent"], 0, n // 10)
    src = np.repeat(np.arange(n, dtype=np.int64), degrees)
    dst = np.minimum(np.searchsorted(cdf, rng.random(len(src))), n - 1)
    keys = np.unique(src * n + dst)
    keys = keys[keys // n != keys % n]  # no self-links
    extra = np.setdiff1d(keys, ring, assume_unique=True)
    while len(extra) < links - n:  # top up with uniform random links
        more = rng.integers(0, n * n, links - n - len(extra), dtype=np.int64)
        more = more[more // n != more % n]
        extra = np.setdiff1d(np.union1d(extra, more), ring,
                             assume_unique=True)
    if len(extra) > links - n:
        extra = np.sort(rng.choice(extra, links - n, replace=False))
    keys = np.union1d(ring, extra)
    assert len(keys) == links
    return (n, n), keys // n, keys % n, None


def gen_symmetrized(spec, out_dir):
    A = read_mtx(path(spec["source"], out_dir))
    n = A.shape[0]
    coo = A.tocoo()
    r, c = coo.row.astype(np.int64), coo.col.astype(np.int64)
    keys = np.unique(np.concatenate([r * n + c, c * n + r]))
    keys = keys[keys // n != keys % n]
    return (n, n), keys // n, keys % n, None


def write_mtx(file_path, shape, rows, cols, values):
    """A Matrix Market coordinate file, 1-based, written in bulk (values: an
    index into VALUE_TEXT per entry, or None for all ones)."""
    temp = file_path + ".tmp"
    with open(temp, "w") as out:
        out.write("%%MatrixMarket matrix coordinate real general\n")
        out.write("% generated by bench/sparse/gen.py\n")
        out.write(f"{shape[0]} {shape[1]} {len(rows)}\n")
        chunk = 1_000_000
        for start in range(0, len(rows), chunk):
            r = (rows[start:start + chunk] + 1).tolist()
            c = (cols[start:start + chunk] + 1).tolist()
            if values is None:
                lines = [f"{a} {b} 1" for a, b in zip(r, c)]
            else:
                v = VALUE_TEXT[values[start:start + chunk]].tolist()
                lines = [f"{a} {b} {x}" for a, b, x in zip(r, c, v)]
            out.write("\n".join(lines))
            out.write("\n")
    os.replace(temp, file_path)


def read_mtx(file_path):
    """A 'coordinate real|integer|pattern general' Matrix Market file as a
    CSR matrix (duplicates summed, as mmread does)."""
    with open(file_path) as data:
        header = data.readline().split()
        if (len(header) < 5 or header[0] != "%%MatrixMarket"
                or header[2] != "coordinate" or header[4] != "general"):
            sys.exit(f"{file_path}: read_mtx reads only 'coordinate ... "
                     f"general' Matrix Market files")
        line = data.readline()
        while line.startswith("%") or not line.strip():
            line = data.readline()
        m, n, entries = (int(x) for x in line.split())
        columns = 2 if header[3] == "pattern" else 3
        body = np.loadtxt(data, dtype=np.float64, ndmin=2,
                          usecols=range(columns))
    if body.shape[0] != entries:
        sys.exit(f"{file_path}: expected {entries} entries, "
                 f"found {body.shape[0]}")
    values = body[:, 2] if columns == 3 else np.ones(entries)
    rows = body[:, 0].astype(np.int64) - 1
    cols = body[:, 1].astype(np.int64) - 1
    return sp.csr_matrix((values, (rows, cols)), shape=(m, n))


def path(name, out_dir=DEFAULT_OUT, log=sys.stderr):
    """The file of matrix `name`, generated first unless cached."""
    spec = dict(MATRICES[name], version=VERSION)
    if "source" in spec:  # a derived matrix is stale when its source changes
        spec["source_spec"] = MATRICES[spec["source"]]
    out_dir = os.path.abspath(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    mtx = os.path.join(out_dir, name + ".mtx")
    stamp = os.path.join(out_dir, name + ".json")
    if os.path.exists(mtx) and os.path.exists(stamp):
        with open(stamp) as saved:
            if json.load(saved) == spec:
                return mtx
    start = time.perf_counter()
    kind = spec["kind"]
    if kind == "symmetrized":
        shape, rows, cols, values = gen_symmetrized(spec, out_dir)
    else:
        generator = {"uniform": gen_uniform, "powerlaw": gen_powerlaw,
                     "tall": gen_tall, "graph": gen_graph}[kind]
        shape, rows, cols, values = generator(spec)
    write_mtx(mtx, shape, rows, cols, values)
    with open(stamp, "w") as saved:
        json.dump(spec, saved)
    if log:
        print(f"gen: {name}: {shape[0]}x{shape[1]}, {len(rows)} non-zeros, "
              f"{time.perf_counter() - start:.1f} s -> {mtx}", file=log)
    return mtx


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="any of: " + ", ".join(MATRICES))
    options = parser.parse_args()
    for name in options.names:
        if name not in MATRICES:
            parser.error(f"unknown matrix '{name}'; known: "
                         + ", ".join(MATRICES))
    for name in options.names or MATRICES:
        print(path(name, options.out))


if __name__ == "__main__":
    main()
