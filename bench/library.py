#!/usr/bin/env python3
"""The DML library's ML algorithms against the same algorithms in NumPy/SciPy,
on the examples' data (examples/reference/NAME.py, --size small|large).

For each algorithm, the generated data goes to
  - the hand-written example (examples/NAME.dml) where there is one,
  - a script calling the library function (DRIVERS below),
  - the same algorithm in NumPy/SciPy: the examples' references for l2svm,
    multiLogReg, lmCG and the per-class l2svm of msvm; test/Integration's
    oracles for kmeans (the library's runs, library_ml.py) and lm (the
    normal equations, library.py); and below, statement by statement after
    the library's DML, glm (binomial, logit: Fisher scoring with conjugate
    gradients inside), pageRank's power iterations, components' label
    propagation, pca's covariance eigenvectors and naiveBayes's counts,
and every result is checked against NumPy's. The library's time is
measured by the driver itself (DML's time() after reading the inputs and
before writing the result; best of --repeat executions of the compiled
program); the examples' time is amls-run's execute time minus that of a
script that only reads the same inputs (noisy for short runs). Reading the
files is left out on both sides; NumPy times are the algorithm alone (best
of --repeat).

Usage: library.py --amls-run build/bin/amls-run [--size large]
                  [--repeat 3] [--threads 2] [--only l2svm,...]
                  [--amls-flags="--sums=plain ..."]
"""

import argparse
import importlib.util
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
import scipy.sparse  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples", "reference"))
import common  # noqa: E402


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def reference(name):
    return load(os.path.join(ROOT, "examples", "reference", name + ".py"),
                name.replace("-", "_") + "_ref")


# Each algorithm: the example data it runs on, the example script (if any),
# the library call (writing its result to $out) and the inputs it reads.
ALGORITHMS = {
    "l2svm": dict(data="l2svm", example="l2svm", reads="XY", driver="""
w = l2svm(X=read($X), Y=read($Y), intercept=$icpt, epsilon=$tol, reg=$reg,
  maxIterations=$maxi, maxii=$maxii, verbose=FALSE)
write(w, $out, format="csv")
"""),
    "mlogreg": dict(data="mlogreg", example="mlogreg", reads="XY", driver="""
B = multiLogReg(X=read($X), Y=read($Y), icpt=$icpt, tol=$tol, reg=$reg,
  maxi=$maxi, maxii=$maxii, verbose=FALSE)
write(B, $out, format="csv")
"""),
    "kmeans": dict(data="kmeans", example="kmeans", reads="X", driver="""
X = read($X)
[C, Y] = kmeans(X=X, k=$k, runs=1, max_iter=$maxi, eps=$eps,
  avg_sample_size_per_centroid=nrow(X), seed=$seed)
write(C, $out, format="csv")
"""),
    "lmCG": dict(data="linreg-cg", example="linreg-cg", reads="Xy", driver="""
B = lmCG(X=read($X), y=read($y), icpt=$icpt, reg=$reg, tol=$tol, maxi=$maxi,
  verbose=FALSE)
write(B, $out, format="csv")
"""),
    "lm": dict(data="linreg-cg", reads="Xy", driver="""
B = lm(X=read($X), y=read($y), icpt=$icpt, reg=$reg, verbose=FALSE)
write(B, $out, format="csv")
"""),
    "glm": dict(data="l2svm", reads="XY", driver="""
B = glm(X=read($X), Y=read($Y), dfam=2, link=2, yneg=-1, icpt=1, reg=$reg,
  tol=1e-9, verbose=FALSE)
write(B, $out, format="csv")
"""),
    "msvm": dict(data="mlogreg", reads="XY", driver="""
W = msvm(X=read($X), Y=read($Y), intercept=TRUE, epsilon=0.001, reg=1.0,
  maxIterations=100, verbose=FALSE)
write(W, $out, format="csv")
"""),
    "naiveBayes": dict(data="counts", reads="XY", driver="""
[prior, conditionals] = naiveBayes(D=read($X), C=read($Y), laplace=1,
  verbose=FALSE)
write(cbind(prior, conditionals), $out, format="csv")
"""),
    "pca": dict(data="linreg-cg", reads="X", driver="""
[R, V, C, S] = pca(X=read($X), K=10, center=TRUE, scale=TRUE)
# R's squared sum checks the projection without writing 1,000,000 cells.
write(rbind(V, matrix(sum(R ^ 2), rows=1, cols=ncol(V))), $out,
  format="csv")
"""),
    "pageRank": dict(data="pagerank", example="pagerank", reads="G",
                     driver="""
A = read($G)
n = nrow(A)
G = t(A / rowSums(A))
p = pageRank(G=G, p=matrix(1 / n, rows=n, cols=1),
  e=matrix(1, rows=n, cols=1), u=matrix(1 / n, rows=1, cols=n),
  alpha=$alpha, max_iter=$maxi)
write(p, $out, format="csv")
"""),
    "components": dict(data="components", example="components", reads="G",
                       driver="""
C = components(G=read($G), verbose=FALSE)
write(C, $out, format="csv")
"""),
}


