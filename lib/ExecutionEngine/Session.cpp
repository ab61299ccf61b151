//===- Session.cpp - Specialize, compile and run AMLS programs ------------===//
//
// How values cross into compiled code: the --amls-wrap-entry pass gives
// every program a public `amls_main` with the C interface that takes the
// entry's arguments (f64 matrices as memref descriptors, scalars) and
// returns its results (f64 matrices, f64, i64). The session calls it through
// the ExecutionEngine's packed interface with descriptors of the caller's
// buffers, and reads the returned descriptors out of the result struct.
//
// Why results are returned rather than passed to callbacks (as they once
// were, through a process-wide list behind a mutex): returned values need
// no global and no context pointer, and they are owned by the caller.
// Ownership-based buffer deallocation guarantees that a public function's
// returned buffers are owned by its caller; where a result may alias an
// argument or a constant it clones it. So each matrix result is a buffer the
// compiled code allocated from the runtime's pool (finalize-memref-to-llvm's
// use-generic-functions, Memory.h) and nothing else frees: the session
// adopts it and returns it to the pool. Results that come back in the same
// buffer share one owner, so it is freed once.
//
//===----------------------------------------------------------------------===//

#include "AMLS/ExecutionEngine/Session.h"
#include "AMLS/Runtime/Context.h"
#include "AMLS/Runtime/Failure.h"
#include "AMLS/Runtime/Memory.h"
#ifdef AMLS_HAVE_CUDA_RUNTIME
#include "AMLS/Runtime/CUDA.h"
#endif

#include "AMLS/Codegen/Passes.h"
#include "AMLS/Conversion/AMLSToLinalg/AMLSToLinalg.h"
#include "AMLS/Conversion/Passes.h"
#include "AMLS/Conversion/RuntimeABI/RuntimeABI.h"
#include "AMLS/Dialect/AMLSOps.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Pipelines/Target.h"
#include "AMLS/Runtime/Runtime.h"
#include "AMLS/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/TargetSelect.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>

using namespace mlir;
using namespace mlir::amls;

//===----------------------------------------------------------------------===//
// The boundary: what amls_main takes and returns
//===----------------------------------------------------------------------===//

namespace {

/// The kinds of results amls_main returns (--amls-wrap-entry): a CSR
/// matrix is returned as its row offsets, column indices and values (1-D
/// buffers) and its number of columns.
enum class ResultKind { Matrix, CSRMatrix, Float, Integer };

std::optional<ResultKind> getResultKind(Type type) {
  if (isa<MatrixType>(type))
    return ResultKind::Matrix;
  if (isa<FloatType>(type))
    return ResultKind::Float;
  if (type.isIndex() || type.isSignlessInteger())
    return ResultKind::Integer;
  return std::nullopt;
}

/// The kinds of the results of amls_main, as --amls-wrap-entry made its
/// signature: rank-2 buffers are dense matrices, and a 1-D buffer of i64
/// starts the four values of a CSR matrix. Null for a signature the session
/// cannot read.
std::optional<SmallVector<ResultKind>> getResultKinds(func::FuncOp wrapper) {
  SmallVector<ResultKind> kinds;
  ArrayRef<Type> types = wrapper.getResultTypes();
  for (size_t i = 0; i < types.size(); ++i) {
    auto tensor = dyn_cast<RankedTensorType>(types[i]);
    if (tensor && tensor.getRank() == 2) {
      kinds.push_back(ResultKind::Matrix);
    } else if (tensor && tensor.getRank() == 1) {
      Builder b(wrapper.getContext());
      auto vector = [&](Type element) {
        return RankedTensorType::get({ShapedType::kDynamic}, element);
      };
      if (i + 3 >= types.size() || types[i] != vector(b.getI64Type()) ||
          types[i + 1] != vector(b.getI32Type()) ||
          types[i + 2] != vector(b.getF64Type()) || !types[i + 3].isInteger(64))
        return std::nullopt;
      kinds.push_back(ResultKind::CSRMatrix);
      i += 3;
    } else if (isa<FloatType>(types[i])) {
      kinds.push_back(ResultKind::Float);
    } else {
      kinds.push_back(ResultKind::Integer);
    }
  }
  return kinds;
}

/// amls_main's results as the LLVM lowering packs them: a struct of memref
/// descriptors (AmlsMatrixF64: 7 words; a CSR matrix's three AmlsVector*
/// of 5 words and its number of columns) and scalars (1 word each), all
/// 8-byte aligned, so every field starts at a multiple of 8 bytes.
struct ResultLayout {
  SmallVector<ResultKind> kinds;
  SmallVector<size_t> wordOffsets;
  size_t numWords = 0;

