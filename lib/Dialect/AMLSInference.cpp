//===- AMLSInference.cpp - Size and sparsity rules of AMLS ops ------------===//
//
// The InferMatrixPropertiesInterface implementation of every op that computes
// a value. The same rules verify ops (declared result types must be
// compatible with what the operands imply) and drive --amls-infer-properties.
//
//===----------------------------------------------------------------------===//

#include "AMLS/CostModel/PropertyLattice.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Runtime/FileMetadata.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::amls;

#include "AMLS/Dialect/AMLSOpInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Context and type lattice helpers
//===----------------------------------------------------------------------===//

MLIRContext *MatrixInferenceContext::getContext() const {
  return op->getContext();
}

MatrixType MatrixInferenceContext::getMatrix(unsigned i) const {
  return dyn_cast<MatrixType>(operandTypes[i]);
}

std::optional<int64_t>
MatrixInferenceContext::getConstantInt(unsigned i) const {
  if (auto attr = dyn_cast_or_null<IntegerAttr>(constantOperands[i]))
    return attr.getValue().getSExtValue();
  return std::nullopt;
}

std::optional<double>
MatrixInferenceContext::getConstantFloat(unsigned i) const {
  if (auto attr = dyn_cast_or_null<FloatAttr>(constantOperands[i]))
    return attr.getValueAsDouble();
  if (auto attr = dyn_cast_or_null<IntegerAttr>(constantOperands[i]))
    return static_cast<double>(attr.getValue().getSExtValue());
  return std::nullopt;
}

InFlightDiagnostic MatrixInferenceContext::emitOpError() const {
  if (!emitDiagnostics)
    return InFlightDiagnostic();
  return op->emitOpError();
}

bool mlir::amls::areCompatibleMatrixTypes(Type declared, Type refined) {
  auto lhs = dyn_cast<MatrixType>(declared);
  auto rhs = dyn_cast<MatrixType>(refined);
  if (!lhs || !rhs)
    return declared == refined;
  return lhs.getElementType() == rhs.getElementType() &&
         meetSize(lhs.getRows(), rhs.getRows()) &&
         meetSize(lhs.getCols(), rhs.getCols());
}

Type mlir::amls::refineType(Type declared, Type inferred) {
  auto lhs = dyn_cast<MatrixType>(declared);
  auto rhs = dyn_cast<MatrixType>(inferred);
  if (!lhs || !rhs || !areCompatibleMatrixTypes(lhs, rhs))
    return declared;
  std::optional<double> sparsity = rhs.getSparsity();
  if (!sparsity)
    sparsity = lhs.getSparsity();
  return MatrixType::get(*meetSize(lhs.getRows(), rhs.getRows()),
                         *meetSize(lhs.getCols(), rhs.getCols()),
                         lhs.getElementType(), sparsity, lhs.getFormat());
}

Type mlir::amls::joinTypes(Type lhs, Type rhs) {
  auto a = dyn_cast<MatrixType>(lhs);
  auto b = dyn_cast<MatrixType>(rhs);
  if (!a || !b || a.getElementType() != b.getElementType())
    return lhs;
  std::optional<MatrixFormat> format = a.getFormat();
  if (format != b.getFormat())
    format = std::nullopt;
  return MatrixType::get(joinSize(a.getRows(), b.getRows()),
                         joinSize(a.getCols(), b.getCols()), a.getElementType(),
                         joinSparsity(a.getSparsity(), b.getSparsity()),
                         format);
}

/// "4x?" for diagnostics.
static std::string shapeOf(MatrixType type) {
  auto dim = [](int64_t size) {
    return isKnownSize(size) ? std::to_string(size) : std::string("?");
  };
  return dim(type.getRows()) + "x" + dim(type.getCols());
}

static MatrixType matrix(int64_t rows, int64_t cols, Type elementType,
                         std::optional<double> sparsity = std::nullopt) {
  return MatrixType::get(rows, cols, elementType, sparsity);
}

static std::optional<int64_t> cellsOf(MatrixType type) {
  return type.getNumElements();
}

static int64_t cellsOrUnknown(MatrixType type) {
  return multiplySizes(type.getRows(), type.getCols());
}

int64_t mlir::amls::detail::countNonZeros(DenseElementsAttr literal) {
  int64_t count = 0;
  if (isa<FloatType>(literal.getElementType())) {
    for (const APFloat &value : literal.getValues<APFloat>())
      count += !value.isZero();
  } else {
    for (const APInt &value : literal.getValues<APInt>())
      count += !value.isZero();
  }
  return count;
}

LogicalResult
mlir::amls::detail::inferFromOperands(Operation *op, bool emitDiagnostics,
                                      SmallVectorImpl<Type> &inferred) {
  SmallVector<Attribute> constants(op->getNumOperands());
  for (auto [i, operand] : llvm::enumerate(op->getOperands()))
    (void)matchPattern(operand, m_Constant(&constants[i]));
  SmallVector<Type> operandTypes(op->getOperandTypes());
  SparsityEstimator estimator;
  MatrixInferenceContext context(op, operandTypes, constants, estimator,
                                 emitDiagnostics);
  return cast<InferMatrixPropertiesInterface>(op).inferMatrixProperties(
      context, inferred);
}

