//===- Convolution.cpp - conv2d, pooling and their gradients --------------===//
//
// DML's deep-learning builtins on SystemDS's layout: N images of C
// channels of H x W pixels are an N x (C*H*W) matrix, filters an
// F x (C*R*S) matrix, outputs P x Q pixels per channel or filter.
//
// The convolutions go through im2col and one OpenBLAS gemm per batch of
// images: the batch's windows become the columns of a (C*R*S) x (B*P*Q)
// matrix (built in parallel, a row per thread), so that conv2d is
// W %*% cols, its filter gradient dout %*% t(cols) and its input gradient
// t(W) %*% dout scattered back (col2im, in parallel over images). Batches
// bound the scratch matrix. Pooling is direct loops, in parallel over
// images. Results follow SystemDS (LibMatrixDNN*): zero padding for
// convolutions; pooling windows clipped to the image, max starting from
// -DBL_MAX and propagating NaN, average over R*S, the max gradient to the
// first maximal cell.
//
// Every kernel first checks the geometry (positive sizes and strides,
// paddings of 0 or more, a window that fits the padded image) and the
// matrices' sizes against it, and stops the program with an error naming
// the op otherwise.
//
//===----------------------------------------------------------------------===//

#include "OpenBlas.h"
#include "SparseSupport.h"

#include <cfloat>

using amls::runtime::fail;
using amls::runtime::memory::Vector;
using amls::runtime::sparse::runThreads;
using amls::runtime::sparse::threadsFor;

namespace {

/// The geometry of one call, with the output's P x Q.
struct Geometry {
  int64_t n, c, h, w, f, r, s, strideH, strideW, padH, padW, p = 0, q = 0;
  int64_t hw() const { return h * w; }
  int64_t pq() const { return p * q; }
  int64_t crs() const { return c * r * s; }
};

/// The kernel being run: its DML name and the op's position for messages.
struct Kernel {
  const char *name;
  const char *where;

  [[noreturn]] void error(const std::string &problem) const {
    std::string message = std::string(name) + ": " + problem;
    fail(where && *where ? std::string(where) + ": " + message : message);
  }

  /// Checks the geometry's values and computes P and Q; `filters` says
  /// whether it has F (pooling has none).
  void check(Geometry &g, bool filters) const {
    auto atLeast = [&](int64_t value, int64_t min, const char *what) {
      if (value < min)
        error(std::string("expects ") + what + " to be at least " +
              std::to_string(min) + ", found " + std::to_string(value));
    };
    atLeast(g.n, 1, "the number of images");
    atLeast(g.c, 1, "the number of channels");
    atLeast(g.h, 1, "the image height");
    atLeast(g.w, 1, "the image width");
    if (filters)
      atLeast(g.f, 1, "the number of filters");
    atLeast(g.r, 1, "the window height");
    atLeast(g.s, 1, "the window width");
    atLeast(g.strideH, 1, "the vertical stride");
    atLeast(g.strideW, 1, "the horizontal stride");
    atLeast(g.padH, 0, "the vertical padding");
    atLeast(g.padW, 0, "the horizontal padding");
    // Values up to 2^31 keep the sums below from overflowing; the products
    // are checked after them.
    for (int64_t value : {g.n, g.c, g.h, g.w, g.f, g.r, g.s, g.strideH,
                          g.strideW, g.padH, g.padW})
      if (value > (int64_t(1) << 31))
        error("a value of the geometry exceeds 2^31: " + std::to_string(value));
    auto fits = [&](int64_t size, int64_t window, int64_t pad,
                    const char *dimension) {
      if (window > size + 2 * pad)
        error("the " + std::to_string(window) + "-pixel window " + dimension +
              " exceeds the image's " + std::to_string(size) +
              " pixels padded by " + std::to_string(pad) + " on each side");
    };
    fits(g.h, g.r, g.padH, "height");
    fits(g.w, g.s, g.padW, "width");
    g.p = (g.h + 2 * g.padH - g.r) / g.strideH + 1;
    g.q = (g.w + 2 * g.padW - g.s) / g.strideW + 1;
    const int64_t products[][3] = {
        {g.c, g.h, g.w}, {g.c, g.r, g.s}, {g.f, g.p, g.q}, {g.c, g.p, g.q}};
    for (const auto &factors : products) {
      int64_t product = 1;
      for (int64_t factor : factors)
        if (__builtin_mul_overflow(product, factor, &product))
          error("the geometry's sizes overflow 64-bit products");
    }
  }