  explicit ResultLayout(ArrayRef<ResultKind> resultKinds) : kinds(resultKinds) {
    static_assert(sizeof(AmlsMatrixF64) == 7 * sizeof(int64_t),
                  "a memref descriptor is seven words");
    static_assert(sizeof(AmlsVectorI64) == 5 * sizeof(int64_t) &&
                      sizeof(AmlsVectorI32) == 5 * sizeof(int64_t) &&
                      sizeof(AmlsVectorF64) == 5 * sizeof(int64_t),
                  "a 1-D memref descriptor is five words");
    for (ResultKind kind : kinds) {
      wordOffsets.push_back(numWords);
      numWords += kind == ResultKind::Matrix      ? 7
                  : kind == ResultKind::CSRMatrix ? 3 * 5 + 1
                                                  : 1;
    }
  }

  /// The C interface returns a struct (several values, or one memref
  /// descriptor) through a pointer passed first, and a single scalar as its
  /// return value, which the packed interface stores through a pointer
  /// passed last.
  bool returnsThroughFirstArgument() const {
    return kinds.size() > 1 ||
           (kinds.size() == 1 && (kinds[0] == ResultKind::Matrix ||
                                  kinds[0] == ResultKind::CSRMatrix));
  }
};

/// The CSR matrix whose four values start at `field`; it adopts the three
/// buffers (through `buffers`, shared with other results that hold them).
MatrixValue decodeCSR(const int64_t *field, ResultBuffers &buffers) {
  AmlsVectorI64 offsets;
  AmlsVectorI32 columns;
  AmlsVectorF64 values;
  std::memcpy(&offsets, field, sizeof(offsets));
  std::memcpy(&columns, field + 5, sizeof(columns));
  std::memcpy(&values, field + 10, sizeof(values));
  AmlsMatrixRef ref = {};
  ref.format = AMLS_MATRIX_CSR;
  ref.element_type = AMLS_ELEMENT_F64;
  ref.target = AMLS_TARGET_CPU;
  ref.rows = offsets.sizes[0] - 1;
  ref.cols = field[15];
  ref.row_offsets = offsets.aligned + offsets.offset;
  ref.column_indices = columns.aligned + columns.offset;
  ref.data = values.aligned + values.offset;
  ref.nnz = ref.rows > 0 ? ref.row_offsets[ref.rows] : 0;
  ref.allocation = values.allocated;
  ref.row_offsets_allocation = offsets.allocated;
  ref.column_indices_allocation = columns.allocated;
  return MatrixValue::adopt(ref, buffers);
}

/// Turns the words amls_main wrote into values; matrices adopt their buffers.
SmallVector<RuntimeValue> decodeResults(const ResultLayout &layout,
                                        ArrayRef<int64_t> words) {
  SmallVector<RuntimeValue> values;
  // A buffer returned twice (`return %m, %m`, CSR results that share row
  // offsets) is owned once.
  ResultBuffers buffers;
  for (auto [kind, offset] : llvm::zip(layout.kinds, layout.wordOffsets)) {
    const int64_t *field = words.data() + offset;
    if (kind == ResultKind::Float) {
      double number;
      std::memcpy(&number, field, sizeof(number));
      values.push_back(RuntimeValue::ofFloat(number));
      continue;
    }
    if (kind == ResultKind::Integer) {
      values.push_back(RuntimeValue::ofInteger(*field));
      continue;
    }
    if (kind == ResultKind::CSRMatrix) {
      values.push_back(RuntimeValue::ofMatrix(decodeCSR(field, buffers)));
      continue;
    }
    AmlsMatrixF64 descriptor;
    std::memcpy(&descriptor, field, sizeof(descriptor));
    AmlsMatrixRef ref = {};
    ref.format = AMLS_MATRIX_DENSE;
    ref.element_type = AMLS_ELEMENT_F64;
    ref.target = AMLS_TARGET_CPU;
    ref.rows = descriptor.sizes[0];
    ref.cols = descriptor.sizes[1];
    ref.data = descriptor.aligned + descriptor.offset;
    ref.strides[0] = descriptor.strides[0];
    ref.strides[1] = descriptor.strides[1];
    ref.allocation = descriptor.allocated;
    values.push_back(RuntimeValue::ofMatrix(MatrixValue::adopt(ref, buffers)));
  }
  return values;
}

} // namespace

namespace mlir::amls {
/// One specialization of a program, ready to run.
struct CompiledProgram {
  std::unique_ptr<ExecutionEngine> engine;
  /// The kinds of the entry's results (which matrices it returns CSR).
  SmallVector<ResultKind> resultKinds;
};
} // namespace mlir::amls

//===----------------------------------------------------------------------===//
// Specialization to the inputs
//===----------------------------------------------------------------------===//

