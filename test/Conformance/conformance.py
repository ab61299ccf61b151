"""AMLS's DML conformance suite, in SystemDS's test style.

Each case is a DML script NAME.dml with an independent reference NAME.py,
like SystemDS's function tests (a DML script, an R script, a tolerance):

  - the reference's `inputs(rng)` returns the input matrices by name; they
    are written as SystemDS's tests write them (text-cell files with .mtd
    metadata) and passed to the script as `$name` (and `$out`, the
    directory the script writes its results into);
  - the script writes each result with `write(x, $out + "/NAME")`
    (SystemDS's default format: text-cell or a scalar file, each with .mtd);
  - the reference's `expected(inputs)` computes the same results with
    NumPy/SciPy, independently of the script; `TOLERANCE` (absolute and
    relative, default 1e-10 as in SystemDS's TestUtils) bounds each cell's
    difference.

  conformance.py --amls-run PATH CASE.dml [-- amls-run options]

prints "PASS: CASE/name RxC" or "FAIL: CASE/name ..." per result, and
exits non-zero if any result fails or is missing.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "Oracles"))
from comparison import first_mismatch  # noqa: E402

import numpy as np


def write_text_cell(path, matrix):
    """A matrix in SystemDS's text-cell format with its .mtd file."""
    matrix = np.atleast_2d(np.asarray(matrix, dtype=float))
    rows, cols = matrix.shape
    nonzeros = np.argwhere(matrix != 0)
    with open(path, "w") as f:
        for i, j in nonzeros:
            f.write(f"{i + 1} {j + 1} {matrix[i, j]!r}\n")
        if len(nonzeros) == 0:
            f.write("1 1 0\n")
    with open(path + ".mtd", "w") as f:
        json.dump({"data_type": "matrix", "value_type": "double",
                   "rows": rows, "cols": cols, "nnz": len(nonzeros),
                   "format": "text"}, f)


def read_result(path):
    """A result the script wrote: a matrix (text-cell) or a scalar."""
    with open(path + ".mtd") as f:
        mtd = json.load(f)
    with open(path) as f:
        text = f.read()
    if mtd.get("data_type") == "scalar":
        value = text.strip()
        if value in ("TRUE", "FALSE"):
            return value == "TRUE"
        if mtd.get("value_type") == "string":
            return value
        return float(value)
    if mtd.get("format", "text") != "text":
        raise ValueError(f"{path}: expected format text, found "
                         f"{mtd.get('format')}")
    matrix = np.zeros((int(mtd["rows"]), int(mtd["cols"])))
    for line in text.splitlines():
        if line.strip():
            i, j, v = line.split()
            matrix[int(i) - 1, int(j) - 1] = float(v)
    return matrix


def compare(name, actual, expected, tolerance):
    """A PASS or FAIL line."""
    if isinstance(expected, (str, bool)):
        ok = actual == expected
        return ("PASS" if ok else "FAIL") + f": {name} {expected!r}" + (
            "" if ok else f" (found {actual!r})")
    expected = np.atleast_2d(np.asarray(expected, dtype=float))
    if np.isscalar(actual) or isinstance(actual, float):
        actual = np.atleast_2d(float(actual))
        shape = "scalar"
    else:
        shape = f"{expected.shape[0]}x{expected.shape[1]}"
        if actual.shape != expected.shape:
            return (f"FAIL: {name} expected {shape}, found "
                    f"{actual.shape[0]}x{actual.shape[1]}")
    mismatch = first_mismatch(actual, expected, tolerance, tolerance)
    if mismatch:
        return f"FAIL: {name} {shape}: {mismatch}"
    return f"PASS: {name} {shape}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("script")
    parser.add_argument("options", nargs="*",
                        help="more amls-run options (after --)")
    args = parser.parse_args()
    case = os.path.splitext(os.path.basename(args.script))[0]
    spec = importlib.util.spec_from_file_location(
        case, os.path.splitext(args.script)[0] + ".py")
    reference = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(reference)
    tolerance = getattr(reference, "TOLERANCE", 1e-10)

    with tempfile.TemporaryDirectory(prefix=f"amls-{case}-") as work:
        inputs = reference.inputs(np.random.default_rng(7))
        command = args.amls_run.split() + [args.script]
        for name, matrix in inputs.items():
            path = os.path.join(work, "in", name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            write_text_cell(path, matrix)
            command += ["--arg", f"{name}={path}"]
        out = os.path.join(work, "out")
        os.makedirs(out)
        command += ["--arg", f"out={out}"] + args.options
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL: {case}: amls-run exited with {run.returncode}:\n"
                  f"{run.stderr}")
            return 1
        failed = False
        for name, value in sorted(reference.expected(inputs).items()):
            path = os.path.join(out, name)
            if not os.path.exists(path) or not os.path.exists(path + ".mtd"):
                print(f"FAIL: {case}/{name}: the script wrote no result")
                failed = True
                continue
            line = compare(f"{case}/{name}", read_result(path), value,
                           tolerance)
            failed |= line.startswith("FAIL")
            print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
