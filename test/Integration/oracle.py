#!/usr/bin/env python3
"""Runs an AMLS program with amls-run and checks its results against NumPy.

  oracle.py PROGRAM --amls-run PATH [--input NAME=EXPR ...] [--arg NAME=VALUE]
            --expect EXPR [--expect EXPR ...] [--rtol R] [--atol A]
            [--define FILE] [-- extra amls-run options]

Each --input is a NumPy expression evaluated with `rng` (a seeded
numpy.random.Generator) and `np` in scope, e.g. "rng.random((50, 20))"; it
is written to CSV (or Matrix Market for NAME ending in .mtx) and bound with
--input. Each --expect is evaluated with the inputs and scalar args in
scope and compared with the program's result of the same position. Prints
one line per result and exits non-zero on any mismatch.

Differential testing: the program also runs with --O0, with each rewrite
family of the optimizer alone, without fusion, with the two fusion
heuristics, and with formats forced dense and forced CSR (--formats); every run must match NumPy and the optimized run
(--no-differential skips these).
"""

import argparse
import os
import shlex
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Oracles"))
from comparison import arrays_match, first_mismatch  # noqa: E402


MASK = (1 << 64) - 1


def _mix64(z):
    """SplitMix64's finalizer on uint64 arrays (wrapping arithmetic)."""
    with np.errstate(over="ignore"):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def _uniform(seed, cells, stream):
    key = _mix64(np.uint64((seed ^ (stream * 0xD1B54A32D192ED03)) & MASK))
    with np.errstate(over="ignore"):
        bits = _mix64(key + cells)
    return (bits >> np.uint64(11)).astype(np.float64) * 2.0**-53


def amls_rand(seed, rows, cols, low, high, sparsity, pdf="uniform",
              first_row=0, row_count=None):
    """The runtime's counter-based rand(), independently in NumPy: rows
    [first_row, first_row + row_count) of the rows x cols matrix."""
    row_count = rows - first_row if row_count is None else row_count
    cells = np.arange(first_row * cols, (first_row + row_count) * cols,
                      dtype=np.uint64)
    rows = row_count
    seed &= MASK
    values = (low + (high - low) * _uniform(seed, cells, 2)
              if pdf == "uniform" else
              np.sqrt(-2.0 * np.log(1.0 - _uniform(seed, cells, 2))) *
              np.cos(2.0 * np.pi * _uniform(seed, cells, 3)))
    if sparsity < 1.0:
        values = np.where(_uniform(seed, cells, 1) < sparsity, values, 0.0)
    return values.reshape(rows, cols)


def write_matrix(path, value):
    value = np.atleast_2d(np.asarray(value, dtype=np.float64))
    np.savetxt(path, value, delimiter=",", fmt="%.17g")


def read_matrix(path):
    return np.atleast_2d(np.loadtxt(path, delimiter=",", ndmin=2))


# The optimized run first (the reference of the differential runs), then
# without optimization, with each rewrite family alone, and with the
# fusion heuristics instead of cost-based fusion, without fusion, and with
# every matrix dense or CSR wherever a kernel allows.
CONFIGURATIONS = [
    ("optimized", []),
    ("O0", ["--O0"]),
    ("simplify", ["--rewrites=simplify"]),
    ("simplify-dynamic", ["--rewrites=simplify-dynamic"]),
    ("matmul-chain", ["--rewrites=matmul-chain"]),
    ("ipa", ["--rewrites=ipa"]),
    ("vectorize-loops", ["--rewrites=vectorize-loops"]),
    ("unfused", ["--fuse=none"]),
    ("fuse-all", ["--fuse=fuse-all"]),
    ("fuse-no-redundancy", ["--fuse=fuse-no-redundancy"]),
    ("dense", ["--formats=dense"]),
    ("csr", ["--formats=csr"]),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("program")
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--arg", action="append", default=[])
    parser.add_argument("--expect", action="append", default=[])
    parser.add_argument("--define", action="append", default=[],
                        help="a Python file whose definitions --input and "
                             "--expect may use")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rtol", type=float, default=1e-9)
    parser.add_argument("--atol", type=float, default=1e-9)
    parser.add_argument("--no-differential", action="store_true",
                        help="run the optimized program only")
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        split = argv.index("--")
        argv, extra = argv[:split], argv[split + 1:]
    options = parser.parse_args(argv)

    rng = np.random.default_rng(options.seed)
    scope = {"np": np, "rng": rng, "amls_rand": amls_rand}
    for path in options.define:
        exec(compile(open(path).read(), path, "exec"), scope)
    with tempfile.TemporaryDirectory(prefix="amls-oracle-") as workdir:
        command = shlex.split(options.amls_run) + [options.program]
        for binding in options.input:
            name, expression = binding.split("=", 1)
            value = np.atleast_2d(eval(expression, scope))
            scope[name] = value
            path = os.path.join(workdir, name + ".csv")
            write_matrix(path, value)
            command += ["--input", f"{name}={path}"]
        for binding in options.arg:
            name, text = binding.split("=", 1)
            scope[name] = float(text)
            command += ["--arg", binding]
        failures = 0
        reference = None
        for label, flags in CONFIGURATIONS[:1 if options.no_differential
                                           else None]:
            outputs = []
            run_command = list(command)
            for i in range(len(options.expect)):
                path = os.path.join(workdir, f"{label}-result{i}.csv")
                outputs.append(path)
                run_command += ["--output", f"{i}={path}"]
            run_command += extra + flags
            run = subprocess.run(run_command, capture_output=True, text=True)
            if reference is None:
                sys.stdout.write(run.stdout)
                if run.returncode == 0:
                    sys.stderr.write(run.stderr)
            if run.returncode != 0:
                sys.stderr.write(run.stderr)
                print(f"FAIL: amls-run ({label}) exited with "
                      f"{run.returncode}")
                return 1
            results = [read_matrix(path) for path in outputs]
            failures += check(options, scope, results, label,
                              verbose=reference is None)
            if reference is None:
                reference = results
                continue
            # Differential: the same program with other rewrites.
            for i, (ours, theirs) in enumerate(zip(results, reference)):
                if not arrays_match(ours, theirs, options.rtol,
                                    options.atol):
                    print(f"FAIL: result {i}: {label} differs from the "
                          f"optimized run")
                    failures += 1
            print(f"PASS: {label}: every result matches NumPy and the "
                  f"optimized run")
        return 1 if failures else 0


def check(options, scope, results, label, verbose):
    """Compares results with the --expect expressions; counts failures."""
    failures = 0
    for i, (expression, actual) in enumerate(zip(options.expect, results)):
        expected = np.atleast_2d(np.asarray(eval(expression, scope),
                                            dtype=np.float64))
        if actual.shape != expected.shape:
            print(f"FAIL: result {i} ({label}): shape {actual.shape}, NumPy "
                  f"({expression}) gives {expected.shape}")
            failures += 1
            continue
        mismatch = first_mismatch(actual, expected, options.rtol,
                                  options.atol)
        if mismatch:
            print(f"FAIL: result {i} ({label}): differs from NumPy "
                  f"({expression}): {mismatch}")
            failures += 1
            continue
        if verbose:
            print(f"PASS: result {i} matches {expression} "
                  f"{'x'.join(map(str, expected.shape))}")
    return failures

if __name__ == "__main__":
    sys.exit(main())
