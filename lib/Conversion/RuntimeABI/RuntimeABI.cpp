//===- RuntimeABI.cpp - The runtime functions compiled code calls ---------===//

#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Runtime/ABI.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::amls;

// The dialect's enums are passed to the runtime as their integer values.
static_assert(static_cast<int32_t>(FileFormat::CSV) == AMLS_FILE_CSV &&
                  static_cast<int32_t>(FileFormat::MatrixMarket) ==
                      AMLS_FILE_MATRIX_MARKET &&
                  static_cast<int32_t>(FileFormat::Binary) ==
                      AMLS_FILE_BINARY &&
                  static_cast<int32_t>(FileFormat::Text) == AMLS_FILE_TEXT,
              "amls::FileFormat differs from AmlsFileFormat (ABI.h)");
static_assert(static_cast<int32_t>(ScalarType::Double) == AMLS_VALUE_DOUBLE &&
                  static_cast<int32_t>(ScalarType::Int) == AMLS_VALUE_INT &&
                  static_cast<int32_t>(ScalarType::Boolean) ==
                      AMLS_VALUE_BOOLEAN &&
                  static_cast<int32_t>(ScalarType::String) == AMLS_VALUE_STRING,
              "amls::ScalarType differs from AmlsValueType (ABI.h)");
static_assert(static_cast<int32_t>(RandPdf::Uniform) == AMLS_PDF_UNIFORM &&
                  static_cast<int32_t>(RandPdf::Normal) == AMLS_PDF_NORMAL,
              "amls::RandPdf differs from AmlsRandomPdf (ABI.h)");
static_assert(static_cast<int32_t>(MatrixFormat::Dense) == AMLS_MATRIX_DENSE &&
                  static_cast<int32_t>(MatrixFormat::CSR) == AMLS_MATRIX_CSR,
              "amls::MatrixFormat differs from AmlsMatrixFormat (ABI.h)");
static_assert(
    static_cast<int32_t>(ParforPartitioner::Naive) == AMLS_PARFOR_NAIVE &&
        static_cast<int32_t>(ParforPartitioner::Static) == AMLS_PARFOR_STATIC &&
        static_cast<int32_t>(ParforPartitioner::Fixed) == AMLS_PARFOR_FIXED &&
        static_cast<int32_t>(ParforPartitioner::Factoring) ==
            AMLS_PARFOR_FACTORING,
    "amls::ParforPartitioner differs from AmlsParforPartitioner (ABI.h)");

