#!/usr/bin/env python3
"""make demo: linear regression by conjugate gradient (examples/linreg-cg.dml,
SystemDS's LinearRegCG) on generated data, run by amls-run and checked
against NumPy on the same data.

    demo.py --amls-run build/bin/amls-run [--dir build/demo]

It prints what amls-run printed, then the coefficients' largest difference
from NumPy's run of the same algorithm and from numpy.linalg.lstsq, the CG
iterations, AMLS's time against NumPy's, and the Python equivalent of the
run. Exits non-zero if the coefficients differ.
"""

import argparse
import os
import re
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "reference"))
import importlib  # noqa: E402

linreg = importlib.import_module("linreg-cg")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--dir", default="build/demo")
    options = parser.parse_args()
    os.makedirs(options.dir, exist_ok=True)

    rng = np.random.default_rng(2026)
    n, m = 20000, 100
    Q, _ = np.linalg.qr(rng.standard_normal((m, m)))
    X = rng.standard_normal((n, m)) @ (Q @ np.diag(np.geomspace(1, 10, m)) @ Q.T)
    beta = rng.uniform(-2.0, 2.0, size=(m, 1))
    y = X @ beta + 0.1 * rng.standard_normal((n, 1))
    paths = {name: os.path.join(options.dir, name) for name in
             ("X.csv", "y.csv", "B.csv")}
    np.savetxt(paths["X.csv"], X, delimiter=",", fmt="%.17g")
    np.savetxt(paths["y.csv"], y, delimiter=",", fmt="%.17g")
    arguments = dict(X=paths["X.csv"], y=paths["y.csv"], B=paths["B.csv"],
                     icpt=0, reg=1e-6, tol=1e-9, maxi=0)

    command = [options.amls_run, os.path.join(HERE, "linreg-cg.dml"),
               "--timing"]
    for name, value in arguments.items():
        command += ["--arg", f"{name}={value}"]
    print("== " + " ".join(command))
    run = subprocess.run(command, capture_output=True, text=True)
    lines = run.stdout.splitlines()
    for line in lines[:6] + (["..."] if len(lines) > 9 else []) + lines[-3:]:
        print("   " + line)
    if run.returncode != 0:
        sys.exit(run.stderr)
    iterations = len(re.findall(r"^Iteration \d+:", run.stdout, re.M))
    # --timing: "amls-run timing (ms): parse 1.0, ..., execute 12.3".
    timing = dict(re.findall(r"(parse|optimize|compile|execute) ([\d.]+)",
                             run.stderr))
    amls_ms = float(timing.get("execute", "nan"))

    B = np.loadtxt(paths["B.csv"], delimiter=",", ndmin=2)
    start = time.perf_counter()
    np.loadtxt(paths["X.csv"], delimiter=",")
    numpy_read_ms = 1e3 * (time.perf_counter() - start)
    start = time.perf_counter()
    expected = linreg.linreg_cg(X, y, icpt=0, reg=1e-6, tol=1e-9, maxi=0)[0]
    numpy_ms = 1e3 * (time.perf_counter() - start)
    lstsq = np.linalg.lstsq(X, y, rcond=None)[0]
    difference = np.abs(B - expected).max()

    print(f"== Checked against NumPy ({n} x {m}, {iterations} CG iterations):")
    print(f"   largest difference from NumPy's run of the same CG: "
          f"{difference:.1e}")
    print(f"   largest difference from numpy.linalg.lstsq: "
          f"{np.abs(B - lstsq).max():.1e}")
    print(f"   AMLS {amls_ms:.1f} ms for the run, reading the CSV files "
          f"included (compile {float(timing.get('compile', 'nan')):.0f} ms);"
          f" NumPy {numpy_ms:.1f} ms for the CG alone, "
          f"{numpy_read_ms:.0f} ms for loadtxt of X")
    print("== The same from Python (PYTHONPATH=build/python /usr/bin/python3):")
    print(f"   import amls; amls.run_dml(open('examples/linreg-cg.dml')"
          f".read(), X='{paths['X.csv']}', y='{paths['y.csv']}', "
          f"B='{paths['B.csv']}', tol='1e-9')")
    if not difference < 1e-6 * max(1.0, np.abs(expected).max()):
        sys.exit("the coefficients differ from NumPy's")


if __name__ == "__main__":
    main()
