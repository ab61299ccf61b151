#!/usr/bin/env python3
"""Random-program differential testing of AMLS (fuzz/programs/dag.py).

  run.py --amls-run PATH [--seed S] [--count N | --seconds T]
         [--save DIR] [--ieee-sparse] [--replay FILE ...]

Each program runs through every configuration below and each result is
compared with the NumPy evaluation of the same DAG by the oracles' rule
(test/Oracles/comparison.py: NaN and infinities match only themselves). A
failing program is reduced (ops replaced by inputs holding their NumPy
values, outputs dropped, while the failure stays) and, with --save, written
as a JSON reproducer that --replay runs again. Prints one line per failure
and a summary by kind; exits non-zero on any failure.

Without --ieee-sparse, programs and comparison keep to docs/dml.md's
sparse-safe rule: the factors of * and %*% are finite (dag.py), and an
infinity whose sign a -0 stored by CSR as 0 flipped passes.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "test", "Oracles")]
from comparison import first_mismatch  # noqa: E402
import dag  # noqa: E402

CONFIGURATIONS = [
    ("optimized", ["--threads", "2"]),
    ("O0", ["--threads", "2", "--O0"]),
    ("unfused", ["--threads", "2", "--fuse=none"]),
    ("dense", ["--threads", "2", "--formats=dense"]),
    ("csr", ["--threads", "2", "--formats=csr"]),
    ("one-thread", ["--threads", "1"]),
]
RTOL = 1e-9
# Without --ieee-sparse, results are held to docs/dml.md's sparse-safe rule:
# a -0 that CSR stores as 0 may flip the sign of an infinity it divides.
IEEE_SPARSE = False


def write_csv(path, value):
    np.savetxt(path, np.atleast_2d(value), delimiter=",", fmt="%.17g")


def read_csv(path):
    return np.loadtxt(path, delimiter=",", ndmin=2, dtype=np.float64)


def only_signed_zero_flips(actual, expected, rtol, atol):
    """Whether every mismatching cell is an infinity of the other sign: a
    division by a -0 that a CSR matrix stored as 0, which docs/dml.md
    ("Semantics of numbers") states as the sparse-safe rule."""
    with np.errstate(invalid="ignore"):
        close = (actual == expected) | \
            (np.isnan(actual) & np.isnan(expected)) | \
            (np.isfinite(actual) & np.isfinite(expected) &
             (np.abs(actual - expected) <= atol + rtol * np.abs(expected)))
        flipped = np.isinf(expected) & (actual == -expected)
    return bool((close | flipped).all()) and bool(flipped.any())


def run_program(nodes, outputs, amls_run, flags, workdir):
    """Runs the program; returns (kind, message) of the first problem, or
    None. Kinds: crash, error, wrong, nan."""
    script = os.path.join(workdir, "program.dml")
    with open(script, "w") as out:
        out.write(dag.to_dml(nodes, outputs))
    command = [amls_run, script]
    for i, node in enumerate(nodes):
        if node.kind == "input":
            path = os.path.join(workdir, f"X{i}.csv")
            write_csv(path, node.value)
            command += ["--arg", f"X{i}={path}"]
    results, shapes = [], []
    for k in range(len(outputs)):
        for prefix, paths in (("R", results), ("D", shapes)):
            path = os.path.join(workdir, f"{prefix}{k}.csv")
            if os.path.exists(path):
                os.remove(path)
            paths.append(path)
            command += ["--arg", f"{prefix}{k}={path}"]
    try:
        run = subprocess.run(command + flags, capture_output=True, text=True,
                             timeout=120)
    except subprocess.TimeoutExpired:
        return "crash", "timed out after 120 s"
    if run.returncode < 0 or run.returncode > 1 or \
            "Stack dump" in run.stderr or "PLEASE submit" in run.stderr:
        return "crash", f"exit {run.returncode}: {run.stderr.strip()[-400:]}"
    if run.returncode != 0:
        return "error", run.stderr.strip()[-400:]
    values = dag.evaluate(nodes)
    for k, i in enumerate(outputs):
        expected = np.atleast_2d(np.asarray(values[i], dtype=np.float64))
        if not os.path.exists(results[k]) or not os.path.exists(shapes[k]):
            return "error", f"result {k} not written"
        shape = tuple(int(x) for x in read_csv(shapes[k]).ravel())
        if shape != expected.shape:
            return "wrong", (f"result {k} (v{i} = {nodes[i].kind}): shape "
                             f"{shape}, NumPy {expected.shape}")
        if expected.size == 0:
            continue
        actual = read_csv(results[k])
        if actual.shape != expected.shape:
            return "wrong", (f"result {k} (v{i}): {actual.shape} cells "
                             f"written, NumPy {expected.shape}")
        finite = expected[np.isfinite(expected)]
        scale = max(1.0, float(np.abs(finite).max())) if finite.size else 1.0
        mismatch = first_mismatch(actual, expected, RTOL, RTOL * scale)
        if mismatch and not IEEE_SPARSE and \
                only_signed_zero_flips(actual, expected, RTOL, RTOL * scale):
            mismatch = None
        if mismatch:
            nonfinite = not (np.isfinite(actual).all() and
                             np.isfinite(expected).all())
            return ("nan" if nonfinite else "wrong",
                    f"result {k} (v{i} = {nodes[i].kind}): {mismatch}")
    return None


def check(nodes, outputs, amls_run):
    """The first failing configuration: (label, kind, message) or None."""
    with tempfile.TemporaryDirectory(prefix="amls-progen-") as workdir:
        for label, flags in CONFIGURATIONS:
            problem = run_program(nodes, outputs, amls_run, flags, workdir)
            if problem:
                return (label,) + problem
    return None


def prune(nodes, outputs):
    """Drops nodes no output needs; renumbers."""
    live = set()
    stack = list(outputs)
    while stack:
        i = stack.pop()
        if i not in live:
            live.add(i)
            stack.extend(nodes[i].args)
    order = sorted(live)
    index = {old: new for new, old in enumerate(order)}
    kept = []
    for old in order:
        node = nodes[old]
        kept.append(dag.Node(node.kind, [index[a] for a in node.args],
                             node.shape, node.value, node.extra))
    return kept, [index[o] for o in outputs]


def reduce(nodes, outputs, amls_run, label, kind):
    """Shrinks a failing program while the same configuration fails with the
    same kind of failure."""
    flags = dict(CONFIGURATIONS)[label]

    def fails(candidate, outs):
        with tempfile.TemporaryDirectory(prefix="amls-progen-") as workdir:
            problem = run_program(candidate, outs, amls_run, flags, workdir)
        return problem is not None and problem[0] == kind

    for o in outputs:  # one output that still fails
        if fails(*prune(nodes, [o])):
            nodes, outputs = prune(nodes, [o])
            break
    else:  # a failure that needs several outputs: drop those it does not
        dropped = True
        while dropped and len(outputs) > 1:
            dropped = False
            for o in outputs:
                rest = prune(nodes, [x for x in outputs if x != o])
                if fails(*rest):
                    nodes, outputs = rest
                    dropped = True
                    break
    changed = True
    while changed:
        changed = False
        values = dag.evaluate(nodes)
        for i in range(len(nodes)):
            node = nodes[i]
            if node.kind in ("input", "scalar") or i in outputs or \
                    np.size(values[i]) == 0:  # no CSV file holds it
                continue
            replacement = (dag.Node("input", [], node.shape,
                                    np.atleast_2d(values[i]).copy())
                           if node.shape else
                           dag.Node("scalar", [], (), float(values[i])))
            candidate = nodes[:i] + [replacement] + nodes[i + 1:]
            candidate, outs = prune(candidate, outputs)
            if len(candidate) < len(nodes) and fails(candidate, outs):
                nodes, outputs, changed = candidate, outs, True
                break
    return nodes, outputs


def to_json(nodes, outputs, failure):
    def value(v):
        if isinstance(v, np.ndarray):
            return [[repr(float(x)) for x in row] for row in v]
        return None if v is None else repr(float(v))
    return json.dumps({
        "failure": failure,
        "outputs": outputs,
        "nodes": [{"kind": n.kind, "args": n.args, "shape": list(n.shape),
                   "value": value(n.value), "extra": n.extra}
                  for n in nodes],
    }, indent=1)


def from_json(text):
    data = json.loads(text)
    nodes = []
    for n in data["nodes"]:
        v = n["value"]
        if isinstance(v, list):
            v = np.array([[float(x) for x in row] for row in v])
        elif v is not None:
            v = float(v)
        extra = {k: tuple(x) if isinstance(x, list) else x
                 for k, x in n["extra"].items()}
        nodes.append(dag.Node(n["kind"], n["args"], tuple(n["shape"]), v,
                              extra))
    return nodes, data["outputs"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--save", help="folder for reduced reproducers")
    parser.add_argument("--replay", nargs="*", default=[])
    parser.add_argument("--ieee-sparse", action="store_true",
                        help="let NaN and infinities meet the implicit "
                             "zeros of CSR factors (dag.py)")
    options = parser.parse_args()
    global IEEE_SPARSE
    IEEE_SPARSE = options.ieee_sparse

    failures = {}
    if options.replay:
        for path in options.replay:
            nodes, outputs = from_json(open(path).read())
            problem = check(nodes, outputs, options.amls_run)
            name = os.path.basename(path)
            print(f"{'FAIL' if problem else 'PASS'}: {name}"
                  + (f" ({problem[0]}, {problem[1]}): {problem[2]}"
                     if problem else ""))
            if problem:
                failures[problem[1]] = failures.get(problem[1], 0) + 1
        return 1 if failures else 0

    start = time.time()
    seed, programs = options.seed, 0
    while True:
        if options.count is not None and programs >= options.count:
            break
        if options.seconds is not None and time.time() - start > options.seconds:
            break
        if options.count is None and options.seconds is None:
            break
        nodes, outputs = dag.random_program(seed,
                                            ieee_sparse=options.ieee_sparse)
        problem = check(nodes, outputs, options.amls_run)
        programs += 1
        if problem:
            label, kind, message = problem
            failures[kind] = failures.get(kind, 0) + 1
            small, outs = reduce(nodes, outputs, options.amls_run, label,
                                 kind)
            print(f"FAIL: seed {seed} ({label}, {kind}): {message}",
                  flush=True)
            print("  reduced to:\n    " +
                  dag.to_dml(small, outs).replace("\n", "\n    "), flush=True)
            if options.save:
                os.makedirs(options.save, exist_ok=True)
                path = os.path.join(options.save, f"seed-{seed}-{kind}.json")
                with open(path, "w") as out:
                    out.write(to_json(small, outs, [label, kind, message]))
        seed += 1
    summary = ", ".join(f"{n} {k}" for k, n in sorted(failures.items()))
    print(f"{programs} programs, {len(CONFIGURATIONS)} configurations each: "
          f"{summary or 'no failures'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
