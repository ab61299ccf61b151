"""Reference for neural-network.dml: SciPy's 2-D correlation and
convolution per image, channel and filter (not im2col), and pooling of
non-overlapping 2x2 windows by reshaping."""

import numpy as np
from scipy.signal import convolve2d, correlate2d

N, C, H, W, F = 4, 2, 6, 6, 2


def inputs(rng):
    return {"X": rng.standard_normal((N, C * H * W)),
            "W": rng.standard_normal((F, C * 9)),
            "b": rng.standard_normal((F, 1)),
            "dout": rng.standard_normal((N, F * 9))}


def windows(A):
    """The 2x2 windows of N x F x 6 x 6 images as N x F x 3 x 3 x 4 (each
    window's cells in row-major order)."""
    return A.reshape(N, F, 3, 2, 3, 2).transpose(0, 1, 2, 4, 3, 5).reshape(
        N, F, 3, 3, 4)


def unwindows(V):
    """The inverse of windows()."""
    return V.reshape(N, F, 3, 3, 2, 2).transpose(0, 1, 2, 4, 3, 5).reshape(
        N, F, H, W)


def expected(i):
    X = np.pad(i["X"].reshape(N, C, H, W), ((0, 0), (0, 0), (1, 1), (1, 1)))
    K = i["W"].reshape(F, C, 3, 3)
    Y = np.array([[sum(correlate2d(X[n, c], K[f, c], mode="valid")
                       for c in range(C)) for f in range(F)]
                  for n in range(N)])
    A = np.maximum(Y + i["b"].reshape(1, F, 1, 1), 0)
    V = windows(A)
    D = i["dout"].reshape(N, F, 3, 3)
    first = np.argmax(V, axis=4)  # the first maximal cell
    dV = np.zeros_like(V)
    np.put_along_axis(dV, first[..., None], D[..., None], axis=4)
    dY = unwindows(dV) * (A > 0)
    dW = np.array([[sum(correlate2d(X[n, c], dY[n, f], mode="valid")
                        for n in range(N)) for c in range(C)]
                   for f in range(F)])
    dXp = np.array([[sum(convolve2d(dY[n, f], K[f, c], mode="full")
                         for f in range(F)) for c in range(C)]
                    for n in range(N)])
    davg = unwindows(np.repeat(D[..., None] / 4, 4, axis=4))
    return {"out": Y.reshape(N, -1), "pooled": V.max(axis=4).reshape(N, -1),
            "dW": dW.reshape(F, -1), "dX": dXp[:, :, 1:-1, 1:-1].reshape(N, -1),
            "avg": V.mean(axis=4).reshape(N, -1),
            "davg": davg.reshape(N, -1)}
