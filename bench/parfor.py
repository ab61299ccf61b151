#!/usr/bin/env python3
"""parfor against the sequential loop and NumPy (`make bench-parfor`).

Three loops of seed 001, each run by amls-run as a parfor at 2 workers
(opt=NONE, so the plan is the one asked for) and as the same loop run
sequentially (par=1: one worker, the ops inside threaded; and at
--threads 1), timed inside the script (time(), the loop alone), best of
--repeat runs; and in NumPy sequentially and on two threads of
concurrent.futures (NumPy releases the GIL in its BLAS calls only):

  cg          a compute-bound body: 24 conjugate-gradient solves of
              (t(X) X + reg I) b = t(X) y, 300 steps each (X 2000 x 400)
  triangular  an imbalanced nested loop: iteration i sums the products of
              column i with columns i..n (n = 400): naive, static and
              factoring task partitioners
  grid        seed 001's grid search: ridge regressions for 12
              regularizations by their normal equations (X 20000 x 200;
              t(X) %*% X leaves the loop as loop-invariant code, in the
              parfor as in the for loop, so the loop is the 12 solves)

Not a test: the targets (issue 19) are a speedup of at least 1.8 at 2
workers on 2 cores for the compute-bound body, and the factoring
partitioner ahead of static on the triangular loop.

Usage: parfor.py --amls-run build/bin/amls-run [--repeat 3]
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import openblas_core  # noqa: E402

openblas_core.select()

import numpy as np  # noqa: E402

from run import best_of  # noqa: E402  (bench/run.py's helper)

LOOPS = {
    "cg": """
X = rand(rows=2000, cols=400, seed=1)
y = rand(rows=2000, cols=1, seed=2)
reg = 10 ^ (seq(-1, -24, -1) / 4)
A0 = t(X) %*% X
rhs = t(X) %*% y
B = matrix(0, rows=nrow(reg), cols=ncol(X))
t0 = time()
{LOOP} (i in 1:nrow(reg){OPTIONS}) {
  A = A0 + diag(matrix(as.scalar(reg[i, 1]), ncol(X), 1))
  b = matrix(0, ncol(X), 1)
  r = rhs
  p = r
  rr = sum(r ^ 2)
  for (k in 1:300) {
    q = A %*% p
    alpha = rr / sum(p * q)
    b = b + alpha * p
    r = r - alpha * q
    rr2 = sum(r ^ 2)
    p = r + (rr2 / rr) * p
    rr = rr2
  }
  B[i, ] = t(b)
}
print("seconds " + (time() - t0) / 1e9)
print("check " + sum(B))
""",
    "triangular": """
n = 400
A = rand(rows=2000, cols=n, seed=3)
R = matrix(0, rows=n, cols=1)
t0 = time()
{LOOP} (i in 1:n{OPTIONS}) {
  s = 0
  for (j in i:n) {
    s = s + sum(A[, i] * A[, j])
  }
  R[i, 1] = s
}
print("seconds " + (time() - t0) / 1e9)
print("check " + sum(R))
""",
    "grid": """
X = rand(rows=20000, cols=200, seed=1)
y = rand(rows=20000, cols=1, seed=2)
reg = 10 ^ (seq(-1, -12, -1))
B_all = matrix(0, rows=nrow(reg), cols=ncol(X))
t0 = time()
{LOOP} (i in 1:nrow(reg){OPTIONS}) {
  A = t(X) %*% X + diag(matrix(as.scalar(reg[i, 1]), ncol(X), 1))
  B = solve(A, t(X) %*% y)
  B_all[i, ] = t(B)
}
print("seconds " + (time() - t0) / 1e9)
print("check " + sum(B_all))
""",
}


def amls(amls_run, work, name, loop, options, threads, repeat):
    path = os.path.join(work, f"{name}.dml")
    with open(path, "w") as f:
        f.write(LOOPS[name].replace("{LOOP}", loop).replace("{OPTIONS}",
                                                             options))
    best, check = float("inf"), None
    for _ in range(repeat):
        run = subprocess.run([amls_run, path, f"--threads={threads}"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{path} failed:\n{run.stderr}")
        best = min(best, float(re.search(r"seconds ([\d.eE-]+)",
                                         run.stdout).group(1)))
        check = re.search(r"check (\S+)", run.stdout).group(1)
    return best, check


def numpy_cg(workers, repeat):
    rng = np.random.default_rng(1)
    X = rng.random((2000, 400))
    y = rng.random((2000, 1))
    A0, rhs = X.T @ X, X.T @ y
    reg = 10.0 ** (np.arange(-1, -25, -1) / 4)

    def solve(r):
        A = A0 + r * np.eye(400)
        b = np.zeros((400, 1))
        res = rhs.copy()
        p = res
        rr = float(np.sum(res ** 2))
        for _ in range(300):
            q = A @ p
            alpha = rr / float(np.sum(p * q))
            b = b + alpha * p
            res = res - alpha * q
            rr2 = float(np.sum(res ** 2))
            p = res + (rr2 / rr) * p
            rr = rr2
        return b

    return best_of(repeat, lambda: run_all(solve, reg, workers))


def numpy_grid(workers, repeat):
    rng = np.random.default_rng(1)
    X = rng.random((20000, 200))
    y = rng.random((20000, 1))
    reg = 10.0 ** np.arange(-1, -13, -1)

    def solve(r):
        return np.linalg.solve(X.T @ X + r * np.eye(200), X.T @ y)

    return best_of(repeat, lambda: run_all(solve, reg, workers))


def numpy_triangular(workers, repeat):
    rng = np.random.default_rng(3)
    A = rng.random((2000, 400))

    def row(i):
        return sum(float(np.sum(A[:, i] * A[:, j])) for j in range(i, 400))

    return best_of(repeat, lambda: run_all(row, range(400), workers))


def run_all(fn, items, workers):
    if workers == 1:
        return [fn(x) for x in items]
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    r = options.repeat
    print(f"best of {r}, seconds of the loop alone; speedup = the better "
          "sequential time / the parfor's")
    print(f"{'loop':12} {'variant':24} {'seconds':>8} {'speedup':>8}")
    with tempfile.TemporaryDirectory() as work:
        for name in ("cg", "triangular", "grid"):
            seq1, c1 = amls(options.amls_run, work, name, "for", "", 1, r)
            seq2, c2 = amls(options.amls_run, work, name, "for", "", 2, r)
            sequential = min(seq1, seq2)
            rows = [("for, --threads 1", seq1), ("for, --threads 2", seq2)]
            partitioners = (["NAIVE", "STATIC", "FACTORING"]
                            if name == "triangular" else ["FACTORING"])
            checks = {c1, c2}
            for tp in partitioners:
                t, c = amls(options.amls_run, work, name, "parfor",
                            f", par=2, taskpartitioner={tp}, opt=NONE", 2, r)
                rows.append((f"parfor 2 workers {tp.lower()}", t))
                checks.add(c)
            numpy = {"cg": numpy_cg, "triangular": numpy_triangular,
                     "grid": numpy_grid}[name]
            rows.append(("NumPy loop", numpy(1, r)))
            rows.append(("NumPy 2 threads", numpy(2, r)))
            for variant, seconds in rows:
                print(f"{name:12} {variant:24} {seconds:8.3f} "
                      f"{sequential / seconds:8.2f}", flush=True)
            if len({round(float(c), 6) for c in checks}) != 1:
                sys.exit(f"{name}: results differ between runs: {checks}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
