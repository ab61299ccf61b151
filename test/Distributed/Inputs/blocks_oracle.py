#!/usr/bin/env python3
"""Runs Inputs/blocks.dml on a generated matrix through a launcher and
checks every output against NumPy (1e-12 relative), and that the loop ran
one all-reduce per iteration at least (--stats).

    blocks_oracle.py --amls-run PATH --launcher 'mpiexec -np 4' --rows R
                     --cols C [--density D [--symmetric]] --iters N --dir DIR
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp

parser = argparse.ArgumentParser()
parser.add_argument("--amls-run", required=True)
parser.add_argument("--launcher", default="")
parser.add_argument("--rows", type=int, required=True)
parser.add_argument("--cols", type=int, required=True)
parser.add_argument("--density", type=float, default=1.0)
parser.add_argument("--symmetric", action="store_true",
                    help="a square sparse matrix in Matrix Market's "
                         "symmetric layout (its lower triangle listed)")
parser.add_argument("--iters", type=int, default=10)
parser.add_argument("--dir", required=True)
options = parser.parse_args()

os.makedirs(options.dir, exist_ok=True)
rng = np.random.default_rng(options.rows * 1000 + options.cols)
if options.density < 1.0:
    A = sp.random(options.rows, options.cols, density=options.density,
                  random_state=7, format="coo")
    if options.symmetric:
        A = (A + A.T).tocoo()
    path = os.path.join(options.dir, "X.mtx")
    scipy.io.mmwrite(path, A,
                     symmetry="symmetric" if options.symmetric else None)
    if options.symmetric and "symmetric" not in open(path).readline():
        sys.exit(f"FAIL: {path} is not written symmetric")
    X = A.toarray()
else:
    X = rng.uniform(0.0, 1.0, (options.rows, options.cols))
    path = os.path.join(options.dir, "X.csv")
    np.savetxt(path, X, delimiter=",", fmt="%.17g")

script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "blocks.dml")
command = shlex.split(options.launcher) + [
    options.amls_run, script, "--arg", f"X={path}", "--arg",
    f"out={options.dir}", "--arg", f"iters={options.iters}", "--threads", "1",
    "--distributed", "--distribute-min-cells=0", "--stats"]
run = subprocess.run(command, capture_output=True, text=True)
if run.returncode != 0:
    sys.exit(f"FAIL: {shlex.join(command)} exited with {run.returncode}:\n"
             f"{run.stdout}{run.stderr}")

w = np.ones((options.cols, 1))
for _ in range(options.iters):
    w = w - 0.5 * (X.T @ (X @ w)) / (options.rows * options.cols)
expected = {
    "colsums.csv": X.sum(axis=0, keepdims=True),
    "gram.csv": X.T @ X,
    "xv.csv": X @ np.arange(1, options.cols + 1).reshape(-1, 1),
    "rowsums.csv": X.sum(axis=1, keepdims=True),
    "w.csv": w,
    "colvars.csv": X.var(axis=0, ddof=1, keepdims=True),
    "colsds.csv": X.std(axis=0, ddof=1, keepdims=True),
}
failures = 0
for name, want in expected.items():
    got = np.loadtxt(os.path.join(options.dir, name), delimiter=",", ndmin=2)
    if got.shape != want.shape or np.isnan(got).any() or \
            not np.allclose(got, want, rtol=1e-12, atol=1e-12):
        print(f"FAIL {name}: {got.ravel()[:6]} against {want.ravel()[:6]}")
        failures += 1
printed = re.search(r"sum (\S+) mean (\S+) max (\S+) rows (\d+) var (\S+) "
                    r"sd (\S+)", run.stdout)
if not printed or run.stdout.count("sum ") != 1:
    print(f"FAIL: expected one line 'sum .. mean .. max .. rows .. var .. "
          f"sd ..', "
          f"found {run.stdout!r}")
    failures += 1
else:
    values = [float(printed.group(i)) for i in (1, 2, 3, 5, 6)]
    wanted = [X.sum(), X.mean(), X.max(), X.var(ddof=1), X.std(ddof=1)]
    if np.isnan(values).any() or not np.allclose(values, wanted,
                                                 rtol=1e-12) or \
            int(printed.group(4)) != options.rows:
        print(f"FAIL: printed {printed.group(0)}, NumPy: sum {X.sum()} mean "
              f"{X.mean()} max {X.max()} rows {options.rows} var "
              f"{wanted[3]} sd {wanted[4]}")
        failures += 1
traced = re.search(r"trace (\S+)", run.stdout)
if (options.rows == options.cols) != bool(traced) or (
        traced and not np.isclose(float(traced.group(1)), np.trace(X),
                                  rtol=1e-12)):
    print(f"FAIL: printed {traced.group(0) if traced else 'no trace'}, "
          f"NumPy's trace {np.trace(X) if options.rows == options.cols else '-'}")
    failures += 1
calls = re.search(r"rank 0 all-reduce: (\d+) call", run.stderr)
ranks = re.search(r"amls-run mpi: (\d+) rank\(s\)", run.stderr)
if not ranks:
    print(f"FAIL: no statistics of rank 0 in {run.stderr!r}")
    failures += 1
elif int(ranks.group(1)) > 1 and (not calls or
                                  int(calls.group(1)) < options.iters):
    print(f"FAIL: expected at least {options.iters} all-reduces on rank 0, "
          f"found {calls.group(1) if calls else 'none'}")
    failures += 1
if failures:
    sys.exit(1)
print(f"PASS {options.rows}x{options.cols} on {ranks.group(1)} rank(s), "
      f"{calls.group(1) if calls else 0} all-reduces on rank 0")
