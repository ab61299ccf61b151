#!/usr/bin/env python3
"""conv2d forward in AMLS against NumPy's im2col plus one matmul.

The DML program draws X (N x C*H*W) and W (F x C*R*S) with rand and
convolves them (padding keeps the image size, stride 1); AMLS's time is
amls-run's execute time (best of --repeat) minus that of the same program
without the convolution, so the rand calls are left out. NumPy builds the
(N*P*Q) x (C*R*S) window matrix with stride tricks, multiplies it by t(W)
and reorders the result to N x F*P*Q (best of --repeat). Both results are
checked against each other on the same data (read from CSV) first.

Usage: conv2d.py --amls-run build/bin/amls-run [--shape N,C,H,W,F,R]
                 [--repeat 5] [--threads 2]
"""

import argparse
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
from numpy.lib.stride_tricks import sliding_window_view  # noqa: E402

PROGRAM = """
X = rand(rows={N}, cols={C}*{H}*{W}, seed=1)
K = rand(rows={F}, cols={C}*{R}*{R}, seed=2)
{body}
"""
CONV = ("Y = conv2d(X, K, input_shape=[{N}, {C}, {H}, {W}], "
        "filter_shape=[{F}, {C}, {R}, {R}], stride=[1, 1], "
        "padding=[{pad}, {pad}])")


def numpy_conv2d(X, K, N, C, H, W, F, R, pad):
    images = np.pad(X.reshape(N, C, H, W),
                    ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    # N x C x P x Q x R x R windows, then rows (n, p, q), columns (c, r, s).
    win = sliding_window_view(images, (R, R), axis=(2, 3))
    P, Q = win.shape[2], win.shape[3]
    cols = win.transpose(0, 2, 3, 1, 4, 5).reshape(N * P * Q, C * R * R)
    out = cols @ K.T  # (N*P*Q) x F
    return out.reshape(N, P * Q, F).transpose(0, 2, 1).reshape(N, F * P * Q)


def amls_execute(amls_run, source, repeat, threads, directory, args=()):
    path = os.path.join(directory, "bench.dml")
    with open(path, "w") as f:
        f.write(source)
    command = [amls_run, path, "--timing", f"--repeat={repeat}",
               f"--threads={threads}", *args]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{run.stderr}")
    timing = re.search(r"compile ([\d.]+), execute ([\d.]+)", run.stderr)
    return float(timing.group(2)) / 1e3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--shape", default="64,3,32,32,16,3",
                        help="N,C,H,W,F,R (R x R filters)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    N, C, H, W, F, R = map(int, args.shape.split(","))
    geometry = dict(N=N, C=C, H=H, W=W, F=F, R=R, pad=R // 2)

    rng = np.random.default_rng(0)
    X = rng.standard_normal((N, C * H * W))
    K = rng.standard_normal((F, C * R * R))
    with tempfile.TemporaryDirectory() as tmp:
        # Correctness on the same data first.
        np.savetxt(os.path.join(tmp, "X.csv"), X, delimiter=",", fmt="%.17g")
        np.savetxt(os.path.join(tmp, "K.csv"), K, delimiter=",", fmt="%.17g")
        check = ('X = read($dir + "/X.csv")\nK = read($dir + "/K.csv")\n' +
                 CONV.format(**geometry) +
                 '\nwrite(Y, $dir + "/Y.csv", format="csv")\n')
        amls_execute(args.amls_run, check, 1, args.threads, tmp,
                     ["--arg", f"dir={tmp}"])
        Y = np.loadtxt(os.path.join(tmp, "Y.csv"), delimiter=",", ndmin=2)
        expected = numpy_conv2d(X, K, N, C, H, W, F, R, R // 2)
        if not np.allclose(Y, expected, rtol=1e-10, atol=1e-10):
            sys.exit("AMLS's conv2d differs from NumPy's")

        body = CONV.format(**geometry) + "\nprint(sum(Y))"
        with_conv = amls_execute(
            args.amls_run, PROGRAM.format(body=body, **geometry), args.repeat,
            args.threads, tmp)
        without = amls_execute(
            args.amls_run,
            PROGRAM.format(body="print(sum(X) + sum(K))", **geometry),
            args.repeat, args.threads, tmp)
    amls_time = max(with_conv - without, 1e-6)

    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        numpy_conv2d(X, K, N, C, H, W, F, R, R // 2)
        best = min(best, time.perf_counter() - start)
    print(f"conv2d N={N} C={C} {H}x{W} F={F} {R}x{R} pad={R // 2}: "
          f"AMLS {amls_time * 1e3:.2f} ms, NumPy im2col+matmul "
          f"{best * 1e3:.2f} ms, NumPy/AMLS {best / amls_time:.2f}")


if __name__ == "__main__":
    main()
