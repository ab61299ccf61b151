"""Runs the README's Python quick start (the ```python block under "## From
Python") as written, then checks what its comments promise against NumPy
and scikit-learn. Usage: readme_quickstart.py README.md"""

import re
import sys

import numpy as np
import sklearn.linear_model

text = open(sys.argv[1]).read()
section = text[text.index("## From Python"):]
code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
scope = {}
exec(compile(code, "README.md (From Python)", "exec"), scope)

X, y, out = scope["X"], scope["y"], scope["out"]
amls = scope["amls"]
w_ref = np.linalg.solve(X.T @ X + 0.1 * np.eye(10), X.T @ y)
assert sorted(out) == ["G", "b", "s"], sorted(out)
checks = {
    "w": (np.ravel(scope["w_np"]), w_ref),
    "loss": (scope["loss_value"], ((X @ w_ref - y) ** 2).sum()),
    "lm": (np.ravel(scope["B"]),
           np.linalg.solve(X.T @ X + 1e-3 * np.eye(10), X.T @ y)),
    "Ridge": (scope["model"].coef_,
              sklearn.linear_model.Ridge(alpha=1.0).fit(X, y).coef_),
    "G": (out["G"], X.T @ X),
    "b": (np.ravel(out["b"]), X.T @ y),
    "s": (out["s"], (X * X).sum()),
}
for name, (actual, expected) in checks.items():
    np.testing.assert_allclose(actual, expected, rtol=1e-9, atol=0)
    print(f"PASS: {name}")
plan = str(amls.explain(scope["w"] @ amls.array(np.ones((1, 3)))))
assert plan.startswith('digraph "amls plan"') and "matmul" in plan, plan[:200]
print("PASS: explain")
stats = scope["s"].stats()
assert stats["compilations"] >= 1, stats
print("PASS: stats", sorted(stats))
print("package:", amls.__file__)
