"""Helpers shared by the example references (imported next to check.py)."""

import numpy as np


def read_csv(path):
    """A matrix from a CSV file, always two-dimensional."""
    return np.loadtxt(path, delimiter=",", ndmin=2)


def as_bool(value):
    """A DML boolean argument (TRUE/FALSE or a Python bool) as a bool."""
    if isinstance(value, str):
        return value.upper() in ("TRUE", "1")
    return bool(value)