LogicalResult
mlir::amls::detail::verifyInferredMatrixProperties(Operation *op) {
  SmallVector<Type> inferred;
  if (failed(inferFromOperands(op, /*emitDiagnostics=*/true, inferred)))
    return failure();
  assert(inferred.size() == op->getNumResults() && "one type per result");
  for (auto [i, declared, implied] :
       llvm::enumerate(op->getResultTypes(), inferred)) {
    if (!areCompatibleMatrixTypes(declared, implied))
      return op->emitOpError() << "result #" << i << " type " << declared
                               << " is incompatible with " << implied
                               << " implied by the operands";
  }
  return success();
}

/// Reports a mismatch of two operands' element types.
static LogicalResult checkSameElementType(const MatrixInferenceContext &ctx,
                                          Type expected, unsigned operand,
                                          StringRef what) {
  Type type = ctx.getOperandType(operand);
  if (auto matrixType = dyn_cast<MatrixType>(type))
    type = matrixType.getElementType();
  if (type == expected)
    return success();
  return ctx.emitOpError() << what << " has element type " << type
                           << ", expected " << expected;
}

/// Element-wise functions that only exist on floating point.
static LogicalResult checkCellType(const MatrixInferenceContext &ctx,
                                   Type elementType) {
  auto elementwise = dyn_cast<ElementwiseOpInterface>(ctx.getOp());
  if (!elementwise || elementwise.supportsElementType(elementType))
    return success();
  return ctx.emitOpError() << "is only defined on floating-point matrices, "
                              "found element type "
                           << elementType;
}

static LogicalResult checkSize(const MatrixInferenceContext &ctx,
                               std::optional<int64_t> size, StringRef what) {
  if (size && *size < 0)
    return ctx.emitOpError() << what << " must be non-negative, got " << *size;
  return success();
}

static int64_t sizeOr(std::optional<int64_t> size) {
  return size ? *size : kUnknownSize;
}

//===----------------------------------------------------------------------===//
// Element-wise operations
//===----------------------------------------------------------------------===//

/// Size of one dimension after broadcasting, or failure.
static FailureOr<int64_t> broadcastSize(int64_t lhs, int64_t rhs) {
  if (lhs == rhs)
    return lhs;
  if (lhs == 1)
    return rhs;
  if (rhs == 1)
    return lhs;
  if (!isKnownSize(lhs))
    return rhs;
  if (!isKnownSize(rhs))
    return lhs;
  return failure();
}

LogicalResult mlir::amls::detail::inferElementwiseBinary(
    const MatrixInferenceContext &ctx, BinarySparsity sparsityKind,
    double (*applyScalar)(double, double), SmallVectorImpl<Type> &inferred) {
  MatrixType lhs = ctx.getMatrix(0), rhs = ctx.getMatrix(1);
  if (!lhs && !rhs)
    return ctx.emitOpError()
           << "expects at least one matrix operand, found "
           << ctx.getOperandType(0) << " and " << ctx.getOperandType(1);
  MatrixType main = lhs ? lhs : rhs;
  Type elementType = main.getElementType();
  if (failed(checkSameElementType(ctx, elementType, 0, "left operand")) ||
      failed(checkSameElementType(ctx, elementType, 1, "right operand")) ||
      failed(checkCellType(ctx, elementType)))
    return failure();

  const SparsityEstimator &estimator = ctx.getEstimator();
  if (lhs && rhs) {
    FailureOr<int64_t> rows = broadcastSize(lhs.getRows(), rhs.getRows());
    FailureOr<int64_t> cols = broadcastSize(lhs.getCols(), rhs.getCols());
    if (failed(rows) || failed(cols))
      return ctx.emitOpError()
             << "operand shapes " << shapeOf(lhs) << " and " << shapeOf(rhs)
             << " are not broadcast-compatible (expected equal sizes, or a "
                "row or column vector against a matrix)";
    // DML broadcasts one vector against a matrix, never both operands
    // (which would be an outer product).
    auto broadcastsAlong = [](MatrixType self, MatrixType other, bool cols) {
      int64_t mine = cols ? self.getCols() : self.getRows();
      int64_t theirs = cols ? other.getCols() : other.getRows();
      return mine == 1 && theirs != 1;
    };
    if ((broadcastsAlong(lhs, rhs, false) && broadcastsAlong(rhs, lhs, true)) ||
        (broadcastsAlong(lhs, rhs, true) && broadcastsAlong(rhs, lhs, false)))
      return ctx.emitOpError()
             << "operand shapes " << shapeOf(lhs) << " and " << shapeOf(rhs)
             << " would both be broadcast (an outer product); DML broadcasts "
                "only a row or column vector against a matrix";
    std::optional<double> sparsity;
    std::optional<double> sA = lhs.getSparsity(), sB = rhs.getSparsity();
    switch (sparsityKind) {
    case BinarySparsity::Union:
      sparsity = estimator.unionOf(sA, sB);
      break;
    case BinarySparsity::Intersection:
      sparsity = estimator.intersectionOf(sA, sB);
      break;
    case BinarySparsity::LeftOrRightZero:
      sparsity = estimator.leftOrRightZero(sA, sB);
      break;
    case BinarySparsity::Unknown:
      break;
    }
    inferred.push_back(matrix(*rows, *cols, elementType, sparsity));
    return success();
  }

  // Matrix and scalar: zeros of the matrix stay zero iff f(0, c) = 0.
  std::optional<double> sparsity;
  std::optional<double> scalar = ctx.getConstantFloat(lhs ? 1 : 0);
  if (scalar) {
    double atZero = lhs ? applyScalar(0.0, *scalar) : applyScalar(*scalar, 0.0);
    sparsity = atZero == 0.0 ? main.getSparsity() : std::optional<double>(1.0);
  } else if (sparsityKind == BinarySparsity::Intersection) {
    sparsity = main.getSparsity();
  }
  inferred.push_back(main.getLogicalType().withSparsity(sparsity));
  return success();
}

