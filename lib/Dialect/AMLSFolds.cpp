//===- AMLSFolds.cpp - Folders of AMLS ops --------------------------------===//
//
// Constant folding over small dense literals, and folds to known sizes.
// Element-wise semantics come from each op's `applyScalar`; only floating-
// point matrices are folded, and only up to kMaxFoldCells cells, so that
// folding never turns a cheap op into a huge literal.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/IR/Matchers.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::amls;

static constexpr int64_t kMaxFoldCells = 4096;
static constexpr int64_t kMaxFoldFlops = 1 << 20;

namespace {
/// A small row-major dense matrix taken from, or turned into, a literal.
struct DenseMatrix {
  int64_t rows = 0, cols = 0;
  SmallVector<double> data;

  double at(int64_t r, int64_t c) const { return data[r * cols + c]; }
};
} // namespace

static std::optional<DenseMatrix> getDense(Attribute attr) {
  auto dense = dyn_cast_or_null<DenseFPElementsAttr>(attr);
  if (!dense || dense.getType().getRank() != 2 ||
      dense.getNumElements() > kMaxFoldCells)
    return std::nullopt;
  DenseMatrix matrix;
  matrix.rows = dense.getType().getDimSize(0);
  matrix.cols = dense.getType().getDimSize(1);
  matrix.data.reserve(dense.getNumElements());
  for (const APFloat &value : dense.getValues<APFloat>())
    matrix.data.push_back(value.convertToDouble());
  return matrix;
}

static std::optional<double> getScalar(Attribute attr) {
  if (auto floatAttr = dyn_cast_or_null<FloatAttr>(attr))
    return floatAttr.getValueAsDouble();
  return std::nullopt;
}

static Attribute toAttr(const DenseMatrix &matrix, Type elementType) {
  auto type = RankedTensorType::get({matrix.rows, matrix.cols}, elementType);
  auto floatType = cast<FloatType>(elementType);
  SmallVector<APFloat> values;
  values.reserve(matrix.data.size());
  for (double value : matrix.data) {
    APFloat converted(value);
    bool losesInfo;
    converted.convert(floatType.getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &losesInfo);
    values.push_back(converted);
  }
  return DenseElementsAttr::get(type, values);
}

static Attribute toScalarAttr(double value, Type type) {
  if (!isa<FloatType>(type))
    return nullptr;
  return FloatAttr::get(type, value);
}

