//===- AMLSToLinalg.cpp - Lower dense AMLS matrices to linalg -------------===//
//
// `!amls.matrix<RxCxT>` becomes `tensor<RxCxT>`. Each op becomes linalg on
// tensors, or a call into libamls_runtime where it needs files, printing,
// random numbers, or produces a data-dependent size.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Conversion/ElementConversion.h"
#include "AMLS/Conversion/Passes.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

namespace mlir::amls {
#define GEN_PASS_DEF_CONVERTAMLSTOLINALG
#include "AMLS/Conversion/Passes.h.inc"
} // namespace mlir::amls

using namespace mlir;
using namespace mlir::amls;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

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

Value stringPointer(OpBuilder &b, Location loc, Operation *from,
                    StringRef text);
Value callRuntime(OpBuilder &b, Location loc, Operation *from, StringRef name,
                  ValueRange args, TypeRange results = {});

/// A run-time check: when `condition` is false the runtime reports
/// `message` (with the op's location) and exits with status 1.
void check(OpBuilder &b, Location loc, Value condition, Operation *op,
           const Twine &message) {
  Value text = stringPointer(b, loc, op, (describe(op) + ": " + message).str());
  Value flag = arith::ExtUIOp::create(b, loc, b.getI32Type(), condition);
  callRuntime(b, loc, op, "amls_rt_check", {flag, text});
}

void checkEqual(OpBuilder &b, Location loc, Value lhs, Value rhs, Operation *op,
                const Twine &message) {
  if (getConstantIntValue(lhs) && getConstantIntValue(rhs))
    return; // Static sizes were verified already.
  Value equal =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, rhs);
  check(b, loc, equal, op, message);
}

SmallVector<utils::IteratorType> iterators(ArrayRef<bool> reduced) {
  SmallVector<utils::IteratorType> result;
  for (bool r : reduced)
    result.push_back(r ? utils::IteratorType::reduction
                       : utils::IteratorType::parallel);
  return result;
}

//===----------------------------------------------------------------------===//
// Runtime calls
//===----------------------------------------------------------------------===//

/// The memref type matrices cross into the runtime with: any strides.
MemRefType runtimeMatrixType(MLIRContext *context) {
  int64_t dyn = ShapedType::kDynamic;
  return MemRefType::get(
      {dyn, dyn}, Float64Type::get(context),
      StridedLayoutAttr::get(context, /*offset=*/dyn, /*strides=*/{dyn, dyn}));
}

/// Declares `name` in the module (once) and returns it.
func::FuncOp getRuntimeFunction(OpBuilder &b, Operation *from, StringRef name,
                                TypeRange inputs, TypeRange results) {
  auto module = from->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto type = b.getFunctionType(inputs, results);
  auto function = func::FuncOp::create(b, from->getLoc(), name, type);
  function.setPrivate();
  // Matrices are passed as descriptors: use the `_mlir_ciface_` ABI.
  if (llvm::any_of(inputs, llvm::IsaPred<MemRefType>))
    function->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      b.getUnitAttr());
  return function;
}

Value callRuntime(OpBuilder &b, Location loc, Operation *from, StringRef name,
                  ValueRange args, TypeRange results) {
  func::FuncOp function =
      getRuntimeFunction(b, from, name, ValueRange(args).getTypes(), results);
  auto call = func::CallOp::create(b, loc, function, args);
  return results.empty() ? Value() : call.getResult(0);
}

/// A pointer to a NUL-terminated copy of `text` in a module constant.
Value stringPointer(OpBuilder &b, Location loc, Operation *from,
                    StringRef text) {
  auto module = from->getParentOfType<ModuleOp>();
  std::string name =
      llvm::formatv("amls_str_{0:x}",
                    static_cast<uint64_t>(llvm::hash_value(text)))
          .str();
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size() + 1);
    global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    b.getStringAttr(text.str() + '\0'));
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

/// A read-only view of a tensor as a runtime matrix (an f64 copy of an f32
/// or i64 matrix).
Value asRuntimeMatrix(OpBuilder &b, Location loc, Value tensor) {
  int64_t dyn = ShapedType::kDynamic;
  tensor = convertElementType(b, loc, tensor, b.getF64Type());
  auto dynamicType = RankedTensorType::get({dyn, dyn}, b.getF64Type());
  return bufferization::ToBufferOp::create(
      b, loc, runtimeMatrixType(b.getContext()),
      castTo(b, loc, tensor, dynamicType), /*read_only=*/true);
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
  Value view =
      memref::CastOp::create(b, loc, runtimeMatrixType(b.getContext()), buffer);
  fill(view);
  Value tensor = bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get({dyn, dyn}, b.getF64Type()), buffer,
      /*restrict=*/b.getUnitAttr(), /*writable=*/b.getUnitAttr());
  tensor = convertElementType(b, loc, tensor, type.getElementType());
  return castTo(b, loc, tensor, type);
}

//===----------------------------------------------------------------------===//
// Element-wise operations
//===----------------------------------------------------------------------===//

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

/// Any op with ElementwiseOpInterface: one linalg.generic over the result,
/// broadcasting operands whose size is statically 1 along a dimension
/// through the indexing maps. An operand whose size is unknown may still be
/// a vector at run time; it is expanded first when it is.
struct LowerElementwise
    : public OpInterfaceConversionPattern<ElementwiseOpInterface> {
  using OpInterfaceConversionPattern::OpInterfaceConversionPattern;

  LogicalResult
  matchAndRewrite(ElementwiseOpInterface op, ArrayRef<Value> adaptorOperands,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op->getLoc();
    auto resultType = dyn_cast_or_null<RankedTensorType>(
        getTypeConverter()->convertType(op->getResult(0).getType()));
    if (!resultType)
      return failure();
    Type elementType = resultType.getElementType();
    if (!isa<FloatType>(elementType) && !op.supportsElementType(elementType))
      return op->emitOpError("on ")
             << elementType << " matrices is not supported by the lowering";

    SmallVector<Value> operands(adaptorOperands);
    auto matrixType = [&](unsigned i) {
      return dyn_cast<RankedTensorType>(operands[i].getType());
    };
    // Sizes of the result: static, or from the operands not statically 1
    // along that dimension, where an operand of size 1 gives way to the
    // others (broadcasting decided at run time).
    SmallVector<Value> sizes;
    // Per dimension, the operand the size is read first from: its size is
    // the result's or 1 by construction. When it is the only candidate it
    // needs no expansion either.
    SmallVector<int64_t> firstSource = {-1, -1};
    SmallVector<bool> soleSource = {false, false};
    for (int64_t d = 0; d < 2; ++d) {
      if (!resultType.isDynamicDim(d)) {
        sizes.push_back(indexConstant(rewriter, loc, resultType.getDimSize(d)));
        continue;
      }
      SmallVector<unsigned> candidates;
      for (unsigned i = 0; i < operands.size(); ++i)
        if (auto type = matrixType(i); type && type.getDimSize(d) != 1)
          candidates.push_back(i);
      if (candidates.empty()) {
        sizes.push_back(indexConstant(rewriter, loc, 1));
        continue;
      }
      firstSource[d] = candidates.front();
      soleSource[d] = candidates.size() == 1;
      Value size = dimOf(rewriter, loc, operands[candidates.front()], d);
      Value one = indexConstant(rewriter, loc, 1);
      for (unsigned i : llvm::drop_begin(candidates)) {
        Value isVector = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, size, one);
        size =
            arith::SelectOp::create(rewriter, loc, isVector,
                                    dimOf(rewriter, loc, operands[i], d), size);
      }
      sizes.push_back(size);
    }

    // Check each operand's sizes against the result's; expand the operands
    // that may be vectors at run time.
    for (unsigned i = 0; i < operands.size(); ++i) {
      RankedTensorType type = matrixType(i);
      if (!type)
        continue;
      SmallVector<bool> expand = {false, false};
      for (int64_t d = 0; d < 2; ++d) {
        bool first = firstSource[d] == static_cast<int64_t>(i);
        if (type.getDimSize(d) == 1 || (first && soleSource[d]))
          continue;
        if (type.isDynamicDim(d) && resultType.getDimSize(d) != 1)
          expand[d] = true;
        Value dim = dimOf(rewriter, loc, operands[i], d);
        if (first ||
            (getConstantIntValue(dim) && getConstantIntValue(sizes[d])))
          continue; // Holds by construction, or verified statically.
        Value matches = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::eq, dim, sizes[d]);
        if (expand[d]) {
          matches = arith::OrIOp::create(
              rewriter, loc, matches,
              arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                    dim, indexConstant(rewriter, loc, 1)));
        }
        check(rewriter, loc, matches, op,
              "operand #" + Twine(i) + " has a different size in dimension " +
                  Twine(d) + " than the result, and is not a vector to " +
                  "broadcast");
      }
      if (expand[0] || expand[1])
        operands[i] = expandIfVector(rewriter, loc, operands[i], sizes, expand);
    }

    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<int> inputOf(operands.size(), -1);
    MLIRContext *context = rewriter.getContext();
    for (auto [i, operand] : llvm::enumerate(operands)) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        continue;
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < 2; ++d) {
        bool broadcast =
            type.getDimSize(d) == 1 && resultType.getDimSize(d) != 1;
        exprs.push_back(broadcast ? getAffineConstantExpr(0, context)
                                  : getAffineDimExpr(d, context));
      }
      inputOf[i] = inputs.size();
      inputs.push_back(operand);
      maps.push_back(AffineMap::get(2, 0, exprs, context));
    }
    maps.push_back(AffineMap::getMultiDimIdentityMap(2, context));

    Value init = emptyTensor(rewriter, loc, resultType, sizes);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, inputs, init, maps,
        iterators({false, false}),
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          SmallVector<Value> cells;
          for (auto [i, operand] : llvm::enumerate(operands))
            cells.push_back(inputOf[i] >= 0 ? args[inputOf[i]] : operand);
          Value result = op.buildCellComputation(b, bodyLoc, cells);
          linalg::YieldOp::create(b, bodyLoc, result);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Generic helper for op-specific patterns
//===----------------------------------------------------------------------===//

template <typename OpTy> struct AMLSPattern : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpTy::Adaptor;

  RankedTensorType tensorType(Value value) const {
    return dyn_cast_or_null<RankedTensorType>(
        this->getTypeConverter()->convertType(value.getType()));
  }
};

//===----------------------------------------------------------------------===//
// Data generation
//===----------------------------------------------------------------------===//

struct LowerFill : public AMLSPattern<FillOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(FillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    checkNonNegative(rewriter, loc, op, adaptor.getRows(), "row count");
    checkNonNegative(rewriter, loc, op, adaptor.getCols(), "column count");
    Value init = emptyTensor(rewriter, loc, type,
                             {adaptor.getRows(), adaptor.getCols()});
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, adaptor.getValue(), init);
    return success();
  }

  static void checkNonNegative(OpBuilder &b, Location loc, Operation *op,
                               Value size, StringRef what) {
    if (getConstantIntValue(size))
      return;
    Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, size,
                                     indexConstant(b, loc, 0));
    check(b, loc, ok, op, Twine(what) + " must be non-negative");
  }
};

struct LowerConstant : public AMLSPattern<ConstantOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<DenseElementsAttr>(op.getValue());
    if (!value)
      return op.emitOpError("only dense literals can be lowered");
    Value constant = arith::ConstantOp::create(rewriter, op.getLoc(),
                                               value.getType(), value);
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), constant,
                                  tensorType(op.getResult())));
    return success();
  }
};

