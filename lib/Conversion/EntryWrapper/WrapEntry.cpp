//===- WrapEntry.cpp - Adapt the entry function to the session's ABI ------===//
//
// The execution session (lib/ExecutionEngine) calls one function, amls_main,
// through its C interface: the arguments in, the results returned. Matrices
// come in as f64, f32 or i64 (other element types as f64, converted inside)
// and go out as f64; scalar results widen to f64 or i64; a CSR matrix goes
// out as the fields of its layout (StorageLayouts.def: row offsets, column
// indices and values as 1-D buffers, and the number of columns). Which
// results are which comes from the entry's amls.result_kinds, which
// --convert-amls-to-linalg recorded before the types were lowered; the
// wrapper carries it on for the session.
//
// Results are returned rather than handed to a callback so that nothing is
// process-global and no result is copied: amls_main is public, and
// ownership-based buffer deallocation makes a public function's returned
// buffers owned by its caller (it clones a result that aliases an argument
// or a constant), so the session takes over the buffer the compiled code
// allocated and returns it to the runtime's pool (finalize-memref-to-llvm's
// use-generic-functions allocates from it).
//
//===----------------------------------------------------------------------===//

#include "AMLS/Conversion/ElementConversion.h"
#include "AMLS/Conversion/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSTypes.h"
#include "AMLS/Support/StorageLayout.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSWRAPENTRY
#include "AMLS/Conversion/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// The type a storage field crosses the boundary as: its cells as
/// tensor<?x?xf64>, an array as a 1-D tensor of unknown size, a number as
/// i64.
Type getBoundaryType(Builder &b, const ::amls::layout::FieldInfo &field) {
  using ::amls::layout::FieldType;
  int64_t dynamic = ShapedType::kDynamic;
  switch (field.type) {
  case FieldType::MatrixF64:
    return RankedTensorType::get({dynamic, dynamic}, b.getF64Type());
  case FieldType::VectorI64:
    return RankedTensorType::get({dynamic}, b.getI64Type());
  case FieldType::VectorI32:
    return RankedTensorType::get({dynamic}, b.getI32Type());
  case FieldType::VectorF64:
    return RankedTensorType::get({dynamic}, b.getF64Type());
  case FieldType::I64:
    return b.getI64Type();
  }
  llvm_unreachable("unknown storage field type");
}

/// Appends the boundary types of a result of `kind`.
void appendBoundaryTypes(Builder &b, ResultKind kind,
                         SmallVectorImpl<Type> &types) {
  switch (kind) {
  case ResultKind::Float:
    types.push_back(b.getF64Type());
    return;
  case ResultKind::Integer:
    types.push_back(b.getI64Type());
    return;
  case ResultKind::Dense:
  case ResultKind::CSR:
    for (const ::amls::layout::FieldInfo &field : ::amls::layout::getLayout(
             kind == ResultKind::CSR ? AMLS_MATRIX_CSR : AMLS_MATRIX_DENSE))
      types.push_back(getBoundaryType(b, field));
    return;
  }
}

/// `result` converted to its boundary type.
Value toBoundary(OpBuilder &b, Location loc, Value result, Type boundary) {
  Type type = result.getType();
  if (auto tensor = dyn_cast<RankedTensorType>(type);
      tensor && tensor.getRank() == 1)
    return type == boundary
               ? result
               : tensor::CastOp::create(b, loc, boundary, result).getResult();
  if (isa<RankedTensorType>(type))
    return tensor::CastOp::create(
        b, loc, boundary, convertElementType(b, loc, result, b.getF64Type()));
  if (isa<FloatType>(type))
    return type.isF64() ? result
                        : arith::ExtFOp::create(b, loc, boundary, result);
  if (type.isIndex())
    return arith::IndexCastOp::create(b, loc, boundary, result);
  if (type.getIntOrFloatBitWidth() == 1)
    return arith::ExtUIOp::create(b, loc, boundary, result);
  if (type.getIntOrFloatBitWidth() < 64)
    return arith::ExtSIOp::create(b, loc, boundary, result);
  return result;
}

struct AMLSWrapEntryPass
    : public mlir::amls::impl::AMLSWrapEntryBase<AMLSWrapEntryPass> {
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
    StringRef kindsName = AMLSDialect::getResultKindsAttrName();
    auto kinds = entry->getAttrOfType<ArrayAttr>(kindsName);
    if (!kinds && entry.getNumResults() > 0)
      return entry.emitError("amls-wrap-entry: '")
             << entry.getSymName() << "' has no '" << kindsName
             << "' (--convert-amls-to-linalg records it for functions that "
                "return matrices, floats and integers only)";
    SmallVector<Type> results;
    for (Attribute kind : kinds ? kinds : b.getArrayAttr({}))
      appendBoundaryTypes(b, cast<ResultKindAttr>(kind).getValue(), results);
    if (results.size() != entry.getNumResults())
      return entry.emitError("amls-wrap-entry: '")
             << kindsName << "' describes " << results.size()
             << " lowered results, but '" << entry.getSymName() << "' returns "
             << entry.getNumResults();
    // f64, f32 and i64 matrices come in as they are (a caller's array of
    // that type is read in place); other element types come in as f64 and
    // convert inside. The arrays of a CSR matrix (rank 1) come in as they
    // are.
    auto isDenseMatrix = [](Type type) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      return tensor && tensor.getRank() == 2;
    };
    SmallVector<Type> inputs =
        llvm::map_to_vector(entry.getArgumentTypes(), [&](Type type) -> Type {
          if (!isDenseMatrix(type))
            return type;
          auto tensor = cast<RankedTensorType>(type);
          Type element = tensor.getElementType();
          if (element.isF32() || element.isInteger(64))
            return tensor;
          return tensor.clone(b.getF64Type());
        });
    auto wrapper = func::FuncOp::create(b, loc, kEntryWrapperName,
                                        b.getFunctionType(inputs, results));
    wrapper->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                     b.getUnitAttr());
    // The kinds move to the wrapper, where the session reads them.
    if (kinds) {
      wrapper->setAttr(kindsName, kinds);
      entry->removeAttr(kindsName);
    }
    // The caller's input matrices are borrowed and read-only: writes need
    // copies.
    for (unsigned i = 0; i < wrapper.getNumArguments(); ++i)
      if (isa<TensorType>(wrapper.getArgumentTypes()[i]))
        wrapper.setArgAttr(i, "bufferization.writable", b.getBoolAttr(false));
    Block *body = wrapper.addEntryBlock();
    b.setInsertionPointToStart(body);
    SmallVector<Value> callArgs;
    for (auto [arg, type] :
         llvm::zip(body->getArguments(), entry.getArgumentTypes())) {
      callArgs.push_back(
          isDenseMatrix(type)
              ? convertElementType(
                    b, loc, arg, cast<RankedTensorType>(type).getElementType())
              : Value(arg));
    }
    auto call = func::CallOp::create(b, loc, entry, callArgs);
    SmallVector<Value> returned;
    for (auto [result, boundary] : llvm::zip(call.getResults(), results))
      returned.push_back(toBoundary(b, loc, result, boundary));
    func::ReturnOp::create(b, loc, returned);
    return success();
  }
};

} // namespace
