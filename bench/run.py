#!/usr/bin/env python3
"""AMLS against NumPy on this machine, in one run (`make bench`).

For every benchmark the same inputs go to AMLS (amls-run, best of several
executions of the compiled program; compile time reported separately), to
AMLS without its optimizer (amls-run --O0), to AMLS without operator
fusion (--fuse=none) and to NumPy (best of the same
number of runs). OpenBLAS gets the right kernel for the CPU in both
(OPENBLAS_CORETYPE, set before NumPy loads). The table gives times, the
AMLS/NumPy speed ratio (>1: AMLS is faster), the optimizer's speedup (--O0
time over optimized time) and the achieved bandwidth or FLOP rate of the
optimized program next to the machine's measured peaks.

Besides the kernels (an element-wise chain, a product, the CG loop) there is
a case for each of the optimizer's rewrites, written in the unoptimized form
(t(X) %*% X as a transpose and a product, and so on). Both AMLS results,
optimized and --O0, are checked against NumPy's: a mismatch ends the run.

After the table: the time of amls-opt --amls-optimize on a generated
1,000-op program (gen_program.py), with the amls op counts before and after.

Usage: run.py --amls-run build/bin/amls-run [--amls-opt build/bin/amls-opt]
              [--repeat 5] [--quick]
"""

import argparse
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

import gen_program  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Largest difference between an AMLS result and NumPy's, relative to the
# largest magnitude in NumPy's result.
RTOL = 1e-8


def write_binary(path, matrix):
    matrix = np.ascontiguousarray(np.atleast_2d(matrix), dtype=np.float64)
    with open(path, "wb") as out:
        out.write(b"AMLSMAT1")
        np.array(matrix.shape, dtype=np.int64).tofile(out)
        matrix.tofile(out)


def read_binary(path):
    """A matrix in the AMLS binary format (what write_binary writes; amls-run
    writes a scalar result as a 1x1 matrix)."""
    with open(path, "rb") as data:
        if data.read(8) != b"AMLSMAT1":
            sys.exit(f"{path}: not an AMLS binary matrix")
        rows, cols = np.fromfile(data, dtype=np.int64, count=2)
        cells = np.fromfile(data, dtype=np.float64)
    if cells.size != rows * cols:
        sys.exit(f"{path}: expected {rows}x{cols} cells, found {cells.size}")
    return cells.reshape(rows, cols)


def check(name, label, result, expected, rtol=RTOL):
    """Ends the run when an AMLS result differs from NumPy's."""
    expected = np.atleast_2d(expected)
    if result.shape != expected.shape:
        sys.exit(f"FAIL: {name} ({label}): AMLS result is "
                 f"{result.shape[0]}x{result.shape[1]}, NumPy's "
                 f"{expected.shape[0]}x{expected.shape[1]}")
    scale = np.max(np.abs(expected)) if expected.size else 0.0
    error = np.max(np.abs(result - expected)) if expected.size else 0.0
    if not error <= rtol * scale:
        sys.exit(f"FAIL: {name} ({label}): AMLS differs from NumPy by "
                 f"{error:.3g}, more than {rtol:g} times NumPy's largest "
                 f"magnitude {scale:.3g}")


def best_of(repeat, fn):
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def bind_inputs(inputs, args, workdir):
    """Writes the input matrices; the amls-run options that bind them."""
    options = []
    for name, matrix in inputs.items():
        path = os.path.join(workdir, name + ".bin")
        write_binary(path, matrix)
        options += ["--input", f"{name}={path}"]
    for name, value in args.items():
        options += ["--arg", f"{name}={value}"]
    return options


def run_amls(amls_run, program, bindings, flags, repeat, threads, workdir):
    """Execution and compile time (s) and result 0 of one amls-run."""
    result = os.path.join(workdir, "result.bin")
    if os.path.exists(result):
        os.remove(result)
    command = [amls_run, os.path.join(HERE, "programs", program),
               "--timing", f"--repeat={repeat}", f"--threads={threads}",
               "--output", f"0={result}"] + bindings + flags
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"amls-run {' '.join(flags)} failed on {program}:\n"
                 f"{run.stderr}")
    timing = re.search(r"compile ([\d.]+), execute ([\d.]+)", run.stderr)
    return (float(timing.group(2)) / 1e3, float(timing.group(1)) / 1e3,
            read_binary(result))