LogicalResult mlir::amls::detail::inferElementwiseUnary(
    const MatrixInferenceContext &ctx,
    std::optional<double> (*estimate)(std::optional<double>),
    SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  if (failed(checkCellType(ctx, input.getElementType())))
    return failure();
  inferred.push_back(
      input.getLogicalType().withSparsity(estimate(input.getSparsity())));
  return success();
}

LogicalResult IfElseOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                              SmallVectorImpl<Type> &inferred) {
  MatrixType shapeSource;
  for (unsigned i = 0; i < 3; ++i) {
    MatrixType operand = ctx.getMatrix(i);
    if (!operand)
      continue;
    if (shapeSource && (!meetSize(shapeSource.getRows(), operand.getRows()) ||
                        !meetSize(shapeSource.getCols(), operand.getCols())))
      return ctx.emitOpError()
             << "matrix operands must have the same shape, found "
             << shapeOf(shapeSource) << " and " << shapeOf(operand);
    if (!shapeSource)
      shapeSource = operand;
    else
      shapeSource = shapeSource.withShape(
          *meetSize(shapeSource.getRows(), operand.getRows()),
          *meetSize(shapeSource.getCols(), operand.getCols()));
  }
  if (!shapeSource)
    return ctx.emitOpError() << "expects at least one matrix operand";

  MatrixType trueMatrix = ctx.getMatrix(1), falseMatrix = ctx.getMatrix(2);
  Type elementType = trueMatrix    ? trueMatrix.getElementType()
                     : falseMatrix ? falseMatrix.getElementType()
                                   : ctx.getOperandType(1);
  if (!isValidMatrixElementType(elementType))
    return ctx.emitOpError() << "selected values must be f64, f32 or i64, "
                                "found "
                             << elementType;
  if (failed(checkSameElementType(ctx, elementType, 1, "true value")) ||
      failed(checkSameElementType(ctx, elementType, 2, "false value")))
    return failure();

  auto branchSparsity = [&](unsigned i) -> std::optional<double> {
    if (MatrixType m = ctx.getMatrix(i))
      return m.getSparsity();
    if (std::optional<double> value = ctx.getConstantFloat(i))
      return *value == 0.0 ? 0.0 : 1.0;
    return std::nullopt;
  };
  std::optional<double> sparsity;
  if (std::optional<double> cond = ctx.getConstantFloat(0))
    sparsity = branchSparsity(*cond != 0.0 ? 1 : 2);
  else
    sparsity = ctx.getEstimator().unionOf(branchSparsity(1), branchSparsity(2));
  inferred.push_back(matrix(shapeSource.getRows(), shapeSource.getCols(),
                            elementType, sparsity));
  return success();
}

//===----------------------------------------------------------------------===//
// I/O
//===----------------------------------------------------------------------===//

LogicalResult ReadOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  MatrixType declared = getType();
  std::optional<::amls::runtime::MatrixFileMetadata> metadata;
  if (ctx.allowsFileMetadata()) {
    std::string path = getPath().str();
    switch (getFormat()) {
    case FileFormat::CSV:
      metadata = ::amls::runtime::readCsvShape(path);
      break;
    case FileFormat::MatrixMarket:
      metadata = ::amls::runtime::readMatrixMarketMetadata(path);
      break;
    case FileFormat::Binary:
      metadata = ::amls::runtime::readBinaryShape(path);
      break;
    }
  }
  if (!metadata) {
    inferred.push_back(declared);
    return success();
  }
  auto fromFile =
      MatrixType::get(metadata->rows, metadata->cols, declared.getElementType(),
                      metadata->sparsity(), declared.getFormat());
  if (!areCompatibleMatrixTypes(declared, fromFile))
    return ctx.emitOpError()
           << (getFormat() == FileFormat::CSV ? "the CSV file '"
               : getFormat() == FileFormat::MatrixMarket
                   ? "the Matrix Market header of '"
                   : "the binary file '")
           << getPath() << "' gives " << metadata->rows << "x" << metadata->cols
           << ", but the result is declared " << declared;
  inferred.push_back(fromFile);
  return success();
}

//===----------------------------------------------------------------------===//
// Data generation
//===----------------------------------------------------------------------===//

LogicalResult FillOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  Type elementType = ctx.getOperandType(0);
  if (!isValidMatrixElementType(elementType))
    return ctx.emitOpError()
           << "fill value must be f64, f32 or i64, found " << elementType;
  std::optional<int64_t> rows = ctx.getConstantInt(1);
  std::optional<int64_t> cols = ctx.getConstantInt(2);
  if (failed(checkSize(ctx, rows, "row count")) ||
      failed(checkSize(ctx, cols, "column count")))
    return failure();
  std::optional<double> sparsity;
  if (std::optional<double> value = ctx.getConstantFloat(0))
    sparsity = *value == 0.0 ? 0.0 : 1.0;
  inferred.push_back(matrix(sizeOr(rows), sizeOr(cols), elementType, sparsity));
  return success();
}

