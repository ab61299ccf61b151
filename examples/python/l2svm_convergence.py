"""The convergence of L2SVM, notebook style: one outer iteration of
examples/l2svm.dml (a Newton line search along the conjugate direction,
then the Fletcher-Reeves update) is a DML script called from a Python loop
that records the primal objective; the same iterations in NumPy are the
oracle; matplotlib plots the objective's distance to its final value.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/l2svm_convergence.py [out.png]
"""

import sys
import time

import numpy as np

import amls

ITERATION = """
# One outer iteration of L2SVM (examples/l2svm.dml's l2svm function).
step_sz = 0
Xd = X %*% s
wd = reg * sum(w * s)
dd = reg * sum(s * s)
continueInner = TRUE
iiter = 0
while (continueInner & iiter < maxii) {
  out = 1 - Y * (Xw + step_sz * Xd)
  sv = (out > 0)
  out = out * sv
  g = wd + step_sz * dd - sum(out * Y * Xd)
  h = dd + sum(Xd * sv * Xd)
  step_sz = step_sz - g / h
  continueInner = (g * g / h >= epsilon)
  iiter = iiter + 1
}
w = w + step_sz * s
Xw = Xw + step_sz * Xd
out = 1 - Y * Xw
sv = (out > 0)
out = sv * out
obj = 0.5 * sum(out * out) + reg / 2 * sum(w * w)
g_new = t(X) %*% (out * Y) - reg * w
more = (step_sz * sum(s * g_old) >= epsilon * obj & sum(s ^ 2) != 0)
be = sum(g_new * g_new) / sum(g_old * g_old)
s = be * s + g_new
g_old = g_new
"""


def numpy_iteration(X, Y, w, Xw, s, g_old, reg, epsilon, maxii):
    """The same statements in NumPy."""
    step_sz = 0.0
    Xd = X @ s
    wd, dd = reg * float(np.sum(w * s)), reg * float(np.sum(s * s))
    for _ in range(maxii):
        out = 1 - Y * (Xw + step_sz * Xd)
        sv = (out > 0).astype(float)
        out = out * sv
        g = wd + step_sz * dd - float(np.sum(out * Y * Xd))
        h = dd + float(np.sum(Xd * sv * Xd))
        step_sz -= g / h
        if g * g / h < epsilon:
            break
    w = w + step_sz * s
    Xw = Xw + step_sz * Xd
    out = 1 - Y * Xw
    out = (out > 0) * out
    obj = 0.5 * float(np.sum(out * out)) + reg / 2 * float(np.sum(w * w))
    g_new = X.T @ (out * Y) - reg * w
    more = step_sz * float(np.sum(s * g_old)) >= epsilon * obj and \
        float(np.sum(s * s)) != 0
    be = float(np.sum(g_new * g_new)) / float(np.sum(g_old * g_old))
    return w, Xw, be * s + g_new, g_new, obj, more


def data(rows=20000, cols=50, seed=12):
    """Noisy linear labels with an offset (examples/reference/l2svm.py)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((rows, cols)) * rng.uniform(0.5, 2.0, size=cols)
    truth = rng.standard_normal((cols, 1))
    score = X @ truth + 0.5 + 0.5 * np.sqrt(cols) * rng.standard_normal(
        (rows, 1))
    X = np.hstack([X, np.ones((rows, 1))])           # the intercept
    return X, np.where(score > 0, 1.0, -1.0)


def main():
    png = sys.argv[1] if len(sys.argv) > 1 else "l2svm-convergence.png"
    X, Y = data()
    reg, epsilon, maxii, max_iterations = 1.0, 1e-12, 20, 100
    session = amls.Session(threads=2)
    iteration = session.compile_dml(
        ITERATION, outputs=["w", "Xw", "s", "g_old", "obj", "more"])

    def run(step):
        w, Xw = np.zeros((X.shape[1], 1)), np.zeros((X.shape[0], 1))
        g_old = X.T @ Y
        s, objectives, more = g_old, [], True
        seconds = 0.0
        while more and len(objectives) < max_iterations:
            start = time.perf_counter()
            w, Xw, s, g_old, obj, more = step(w, Xw, s, g_old)
            seconds += time.perf_counter() - start
            objectives.append(obj)
        return w, objectives, seconds

    def amls_step(w, Xw, s, g_old):
        out = iteration(X=X, Y=Y, w=w, Xw=Xw, s=s, g_old=g_old, reg=reg,
                        epsilon=epsilon, maxii=maxii)
        return (out["w"], out["Xw"], out["s"], out["g_old"], out["obj"],
                out["more"])

    def numpy_step(w, Xw, s, g_old):
        return numpy_iteration(X, Y, w, Xw, s, g_old, reg, epsilon, maxii)

    run(amls_step)          # compiles (w = 0 first, then w dense: two)
    w, objectives, amls_seconds = run(amls_step)
    w_numpy, numpy_objectives, numpy_seconds = run(numpy_step)

    print(f"{len(objectives)} iterations (NumPy: {len(numpy_objectives)}), "
          f"final objective {objectives[-1]:.10g}")
    common = min(len(objectives), len(numpy_objectives))
    difference = max(abs(a - b) / abs(b) for a, b in
                     zip(objectives[:common], numpy_objectives[:common]))
    print(f"largest relative difference of the objectives from NumPy's: "
          f"{difference:.2e}")
    print(f"max difference of the weights: "
          f"{np.abs(w - w_numpy).max():.2e}")
    print(f"AMLS {amls_seconds * 1e3:.1f} ms, NumPy "
          f"{numpy_seconds * 1e3:.1f} ms over the iterations (compiled "
          f"before)")
    stats = session.stats()
    print(f"compilations {stats['compilations']}, "
          f"cache hits {stats['cache_hits']}")
    assert difference < 1e-9 and np.abs(w - w_numpy).max() < 1e-6

    import matplotlib
    matplotlib.use("Agg")                            # no display needed
    import matplotlib.pyplot as plt
    final = min(objectives[-1], numpy_objectives[-1])
    figure, axes = plt.subplots(figsize=(6, 4))
    for values, label, style in ((objectives, "AMLS", "o-"),
                                 (numpy_objectives, "NumPy", "x--")):
        gap = [max(value - final, 1e-16) for value in values]
        axes.semilogy(range(1, len(gap) + 1), gap, style, label=label)
    axes.set_xlabel("outer iteration")
    axes.set_ylabel("objective - final objective")
    axes.set_title(f"L2SVM on {X.shape[0]} x {X.shape[1] - 1} (+ intercept)")
    axes.legend()
    figure.tight_layout()
    figure.savefig(png, dpi=100)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
