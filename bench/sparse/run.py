#!/usr/bin/env python3
"""Sparse kernels: AMLS against SciPy and SuiteSparse:GraphBLAS, in one run
(`make bench-sparse`; `make bench` runs it with --quick).

What is measured, on the matrices of gen.py (generated once, cached in
build/bench/sparse/):

- the machine's read bandwidth at 1 and T threads (bandwidth.c: an OpenMP
  sum over 1.5 GiB of doubles, best of 10);
- every kernel of scipy_kernels.KERNELS (SpMV, t(A) %*% u, SpMM with 8 and 32
  dense columns, A * dense row vector, A * A, row/column/full sums, SpGEMM,
  PageRank 20 iterations, components to convergence) with
  * SciPy, single-threaded, in this process;
  * GraphBLAS at 1 and T threads (graphblas_bench.c, built here with cc);
  both timed inside their process, file reading excluded, at least 3 and at
  most --reps repetitions: the table shows the median and the best;
  * AMLS at T threads: programs/KERNEL.dml through amls-run. amls-run times
    the whole program, reading the file included, so each program runs the
    kernel K times in a loop, and the harness runs it with K1 and with K2
    iterations (amls-run --repeat: the fastest of R executions each):
    kernel = (T(K2) - T(K1)) / (K2 - K1). K1 makes the kernels take
    --amls-target seconds at SciPy's speed; K2 grows until its extra
    kernels take at least as long as the whole K1 run;
- the achieved bandwidth of SpMV, with the nominal CSR traffic
  nnz*(8+4) + (rows+1)*8 + rows*8 + cols*8 bytes over the best time, also
  for the runtime's SpMV alone (amls_spmv.c, built here against amls-run's
  libamls_runtime: the call compiled programs make, timed in one process
  as the anchors are, best of 100);
- end to end on a graph (graph_1m; g_unif with --quick): PageRank
  (examples/pagerank.dml) and components (examples/components.dml on the
  undirected graph) as separate processes that read the Matrix Market file,
  compute and write the result as CSV: wall time and peak memory (the
  process's maximum resident set, from wait4), results compared with SciPy's.

Every result is checked: GraphBLAS's and AMLS's checksums against SciPy's
(relative 1e-9), component iteration counts and labels exactly. A mismatch is
printed as WRONG and makes the run exit with status 1. When amls-run fails
(compile error, crash, out of memory under --amls-mem-gib, timeout) the cell
says n/a with the reason, and the amls-run log is kept in
build/bench/sparse/logs/. No number in the AMLS column is estimated.

Usage: run.py [--quick] [--amls-run PATH | --no-amls] [--threads T]
              [--matrices a,b] [--kernels a,b] [--mtx FILE ...] [--no-e2e]
(run.py --help lists the repetition, target and limit options.)
"""

import os
import sys