struct LowerSeq : public AMLSPattern<SeqOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(SeqOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Type elementType = type.getElementType();
    Value from = adaptor.getFrom(), to = adaptor.getTo(),
          incr = adaptor.getIncr();
    // length = floor((to - from) / incr + eps) + 1, as in inference.
    Value span = arith::SubFOp::create(rewriter, loc, to, from);
    Value steps = arith::DivFOp::create(rewriter, loc, span, incr);
    Value nudged = arith::AddFOp::create(
        rewriter, loc, steps, floatConstant(rewriter, loc, elementType, 1e-10));
    Value nonNegative =
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGE, nudged,
                              floatConstant(rewriter, loc, elementType, 0.0));
    check(rewriter, loc, nonNegative, op,
          "the increment has the wrong sign (or is zero)");
    Value floored = math::FloorOp::create(rewriter, loc, nudged);
    Value count =
        arith::FPToSIOp::create(rewriter, loc, rewriter.getI64Type(), floored);
    Value length = arith::AddIOp::create(
        rewriter, loc,
        arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                   count),
        indexConstant(rewriter, loc, 1));
    Value init = emptyTensor(rewriter, loc, type,
                             {length, indexConstant(rewriter, loc, 1)});
    MLIRContext *context = rewriter.getContext();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{}, init,
        {AffineMap::getMultiDimIdentityMap(2, context)},
        iterators({false, false}),
        [&](OpBuilder &b, Location bodyLoc, ValueRange) {
          Value i = linalg::IndexOp::create(b, bodyLoc, 0);
          Value i64 = arith::IndexCastOp::create(b, bodyLoc, b.getI64Type(), i);
          Value fi = arith::SIToFPOp::create(b, bodyLoc, elementType, i64);
          Value offset = arith::MulFOp::create(b, bodyLoc, fi, incr);
          linalg::YieldOp::create(
              b, bodyLoc,
              arith::AddFOp::create(b, bodyLoc, from, offset).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct LowerRand : public AMLSPattern<RandOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(RandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Type elementType = type.getElementType();
    if (!isa<FloatType>(elementType))
      return op.emitOpError("random ") << elementType << " matrices are not "
                                       << "supported";
    Value seed = adaptor.getSeed();
    if (!seed)
      seed = callRuntime(rewriter, loc, op, "amls_rt_fresh_seed", {},
                         rewriter.getI64Type());
    auto toF64 = [&](Value v) -> Value {
      if (v.getType().isF64())
        return v;
      return arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(), v);
    };
    Value min = toF64(adaptor.getMin()), max = toF64(adaptor.getMax());
    Value sparsity = toF64(adaptor.getSparsity());
    Value pdf = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(op.getPdf()), 32);
    Value rows = adaptor.getRows(), cols = adaptor.getCols();
    LowerFill::checkNonNegative(rewriter, loc, op, rows, "row count");
    LowerFill::checkNonNegative(rewriter, loc, op, cols, "column count");
    Value init = emptyTensor(rewriter, loc, type, {rows, cols});
    func::FuncOp cell = getRuntimeFunction(
        rewriter, op, "amls_rt_rand",
        {rewriter.getI64Type(), rewriter.getI64Type(), rewriter.getF64Type(),
         rewriter.getF64Type(), rewriter.getF64Type(), rewriter.getI32Type()},
        {rewriter.getF64Type()});
    MLIRContext *context = rewriter.getContext();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, type, ValueRange{}, init,
        {AffineMap::getMultiDimIdentityMap(2, context)},
        iterators({false, false}),
        [&](OpBuilder &b, Location bodyLoc, ValueRange) {
          // The row-major cell index: the same matrix at any thread count.
          Value i = linalg::IndexOp::create(b, bodyLoc, 0);
          Value j = linalg::IndexOp::create(b, bodyLoc, 1);
          Value rowStart = arith::MulIOp::create(b, bodyLoc, i, cols);
          Value index = arith::AddIOp::create(b, bodyLoc, rowStart, j);
          Value index64 =
              arith::IndexCastOp::create(b, bodyLoc, b.getI64Type(), index);
          Value value = func::CallOp::create(
                            b, bodyLoc, cell,
                            ValueRange{seed, index64, min, max, sparsity, pdf})
                            .getResult(0);
          if (!elementType.isF64())
            value = arith::TruncFOp::create(b, bodyLoc, elementType, value);
          linalg::YieldOp::create(b, bodyLoc, value);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// I/O
//===----------------------------------------------------------------------===//

struct LowerRead : public AMLSPattern<ReadOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(ReadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Value path = stringPointer(rewriter, loc, op, op.getPath());
    Value format = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(op.getFormat()), 32);
    auto i64 = rewriter.getI64Type();
    Value rows64 = callRuntime(rewriter, loc, op, "amls_rt_file_rows",
                               {path, format}, i64);
    Value cols64 = callRuntime(rewriter, loc, op, "amls_rt_file_cols",
                               {path, format}, i64);
    Value rows = arith::IndexCastOp::create(rewriter, loc,
                                            rewriter.getIndexType(), rows64);
    Value cols = arith::IndexCastOp::create(rewriter, loc,
                                            rewriter.getIndexType(), cols64);
    for (auto [d, size] : llvm::enumerate(ValueRange{rows, cols}))
      if (!type.isDynamicDim(d))
        checkEqual(rewriter, loc, size,
                   indexConstant(rewriter, loc, type.getDimSize(d)), op,
                   Twine("the file '") + op.getPath() + "' has a different " +
                       (d ? "column" : "row") +
                       " count than the declared type");
    Value result =
        tensorFromRuntime(rewriter, loc, type, rows, cols, [&](Value matrix) {
          callRuntime(rewriter, loc, op, "amls_rt_read",
                      {matrix, path, format});
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LowerWrite : public AMLSPattern<WriteOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(WriteOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value matrix = asRuntimeMatrix(rewriter, loc, adaptor.getInput());
    Value path = stringPointer(rewriter, loc, op, op.getPath());
    Value format = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int32_t>(op.getFormat()), 32);
    callRuntime(rewriter, loc, op, "amls_rt_write", {matrix, path, format});
    rewriter.eraseOp(op);
    return success();
  }
};

struct LowerPrint : public AMLSPattern<PrintOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type type = input.getType();
    if (isa<RankedTensorType>(type)) {
      callRuntime(rewriter, loc, op, "amls_rt_print_matrix",
                  {asRuntimeMatrix(rewriter, loc, input)});
    } else if (isa<FloatType>(type)) {
      if (!type.isF64())
        input =
            arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(), input);
      callRuntime(rewriter, loc, op, "amls_rt_print_f64", {input});
    } else {
      if (type.isIndex())
        input = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                           input);
      else if (type.getIntOrFloatBitWidth() < 64)
        input =
            arith::ExtSIOp::create(rewriter, loc, rewriter.getI64Type(), input);
      callRuntime(rewriter, loc, op, "amls_rt_print_i64", {input});
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// arith.select between two matrices selects between their tensors.
struct LowerMatrixSelect : public OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = getTypeConverter()->convertType(op.getType());
    if (!type)
      return failure();
    Value trueValue = castTo(rewriter, op.getLoc(), adaptor.getTrueValue(),
                             cast<RankedTensorType>(type));
    Value falseValue = castTo(rewriter, op.getLoc(), adaptor.getFalseValue(),
                              cast<RankedTensorType>(type));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, adaptor.getCondition(),
                                                 trueValue, falseValue);
    return success();
  }
};

/// amls.printf and amls.stop: one runtime call per piece of the message,
/// then one that prints it (or reports it and exits).
template <typename OpTy, int32_t stream>
struct LowerMessage : public AMLSPattern<OpTy> {
  using AMLSPattern<OpTy>::AMLSPattern;
  using OpAdaptor = typename OpTy::Adaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value streamId = arith::ConstantIntOp::create(rewriter, loc, stream, 32);
    std::string text;
    auto flushText = [&] {
      if (text.empty())
        return;
      callRuntime(rewriter, loc, op, "amls_rt_emit_text",
                  {stringPointer(rewriter, loc, op, text), streamId});
      text.clear();
    };
    StringRef format = op.getFormat();
    ValueRange values = adaptor.getValues();
    size_t next = 0;
    for (size_t i = 0; i < format.size(); ++i) {
      char c = format[i];
      char following = i + 1 < format.size() ? format[i + 1] : '\0';
      if ((c == '{' && following == '{') || (c == '}' && following == '}')) {
        text.push_back(c);
        ++i;
        continue;
      }
      if (c != '{' || following != '}') {
        text.push_back(c);
        continue;
      }
      ++i;
      flushText();
      emitValue(rewriter, loc, op, values[next++], streamId);
    }
    flushText();
    callRuntime(rewriter, loc, op, "amls_rt_emit_end", {streamId});
    rewriter.eraseOp(op);
    return success();
  }

  void emitValue(ConversionPatternRewriter &rewriter, Location loc,
                 Operation *op, Value value, Value streamId) const {
    Type type = value.getType();
    if (isa<RankedTensorType>(type)) {
      callRuntime(rewriter, loc, op, "amls_rt_emit_matrix",
                  {asRuntimeMatrix(rewriter, loc, value), streamId});
    } else if (isa<FloatType>(type)) {
      if (!type.isF64())
        value =
            arith::ExtFOp::create(rewriter, loc, rewriter.getF64Type(), value);
      callRuntime(rewriter, loc, op, "amls_rt_emit_f64", {value, streamId});
    } else if (type.isInteger(1)) {
      value =
          arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), value);
      callRuntime(rewriter, loc, op, "amls_rt_emit_bool", {value, streamId});
    } else {
      if (type.isIndex())
        value = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                           value);
      else if (type.getIntOrFloatBitWidth() < 64)
        value =
            arith::ExtSIOp::create(rewriter, loc, rewriter.getI64Type(), value);
      callRuntime(rewriter, loc, op, "amls_rt_emit_i64", {value, streamId});
    }
  }
};

//===----------------------------------------------------------------------===//
// Products
//===----------------------------------------------------------------------===//

/// C = A' B' with zero-initialized C of `type`; `maps` select transposes.
Value buildMatmul(OpBuilder &b, Location loc, RankedTensorType type, Value lhs,
                  Value rhs, Value rows, Value cols,
                  std::optional<ArrayRef<AffineMap>> maps = std::nullopt) {
  Value init = emptyTensor(b, loc, type, {rows, cols});
  Value zero = arith::ConstantOp::create(b, loc, type.getElementType(),
                                         b.getZeroAttr(type.getElementType()));
  Value filled = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  SmallVector<NamedAttribute> attributes;
  if (maps)
    attributes.push_back(
        b.getNamedAttr("indexing_maps", b.getAffineMapArrayAttr(*maps)));
  return linalg::MatmulOp::create(b, loc, TypeRange{type}, ValueRange{lhs, rhs},
                                  ValueRange{filled}, attributes)
      .getResult(0);
}

/// Affine maps (m, n, k) of a product with optionally transposed operands.
SmallVector<AffineMap> matmulMaps(MLIRContext *context, bool transposeLhs,
                                  bool transposeRhs) {
  AffineExpr m, n, k;
  bindDims(context, m, n, k);
  auto map = [&](AffineExpr a, AffineExpr c) {
    return AffineMap::get(3, 0, {a, c}, context);
  };
  return {transposeLhs ? map(k, m) : map(m, k),
          transposeRhs ? map(n, k) : map(k, n), map(m, n)};
}

struct LowerMatmul : public AMLSPattern<MatmulOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // A transposed operand is read through a transposed indexing map instead
    // of being materialized (BLAS then gets it as a transposed view).
    auto untransposed = [&](Value original, Value converted) {
      auto transpose = original.getDefiningOp<TransposeOp>();
      if (!transpose)
        return std::make_pair(converted, false);
      Value input = rewriter.getRemappedValue(transpose.getInput());
      if (!input || !isa<RankedTensorType>(input.getType()))
        return std::make_pair(converted, false);
      return std::make_pair(input, true);
    };
    auto [lhs, transposeLhs] = untransposed(op.getLhs(), adaptor.getLhs());
    auto [rhs, transposeRhs] = untransposed(op.getRhs(), adaptor.getRhs());
    Value rows = dimOf(rewriter, loc, lhs, transposeLhs ? 1 : 0);
    Value inner = dimOf(rewriter, loc, lhs, transposeLhs ? 0 : 1);
    Value rhsInner = dimOf(rewriter, loc, rhs, transposeRhs ? 1 : 0);
    Value cols = dimOf(rewriter, loc, rhs, transposeRhs ? 0 : 1);
    checkEqual(rewriter, loc, inner, rhsInner, op, "inner dimensions differ");
    std::optional<ArrayRef<AffineMap>> maps;
    SmallVector<AffineMap> transposedMaps;
    if (transposeLhs || transposeRhs) {
      transposedMaps =
          matmulMaps(rewriter.getContext(), transposeLhs, transposeRhs);
      maps = transposedMaps;
    }
    rewriter.replaceOp(op,
                       buildMatmul(rewriter, loc, tensorType(op.getResult()),
                                   lhs, rhs, rows, cols, maps));
    return success();
  }
};

struct LowerTsmm : public AMLSPattern<TsmmOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(TsmmOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    bool left = op.getSide() == TsmmSide::Left;
    Value size = dimOf(rewriter, loc, x, left ? 1 : 0);
    SmallVector<AffineMap> maps =
        matmulMaps(rewriter.getContext(), /*transposeLhs=*/left,
                   /*transposeRhs=*/!left);
    rewriter.replaceOp(op,
                       buildMatmul(rewriter, loc, tensorType(op.getResult()), x,
                                   x, size, size, ArrayRef<AffineMap>(maps)));
    return success();
  }
};