/// The element type of a foldable (floating-point) matrix result, or null.
static FloatType foldableElementType(Type type) {
  if (auto matrixType = dyn_cast<MatrixType>(type))
    return dyn_cast<FloatType>(matrixType.getElementType());
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

OpFoldResult mlir::amls::detail::foldElementwiseBinary(
    Operation *op, Attribute lhsAttr, Attribute rhsAttr,
    double (*applyScalar)(double, double)) {
  FloatType elementType = foldableElementType(op->getResult(0).getType());
  if (!elementType || !lhsAttr || !rhsAttr)
    return {};
  bool lhsIsMatrix = isa<MatrixType>(op->getOperand(0).getType());
  bool rhsIsMatrix = isa<MatrixType>(op->getOperand(1).getType());
  std::optional<DenseMatrix> lhs, rhs;
  std::optional<double> lhsScalar, rhsScalar;
  if (lhsIsMatrix ? !(lhs = getDense(lhsAttr))
                  : !(lhsScalar = getScalar(lhsAttr)))
    return {};
  if (rhsIsMatrix ? !(rhs = getDense(rhsAttr))
                  : !(rhsScalar = getScalar(rhsAttr)))
    return {};

  // Broadcast sizes were checked by the verifier.
  DenseMatrix result;
  result.rows = std::max(lhs ? lhs->rows : 0, rhs ? rhs->rows : 0);
  result.cols = std::max(lhs ? lhs->cols : 0, rhs ? rhs->cols : 0);
  if ((lhs && ((lhs->rows != result.rows && lhs->rows != 1) ||
               (lhs->cols != result.cols && lhs->cols != 1))) ||
      (rhs && ((rhs->rows != result.rows && rhs->rows != 1) ||
               (rhs->cols != result.cols && rhs->cols != 1))))
    return {};
  auto cell = [](const std::optional<DenseMatrix> &m,
                 std::optional<double> scalar, int64_t r, int64_t c) {
    if (!m)
      return *scalar;
    return m->at(m->rows == 1 ? 0 : r, m->cols == 1 ? 0 : c);
  };
  result.data.reserve(result.rows * result.cols);
  for (int64_t r = 0; r < result.rows; ++r)
    for (int64_t c = 0; c < result.cols; ++c)
      result.data.push_back(
          applyScalar(cell(lhs, lhsScalar, r, c), cell(rhs, rhsScalar, r, c)));
  return toAttr(result, elementType);
}

OpFoldResult
mlir::amls::detail::foldElementwiseUnary(Operation *op, Attribute inputAttr,
                                         double (*applyScalar)(double)) {
  FloatType elementType = foldableElementType(op->getResult(0).getType());
  std::optional<DenseMatrix> input = getDense(inputAttr);
  if (!elementType || !input)
    return {};
  for (double &value : input->data)
    value = applyScalar(value);
  return toAttr(*input, elementType);
}

//===----------------------------------------------------------------------===//
// Products and aggregates
//===----------------------------------------------------------------------===//

OpFoldResult MatmulOp::fold(FoldAdaptor adaptor) {
  FloatType elementType = foldableElementType(getType());
  std::optional<DenseMatrix> lhs = getDense(adaptor.getLhs());
  std::optional<DenseMatrix> rhs = getDense(adaptor.getRhs());
  if (!elementType || !lhs || !rhs || lhs->cols != rhs->rows ||
      lhs->rows * rhs->cols > kMaxFoldCells ||
      lhs->rows * rhs->cols * lhs->cols > kMaxFoldFlops)
    return {};
  DenseMatrix result;
  result.rows = lhs->rows;
  result.cols = rhs->cols;
  result.data.assign(result.rows * result.cols, 0.0);
  for (int64_t i = 0; i < lhs->rows; ++i)
    for (int64_t k = 0; k < lhs->cols; ++k)
      for (int64_t j = 0; j < rhs->cols; ++j)
        result.data[i * result.cols + j] += lhs->at(i, k) * rhs->at(k, j);
  return toAttr(result, elementType);
}

/// min/max that propagate NaN, as Java's Math.min/max (and DML) do.
static double nanMin(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::fmin(a, b);
}
static double nanMax(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::fmax(a, b);
}

/// One aggregate over `values` (DML semantics; positions are 1-based).
static double aggregate(AggKind kind, ArrayRef<double> values) {
  double n = static_cast<double>(values.size());
  switch (kind) {
  case AggKind::Sum:
    return std::accumulate(values.begin(), values.end(), 0.0);
  case AggKind::SumSq:
    return std::accumulate(values.begin(), values.end(), 0.0,
                           [](double acc, double v) { return acc + v * v; });
  case AggKind::Min:
    return std::accumulate(values.begin(), values.end(),
                           std::numeric_limits<double>::infinity(), nanMin);
  case AggKind::Max:
    return std::accumulate(values.begin(), values.end(),
                           -std::numeric_limits<double>::infinity(), nanMax);
  case AggKind::Mean:
    return std::accumulate(values.begin(), values.end(), 0.0) / n;
  case AggKind::Prod:
    return std::accumulate(values.begin(), values.end(), 1.0,
                           std::multiplies<double>());
  case AggKind::Var:
  case AggKind::Sd: {
    double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
    double squares = 0.0;
    for (double v : values)
      squares += (v - mean) * (v - mean);
    // One value has no spread: SystemDS gives 0, not 0/0.
    double var = n > 1.0 ? squares / (n - 1.0) : 0.0;
    return kind == AggKind::Var ? var : std::sqrt(var);
  }
  case AggKind::MaxIndex:
  case AggKind::MinIndex: {
    // The last extreme wins ties, as in SystemDS; NaN never wins.
    bool isMax = kind == AggKind::MaxIndex;
    size_t best = 0;
    for (size_t i = 1; i < values.size(); ++i)
      if (isMax ? values[i] >= values[best] : values[i] <= values[best])
        best = i;
    return 1.0 + static_cast<double>(best);
  }
  }
  llvm_unreachable("unknown aggregation kind");
}

OpFoldResult AggOp::fold(FoldAdaptor adaptor) {
  std::optional<DenseMatrix> input = getDense(adaptor.getInput());
  if (!input)
    return {};
  if (getAxis() == AggAxis::All) {
    if (input->data.empty())
      return {};
    return toScalarAttr(aggregate(getKind(), input->data), getType());
  }
  FloatType elementType = foldableElementType(getType());
  if (!elementType)
    return {};
  bool perRow = getAxis() == AggAxis::Row;
  DenseMatrix result;
  result.rows = perRow ? input->rows : 1;
  result.cols = perRow ? 1 : input->cols;
  int64_t groups = perRow ? input->rows : input->cols;
  int64_t length = perRow ? input->cols : input->rows;
  if (length == 0)
    return {};
  SmallVector<double> group(length);
  for (int64_t g = 0; g < groups; ++g) {
    for (int64_t i = 0; i < length; ++i)
      group[i] = perRow ? input->at(g, i) : input->at(i, g);
    result.data.push_back(aggregate(getKind(), group));
  }
  return toAttr(result, elementType);
}

OpFoldResult TraceOp::fold(FoldAdaptor adaptor) {
  std::optional<DenseMatrix> input = getDense(adaptor.getInput());
  if (!input || input->rows != input->cols)
    return {};
  double sum = 0.0;
  for (int64_t i = 0; i < input->rows; ++i)
    sum += input->at(i, i);
  return toScalarAttr(sum, getType());
}

OpFoldResult CumAggOp::fold(FoldAdaptor adaptor) {
  FloatType elementType = foldableElementType(getType());
  std::optional<DenseMatrix> input = getDense(adaptor.getInput());
  if (!elementType || !input)
    return {};
  for (int64_t r = 1; r < input->rows; ++r) {
    for (int64_t c = 0; c < input->cols; ++c) {
      double prev = input->data[(r - 1) * input->cols + c];
      double &cur = input->data[r * input->cols + c];
      switch (getKind()) {
      case CumAggKind::CumSum:
        cur += prev;
        break;
      case CumAggKind::CumProd:
        cur *= prev;
        break;
      case CumAggKind::CumMin:
        cur = nanMin(cur, prev);
        break;
      case CumAggKind::CumMax:
        cur = nanMax(cur, prev);
        break;
      }
    }
  }
  return toAttr(*input, elementType);
}

//===----------------------------------------------------------------------===//
// Reorganisation, sizes, casts
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  FloatType elementType = foldableElementType(getType());
  std::optional<DenseMatrix> input = getDense(adaptor.getInput());
  if (!elementType || !input)
    return {};
  DenseMatrix result;
  result.rows = input->cols;
  result.cols = input->rows;
  for (int64_t r = 0; r < result.rows; ++r)
    for (int64_t c = 0; c < result.cols; ++c)
      result.data.push_back(input->at(c, r));
  return toAttr(result, elementType);
}

