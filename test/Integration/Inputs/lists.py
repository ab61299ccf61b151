"""Data and NumPy oracle for test/Integration/lists.dml.

  lists.py data DIR    writes the inputs (CSV) into DIR
  lists.py check DIR   compares the script's outputs in DIR with NumPy
"""

import os
import sys

import numpy as np

from results import check


def inputs():
    rng = np.random.default_rng(5)
    X = rng.standard_normal((120, 5))
    y = X @ [2.0, -1.0, 0.5, 0.0, 3.0] + 4 + 0.3 * rng.standard_normal(120)
    return X, y.reshape(-1, 1)


def train_mean(X, y, reg):
    return np.zeros((X.shape[1], 1)), y.mean()


def train_gd(X, y, reg):
    """The script's 50 gradient steps, in the same order of operations."""
    B, b = np.zeros((X.shape[1], 1)), 0.0
    for _ in range(50):
        r = X @ B + b - y
        B = B - 0.1 * (X.T @ r / len(X) + reg * B)
        b = b - 0.1 * r.mean()
    return B, b


def train_cg(X, y, reg):
    """lmCG's solution: the regularized normal equations."""
    m = X.shape[1]
    return np.linalg.solve(X.T @ X + reg * np.eye(m), X.T @ y), 0.0


def main():
    mode, directory = sys.argv[1], sys.argv[2]
    X, y = inputs()
    if mode == "data":
        np.savetxt(os.path.join(directory, "X.csv"), X, delimiter=",",
                   fmt="%.17g")
        np.savetxt(os.path.join(directory, "y.csv"), y, delimiter=",",
                   fmt="%.17g")
        return 0
    read = lambda name: np.atleast_2d(np.loadtxt(
        os.path.join(directory, name + ".csv"), delimiter=",", ndmin=2))
    regs = [0.001, 0.1, 1]
    trainers = [train_mean, train_gd, train_cg]
    losses = np.zeros((3, 3))
    best, best_loss, best_B = 0, np.inf, None
    for i, train in enumerate(trainers):
        for j, reg in enumerate(regs):
            B, b = train(X, y, reg)
            loss = ((X @ B + b - y) ** 2).sum() / len(y)
            losses[i, j] = loss
            if loss < best_loss:
                best, best_loss, best_B = i + 1, loss, B
    folds = np.split(np.arange(len(X)), 4)
    cv = np.zeros((1, 3))
    for j, reg in enumerate(regs):
        total = 0.0
        for f in range(4):
            train = np.concatenate([folds[g] for g in range(4) if g != f])
            B, b = train_gd(X[train], y[train], reg)
            test = folds[f]
            total += np.abs(X[test] @ B + b - y[test]).sum() / len(test)
        cv[0, j] = total / 4
    expected = {"losses": losses, "B_best": best_B, "best": np.array([[best]]),
                "cv_loss": cv,
                "model_b": np.array([[y.mean()]])}
    failures = 0
    for name, value in sorted(expected.items()):
        actual = read(name)
        # lmCG to a residual of 1e-12; gradient descent repeats exactly.
        failures += not check(name, actual, value, 1e-8, 1e-10)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