namespace {

/// The C types of runtime function parameters.
///
/// `CSR` stands for the four parameters of a CSR matrix: row pointers
/// (VectorI64), column indices (VectorI32), values (VectorF64) and the
/// number of columns (I64).
enum class ABIType {
  I32,
  I64,
  F64,
  Ptr,
  MatrixF64,
  MatrixF32,
  VectorI64,
  VectorI32,
  VectorF64,
  /// Results: a buffer the runtime allocated from the pool and hands over
  /// (memref<?xT>, the caller deallocates it).
  BufferI64,
  BufferI32,
  BufferF64,
  CSR
};

struct RuntimeSignature {
  StringLiteral name;
  SmallVector<ABIType, 8> inputs;
  std::optional<ABIType> result;
};

/// The table: one row per function of include/AMLS/Runtime/Runtime.h that
/// generated code calls.
RuntimeSignature getSignature(RuntimeFunction function) {
  using T = ABIType;
  using F = RuntimeFunction;
  switch (function) {
  case F::Check:
    return {"amls_rt_check", {T::I32, T::Ptr}, {}};
  case F::CheckShapes:
    return {"amls_rt_check_shapes",
            {T::I32, T::I64, T::I64, T::I64, T::I64, T::Ptr},
            {}};
  case F::FreshSeed:
    return {"amls_rt_fresh_seed", {}, T::I64};
  case F::Rand:
    return {"amls_rt_rand",
            {T::I64, T::I64, T::F64, T::F64, T::F64, T::I32},
            T::F64};
  case F::FileRows:
    return {
        "amls_rt_file_rows", {T::Ptr, T::I32, T::I64, T::I64, T::Ptr}, T::I64};
  case F::FileCols:
    return {
        "amls_rt_file_cols", {T::Ptr, T::I32, T::I64, T::I64, T::Ptr}, T::I64};
  case F::Read:
    return {"amls_rt_read", {T::MatrixF64, T::Ptr, T::I32, T::Ptr}, {}};
  case F::WriteText:
    return {"amls_rt_write_text", {T::Ptr, T::I32}, {}};
  case F::ReadScalar:
    return {"amls_rt_read_scalar", {T::Ptr, T::I32, T::Ptr}, T::F64};
  case F::StringTake:
    return {"amls_rt_string_take", {}, T::Ptr};
  case F::StringCompare:
    return {"amls_rt_string_compare", {T::Ptr, T::Ptr}, T::I32};
  case F::TimeNs:
    return {"amls_rt_time_ns", {}, T::I64};
  case F::Write:
    return {"amls_rt_write", {T::MatrixF64, T::Ptr, T::I32}, {}};
  case F::PrintMatrix:
    return {"amls_rt_print_matrix", {T::MatrixF64}, {}};
  case F::PrintF64:
    return {"amls_rt_print_f64", {T::F64}, {}};
  case F::PrintI64:
    return {"amls_rt_print_i64", {T::I64}, {}};
  case F::EmitText:
    return {"amls_rt_emit_text", {T::Ptr, T::I32}, {}};
  case F::EmitF64:
    return {"amls_rt_emit_f64", {T::F64, T::I32}, {}};
  case F::EmitI64:
    return {"amls_rt_emit_i64", {T::I64, T::I32}, {}};
  case F::EmitBool:
    return {"amls_rt_emit_bool", {T::I32, T::I32}, {}};
  case F::EmitFormattedF64:
    return {"amls_rt_emit_formatted_f64", {T::F64, T::Ptr, T::I32}, {}};
  case F::EmitMatrix:
    return {"amls_rt_emit_matrix", {T::MatrixF64, T::I32}, {}};
  case F::EmitEnd:
    return {"amls_rt_emit_end", {T::I32}, {}};
  case F::GemmF64:
    return {"amls_rt_gemm_f64", {T::MatrixF64, T::MatrixF64, T::MatrixF64}, {}};
  case F::GemmF32:
    return {"amls_rt_gemm_f32", {T::MatrixF32, T::MatrixF32, T::MatrixF32}, {}};
  case F::GpuGemmF64:
    return {
        "amls_rt_gpu_gemm_f64", {T::MatrixF64, T::MatrixF64, T::MatrixF64}, {}};
  case F::GpuGemmF32:
    return {
        "amls_rt_gpu_gemm_f32", {T::MatrixF32, T::MatrixF32, T::MatrixF32}, {}};
  case F::GpuPrefetch:
    return {"amls_rt_gpu_prefetch", {T::I64, T::I64, T::I32}, {}};
  case F::MMChain:
    return {"amls_rt_mmchain",
            {T::MatrixF64, T::MatrixF64, T::MatrixF64, T::MatrixF64, T::I32},
            {}};
  case F::CountNonEmpty:
    return {"amls_rt_count_nonempty",
            {T::MatrixF64, T::MatrixF64, T::I32, T::I32},
            T::I64};
  case F::RemoveEmpty:
    return {"amls_rt_remove_empty",
            {T::MatrixF64, T::MatrixF64, T::MatrixF64, T::I32, T::I32},
            {}};
  case F::MaxCategory:
    return {"amls_rt_max_category", {T::MatrixF64}, T::I64};
  case F::Table:
    return {"amls_rt_table",
            {T::MatrixF64, T::MatrixF64, T::MatrixF64, T::MatrixF64, T::I32},
            {}};
  case F::Order:
    return {"amls_rt_order",
            {T::MatrixF64, T::MatrixF64, T::I64, T::I32, T::I32},
            {}};
  case F::Solve:
    return {"amls_rt_solve",
            {T::MatrixF64, T::MatrixF64, T::MatrixF64, T::Ptr},
            {}};
  case F::Inverse:
    return {"amls_rt_inv", {T::MatrixF64, T::MatrixF64, T::Ptr}, {}};
  case F::Determinant:
    return {"amls_rt_det", {T::MatrixF64, T::Ptr}, T::F64};
  case F::Distribution:
    return {"amls_rt_distribution",
            {T::I32, T::I32, T::I32, T::F64, T::F64, T::F64, T::Ptr},
            T::F64};
  case F::Cholesky:
    return {"amls_rt_cholesky", {T::MatrixF64, T::MatrixF64, T::Ptr}, {}};
  case F::QR:
    return {
        "amls_rt_qr", {T::MatrixF64, T::MatrixF64, T::MatrixF64, T::Ptr}, {}};
  case F::LU:
    return {"amls_rt_lu",
            {T::MatrixF64, T::MatrixF64, T::MatrixF64, T::MatrixF64, T::Ptr},
            {}};
  case F::Eigen:
    return {"amls_rt_eigen",
            {T::MatrixF64, T::MatrixF64, T::MatrixF64, T::Ptr},
            {}};
  case F::SVD:
    return {"amls_rt_svd",
            {T::MatrixF64, T::MatrixF64, T::MatrixF64, T::MatrixF64, T::Ptr},
            {}};
  case F::Triangle:
    return {"amls_rt_triangle",
            {T::MatrixF64, T::MatrixF64, T::I32, T::I32, T::I32},
            {}};
  case F::Conv2D:
  case F::Conv2DBackwardFilter:
  case F::Conv2DBackwardData: {
    // Two matrices, the result, the 11 values of the geometry (N, C, H, W,
    // F, R, S, stride and padding), the op's position.
    RuntimeSignature signature{
        "amls_rt_conv2d", {T::MatrixF64, T::MatrixF64, T::MatrixF64}, {}};
    if (function == F::Conv2DBackwardFilter)
      signature.name = "amls_rt_conv2d_backward_filter";
    else if (function == F::Conv2DBackwardData)
      signature.name = "amls_rt_conv2d_backward_data";
    signature.inputs.append(11, T::I64);
    signature.inputs.push_back(T::Ptr);
    return signature;
  }
  case F::Pool:
  case F::PoolBackward: {
    // The input (and dout), the result, the kind, the 10 values of the
    // geometry (N, C, H, W, R, S, stride and padding), the op's position.
    RuntimeSignature signature{
        "amls_rt_pool", {T::MatrixF64, T::MatrixF64}, {}};
    if (function == F::PoolBackward) {
      signature.name = "amls_rt_pool_backward";
      signature.inputs.push_back(T::MatrixF64);
    }
    signature.inputs.push_back(T::I32);
    signature.inputs.append(10, T::I64);
    signature.inputs.push_back(T::Ptr);
    return signature;
  }
  case F::BlasSerial:
    return {"amls_rt_blas_serial", {T::I32}, {}};
  case F::NumThreads:
    return {"amls_rt_get_num_threads", {}, T::I32};
  case F::ParforBegin:
    return {"amls_rt_parfor_begin", {T::I64, T::I32, T::I64, T::I32}, T::Ptr};
  case F::ParforNext:
    return {"amls_rt_parfor_next", {T::Ptr}, T::I64};
  case F::ParforTaskFirst:
    return {"amls_rt_parfor_task_first", {T::Ptr, T::I64}, T::I64};
  case F::ParforTaskEnd:
    return {"amls_rt_parfor_task_end", {T::Ptr, T::I64}, T::I64};
  case F::ParforEnd:
    return {"amls_rt_parfor_end", {T::Ptr}, {}};
  case F::ParforWorker:
    return {"amls_rt_parfor_worker", {T::I64}, T::I64};
  case F::RegionOpen:
    return {"amls_rt_region_open", {}, T::Ptr};
  case F::RegionTrap:
    return {"amls_rt_region_trap", {T::Ptr}, T::Ptr};
  case F::RegionUntrap:
    return {"amls_rt_region_untrap", {}, {}};
  case F::RegionClose:
    return {"amls_rt_region_close", {T::Ptr}, {}};
  case F::CSRCountDense:
    return {"amls_rt_csr_count_dense", {T::MatrixF64, T::VectorI64}, T::I64};
  case F::CSRFromDense:
    return {"amls_rt_csr_from_dense",
            {T::MatrixF64, T::VectorI64, T::VectorI32, T::VectorF64},
            {}};
  case F::CSRToDense:
    return {"amls_rt_csr_to_dense", {T::CSR, T::MatrixF64}, {}};
  case F::CSRTranspose:
    return {"amls_rt_csr_transpose",
            {T::CSR, T::VectorI64, T::VectorI32, T::VectorF64},
            {}};
  case F::CSRSpMM:
    return {"amls_rt_csr_spmm", {T::CSR, T::MatrixF64, T::MatrixF64}, {}};
  case F::CSRSpMMTransposed:
    return {"amls_rt_csr_spmm_t", {T::CSR, T::MatrixF64, T::MatrixF64}, {}};
  case F::DenseCSRMatmul:
    return {"amls_rt_dense_csr_mm", {T::MatrixF64, T::CSR, T::MatrixF64}, {}};
  case F::GpuCSRSpMM:
    return {"amls_rt_gpu_csr_spmm", {T::CSR, T::MatrixF64, T::MatrixF64}, {}};
  case F::GpuCSRSpMMTransposed:
    return {"amls_rt_gpu_csr_spmm_t", {T::CSR, T::MatrixF64, T::MatrixF64}, {}};
  case F::GpuCSRCountDense:
    return {
        "amls_rt_gpu_csr_count_dense", {T::MatrixF64, T::VectorI64}, T::I64};
  case F::GpuCSRFromDense:
    return {"amls_rt_gpu_csr_from_dense",
            {T::MatrixF64, T::VectorI64, T::VectorI32, T::VectorF64},
            {}};
  case F::GpuCSRToDense:
    return {"amls_rt_gpu_csr_to_dense", {T::CSR, T::MatrixF64}, {}};
  case F::GpuDenseCSRMatmul:
    return {
        "amls_rt_gpu_dense_csr_mm", {T::MatrixF64, T::CSR, T::MatrixF64}, {}};
  case F::CSRSpGEMMCount:
    return {"amls_rt_csr_spgemm_count", {T::CSR, T::CSR, T::VectorI64}, T::I64};
  case F::CSRSpGEMMFill:
    return {"amls_rt_csr_spgemm_fill",
            {T::CSR, T::CSR, T::VectorI64, T::VectorI32, T::VectorF64},
            {}};
  case F::CSRTsmm:
    return {"amls_rt_csr_tsmm", {T::CSR, T::MatrixF64}, {}};
  case F::CSRMMChain:
    return {"amls_rt_csr_mmchain",
            {T::CSR, T::MatrixF64, T::MatrixF64, T::MatrixF64, T::I32},
            {}};
  case F::CSRRowAgg:
    return {"amls_rt_csr_row_agg", {T::CSR, T::I32, T::MatrixF64}, {}};
  case F::CSRColAgg:
    return {"amls_rt_csr_col_agg", {T::CSR, T::I32, T::MatrixF64}, {}};
  case F::CSRRowMaxTimes:
    return {
        "amls_rt_csr_row_max_times", {T::CSR, T::MatrixF64, T::MatrixF64}, {}};
  case F::CSRSliceCount:
    return {"amls_rt_csr_slice_count",
            {T::CSR, T::I64, T::I64, T::I64, T::I64, T::VectorI64},
            T::I64};
  case F::CSRSliceFill:
    return {"amls_rt_csr_slice_fill",
            {T::CSR, T::I64, T::I64, T::I64, T::I64, T::VectorI64, T::VectorI32,
             T::VectorF64},
            {}};
  case F::CSRCBind:
    return {"amls_rt_csr_cbind",
            {T::CSR, T::CSR, T::VectorI64, T::VectorI32, T::VectorF64},
            {}};
  case F::CSRRBind:
    return {"amls_rt_csr_rbind",
            {T::CSR, T::CSR, T::VectorI64, T::VectorI32, T::VectorF64},
            {}};
  case F::CSRRead:
    return {
        "amls_rt_csr_read", {T::Ptr, T::I32, T::I64, T::I64, T::Ptr}, T::Ptr};
  case F::CSRHandleRows:
    return {"amls_rt_csr_handle_rows", {T::Ptr}, T::I64};
  case F::CSRHandleCols:
    return {"amls_rt_csr_handle_cols", {T::Ptr}, T::I64};
  case F::CSRTakeRowPointers:
    return {"amls_rt_csr_take_rowptr", {T::Ptr, T::Ptr}, T::BufferI64};
  case F::CSRTakeColumnIndices:
    return {"amls_rt_csr_take_colidx", {T::Ptr, T::Ptr}, T::BufferI32};
  case F::CSRTakeValues:
    return {"amls_rt_csr_take_values", {T::Ptr, T::Ptr}, T::BufferF64};
  case F::CSRFreeHandle:
    return {"amls_rt_csr_free_handle", {T::Ptr}, {}};
  case F::CSRWrite:
    return {"amls_rt_csr_write", {T::CSR, T::Ptr, T::I32}, {}};
  case F::ValuesReduce:
    return {"amls_rt_values_reduce", {T::VectorF64, T::I32}, T::F64};
  case F::CSRMergeCount:
    return {"amls_rt_csr_merge_count",
            {T::CSR, T::CSR, T::I32, T::VectorI64},
            T::I64};
  case F::CSRMergeFill:
    return {"amls_rt_csr_merge_fill",
            {T::CSR, T::CSR, T::I32, T::VectorI64, T::VectorI32, T::VectorF64},
            {}};
  case F::CheckDenseSize:
    return {"amls_rt_check_dense_size", {T::I64, T::I64, T::Ptr}, {}};
  case F::CheckBufferSize:
    return {"amls_rt_check_buffer_size",
            {T::I64, T::I64, T::I64, T::I64, T::Ptr},
            {}};
  case F::CSRTableCount:
    return {"amls_rt_csr_table_count",
            {T::MatrixF64, T::MatrixF64, T::MatrixF64, T::I32, T::I64, T::I64,
             T::VectorI64},
            T::I64};
  case F::CSRTableFill:
    return {"amls_rt_csr_table_fill",
            {T::MatrixF64, T::MatrixF64, T::MatrixF64, T::I32, T::I64, T::I64,
             T::VectorI64, T::VectorI32, T::VectorF64},
            {}};
  case F::CSRTrace:
    return {"amls_rt_csr_trace", {T::CSR}, T::F64};
  case F::CSRDiag:
    return {"amls_rt_csr_diag", {T::CSR, T::MatrixF64}, {}};
  case F::CSRFromDiagonalCount:
    return {"amls_rt_csr_from_diagonal_count",
            {T::MatrixF64, T::VectorI64},
            T::I64};
  case F::CSRFromDiagonalFill:
    return {"amls_rt_csr_from_diagonal_fill",
            {T::MatrixF64, T::VectorI64, T::VectorI32, T::VectorF64},
            {}};
  case F::CSRReplaceToDense:
    return {"amls_rt_csr_replace_to_dense",
            {T::CSR, T::F64, T::F64, T::MatrixF64},
            {}};
  case F::CSRRev:
    return {"amls_rt_csr_rev",
            {T::CSR, T::VectorI64, T::VectorI32, T::VectorF64},
            {}};
  case F::CSRCountNonEmpty:
    return {"amls_rt_csr_count_nonempty",
            {T::CSR, T::MatrixF64, T::I32, T::I32},
            T::I64};
  case F::CSRRemoveEmptyCount:
    return {"amls_rt_csr_remove_empty_count",
            {T::CSR, T::MatrixF64, T::I32, T::I32, T::VectorI64},
            T::I64};
  case F::CSRRemoveEmptyFill:
    return {"amls_rt_csr_remove_empty_fill",
            {T::CSR, T::MatrixF64, T::I32, T::I32, T::VectorI64, T::VectorI32,
             T::VectorF64},
            {}};
  case F::CSRCumAgg:
    return {"amls_rt_csr_cumagg", {T::CSR, T::I32, T::MatrixF64}, {}};
  case F::CSRPrintMatrix:
    return {"amls_rt_csr_print_matrix", {T::CSR}, {}};
  case F::CSREmitMatrix:
    return {"amls_rt_csr_emit_matrix", {T::CSR, T::I32}, {}};
  }
  llvm_unreachable("unknown runtime function");
}

void appendMLIRTypes(MLIRContext *context, ABIType type,
                     SmallVectorImpl<Type> &types);

Type toMLIRType(MLIRContext *context, ABIType type) {
  switch (type) {
  case ABIType::I32:
    return IntegerType::get(context, 32);
  case ABIType::I64:
    return IntegerType::get(context, 64);
  case ABIType::F64:
    return Float64Type::get(context);
  case ABIType::Ptr:
    return LLVM::LLVMPointerType::get(context);
  case ABIType::MatrixF64:
    return getRuntimeMatrixType(Float64Type::get(context));
  case ABIType::MatrixF32:
    return getRuntimeMatrixType(Float32Type::get(context));
  case ABIType::VectorI64:
    return getRuntimeVectorType(IntegerType::get(context, 64));
  case ABIType::VectorI32:
    return getRuntimeVectorType(IntegerType::get(context, 32));
  case ABIType::VectorF64:
    return getRuntimeVectorType(Float64Type::get(context));
  case ABIType::BufferI64:
    return MemRefType::get({ShapedType::kDynamic},
                           IntegerType::get(context, 64));
  case ABIType::BufferI32:
    return MemRefType::get({ShapedType::kDynamic},
                           IntegerType::get(context, 32));
  case ABIType::BufferF64:
    return MemRefType::get({ShapedType::kDynamic}, Float64Type::get(context));
  case ABIType::CSR:
    break;
  }
  llvm_unreachable("unknown or composite ABI type");
}

void appendMLIRTypes(MLIRContext *context, ABIType type,
                     SmallVectorImpl<Type> &types) {
  if (type != ABIType::CSR) {
    types.push_back(toMLIRType(context, type));
    return;
  }
  for (ABIType part : {ABIType::VectorI64, ABIType::VectorI32,
                       ABIType::VectorF64, ABIType::I64})
    types.push_back(toMLIRType(context, part));
}

} // namespace

