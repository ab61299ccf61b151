#!/usr/bin/env python3
"""AMLS against NumPy on this machine, in one run (`make bench`).

For every benchmark the same inputs go to AMLS (amls-run, best of several
executions of the compiled program; compile time reported separately) and to
NumPy (best of the same number of runs). OpenBLAS gets the right kernel for
the CPU in both (OPENBLAS_CORETYPE, set before NumPy loads). The table gives
times, the AMLS/NumPy speed ratio (>1: AMLS is faster) and the achieved
bandwidth or FLOP rate next to the machine's measured peaks.

Usage: run.py --amls-run build/bin/amls-run [--repeat 5] [--quick]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time


def core_type():
    flags = open("/proc/cpuinfo").read()
    if " avx512f" in flags:
        return "SkylakeX"
    if " avx2" in flags:
        return "Haswell"
    return None


# OpenBLAS reads its core type when it is loaded: set it before NumPy.
if "OPENBLAS_CORETYPE" not in os.environ and core_type():
    os.environ["OPENBLAS_CORETYPE"] = core_type()
    os.execv(sys.executable, [sys.executable] + sys.argv)

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def write_binary(path, matrix):
    matrix = np.ascontiguousarray(np.atleast_2d(matrix), dtype=np.float64)
    with open(path, "wb") as out:
        out.write(b"AMLSMAT1")
        np.array(matrix.shape, dtype=np.int64).tofile(out)
        matrix.tofile(out)


def best_of(repeat, fn):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def run_amls(amls_run, program, inputs, args, repeat, threads, workdir):
    command = [amls_run, os.path.join(HERE, "programs", program),
               "--timing", f"--repeat={repeat}", f"--threads={threads}",
               "--output", f"0={os.path.join(workdir, 'result.bin')}"]
    for name, matrix in inputs.items():
        path = os.path.join(workdir, name + ".bin")
        write_binary(path, matrix)
        command += ["--input", f"{name}={path}"]
    for name, value in args.items():
        command += ["--arg", f"{name}={value}"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"amls-run failed on {program}:\n{run.stderr}")
    timing = re.search(r"compile ([\d.]+), execute ([\d.]+)", run.stderr)
    return float(timing.group(2)) / 1e3, float(timing.group(1)) / 1e3


def measure_machine(repeat):
    n = 40_000_000
    a = np.ones(n)
    read_gbs = 8 * n / best_of(repeat, lambda: a.sum()) / 1e9
    m = 2000
    x, y = np.random.rand(m, m), np.random.rand(m, m)
    gemm_gflops = 2 * m**3 / best_of(repeat, lambda: x @ y) / 1e9
    return read_gbs, gemm_gflops


def numpy_cg(X, y, iterations):
    Xt = X.T
    w = np.zeros((X.shape[1], 1))
    r = -(Xt @ y)
    p = -r
    nr = float((r * r).sum())
    for _ in range(iterations):
        q = Xt @ (X @ p)
        alpha = nr / float((p * q).sum())
        w += alpha * p
        r += alpha * q
        nr2 = float((r * r).sum())
        p = -r + (nr2 / nr) * p
        nr = nr2
    return w


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--quick", action="store_true",
                        help="smaller inputs, for a smoke test")
    options = parser.parse_args()
    rng = np.random.default_rng(1)
    scale = 4 if options.quick else 1
    n = 2000 // scale
    rows = 100_000 // scale
    rows2 = 10_000 // scale
    cg_iterations = 20

    read_gbs, gemm_gflops = measure_machine(options.repeat)
    print(f"machine: {os.cpu_count()} cores, NumPy read bandwidth "
          f"{read_gbs:.1f} GB/s (1 thread), DGEMM {gemm_gflops:.1f} GFLOP/s "
          f"(OpenBLAS, {os.environ.get('OPENBLAS_CORETYPE', 'default')}); "
          f"AMLS uses {options.threads} thread(s)")

    results = []
    with tempfile.TemporaryDirectory(prefix="amls-bench-") as workdir:
        def bench(name, program, inputs, args, numpy_fn, work, unit):
            amls_s, compile_s = run_amls(options.amls_run, program, inputs,
                                         args, options.repeat, options.threads,
                                         workdir)
            numpy_s = best_of(options.repeat, numpy_fn)
            results.append((name, amls_s, compile_s, numpy_s,
                            work / amls_s / 1e9, unit))

        X, Y, Z = (rng.random((n, n)) for _ in range(3))
        bench(f"sum(X*Y*Z) {n}x{n}", "sum-xyz.mlir", {"X": X, "Y": Y, "Z": Z},
              {}, lambda: np.sum(X * Y * Z), 3 * X.nbytes, "GB/s")
        bench(f"X%*%Y {n}x{n}", "matmul.mlir", {"X": X, "Y": Y}, {},
              lambda: X @ Y, 2 * n**3, "GFLOP/s")
        T = rng.random((rows, 100))
        v = rng.random((100, 1))
        bench(f"t(X)%*%(X%*%v) {rows}x100", "xtxv.mlir", {"X": T, "v": v}, {},
              lambda: T.T @ (T @ v), T.nbytes, "GB/s")
        for r, c in ((rows, 100), (rows2, 1000 // (2 if options.quick else 1))):
            A = rng.random((r, c))
            b = A @ rng.random((c, 1))
            # tolerance 0: exactly cg_iterations iterations, as NumPy.
            bench(f"linreg CG {r}x{c}, {cg_iterations} it.", "linreg-cg.mlir",
                  {"X": A, "y": b},
                  {"max_iter": cg_iterations, "lambda": 0, "tolerance": 0},
                  lambda: numpy_cg(A, b, cg_iterations),
                  cg_iterations * 2 * A.nbytes, "GB/s")

    print()
    print(f"| benchmark | AMLS (s) | AMLS compile (s) | NumPy (s) | "
          f"speedup vs NumPy | AMLS rate |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, amls_s, compile_s, numpy_s, rate, unit in results:
        print(f"| {name} | {amls_s:.4f} | {compile_s:.3f} | {numpy_s:.4f} | "
              f"{numpy_s / amls_s:.2f}x | {rate:.1f} {unit} |")


if __name__ == "__main__":
    main()