LogicalResult RandOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  std::optional<int64_t> rows = ctx.getConstantInt(0);
  std::optional<int64_t> cols = ctx.getConstantInt(1);
  if (failed(checkSize(ctx, rows, "row count")) ||
      failed(checkSize(ctx, cols, "column count")))
    return failure();
  std::optional<double> sparsity = ctx.getConstantFloat(4);
  if (sparsity && !(*sparsity >= 0.0 && *sparsity <= 1.0))
    return ctx.emitOpError()
           << "sparsity must be in [0, 1], got " << formatShortest(*sparsity);
  if (!isValidMatrixElementType(ctx.getOperandType(2)))
    return ctx.emitOpError() << "random values must be f64 or f32, found "
                             << ctx.getOperandType(2);
  std::optional<double> min = ctx.getConstantFloat(2);
  std::optional<double> max = ctx.getConstantFloat(3);
  // min and max only matter for the uniform distribution.
  if (getPdf() == RandPdf::Uniform && min && max && *min > *max)
    return ctx.emitOpError()
           << "min (" << formatShortest(*min) << ") must not exceed max ("
           << formatShortest(*max) << ")";
  // A uniform range that excludes zero makes every drawn cell non-zero.
  inferred.push_back(
      matrix(sizeOr(rows), sizeOr(cols), ctx.getOperandType(2), sparsity));
  return success();
}

LogicalResult SeqOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                           SmallVectorImpl<Type> &inferred) {
  Type elementType = ctx.getOperandType(0);
  if (!isValidMatrixElementType(elementType))
    return ctx.emitOpError()
           << "sequence values must be f64 or f32, found " << elementType;
  std::optional<double> from = ctx.getConstantFloat(0);
  std::optional<double> to = ctx.getConstantFloat(1);
  std::optional<double> incr = ctx.getConstantFloat(2);
  if (incr && *incr == 0.0)
    return ctx.emitOpError() << "increment must not be zero";
  int64_t length = kUnknownSize;
  std::optional<double> sparsity;
  if (from && to && incr) {
    double steps = (*to - *from) / *incr;
    if (!std::isfinite(steps) || steps >= 9.0e15)
      return ctx.emitOpError()
             << "cannot generate a sequence from " << formatShortest(*from)
             << " to " << formatShortest(*to) << " in steps of "
             << formatShortest(*incr);
    if (steps < 0)
      return ctx.emitOpError()
             << "increment " << formatShortest(*incr)
             << " has the wrong sign to go from " << formatShortest(*from)
             << " to " << formatShortest(*to);
    // Tolerate rounding in e.g. seq(0, 1, 0.1).
    length = static_cast<int64_t>(std::floor(steps + 1e-10)) + 1;
    double zeroAt = -*from / *incr;
    bool hasZero = zeroAt >= 0 && zeroAt < length &&
                   std::fabs(zeroAt - std::round(zeroAt)) < 1e-10;
    sparsity = static_cast<double>(length - (hasZero ? 1 : 0)) / length;
  }
  inferred.push_back(matrix(length, 1, elementType, sparsity));
  return success();
}

LogicalResult
ConstantOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                  SmallVectorImpl<Type> &inferred) {
  auto shaped = cast<ShapedType>(getValue().getType());
  if (shaped.getRank() != 2 || !shaped.hasStaticShape())
    return ctx.emitOpError()
           << "literal must have a static 2-D shape, found " << shaped;
  if (!isValidMatrixElementType(shaped.getElementType()))
    return ctx.emitOpError() << "literal element type must be f64, f32 or "
                                "i64, found "
                             << shaped.getElementType();
  int64_t cells = shaped.getNumElements();
  std::optional<double> sparsity;
  if (auto dense = dyn_cast<DenseElementsAttr>(getValue()))
    sparsity =
        cells ? static_cast<double>(detail::countNonZeros(dense)) / cells : 0.0;
  inferred.push_back(matrix(shaped.getDimSize(0), shaped.getDimSize(1),
                            shaped.getElementType(), sparsity));
  return success();
}

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                              SmallVectorImpl<Type> &inferred) {
  MatrixType lhs = ctx.getMatrix(0), rhs = ctx.getMatrix(1);
  std::optional<int64_t> inner = meetSize(lhs.getCols(), rhs.getRows());
  if (!inner)
    return ctx.emitOpError() << "inner dimensions differ: " << shapeOf(lhs)
                             << " %*% " << shapeOf(rhs);
  if (failed(
          checkSameElementType(ctx, lhs.getElementType(), 1, "right operand")))
    return failure();
  inferred.push_back(matrix(
      lhs.getRows(), rhs.getCols(), lhs.getElementType(),
      ctx.getEstimator().matmul(lhs.getSparsity(), rhs.getSparsity(), *inner)));
  return success();
}

LogicalResult TsmmOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  bool left = getSide() == TsmmSide::Left;
  int64_t size = left ? input.getCols() : input.getRows();
  int64_t inner = left ? input.getRows() : input.getCols();
  inferred.push_back(
      matrix(size, size, input.getElementType(),
             ctx.getEstimator().matmul(input.getSparsity(), input.getSparsity(),
                                       inner)));
  return success();
}

