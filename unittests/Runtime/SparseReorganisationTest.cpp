//===- SparseReorganisationTest.cpp - rev, removeEmpty, replace, cumagg ---===//
//
// The CSR kernels of rev, removeEmpty, replace (dense result), cumulative
// aggregates and printing against plain loops over the dense cells, on
// every test matrix at 1 and 2 threads.
//
//===----------------------------------------------------------------------===//

#include "SparseTestSupport.h"

#include "AMLS/Runtime/MatrixIO.h"

using namespace amls::sparsetest;

namespace {

constexpr int32_t kRows = 0, kColumns = 1;

class SparseReorganisation : public testing::TestWithParam<CaseAndThreads> {
protected:
  void SetUp() override {
    threads = std::make_unique<ThreadScope>(std::get<1>(GetParam()));
    a = testCase(std::get<0>(GetParam()));
    cells = a.dense();
    pattern = a.pattern();
  }

  /// The matrix of cells (r, c) of `a` for r in `rows` and c in `cols`,
  /// stored where `a` stores them.
  Csr pick(const std::vector<int64_t> &rows,
           const std::vector<int64_t> &cols) const {
    auto n = static_cast<int64_t>(cols.size());
    std::vector<double> picked;
    std::vector<char> stored;
    for (int64_t r : rows)
      for (int64_t c : cols) {
        picked.push_back(cells[r * a.cols + c]);
        stored.push_back(pattern[r * a.cols + c]);
      }
    return csrOf(static_cast<int64_t>(rows.size()), n, picked,
                 [&](int64_t r, int64_t c) { return stored[r * n + c] != 0; });
  }

  /// removeEmpty through the three kernels, checked against `want`.
  void expectRemoveEmpty(int32_t margin, AmlsMatrixF64 *select,
                         int32_t useSelect, const Csr &want) {
    int64_t kept = _mlir_ciface_amls_rt_csr_count_nonempty(
        a.rowptr.desc(), a.colidx.desc(), a.values.desc(), a.cols, select,
        margin, useSelect);
    ASSERT_EQ(kept, margin == kRows ? want.rows : want.cols);
    I64 rowptr(want.rows + 1, -1);
    int64_t nnz = _mlir_ciface_amls_rt_csr_remove_empty_count(
        a.rowptr.desc(), a.colidx.desc(), a.values.desc(), a.cols, select,
        margin, useSelect, rowptr.desc());
    ASSERT_EQ(nnz, want.nnz());
    I32 colidx(nnz, -1);
    F64 values(nnz, -1.0);
    _mlir_ciface_amls_rt_csr_remove_empty_fill(
        a.rowptr.desc(), a.colidx.desc(), a.values.desc(), a.cols, select,
        margin, useSelect, rowptr.desc(), colidx.desc(), values.desc());
    expectSameCsr(want, rowptr.values(), colidx.values(), values.values());
  }

  std::vector<int64_t> allRows() const {
    std::vector<int64_t> rows(a.rows);
    for (int64_t r = 0; r < a.rows; ++r)
      rows[r] = r;
    return rows;
  }
  std::vector<int64_t> allCols() const {
    std::vector<int64_t> cols(a.cols);
    for (int64_t c = 0; c < a.cols; ++c)
      cols[c] = c;
    return cols;
  }

  std::unique_ptr<ThreadScope> threads;
  Csr a;
  std::vector<double> cells;
  std::vector<char> pattern;
};

TEST_P(SparseReorganisation, RevReversesTheRows) {
  std::vector<int64_t> rows = allRows();
  std::reverse(rows.begin(), rows.end());
  Csr want = pick(rows, allCols());
  I64 rowptr(a.rows + 1, -1);
  I32 colidx(a.nnz(), -1);
  F64 values(a.nnz(), -1.0);
  _mlir_ciface_amls_rt_csr_rev(a.rowptr.desc(), a.colidx.desc(),
                               a.values.desc(), a.cols, rowptr.desc(),
                               colidx.desc(), values.desc());
  expectSameCsr(want, rowptr.values(), colidx.values(), values.values());
}

TEST_P(SparseReorganisation, RemoveEmptyRowsKeepsRowsWithANonZero) {
  // A stored zero does not make a row non-empty; NaN does.
  std::vector<int64_t> rows;
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t c = 0; c < a.cols; ++c)
      if (cells[r * a.cols + c] != 0.0) {
        rows.push_back(r);
        break;
      }
  Dense unused(1, 1);
  expectRemoveEmpty(kRows, unused.desc(), 0, pick(rows, allCols()));
}