/// Inputs of more cells than this have their sparsity estimated from a
/// sample of kSparsitySample cells: counting every input's non-zeros on
/// every run cost a caller calling a compiled function in a loop more than
/// the function itself (docs/performance.md, the L2SVM step from Python).
/// The sample is kSparsityRuns evenly spaced runs of consecutive cells:
/// cells taken one by one, far apart, touched a page each (0.35 ms per
/// call for the L2SVM step's three 4M-row inputs); runs touch a few.
constexpr int64_t kSparsitySampleAbove = int64_t(1) << 16;
constexpr int64_t kSparsitySample = int64_t(1) << 12;
constexpr int64_t kSparsityRuns = 64;

/// The fraction of `m`'s cells that are non-zero: exact for small inputs,
/// else from evenly spaced runs of cells. A sample without non-zeros is
/// checked on every cell, because sparsity 0 is exact knowledge the
/// optimizer acts on (a sum of an all-zero matrix folds to 0); any other
/// value is an estimate (docs/design-notes.md, "Sparsity is an estimate").
static double countSparsity(const MatrixValue &m) {
  int64_t rows = m.getRows(), cols = m.getCols();
  int64_t cells = rows * cols;
  if (m.isCSR()) {
    // Stored entries may be explicit zeros.
    const double *values = static_cast<const double *>(m.getRef().data);
    int64_t nonZeros = 0;
    for (int64_t k = 0; k < m.getNumStored(); ++k)
      nonZeros += values[k] != 0.0;
    return static_cast<double>(nonZeros) / cells;
  }
  // Row-major cells are read straight from memory (the sample of a large
  // input is most of a call's own cost besides the program).
  auto countRun = [](const auto *cells, int64_t count) {
    int64_t nonZeros = 0;
    for (int64_t i = 0; i < count; ++i)
      nonZeros += cells[i] != 0;
    return nonZeros;
  };
  bool rowMajor = m.isContiguousRowMajor();
  auto countCells = [&](int64_t first, int64_t count) {
    const void *data = m.getRef().data;
    if (rowMajor) {
      switch (m.getElementType()) {
      case AMLS_ELEMENT_F64:
        return countRun(static_cast<const double *>(data) + first, count);
      case AMLS_ELEMENT_F32:
        return countRun(static_cast<const float *>(data) + first, count);
      case AMLS_ELEMENT_I64:
        return countRun(static_cast<const int64_t *>(data) + first, count);
      }
    }
    int64_t nonZeros = 0;
    for (int64_t cell = first; cell < first + count; ++cell)
      nonZeros += m.cell(cell / cols, cell % cols) != 0.0;
    return nonZeros;
  };
  if (cells > kSparsitySampleAbove) {
    int64_t runLength = kSparsitySample / kSparsityRuns;
    int64_t spacing = cells / kSparsityRuns;
    int64_t sampled = 0;
    for (int64_t run = 0; run < kSparsityRuns; ++run)
      sampled +=
          countCells(run * spacing + (spacing - runLength) / 2, runLength);
    if (sampled > 0)
      return static_cast<double>(sampled) / kSparsitySample;
  }
  return static_cast<double>(countCells(0, cells)) / cells;
}

/// Sparsity rounded to two significant digits: inputs of the same shape and
/// nearly the same density share compiled code.
static double roundedSparsity(const MatrixValue &m) {
  int64_t cells = m.getRows() * m.getCols();
  if (cells == 0)
    return 0.0;
  double s = countSparsity(m);
  if (s == 0.0 || s == 1.0)
    return s;
  double scale = std::pow(10.0, 1 - std::floor(std::log10(s)));
  return std::min(1.0, std::round(s * scale) / scale);
}

/// The type a parameter gets for a concrete argument.
static FailureOr<Type> specializedType(Location loc, StringRef name,
                                       Type declared, const RuntimeValue &arg) {
  auto matrixType = dyn_cast<MatrixType>(declared);
  bool isMatrix = arg.isMatrix();
  if (static_cast<bool>(matrixType) != isMatrix)
    return emitError(loc, "parameter '")
           << name << "' is declared " << declared << " but was given a "
           << (isMatrix ? "matrix" : "scalar");
  if (!matrixType)
    return declared;
  const MatrixValue &matrix = arg.getMatrix();
  if (matrix.isCSR()) {
    // Taken as it is: the parameter is CSR, with the non-zeros' sparsity.
    if (!matrixType.getElementType().isF64())
      return emitError(loc, "parameter '")
             << name << "' is declared " << declared
             << " but was given a CSR matrix (CSR matrices are f64)";
    std::string problem = matrix.checkCSR();
    if (!problem.empty())
      return emitError(loc, "parameter '")
             << name << "' was given a CSR matrix whose " << problem;
    auto exact =
        MatrixType::get(matrix.getRows(), matrix.getCols(),
                        matrixType.getElementType(), roundedSparsity(matrix))
            .withFormat(MatrixFormat::CSR);
    if (!areCompatibleMatrixTypes(matrixType, exact))
      return emitError(loc, "parameter '")
             << name << "' is declared " << declared << " but the input is "
             << matrix.getRows() << "x" << matrix.getCols();
    return Type(exact);
  }
  if (!matrix.isDenseOnCPU())
    return emitError(loc, "parameter '")
           << name
           << "' was given a matrix that is not dense f64, f32 or i64 in CPU "
              "memory, nor CSR";
  // Files hold numbers; an integer matrix must get integers.
  if (matrixType.getElementType().isInteger(64)) {
    for (int64_t r = 0; r < matrix.getRows(); ++r) {
      for (int64_t c = 0; c < matrix.getCols(); ++c) {
        double value = matrix.cell(r, c);
        if (value == std::trunc(value) && std::abs(value) < 0x1p63)
          continue;
        std::string text;
        llvm::raw_string_ostream(text) << llvm::format("%.17g", value);
        return emitError(loc, "parameter '")
               << name << "' is declared " << declared << " but the input has "
               << text << " at row " << r + 1 << ", column " << c + 1
               << " (expected an integer)";
      }
    }
  }
  auto exact =
      MatrixType::get(matrix.getRows(), matrix.getCols(),
                      matrixType.getElementType(), roundedSparsity(matrix));
  if (!areCompatibleMatrixTypes(matrixType, exact))
    return emitError(loc, "parameter '")
           << name << "' is declared " << declared << " but the input is "
           << matrix.getRows() << "x" << matrix.getCols();
  return Type(exact);
}

