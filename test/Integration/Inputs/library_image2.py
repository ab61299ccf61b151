"""Data and NumPy oracle for test/Integration/library-image2.dml: the DML
library's further image functions (img_cutout, img_posterize, img_shear,
img_sample_pairing) and the linearized variants (img_crop_linearized,
img_translate_linearized, img_rotate_linearized, img_shear_linearized,
img_cutout_linearized, img_posterize_linearized,
img_sample_pairing_linearized).

  library_image2.py data DIR    writes the inputs (CSV) into DIR
  library_image2.py check DIR   compares the script's outputs in DIR

The linearized functions are checked against the 2-D oracles applied to
each row reshaped to its image; the geometric ones pixel by pixel (see
library_image.py, whose crop, translate, transform and rotate oracles
these use).
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from library_ml import oracle_main  # noqa: E402
from library_image import crop, rotate, translate, transform  # noqa: E402

H, W = 4, 5  # the size of the linearized images


def inputs():
    rng = np.random.default_rng(53)
    L = rng.integers(0, 256, (3, H * W)).astype(float)
    L[:, 7] = 0  # a column of zeros: crop must keep it
    return dict(I1=rng.integers(0, 256, (7, 10)).astype(float),
                I2=rng.integers(0, 256, (7, 10)).astype(float),
                L=L,
                P=rng.integers(0, 256, (1, H * W)).astype(float))


def cutout(img, x, y, width, height, fill):
    """Columns max(1, x)..x + width - 1, rows likewise (1-based, clipped)."""
    out = img.copy()
    if width < 1 or height < 1:
        return out
    for i in range(img.shape[0]):
        for j in range(img.shape[1]):
            if x <= j + 1 <= x + width - 1 and y <= i + 1 <= y + height - 1:
                out[i, j] = fill
    return out


def cutout_lin(img, x, y, width, height, fill):
    """SystemDS's linearized variant: the size counts from the clipped
    corner."""
    return cutout(img, max(1, x), max(1, y), width, height, fill)


def posterize(img, bits):
    step = 2.0 ** (8 - bits)
    return np.floor(img / step) * step


def shear(img, sx, sy, fill):
    h, w = img.shape
    if 1 * 1 - sx * sy == 0:
        return img
    return transform(img, w, h, 1, sx, 0, sy, 1, 0, fill)


def pair(a, b, weight):
    if weight < 0 or weight > 1:
        weight = 0.5
    return (1 - weight) * a + weight * b


def per_image(L, f, h=H, w=W):
    """f applied to each row of L as an h x w image, the results as rows."""
    return np.vstack([f(L[i].reshape(h, w)).ravel() for i in range(len(L))])


def expected_outputs(d):
    I1, I2, L, P = d["I1"], d["I2"], d["L"], d["P"]
    out = {}
    out["cut1"] = (cutout(I1, 3, 2, 4, 3, 0), 0, 0)
    out["cut2"] = (cutout(I1, -1, 5, 4, 10, 255), 0, 0)
    out["cut3"] = (cutout(I1, 8, 0, 9, 1, -7), 0, 0)
    out["cut4"] = (I1, 0, 0)  # width 0: the input
    out["cut5"] = (I1, 0, 0)  # beyond the last column: nothing painted
    out["post1"] = (np.where(I1 >= 128, 128.0, 0.0), 0, 0)
    out["post3"] = (posterize(I1, 3), 0, 0)
    out["post8"] = (I1, 0, 0)
    out["postl2"] = (posterize(L, 2), 0, 0)
    out["shear1"] = (shear(I1, 0.5, 0, 255), 0, 0)
    out["shear2"] = (shear(I1, -0.3, 0.2, 0), 0, 0)
    out["shear3"] = (I1, 0, 0)  # 2 * 0.5 = 1: singular, the input
    out["shearl1"] = (per_image(L, lambda m: shear(m, 0.4, -0.25, 9)), 0, 0)
    out["pair1"] = (0.7 * I1 + 0.3 * I2, 1e-12, 1e-9)
    out["pair2"] = (pair(I1, I2, 1.5), 1e-12, 1e-9)
    out["pairl1"] = (np.vstack([pair(r, P[0], 0.75) for r in L]), 1e-12, 1e-9)
    out["pairl2"] = (np.vstack([pair(r, P[0], -1) for r in L]), 1e-12, 1e-9)
    out["cropl1"] = (per_image(L, lambda m: crop(m, 3, 2, 0, 0)), 0, 0)
    out["cropl2"] = (per_image(L, lambda m: crop(m, 2, 3, 2, 0)), 0, 0)
    out["cropl3"] = (L, 0, 0)  # columns 4-6 of 5: the input
    for name, args in (("trl1", (1.6, -0.7, 5, 4, 0.0)),
                       ("trl2", (-2, 3, 7, 6, 255.0)),
                       ("trl3", (4, 0, 3, 2, -1.0)),
                       ("trl4", (4, 3, 5, 4, 8.0)),
                       ("trl5", (0, -9, 5, 4, 8.0))):
        out[name] = (per_image(L, lambda m: translate(m, *args)), 0, 0)
    out["rotl1"] = (per_image(L, lambda m: rotate(m, 0.6, 0)), 0, 0)
    out["rotl2"] = (per_image(L, lambda m: rotate(m, 3.14159, 255)), 0, 0)
    out["cutl1"] = (per_image(L, lambda m: cutout_lin(m, 2, 2, 2, 2, 0)), 0,
                    0)
    # the corner clipped to column 1 first: columns 1-3 (img_cutout: 1)
    out["cutl2"] = (per_image(L, lambda m: cutout_lin(m, -1, 3, 3, 5, 255)),
                    0, 0)
    out["cutl3"] = (L, 0, 0)  # height 0: the input
    return out


if __name__ == "__main__":
    sys.exit(oracle_main(inputs, expected_outputs))