OpFoldResult NRowOp::fold(FoldAdaptor) {
  MatrixType type = getInput().getType();
  if (!type.hasStaticRows())
    return {};
  return IntegerAttr::get(getType(), type.getRows());
}

OpFoldResult NColOp::fold(FoldAdaptor) {
  MatrixType type = getInput().getType();
  if (!type.hasStaticCols())
    return {};
  return IntegerAttr::get(getType(), type.getCols());
}

OpFoldResult NnzOp::fold(FoldAdaptor adaptor) {
  // The type's sparsity is an estimate; only exactly known contents fold.
  if (auto literal = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    return IntegerAttr::get(getType(), detail::countNonZeros(literal));
  if (auto fill = getInput().getDefiningOp<FillOp>()) {
    std::optional<int64_t> cells = getInput().getType().getNumElements();
    Attribute value;
    if (!cells || !matchPattern(fill.getValue(), m_Constant(&value)))
      return {};
    bool isZero = false;
    if (auto floatAttr = dyn_cast<FloatAttr>(value))
      isZero = floatAttr.getValue().isZero();
    else if (auto intAttr = dyn_cast<IntegerAttr>(value))
      isZero = intAttr.getValue().isZero();
    else
      return {};
    return IntegerAttr::get(getType(), isZero ? 0 : *cells);
  }
  return {};
}

OpFoldResult AsScalarOp::fold(FoldAdaptor adaptor) {
  auto literal = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  if (!literal || literal.getNumElements() != 1)
    return {};
  return literal.getSplatValue<Attribute>();
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // A matrix not assigned on a path is poison of any type.
  if (isa_and_nonnull<ub::PoisonAttr>(adaptor.getInput()))
    return adaptor.getInput();
  // cast(cast(x)) -> cast(x): compatibility is transitive through the
  // intermediate only if x's type is directly compatible with ours.
  if (auto inner = getInput().getDefiningOp<CastOp>()) {
    Value source = inner.getInput();
    if (source.getType() == getType())
      return source;
    if (areCastCompatible(source.getType(), getType())) {
      getInputMutable().assign(source);
      return getResult();
    }
  }
  return {};
}

OpFoldResult ConvertOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // Poison is poison in any format.
  if (isa_and_nonnull<ub::PoisonAttr>(adaptor.getInput()))
    return adaptor.getInput();
  return {};
}