/// The element type in which the entry takes a matrix parameter declared
/// `declared` (amls-wrap-entry's boundary): f32 and i64 matrices as they
/// are, every other as f64.
static AmlsElementType boundaryElementType(Type declared) {
  Type element = cast<MatrixType>(declared).getElementType();
  if (element.isF32())
    return AMLS_ELEMENT_F32;
  if (element.isInteger(64))
    return AMLS_ELEMENT_I64;
  return AMLS_ELEMENT_F64;
}

/// Whether the run passes `arg` for a parameter declared `declared` as the
/// row-major cells of its transpose: a column-major matrix in the element
/// type the entry takes it in (the specialized entry transposes it back).
static bool passesTransposed(Type declared, const RuntimeValue &arg) {
  return arg.isMatrix() && isa<MatrixType>(declared) &&
         arg.getMatrix().isContiguousColumnMajorOnly() &&
         arg.getMatrix().getElementType() == boundaryElementType(declared);
}

/// Matrices with fewer cells are compiled without their line offset: their
/// reductions are not split (CPUSchedule.cpp).
constexpr int64_t kMinCellsForLineOffset = 1 << 13;

/// The cells by which `arg`, passed in place, starts past a 64-byte
/// boundary (kLineOffsetAttrName): NumPy's large arrays start 16 bytes past
/// one, and the full reductions over them then start their vector loads on
/// the next boundary instead of splitting each across two cache lines. The
/// first call's offsets are compiled for; later calls with the same types
/// reuse that code whatever their offsets. 0 for a matrix that is copied
/// (into an aligned buffer), small or CSR.
static int64_t lineOffsetOf(Type declared, const RuntimeValue &arg,
                            bool toDevice) {
  if (toDevice || !arg.isMatrix() || !isa<MatrixType>(declared))
    return 0;
  const MatrixValue &matrix = arg.getMatrix();
  if (matrix.isCSR() || !matrix.isContiguousRowMajor() ||
      matrix.getElementType() != boundaryElementType(declared) ||
      matrix.getRows() * matrix.getCols() < kMinCellsForLineOffset)
    return 0;
  size_t cellBytes = matrix.getElementType() == AMLS_ELEMENT_F32 ? 4 : 8;
  auto address = reinterpret_cast<uintptr_t>(matrix.getRef().data);
  if (address % cellBytes != 0)
    return 0;
  return static_cast<int64_t>(address % 64 / cellBytes);
}

/// `matrix`'s cells row-major in `elementType`, in a buffer `copies` keeps.
static void *rowMajorCopy(const MatrixValue &matrix,
                          AmlsElementType elementType,
                          std::deque<std::vector<char>> &copies) {
  int64_t rows = matrix.getRows(), cols = matrix.getCols();
  size_t size = elementType == AMLS_ELEMENT_F32 ? sizeof(float) : 8;
  std::vector<char> &buffer = copies.emplace_back(rows * cols * size);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      double value = matrix.cell(r, c);
      int64_t at = r * cols + c;
      if (elementType == AMLS_ELEMENT_F32)
        reinterpret_cast<float *>(buffer.data())[at] =
            static_cast<float>(value);
      else if (elementType == AMLS_ELEMENT_I64)
        reinterpret_cast<int64_t *>(buffer.data())[at] =
            static_cast<int64_t>(value);
      else
        reinterpret_cast<double *>(buffer.data())[at] = value;
    }
  return buffer.data();
}

/// Whether the session's target runs programs on a device (an unknown
/// target, which creating the session rejects, does not).
static bool runsOnDevice(const SessionOptions &options) {
  const Target *target = lookupTarget(options.target);
  return target && target->runsOnDevice();
}