# SciPy runs single-threaded: one OpenBLAS thread for NumPy (set before NumPy
# loads); the child processes get the original environment.
CHILD_ENV = dict(os.environ)
os.environ["OPENBLAS_NUM_THREADS"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"

import argparse  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import scipy  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import scipy_kernels  # noqa: E402
from scipy_kernels import KERNELS, BY_NAME  # noqa: E402

RTOL = 1e-9

# The kernels each matrix runs (SpGEMM only on the 100k graphs: on graph_1m
# its result would not fit; t_10pct is not square).
MATRIX_KERNELS = {
    "g_unif": [k.name for k in KERNELS],
    "g_pow": [k.name for k in KERNELS],
    "t_10pct": [k.name for k in KERNELS if not k.square_only],
    "graph_1m": [k.name for k in KERNELS if k.name != "spgemm"],
}
QUICK_MATRICES = ["g_unif", "g_pow"]
FULL_MATRICES = ["g_unif", "g_pow", "t_10pct", "graph_1m"]
# End-to-end runs: (directed graph for PageRank, undirected for components).
E2E_GRAPHS = {"quick": ("g_unif", "g_unif_sym"),
              "full": ("graph_1m", "graph_1m_sym")}

FAILURES = []  # every WRONG result, printed again at the end


def log(message):
    print(message, file=sys.stderr, flush=True)


def wrong(message):
    FAILURES.append(message)
    log("WRONG: " + message)


def close(value, expected, rtol=RTOL):
    return abs(value - expected) <= rtol * max(abs(expected), 1e-300)


# ---------------------------------------------------------------------------
# Processes
# ---------------------------------------------------------------------------

class Finished:
    """A finished child process: rc (negative: killed by that signal; None:
    timed out), wall seconds, peak resident memory in bytes, stdout and the
    path of the log holding stderr."""

    def __init__(self, rc, wall, peak, stdout, log_path):
        self.rc, self.wall, self.peak = rc, wall, peak
        self.stdout, self.log_path = stdout, log_path

    @property
    def stderr(self):
        with open(self.log_path, errors="replace") as text:
            return text.read()


def run_process(command, log_path, timeout, mem_gib=None):
    """Runs `command` with stdout and stderr in files (stderr kept as
    log_path), an address-space limit of mem_gib GiB and a timeout."""
    def limit():
        if mem_gib:
            size = int(mem_gib * (1 << 30))
            resource.setrlimit(resource.RLIMIT_AS, (size, size))

    out_path = log_path + ".stdout"
    with open(out_path, "w") as out, open(log_path, "w") as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err,
                                 env=CHILD_ENV, preexec_fn=limit,
                                 start_new_session=True)
        rc, usage = None, None
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                rc = os.waitstatus_to_exitcode(status)
                break
            if time.perf_counter() - start > timeout:
                os.killpg(child.pid, signal.SIGKILL)
                _, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.01)
        child.returncode = rc if rc is not None else -9  # reaped above
        wall = time.perf_counter() - start
    with open(out_path) as text:
        stdout = text.read()
    os.remove(out_path)
    return Finished(rc, wall, usage.ru_maxrss * 1024, stdout, log_path)


def crash_site(text):
    """Where a crashed LLVM tool died, from its stack dump: its innermost two
    frames inside AMLS (or the innermost named frame if none is)."""
    names, own = [], []
    for frame in re.finditer(r"^ *#\d+ 0x[0-9a-f]+ (.*)$", text, re.M):
        line = frame.group(1)
        name = re.sub(r"\(anonymous namespace\)::", "", line)
        name = name.split("(")[0].strip()
        if not name or name.startswith("llvm::sys::"):
            continue
        names.append(name)
        if "amls" in line and ("amls-run+" in line or ".cpp:" in line):
            own.append(name)
    chain = own[:2] or names[:1]
    return " in " + " < ".join(chain) if chain else ""


def failure_reason(done, timeout, mem_gib):
    """A one-line reason for a failed run, from its exit and stderr."""
    if done.rc is None:
        return f"timeout after {timeout:.0f} s"
    text = done.stderr
    patterns = [r"LLVM ERROR: [^\n]*", r"error: [^\n]*",
                r"terminate called[^\n]*", r"Assertion [^\n]*",
                r"amls-run: [^\n]*"]
    for pattern in patterns:
        found = re.search(pattern, text)
        if found:
            reason = found.group(0)
            break
    else:
        reason = (f"exit status {done.rc}" if done.rc >= 0 else
                  f"crashed ({signal.Signals(-done.rc).name})")
        reason += crash_site(text)
    if done.rc == 0:
        reason = "no result written"
    if mem_gib and ("bad_alloc" in text or "out of memory" in text):
        reason += f" (address space limited to {mem_gib:g} GiB)"
    reason = re.sub(r"\s+", " ", reason)
    return reason if len(reason) <= 300 else reason[:297] + "..."


# ---------------------------------------------------------------------------
# Tools: the bandwidth and GraphBLAS programs, built with cc
# ---------------------------------------------------------------------------

def build_tool(options, name, libraries, flags=("-O3", "-march=native",
                                                 "-fopenmp"), newer_than=()):
    source = os.path.join(HERE, name + ".c")
    binary = os.path.join(options.out, "bin", name)
    if (os.path.exists(binary) and all(
            os.path.getmtime(binary) >= os.path.getmtime(dependency)
            for dependency in (source,) + tuple(newer_than))):
        return binary
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    command = [options.cc] + list(flags) + ["-Wall", source, "-o",
                                            binary] + libraries
    log("build: " + " ".join(command))
    built = subprocess.run(command, capture_output=True, text=True)
    if built.returncode != 0:
        sys.exit(f"cannot build {name}:\n{built.stderr}")
    return binary