struct LowerMMChain : public AMLSPattern<MMChainOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(MMChainOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput(), v = adaptor.getVector();
    auto xType = cast<RankedTensorType>(x.getType());
    Type elementType = xType.getElementType();
    Value rows = dimOf(rewriter, loc, x, 0), cols = dimOf(rewriter, loc, x, 1);
    Value one = indexConstant(rewriter, loc, 1);
    checkEqual(rewriter, loc, dimOf(rewriter, loc, v, 0), cols, op,
               "the vector's length differs from the matrix's columns");
    if (Value w = adaptor.getWeights())
      checkEqual(rewriter, loc, dimOf(rewriter, loc, w, 0), rows, op,
                 "the weights' length differs from the matrix's rows");
    // f64 products go to the runtime's kernel, which reads X once instead
    // of twice; other element types to two products.
    if (elementType.isF64()) {
      Value matrix = asRuntimeMatrix(rewriter, loc, x);
      Value vector = asRuntimeMatrix(rewriter, loc, v);
      Value weights = adaptor.getWeights()
                          ? asRuntimeMatrix(rewriter, loc, adaptor.getWeights())
                          : vector;
      Value useWeights =
          i32Constant(rewriter, loc, adaptor.getWeights() ? 1 : 0);
      rewriter.replaceOp(
          op, tensorFromRuntime(
                  rewriter, loc, tensorType(op.getResult()), cols, one,
                  [&](Value out) {
                    callRuntime(rewriter, loc, op, "amls_rt_mmchain",
                                {matrix, vector, weights, out, useWeights});
                  }));
      return success();
    }
    auto column = RankedTensorType::get({xType.getDimSize(0), 1}, elementType);
    Value xv = buildMatmul(rewriter, loc, column, x, v, rows, one);
    if (Value w = adaptor.getWeights()) {
      w = castTo(rewriter, loc, w, column);
      MLIRContext *context = rewriter.getContext();
      auto id = AffineMap::getMultiDimIdentityMap(2, context);
      Value init = emptyTensor(rewriter, loc, column, {rows, one});
      xv = linalg::GenericOp::create(
               rewriter, loc, column, ValueRange{w, xv}, init, {id, id, id},
               iterators({false, false}),
               [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
                 linalg::YieldOp::create(
                     b, bodyLoc,
                     arith::MulFOp::create(b, bodyLoc, args[0], args[1])
                         .getResult());
               })
               .getResult(0);
    }
    SmallVector<AffineMap> maps = matmulMaps(rewriter.getContext(),
                                             /*transposeLhs=*/true,
                                             /*transposeRhs=*/false);
    rewriter.replaceOp(op,
                       buildMatmul(rewriter, loc, tensorType(op.getResult()), x,
                                   xv, cols, one, ArrayRef<AffineMap>(maps)));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Aggregates
//===----------------------------------------------------------------------===//

/// The identity of a reduction and its combining step, on `type`.
struct Reduction {
  double init;
  std::function<Value(OpBuilder &, Location, Value cell, Value acc)> combine;

  /// Combines two partial results (sumsq's partial sums add up).
  Value merge(OpBuilder &b, Location loc, Value partial, Value acc,
              bool sumOfSquares) const;
};

Reduction reductionFor(AggKind kind) {
  // Sums and products may be reassociated so that LLVM vectorizes the
  // reduction loops (several partial accumulators); like NumPy's pairwise
  // summation, the result differs from a strict left-to-right sum only by
  // rounding.
  auto reassociable = arith::FastMathFlags::reassoc;
  auto isFloat = [](Value v) { return isa<FloatType>(v.getType()); };
  switch (kind) {
  case AggKind::Sum:
  case AggKind::Mean:
    return {0.0, [=](OpBuilder &b, Location l, Value x, Value acc) -> Value {
              return isFloat(x)
                         ? arith::AddFOp::create(b, l, acc, x, reassociable)
                               .getResult()
                         : arith::AddIOp::create(b, l, acc, x).getResult();
            }};
  case AggKind::SumSq:
    return {0.0, [=](OpBuilder &b, Location l, Value x, Value acc) -> Value {
              if (!isFloat(x))
                return arith::AddIOp::create(b, l, acc,
                                             arith::MulIOp::create(b, l, x, x));
              return arith::AddFOp::create(
                  b, l, acc, arith::MulFOp::create(b, l, x, x), reassociable);
            }};
  case AggKind::Prod:
    return {1.0, [=](OpBuilder &b, Location l, Value x, Value acc) -> Value {
              return isFloat(x)
                         ? arith::MulFOp::create(b, l, acc, x, reassociable)
                               .getResult()
                         : arith::MulIOp::create(b, l, acc, x).getResult();
            }};
  case AggKind::Min:
    return {std::numeric_limits<double>::infinity(),
            [=](OpBuilder &b, Location l, Value x, Value acc) -> Value {
              return isFloat(x)
                         ? arith::MinimumFOp::create(b, l, acc, x).getResult()
                         : arith::MinSIOp::create(b, l, acc, x).getResult();
            }};
  case AggKind::Max:
    return {-std::numeric_limits<double>::infinity(),
            [=](OpBuilder &b, Location l, Value x, Value acc) -> Value {
              return isFloat(x)
                         ? arith::MaximumFOp::create(b, l, acc, x).getResult()
                         : arith::MaxSIOp::create(b, l, acc, x).getResult();
            }};
  default:
    llvm_unreachable("not a plain reduction");
  }
}

Value reductionInit(OpBuilder &b, Location loc, Type type, double value) {
  if (isa<FloatType>(type))
    return floatConstant(b, loc, type, value);
  int64_t integer = std::isinf(value)
                        ? (value > 0 ? std::numeric_limits<int64_t>::max()
                                     : std::numeric_limits<int64_t>::min())
                        : static_cast<int64_t>(value);
  return arith::ConstantOp::create(b, loc, type,
                                   b.getIntegerAttr(type, integer));
}

Value Reduction::merge(OpBuilder &b, Location loc, Value partial, Value acc,
                       bool sumOfSquares) const {
  if (!sumOfSquares)
    return combine(b, loc, partial, acc);
  return reductionFor(AggKind::Sum).combine(b, loc, partial, acc);
}

/// Full reductions over a static rows x cols space of at least this many
/// cells run as partial reductions over blocks of rows, in parallel.
constexpr int64_t kMinCellsToSplitReduction = 1 << 15;

/// How a full reduction over a static rows x cols space is split: `blocks`
/// equal blocks of rows, reduced in parallel, each into `lanes` partial
/// results, merged afterwards. A block is viewed as perBlock x lanes cells:
/// the matrix's own rows and columns, or, for a column vector, runs of 8
/// consecutive cells. Either way the innermost loop goes along the lanes
/// and is element-wise, which LLVM vectorizes (a scalar accumulator would
/// stay in memory). Results of products and other reductions are not
/// split: linalg's element-wise fusion would push the reshape into them,
/// turning a BLAS product into generic loops.
struct BlockedReduction {
  int64_t blocks = 1, perBlock = 0, lanes = 0;
  /// A column vector regrouped into runs of `lanes` cells.
  bool regrouped = false;

  explicit operator bool() const { return blocks > 1; }

  /// `matrix` (rows x cols, or rows x 1 when regrouped) viewed as blocks x
  /// perBlock x cols (x lanes when regrouped).
  Value view(OpBuilder &b, Location loc, Value matrix) const {
    auto type = cast<RankedTensorType>(matrix.getType());
    Type element = type.getElementType();
    if (!regrouped)
      return tensor::ExpandShapeOp::create(
          b, loc,
          RankedTensorType::get({blocks, perBlock, type.getDimSize(1)},
                                element),
          matrix, SmallVector<ReassociationIndices>{{0, 1}, {2}});
    Value flat = tensor::CollapseShapeOp::create(
        b, loc, matrix, SmallVector<ReassociationIndices>{{0, 1}});
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({blocks, perBlock, lanes}, element), flat,
        SmallVector<ReassociationIndices>{{0, 1, 2}});
  }

  /// An input of a fused operator whose main input has `mainType`, and its
  /// map over (block, row in block, lane): inputs along the rows are viewed
  /// in blocks, row vectors broadcast along the lanes (single cells when
  /// regrouped).
  std::pair<Value, AffineMap> bind(OpBuilder &b, Location loc, Value input,
                                   RankedTensorType mainType) const {
    MLIRContext *context = b.getContext();
    AffineExpr block = getAffineDimExpr(0, context),
               row = getAffineDimExpr(1, context),
               lane = getAffineDimExpr(2, context),
               zero = getAffineConstantExpr(0, context);
    auto type = cast<RankedTensorType>(input.getType());
    bool alongLanes =
        regrouped || type.getDimSize(1) != 1 || mainType.getDimSize(1) == 1;
    if (type.getDimSize(0) == 1 && mainType.getDimSize(0) != 1)
      return {input, AffineMap::get(
                         3, 0, {zero, alongLanes && !regrouped ? lane : zero},
                         context)};
    return {
        view(b, loc, input),
        AffineMap::get(3, 0, {block, row, alongLanes ? lane : zero}, context)};
  }

  /// The partial results' map over (block, row in block, lane).
  AffineMap partialMap(MLIRContext *context) const {
    return AffineMap::get(
        3, 0, {getAffineDimExpr(0, context), getAffineDimExpr(2, context)},
        context);
  }

  SmallVector<utils::IteratorType> iterators() const {
    return {utils::IteratorType::parallel, utils::IteratorType::reduction,
            utils::IteratorType::parallel};
  }
};

bool producedByReduction(Value value) {
  while (auto cast = value.getDefiningOp<tensor::CastOp>())
    value = cast.getSource();
  auto producer = value.getDefiningOp<linalg::LinalgOp>();
  return producer && producer.getNumReductionLoops() > 0;
}

BlockedReduction blockedReductionFor(Value value, bool contiguous) {
  auto type = cast<RankedTensorType>(value.getType());
  if (producedByReduction(value) || !type.hasStaticShape() ||
      type.getDimSize(0) * type.getDimSize(1) < kMinCellsToSplitReduction)
    return {};
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  constexpr int64_t kLanes = 8;
  static constexpr int64_t kBlockCounts[] = {64, 48, 32, 24, 16,
                                             12, 8,  6,  4,  2};
  if (cols == 1 || contiguous)
    for (int64_t blocks : kBlockCounts)
      if ((rows * cols) % (blocks * kLanes) == 0)
        return {blocks, rows * cols / (blocks * kLanes), kLanes, true};
  for (int64_t blocks : kBlockCounts)
    if (rows % blocks == 0)
      return {blocks, rows / blocks, cols, false};
  return {};
}

/// Row aggregates over static matrices with a multiple of 8 columns (at
/// least 16) accumulate 8 partial results per row, one per lane of a view
/// of each row as groups of 8 cells, so that the innermost loop is
/// element-wise (vectorized) instead of a reduction into memory; the lanes
/// are merged afterwards.
struct LaneSplit {
  static constexpr int64_t kLanes = 8;
  int64_t groups = 0;

  explicit operator bool() const { return groups > 0; }

  /// `matrix` (rows x cols, or 1 x cols) viewed as rows x groups x lanes.
  Value view(OpBuilder &b, Location loc, Value matrix) const {
    auto type = cast<RankedTensorType>(matrix.getType());
    return tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({type.getDimSize(0), groups, kLanes},
                              type.getElementType()),
        matrix, SmallVector<ReassociationIndices>{{0}, {1, 2}});
  }

  SmallVector<utils::IteratorType> iterators() const {
    return {utils::IteratorType::parallel, utils::IteratorType::reduction,
            utils::IteratorType::parallel};
  }

  /// An input of a fused operator whose main input has `mainType`, and its
  /// map over (row, group, lane): inputs along the columns are viewed as
  /// groups of lanes, column vectors broadcast along them.
  std::pair<Value, AffineMap> bind(OpBuilder &b, Location loc, Value input,
                                   RankedTensorType mainType) const {
    MLIRContext *context = b.getContext();
    AffineExpr row = getAffineDimExpr(0, context),
               group = getAffineDimExpr(1, context),
               lane = getAffineDimExpr(2, context),
               zero = getAffineConstantExpr(0, context);
    auto type = cast<RankedTensorType>(input.getType());
    AffineExpr rowExpr =
        type.getDimSize(0) != 1 || mainType.getDimSize(0) == 1 ? row : zero;
    if (type.getDimSize(1) == 1)
      return {input, AffineMap::get(3, 0, {rowExpr, zero}, context)};
    return {view(b, loc, input),
            AffineMap::get(3, 0, {rowExpr, group, lane}, context)};
  }
};

LaneSplit laneSplitFor(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (producedByReduction(value) || !type.hasStaticShape() ||
      type.getDimSize(0) * type.getDimSize(1) < kMinCellsToSplitReduction ||
      type.getDimSize(1) < 2 * LaneSplit::kLanes ||
      type.getDimSize(1) % LaneSplit::kLanes != 0)
    return {};
  return {type.getDimSize(1) / LaneSplit::kLanes};
}

/// Reduces the dimensions of `partials` marked in `reduced` with `combine`
/// (partial, accumulator), starting from `init`; the kept dimensions have
/// `keptSizes`.
Value reducePartials(
    OpBuilder &b, Location loc, Value partials, ArrayRef<bool> reduced,
    ArrayRef<OpFoldResult> keptSizes, double init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto type = cast<RankedTensorType>(partials.getType());
  Type elementType = type.getElementType();
  MLIRContext *context = b.getContext();
  int64_t rank = type.getRank();
  SmallVector<AffineExpr> kept;
  SmallVector<utils::IteratorType> iteratorTypes;
  for (int64_t d = 0; d < rank; ++d) {
    iteratorTypes.push_back(reduced[d] ? utils::IteratorType::reduction
                                       : utils::IteratorType::parallel);
    if (!reduced[d])
      kept.push_back(getAffineDimExpr(d, context));
  }
  Value empty = tensor::EmptyOp::create(b, loc, keptSizes, elementType);
  Value filled = linalg::FillOp::create(
                     b, loc, reductionInit(b, loc, elementType, init), empty)
                     .getResult(0);
  return linalg::GenericOp::create(
             b, loc, empty.getType(), partials, filled,
             {AffineMap::getMultiDimIdentityMap(rank, context),
              AffineMap::get(rank, 0, kept, context)},
             iteratorTypes,
             [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
               linalg::YieldOp::create(
                   nested, bodyLoc, combine(nested, bodyLoc, args[0], args[1]));
             })
      .getResult(0);
}

/// Merges partial results: all of them into a 0-d tensor, or, with
/// `perRow`, the lanes of each row (rows x lanes into rows).
Value mergePartials(OpBuilder &b, Location loc, Value partials,
                    const Reduction &reduction, bool sumOfSquares,
                    bool perRow = false) {
  auto type = cast<RankedTensorType>(partials.getType());
  SmallVector<bool> reduced(type.getRank(), true);
  SmallVector<OpFoldResult> keptSizes;
  if (perRow) {
    reduced[0] = false;
    keptSizes.push_back(b.getIndexAttr(type.getDimSize(0)));
  }
  return reducePartials(
      b, loc, partials, reduced, keptSizes, reduction.init,
      [&](OpBuilder &nested, Location bodyLoc, Value partial, Value acc) {
        return reduction.merge(nested, bodyLoc, partial, acc, sumOfSquares);
      });
}

