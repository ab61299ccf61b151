//===- SessionTest.cpp - The execution session: runs, ownership, threads --===//

#include "AMLS/ExecutionEngine/Session.h"
#include "AMLS/Conversion/AMLSToLinalg/LoweringSchedule.h"
#include "AMLS/ExecutionEngine/TargetExecution.h"
#include "AMLS/Pipelines/Pipelines.h"
#include "AMLS/Pipelines/Target.h"
#include "AMLS/Runtime/Memory.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <thread>

using namespace mlir;
using namespace mlir::amls;

namespace {

/// X * s and sum(X * s).
constexpr const char *kScaleProgram = R"mlir(
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"}, %s: f64 {amls.name = "s"})
    -> (!amls.matrix<?x?xf64>, f64) {
  %0 = amls.mul %X, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %1 = amls.agg sum all %0 : !amls.matrix<?x?xf64> -> f64
  return %0, %1 : !amls.matrix<?x?xf64>, f64
}
)mlir";

/// t(X) %*% X, nrow(X) and sum(X) > 0 (a boolean result).
constexpr const char *kGramProgram = R"mlir(
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"})
    -> (!amls.matrix<?x?xf64>, index, i1) {
  %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %g = amls.matmul %t, %X : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %n = amls.nrow %X : !amls.matrix<?x?xf64>
  %s = amls.agg sum all %X : !amls.matrix<?x?xf64> -> f64
  %zero = arith.constant 0.0 : f64
  %positive = arith.cmpf ogt, %s, %zero : f64
  return %g, %n, %positive : !amls.matrix<?x?xf64>, index, i1
}
)mlir";

/// The input itself, and one result twice.
constexpr const char *kAliasProgram = R"mlir(
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %one = arith.constant 1.0 : f64
  %0 = amls.add %X, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  return %X, %0, %0 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
)mlir";

constexpr const char *kFixedShapeProgram = R"mlir(
func.func @main(%X: !amls.matrix<3x2xf64> {amls.name = "X"}) -> f64 {
  %0 = amls.agg sum all %X : !amls.matrix<3x2xf64> -> f64
  return %0 : f64
}
)mlir";

/// S = A * A computed CSR, and 2 * S, 3 * S and 2 * S again: with CSR
/// results, results that share S's row offsets and column indices, and one
/// returned twice.
constexpr const char *kSharedCSRProgram = R"mlir(
func.func @main(%A: !amls.matrix<?x?xf64> {amls.name = "A"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %S = amls.mul %A, %A : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  %two = arith.constant 2.0 : f64
  %three = arith.constant 3.0 : f64
  %B = amls.mul %S, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %C = amls.mul %S, %three : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  return %B, %C, %B : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
)mlir";

/// A rows x cols matrix with cells first, first + 1, ... in row-major order.
runtime::Matrix iota(int64_t rows, int64_t cols, double first = 1.0) {
  runtime::Matrix m;
  m.rows = rows;
  m.cols = cols;
  for (int64_t i = 0; i < rows * cols; ++i)
    m.data.push_back(first + static_cast<double>(i));
  return m;
}

RuntimeValue borrowed(const runtime::Matrix &m) {
  return RuntimeValue::ofMatrix(MatrixValue::borrow(m));
}

/// A session with `program` loaded; diagnostics are collected in `errors`.
struct LoadedProgram {
  explicit LoadedProgram(const char *text, unsigned threads = 1,
                         bool csrResults = false, std::string target = "cpu")
      : session(makeOptions(threads, csrResults, std::move(target))),
        handler(&session.getContext(), [this](Diagnostic &diagnostic) {
          errors += diagnostic.str();
          return success();
        }) {
    auto module = parseSourceString<ModuleOp>(text, &session.getContext());
    if (!module)
      return;
    FailureOr<Program *> loaded = session.load(std::move(module));
    if (succeeded(loaded))
      program = *loaded;
  }

  static SessionOptions makeOptions(unsigned threads, bool csrResults,
                                    std::string target) {
    SessionOptions options;
    options.threads = threads;
    options.csrResults = csrResults;
    options.target = std::move(target);
    return options;
  }

  Session session;
  ScopedDiagnosticHandler handler;
  Program *program = nullptr;
  std::string errors;
};

} // namespace

