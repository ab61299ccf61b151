//===- LoweringUtils.cpp - Shared by the AMLS-to-linalg patterns ----------===//

#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::amls;

namespace mlir::amls::lowering {

Value i32Constant(OpBuilder &b, Location loc, int32_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value floatConstant(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, type, b.getFloatAttr(type, value));
}

/// Size `dim` of a 2-D tensor: a constant when static.
Value dimOf(OpBuilder &b, Location loc, Value tensor, int64_t dim) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (!type.isDynamicDim(dim))
    return indexConstant(b, loc, type.getDimSize(dim));
  return tensor::DimOp::create(b, loc, tensor, dim);
}

/// An uninitialized tensor of `type` whose dynamic sizes are `rows`/`cols`.
Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<Value> sizes) {
  SmallVector<Value> dynamic;
  for (auto [i, size] : llvm::enumerate(sizes))
    if (type.isDynamicDim(i))
      dynamic.push_back(size);
  return tensor::EmptyOp::create(b, loc, type, dynamic);
}

Value castTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

/// "file:line:col" of an op, for run-time messages.
std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << op->getName() << "'";
  if (auto fileLoc = op->getLoc()->findInstanceOf<FileLineColLoc>())
    os << " at " << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine()
       << ":" << fileLoc.getColumn();
  return text;
}

/// A run-time check: when `condition` is false the runtime reports
/// `message` (with the op's location) and exits with status 1.
void check(OpBuilder &b, Location loc, Value condition, Operation *op,
           const Twine &message) {
  Value text =
      createStringPointer(b, loc, op, (describe(op) + ": " + message).str());
  Value flag = arith::ExtUIOp::create(b, loc, b.getI32Type(), condition);
  callRuntime(b, loc, op, RuntimeFunction::Check, {flag, text});
}

void checkEqual(OpBuilder &b, Location loc, Value lhs, Value rhs, Operation *op,
                const Twine &message) {
  if (getConstantIntValue(lhs) && getConstantIntValue(rhs))
    return; // Static sizes were verified already.
  Value equal =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, rhs);
  check(b, loc, equal, op, message);
}

std::pair<Value, Value> broadcastShapes(OpBuilder &b, Location loc,
                                        Operation *op, Value rows0, Value cols0,
                                        Value rows1, Value cols1) {
  Value one = indexConstant(b, loc, 1);
  auto eq = [&](Value lhs, Value rhs) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, rhs);
  };
  auto fits = [&](Value lhs, Value rhs) -> Value {
    return arith::OrIOp::create(
        b, loc, eq(lhs, rhs),
        arith::OrIOp::create(b, loc, eq(lhs, one), eq(rhs, one)));
  };
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  };
  Value ok =
      arith::AndIOp::create(b, loc, fits(rows0, rows1), fits(cols0, cols1));
  // Static sizes were verified already.
  if (!llvm::all_of(ValueRange{rows0, cols0, rows1, cols1}, [](Value size) {
        return getConstantIntValue(size).has_value();
      }))
    callRuntime(b, loc, op, RuntimeFunction::CheckShapes,
                {arith::ExtUIOp::create(b, loc, b.getI32Type(), ok),
                 toI64(rows0), toI64(cols0), toI64(rows1), toI64(cols1),
                 createStringPointer(
                     b, loc, op,
                     describe(op) + ": the operands' sizes differ and neither "
                                    "is a vector to broadcast")});
  auto size = [&](Value lhs, Value rhs) -> Value {
    // A known size other than 1 is the result's (or the check fails).
    std::optional<int64_t> known = getConstantIntValue(lhs);
    if (known && *known != 1)
      return lhs;
    std::optional<int64_t> other = getConstantIntValue(rhs);
    if (known || (other && *other != 1))
      return rhs;
    if (other)
      return lhs;
    return arith::SelectOp::create(b, loc, eq(lhs, one), rhs, lhs);
  };
  return {size(rows0, rows1), size(cols0, cols1)};
}