using Clock = std::chrono::steady_clock;
static double millisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start)
      .count();
}

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

std::string mlir::amls::prepareTarget(SessionOptions &options) {
  const Target *target = lookupTarget(options.target);
  if (!target)
    return "expected target " + listTargetNames() + ", found '" +
           options.target + "'";
  if (!target->runsOnDevice())
    return "";
    // The one device target so far is CUDA's; the runtime context per
    // session (issue 42) takes this over.
#ifdef AMLS_HAVE_CUDA_RUNTIME
  std::string problem = runtime::cuda::initialize();
  if (!problem.empty())
    return "--target=gpu: " + problem;
  static std::once_flag managed;
  std::call_once(managed, [] { runtime::cuda::useManagedMemory(); });
  if (options.gpuChip.empty()) {
    runtime::cuda::DeviceInfo device = runtime::cuda::getDeviceInfo();
    options.gpuChip =
        runtime::cuda::chipName(device.computeMajor, device.computeMinor);
  }
  return "";
#else
  return "--target=gpu: this AMLS was built without the CUDA runtime "
         "(cuda.h was not found when it was configured)";
#endif
}

Session::Session(SessionOptions options)
    : options(std::move(options)), runtimeContext(runtime::Context::create()) {
  DialectRegistry registry;
  registerPipelineDialects(registry);
  context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  runtimeContext->setMemoryLimit(this->options.memoryLimit);
  runtimeContext->setThreads(static_cast<int32_t>(this->options.threads));
}

Session::~Session() {
  programs.clear();
  runtimeContext->release();
}

SessionStatistics Session::getStatistics() const {
  std::lock_guard<std::mutex> lock(mutex);
  SessionStatistics result = statistics;
  runtime::memory::Statistics memory = runtimeContext->getMemoryStatistics();
  result.memoryLimit = runtimeContext->getMemoryLimit();
  result.liveBytes = memory.liveBytes;
  result.peakLiveBytes = memory.peakLiveBytes;
  result.allocations = memory.allocations;
  result.bytesAllocated = memory.bytesAllocated;
  result.runtimeThreads = runtimeContext->getThreads();
  return result;
}

