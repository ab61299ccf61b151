"""The lazy matrix API (amls/lazy.py) against NumPy: operators, methods,
indexing, library calls, one program for several results, the compile
cache across a Python loop, and errors at the Python line that built the
failing op."""
import os
import sys

import numpy as np

import amls


def check(name, got, want, tol=1e-9):
    got = np.asarray(got, dtype=float)
    want = np.asarray(want, dtype=float)
    ok = (got.shape == want.shape or got.size == want.size) and \
        not np.isnan(got).any() and \
        np.allclose(got.ravel(), want.ravel(), rtol=tol, atol=tol)
    print(f"{'PASS' if ok else 'FAIL'}: {name}")
    if not ok:
        print("  got", got.ravel()[:5], "want", want.ravel()[:5])


rng = np.random.default_rng(7)
Xn, yn = rng.random((300, 6)), rng.random(300)
session = amls.Session(threads=2)
amls.set_session(session)
X, y = amls.array(Xn), amls.array(yn)

# Ridge in one program with its residual.
b = amls.solve(X.T @ X + 0.5 * amls.diag(amls.ones(6)), X.T @ y)
r = ((X @ b - y) ** 2).sum()
bv, rv = amls.compute(b, r)
bref = np.linalg.solve(Xn.T @ Xn + 0.5 * np.eye(6), Xn.T @ yn)
check("ridge", bv, bref)
check("residual", rv, ((Xn @ bref - yn) ** 2).sum())
print("one program:", session.stats()["compilations"])

# Element-wise operators, comparisons, unary minus, functions.
E = (-(X * 2 - 1) / (X + 1)) ** 2 + amls.exp(X) - abs(X - 0.5).sqrt()
En = (-(Xn * 2 - 1) / (Xn + 1)) ** 2 + np.exp(Xn) - np.sqrt(np.abs(Xn - 0.5))
check("element-wise", E.numpy(), En)
check("comparison", ((X > 0.5) & (X < 0.9)).numpy(),
      (Xn > 0.5) & (Xn < 0.9))
check("right operators", (1 - X / 4).numpy(), 1 - Xn / 4)
check("ndarray @ Matrix", (Xn.T @ X).numpy(), Xn.T @ Xn)

# Aggregates, NumPy axes and DML names.
check("sum", float(X.sum()), Xn.sum())
check("sum axis 0", X.sum(axis=0).numpy(), Xn.sum(axis=0))
check("sum axis 1", X.sum(axis=1).numpy(), Xn.sum(axis=1))
check("rowMeans", X.rowMeans().numpy(), Xn.mean(axis=1))
check("max axis 0", X.max(axis=0).numpy(), Xn.max(axis=0))
check("var ddof 1", float(X.var()), Xn.var(ddof=1))
check("var ddof 0 axis 0", X.var(axis=0, ddof=0).numpy(), Xn.var(axis=0))
check("std ddof 0", float(X.std(ddof=0)), Xn.std())
check("mean", float(X.mean()), Xn.mean())

# Indexing: 0-based and end-exclusive like NumPy.
check("slice", X[10:20, 1:4].numpy(), Xn[10:20, 1:4])
check("row", X[5].numpy(), Xn[5:6, :])
check("column", X[:, 2].numpy(), Xn[:, 2])
check("open slice", X[295:, 4:].numpy(), Xn[295:, 4:])
check("cell", float(X[3, 4]), Xn[3, 4])
check("cbind", amls.cbind(X, y).numpy(), np.column_stack([Xn, yn]))
check("transpose", X.T.numpy(), Xn.T)

# A library function by name, with a named argument, and one with several
# results (a tuple).
B = amls.lm(X, y, reg=1e-3, verbose=False)
check("lm", B.numpy(), np.linalg.solve(Xn.T @ Xn + 1e-3 * np.eye(6),
                                       Xn.T @ yn), tol=1e-7)
means = amls.colMeans(X)
centered = X - means
check("broadcast", centered.numpy(), Xn - Xn.mean(axis=0))

# A Python loop that builds the same expression compiles once; computed
# values are inputs of later programs. (A start of zeros would compile a
# second time: the signature holds each input's sparsity.)
w = amls.array(np.full(6, 0.1))
before = session.stats()["compilations"]
for _ in range(5):
    g = X.T @ (X @ w - y) / 300
    w = w - 0.5 * g
    w.compute()
wn = np.full(6, 0.1)
for _ in range(5):
    wn = wn - 0.5 * (Xn.T @ (Xn @ wn - yn) / 300)
check("gradient loop", w.numpy(), wn)
print("loop compilations:", session.stats()["compilations"] - before)

# Errors point at the Python line.
try:
    bad = X @ amls.array(np.ones((3, 3)))
    bad.compute()
    print("FAIL: no error")
except amls.CompileError as error:
    print(str(error).replace(os.path.abspath(sys.argv[0]), "lazy.py"))
try:
    X[0:1, -1]
except IndexError as error:
    print("IndexError:", error)
