//===- SparseAggregatesTest.cpp - CSR aggregates against dense loops ------===//
//
// Row and column aggregates and rowMaxs(G * t(c)) against loops over every
// cell, implicit zeros included: min and max see them, NaN propagates (as
// arith.minimumf / maximumf do), an empty extent gives +inf / -inf.
//
//===----------------------------------------------------------------------===//

#include "SparseTestSupport.h"

using namespace amls::sparsetest;

namespace {

constexpr int32_t kSum = 0, kSumSq = 1, kMin = 2, kMax = 3;

/// NaN-propagating min / max.
double nanMin(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::min(a, b);
}
double nanMax(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? NAN : std::max(a, b);
}

/// The aggregate of `cells` (every cell of one row or column).
struct Aggregate {
  double value, magnitude;
};
Aggregate aggregate(int32_t kind, const std::vector<double> &cells) {
  double inf = std::numeric_limits<double>::infinity();
  Aggregate result{kind == kMin ? inf : kind == kMax ? -inf : 0.0, 0.0};
  for (double x : cells) {
    switch (kind) {
    case kSum:
      result.value += x;
      result.magnitude += std::fabs(x);
      break;
    case kSumSq:
      result.value += x * x;
      result.magnitude += x * x;
      break;
    case kMin:
      result.value = nanMin(result.value, x);
      break;
    default:
      result.value = nanMax(result.value, x);
    }
  }
  return result;
}

class SparseAggregates : public testing::TestWithParam<CaseAndThreads> {
protected:
  void SetUp() override {
    threads = std::make_unique<ThreadScope>(std::get<1>(GetParam()));
    a = testCase(std::get<0>(GetParam()));
    cells = a.dense();
  }
  std::unique_ptr<ThreadScope> threads;
  Csr a;
  std::vector<double> cells;
};

TEST_P(SparseAggregates, RowAggregatesMatchDenseLoops) {
  for (int32_t kind : {kSum, kSumSq, kMin, kMax}) {
    SCOPED_TRACE("kind " + std::to_string(kind));
    Dense out(a.rows, 1, kind % 2 ? Layout::Padded : Layout::RowMajor);
    _mlir_ciface_amls_rt_csr_row_agg(a.rowptr.desc(), a.colidx.desc(),
                                     a.values.desc(), a.cols, kind, out.desc());
    for (int64_t i = 0; i < a.rows; ++i) {
      Aggregate want = aggregate(
          kind, std::vector<double>(cells.begin() + i * a.cols,
                                    cells.begin() + (i + 1) * a.cols));
      ASSERT_TRUE(close(out.at(i, 0), want.value, want.magnitude))
          << "row " << i;
    }
  }
}

TEST_P(SparseAggregates, ColumnAggregatesMatchDenseLoops) {
  for (int32_t kind : {kSum, kSumSq, kMin, kMax}) {
    SCOPED_TRACE("kind " + std::to_string(kind));
    Dense out(1, a.cols, kind % 2 ? Layout::ColumnMajor : Layout::RowMajor);
    _mlir_ciface_amls_rt_csr_col_agg(a.rowptr.desc(), a.colidx.desc(),
                                     a.values.desc(), a.cols, kind, out.desc());
    std::vector<double> column(a.rows);
    for (int64_t j = 0; j < a.cols; ++j) {
      for (int64_t i = 0; i < a.rows; ++i)
        column[i] = cells[i * a.cols + j];
      Aggregate want = aggregate(kind, column);
      ASSERT_TRUE(close(out.at(0, j), want.value, want.magnitude))
          << "column " << j;
    }
  }
}

TEST_P(SparseAggregates, RowMaxTimesMatchesDenseLoops) {
  std::vector<char> pattern = a.pattern();
  // Signed values, and positive labels as connected components uses.
  std::vector<double> signedValues = randomCells(a.cols, 60, -3, 3),
                      labels(a.cols);
  for (int64_t j = 0; j < a.cols; ++j)
    labels[j] = static_cast<double>((j * 7919) % (a.cols + 1) + 1);
  int variant = 0;
  for (const std::vector<double> &c : {signedValues, labels}) {
    // A column (contiguous or strided) or a row (contiguous or strided).
    for (int shape = 0; shape < 4; ++shape, ++variant) {
      SCOPED_TRACE("variant " + std::to_string(variant));
      Layout layout = shape % 2 ? Layout::Padded : Layout::RowMajor;
      if (shape == 3)
        layout = Layout::ColumnMajor;
      Dense vector =
          shape < 2 ? Dense(a.cols, 1, c, layout) : Dense(1, a.cols, c, layout);
      Dense out(a.rows, 1, variant % 2 ? Layout::Padded : Layout::RowMajor);
      _mlir_ciface_amls_rt_csr_row_max_times(a.rowptr.desc(), a.colidx.desc(),
                                             a.values.desc(), a.cols,
                                             vector.desc(), out.desc());
      for (int64_t i = 0; i < a.rows; ++i) {
        double want = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < a.cols; ++j)
          want = nanMax(want, pattern[i * a.cols + j]
                                  ? cells[i * a.cols + j] * c[j]
                                  : 0.0);
        ASSERT_TRUE(same(out.at(i, 0), want))
            << "row " << i << ": " << out.at(i, 0) << " != " << want;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, SparseAggregates, allCases(), caseLabel);

// rowSums of short rows takes a fixed 16-lane step (on CPUs with AVX2):
// rows of every length from 0 to 24 (the longer ones take the loop), the
// last rows within 16 entries of the end (the loop too), and infinities and
// NaN in the rows that follow, which the lanes past a row's end load and
// must drop. Bitwise the same at 1 and 2 threads.
TEST(SparseAggregatesShortRows, RowSumsOfEveryLength) {
  const int64_t rows = 12000, cols = 30;
  std::vector<double> cells = randomCells(rows * cols, 81, -2, 2);
  for (int64_t r = 50; r < rows; r += 50)
    cells[r * cols + 29] = r % 100 ? std::numeric_limits<double>::infinity()
                                   : std::numeric_limits<double>::quiet_NaN();
  Csr a = csrOf(rows, cols, cells, [](int64_t r, int64_t c) {
    return (c * 7 + r) % 30 < r % 25 || (r % 50 == 0 && r && c == 29);
  });
  std::vector<double> dense = a.dense();
  std::vector<char> pattern = a.pattern();
  for (int32_t kind : {kSum, kSumSq}) {
    std::vector<double> first;
    for (int32_t threadCount : {1, 2}) {
      SCOPED_TRACE("kind " + std::to_string(kind) + ", " +
                   std::to_string(threadCount) + " threads");
      ThreadScope scope(threadCount);
      Dense out(rows, 1);
      _mlir_ciface_amls_rt_csr_row_agg(a.rowptr.desc(), a.colidx.desc(),
                                       a.values.desc(), cols, kind, out.desc());
      std::vector<double> got = out.cells();
      for (int64_t i = 0; i < rows; ++i) {
        std::vector<double> stored;
        for (int64_t c = 0; c < cols; ++c)
          if (pattern[i * cols + c])
            stored.push_back(dense[i * cols + c]);
        Aggregate want = aggregate(kind, stored);
        ASSERT_TRUE(close(got[i], want.value, want.magnitude)) << "row " << i;
      }
      if (first.empty())
        first = got;
      for (int64_t i = 0; i < rows; ++i)
        ASSERT_TRUE(same(first[i], got[i])) << "row " << i;
    }
  }
}

TEST(SparseAggregatesSemantics, ImplicitZerosNaNAndSignedZeros) {
  // Rows: {NaN, 1, .}, {-1, -2, .}, {-1, -2, -3}, {-0.0, ., .}, {., ., .}.
  Csr m;
  m.rows = 5;
  m.cols = 3;
  m.rowptr = I64(std::vector<int64_t>{0, 2, 4, 7, 8, 8});
  m.colidx = I32(std::vector<int32_t>{0, 1, 0, 1, 0, 1, 2, 0});
  m.values = F64(std::vector<double>{NAN, 1, -1, -2, -1, -2, -3, -0.0});
  Dense maxOut(5, 1), minOut(5, 1);
  _mlir_ciface_amls_rt_csr_row_agg(m.rowptr.desc(), m.colidx.desc(),
                                   m.values.desc(), 3, kMax, maxOut.desc());
  _mlir_ciface_amls_rt_csr_row_agg(m.rowptr.desc(), m.colidx.desc(),
                                   m.values.desc(), 3, kMin, minOut.desc());
  EXPECT_TRUE(std::isnan(maxOut.at(0, 0)));
  EXPECT_TRUE(std::isnan(minOut.at(0, 0)));
  EXPECT_EQ(maxOut.at(1, 0), 0.0);
  EXPECT_EQ(minOut.at(1, 0), -2.0);
  EXPECT_EQ(maxOut.at(2, 0), -1.0);
  EXPECT_EQ(minOut.at(2, 0), -3.0);
  // max(-0, +0) is +0 and min(-0, +0) is -0, as arith.maximumf / minimumf.
  EXPECT_EQ(maxOut.at(3, 0), 0.0);
  EXPECT_FALSE(std::signbit(maxOut.at(3, 0)));
  EXPECT_TRUE(std::signbit(minOut.at(3, 0)));
  EXPECT_EQ(maxOut.at(4, 0), 0.0);

  // Without columns every row aggregate is over nothing.
  Csr empty;
  empty.rows = 2;
  empty.rowptr = I64(std::vector<int64_t>{0, 0, 0});
  Dense out(2, 1);
  _mlir_ciface_amls_rt_csr_row_agg(empty.rowptr.desc(), empty.colidx.desc(),
                                   empty.values.desc(), 0, kMin, out.desc());
  EXPECT_EQ(out.at(1, 0), std::numeric_limits<double>::infinity());
  _mlir_ciface_amls_rt_csr_row_agg(empty.rowptr.desc(), empty.colidx.desc(),
                                   empty.values.desc(), 0, kMax, out.desc());
  EXPECT_EQ(out.at(0, 0), -std::numeric_limits<double>::infinity());
}

} // namespace