  /// Checks that `m` (`what`) is rows x cols (`shape` names the columns).
  void checkMatrix(const AmlsMatrixF64 *m, const char *what, int64_t rows,
                   int64_t cols, const char *shape) const {
    if (m->sizes[0] != rows || m->sizes[1] != cols)
      error(std::string("expects ") + what + " to be " + std::to_string(rows) +
            " x " + std::to_string(cols) + " (" + shape + "), found " +
            std::to_string(m->sizes[0]) + " x " + std::to_string(m->sizes[1]));
  }
};

/// A row-major view of a matrix: its cells where the rows are contiguous,
/// else a contiguous copy.
class RowMajor {
public:
  explicit RowMajor(const AmlsMatrixF64 *m)
      : rows(m->sizes[0]), cols(m->sizes[1]) {
    const double *origin = m->aligned + m->offset;
    if (m->strides[1] == 1 && (rows <= 1 || m->strides[0] >= cols)) {
      data = origin;
      ld = rows <= 1 ? cols : m->strides[0];
      return;
    }
    copy.resize(std::max<int64_t>(rows * cols, 1));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        copy[i * cols + j] = origin[i * m->strides[0] + j * m->strides[1]];
    data = copy.data();
    ld = cols;
  }
  const double *row(int64_t i) const { return data + i * ld; }
  int64_t leading() const { return std::max<int64_t>(ld, 1); }

private:
  int64_t rows, cols;
  const double *data = nullptr;
  int64_t ld = 0;
  Vector<double> copy;
};

/// The result buffer, written through contiguous rows (a scratch copy,
/// written back by `finish`, where the buffer's rows are not).
class Output {
public:
  explicit Output(AmlsMatrixF64 *m)
      : m(m), rows(m->sizes[0]), cols(m->sizes[1]) {
    if (m->strides[1] == 1 && (rows <= 1 || m->strides[0] >= cols)) {
      data = m->aligned + m->offset;
      ld = rows <= 1 ? cols : m->strides[0];
    } else {
      scratch.resize(std::max<int64_t>(rows * cols, 1));
      data = scratch.data();
      ld = cols;
    }
    for (int64_t i = 0; i < rows; ++i)
      std::fill(row(i), row(i) + cols, 0.0);
  }
  double *row(int64_t i) { return data + i * ld; }
  int64_t leading() const { return std::max<int64_t>(ld, 1); }
  void finish() {
    if (scratch.empty())
      return;
    double *origin = m->aligned + m->offset;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        origin[i * m->strides[0] + j * m->strides[1]] = scratch[i * cols + j];
  }

private:
  AmlsMatrixF64 *m;
  int64_t rows, cols;
  double *data = nullptr;
  int64_t ld = 0;
  Vector<double> scratch;
};

enum { kRowMajor = 101, kNoTrans = 111, kTrans = 112 };
using DgemmFn = void (*)(int, int, int, int, int, int, double, const double *,
                         int, const double *, int, double, double *, int);

/// C (m x n) = alpha op(A) op(B) + beta C, row-major, through OpenBLAS
/// (loops where it is missing).
void dgemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
           const double *a, int64_t lda, const double *b, int64_t ldb,
           double beta, double *c, int64_t ldc) {
  if (m == 0 || n == 0)
    return;
  static const auto blas =
      reinterpret_cast<DgemmFn>(amls::runtime::openBlasSymbol("cblas_dgemm"));
  if (blas && m <= INT32_MAX && n <= INT32_MAX && k <= INT32_MAX &&
      lda <= INT32_MAX && ldb <= INT32_MAX && ldc <= INT32_MAX) {
    blas(kRowMajor, transA ? kTrans : kNoTrans, transB ? kTrans : kNoTrans,
         int(m), int(n), int(k), 1.0, a, int(lda), b, int(ldb), beta, c,
         int(ldc));
    return;
  }
  for (int64_t i = 0; i < m; ++i) {
    double *row = c + i * ldc;
    for (int64_t j = 0; j < n; ++j)
      row[j] *= beta;
    for (int64_t l = 0; l < k; ++l) {
      double ail = transA ? a[l * lda + i] : a[i * lda + l];
      for (int64_t j = 0; j < n; ++j)
        row[j] += ail * (transB ? b[j * ldb + l] : b[l * ldb + j]);
    }
  }
}

