//===- SparseProductsTest.cpp - CSR products against dense loops ----------===//
//
// Each product is checked against loops over the dense cells that take a
// term only where the sparse operand stores an entry (implicit zeros are
// exact zeros), within a relative tolerance of the sum of the terms'
// magnitudes. Kernels whose summation order depends on the rows only must
// also give bitwise the same result at 1 and 2 threads.
//
//===----------------------------------------------------------------------===//

#include "SparseTestSupport.h"

using namespace amls::sparsetest;

namespace {

class SparseProducts : public testing::TestWithParam<CaseAndThreads> {
protected:
  void SetUp() override {
    threadCount = std::get<1>(GetParam());
    threads = std::make_unique<ThreadScope>(threadCount);
    a = testCase(std::get<0>(GetParam()));
    cells = a.dense();
    pattern = a.pattern();
  }
  bool large() const { return a.rows * a.cols > 100000; }
  /// Runs `kernel` again at 1 thread and expects bitwise the same result.
  template <typename Kernel>
  void expectSameAtOneThread(const std::vector<double> &result, Kernel kernel) {
    if (threadCount == 1)
      return;
    ThreadScope one(1);
    std::vector<double> again = kernel();
    ASSERT_EQ(again.size(), result.size());
    for (size_t i = 0; i < result.size(); ++i)
      ASSERT_TRUE(same(again[i], result[i]) &&
                  std::signbit(again[i]) == std::signbit(result[i]))
          << "cell " << i << ": " << again[i] << " at 1 thread, " << result[i]
          << " at 2";
  }

  int32_t threadCount = 1;
  std::unique_ptr<ThreadScope> threads;
  Csr a;
  std::vector<double> cells;
  std::vector<char> pattern;
};

const Layout kLayouts[] = {Layout::RowMajor, Layout::Padded,
                           Layout::ColumnMajor};

TEST_P(SparseProducts, SpmmMatchesDenseLoops) {
  std::vector<int64_t> widths = {1, 2, 3, 4, 8, 16, 32, 37};
  if (large())
    widths = {1, 3, 8, 32};
  for (size_t w = 0; w < widths.size(); ++w) {
    int64_t k = widths[w];
    for (size_t variant = 0; variant < (k == 1 ? 3 : 1); ++variant) {
      Layout bLayout = kLayouts[(w + variant) % 3],
             cLayout = kLayouts[(w + variant + 1) % 3];
      SCOPED_TRACE("k = " + std::to_string(k) + ", layouts " +
                   std::to_string(static_cast<int>(bLayout)) + "/" +
                   std::to_string(static_cast<int>(cLayout)));
      std::vector<double> bCells = randomCells(a.cols * k, 10 + k, -1, 1);
      Dense b(a.cols, k, bCells, bLayout);
      auto run = [&] {
        Dense c(a.rows, k, cLayout);
        _mlir_ciface_amls_rt_csr_spmm(a.rowptr.desc(), a.colidx.desc(),
                                      a.values.desc(), a.cols, b.desc(),
                                      c.desc());
        return c.cells();
      };
      std::vector<double> got = run();
      for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t q = 0; q < k; ++q) {
          double want = 0, magnitude = 0;
          for (int64_t l = 0; l < a.cols; ++l)
            if (pattern[i * a.cols + l]) {
              double term = cells[i * a.cols + l] * bCells[l * k + q];
              want += term;
              magnitude += std::fabs(term);
            }
          ASSERT_TRUE(close(got[i * k + q], want, magnitude))
              << "cell (" << i << ", " << q << ")";
        }
      expectSameAtOneThread(got, run);
    }
  }
}

