"""The PASS/FAIL lines the NumPy oracles of the DML integration tests print
(library.py, lists.py, linear_algebra.py, library_ml.py, ...): one per
result, FileCheck'ed by the tests."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Oracles"))
from comparison import arrays_match  # noqa: E402


def check(name, actual, expected, rtol, atol, equal_nan=True):
    """Prints 'PASS: name RxC' or 'FAIL: ...' with the first cells of both
    sides; True when `actual` matches `expected` within the tolerances, by
    the oracles' rule (test/Oracles/comparison.py: NaN matches only NaN, an
    infinity only itself). `equal_nan` is accepted for the callers that
    name it: the rule is the same either way."""
    ok = arrays_match(actual, expected, rtol, atol)
    print(f"{'PASS' if ok else 'FAIL'}: {name} "
          f"{'x'.join(map(str, expected.shape))}")
    if not ok:
        print(f"  AMLS  {actual.ravel()[:8]}\n  NumPy {expected.ravel()[:8]}")
    return ok
