#!/usr/bin/python3
"""The L2SVM and linear-regression CG loops on compressed X (issue 45).

Generates ROWS x 50 binned categorical features (column c with 2 + 48c/49
values), the labels of a linear model, and runs examples/linreg-cg.dml and
examples/l2svm.dml with amls-run at THREADS threads, once per storage format:
--formats=dense, --formats=csr and --formats=compressed (X compressed before
the loop, --amls-select-compression). Each script runs a fixed number of
iterations (maxi; tol 0). Reported: the program's execute time (amls-run
--timing: reading X, compressing it where asked, the loop), the time of a
program that only reads X (subtracted to give the loop), their ratios, and
each run's peak memory (/usr/bin/time). The first and last plan lines of
the compressed run (--formats-explain) follow each row.

  /usr/bin/python3 bench/compressed_loops.py [--rows N] [--threads T]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLS = 50


def write_csv(path, x):
    """CSV, as DML's read() takes it (AMLS's .bin is amls-run --input's);
    pandas writes it in seconds where np.savetxt takes minutes."""
    pd.DataFrame(x).to_csv(path, header=False, index=False,
                           float_format="%.4g")


def data(rows, directory):
    rng = np.random.default_rng(0)
    x = np.empty((rows, COLS))
    for c in range(COLS):
        x[:, c] = rng.integers(1, 3 + (48 * c) // 49, rows) * 0.25
    beta = rng.uniform(-1, 1, (COLS, 1))
    score = x @ beta
    y = score + 0.1 * rng.standard_normal((rows, 1))
    labels = np.where(score > np.median(score), 1.0, -1.0)
    paths = {}
    for name, value in (("X", x), ("y", y), ("Y", labels)):
        paths[name] = os.path.join(directory, name + ".csv")
        write_csv(paths[name], value)
    return paths


def run(amls_run, script, args, extra, threads):
    """(execute seconds, peak MiB, output) of one amls-run."""
    command = ["/usr/bin/time", "-f", "peak-kib %M", amls_run, script,
               "--threads", str(threads), "--timing"]
    for key, value in args.items():
        command += ["--arg", f"{key}={value}"]
    command += extra
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{out.stdout}\n{out.stderr}")
    text = out.stdout + out.stderr
    match = re.search(r"timing \(ms\):.*execute ([0-9.]+)", text)
    peak = re.search(r"peak-kib (\d+)", text)
    if not match or not peak:
        sys.exit(f"no execute time in the output of {' '.join(command)}:\n"
                 f"{text}")
    return float(match.group(1)) / 1000.0, int(peak.group(1)) / 1024.0, text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--amls-run",
                        default=os.path.join(ROOT, "build", "bin", "amls-run"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        paths = data(args.rows, directory)
        read_only = os.path.join(directory, "read.dml")
        with open(read_only, "w") as f:
            f.write("X = read($X);\nprint(sum(X));\n")
        read_s, _, _ = run(args.amls_run, read_only, {"X": paths["X"]}, [],
                           args.threads)
        out = os.path.join(directory, "out.csv")
        scripts = {
            "linreg-cg": ({"X": paths["X"], "y": paths["y"], "B": out,
                           "icpt": 0, "reg": 1e-6, "tol": 0,
                           "maxi": args.iterations}),
            "l2svm": ({"X": paths["X"], "Y": paths["Y"], "model": out,
                       "icpt": "FALSE", "reg": 1.0, "tol": 0,
                       "maxi": args.iterations, "maxii": 5,
                       "verbose": "FALSE"}),
        }
        print(f"{args.rows} x {COLS} binned features, {args.threads} threads,"
              f" {args.iterations} iterations; reading X alone: "
              f"{read_s:.3f} s")
        print("| script | dense s | CSR s | compressed s | loop vs dense | "
              "loop vs CSR | peak MiB dense / CSR / compressed |")
        print("|---|---|---|---|---|---|---|")
        for name, script_args in scripts.items():
            script = os.path.join(ROOT, "examples", name + ".dml")
            times, peaks = {}, {}
            for formats in ("dense", "csr", "compressed"):
                extra = [f"--formats={formats}"]
                if formats == "compressed":
                    extra.append("--formats-explain")
                seconds, peak, text = run(args.amls_run, script, script_args,
                                          extra, args.threads)
                times[formats], peaks[formats] = seconds, peak
                if formats == "compressed":
                    plan = [line for line in text.splitlines()
                            if line.startswith("amls.compress")]
                    detail = "; ".join(plan[:1] + plan[-1:])
            loop = {k: max(v - read_s, 1e-9) for k, v in times.items()}
            print(f"| {name} | {times['dense']:.3f} | {times['csr']:.3f} | "
                  f"{times['compressed']:.3f} | "
                  f"{loop['dense'] / loop['compressed']:.2f}x | "
                  f"{loop['csr'] / loop['compressed']:.2f}x | "
                  f"{peaks['dense']:.0f} / {peaks['csr']:.0f} / "
                  f"{peaks['compressed']:.0f} |")
            print(f"  ({detail})")


if __name__ == "__main__":
    sys.exit(main())
