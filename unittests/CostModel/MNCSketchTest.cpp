//===- MNCSketchTest.cpp - MNC sketches against exact products ------------===//
//
// The oracle is the exact number of non-zeros of each product, counted by a
// symbolic sparse product of the generated matrices; the metadata
// estimators (SparsityEstimator) are the baseline MNC must beat on
// structured data. MNCSketch.AccuracyTable prints the table that
// docs/sparsity.md reports (run the binary with
// --gtest_filter=MNCSketch.AccuracyTable).
//
//===----------------------------------------------------------------------===//

#include "AMLS/CostModel/MNCSketch.h"
#include "AMLS/CostModel/SparsityEstimator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <random>
#include <string>

using namespace mlir::amls;

namespace {

/// A pattern-only CSR matrix (values are all 1: no cancellation).
struct Pattern {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> offsets{0};
  std::vector<int32_t> columns;

  int64_t nnz() const { return static_cast<int64_t>(columns.size()); }
  double sparsity() const {
    return static_cast<double>(nnz()) / (static_cast<double>(rows) * cols);
  }
  MNCSketch sketch(bool extended = true) const {
    return MNCSketch::fromCSR(rows, cols, offsets.data(), columns.data(),
                              extended);
  }
};

/// Builds a pattern row by row from sorted, distinct column sets.
Pattern fromRows(int64_t cols, const std::vector<std::vector<int32_t>> &rows) {
  Pattern p;
  p.rows = static_cast<int64_t>(rows.size());
  p.cols = cols;
  for (const auto &row : rows) {
    std::vector<int32_t> sorted = row;
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    p.columns.insert(p.columns.end(), sorted.begin(), sorted.end());
    p.offsets.push_back(static_cast<int64_t>(p.columns.size()));
  }
  return p;
}

Pattern transpose(const Pattern &a) {
  std::vector<std::vector<int32_t>> rows(a.cols);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t p = a.offsets[i]; p < a.offsets[i + 1]; ++p)
      rows[a.columns[p]].push_back(static_cast<int32_t>(i));
  return fromRows(a.rows, rows);
}

/// The exact product pattern (Gustavson's symbolic SpGEMM).
Pattern product(const Pattern &a, const Pattern &b) {
  std::vector<std::vector<int32_t>> rows(a.rows);
  std::vector<int64_t> marker(b.cols, -1);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t p = a.offsets[i]; p < a.offsets[i + 1]; ++p) {
      int64_t j = a.columns[p];
      for (int64_t q = b.offsets[j]; q < b.offsets[j + 1]; ++q)
        if (marker[b.columns[q]] != i) {
          marker[b.columns[q]] = i;
          rows[i].push_back(b.columns[q]);
        }
    }
  return fromRows(b.cols, rows);
}

Pattern elementwise(const Pattern &a, const Pattern &b, bool both) {
  std::vector<std::vector<int32_t>> rows(a.rows);
  for (int64_t i = 0; i < a.rows; ++i) {
    std::vector<int32_t> x(a.columns.begin() + a.offsets[i],
                           a.columns.begin() + a.offsets[i + 1]);
    std::vector<int32_t> y(b.columns.begin() + b.offsets[i],
                           b.columns.begin() + b.offsets[i + 1]);
    if (both)
      std::set_intersection(x.begin(), x.end(), y.begin(), y.end(),
                            std::back_inserter(rows[i]));
    else
      std::set_union(x.begin(), x.end(), y.begin(), y.end(),
                     std::back_inserter(rows[i]));
  }
  return fromRows(a.cols, rows);
}

Pattern uniformRandom(int64_t rows, int64_t cols, double sparsity,
                      uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution keep(sparsity);
  std::vector<std::vector<int32_t>> out(rows);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      if (keep(rng))
        out[i].push_back(static_cast<int32_t>(j));
  return fromRows(cols, out);
}

/// A graph whose out-degrees follow a power law (Zipf, exponent ~2) and
/// whose links favour low-numbered (popular) targets.
Pattern powerLawGraph(int64_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<std::vector<int32_t>> rows(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t degree = std::min<int64_t>(
        n, static_cast<int64_t>(std::floor(1.0 / std::max(unit(rng), 1e-9))));
    for (int64_t d = 0; d < degree; ++d) {
      double u = unit(rng);
      rows[i].push_back(static_cast<int32_t>(std::floor(u * u * u * n)));
    }
  }
  return fromRows(n, rows);
}

Pattern permutation(int64_t n, uint32_t seed) {
  std::vector<int32_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(seed));
  std::vector<std::vector<int32_t>> rows(n);
  for (int64_t i = 0; i < n; ++i)
    rows[i] = {order[i]};
  return fromRows(n, rows);
}

