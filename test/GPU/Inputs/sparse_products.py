"""Writes the CSR operand of test/GPU/sparse-products.dml as a Matrix Market
file and prints what the program must print, computed with SciPy/NumPy
from the same definitions. Usage: sparse_products.py MATRIX.mtx"""
import sys

import numpy as np
import scipy.io
import scipy.sparse

rows, cols = 3000, 2000
i = np.arange(1, rows + 1)[:, None]
j = np.arange(1, cols + 1)[None, :]
# About 1% of the cells: (i + 2j) divisible by 97, holding 1 + (i + j) mod 3.
dense = np.where((i + 2 * j) % 97 == 0, 1.0 + (i + j) % 3, 0.0)
X = scipy.sparse.csr_matrix(dense)
scipy.io.mmwrite(sys.argv[1], X)

# The program's dense operands.
v = (np.arange(1, cols + 1) % 5).astype(float)[:, None]
D = np.outer(np.arange(1, cols + 1) % 7, np.arange(1, 9)).astype(float)
u = (np.arange(1, rows + 1) % 4).astype(float)[None, :]
E = (np.arange(1, 6)[:, None] + np.arange(1, rows + 1)[None, :] % 3).astype(float)
y = X @ v
Z = X @ D
w = (X.T @ u.T).T
F = (X.T @ E.T).T
for value in (np.sum(y * y), np.sum(Z) + np.sum(Z * Z), np.sum(w * w),
              np.sum(F * F), y[16, 0] + Z[2999, 7] + w[0, 1999] + F[4, 0],
              np.sum(np.exp(dense) ** 2)):
    print(repr(float(value)))