StringRef mlir::amls::getRuntimeFunctionName(RuntimeFunction function) {
  return getSignature(function).name;
}

FunctionType mlir::amls::getRuntimeFunctionType(MLIRContext *context,
                                                RuntimeFunction function) {
  RuntimeSignature signature = getSignature(function);
  SmallVector<Type> inputs;
  for (ABIType type : signature.inputs)
    appendMLIRTypes(context, type, inputs);
  SmallVector<Type, 1> results;
  if (signature.result)
    results.push_back(toMLIRType(context, *signature.result));
  return FunctionType::get(context, inputs, results);
}

MemRefType mlir::amls::getRuntimeMatrixType(Type elementType) {
  int64_t dyn = ShapedType::kDynamic;
  return MemRefType::get({dyn, dyn}, elementType,
                         StridedLayoutAttr::get(elementType.getContext(),
                                                /*offset=*/dyn,
                                                /*strides=*/{dyn, dyn}));
}

MemRefType mlir::amls::getRuntimeVectorType(Type elementType) {
  int64_t dyn = ShapedType::kDynamic;
  return MemRefType::get({dyn}, elementType,
                         StridedLayoutAttr::get(elementType.getContext(),
                                                /*offset=*/dyn,
                                                /*strides=*/{dyn}));
}

