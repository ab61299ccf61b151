"""Helpers shared by the example references (imported next to check.py)."""

import json
import os

import numpy as np


def read_csv(path):
    """A matrix from a CSV file, always two-dimensional."""
    return np.loadtxt(path, delimiter=",", ndmin=2)


def write_text_cell(path, X):
    """X in SystemDS's text-cell format (an "i j v" line per non-zero) with
    its .mtd file, which gives the sizes and non-zeros: a read of it has a
    sparsity at compile time, and a sparse one is read straight into CSR."""
    rows, cols = np.nonzero(X)
    with open(path, "w") as f:
        for i, j in zip(rows, cols):
            f.write(f"{i + 1} {j + 1} {X[i, j]!r}\n")
    with open(path + ".mtd", "w") as f:
        json.dump({"data_type": "matrix", "value_type": "double",
                   "rows": X.shape[0], "cols": X.shape[1],
                   "nnz": int(len(rows)), "format": "text"}, f)


def read_matrix(path):
    """A matrix from a CSV file, or from a text-cell file with its .mtd."""
    mtd = path + ".mtd"
    if not os.path.exists(mtd):
        return read_csv(path)
    with open(mtd) as f:
        meta = json.load(f)
    X = np.zeros((meta["rows"], meta["cols"]))
    cells = np.loadtxt(path, ndmin=2)
    X[cells[:, 0].astype(int) - 1, cells[:, 1].astype(int) - 1] = cells[:, 2]
    return X


def as_bool(value):
    """A DML boolean argument (TRUE/FALSE or a Python bool) as a bool."""
    if isinstance(value, str):
        return value.upper() in ("TRUE", "1")
    return bool(value)


def write_mtx(path, shape, rows, cols):
    """A 0/1 matrix (0-based coordinates of its ones) as a Matrix Market
    coordinate file, written in bulk: scipy.io.mmwrite takes minutes for
    the 10,000,000 links of the large graphs."""
    import scipy.sparse
    A = scipy.sparse.coo_matrix((np.ones(len(rows)), (rows, cols)),
                                shape=shape).tocsr()
    A.sum_duplicates()
    A = A.tocoo()
    with open(path, "w") as out:
        out.write("%%MatrixMarket matrix coordinate real general\n")
        out.write(f"{shape[0]} {shape[1]} {A.nnz}\n")
        chunk = 1_000_000
        for start in range(0, A.nnz, chunk):
            r = (A.row[start:start + chunk] + 1).tolist()
            c = (A.col[start:start + chunk] + 1).tolist()
            out.write("".join(f"{a} {b} 1\n" for a, b in zip(r, c)))


def read_mtx(path):
    """A 'coordinate real general' Matrix Market file as a CSR matrix, read in
    bulk (scipy.io.mmread is slow for millions of entries)."""
    import scipy.io
    import scipy.sparse
    with open(path) as data:
        header = data.readline().split()
        if header[2:] != ["coordinate", "real", "general"]:
            return scipy.io.mmread(path).tocsr()
        line = data.readline()
        while line.startswith("%"):
            line = data.readline()
        m, n, _ = (int(x) for x in line.split())
        body = np.loadtxt(data, ndmin=2)
    return scipy.sparse.csr_matrix(
        (body[:, 2], (body[:, 0].astype(np.int64) - 1,
                      body[:, 1].astype(np.int64) - 1)), shape=(m, n))
