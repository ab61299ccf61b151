"""Session(formats="compressed"): a DML loop of products on binned
features gives NumPy's result, its plan compresses X before the loop
(amls.compress, amls.release), and an unknown format is an error naming
the expected ones."""

import numpy as np

import amls

rng = np.random.default_rng(8)
X = np.stack([rng.integers(0, 2 + 5 * c, 12000) * 0.5 for c in range(8)],
             axis=1)
v0 = rng.random((8, 1))
expected = v0
for _ in range(5):
    g = X.T @ (X @ expected)
    expected = g / np.abs(g).sum()

script = ("for (i in 1:5) {\n  g = t(X) %*% (X %*% v)\n"
          "  v = g / sum(abs(g))\n}\n")
session = amls.Session(threads=2, formats="compressed")
f = session.compile_dml(script, outputs=["v"])
plan = str(f.explain(X=X, v=v0))
print("plan compresses X:", 'label="compress\\n12000x8 f64' in plan)
print("the loop's product reads it:",
      "mmchain\\n8x1 f64\\nkernel compressed x dense" in plan)
v = np.asarray(f(X=X, v=v0)["v"])
assert v.shape == expected.shape and not np.isnan(v).any()
assert np.allclose(v, expected, rtol=1e-9, atol=0), (v, expected)
print("formats=compressed: the loop as NumPy")
try:
    amls.Session(formats="cla")
except ValueError as error:
    print(f"error: {error}")