TEST_P(SparseProducts, TransposedSpmmMatchesDenseLoops) {
  std::vector<int64_t> widths = {1, 2, 3, 4, 8, 13};
  if (large())
    widths = {1, 2, 8};
  for (size_t w = 0; w < widths.size(); ++w) {
    int64_t k = widths[w];
    for (size_t variant = 0; variant < (k == 1 ? 3 : 1); ++variant) {
      Layout bLayout = kLayouts[(w + variant) % 3],
             cLayout = kLayouts[(w + variant + 2) % 3];
      SCOPED_TRACE("k = " + std::to_string(k));
      std::vector<double> bCells = randomCells(a.rows * k, 20 + k, -1, 1);
      Dense b(a.rows, k, bCells, bLayout), c(a.cols, k, cLayout);
      _mlir_ciface_amls_rt_csr_spmm_t(a.rowptr.desc(), a.colidx.desc(),
                                      a.values.desc(), a.cols, b.desc(),
                                      c.desc());
      std::vector<double> got = c.cells(), want(a.cols * k, 0.0),
                          magnitude(a.cols * k, 0.0);
      for (int64_t i = 0; i < a.rows; ++i)
        for (int64_t j = 0; j < a.cols; ++j)
          if (pattern[i * a.cols + j])
            for (int64_t q = 0; q < k; ++q) {
              double term = cells[i * a.cols + j] * bCells[i * k + q];
              want[j * k + q] += term;
              magnitude[j * k + q] += std::fabs(term);
            }
      for (int64_t j = 0; j < a.cols * k; ++j)
        ASSERT_TRUE(close(got[j], want[j], magnitude[j])) << "cell " << j;
    }
  }
}

TEST_P(SparseProducts, DenseTimesCsrMatchesDenseLoops) {
  // m = 11: a column-major A (t(D) %*% X) with more rows than threads, which
  // the kernel computes as the transposed product too.
  for (int64_t m : {1, 2, 7, 11}) {
    Layout aLayout = kLayouts[m % 3], cLayout = kLayouts[(m + 1) % 3];
    SCOPED_TRACE("m = " + std::to_string(m));
    std::vector<double> left = randomCells(m * a.rows, 30 + m, -1, 1);
    Dense d(m, a.rows, left, aLayout), c(m, a.cols, cLayout);
    _mlir_ciface_amls_rt_dense_csr_mm(d.desc(), a.rowptr.desc(),
                                      a.colidx.desc(), a.values.desc(), a.cols,
                                      c.desc());
    std::vector<double> got = c.cells(), want(m * a.cols, 0.0),
                        magnitude(m * a.cols, 0.0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t l = 0; l < a.rows; ++l)
        for (int64_t j = 0; j < a.cols; ++j)
          if (pattern[l * a.cols + j]) {
            double term = left[i * a.rows + l] * cells[l * a.cols + j];
            want[i * a.cols + j] += term;
            magnitude[i * a.cols + j] += std::fabs(term);
          }
    for (int64_t j = 0; j < m * a.cols; ++j)
      ASSERT_TRUE(close(got[j], want[j], magnitude[j])) << "cell " << j;
  }
}