/// k rows picked from n (a selection matrix: one non-zero per row).
Pattern selection(int64_t k, int64_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int32_t> pick(0, static_cast<int32_t>(n - 1));
  std::vector<std::vector<int32_t>> rows(k);
  for (auto &row : rows)
    row = {pick(rng)};
  return fromRows(n, rows);
}

/// n x k one-hot encoding of categories drawn with skew.
Pattern oneHot(int64_t n, int64_t k, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::geometric_distribution<int32_t> category(0.3);
  std::vector<std::vector<int32_t>> rows(n);
  for (auto &row : rows)
    row = {std::min<int32_t>(category(rng), static_cast<int32_t>(k - 1))};
  return fromRows(k, rows);
}

Pattern banded(int64_t n, int64_t halfWidth) {
  std::vector<std::vector<int32_t>> rows(n);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = std::max<int64_t>(0, i - halfWidth);
         j <= std::min<int64_t>(n - 1, i + halfWidth); ++j)
      rows[i].push_back(static_cast<int32_t>(j));
  return fromRows(n, rows);
}

Pattern identity(int64_t n) {
  std::vector<std::vector<int32_t>> rows(n);
  for (int64_t i = 0; i < n; ++i)
    rows[i] = {static_cast<int32_t>(i)};
  return fromRows(n, rows);
}

double metadataNnz(const Pattern &a, const Pattern &b, EstimatorKind kind) {
  SparsityEstimator estimator(kind);
  return *estimator.matmul(a.sparsity(), b.sparsity(), a.cols) *
         static_cast<double>(a.rows) * b.cols;
}

double relativeError(double estimate, double exact) {
  return exact == 0 ? std::abs(estimate) : std::abs(estimate - exact) / exact;
}

/// One product case of the accuracy table: A %*% B, where MNC is exact or
/// not (the paper's Theorem 3.1 case).
struct ProductCase {
  std::string name;
  std::function<std::pair<Pattern, Pattern>()> make;
  bool exact;
};

std::vector<ProductCase> productCases() {
  return {
      {"permutation P %*% X (X 2000x500, 1%)",
       [] {
         return std::make_pair(permutation(2000, 1),
                               uniformRandom(2000, 500, 0.01, 2));
       },
       true},
      {"selection S %*% X (300 of 2000 rows)",
       [] {
         return std::make_pair(selection(300, 2000, 3),
                               uniformRandom(2000, 500, 0.01, 4));
       },
       true},
      {"one-hot O %*% W (2000x20 codes, W 20x300 10%)",
       [] {
         return std::make_pair(oneHot(2000, 20, 5),
                               uniformRandom(20, 300, 0.1, 6));
       },
       true},
      {"X %*% t(S) (columns picked)",
       [] {
         return std::make_pair(uniformRandom(500, 2000, 0.01, 7),
                               transpose(selection(300, 2000, 8)));
       },
       true},
      {"diagonal I %*% X",
       [] {
         return std::make_pair(identity(1000),
                               uniformRandom(1000, 400, 0.02, 9));
       },
       true},
      {"t(O) %*% O (one-hot co-occurrence)",
       [] {
         Pattern o = oneHot(2000, 20, 10);
         return std::make_pair(transpose(o), o);
       },
       false},
      {"t(O) %*% X (one-hot aggregation)",
       [] {
         return std::make_pair(transpose(oneHot(2000, 20, 11)),
                               uniformRandom(2000, 300, 0.01, 12));
       },
       false},
      {"power-law graph G %*% G (3000 vertices)",
       [] {
         Pattern g = powerLawGraph(3000, 13);
         return std::make_pair(g, g);
       },
       false},
      {"banded B %*% B (2000, half-width 5)",
       [] {
         Pattern b = banded(2000, 5);
         return std::make_pair(b, b);
       },
       false},
      {"uniform X %*% Y (1000x1000, 0.5%)",
       [] {
         return std::make_pair(uniformRandom(1000, 1000, 0.005, 14),
                               uniformRandom(1000, 1000, 0.005, 15));
       },
       false},
  };
}

} // namespace