def measure_bandwidth(binary, threads):
    counts = sorted({1, threads})
    result = subprocess.run([binary] + [str(t) for t in counts],
                            capture_output=True, text=True, check=True)
    bandwidth = {}
    for line in result.stdout.splitlines():
        fields = dict(field.split("=") for field in line.split())
        bandwidth[int(fields["threads"])] = float(fields["best_gbs"])
    return bandwidth


def parse_lines(text, key):
    """The `key=...` lines of graphblas_bench or e2e_scipy as dicts."""
    rows = []
    for line in text.splitlines():
        if line.startswith(key + "="):
            rows.append(dict(field.split("=", 1) for field in line.split()))
    return rows


# ---------------------------------------------------------------------------
# The three systems on one matrix
# ---------------------------------------------------------------------------

class Timing:
    """One system's time for one kernel (seconds), or why there is none
    (`missing`: shown as a numbered note under the table); `wrong` marks a
    result that differs from SciPy's."""

    def __init__(self, median=None, best=None, missing=None, wrong=False,
                 detail=""):
        self.median, self.best = median, best
        self.missing, self.wrong, self.detail = missing, wrong, detail

    def cell(self, notes):
        if self.wrong:
            return "**WRONG**"
        if self.median is None:
            return f"n/a [{notes.number(self.missing)}]"
        text = f"{self.median * 1e3:.3g}"
        if self.best is not None and self.best != self.median:
            text += f" ({self.best * 1e3:.3g})"
        return text


class Notes:
    """The numbered reasons of a table's n/a cells."""

    def __init__(self):
        self.reasons = {}

    def number(self, reason):
        return self.reasons.setdefault(reason, len(self.reasons) + 1)

    def lines(self, logs):
        if not self.reasons:
            return []
        return (["", f"n/a (logs in {logs}):"]
                + [f"[{n}] {reason}" for reason, n in self.reasons.items()])


def run_scipy(A, kernels, options):
    """SciPy times, checksums and component iterations per kernel."""
    results = {}
    for name in kernels:
        fn = scipy_kernels.prepare(name, A)
        times, result = scipy_kernels.time_kernel(fn, options.reps,
                                                  options.budget)
        iterations = None
        if name == "components":
            result, iterations = result
        results[name] = dict(times=times, checksum=scipy_kernels.checksum(
            result), iterations=iterations)
        log(f"  scipy {name}: median {np.median(times) * 1e3:.3g} ms "
            f"({len(times)} reps)")
        del fn, result
    return results


def run_graphblas(binary, matrix, path, kernels, threads, options, scipy):
    command = [binary, "kernels", path, "--threads", str(threads),
               "--reps", str(options.reps), "--budget", str(options.budget),
               "--kernels", ",".join(kernels)]
    log_path = os.path.join(options.logs, f"{matrix}-graphblas-{threads}t.log")
    done = run_process(command, log_path, options.timeout)
    timings = {}
    rows = {row["kernel"]: row for row in parse_lines(done.stdout, "kernel")}
    for name in kernels:
        row = rows.get(name)
        if row is None:
            reason = failure_reason(done, options.timeout, None)
            wrong(f"{matrix} {name}: graphblas_bench {threads}t failed: "
                  f"{reason} ({log_path})")
            timings[name] = Timing(missing=f"graphblas_bench failed: {reason}")
            continue
        timing = Timing(float(row["median_s"]), float(row["best_s"]))
        expected = scipy[name]
        if not close(float(row["checksum"]), expected["checksum"]):
            wrong(f"{matrix} {name}: GraphBLAS {threads}t checksum "
                  f"{row['checksum']}, SciPy {expected['checksum']!r}")
            timing.wrong = True
        if name == "components" and int(row["iterations"]) != \
                expected["iterations"]:
            wrong(f"{matrix} components: GraphBLAS {threads}t took "
                  f"{row['iterations']} iterations, SciPy "
                  f"{expected['iterations']}")
            timing.wrong = True
        timings[name] = timing
    log(f"  graphblas {threads}t: {len(rows)} kernels in {done.wall:.1f} s")
    return timings


