"""Reference for elementwise-functions.dml (NumPy). The bitwise functions
are SystemDS's (functionobjects/Bitw*.java): operands through
UtilFunctions.toInt, sign(x) * floor(|x| + 2^-53) cast to a Java int
(saturating), Java's int operators (shift counts modulo 32), and
bitwShiftL's smallest-int result as NaN."""

import numpy as np


def inputs(rng):
    a = rng.integers(-1000, 1000, (8, 5)).astype(float)
    a[0, :] = [2.7, -2.7, 3e9, -3e9, 1]
    a[1, :] = [0.5, -0.5, 2147483647, -2147483648, 1]
    b = rng.integers(0, 40, (8, 5)).astype(float)
    b[0, 4] = 31  # 1 << 31: the smallest int, NaN
    b[1, 4] = 33  # counts modulo 32
    s = rng.uniform(-9, 9, (30, 20)) * (rng.random((30, 20)) < 0.1)
    return {
        "U": rng.uniform(-0.99, 0.99, (5, 4)),
        "W": rng.uniform(-3, 3, (5, 4)),
        "A": a,
        "B": b,
        "S": s,
        "K": rng.integers(1, 5, (6, 5)).astype(float),
        "C": np.column_stack([rng.uniform(-1, 1, 30), rng.uniform(0, 1.5, 30)]),
    }


def to_int(x):
    x = np.asarray(x, dtype=float)
    t = np.sign(x) * np.floor(np.abs(x) + 2.0 ** -53)
    t = np.where(np.isnan(t), 0, np.clip(t, -2.0 ** 31, 2.0 ** 31 - 1))
    return t.astype(np.int32)


def shift_left(a, b):
    a, b = to_int(a), to_int(b)
    r = (a.astype(np.uint32) << (b & 31).astype(np.uint32)).view(np.int32)
    return np.where(r == np.iinfo(np.int32).min, np.nan, r.astype(float))


def shift_right(a, b):
    return (to_int(a) >> (to_int(b) & 31)).astype(float)


def count_distinct_rows(m):
    return np.array([[len(np.unique(row))] for row in m], dtype=float)


def cumsumprod(c):
    y, out = 0.0, []
    for term, factor in c:
        y = term + factor * y
        out.append([y])
    return np.array(out)


def expected(i):
    u, w, a, b, s, k, c = (i[n] for n in "UWABSKC")
    uu, ww = u[1, 2], w[3, 0]
    rs = np.floor(s + 0.5)  # DML's round
    return {
        "tan": np.tan(w), "asin": np.arcsin(u), "acos": np.arccos(u),
        "atan": np.arctan(w), "sinh": np.sinh(w), "cosh": np.cosh(w),
        "ceiling": np.ceil(w),
        "trig_numbers": [[np.tan(ww), np.arcsin(uu), np.arccos(uu),
                          np.arctan(ww), np.sinh(ww), np.cosh(ww),
                          np.ceil(ww)]],
        "bitw_and": (to_int(a) & to_int(b)).astype(float),
        "bitw_or": (to_int(a) | to_int(b)).astype(float),
        "bitw_xor": (to_int(a) ^ to_int(b)).astype(float),
        "bitw_shiftl": shift_left(a, b),
        "bitw_shiftr": shift_right(a, b),
        "bitw_numbers": [[12 & 10, 12 | -3, -7 ^ 5, np.nan, 3 << 1,
                          -1024 >> 3]],
        "sparse_trig": np.hstack([np.tan(s), np.arcsin(s / 10), np.arctan(s),
                                  np.sinh(s / 10)]),
        "sparse_bitw": np.hstack([(to_int(s) & 6).astype(float),
                                  shift_left(s, 2 + 0 * s),
                                  shift_right(s, 1 + 0 * s)]),
        "row_count_distinct": count_distinct_rows(k),
        "col_count_distinct": count_distinct_rows(k.T).T,
        "row_count_distinct_sparse": count_distinct_rows(rs),
        "col_count_distinct_sparse": count_distinct_rows(rs.T).T,
        "cumsumprod": cumsumprod(c),
        "cumsumprod_rev": cumsumprod(c[::-1])[::-1],
        "as_boolean": [[float(uu != 0), 0.0, 1.0]],
    }