/// Reduces `input` over `axis` into a tensor of rank 0 (all), or rank 1
/// (row: one value per row, col: one per column), with `extra` tensors of
/// the same shape as further inputs (for var/sd: the means).
struct ReductionBuilder {
  OpBuilder &b;
  Location loc;
  Value input;
  AggAxis axis;
  Type resultElementType;

  /// The rank-0 or rank-1 output shape and the maps of input and output.
  std::pair<RankedTensorType, SmallVector<Value>> outputShape() const {
    auto type = cast<RankedTensorType>(input.getType());
    switch (axis) {
    case AggAxis::All:
      return {RankedTensorType::get({}, resultElementType), {}};
    case AggAxis::Row:
      return {RankedTensorType::get({type.getDimSize(0)}, resultElementType),
              {dimOf(b, loc, input, 0)}};
    case AggAxis::Col:
      return {RankedTensorType::get({type.getDimSize(1)}, resultElementType),
              {dimOf(b, loc, input, 1)}};
    }
    llvm_unreachable("unknown axis");
  }

  AffineMap outputMap() const {
    MLIRContext *context = b.getContext();
    switch (axis) {
    case AggAxis::All:
      return AffineMap::get(2, 0, {}, context);
    case AggAxis::Row:
      return AffineMap::get(2, 0, {getAffineDimExpr(0, context)}, context);
    case AggAxis::Col:
      return AffineMap::get(2, 0, {getAffineDimExpr(1, context)}, context);
    }
    llvm_unreachable("unknown axis");
  }

  SmallVector<bool> reducedDims() const {
    return {axis != AggAxis::Row, axis != AggAxis::Col};
  }

  /// One reduction; `cellOf` maps the input cell (and the `extras` cells) to
  /// the value reduced.
  Value reduce(
      double init,
      function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
      ValueRange extras = {},
      function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf = nullptr,
      bool sumOfSquares = false) const {
    if (axis == AggAxis::All)
      if (BlockedReduction blocked =
              blockedReductionFor(input, /*contiguous=*/extras.empty()))
        return reduceInBlocks(blocked, init, combine, extras, cellOf,
                              sumOfSquares);
    if (axis == AggAxis::Row)
      if (LaneSplit split = laneSplitFor(input))
        return reduceRowsInLanes(split, init, combine, extras, cellOf,
                                 sumOfSquares);
    auto [outputType, sizes] = outputShape();
    return reduceIntoPartials(input, outputType, outputMap(), outputMap(),
                              iterators(reducedDims()), init, combine, extras,
                              cellOf, dynamicOnly(outputType, sizes));
  }

  /// A full reduction as partial reductions over blocks of rows
  /// (BlockedReduction), merged afterwards. `extras` are 0-d.
  Value reduceInBlocks(
      const BlockedReduction &blocked, double init,
      function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
      ValueRange extras,
      function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf,
      bool sumOfSquares) const {
    MLIRContext *context = b.getContext();
    Value view = blocked.view(b, loc, input);
    auto partialType = RankedTensorType::get(
        {blocked.blocks, cast<RankedTensorType>(view.getType()).getDimSize(2)},
        resultElementType);
    Value partials =
        reduceIntoPartials(view, partialType, AffineMap::get(3, 0, {}, context),
                           blocked.partialMap(context), blocked.iterators(),
                           init, combine, extras, cellOf);
    return mergePartials(b, loc, partials, Reduction{init, combine},
                         sumOfSquares);
  }

  /// A row reduction with 8 partial results per row (LaneSplit), merged
  /// afterwards. `extras` are per row (1-D).
  Value reduceRowsInLanes(
      const LaneSplit &split, double init,
      function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
      ValueRange extras,
      function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf,
      bool sumOfSquares) const {
    MLIRContext *context = b.getContext();
    int64_t rows = cast<RankedTensorType>(input.getType()).getDimSize(0);
    AffineExpr row = getAffineDimExpr(0, context),
               lane = getAffineDimExpr(2, context);
    Value partials = reduceIntoPartials(
        split.view(b, loc, input),
        RankedTensorType::get({rows, LaneSplit::kLanes}, resultElementType),
        AffineMap::get(3, 0, {row}, context),
        AffineMap::get(3, 0, {row, lane}, context), split.iterators(), init,
        combine, extras, cellOf);
    return mergePartials(b, loc, partials, Reduction{init, combine},
                         sumOfSquares, /*perRow=*/true);
  }

  /// Reduces `view` (the input or a 3-D view of it) into `partialType`
  /// through `partialMap` (`extraMap` for every extra operand; the dynamic
  /// sizes of the result in `dynamicSizes`).
  Value reduceIntoPartials(
      Value view, RankedTensorType partialType, AffineMap extraMap,
      AffineMap partialMap, ArrayRef<utils::IteratorType> iteratorTypes,
      double init,
      function_ref<Value(OpBuilder &, Location, Value, Value)> combine,
      ValueRange extras,
      function_ref<Value(OpBuilder &, Location, ValueRange)> cellOf,
      ValueRange dynamicSizes = {}) const {
    Value empty = tensor::EmptyOp::create(b, loc, partialType.getShape(),
                                          resultElementType, dynamicSizes);
    Value filled =
        linalg::FillOp::create(
            b, loc, reductionInit(b, loc, resultElementType, init), empty)
            .getResult(0);
    SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(
        cast<RankedTensorType>(view.getType()).getRank(), b.getContext())};
    maps.append(extras.size(), extraMap);
    maps.push_back(partialMap);
    SmallVector<Value> inputs = {view};
    inputs.append(extras.begin(), extras.end());
    return linalg::GenericOp::create(
               b, loc, partialType, inputs, filled, maps, iteratorTypes,
               [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
                 Value cell = cellOf ? cellOf(nested, bodyLoc, args.drop_back())
                                     : toResultType(nested, bodyLoc, args[0]);
                 linalg::YieldOp::create(
                     nested, bodyLoc,
                     combine(nested, bodyLoc, cell, args.back()));
               })
        .getResult(0);
  }

  Value toResultType(OpBuilder &nested, Location bodyLoc, Value cell) const {
    if (cell.getType() == resultElementType)
      return cell;
    return arith::SIToFPOp::create(nested, bodyLoc, resultElementType, cell);
  }

  static SmallVector<Value> dynamicOnly(RankedTensorType type,
                                        ArrayRef<Value> sizes) {
    SmallVector<Value> dynamic;
    for (auto [i, size] : llvm::enumerate(sizes))
      if (type.isDynamicDim(i))
        dynamic.push_back(size);
    return dynamic;
  }

  /// Applies `fn` to every element of a rank-0/1 reduction result.
  Value map(Value reduced,
            function_ref<Value(OpBuilder &, Location, Value)> fn) const {
    auto type = cast<RankedTensorType>(reduced.getType());
    SmallVector<Value> sizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      sizes.push_back(
          type.isDynamicDim(d)
              ? tensor::DimOp::create(b, loc, reduced, d).getResult()
              : indexConstant(b, loc, type.getDimSize(d)));
    Value empty =
        tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                dynamicOnly(type, sizes));
    auto id = AffineMap::getMultiDimIdentityMap(type.getRank(), b.getContext());
    return linalg::GenericOp::create(
               b, loc, type, reduced, empty, {id, id},
               SmallVector<utils::IteratorType>(type.getRank(),
                                                utils::IteratorType::parallel),
               [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
                 linalg::YieldOp::create(nested, bodyLoc,
                                         fn(nested, bodyLoc, args[0]));
               })
        .getResult(0);
  }
};

struct LowerAgg : public AMLSPattern<AggOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(AggOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Type resultType = getTypeConverter()->convertType(op.getType());
    Type elementType = resultType;
    if (auto tensor = dyn_cast<RankedTensorType>(resultType))
      elementType = tensor.getElementType();
    ReductionBuilder builder{rewriter, loc, input, op.getAxis(), elementType};
    AggKind kind = op.getKind();

    Value reduced;
    if (kind == AggKind::MaxIndex || kind == AggKind::MinIndex) {
      reduced = buildIndexReduction(rewriter, loc, op, builder);
    } else if (kind == AggKind::Var || kind == AggKind::Sd ||
               kind == AggKind::Mean) {
      if (!isa<FloatType>(elementType))
        return op.emitOpError("mean/var/sd need a floating-point result");
      reduced = buildMoments(rewriter, loc, op, builder);
    } else {
      Reduction reduction = reductionFor(kind);
      reduced = builder.reduce(reduction.init, reduction.combine, {}, nullptr,
                               kind == AggKind::SumSq);
    }

    // Back to the op's result: a scalar, or an Rx1 / 1xC matrix.
    if (op.getAxis() == AggAxis::All) {
      rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, reduced, ValueRange{});
      return success();
    }
    auto tensorResult = cast<RankedTensorType>(resultType);
    bool perRow = op.getAxis() == AggAxis::Row;
    Value length = dimOf(rewriter, loc, input, perRow ? 0 : 1);
    OpFoldResult lengthSize = getAsOpFoldResult(length);
    SmallVector<OpFoldResult> shape =
        perRow
            ? SmallVector<OpFoldResult>{lengthSize, rewriter.getIndexAttr(1)}
            : SmallVector<OpFoldResult>{rewriter.getIndexAttr(1), lengthSize};
    auto expandedType = RankedTensorType::get(
        perRow
            ? SmallVector<int64_t>{cast<RankedTensorType>(reduced.getType())
                                       .getDimSize(0),
                                   1}
            : SmallVector<int64_t>{1, cast<RankedTensorType>(reduced.getType())
                                          .getDimSize(0)},
        elementType);
    Value expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, expandedType, reduced,
        SmallVector<ReassociationIndices>{{0, 1}}, shape);
    rewriter.replaceOp(op, castTo(rewriter, loc, expanded, tensorResult));
    return success();
  }

  /// mean = sum / n; var = sum((x - mean)^2) / (n - 1); sd = sqrt(var).
  static Value buildMoments(OpBuilder &b, Location loc, AggOp op,
                            const ReductionBuilder &builder) {
    Type type = builder.resultElementType;
    Value input = builder.input;
    Value rows = dimOf(b, loc, input, 0), cols = dimOf(b, loc, input, 1);
    Value count = op.getAxis() == AggAxis::All
                      ? arith::MulIOp::create(b, loc, rows, cols).getResult()
                      : (op.getAxis() == AggAxis::Row ? cols : rows);
    Value n = arith::UIToFPOp::create(
        b, loc, type,
        arith::IndexCastOp::create(b, loc, b.getI64Type(), count));
    Reduction sum = reductionFor(AggKind::Sum);
    Value sums = builder.reduce(sum.init, sum.combine);
    Value means = builder.map(sums, [&](OpBuilder &nb, Location l, Value s) {
      return arith::DivFOp::create(nb, l, s, n).getResult();
    });
    if (op.getKind() == AggKind::Mean)
      return means;
    Value squares = builder.reduce(
        0.0, sum.combine, means,
        [&](OpBuilder &nb, Location l, ValueRange cells) -> Value {
          Value x = builder.toResultType(nb, l, cells[0]);
          Value d = arith::SubFOp::create(nb, l, x, cells[1]);
          return arith::MulFOp::create(nb, l, d, d);
        });
    Value nMinusOne =
        arith::SubFOp::create(b, loc, n, floatConstant(b, loc, type, 1.0));
    bool sd = op.getKind() == AggKind::Sd;
    return builder.map(squares, [&](OpBuilder &nb, Location l, Value s) {
      // One value has no spread: SystemDS gives 0, not 0/0.
      Value var = arith::SelectOp::create(
          nb, l,
          arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, nMinusOne,
                                floatConstant(nb, l, type, 0.0)),
          arith::DivFOp::create(nb, l, s, nMinusOne),
          floatConstant(nb, l, type, 0.0));
      return sd ? math::SqrtOp::create(nb, l, var).getResult() : var;
    });
  }

  /// 1-based position of the last maximum (minimum) per row or column.
  static Value buildIndexReduction(OpBuilder &b, Location loc, AggOp op,
                                   const ReductionBuilder &builder) {
    Type type = builder.resultElementType;
    bool isMax = op.getKind() == AggKind::MaxIndex;
    auto [outputType, sizes] = builder.outputShape();
    auto dynamic = ReductionBuilder::dynamicOnly(outputType, sizes);
    Value inputElement = builder.input;
    Type cellType =
        cast<RankedTensorType>(inputElement.getType()).getElementType();
    auto valueType = RankedTensorType::get(outputType.getShape(), cellType);
    Value best =
        linalg::FillOp::create(
            b, loc,
            reductionInit(b, loc, cellType,
                          isMax ? -std::numeric_limits<double>::infinity()
                                : std::numeric_limits<double>::infinity()),
            tensor::EmptyOp::create(b, loc, outputType.getShape(), cellType,
                                    dynamic)
                .getResult())
            .getResult(0);
    Value position =
        linalg::FillOp::create(b, loc, reductionInit(b, loc, type, 1.0),
                               tensor::EmptyOp::create(
                                   b, loc, outputType.getShape(), type, dynamic)
                                   .getResult())
            .getResult(0);
    int64_t reducedDim = op.getAxis() == AggAxis::Row ? 1 : 0;
    auto id = AffineMap::getMultiDimIdentityMap(2, b.getContext());
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{valueType, outputType}, ValueRange{builder.input},
        ValueRange{best, position},
        {id, builder.outputMap(), builder.outputMap()},
        iterators(builder.reducedDims()),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          Value x = args[0], bestSoFar = args[1], where = args[2];
          // The last extreme wins ties, as in SystemDS; NaN never wins.
          Value better =
              isa<FloatType>(cellType)
                  ? arith::CmpFOp::create(nb, l,
                                          isMax ? arith::CmpFPredicate::OGE
                                                : arith::CmpFPredicate::OLE,
                                          x, bestSoFar)
                        .getResult()
                  : arith::CmpIOp::create(nb, l,
                                          isMax ? arith::CmpIPredicate::sge
                                                : arith::CmpIPredicate::sle,
                                          x, bestSoFar)
                        .getResult();
          Value k = linalg::IndexOp::create(nb, l, reducedDim);
          Value k1 = arith::AddIOp::create(nb, l, k, indexConstant(nb, l, 1));
          Value k64 = arith::IndexCastOp::create(nb, l, nb.getI64Type(), k1);
          Value here =
              isa<FloatType>(type)
                  ? arith::SIToFPOp::create(nb, l, type, k64).getResult()
                  : k64;
          linalg::YieldOp::create(
              nb, l,
              ValueRange{arith::SelectOp::create(nb, l, better, x, bestSoFar),
                         arith::SelectOp::create(nb, l, better, here, where)});
        });
    return generic.getResult(1);
  }
};

