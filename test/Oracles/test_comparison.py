"""The oracles' comparison rule (comparison.py): NaN and infinities are
rejected where the reference is finite and the reverse, both for single
numbers and cell by cell."""

import math

import numpy as np
import pytest

from comparison import arrays_match, cells_match, first_mismatch, mismatches

NAN, INF = math.nan, math.inf


@pytest.mark.parametrize("actual, expected, match", [
    (1.0, 1.0, True),
    (1.0 + 1e-12, 1.0, True),
    (1.0 + 1e-6, 1.0, False),
    (1e-12, 0.0, True),          # atol
    (1e-6, 0.0, False),
    (NAN, 1.0, False),           # NaN where a number is expected
    (1.0, NAN, False),           # a number where NaN is expected
    (NAN, NAN, True),
    (INF, 1e308, False),         # an infinity where a number is expected
    (1e308, INF, False),
    (INF, INF, True),
    (-INF, -INF, True),
    (INF, -INF, False),
    (-INF, INF, False),
    (NAN, INF, False),
    (INF, NAN, False),
    (-0.0, 0.0, True),
])
def test_rule(actual, expected, match):
    assert cells_match(actual, expected, rtol=1e-9, atol=1e-9) is match
    assert bool(mismatches(actual, expected, 1e-9, 1e-9)) is not match
    assert arrays_match([[actual]], [[expected]], 1e-9, 1e-9) is match


def test_one_bad_cell_in_an_array_fails():
    expected = np.arange(12.0).reshape(3, 4)
    for bad in (NAN, INF, -INF, 1e9):
        actual = expected.copy()
        actual[2, 1] = bad
        assert not arrays_match(actual, expected, 1e-9, 1e-9)
        message = first_mismatch(actual, expected, 1e-9, 1e-9)
        assert message.startswith("1 cells differ, first [3,2]"), message
    assert arrays_match(expected, expected.copy(), 0, 0)
    assert first_mismatch(expected, expected, 0, 0) is None


def test_shapes_must_agree():
    assert not arrays_match(np.zeros((2, 3)), np.zeros((3, 2)), 1, 1)
    assert not arrays_match(np.zeros((1, 3)), np.zeros((3,)), 1, 1)


def test_relative_tolerance_scales_with_the_expected_value():
    assert cells_match(1e6 + 0.5, 1e6, rtol=1e-6, atol=0)
    assert not cells_match(1e6 + 2, 1e6, rtol=1e-6, atol=0)
