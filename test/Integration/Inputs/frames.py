"""Data and pandas/scikit-learn oracle for test/Integration/frames.dml
(frames read from CSV, transformencode/apply/decode, lm on the encoding).

  frames.py data DIR    writes data.csv (mixed columns: unicode strings, a
                        quoted separator, missing values) and spec.json
  frames.py check DIR   compares the script's outputs in DIR

The expected encoding is computed independently of SystemDS's code:
imputation by scikit-learn's SimpleImputer (mean) and pandas' mode, codes
by pandas' factorize (first appearance, as SystemDS's recode maps), dummy
codes by scikit-learn's OneHotEncoder with those categories, equi-width
bins by KBinsDiscretizer(strategy="uniform"); lm by NumPy's solve of the
regularized normal equations.
"""

import csv
import os
import sys

import numpy as np
import pandas as pd
from sklearn.impute import SimpleImputer
from sklearn.preprocessing import KBinsDiscretizer, OneHotEncoder

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_linalg import lm  # noqa: E402
from results import check  # noqa: E402

ROWS = 240
CITIES = ["Zürich", "New York, NY", "São Paulo", "Berlin", "東京"]
SPEC = """{
  recode: [city],
  dummycode: [kind],
  bin: [{name: size, method: equi-width, numbins: 4}],
  impute: [{name: size, method: global_mean}, {name: city, method: global_mode},
           {name: kind, method: global_mode}]
}"""


def table():
    """The rows as written: None is a missing value (an empty field for city
    and size, NA for kind)."""
    rng = np.random.default_rng(46)
    rows = []
    for i in range(ROWS):
        # Zürich most often, so the mode has no tie.
        city = CITIES[0] if i % 3 == 0 else CITIES[rng.integers(len(CITIES))]
        kind = ["a", "b", "c"][rng.integers(3)] if i % 5 else "b"
        size = round(float(rng.uniform(20, 180)), 3)
        rooms = int(rng.integers(1, 7))
        if i % 11 == 4:
            city = None
        if i % 13 == 6:
            kind = None
        if i % 7 == 2:
            size = None
        rows.append([city, kind, size, rooms])
    return rows


def frame_of(rows):
    df = pd.DataFrame(rows, columns=["city", "kind", "size", "rooms"])
    rng = np.random.default_rng(7)
    sizes = df["size"].fillna(df["size"].mean())
    df["price"] = (1000 * sizes + 5000 * df["rooms"] +
                   rng.normal(0, 100, len(df))).round(2)
    return df


def write_data(directory):
    df = frame_of(table())
    with open(os.path.join(directory, "data.csv"), "w", newline="",
              encoding="utf-8") as f:
        out = csv.writer(f, quoting=csv.QUOTE_MINIMAL, lineterminator="\n")
        out.writerow(df.columns)
        for city, kind, size, rooms, price in df.itertuples(index=False):
            out.writerow(["" if city is None or city != city else city,
                          "NA" if kind is None or kind != kind else kind,
                          "" if size != size else repr(size), rooms,
                          repr(price)])
    with open(os.path.join(directory, "spec.json"), "w") as f:
        f.write(SPEC)


def mode(column):
    counts = column.value_counts()
    assert len(counts) < 2 or counts.iloc[0] > counts.iloc[1], "a tied mode"
    return counts.index[0]


def expected(directory):
    df = pd.read_csv(os.path.join(directory, "data.csv"), keep_default_na=False,
                     na_values={"city": [""], "kind": ["NA"], "size": [""]})
    city = df["city"].fillna(mode(df["city"]))
    kind = df["kind"].fillna(mode(df["kind"]))
    size = SimpleImputer(strategy="mean").fit_transform(df[["size"]])
    city_codes, _ = pd.factorize(city)
    _, kinds = pd.factorize(kind)
    dummies = OneHotEncoder(categories=[list(kinds)]).fit_transform(
        kind.to_frame()).toarray()
    bins = KBinsDiscretizer(n_bins=4, encode="ordinal", strategy="uniform",
                            subsample=None)
    size_bins = bins.fit_transform(size)[:, 0] + 1
    edges = bins.bin_edges_[0]
    # A value on an inner edge would go to the upper bin here and to the
    # lower one in SystemDS (ceil): the data has none.
    assert not np.isin(size[:, 0], edges[1:-1]).any()
    X = np.column_stack([city_codes + 1, dummies, size_bins,
                         df["rooms"].to_numpy(float),
                         df["price"].to_numpy(float)])
    centres = (edges[:-1] + edges[1:]) / 2
    decoded = pd.DataFrame({"city": city, "kind": kind,
                            "size": centres[size_bins.astype(int) - 1],
                            "rooms": df["rooms"].astype(float),
                            "price": df["price"].astype(float)})
    return X, decoded


def main():
    mode_, directory = sys.argv[1], sys.argv[2]
    if mode_ == "data":
        write_data(directory)
        return 0
    X, decoded = expected(directory)
    load = lambda name: np.loadtxt(os.path.join(directory, name + ".csv"),
                                   delimiter=",", ndmin=2)
    failures = 0
    failures += not check("X", load("X"), X, 0, 0)
    failures += not check("X_apply", load("X2"), X, 0, 0)
    B = lm(X[:, :-1], X[:, -1:], 0, 1e-7)
    failures += not check("lm_B", load("B"), B, 1e-8, 1e-8)
    F2 = pd.read_csv(os.path.join(directory, "F2.csv"), keep_default_na=False)
    names_ok = list(F2.columns) == list(decoded.columns)
    strings_ok = all((F2[c].astype(str) == decoded[c]).all()
                     for c in ("city", "kind"))
    numbers = np.column_stack([F2[c].to_numpy(float)
                               for c in ("size", "rooms", "price")])
    failures += not (names_ok and strings_ok)
    print(f"{'PASS' if names_ok and strings_ok else 'FAIL'}: decoded tokens")
    failures += not check("decoded_numbers", numbers,
                          decoded[["size", "rooms", "price"]].to_numpy(),
                          1e-12, 1e-12)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
