//===- CompressedTest.cpp - Compressed matrices against dense loops -------===//
//
// Every kernel on the compressed form is checked against plain loops over
// the dense cells, on matrices built to produce each encoding (DDC with one-
// and two-byte codes, OLE, RLE, uncompressed), co-coded groups, empty
// columns, one-hot CSR input and a group that turns out to have too many
// distinct tuples, at 1 and 2 threads. Decompression must give the cells
// back bit for bit.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Compressed.h"
#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <random>
#include <set>

using namespace amls::runtime::compressed;

namespace {

struct Dense {
  int64_t rows = 0, cols = 0;
  std::vector<double> cells;
  double &at(int64_t r, int64_t c) { return cells[r * cols + c]; }
  double at(int64_t r, int64_t c) const { return cells[r * cols + c]; }
  Source source() const { return Source::dense(rows, cols, cells.data(), cols); }
};

/// Columns that each call for one encoding, a co-coded pair, an empty
/// column and one that does not compress.
Dense mixedMatrix(int64_t rows, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Dense d{rows, 9, std::vector<double>(rows * 9, 0.0)};
  for (int64_t r = 0; r < rows; ++r) {
    d.at(r, 0) = double(1 + random() % 3);                 // DDC, 3 codes
    d.at(r, 1) = d.at(r, 0) * 10.0;                        // co-codes with 0
    d.at(r, 2) = double(random() % 40) - 7.5;              // DDC
    d.at(r, 3) = unit(random) < 0.03 ? double(1 + random() % 4) : 0.0; // OLE
    d.at(r, 4) = double((r * 5) / rows) + (r % 997 == 0);  // runs: RLE
    d.at(r, 5) = 0.0;                                      // empty
    d.at(r, 6) = unit(random);                             // uncompressed
    d.at(r, 7) = double(random() % 700);                   // two-byte DDC
    d.at(r, 8) = unit(random) < 0.5 ? -1.0 : 2.5;          // DDC, no zero
  }
  return d;
}

/// 0/1 columns of three one-hot features (4, 10 and 30 categories) as CSR.
struct OneHot {
  int64_t rows = 0, cols = 44;
  std::vector<int64_t> offsets{0};
  std::vector<int32_t> columns;
  std::vector<double> values;
  Dense dense() const {
    Dense d{rows, cols, std::vector<double>(rows * cols, 0.0)};
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t p = offsets[r]; p < offsets[r + 1]; ++p)
        d.at(r, columns[p]) = values[p];
    return d;
  }
  Source source() const {
    return Source::csr(rows, cols, offsets.data(), columns.data(),
                       values.data());
  }
};

OneHot oneHot(int64_t rows, uint64_t seed) {
  std::mt19937_64 random(seed);
  OneHot m;
  m.rows = rows;
  for (int64_t r = 0; r < rows; ++r) {
    int32_t base = 0;
    for (int32_t categories : {4, 10, 30}) {
      m.columns.push_back(base + int32_t(random() % categories));
      m.values.push_back(1.0);
      base += categories;
    }
    m.offsets.push_back(static_cast<int64_t>(m.columns.size()));
  }
  return m;
}

std::vector<double> randomVector(int64_t n, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::vector<double> v(n);
  for (double &x : v)
    x = unit(random);
  return v;
}

void expectNear(const std::vector<double> &actual,
                const std::vector<double> &expected, const char *what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t i = 0; i < actual.size(); ++i) {
    ASSERT_FALSE(std::isnan(actual[i])) << what << " cell " << i;
    ASSERT_NEAR(actual[i], expected[i], 1e-9 * (1.0 + std::fabs(expected[i])))
        << what << " cell " << i;
  }
}

/// The row sums, column sums and sum of `d`'s cells, by loops.
struct Sums {
  std::vector<double> rows, cols;
  double all = 0.0;
};
Sums sumsOf(const Dense &d) {
  Sums sums{std::vector<double>(d.rows, 0.0), std::vector<double>(d.cols, 0.0)};
  for (int64_t r = 0; r < d.rows; ++r)
    for (int64_t c = 0; c < d.cols; ++c) {
      sums.rows[r] += d.at(r, c);
      sums.cols[c] += d.at(r, c);
      sums.all += d.at(r, c);
    }
  return sums;
}

