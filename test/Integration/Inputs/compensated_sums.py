"""Data and oracle for test/Integration/compensated-sums.mlir.

  compensated_sums.py data DIR    writes X and Y (2000 x 2000, AMLS binary)
  compensated_sums.py check DIR   compares the program's results in DIR
                                  with the correctly rounded sums

The cells are 1e6 plus a uniform fraction: every addition of a plain sum
rounds away part of the fraction, and over 4 million cells the rounding
errors add up to many units in the last place, while a Kahan sum (as
SystemDS computes it) stays within a few. The oracle is math.fsum (the
correctly rounded sum of the same doubles), so a result passes when it is
within 4 units in the last place of it (per row and per column for row
and column sums).
"""

import math
import os
import sys

import numpy as np

SHAPE = (2000, 2000)
ULPS = 4


def write_binary(path, matrix):
    matrix = np.ascontiguousarray(np.atleast_2d(matrix), dtype=np.float64)
    with open(path, "wb") as out:
        out.write(b"AMLSMAT1")
        np.array(matrix.shape, dtype=np.int64).tofile(out)
        matrix.tofile(out)


def read_binary(path):
    with open(path, "rb") as f:
        assert f.read(8) == b"AMLSMAT1", path
        shape = tuple(np.fromfile(f, dtype=np.int64, count=2))
        return np.fromfile(f, dtype=np.float64).reshape(shape)


def inputs():
    rng = np.random.default_rng(11)
    x = 1e6 + rng.random(SHAPE)
    y = rng.random(SHAPE)
    return x, y


def exact_sums(values, axis):
    """math.fsum along `axis` (None: of all cells), as a 2-D array."""
    if axis is None:
        return np.array([[math.fsum(values.ravel())]])
    sums = [math.fsum(v) for v in (values if axis == 1 else values.T)]
    return np.array(sums).reshape((-1, 1) if axis == 1 else (1, -1))


def expected(x, y):
    cells = x.size
    return [
        ("sum", exact_sums(x, None)),
        ("mean", exact_sums(x, None) / cells),
        ("sumsq", exact_sums(x * x, None)),
        ("sum_xy", exact_sums(x * y, None)),
        ("row_sums", exact_sums(x, 1)),
        ("col_sums", exact_sums(x, 0)),
    ]


def main():
    command, directory = sys.argv[1], sys.argv[2]
    x, y = inputs()
    if command == "data":
        write_binary(os.path.join(directory, "X.bin"), x)
        write_binary(os.path.join(directory, "Y.bin"), y)
        return
    for position, (name, want) in enumerate(expected(x, y)):
        got = read_binary(os.path.join(directory, f"{position}.bin"))
        ulps = np.abs(got - want) / np.spacing(np.abs(want))
        worst = float(ulps.max()) if got.shape == want.shape else math.inf
        print(f"{'PASS' if worst <= ULPS else 'FAIL'}: {name} "
              f"{want.shape[0]}x{want.shape[1]}"
              + ("" if worst <= ULPS else f" off by {worst:.0f} ulps"))


if __name__ == "__main__":
    main()
