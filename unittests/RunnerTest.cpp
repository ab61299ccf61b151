//===- RunnerTest.cpp - The embedding API of the JIT ---------------------===//

#include "AMLS/Runner/Runner.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::amls;

namespace {
constexpr const char *kProgram = R"mlir(
func.func @main(%X: !amls.matrix<?x?xf64> {amls.name = "X"}, %s: f64 {amls.name = "s"})
    -> (!amls.matrix<?x?xf64>, f64) {
  %0 = amls.mul %X, %s : !amls.matrix<?x?xf64>, f64 -> !amls.matrix<?x?xf64>
  %1 = amls.agg sum all %0 : !amls.matrix<?x?xf64> -> f64
  return %0, %1 : !amls.matrix<?x?xf64>, f64
}
)mlir";

runtime::Matrix matrix(int64_t rows, int64_t cols) {
  runtime::Matrix m;
  m.rows = rows;
  m.cols = cols;
  for (int64_t i = 0; i < rows * cols; ++i)
    m.data.push_back(static_cast<double>(i + 1));
  return m;
}

class RunnerTest : public ::testing::Test {
protected:
  RunnerTest() : context(makeRegistry()) {
    context.loadAllAvailableDialects();
    auto module = parseSourceString<ModuleOp>(kProgram, &context);
    RunnerOptions options;
    options.threads = 1;
    auto created = ProgramRunner::create(std::move(module), options);
    EXPECT_TRUE(succeeded(created));
    runner = std::move(*created);
  }

  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    registerRunnerDialects(registry);
    return registry;
  }

  MLIRContext context;
  std::unique_ptr<ProgramRunner> runner;
};
} // namespace

TEST_F(RunnerTest, NamesParameters) {
  ASSERT_EQ(runner->getParameters().size(), 2u);
  EXPECT_EQ(runner->getParameters()[0].name, "X");
  EXPECT_EQ(runner->findParameter("s"), 1u);
  EXPECT_EQ(runner->findParameter("1"), 1u);
  EXPECT_EQ(runner->findParameter("t"), std::nullopt);
}

TEST_F(RunnerTest, ComputesAndCachesPerSignature) {
  // 2x3 matrix 1..6 scaled by 2: cells 2..12, sum 42.
  SmallVector<RuntimeValue> args = {RuntimeValue::ofMatrix(matrix(2, 3)),
                                    RuntimeValue::ofFloat(2.0)};
  auto first = runner->run(args);
  ASSERT_TRUE(succeeded(first));
  ASSERT_EQ(first->size(), 2u);
  EXPECT_EQ((*first)[0].matrix.data,
            (std::vector<double>{2, 4, 6, 8, 10, 12}));
  EXPECT_EQ((*first)[1].number, 42.0);
  EXPECT_EQ(runner->getNumCompilations(), 1u);
  EXPECT_TRUE(runner->getLastTimes().compiled);

  // The same types again (another scalar value): no recompilation.
  args[1] = RuntimeValue::ofFloat(3.0);
  auto second = runner->run(args);
  ASSERT_TRUE(succeeded(second));
  EXPECT_EQ((*second)[1].number, 63.0);
  EXPECT_EQ(runner->getNumCompilations(), 1u);
  EXPECT_FALSE(runner->getLastTimes().compiled);

  // Another shape is another specialization.
  args[0] = RuntimeValue::ofMatrix(matrix(4, 1));
  auto third = runner->run(args);
  ASSERT_TRUE(succeeded(third));
  EXPECT_EQ((*third)[1].number, 30.0); // 3 * (1 + 2 + 3 + 4)
  EXPECT_EQ(runner->getNumCompilations(), 2u);
}

TEST_F(RunnerTest, RejectsAScalarForAMatrix) {
  std::string diagnostic;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagnostic = diag.str();
    return success();
  });
  SmallVector<RuntimeValue> args = {RuntimeValue::ofFloat(1.0),
                                    RuntimeValue::ofFloat(2.0)};
  EXPECT_TRUE(failed(runner->run(args)));
  EXPECT_EQ(diagnostic, "parameter 'X' is declared '!amls.matrix<?x?xf64>' "
                        "but was given a scalar");
}
