"""How every oracle of AMLS's tests compares numbers: one rule, in one place.

A finite expected cell matches a finite actual cell within
`atol + rtol * |expected|`. A non-finite cell matches only itself: NaN only
NaN, +inf only +inf, -inf only -inf. So a NaN or an infinity where a number
is expected fails (a plain `abs(a - e) > tol` test passes NaN, since every
comparison with NaN is false), and so does a number where NaN or an
infinity is expected.

Used by the integration oracle (test/Integration/oracle.py), the oracles'
PASS/FAIL lines (test/Integration/Inputs/results.py), the conformance suite,
the examples' checker and the GPU device check's comparison; tested by
test/Oracles/comparison.test. `cells_match` needs only Python (the device
check's machine may lack NumPy); the array functions need NumPy.
"""

import math


def cells_match(actual, expected, rtol, atol):
    """True when the number `actual` matches `expected` (the rule above)."""
    actual, expected = float(actual), float(expected)
    if math.isfinite(actual) and math.isfinite(expected):
        return abs(actual - expected) <= atol + rtol * abs(expected)
    if math.isnan(actual) or math.isnan(expected):
        return math.isnan(actual) and math.isnan(expected)
    return actual == expected


def mismatches(actual, expected, rtol, atol):
    """Boolean array, True where `actual` does not match `expected`, cell
    by cell (arrays of one shape, or broadcastable)."""
    import numpy as np
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    finite = np.isfinite(actual) & np.isfinite(expected)
    with np.errstate(invalid="ignore", over="ignore"):
        close = np.abs(actual - expected) <= atol + rtol * np.abs(expected)
    same = (np.isnan(actual) & np.isnan(expected)) | (
        np.isinf(actual) & (actual == expected))
    return ~np.where(finite, close, same)


def arrays_match(actual, expected, rtol, atol):
    """True when both arrays have one shape and every cell matches."""
    import numpy as np
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    return (actual.shape == expected.shape
            and not mismatches(actual, expected, rtol, atol).any())


def first_mismatch(actual, expected, rtol, atol):
    """'N cells differ, first [i,j] a vs e' (1-based), or None; the shapes
    must agree."""
    import numpy as np
    bad = mismatches(actual, expected, rtol, atol)
    if not bad.any():
        return None
    index = tuple(int(i) for i in np.argwhere(bad)[0])
    actual = np.asarray(actual, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    where = ",".join(str(i + 1) for i in index)
    return (f"{int(bad.sum())} cells differ, first [{where}] "
            f"{actual[index]!r} vs {expected[index]!r}")
