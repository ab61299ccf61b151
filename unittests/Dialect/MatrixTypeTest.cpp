//===- MatrixTypeTest.cpp - The !amls.matrix type -------------------------===//

#include "AMLS/CostModel/PropertyLattice.h"
#include "AMLS/Dialect/AMLSDialect.h"
#include "AMLS/Dialect/AMLSOps.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::amls;

namespace {
class MatrixTypeTest : public ::testing::Test {
protected:
  MatrixTypeTest() { context.loadDialect<AMLSDialect>(); }

  /// Parses `text`, recording the first diagnostic in `error`.
  Type parse(StringRef text) {
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      if (error.empty())
        error = diag.str();
      return success();
    });
    return parseType(text, &context);
  }

  std::string print(Type type) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return text;
  }

  MLIRContext context;
  std::string error;
};
} // namespace

TEST_F(MatrixTypeTest, ParsesAllParameters) {
  auto type = dyn_cast_or_null<MatrixType>(
      parse("!amls.matrix<4x?xf64, sparsity = 0.25, format = csr>"));
  ASSERT_TRUE(type) << error;
  EXPECT_EQ(type.getRows(), 4);
  EXPECT_FALSE(type.hasStaticCols());
  EXPECT_TRUE(type.getElementType().isF64());
  EXPECT_EQ(type.getSparsity(), 0.25);
  EXPECT_EQ(type.getFormat(), MatrixFormat::CSR);
}

TEST_F(MatrixTypeTest, PrintsWhatItParses) {
  for (StringRef text :
       {"!amls.matrix<4x3xf64>", "!amls.matrix<?x?xf32>",
        "!amls.matrix<0x7xi64>", "!amls.matrix<10x1xf64, sparsity = 0.5>",
        "!amls.matrix<?x5xf64, sparsity = 1.0e-05, format = dense>",
        "!amls.matrix<2x2xf64, format = csr>"}) {
    Type type = parse(text);
    ASSERT_TRUE(type) << text.str() << ": " << error;
    EXPECT_EQ(print(type), text.str());
  }
}

TEST_F(MatrixTypeTest, RejectsBadParameters) {
  struct Case {
    const char *text;
    const char *message;
  } cases[] = {
      {"!amls.matrix<4x3x2xf64>", "expected a 2-D shape"},
      {"!amls.matrix<4x3xi32>", "element type must be f64, f32 or i64"},
      {"!amls.matrix<4x3xf64, sparsity = 1.5>", "sparsity must be in [0, 1]"},
      {"!amls.matrix<4x3xf64, format = coo>", "expected matrix format"},
      {"!amls.matrix<4x3xf64, color = 1>", "expected 'sparsity' or 'format'"},
  };
  for (const Case &c : cases) {
    error.clear();
    EXPECT_FALSE(parse(c.text)) << c.text;
    EXPECT_NE(error.find(c.message), std::string::npos)
        << c.text << " gave: " << error;
  }
}

// Negative sizes cannot be written in the textual form (the parser reads
// dimensions as unsigned): builders reach the verifier through getChecked.
TEST_F(MatrixTypeTest, RejectsNegativeSizesFromBuilders) {
  Type f64 = Float64Type::get(&context);
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(&context)); };
  struct Case {
    int64_t rows, cols;
    std::optional<double> sparsity;
    const char *message;
  } cases[] = {
      {-2, 3, std::nullopt,
       "matrix row count must be non-negative or '?', got -2"},
      {4, -7, std::nullopt,
       "matrix column count must be non-negative or '?', got -7"},
      {4, 3, -0.5, "matrix sparsity must be in [0, 1], got -5.000000e-01"},
  };
  for (const Case &c : cases) {
    error.clear();
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
      error = diag.str();
      return success();
    });
    EXPECT_FALSE(
        MatrixType::getChecked(emitError, c.rows, c.cols, f64, c.sparsity))
        << c.rows << "x" << c.cols;
    EXPECT_EQ(error, c.message);
  }
  // '?' is the one negative value that is allowed.
  EXPECT_TRUE(MatrixType::getChecked(emitError, kUnknownSize, kUnknownSize, f64,
                                     std::nullopt));
}

TEST_F(MatrixTypeTest, JoinWidensDifferences) {
  Type f64 = Float64Type::get(&context);
  auto a = MatrixType::get(4, 3, f64, 0.5);
  auto b = MatrixType::get(4, 5, f64, 0.5);
  auto c = MatrixType::get(4, 3, f64, 0.25);
  EXPECT_EQ(joinTypes(a, a), a);
  EXPECT_EQ(joinTypes(a, b), MatrixType::get(4, kUnknownSize, f64, 0.5));
  EXPECT_EQ(joinTypes(a, c), MatrixType::get(4, 3, f64));
}

TEST_F(MatrixTypeTest, RefineTakesTheMorePreciseType) {
  Type f64 = Float64Type::get(&context);
  auto declared = MatrixType::get(kUnknownSize, 3, f64);
  auto inferred = MatrixType::get(4, kUnknownSize, f64, 0.2);
  EXPECT_EQ(refineType(declared, inferred), MatrixType::get(4, 3, f64, 0.2));
  // Conflicting sizes are not a refinement: the declared type stays.
  auto conflicting = MatrixType::get(4, 5, f64);
  EXPECT_FALSE(areCompatibleMatrixTypes(declared, conflicting));
  EXPECT_EQ(refineType(declared, conflicting), declared);
}
