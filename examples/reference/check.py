#!/usr/bin/env python3
"""Runs an example script of examples/ with amls-run on generated data and
compares its outputs with the example's NumPy reference.

    check.py NAME --amls-run PATH [--size small|large] [--data DIR]
             [--show] [--launcher 'mpirun -np 4'] [-- EXTRA amls-run ARGUMENTS]

NAME is an example (examples/NAME.dml, reference examples/reference/NAME.py).
Each reference module provides:

    SCRIPT             the script's file name in examples/
    TOLERANCE          (rtol, atol) of the oracles' rule
                       (test/Oracles/comparison.py)
    generate(dir, size) writes the input files and returns the --arg pairs
    reference(args)    returns {output path: expected matrix}
    check_output(text, args)  optional: checks what the script printed

--data DIR keeps the generated data and the outputs in DIR (default: a
temporary directory that is removed afterwards); --show prints what the script
printed. --each-family runs the script once per rewrite family of the
optimizer alone (--rewrites=FAMILY, differential testing), each run checked
against the reference. --launcher starts amls-run through a launcher (an
MPI job: --launcher 'mpirun -np 3' -- --distributed); --baseline runs the
script once more in one process without the distributed flags, and the
outputs must match that run's to 1e-9. The exit status is 0 when every output matches.
"""

import argparse
import importlib.util
import os
import shlex
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "test", "Oracles"))
from comparison import first_mismatch  # noqa: E402

EXAMPLES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load_reference(name):
    path = os.path.join(EXAMPLES, "reference", name + ".py")
    if not os.path.exists(path):
        sys.exit(f"check.py: no reference for example '{name}' ({path})")
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def format_arg(value):
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def read_matrix(path):
    """Reads what amls-run wrote: CSV, or Matrix Market (coordinate/array)."""
    if path.endswith(".mtx"):
        import scipy.io
        data = scipy.io.mmread(path)
        return np.asarray(data.todense() if hasattr(data, "todense") else data)
    return np.loadtxt(path, delimiter=",", ndmin=2)


# The optimizer's rewrite families (amls-run --rewrites), one run each with
# --each-family.
FAMILIES = ["simplify", "simplify-dynamic", "matmul-chain", "ipa",
            "vectorize-loops"]


# The flags of a distributed run, left out of its --baseline run.
DISTRIBUTED_FLAGS = ("--distributed", "--distribute-min-cells",
                     "--distribute-explain")


def run_baseline(options, references, command):
    """Runs `command` (one process, not distributed) and returns what it
    wrote, by output path, or None after printing why it failed."""
    command = [c for c in command
               if not c.split("=")[0] in DISTRIBUTED_FLAGS]
    print("$ " + " ".join(shlex.quote(c) for c in command), flush=True)
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stdout.write(run.stdout + run.stderr)
        print(f"FAIL {options.name}: the baseline run exited with "
              f"{run.returncode}")
        return None
    return {path: read_matrix(path) for path in references}


def check_run(options, module, args, references, command, baseline=None):
    """Runs `command` and compares what it wrote with `references` (and
    with `baseline`, the outputs of a run it must match to 1e-9)."""
    for path in references:
        if os.path.exists(path):
            os.remove(path)  # written by an earlier run
    print("$ " + " ".join(shlex.quote(c) for c in command), flush=True)
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if options.show or run.returncode != 0:
        sys.stdout.write(run.stdout)
        sys.stdout.write(run.stderr)
    if run.returncode != 0:
        print(f"FAIL {options.name}: amls-run exited with {run.returncode}")
        return 1

    failures = 0
    if hasattr(module, "check_output"):
        problem = module.check_output(run.stdout, args)
        if problem:
            print(f"FAIL {options.name}: printed output: {problem}")
            failures += 1
    rtol, atol = module.TOLERANCE
    for path, expected in references.items():
        expected = np.atleast_2d(np.asarray(expected, dtype=float))
        if not os.path.exists(path):
            print(f"FAIL {options.name}: the script did not write {path}")
            failures += 1
            continue
        actual = read_matrix(path)
        if actual.shape != expected.shape:
            print(f"FAIL {options.name}: {os.path.basename(path)} is "
                  f"{actual.shape[0]}x{actual.shape[1]}, the reference is "
                  f"{expected.shape[0]}x{expected.shape[1]}")
            failures += 1
            continue
        mismatch = first_mismatch(actual, expected, rtol, atol)
        if mismatch:
            print(f"FAIL {options.name}: {os.path.basename(path)} differs from the "
                  f"reference: {mismatch} (rtol {rtol}, atol {atol})")
            failures += 1
            continue
        print(f"ok {os.path.basename(path)}: {actual.shape[0]}x{actual.shape[1]}, "
              f"max |diff| {np.abs(actual - expected).max():.3g}")
        if baseline is None:
            continue
        same = baseline[path]
        mismatch = (f"{same.shape} against {actual.shape}"
                    if same.shape != actual.shape else
                    first_mismatch(actual, same, options.baseline_rtol, 1e-12))
        if mismatch:
            print(f"FAIL {options.name}: {os.path.basename(path)} differs from "
                  f"the one-process run: {mismatch} (rtol "
                  f"{options.baseline_rtol:g}, atol 1e-12)")
            failures += 1
        else:
            print(f"ok {os.path.basename(path)}: max |diff| from the "
                  f"one-process run {np.abs(actual - same).max():.3g}")
    if failures:
        return 1
    print(f"PASS {options.name} ({options.size}, {seconds:.2f} s)")
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name")
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--size", default="small")
    parser.add_argument("--data", help="keep the data and outputs in this directory")
    parser.add_argument("--show", action="store_true", help="print the script's output")
    parser.add_argument("--each-family", action="store_true",
                        help="run once per rewrite family alone")
    parser.add_argument("--baseline", action="store_true",
                        help="also run once in one process without the "
                             "distributed flags; the outputs must match it "
                             "to 1e-9")
    parser.add_argument("--baseline-rtol", type=float, default=1e-9,
                        help="the relative tolerance of --baseline")
    parser.add_argument("--launcher", default="",
                        help="a command that starts amls-run, such as "
                             "'mpirun -np 4' for a distributed run")
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        extra = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    options = parser.parse_args(argv)

    module = load_reference(options.name)
    if options.size not in module.SIZES:
        sys.exit(f"check.py: example '{options.name}' has no size '{options.size}' "
                 f"(sizes: {', '.join(module.SIZES)})")

    with tempfile.TemporaryDirectory(prefix=f"amls-{options.name}-") as tmp:
        directory = options.data or tmp
        os.makedirs(directory, exist_ok=True)
        args = module.generate(directory, options.size)
        command = shlex.split(options.launcher) + [
            options.amls_run, os.path.join(EXAMPLES, module.SCRIPT)]
        for key, value in args.items():
            command += ["--arg", f"{key}={format_arg(value)}"]
        command += extra
        references = module.reference(args)
        baseline = None
        if options.baseline:
            baseline = run_baseline(options, references,
                                    command[len(shlex.split(options.launcher)):])
            if baseline is None:
                return 1
        if not options.each_family:
            return check_run(options, module, args, references, command,
                             baseline)
        return max(check_run(options, module, args, references,
                             command + [f"--rewrites={family}"])
                   for family in FAMILIES)


if __name__ == "__main__":
    sys.exit(main())
