#!/usr/bin/python3
"""Compressed linear algebra against dense and CSR, in one run (issue 45).

Builds a matrix of categorical/binned features (ROWS x 50, column c with
2 + 48c/49 distinct values) and its one-hot encoding, then for each:
  - AMLS: plans and compresses it (bench/compressed_kernels.cpp, linked to
    the runtime) and times X %*% v, t(X) %*% v, X %*% W and t(X) %*% W
    (W with 8 columns), t(X) %*% X, colSums and a scalar multiply on the
    compressed form, at THREADS threads;
  - NumPy (OpenBLAS, OPENBLAS_NUM_THREADS threads, 2 unless set) on the
    dense matrix, SciPy on CSR:
    the same operations.
Prints sizes (compressed vs dense and vs CSR), compression time, the kernel
times and their ratios, and each side's peak memory.

  /usr/bin/python3 bench/compressed.py [--rows N] [--threads T]
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

# NumPy's OpenBLAS reads these when it loads (docs/performance.md: SkylakeX).
os.environ.setdefault("OPENBLAS_CORETYPE", "SkylakeX")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "2")

import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLS = 50
K = 8


def best(fn, repeat=5):
    fastest = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest


def categorical(rows, rng):
    """ROWS x 50 codes: column c takes 2 + 48c/49 values, binned floats."""
    x = np.empty((rows, COLS))
    for c in range(COLS):
        distinct = 2 + (48 * c) // 49
        x[:, c] = rng.integers(1, distinct + 1, rows) * 0.25 + c
    return x


def one_hot(x):
    """The one-hot encoding of each column of x, as CSR."""
    rows = x.shape[0]
    blocks, offset = [], 0
    for c in range(x.shape[1]):
        _, codes = np.unique(x[:, c], return_inverse=True)
        blocks.append(codes + offset)
        offset += int(codes.max()) + 1
    indices = np.stack(blocks, axis=1).reshape(-1).astype(np.int32)
    indptr = np.arange(0, rows * x.shape[1] + 1, x.shape[1], dtype=np.int64)
    return sp.csr_matrix((np.ones(indices.size), indices, indptr),
                         shape=(rows, offset))


def write_dense(path, x):
    with open(path, "wb") as f:
        f.write(b"AMLSMAT1")
        np.array(x.shape, dtype="<i8").tofile(f)
        np.ascontiguousarray(x, dtype="<f8").tofile(f)


def write_csr(path, m):
    with open(path, "wb") as f:
        f.write(b"AMLSCSR1")
        np.array([m.shape[0], m.shape[1], m.nnz], dtype="<i8").tofile(f)
        m.indptr.astype("<i8").tofile(f)
        m.indices.astype("<i4").tofile(f)
        m.data.astype("<f8").tofile(f)


def peer_times(m, rng):
    n, cols = m.shape
    v, y = rng.uniform(-1, 1, cols), rng.uniform(-1, 1, n)
    w, z = rng.uniform(-1, 1, (cols, K)), rng.uniform(-1, 1, (n, K))
    times = {"Xv": best(lambda: m @ v), "tXv": best(lambda: m.T @ y),
             "XW": best(lambda: m @ w), "tXW": best(lambda: m.T @ z)}
    if cols <= 200:
        times["tXX"] = best(lambda: m.T @ m, repeat=2)
    times["colSums"] = best(lambda: m.sum(axis=0))
    times["scalar"] = best(lambda: m * 0.5)
    return times


def run_amls(binary, path, threads):
    env = dict(os.environ, OMP_WAIT_POLICY="passive")
    out = subprocess.run([binary, path, str(threads)], capture_output=True,
                         text=True, env=env, check=True).stdout
    return json.loads(out)


def build(amls_lib, directory):
    binary = os.path.join(directory, "compressed_kernels")
    subprocess.run(["c++", "-O2", "-std=c++17", "-I",
                    os.path.join(ROOT, "include"),
                    os.path.join(ROOT, "bench", "compressed_kernels.cpp"),
                    "-L", amls_lib, "-lamls_runtime",
                    f"-Wl,-rpath,{amls_lib}", "-o", binary], check=True)
    return binary


def report(name, amls, dense, csr, dense_bytes, csr_bytes):
    print(f"\n## {name}: {amls['rows']} x {amls['cols']}")
    print(f"compressed {amls['compressed_bytes'] / 2**20:.1f} MiB in "
          f"{amls['groups']} groups: {dense_bytes / amls['compressed_bytes']:.1f}x"
          f" smaller than dense ({dense_bytes / 2**20:.0f} MiB), "
          f"{csr_bytes / amls['compressed_bytes']:.1f}x smaller than CSR "
          f"({csr_bytes / 2**20:.0f} MiB)")
    print(f"planning {amls['plan_s']:.3f} s, compression "
          f"{amls['compress_s']:.3f} s; plan: {amls['plan']}")
    print("| kernel | compressed s | NumPy dense s | SciPy CSR s | "
          "vs dense | vs CSR |")
    print("|---|---|---|---|---|---|")
    for kernel, seconds in amls["kernels"].items():
        d = dense.get(kernel) if dense else None
        c = csr.get(kernel)
        cell = (lambda t: f"{t:.4f}" if t is not None else "-")
        ratio = (lambda t: f"{t / seconds:.2f}x" if t is not None else "-")
        print(f"| {kernel} | {seconds:.4f} | {cell(d)} | {cell(c)} | "
              f"{ratio(d)} | {ratio(c)} |")
    print(f"peak memory: AMLS process {amls['peak_rss_mb']:.0f} MiB "
          "(the source as read, and the compressed copy)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--amls-lib", default=os.path.join(ROOT, "build",
                                                           "lib"))
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as directory:
        binary = build(args.amls_lib, directory)
        x = categorical(args.rows, rng)
        onehot = one_hot(x)
        path = os.path.join(directory, "x.bin")
        write_dense(path, x)
        amls = run_amls(binary, path, args.threads)
        os.remove(path)
        xcsr = sp.csr_matrix(x)
        dense_times = peer_times(x, rng)
        csr_times = peer_times(xcsr, rng)
        csr_bytes = xcsr.nnz * 12 + (args.rows + 1) * 8
        report("categorical features", amls, dense_times, csr_times,
               x.nbytes, csr_bytes)
        del x, xcsr

        path = os.path.join(directory, "onehot.bin")
        write_csr(path, onehot)
        amls = run_amls(binary, path, args.threads)
        os.remove(path)
        onehot_times = peer_times(onehot, rng)
        dense_bytes = onehot.shape[0] * onehot.shape[1] * 8
        csr_bytes = onehot.nnz * 12 + (args.rows + 1) * 8
        report("one-hot encoded", amls, None, onehot_times, dense_bytes,
               csr_bytes)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of the NumPy/SciPy process: {peak:.0f} MiB")


if __name__ == "__main__":
    sys.exit(main())
