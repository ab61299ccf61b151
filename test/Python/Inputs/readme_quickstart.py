"""Runs the README's Python quick start (the ```python block under "## From
Python") as written, then checks what its comments promise against NumPy.
Usage: readme_quickstart.py README.md"""

import re
import sys

import numpy as np

text = open(sys.argv[1]).read()
section = text[text.index("## From Python"):]
code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
scope = {}
exec(compile(code, "README.md (From Python)", "exec"), scope)

X, y, out = scope["X"], scope["y"], scope["out"]
assert sorted(out) == ["G", "b", "s"], sorted(out)
checks = {
    "G": (out["G"], X.T @ X),
    "b": (np.ravel(out["b"]), X.T @ y),
    "s": (out["s"], (X * X).sum()),
    "run_dml B": (scope["amls"].run_dml("B = t(X) %*% X", X=X)["B"], X.T @ X),
}
for name, (actual, expected) in checks.items():
    np.testing.assert_allclose(actual, expected, rtol=1e-12, atol=0)
    print(f"PASS: {name}")
stats = scope["s"].stats()
assert stats["compilations"] >= 1, stats
print("PASS: stats", sorted(stats))