def amls_execute(options, matrix, name, path, iterations):
    """One amls-run of programs/NAME.dml with the loop run `iterations`
    times: (execute seconds, checksum line, None) or (None, None, reason)."""
    program = os.path.join(HERE, "programs", name + ".dml")
    command = [options.amls_run, program, "--arg", f"A={path}",
               "--arg", f"K={iterations}", f"--threads={options.threads}",
               "--timing", f"--repeat={options.amls_repeat}"]
    log_path = os.path.join(options.logs,
                            f"{matrix}-amls-{name}-K{iterations}.log")
    done = run_process(command, log_path, options.amls_timeout,
                       options.amls_mem_gib)
    if done.rc != 0:
        return None, None, failure_reason(done, options.amls_timeout,
                                          options.amls_mem_gib)
    timing = re.search(r"compile ([\d.]+), execute ([\d.]+)", done.stderr)
    checksums = [line for line in done.stdout.splitlines()
                 if line.startswith("checksum ")]
    if not timing or not checksums:
        return None, None, f"no timing or checksum in the output ({log_path})"
    if len(set(checksums)) != 1:
        return None, None, ("results differ between repetitions: "
                            + " / ".join(sorted(set(checksums))))
    return float(timing.group(2)) / 1e3, checksums[0], None


def check_amls_line(matrix, name, line, expected):
    """Whether AMLS's `checksum X [iterations N]` line matches SciPy."""
    fields = line.split()
    if not close(float(fields[1]), expected["checksum"]):
        wrong(f"{matrix} {name}: AMLS printed '{line}', SciPy's checksum is "
              f"{expected['checksum']!r}")
        return False
    if name == "components" and int(fields[3]) != expected["iterations"]:
        wrong(f"{matrix} components: AMLS took {fields[3]} iterations, "
              f"SciPy {expected['iterations']}")
        return False
    return True


AMLS_MAX_K = 100_000


def run_amls(options, matrix, path, name, scipy, nnz, bandwidth):
    """AMLS's time per kernel, checked: the program with K1 and with K2 > K1
    loop iterations, (T(K2) - T(K1)) / (K2 - K1). K1 makes the kernels take
    --amls-target seconds at SciPy's speed; K2 grows until the K2 - K1
    extra kernels take at least as long as the whole K1 run (reading the
    file included), so that the noise of reading is small against them."""
    if not options.amls_run:
        return Timing(missing="not run (--no-amls)")
    scipy_time = float(np.median(scipy[name]["times"]))
    k1 = int(min(max(np.ceil(options.amls_target / scipy_time), 2), 5000))
    t1, line, reason = amls_execute(options, matrix, name, path, k1)
    if reason is None and not check_amls_line(matrix, name, line, scipy[name]):
        return Timing(wrong=True)
    k2, t2, started = k1, t1, time.perf_counter()
    while reason is None:
        if k2 == k1:
            k2 = 2 * k1
        elif t2 > t1:  # aim at K2 - K1 kernels taking 1.5 T(K1)
            per_kernel = (t2 - t1) / (k2 - k1)
            k2 = min(k1 + int(np.ceil(1.5 * t1 / per_kernel)), 16 * k2)
        else:
            k2 = 4 * k2
        k2 = min(k2, AMLS_MAX_K)
        t2, line2, reason = amls_execute(options, matrix, name, path, k2)
        if reason is not None:
            break
        if line2 != line and not check_amls_line(matrix, name, line2,
                                                 scipy[name]):
            return Timing(wrong=True)
        if (t2 - t1 >= t1 or k2 == AMLS_MAX_K
                or time.perf_counter() - started > options.amls_budget):
            break
    if reason is not None:
        log(f"  amls {name}: n/a ({reason})")
        return Timing(missing=f"amls-run: {reason}")
    detail = f"K={k1}: {t1:.3f} s, K={k2}: {t2:.3f} s"
    log(f"  amls {name}: {detail}")
    seconds = (t2 - t1) / (k2 - k1)
    if seconds <= 0:
        return Timing(missing=f"{k2} iterations were not slower than {k1}",
                      detail=detail)
    # Reading the values once at 10x the machine's bandwidth is a floor: a
    # faster kernel was not executed in every iteration.
    if nnz * 8 / seconds > 10 * max(bandwidth.values()) * 1e9:
        return Timing(missing="implausibly fast: the kernel was not "
                              "executed in every iteration", detail=detail)
    return Timing(seconds, None, detail=detail)