/// The batches of images the convolutions process at once: as many as
/// keep the (C*R*S) x (B*P*Q) scratch matrix within 32 MiB, at least one.
int64_t batchSize(const Geometry &g) {
  int64_t perImage = std::max<int64_t>(g.crs() * g.pq(), 1);
  return std::clamp<int64_t>((int64_t(4) << 20) / perImage, 1, g.n);
}

/// The windows of images [first, first + count) as the columns of `cols`
/// ((C*R*S) x (count*P*Q), row-major), zeros in the padding.
void im2col(const Geometry &g, const RowMajor &x, int64_t first, int64_t count,
            double *cols) {
  int64_t width = count * g.pq();
  int64_t threads = threadsFor(g.crs() * width, 1 << 14);
  runThreads(threads, [&](int64_t t) {
    for (int64_t row = t; row < g.crs(); row += threads) {
      int64_t ch = row / (g.r * g.s), rr = row / g.s % g.r, ss = row % g.s;
      double *out = cols + row * width;
      for (int64_t b = 0; b < count; ++b) {
        const double *image = x.row(first + b) + ch * g.hw();
        for (int64_t p = 0; p < g.p; ++p) {
          int64_t hh = p * g.strideH - g.padH + rr;
          double *cell = out + b * g.pq() + p * g.q;
          if (hh < 0 || hh >= g.h) {
            std::fill(cell, cell + g.q, 0.0);
            continue;
          }
          for (int64_t q = 0; q < g.q; ++q) {
            int64_t ww = q * g.strideW - g.padW + ss;
            cell[q] = ww >= 0 && ww < g.w ? image[hh * g.w + ww] : 0.0;
          }
        }
      }
    }
  });
}

/// Images [first, first + count) of `dout` (N x (F*P*Q)) as the
/// F x (count*P*Q) matrix `d`.
void gatherOutput(const Geometry &g, const RowMajor &dout, int64_t first,
                  int64_t count, double *d) {
  int64_t width = count * g.pq();
  for (int64_t b = 0; b < count; ++b)
    for (int64_t f = 0; f < g.f; ++f)
      std::copy_n(dout.row(first + b) + f * g.pq(), g.pq(),
                  d + f * width + b * g.pq());
}

/// The geometry from the call's arguments.
Geometry geometry(int64_t n, int64_t c, int64_t h, int64_t w, int64_t f,
                  int64_t r, int64_t s, int64_t strideH, int64_t strideW,
                  int64_t padH, int64_t padW) {
  return {n, c, h, w, f, r, s, strideH, strideW, padH, padW};
}

} // namespace