func::FuncOp
mlir::amls::lookupOrCreateRuntimeFunction(OpBuilder &builder, Operation *from,
                                          RuntimeFunction function) {
  auto module = from->getParentOfType<ModuleOp>();
  StringRef name = getRuntimeFunctionName(function);
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  FunctionType type = getRuntimeFunctionType(builder.getContext(), function);
  auto declaration = func::FuncOp::create(builder, from->getLoc(), name, type);
  declaration.setPrivate();
  // Matrices are passed as descriptors: use the `_mlir_ciface_` ABI.
  if (llvm::any_of(type.getInputs(), llvm::IsaPred<MemRefType>) ||
      llvm::any_of(type.getResults(), llvm::IsaPred<MemRefType>))
    declaration->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                         builder.getUnitAttr());
  return declaration;
}

Value mlir::amls::createRuntimeCall(OpBuilder &builder, Location loc,
                                    Operation *from, RuntimeFunction function,
                                    ValueRange args) {
  func::FuncOp declaration =
      lookupOrCreateRuntimeFunction(builder, from, function);
  // A mismatch is a compiler bug (a pattern out of step with the table),
  // never a property of the user's program; checked in every build so that
  // the tests catch it, since the release builds have no assertions.
  if (TypeRange(args.getTypes()) != declaration.getFunctionType().getInputs())
    llvm::report_fatal_error(llvm::Twine("amls: call of runtime function '") +
                             getRuntimeFunctionName(function) +
                             "' with arguments that differ from its signature");
  auto call = func::CallOp::create(builder, loc, declaration, args);
  return call.getNumResults() ? call.getResult(0) : Value();
}