/// C = A %*% B through the two phases, checked against dense loops: the
/// pattern is the symbolic product, the values the sums.
void checkSpgemm(const Csr &a, const Csr &b, int32_t threadCount) {
  Csr left = a, right = b;
  auto run = [&](std::vector<int64_t> &rowptrOut,
                 std::vector<int32_t> &colidxOut) {
    I64 rowptr(left.rows + 1, -1);
    int64_t nnz = _mlir_ciface_amls_rt_csr_spgemm_count(
        left.rowptr.desc(), left.colidx.desc(), left.values.desc(), left.cols,
        right.rowptr.desc(), right.colidx.desc(), right.values.desc(),
        right.cols, rowptr.desc());
    I32 colidx(nnz, -1);
    F64 values(nnz, -1.0);
    _mlir_ciface_amls_rt_csr_spgemm_fill(
        left.rowptr.desc(), left.colidx.desc(), left.values.desc(), left.cols,
        right.rowptr.desc(), right.colidx.desc(), right.values.desc(),
        right.cols, rowptr.desc(), colidx.desc(), values.desc());
    rowptrOut = rowptr.values();
    colidxOut = colidx.values();
    return values.values();
  };
  std::vector<int64_t> rowptr;
  std::vector<int32_t> colidx;
  std::vector<double> values = run(rowptr, colidx);
  ASSERT_TRUE(wellFormed(rowptr, colidx, a.rows, b.cols));

  std::vector<double> aCells = a.dense(), bCells = b.dense();
  std::vector<char> aPattern = a.pattern(), bPattern = b.pattern();
  std::vector<double> want(a.rows * b.cols, 0.0),
      magnitude(a.rows * b.cols, 0.0);
  std::vector<char> wantPattern(a.rows * b.cols, 0);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t l = 0; l < a.cols; ++l)
      if (aPattern[i * a.cols + l])
        for (int64_t j = 0; j < b.cols; ++j)
          if (bPattern[l * b.cols + j]) {
            double term = aCells[i * a.cols + l] * bCells[l * b.cols + j];
            want[i * b.cols + j] += term;
            magnitude[i * b.cols + j] += std::fabs(term);
            wantPattern[i * b.cols + j] = 1;
          }
  std::vector<char> gotPattern(a.rows * b.cols, 0);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t k = rowptr[i]; k < rowptr[i + 1]; ++k) {
      int64_t cell = i * b.cols + colidx[k];
      gotPattern[cell] = 1;
      ASSERT_TRUE(close(values[k], want[cell], magnitude[cell]))
          << "cell (" << i << ", " << colidx[k] << ")";
    }
  ASSERT_EQ(gotPattern, wantPattern);

  if (threadCount > 1) {
    ThreadScope one(1);
    std::vector<int64_t> rowptr1;
    std::vector<int32_t> colidx1;
    std::vector<double> values1 = run(rowptr1, colidx1);
    EXPECT_EQ(rowptr1, rowptr);
    EXPECT_EQ(colidx1, colidx);
    for (size_t k = 0; k < values.size(); ++k)
      ASSERT_TRUE(same(values1[k], values[k])) << "entry " << k;
  }
}

TEST_P(SparseProducts, SpgemmMatchesDenseLoops) {
  // A thin random right operand with empty rows and columns, and t(A).
  std::vector<double> thinCells = randomCells(a.cols * 13, 40);
  for (int64_t l = 0; l < a.cols; ++l)
    for (int64_t j = 0; j < 13; ++j)
      if (l % 3 == 0 || j % 4 == 1)
        thinCells[l * 13 + j] = 0.0;
  checkSpgemm(a, csrOfNonZeros(a.cols, 13, thinCells), threadCount);
  if (a.rows > 3000)
    return;
  std::vector<double> transposed(a.rows * a.cols);
  std::vector<char> transposedPattern(a.rows * a.cols);
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t c = 0; c < a.cols; ++c) {
      transposed[c * a.rows + r] = cells[r * a.cols + c];
      transposedPattern[c * a.rows + r] = pattern[r * a.cols + c];
    }
  Csr t = csrOf(a.cols, a.rows, transposed, [&](int64_t r, int64_t c) {
    return transposedPattern[r * a.rows + c] != 0;
  });
  checkSpgemm(a, t, threadCount);
}

TEST_P(SparseProducts, SpgemmWithFewProductsForItsWidth) {
  // B much wider than the products formed: rows are merged from a sorted
  // list of products instead of a dense accumulator.
  if (a.rows > 64 || a.cols > 64)
    return;
  int64_t width = 200000;
  std::vector<double> wideCells(a.cols * width, 0.0);
  for (int64_t l = 0; l < a.cols; ++l)
    for (int64_t k = 0; k < 3; ++k)
      wideCells[l * width + (l * 7919 + k * 100003) % width] = 1.0 + l + k;
  checkSpgemm(a, csrOfNonZeros(a.cols, width, wideCells), threadCount);
}

TEST_P(SparseProducts, SpgemmKeepsCancelledEntries) {
  // [1 1] %*% [1; -1] = 0, stored: the pattern is symbolic.
  Csr left = csrOfNonZeros(1, 2, {1, 1}), right = csrOfNonZeros(2, 1, {1, -1});
  I64 rowptr(2, -1);
  EXPECT_EQ(_mlir_ciface_amls_rt_csr_spgemm_count(
                left.rowptr.desc(), left.colidx.desc(), left.values.desc(), 2,
                right.rowptr.desc(), right.colidx.desc(), right.values.desc(),
                1, rowptr.desc()),
            1);
  I32 colidx(1, -1);
  F64 values(1, -1.0);
  _mlir_ciface_amls_rt_csr_spgemm_fill(
      left.rowptr.desc(), left.colidx.desc(), left.values.desc(), 2,
      right.rowptr.desc(), right.colidx.desc(), right.values.desc(), 1,
      rowptr.desc(), colidx.desc(), values.desc());
  EXPECT_EQ(colidx[0], 0);
  EXPECT_EQ(values[0], 0.0);
}