FailureOr<Program *> Session::load(OwningOpRef<ModuleOp> module,
                                   StringRef entryName) {
  std::lock_guard<std::mutex> lock(mutex);
  if (module->getContext() != context.get())
    return module->emitError(
        "the program was built in another context than the session's");
  auto entry = module->lookupSymbol<func::FuncOp>(entryName);
  if (!entry || entry.isDeclaration()) {
    std::string names;
    module->walk([&](func::FuncOp f) {
      if (!f.isDeclaration())
        names += (names.empty() ? "" : ", ") + f.getSymName().str();
    });
    return module->emitError("no function '")
           << entryName
           << "' to run; functions: " << (names.empty() ? "none" : names);
  }
  std::unique_ptr<Program> program(
      new Program(*this, std::move(module), entryName));
  for (auto [i, type] : llvm::enumerate(entry.getArgumentTypes())) {
    std::string name = "arg" + std::to_string(i);
    if (auto attr = entry.getArgAttrOfType<StringAttr>(i, "amls.name"))
      name = attr.getValue().str();
    bool supported =
        isa<MatrixType, FloatType, IndexType>(type) || type.isSignlessInteger();
    if (!supported)
      return entry.emitError("parameter '")
             << name << "' has type " << type
             << ", which amls-run cannot bind (matrices and scalars only)";
    program->parameters.push_back({name, type});
  }
  for (auto [i, type] : llvm::enumerate(entry.getResultTypes())) {
    if (!getResultKind(type))
      return entry.emitError("result #")
             << i << " has type " << type
             << ", which the execution session cannot return (matrices, "
                "floats and integers only)";
    program->resultTypes.push_back(type);
    std::string name = "result" + std::to_string(i);
    if (auto attr = entry.getResultAttrOfType<StringAttr>(i, "amls.name"))
      name = attr.getValue().str();
    program->resultNames.push_back(name);
    program->booleanResults.push_back(
        static_cast<bool>(entry.getResultAttr(i, "amls.boolean")));
  }
  programs.push_back(std::move(program));
  return programs.back().get();
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

Program::Program(Session &session, OwningOpRef<ModuleOp> module,
                 StringRef entry)
    : session(session), program(std::move(module)), entryName(entry) {}

Program::~Program() = default;

std::optional<unsigned> Program::findParameter(StringRef name) const {
  for (auto [i, parameter] : llvm::enumerate(parameters))
    if (parameter.name == name)
      return i;
  unsigned index;
  if (!name.getAsInteger(10, index) && index < parameters.size())
    return index;
  return std::nullopt;
}

FailureOr<CompiledProgram *> Program::compile(ArrayRef<RuntimeValue> args,
                                              PhaseTimes &times) {
  const SessionOptions &options = session.options;
  auto start = Clock::now();

  // The entry's parameter types for these arguments, which key the cache:
  // a cached run clones and compiles nothing (a caller calling a compiled
  // function in a loop pays for this loop only).
  auto declared = program->lookupSymbol<func::FuncOp>(entryName);
  SmallVector<Type> exactTypes;
  SmallVector<bool> transposed;
  SmallVector<int64_t> lineOffsets;
  std::string signature;
  llvm::raw_string_ostream key(signature);
  for (auto [parameter, arg] : llvm::zip(parameters, args)) {
    FailureOr<Type> type =
        specializedType(declared.getLoc(), parameter.name, parameter.type, arg);
    if (failed(type))
      return failure();
    exactTypes.push_back(*type);
    transposed.push_back(passesTransposed(parameter.type, arg));
    lineOffsets.push_back(
        transposed.back()
            ? 0
            : lineOffsetOf(parameter.type, arg, runsOnDevice(options)));
    // Not the line offset: code compiled for one offset is right for any
    // (only its loads straddle lines), and heap arrays come at several
    // offsets, each of which would otherwise be a compilation.
    key << *type << (transposed.back() ? " transposed;" : ";");
  }
  auto cached = cache.find(signature);
  if (cached != cache.end()) {
    ++session.statistics.cacheHits;
    return cached->second.get();
  }

  // Specialize the entry's parameters to the arguments.
  OwningOpRef<ModuleOp> module = program->clone();
  auto entry = module->lookupSymbol<func::FuncOp>(entryName);
  SmallVector<Type> types;
  for (auto [type, isTransposed, blockArg] :
       llvm::zip(exactTypes, transposed, entry.getArguments())) {
    refineValueType(blockArg, type);
    if (isTransposed) {
      // The caller's column-major cells are the row-major cells of the
      // transpose: the entry takes that and transposes it back.
      auto matrix = cast<MatrixType>(type);
      auto stored =
          MatrixType::get(matrix.getCols(), matrix.getRows(),
                          matrix.getElementType(), matrix.getSparsity());
      blockArg.setType(stored);
      OpBuilder b = OpBuilder::atBlockBegin(&entry.getBody().front());
      auto transpose =
          TransposeOp::create(b, blockArg.getLoc(), matrix, blockArg);
      blockArg.replaceAllUsesExcept(transpose, transpose);
      types.push_back(stored);
      continue;
    }
    types.push_back(type);
  }
  entry.setFunctionType(
      FunctionType::get(entry.getContext(), types, entry.getResultTypes()));
  for (auto [i, offset] : llvm::enumerate(lineOffsets))
    if (offset)
      entry.setArgAttr(
          i, kLineOffsetAttrName,
          IntegerAttr::get(IntegerType::get(entry.getContext(), 64), offset));
  // Parameter and result names are for binding only (the LLVM lowering
  // would carry them to the parameters of the C interface, and warn).
  StringAttr nameAttr = StringAttr::get(entry.getContext(), "amls.name");
  for (unsigned i = 0; i < entry.getNumArguments(); ++i)
    entry.removeArgAttr(i, nameAttr);
  for (unsigned i = 0; i < entry.getNumResults(); ++i)
    entry.removeResultAttr(i, nameAttr);

  CompileOptions compile;
  compile.rewrites = options.rewrites;
  compile.fusion = options.fusion;
  compile.fusionExplain = options.fusionExplain;
  compile.formats = options.formats;
  compile.formatsExplain = options.formatsExplain;
  compile.csrResults = options.csrResults;
  compile.parforExplain = options.parforExplain;
  compile.sums = options.sums;
  compile.memoryLimit = session.runtimeContext->getMemoryLimit();
  compile.wrapEntry = entryName;
  compile.threads = options.threads;
  compile.blas = options.blas;
  compile.target = options.target;
  if (runsOnDevice(options)) {
    // The device's chip, once the process is ready for it.
    SessionOptions ready = options;
    std::string why = prepareTarget(ready);
    if (!why.empty())
      return module->emitError(why);
    compile.gpuChip = ready.gpuChip;
    compile.gpuFormat = options.gpuFormat;
    compile.gpuMinWork = options.gpuMinWork;
  }
  std::string problem = checkCompileOptions(compile);
  if (!problem.empty())
    return module->emitError(problem);
  // The two stages of the end-to-end compile, timed apart.
  PassManager optimize(module->getContext());
  if (options.printIRAfterAll) {
    module->getContext()->disableMultithreading();
    optimize.enableIRPrinting();
  }
  // An LLVM built without statistics (NDEBUG, the distributions' builds)
  // counts nothing: its reports would be empty.
  if (options.passStatistics && LLVM_ENABLE_STATS)
    optimize.enableStatistics();
  buildCompileToLinalgPipeline(optimize, compile);
  if (failed(optimize.run(*module)))
    return failure();
  times.optimize = millisecondsSince(start);
  std::optional<SmallVector<ResultKind>> resultKinds;
  if (auto wrapper = module->lookupSymbol<func::FuncOp>(kEntryWrapperName))
    resultKinds = getResultKinds(wrapper);
  if (!resultKinds || resultKinds->size() != resultTypes.size())
    return module->emitError("the compiled entry returns values the "
                             "execution session cannot read");

  start = Clock::now();
  PassManager lower(module->getContext());
  if (options.printIRAfterAll)
    lower.enableIRPrinting();
  if (options.passStatistics && LLVM_ENABLE_STATS)
    lower.enableStatistics();
  buildCompileToLLVMPipeline(lower, compile);
  if (failed(lower.run(*module)))
    return failure();
  // Each kernel is outlined into a module of its own, serialized into one
  // gpu.binary.
  module->walk([&](gpu::BinaryOp) { ++session.statistics.gpuKernels; });

  static std::once_flag nativeTarget;
  std::call_once(nativeTarget, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  // The optimizer must see the host CPU: without a target machine LLVM's
  // cost model assumes no vector registers and the loop vectorizer does
  // nothing.
  auto machineBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder) {
    std::string message = llvm::toString(machineBuilder.takeError());
    return module->emitError("cannot target the host CPU: ") << message;
  }
  machineBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto targetMachine = machineBuilder->createTargetMachine();
  if (!targetMachine) {
    std::string message = llvm::toString(targetMachine.takeError());
    return module->emitError("cannot target the host CPU: ") << message;
  }
  // The options hold a function_ref: the transformer must outlive create()
  // (a temporary here was a stack-use-after-scope, found by ASan).
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(/*optLevel=*/3, /*sizeLevel=*/0,
                                targetMachine->get());
  ExecutionEngineOptions engineOptions;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(*module, engineOptions,
                                        std::move(*targetMachine));
  if (!engine) {
    std::string message = llvm::toString(engine.takeError());
    return module->emitError("JIT compilation failed: ") << message;
  }
  times.compile = millisecondsSince(start);
  times.compiled = true;
  ++session.statistics.compilations;
  auto compiled = std::make_unique<CompiledProgram>();
  compiled->engine = std::move(*engine);
  compiled->resultKinds = std::move(*resultKinds);
  CompiledProgram *result = compiled.get();
  cache[signature] = std::move(compiled);
  return result;
}

FailureOr<RunResult> Program::run(ArrayRef<RuntimeValue> args) {
  std::lock_guard<std::mutex> lock(session.mutex);
  if (args.size() != parameters.size())
    return program->emitError("expected ")
           << parameters.size() << " arguments, found " << args.size();
  ++session.statistics.runs;
  // The runtime works for this session until the run returns: its budget,
  // its account and its thread count.
  runtime::ScopedContext installed(session.runtimeContext);
  amls_rt_set_num_threads(static_cast<int32_t>(session.options.threads));
  RunResult result;
  FailureOr<CompiledProgram *> compiled = compile(args, result.times);
  if (failed(compiled))
    return failure();

  // Arguments of the packed C interface: a pointer to each argument (for a
  // matrix, a pointer to a pointer to its memref descriptor). Descriptors
  // point into the caller's buffers; only a matrix that is not contiguous
  // row-major is copied into that layout first.
  std::deque<std::vector<char>> copies;
  std::deque<AmlsMatrixF64> descriptors;
  std::deque<AmlsMatrixF64 *> descriptorPointers;
  std::deque<int64_t> integers;
  std::deque<double> floats;
  std::deque<float> singles;
  std::deque<bool> booleans;
  SmallVector<void *> packed;
  // On the GPU target the caller's memory is host memory the device may
  // not reach: each input is copied into the runtime's pool (managed
  // memory) for the run, and counted.
  bool toDevice = runsOnDevice(session.options);
  SmallVector<void *> deviceCopies;
  llvm::scope_exit releaseDeviceCopies([&] {
    for (void *buffer : deviceCopies)
      runtime::memory::release(buffer);
  });
  auto deviceCopy = [&](const void *from, uint64_t bytes) -> void * {
    void *to = runtime::memory::allocate(std::max<uint64_t>(bytes, 1));
    if (bytes)
      std::memcpy(to, from, bytes);
    deviceCopies.push_back(to);
    ++session.statistics.inputCopies;
    session.statistics.inputCopyBytes += bytes;
    return to;
  };
  std::deque<AmlsVectorI64> rowOffsetDescriptors;
  std::deque<AmlsVectorI32> columnDescriptors;
  std::deque<AmlsVectorF64> valueDescriptors;
  std::deque<void *> vectorPointers;
  for (auto [parameter, arg] : llvm::zip(parameters, args)) {
    if (arg.isMatrix() && arg.getMatrix().isCSR()) {
      // The four values a CSR parameter lowers to (CSRLowering.h): row
      // offsets, column indices, values, number of columns.
      const AmlsMatrixRef &ref = arg.getMatrix().getRef();
      auto *offsets = const_cast<int64_t *>(ref.row_offsets);
      auto *columns = const_cast<int32_t *>(ref.column_indices);
      auto *values = static_cast<double *>(ref.data);
      if (toDevice) {
        offsets = static_cast<int64_t *>(
            deviceCopy(offsets, (ref.rows + 1) * sizeof(int64_t)));
        columns = static_cast<int32_t *>(
            deviceCopy(columns, ref.nnz * sizeof(int32_t)));
        values =
            static_cast<double *>(deviceCopy(values, ref.nnz * sizeof(double)));
      }
      rowOffsetDescriptors.push_back(
          {offsets, offsets, 0, {ref.rows + 1}, {1}});
      vectorPointers.push_back(&rowOffsetDescriptors.back());
      packed.push_back(&vectorPointers.back());
      columnDescriptors.push_back({columns, columns, 0, {ref.nnz}, {1}});
      vectorPointers.push_back(&columnDescriptors.back());
      packed.push_back(&vectorPointers.back());
      valueDescriptors.push_back({values, values, 0, {ref.nnz}, {1}});
      vectorPointers.push_back(&valueDescriptors.back());
      packed.push_back(&vectorPointers.back());
      integers.push_back(ref.cols);
      packed.push_back(&integers.back());
      continue;
    }
    if (arg.isMatrix()) {
      // In the element type the entry takes (boundaryElementType): the
      // caller's cells in place when they are in it and row-major, else a
      // row-major copy converted to it.
      const MatrixValue &matrix = arg.getMatrix();
      AmlsElementType taken = boundaryElementType(parameter.type);
      uint64_t bytes = matrix.getRows() * matrix.getCols() *
                       (taken == AMLS_ELEMENT_F32 ? 4 : 8);
      void *cells = matrix.getRef().data;
      // Column-major cells in place, as the transpose (passesTransposed).
      bool transposed = passesTransposed(parameter.type, arg);
      if (!transposed && (!matrix.isContiguousRowMajor() ||
                          matrix.getElementType() != taken)) {
        cells = rowMajorCopy(matrix, taken, copies);
        ++session.statistics.inputLayoutCopies;
        session.statistics.inputLayoutCopyBytes += bytes;
      }
      if (toDevice)
        cells = deviceCopy(cells, bytes);
      auto *data = static_cast<double *>(cells);
      int64_t rows = transposed ? matrix.getCols() : matrix.getRows();
      int64_t cols = transposed ? matrix.getRows() : matrix.getCols();
      descriptors.push_back({data, data, 0, {rows, cols}, {cols, 1}});
      descriptorPointers.push_back(&descriptors.back());
      packed.push_back(&descriptorPointers.back());
    } else if (parameter.type.isF64()) {
      floats.push_back(arg.getNumber());
      packed.push_back(&floats.back());
    } else if (parameter.type.isF32()) {
      singles.push_back(static_cast<float>(arg.getNumber()));
      packed.push_back(&singles.back());
    } else if (parameter.type.isInteger(1)) {
      booleans.push_back(arg.getNumber() != 0.0);
      packed.push_back(&booleans.back());
    } else {
      integers.push_back(arg.getKind() == RuntimeValue::Kind::Integer
                             ? arg.getInteger()
                             : static_cast<int64_t>(arg.getNumber()));
      packed.push_back(&integers.back());
    }
  }

  ResultLayout layout((*compiled)->resultKinds);
  SmallVector<int64_t> resultWords(layout.numWords, 0);
  void *resultStruct = resultWords.data();
  if (layout.returnsThroughFirstArgument())
    packed.insert(packed.begin(), &resultStruct);
  else if (!layout.kinds.empty())
    packed.push_back(resultStruct);

  auto entry = (*compiled)->engine->lookupPacked(
      (Twine("_mlir_ciface_") + kEntryWrapperName).str());
  if (!entry) {
    std::string message = llvm::toString(entry.takeError());
    return program->emitError("running the program failed: ") << message;
  }
  struct Call {
    void (*entry)(void **);
    void **arguments;
  } call{*entry, packed.data()};
  auto invoke = [](void *context) {
    auto *call = static_cast<Call *>(context);
    call->entry(call->arguments);
  };
  auto start = Clock::now();
  std::string failure;
  bool completed = true;
  if (session.options.returnRunFailures)
    completed = ::amls::runtime::runTrappingFailures(invoke, &call, failure);
  else
    invoke(&call);
  result.times.execute = millisecondsSince(start);
  if (!completed) {
    ++session.statistics.failedRuns;
    return program->emitError("the program failed while it ran: ") << failure;
  }
  result.values = decodeResults(layout, resultWords);
  return result;
}
