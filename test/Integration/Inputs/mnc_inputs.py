"""Writes the inputs of mnc-estimates.mlir to the folder argv[1]: a
1000 x 10 one-hot matrix O (row i codes category i % 10) and a 10 x 50
matrix W whose row j holds 5 (j + 1) non-zeros. O %*% W has
100 * 5 * (1 + ... + 10) = 27500 non-zeros: MNC's exact case."""

import os
import sys

import numpy as np

folder = sys.argv[1]
os.makedirs(folder, exist_ok=True)
O = np.zeros((1000, 10))
O[np.arange(1000), np.arange(1000) % 10] = 1.0
W = np.zeros((10, 50))
for j in range(10):
    W[j, :5 * (j + 1)] = np.arange(1, 5 * (j + 1) + 1) / 7.0
assert np.count_nonzero(O @ W) == 27500
np.savetxt(os.path.join(folder, "onehot.csv"), O, delimiter=",")
np.savetxt(os.path.join(folder, "w.csv"), W, delimiter=",")
