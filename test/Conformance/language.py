"""Reference for language.dml."""

import numpy as np


def inputs(rng):
    return {"X": rng.standard_normal((40, 3)) * [1, 10, 0.5] + [0, 3, -1]}


def expected(i):
    X = i["X"]
    centered = X - X.mean(axis=0)
    positive = np.nonzero(X[:, 0] > 0)[0]
    return {
        "centered": centered,
        "first_result": centered,
        "sourced": centered / X.std(axis=0, ddof=1),
        "last_positive": float(positive[-1] + 1),
        "running_max": np.maximum.accumulate(X[:, 0]).reshape(-1, 1),
        # R's matrix(X, 4, 6, byrow=FALSE): X read and filled by column.
        "by_column": X[:8, :3].flatten("F").reshape((4, 6), order="F"),
        "message": "line one\nline two",
        "rand_shape": np.ones((7, 5)),
    }