TEST_P(SparseProducts, TsmmMatchesDenseLoops) {
  if (a.cols > 3000)
    return;
  std::vector<double> want(a.cols * a.cols, 0.0),
      magnitude(a.cols * a.cols, 0.0);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t j1 = 0; j1 < a.cols; ++j1)
      if (pattern[i * a.cols + j1])
        for (int64_t j2 = 0; j2 < a.cols; ++j2)
          if (pattern[i * a.cols + j2]) {
            double term = cells[i * a.cols + j1] * cells[i * a.cols + j2];
            want[j1 * a.cols + j2] += term;
            magnitude[j1 * a.cols + j2] += std::fabs(term);
          }
  for (Layout layout : kLayouts) {
    auto run = [&] {
      Dense out(a.cols, a.cols, layout);
      _mlir_ciface_amls_rt_csr_tsmm(a.rowptr.desc(), a.colidx.desc(),
                                    a.values.desc(), a.cols, out.desc());
      return out.cells();
    };
    std::vector<double> got = run();
    for (int64_t j = 0; j < a.cols * a.cols; ++j)
      ASSERT_TRUE(close(got[j], want[j], magnitude[j])) << "cell " << j;
    // Exactly symmetric.
    for (int64_t j1 = 0; j1 < a.cols; ++j1)
      for (int64_t j2 = 0; j2 < j1; ++j2)
        ASSERT_TRUE(same(got[j1 * a.cols + j2], got[j2 * a.cols + j1]));
    if (layout == Layout::RowMajor)
      expectSameAtOneThread(got, run);
  }
}

