"""Data and NumPy oracle for test/Integration/neural-network.dml.

  neural_network.py data DIR    writes the inputs (CSV) into DIR
  neural_network.py check DIR   compares the script's outputs in DIR

Convolution and pooling written directly in NumPy (a loop over the output
pixels, each an einsum or a reduction over its window), not by im2col as
the runtime computes them, with SystemDS's conventions: images are rows of
C*H*W cells, zero padding for convolutions, pooling windows clipped to
the image, the average over R*S, the max gradient to the first maximal
cell in row-major order.
"""

import os
import sys

import numpy as np

from results import check

# N, C, H, W, F, R, S, stride_h, stride_w, pad_h, pad_w
CASES = [
    (2, 3, 5, 5, 4, 3, 3, 1, 1, 1, 1),
    (3, 2, 7, 6, 3, 3, 2, 2, 1, 0, 1),
    (1, 1, 4, 4, 2, 2, 2, 2, 2, 0, 0),
    (5, 4, 8, 9, 6, 5, 4, 3, 2, 2, 1),
    # Several batches of images in the runtime's im2col (C*R*S x P*Q of
    # 800 x 2304 per image).
    (3, 32, 48, 48, 2, 5, 5, 1, 1, 2, 2),
]
# The cases whose pooling is checked too (the large one only convolves).
POOLED = range(4)


def out_size(size, window, stride, pad):
    return (size + 2 * pad - window) // stride + 1


def conv2d(X, W, g):
    N, C, H, Wd, F, R, S, sh, sw, ph, pw = g
    P, Q = out_size(H, R, sh, ph), out_size(Wd, S, sw, pw)
    Xp = np.pad(X.reshape(N, C, H, Wd), ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    Wf = W.reshape(F, C, R, S)
    out = np.zeros((N, F, P, Q))
    for p in range(P):
        for q in range(Q):
            window = Xp[:, :, p * sh:p * sh + R, q * sw:q * sw + S]
            out[:, :, p, q] = np.einsum("ncrs,fcrs->nf", window, Wf)
    return out.reshape(N, -1)


def conv2d_backward(X, W, dout, g):
    """The filter and input gradients."""
    N, C, H, Wd, F, R, S, sh, sw, ph, pw = g
    P, Q = out_size(H, R, sh, ph), out_size(Wd, S, sw, pw)
    Xp = np.pad(X.reshape(N, C, H, Wd), ((0, 0), (0, 0), (ph, ph), (pw, pw)))
    Wf = W.reshape(F, C, R, S)
    D = dout.reshape(N, F, P, Q)
    dW = np.zeros((F, C, R, S))
    dXp = np.zeros_like(Xp)
    for p in range(P):
        for q in range(Q):
            rows, cols = slice(p * sh, p * sh + R), slice(q * sw, q * sw + S)
            dW += np.einsum("nf,ncrs->fcrs", D[:, :, p, q], Xp[:, :, rows, cols])
            dXp[:, :, rows, cols] += np.einsum("nf,fcrs->ncrs", D[:, :, p, q],
                                               Wf)
    dX = dXp[:, :, ph:ph + H, pw:pw + Wd]
    return dW.reshape(F, -1), dX.reshape(N, -1)


def windows(g):
    """(p, q, rows, cols) of each pooling window clipped to the image."""
    N, C, H, Wd, F, R, S, sh, sw, ph, pw = g
    for p in range(out_size(H, R, sh, ph)):
        for q in range(out_size(Wd, S, sw, pw)):
            top, left = p * sh - ph, q * sw - pw
            yield (p, q, slice(max(top, 0), min(top + R, H)),
                   slice(max(left, 0), min(left + S, Wd)))


def pool(X, g, kind):
    N, C, H, Wd, F, R, S, sh, sw, ph, pw = g
    P, Q = out_size(H, R, sh, ph), out_size(Wd, S, sw, pw)
    I = X.reshape(N, C, H, Wd)
    out = np.zeros((N, C, P, Q))
    for p, q, rows, cols in windows(g):
        cells = I[:, :, rows, cols]
        out[:, :, p, q] = (cells.max(axis=(2, 3)) if kind == "max"
                           else cells.sum(axis=(2, 3)) / (R * S))
    return out.reshape(N, -1)


def pool_backward(X, dout, g, kind):
    N, C, H, Wd, F, R, S, sh, sw, ph, pw = g
    P, Q = out_size(H, R, sh, ph), out_size(Wd, S, sw, pw)
    I = X.reshape(N, C, H, Wd)
    D = dout.reshape(N, C, P, Q)
    dX = np.zeros((N, C, H, Wd))
    for p, q, rows, cols in windows(g):
        if kind == "avg":
            dX[:, :, rows, cols] += D[:, :, p, q][:, :, None, None] / (R * S)
            continue
        width = cols.stop - cols.start
        for n in range(N):
            for c in range(C):
                first = np.argmax(I[n, c, rows, cols])  # row-major, first max
                dX[n, c, rows.start + first // width,
                   cols.start + first % width] += D[n, c, p, q]
    return dX.reshape(N, -1)


def inputs():
    rng = np.random.default_rng(18)
    data = {}
    for k, g in enumerate(CASES, 1):
        N, C, H, Wd, F, R, S, sh, sw, ph, pw = g
        P, Q = out_size(H, R, sh, ph), out_size(Wd, S, sw, pw)
        data[f"G{k}"] = np.array([g], dtype=float)
        data[f"X{k}"] = rng.standard_normal((N, C * H * Wd))
        data[f"W{k}"] = rng.standard_normal((F, C * R * S))
        data[f"dY{k}"] = rng.standard_normal((N, F * P * Q))
        data[f"dP{k}"] = rng.standard_normal((N, C * P * Q))
    return data


def expected(data):
    results = {}
    for k, g in enumerate(CASES, 1):
        X, W, dY, dP = (data[f"{v}{k}"] for v in ("X", "W", "dY", "dP"))
        results[f"conv{k}"] = conv2d(X, W, g)
        results[f"dW{k}"], results[f"dX{k}"] = conv2d_backward(X, W, dY, g)
        if k - 1 not in POOLED:
            continue
        for kind in ("max", "avg"):
            results[f"{kind}{k}"] = pool(X, g, kind)
            results[f"{kind}Back{k}"] = pool_backward(X, dP, g, kind)
    # The first case again, with its geometry written as literals.
    for name in ("conv", "dW", "dX", "max", "avg", "maxBack", "avgBack"):
        results[f"{name}Literal"] = results[f"{name}1"]
    return results


def main():
    command, directory = sys.argv[1], sys.argv[2]
    data = inputs()
    if command == "data":
        for name, matrix in data.items():
            np.savetxt(os.path.join(directory, name + ".csv"), matrix,
                       delimiter=",", fmt="%.17g")
        return
    ok = True
    for name, value in sorted(expected(data).items()):
        actual = np.loadtxt(os.path.join(directory, name + ".csv"),
                            delimiter=",", ndmin=2)
        ok &= check(name, actual, value, rtol=1e-10, atol=1e-10)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
