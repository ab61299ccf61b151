"""The random-program comparison's sparse-safe exception
(fuzz/programs/run.py only_signed_zero_flips): an infinity of the other
sign passes, nothing else does."""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(sys.argv[1], "fuzz", "programs"))
from run import only_signed_zero_flips  # noqa: E402

inf, nan = math.inf, math.nan
cases = [
    ("flipped infinity", [[-inf, 1.0]], [[inf, 1.0]], True),
    ("flipped and a wrong value", [[-inf, 2.0]], [[inf, 1.0]], False),
    ("NaN for infinity", [[nan, 1.0]], [[inf, 1.0]], False),
    ("infinity for a number", [[inf, 1.0]], [[-1.0, 1.0]], False),
    ("no flip at all", [[inf, 1.0]], [[inf, 1.0]], False),
    ("finite for NaN", [[0.0]], [[nan]], False),
]
for name, actual, expected, want in cases:
    got = only_signed_zero_flips(np.array(actual), np.array(expected),
                                 1e-9, 1e-9)
    print(f"{'PASS' if got == want else 'FAIL'}: {name}")