std::optional<RuntimeFunction>
mlir::amls::getCalledRuntimeFunction(func::CallOp call) {
  static const llvm::StringMap<RuntimeFunction> byName = [] {
    llvm::StringMap<RuntimeFunction> names;
    for (unsigned f = 0; f <= unsigned(RuntimeFunction::LastFunction); ++f)
      names[getRuntimeFunctionName(RuntimeFunction(f))] = RuntimeFunction(f);
    return names;
  }();
  auto it = byName.find(call.getCallee());
  if (it == byName.end())
    return std::nullopt;
  return it->second;
}

bool mlir::amls::runtimeFunctionMayFail(RuntimeFunction function) {
  using F = RuntimeFunction;
  switch (function) {
  // Values, clocks, printing and messages being built (amls_rt_emit_end,
  // which prints a message or stops, may fail).
  case F::FreshSeed:
  case F::Rand:
  case F::TimeNs:
  case F::PrintF64:
  case F::PrintI64:
  case F::EmitText:
  case F::EmitF64:
  case F::EmitI64:
  case F::EmitBool:
  case F::EmitFormattedF64:
  case F::StringCompare:
  case F::BlasSerial:
  case F::NumThreads:
  case F::ParforNext:
  case F::ParforTaskFirst:
  case F::ParforTaskEnd:
  case F::ParforWorker:
  case F::RegionTrap:
  case F::RegionUntrap:
  case F::GpuPrefetch:
    return false;
  default:
    return true;
  }
}

