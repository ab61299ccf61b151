#!/usr/bin/env python3
"""Runs Inputs/writes.dml in one process (not distributed) and through each
launcher given, and checks that every file the ranks wrote in turn, with
its .mtd file, has the bytes of the one-process run's, that the one-process
files hold what NumPy/SciPy compute, and that no rank gathered a block
(--stats: no all-gather) or printed twice.

    writes_oracle.py --amls-run PATH --dir DIR --rows R [--launcher CMD]...
"""
import argparse
import filecmp
import json
import os
import re
import shlex
import subprocess
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp

parser = argparse.ArgumentParser()
parser.add_argument("--amls-run", required=True)
parser.add_argument("--launcher", action="append", default=[])
parser.add_argument("--rows", type=int, required=True)
parser.add_argument("--dir", required=True)
options = parser.parse_args()

os.makedirs(options.dir, exist_ok=True)
rng = np.random.default_rng(options.rows)
X = rng.uniform(0.0, 1.0, (options.rows, 5))
X_path = os.path.join(options.dir, "X.csv")
np.savetxt(X_path, X, delimiter=",", fmt="%.17g")
A = sp.random(options.rows, 7, density=0.2, random_state=3, format="coo")
A_path = os.path.join(options.dir, "A.mtx")
scipy.io.mmwrite(A_path, A)
A = A.toarray()
script = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "writes.dml")
OUTPUTS = ["Y.csv", "Y.mtx", "Y.txt", "Y.bin", "B.mtx", "B.txt", "B.csv",
           "Z.txt"]
# Binary files: AMLS IR reads and writes them (DML has no such format).
X_bin = os.path.join(options.dir, "X.bin")
with open(X_bin, "wb") as f:
    f.write(b"AMLSMAT1")
    np.array(X.shape, dtype="<i8").tofile(f)
    X.astype("<f8").tofile(f)
BINARY_PROGRAM = """
func.func @main() {
  %two = arith.constant 2.0 : f64
  %one = arith.constant 1.0 : f64
  %X = amls.read "@IN@" binary : !amls.matrix<?x?xf64>
  %X2 = amls.mul %X, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %Y = amls.add %X2, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  amls.write %Y, "@OUT@/Y.bin" binary : !amls.matrix<?x?xf64>
  %s = amls.agg sum all %Y : !amls.matrix<?x?xf64> -> f64
  amls.printf "written {}" (%s : f64)
  return
}
"""


def run(launcher, out):
    os.makedirs(out, exist_ok=True)
    program = os.path.join(out, "binary.mlir")
    with open(program, "w") as f:
        f.write(BINARY_PROGRAM.replace("@IN@", X_bin).replace("@OUT@", out))
    for name in OUTPUTS:
        for path in (os.path.join(out, name), os.path.join(out, name) + ".mtd"):
            if os.path.exists(path):
                os.remove(path)
    # The baseline is a plain run: the sequential writer's bytes.
    distributed = ["--distributed", "--distribute-min-cells=0", "--stats",
                   "--distribute-explain"] if launcher else []
    for writes, arguments in (
            (7, [script, "--arg", f"X={X_path}", "--arg", f"A={A_path}",
                 "--arg", f"out={out}"]), (1, [program])):
        command = shlex.split(launcher) + [options.amls_run] + arguments + [
            "--threads", "1"] + distributed
        result = subprocess.run(command, capture_output=True, text=True,
                                timeout=120)
        if result.returncode != 0:
            sys.exit(f"FAIL: {shlex.join(command)} exited with "
                     f"{result.returncode}:\n{result.stdout}{result.stderr}")
        if result.stdout.count("written") != 1:
            sys.exit(f"FAIL: expected one 'written' line, found "
                     f"{result.stdout!r}")
        if not launcher:
            continue
        # Each write is an ordered write; the only all-gathers are a read's
        # line counts (8 bytes from each rank per call).
        ordered = result.stderr.count(
            "'amls.write': each rank writes its rows, in rank order")
        if ordered != writes or "'amls.write': all-gather" in result.stderr:
            sys.exit(f"FAIL: expected {writes} ordered writes, found "
                     f"{ordered}:\n{result.stderr}")
        ranks = int(re.search(r"amls-run mpi: (\d+) rank", result.stderr)
                    .group(1))
        for calls, sent in re.findall(
                r"rank \d+ all-gather: (\d+) call\(s\), (\d+) bytes sent",
                result.stderr):
            if int(sent) > 8 * int(calls) * ranks:
                sys.exit(f"FAIL: a rank gathered a block:\n{result.stderr}")


def metadata_of(path):
    with open(path) as f:
        metadata = json.load(f)
    metadata.pop("created", None)
    return metadata


failures = 0
whole = os.path.join(options.dir, "one")
run("", whole)
# The one process's files against NumPy/SciPy.
Y = 2 * X + 1
expected = {
    "Y.csv": lambda p: np.loadtxt(p, delimiter=",", ndmin=2),
    "Y.mtx": lambda p: scipy.io.mmread(p).toarray(),
    "B.mtx": lambda p: scipy.io.mmread(p).toarray(),
    "B.csv": lambda p: np.loadtxt(p, delimiter=",", ndmin=2),
}
wants = {"Y.csv": Y, "Y.mtx": Y, "B.mtx": 3 * A, "B.csv": 3 * A}
for name, read in expected.items():
    got = read(os.path.join(whole, name))
    if got.shape != wants[name].shape or np.isnan(got).any() or \
            not np.allclose(got, wants[name], rtol=1e-15, atol=0):
        print(f"FAIL {name}: {got.ravel()[:6]} against "
              f"{wants[name].ravel()[:6]}")
        failures += 1
with open(os.path.join(whole, "Z.txt")) as f:
    if f.read() != "1 1 0\n":
        print("FAIL Z.txt: expected '1 1 0' for an all-zero matrix")
        failures += 1
with open(os.path.join(whole, "Y.bin"), "rb") as f:
    binary = f.read()
cells = np.frombuffer(binary[-Y.size * 8:], dtype="<f8").reshape(Y.shape)
if not np.array_equal(cells, Y):
    print("FAIL Y.bin: its cells are not 2 * X + 1")
    failures += 1
for launcher in options.launcher:
    out = os.path.join(options.dir, re.sub(r"\W+", "_", launcher))
    run(launcher, out)
    for name in OUTPUTS:
        if not filecmp.cmp(os.path.join(whole, name), os.path.join(out, name),
                           shallow=False):
            print(f"FAIL {launcher}: {name} differs from the one-process "
                  f"run's")
            failures += 1
        # The metadata as one process writes it, but for the time written.
        metadata = [metadata_of(os.path.join(directory, name + ".mtd"))
                    for directory in (whole, out)]
        if metadata[0] != metadata[1]:
            print(f"FAIL {launcher}: {name}.mtd says {metadata[1]}, one "
                  f"process {metadata[0]}")
            failures += 1
if failures:
    sys.exit(1)
print(f"PASS {options.rows} rows: {len(OUTPUTS)} files and their .mtd "
      f"files as one process writes them, under "
      f"{len(options.launcher)} launcher(s)")