struct LowerTrace : public AMLSPattern<TraceOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(TraceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    checkEqual(rewriter, loc, dimOf(rewriter, loc, input, 0),
               dimOf(rewriter, loc, input, 1), op, "the matrix is not square");
    Type type = op.getType();
    MLIRContext *context = rewriter.getContext();
    AffineExpr i = getAffineDimExpr(0, context);
    auto outputType = RankedTensorType::get({}, type);
    Value init =
        linalg::FillOp::create(
            rewriter, loc, reductionInit(rewriter, loc, type, 0.0),
            tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{}, type)
                .getResult())
            .getResult(0);
    Reduction sum = reductionFor(AggKind::Sum);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, outputType, input, init,
        {AffineMap::get(1, 0, {i, i}, context),
         AffineMap::get(1, 0, {}, context)},
        iterators({true}), [&](OpBuilder &b, Location l, ValueRange args) {
          linalg::YieldOp::create(b, l, sum.combine(b, l, args[0], args[1]));
        });
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, generic.getResult(0),
                                                   ValueRange{});
    return success();
  }
};

/// Row i combines row i-1 of the result with row i of the input; the rows
/// are a sequential loop, the columns of a row a parallel generic.
struct LowerCumAgg : public AMLSPattern<CumAggOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(CumAggOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    Type elementType = type.getElementType();
    if (!isa<FloatType>(elementType))
      return op.emitOpError("cumulative aggregates of ")
             << elementType << " matrices are not supported";
    Value rows = dimOf(rewriter, loc, input, 0);
    Value cols = dimOf(rewriter, loc, input, 1);
    Value zero = indexConstant(rewriter, loc, 0);
    Value one = indexConstant(rewriter, loc, 1);
    auto rowType = RankedTensorType::get({1, type.getDimSize(1)}, elementType);
    CumAggKind kind = op.getKind();
    MLIRContext *context = rewriter.getContext();
    auto id = AffineMap::getMultiDimIdentityMap(2, context);
    auto loop = scf::ForOp::create(
        rewriter, loc, one, rows, one, ValueRange{input},
        [&](OpBuilder &b, Location l, Value i, ValueRange carried) {
          Value result = carried[0];
          Value previous = arith::SubIOp::create(b, l, i, one);
          SmallVector<OpFoldResult> offsetsPrev = {previous, b.getIndexAttr(0)};
          SmallVector<OpFoldResult> offsetsCur = {i, b.getIndexAttr(0)};
          SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                             getAsOpFoldResult(cols)};
          SmallVector<OpFoldResult> strides = {b.getIndexAttr(1),
                                               b.getIndexAttr(1)};
          Value prev = tensor::ExtractSliceOp::create(
              b, l, rowType, result, offsetsPrev, sizes, strides);
          Value cur = tensor::ExtractSliceOp::create(
              b, l, rowType, result, offsetsCur, sizes, strides);
          Value combined =
              linalg::GenericOp::create(
                  b, l, rowType, ValueRange{prev}, ValueRange{cur}, {id, id},
                  iterators({false, false}),
                  [&](OpBuilder &nb, Location bl, ValueRange args) {
                    Value p = args[0], c = args[1];
                    Value r;
                    switch (kind) {
                    case CumAggKind::CumSum:
                      r = arith::AddFOp::create(nb, bl, p, c);
                      break;
                    case CumAggKind::CumProd:
                      r = arith::MulFOp::create(nb, bl, p, c);
                      break;
                    case CumAggKind::CumMin:
                      r = arith::MinimumFOp::create(nb, bl, p, c);
                      break;
                    case CumAggKind::CumMax:
                      r = arith::MaximumFOp::create(nb, bl, p, c);
                      break;
                    }
                    linalg::YieldOp::create(nb, bl, r);
                  })
                  .getResult(0);
          Value updated = tensor::InsertSliceOp::create(
              b, l, combined, result, offsetsCur, sizes, strides);
          scf::YieldOp::create(b, l, updated);
        });
    (void)zero;
    rewriter.replaceOp(op, castTo(rewriter, loc, loop.getResult(0),
                                  tensorType(op.getResult())));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Reorganisation
//===----------------------------------------------------------------------===//

struct LowerTranspose : public AMLSPattern<TransposeOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = tensorType(op.getResult());
    Value init = emptyTensor(
        rewriter, loc, type,
        {dimOf(rewriter, loc, input, 1), dimOf(rewriter, loc, input, 0)});
    auto transpose = linalg::TransposeOp::create(rewriter, loc, input, init,
                                                 ArrayRef<int64_t>{1, 0});
    rewriter.replaceOp(op, transpose.getResult()[0]);
    return success();
  }
};

struct LowerReshape : public AMLSPattern<ReshapeOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value rows = adaptor.getRows(), cols = adaptor.getCols();
    Value cellsIn =
        arith::MulIOp::create(rewriter, loc, dimOf(rewriter, loc, input, 0),
                              dimOf(rewriter, loc, input, 1));
    Value cellsOut = arith::MulIOp::create(rewriter, loc, rows, cols);
    checkEqual(rewriter, loc, cellsIn, cellsOut, op,
               "the number of cells changes");
    Value shape = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({2}, rewriter.getIndexType()),
        ValueRange{rows, cols});
    RankedTensorType type = tensorType(op.getResult());
    auto dynamicType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, type.getElementType());
    Value reshaped =
        tensor::ReshapeOp::create(rewriter, loc, dynamicType, input, shape);
    rewriter.replaceOp(op, castTo(rewriter, loc, reshaped, type));
    return success();
  }
};

/// An output-only generic whose body computes each cell from its indices.
Value generateFromIndices(
    OpBuilder &b, Location loc, RankedTensorType type, Value rows, Value cols,
    function_ref<Value(OpBuilder &, Location, Value i, Value j)> cell) {
  Value init = emptyTensor(b, loc, type, {rows, cols});
  return linalg::GenericOp::create(
             b, loc, type, ValueRange{}, init,
             {AffineMap::getMultiDimIdentityMap(2, b.getContext())},
             iterators({false, false}),
             [&](OpBuilder &nb, Location l, ValueRange) {
               Value i = linalg::IndexOp::create(nb, l, 0);
               Value j = linalg::IndexOp::create(nb, l, 1);
               linalg::YieldOp::create(nb, l, cell(nb, l, i, j));
             })
      .getResult(0);
}

struct LowerRev : public AMLSPattern<RevOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(RevOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value rows = dimOf(rewriter, loc, input, 0);
    Value last = arith::SubIOp::create(rewriter, loc, rows,
                                       indexConstant(rewriter, loc, 1));
    rewriter.replaceOp(
        op, generateFromIndices(
                rewriter, loc, tensorType(op.getResult()), rows,
                dimOf(rewriter, loc, input, 1),
                [&](OpBuilder &b, Location l, Value i, Value j) -> Value {
                  Value source = arith::SubIOp::create(b, l, last, i);
                  return tensor::ExtractOp::create(b, l, input,
                                                   ValueRange{source, j});
                }));
    return success();
  }
};

struct LowerDiag : public AMLSPattern<DiagOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(DiagOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    RankedTensorType type = tensorType(op.getResult());
    if (inputType.getDimSize(1) == 1) {
      rewriter.replaceOp(op, fromVector(rewriter, loc, input, type));
      return success();
    }
    if (!inputType.isDynamicDim(1)) {
      rewriter.replaceOp(op, ofMatrix(rewriter, loc, op, input, type));
      return success();
    }
    // Unknown column count: decide at run time.
    Value isVector = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::eq, dimOf(rewriter, loc, input, 1),
        indexConstant(rewriter, loc, 1));
    auto dynamicType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, type.getElementType());
    auto branch = scf::IfOp::create(
        rewriter, loc, isVector,
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(
              b, l,
              castTo(b, l, fromVector(b, l, input, dynamicType), dynamicType));
        },
        [&](OpBuilder &b, Location l) {
          scf::YieldOp::create(b, l,
                               castTo(b, l,
                                      ofMatrix(b, l, op, input, dynamicType),
                                      dynamicType));
        });
    rewriter.replaceOp(op, castTo(rewriter, loc, branch.getResult(0), type));
    return success();
  }

  static Value fromVector(OpBuilder &b, Location loc, Value vector,
                          RankedTensorType type) {
    Value n = dimOf(b, loc, vector, 0);
    Type elementType = type.getElementType();
    auto resultType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, elementType);
    Value result = generateFromIndices(
        b, loc, resultType, n, n,
        [&](OpBuilder &nb, Location l, Value i, Value j) -> Value {
          Value onDiagonal =
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, i, j);
          Value cell = tensor::ExtractOp::create(
              nb, l, vector, ValueRange{i, indexConstant(nb, l, 0)});
          Value zero = arith::ConstantOp::create(nb, l, elementType,
                                                 nb.getZeroAttr(elementType));
          return arith::SelectOp::create(nb, l, onDiagonal, cell, zero);
        });
    return castTo(b, loc, result, type);
  }

  static Value ofMatrix(OpBuilder &b, Location loc, Operation *op, Value matrix,
                        RankedTensorType type) {
    Value n = dimOf(b, loc, matrix, 0);
    checkEqual(b, loc, n, dimOf(b, loc, matrix, 1), op,
               "expects a column vector or a square matrix");
    auto resultType =
        RankedTensorType::get({ShapedType::kDynamic, 1}, type.getElementType());
    return castTo(
        b, loc,
        generateFromIndices(
            b, loc, resultType, n, indexConstant(b, loc, 1),
            [&](OpBuilder &nb, Location l, Value i, Value) -> Value {
              return tensor::ExtractOp::create(nb, l, matrix, ValueRange{i, i});
            }),
        type);
  }
};

/// cbind (alongColumns) and rbind: copy each input into its place.
template <typename OpTy, bool alongColumns>
struct LowerConcat : public AMLSPattern<OpTy> {
  using AMLSPattern<OpTy>::AMLSPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange inputs = adaptor.getInputs();
    int64_t joinedDim = alongColumns ? 1 : 0, sharedDim = 1 - joinedDim;
    Value shared = dimOf(rewriter, loc, inputs[0], sharedDim);
    Value total = indexConstant(rewriter, loc, 0);
    for (Value input : inputs) {
      checkEqual(rewriter, loc, dimOf(rewriter, loc, input, sharedDim), shared,
                 op,
                 alongColumns ? "inputs differ in their number of rows"
                              : "inputs differ in their number of columns");
      total = arith::AddIOp::create(rewriter, loc, total,
                                    dimOf(rewriter, loc, input, joinedDim));
    }
    RankedTensorType type = this->tensorType(op.getResult());
    Value result =
        emptyTensor(rewriter, loc, type,
                    alongColumns ? SmallVector<Value>{shared, total}
                                 : SmallVector<Value>{total, shared});
    Value offset = indexConstant(rewriter, loc, 0);
    Value zero = indexConstant(rewriter, loc, 0);
    for (Value input : inputs) {
      Value rows = dimOf(rewriter, loc, input, 0);
      Value cols = dimOf(rewriter, loc, input, 1);
      SmallVector<OpFoldResult> offsets =
          alongColumns ? SmallVector<OpFoldResult>{zero, offset}
                       : SmallVector<OpFoldResult>{offset, zero};
      result = tensor::InsertSliceOp::create(
          rewriter, loc, input, result, offsets,
          SmallVector<OpFoldResult>{getAsOpFoldResult(rows),
                                    getAsOpFoldResult(cols)},
          SmallVector<OpFoldResult>{rewriter.getIndexAttr(1),
                                    rewriter.getIndexAttr(1)});
      offset = arith::AddIOp::create(rewriter, loc, offset,
                                     alongColumns ? cols : rows);
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, result, type));
    return success();
  }
};

/// Checks 0 <= begin <= end <= size at run time where not static.
void checkRange(OpBuilder &b, Location loc, Operation *op, Value begin,
                Value end, Value size, StringRef dim) {
  if (getConstantIntValue(begin) && getConstantIntValue(end) &&
      getConstantIntValue(size))
    return;
  Value zero = indexConstant(b, loc, 0);
  Value ok = arith::AndIOp::create(
      b, loc,
      arith::AndIOp::create(
          b, loc,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, zero, begin),
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, begin, end)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end, size));
  check(b, loc, ok, op, Twine(dim) + " range is out of bounds");
}

