"""The PASS/FAIL lines the NumPy oracles of the DML integration tests print
(library.py, lists.py, linear_algebra.py, library_ml.py, ...): one per
result, FileCheck'ed by the tests."""

import numpy as np


def check(name, actual, expected, rtol, atol, equal_nan=False):
    """Prints 'PASS: name RxC' or 'FAIL: ...' with the first cells of both
    sides; True when `actual` matches `expected` within the tolerances."""
    ok = actual.shape == expected.shape and np.allclose(
        actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    print(f"{'PASS' if ok else 'FAIL'}: {name} "
          f"{'x'.join(map(str, expected.shape))}")
    if not ok:
        print(f"  AMLS  {actual.ravel()[:8]}\n  NumPy {expected.ravel()[:8]}")
    return ok
