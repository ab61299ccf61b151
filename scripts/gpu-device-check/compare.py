"""Compares a program's output on the GPU with its CPU run, line by line:
numbers to a relative tolerance (the kernels sum in another order) by the
oracles' rule (test/Oracles/comparison.py: NaN and infinities match only
themselves), every other line exactly. Usage: compare.py EXPECTED ACTUAL"""
import os
import sys

# Beside this script in the device check's bundle, test/Oracles in the tree.
here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, "..", "..", "test", "Oracles")]
from comparison import cells_match  # noqa: E402

TOLERANCE = 1e-9


def number(text):
    try:
        return float(text.replace("E", "e"))
    except ValueError:
        return None


def main():
    # TIME lines are measurements, printed by run.sh, not compared.
    def lines(path):
        return [l for l in open(path).read().split("\n") if not l.startswith("TIME")]
    expected = lines(sys.argv[1])
    actual = lines(sys.argv[2])
    if len(expected) != len(actual):
        print(f"  {len(actual)} lines, expected {len(expected)}")
        return 1
    worst = 0.0
    for i, (e, a) in enumerate(zip(expected, actual)):
        x, y = number(e), number(a)
        if x is None or y is None:
            if e != a:
                print(f"  line {i + 1}: '{a}', expected '{e}'")
                return 1
            continue
        if not cells_match(y, x, rtol=TOLERANCE, atol=TOLERANCE):
            print(f"  line {i + 1}: {a}, expected {e}")
            return 1
        if x != y:
            worst = max(worst, abs(x - y) / max(1.0, abs(x)))
    print(f"  {len(expected) - 1} lines agree (largest relative difference {worst:.1e})")
    return 0


sys.exit(main())