struct LowerSlice : public AMLSPattern<SliceOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    checkRange(rewriter, loc, op, adaptor.getRowBegin(), adaptor.getRowEnd(),
               dimOf(rewriter, loc, input, 0), "row");
    checkRange(rewriter, loc, op, adaptor.getColBegin(), adaptor.getColEnd(),
               dimOf(rewriter, loc, input, 1), "column");
    Value rows = arith::SubIOp::create(rewriter, loc, adaptor.getRowEnd(),
                                       adaptor.getRowBegin());
    Value cols = arith::SubIOp::create(rewriter, loc, adaptor.getColEnd(),
                                       adaptor.getColBegin());
    RankedTensorType type = tensorType(op.getResult());
    auto dynamicType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, type.getElementType());
    Value slice = tensor::ExtractSliceOp::create(
        rewriter, loc, dynamicType, input,
        SmallVector<OpFoldResult>{adaptor.getRowBegin(), adaptor.getColBegin()},
        SmallVector<OpFoldResult>{rows, cols},
        SmallVector<OpFoldResult>{rewriter.getIndexAttr(1),
                                  rewriter.getIndexAttr(1)});
    rewriter.replaceOp(op, castTo(rewriter, loc, slice, type));
    return success();
  }
};

struct LowerInsertSlice : public AMLSPattern<InsertSliceOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(InsertSliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = adaptor.getSource(), dest = adaptor.getDest();
    checkRange(rewriter, loc, op, adaptor.getRowBegin(), adaptor.getRowEnd(),
               dimOf(rewriter, loc, dest, 0), "row");
    checkRange(rewriter, loc, op, adaptor.getColBegin(), adaptor.getColEnd(),
               dimOf(rewriter, loc, dest, 1), "column");
    Value rows = arith::SubIOp::create(rewriter, loc, adaptor.getRowEnd(),
                                       adaptor.getRowBegin());
    Value cols = arith::SubIOp::create(rewriter, loc, adaptor.getColEnd(),
                                       adaptor.getColBegin());
    checkEqual(rewriter, loc, dimOf(rewriter, loc, source, 0), rows, op,
               "the source's rows differ from the target range");
    checkEqual(rewriter, loc, dimOf(rewriter, loc, source, 1), cols, op,
               "the source's columns differ from the target range");
    auto dynamicType = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic},
        cast<RankedTensorType>(source.getType()).getElementType());
    Value result = tensor::InsertSliceOp::create(
        rewriter, loc, castTo(rewriter, loc, source, dynamicType), dest,
        SmallVector<OpFoldResult>{adaptor.getRowBegin(), adaptor.getColBegin()},
        SmallVector<OpFoldResult>{rows, cols},
        SmallVector<OpFoldResult>{rewriter.getIndexAttr(1),
                                  rewriter.getIndexAttr(1)});
    rewriter.replaceOp(
        op, castTo(rewriter, loc, result, tensorType(op.getResult())));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Data-dependent results: the runtime computes them
//===----------------------------------------------------------------------===//

struct LowerRemoveEmpty : public AMLSPattern<RemoveEmptyOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(RemoveEmptyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Value input = asRuntimeMatrix(rewriter, loc, adaptor.getInput());
    bool rows = op.getMargin() == Margin::Rows;
    Value select = adaptor.getSelect()
                       ? asRuntimeMatrix(rewriter, loc, adaptor.getSelect())
                       : input;
    Value margin = i32Constant(rewriter, loc, rows ? 0 : 1);
    Value useSelect = i32Constant(rewriter, loc, adaptor.getSelect() ? 1 : 0);
    Value kept64 =
        callRuntime(rewriter, loc, op, "amls_rt_count_nonempty",
                    {input, select, margin, useSelect}, rewriter.getI64Type());
    Value kept = arith::IndexCastOp::create(rewriter, loc,
                                            rewriter.getIndexType(), kept64);
    Value resultRows =
        rows ? kept : dimOf(rewriter, loc, adaptor.getInput(), 0);
    Value resultCols =
        rows ? dimOf(rewriter, loc, adaptor.getInput(), 1) : kept;
    rewriter.replaceOp(
        op, tensorFromRuntime(
                rewriter, loc, type, resultRows, resultCols, [&](Value out) {
                  callRuntime(rewriter, loc, op, "amls_rt_remove_empty",
                              {input, select, out, margin, useSelect});
                }));
    return success();
  }
};

struct LowerTable : public AMLSPattern<TableOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(TableOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Value lhs = asRuntimeMatrix(rewriter, loc, adaptor.getLhs());
    Value rhs = asRuntimeMatrix(rewriter, loc, adaptor.getRhs());
    Value weights = adaptor.getWeights()
                        ? asRuntimeMatrix(rewriter, loc, adaptor.getWeights())
                        : lhs;
    Value useWeights = i32Constant(rewriter, loc, adaptor.getWeights() ? 1 : 0);
    auto size = [&](Value given, Value categories) -> Value {
      if (given)
        return given;
      Value max = callRuntime(rewriter, loc, op, "amls_rt_max_category",
                              {categories}, rewriter.getI64Type());
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                        max);
    };
    Value rows = size(adaptor.getRows(), lhs);
    Value cols = size(adaptor.getCols(), rhs);
    rewriter.replaceOp(
        op, tensorFromRuntime(rewriter, loc, type, rows, cols, [&](Value out) {
          callRuntime(rewriter, loc, op, "amls_rt_table",
                      {lhs, rhs, weights, out, useWeights});
        }));
    return success();
  }
};

struct LowerOrder : public AMLSPattern<OrderOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(OrderOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = tensorType(op.getResult());
    Value input = adaptor.getInput();
    Value rows = dimOf(rewriter, loc, input, 0);
    Value cols = op.getIndices() ? indexConstant(rewriter, loc, 1)
                                 : dimOf(rewriter, loc, input, 1);
    Value by = arith::IndexCastOp::create(rewriter, loc, rewriter.getI64Type(),
                                          adaptor.getBy());
    Value matrix = asRuntimeMatrix(rewriter, loc, input);
    Value decreasing = i32Constant(rewriter, loc, op.getDecreasing() ? 1 : 0);
    Value indices = i32Constant(rewriter, loc, op.getIndices() ? 1 : 0);
    rewriter.replaceOp(
        op, tensorFromRuntime(rewriter, loc, type, rows, cols, [&](Value out) {
          callRuntime(rewriter, loc, op, "amls_rt_order",
                      {matrix, out, by, decreasing, indices});
        }));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Sizes, casts, scalars
//===----------------------------------------------------------------------===//

template <typename OpTy, int64_t dim>
struct LowerSize : public AMLSPattern<OpTy> {
  using AMLSPattern<OpTy>::AMLSPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       dimOf(rewriter, op.getLoc(), adaptor.getInput(), dim));
    return success();
  }
};

struct LowerNnz : public AMLSPattern<NnzOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(NnzOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    ReductionBuilder builder{rewriter, loc, adaptor.getInput(), AggAxis::All,
                             i64};
    Value count = builder.reduce(
        0.0,
        [](OpBuilder &b, Location l, Value nonZero, Value acc) -> Value {
          return arith::AddIOp::create(b, l, acc, nonZero);
        },
        {},
        [&](OpBuilder &b, Location l, ValueRange cells) -> Value {
          Value x = cells[0];
          Value zero = arith::ConstantOp::create(b, l, x.getType(),
                                                 b.getZeroAttr(x.getType()));
          Value isNonZero = isa<FloatType>(x.getType())
                                ? arith::CmpFOp::create(
                                      b, l, arith::CmpFPredicate::UNE, x, zero)
                                      .getResult()
                                : arith::CmpIOp::create(
                                      b, l, arith::CmpIPredicate::ne, x, zero)
                                      .getResult();
          return arith::ExtUIOp::create(b, l, b.getI64Type(), isNonZero);
        });
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, count, ValueRange{});
    return success();
  }
};

struct LowerAsScalar : public AMLSPattern<AsScalarOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(AsScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value one = indexConstant(rewriter, loc, 1);
    checkEqual(rewriter, loc, dimOf(rewriter, loc, input, 0), one, op,
               "expects a 1x1 matrix");
    checkEqual(rewriter, loc, dimOf(rewriter, loc, input, 1), one, op,
               "expects a 1x1 matrix");
    Value zero = indexConstant(rewriter, loc, 0);
    rewriter.replaceOpWithNewOp<tensor::ExtractOp>(op, input,
                                                   ValueRange{zero, zero});
    return success();
  }
};

struct LowerAsMatrix : public AMLSPattern<AsMatrixOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(AsMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value matrix = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({1, 1}, input.getType()), input);
    rewriter.replaceOp(
        op, castTo(rewriter, loc, matrix, tensorType(op.getResult())));
    return success();
  }
};

struct LowerCast : public AMLSPattern<CastOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    RankedTensorType type = tensorType(op.getResult());
    // Making a size static asserts it.
    for (int64_t d = 0; d < 2; ++d)
      if (!type.isDynamicDim(d) &&
          cast<RankedTensorType>(input.getType()).isDynamicDim(d))
        checkEqual(rewriter, loc, dimOf(rewriter, loc, input, d),
                   indexConstant(rewriter, loc, type.getDimSize(d)), op,
                   "the matrix does not have the size the cast asserts");
    rewriter.replaceOp(op, castTo(rewriter, loc, input, type));
    return success();
  }
};

struct LowerConvert : public AMLSPattern<ConvertOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(ConvertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto isCSR = [](Type type) {
      return cast<MatrixType>(type).getFormat() == MatrixFormat::CSR;
    };
    if (isCSR(op.getInput().getType()) || isCSR(op.getType()))
      return op.emitOpError("CSR matrices are not supported by the dense "
                            "lowering");
    rewriter.replaceOp(op, castTo(rewriter, op.getLoc(), adaptor.getInput(),
                                  tensorType(op.getResult())));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

/// The iterations of a parfor are independent, so running them in order is
/// one correct schedule; the parallel plan is chosen by --amls-parfor.
struct LowerParfor : public AMLSPattern<ParforOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(ParforOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto loop = scf::ForOp::create(rewriter, loc, adaptor.getLowerBound(),
                                   adaptor.getUpperBound(), adaptor.getStep(),
                                   adaptor.getShared());
    rewriter.eraseBlock(loop.getBody());
    rewriter.inlineRegionBefore(op.getBody(), loop.getRegion(),
                                loop.getRegion().end());
    if (failed(rewriter.convertRegionTypes(&loop.getRegion(),
                                           *getTypeConverter())))
      return failure();
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

/// The loop over the blocks of rows of a row-template operator carries its
/// partial results (one combining kind per result, AggKindArrayAttr) or the
/// blocks of its row-wise results (UnitAttr); the body's amls.yield combines
/// the block's values into them.
constexpr StringLiteral kRowBlockLoopAttr = "amls.row_block_loop";

struct LowerParforYield : public AMLSPattern<YieldOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Also the body of a row-template operator run on an empty block.
    if (!isa<scf::ForOp, scf::ExecuteRegionOp>(op->getParentOp()) ||
        op->getParentOp()->hasAttr(kRowBlockLoopAttr))
      return failure();
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    return success();
  }
};

/// The yield of a row-template body inlined into its loop over blocks of
/// rows: partial results are combined with the loop's accumulators, blocks
/// of row-wise results are inserted at the block's rows of the chunk.
struct LowerRowBlockYield : public AMLSPattern<YieldOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (!loop || !loop->hasAttr(kRowBlockLoopAttr))
      return failure();
    Location loc = op.getLoc();
    auto kinds = dyn_cast<ArrayAttr>(loop->getAttr(kRowBlockLoopAttr));
    MLIRContext *context = rewriter.getContext();
    SmallVector<Value> next;
    for (auto [i, value] : llvm::enumerate(adaptor.getValues())) {
      Value carried = loop.getRegionIterArgs()[i];
      if (!kinds) {
        Value offset = arith::SubIOp::create(
            rewriter, loc, loop.getInductionVar(), loop.getLowerBound());
        SmallVector<OpFoldResult> offsets = {offset, rewriter.getIndexAttr(0)};
        SmallVector<OpFoldResult> sizes = {
            tensor::getMixedSize(rewriter, loc, value, 0),
            tensor::getMixedSize(rewriter, loc, value, 1)};
        SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
        next.push_back(tensor::InsertSliceOp::create(
            rewriter, loc, value, carried, offsets, sizes, strides));
        continue;
      }
      Reduction reduction =
          reductionFor(cast<AggKindAttr>(kinds[i]).getValue());
      auto type = dyn_cast<RankedTensorType>(value.getType());
      if (!type) {
        next.push_back(reduction.combine(rewriter, loc, value, carried));
        continue;
      }
      AffineMap identity = AffineMap::getMultiDimIdentityMap(2, context);
      next.push_back(
          linalg::GenericOp::create(
              rewriter, loc, type, value, carried, {identity, identity},
              iterators({false, false}),
              [&](OpBuilder &nested, Location bodyLoc, ValueRange args) {
                linalg::YieldOp::create(
                    nested, bodyLoc,
                    reduction.combine(nested, bodyLoc, args[0], args[1]));
              })
              .getResult(0));
    }
    rewriter.modifyOpInPlace(loop,
                             [&] { loop->removeAttr(kRowBlockLoopAttr); });
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, next);
    return success();
  }
};