extern "C" void
_mlir_ciface_amls_rt_conv2d(AmlsMatrixF64 *input, AmlsMatrixF64 *filter,
                            AmlsMatrixF64 *out, int64_t n, int64_t c, int64_t h,
                            int64_t w, int64_t f, int64_t r, int64_t s,
                            int64_t strideH, int64_t strideW, int64_t padH,
                            int64_t padW, const char *where) {
  Kernel kernel{"conv2d", where};
  Geometry g = geometry(n, c, h, w, f, r, s, strideH, strideW, padH, padW);
  kernel.check(g, /*filters=*/true);
  kernel.checkMatrix(input, "the input", g.n, g.c * g.hw(), "N x C*H*W");
  kernel.checkMatrix(filter, "the filter", g.f, g.crs(), "F x C*R*S");
  kernel.checkMatrix(out, "the result", g.n, g.f * g.pq(), "N x F*P*Q");
  RowMajor x(input), weights(filter);
  Output result(out);
  int64_t batch = batchSize(g);
  Vector<double> cols(g.crs() * batch * g.pq());
  Vector<double> y(g.f * batch * g.pq());
  for (int64_t first = 0; first < g.n; first += batch) {
    int64_t count = std::min(batch, g.n - first), width = count * g.pq();
    im2col(g, x, first, count, cols.data());
    dgemm(false, false, g.f, width, g.crs(), weights.row(0), weights.leading(),
          cols.data(), width, 0.0, y.data(), width);
    // y is F x (count*P*Q); each image's row is F blocks of P*Q.
    int64_t threads = threadsFor(count * g.f * g.pq(), 1 << 14);
    runThreads(threads, [&](int64_t t) {
      for (int64_t b = t; b < count; b += threads)
        for (int64_t k = 0; k < g.f; ++k)
          std::copy_n(y.data() + k * width + b * g.pq(), g.pq(),
                      result.row(first + b) + k * g.pq());
    });
  }
  result.finish();
}

extern "C" void _mlir_ciface_amls_rt_conv2d_backward_filter(
    AmlsMatrixF64 *input, AmlsMatrixF64 *doutMatrix, AmlsMatrixF64 *out,
    int64_t n, int64_t c, int64_t h, int64_t w, int64_t f, int64_t r, int64_t s,
    int64_t strideH, int64_t strideW, int64_t padH, int64_t padW,
    const char *where) {
  Kernel kernel{"conv2d_backward_filter", where};
  Geometry g = geometry(n, c, h, w, f, r, s, strideH, strideW, padH, padW);
  kernel.check(g, /*filters=*/true);
  kernel.checkMatrix(input, "the input", g.n, g.c * g.hw(), "N x C*H*W");
  kernel.checkMatrix(doutMatrix, "the output gradient", g.n, g.f * g.pq(),
                     "N x F*P*Q");
  kernel.checkMatrix(out, "the result", g.f, g.crs(), "F x C*R*S");
  RowMajor x(input), dout(doutMatrix);
  Output result(out);
  int64_t batch = batchSize(g);
  Vector<double> cols(g.crs() * batch * g.pq());
  Vector<double> d(g.f * batch * g.pq());
  for (int64_t first = 0; first < g.n; first += batch) {
    int64_t count = std::min(batch, g.n - first), width = count * g.pq();
    im2col(g, x, first, count, cols.data());
    gatherOutput(g, dout, first, count, d.data());
    // dW += d %*% t(cols), summing the batches.
    dgemm(false, true, g.f, g.crs(), width, d.data(), width, cols.data(), width,
          1.0, result.row(0), result.leading());
  }
  result.finish();
}

