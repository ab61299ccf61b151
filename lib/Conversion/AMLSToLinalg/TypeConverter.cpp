//===- TypeConverter.cpp - Matrices to tensors ----------------------------===//

#include "AMLS/Conversion/AMLSToLinalg/AMLSToLinalg.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "CSRLowering.h"

#include "AMLS/Support/StorageLayout.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::amls;

AmlsMatrixFormat mlir::amls::getStorageFormat(MatrixType type) {
  if (isCompressedMatrix(type))
    return AMLS_MATRIX_COMPRESSED;
  return isCSRMatrix(type) ? AMLS_MATRIX_CSR : AMLS_MATRIX_DENSE;
}

void mlir::amls::getStorageTypes(MatrixType type,
                                 SmallVectorImpl<Type> &types) {
  using ::amls::layout::Extent;
  using ::amls::layout::FieldType;
  MLIRContext *context = type.getContext();
  int64_t rows = type.getRows();
  for (const ::amls::layout::FieldInfo &field :
       ::amls::layout::getLayout(getStorageFormat(type))) {
    if (field.type == FieldType::I64) {
      types.push_back(IndexType::get(context));
      continue;
    }
    if (field.extent == Extent::Shape) {
      types.push_back(
          RankedTensorType::get({rows, type.getCols()}, type.getElementType()));
      continue;
    }
    int64_t size =
        field.extent == Extent::RowsPlusOne && rows != ShapedType::kDynamic
            ? rows + 1
            : ShapedType::kDynamic;
    Type element = field.type == FieldType::VectorI64
                       ? Type(IntegerType::get(context, 64))
                   : field.type == FieldType::VectorI32
                       ? Type(IntegerType::get(context, 32))
                       : type.getElementType();
    types.push_back(RankedTensorType::get({size}, element));
  }
}

std::optional<ResultKind> mlir::amls::getResultKind(Type type) {
  if (auto matrix = dyn_cast<MatrixType>(type)) {
    // A compressed matrix is a runtime handle that one run makes and
    // releases: nothing a caller can receive.
    if (isCompressedMatrix(matrix))
      return std::nullopt;
    return getStorageFormat(matrix) == AMLS_MATRIX_CSR ? ResultKind::CSR
                                                       : ResultKind::Dense;
  }
  if (isa<FloatType>(type))
    return ResultKind::Float;
  if (type.isIndex() || type.isSignlessInteger())
    return ResultKind::Integer;
  return std::nullopt;
}

MatrixTypeConverter::MatrixTypeConverter() {
  addConversion([](Type type) { return type; });
  // A matrix is the values of its layout's fields: a dense one a tensor, a
  // CSR one its row pointers, column indices, values and column count
  // (StorageLayouts.def).
  addConversion(
      [](MatrixType type,
         SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        getStorageTypes(type, results);
        return success();
      });
  // A run-time string is the runtime's NUL-terminated text.
  addConversion([](StringType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext());
  });
  // A frame is the handle of the runtime's frame (lib/Runtime/Frame).
  addConversion([](FrameType type) -> Type {
    return IntegerType::get(type.getContext(), 64);
  });
  auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                        Location loc) -> Value {
    return UnrealizedConversionCastOp::create(b, loc, type, inputs)
        .getResult(0);
  };
  addSourceMaterialization(materialize);
  addTargetMaterialization(materialize);
  addTargetMaterialization([](OpBuilder &b, TypeRange types, ValueRange inputs,
                              Location loc) -> SmallVector<Value> {
    return UnrealizedConversionCastOp::create(b, loc, types, inputs)
        .getResults();
  });
}

LogicalResult mlir::amls::checkMatrixFormats(Operation *root) {
  bool failed = false;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    // A fused operator's kernel covers its body (a row operator over a CSR
    // main input evaluates its body's ops itself, row by row).
    WalkResult next =
        isa<FusedOp>(op) ? WalkResult::skip() : WalkResult::advance();
    if (!hasCompressedKernel(op)) {
      op->emitError() << "'" << op->getName()
                      << "' has no kernel for a compressed matrix; only "
                         "its products (X %*% W, t(X) %*% W, t(W) %*% X, "
                         "amls.mmchain, amls.tsmm left), sum and mean of "
                         "all cells, rows or columns, nrow, ncol, scalar "
                         "operations, t(X), amls.decompress and "
                         "amls.release read one (--amls-select-compression)";
      failed = true;
      return next;
    }
    if (!touchesCSRMatrix(op))
      return next;
    // Structural ops pass the four values of a CSR matrix along.
    if (isa<func::FuncOp, func::CallOp, func::ReturnOp, scf::ForOp,
            scf::WhileOp, scf::IfOp, scf::YieldOp, scf::ConditionOp,
            ub::PoisonOp>(op))
      return next;
    SmallVector<bool> csrOperands = llvm::map_to_vector(
        op->getOperandTypes(), [](Type type) { return isCSRMatrix(type); });
    SmallVector<bool> csrResults = llvm::map_to_vector(
        op->getResultTypes(), [](Type type) { return isCSRMatrix(type); });
    if (isa<AMLSDialect>(op->getDialect()) &&
        hasCSRKernel(op, csrOperands, csrResults))
      return next;
    InFlightDiagnostic diag = op->emitError()
                              << "'" << op->getName()
                              << "' has no kernel for these storage formats (";
    llvm::interleaveComma(op->getOperandTypes(), diag);
    diag << " -> ";
    llvm::interleaveComma(op->getResultTypes(), diag);
    diag << "); --amls-select-formats inserts amls.convert where a CSR "
            "matrix needs to be dense";
    failed = true;
    return next;
  });
  return success(!failed);
}