/// Every kernel of `x` against loops over `d`.
void checkKernels(const CompressedMatrix &x, const Dense &d) {
  int64_t n = d.rows, m = d.cols;
  std::vector<double> cells(n * m, -7.0);
  x.decompress(cells.data(), m);
  ASSERT_EQ(cells, d.cells) << "decompression";

  for (int64_t k : {1, 3}) {
    std::vector<double> w = randomVector(m * k, 11 + k);
    std::vector<double> expected(n * k, 0.0), actual(n * k, 5.0);
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < m; ++c)
        for (int64_t j = 0; j < k; ++j)
          expected[r * k + j] += d.at(r, c) * w[c * k + j];
    x.multiplyRight(w.data(), k, k, actual.data(), k);
    expectNear(actual, expected, k == 1 ? "X %*% v" : "X %*% W");

    std::vector<double> y = randomVector(n * k, 23 + k);
    std::vector<double> expectedLeft(m * k, 0.0), left(m * k, 5.0);
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < m; ++c)
        for (int64_t j = 0; j < k; ++j)
          expectedLeft[c * k + j] += d.at(r, c) * y[r * k + j];
    x.multiplyLeftTransposed(y.data(), k, k, left.data(), k);
    expectNear(left, expectedLeft, k == 1 ? "t(X) %*% v" : "t(X) %*% W");
  }

  // t(X) %*% (w * (X %*% v)), with and without w.
  std::vector<double> v = randomVector(m, 31), weights = randomVector(n, 37);
  for (bool weighted : {false, true}) {
    std::vector<double> xv(n, 0.0), expectedChain(m, 0.0), chain(m, 5.0);
    for (int64_t r = 0; r < n; ++r) {
      for (int64_t c = 0; c < m; ++c)
        xv[r] += d.at(r, c) * v[c];
      if (weighted)
        xv[r] *= weights[r];
    }
    for (int64_t r = 0; r < n; ++r)
      for (int64_t c = 0; c < m; ++c)
        expectedChain[c] += d.at(r, c) * xv[r];
    x.multiplyChain(v.data(), 1, weighted ? weights.data() : nullptr, 1,
                    chain.data());
    expectNear(chain, expectedChain, weighted ? "mmchain with w" : "mmchain");
  }

  std::vector<double> gram(m * m, 0.0), expectedGram(m * m, 0.0);
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < m; ++j)
        expectedGram[i * m + j] += d.at(r, i) * d.at(r, j);
  x.multiplyTransposedSelf(gram.data(), m);
  expectNear(gram, expectedGram, "t(X) %*% X");

  std::vector<double> rowSums(n), colSums(m);
  Sums expected = sumsOf(d);
  x.rowSums(rowSums.data());
  x.colSums(colSums.data());
  expectNear(rowSums, expected.rows, "rowSums");
  expectNear(colSums, expected.cols, "colSums");
  expectNear({x.sum()}, {expected.all}, "sum");
}

std::set<Encoding> encodingsOf(const CompressedMatrix &x) {
  std::set<Encoding> encodings;
  for (const GroupPlan &group : x.describeGroups())
    encodings.insert(group.encoding);
  return encodings;
}

class Compressed : public testing::TestWithParam<int32_t> {
protected:
  void SetUp() override {
    previous = amls_rt_get_num_threads();
    amls_rt_set_num_threads(GetParam());
  }
  void TearDown() override { amls_rt_set_num_threads(previous); }
  int32_t previous = 1;
};