TEST_P(SparseReorganisation, RemoveEmptyColumnsKeepsColumnsWithANonZero) {
  std::vector<int64_t> cols;
  for (int64_t c = 0; c < a.cols; ++c)
    for (int64_t r = 0; r < a.rows; ++r)
      if (cells[r * a.cols + c] != 0.0) {
        cols.push_back(c);
        break;
      }
  Dense unused(1, 1);
  expectRemoveEmpty(kColumns, unused.desc(), 0, pick(allRows(), cols));
}

TEST_P(SparseReorganisation, RemoveEmptyWithSelectKeepsTheSelected) {
  // Every third row (column) and the one selected by NaN.
  auto selector = [](int64_t i) {
    return i % 3 == 1 ? 1.0 : i == 5 ? std::nan("") : 0.0;
  };
  std::vector<int64_t> rows, cols;
  std::vector<double> rowSelect, colSelect;
  for (int64_t r = 0; r < a.rows; ++r) {
    rowSelect.push_back(selector(r));
    if (rowSelect.back() != 0.0)
      rows.push_back(r);
  }
  for (int64_t c = 0; c < a.cols; ++c) {
    colSelect.push_back(selector(c));
    if (colSelect.back() != 0.0)
      cols.push_back(c);
  }
  Dense byRow(a.rows, 1, rowSelect, Layout::Padded);
  expectRemoveEmpty(kRows, byRow.desc(), 1, pick(rows, allCols()));
  Dense byColumn(1, a.cols, colSelect, Layout::ColumnMajor);
  expectRemoveEmpty(kColumns, byColumn.desc(), 1, pick(allRows(), cols));
}

TEST_P(SparseReorganisation, ReplaceToDenseMatchesEveryCell) {
  double nan = std::nan("");
  struct Replacement {
    double pattern, replacement;
  };
  std::vector<Replacement> replacements = {
      {0.0, 7.0}, {-0.0, -1.0}, {nan, 5.0}, {2.5, 0.0}};
  if (a.nnz() > 0)
    replacements.push_back({a.values[a.nnz() / 2], -3.0});
  for (const Replacement &r : replacements) {
    Dense out(a.rows, a.cols, Layout::Padded);
    _mlir_ciface_amls_rt_csr_replace_to_dense(
        a.rowptr.desc(), a.colidx.desc(), a.values.desc(), a.cols, r.pattern,
        r.replacement, out.desc());
    std::vector<double> got = out.cells();
    for (size_t i = 0; i < cells.size(); ++i) {
      double cell = cells[i];
      bool matches =
          cell == r.pattern || (std::isnan(cell) && std::isnan(r.pattern));
      ASSERT_TRUE(same(got[i], matches ? r.replacement : cell))
          << "cell " << i << " with pattern " << r.pattern << ": " << got[i];
    }
  }
}