TEST(MNCSketch, CountsAndSummary) {
  // 3 x 4: row 0 {0, 1}, row 1 {}, row 2 {1}; column 1 holds two.
  Pattern a = fromRows(4, {{0, 1}, {}, {1}});
  MNCSketch s = a.sketch();
  EXPECT_EQ(s.getRowCounts(), (MNCSketch::Counts{2, 0, 1}));
  EXPECT_EQ(s.getColCounts(), (MNCSketch::Counts{1, 2, 0, 0}));
  EXPECT_EQ(s.nnz(), 3);
  EXPECT_EQ(s.maxRowCount(), 2u);
  EXPECT_EQ(s.maxColCount(), 2u);
  EXPECT_EQ(s.nonEmptyRows(), 2);
  EXPECT_EQ(s.nonEmptyCols(), 2);
  EXPECT_EQ(s.singletonRows(), 1);
  EXPECT_EQ(s.singletonCols(), 1);
  EXPECT_EQ(s.rowsOverHalf(), 0); // 2 is not over 4/2
  EXPECT_EQ(s.colsOverHalf(), 1); // column 1: 2 > 3/2
  // Extension vectors: row 0's non-zero in column 0 is its column's only
  // one; column 1 holds row 2's single non-zero.
  EXPECT_EQ(s.getRowCountsInSingletonCols(), (MNCSketch::Counts{1, 0, 0}));
  EXPECT_EQ(s.getColCountsInSingletonRows(), (MNCSketch::Counts{0, 1, 0, 0}));
  EXPECT_FALSE(s.isFullDiagonal());
  EXPECT_TRUE(identity(5).sketch().isFullDiagonal());
}

TEST(MNCSketch, ThreadedBuildMatchesDirectCounts) {
  // A skewed pattern big enough for the threaded build (over 2^20
  // non-zeros, more than four a column): rows of 0-15 non-zeros, a sixth of
  // them singletons, columns drawn as a power law, so that many columns
  // hold one non-zero or none. The counts and extension vectors, counted
  // directly, must match the build at 1, 2 and 3 threads.
  std::mt19937_64 random(5);
  int64_t rows = 200000, cols = 300000;
  std::vector<std::vector<int32_t>> pattern(rows);
  for (auto &row : pattern) {
    int64_t count = random() % 6 == 0 ? 1 : random() % 16;
    for (int64_t k = 0; k < count; ++k) {
      double u = std::uniform_real_distribution<double>(0, 1)(random);
      row.push_back(static_cast<int32_t>(std::pow(u, 3.0) * (cols - 1)));
    }
  }
  Pattern a = fromRows(cols, pattern);
  ASSERT_GT(a.nnz(), int64_t(1) << 20);
  ASSERT_GE(a.nnz(), 4 * cols);
  MNCSketch::Counts rowCounts(rows), colCounts(cols, 0), rowExtension(rows, 0),
      colExtension(cols, 0);
  for (int64_t i = 0; i < rows; ++i) {
    rowCounts[i] = static_cast<uint32_t>(a.offsets[i + 1] - a.offsets[i]);
    for (int64_t p = a.offsets[i]; p < a.offsets[i + 1]; ++p)
      ++colCounts[a.columns[p]];
  }
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t p = a.offsets[i]; p < a.offsets[i + 1]; ++p) {
      rowExtension[i] += colCounts[a.columns[p]] == 1;
      colExtension[a.columns[p]] += rowCounts[i] == 1;
    }
  ASSERT_GT(std::count(colCounts.begin(), colCounts.end(), 1u), 1000);
  for (int threads : {1, 2, 3}) {
    MNCSketch s = MNCSketch::fromCSR(rows, cols, a.offsets.data(),
                                     a.columns.data(), true, threads);
    EXPECT_EQ(s.getRowCounts(), rowCounts) << threads << " threads";
    EXPECT_EQ(s.getColCounts(), colCounts) << threads << " threads";
    EXPECT_EQ(s.getRowCountsInSingletonCols(), rowExtension)
        << threads << " threads";
    EXPECT_EQ(s.getColCountsInSingletonRows(), colExtension)
        << threads << " threads";
    EXPECT_EQ(s.nnz(), a.nnz());
  }
}

TEST(MNCSketch, DenseMatchesCSR) {
  Pattern a = uniformRandom(40, 30, 0.1, 21);
  std::vector<double> dense(40 * 31, 0.0); // leading dimension 31
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t p = a.offsets[i]; p < a.offsets[i + 1]; ++p)
      dense[i * 31 + a.columns[p]] = 0.5 + p;
  EXPECT_EQ(MNCSketch::fromDense(40, 30, dense.data(), 31), a.sketch());
}

