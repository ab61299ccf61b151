"""Data and NumPy oracle for test/Integration/library-sets.dml: the DML
library's union and auc.

  library_sets.py data DIR    writes the inputs (CSV) into DIR
  library_sets.py check DIR   compares the script's outputs in DIR

union against numpy.union1d. auc twice: by its definition (for each
distinct score t the true positive rate #(positives > t) / #positives and
the true negative rate #(negatives <= t) / #negatives counted directly, the
first point's rectangle plus the trapezoids between the points), and
(NAME_opt) by the Mann-Whitney statistic over all (positive, negative)
pairs, ties 1/2, less the 1/2 of the pairs tied at the smallest score,
which SystemDS's rectangle counts 0.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_ml import oracle_main  # noqa: E402


def inputs():
    rng = np.random.default_rng(53)
    n = 200
    P1 = rng.random(n)
    Y1 = (rng.random(n) < 0.3 + 0.5 * P1).astype(float)  # 0/1, informative
    # -1/+1 labels, scores with many ties (one decimal), some at the minimum
    P2 = np.round(rng.random(n), 1)
    Y2 = np.where(rng.random(n) < 0.2 + 0.6 * P2, 1.0, -1.0)
    P3 = rng.random(40)
    Y3 = (P3 > 0.45).astype(float)  # separable: 1
    return dict(U1=np.array([[4, -2, 7, 4, 0.5, 7]], float).T,
                U2=np.array([[7, 3, -2, 11, 3]], float).T,
                M1=np.array([[1, 5], [2, 2], [9, 1]], float),
                M2=np.array([[5, 6], [-1, 9]], float),
                Y1=Y1.reshape(-1, 1), P1=P1.reshape(-1, 1),
                Y2=Y2.reshape(-1, 1), P2=P2.reshape(-1, 1),
                Y3=Y3.reshape(-1, 1), P3=P3.reshape(-1, 1))


def auc_definition(y, p):
    pos, neg = p[y == y.max()], p[y == y.min()]
    t = np.unique(p)
    tpr = np.array([(pos > v).mean() for v in t])
    tnr = np.array([(neg <= v).mean() for v in t])
    return tpr[0] * tnr[0] + np.sum(np.diff(tnr) * (tpr[1:] + tpr[:-1]) / 2)


def auc_mann_whitney(y, p):
    pos, neg = p[y == y.max()], p[y == y.min()]
    wins = (pos[:, None] > neg[None, :]).sum()
    ties = (pos[:, None] == neg[None, :]).sum()
    low = p.min()
    ties_low = (pos == low).sum() * (neg == low).sum()
    return (wins + 0.5 * (ties - ties_low)) / (len(pos) * len(neg))


def expected_outputs(d):
    out = {}
    out["union1"] = (np.union1d(d["U1"], d["U2"]).reshape(-1, 1), 0, 0)
    out["union2"] = (np.union1d(d["U2"], d["U1"]).reshape(-1, 1), 0, 0)
    out["union3"] = (np.union1d(d["M1"], d["M2"]).reshape(-1, 1), 0, 0)
    out["union4"] = (np.unique(d["U1"]).reshape(-1, 1), 0, 0)
    cases = {"auc1": ("Y1", "P1", 1), "auc2": ("Y2", "P2", 1),
             "auc3": ("Y3", "P3", 1), "auc4": ("Y3", "P3", -1)}
    for name, (y, p, sign) in cases.items():
        yv, pv = d[y][:, 0], sign * d[p][:, 0]
        out[name] = (np.array([[auc_definition(yv, pv)]]), 1e-12, 1e-14)
        out[name + "_opt"] = (np.array([[auc_mann_whitney(yv, pv)]]), 1e-12,
                              1e-14)
    out["auc_exact"] = (np.array([[1.0, 0.0]]), 0, 0)
    return out


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs))
