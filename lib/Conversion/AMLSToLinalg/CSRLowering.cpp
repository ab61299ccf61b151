//===- CSRLowering.cpp - Shared by the CSR lowering patterns --------------===//

#include "CSRLowering.h"

#include "AMLS/Support/StorageLayout.h"

using namespace mlir;
using namespace mlir::amls;
using namespace mlir::amls::lowering;

namespace {
constexpr int64_t kDynamic = ShapedType::kDynamic;
} // namespace

void mlir::amls::lowering::getCSRTypes(MatrixType type,
                                       SmallVectorImpl<Type> &types) {
  assert(isCSRMatrix(type) && "expected a CSR matrix type");
  getStorageTypes(type, types);
}

CSRMatrix CSRMatrix::fromRange(ValueRange range) {
  using ::amls::layout::getFieldIndex;
  using ::amls::layout::StorageField;
  assert(range.size() == ::amls::layout::getLayout(AMLS_MATRIX_CSR).size &&
         "a CSR matrix converts to its layout's fields");
  return {range[getFieldIndex(StorageField::CSR_RowOffsets)],
          range[getFieldIndex(StorageField::CSR_ColumnIndices)],
          range[getFieldIndex(StorageField::CSR_Values)],
          range[getFieldIndex(StorageField::CSR_Columns)]};
}

SmallVector<Value> CSRMatrix::asRange() const {
  using ::amls::layout::getFieldIndex;
  using ::amls::layout::StorageField;
  SmallVector<Value> range(::amls::layout::getLayout(AMLS_MATRIX_CSR).size);
  range[getFieldIndex(StorageField::CSR_RowOffsets)] = rowptr;
  range[getFieldIndex(StorageField::CSR_ColumnIndices)] = colidx;
  range[getFieldIndex(StorageField::CSR_Values)] = values;
  range[getFieldIndex(StorageField::CSR_Columns)] = cols;
  return range;
}

Value CSRMatrix::rows(OpBuilder &b, Location loc) const {
  auto type = cast<RankedTensorType>(rowptr.getType());
  if (!type.isDynamicDim(0))
    return indexConstant(b, loc, type.getDimSize(0) - 1);
  Value pointers = tensor::DimOp::create(b, loc, rowptr, 0);
  return arith::SubIOp::create(b, loc, pointers, indexConstant(b, loc, 1));
}

Value CSRMatrix::nnz(OpBuilder &b, Location loc) const {
  return tensor::DimOp::create(b, loc, values, 0);
}

Value mlir::amls::lowering::runtimeVectorOf(OpBuilder &b, Location loc,
                                            Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto dynamicType = RankedTensorType::get({kDynamic}, type.getElementType());
  return bufferization::ToBufferOp::create(
      b, loc, getRuntimeVectorType(type.getElementType()),
      castTo(b, loc, tensor, dynamicType), /*read_only=*/true);
}

void CSRMatrix::appendRuntimeArgs(OpBuilder &b, Location loc,
                                  SmallVectorImpl<Value> &args) const {
  args.push_back(runtimeVectorOf(b, loc, rowptr));
  args.push_back(runtimeVectorOf(b, loc, colidx));
  args.push_back(runtimeVectorOf(b, loc, values));
  args.push_back(
      arith::IndexCastOp::create(b, loc, b.getI64Type(), cols).getResult());
}

Value mlir::amls::lowering::allocVector(OpBuilder &b, Location loc,
                                        Type elementType, Value size,
                                        StringRef role) {
  // The role goes into the location, where describeBuffer finds it.
  Location allocLoc =
      role.empty() ? loc : NameLoc::get(b.getStringAttr(role), loc);
  return memref::AllocOp::create(
      b, allocLoc, MemRefType::get({kDynamic}, elementType), ValueRange{size});
}

Value mlir::amls::lowering::runtimeVector(OpBuilder &b, Location loc,
                                          Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  return memref::CastOp::create(
      b, loc, getRuntimeVectorType(type.getElementType()), buffer);
}

Value mlir::amls::lowering::vectorTensor(OpBuilder &b, Location loc,
                                         Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  return bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(type.getShape(), type.getElementType()),
      buffer, /*restrict=*/b.getUnitAttr(), /*writable=*/b.getUnitAttr());
}

CSRMatrix mlir::amls::lowering::csrFromBuffers(OpBuilder &b, Location loc,
                                               MatrixType type, Value rowptr,
                                               Value colidx, Value values,
                                               Value cols) {
  SmallVector<Type> types;
  getCSRTypes(type, types);
  CSRMatrix csr;
  csr.rowptr = castTo(b, loc, vectorTensor(b, loc, rowptr), types[0]);
  csr.colidx = castTo(b, loc, vectorTensor(b, loc, colidx), types[1]);
  csr.values = castTo(b, loc, vectorTensor(b, loc, values), types[2]);
  csr.cols = isKnownSize(type.getCols()) ? indexConstant(b, loc, type.getCols())
                                         : cols;
  return csr;
}