/// Bytes of the row inputs one block of a row-template operator reads: the
/// block stays in the L2 cache while the body's ops read it several times.
constexpr int64_t kRowBlockBytes = 256 * 1024;
/// Chunks of blocks a row-template operator is split into, each computed by
/// one parallel iteration with its own partial results.
constexpr int64_t kRowChunks = 32;

/// Reduces dimension 0 of `partials` (one partial result per chunk) with
/// `reduction`: a tensor of the other dimensions (`sizes`), or the scalar
/// for 1-D partials.
Value mergeChunkPartials(OpBuilder &b, Location loc, Value partials,
                         ArrayRef<OpFoldResult> sizes,
                         const Reduction &reduction) {
  int64_t rank = cast<RankedTensorType>(partials.getType()).getRank();
  SmallVector<bool> reduced(rank, false);
  reduced[0] = true;
  Value merged = reducePartials(b, loc, partials, reduced, sizes,
                                reduction.init, reduction.combine);
  if (rank == 1)
    return tensor::ExtractOp::create(b, loc, merged, ValueRange{});
  return merged;
}

/// A row-template operator: an scf.forall over chunks of row blocks, each
/// chunk a loop over its blocks that runs the body on slices of the row
/// inputs (which stay in cache while the body's ops read them) and
/// accumulates partial results or writes the blocks of row-wise results;
/// the chunks' partial results are merged afterwards. BLAS calls in the
/// body run single-threaded: the chunks are the parallelism. Sizes of the
/// results that their types leave open come from running the body on an
/// empty block (no rows, no work) first.
LogicalResult lowerRowTemplate(FusedOp op, FusedOp::Adaptor adaptor,
                               ConversionPatternRewriter &rewriter,
                               const TypeConverter &converter) {
  Location loc = op.getLoc();
  ValueRange operands = adaptor.getInputs();
  unsigned numRowInputs = op.getRowInputs().value_or(1);
  Value main = operands.front();
  if (!isa<RankedTensorType>(main.getType()))
    return op.emitOpError("expects a matrix as its main input");
  Value rows = dimOf(rewriter, loc, main, 0);
  int64_t rowBytes = 0;
  for (auto [i, operand] : llvm::enumerate(operands.take_front(numRowInputs))) {
    auto type = cast<RankedTensorType>(operand.getType());
    if (i > 0)
      checkEqual(rewriter, loc, dimOf(rewriter, loc, operand, 0), rows, op,
                 "row input #" + std::to_string(i) +
                     " differs in rows from the main input");
    int64_t cols = type.isDynamicDim(1) ? 1024 : type.getDimSize(1);
    rowBytes += cols * std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
  }
  int64_t blockRows = std::clamp<int64_t>(
      kRowBlockBytes / std::max<int64_t>(rowBytes, 1) / 8 * 8, 8, 1024);

  Block &body = op.getBody().front();
  // The body's arguments for rows [begin, begin + length) (the arguments
  // may have less precise types than the inputs).
  auto bodyArguments = [&](Value begin, Value length) {
    SmallVector<Value> arguments;
    for (auto [i, operand, arg] :
         llvm::enumerate(operands, body.getArguments())) {
      Value value = operand;
      if (i < numRowInputs) {
        SmallVector<OpFoldResult> offsets = {begin, rewriter.getIndexAttr(0)};
        SmallVector<OpFoldResult> sizes = {
            length, tensor::getMixedSize(rewriter, loc, operand, 1)};
        SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
        value = tensor::ExtractSliceOp::create(rewriter, loc, operand, offsets,
                                               sizes, strides);
      }
      Type argType = converter.convertType(arg.getType());
      arguments.push_back(isa<RankedTensorType>(argType)
                              ? castTo(rewriter, loc, value, argType)
                              : value);
    }
    return arguments;
  };

  std::optional<ArrayAttr> kinds = op.getAggregate();
  SmallVector<Type> resultTypes;
  for (Value result : op.getResults())
    resultTypes.push_back(converter.convertType(result.getType()));
  Value zero = indexConstant(rewriter, loc, 0);
  // Sizes of the results (partial results, or the columns of row-wise
  // results).
  SmallVector<SmallVector<OpFoldResult>> resultSizes(resultTypes.size());
  bool dynamicSizes = false;
  for (auto [r, type] : llvm::enumerate(resultTypes))
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      for (int64_t d = 0; d < 2; ++d)
        resultSizes[r].push_back(rewriter.getIndexAttr(tensor.getDimSize(d)));
      dynamicSizes |= kinds ? !tensor.hasStaticShape() : tensor.isDynamicDim(1);
    }
  if (dynamicSizes) {
    auto yield = cast<YieldOp>(body.getTerminator());
    SmallVector<Type> probeTypes;
    for (Type type : yield.getValues().getTypes())
      probeTypes.push_back(converter.convertType(type));
    SmallVector<Value> arguments = bodyArguments(zero, zero);
    auto probe = scf::ExecuteRegionOp::create(rewriter, loc, probeTypes);
    Block *probeBlock = new Block();
    probe.getRegion().push_back(probeBlock);
    rewriter.cloneRegionBefore(op.getBody(), probe.getRegion(),
                               probe.getRegion().end());
    Block *copy = &probe.getRegion().back();
    rewriter.inlineBlockBefore(copy, probeBlock, probeBlock->end(), arguments);
    for (auto [r, value] : llvm::enumerate(probe.getResults()))
      if (isa<RankedTensorType>(value.getType()))
        for (int64_t d = kinds ? 0 : 1; d < 2; ++d)
          resultSizes[r][d] = tensor::getMixedSize(rewriter, loc, value, d);
  }

  auto ceilDiv = [&](Value a, Value b) -> Value {
    return arith::CeilDivUIOp::create(rewriter, loc, a, b);
  };
  Value one = indexConstant(rewriter, loc, 1);
  Value block = indexConstant(rewriter, loc, blockRows);
  Value blocks = ceilDiv(rows, block);
  Value chunks = arith::MinUIOp::create(
      rewriter, loc, blocks, indexConstant(rewriter, loc, kRowChunks));
  Value chunkRows = arith::MulIOp::create(
      rewriter, loc,
      ceilDiv(blocks, arith::MaxUIOp::create(rewriter, loc, chunks, one)),
      block);

  SmallVector<Value> outs;
  for (auto [r, type] : llvm::enumerate(resultTypes)) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    Type elementType = tensor ? tensor.getElementType() : type;
    // Row-wise results in full; otherwise one partial result per chunk.
    SmallVector<OpFoldResult> sizes = {chunks};
    if (!kinds)
      sizes = {rows, resultSizes[r][1]};
    else if (tensor)
      llvm::append_range(sizes, resultSizes[r]);
    outs.push_back(tensor::EmptyOp::create(rewriter, loc, sizes, elementType));
  }

  callRuntime(rewriter, loc, op, "amls_rt_blas_serial",
              {i32Constant(rewriter, loc, 1)});
  SmallVector<OpFoldResult> upperBounds = {chunks};
  auto forall =
      scf::ForallOp::create(rewriter, loc, upperBounds, outs, std::nullopt);
  {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(forall.getTerminator());
    Value chunk = forall.getInductionVar(0);
    Value lo = arith::MulIOp::create(rewriter, loc, chunk, chunkRows);
    Value hi = arith::MinUIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, lo, chunkRows),
        rows);
    // An empty chunk (past the last block) still writes identity partials.
    lo = arith::MinUIOp::create(rewriter, loc, lo, hi);
    Value chunkSize = arith::SubIOp::create(rewriter, loc, hi, lo);
    SmallVector<OpFoldResult> unitStrides(3, rewriter.getIndexAttr(1));
    SmallVector<Value> inits;
    for (auto [r, type] : llvm::enumerate(resultTypes)) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!kinds) {
        SmallVector<OpFoldResult> offsets = {lo, rewriter.getIndexAttr(0)};
        SmallVector<OpFoldResult> sizes = {chunkSize, resultSizes[r][1]};
        inits.push_back(tensor::ExtractSliceOp::create(
            rewriter, loc, forall.getRegionIterArgs()[r], offsets, sizes,
            ArrayRef(unitStrides).take_front(2)));
        continue;
      }
      Reduction reduction =
          reductionFor(cast<AggKindAttr>((*kinds)[r]).getValue());
      Type elementType = tensor ? tensor.getElementType() : type;
      Value identity =
          reductionInit(rewriter, loc, elementType, reduction.init);
      if (!tensor) {
        inits.push_back(identity);
        continue;
      }
      Value empty =
          tensor::EmptyOp::create(rewriter, loc, resultSizes[r], elementType);
      inits.push_back(
          linalg::FillOp::create(rewriter, loc, identity, empty).getResult(0));
    }

    auto loop = scf::ForOp::create(rewriter, loc, lo, hi, block, inits);
    loop->setAttr(kRowBlockLoopAttr,
                  kinds ? Attribute(*kinds) : rewriter.getUnitAttr());
    rewriter.setInsertionPointToStart(loop.getBody());
    Value begin = loop.getInductionVar();
    Value end = arith::MinUIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, begin, block), hi);
    Value length = arith::SubIOp::create(rewriter, loc, end, begin);
    SmallVector<Value> arguments = bodyArguments(begin, length);
    rewriter.inlineBlockBefore(&body, loop.getBody(), loop.getBody()->end(),
                               arguments);

    rewriter.setInsertionPointToStart(forall.getTerminator().getBody());
    for (auto [r, type] : llvm::enumerate(resultTypes)) {
      Value value = loop.getResult(r);
      Value shared = forall.getRegionIterArgs()[r];
      auto tensor = dyn_cast<RankedTensorType>(type);
      SmallVector<OpFoldResult> offsets, sizes;
      if (!kinds) {
        offsets = {lo, rewriter.getIndexAttr(0)};
        sizes = {chunkSize, resultSizes[r][1]};
      } else {
        offsets.push_back(chunk);
        sizes.push_back(rewriter.getIndexAttr(1));
        if (!tensor) {
          OpBuilder::InsertionGuard scalarGuard(rewriter);
          rewriter.setInsertionPoint(forall.getTerminator());
          value = tensor::FromElementsOp::create(
              rewriter, loc, RankedTensorType::get({1}, type), value);
        } else {
          offsets.append(2, rewriter.getIndexAttr(0));
          llvm::append_range(sizes, resultSizes[r]);
        }
      }
      tensor::ParallelInsertSliceOp::create(
          rewriter, loc, value, shared, offsets, sizes,
          ArrayRef(unitStrides).take_front(offsets.size()));
    }
  }
  callRuntime(rewriter, loc, op, "amls_rt_blas_serial",
              {i32Constant(rewriter, loc, 0)});

  SmallVector<Value> results;
  for (auto [r, type] : llvm::enumerate(resultTypes)) {
    Value value = forall.getResult(r);
    if (kinds)
      value = mergeChunkPartials(
          rewriter, loc, value, resultSizes[r],
          reductionFor(cast<AggKindAttr>((*kinds)[r]).getValue()));
    results.push_back(isa<RankedTensorType>(type)
                          ? castTo(rewriter, loc, value, type)
                          : value);
  }
  rewriter.replaceOp(op, results);
  return success();
}