LogicalResult
MMChainOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                 SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0), vector = ctx.getMatrix(1);
  if (!meetSize(vector.getRows(), input.getCols()) ||
      !meetSize(vector.getCols(), 1))
    return ctx.emitOpError()
           << "vector must be " << shapeOf(input.withShape(input.getCols(), 1))
           << " for a " << shapeOf(input) << " matrix, found "
           << shapeOf(vector);
  const SparsityEstimator &estimator = ctx.getEstimator();
  std::optional<double> product = estimator.matmul(
      input.getSparsity(), vector.getSparsity(), input.getCols());
  if (ctx.getNumOperands() > 2) {
    MatrixType weights = ctx.getMatrix(2);
    if (!meetSize(weights.getRows(), input.getRows()) ||
        !meetSize(weights.getCols(), 1))
      return ctx.emitOpError()
             << "weights must be "
             << shapeOf(input.withShape(input.getRows(), 1)) << " for a "
             << shapeOf(input) << " matrix, found " << shapeOf(weights);
    product = estimator.intersectionOf(product, weights.getSparsity());
  }
  for (unsigned i = 1; i < ctx.getNumOperands(); ++i)
    if (failed(checkSameElementType(ctx, input.getElementType(), i,
                                    "vector operand")))
      return failure();
  inferred.push_back(
      matrix(input.getCols(), 1, input.getElementType(),
             estimator.matmul(input.getSparsity(), product, input.getRows())));
  return success();
}

//===----------------------------------------------------------------------===//
// Aggregates
//===----------------------------------------------------------------------===//

LogicalResult AggOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                           SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  AggKind kind = getKind();
  bool isIndex = kind == AggKind::MaxIndex || kind == AggKind::MinIndex;
  bool isStatistic =
      kind == AggKind::Mean || kind == AggKind::Var || kind == AggKind::Sd;
  Type elementType = input.getElementType();
  // Means and deviations of integers are fractional.
  if (isStatistic && isa<IntegerType>(elementType))
    elementType = Float64Type::get(ctx.getContext());

  if (getAxis() == AggAxis::All) {
    if (isIndex)
      return ctx.emitOpError() << "'" << stringifyAggKind(kind)
                               << "' needs a 'row' or 'col' axis";
    inferred.push_back(elementType);
    return success();
  }

  bool perRow = getAxis() == AggAxis::Row;
  int64_t length = perRow ? input.getCols() : input.getRows();
  std::optional<double> sparsity;
  if (isIndex)
    sparsity = 1.0; // 1-based positions are never zero.
  else if (kind != AggKind::Var && kind != AggKind::Sd && kind != AggKind::Prod)
    sparsity = ctx.getEstimator().aggregate(input.getSparsity(), length);
  inferred.push_back(perRow
                         ? matrix(input.getRows(), 1, elementType, sparsity)
                         : matrix(1, input.getCols(), elementType, sparsity));
  return success();
}

LogicalResult TraceOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  if (!meetSize(input.getRows(), input.getCols()))
    return ctx.emitOpError()
           << "expects a square matrix, found " << shapeOf(input);
  inferred.push_back(input.getElementType());
  return success();
}

LogicalResult CumAggOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                              SmallVectorImpl<Type> &inferred) {
  inferred.push_back(ctx.getMatrix(0).getLogicalType());
  return success();
}

//===----------------------------------------------------------------------===//
// Reorganisation
//===----------------------------------------------------------------------===//

LogicalResult
TransposeOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                   SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  inferred.push_back(matrix(input.getCols(), input.getRows(),
                            input.getElementType(), input.getSparsity()));
  return success();
}

LogicalResult
ReshapeOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                 SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  std::optional<int64_t> rows = ctx.getConstantInt(1);
  std::optional<int64_t> cols = ctx.getConstantInt(2);
  if (failed(checkSize(ctx, rows, "row count")) ||
      failed(checkSize(ctx, cols, "column count")))
    return failure();
  if (std::optional<int64_t> cells = cellsOf(input)) {
    if (rows && cols && *rows * *cols != *cells)
      return ctx.emitOpError() << "cannot reshape " << shapeOf(input) << " ("
                               << *cells << " cells) into " << *rows << "x"
                               << *cols << " (" << *rows * *cols << " cells)";
    // One given size determines the other.
    auto complete = [&](std::optional<int64_t> given,
                        std::optional<int64_t> &other) -> LogicalResult {
      if (given && *given == 0 && *cells != 0)
        return ctx.emitOpError() << "cannot reshape " << shapeOf(input) << " ("
                                 << *cells << " cells) into 0 "
                                 << "rows or columns";
      if (!given || other || *given == 0)
        return success();
      if (*cells % *given != 0)
        return ctx.emitOpError()
               << "cannot reshape " << shapeOf(input) << " (" << *cells
               << " cells) into " << *given << " rows or columns";
      other = *cells / *given;
      return success();
    };
    if (failed(complete(rows, cols)) || failed(complete(cols, rows)))
      return failure();
  }
  inferred.push_back(matrix(sizeOr(rows), sizeOr(cols), input.getElementType(),
                            input.getSparsity()));
  return success();
}

