#!/usr/bin/env python3
"""The DML library's l2svm, multiLogReg and kmeans against the examples'
hand-written DML and the NumPy references, on the examples' data.

For each algorithm the same generated data (examples/reference/NAME.py,
--size small|large) goes to
  - examples/NAME.dml (the hand-written function),
  - a script calling the library function with the same parameters,
  - the NumPy reference of the same iterations (examples/reference/ for
    l2svm and multiLogReg; for kmeans the library's runs in NumPy,
    test/Integration/Inputs/library_ml.py, one run on all records),
and every result is checked against NumPy's. AMLS times are amls-run's
execute time (best of --repeat executions of the compiled program) minus
the execute time of a script that only reads the same inputs, so the CSV
read is left out on both sides; NumPy times are the algorithm alone (best
of --repeat).

Usage: library.py --amls-run build/bin/amls-run [--size large]
                  [--repeat 3] [--threads 2] [--only l2svm,...]
                  [--amls-flags="--sums=plain ..."]
"""

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import openblas_core  # noqa: E402

openblas_core.select()

import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "reference"))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference(name):
    return load(os.path.join(ROOT, "examples", "reference", name + ".py"),
                name + "_ref")


# Library calls with the examples' parameters ($ arguments as check.py
# passes them); each writes its model to $out.
DRIVERS = {
    "l2svm": """
w = l2svm(X=read($X), Y=read($Y), intercept=$icpt, epsilon=$tol, reg=$reg,
  maxIterations=$maxi, maxii=$maxii, verbose=FALSE)
write(w, $out, format="csv")
""",
    "mlogreg": """
B = multiLogReg(X=read($X), Y=read($Y), icpt=$icpt, tol=$tol, reg=$reg,
  maxi=$maxi, maxii=$maxii, verbose=FALSE)
write(B, $out, format="csv")
""",
    "kmeans": """
X = read($X)
[C, Y] = kmeans(X=X, k=$k, runs=1, max_iter=$maxi, eps=$eps,
  avg_sample_size_per_centroid=nrow(X), seed=$seed)
write(C, $out, format="csv")
""",
}
READ_ONLY = {
    "l2svm": 'print(sum(read($X)) + sum(read($Y)))',
    "mlogreg": 'print(sum(read($X)) + sum(read($Y)))',
    "kmeans": 'print(sum(read($X)))',
}


def fmt(value):
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return repr(value) if isinstance(value, float) else str(value)


# Extra amls-run options for every run (--amls-flags, e.g. "--sums=plain").
AMLS_FLAGS = []


def amls(amls_run, script, args, repeat, threads):
    command = [amls_run, script, "--timing", f"--repeat={repeat}",
               f"--threads={threads}"] + AMLS_FLAGS
    for key, value in args.items():
        command += ["--arg", f"{key}={fmt(value)}"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{run.stderr}")
    timing = re.search(r"compile ([\d.]+), execute ([\d.]+)", run.stderr)
    return float(timing.group(2)) / 1e3


def best_of(repeat, fn):
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def numpy_run(name, args):
    read = lambda key: np.loadtxt(args[key], delimiter=",", ndmin=2)
    if name == "l2svm":
        X, Y = read("X"), read("Y")
        ref = reference("l2svm")
        return lambda: ref.l2svm(X, Y, intercept=True, epsilon=args["tol"],
                                 reg=args["reg"],
                                 maxIterations=args["maxi"],
                                 maxii=args["maxii"])[0]
    if name == "mlogreg":
        X, Y = read("X"), read("Y")
        ref = reference("mlogreg")
        return lambda: ref.multilogreg(X, Y, icpt=args["icpt"],
                                       tol=args["tol"], reg=args["reg"],
                                       maxi=args["maxi"],
                                       maxii=args["maxii"])[0]
    X = read("X")
    inputs = os.path.join(ROOT, "test", "Integration", "Inputs")
    sys.path.insert(0, inputs)  # library_ml imports results.py beside it
    ml = load(os.path.join(inputs, "library_ml.py"), "library_ml")
    return lambda: ml.kmeans(X, args["k"], 1, args["maxi"], args["eps"],
                             len(X), args["seed"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--size", default="large")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", default="l2svm,mlogreg,kmeans")
    parser.add_argument("--amls-flags", default="",
                        help="extra amls-run options, e.g. --sums=plain")
    options = parser.parse_args()
    AMLS_FLAGS.extend(options.amls_flags.split())
    print(f"size {options.size}, {options.threads} threads, best of "
          f"{options.repeat}; seconds without reading the inputs")
    print(f"{'algorithm':10} {'example':>9} {'library':>9} {'NumPy':>9} "
          f"{'NumPy/library':>14}")
    with tempfile.TemporaryDirectory() as work:
        for name in options.only.split(","):
            args = reference(name).generate(work, options.size)
            args["verbose"] = False
            example = amls(options.amls_run,
                           os.path.join(ROOT, "examples", name + ".dml"),
                           args, options.repeat, options.threads)
            out = os.path.join(work, name + "-library.csv")
            driver = os.path.join(work, name + "-library.dml")
            reader = os.path.join(work, name + "-read.dml")
            with open(driver, "w") as f:
                f.write(DRIVERS[name])
            with open(reader, "w") as f:
                f.write(READ_ONLY[name])
            inputs = {k: v for k, v in args.items() if k in ("X", "Y")}
            library = amls(options.amls_run, driver, dict(args, out=out),
                           options.repeat, options.threads)
            read = amls(options.amls_run, reader, inputs, options.repeat,
                        options.threads)
            seconds, expected = best_of(options.repeat,
                                        numpy_run(name, args))
            actual = np.loadtxt(out, delimiter=",", ndmin=2)
            if not np.allclose(actual, expected, rtol=1e-6, atol=1e-8):
                sys.exit(f"{name}: the library's result differs from "
                         f"NumPy's:\n{actual.ravel()[:6]}\n"
                         f"{expected.ravel()[:6]}")
            example, library = example - read, library - read
            print(f"{name:10} {example:9.3f} {library:9.3f} {seconds:9.3f} "
                  f"{seconds / library:14.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
