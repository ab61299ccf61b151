#!/usr/bin/env python3
"""The runtime's buffer pool against the system allocator (`make bench-memory`).

Three parts, one run, printed as tables for docs/performance.md:

1. Loops that allocate and free temporaries every iteration (CG on
   10000 x 1000 for 200 iterations, a loop that materializes a 3000 x 3000
   temporary 50 times): amls-run with its pool (the default) and with
   --memory-pool=false (every buffer from glibc's malloc, with its default
   settings, and back), the best execute time (--timing) of --repeat runs
   with its wall time, the run's allocation count and pool hits (--stats)
   and its peak resident memory (wait4's ru_maxrss).
2. The examples (examples/*.dml on their generated data, `--size`) with and
   without the pool, measured the same way.
3. pool_threads.cpp: nanoseconds per allocate/release pair at 1..N threads
   for the pool and for malloc, the pool's scaling under concurrent use.

Both configurations of each program must print the same result: a
difference ends the run. Not a test: numbers depend on the machine.

Usage: run.py --amls-run build/bin/amls-run [--repeat 3] [--size small|large]
              [--examples linreg-cg,l2svm,...]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "examples", "reference"))

STATS = re.compile(r"amls-run memory: (\d+) allocations \((\d+) bytes\), "
                   r"(\d+) from the pool")
EXECUTE = re.compile(r"amls-run timing \(ms\):.*execute ([0-9.]+)")


def run(command):
    """Runs `command`; returns (wall seconds, peak RSS bytes, stdout, stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"run.py: {' '.join(command)} failed:\n{stderr}")
    return wall, usage.ru_maxrss * 1024, stdout, stderr


def result_lines(stdout):
    """What the program printed, without amls-run's own report lines."""
    return [line for line in stdout.splitlines()
            if not line.startswith("amls-run")]


def measure(options, name, command):
    """Best of --repeat runs with and without the pool: one table row each."""
    rows, outputs = [], {}
    for pool in ("true", "false"):
        best = None
        for _ in range(options.repeat):
            wall, peak, stdout, stderr = run(
                command + [f"--memory-pool={pool}", "--stats", "--timing"])
            execute = float(EXECUTE.search(stdout + stderr).group(1)) / 1000
            if best is None or execute < best[1]:
                best = (wall, execute, peak, stdout + stderr)
        outputs[pool] = result_lines(best[3])
        match = STATS.search(best[3])
        allocations, hits = (match.group(1), match.group(3)) if match else ("?", "?")
        rows.append((name, "pool" if pool == "true" else "malloc", best[0],
                     best[1], best[2], allocations, hits))
    if outputs["true"] != outputs["false"]:
        sys.exit(f"run.py: {name} prints different results with and without "
                 f"the pool:\n{outputs['true']}\n{outputs['false']}")
    return rows


def print_table(rows):
    print("| program | allocator | wall (s) | execute (s) | peak RSS (MiB) | "
          "allocations | from the pool |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, allocator, wall, execute, peak, allocations, hits in rows:
        print(f"| {name} | {allocator} | {wall:.3f} | {execute:.3f} | "
              f"{peak / 2**20:.0f} | {allocations} | {hits} |")
    print()


def bench_loops(options):
    rows = []
    for program, args in (("cg.dml", []), ("temporaries.dml", [])):
        rows += measure(options, program,
                        [options.amls_run, os.path.join(HERE, program)] + args)
    print_table(rows)


def bench_examples(options):
    import check  # examples/reference/check.py: data generation
    rows = []
    for name in options.examples.split(","):
        module = check.load_reference(name)
        directory = os.path.join(options.data, name + "-" + options.size)
        os.makedirs(directory, exist_ok=True)
        args = module.generate(directory, options.size)
        command = [options.amls_run, os.path.join(ROOT, "examples", module.SCRIPT)]
        for key, value in args.items():
            command += ["--arg", f"{key}={check.format_arg(value)}"]
        rows += measure(options, f"{name} ({options.size})", command)
    print_table(rows)


def bench_threads(options):
    binary = os.path.join(options.data, "pool_threads")
    build = os.path.dirname(os.path.dirname(os.path.abspath(options.amls_run)))
    subprocess.run(["c++", "-std=c++17", "-O2", "-pthread",
                    "-I", os.path.join(ROOT, "include"),
                    os.path.join(HERE, "pool_threads.cpp"),
                    "-L", os.path.join(build, "lib"), "-lamls_runtime",
                    "-Wl,-rpath," + os.path.join(build, "lib"), "-o", binary],
                   check=True)
    text = subprocess.run([binary, str(options.threads)], check=True,
                          capture_output=True, text=True).stdout
    print("| buffer bytes | threads | pool (ns per pair) | malloc (ns per pair) |")
    print("|---:|---:|---:|---:|")
    for line in text.splitlines()[1:]:
        size, threads, pool, system = line.split(",")
        print(f"| {size} | {threads} | {pool} | {system} |")
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--size", default="small")
    parser.add_argument("--examples",
                        default="linreg-cg,l2svm,mlogreg,kmeans,pagerank,components")
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--data", default=os.path.join(ROOT, "build", "bench", "memory"))
    options = parser.parse_args()
    os.makedirs(options.data, exist_ok=True)
    bench_loops(options)
    bench_examples(options)
    bench_threads(options)


if __name__ == "__main__":
    main()
