"""Pictures of the plan from Python: a lazy value's and a compiled DML
function's optimized program as Graphviz DOT, rendered by Debian's `dot`
to SVG and PNG; explain compiles but runs nothing."""
import re

import numpy as np
import scipy.sparse as sp

import amls

session = amls.Session(threads=2)
amls.set_session(session)
rng = np.random.default_rng(3)
X, y = amls.array(rng.random((300, 6))), amls.array(rng.random(300))
# X %*% w - y and its squared sum: one fused operator over the product.
w = amls.solve(X.T @ X + amls.diag(amls.full(6, 1, 0.5)), X.T @ y)
loss = ((X @ w - y) ** 2).sum()

plan = loss.explain()
dot = str(plan)
print(repr(plan))
for line in dot.splitlines():
    if "label=" in line:
        print("DOT:", re.sub(r"^\s+", "", line))
before = session.stats()["runs"]
svg = loss.explain("svg")
png = loss.explain("png")
print("svg:", svg.lstrip().startswith("<?xml") and "<svg" in svg)
print("svg has the product:", "kernel dense x dense" in svg)
print("png:", png[:8] == b"\x89PNG\r\n\x1a\n")
print("jupyter:", plan._repr_svg_() == plan.render("svg"))
print("runs while explaining:", session.stats()["runs"] - before)
print("loss:", float(loss) > 0)

# sum(A %*% v) becomes colSums(A) %*% v; A %*% W reads A in CSR.
f = session.compile_dml("s = sum(A %*% v)\nB = A %*% W")
A = sp.random(200, 50, density=0.02, format="csr", random_state=1)
sparse_plan = f.explain("dot", A=A, v=np.ones((50, 1)), W=np.ones((50, 3)))
print("A:", "A\\n200x50 f64, sparsity 0.02, csr" in sparse_plan,
      "colSums:", "agg sum col" in sparse_plan,
      "CSR products:", sparse_plan.count("kernel csr x dense"))
for value, format in ((X @ w, "pdf"), (loss, None)):
    try:
        value.explain(format)
    except ValueError as error:
        print("ValueError:", error)