TEST(MNCSketch, DenseTallWithSingletonRows) {
  // One non-zero per row of a 50x4 matrix in a buffer of exactly 200
  // doubles: the diagonal test must not look at row[i] past column 3
  // (AddressSanitizer caught that read on a 300x20 argument).
  std::vector<double> dense(50 * 4, 0.0);
  std::vector<std::vector<int32_t>> rows(50);
  for (int32_t i = 0; i < 50; ++i) {
    dense[i * 4 + i % 4] = 1.0 + i;
    rows[i] = {i % 4};
  }
  MNCSketch s = MNCSketch::fromDense(50, 4, dense.data(), 4);
  EXPECT_EQ(s, fromRows(4, rows).sketch());
  EXPECT_EQ(s.nnz(), 50);
  EXPECT_FALSE(s.isFullDiagonal());
}

TEST(MNCSketch, HandDerivedProduct) {
  // A (3x3) rows {0,1}, {2}, {0,2}; B (3x2) rows {0}, {0,1}, {1}.
  // A %*% B: row 0 = B0 | B1 = {0,1}; row 1 = B2 = {1}; row 2 = B0 | B2 =
  // {0,1}: 5 non-zeros. A's singleton row 1 contributes |B2:| = 1 exactly;
  // B's singleton columns: none (both have two non-zeros).
  Pattern a = fromRows(3, {{0, 1}, {2}, {0, 2}});
  Pattern b = fromRows(2, {{0}, {0, 1}, {1}});
  ASSERT_EQ(product(a, b).nnz(), 5);
  double estimate = estimateProductNnz(a.sketch(), b.sketch());
  // Exact part 1; the rest: 2 non-empty non-singleton rows x 2 columns = 4
  // cells, column counts of A less singletons (2, 1, 1) against B's rows
  // (1, 2, 1): 1 - (1 - 2/4)(1 - 2/4)(1 - 1/4) = 0.8125 -> 3.25 cells.
  EXPECT_NEAR(estimate, 1 + 3.25, 1e-12);
}

TEST(MNCSketch, ExactCasesAreExact) {
  for (const ProductCase &c : productCases()) {
    if (!c.exact)
      continue;
    auto [a, b] = c.make();
    double exact = static_cast<double>(product(a, b).nnz());
    EXPECT_DOUBLE_EQ(estimateProductNnz(a.sketch(), b.sketch()), exact)
        << c.name;
    EXPECT_DOUBLE_EQ(estimateProductNnz(a.sketch(false), b.sketch(false)),
                     exact)
        << c.name << " (basic sketch)";
  }
}

TEST(MNCSketch, AccuracyTable) {
  std::printf("| product | exact nnz | MNC | MNC error | metadata "
              "(average) | metadata error | worst case |\n"
              "|---|---:|---:|---:|---:|---:|---:|\n");
  for (const ProductCase &c : productCases()) {
    auto [a, b] = c.make();
    double exact = static_cast<double>(product(a, b).nnz());
    double mnc = estimateProductNnz(a.sketch(), b.sketch());
    double average = metadataNnz(a, b, EstimatorKind::AverageCase);
    double worst = metadataNnz(a, b, EstimatorKind::WorstCase);
    ASSERT_FALSE(std::isnan(mnc)) << c.name;
    double mncError = relativeError(mnc, exact);
    double averageError = relativeError(average, exact);
    std::printf("| %s | %.0f | %.0f | %.3f | %.0f | %.3f | %.0f |\n",
                c.name.c_str(), exact, mnc, mncError, average, averageError,
                worst);
    // MNC does no worse than the metadata estimate (within the sampling
    // noise of the uniform case, where the metadata's assumption holds).
    EXPECT_LE(mncError, averageError + 0.02) << c.name;
    EXPECT_LE(mnc, worst + 1e-6) << c.name;
  }
}

TEST(MNCSketch, ElementwiseEstimates) {
  Pattern x = uniformRandom(300, 200, 0.05, 31);
  Pattern y = uniformRandom(300, 200, 0.08, 32);
  double both = static_cast<double>(elementwise(x, y, true).nnz());
  double either = static_cast<double>(elementwise(x, y, false).nnz());
  double inter = estimateIntersectionNnz(x.sketch(), y.sketch());
  double uni = estimateUnionNnz(x.sketch(), y.sketch());
  // Independent uniform patterns: the expected counts, within sampling.
  EXPECT_NEAR(inter, both, 0.25 * both);
  EXPECT_NEAR(uni, either, 0.02 * either);
  // A full matrix intersects exactly; the union with an empty one is exact.
  MNCSketch full = MNCSketch::uniform(300, 200, true);
  EXPECT_NEAR(estimateIntersectionNnz(full, x.sketch()), x.nnz(), 1e-9);
  MNCSketch none = MNCSketch::uniform(300, 200, false);
  EXPECT_DOUBLE_EQ(estimateUnionNnz(none, x.sketch()), x.nnz());
  EXPECT_DOUBLE_EQ(estimateIntersectionNnz(none, x.sketch()), 0);
  // Disjoint row supports: the collision factor is zero.
  Pattern top = fromRows(4, {{0, 1}, {}});
  Pattern bottom = fromRows(4, {{}, {2, 3}});
  EXPECT_DOUBLE_EQ(estimateIntersectionNnz(top.sketch(), bottom.sketch()), 0);
}