/// `args` followed by the runtime views of `buffers`.
static SmallVector<Value> withViews(OpBuilder &b, Location loc,
                                    ArrayRef<Value> args,
                                    ArrayRef<Value> buffers) {
  SmallVector<Value> all(args);
  for (Value buffer : buffers)
    all.push_back(runtimeVector(b, loc, buffer));
  return all;
}

CSRMatrix mlir::amls::lowering::csrFromKernel(OpBuilder &b, Location loc,
                                              Operation *op, MatrixType type,
                                              Value rows, Value nnz, Value cols,
                                              ArrayRef<Value> args,
                                              RuntimeFunction fill) {
  Value pointers =
      arith::AddIOp::create(b, loc, rows, indexConstant(b, loc, 1));
  Value rowptr =
      allocVector(b, loc, b.getI64Type(), pointers, "the row pointers");
  Value colidx = allocVector(b, loc, b.getI32Type(), nnz, "the column indices");
  Value values = allocVector(b, loc, b.getF64Type(), nnz, "the values");
  callRuntime(b, loc, op, fill,
              withViews(b, loc, args, {rowptr, colidx, values}));
  return csrFromBuffers(b, loc, type, rowptr, colidx, values, cols);
}

CSRMatrix mlir::amls::lowering::csrFromKernels(OpBuilder &b, Location loc,
                                               Operation *op, MatrixType type,
                                               Value rows, Value cols,
                                               ArrayRef<Value> args,
                                               RuntimeFunction count,
                                               RuntimeFunction fill) {
  Value pointers =
      arith::AddIOp::create(b, loc, rows, indexConstant(b, loc, 1));
  Value rowptr =
      allocVector(b, loc, b.getI64Type(), pointers, "the row pointers");
  Value nnz64 =
      callRuntime(b, loc, op, count, withViews(b, loc, args, {rowptr}));
  Value nnz = arith::IndexCastOp::create(b, loc, b.getIndexType(), nnz64);
  Value colidx = allocVector(b, loc, b.getI32Type(), nnz, "the column indices");
  Value values = allocVector(b, loc, b.getF64Type(), nnz, "the values");
  callRuntime(b, loc, op, fill,
              withViews(b, loc, args, {rowptr, colidx, values}));
  return csrFromBuffers(b, loc, type, rowptr, colidx, values, cols);
}

Value mlir::amls::lowering::denseFromKernel(
    OpBuilder &b, Location loc, Operation *op, RankedTensorType type,
    const CSRMatrix &x, ArrayRef<Value> args, RuntimeFunction kernel,
    const Twine &what) {
  Value rows = x.rows(b, loc);
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  };
  callRuntime(
      b, loc, op, RuntimeFunction::CheckDenseSize,
      {toI64(rows), toI64(x.cols),
       createStringPointer(b, loc, op, (describe(op) + ": " + what).str())});
  return tensorFromRuntime(b, loc, type, rows, x.cols, [&](Value out) {
    SmallVector<Value> kernelArgs;
    x.appendRuntimeArgs(b, loc, kernelArgs);
    llvm::append_range(kernelArgs, args);
    kernelArgs.push_back(out);
    callRuntime(b, loc, op, kernel, kernelArgs);
  });
}

Value mlir::amls::lowering::threadRowRanges(OpBuilder &b, Location loc,
                                            Operation *op, Value rows) {
  Value threads = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      callRuntime(b, loc, op, RuntimeFunction::NumThreads, {}));
  return arith::MaxUIOp::create(b, loc, indexConstant(b, loc, 1),
                                arith::MinUIOp::create(b, loc, threads, rows));
}

void mlir::amls::lowering::forEachRowRange(
    OpBuilder &b, Location loc, Value rows, Value ranges,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body) {
  Value one = indexConstant(b, loc, 1);
  scf::ParallelOp::create(
      b, loc, ValueRange{indexConstant(b, loc, 0)}, ValueRange{ranges},
      ValueRange{one}, [&](OpBuilder &pb, Location l, ValueRange ivs) {
        Value range = ivs[0];
        auto rowOf = [&](Value r) -> Value {
          return arith::DivUIOp::create(
              pb, l, arith::MulIOp::create(pb, l, r, rows), ranges);
        };
        Value lo = rowOf(range);
        Value hi = rowOf(arith::AddIOp::create(pb, l, range, one));
        body(pb, l, range, lo, hi);
      });
}

bool mlir::amls::lowering::isRowMaxTimesReadThrough(Operation *op) {
  auto mul = dyn_cast<MulOp>(op);
  if (!mul || !mul->hasOneUse() || !isCSRMatrix(mul.getLhs().getType()))
    return false;
  auto vector = dyn_cast<MatrixType>(mul.getRhs().getType());
  auto agg = dyn_cast<AggOp>(*mul->getUsers().begin());
  return vector && !isCSRMatrix(vector) && vector.getRows() == 1 && agg &&
         agg.getKind() == AggKind::Max && agg.getAxis() == AggAxis::Row;
}

CSRMatrix mlir::amls::lowering::withValues(const CSRMatrix &pattern,
                                           Value values) {
  return {pattern.rowptr, pattern.colidx, values, pattern.cols};
}