TEST_P(Compressed, MixedColumnsUseEveryEncoding) {
  Dense d = mixedMatrix(30000, 3);
  CompressionPlan plan = planCompression(d.source());
  std::shared_ptr<const CompressedMatrix> x = compress(d.source(), plan);
  EXPECT_EQ(encodingsOf(*x),
            (std::set<Encoding>{Encoding::DDC, Encoding::OLE, Encoding::RLE,
                                Encoding::Uncompressed}))
      << plan.describe();
  // Column 1 is ten times column 0: co-coded, one tuple per pair.
  bool coCoded = false;
  for (const GroupPlan &group : x->describeGroups())
    if (std::count(group.columns.begin(), group.columns.end(), 0) &&
        std::count(group.columns.begin(), group.columns.end(), 1))
      coCoded = true;
  EXPECT_TRUE(coCoded) << plan.describe();
  // Column 7's 700 values need two-byte codes; the continuous column 6
  // stays as it is.
  for (const GroupPlan &group : x->describeGroups()) {
    if (group.columns == std::vector<int32_t>{6})
      EXPECT_EQ(group.encoding, Encoding::Uncompressed);
    if (std::count(group.columns.begin(), group.columns.end(), 7))
      EXPECT_GT(group.distinct, 256);
  }
  checkKernels(*x, d);
}

TEST_P(Compressed, ScalarOperationsRewriteDictionaries) {
  Dense d = mixedMatrix(20000, 5);
  std::shared_ptr<const CompressedMatrix> x =
      compress(d.source(), planCompression(d.source()));
  // f(0) != 0: the OLE and RLE groups' default tuple becomes non-zero.
  auto fn = [](double v) { return 2.0 * v + 1.0; };
  std::shared_ptr<const CompressedMatrix> mapped = x->map(fn);
  Dense expected = d;
  for (double &v : expected.cells)
    v = fn(v);
  checkKernels(*mapped, expected);
  // The original is unchanged (the groups share their codes and lists).
  checkKernels(*x, d);
}

TEST_P(Compressed, OneHotCSRCoCodesEachFeature) {
  OneHot m = oneHot(40000, 9);
  CompressionPlan plan = planCompression(m.source());
  EXPECT_TRUE(plan.compress) << plan.describe();
  std::shared_ptr<const CompressedMatrix> x = compress(m.source(), plan);
  // CSR takes 12 bytes a non-zero, 3 a row; co-coded DDC about one byte
  // per feature and row.
  EXPECT_LT(x->getSizeInBytes() * 3, m.source().getSizeInBytes())
      << plan.describe();
  EXPECT_LE(x->getGroups().size(), 6u) << plan.describe();
  checkKernels(*x, m.dense());
}

TEST_P(Compressed, TooManyDistinctTuplesStayUncompressed) {
  // A plan that (wrongly) groups a column of 70,000 distinct values: the
  // encoder finds out and keeps the cells.
  Dense d{70000, 2, std::vector<double>(140000)};
  for (int64_t r = 0; r < d.rows; ++r) {
    d.at(r, 0) = double(r) + 0.5;
    d.at(r, 1) = double(r % 3);
  }
  CompressionPlan plan;
  plan.groups = {{{0}, Encoding::DDC, 100, 0}, {{1}, Encoding::DDC, 3, 0}};
  std::shared_ptr<const CompressedMatrix> x = compress(d.source(), plan);
  std::vector<GroupPlan> groups = x->describeGroups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].encoding, Encoding::Uncompressed);
  EXPECT_EQ(groups[1].encoding, Encoding::DDC);
  EXPECT_EQ(groups[1].distinct, 3);
  checkKernels(*x, d);
}