/// A copy of `operand` expanded to `sizes` along the dimensions in
/// `expand`, where its size is 1 at run time (DML broadcasting a vector whose
/// size was unknown at compile time); `operand` itself otherwise.
Value expandIfVector(OpBuilder &b, Location loc, Value operand,
                     ArrayRef<Value> sizes, ArrayRef<bool> expand) {
  auto type = cast<RankedTensorType>(operand.getType());
  Value one = indexConstant(b, loc, 1);
  Value needed;
  SmallVector<Value> dims, isVector, expandedSizes;
  for (int64_t d = 0; d < 2; ++d) {
    Value dim = dimOf(b, loc, operand, d);
    dims.push_back(dim);
    isVector.push_back(
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, dim, one));
    expandedSizes.push_back(expand[d] ? sizes[d] : dim);
    if (!expand[d])
      continue;
    Value grows = arith::AndIOp::create(
        b, loc, isVector[d],
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, sizes[d], one));
    needed = needed ? arith::OrIOp::create(b, loc, needed, grows) : grows;
  }
  auto ifOp = scf::IfOp::create(
      b, loc, needed,
      [&](OpBuilder &then, Location thenLoc) {
        Value init = emptyTensor(then, thenLoc, type, expandedSizes);
        Value zero = indexConstant(then, thenLoc, 0);
        auto generic = linalg::GenericOp::create(
            then, thenLoc, type, ValueRange(), init,
            AffineMap::getMultiDimIdentityMap(2, then.getContext()),
            iterators({false, false}),
            [&](OpBuilder &body, Location bodyLoc, ValueRange) {
              SmallVector<Value> indices;
              for (int64_t d = 0; d < 2; ++d) {
                Value index = linalg::IndexOp::create(body, bodyLoc, d);
                if (expand[d])
                  index = arith::SelectOp::create(body, bodyLoc, isVector[d],
                                                  zero, index);
                indices.push_back(index);
              }
              Value cell =
                  tensor::ExtractOp::create(body, bodyLoc, operand, indices);
              linalg::YieldOp::create(body, bodyLoc, cell);
            });
        scf::YieldOp::create(then, thenLoc, generic.getResult(0));
      },
      [&](OpBuilder &otherwise, Location otherwiseLoc) {
        scf::YieldOp::create(otherwise, otherwiseLoc, operand);
      });
  return ifOp.getResult(0);
}

SmallVector<utils::IteratorType> iterators(ArrayRef<bool> reduced) {
  SmallVector<utils::IteratorType> result;
  for (bool r : reduced)
    result.push_back(r ? utils::IteratorType::reduction
                       : utils::IteratorType::parallel);
  return result;
}

/// A read-only view of a tensor as a runtime matrix (an f64 copy of an f32
/// or i64 matrix).
Value asRuntimeMatrix(OpBuilder &b, Location loc, Value tensor) {
  int64_t dyn = ShapedType::kDynamic;
  tensor = convertElementType(b, loc, tensor, b.getF64Type());
  auto dynamicType = RankedTensorType::get({dyn, dyn}, b.getF64Type());
  return bufferization::ToBufferOp::create(
      b, loc, getRuntimeMatrixType(b.getF64Type()),
      castTo(b, loc, tensor, dynamicType), /*read_only=*/true);
}

Value tableExtent(OpBuilder &b, Location loc, Operation *op, Value given,
                  Value categories) {
  if (given)
    return given;
  Value max =
      callRuntime(b, loc, op, RuntimeFunction::MaxCategory, {categories});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), max);
}

void checkRemoveEmptySelect(OpBuilder &b, Location loc, Operation *op,
                            bool byRows, Value rows, Value cols, Value select) {
  Value one = indexConstant(b, loc, 1);
  const char *message = byRows ? "removeEmpty: select must be a column vector "
                                 "with one cell per row of the matrix"
                               : "removeEmpty: select must be a row vector "
                                 "with one cell per column of the matrix";
  checkEqual(b, loc, dimOf(b, loc, select, 0), byRows ? rows : one, op,
             message);
  checkEqual(b, loc, dimOf(b, loc, select, 1), byRows ? one : cols, op,
             message);
}

Value keptExtent(OpBuilder &b, Location loc, RemoveEmptyOp op, Value count) {
  Value kept = arith::IndexCastOp::create(b, loc, b.getIndexType(), count);
  if (!op.getEmptyReturn())
    return kept;
  return arith::MaxUIOp::create(b, loc, kept, indexConstant(b, loc, 1));
}

/// Allocates a rows x cols f64 buffer, lets `fill` write it through the
/// runtime, and returns it as a tensor of `type` (converting the elements to
/// its element type).
Value tensorFromRuntime(OpBuilder &b, Location loc, RankedTensorType type,
                        Value rows, Value cols,
                        function_ref<void(Value matrix)> fill) {
  int64_t dyn = ShapedType::kDynamic;
  auto bufferType = MemRefType::get({dyn, dyn}, b.getF64Type());
  Value buffer =
      memref::AllocOp::create(b, loc, bufferType, ValueRange{rows, cols});
  Value view = memref::CastOp::create(
      b, loc, getRuntimeMatrixType(b.getF64Type()), buffer);
  fill(view);
  Value tensor = bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get({dyn, dyn}, b.getF64Type()), buffer,
      /*restrict=*/b.getUnitAttr(), /*writable=*/b.getUnitAttr());
  tensor = convertElementType(b, loc, tensor, type.getElementType());
  return castTo(b, loc, tensor, type);
}

} // namespace mlir::amls::lowering