TEST_P(SparseReorganisation, CumulativeAggregatesMatchTheDenseRecurrence) {
  auto combine = [](int32_t kind, double p, double c) {
    switch (kind) {
    case 0:
      return p + c;
    case 1:
      return p * c;
    case 2:
      return std::isnan(p) || std::isnan(c) ? NAN : std::min(p, c);
    default:
      return std::isnan(p) || std::isnan(c) ? NAN : std::max(p, c);
    }
  };
  for (int32_t kind = 0; kind < 4; ++kind) {
    std::vector<double> want = cells;
    for (int64_t i = 1; i < a.rows; ++i)
      for (int64_t j = 0; j < a.cols; ++j)
        want[i * a.cols + j] =
            combine(kind, want[(i - 1) * a.cols + j], cells[i * a.cols + j]);
    for (Layout layout : {Layout::RowMajor, Layout::ColumnMajor}) {
      Dense out(a.rows, a.cols, layout);
      _mlir_ciface_amls_rt_csr_cumagg(a.rowptr.desc(), a.colidx.desc(),
                                      a.values.desc(), a.cols, kind,
                                      out.desc());
      std::vector<double> got = out.cells();
      for (size_t i = 0; i < want.size(); ++i)
        ASSERT_TRUE(same(got[i], want[i]))
            << "kind " << kind << ", cell " << i << ": " << got[i]
            << " != " << want[i];
    }
  }
}

TEST_P(SparseReorganisation, PrintsTheSameTextAsTheDenseMatrix) {
  using namespace amls::runtime;
  MatrixView dense{cells.data(), a.rows, a.cols, a.cols, 1};
  CsrMatrixView csr = CsrMatrixView::of(a.rowptr.desc(), a.colidx.desc(),
                                        a.values.desc(), a.cols);
  EXPECT_EQ(formatMatrix(csr), formatMatrix(dense));
}

INSTANTIATE_TEST_SUITE_P(AllCases, SparseReorganisation, allCases(), caseLabel);

TEST(SparseReorganisationExamples, HandDerivedResults) {
  // [[0 2 0], [0 0 0], [3 0 -1]] (row 1 stores a zero).
  Csr x = csrOf(3, 3, {0, 2, 0, 0, 0, 0, 3, 0, -1}, [](int64_t r, int64_t c) {
    return (r == 0 && c == 1) || (r == 1 && c == 0) || (r == 2 && c != 1);
  });
  Dense out(3, 3);
  _mlir_ciface_amls_rt_csr_cumagg(x.rowptr.desc(), x.colidx.desc(),
                                  x.values.desc(), 3, 0, out.desc());
  EXPECT_EQ(out.cells(), (std::vector<double>{0, 2, 0, 0, 2, 0, 3, 2, -1}));
  _mlir_ciface_amls_rt_csr_cumagg(x.rowptr.desc(), x.colidx.desc(),
                                  x.values.desc(), 3, 3, out.desc());
  EXPECT_EQ(out.cells(), (std::vector<double>{0, 2, 0, 0, 2, 0, 3, 2, 0}));
  _mlir_ciface_amls_rt_csr_replace_to_dense(x.rowptr.desc(), x.colidx.desc(),
                                            x.values.desc(), 3, 0.0, 9.0,
                                            out.desc());
  EXPECT_EQ(out.cells(), (std::vector<double>{9, 2, 9, 9, 9, 9, 3, 9, -1}));
  // Row 1 stores only a zero: removed.
  Dense unused(1, 1);
  EXPECT_EQ(_mlir_ciface_amls_rt_csr_count_nonempty(
                x.rowptr.desc(), x.colidx.desc(), x.values.desc(), 3,
                unused.desc(), kRows, 0),
            2);
  EXPECT_EQ(_mlir_ciface_amls_rt_csr_count_nonempty(
                x.rowptr.desc(), x.colidx.desc(), x.values.desc(), 3,
                unused.desc(), kColumns, 0),
            3);
}

TEST(SparseReorganisationDeathTest, RemoveEmptyRejectsASelectOfTheWrongSize) {
  Csr x = csrOfNonZeros(3, 2, {1, 0, 0, 0, 0, 2});
  Dense select(2, 1, {1, 0});
  EXPECT_EXIT(_mlir_ciface_amls_rt_csr_count_nonempty(
                  x.rowptr.desc(), x.colidx.desc(), x.values.desc(), 2,
                  select.desc(), kRows, 1),
              ::testing::ExitedWithCode(1),
              "removeEmpty of a CSR matrix: select must be a column vector "
              "of 3x1 for a 3x2 matrix, found 2x1");
}

} // namespace