TEST_P(Compressed, CoCodedKeysGrowAndOverflow) {
  // Planned groups whose columns keep bringing new values: the packed
  // column codes widen (the tuples re-entered under the new layout) past
  // the direct table's 16 bits, and a 20-column group needs more than 64
  // bits, which the encoder hands to the row walk. Both must come out as
  // the tuples the rows hold.
  Dense d{30000, 23, std::vector<double>(30000 * 23)};
  for (int64_t r = 0; r < d.rows; ++r) {
    // Two values in the first 10,000 rows, 300 after.
    double v = r < 10000 ? double(1 + r % 2) : double(1 + (r * 7) % 300);
    d.at(r, 0) = v;
    d.at(r, 1) = 2.0 * v;
    d.at(r, 2) = r % 7 == 0 ? 0.0 : v + 1.0;
    for (int64_t c = 3; c < 23; ++c)
      d.at(r, c) = double(1 + (r + c) % 50);
  }
  std::vector<int32_t> wide(20);
  std::iota(wide.begin(), wide.end(), 3);
  CompressionPlan plan;
  plan.groups = {{{0, 1, 2}, Encoding::DDC, 10, 0},
                 {wide, Encoding::DDC, 50, 0}};
  std::shared_ptr<const CompressedMatrix> x = compress(d.source(), plan);
  std::vector<GroupPlan> groups = x->describeGroups();
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].encoding, Encoding::DDC);
  // 300 values, each with and without column 2, and the zero tuple.
  EXPECT_EQ(groups[0].distinct, 601);
  EXPECT_EQ(groups[1].encoding, Encoding::DDC);
  // Row r's tuple is fixed by (r + 3) % 50: 50 tuples and the zero tuple.
  EXPECT_EQ(groups[1].distinct, 51);
  checkKernels(*x, d);
}

/// A descriptor of `data` as a rows x cols row-major matrix.
AmlsMatrixF64 descriptor(std::vector<double> &data, int64_t rows,
                         int64_t cols) {
  return {data.data(), data.data(), 0, {rows, cols}, {cols, 1}};
}

TEST_P(Compressed, CInterfaceAggregatesValuesAndDecompression) {
  // What compiled code calls (CompressedProducts.cpp): the six aggregates,
  // a scalar operation as values copied out, rewritten and put back, and a
  // counted decompression.
  Dense d = mixedMatrix(12000, 11);
  int64_t n = d.rows, m = d.cols;
  std::vector<double> cells = d.cells;
  AmlsMatrixF64 source = descriptor(cells, n, m);
  int64_t handle = _mlir_ciface_amls_rt_compressed_compress(&source, 0);

  Sums sums = sumsOf(d);
  const std::vector<double> &rowSums = sums.rows, &colSums = sums.cols;
  double sum = sums.all;
  auto aggregate = [&](AmlsCompressedAggregate kind, int64_t rows,
                       int64_t cols) {
    std::vector<double> out(rows * cols, NAN);
    AmlsMatrixF64 result = descriptor(out, rows, cols);
    _mlir_ciface_amls_rt_compressed_aggregate(handle, &result, kind);
    return out;
  };
  auto scaled = [](std::vector<double> v, double by) {
    for (double &x : v)
      x /= by;
    return v;
  };
  expectNear(aggregate(AMLS_COMPRESSED_SUM_ALL, 1, 1), {sum}, "sum");
  expectNear(aggregate(AMLS_COMPRESSED_SUM_ROWS, n, 1), rowSums, "rowSums");
  expectNear(aggregate(AMLS_COMPRESSED_SUM_COLS, 1, m), colSums, "colSums");
  expectNear(aggregate(AMLS_COMPRESSED_MEAN_ALL, 1, 1), {sum / double(n * m)},
             "mean");
  expectNear(aggregate(AMLS_COMPRESSED_MEAN_ROWS, n, 1),
             scaled(rowSums, double(m)), "rowMeans");
  expectNear(aggregate(AMLS_COMPRESSED_MEAN_COLS, 1, m),
             scaled(colSums, double(n)), "colMeans");

  // X == 2.5 (column 8's non-zero value, and no other's but by chance).
  int64_t count = amls_rt_compressed_value_count(handle);
  ASSERT_GT(count, 0);
  std::vector<double> values(count, NAN);
  AmlsMatrixF64 valuesOut = descriptor(values, count, 1);
  _mlir_ciface_amls_rt_compressed_values(handle, &valuesOut);
  for (double &v : values)
    v = v == 2.5 ? 1.0 : 0.0;
  int64_t mapped =
      _mlir_ciface_amls_rt_compressed_with_values(handle, &valuesOut);
  Statistics before = getStatistics();
  std::vector<double> decompressed(n * m, NAN);
  AmlsMatrixF64 out = descriptor(decompressed, n, m);
  _mlir_ciface_amls_rt_compressed_decompress(mapped, &out);
  Statistics after = getStatistics();
  EXPECT_EQ(after.decompressions, before.decompressions + 1);
  EXPECT_EQ(after.decompressedBytes,
            before.decompressedBytes + uint64_t(n * m * 8));
  for (int64_t i = 0; i < n * m; ++i)
    ASSERT_EQ(decompressed[i], d.cells[i] == 2.5 ? 1.0 : 0.0) << "cell " << i;
  amls_rt_compressed_release(mapped);
  amls_rt_compressed_release(handle);
}

