//===- AMLSInferenceNeuralNetwork.cpp - Rules of convolution and pooling --===//
//
// Size rules of conv2d, its gradients, pool and pool_backward: the
// geometry operands that are constants give the results' sizes and are
// checked (positive shapes and strides, paddings of 0 or more, a window
// that fits the padded image) and so are the matrices against them, as
// far as both are known; the runtime checks the rest. Results are f64
// (SystemDS's only value type for these builtins); their sparsity is
// unknown.
//
//===----------------------------------------------------------------------===//

#include "InferenceUtils.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::inference;

namespace {

/// The geometry of one op with the values inference knows.
struct Geometry {
  std::optional<int64_t> batch, channels, height, width, filters, windowHeight,
      windowWidth, strideHeight, strideWidth, padHeight, padWidth;

  /// The output's height P and width Q where known.
  std::optional<int64_t> outHeight() const {
    return outSize(height, windowHeight, strideHeight, padHeight);
  }
  std::optional<int64_t> outWidth() const {
    return outSize(width, windowWidth, strideWidth, padWidth);
  }

  static std::optional<int64_t> outSize(std::optional<int64_t> size,
                                        std::optional<int64_t> window,
                                        std::optional<int64_t> stride,
                                        std::optional<int64_t> pad) {
    if (!size || !window || !stride || !pad || *stride <= 0)
      return std::nullopt;
    return (*size + 2 * *pad - *window) / *stride + 1;
  }
};

/// The product of known sizes, else unknown.
int64_t product(std::initializer_list<std::optional<int64_t>> sizes) {
  int64_t result = 1;
  for (std::optional<int64_t> size : sizes)
    result = multiplySizes(result, sizeOr(size));
  return result;
}

/// Reads the geometry from the operands starting at `first`; `filters`
/// says whether it has the number of filters (convolutions) or not
/// (pooling). Fails after reporting a known value out of range.
FailureOr<Geometry> readGeometry(const MatrixInferenceContext &ctx,
                                 unsigned first, bool filters) {
  Geometry g;
  unsigned i = first;
  struct Field {
    std::optional<int64_t> *value;
    const char *what;
    int64_t min;
  };
  SmallVector<Field> fields = {{&g.batch, "the number of images", 1},
                               {&g.channels, "the number of channels", 1},
                               {&g.height, "the image height", 1},
                               {&g.width, "the image width", 1}};
  if (filters)
    fields.push_back({&g.filters, "the number of filters", 1});
  fields.append({{&g.windowHeight, "the window height", 1},
                 {&g.windowWidth, "the window width", 1},
                 {&g.strideHeight, "the vertical stride", 1},
                 {&g.strideWidth, "the horizontal stride", 1},
                 {&g.padHeight, "the vertical padding", 0},
                 {&g.padWidth, "the horizontal padding", 0}});
  for (Field &field : fields) {
    *field.value = ctx.getConstantInt(i++);
    if (*field.value && **field.value < field.min)
      return ctx.emitOpError() << "expects " << field.what << " to be at least "
                               << field.min << ", found " << **field.value;
  }
  auto checkFits =
      [&](std::optional<int64_t> size, std::optional<int64_t> window,
          std::optional<int64_t> pad, StringRef dimension) -> LogicalResult {
    if (size && window && pad && *window > *size + 2 * *pad)
      return ctx.emitOpError()
             << "the " << *window << "-pixel window " << dimension
             << " exceeds the image's " << *size << " pixels padded by " << *pad
             << " on each side";
    return success();
  };
  if (failed(checkFits(g.height, g.windowHeight, g.padHeight, "height")) ||
      failed(checkFits(g.width, g.windowWidth, g.padWidth, "width")))
    return failure();
  return g;
}

/// Checks that `operand` is `rows` x `cols` where both are known and
/// returns its rows met with `rows`; `what` names the operand and `shape`
/// the expected columns ("C*H*W"); its rows are images unless they are
/// filters (the filter matrix).
FailureOr<int64_t> checkMatrix(const MatrixInferenceContext &ctx,
                               unsigned operand, StringRef what,
                               std::optional<int64_t> rows, int64_t cols,
                               StringRef shape) {
  MatrixType type = ctx.getMatrix(operand);
  std::optional<int64_t> metRows = meetSize(type.getRows(), sizeOr(rows));
  if (!metRows)
    return ctx.emitOpError()
           << "expects " << what << " to have " << *rows << " rows (one per "
           << (what == "the filter" ? "filter" : "image") << "), found "
           << shapeOf(type);
  if (!meetSize(type.getCols(), cols))
    return ctx.emitOpError()
           << "expects " << what << " to have " << shape << " = " << cols
           << " columns, found " << shapeOf(type);
  return *metRows;
}

} // namespace

