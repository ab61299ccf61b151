//===- WrapEntry.cpp - Adapt the entry function to the session's ABI ------===//
//
// The JIT calls one function with arguments only; results come back through
// the runtime ABI's result sinks, one call per result with its position.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Conversion/ElementConversion.h"
#include "AMLS/Conversion/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSWRAPENTRY
#include "AMLS/Conversion/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Hands `result` (number `index`) to the sink for its kind.
LogicalResult sinkResult(OpBuilder &b, Location loc, func::FuncOp entry,
                         unsigned index, Value result) {
  Value position = arith::ConstantIntOp::create(b, loc, index, 64);
  Type type = result.getType();
  if (isa<RankedTensorType>(type)) {
    int64_t dyn = ShapedType::kDynamic;
    Value dynamic = tensor::CastOp::create(
        b, loc, RankedTensorType::get({dyn, dyn}, b.getF64Type()),
        convertElementType(b, loc, result, b.getF64Type()));
    Value buffer = bufferization::ToBufferOp::create(
        b, loc, getRuntimeMatrixType(b.getF64Type()), dynamic,
        /*read_only=*/true);
    createRuntimeCall(b, loc, entry, RuntimeFunction::SinkMatrix,
                      {position, buffer});
    return success();
  }
  if (isa<FloatType>(type)) {
    Value value =
        type.isF64()
            ? result
            : arith::ExtFOp::create(b, loc, b.getF64Type(), result).getResult();
    createRuntimeCall(b, loc, entry, RuntimeFunction::SinkFloat,
                      {position, value});
    return success();
  }
  if (type.isIndex() || type.isSignlessInteger()) {
    Value value = result;
    if (type.isIndex())
      value = arith::IndexCastOp::create(b, loc, b.getI64Type(), result);
    else if (type.getIntOrFloatBitWidth() < 64)
      value = arith::ExtSIOp::create(b, loc, b.getI64Type(), result);
    createRuntimeCall(b, loc, entry, RuntimeFunction::SinkInteger,
                      {position, value});
    return success();
  }
  return entry.emitError("result #")
         << index << " has type " << type
         << ", which the execution session cannot return (matrices, floats "
            "and integers only)";
}

struct AMLSWrapEntryPass
    : public amls::impl::AMLSWrapEntryBase<AMLSWrapEntryPass> {
  using AMLSWrapEntryBase::AMLSWrapEntryBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto entryFunction = module.lookupSymbol<func::FuncOp>(entry);
    if (!entryFunction || entryFunction.isDeclaration()) {
      module.emitError("amls-wrap-entry: no function '") << entry << "'";
      return signalPassFailure();
    }
    if (module.lookupSymbol(kEntryWrapperName)) {
      module.emitError("amls-wrap-entry: the module already has a symbol '")
          << kEntryWrapperName << "'";
      return signalPassFailure();
    }
    if (failed(wrap(module, entryFunction)))
      signalPassFailure();
  }

  LogicalResult wrap(ModuleOp module, func::FuncOp entry) {
    OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
    Location loc = entry.getLoc();
    // Matrices cross in and out as f64: other element types convert inside.
    auto asF64 = [&](Type type) -> Type {
      if (auto tensor = dyn_cast<RankedTensorType>(type))
        return tensor.clone(b.getF64Type());
      return type;
    };
    SmallVector<Type> inputs =
        llvm::map_to_vector(entry.getArgumentTypes(), asF64);
    auto wrapper = func::FuncOp::create(b, loc, kEntryWrapperName,
                                        b.getFunctionType(inputs, {}));
    wrapper->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                     b.getUnitAttr());
    // The caller's input matrices are read-only: writes need copies.
    for (unsigned i = 0; i < wrapper.getNumArguments(); ++i)
      if (isa<TensorType>(wrapper.getArgumentTypes()[i]))
        wrapper.setArgAttr(i, "bufferization.writable", b.getBoolAttr(false));
    Block *body = wrapper.addEntryBlock();
    b.setInsertionPointToStart(body);
    SmallVector<Value> callArgs;
    for (auto [arg, type] :
         llvm::zip(body->getArguments(), entry.getArgumentTypes())) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      callArgs.push_back(
          tensor ? convertElementType(b, loc, arg, tensor.getElementType())
                 : Value(arg));
    }
    auto call = func::CallOp::create(b, loc, entry, callArgs);
    for (auto [i, result] : llvm::enumerate(call.getResults()))
      if (failed(sinkResult(b, loc, entry, i, result))) {
        wrapper.erase();
        return failure();
      }
    func::ReturnOp::create(b, loc);
    return success();
  }
};

} // namespace
