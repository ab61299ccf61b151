"""Data and NumPy oracle for test/Integration/library-image.dml: the DML
library's image functions (img_brightness, img_mirror, img_invert,
img_crop, img_translate, img_transform, img_transform_linearized,
img_rotate).

  library_image.py data DIR    writes the inputs (CSV) into DIR
  library_image.py check DIR   compares the script's outputs in DIR

The geometric functions are recomputed pixel by pixel: each output pixel
looks up its source pixel (translation: the pixel offset by the rounded
offsets; affine maps: the pixel containing the output pixel's centre
mapped back by the inverse map, the adjugate over the determinant, with
the products summed left to right as SystemDS's matrix product does, so
that floor() sees the same numbers), or gets the fill value.
"""

import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_ml import oracle_main  # noqa: E402


def inputs():
    rng = np.random.default_rng(47)
    return dict(I1=rng.integers(0, 256, (7, 10)).astype(float),
                I2=rng.integers(0, 256, (6, 6)).astype(float),
                # three 4 x 5 images, one per row
                L=rng.integers(0, 256, (3, 20)).astype(float))


def java_round(v):
    """DML's round (Java's Math.round): halves up."""
    return math.floor(v + 0.5)


def crop(img, w, h, x_off, y_off):
    H, W = img.shape
    top = math.ceil((H - h) / 2) + y_off  # 1-based
    left = math.ceil((W - w) / 2) + x_off
    if top < 1 or left < 1 or top + h - 1 > H or left + w - 1 > W:
        return img
    return img[top - 1:top - 1 + h, left - 1:left - 1 + w]


def translate(img, ox, oy, out_w, out_h, fill):
    H, W = img.shape
    dx, dy = java_round(ox), java_round(oy)
    out = np.full((out_h, out_w), fill, dtype=float)
    for i in range(out_h):
        for j in range(out_w):
            si, sj = i - dy, j - dx
            if 0 <= si < H and 0 <= sj < W:
                out[i, j] = img[si, sj]
    return out


def transform_linear(img, H, W, out_w, out_h, a, b, c, d, e, f, fill):
    """One linearized (row-major) H x W image -> out_h * out_w values."""
    det = a * e - b * d
    inv = [e / det, -b / det, (b * f - c * e) / det,
           -d / det, a / det, (c * d - a * f) / det]
    out = np.empty(out_h * out_w)
    for y in range(out_h):
        for x in range(out_w):
            cx, cy = x + 0.5, y + 0.5
            sx = math.floor(inv[0] * cx + inv[1] * cy + inv[2])  # 0-based
            sy = math.floor(inv[3] * cx + inv[4] * cy + inv[5])
            inside = 0 <= sx < W and 0 <= sy < H
            out[y * out_w + x] = img[sy * W + sx] if inside else fill
    return out


def transform(img, out_w, out_h, a, b, c, d, e, f, fill):
    if a * e - b * d == 0:
        return img
    H, W = img.shape
    return transform_linear(img.ravel(), H, W, out_w, out_h, a, b, c, d, e,
                            f, fill).reshape(out_h, out_w)


def rotate(img, r, fill):
    H, W = img.shape
    cx, cy = W / 2, H / 2
    co, si = math.cos(r), math.sin(r)
    # rows 1 and 2 of [1 0 cx; 0 1 cy] [co si 0; -si co 0; 0 0 1]
    # [1 0 -cx; 0 1 -cy], each sum left to right
    return transform(img, W, H, co, si, co * -cx + si * -cy + cx, -si, co,
                     -si * -cx + co * -cy + cy, fill)


def expected_outputs(d):
    I1, I2, L = d["I1"], d["I2"], d["L"]
    out = {}
    out["bright"] = (np.maximum(0, np.minimum(I1 + 60.5, 255)), 0, 0)
    out["bright2"] = (np.clip(I1 - 100, 0, 120), 0, 0)
    out["mirror_h"] = (I1[::-1, :], 0, 0)
    out["mirror_v"] = (I1[:, ::-1], 0, 0)
    out["invert"] = (255 - I1, 0, 0)
    # 3 x 4: the top row ceil((7 - 3) / 2) = 2, the left column
    # ceil((10 - 4) / 2) = 3 (1-based, SystemDS's formula)
    out["crop1"] = (I1[1:4, 2:6], 0, 0)
    out["crop2"] = (crop(I1, 5, 4, -2, 1), 0, 0)
    out["crop3"] = (I1, 0, 0)  # out of bounds (columns 6-11): the input
    out["crop4"] = (I1, 0, 0)  # the whole image (its top row 0: the input)
    out["crop5"] = (I2[2:3, 2:3], 0, 0)  # 1 x 1: row and column ceil(5 / 2)
    for name, args in (("tr1", (2.3, -1.7, 10, 7, 0.0)),
                       ("tr2", (-3, 2, 12, 9, 255.0)),
                       ("tr3", (1, 1, 4, 5, -1.0)),
                       ("tr4", (9, 0, 10, 7, 7.0)),
                       ("tr5", (20, 0, 10, 7, 3.0)),
                       ("tr6", (-0.5, 0.5, 10, 7, 3.0))):
        out[name] = (translate(I1, *args), 0, 0)
    out["tf1"] = (transform(I1, 12, 9, 1.5, 0.3, -1, -0.2, 0.8, 2, 255), 0, 0)
    out["tf2"] = (transform(I1, 10, 7, -1, 0, 10, 0, 1, 0, 255), 0, 0)
    out["tf3"] = (I1, 0, 0)  # singular: the input
    out["tf4"] = (transform(I2, 4, 8, 0.5, 0, 0, 0, 2, 0, 9), 0, 0)
    out["rot1"] = (rotate(I1, 0.5, 0), 0, 0)
    out["rot2"] = (rotate(I2, 3.14159, 255), 0, 0)
    out["rot3"] = (rotate(I2, math.pi / 2, 255), 0, 0)
    out["rot4"] = (rotate(I1, -1.0, 128), 0, 0)
    out["lin1"] = (np.vstack([transform_linear(L[i], 4, 5, 6, 5, 1.2, -0.4,
                                               0.5, 0.3, 0.9, -1, 255)
                              for i in range(3)]), 0, 0)
    # the mirror map of SystemDS's documentation on one image per row
    out["lin2"] = (np.vstack([transform(L[i].reshape(4, 5), 5, 4, -1, 0, 5,
                                        0, 1, 0, 0).ravel()
                              for i in range(3)]), 0, 0)
    return out


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs))