def counts(directory, size):
    """Word counts of documents in classes (naiveBayes's input): Poisson
    counts whose rates depend on the class."""
    n, m, k = (100000, 100, 10) if size == "large" else (500, 20, 4)
    rng = np.random.default_rng(61)
    C = rng.integers(1, k + 1, n)
    rates = rng.gamma(2.0, 1.0, (k, m))
    D = rng.poisson(rates[C - 1]).astype(float)
    paths = {name: os.path.join(directory, name + "-counts.csv")
             for name in "XY"}
    np.savetxt(paths["X"], D, delimiter=",", fmt="%d")
    np.savetxt(paths["Y"], C, delimiter=",", fmt="%d")
    return paths


def fmt(value):
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    return repr(value) if isinstance(value, float) else str(value)


# Extra amls-run options for every run (--amls-flags, e.g. "--sums=plain").
AMLS_FLAGS = []


def run_amls(amls_run, script, args, repeat, threads):
    """amls-run's finished process, --repeat times the compiled program."""
    command = [amls_run, script, "--timing", f"--repeat={repeat}",
               f"--threads={threads}"] + AMLS_FLAGS
    for key, value in args.items():
        command += ["--arg", f"{key}={fmt(value)}"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{run.stderr}")
    return run


def amls(amls_run, script, args, repeat, threads):
    """amls-run's best execute time in seconds."""
    run = run_amls(amls_run, script, args, repeat, threads)
    timing = re.search(r"compile ([\d.]+), execute ([\d.]+)", run.stderr)
    return float(timing.group(2)) / 1e3


TIMER = "amls-library-seconds"


def timed(driver, reads):
    """`driver` reading its inputs first and printing the seconds from then
    until its final write statement."""
    lines = driver.strip("\n").split("\n")
    last = max(i for i, line in enumerate(lines) if line.startswith("write("))
    body = "\n".join(lines[:last])
    for k in reads:
        body = body.replace(f"read(${k})", f"input_{k}")
    return "\n".join(
        [f"input_{k} = read(${k})" for k in reads]
        + ["start = time()", body,
           f'print("{TIMER} " + (time() - start) / 1e9)']
        + lines[last:]) + "\n"


def amls_timed(amls_run, script, args, repeat, threads):
    """The fastest of the times the driver printed (one per execution)."""
    run = run_amls(amls_run, script, args, repeat, threads)
    times = [float(t) for t in re.findall(TIMER + r" ([\d.eE+-]+)",
                                           run.stdout)]
    if not times:
        sys.exit(f"{script} printed no time:\n{run.stdout}")
    return min(times)


def best_of(repeat, fn):
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


# --- NumPy/SciPy versions of the library functions without an example
# reference, each the library's algorithm step by step.

def glm_binomial_logit(X, Y, yneg, reg, tol, moi=200):
    """glm(dfam=2, link=2, icpt=1): Fisher scoring, CG inside (glm.dml)."""
    n = len(X)
    y = 1.0 - (Y == yneg)
    Z = np.hstack([X, np.ones((n, 1))])
    k = Z.shape[1]
    lam = np.full((k, 1), reg)
    lam[-1] = 0
    mu = (y + 0.5) / 2
    eta = np.log(mu / (1 - mu))
    beta = np.zeros((k, 1))
    objective, change, it = np.inf, np.inf, 0

    def deviance(mu):
        no = 1 - y
        return 2 * np.sum(y * np.log((y + (y == 0)) / mu)
                          + no * np.log((no + (no == 0)) / (1 - mu)))

    while it < moi:
        it += 1
        dmu = mu * (1 - mu)
        w = dmu  # dmu^2 / variance, variance = mu (1 - mu)
        z = eta + (y - mu) / dmu
        rhs = Z.T @ (w * z)
        r = rhs - Z.T @ (w * (Z @ beta)) - lam * beta
        p = r
        norm2 = np.sum(r ** 2)
        target = 1e-24 * np.sum(rhs ** 2)
        nxt = beta
        i = 0
        while i < k and norm2 > target:
            q = Z.T @ (w * (Z @ p)) + lam * p
            a = norm2 / np.sum(p * q)
            nxt = nxt + a * p
            r = r - a * q
            previous, norm2 = norm2, np.sum(r ** 2)
            p = r + (norm2 / previous) * p
            i += 1
        while True:
            eta_next = Z @ nxt
            mu_next = 1 / (1 + np.exp(-eta_next))
            dev = deviance(mu_next)
            obj = dev + np.sum(lam * nxt ** 2)
            if obj <= objective or it == 1:
                break
            nxt = (beta + nxt) / 2
        change = objective - obj
        beta, eta, mu, objective = nxt, eta_next, mu_next, obj
        if it > 1 and abs(change) < tol * (dev + 0.1):
            break
    return beta


def pagerank(A, alpha, maxi):
    n = A.shape[0]
    G = (scipy.sparse.diags(1.0 / np.asarray(A.sum(axis=1)).ravel())
         @ A).T.tocsr()
    p = np.full((n, 1), 1.0 / n)
    e, u = np.ones((n, 1)), np.full((1, n), 1.0 / n)
    for _ in range(maxi):
        p = alpha * (G @ p) + (1 - alpha) * (e @ (u @ p))
    return p


def components(G):
    """Label propagation: each vertex takes the largest label among itself
    and its neighbours until no label changes (components.dml)."""
    n = G.shape[0]
    rows = np.flatnonzero(np.diff(G.indptr) > 0)
    C = np.arange(1, n + 1, dtype=float)
    while True:
        neighbours = np.zeros(n)  # rowMaxs of G * t(C) counts the zeros
        neighbours[rows] = np.maximum.reduceat(G.data * C[G.indices],
                                               G.indptr[rows])
        labels = np.maximum(np.maximum(neighbours, 0), C)
        changed = np.sum(labels != C)
        C = labels
        if changed == 0:
            return C.reshape(-1, 1)


def integration_oracle(name):
    """An oracle module of test/Integration/Inputs (which import results.py
    beside them)."""
    inputs = os.path.join(ROOT, "test", "Integration", "Inputs")
    if inputs not in sys.path:
        sys.path.insert(0, inputs)
    return load(os.path.join(inputs, name + ".py"), name + "_oracle")


def pca(X, K):
    """pca(center=TRUE, scale=TRUE): standardized columns, the covariance's
    K largest eigenvectors (signs as the largest cell's), the projection."""
    n = len(X)
    Z = X - X.mean(axis=0)
    sd = np.sqrt((Z ** 2).sum(axis=0) / (n - 1))
    Z /= np.where(sd == 0, 1.0, sd)
    _, V = np.linalg.eigh(Z.T @ Z / (n - 1))
    V = V[:, ::-1][:, :K]
    R = Z @ V
    return np.vstack([V, np.full((1, K), np.sum(R ** 2))])


def naive_bayes(D, C, laplace):
    # The library's (and SystemDS's) checks of the inputs, then the counts.
    if D.min() < 0:
        raise ValueError("naiveBayes: D must hold counts")
    if C.min() < 1 or np.any(C != np.round(C)):
        raise ValueError("naiveBayes: C must hold integer labels 1, 2, ...")
    k = int(C.max())
    labels = C[:, 0].astype(int) - 1
    onehot = scipy.sparse.csr_matrix(
        (np.ones(len(labels)), (labels, np.arange(len(labels)))),
        shape=(k, len(labels)))
    counts = onehot @ D
    prior = np.bincount(labels, minlength=k).reshape(-1, 1) / len(labels)
    cond = (counts + laplace) / (counts.sum(axis=1, keepdims=True)
                                 + D.shape[1] * laplace)
    return np.hstack([prior, cond])


def signs(V):
    """Each column's sign, so that its largest cell is positive (the
    eigenvectors' signs are arbitrary)."""
    V = V[:-1]
    return np.sign(V[np.argmax(np.abs(V), axis=0), np.arange(V.shape[1])])


def numpy_run(name, args):
    """The algorithm in NumPy on the inputs already in memory, and the
    (rtol, atol) its result must match the library's with."""
    read = lambda key: np.loadtxt(args[key], delimiter=",", ndmin=2)
    if name == "l2svm":
        X, Y = read("X"), read("Y")
        ref = reference("l2svm")
        return (lambda: ref.l2svm(X, Y, intercept=True, epsilon=args["tol"],
                                  reg=args["reg"], maxIterations=args["maxi"],
                                  maxii=args["maxii"])[0]), (1e-6, 1e-8)
    if name == "mlogreg":
        X, Y = read("X"), read("Y")
        ref = reference("mlogreg")
        return (lambda: ref.multilogreg(X, Y, icpt=args["icpt"],
                                        tol=args["tol"], reg=args["reg"],
                                        maxi=args["maxi"],
                                        maxii=args["maxii"])[0]), (1e-6, 1e-8)
    if name == "kmeans":
        X = read("X")
        ml = integration_oracle("library_ml")
        return (lambda: ml.kmeans(X, args["k"], 1, args["maxi"], args["eps"],
                                  len(X), args["seed"])), (1e-6, 1e-8)
    if name == "lmCG":
        X, y = read("X"), read("y")
        ref = reference("linreg-cg")
        return (lambda: ref.linreg_cg(X, y, icpt=args["icpt"], reg=args["reg"],
                                      tol=args["tol"], maxi=args["maxi"])[0]
                [:, :1]), (1e-6, 1e-8)
    if name == "lm":
        X, y = read("X"), read("y")
        # The normal equations lmDS solves (test/Integration's oracle),
        # loaded before the clock starts.
        lm = integration_oracle("library").lm
        return (lambda: lm(X, y, args["icpt"], args["reg"])), (1e-6, 1e-8)
    if name == "glm":
        X, Y = read("X"), read("Y")
        return (lambda: glm_binomial_logit(X, Y, -1, args["reg"], 1e-9)), \
            (1e-6, 1e-8)
    if name == "msvm":
        X, Y = read("X"), read("Y")
        Xi = np.hstack([X, np.ones((len(X), 1))])
        ref = reference("l2svm")
        return (lambda: np.hstack([
            ref.l2svm(Xi, 2.0 * (Y == c) - 1, intercept=False, epsilon=0.001,
                      reg=1.0, maxIterations=100, maxii=20)[0]
            for c in range(1, int(Y.max()) + 1)])), (1e-6, 1e-8)
    if name == "naiveBayes":
        D, C = read("X"), read("Y")
        return (lambda: naive_bayes(D, C, 1.0)), (1e-12, 0)
    if name == "pca":
        X = read("X")
        return (lambda: pca(X, 10)), (1e-6, 1e-8)
    if name == "pageRank":
        A = common.read_mtx(args["G"])
        return (lambda: pagerank(A, args["alpha"], args["maxi"])), \
            (1e-9, 1e-14)
    G = common.read_mtx(args["G"])
    return (lambda: components(G)), (0, 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--amls-run", required=True)
    parser.add_argument("--size", default="large")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--only", default=",".join(ALGORITHMS))
    parser.add_argument("--amls-flags", default="",
                        help="extra amls-run options, e.g. --sums=plain")
    options = parser.parse_args()
    AMLS_FLAGS.extend(options.amls_flags.split())
    for name in options.only.split(","):
        if name not in ALGORITHMS:
            sys.exit(f"unknown algorithm '{name}'; known: "
                     + ", ".join(ALGORITHMS))
    print(f"size {options.size}, {options.threads} threads, best of "
          f"{options.repeat}; seconds without reading the inputs")
    print(f"{'algorithm':11} {'example':>9} {'library':>9} {'NumPy':>9} "
          f"{'NumPy/library':>14}")
    datasets = {}
    with tempfile.TemporaryDirectory() as work:
        for name in options.only.split(","):
            spec = ALGORITHMS[name]
            data = spec["data"]
            if data not in datasets:  # each in its own folder: same names
                folder = os.path.join(work, data)
                os.mkdir(folder)
                if data == "counts":
                    datasets[data] = counts(folder, options.size)
                else:
                    datasets[data] = reference(data).generate(folder,
                                                              options.size)
            args = dict(datasets[data], verbose=False)
            example = None
            if "example" in spec:
                # The example reads its inputs itself: less a script that
                # only reads them.
                inputs = {k: args[k] for k in spec["reads"]}
                reader = os.path.join(work, name + "-read.dml")
                with open(reader, "w") as f:
                    f.write("print(" + " + ".join(
                        f"sum(read(${k}))" for k in spec["reads"]) + ")\n")
                read = amls(options.amls_run, reader, inputs, options.repeat,
                            options.threads)
                example = amls(options.amls_run,
                               os.path.join(ROOT, "examples",
                                            spec["example"] + ".dml"),
                               args, options.repeat, options.threads) - read
            out = os.path.join(work, name + "-library.csv")
            driver = os.path.join(work, name + "-library.dml")
            with open(driver, "w") as f:
                f.write(timed(spec["driver"], spec["reads"]))
            library = amls_timed(options.amls_run, driver,
                                 dict(args, out=out), options.repeat,
                                 options.threads)
            run, (rtol, atol) = numpy_run(name, args)
            seconds, expected = best_of(options.repeat, run)
            actual = np.loadtxt(out, delimiter=",", ndmin=2)
            if name == "pca":
                actual[:-1] *= signs(actual)
                expected[:-1] *= signs(expected)
            if actual.shape != expected.shape or not np.allclose(
                    actual, expected, rtol=rtol, atol=atol):
                sys.exit(f"{name}: the library's result differs from "
                         f"NumPy's:\n{actual.ravel()[:6]}\n"
                         f"{expected.ravel()[:6]}")
            shown = "-" if example is None else f"{example:.3f}"
            ratio = f"{seconds / library:.2f}" if library > 0 else "-"
            print(f"{name:11} {shown:>9} {library:9.3f} {seconds:9.3f} "
                  f"{ratio:>14}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
