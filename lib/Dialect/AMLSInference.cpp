//===- AMLSInference.cpp - Size and sparsity rules of AMLS ops ------------===//
//
// The InferMatrixPropertiesInterface implementation of every op that computes
// a value. The same rules verify ops (declared result types must be
// compatible with what the operands imply) and drive --amls-infer-properties.
//
// This file holds the interface's plumbing and the rules of element-wise,
// I/O, data generation, size and cast ops and of fused operators; the rules
// of products and aggregates are in AMLSInferenceProductAndAggregate.cpp,
// those of reorganising ops in AMLSInferenceReorganisation.cpp.
//
//===----------------------------------------------------------------------===//

#include "InferenceUtils.h"

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
using namespace mlir::amls::inference;

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

//===----------------------------------------------------------------------===//
// Helpers shared by the rules
//===----------------------------------------------------------------------===//

/// "4x?" for diagnostics.
std::string mlir::amls::inference::shapeOf(MatrixType type) {
  auto dim = [](int64_t size) {
    return isKnownSize(size) ? std::to_string(size) : std::string("?");
  };
  return dim(type.getRows()) + "x" + dim(type.getCols());
}

/// Reports a mismatch of two operands' element types.
LogicalResult
mlir::amls::inference::checkSameElementType(const MatrixInferenceContext &ctx,
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

LogicalResult
mlir::amls::inference::checkSize(const MatrixInferenceContext &ctx,
                                 std::optional<int64_t> size, StringRef what) {
  if (size && *size < 0)
    return ctx.emitOpError() << what << " must be non-negative, got " << *size;
  return success();
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
    // (which would be an outer product). A size known only at run time may
    // be 1 (a removeEmpty result): the lowering checks it then.
    auto broadcastsAlong = [](MatrixType self, MatrixType other, bool cols) {
      int64_t mine = cols ? self.getCols() : self.getRows();
      int64_t theirs = cols ? other.getCols() : other.getRows();
      return mine == 1 && isKnownSize(theirs) && theirs != 1;
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
  if (ctx.allowsFileMetadata())
    metadata = ::amls::runtime::readMatrixFileMetadata(
        getPath().str(), static_cast<AmlsFileFormat>(getFormat()));
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

//===----------------------------------------------------------------------===//
// Fused operators
//===----------------------------------------------------------------------===//

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
