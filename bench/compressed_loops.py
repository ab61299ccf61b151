#!/usr/bin/python3
"""The L2SVM and linear-regression CG loops on compressed X (issue 45).

Two data sets: --data binned (default) generates ROWS x 50 binned
categorical features (column c with 2 + 48c/49 values, CSV); --data onehot
the one-hot encoding of 20 categorical features with 2-100 categories
(ROWS x 1,010, 20 non-zeros a row, SystemDS's text-cell format with its
.mtd file: read straight into CSR). With the labels of a linear model, it
runs examples/linreg-cg.dml and examples/l2svm.dml with amls-run at THREADS
threads, once per storage format: --formats=dense, --formats=csr and
--formats=compressed (X compressed before the loop,
--amls-select-compression). Each script runs a fixed number of iterations
(maxi; tol 0). Reported: the program's execute time (amls-run --timing:
reading X, compressing it where asked, the loop), the time of a program
that only reads X (subtracted to give the loop), the compression time the
run prints (--formats-explain), the loop's ratios with and without it,
and each run's peak memory (/usr/bin/time). With --memory-limit, every run
gets that budget, and a format that does not fit in it is reported as such
(the program stops with its message) instead of a time.

  /usr/bin/python3 bench/compressed_loops.py [--rows N] [--threads T]
      [--data binned|onehot] [--memory-limit SIZE]
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


def labels(score, rows, directory, paths):
    rng = np.random.default_rng(1)
    y = score + 0.1 * rng.standard_normal((rows, 1))
    signs = np.where(score > np.median(score), 1.0, -1.0)
    for name, value in (("y", y), ("Y", signs)):
        paths[name] = os.path.join(directory, name + ".csv")
        write_csv(paths[name], value)
    return paths


def binned(rows, directory):
    rng = np.random.default_rng(0)
    x = np.empty((rows, COLS))
    for c in range(COLS):
        x[:, c] = rng.integers(1, 3 + (48 * c) // 49, rows) * 0.25
    beta = rng.uniform(-1, 1, (COLS, 1))
    paths = {"X": os.path.join(directory, "X.csv")}
    write_csv(paths["X"], x)
    return labels(x @ beta, rows, directory, paths), f"{rows} x {COLS} binned"


def onehot(rows, directory):
    """20 features of 2-100 categories, one-hot: text-cell i j 1 lines."""
    rng = np.random.default_rng(0)
    categories = [2 + (98 * f) // 19 for f in range(20)]
    cols = sum(categories)
    codes = np.empty((rows, len(categories)), dtype=np.int64)
    score = np.zeros((rows, 1))
    base = 0
    for f, count in enumerate(categories):
        codes[:, f] = base + rng.integers(0, count, rows)
        score[:, 0] += rng.uniform(-1, 1, cols)[codes[:, f]]
        base += count
    path = os.path.join(directory, "X")
    cells = pd.DataFrame({"i": np.repeat(np.arange(1, rows + 1),
                                         len(categories)),
                          "j": codes.reshape(-1) + 1, "v": 1})
    cells.to_csv(path, sep=" ", header=False, index=False)
    with open(path + ".mtd", "w") as f:
        f.write(f'{{"data_type": "matrix", "value_type": "double", '
                f'"rows": {rows}, "cols": {cols}, "nnz": {cells.shape[0]}, '
                f'"format": "text"}}\n')
    paths = {"X": path}
    return (labels(score, rows, directory, paths),
            f"{rows} x {cols} one-hot ({len(categories)} features)")


def run(amls_run, script, args, extra, threads):
    """(execute seconds, peak MiB, output) of one amls-run; (None, peak,
    message) when it stopped for the memory limit."""
    command = ["/usr/bin/time", "-f", "peak-kib %M", amls_run, script,
               "--threads", str(threads), "--timing"]
    for key, value in args.items():
        command += ["--arg", f"{key}={value}"]
    command += extra
    out = subprocess.run(command, capture_output=True, text=True)
    text = out.stdout + out.stderr
    peak = re.search(r"peak-kib (\d+)", text)
    if out.returncode != 0 and "memory" in text and peak:
        reason = [line for line in text.splitlines() if "memory" in line]
        return None, int(peak.group(1)) / 1024.0, reason[0]
    if out.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{out.stdout}\n{out.stderr}")
    match = re.search(r"timing \(ms\):.*execute ([0-9.]+)", text)
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
    parser.add_argument("--data", choices=("binned", "onehot"),
                        default="binned")
    parser.add_argument("--memory-limit", default=None,
                        help="amls-run --memory-limit for every run")
    args = parser.parse_args()
    limit = [f"--memory-limit={args.memory_limit}"] if args.memory_limit else []
    with tempfile.TemporaryDirectory() as directory:
        make = binned if args.data == "binned" else onehot
        paths, what = make(args.rows, directory)
        read_only = os.path.join(directory, "read.dml")
        with open(read_only, "w") as f:
            f.write("X = read($X);\nprint(sum(X));\n")
        read_s, _, _ = run(args.amls_run, read_only, {"X": paths["X"]}, limit,
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
        print(f"{what} features, {args.threads} threads, {args.iterations} "
              f"iterations" + (f", --memory-limit={args.memory_limit}"
                               if args.memory_limit else "") +
              f"; reading X alone: {read_s:.3f} s")
        print("| script | dense s | CSR s | compressed s (compression s) | "
              "loop vs dense | vs CSR | without compression: vs dense | "
              "vs CSR | peak MiB dense / CSR / compressed |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name, script_args in scripts.items():
            script = os.path.join(ROOT, "examples", name + ".dml")
            times, peaks, notes = {}, {}, []
            compress_s = 0.0
            for formats in ("dense", "csr", "compressed"):
                extra = [f"--formats={formats}"] + limit
                if formats == "compressed":
                    extra.append("--formats-explain")
                seconds, peak, text = run(args.amls_run, script, script_args,
                                          extra, args.threads)
                times[formats], peaks[formats] = seconds, peak
                if seconds is None:
                    notes.append(f"{formats}: {text}")
                elif formats == "compressed":
                    plan = [line for line in text.splitlines()
                            if line.startswith("amls.compress")]
                    notes.append("; ".join(plan[:1] + plan[-1:]))
                    spent = re.search(r"in ([0-9.]+) s \(planning", text)
                    compress_s = float(spent.group(1)) if spent else 0.0

            def cell(formats):
                t = times[formats]
                return "does not fit" if t is None else f"{t:.3f}"

            def ratio(formats, minus=0.0):
                if times[formats] is None or times["compressed"] is None:
                    return "-"
                mine = max(times["compressed"] - read_s - minus, 1e-9)
                return f"{max(times[formats] - read_s, 1e-9) / mine:.2f}x"

            print(f"| {name} | {cell('dense')} | {cell('csr')} | "
                  f"{cell('compressed')} ({compress_s:.3f}) | "
                  f"{ratio('dense')} | {ratio('csr')} | "
                  f"{ratio('dense', compress_s)} | {ratio('csr', compress_s)} | "
                  f"{peaks['dense']:.0f} / {peaks['csr']:.0f} / "
                  f"{peaks['compressed']:.0f} |")
            for note in notes:
                print(f"  ({note})")


if __name__ == "__main__":
    sys.exit(main())