INSTANTIATE_TEST_SUITE_P(Threads, Compressed, testing::Values(1, 2),
                         [](const testing::TestParamInfo<int32_t> &info) {
                           return std::to_string(info.param) + "threads";
                         });

TEST(CompressionPlanner, DecidesByEstimatedSize) {
  // Continuous values do not compress; categorical codes do, at least 2x.
  Dense continuous{20000, 4, randomVector(80000, 1)};
  CompressionPlan keep = planCompression(continuous.source());
  EXPECT_FALSE(keep.compress) << keep.describe();

  Dense codes{200000, 6, std::vector<double>(1200000)};
  std::mt19937_64 random(4);
  for (int64_t r = 0; r < codes.rows; ++r)
    for (int64_t c = 0; c < codes.cols; ++c)
      codes.at(r, c) = double(1 + random() % (2 + 9 * c));
  CompressionPlan plan = planCompression(codes.source());
  EXPECT_TRUE(plan.compress) << plan.describe();
  EXPECT_GE(double(plan.sourceBytes), 4.0 * double(plan.estimatedBytes))
      << plan.describe();
  // Column c has 2 + 9c values; the sample of 16,384 rows sees them all,
  // so GEE is exact where columns are not merged.
  for (const GroupPlan &group : plan.groups)
    if (group.columns.size() == 1)
      EXPECT_EQ(group.distinct, 3 + 9 * group.columns[0]) << plan.describe();
  std::shared_ptr<const CompressedMatrix> x = compress(codes.source(), plan);
  EXPECT_GE(double(codes.source().getSizeInBytes()),
            4.0 * double(x->getSizeInBytes()));
}

TEST(CompressionPlanner, DescribeNamesGroupsAndRanges) {
  OneHot m = oneHot(20000, 2);
  CompressionPlan plan = planCompression(m.source());
  std::string text = plan.describe();
  EXPECT_EQ(text.rfind("compress: ", 0), 0u) << text;
  EXPECT_NE(text.find("DDC columns [14-43]"), std::string::npos) << text;
}

TEST(CompressionPlanner, LooksCompressibleByHalfTheColumns) {
  // Four columns of 3-40 codes and continuous ones: compressible while the
  // coded columns are at least half (4 of 8), not with 4 of 9; a CSR or
  // empty source never (the session asks this of dense arguments only).
  std::mt19937_64 random(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto matrix = [&](int64_t cols) {
    Dense d{50000, cols, std::vector<double>(50000 * cols)};
    for (int64_t r = 0; r < d.rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        d.at(r, c) = c < 4 ? double(random() % (3 + 12 * c)) : unit(random);
    return d;
  };
  Dense half = matrix(8), less = matrix(9);
  EXPECT_TRUE(looksCompressible(half.source()));
  EXPECT_FALSE(looksCompressible(less.source()));
  OneHot m = oneHot(1000, 3);
  EXPECT_FALSE(looksCompressible(m.source()));
  EXPECT_FALSE(looksCompressible(Source::dense(0, 4, nullptr, 4)));
}

TEST(CompressionPlanner, EmptyMatrix) {
  Dense empty{0, 3, {}};
  CompressionPlan plan = planCompression(empty.source());
  EXPECT_FALSE(plan.compress);
  EXPECT_TRUE(plan.groups.empty());
}

} // namespace
