"""Reference for statistics.dml (SciPy/NumPy; quantiles as SystemDS picks
them: the sorted value at ceil(p n), NumPy's inverted_cdf)."""

import numpy as np
from scipy import stats


def inputs(rng):
    x = rng.standard_normal((40, 1)) * 3 + 1
    return {"x": x, "y": 2 * x + rng.standard_normal((40, 1)),
            "g": rng.integers(1, 4, (40, 1)).astype(float) + [[0.0]],
            "p": np.array([[0.1], [0.5], [0.9]])}


def expected(i):
    x, y, g = i["x"].ravel(), i["y"].ravel(), i["g"].ravel()
    return {
        "moment3": stats.moment(x, 3),
        "cov": np.cov(x, y)[0, 1],
        "quantiles": np.quantile(x, [0.1, 0.5, 0.9],
                                 method="inverted_cdf").reshape(-1, 1),
        "median": np.median(x),
        "iqm": stats.trim_mean(x, 0.25),
        "group_means": np.array([[x[g == k].mean()] for k in (1, 2, 3)]),
        "outer": np.outer(x[:4], y[:3]),
        "unique": np.unique(g).reshape(-1, 1),
    }
