"""NumPy references of test/Integration/compressed-loops.mlir."""


def binned(rows, cols):
    """rows x cols of binned values, column c with 2 + 5c bins."""
    return np.stack([rng.integers(0, 2 + 5 * c, rows) * 0.5 - 1.0
                     for c in range(cols)], axis=1)


def power_steps(X, v, steps):
    for _ in range(steps):
        g = X.T @ (X @ v)
        v = g / np.abs(g).sum()
    return v


def projections(X, W, steps):
    acc = np.zeros((X.shape[1], W.shape[1]))
    for i in range(steps):
        acc = acc + X.T @ (X @ (W * (i + 1)))
    return acc


def one_hot(codes, categories):
    """The 1-based codes' one-hot matrix, as table(seq(1, n), codes)."""
    return np.eye(categories)[codes[:, 0].astype(int) - 1]