TEST_P(SparseProducts, MMChainMatchesDenseLoops) {
  std::vector<double> v = randomCells(a.cols, 50, -1, 1),
                      w = randomCells(a.rows, 51, 0, 2);
  for (int32_t useWeights : {0, 1}) {
    SCOPED_TRACE(useWeights ? "weighted" : "unweighted");
    // v as a padded column, w as a strided row view of a column-major one.
    Dense dv(a.cols, 1, v, Layout::Padded), dw(a.rows, 1, w, Layout::Padded),
        out(a.cols, 1, Layout::ColumnMajor);
    _mlir_ciface_amls_rt_csr_mmchain(a.rowptr.desc(), a.colidx.desc(),
                                     a.values.desc(), a.cols, dv.desc(),
                                     dw.desc(), out.desc(), useWeights);
    std::vector<double> q(a.rows, 0.0), qMagnitude(a.rows, 0.0);
    for (int64_t i = 0; i < a.rows; ++i) {
      for (int64_t j = 0; j < a.cols; ++j)
        if (pattern[i * a.cols + j]) {
          q[i] += cells[i * a.cols + j] * v[j];
          qMagnitude[i] += std::fabs(cells[i * a.cols + j] * v[j]);
        }
      if (useWeights) {
        q[i] *= w[i];
        qMagnitude[i] *= w[i];
      }
    }
    std::vector<double> got = out.cells();
    for (int64_t j = 0; j < a.cols; ++j) {
      double want = 0, magnitude = 0;
      for (int64_t i = 0; i < a.rows; ++i)
        if (pattern[i * a.cols + j]) {
          want += cells[i * a.cols + j] * q[i];
          magnitude += std::fabs(cells[i * a.cols + j]) * qMagnitude[i];
        }
      ASSERT_TRUE(close(got[j], want, magnitude)) << "column " << j;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, SparseProducts, allCases(), caseLabel);

// SpMM with a B beyond the caches (above 2 MiB) prefetches the rows of B
// that the entries a few ahead will read, up to the last entry of A: the
// results are those of the loops, at 1 and 2 threads.
TEST(SparseProductsLargeB, SpmmPrefetchingRowsOfB) {
  const int64_t rows = 120, cols = 33000;
  std::vector<double> cells = randomCells(rows * cols, 91, -2, 2);
  Csr a = csrOf(rows, cols, cells, [](int64_t r, int64_t c) {
    return (c * 13 + r * 7) % 811 == 0;
  });
  std::vector<char> pattern = a.pattern();
  for (int64_t k : {8, 16, 32, 5}) {
    std::vector<double> bCells = randomCells(cols * k, 92 + k, -1, 1);
    Dense b(cols, k, bCells);
    std::vector<double> first;
    for (int32_t threadCount : {1, 2}) {
      SCOPED_TRACE("k = " + std::to_string(k) + ", " +
                   std::to_string(threadCount) + " threads");
      ThreadScope scope(threadCount);
      Dense c(rows, k);
      _mlir_ciface_amls_rt_csr_spmm(a.rowptr.desc(), a.colidx.desc(),
                                    a.values.desc(), cols, b.desc(), c.desc());
      std::vector<double> got = c.cells();
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t q = 0; q < k; ++q) {
          double want = 0, magnitude = 0;
          for (int64_t l = 0; l < cols; ++l)
            if (pattern[i * cols + l]) {
              double term = cells[i * cols + l] * bCells[l * k + q];
              want += term;
              magnitude += std::fabs(term);
            }
          ASSERT_TRUE(close(got[i * k + q], want, magnitude))
              << "cell (" << i << ", " << q << ")";
        }
      if (first.empty())
        first = got;
      for (size_t e = 0; e < got.size(); ++e)
        ASSERT_TRUE(same(first[e], got[e])) << "cell " << e;
    }
  }
}

// SpMV on a matrix with few columns takes the fixed 16-lane row step (on
// CPUs with AVX2): rows of every length from 0 to 24 (the longer ones take
// the loop), the last rows within 16 entries of the end (the loop too),
// and infinities and NaN in x where rows do not reach: the lanes past a
// row's end must not pick them up. Bitwise the same at 1 and 2 threads.
TEST(SparseProductsNarrow, SpmvRowsOfEveryLength) {
  // Enough entries for two threads.
  const int64_t rows = 12000, cols = 40;
  std::vector<double> cells = randomCells(rows * cols, 77, -2, 2);
  // Row r keeps r % 25 entries among the first 30 columns, so columns 30
  // to 39 are in no row.
  Csr a = csrOf(rows, cols, cells, [](int64_t r, int64_t c) {
    return c < 30 && (c * 7 + r) % 30 < r % 25;
  });
  std::vector<double> x = randomCells(cols, 78, -1, 1);
  x[31] = std::numeric_limits<double>::infinity();
  x[35] = std::numeric_limits<double>::quiet_NaN();
  x[39] = -std::numeric_limits<double>::infinity();
  std::vector<double> dense = a.dense();
  std::vector<char> pattern = a.pattern();
  std::vector<double> first;
  for (int32_t threadCount : {1, 2}) {
    ThreadScope scope(threadCount);
    Dense b(cols, 1, x), c(rows, 1);
    _mlir_ciface_amls_rt_csr_spmm(a.rowptr.desc(), a.colidx.desc(),
                                  a.values.desc(), a.cols, b.desc(), c.desc());
    std::vector<double> got = c.cells();
    for (int64_t i = 0; i < rows; ++i) {
      double want = 0, magnitude = 0;
      for (int64_t l = 0; l < cols; ++l)
        if (pattern[i * cols + l]) {
          want += dense[i * cols + l] * x[l];
          magnitude += std::fabs(dense[i * cols + l] * x[l]);
        }
      ASSERT_TRUE(close(got[i], want, magnitude))
          << "row " << i << " at " << threadCount << " threads";
    }
    if (first.empty())
      first = got;
    for (int64_t i = 0; i < rows; ++i)
      ASSERT_TRUE(same(first[i], got[i])) << "row " << i;
  }
}

} // namespace