/// An outer-template operator: one linalg.generic over the main input's
/// cells (rows in parallel); where the main input's cell is zero the body
/// is skipped (the result is zero there, the sum unchanged), elsewhere the
/// cell of U %*% t(V) is the dot product of row i of U and row j of V.
LogicalResult lowerOuterTemplate(FusedOp op, FusedOp::Adaptor adaptor,
                                 ConversionPatternRewriter &rewriter,
                                 const TypeConverter &converter) {
  Location loc = op.getLoc();
  MLIRContext *context = rewriter.getContext();
  ValueRange operands = adaptor.getInputs();
  Value main = operands[0], u = operands[1], v = operands[2];
  for (Value matrix : {main, u, v})
    if (!isa<RankedTensorType>(matrix.getType()))
      return op.emitOpError("expects matrices as main input and factors");
  if (llvm::any_of(operands.drop_front(3), [](Value operand) {
        return isa<RankedTensorType>(operand.getType());
      }))
    return op.emitOpError("the outer template takes scalars besides the "
                          "main input and the factors");
  auto mainType = cast<RankedTensorType>(main.getType());
  Type elementType = mainType.getElementType();
  Value rows = dimOf(rewriter, loc, main, 0),
        cols = dimOf(rewriter, loc, main, 1), rank = dimOf(rewriter, loc, u, 1);
  checkEqual(rewriter, loc, dimOf(rewriter, loc, u, 0), rows, op,
             "factor U differs in rows from the main input");
  checkEqual(rewriter, loc, dimOf(rewriter, loc, v, 0), cols, op,
             "factor V differs in rows from the main input's columns");
  checkEqual(rewriter, loc, dimOf(rewriter, loc, v, 1), rank, op,
             "factors U and V differ in columns");

  bool aggregated = op.getAggregate().has_value();
  Reduction reduction = reductionFor(AggKind::Sum);
  Value zero = floatConstant(rewriter, loc, elementType, 0.0);
  Value init;
  AffineMap outputMap;
  SmallVector<utils::IteratorType> iteratorTypes = iterators({false, false});
  if (aggregated) {
    // One partial sum per row: rows in parallel, merged afterwards.
    Value empty = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<OpFoldResult>{rows}, elementType);
    init = linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    outputMap = AffineMap::get(2, 0, {getAffineDimExpr(0, context)}, context);
    iteratorTypes = iterators({false, true});
  } else {
    init = emptyTensor(
        rewriter, loc,
        cast<RankedTensorType>(converter.convertType(op.getType(0))),
        {rows, cols});
    outputMap = AffineMap::getMultiDimIdentityMap(2, context);
  }

  Block &body = op.getBody().front();
  auto generic = linalg::GenericOp::create(
      rewriter, loc, init.getType(), main, init,
      {AffineMap::getMultiDimIdentityMap(2, context), outputMap}, iteratorTypes,
      [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
        Value cell = args[0], acc = args[1];
        // linalg.index must be in the generic's own body.
        Value i = linalg::IndexOp::create(b, bodyLoc, 0);
        Value j = linalg::IndexOp::create(b, bodyLoc, 1);
        Value nonZero = arith::CmpFOp::create(
            b, bodyLoc, arith::CmpFPredicate::UNE, cell, zero);
        auto ifOp = scf::IfOp::create(
            b, bodyLoc, nonZero,
            [&](OpBuilder &then, Location thenLoc) {
              auto dot = scf::ForOp::create(
                  then, thenLoc, indexConstant(then, thenLoc, 0), rank,
                  indexConstant(then, thenLoc, 1), ValueRange{zero},
                  [&](OpBuilder &inner, Location innerLoc, Value k,
                      ValueRange sums) {
                    Value uik = tensor::ExtractOp::create(inner, innerLoc, u,
                                                          ValueRange{i, k});
                    Value vjk = tensor::ExtractOp::create(inner, innerLoc, v,
                                                          ValueRange{j, k});
                    Value product =
                        arith::MulFOp::create(inner, innerLoc, uik, vjk);
                    scf::YieldOp::create(
                        inner, innerLoc,
                        ValueRange{arith::AddFOp::create(inner, innerLoc,
                                                         sums[0], product)});
                  });
              IRMapping mapping;
              mapping.map(body.getArgument(0), cell);
              mapping.map(body.getArgument(1), dot.getResult(0));
              for (auto [arg, operand] :
                   llvm::zip(body.getArguments().drop_front(2),
                             operands.drop_front(3)))
                mapping.map(arg, operand);
              for (Operation &bodyOp : body.without_terminator())
                then.clone(bodyOp, mapping);
              Value value = mapping.lookup(body.getTerminator()->getOperand(0));
              if (aggregated)
                value = reduction.combine(then, thenLoc, value, acc);
              scf::YieldOp::create(then, thenLoc, value);
            },
            [&](OpBuilder &otherwise, Location otherwiseLoc) {
              scf::YieldOp::create(otherwise, otherwiseLoc,
                                   aggregated ? acc : zero);
            });
        linalg::YieldOp::create(b, bodyLoc, ifOp.getResult(0));
      });
  Value result = generic.getResult(0);
  if (aggregated) {
    Value merged = mergePartials(rewriter, loc, result, reduction,
                                 /*sumOfSquares=*/false);
    rewriter.replaceOp(
        op, tensor::ExtractOp::create(rewriter, loc, merged, ValueRange{})
                .getResult());
    return success();
  }
  rewriter.replaceOp(
      op, castTo(rewriter, loc, result, converter.convertType(op.getType(0))));
  return success();
}

/// A cell or multi-aggregate fused operator: one linalg.generic over the
/// main input's cells whose body is the fused body; side inputs broadcast
/// where their type has size 1 along a dimension the main input does not,
/// scalars are used directly; each aggregated result is one reduction
/// output of the same loop nest.
struct LowerFused : public AMLSPattern<FusedOp> {
  using AMLSPattern::AMLSPattern;
  LogicalResult
  matchAndRewrite(FusedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getKind() == FusedTemplate::Row)
      return lowerRowTemplate(op, adaptor, rewriter, *getTypeConverter());
    if (op.getKind() == FusedTemplate::Outer)
      return lowerOuterTemplate(op, adaptor, rewriter, *getTypeConverter());
    if (op.getKind() != FusedTemplate::Cell &&
        op.getKind() != FusedTemplate::MAgg)
      return op.emitOpError("the ") << stringifyFusedTemplate(op.getKind())
                                    << " template has no lowering yet";
    Location loc = op.getLoc();
    MLIRContext *context = rewriter.getContext();
    ValueRange operands = adaptor.getInputs();
    Value main = operands.front();
    auto mainType = dyn_cast<RankedTensorType>(main.getType());
    if (!mainType)
      return op.emitOpError("expects a matrix as its main input");
    Value rows = dimOf(rewriter, loc, main, 0),
          cols = dimOf(rewriter, loc, main, 1);

    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<int> inputOf(operands.size(), -1);
    for (auto [i, operand] : llvm::enumerate(operands)) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        continue;
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < 2; ++d) {
        bool broadcast = type.getDimSize(d) == 1 && mainType.getDimSize(d) != 1;
        exprs.push_back(broadcast ? getAffineConstantExpr(0, context)
                                  : getAffineDimExpr(d, context));
        if (!broadcast && i > 0 &&
            (type.isDynamicDim(d) || mainType.isDynamicDim(d)))
          checkEqual(rewriter, loc, dimOf(rewriter, loc, operand, d),
                     d == 0 ? rows : cols, op,
                     "input #" + std::to_string(i) +
                         " differs in size from the main input");
      }
      inputOf[i] = inputs.size();
      inputs.push_back(operand);
      maps.push_back(AffineMap::get(2, 0, exprs, context));
    }

    std::optional<ArrayAttr> kinds = op.getAggregate();
    AggAxis axis = op.getAxis().value_or(AggAxis::All);
    // Large static aggregates accumulate partial results (per block of rows
    // for full aggregates, per lane for row aggregates), merged afterwards.
    BlockedReduction blocked;
    LaneSplit split;
    if (kinds && !llvm::any_of(inputs, producedByReduction)) {
      if (axis == AggAxis::All)
        blocked =
            blockedReductionFor(main, llvm::all_of(inputs, [&](Value input) {
                                  return input.getType() == mainType;
                                }));
      else if (axis == AggAxis::Row)
        split = laneSplitFor(main);
    }
    for (auto [input, map] : llvm::zip(inputs, maps)) {
      if (split)
        std::tie(input, map) = split.bind(rewriter, loc, input, mainType);
      else if (blocked)
        std::tie(input, map) = blocked.bind(rewriter, loc, input, mainType);
    }
    SmallVector<Value> inits;
    SmallVector<Type> initTypes;
    SmallVector<Reduction> reductions;
    for (auto [r, result] : llvm::enumerate(op.getResults())) {
      Type resultType = getTypeConverter()->convertType(result.getType());
      if (!kinds) {
        auto tensor = cast<RankedTensorType>(resultType);
        inits.push_back(emptyTensor(rewriter, loc, tensor, {rows, cols}));
        initTypes.push_back(tensor);
        maps.push_back(AffineMap::getMultiDimIdentityMap(2, context));
        continue;
      }
      Type elementType = resultType;
      if (auto tensor = dyn_cast<RankedTensorType>(resultType))
        elementType = tensor.getElementType();
      ReductionBuilder builder{rewriter, loc, main, axis, elementType};
      auto [outputType, sizes] = builder.outputShape();
      AffineMap outputMap = builder.outputMap();
      if (blocked) {
        outputType = RankedTensorType::get(
            {blocked.blocks,
             blocked.regrouped ? blocked.lanes : mainType.getDimSize(1)},
            elementType);
        sizes = {};
        outputMap = blocked.partialMap(context);
      }
      if (split) {
        outputType = RankedTensorType::get(
            {mainType.getDimSize(0), LaneSplit::kLanes}, elementType);
        sizes = {};
        outputMap = AffineMap::get(
            3, 0, {getAffineDimExpr(0, context), getAffineDimExpr(2, context)},
            context);
      }
      Reduction reduction =
          reductionFor(cast<AggKindAttr>((*kinds)[r]).getValue());
      Value empty = tensor::EmptyOp::create(
          rewriter, loc, outputType.getShape(), elementType,
          ReductionBuilder::dynamicOnly(outputType, sizes));
      inits.push_back(
          linalg::FillOp::create(
              rewriter, loc,
              reductionInit(rewriter, loc, elementType, reduction.init), empty)
              .getResult(0));
      initTypes.push_back(outputType);
      maps.push_back(outputMap);
      reductions.push_back(std::move(reduction));
    }
    SmallVector<bool> reduced = {false, false};
    if (kinds)
      reduced = {axis != AggAxis::Row, axis != AggAxis::Col};
    SmallVector<utils::IteratorType> iteratorTypes = iterators(reduced);
    if (blocked)
      iteratorTypes = blocked.iterators();
    if (split)
      iteratorTypes = split.iterators();

    Block &body = op.getBody().front();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, initTypes, inputs, inits, maps, iteratorTypes,
        [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          IRMapping mapping;
          for (auto [i, operand] : llvm::enumerate(operands))
            mapping.map(body.getArgument(i),
                        inputOf[i] >= 0 ? args[inputOf[i]] : operand);
          for (Operation &nested : body.without_terminator())
            b.clone(nested, mapping);
          SmallVector<Value> yielded;
          ValueRange outputs = args.drop_front(inputs.size());
          for (auto [r, value] : llvm::enumerate(
                   cast<YieldOp>(body.getTerminator()).getValues())) {
            Value cell = mapping.lookupOrDefault(value);
            yielded.push_back(
                kinds ? reductions[r].combine(b, bodyLoc, cell, outputs[r])
                      : cell);
          }
          linalg::YieldOp::create(b, bodyLoc, yielded);
        });

    SmallVector<Value> results;
    for (auto [r, result] : llvm::enumerate(op.getResults())) {
      Value value = generic.getResult(r);
      Type resultType = getTypeConverter()->convertType(result.getType());
      if (kinds && axis == AggAxis::All) {
        if (blocked)
          value = mergePartials(rewriter, loc, value, reductions[r],
                                cast<AggKindAttr>((*kinds)[r]).getValue() ==
                                    AggKind::SumSq);
        value = tensor::ExtractOp::create(rewriter, loc, value, ValueRange{});
      } else if (kinds) {
        if (split)
          value = mergePartials(rewriter, loc, value, reductions[r],
                                cast<AggKindAttr>((*kinds)[r]).getValue() ==
                                    AggKind::SumSq,
                                /*perRow=*/true);
        bool perRow = axis == AggAxis::Row;
        int64_t length = cast<RankedTensorType>(value.getType()).getDimSize(0);
        OpFoldResult lengthSize = getAsOpFoldResult(perRow ? rows : cols);
        SmallVector<OpFoldResult> shape =
            perRow ? SmallVector<OpFoldResult>{lengthSize,
                                               rewriter.getIndexAttr(1)}
                   : SmallVector<OpFoldResult>{rewriter.getIndexAttr(1),
                                               lengthSize};
        auto expandedType = RankedTensorType::get(
            perRow ? SmallVector<int64_t>{length, 1}
                   : SmallVector<int64_t>{1, length},
            cast<RankedTensorType>(value.getType()).getElementType());
        value = tensor::ExpandShapeOp::create(
            rewriter, loc, expandedType, value,
            SmallVector<ReassociationIndices>{{0, 1}}, shape);
        value = castTo(rewriter, loc, value, resultType);
      } else {
        value = castTo(rewriter, loc, value, resultType);
      }
      results.push_back(value);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct ConvertAMLSToLinalgPass
    : public amls::impl::ConvertAMLSToLinalgBase<ConvertAMLSToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion([](MatrixType type) -> Type {
      return RankedTensorType::get({type.getRows(), type.getCols()},
                                   type.getElementType());
    });
    auto materialize = [](OpBuilder &b, Type type, ValueRange inputs,
                          Location loc) -> Value {
      return UnrealizedConversionCastOp::create(b, loc, type, inputs)
          .getResult(0);
    };
    converter.addSourceMaterialization(materialize);
    converter.addTargetMaterialization(materialize);

    ConversionTarget target(*context);
    target.addIllegalDialect<AMLSDialect>();
    target.addLegalDialect<
        arith::ArithDialect, bufferization::BufferizationDialect,
        cf::ControlFlowDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
        math::MathDialect, memref::MemRefDialect, tensor::TensorDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    // Canonicalization turns an scf.if that picks one of two matrices into
    // arith.select on matrices.
    target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp, arith::SelectOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addLegalOp<ModuleOp, scf::ExecuteRegionOp, scf::ForallOp,
                      scf::InParallelOp>();

    RewritePatternSet patterns(context);
    populateAMLSToLinalgConversionPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::amls::populateAMLSToLinalgConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<LowerElementwise>(converter, context);
  patterns.add<LowerFill, LowerConstant, LowerSeq, LowerRand, LowerRead,
               LowerWrite, LowerPrint, LowerMatmul, LowerTsmm, LowerMMChain,
               LowerAgg, LowerTrace, LowerCumAgg, LowerTranspose, LowerReshape,
               LowerRev, LowerDiag, LowerConcat<CBindOp, true>,
               LowerConcat<RBindOp, false>, LowerSlice, LowerInsertSlice,
               LowerRemoveEmpty, LowerTable, LowerOrder, LowerSize<NRowOp, 0>,
               LowerSize<NColOp, 1>, LowerNnz, LowerAsScalar, LowerAsMatrix,
               LowerCast, LowerConvert, LowerParfor, LowerParforYield,
               LowerRowBlockYield, LowerFused, LowerMessage<PrintfOp, 0>,
               LowerMessage<StopOp, 1>, LowerMatrixSelect>(converter, context);
}
