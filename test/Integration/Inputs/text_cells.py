#!/usr/bin/env python3
"""Text-cell files for the DML I/O tests, written and checked independently
of AMLS: "i j v" lines (1-based), the sizes in a SystemDS .mtd file.

  text_cells.py make PATH [--no-mtd]   a random 9x6 matrix, ~40% non-zero,
                                       its entries shuffled; PATH.npy keeps it
  text_cells.py check-io DIR           the results of text-io.dml against
                                       NumPy (DIR/X.npy the input)
"""

import json
import sys

import numpy as np


def read_text(path, rows=None, cols=None):
    if rows is None:
        with open(path + ".mtd") as f:
            mtd = json.load(f)
        assert mtd["data_type"] == "matrix", mtd
        assert mtd["format"] == "text", mtd
        rows, cols = mtd["rows"], mtd["cols"]
    m = np.zeros((rows, cols))
    with open(path) as f:
        for line in f:
            if line.strip():
                i, j, v = line.split()
                m[int(i) - 1, int(j) - 1] = float(v)
    return m


def make(path, mtd=True):
    rng = np.random.default_rng(18)
    x = np.round(rng.normal(size=(9, 6)) * 100) / 8
    x[rng.random((9, 6)) < 0.6] = 0
    np.save(path + ".npy", x)
    entries = [(i + 1, j + 1, x[i, j]) for i, j in zip(*np.nonzero(x))]
    rng.shuffle(entries)
    with open(path, "w") as f:
        for i, j, v in entries:
            f.write(f"{i} {j} {v!r}\n")
    if mtd:
        with open(path + ".mtd", "w") as f:
            json.dump({"data_type": "matrix", "value_type": "double",
                       "rows": 9, "cols": 6, "nnz": len(entries),
                       "format": "text", "author": "numpy"}, f)


def check_io(d):
    x = np.load(d + "/X.npy")
    y = read_text(d + "/Y")
    assert np.allclose(y, x.T @ x + 1, rtol=1e-12, atol=0), (y, x.T @ x + 1)
    with open(d + "/Y.mtd") as f:
        mtd = json.load(f)
    assert (mtd["rows"], mtd["cols"], mtd["nnz"]) == (6, 6, 36), mtd
    xcsv = np.loadtxt(d + "/X.csv", delimiter=",")
    assert np.array_equal(xcsv, x)
    with open(d + "/X.csv.mtd") as f:
        mtd = json.load(f)
    assert mtd["format"] == "csv" and mtd["header"] is False, mtd
    assert mtd["nnz"] == np.count_nonzero(x), mtd
    with open(d + "/Z") as f:
        assert f.read() == "1 1 0\n"
    assert np.array_equal(read_text(d + "/Z"), np.zeros((9, 6)))
    with open(d + "/s") as f:
        assert float(f.read()) == x.sum()
    with open(d + "/n") as f:
        assert f.read() == "9"
    with open(d + "/b") as f:
        assert f.read() == ("TRUE" if x.sum() > 0 else "FALSE")
    with open(d + "/s.mtd") as f:
        mtd = json.load(f)
    assert (mtd["data_type"], mtd["value_type"]) == ("scalar", "double"), mtd
    with open(d + "/n.mtd") as f:
        assert json.load(f)["value_type"] == "int"
    print("text-io: ok")


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2], mtd="--no-mtd" not in sys.argv)
    elif sys.argv[1] == "check-io":
        check_io(sys.argv[2])
    elif sys.argv[1] == "print":
        np.set_printoptions(precision=3, floatmode="fixed")
        x = np.load(sys.argv[2] + ".npy")
        print(" ".join(f"{v:.3f}" for v in x.sum(axis=0)))
