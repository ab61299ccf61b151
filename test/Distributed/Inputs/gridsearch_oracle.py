#!/usr/bin/env python3
"""Runs Inputs/gridsearch.dml through a launcher and compares its 12 ridge
regressions, by each of its two parfor loops, with NumPy's (1e-9
relative); prints what --distribute-explain said of the parfor loops.

    gridsearch_oracle.py --amls-run PATH --launcher 'mpiexec -np 3' --dir DIR
"""
import argparse
import os
import shlex
import subprocess
import sys

import numpy as np

parser = argparse.ArgumentParser()
parser.add_argument("--amls-run", required=True)
parser.add_argument("--launcher", default="")
parser.add_argument("--dir", required=True)
options = parser.parse_args()
os.makedirs(options.dir, exist_ok=True)
rng = np.random.default_rng(11)
X = rng.uniform(-1, 1, (301, 8))
y = X @ rng.standard_normal((8, 1)) + 0.01 * rng.standard_normal((301, 1))
for name, matrix in (("X.csv", X), ("y.csv", y)):
    np.savetxt(os.path.join(options.dir, name), matrix, delimiter=",",
               fmt="%.17g")
script = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "gridsearch.dml")
out = os.path.join(options.dir, "B.csv")
static = os.path.join(options.dir, "C.csv")
command = shlex.split(options.launcher) + [
    options.amls_run, script, "--arg", f"X={options.dir}/X.csv", "--arg",
    f"y={options.dir}/y.csv", "--arg", f"B={out}", "--arg", f"C={static}",
    "--threads", "2",
    "--distributed", "--distribute-min-cells=0", "--distribute-explain"]
run = subprocess.run(command, capture_output=True, text=True)
if run.returncode != 0:
    sys.exit(f"FAIL: {shlex.join(command)} exited with {run.returncode}:\n"
             f"{run.stdout}{run.stderr}")
sys.stdout.write("".join(line + "\n" for line in run.stderr.splitlines()
                         if "'amls.parfor'" in line))
reg = 10.0 ** (np.arange(-1, -13, -1) / 2)
want = np.column_stack([np.linalg.solve(X.T @ X + r * np.eye(8), X.T @ y)
                        for r in reg])
worst = 0.0
for path in (out, static):
    got = np.loadtxt(path, delimiter=",", ndmin=2)
    if got.shape != want.shape or np.isnan(got).any() or \
            not np.allclose(got, want, rtol=1e-9, atol=1e-12):
        sys.exit(f"FAIL: {path} differs from NumPy's: {got[:2]} against "
                 f"{want[:2]}")
    worst = max(worst, np.abs(got - want).max())
print(f"PASS 12 regressions twice, max |diff| {worst:.3g}")