extern "C" void _mlir_ciface_amls_rt_conv2d_backward_data(
    AmlsMatrixF64 *filter, AmlsMatrixF64 *doutMatrix, AmlsMatrixF64 *out,
    int64_t n, int64_t c, int64_t h, int64_t w, int64_t f, int64_t r, int64_t s,
    int64_t strideH, int64_t strideW, int64_t padH, int64_t padW,
    const char *where) {
  Kernel kernel{"conv2d_backward_data", where};
  Geometry g = geometry(n, c, h, w, f, r, s, strideH, strideW, padH, padW);
  kernel.check(g, /*filters=*/true);
  kernel.checkMatrix(filter, "the filter", g.f, g.crs(), "F x C*R*S");
  kernel.checkMatrix(doutMatrix, "the output gradient", g.n, g.f * g.pq(),
                     "N x F*P*Q");
  kernel.checkMatrix(out, "the result", g.n, g.c * g.hw(), "N x C*H*W");
  RowMajor weights(filter), dout(doutMatrix);
  Output result(out);
  int64_t batch = batchSize(g);
  Vector<double> cols(g.crs() * batch * g.pq());
  Vector<double> d(g.f * batch * g.pq());
  for (int64_t first = 0; first < g.n; first += batch) {
    int64_t count = std::min(batch, g.n - first), width = count * g.pq();
    gatherOutput(g, dout, first, count, d.data());
    // The windows' gradients, t(W) %*% d, added back to their pixels.
    dgemm(true, false, g.crs(), width, g.f, weights.row(0), weights.leading(),
          d.data(), width, 0.0, cols.data(), width);
    int64_t threads = threadsFor(count * g.crs() * g.pq(), 1 << 14);
    runThreads(threads, [&](int64_t t) {
      for (int64_t b = t; b < count; b += threads) {
        double *image = result.row(first + b);
        for (int64_t row = 0; row < g.crs(); ++row) {
          int64_t ch = row / (g.r * g.s), rr = row / g.s % g.r, ss = row % g.s;
          const double *window = cols.data() + row * width + b * g.pq();
          for (int64_t p = 0; p < g.p; ++p) {
            int64_t hh = p * g.strideH - g.padH + rr;
            if (hh < 0 || hh >= g.h)
              continue;
            double *pixels = image + ch * g.hw() + hh * g.w;
            for (int64_t q = 0; q < g.q; ++q) {
              int64_t ww = q * g.strideW - g.padW + ss;
              if (ww >= 0 && ww < g.w)
                pixels[ww] += window[p * g.q + q];
            }
          }
        }
      }
    });
  }
  result.finish();
}

namespace {

/// The pooling windows of image channel `pixels` (H x W): body(p, q, h0,
/// h1, w0, w1) for each output pixel with the window clipped to the image.
template <typename Body> void forEachWindow(const Geometry &g, Body &&body) {
  for (int64_t p = 0; p < g.p; ++p) {
    int64_t top = p * g.strideH - g.padH;
    int64_t h0 = std::max<int64_t>(top, 0),
            h1 = std::min<int64_t>(top + g.r, g.h);
    for (int64_t q = 0; q < g.q; ++q) {
      int64_t left = q * g.strideW - g.padW;
      int64_t w0 = std::max<int64_t>(left, 0),
              w1 = std::min<int64_t>(left + g.s, g.w);
      body(p, q, h0, h1, w0, w1);
    }
  }
}

/// Checks a pooling's geometry and input.
Geometry poolGeometry(const Kernel &kernel, AmlsMatrixF64 *input, int64_t n,
                      int64_t c, int64_t h, int64_t w, int64_t r, int64_t s,
                      int64_t strideH, int64_t strideW, int64_t padH,
                      int64_t padW) {
  Geometry g = geometry(n, c, h, w, 1, r, s, strideH, strideW, padH, padW);
  kernel.check(g, /*filters=*/false);
  kernel.checkMatrix(input, "the input", g.n, g.c * g.hw(), "N x C*H*W");
  return g;
}

} // namespace

