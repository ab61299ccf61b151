//===- RuntimeABI.cpp - The runtime functions compiled code calls ---------===//

#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Runtime/ABI.h"
#include "AMLS/Support/StorageLayout.h"

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
static_assert(
    static_cast<int32_t>(FrameValueType::String) == AMLS_FRAME_STRING &&
        static_cast<int32_t>(FrameValueType::FP64) == AMLS_FRAME_FP64 &&
        static_cast<int32_t>(FrameValueType::FP32) == AMLS_FRAME_FP32 &&
        static_cast<int32_t>(FrameValueType::INT64) == AMLS_FRAME_INT64 &&
        static_cast<int32_t>(FrameValueType::INT32) == AMLS_FRAME_INT32 &&
        static_cast<int32_t>(FrameValueType::Boolean) == AMLS_FRAME_BOOLEAN,
    "amls::FrameValueType differs from AmlsFrameValueType (ABI.h)");
static_assert(static_cast<int32_t>(RandPdf::Uniform) == AMLS_PDF_UNIFORM &&
                  static_cast<int32_t>(RandPdf::Normal) == AMLS_PDF_NORMAL,
              "amls::RandPdf differs from AmlsRandomPdf (ABI.h)");
static_assert(static_cast<int32_t>(MatrixFormat::Dense) == AMLS_MATRIX_DENSE &&
                  static_cast<int32_t>(MatrixFormat::CSR) == AMLS_MATRIX_CSR &&
                  static_cast<int32_t>(MatrixFormat::Compressed) ==
                      AMLS_MATRIX_COMPRESSED,
              "amls::MatrixFormat differs from AmlsMatrixFormat (ABI.h)");
static_assert(
    static_cast<int32_t>(ParforPartitioner::Naive) == AMLS_PARFOR_NAIVE &&
        static_cast<int32_t>(ParforPartitioner::Static) == AMLS_PARFOR_STATIC &&
        static_cast<int32_t>(ParforPartitioner::Fixed) == AMLS_PARFOR_FIXED &&
        static_cast<int32_t>(ParforPartitioner::Factoring) ==
            AMLS_PARFOR_FACTORING,
    "amls::ParforPartitioner differs from AmlsParforPartitioner (ABI.h)");

static_assert(static_cast<int32_t>(AggKind::Sum) == AMLS_AGG_SUM &&
                  static_cast<int32_t>(AggKind::SumSq) == AMLS_AGG_SUMSQ &&
                  static_cast<int32_t>(AggKind::Min) == AMLS_AGG_MIN &&
                  static_cast<int32_t>(AggKind::Max) == AMLS_AGG_MAX,
              "amls::AggKind differs from AmlsAggKind (ABI.h)");
static_assert(static_cast<int32_t>(CumAggKind::CumSum) == AMLS_CUMAGG_SUM &&
                  static_cast<int32_t>(CumAggKind::CumProd) ==
                      AMLS_CUMAGG_PROD &&
                  static_cast<int32_t>(CumAggKind::CumMin) == AMLS_CUMAGG_MIN &&
                  static_cast<int32_t>(CumAggKind::CumMax) == AMLS_CUMAGG_MAX,
              "amls::CumAggKind differs from AmlsCumAggKind (ABI.h)");
static_assert(static_cast<int32_t>(PoolingKind::Max) == AMLS_POOL_MAX &&
                  static_cast<int32_t>(PoolingKind::Avg) == AMLS_POOL_AVG,
              "amls::PoolingKind differs from AmlsPoolKind (ABI.h)");
static_assert(static_cast<int32_t>(Distribution::Normal) == AMLS_DIST_NORMAL &&
                  static_cast<int32_t>(Distribution::Exp) == AMLS_DIST_EXP &&
                  static_cast<int32_t>(Distribution::ChiSquared) ==
                      AMLS_DIST_CHISQ &&
                  static_cast<int32_t>(Distribution::F) == AMLS_DIST_F &&
                  static_cast<int32_t>(Distribution::T) == AMLS_DIST_T,
              "amls::Distribution differs from AmlsDistribution (ABI.h)");
static_assert(static_cast<int32_t>(Margin::Rows) == AMLS_MARGIN_ROWS &&
                  static_cast<int32_t>(Margin::Cols) == AMLS_MARGIN_COLS,
              "amls::Margin differs from AmlsMargin (ABI.h)");

