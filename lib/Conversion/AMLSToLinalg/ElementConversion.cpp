//===- ElementConversion.cpp - Converting matrix element types ------------===//

#include "AMLS/Conversion/ElementConversion.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

Value mlir::amls::convertScalar(OpBuilder &b, Location loc, Value value,
                                Type type) {
  Type from = value.getType();
  if (isa<FloatType>(from) && type.isSignlessInteger()) {
    // fptosi of NaN is poison: make it 0 first.
    Value isNaN =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, value, value);
    Value zero =
        arith::ConstantOp::create(b, loc, from, b.getFloatAttr(from, 0));
    value = arith::SelectOp::create(b, loc, isNaN, zero, value);
  }
  return convertScalarToDtype(b, loc, value, type, /*isUnsignedCast=*/false);
}

Value mlir::amls::convertElementType(OpBuilder &b, Location loc, Value tensor,
                                     Type elementType) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getElementType() == elementType)
    return tensor;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, tensor);
  Value init = tensor::EmptyOp::create(b, loc, sizes, elementType);
  MLIRContext *context = b.getContext();
  AffineMap identity =
      AffineMap::getMultiDimIdentityMap(type.getRank(), context);
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), tensor, init,
      ArrayRef<AffineMap>{identity, identity}, iterators,
      [&](OpBuilder &body, Location bodyLoc, ValueRange args) {
        linalg::YieldOp::create(
            body, bodyLoc, convertScalar(body, bodyLoc, args[0], elementType));
      });
  return generic.getResult(0);
}
