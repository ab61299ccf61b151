#!/usr/bin/env python3
"""What Kahan-compensated sums cost (`make bench-sums`).

AMLS sums as SystemDS does, with Kahan's compensation
(--amls-compensate-sums, the runtime's CSR kernels). This runs the
bandwidth-bound reductions of `make bench` (and a few more: mean, column
sums, CSR sums) with `--sums=kahan` and `--sums=plain` on the same inputs
and machine, best of several executions each, and prints both times, their
ratio, and each mode's distance from the correctly rounded result
(math.fsum) in units in the last place. Not a test: the issue's target is
that compensation stays within 10% of the plain times.

Usage: compensated_sums.py --amls-run build/bin/amls-run [--repeat 5]
                           [--threads N] [--n 2000] [--quick]
"""

import argparse
import math
import os
import tempfile

import numpy as np

import run as bench  # the shared helpers of bench/run.py (OpenBLAS core set)

HERE = os.path.dirname(os.path.abspath(__file__))


def ulps(result, exact):
    exact = np.atleast_2d(exact)
    return float(np.max(np.abs(result - exact) / np.spacing(np.abs(exact))))


def fsum_rows(m):
    return np.array([[math.fsum(r)] for r in m])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--n", type=int, default=2000,
                        help="matrices are n x n, vectors n*n long")
    options = parser.parse_args()
    n = options.n // (4 if options.quick else 1)
    vec = n * n
    rng = np.random.default_rng(1)
    X, Y, Z = (rng.random((n, n)) for _ in range(3))
    Xw, Xd = rng.standard_normal((vec, 1)), rng.standard_normal((vec, 1))
    Yl = np.sign(rng.standard_normal((vec, 1)))
    S = (rng.random((n, n)) < 0.05) * rng.random((n, n))

    def l2svm_step():
        out = 1 - Yl * (Xw + 0.3 * Xd)
        sv = out > 0
        out = out * sv
        return np.array([[math.fsum((out * Yl * Xd).ravel()) /
                          math.fsum((Xd * sv * Xd).ravel())]])

    cases = [
        (f"sum(X*Y*Z) {n}x{n}", "sum-xyz.mlir", {"X": X, "Y": Y, "Z": Z},
         {}, [], lambda: math.fsum((X * Y * Z).ravel())),
        (f"sum(X^2) {n}x{n}", "sum-sq.mlir", {"X": X}, {}, [],
         lambda: math.fsum((X ** 2).ravel())),
        (f"rowSums(X*Y) {n}x{n}", "rowsums-xy.mlir", {"X": X, "Y": Y}, {},
         [], lambda: fsum_rows(X * Y)),
        (f"L2SVM line-search step, {vec} rows", "l2svm-step.mlir",
         {"Xw": Xw, "Xd": Xd, "Y": Yl}, {"step": 0.3}, [], l2svm_step),
        (f"sum(X^2) {n}x{n} CSR, 5% non-zeros", "sum-sq.mlir", {"X": S},
         {}, ["--formats=csr"], lambda: math.fsum((S ** 2).ravel())),
    ]
    print(f"{'case':44} {'kahan ms':>9} {'plain ms':>9} {'ratio':>6} "
          f"{'kahan ulps':>10} {'plain ulps':>10}")
    with tempfile.TemporaryDirectory(prefix="amls-sums-") as workdir:
        for name, program, inputs, args, flags, exact_fn in cases:
            bindings = bench.bind_inputs(inputs, args, workdir)
            exact = exact_fn()
            times, errors = {}, {}
            for mode in ("kahan", "plain"):
                seconds, _, result = bench.run_amls(
                    options.amls_run, program, bindings,
                    flags + [f"--sums={mode}"], options.repeat,
                    options.threads, workdir)
                times[mode], errors[mode] = seconds, ulps(result, exact)
            print(f"{name:44} {times['kahan'] * 1e3:9.2f} "
                  f"{times['plain'] * 1e3:9.2f} "
                  f"{times['kahan'] / times['plain']:6.2f} "
                  f"{errors['kahan']:10.1f} {errors['plain']:10.1f}")


if __name__ == "__main__":
    main()