def run_amls_spmv(options, tools, matrix, path, scipy):
    """The best time of the runtime's SpMV alone (amls_spmv.c), as the
    anchors are timed, or None where it fails or disagrees with SciPy."""
    log_path = os.path.join(options.logs, f"{matrix}-amls-spmv-kernel.log")
    done = run_process([tools["amls_spmv"], path, str(options.threads),
                        "100"], log_path,
                       options.amls_timeout)
    rows = parse_lines(done.stdout, "kernel") if done.rc == 0 else []
    if not rows:
        wrong(f"{matrix} spmv: amls_spmv failed ({log_path})")
        return None
    if not close(float(rows[0]["checksum"]), scipy["spmv"]["checksum"]):
        wrong(f"{matrix} spmv: amls_spmv's checksum {rows[0]['checksum']} "
              f"is not SciPy's {scipy['spmv']['checksum']!r}")
        return None
    log(f"  amls spmv kernel alone: best {float(rows[0]['best_s']) * 1e3:.3g}"
        f" ms, median {float(rows[0]['median_s']) * 1e3:.3g} ms")
    return float(rows[0]["best_s"])


def ratio(a, b):
    if a is None or b is None or a.median is None or b.median is None:
        return "—"
    if a.wrong or b.wrong:
        return "—"
    return f"{a.median / b.median:.2f}"