TEST(SessionTest, NamesParameters) {
  LoadedProgram loaded(kScaleProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  Program &program = *loaded.program;
  ASSERT_EQ(program.getParameters().size(), 2u);
  EXPECT_EQ(program.getParameters()[0].name, "X");
  EXPECT_EQ(program.findParameter("s"), 1u);
  EXPECT_EQ(program.findParameter("1"), 1u);
  EXPECT_EQ(program.findParameter("t"), std::nullopt);
  EXPECT_EQ(program.getResultTypes().size(), 2u);
}

TEST(SessionTest, ComputesAndCachesPerSignature) {
  LoadedProgram loaded(kScaleProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  Program &program = *loaded.program;
  // 2x3 matrix 1..6 scaled by 2: cells 2..12, sum 42.
  runtime::Matrix x = iota(2, 3);
  SmallVector<RuntimeValue> args = {borrowed(x), RuntimeValue::ofFloat(2.0)};
  FailureOr<RunResult> first = program.run(args);
  ASSERT_TRUE(succeeded(first)) << loaded.errors;
  ASSERT_EQ(first->values.size(), 2u);
  EXPECT_EQ(first->values[0].getMatrix().toVector(),
            (std::vector<double>{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(first->values[1].getFloat(), 42.0);
  EXPECT_TRUE(first->times.compiled);

  // The same types again (another scalar value): no recompilation.
  args[1] = RuntimeValue::ofFloat(3.0);
  FailureOr<RunResult> second = program.run(args);
  ASSERT_TRUE(succeeded(second));
  EXPECT_EQ(second->values[1].getFloat(), 63.0);
  EXPECT_FALSE(second->times.compiled);

  // Another shape is another specialization.
  runtime::Matrix column = iota(4, 1);
  args[0] = borrowed(column);
  FailureOr<RunResult> third = program.run(args);
  ASSERT_TRUE(succeeded(third));
  EXPECT_EQ(third->values[1].getFloat(), 30.0); // 3 * (1 + 2 + 3 + 4)

  SessionStatistics statistics = loaded.session.getStatistics();
  EXPECT_EQ(statistics.runs, 3u);
  EXPECT_EQ(statistics.compilations, 2u);
  EXPECT_EQ(statistics.cacheHits, 1u);
}

/// A third target, registered from outside the compiler: the generic
/// lowering schedule and the CPU's pipeline on one thread, counting the
/// compilations it lowered. Nothing but the registration names it.
class CountingTarget : public Target {
public:
  StringRef getName() const override { return "counting-test"; }
  StringRef getDescription() const override { return "a test target"; }
  const LoweringSchedule &getLoweringSchedule() const override {
    return *lookupLoweringSchedule("generic");
  }
  void buildLoweringPipeline(OpPassManager &pm,
                             const CompileOptions &options) const override {
    ++lowered;
    CompileOptions sequential;
    sequential.copyOptionValuesFrom(options);
    sequential.threads = 1;
    lookupTarget("cpu")->buildLoweringPipeline(pm, sequential);
  }
  static inline std::atomic<int> lowered{0};
};

TEST(SessionTest, RegisteredTargetCompilesAndRuns) {
  if (!lookupTarget("counting-test"))
    registerTarget(std::make_unique<CountingTarget>());
  EXPECT_NE(listTargetNames().find("'counting-test'"), std::string::npos);
  int before = CountingTarget::lowered;
  LoadedProgram loaded(kScaleProgram, 2, false, "counting-test");
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  runtime::Matrix x = iota(2, 3);
  SmallVector<RuntimeValue> args = {borrowed(x), RuntimeValue::ofFloat(2.0)};
  FailureOr<RunResult> result = loaded.program->run(args);
  ASSERT_TRUE(succeeded(result)) << loaded.errors;
  EXPECT_EQ(result->values[1].getFloat(), 42.0); // 2 * (1 + ... + 6)
  EXPECT_EQ(CountingTarget::lowered, before + 1);
  // An unknown target is an error naming the registered ones.
  SessionOptions unknown;
  unknown.target = "tpu";
  EXPECT_NE(prepareTarget(unknown).find("expected target 'cpu', 'gpu'"),
            std::string::npos)
      << prepareTarget(unknown);
}

/// A target on a device runtime of its own, "test-device": its programs are
/// the CPU's, but its execution half (when registered) counts its
/// preparations, names the chip and has every input copied into the pool.
class DeviceTestTarget : public CountingTarget {
public:
  StringRef getName() const override { return "device-test"; }
  bool runsOnDevice() const override { return true; }
  StringRef getDeviceRuntime() const override { return "test-device"; }
};

class TestDeviceExecution : public TargetExecution {
public:
  StringRef getDeviceRuntime() const override { return "test-device"; }
  std::string prepare(SessionOptions &options) const override {
    ++prepared;
    if (options.gpuChip.empty())
      options.gpuChip = "test-chip";
    return "";
  }
  static inline std::atomic<int> prepared{0};
};

TEST(SessionTest, TargetExecutionPreparesAndPlacesInputs) {
  if (!lookupTarget("device-test"))
    registerTarget(std::make_unique<DeviceTestTarget>());
  const Target *target = lookupTarget("device-test");
  ASSERT_NE(target, nullptr);
  // Before its runtime is registered the target cannot run, and says why.
  if (!getTargetExecution(*target)) {
    SessionOptions options;
    options.target = "device-test";
    EXPECT_EQ(prepareTarget(options),
              "--target=device-test: this AMLS has no 'test-device' runtime");
    registerTargetExecution(std::make_unique<TestDeviceExecution>());
  }
  ASSERT_NE(getTargetExecution(*target), nullptr);
  SessionOptions options;
  options.target = "device-test";
  int before = TestDeviceExecution::prepared;
  EXPECT_EQ(prepareTarget(options), "");
  EXPECT_EQ(options.gpuChip, "test-chip");
  EXPECT_EQ(TestDeviceExecution::prepared, before + 1);

  // A run prepares the target and copies each input into the pool (the
  // device does not read the caller's memory); the result is the CPU's.
  LoadedProgram loaded(kScaleProgram, 1, false, "device-test");
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  runtime::Matrix x = iota(2, 3);
  FailureOr<RunResult> result =
      loaded.program->run({borrowed(x), RuntimeValue::ofFloat(2.0)});
  ASSERT_TRUE(succeeded(result)) << loaded.errors;
  EXPECT_EQ(result->values[1].getFloat(), 42.0); // 2 * (1 + ... + 6)
  SessionStatistics statistics = loaded.session.getStatistics();
  EXPECT_EQ(statistics.inputCopies, 1u);
  EXPECT_EQ(statistics.inputCopyBytes, 6 * sizeof(double));
  EXPECT_EQ(TestDeviceExecution::prepared, before + 2);
}

TEST(SessionTest, ReturnsIntegersAndBooleans) {
  LoadedProgram loaded(kGramProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  // X = [1 2; 3 4; 5 6]: t(X) %*% X = [35 44; 44 56], 3 rows, sum 21 > 0.
  runtime::Matrix x = iota(3, 2);
  FailureOr<RunResult> run = loaded.program->run({borrowed(x)});
  ASSERT_TRUE(succeeded(run)) << loaded.errors;
  ASSERT_EQ(run->values.size(), 3u);
  EXPECT_EQ(run->values[0].getMatrix().toVector(),
            (std::vector<double>{35, 44, 44, 56}));
  EXPECT_EQ(run->values[1].getKind(), RuntimeValue::Kind::Integer);
  EXPECT_EQ(run->values[1].getInteger(), 3);
  EXPECT_EQ(run->values[2].getInteger(), 1); // true is 1, not -1
}

TEST(SessionTest, ReadsNonContiguousInputs) {
  LoadedProgram loaded(kGramProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  // The 3x2 matrix [1 2; 3 4; 5 6] stored column by column.
  std::vector<double> columnMajor = {1, 3, 5, 2, 4, 6};
  MatrixValue x = MatrixValue::borrowDense(columnMajor.data(), 3, 2,
                                           /*rowStride=*/1, /*colStride=*/3);
  EXPECT_FALSE(x.isContiguousRowMajor());
  FailureOr<RunResult> run =
      loaded.program->run({RuntimeValue::ofMatrix(std::move(x))});
  ASSERT_TRUE(succeeded(run)) << loaded.errors;
  EXPECT_EQ(run->values[0].getMatrix().toVector(),
            (std::vector<double>{35, 44, 44, 56}));
}

TEST(SessionTest, ReturnsOneMatrix) {
  // One result: the C interface returns it through a pointer passed first
  // (one scalar comes back as the return value: RejectsAWrongShape).
  LoadedProgram loaded(R"mlir(
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"}) -> !amls.matrix<?x?xf64> {
  %t = amls.transpose %X : !amls.matrix<?x?xf64> -> !amls.matrix<?x?xf64>
  return %t : !amls.matrix<?x?xf64>
}
)mlir");
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  runtime::Matrix x = iota(2, 3);
  FailureOr<RunResult> run = loaded.program->run({borrowed(x)});
  ASSERT_TRUE(succeeded(run)) << loaded.errors;
  ASSERT_EQ(run->values.size(), 1u);
  const MatrixValue &t = run->values[0].getMatrix();
  EXPECT_EQ(t.getRows(), 3);
  EXPECT_EQ(t.getCols(), 2);
  EXPECT_EQ(t.toVector(), (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

//===----------------------------------------------------------------------===//
// Ownership of results
//===----------------------------------------------------------------------===//

TEST(SessionTest, ResultAliasingAnInputIsACopy) {
  LoadedProgram loaded(kAliasProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  runtime::Matrix x = iota(2, 2);
  FailureOr<RunResult> run = loaded.program->run({borrowed(x)});
  ASSERT_TRUE(succeeded(run)) << loaded.errors;
  ASSERT_EQ(run->values.size(), 3u);
  // The input came in borrowed; the result that is the input comes back in
  // a buffer of its own that the result owns, not in the caller's memory.
  const MatrixValue &same = run->values[0].getMatrix();
  EXPECT_TRUE(same.ownsMemory());
  EXPECT_NE(same.getRef().data, static_cast<void *>(x.data.data()));
  EXPECT_NE(same.getRef().allocation, static_cast<void *>(x.data.data()));
  EXPECT_EQ(same.toVector(), (std::vector<double>{1, 2, 3, 4}));
  x.data.assign(4, -1.0);
  EXPECT_EQ(same.toVector(), (std::vector<double>{1, 2, 3, 4}));
  // The input itself was not written.
  EXPECT_EQ(run->values[1].getMatrix().toVector(),
            (std::vector<double>{2, 3, 4, 5}));
}

TEST(SessionTest, InPlaceUpdatesLeaveBorrowedInputsAlone) {
  // X = X * 0.5 + 1 three times in a for loop and Y = Y + 1 three times in a
  // while loop, starting from the borrowed inputs: the updates write into
  // the carried buffers (--amls-elementwise-in-place), which must be copies
  // of the caller's, never the caller's own memory.
  LoadedProgram loaded(R"mlir(
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"},
                %Y: !amls.matrix<?x?xf64> {amls.name = "Y"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %three = arith.constant 3.0 : f64
  %zero = arith.constant 0.0 : f64
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%A = %X) -> (!amls.matrix<?x?xf64>) {
    %h = amls.mul %A, %half : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
    %n = amls.add %h, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
    scf.yield %n : !amls.matrix<?x?xf64>
  }
  %w:2 = scf.while (%B = %Y, %k = %zero) : (!amls.matrix<?x?xf64>, f64) -> (!amls.matrix<?x?xf64>, f64) {
    %go = arith.cmpf olt, %k, %three : f64
    scf.condition(%go) %B, %k : !amls.matrix<?x?xf64>, f64
  } do {
  ^bb0(%B: !amls.matrix<?x?xf64>, %k: f64):
    %n = amls.add %B, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
    %next = arith.addf %k, %one : f64
    scf.yield %n, %next : !amls.matrix<?x?xf64>, f64
  }
  return %r, %w#0 : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>
}
)mlir");
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  runtime::Matrix x = iota(2, 2, 2.0), y = iota(2, 2);
  for (int run = 0; run < 2; ++run) {
    FailureOr<RunResult> result =
        loaded.program->run({borrowed(x), borrowed(y)});
    ASSERT_TRUE(succeeded(result)) << loaded.errors;
    // x -> x / 8 + 1.75 after three halvings; y + 3.
    EXPECT_EQ(result->values[0].getMatrix().toVector(),
              (std::vector<double>{2, 2.125, 2.25, 2.375}));
    EXPECT_EQ(result->values[1].getMatrix().toVector(),
              (std::vector<double>{4, 5, 6, 7}));
    EXPECT_EQ(x.data, (runtime::memory::Vector<double>{2, 3, 4, 5}));
    EXPECT_EQ(y.data, (runtime::memory::Vector<double>{1, 2, 3, 4}));
  }
}

TEST(SessionTest, OneBufferReturnedTwiceIsFreedOnce) {
  LoadedProgram loaded(kAliasProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  runtime::Matrix x = iota(2, 2);
  FailureOr<RunResult> run = loaded.program->run({borrowed(x)});
  ASSERT_TRUE(succeeded(run)) << loaded.errors;
  const MatrixValue &first = run->values[1].getMatrix();
  const MatrixValue &second = run->values[2].getMatrix();
  EXPECT_EQ(first.toVector(), second.toVector());
  // Either the compiled code copied one of them or both share one owner,
  // which frees the buffer once (a double free would abort this test).
  if (first.getRef().allocation == second.getRef().allocation) {
    EXPECT_EQ(first.getNumOwners(), 2);
  }
}

TEST(SessionTest, CSRResultsSharingBuffersAreFreedOnce) {
  LoadedProgram loaded(kSharedCSRProgram, /*threads=*/1, /*csrResults=*/true);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  // A 200 x 100 CSR input with 3 non-zeros per row: (r, c) = r + c + 1 at
  // columns r % 100, (r + 7) % 100 and (r + 50) % 100, sorted.
  int64_t rows = 200, cols = 100;
  std::vector<int64_t> offsets{0};
  std::vector<int32_t> columns;
  std::vector<double> values;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int32_t> row{int32_t(r % 100), int32_t((r + 7) % 100),
                             int32_t((r + 50) % 100)};
    std::sort(row.begin(), row.end());
    for (int32_t c : row) {
      columns.push_back(c);
      values.push_back(double(r + c + 1));
    }
    offsets.push_back(int64_t(columns.size()));
  }
  uint64_t liveBefore = loaded.session.getStatistics().liveBytes;
  {
    FailureOr<RunResult> run =
        loaded.program->run({RuntimeValue::ofMatrix(MatrixValue::borrowCSR(
            rows, cols, offsets.data(), columns.data(), values.data()))});
    ASSERT_TRUE(succeeded(run)) << loaded.errors;
    ASSERT_EQ(run->values.size(), 3u);
    for (double factor : {2.0, 3.0}) {
      const MatrixValue &m = run->values[factor == 2.0 ? 0 : 1].getMatrix();
      ASSERT_TRUE(m.isCSR());
      EXPECT_EQ(m.getNumStored(), 3 * rows);
      std::vector<double> cells = m.toVector();
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t k = offsets[r]; k < offsets[r + 1]; ++k)
          EXPECT_EQ(cells[r * cols + columns[k]],
                    factor * values[k] * values[k]);
    }
    // The third result is the first: one set of buffers, owned once, which
    // neither value may hand over alone.
    const MatrixValue &first = run->values[0].getMatrix();
    MatrixValue &third = run->values[2].getMatrix();
    EXPECT_EQ(first.getRef().allocation, third.getRef().allocation);
    EXPECT_EQ(first.getNumOwners(), 2);
    EXPECT_FALSE(third.release().has_value());
  }
  // Every buffer went back to the pool once: a buffer released twice would
  // count its bytes off twice.
  EXPECT_EQ(loaded.session.getStatistics().liveBytes, liveBefore);
}

TEST(SessionTest, ResultsOutliveTheSession) {
  MatrixValue scaled;
  double sum = 0.0;
  {
    LoadedProgram loaded(kScaleProgram);
    ASSERT_NE(loaded.program, nullptr) << loaded.errors;
    runtime::Matrix x = iota(3, 3);
    FailureOr<RunResult> run =
        loaded.program->run({borrowed(x), RuntimeValue::ofFloat(0.5)});
    ASSERT_TRUE(succeeded(run)) << loaded.errors;
    scaled = run->values[0].getMatrix();
    sum = run->values[1].getFloat();
  }
  // The session, its JIT-compiled code and the run are gone; the result
  // still owns the buffer the compiled code allocated.
  EXPECT_TRUE(scaled.ownsMemory());
  EXPECT_EQ(scaled.getNumOwners(), 1);
  EXPECT_EQ(scaled.toVector(),
            (std::vector<double>{0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5}));
  EXPECT_EQ(sum, 22.5);

  // Handed over: the caller returns it to the runtime's pool.
  std::optional<AmlsMatrixRef> released = scaled.release();
  ASSERT_TRUE(released.has_value());
  EXPECT_FALSE(scaled.ownsMemory());
  EXPECT_EQ(released->rows, 3);
  EXPECT_EQ(static_cast<double *>(released->data)[8], 4.5);
  runtime::memory::release(released->allocation);
}

TEST(SessionTest, BorrowedAndSharedMemoryIsNotReleased) {
  runtime::Matrix x = iota(2, 2);
  MatrixValue borrowedView = MatrixValue::borrow(x);
  EXPECT_FALSE(borrowedView.release().has_value());

  LoadedProgram loaded(kScaleProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  FailureOr<RunResult> run =
      loaded.program->run({borrowed(x), RuntimeValue::ofFloat(1.0)});
  ASSERT_TRUE(succeeded(run)) << loaded.errors;
  MatrixValue copy = run->values[0].getMatrix();
  EXPECT_FALSE(copy.release().has_value()); // shared with run->values[0]
  EXPECT_EQ(copy.toVector(), (std::vector<double>{1, 2, 3, 4}));
}

//===----------------------------------------------------------------------===//
// Bad programs and bad inputs
//===----------------------------------------------------------------------===//

TEST(SessionTest, RejectsAScalarForAMatrix) {
  LoadedProgram loaded(kScaleProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  EXPECT_TRUE(failed(loaded.program->run(
      {RuntimeValue::ofFloat(1.0), RuntimeValue::ofFloat(2.0)})));
  EXPECT_EQ(loaded.errors, "parameter 'X' is declared '!amls.matrix<?x?xf64>' "
                           "but was given a scalar");
}

TEST(SessionTest, RejectsAWrongShape) {
  LoadedProgram loaded(kFixedShapeProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  runtime::Matrix x = iota(2, 2);
  EXPECT_TRUE(failed(loaded.program->run({borrowed(x)})));
  EXPECT_EQ(loaded.errors, "parameter 'X' is declared '!amls.matrix<3x2xf64>' "
                           "but the input is 2x2");
  // The session is still usable.
  loaded.errors.clear();
  runtime::Matrix right = iota(3, 2);
  FailureOr<RunResult> run = loaded.program->run({borrowed(right)});
  ASSERT_TRUE(succeeded(run)) << loaded.errors;
  EXPECT_EQ(run->values[0].getFloat(), 21.0);
}

TEST(SessionTest, RejectsAWrongNumberOfArguments) {
  LoadedProgram loaded(kScaleProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  runtime::Matrix x = iota(2, 2);
  EXPECT_TRUE(failed(loaded.program->run({borrowed(x)})));
  EXPECT_EQ(loaded.errors, "expected 2 arguments, found 1");
}

TEST(SessionTest, RejectsAMissingEntryAndUnreturnableResults) {
  LoadedProgram missing(kScaleProgram);
  Session &session = missing.session;
  auto module =
      parseSourceString<ModuleOp>(kScaleProgram, &session.getContext());
  ASSERT_TRUE(module);
  EXPECT_TRUE(failed(session.load(std::move(module), "train")));
  EXPECT_NE(missing.errors.find("no function 'train' to run; functions: main"),
            std::string::npos)
      << missing.errors;

  LoadedProgram vector(R"mlir(
func.func @main() -> vector<4xf64> {
  %0 = arith.constant dense<1.0> : vector<4xf64>
  return %0 : vector<4xf64>
}
)mlir");
  EXPECT_EQ(vector.program, nullptr);
  EXPECT_EQ(vector.errors, "result #0 has type 'vector<4xf64>', which the "
                           "execution session cannot return (matrices, floats "
                           "and integers only)");
}

//===----------------------------------------------------------------------===//
// Sessions on several threads at once
//===----------------------------------------------------------------------===//

TEST(SessionTest, SessionsRunConcurrentlyOnThreads) {
  // Three sessions, each on its own thread: two different programs, and the
  // first program twice with other inputs. Every run's results are checked
  // against values derived by hand, so results crossing between sessions
  // (as through a process-wide result list) would fail.
  constexpr int kRuns = 25;
  std::atomic<int> ready{0};
  std::atomic<int> failures{0};
  auto waitForAll = [&] {
    ++ready;
    while (ready.load() < 3)
      std::this_thread::yield();
  };
  auto expect = [&](bool ok) {
    if (!ok)
      ++failures;
  };

  auto scaleWorker = [&](double scale, double first) {
    LoadedProgram loaded(kScaleProgram);
    expect(loaded.program != nullptr);
    if (!loaded.program)
      return waitForAll();
    waitForAll(); // compile and run at the same time as the others
    for (int i = 0; i < kRuns; ++i) {
      // (i % 3 + 1) x 4 cells first + i, first + i + 1, ... (never 0: the
      // sparsity stays 1); three sizes, so three compilations and cache
      // hits for the other runs.
      int64_t rows = i % 3 + 1;
      runtime::Matrix x = iota(rows, 4, first + i);
      FailureOr<RunResult> run =
          loaded.program->run({borrowed(x), RuntimeValue::ofFloat(scale)});
      expect(succeeded(run));
      if (failed(run))
        continue;
      int64_t n = rows * 4;
      double a = first + i;
      // sum of a, a + 1, ..., a + n - 1, scaled.
      double expectedSum = scale * (n * a + n * (n - 1) / 2.0);
      expect(run->values[1].getFloat() == expectedSum);
      std::vector<double> cells = run->values[0].getMatrix().toVector();
      expect(static_cast<int64_t>(cells.size()) == n);
      for (int64_t k = 0; k < n && k < static_cast<int64_t>(cells.size()); ++k)
        expect(cells[k] == scale * (a + k));
    }
    expect(loaded.session.getStatistics().compilations == 3);
    expect(loaded.errors.empty());
  };

  auto gramWorker = [&] {
    LoadedProgram loaded(kGramProgram);
    expect(loaded.program != nullptr);
    if (!loaded.program)
      return waitForAll();
    waitForAll();
    for (int i = 0; i < kRuns; ++i) {
      // X = [a a+1; a+2 a+3; a+4 a+5]: t(X) %*% X =
      // [3a^2+12a+20, 3a^2+15a+26; 3a^2+15a+26, 3a^2+18a+35].
      // No zeros: every input has the same sparsity, so one specialization.
      double a = i + 1;
      runtime::Matrix x = iota(3, 2, a);
      FailureOr<RunResult> run = loaded.program->run({borrowed(x)});
      expect(succeeded(run));
      if (failed(run))
        continue;
      double offDiagonal = 3 * a * a + 15 * a + 26;
      expect(run->values[0].getMatrix().toVector() ==
             std::vector<double>{3 * a * a + 12 * a + 20, offDiagonal,
                                 offDiagonal, 3 * a * a + 18 * a + 35});
      expect(run->values[1].getInteger() == 3);
      expect(run->values[2].getInteger() == 1);
    }
    expect(loaded.session.getStatistics().compilations == 1);
    expect(loaded.errors.empty());
  };

  std::thread scaleByTwo(scaleWorker, 2.0, 1.0);
  std::thread scaleByHalf(scaleWorker, 0.5, -40.5);
  std::thread gram(gramWorker);
  scaleByTwo.join();
  scaleByHalf.join();
  gram.join();
  EXPECT_EQ(failures.load(), 0);
}

/// X + 1, X + 2 and X + 3, and the thread count the runtime gives the
/// run's kernels, read inside the compiled program.
constexpr const char *kContextProgram = R"mlir(
func.func private @amls_rt_get_num_threads() -> i32
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"})
    -> (!amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, i64) {
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  %three = arith.constant 3.0 : f64
  %0 = amls.add %X, %one : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %1 = amls.add %X, %two : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %2 = amls.add %X, %three : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %threads = func.call @amls_rt_get_num_threads() : () -> i32
  %wide = arith.extsi %threads : i32 to i64
  return %0, %1, %2, %wide : !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, !amls.matrix<?x?xf64>, i64
}
)mlir";

TEST(SessionTest, EachSessionHasItsOwnRuntimeContext) {
  // Two sessions at once on two threads: one with 1 thread and a 4 MiB
  // budget, one with 2 threads and 64 MiB. Each runs a program with three
  // results X + k: first for a 300 x 300 X, whose three results (2.25 MiB
  // in the pool's size classes) the caller holds on to, then for a small X
  // and for a 512 x 512 X (2 MiB results, each of which the compiler
  // accepts under either budget), over and over. With the held results,
  // the first session's large runs fail on its own budget at their first
  // buffer (so a failed run leaves nothing allocated), while the second
  // one's succeed; each program sees its own session's thread count; each
  // session's statistics count only its own buffers.
  constexpr int kRuns = 20;
  constexpr int64_t kLarge = 512, kMedium = 300, kSmall = 16;
  constexpr uint64_t kResultBytes = kLarge * kLarge * sizeof(double);
  runtime::Matrix large = iota(kLarge, kLarge), small = iota(kSmall, kSmall),
                  medium = iota(kMedium, kMedium);
  std::atomic<int> ready{0};
  struct Outcome {
    std::string loadErrors, lastFailure;
    int largeFailures = 0, largeSuccesses = 0;
    int smallFailures = 0, smallSuccesses = 0;
    int wrongThreads = 0, wrongCells = 0;
    uint64_t heldLiveBytes = 0;
    SessionStatistics statistics;
  };
  auto worker = [&](unsigned threads, uint64_t limit, Outcome &outcome) {
    SessionOptions options;
    options.threads = threads;
    options.memoryLimit = limit;
    options.returnRunFailures = true;
    Session session(options);
    std::string errors;
    ScopedDiagnosticHandler handler(&session.getContext(),
                                    [&](Diagnostic &diagnostic) {
                                      errors = diagnostic.str();
                                      return success();
                                    });
    auto module =
        parseSourceString<ModuleOp>(kContextProgram, &session.getContext());
    FailureOr<Program *> program = failure();
    if (module)
      program = session.load(std::move(module));
    ++ready;
    while (ready.load() < 2) // run at the same time as the other session
      std::this_thread::yield();
    if (failed(program)) {
      outcome.loadErrors = errors.empty() ? "no module" : errors;
      return;
    }
    FailureOr<RunResult> held = (*program)->run({borrowed(medium)});
    if (failed(held)) {
      outcome.loadErrors = "the held run failed: " + errors;
      return;
    }
    for (int i = 0; i < kRuns; ++i) {
      bool isLarge = i >= kRuns / 2;
      const runtime::Matrix &x = isLarge ? large : small;
      FailureOr<RunResult> run = (*program)->run({borrowed(x)});
      if (failed(run)) {
        ++(isLarge ? outcome.largeFailures : outcome.smallFailures);
        outcome.lastFailure = errors;
        continue;
      }
      ++(isLarge ? outcome.largeSuccesses : outcome.smallSuccesses);
      outcome.wrongThreads += run->values[3].getInteger() != threads;
      for (int k = 0; k < 3; ++k) {
        std::vector<double> cells = run->values[k].getMatrix().toVector();
        outcome.wrongCells += cells.size() != x.data.size();
        for (size_t c = 0; c < cells.size(); c += 997)
          outcome.wrongCells += cells[c] != x.data[c] + k + 1;
      }
    }
    outcome.heldLiveBytes = session.getStatistics().liveBytes;
    held->values.clear();
    outcome.statistics = session.getStatistics();
  };
  Outcome tight, roomy;
  std::thread first(worker, 1u, uint64_t(4) << 20, std::ref(tight));
  std::thread second(worker, 2u, uint64_t(64) << 20, std::ref(roomy));
  first.join();
  second.join();
  ASSERT_EQ(tight.loadErrors, "");
  ASSERT_EQ(roomy.loadErrors, "");

  // The budgets: a 2 MiB result beside the held 2.25 MiB never fits 4 MiB,
  // always 64 MiB, and the small runs fit both.
  EXPECT_EQ(tight.largeFailures, kRuns / 2);
  EXPECT_EQ(tight.statistics.failedRuns, unsigned(kRuns / 2));
  EXPECT_NE(tight.lastFailure.find("out of memory"), std::string::npos)
      << tight.lastFailure;
  EXPECT_NE(tight.lastFailure.find("memory limit of 4194304 bytes"),
            std::string::npos)
      << tight.lastFailure;
  EXPECT_EQ(roomy.largeSuccesses, kRuns / 2);
  EXPECT_EQ(roomy.statistics.failedRuns, 0u);
  EXPECT_EQ(tight.smallSuccesses, kRuns / 2);
  EXPECT_EQ(roomy.smallSuccesses, kRuns / 2);
  EXPECT_EQ(tight.wrongCells + roomy.wrongCells, 0);

  // The thread counts, as the programs saw them while both ran.
  EXPECT_EQ(tight.wrongThreads, 0);
  EXPECT_EQ(roomy.wrongThreads, 0);
  EXPECT_EQ(tight.statistics.runtimeThreads, 1);
  EXPECT_EQ(roomy.statistics.runtimeThreads, 2);

  // The statistics: each session's limit, and a peak of its own buffers
  // only: the roomy session held three results at once, the tight one
  // never more than its 4 MiB although the other held 6 MiB meanwhile.
  EXPECT_EQ(tight.statistics.memoryLimit, uint64_t(4) << 20);
  EXPECT_EQ(roomy.statistics.memoryLimit, uint64_t(64) << 20);
  EXPECT_LE(tight.statistics.peakLiveBytes, uint64_t(4) << 20);
  EXPECT_GE(roomy.statistics.peakLiveBytes, 3 * kResultBytes);
  EXPECT_GT(tight.statistics.allocations, 0u);
  EXPECT_GT(roomy.statistics.allocations, 0u);
  // The held results were in each session's account, and once released
  // nothing is: no failed run left a buffer behind.
  EXPECT_GE(tight.heldLiveBytes, 3 * uint64_t(kMedium * kMedium * 8));
  EXPECT_EQ(tight.heldLiveBytes, roomy.heldLiveBytes);
  EXPECT_EQ(tight.statistics.liveBytes, 0u);
  EXPECT_EQ(roomy.statistics.liveBytes, 0u);
}

// Large inputs have their sparsity sampled; a sample without non-zeros is
// checked on every cell, because an all-zero input lets the optimizer fold
// sum(X * s) to 0. One non-zero cell that no sample hits must survive.
TEST(SessionTest, SampledSparsityNeverClaimsAllZero) {
  LoadedProgram loaded(kScaleProgram);
  ASSERT_NE(loaded.program, nullptr) << loaded.errors;
  runtime::Matrix x;
  x.rows = 2000;
  x.cols = 1000;
  x.data.assign(2000 * 1000, 0.0);
  x.data[1] = 3.0; // the sample's cells are far apart, from cell 244 on
  FailureOr<RunResult> run =
      loaded.program->run({borrowed(x), RuntimeValue::ofFloat(2.0)});
  ASSERT_TRUE(succeeded(run)) << loaded.errors;
  EXPECT_EQ(run->values[1].getFloat(), 6.0);
  // All zeros really: 0, through the exact count.
  x.data[1] = 0.0;
  run = loaded.program->run({borrowed(x), RuntimeValue::ofFloat(2.0)});
  ASSERT_TRUE(succeeded(run)) << loaded.errors;
  EXPECT_EQ(run->values[1].getFloat(), 0.0);
}
