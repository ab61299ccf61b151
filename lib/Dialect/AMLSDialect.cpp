//===- AMLSDialect.cpp - AMLS dialect -------------------------------------===//

#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Dialect/AMLSTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Transforms/InliningUtils.h"

using namespace mlir;
using namespace mlir::amls;

#include "AMLS/Dialect/AMLSOpsDialect.cpp.inc"

namespace {
/// Every AMLS op may be inlined: none refers to its enclosing function (the
/// values it reads are operands, its regions are closed), and amls.yield
/// only terminates amls.parfor and amls.fused bodies, which are cloned whole.
struct AMLSInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    return true;
  }
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
};
} // namespace

void AMLSDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "AMLS/Dialect/AMLSOps.cpp.inc"
      >();
  addInterfaces<AMLSInlinerInterface>();
  registerRowLocalityModels(*getContext());
  registerCSRKernelModels(*getContext());
  registerCompressedKernelModels(*getContext());
  registerMNCSketchModels(*getContext());
}

Operation *AMLSDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  if (auto poison = dyn_cast<ub::PoisonAttr>(value))
    return ub::PoisonOp::create(builder, loc, type, poison);
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
