//===- MMChainTest.cpp - One-pass t(X) %*% (w * (X %*% v)) ---------------===//

#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

struct Case {
  int64_t rows, cols;
  bool weights;
  bool transposedView; // X read through a column-major view
  int32_t threads;
};

/// t(X) %*% (w * (X %*% v)) by the definition, on X(i, j) = at(i, j).
template <typename At>
std::vector<double> definition(const Case &c, At at,
                               const std::vector<double> &v,
                               const std::vector<double> &w) {
  std::vector<double> xv(c.rows, 0.0), out(c.cols, 0.0);
  for (int64_t i = 0; i < c.rows; ++i) {
    for (int64_t j = 0; j < c.cols; ++j)
      xv[i] += at(i, j) * v[j];
    if (c.weights)
      xv[i] *= w[2 * i];
  }
  for (int64_t j = 0; j < c.cols; ++j)
    for (int64_t i = 0; i < c.rows; ++i)
      out[j] += at(i, j) * xv[i];
  return out;
}

class MMChain : public testing::TestWithParam<Case> {};

TEST_P(MMChain, MatchesTheDefinition) {
  const Case &c = GetParam();
  amls_rt_set_num_threads(c.threads);
  // X is stored with padding: row stride cols + 3 (or, for the transposed
  // view, column stride rows + 3), so the kernel must honour strides.
  int64_t lead = (c.transposedView ? c.rows : c.cols) + 3;
  int64_t outer = c.transposedView ? c.cols : c.rows;
  std::vector<double> data(outer * lead);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = amls_rt_rand(7, i, -1, 1, 1.0, AMLS_PDF_UNIFORM);
  AmlsMatrixF64 x = {data.data(), data.data(), 0, {c.rows, c.cols}, {0, 0}};
  if (c.transposedView) {
    x.strides[0] = 1;
    x.strides[1] = lead;
  } else {
    x.strides[0] = lead;
    x.strides[1] = 1;
  }
  auto at = [&](int64_t i, int64_t j) {
    return data[i * x.strides[0] + j * x.strides[1]];
  };
  std::vector<double> v(c.cols), w(2 * c.rows), out(c.cols, 12345.0);
  for (int64_t j = 0; j < c.cols; ++j)
    v[j] = amls_rt_rand(8, j, -1, 1, 1.0, AMLS_PDF_UNIFORM);
  // Weights are a strided column (every other element of w).
  for (int64_t i = 0; i < 2 * c.rows; ++i)
    w[i] = amls_rt_rand(9, i, 0, 2, 1.0, AMLS_PDF_UNIFORM);
  AmlsMatrixF64 dv = {v.data(), v.data(), 0, {c.cols, 1}, {1, 1}};
  AmlsMatrixF64 dw = {w.data(), w.data(), 0, {c.rows, 1}, {2, 1}};
  AmlsMatrixF64 dout = {out.data(), out.data(), 0, {c.cols, 1}, {1, 1}};
  _mlir_ciface_amls_rt_mmchain(&x, &dv, &dw, &dout, c.weights ? 1 : 0);
  std::vector<double> expected = definition(c, at, v, w);
  for (int64_t j = 0; j < c.cols; ++j)
    EXPECT_NEAR(out[j], expected[j],
                1e-9 * std::max(1.0, std::abs(expected[j])))
        << "column " << j;
  amls_rt_set_num_threads(1);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, MMChain,
    testing::Values(Case{1, 1, false, false, 1}, Case{5, 3, true, false, 1},
                    Case{70, 17, true, false, 2},
                    // Large enough for two threads; column counts with and
                    // without a remainder of the 8-wide dot product.
                    Case{5000, 40, false, false, 2},
                    Case{3001, 37, true, false, 2}, Case{400, 9, true, true, 2},
                    // Rows so wide that a block holds the fewest rows (16),
                    // the last block shorter.
                    Case{75, 20000, true, false, 2},
                    Case{0, 4, true, false, 2}));

} // namespace
