#!/usr/bin/env python3
"""Writing a dense matrix as CSV: AMLS against NumPy's savetxt (`make bench`).

A 100,000 x 100 matrix of normally distributed doubles (full 17-digit
values, the hard case for a formatter) is written by amls-run (a program of
one `amls.write`, its input read from a binary file: the execute time is the
write alone, best of --repeat runs) at 1 and 2 threads, and by NumPy's
`np.savetxt` (best of the same number of runs) with its default format
(`%.18e`) and with `%.17g` (round-trip precision, as AMLS). The files are
checked: both AMLS files have the same bytes and read back to the matrix
exactly. pandas is not installed on this machine.

Usage: write_csv.py --amls-run build/bin/amls-run [--rows 100000]
                    [--cols 100] [--repeat 3]
"""

import argparse
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import time


import openblas_core  # noqa: E402

# OpenBLAS reads its core type when it is loaded: set it before NumPy.
openblas_core.select()

import numpy as np  # noqa: E402


def write_binary(path, matrix):
    with open(path, "wb") as out:
        out.write(b"AMLSMAT1")
        np.array(matrix.shape, dtype=np.int64).tofile(out)
        np.ascontiguousarray(matrix).tofile(out)


def amls_write(amls_run, directory, rows, cols, threads, repeat):
    """Best execute time (s) of amls-run writing X as CSV, and the file."""
    out = os.path.join(directory, f"amls-{threads}.csv")
    program = os.path.join(directory, "write.mlir")
    with open(program, "w") as text:
        text.write(f"func.func @main(%X: !amls.matrix<{rows}x{cols}xf64> "
                   f"{{amls.name = \"X\"}}) {{\n"
                   f"  amls.write %X, \"{out}\" csv : "
                   f"!amls.matrix<{rows}x{cols}xf64>\n"
                   f"  return\n}}\n")
    command = [amls_run, program, "--input", "X=" + os.path.join(directory, "X.bin"),
               "--threads", str(threads), "--repeat", str(repeat), "--timing"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"amls-run failed:\n{run.stderr}")
    found = re.search(r"execute ([0-9.]+)", run.stderr)
    if not found:
        sys.exit(f"no timing in amls-run's output:\n{run.stderr}")
    return float(found.group(1)) / 1e3, out


def numpy_write(path, matrix, fmt, repeat):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        np.savetxt(path, matrix, delimiter=",", fmt=fmt)
        best = min(best, time.perf_counter() - start)
    return best


def digest(path):
    with open(path, "rb") as data:
        return hashlib.sha256(data.read()).hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--rows", type=int, default=100000)
    parser.add_argument("--cols", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()

    matrix = np.random.default_rng(7).standard_normal((options.rows, options.cols))
    mib = lambda path: os.path.getsize(path) / 2**20  # noqa: E731
    with tempfile.TemporaryDirectory(prefix="amls-write-") as directory:
        write_binary(os.path.join(directory, "X.bin"), matrix)
        print(f"Writing a {options.rows} x {options.cols} matrix as CSV "
              f"(best of {options.repeat}):")
        print(f"| writer | time (s) | MB/s | file (MiB) |")
        print(f"|---|---:|---:|---:|")
        files = []
        for threads in (1, 2):
            seconds, path = amls_write(options.amls_run, directory, options.rows,
                                       options.cols, threads, options.repeat)
            files.append(path)
            print(f"| AMLS, {threads} thread{'s' if threads > 1 else ''} | "
                  f"{seconds:.3f} | {mib(path) / seconds:.0f} | {mib(path):.1f} |")
        for fmt in ("%.18e", "%.17g"):
            path = os.path.join(directory, "numpy.csv")
            seconds = numpy_write(path, matrix, fmt, options.repeat)
            print(f"| NumPy savetxt `{fmt}` | {seconds:.3f} | "
                  f"{mib(path) / seconds:.0f} | {mib(path):.1f} |")
        if digest(files[0]) != digest(files[1]):
            sys.exit("FAIL: AMLS wrote different bytes at 1 and 2 threads")
        back = np.loadtxt(files[1], delimiter=",", ndmin=2)
        if back.shape != matrix.shape or not np.array_equal(back, matrix):
            sys.exit("FAIL: AMLS's CSV file does not read back to the matrix")
        print("ok: the same bytes at 1 and 2 threads, read back exactly")


if __name__ == "__main__":
    main()
