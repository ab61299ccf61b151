//===- AMLSDialect.cpp - AMLS dialect -------------------------------------===//

#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Dialect/AMLSTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::amls;

#include "AMLS/Dialect/AMLSOpsDialect.cpp.inc"

void AMLSDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "AMLS/Dialect/AMLSOps.cpp.inc"
      >();
}

Operation *AMLSDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  if (auto matrixType = dyn_cast<MatrixType>(type)) {
    auto elements = dyn_cast<ElementsAttr>(value);
    if (!elements)
      return nullptr;
    return ConstantOp::create(builder, loc, matrixType, elements);
  }
  if (auto typed = dyn_cast<TypedAttr>(value); typed && typed.getType() == type)
    return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}