extern "C" void _mlir_ciface_amls_rt_pool(
    AmlsMatrixF64 *input, AmlsMatrixF64 *out, int32_t kind, int64_t n,
    int64_t c, int64_t h, int64_t w, int64_t r, int64_t s, int64_t strideH,
    int64_t strideW, int64_t padH, int64_t padW, const char *where) {
  bool max = kind == AMLS_POOL_MAX;
  Kernel kernel{max ? "max_pool" : "avg_pool", where};
  if (kind != AMLS_POOL_MAX && kind != AMLS_POOL_AVG)
    kernel.error("unknown pooling " + std::to_string(kind));
  Geometry g = poolGeometry(kernel, input, n, c, h, w, r, s, strideH, strideW,
                            padH, padW);
  kernel.checkMatrix(out, "the result", g.n, g.c * g.pq(), "N x C*P*Q");
  RowMajor x(input);
  Output result(out);
  double scale = 1.0 / double(g.r * g.s);
  int64_t threads = threadsFor(g.n * g.c * g.hw(), 1 << 14);
  runThreads(threads, [&](int64_t t) {
    for (int64_t i = t; i < g.n; i += threads)
      for (int64_t ch = 0; ch < g.c; ++ch) {
        const double *pixels = x.row(i) + ch * g.hw();
        double *cells = result.row(i) + ch * g.pq();
        forEachWindow(g, [&](int64_t p, int64_t q, int64_t h0, int64_t h1,
                             int64_t w0, int64_t w1) {
          double value = max ? -DBL_MAX : 0.0;
          for (int64_t hh = h0; hh < h1; ++hh)
            for (int64_t ww = w0; ww < w1; ++ww) {
              double v = pixels[hh * g.w + ww];
              if (!max)
                value += v;
              else if (std::isnan(v) || v > value)
                value = v; // NaN stays: nothing is greater.
            }
          cells[p * g.q + q] = max ? value : value * scale;
        });
      }
  });
  result.finish();
}

extern "C" void _mlir_ciface_amls_rt_pool_backward(
    AmlsMatrixF64 *input, AmlsMatrixF64 *doutMatrix, AmlsMatrixF64 *out,
    int32_t kind, int64_t n, int64_t c, int64_t h, int64_t w, int64_t r,
    int64_t s, int64_t strideH, int64_t strideW, int64_t padH, int64_t padW,
    const char *where) {
  bool max = kind == AMLS_POOL_MAX;
  Kernel kernel{max ? "max_pool_backward" : "avg_pool_backward", where};
  if (kind != AMLS_POOL_MAX && kind != AMLS_POOL_AVG)
    kernel.error("unknown pooling " + std::to_string(kind));
  Geometry g = poolGeometry(kernel, input, n, c, h, w, r, s, strideH, strideW,
                            padH, padW);
  kernel.checkMatrix(doutMatrix, "the output gradient", g.n, g.c * g.pq(),
                     "N x C*P*Q");
  kernel.checkMatrix(out, "the result", g.n, g.c * g.hw(), "N x C*H*W");
  RowMajor x(input), dout(doutMatrix);
  Output result(out);
  double scale = 1.0 / double(g.r * g.s);
  int64_t threads = threadsFor(g.n * g.c * g.hw(), 1 << 14);
  runThreads(threads, [&](int64_t t) {
    for (int64_t i = t; i < g.n; i += threads)
      for (int64_t ch = 0; ch < g.c; ++ch) {
        const double *pixels = x.row(i) + ch * g.hw();
        const double *gradient = dout.row(i) + ch * g.pq();
        double *cells = result.row(i) + ch * g.hw();
        forEachWindow(g, [&](int64_t p, int64_t q, int64_t h0, int64_t h1,
                             int64_t w0, int64_t w1) {
          double d = gradient[p * g.q + q];
          if (!max) {
            for (int64_t hh = h0; hh < h1; ++hh)
              for (int64_t ww = w0; ww < w1; ++ww)
                cells[hh * g.w + ww] += scale * d;
            return;
          }
          // The first maximal cell (NaN cells never are); none in a
          // window of -inf and NaN cells only.
          int64_t best = -1;
          double bestValue = -INFINITY;
          for (int64_t hh = h0; hh < h1; ++hh)
            for (int64_t ww = w0; ww < w1; ++ww)
              if (pixels[hh * g.w + ww] > bestValue) {
                bestValue = pixels[hh * g.w + ww];
                best = hh * g.w + ww;
              }
          if (best >= 0)
            cells[best] += d;
        });
      }
  });
  result.finish();
}