def bench_matrix(options, matrix, path, kernels, tools, bandwidth):
    """All kernels of one matrix: its table, SpMV bandwidth and notes."""
    log(f"[{matrix}] reading {path}")
    A = gen.read_mtx(path)
    m, n = A.shape
    nnz = A.nnz
    if m != n:
        kernels = [k for k in kernels if not BY_NAME[k].square_only]
    scipy = run_scipy(A, kernels, options)
    del A
    threads = options.threads
    graphblas1 = run_graphblas(tools["graphblas_bench"], matrix, path,
                               kernels, 1, options, scipy)
    graphblasT = run_graphblas(tools["graphblas_bench"], matrix, path,
                               kernels, threads, options, scipy)
    amls = {name: run_amls(options, matrix, path, name, scipy, nnz, bandwidth)
            for name in kernels}
    amls_kernel = (run_amls_spmv(options, tools, matrix, path, scipy)
                   if "spmv" in kernels and "amls_spmv" in tools else None)

    notes = Notes()
    lines = [f"### {matrix}: {m} x {n}, {nnz} non-zeros", "",
             "Milliseconds, median (best) of the repetitions; AMLS: "
             "(T(K2) - T(K1)) / (K2 - K1). Ratios: time / time (below 1: "
             "the first is faster).", "",
             f"| kernel | SciPy 1t | GraphBLAS 1t | GraphBLAS {threads}t | "
             f"AMLS {threads}t | AMLS/SciPy | AMLS/GraphBLAS-{threads}t | "
             f"GraphBLAS-{threads}t/SciPy |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name in kernels:
        times = scipy[name]["times"]
        s = Timing(float(np.median(times)), times[0])
        label = BY_NAME[name].label
        if name == "components":
            label += f", {scipy[name]['iterations']} it."
        lines.append(f"| {label} | {s.cell(notes)} | "
                     f"{graphblas1[name].cell(notes)} | "
                     f"{graphblasT[name].cell(notes)} | "
                     f"{amls[name].cell(notes)} | "
                     f"{ratio(amls[name], s)} | "
                     f"{ratio(amls[name], graphblasT[name])} | "
                     f"{ratio(graphblasT[name], s)} |")
    if "spmv" in kernels:
        spmv_bytes = nnz * 12 + (m + 1) * 8 + m * 8 + n * 8
        systems = [("SciPy", 1, scipy["spmv"]["times"][0]),
                   ("GraphBLAS", 1, graphblas1["spmv"].best),
                   ("GraphBLAS", threads, graphblasT["spmv"].best),
                   ("AMLS", threads, amls["spmv"].median)]
        if amls_kernel is not None:
            systems.append(("AMLS kernel alone", threads, amls_kernel))
        rates = []
        for system, t, seconds in systems:
            if seconds is None:
                rates.append(f"{system} {t}t n/a")
                continue
            gbs = spmv_bytes / seconds / 1e9
            rates.append(f"{system} {t}t {gbs:.1f} GB/s "
                         f"({gbs / bandwidth[t]:.0%})")
        lines += ["", f"SpMV achieved bandwidth ({spmv_bytes / 1e6:.0f} MB "
                  f"of nominal CSR traffic / best time; in parentheses the "
                  f"fraction of the machine's read bandwidth at the same "
                  f"threads): " + "; ".join(rates) + "."]
    lines += notes.lines(options.logs)
    details = [f"{name} {amls[name].detail}" for name in kernels
               if amls[name].detail]
    if details:
        lines += ["", "AMLS executions (amls-run, fastest of "
                  f"{options.amls_repeat}): " + "; ".join(details) + "."]
    return lines


# ---------------------------------------------------------------------------
# End to end
# ---------------------------------------------------------------------------

def read_vector(file_path):
    return np.loadtxt(file_path, delimiter=",", ndmin=2)[:, 0]


def e2e_command(options, tools, system, threads, algorithm, graph, out):
    if system == "SciPy":
        return ["/usr/bin/python3", os.path.join(HERE, "e2e_scipy.py"),
                algorithm, graph, out]
    if system == "GraphBLAS":
        return [tools["graphblas_bench"], algorithm, graph, out,
                "--threads", str(threads)]
    if algorithm == "pagerank":
        return [options.amls_run, os.path.join(ROOT, "examples",
                                               "pagerank.dml"),
                "--arg", f"G={graph}", "--arg", f"p={out}",
                "--arg", f"alpha={scipy_kernels.ALPHA}",
                "--arg", f"maxi={scipy_kernels.PAGERANK_ITERATIONS}",
                f"--threads={threads}"]
    return [options.amls_run, os.path.join(ROOT, "examples",
                                           "components.dml"),
            "--arg", f"G={graph}", "--arg", f"C={out}",
            f"--threads={threads}"]


def compare_output(algorithm, result, reference):
    """Why `result` differs from SciPy's `reference`, or None."""
    if result.shape != reference.shape:
        return f"{result.shape[0]} values, SciPy {reference.shape[0]}"
    if algorithm == "pagerank":
        error = np.max(np.abs(result - reference))
        if not error <= RTOL * np.max(np.abs(reference)):
            return f"differs from SciPy by {error:.3g}"
        return None
    if not np.array_equal(result, reference):
        return f"{int(np.sum(result != reference))} labels differ from SciPy's"
    return None


def bench_end_to_end(options, tools):
    """PageRank and components as whole programs, one process each."""
    directed, undirected = E2E_GRAPHS["quick" if options.quick else "full"]
    work = os.path.join(options.out, "e2e")
    os.makedirs(work, exist_ok=True)
    threads = options.threads
    systems = [("SciPy", 1), ("GraphBLAS", 1), ("GraphBLAS", threads)]
    if options.amls_run:
        systems.append(("AMLS", threads))
    notes = Notes()
    rows = []
    for algorithm, name in (("pagerank", directed),
                            ("components", undirected)):
        graph = gen.path(name, options.out)
        reference = None
        for system, t in systems:
            label = f"{system} {t}t"
            out = os.path.join(work, f"{algorithm}-{system}-{t}t.csv")
            if os.path.exists(out):
                os.remove(out)
            log_path = os.path.join(options.logs,
                                    f"e2e-{algorithm}-{system}-{t}t.log")
            is_amls = system == "AMLS"
            done = run_process(
                e2e_command(options, tools, system, t, algorithm, graph, out),
                log_path, options.amls_timeout if is_amls else options.timeout,
                options.amls_mem_gib if is_amls else None)
            peak = f"{done.peak / 2**30:.2f}"
            if done.rc != 0 or not os.path.exists(out):
                reason = failure_reason(done, options.amls_timeout,
                                        options.amls_mem_gib)
                log(f"  e2e {algorithm} {label}: n/a ({reason})")
                if not is_amls:
                    wrong(f"end-to-end {algorithm} {label} failed: {reason}")
                rows.append(f"| {algorithm} on {name} | {label} | "
                            f"n/a [{notes.number(reason)}] | {peak} | — |")
                continue
            result = read_vector(out)
            if reference is None:
                reference = result
            problem = compare_output(algorithm, result, reference)
            if problem:
                wrong(f"end-to-end {algorithm} {label}: {problem} ({out})")
            inside = "—"
            for row in parse_lines(done.stdout, "e2e"):
                inside = (f"read {float(row['read_s']):.2f}, compute "
                          f"{float(row['compute_s']):.2f}")
            log(f"  e2e {algorithm} {label}: {done.wall:.2f} s, {peak} GiB "
                f"({inside})")
            wall = "**WRONG**" if problem else f"{done.wall:.2f}"
            rows.append(f"| {algorithm} on {name} | {label} | {wall} | "
                        f"{peak} | {inside} |")
    return ([f"### End to end: examples/pagerank.dml ({directed}) and "
             f"examples/components.dml ({undirected})", "",
             "One process each: read the .mtx, compute (PageRank 20 "
             "iterations; components to convergence), write the result as "
             "CSV. Peak memory: the process's maximum resident set.", "",
             "| algorithm | system | wall (s) | peak memory (GiB) | "
             "inside the process (s) |", "|---|---|---:|---:|---|"]
            + rows + notes.lines(options.logs))


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(
        description="Sparse kernels: AMLS against SciPy and GraphBLAS.")
    parser.add_argument("--quick", action="store_true",
                        help="the 100k matrices only, fewer repetitions")
    parser.add_argument("--amls-run",
                        default=os.path.join(ROOT, "build", "bin", "amls-run"))
    parser.add_argument("--no-amls", action="store_true",
                        help="anchors only: no AMLS column")
    parser.add_argument("--threads", type=int, default=os.cpu_count(),
                        help="threads of GraphBLAS's second column and AMLS")
    parser.add_argument("--matrices", help="comma-separated, default: all "
                        "of the mode (" + ", ".join(FULL_MATRICES) + ")")
    parser.add_argument("--kernels", help="comma-separated subset of: "
                        + ", ".join(k.name for k in KERNELS))
    parser.add_argument("--mtx", action="append", default=[],
                        metavar="FILE", help="also run on this Matrix Market "
                        "file ('coordinate ... general'; repeatable)")
    parser.add_argument("--no-e2e", action="store_true",
                        help="skip the end-to-end runs")
    parser.add_argument("--reps", type=int, help="most repetitions per "
                        "kernel (default 10, --quick 5)")
    parser.add_argument("--budget", type=float, help="seconds per kernel "
                        "after 3 repetitions (default 5, --quick 2)")
    parser.add_argument("--amls-repeat", type=int,
                        help="amls-run --repeat (default 3)")
    parser.add_argument("--amls-target", type=float, help="seconds K "
                        "kernels take at SciPy's speed (default 1, --quick "
                        "0.3)")
    parser.add_argument("--amls-budget", type=float, help="seconds after "
                        "which a kernel's AMLS runs stop growing K (default "
                        "300, --quick 60)")
    parser.add_argument("--amls-timeout", type=float, default=900)
    parser.add_argument("--amls-mem-gib", type=float, default=12,
                        help="address-space limit of every amls-run")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="limit for the SciPy and GraphBLAS processes")
    parser.add_argument("--cc", default="cc")
    parser.add_argument("--out", default=gen.DEFAULT_OUT)
    options = parser.parse_args()
    quick = options.quick
    options.reps = options.reps or (5 if quick else 10)
    options.budget = options.budget or (2.0 if quick else 5.0)
    options.amls_repeat = options.amls_repeat or 3
    options.amls_target = options.amls_target or (0.3 if quick else 1.0)
    options.amls_budget = options.amls_budget or (60 if quick else 300)
    options.out = os.path.abspath(options.out)
    options.logs = os.path.join(options.out, "logs")
    os.makedirs(options.logs, exist_ok=True)
    options.kernels = options.kernels.split(",") if options.kernels else None
    for name in options.kernels or []:
        if name not in BY_NAME:
            parser.error(f"unknown kernel '{name}'")
    matrices = (options.matrices.split(",") if options.matrices is not None
                else QUICK_MATRICES if quick else FULL_MATRICES)
    matrices = [name for name in matrices if name]
    for name in matrices:
        if name not in MATRIX_KERNELS:
            parser.error(f"unknown matrix '{name}'; known: "
                         + ", ".join(MATRIX_KERNELS))
    if options.no_amls:
        options.amls_run = None
    elif not os.access(options.amls_run, os.X_OK):
        sys.exit(f"no amls-run at {options.amls_run} (build it, pass "
                 f"--amls-run, or --no-amls)")
    else:
        options.amls_run = os.path.abspath(options.amls_run)

    tools = {"bandwidth": build_tool(options, "bandwidth", []),
             "graphblas_bench": build_tool(options, "graphblas_bench",
                                           ["-lgraphblas", "-lm"])}
    if options.amls_run:
        # amls-run's build: BUILD/bin/amls-run, BUILD/lib, BUILD/include.
        build_dir = os.path.dirname(os.path.dirname(options.amls_run))
        runtime = os.path.join(build_dir, "lib", "libamls_runtime.so")
        tools["amls_spmv"] = build_tool(
            options, "amls_spmv",
            [f"-L{os.path.dirname(runtime)}", "-lamls_runtime",
             f"-Wl,-rpath,{os.path.dirname(runtime)}"],
            flags=("-O2", f"-I{os.path.join(ROOT, 'include')}",
                   f"-I{os.path.join(build_dir, 'include')}"),
            newer_than=(runtime,))
    bandwidth = measure_bandwidth(tools["bandwidth"], options.threads)
    graphblas_version = subprocess.run(
        [tools["graphblas_bench"], "version"], capture_output=True,
        text=True).stdout.strip()
    built = (time.strftime("%Y-%m-%d %H:%M", time.localtime(
        os.path.getmtime(options.amls_run))) if options.amls_run else None)
    model = next((line.split(":", 1)[1].strip()
                  for line in open("/proc/cpuinfo")
                  if line.startswith("model name")), "unknown CPU")
    header = [f"machine: {os.cpu_count()} cores ({model}); read bandwidth "
              + ", ".join(f"{gbs:.1f} GB/s at {t} thread(s)"
                          for t, gbs in sorted(bandwidth.items()))
              + " (bandwidth.c, 1.5 GiB, best of 10)",
              f"SciPy {scipy.__version__} (1 thread), {graphblas_version}, "
              f"AMLS: " + (f"{options.amls_run} (built {built}) at "
                           f"{options.threads} thread(s), amls-run --repeat "
                           f"{options.amls_repeat}" if options.amls_run
                           else "not run")]
    for line in header:
        log(line)

    sections = []
    selected = options.kernels or [k.name for k in KERNELS]
    for matrix in matrices:
        kernels = [k for k in MATRIX_KERNELS[matrix] if k in selected]
        sections.append(bench_matrix(options, matrix,
                                     gen.path(matrix, options.out), kernels,
                                     tools, bandwidth))
    for path in options.mtx:
        name = os.path.splitext(os.path.basename(path))[0]
        sections.append(bench_matrix(options, name, os.path.abspath(path),
                                     selected, tools, bandwidth))
    if not options.no_e2e:
        sections.append(bench_end_to_end(options, tools))

    print()
    print("\n".join(header))
    for section in sections:
        print()
        print("\n".join(section))
    if FAILURES:
        print()
        print("WRONG RESULTS:")
        for failure in FAILURES:
            print("- " + failure)
        sys.exit(1)


if __name__ == "__main__":
    main()
