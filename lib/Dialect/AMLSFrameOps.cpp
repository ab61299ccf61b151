//===- AMLSFrameOps.cpp - Verifiers and folders of the frame ops ----------===//
//
// The frame ops keep their declared types (no size inference): the sizes a
// program states must agree with each other, which these verifiers check.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::amls;

/// Fails when two sizes are both known and differ.
static LogicalResult checkSameSize(Operation *op, int64_t a, int64_t b,
                                   StringRef what) {
  if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b)
    return success();
  return op->emitOpError() << what << " differ: " << a << " vs " << b;
}

/// A separator is one character or more, but never a quote or a line break
/// (the reader would not know where a field ends).
static LogicalResult verifySeparator(Operation *op, StringRef sep) {
  if (sep.empty())
    return op->emitOpError("expects a non-empty separator");
  if (sep.find_first_of("\"\n\r") != StringRef::npos)
    return op->emitOpError("expects a separator without a quote or a line "
                           "break, found '")
           << sep << "'";
  return success();
}

LogicalResult FrameReadOp::verify() { return verifySeparator(*this, getSep()); }

LogicalResult FrameWriteOp::verify() {
  return verifySeparator(*this, getSep());
}

OpFoldResult FrameNRowOp::fold(FoldAdaptor) {
  FrameType type = getInput().getType();
  if (ShapedType::isDynamic(type.getRows()))
    return {};
  return IntegerAttr::get(getType(), type.getRows());
}

OpFoldResult FrameNColOp::fold(FoldAdaptor) {
  FrameType type = getInput().getType();
  if (ShapedType::isDynamic(type.getCols()))
    return {};
  return IntegerAttr::get(getType(), type.getCols());
}

LogicalResult FrameAsMatrixOp::verify() {
  FrameType frame = getInput().getType();
  MatrixType matrix = getResult().getType();
  if (!matrix.getElementType().isF64())
    return emitOpError("expects an f64 matrix result, found ")
           << matrix.getElementType();
  if (failed(checkSameSize(*this, frame.getRows(), matrix.getRows(),
                           "frame and matrix row counts")))
    return failure();
  return checkSameSize(*this, frame.getCols(), matrix.getCols(),
                       "frame and matrix column counts");
}

/// An encoded matrix is dense f64. (Its rows are not checked against the
/// frame's: the spec's `omit` removes rows at run time.)
static LogicalResult verifyEncodedMatrix(Operation *op, MatrixType matrix) {
  if (!matrix.getElementType().isF64())
    return op->emitOpError("expects an f64 encoded matrix, found ")
           << matrix.getElementType();
  if (matrix.getFormat() && *matrix.getFormat() != MatrixFormat::Dense)
    return op->emitOpError("produces a dense matrix, found format ")
           << stringifyMatrixFormat(*matrix.getFormat());
  return success();
}

LogicalResult TransformEncodeOp::verify() {
  if (failed(verifyEncodedMatrix(*this, getResult().getType())))
    return failure();
  // The metadata frame has a column per column of the target.
  return checkSameSize(*this, getTarget().getType().getCols(),
                       getMeta().getType().getCols(),
                       "target and metadata column counts");
}

LogicalResult TransformApplyOp::verify() {
  if (failed(verifyEncodedMatrix(*this, getResult().getType())))
    return failure();
  return checkSameSize(*this, getTarget().getType().getCols(),
                       getMeta().getType().getCols(),
                       "target and metadata column counts");
}

LogicalResult FrameFromMatrixOp::verify() {
  MatrixType matrix = getInput().getType();
  FrameType frame = getResult().getType();
  if (failed(checkSameSize(*this, matrix.getRows(), frame.getRows(),
                           "matrix and frame row counts")) ||
      failed(checkSameSize(*this, matrix.getCols(), frame.getCols(),
                           "matrix and frame column counts")))
    return failure();
  if (llvm::any_of(frame.getSchema(), [](FrameValueType type) {
        return type != FrameValueType::FP64;
      }))
    return emitOpError("makes FP64 columns, found the schema ") << frame;
  return success();
}

LogicalResult FrameCastOp::verify() {
  FrameType from = getInput().getType(), to = getResult().getType();
  if (failed(
          checkSameSize(*this, from.getRows(), to.getRows(), "row counts")) ||
      failed(
          checkSameSize(*this, from.getCols(), to.getCols(), "column counts")))
    return failure();
  if (from.hasSchema() && to.hasSchema() && from.getSchema() != to.getSchema())
    return emitOpError("cannot change the schema of ") << from << " to " << to;
  return success();
}

OpFoldResult FrameCastOp::fold(FoldAdaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  // A cast of a cast is one cast from the first input.
  if (auto inner = getInput().getDefiningOp<FrameCastOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}
