#!/usr/bin/env python3
"""Oversubscription check: how many of amls-run's threads want a core at
once (issue 19: "no parallel region oversubscribes the cores").

Each program runs at --threads 2 (the VM's two cores) while this script
samples /proc/PID/task/*/stat every millisecond and counts the threads in
state R (running or runnable: a thread spinning in a barrier counts, as it
holds a core). Reported per program: the share of samples with more
runnable threads than cores, the most seen at once, and the involuntary
context switches per second of run time (the kernel taking a core from a
thread that wanted to keep it; compile threads included). The programs mix the runtime's threaded
BLAS calls with the compiled program's parallel loops, LAPACK, and a
parfor whose workers call BLAS.

Not a test: a measurement for docs/performance.md.

Usage: threads.py --amls-run build/bin/amls-run [--cores 2]
"""

import argparse
import glob
import os
import resource
import subprocess
import sys
import tempfile
import time

PROGRAMS = {
    "gemm chain": """
A = rand(rows=2000, cols=2000, seed=1)
B = rand(rows=2000, cols=2000, seed=2)
for (i in 1:8) {
  A = (A %*% B) * 0.0005
}
print(sum(A))
""",
    "l2svm-like loop (gemv, fused loops)": """
X = rand(rows=100000, cols=100, seed=1)
y = (rand(rows=100000, cols=1, seed=2) > 0.5) * 2 - 1
w = matrix(0, rows=100, cols=1)
for (i in 1:60) {
  out = 1 - y * (X %*% w)
  sv = out > 0
  g = t(X) %*% (out * sv * y) - 0.01 * w
  w = w + 1e-7 * g
}
print(sum(w))
""",
    "tsmm, then LAPACK solves": """
X = rand(rows=20000, cols=200, seed=1)
y = rand(rows=20000, cols=1, seed=2)
A = t(X) %*% X
b = t(X) %*% y
s = 0
for (i in 1:40) {
  B = solve(A + diag(matrix(i, rows=200, cols=1)), b)
  s = s + sum(B)
}
print(s)
""",
    "parfor around BLAS": """
X = rand(rows=4000, cols=300, seed=1)
R = matrix(0, rows=16, cols=300)
parfor (i in 1:16) {
  G = t(X) %*% X + diag(matrix(i, rows=300, cols=1))
  v = solve(G, t(X) %*% X[, 1])
  R[i, ] = t(v)
}
print(sum(R))
""",
}


def runnable_threads(pid):
    """Threads of `pid` in state R, without LLVM's compile threads (the JIT
    compiling before the run is not a parallel region)."""
    count = 0
    for stat in glob.glob(f"/proc/{pid}/task/*/stat"):
        try:
            with open(stat) as f:
                # "tid (name) state ...": the name may hold spaces.
                head, tail = f.read().rsplit(")", 1)
            if head.split("(", 1)[1].startswith("llvm-worker"):
                continue
            if tail.split()[0] == "R":
                count += 1
        except (OSError, IndexError):
            pass
    return count


def measure(amls_run, path, cores):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    process = subprocess.Popen([amls_run, path, "--threads=2"],
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    samples, over, most = 0, 0, 0
    while process.poll() is None:
        running = runnable_threads(process.pid)
        samples += 1
        over += running > cores
        most = max(most, running)
        time.sleep(0.001)
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit(f"{path} failed:\n{process.stderr.read()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    switches = after.ru_nivcsw - before.ru_nivcsw
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime +
                                               before.ru_stime)
    return seconds, cpu, samples, over, most, switches


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--cores", type=int, default=os.cpu_count())
    options = parser.parse_args()
    print(f"{options.cores} cores, amls-run --threads=2; R = threads running "
          "or runnable, sampled every ms")
    print(f"{'program':38} {'seconds':>8} {'cpu/wall':>9} "
          f"{'samples R>cores':>16} {'most R':>7} {'invol. cs/s':>12}")
    with tempfile.TemporaryDirectory() as work:
        for name, source in PROGRAMS.items():
            path = os.path.join(work, "program.dml")
            with open(path, "w") as f:
                f.write(source)
            seconds, cpu, samples, over, most, switches = measure(
                options.amls_run, path, options.cores)
            share = f"{100.0 * over / max(samples, 1):.1f}%"
            print(f"{name:38} {seconds:8.2f} {cpu / seconds:9.2f} "
                  f"{share:>16} {most:7d} {switches / seconds:12.0f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
