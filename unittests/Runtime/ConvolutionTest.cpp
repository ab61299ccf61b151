//===- ConvolutionTest.cpp - conv2d, pooling and their gradients ----------===//
//
// Small images with results derived by hand, inputs given as strided views
// (a slice of a wider matrix), SystemDS's pooling edge cases (a window in
// the padding only, NaN) and the geometry errors. The NumPy oracle of
// test/Integration/neural-network.dml covers larger shapes.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <vector>

namespace {
struct Dense {
  Dense(int64_t rows, int64_t cols, std::vector<double> values = {})
      : data(values.empty() ? std::vector<double>(rows * cols) : values),
        desc{data.data(), data.data(), 0, {rows, cols}, {cols, 1}} {}
  std::vector<double> data;
  AmlsMatrixF64 desc;
};
} // namespace

TEST(Convolution, HandDerived) {
  // One 3x3 image 1..9, one 2x2 filter [1 0; 0 -1]: out = x[i,j] -
  // x[i+1,j+1] = -4 everywhere (2x2, stride 1, no padding).
  Dense x(1, 9, {1, 2, 3, 4, 5, 6, 7, 8, 9}), w(1, 4, {1, 0, 0, -1});
  Dense out(1, 4);
  _mlir_ciface_amls_rt_conv2d(&x.desc, &w.desc, &out.desc, 1, 1, 3, 3, 1, 2, 2,
                              1, 1, 0, 0, "");
  EXPECT_EQ(out.data, std::vector<double>({-4, -4, -4, -4}));
  // Padding 1, stride 2: windows at (-1,-1), (-1,1), (1,-1), (1,1); only
  // the cells inside count: -x[0,0], -x[0,2], -x[2,0], x[1,1] - x[2,2].
  _mlir_ciface_amls_rt_conv2d(&x.desc, &w.desc, &out.desc, 1, 1, 3, 3, 1, 2, 2,
                              2, 2, 1, 1, "");
  EXPECT_EQ(out.data, std::vector<double>({-1, -3, -7, 5 - 9}));
  // The gradients with dout = 1: dW[r,s] sums the cells each filter cell
  // met; dX adds the filter where it was applied.
  Dense dout(1, 4, {1, 1, 1, 1}), dw(1, 4), dx(1, 9);
  _mlir_ciface_amls_rt_conv2d_backward_filter(&x.desc, &dout.desc, &dw.desc, 1,
                                              1, 3, 3, 1, 2, 2, 1, 1, 0, 0, "");
  EXPECT_EQ(dw.data, std::vector<double>({1 + 2 + 4 + 5, 2 + 3 + 5 + 6,
                                          4 + 5 + 7 + 8, 5 + 6 + 8 + 9}));
  _mlir_ciface_amls_rt_conv2d_backward_data(&w.desc, &dout.desc, &dx.desc, 1, 1,
                                            3, 3, 1, 2, 2, 1, 1, 0, 0, "");
  EXPECT_EQ(dx.data, std::vector<double>({1, 1, 0, 1, 0, -1, 0, -1, -1}));
}

TEST(Convolution, StridedViews) {
  // The image is columns 1..9 of a 1x11 row; the filter every second
  // cell of a row of 8 (a column stride of 2, copied by the kernel).
  Dense wide(1, 11, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0});
  AmlsMatrixF64 x = wide.desc;
  x.offset = 1;
  x.sizes[1] = 9;
  Dense storage(1, 8, {1, 99, 0, 99, 0, 99, -1, 99});
  AmlsMatrixF64 w = storage.desc;
  w.sizes[1] = 4;
  w.strides[1] = 2;
  Dense out(1, 4);
  _mlir_ciface_amls_rt_conv2d(&x, &w, &out.desc, 1, 1, 3, 3, 1, 2, 2, 1, 1, 0,
                              0, "");
  EXPECT_EQ(out.data, std::vector<double>({-4, -4, -4, -4}));
  // A result buffer with a row stride wider than its row: 1x1 windows,
  // strides 1 and 2, keep the first column of each 2x2 image.
  std::vector<double> buffer(8, 7.0);
  AmlsMatrixF64 strided{buffer.data(), buffer.data(), 0, {2, 2}, {4, 1}};
  Dense two(2, 4, {1, 2, 3, 4, 5, 6, 7, 8});
  _mlir_ciface_amls_rt_pool(&two.desc, &strided, 0, 2, 1, 2, 2, 1, 1, 1, 2, 0,
                            0, "");
  EXPECT_EQ(buffer, std::vector<double>({1, 3, 7, 7, 5, 7, 7, 7}));
}