def measure_optimizer(amls_opt, repeat, workdir, ops=1000):
    """amls-opt --amls-optimize on a generated straight-line program of
    `ops` amls ops: the best time (s), of parsing and printing alone, and
    the amls op counts before and after."""
    path = os.path.join(workdir, "generated.mlir")
    with open(path, "w") as out:
        out.write(gen_program.generate(ops))

    def amls_opt_run(*flags):
        run = subprocess.run([amls_opt, path, *flags], capture_output=True,
                             text=True)
        if run.returncode != 0:
            sys.exit(f"amls-opt {' '.join(flags)} failed on the generated "
                     f"program {path}:\n{run.stderr}")
        return run.stdout

    before = gen_program.count_amls_ops(amls_opt_run())
    after = gen_program.count_amls_ops(amls_opt_run("--amls-optimize"))
    optimize_s = best_of(repeat, lambda: amls_opt_run(
        "--amls-optimize", "-o", os.devnull))
    parse_s = best_of(repeat, lambda: amls_opt_run("-o", os.devnull))
    return optimize_s, parse_s, before, after


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
    parser.add_argument("--amls-opt",
                        help="default: amls-opt next to amls-run")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--quick", action="store_true",
                        help="smaller inputs, for a smoke test")
    options = parser.parse_args()
    amls_opt = options.amls_opt or os.path.join(
        os.path.dirname(options.amls_run), "amls-opt")
    rng = np.random.default_rng(1)
    scale = 4 if options.quick else 1
    n = 2000 // scale
    rows = 100_000 // scale
    rows2 = 10_000 // scale
    gram_rows = 20_000 // scale
    cg_iterations = 20

    read_gbs, gemm_gflops = measure_machine(options.repeat)
    print(f"machine: {os.cpu_count()} cores, NumPy read bandwidth "
          f"{read_gbs:.1f} GB/s (1 thread), DGEMM {gemm_gflops:.1f} GFLOP/s "
          f"(OpenBLAS, {os.environ.get('OPENBLAS_CORETYPE', 'default')}); "
          f"AMLS uses {options.threads} thread(s)")

    results = []
    notes = []
    with tempfile.TemporaryDirectory(prefix="amls-bench-") as workdir:
        def bench(name, program, inputs, args, numpy_fn, work, unit,
                  rtol=RTOL):
            """One row: `work` (bytes or FLOPs of the optimized program)
            over the optimized time gives the rate in `unit`."""
            expected = numpy_fn()
            bindings = bind_inputs(inputs, args, workdir)
            amls_s, compile_s, result = run_amls(
                options.amls_run, program, bindings, [], options.repeat,
                options.threads, workdir)
            check(name, "optimized", result, expected, rtol)
            o0_s, _, result = run_amls(
                options.amls_run, program, bindings, ["--O0"],
                options.repeat, options.threads, workdir)
            check(name, "--O0", result, expected, rtol)
            unfused_s, _, result = run_amls(
                options.amls_run, program, bindings, ["--fuse=none"],
                options.repeat, options.threads, workdir)
            check(name, "--fuse=none", result, expected, rtol)
            numpy_s = best_of(options.repeat, numpy_fn)
            results.append((name, amls_s, o0_s, unfused_s, compile_s,
                            numpy_s, work / amls_s / 1e9, unit))

        X, Y, Z = (rng.random((n, n)) for _ in range(3))
        bench(f"sum(X*Y*Z) {n}x{n}", "sum-xyz.mlir", {"X": X, "Y": Y, "Z": Z},
              {}, lambda: np.sum(X * Y * Z), 3 * X.nbytes, "GB/s")
        bench(f"sum(X^2) {n}x{n}", "sum-sq.mlir", {"X": X}, {},
              lambda: np.sum(X ** 2), X.nbytes, "GB/s")
        bench(f"rowSums(X*Y) {n}x{n}", "rowsums-xy.mlir", {"X": X, "Y": Y},
              {}, lambda: np.sum(X * Y, axis=1, keepdims=True),
              2 * X.nbytes, "GB/s")
        vec = 4_000_000 // scale
        Xw, Xd = rng.standard_normal((vec, 1)), rng.standard_normal((vec, 1))
        Yl = np.sign(rng.standard_normal((vec, 1)))

        def numpy_l2svm_step():
            out = 1 - Yl * (Xw + 0.3 * Xd)
            sv = out > 0
            out = out * sv
            return np.sum(out * Yl * Xd) / np.sum(Xd * sv * Xd)
        bench(f"L2SVM line-search step, {vec} rows", "l2svm-step.mlir",
              {"Xw": Xw, "Xd": Xd, "Y": Yl}, {"step": 0.3}, numpy_l2svm_step,
              3 * Xw.nbytes, "GB/s")
        mrows = 2 * rows
        Xm = rng.random((mrows, 100))
        Pm = rng.random((mrows, 6))
        Vm = rng.standard_normal((100, 5))

        def numpy_mlogreg_step():
            Q = Pm[:, :5] * (Xm @ Vm)
            return Xm.T @ (Q - Pm[:, :5] * Q.sum(axis=1, keepdims=True))
        bench(f"MLogreg Hessian-vector product {mrows}x100, k=5",
              "mlogreg-step.mlir", {"X": Xm, "P": Pm, "V": Vm}, {},
              numpy_mlogreg_step, Xm.nbytes + Pm.nbytes, "GB/s")
        Xs = (rng.random((n, n)) < 0.01) * rng.random((n, n))
        Uo, Vo = rng.random((n, 20)), rng.random((n, 20))
        bench(f"sum(X*log(U%*%t(V)+1e-15)) {n}x{n}, 1% non-zeros, rank 20",
              "outer-log.mlir", {"X": Xs, "U": Uo, "V": Vo}, {},
              lambda: np.sum(Xs * np.log(Uo @ Vo.T + 1e-15)), Xs.nbytes,
              "GB/s")
        bench(f"X%*%Y {n}x{n}", "matmul.mlir", {"X": X, "Y": Y}, {},
              lambda: X @ Y, 2 * n**3, "GFLOP/s")
        # The optimizer's rewrites, each on a program written the long way.
        T = rng.random((rows, 100))
        v = rng.random((100, 1))
        bench(f"t(X)%*%(X%*%v) {rows}x100 (mmchain)", "xtxv.mlir",
              {"X": T, "v": v}, {}, lambda: T.T @ (T @ v), T.nbytes, "GB/s")
        G = rng.random((gram_rows, 200))
        bench(f"t(X)%*%X {gram_rows}x200 (tsmm)", "tsmm.mlir", {"X": G}, {},
              lambda: G.T @ G, gram_rows * 200 * 201, "GFLOP/s")
        w = rng.random((n, 1))
        bench(f"(A%*%B)%*%v {n}x{n} (chain order; NumPy as written)",
              "matmul-chain.mlir", {"A": X, "B": Y, "v": w}, {},
              lambda: (X @ Y) @ w, 2 * X.nbytes, "GB/s")
        reordered_s = best_of(options.repeat, lambda: X @ (Y @ w))
        notes.append(f"NumPy A @ (B @ v), the order the optimizer picks: "
                     f"{reordered_s:.4f} s")
        bench(f"sum(X%*%Y) {n}x{n}", "sum-matmul.mlir", {"X": X, "Y": Y}, {},
              lambda: np.sum(X @ Y), 2 * X.nbytes, "GB/s")
        bench(f"trace(X%*%Y) {n}x{n}", "trace-matmul.mlir", {"X": X, "Y": Y},
              {}, lambda: np.trace(X @ Y), 2 * X.nbytes, "GB/s")
        for r, c in ((rows, 100), (rows2, 1000 // (2 if options.quick else 1))):
            A = rng.random((r, c))
            b = A @ rng.random((c, 1))
            # tolerance 0: exactly cg_iterations iterations, as NumPy.
            bench(f"linreg CG {r}x{c}, {cg_iterations} it.", "linreg-cg.mlir",
                  {"X": A, "y": b},
                  {"max_iter": cg_iterations, "lambda": 0, "tolerance": 0},
                  lambda: numpy_cg(A, b, cg_iterations),
                  cg_iterations * 2 * A.nbytes, "GB/s")

        optimize_s, parse_s, before, after = measure_optimizer(
            amls_opt, options.repeat, workdir)

    print()
    print("| benchmark | AMLS (s) | AMLS unfused (s) | AMLS --O0 (s) | "
          "compile (s) | NumPy (s) | speedup vs NumPy | fusion speedup "
          "(unfused/fused) | optimizer speedup (O0/optimized) | AMLS rate |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (name, amls_s, o0_s, unfused_s, compile_s, numpy_s, rate,
         unit) in results:
        print(f"| {name} | {amls_s:.4f} | {unfused_s:.4f} | {o0_s:.4f} | "
              f"{compile_s:.3f} | {numpy_s:.4f} | {numpy_s / amls_s:.2f}x | "
              f"{unfused_s / amls_s:.2f}x | {o0_s / amls_s:.2f}x | "
              f"{rate:.1f} {unit} |")
    print()
    for note in notes:
        print(note)
    print(f"amls-opt --amls-optimize on a {before}-op program: "
          f"{optimize_s:.3f} s ({before} -> {after} amls ops; parsing and "
          f"printing alone {parse_s:.3f} s)")


if __name__ == "__main__":
    main()