LogicalResult DiagOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  Type elementType = input.getElementType();
  if (input.getCols() == 1) {
    int64_t n = input.getRows();
    inferred.push_back(
        matrix(n, n, elementType,
               SparsityEstimator::diagFromVector(input.getSparsity(), n)));
    return success();
  }
  std::optional<int64_t> n = meetSize(input.getRows(), input.getCols());
  if (!n)
    return ctx.emitOpError()
           << "expects a column vector or a square matrix, found "
           << shapeOf(input);
  if (!isKnownSize(input.getCols())) {
    // Either a vector (NxN result) or a square matrix (Nx1 result).
    inferred.push_back(matrix(kUnknownSize, kUnknownSize, elementType));
    return success();
  }
  inferred.push_back(
      matrix(*n, 1, elementType,
             ctx.getEstimator().diagOfMatrix(input.getSparsity(), *n)));
  return success();
}

LogicalResult RevOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                           SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  inferred.push_back(input.getLogicalType().withSparsity(input.getSparsity()));
  return success();
}

/// cbind (alongColumns) and rbind: the shared dimension must agree, the
/// other adds up.
static LogicalResult inferConcat(const MatrixInferenceContext &ctx,
                                 bool alongColumns,
                                 SmallVectorImpl<Type> &inferred) {
  if (ctx.getNumOperands() < 2)
    return ctx.emitOpError()
           << "expects at least two inputs, found " << ctx.getNumOperands();
  MatrixType first = ctx.getMatrix(0);
  auto shared = [&](MatrixType m) {
    return alongColumns ? m.getRows() : m.getCols();
  };
  auto joined = [&](MatrixType m) {
    return alongColumns ? m.getCols() : m.getRows();
  };
  int64_t sharedSize = shared(first);
  for (unsigned i = 1; i < ctx.getNumOperands(); ++i) {
    MatrixType next = ctx.getMatrix(i);
    std::optional<int64_t> meet = meetSize(sharedSize, shared(next));
    if (!meet)
      return ctx.emitOpError()
             << "input #" << i << " has " << shapeOf(next) << " but input #0 "
             << "has " << shapeOf(first) << ": the number of "
             << (alongColumns ? "rows" : "columns") << " must match";
    if (failed(checkSameElementType(ctx, first.getElementType(), i,
                                    "input #" + std::to_string(i))))
      return failure();
    sharedSize = *meet;
  }
  // The non-zeros of all inputs, over the cells of all inputs.
  int64_t joinedSize = joined(first);
  int64_t cells = multiplySizes(sharedSize, joinedSize);
  std::optional<double> sparsity = first.getSparsity();
  for (unsigned i = 1; i < ctx.getNumOperands(); ++i) {
    MatrixType next = ctx.getMatrix(i);
    int64_t nextCells = multiplySizes(sharedSize, joined(next));
    sparsity = SparsityEstimator::concatenate(sparsity, cells,
                                              next.getSparsity(), nextCells);
    joinedSize = addSizes(joinedSize, joined(next));
    cells = addSizes(cells, nextCells);
  }
  inferred.push_back(
      alongColumns
          ? matrix(sharedSize, joinedSize, first.getElementType(), sparsity)
          : matrix(joinedSize, sharedSize, first.getElementType(), sparsity));
  return success();
}

LogicalResult CBindOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  return inferConcat(ctx, /*alongColumns=*/true, inferred);
}

LogicalResult RBindOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  return inferConcat(ctx, /*alongColumns=*/false, inferred);
}

/// Checks constant bounds `0 <= begin <= end <= size` of one dimension and
/// returns the extent `end - begin` (unknown unless both are constant).
static FailureOr<int64_t> sliceExtent(const MatrixInferenceContext &ctx,
                                      unsigned beginOperand, int64_t size,
                                      StringRef dim) {
  std::optional<int64_t> begin = ctx.getConstantInt(beginOperand);
  std::optional<int64_t> end = ctx.getConstantInt(beginOperand + 1);
  if (begin && *begin < 0)
    return ctx.emitOpError() << dim << " begin " << *begin << " is negative";
  if (end && *end < 0)
    return ctx.emitOpError() << dim << " end " << *end << " is negative";
  if (begin && end && *begin > *end)
    return ctx.emitOpError()
           << dim << " range [" << *begin << ", " << *end << ") is reversed";
  if (end && isKnownSize(size) && *end > size)
    return ctx.emitOpError() << dim << " range end " << *end << " exceeds the "
                             << size << " " << dim << "s of the matrix";
  if (begin && !end && isKnownSize(size) && *begin > size)
    return ctx.emitOpError() << dim << " begin " << *begin << " exceeds the "
                             << size << " " << dim << "s of the matrix";
  if (begin && end)
    return *end - *begin;
  // Bounds `i` and `i + c` (or `j - c` and `j`): the extent is c whatever i
  // is, as in a loop over single rows X[i, ].
  Value beginValue = ctx.getOp()->getOperand(beginOperand);
  Value endValue = ctx.getOp()->getOperand(beginOperand + 1);
  auto offsetBetween = [](Value from, Value to) -> std::optional<int64_t> {
    if (auto add = to.getDefiningOp<arith::AddIOp>()) {
      if (add.getLhs() == from)
        return getConstantIntValue(add.getRhs());
      if (add.getRhs() == from)
        return getConstantIntValue(add.getLhs());
    }
    if (auto sub = from.getDefiningOp<arith::SubIOp>();
        sub && sub.getLhs() == to)
      return getConstantIntValue(sub.getRhs());
    return std::nullopt;
  };
  if (std::optional<int64_t> extent = offsetBetween(beginValue, endValue))
    if (*extent >= 0 && (!isKnownSize(size) || *extent <= size))
      return *extent;
  return kUnknownSize;
}