namespace {

/// The C types of runtime function parameters.
///
/// `CSR` stands for the parameters of a CSR matrix, its fields in
/// StorageLayouts.def: row pointers (VectorI64), column indices
/// (VectorI32), values (VectorF64) and the number of columns (I64).
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

/// The spellings of include/AMLS/Runtime/RuntimeFunctions.def's columns.
namespace def {
constexpr ABIType I32 = ABIType::I32, I64 = ABIType::I64, F64 = ABIType::F64,
                  Ptr = ABIType::Ptr, MatrixF64 = ABIType::MatrixF64,
                  MatrixF32 = ABIType::MatrixF32,
                  VectorI64 = ABIType::VectorI64,
                  VectorI32 = ABIType::VectorI32,
                  VectorF64 = ABIType::VectorF64,
                  BufferI64 = ABIType::BufferI64,
                  BufferI32 = ABIType::BufferI32,
                  BufferF64 = ABIType::BufferF64, CSR = ABIType::CSR;
constexpr std::nullopt_t Void = std::nullopt;
constexpr bool MayFail = true, NoFail = false;
constexpr bool Device = true, Host = false;
constexpr bool CInterface = true, C = false;
} // namespace def

/// The DeviceTwin column's names: the functions, and None.
namespace twin {
#define AMLS_RUNTIME_FUNCTION(Name, ...)                                       \
  constexpr RuntimeFunction Name = RuntimeFunction::Name;
#include "AMLS/Runtime/RuntimeFunctions.def"
constexpr RuntimeFunction None = RuntimeFunction(-1);
} // namespace twin

#define AMLS_UNPAREN(...) __VA_ARGS__

RuntimeSignature getSignature(RuntimeFunction function) {
  using namespace def;
  switch (function) {
#define AMLS_RUNTIME_FUNCTION(Name, Symbol, Interface, Result, Inputs, ...)    \
  case RuntimeFunction::Name:                                                  \
    return {#Symbol, {AMLS_UNPAREN Inputs}, Result};
#include "AMLS/Runtime/RuntimeFunctions.def"
  }
  llvm_unreachable("unknown runtime function");
}

/// A row's `Interface` column says what its types imply: a function taking
/// or returning a memref is called through its `_mlir_ciface_` wrapper.
namespace def {
constexpr bool passesMemRef(ABIType type) {
  return type != ABIType::I32 && type != ABIType::I64 && type != ABIType::F64 &&
         type != ABIType::Ptr;
}
template <typename... Types> constexpr bool anyMemRef(Types... types) {
  return (false || ... || passesMemRef(types));
}
constexpr bool anyMemRef(std::nullopt_t) { return false; }
#define AMLS_RUNTIME_FUNCTION(Name, Symbol, Interface, Result, Inputs, ...)    \
  static_assert(Interface == (anyMemRef(Result) || anyMemRef Inputs),          \
                #Symbol ": its Interface column disagrees with its types");
#include "AMLS/Runtime/RuntimeFunctions.def"
} // namespace def

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

/// The ABI type of a storage field (StorageLayouts.def spells both alike).
ABIType toABIType(::amls::layout::FieldType type) {
  switch (type) {
#define AMLS_FIELD_TYPE(Name)                                                  \
  case ::amls::layout::FieldType::Name:                                        \
    return ABIType::Name;
    AMLS_FIELD_TYPE(MatrixF64)
    AMLS_FIELD_TYPE(VectorI64)
    AMLS_FIELD_TYPE(VectorI32)
    AMLS_FIELD_TYPE(VectorF64)
    AMLS_FIELD_TYPE(I64)
#undef AMLS_FIELD_TYPE
  }
  llvm_unreachable("unknown storage field type");
}

/// The parameters a CSR argument stands for: its layout's fields.
constexpr unsigned kCSRWidth = ::amls::layout::getLayout(AMLS_MATRIX_CSR).size;

void appendMLIRTypes(MLIRContext *context, ABIType type,
                     SmallVectorImpl<Type> &types) {
  if (type != ABIType::CSR) {
    types.push_back(toMLIRType(context, type));
    return;
  }
  for (const ::amls::layout::FieldInfo &field :
       ::amls::layout::getLayout(AMLS_MATRIX_CSR))
    types.push_back(toMLIRType(context, toABIType(field.type)));
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
#define AMLS_RUNTIME_FUNCTION(Name, Symbol, ...)                               \
  names[#Symbol] = RuntimeFunction::Name;
#include "AMLS/Runtime/RuntimeFunctions.def"
    return names;
  }();
  auto it = byName.find(call.getCallee());
  if (it == byName.end())
    return std::nullopt;
  return it->second;
}

bool mlir::amls::runtimeFunctionMayFail(RuntimeFunction function) {
  switch (function) {
#define AMLS_RUNTIME_FUNCTION(Name, Symbol, Interface, Result, Inputs,         \
                              Failure, ...)                                    \
  case RuntimeFunction::Name:                                                  \
    return def::Failure;
#include "AMLS/Runtime/RuntimeFunctions.def"
  }
  llvm_unreachable("unknown runtime function");
}

std::optional<RuntimeFunction>
mlir::amls::getCusparseVersion(RuntimeFunction function) {
  RuntimeFunction result = twin::None;
  switch (function) {
#define AMLS_RUNTIME_FUNCTION(Name, Symbol, Interface, Result, Inputs,         \
                              Failure, Place, DeviceTwin, ...)                 \
  case RuntimeFunction::Name:                                                  \
    result = twin::DeviceTwin;                                                 \
    break;
#include "AMLS/Runtime/RuntimeFunctions.def"
  }
  if (result == twin::None)
    return std::nullopt;
  return result;
}

bool mlir::amls::runtimeFunctionRunsOnDevice(RuntimeFunction function) {
  switch (function) {
#define AMLS_RUNTIME_FUNCTION(Name, Symbol, Interface, Result, Inputs,         \
                              Failure, Place, ...)                             \
  case RuntimeFunction::Name:                                                  \
    return def::Place;
#include "AMLS/Runtime/RuntimeFunctions.def"
  }
  llvm_unreachable("unknown runtime function");
}

std::optional<unsigned>
mlir::amls::getHostReadOperand(RuntimeFunction function) {
  int operand = -1;
  switch (function) {
#define AMLS_RUNTIME_FUNCTION(Name, Symbol, Interface, Result, Inputs,         \
                              Failure, Place, DeviceTwin, HostReadOperand)     \
  case RuntimeFunction::Name:                                                  \
    operand = HostReadOperand;                                                 \
    break;
#include "AMLS/Runtime/RuntimeFunctions.def"
  }
  if (operand < 0)
    return std::nullopt;
  return unsigned(operand);
}

bool mlir::amls::runtimeCallOnlyReads(func::CallOp call, unsigned operand) {
  std::optional<RuntimeFunction> function = getCalledRuntimeFunction(call);
  if (!function)
    return false;
  unsigned position = 0;
  for (ABIType type : getSignature(*function).inputs) {
    // A CSR argument is its layout's fields: its arrays and its columns.
    unsigned width = type == ABIType::CSR ? kCSRWidth : 1;
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
