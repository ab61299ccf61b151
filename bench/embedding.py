#!/usr/bin/env python3
"""make bench-embedding: the per-call overhead of a compiled AMLS function
called from Python (the amls package) and from C (the C API), on trivial
programs whose own work is a few nanoseconds. Not a test: a measurement.

    embedding.py --build build [--calls 20000]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

C_SOURCE = r"""
#include "amls-c/Session.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
  int calls = atoi(argv[1]);
  const char *source =
      "func.func @main(%x: f64 {amls.name = \"x\"}) -> f64 {\n"
      "  %one = arith.constant 1.0 : f64\n"
      "  %y = arith.addf %x, %one : f64\n"
      "  return %y : f64\n"
      "}\n";
  AmlsSessionOptions options;
  amlsSessionOptionsInit(&options);
  options.threads = 1;
  AmlsSession session = amlsSessionCreate(&options, NULL);
  AmlsProgram program = amlsSessionCompileMLIR(
      session, mlirStringRefCreateFromCString(source),
      mlirStringRefCreateFromCString("bench.mlir"),
      mlirStringRefCreateFromCString("main"), NULL);
  double cells[100] = {0};
  AmlsValue x = amlsValueCreateFloat(1.0), y;
  amlsProgramRun(program, &x, 1, &y, NULL); /* compiles */
  amlsValueDestroy(y);
  double best = 1e9;
  for (int round = 0; round < 3; ++round) {
    double start = now();
    for (int i = 0; i < calls; ++i) {
      amlsProgramRun(program, &x, 1, &y, NULL);
      amlsValueDestroy(y);
    }
    double perCall = (now() - start) / calls;
    if (perCall < best)
      best = perCall;
  }
  printf("%.2f\n", best * 1e6);
  (void)cells;
  amlsValueDestroy(x);
  amlsSessionDestroy(session);
  return 0;
}
"""


def python_overhead(build, calls):
    sys.path.insert(0, os.path.join(build, "python"))
    import numpy as np

    import amls
    s = amls.Session(threads=1)
    rows = []
    for label, source, arguments in [
            ("scalar: y = x + 1", "y = x + 1", dict(x=1.0)),
            ("10x10 matrix: Y = X + 1", "Y = X + 1", dict(X=np.ones((10, 10)))),
    ]:
        f = s.compile_dml(source)
        f(**arguments)                         # compiles
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            for _ in range(calls):
                f(**arguments)
            best = min(best, (time.perf_counter() - start) / calls)
        rows.append((f"Python, {label}", best * 1e6))
    assert s.stats()["compilations"] == 2
    return rows


def c_overhead(build, calls):
    with tempfile.TemporaryDirectory() as work:
        source = os.path.join(work, "overhead.c")
        binary = os.path.join(work, "overhead")
        with open(source, "w") as f:
            f.write(C_SOURCE)
        lib = os.path.join(os.path.abspath(build), "lib")
        subprocess.run(
            ["cc", "-O2", "-std=c11", "-D_POSIX_C_SOURCE=199309L",
             "-I", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "include"),
             "-I", "/usr/lib/llvm-22/include", source, "-o", binary,
             "-L", lib, "-lAMLSCAPI", f"-Wl,-rpath,{lib}:/usr/lib/llvm-22/lib"],
            check=True)
        out = subprocess.run([binary, str(calls)], check=True,
                             capture_output=True, text=True).stdout
    return [("C API, scalar: y = x + 1", float(out))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--calls", type=int, default=20000)
    options = parser.parse_args()
    rows = c_overhead(options.build, options.calls)
    rows += python_overhead(options.build, options.calls)
    print("| call of a compiled function | microseconds per call |")
    print("|---|---:|")
    for label, micros in rows:
        print(f"| {label} | {micros:.1f} |")


if __name__ == "__main__":
    main()