LogicalResult Conv2DOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                              SmallVectorImpl<Type> &inferred) {
  FailureOr<Geometry> g = readGeometry(ctx, 2, /*filters=*/true);
  if (failed(g))
    return failure();
  FailureOr<int64_t> n =
      checkMatrix(ctx, 0, "the input", g->batch,
                  product({g->channels, g->height, g->width}), "C*H*W");
  if (failed(n) ||
      failed(checkMatrix(
          ctx, 1, "the filter", g->filters,
          product({g->channels, g->windowHeight, g->windowWidth}), "C*R*S")))
    return failure();
  inferred.push_back(
      matrix(*n, product({g->filters, g->outHeight(), g->outWidth()}),
             Float64Type::get(getContext())));
  return success();
}

LogicalResult
Conv2DBackwardFilterOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                              SmallVectorImpl<Type> &inferred) {
  FailureOr<Geometry> g = readGeometry(ctx, 2, /*filters=*/true);
  if (failed(g) ||
      failed(checkMatrix(ctx, 0, "the input", g->batch,
                         product({g->channels, g->height, g->width}),
                         "C*H*W")) ||
      failed(checkMatrix(ctx, 1, "the output gradient", g->batch,
                         product({g->filters, g->outHeight(), g->outWidth()}),
                         "F*P*Q")))
    return failure();
  inferred.push_back(
      matrix(sizeOr(g->filters),
             product({g->channels, g->windowHeight, g->windowWidth}),
             Float64Type::get(getContext())));
  return success();
}

LogicalResult
Conv2DBackwardDataOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  FailureOr<Geometry> g = readGeometry(ctx, 2, /*filters=*/true);
  if (failed(g) ||
      failed(checkMatrix(
          ctx, 0, "the filter", g->filters,
          product({g->channels, g->windowHeight, g->windowWidth}), "C*R*S")))
    return failure();
  FailureOr<int64_t> n = checkMatrix(
      ctx, 1, "the output gradient", g->batch,
      product({g->filters, g->outHeight(), g->outWidth()}), "F*P*Q");
  if (failed(n))
    return failure();
  inferred.push_back(matrix(*n, product({g->channels, g->height, g->width}),
                            Float64Type::get(getContext())));
  return success();
}

LogicalResult PoolOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  FailureOr<Geometry> g = readGeometry(ctx, 1, /*filters=*/false);
  if (failed(g))
    return failure();
  FailureOr<int64_t> n =
      checkMatrix(ctx, 0, "the input", g->batch,
                  product({g->channels, g->height, g->width}), "C*H*W");
  if (failed(n))
    return failure();
  inferred.push_back(
      matrix(*n, product({g->channels, g->outHeight(), g->outWidth()}),
             Float64Type::get(getContext())));
  return success();
}

LogicalResult
PoolBackwardOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                      SmallVectorImpl<Type> &inferred) {
  FailureOr<Geometry> g = readGeometry(ctx, 2, /*filters=*/false);
  if (failed(g))
    return failure();
  int64_t cells = product({g->channels, g->height, g->width});
  FailureOr<int64_t> n =
      checkMatrix(ctx, 0, "the input", g->batch, cells, "C*H*W");
  if (failed(n) ||
      failed(checkMatrix(ctx, 1, "the output gradient", g->batch,
                         product({g->channels, g->outHeight(), g->outWidth()}),
                         "C*P*Q")))
    return failure();
  inferred.push_back(matrix(*n, cells, Float64Type::get(getContext())));
  return success();
}
