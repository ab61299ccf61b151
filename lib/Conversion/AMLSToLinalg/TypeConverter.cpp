//===- TypeConverter.cpp - Matrices to tensors ----------------------------===//

#include "AMLS/Conversion/AMLSToLinalg/AMLSToLinalg.h"
#include "AMLS/Dialect/AMLSTypes.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::amls;

static bool isCSR(Type type) {
  auto matrix = dyn_cast<MatrixType>(type);
  return matrix && matrix.getFormat() == MatrixFormat::CSR;
}

MatrixTypeConverter::MatrixTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion([](MatrixType type) -> std::optional<Type> {
    // No tensor for a CSR matrix: a null type fails the conversion (nullopt
    // would fall through to the identity conversion). The pass reports such
    // values with checkDenseMatrixTypes before converting.
    if (isCSR(type))
      return Type();
    return RankedTensorType::get({type.getRows(), type.getCols()},
                                 type.getElementType());
  });
  auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
}

LogicalResult mlir::amls::checkDenseMatrixTypes(Operation *root) {
  bool failed = false;
  auto report = [&](Operation *op, Type type, const Twine &what) {
    op->emitError() << what << " has type " << type
                    << ", which the dense lowering cannot take: CSR "
                       "matrices are not lowered yet (leave the format to "
                       "--amls-select-formats or use format = dense)";
    failed = true;
  };
  root->walk([&](Operation *op) {
    for (OpResult result : op->getResults())
      if (isCSR(result.getType()))
        report(op, result.getType(),
               "result #" + Twine(result.getResultNumber()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (isCSR(arg.getType()))
            report(op, arg.getType(), "argument #" + Twine(arg.getArgNumber()));
  });
  return success(!failed);
}