std::optional<RuntimeFunction>
mlir::amls::getCusparseVersion(RuntimeFunction function) {
  using F = RuntimeFunction;
  switch (function) {
  case F::CSRSpMM:
    return F::GpuCSRSpMM;
  case F::CSRSpMMTransposed:
    return F::GpuCSRSpMMTransposed;
  case F::DenseCSRMatmul:
    return F::GpuDenseCSRMatmul;
  case F::CSRToDense:
    return F::GpuCSRToDense;
  case F::CSRCountDense:
    return F::GpuCSRCountDense;
  case F::CSRFromDense:
    return F::GpuCSRFromDense;
  default:
    return std::nullopt;
  }
}

bool mlir::amls::runtimeFunctionRunsOnDevice(RuntimeFunction function) {
  using F = RuntimeFunction;
  switch (function) {
  case F::GpuGemmF64:
  case F::GpuGemmF32:
  case F::GpuCSRSpMM:
  case F::GpuCSRSpMMTransposed:
  case F::GpuDenseCSRMatmul:
  case F::GpuCSRToDense:
  case F::GpuCSRCountDense:
  case F::GpuCSRFromDense:
    return true;
  default:
    return false;
  }
}

std::optional<unsigned>
mlir::amls::getHostReadOperand(RuntimeFunction function) {
  using F = RuntimeFunction;
  switch (function) {
  case F::GpuCSRSpMM:
  case F::GpuCSRSpMMTransposed:
  case F::GpuCSRToDense:
    return 0;
  case F::GpuDenseCSRMatmul:
  case F::GpuCSRCountDense:
  case F::GpuCSRFromDense:
    return 1;
  default:
    return std::nullopt;
  }
}