LogicalResult SliceOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  FailureOr<int64_t> rows = sliceExtent(ctx, 1, input.getRows(), "row");
  if (failed(rows))
    return failure();
  FailureOr<int64_t> cols = sliceExtent(ctx, 3, input.getCols(), "column");
  if (failed(cols))
    return failure();
  // Without constant bounds the extent is unknown, but never more than the
  // input has.
  MatrixType declared = getType();
  if ((input.hasStaticRows() && declared.hasStaticRows() &&
       declared.getRows() > input.getRows()) ||
      (input.hasStaticCols() && declared.hasStaticCols() &&
       declared.getCols() > input.getCols()))
    return ctx.emitOpError()
           << "result " << shapeOf(declared) << " is larger than the "
           << shapeOf(input) << " input";
  inferred.push_back(
      matrix(*rows, *cols, input.getElementType(),
             ctx.getEstimator().part(input.getSparsity(), cellsOrUnknown(input),
                                     multiplySizes(*rows, *cols))));
  return success();
}

LogicalResult
InsertSliceOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                     SmallVectorImpl<Type> &inferred) {
  MatrixType source = ctx.getMatrix(0), dest = ctx.getMatrix(1);
  if (failed(checkSameElementType(ctx, dest.getElementType(), 0, "source")))
    return failure();
  FailureOr<int64_t> rows = sliceExtent(ctx, 2, dest.getRows(), "row");
  if (failed(rows))
    return failure();
  FailureOr<int64_t> cols = sliceExtent(ctx, 4, dest.getCols(), "column");
  if (failed(cols))
    return failure();
  if ((source.hasStaticRows() && dest.hasStaticRows() &&
       source.getRows() > dest.getRows()) ||
      (source.hasStaticCols() && dest.hasStaticCols() &&
       source.getCols() > dest.getCols()))
    return ctx.emitOpError()
           << "source " << shapeOf(source) << " does not fit into the "
           << shapeOf(dest) << " destination";
  if (!meetSize(*rows, source.getRows()) || !meetSize(*cols, source.getCols()))
    return ctx.emitOpError()
           << "source is " << shapeOf(source) << " but the target range is "
           << shapeOf(source.withShape(*rows, *cols));
  // Cells outside the range keep the destination's density.
  std::optional<double> sparsity;
  std::optional<int64_t> destCells = cellsOf(dest);
  std::optional<int64_t> sourceCells = cellsOf(source);
  if (destCells && sourceCells && *destCells > 0 && dest.getSparsity() &&
      source.getSparsity()) {
    double kept = static_cast<double>(*destCells - *sourceCells);
    double keptNonZeros = *dest.getSparsity() * kept;
    if (ctx.getEstimator().getKind() == EstimatorKind::WorstCase)
      keptNonZeros = std::min(kept, *dest.getSparsity() * *destCells);
    sparsity = (keptNonZeros + *source.getSparsity() * *sourceCells) /
               static_cast<double>(*destCells);
  }
  inferred.push_back(dest.getLogicalType().withSparsity(sparsity));
  return success();
}

LogicalResult
RemoveEmptyOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                     SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  bool rows = getMargin() == Margin::Rows;
  if (ctx.getNumOperands() > 1) {
    MatrixType select = ctx.getMatrix(1);
    bool ok = rows ? meetSize(select.getRows(), input.getRows()) &&
                         meetSize(select.getCols(), 1)
                   : meetSize(select.getRows(), 1) &&
                         meetSize(select.getCols(), input.getCols());
    if (!ok)
      return ctx.emitOpError()
             << "select must be a " << (rows ? "column" : "row")
             << " vector of "
             << shapeOf(rows ? input.withShape(input.getRows(), 1)
                             : input.withShape(1, input.getCols()))
             << " for a " << shapeOf(input) << " matrix, found "
             << shapeOf(select);
  }
  // The removed count depends on the data; removing zeros only densifies.
  inferred.push_back(
      rows ? matrix(kUnknownSize, input.getCols(), input.getElementType())
           : matrix(input.getRows(), kUnknownSize, input.getElementType()));
  return success();
}

LogicalResult
ReplaceOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                 SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  std::optional<double> pattern = ctx.getConstantFloat(1);
  std::optional<double> replacement = ctx.getConstantFloat(2);
  std::optional<double> sparsity;
  if (pattern && replacement) {
    if (*pattern == 0.0 && *replacement != 0.0)
      sparsity = 1.0; // every zero becomes non-zero
    else
      sparsity = input.getSparsity(); // zeros stay, others may vanish
  }
  inferred.push_back(input.getLogicalType().withSparsity(sparsity));
  return success();
}

