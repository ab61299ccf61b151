//===- UseBlas.cpp - Run large dense products through BLAS ----------------===//

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::amls {
#define GEN_PASS_DEF_AMLSUSEBLAS
#include "AMLS/Codegen/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

/// Whether operand `index` of a matmul is read transposed ((m,n,k) maps).
FailureOr<bool> isTransposed(linalg::MatmulOp op, unsigned index) {
  MLIRContext *context = op.getContext();
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  auto map = [&](AffineExpr a, AffineExpr b) {
    return AffineMap::get(3, 0, {a, b}, context);
  };
  AffineMap actual = op.getIndexingMapsArray()[index];
  AffineMap plain = index == 0 ? map(m, k) : map(k, n);
  AffineMap transposed = index == 0 ? map(k, m) : map(n, k);
  if (actual == plain)
    return false;
  if (actual == transposed)
    return true;
  return failure();
}

struct AMLSUseBlasPass : public amls::impl::AMLSUseBlasBase<AMLSUseBlasPass> {
  using AMLSUseBlasBase::AMLSUseBlasBase;

  void runOnOperation() override {
    if (mode != "auto" && mode != "always" && mode != "never") {
      getOperation().emitError("amls-use-blas: expected mode 'auto', "
                               "'always' or 'never', found '")
          << mode << "'";
      return signalPassFailure();
    }
    if (library != "openblas" && library != "cublas") {
      getOperation().emitError("amls-use-blas: expected library 'openblas' "
                               "or 'cublas', found '")
          << library << "'";
      return signalPassFailure();
    }
    if (library == "cublas")
      useCusparse();
    if (mode == "never")
      return;
    SmallVector<linalg::MatmulOp> products;
    getOperation().walk([&](linalg::MatmulOp op) {
      if (op.hasPureBufferSemantics() &&
          llvm::all_equal(
              llvm::map_range(op->getOperandTypes(),
                              [](Type type) {
                                return cast<MemRefType>(type).getElementType();
                              })) &&
          isa<Float64Type, Float32Type>(
              cast<MemRefType>(op->getOperand(0).getType()).getElementType()))
        products.push_back(op);
    });
    for (linalg::MatmulOp op : products)
      rewrite(op);
  }

  /// The products of a CSR and a dense matrix and the conversions between
  /// CSR and dense call their cuSPARSE versions, which take the same
  /// arguments (and run the CPU's kernels where cuSPARSE cannot).
  void useCusparse() {
    SmallVector<std::pair<func::CallOp, RuntimeFunction>> calls;
    getOperation().walk([&](func::CallOp call) {
      std::optional<RuntimeFunction> function = getCalledRuntimeFunction(call);
      if (!function)
        return;
      if (std::optional<RuntimeFunction> onGpu = getCusparseVersion(*function))
        calls.push_back({call, *onGpu});
    });
    llvm::SmallSetVector<StringAttr, 6> replaced;
    for (auto [call, function] : calls) {
      OpBuilder b(call);
      replaced.insert(call.getCalleeAttr().getAttr());
      Value result = createRuntimeCall(b, call.getLoc(), call, function,
                                       call.getOperands());
      if (call.getNumResults())
        call.getResult(0).replaceAllUsesWith(result);
      call.erase();
    }
    // The CPU kernels' declarations, now unused.
    ModuleOp module = getOperation();
    for (StringAttr name : replaced)
      if (auto declaration = module.lookupSymbol<func::FuncOp>(name);
          declaration && SymbolTable::symbolKnownUseEmpty(declaration, module))
        declaration.erase();
  }

  void rewrite(linalg::MatmulOp op) {
    FailureOr<bool> transposeLhs = isTransposed(op, 0);
    FailureOr<bool> transposeRhs = isTransposed(op, 1);
    if (failed(transposeLhs) || failed(transposeRhs))
      return; // A contraction BLAS does not express: keep the loops.
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value lhs = op.getDpsInputOperand(0)->get();
    Value rhs = op.getDpsInputOperand(1)->get();
    Value out = op.getDpsInitOperand(0)->get();
    auto size = [&](Value memref, int64_t dim) -> OpFoldResult {
      auto type = cast<MemRefType>(memref.getType());
      if (!type.isDynamicDim(dim))
        return b.getIndexAttr(type.getDimSize(dim));
      return memref::DimOp::create(b, loc, memref, dim).getResult();
    };
    OpFoldResult m = size(out, 0), n = size(out, 1),
                 k = size(lhs, *transposeLhs ? 0 : 1);

    std::optional<int64_t> staticM = getConstantIntValue(m),
                           staticN = getConstantIntValue(n),
                           staticK = getConstantIntValue(k);
    if (mode == "auto" && staticM && staticN && staticK) {
      if (*staticM * *staticN * *staticK < minFlops)
        return;
      emitCall(b, loc, op, lhs, rhs, out, *transposeLhs, *transposeRhs);
      op.erase();
      return;
    }
    if (mode == "always") {
      emitCall(b, loc, op, lhs, rhs, out, *transposeLhs, *transposeRhs);
      op.erase();
      return;
    }
    // Unknown sizes: decide at run time.
    auto toValue = [&](OpFoldResult size) -> Value {
      if (auto value = dyn_cast<Value>(size))
        return value;
      return arith::ConstantIndexOp::create(b, loc, *getConstantIntValue(size));
    };
    Value flops = arith::MulIOp::create(
        b, loc, arith::MulIOp::create(b, loc, toValue(m), toValue(n)),
        toValue(k));
    Value large =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, flops,
                              arith::ConstantIndexOp::create(b, loc, minFlops));
    auto branch = scf::IfOp::create(b, loc, large, /*withElseRegion=*/true);
    OpBuilder thenBuilder = branch.getThenBodyBuilder();
    emitCall(thenBuilder, loc, op, lhs, rhs, out, *transposeLhs, *transposeRhs);
    op->moveBefore(branch.elseBlock()->getTerminator());
  }

  void emitCall(OpBuilder &b, Location loc, Operation *from, Value lhs,
                Value rhs, Value out, bool transposeLhs, bool transposeRhs) {
    MLIRContext *context = b.getContext();
    auto view = [&](Value memref, bool transpose) -> Value {
      if (transpose) {
        AffineMap swap =
            AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, context);
        memref = memref::TransposeOp::create(b, loc, memref,
                                             AffineMapAttr::get(swap));
      }
      return memref::CastOp::create(
          b, loc,
          getRuntimeMatrixType(
              cast<MemRefType>(memref.getType()).getElementType()),
          memref);
    };
    Value args[] = {view(lhs, transposeLhs), view(rhs, transposeRhs),
                    view(out, false)};
    bool f64 = cast<MemRefType>(out.getType()).getElementType().isF64();
    RuntimeFunction gemm =
        library == "cublas"
            ? (f64 ? RuntimeFunction::GpuGemmF64 : RuntimeFunction::GpuGemmF32)
            : (f64 ? RuntimeFunction::GemmF64 : RuntimeFunction::GemmF32);
    createRuntimeCall(b, loc, from, gemm, args);
  }
};

} // namespace