bool mlir::amls::runtimeCallOnlyReads(func::CallOp call, unsigned operand) {
  std::optional<RuntimeFunction> function = getCalledRuntimeFunction(call);
  if (!function)
    return false;
  unsigned position = 0;
  for (ABIType type : getSignature(*function).inputs) {
    // A CSR argument is four operands: its three arrays and its columns.
    unsigned width = type == ABIType::CSR ? 4 : 1;
    if (operand < position + width)
      return type == ABIType::CSR || type == ABIType::I32 ||
             type == ABIType::I64 || type == ABIType::F64;
    position += width;
  }
  return false;
}

bool mlir::amls::runtimeCallReturnsNewBuffer(func::CallOp call) {
  std::optional<RuntimeFunction> function = getCalledRuntimeFunction(call);
  if (!function)
    return false;
  std::optional<ABIType> result = getSignature(*function).result;
  return result == ABIType::BufferI64 || result == ABIType::BufferI32 ||
         result == ABIType::BufferF64;
}

Value mlir::amls::createStringPointer(OpBuilder &builder, Location loc,
                                      Operation *from, StringRef text) {
  auto module = from->getParentOfType<ModuleOp>();
  std::string name =
      llvm::formatv("amls_str_{0:x}",
                    static_cast<uint64_t>(llvm::hash_value(text)))
          .str();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size() + 1);
    global = LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    builder.getStringAttr(text.str() + '\0'));
  }
  return LLVM::AddressOfOp::create(builder, loc, global);
}

std::string mlir::amls::describeOp(Operation *op) {
  std::string text = "'" + op->getName().getStringRef().str() + "'";
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = op->getLoc()->findInstanceOf<FileLineColLoc>())
    os << " at " << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine()
       << ":" << fileLoc.getColumn();
  return text;
}

std::string mlir::amls::describeBuffer(Location loc, StringRef what) {
  // Names in the location: the op's ("'amls.matmul' (...)") and the role of
  // the buffer in its result ("the values"), when the lowering gave one.
  StringRef opName, role = what;
  loc->walk([&](Location inner) {
    if (auto named = dyn_cast<NameLoc>(inner)) {
      StringRef name = named.getName().getValue();
      if (name.starts_with("'amls.") && opName.empty())
        opName = name;
      else if (name.starts_with("the ") && role == what)
        role = name;
    }
    return WalkResult::advance();
  });
  std::string text = role.str();
  llvm::raw_string_ostream os(text);
  if (!opName.empty())
    os << " of " << opName;
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    os << " at " << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine()
       << ":" << fileLoc.getColumn();
  return text;
}