LogicalResult TableOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType lhs = ctx.getMatrix(0), rhs = ctx.getMatrix(1);
  for (MatrixType vector : {lhs, rhs})
    if (!meetSize(vector.getCols(), 1))
      return ctx.emitOpError() << "expects column vectors of category ids, "
                                  "found "
                               << shapeOf(vector);
  if (!meetSize(lhs.getRows(), rhs.getRows()))
    return ctx.emitOpError()
           << "category vectors differ in length: " << shapeOf(lhs) << " and "
           << shapeOf(rhs);
  unsigned next = 2;
  if (getWeights()) {
    MatrixType weights = ctx.getMatrix(next++);
    if (!meetSize(weights.getCols(), 1) ||
        !meetSize(weights.getRows(), lhs.getRows()))
      return ctx.emitOpError()
             << "weights must be " << shapeOf(lhs)
             << " like the category vectors, found " << shapeOf(weights);
  }
  int64_t rows = kUnknownSize, cols = kUnknownSize;
  // A size with only one of the two counts is reported by the verifier.
  if (getRows() && getCols()) {
    std::optional<int64_t> r = ctx.getConstantInt(next);
    std::optional<int64_t> c = ctx.getConstantInt(next + 1);
    if (failed(checkSize(ctx, r, "row count")) ||
        failed(checkSize(ctx, c, "column count")))
      return failure();
    rows = sizeOr(r);
    cols = sizeOr(c);
  }
  inferred.push_back(matrix(rows, cols, lhs.getElementType()));
  return success();
}

LogicalResult OrderOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  if (std::optional<int64_t> by = ctx.getConstantInt(1)) {
    if (*by < 0 || (input.hasStaticCols() && *by >= input.getCols()))
      return ctx.emitOpError() << "sort column " << *by << " is outside the "
                               << shapeOf(input) << " matrix";
  }
  if (getIndices())
    inferred.push_back(matrix(input.getRows(), 1, input.getElementType(), 1.0));
  else
    inferred.push_back(
        input.getLogicalType().withSparsity(input.getSparsity()));
  return success();
}

//===----------------------------------------------------------------------===//
// Sizes, casts and conversions
//===----------------------------------------------------------------------===//

LogicalResult NRowOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  inferred.push_back(IndexType::get(ctx.getContext()));
  return success();
}

LogicalResult NColOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  inferred.push_back(IndexType::get(ctx.getContext()));
  return success();
}

LogicalResult NnzOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                           SmallVectorImpl<Type> &inferred) {
  inferred.push_back(IntegerType::get(ctx.getContext(), 64));
  return success();
}

LogicalResult
AsScalarOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                  SmallVectorImpl<Type> &inferred) {
  MatrixType input = ctx.getMatrix(0);
  if (!meetSize(input.getRows(), 1) || !meetSize(input.getCols(), 1))
    return ctx.emitOpError()
           << "expects a 1x1 matrix, found " << shapeOf(input);
  inferred.push_back(input.getElementType());
  return success();
}

LogicalResult
AsMatrixOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                  SmallVectorImpl<Type> &inferred) {
  Type type = ctx.getOperandType(0);
  if (!isValidMatrixElementType(type))
    return ctx.emitOpError()
           << "scalar must be f64, f32 or i64, found " << type;
  std::optional<double> sparsity;
  if (std::optional<double> value = ctx.getConstantFloat(0))
    sparsity = *value == 0.0 ? 0.0 : 1.0;
  inferred.push_back(matrix(1, 1, type, sparsity));
  return success();
}

LogicalResult CastOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                            SmallVectorImpl<Type> &inferred) {
  // The value is unchanged: everything known about the input holds for the
  // result. Formats must match (CastOpInterface), so keep the declared one.
  inferred.push_back(ctx.getMatrix(0).withFormat(getType().getFormat()));
  return success();
}

LogicalResult
ConvertOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                 SmallVectorImpl<Type> &inferred) {
  // The format is what this op changes, so it comes from the declared type.
  MatrixType input = ctx.getMatrix(0);
  inferred.push_back(input.withFormat(getType().getFormat()));
  return success();
}

LogicalResult FusedOp::inferMatrixProperties(const MatrixInferenceContext &ctx,
                                             SmallVectorImpl<Type> &inferred) {
  MatrixType main = ctx.getNumOperands() ? ctx.getMatrix(0) : MatrixType();
  if (!main)
    return ctx.emitOpError() << "expects a matrix as its first (main) input";
  std::optional<AggAxis> axis = getAxis();
  if (getKind() == FusedTemplate::Row) {
    // Aggregated: the partial results have the results' types; otherwise a
    // block of rows per row of the main input.
    auto yield = cast<YieldOp>(getBody().front().getTerminator());
    for (Type yielded : yield.getValues().getTypes()) {
      auto block = dyn_cast<MatrixType>(yielded);
      inferred.push_back(
          getAggregate() || !block
              ? yielded
              : block.withShape(main.getRows(), block.getCols()));
    }
    return success();
  }
  if (getAggregate() && !axis)
    return ctx.emitOpError() << "an aggregating fused operator needs an axis";
  for (Type declared : getResultTypes()) {
    Type elementType = declared;
    if (auto matrixType = dyn_cast<MatrixType>(declared))
      elementType = matrixType.getElementType();
    if (!getAggregate() || !axis) {
      inferred.push_back(matrix(main.getRows(), main.getCols(), elementType));
      continue;
    }
    switch (*axis) {
    case AggAxis::All:
      inferred.push_back(elementType);
      break;
    case AggAxis::Row:
      inferred.push_back(matrix(main.getRows(), 1, elementType));
      break;
    case AggAxis::Col:
      inferred.push_back(matrix(1, main.getCols(), elementType));
      break;
    }
  }
  return success();
}