TEST(Convolution, PoolingAsSystemDS) {
  // 2x2 image [1 NaN; 3 4]: max pooling 1x1 windows with padding 1 and
  // stride 2 has windows at (-1,-1) (padding only: -DBL_MAX), (-1,1),
  // (1,-1), (1,1) (the cell 4).
  Dense x(1, 4, {1, NAN, 3, 4}), out(1, 4);
  _mlir_ciface_amls_rt_pool(&x.desc, &out.desc, 0, 1, 1, 2, 2, 1, 1, 2, 2, 1, 1,
                            "");
  EXPECT_EQ(out.data, std::vector<double>({-DBL_MAX, -DBL_MAX, -DBL_MAX, 4}));
  // One 2x2 window over it all: NaN propagates through max.
  Dense one(1, 1);
  _mlir_ciface_amls_rt_pool(&x.desc, &one.desc, 0, 1, 1, 2, 2, 2, 2, 1, 1, 0, 0,
                            "");
  EXPECT_TRUE(std::isnan(one.data[0]));
  // Averages over R*S = 4 cells of 2x2 windows with padding 1 and stride
  // 2 on the image [1 2; 3 4]: each window holds one cell of the image.
  Dense y(1, 4, {1, 2, 3, 4});
  _mlir_ciface_amls_rt_pool(&y.desc, &out.desc, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 1,
                            "");
  EXPECT_EQ(out.data, std::vector<double>({0.25, 0.5, 0.75, 1}));
  // The max gradient goes to the first maximal cell of a tie.
  Dense tie(1, 4, {5, 5, 5, 1}), dout(1, 1, {2}), dx(1, 4);
  _mlir_ciface_amls_rt_pool_backward(&tie.desc, &dout.desc, &dx.desc, 0, 1, 1,
                                     2, 2, 2, 2, 1, 1, 0, 0, "");
  EXPECT_EQ(dx.data, std::vector<double>({2, 0, 0, 0}));
  _mlir_ciface_amls_rt_pool_backward(&tie.desc, &dout.desc, &dx.desc, 1, 1, 1,
                                     2, 2, 2, 2, 1, 1, 0, 0, "");
  EXPECT_EQ(dx.data, std::vector<double>({0.5, 0.5, 0.5, 0.5}));
}

TEST(ConvolutionDeathTest, RejectsAnUnknownPooling) {
  Dense x(1, 16), out(1, 4), dout(1, 4), dx(1, 16);
  EXPECT_EXIT(_mlir_ciface_amls_rt_pool(&x.desc, &out.desc, 2, 1, 1, 4, 4, 2, 2,
                                        2, 2, 0, 0, "'amls.pool' at f.dml:2:1"),
              ::testing::ExitedWithCode(1),
              "'amls.pool' at f.dml:2:1: avg_pool: unknown pooling 2");
  EXPECT_EXIT(_mlir_ciface_amls_rt_pool_backward(&x.desc, &dout.desc, &dx.desc,
                                                 -1, 1, 1, 4, 4, 2, 2, 2, 2, 0,
                                                 0, ""),
              ::testing::ExitedWithCode(1), "unknown pooling -1");
}

TEST(ConvolutionDeathTest, Geometry) {
  Dense x(2, 48), w(4, 27), out(2, 64);
  EXPECT_EXIT(_mlir_ciface_amls_rt_conv2d(&x.desc, &w.desc, &out.desc, 2, 3, 4,
                                          4, 4, 3, 3, 0, 1, 1, 1,
                                          "'amls.conv2d' at f.dml:3:5"),
              ::testing::ExitedWithCode(1),
              "'amls.conv2d' at f.dml:3:5: conv2d: expects the vertical "
              "stride to be at least 1, found 0");
  EXPECT_EXIT(_mlir_ciface_amls_rt_conv2d(&x.desc, &w.desc, &out.desc, 2, 3, 5,
                                          4, 4, 3, 3, 1, 1, 1, 1, ""),
              ::testing::ExitedWithCode(1),
              "conv2d: expects the input to be 2 x 60 \\(N x C\\*H\\*W\\), "
              "found 2 x 48");
  EXPECT_EXIT(_mlir_ciface_amls_rt_pool(&x.desc, &out.desc, 1, 2, 3, 4, 4, 9, 2,
                                        1, 1, 2, 0, ""),
              ::testing::ExitedWithCode(1),
              "avg_pool: the 9-pixel window height exceeds the image's 4 "
              "pixels padded by 2 on each side");
}
