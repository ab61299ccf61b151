"""Reference for formats.dml."""

import numpy as np


def inputs(rng):
    S = rng.random((50, 40))
    S[S < 0.9] = 0.0  # sparse: read into CSR
    return {"X": rng.standard_normal((30, 4)) * 100, "S": S}


def expected(i):
    X = i["X"]
    return {"doubled": 2 * X, "sparse": i["S"], "total": X.sum(),
            "rows": 30.0, "flag": True, "csv_round_trip": X,
            "mm_round_trip": X, "scalar_round_trip": 3 * X.mean()}