TEST(MNCSketch, ReorganisationsAreExact) {
  Pattern x = uniformRandom(50, 30, 0.1, 41);
  Pattern y = uniformRandom(20, 30, 0.2, 42);
  EXPECT_EQ(propagateTranspose(x.sketch()), transpose(x).sketch());
  EXPECT_EQ(propagateTranspose(propagateTranspose(x.sketch())), x.sketch());

  // rbind: the rows of both, column counts added.
  MNCSketch stacked = propagateRbind(x.sketch(), y.sketch());
  EXPECT_EQ(stacked.rows(), 70);
  EXPECT_EQ(stacked.nnz(), x.nnz() + y.nnz());
  std::vector<std::vector<int32_t>> rows;
  for (const Pattern *p : {&x, &y})
    for (int64_t i = 0; i < p->rows; ++i)
      rows.emplace_back(p->columns.begin() + p->offsets[i],
                        p->columns.begin() + p->offsets[i + 1]);
  Pattern both = fromRows(30, rows);
  EXPECT_EQ(stacked.getRowCounts(), both.sketch().getRowCounts());
  EXPECT_EQ(stacked.getColCounts(), both.sketch().getColCounts());
  // cbind(t(x), t(y)) = t(rbind(x, y)).
  MNCSketch side =
      propagateCbind(propagateTranspose(x.sketch()), propagateTranspose(y.sketch()));
  EXPECT_EQ(side.getRowCounts(), both.sketch().getColCounts());
  EXPECT_EQ(side.getColCounts(), both.sketch().getRowCounts());

  // Row slices keep their rows' counts exactly.
  MNCSketch xSketch = x.sketch();
  MNCSketch rowSlice = propagateSlice(xSketch, 10, 20, 0, 30);
  EXPECT_EQ(rowSlice.getRowCounts(),
            MNCSketch::Counts(xSketch.getRowCounts().begin() + 10,
                              xSketch.getRowCounts().begin() + 20));
  EXPECT_EQ(rowSlice.nnz(), x.offsets[20] - x.offsets[10]);

  // X == 0 is the complement.
  MNCSketch zeros = propagateEqualZero(x.sketch());
  EXPECT_EQ(zeros.nnz(), 50 * 30 - x.nnz());

  // diag(v) and diag(I).
  Pattern v = fromRows(1, {{0}, {}, {0}, {0}});
  MNCSketch d = propagateDiag(v.sketch());
  EXPECT_EQ(d.rows(), 4);
  EXPECT_EQ(d.cols(), 4);
  EXPECT_EQ(d.nnz(), 3);
  EXPECT_TRUE(propagateDiag(identity(6).sketch()).nnz() == 6);
}

TEST(MNCSketch, ChainsPropagateExactlyThroughStructure) {
  // P %*% (S %*% X): the permutation passes S %*% X's row counts through
  // (scaled by 1), and the estimate of the outer product stays exact.
  Pattern p = permutation(300, 51);
  Pattern s = selection(300, 2000, 52);
  Pattern x = uniformRandom(2000, 400, 0.02, 53);
  Pattern sx = product(s, x);
  MNCSketch sxSketch = propagateProduct(
      s.sketch(), x.sketch(), estimateProductNnz(s.sketch(), x.sketch()));
  EXPECT_EQ(sxSketch.nnz(), sx.nnz());
  double outer = estimateProductNnz(p.sketch(), sxSketch);
  EXPECT_DOUBLE_EQ(outer, static_cast<double>(product(p, sx).nnz()));
  // A full diagonal passes the other side through unchanged.
  MNCSketch through = propagateProduct(identity(2000).sketch(), x.sketch(),
                                       static_cast<double>(x.nnz()));
  EXPECT_EQ(through, x.sketch());
  // Scaled counts keep zeros and the total.
  Pattern g = powerLawGraph(500, 54);
  double nnz = estimateProductNnz(g.sketch(), g.sketch());
  MNCSketch gg = propagateProduct(g.sketch(), g.sketch(), nnz);
  EXPECT_EQ(gg.nnz(), static_cast<int64_t>(std::round(nnz)));
  for (int64_t i = 0; i < g.rows; ++i)
    if (g.sketch().getRowCounts()[i] == 0)
      EXPECT_EQ(gg.getRowCounts()[i], 0u);
}
