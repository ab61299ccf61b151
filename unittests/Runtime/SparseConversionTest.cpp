//===- SparseConversionTest.cpp - CSR conversions, slices and binds -------===//

#include "SparseTestSupport.h"

#include <random>

using namespace amls::sparsetest;

namespace {

class SparseConversion : public SparseCase {};

/// The matrix of `dense` cells stored where `pattern` says.
Csr withPattern(int64_t rows, int64_t cols, const std::vector<double> &dense,
                const std::vector<char> &pattern) {
  return csrOf(rows, cols, dense, [&](int64_t r, int64_t c) {
    return pattern[r * cols + c] != 0;
  });
}

TEST_P(SparseConversion, DenseToCsrStoresTheNonZeros) {
  std::vector<double> cells = a.dense();
  Csr want = csrOfNonZeros(a.rows, a.cols, cells);
  for (Layout layout :
       {Layout::RowMajor, Layout::Padded, Layout::ColumnMajor}) {
    Dense x(a.rows, a.cols, cells, layout);
    I64 rowptr(a.rows + 1, -1);
    int64_t nnz = _mlir_ciface_amls_rt_csr_count_dense(x.desc(), rowptr.desc());
    ASSERT_EQ(nnz, want.nnz());
    I32 colidx(nnz, -1);
    F64 values(nnz, -1.0);
    _mlir_ciface_amls_rt_csr_from_dense(x.desc(), rowptr.desc(), colidx.desc(),
                                        values.desc());
    expectSameCsr(want, rowptr.values(), colidx.values(), values.values());
  }
}

TEST_P(SparseConversion, CsrToDenseWritesEveryCell) {
  std::vector<double> want = a.dense();
  for (Layout layout :
       {Layout::RowMajor, Layout::Padded, Layout::ColumnMajor}) {
    Dense out(a.rows, a.cols, layout);
    for (double &cell : out.storage)
      cell = 12345.0;
    _mlir_ciface_amls_rt_csr_to_dense(a.rowptr.desc(), a.colidx.desc(),
                                      a.values.desc(), a.cols, out.desc());
    std::vector<double> got = out.cells();
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_TRUE(same(got[i], want[i])) << "cell " << i;
  }
}

TEST_P(SparseConversion, TransposeIsSortedAndExact) {
  std::vector<double> cells = a.dense(), transposed(cells.size());
  std::vector<char> pattern = a.pattern(), transposedPattern(pattern.size());
  for (int64_t r = 0; r < a.rows; ++r)
    for (int64_t c = 0; c < a.cols; ++c) {
      transposed[c * a.rows + r] = cells[r * a.cols + c];
      transposedPattern[c * a.rows + r] = pattern[r * a.cols + c];
    }
  Csr want = withPattern(a.cols, a.rows, transposed, transposedPattern);
  I64 rowptr(a.cols + 1, -1);
  I32 colidx(a.nnz(), -1);
  F64 values(a.nnz(), -1.0);
  _mlir_ciface_amls_rt_csr_transpose(a.rowptr.desc(), a.colidx.desc(),
                                     a.values.desc(), a.cols, rowptr.desc(),
                                     colidx.desc(), values.desc());
  expectSameCsr(want, rowptr.values(), colidx.values(), values.values());
}

// A transpose with many columns and entries stages the entries by blocks
// of columns first: the same arrays as a counting sort, rows in order within
// each column, at 1 and 2 threads; a last partial block, empty columns,
// and the row pointers' offsets in the descriptors.
TEST(SparseConversionLarge, TransposeInBlocksIsExact) {
  const int64_t rows = 21000, cols = 200000 + 123;
  std::mt19937_64 rng(17);
  std::vector<int64_t> rowptr{0};
  std::vector<int32_t> colidx;
  std::vector<double> values;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<int32_t> row;
    for (int e = 0; e < 50 + static_cast<int>(r % 21); ++e)
      // Even columns only (the odd ones stay empty), the last one often.
      row.push_back(e == 0 ? static_cast<int32_t>(cols - 1)
                           : static_cast<int32_t>(2 * (rng() % (cols / 2))));
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (int32_t c : row) {
      colidx.push_back(c);
      values.push_back(static_cast<double>(rng() % 1000) - 500.5);
    }
    rowptr.push_back(static_cast<int64_t>(colidx.size()));
  }
  auto nnz = static_cast<int64_t>(colidx.size());
  ASSERT_GE(nnz, int64_t(1) << 20);
  // The reference: a counting sort over the columns, rows in order.
  std::vector<int64_t> wantRowptr(cols + 1, 0);
  for (int32_t c : colidx)
    ++wantRowptr[c + 1];
  for (int64_t c = 0; c < cols; ++c)
    wantRowptr[c + 1] += wantRowptr[c];
  std::vector<int32_t> wantColidx(nnz);
  std::vector<double> wantValues(nnz);
  std::vector<int64_t> place(wantRowptr.begin(), wantRowptr.end() - 1);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = rowptr[r]; k < rowptr[r + 1]; ++k) {
      int64_t p = place[colidx[k]]++;
      wantColidx[p] = static_cast<int32_t>(r);
      wantValues[p] = values[k];
    }
  I64 aRowptr(rowptr);
  I32 aColidx(colidx);
  F64 aValues(values);
  for (int32_t threadCount : {1, 2}) {
    SCOPED_TRACE(std::to_string(threadCount) + " threads");
    ThreadScope scope(threadCount);
    I64 outRowptr(cols + 1, -1);
    I32 outColidx(nnz, -1);
    F64 outValues(nnz, -1.0);
    _mlir_ciface_amls_rt_csr_transpose(aRowptr.desc(), aColidx.desc(),
                                       aValues.desc(), cols, outRowptr.desc(),
                                       outColidx.desc(), outValues.desc());
    ASSERT_TRUE(outRowptr.values() == wantRowptr);
    ASSERT_TRUE(outColidx.values() == wantColidx);
    ASSERT_TRUE(outValues.values() == wantValues);
  }
}

TEST_P(SparseConversion, SlicesKeepTheirEntries) {
  std::vector<double> cells = a.dense();
  std::vector<char> pattern = a.pattern();
  struct Range {
    int64_t rowBegin, rowEnd, colBegin, colEnd;
  };
  std::vector<Range> ranges = {{0, a.rows, 0, a.cols},
                               {0, 0, 0, a.cols},
                               {a.rows / 3, a.rows, a.cols / 2, a.cols},
                               {0, a.rows / 2 + 1, 1, a.cols - 1},
                               {a.rows - 1, a.rows, 0, a.cols / 3},
                               {0, a.rows, a.cols / 2, a.cols / 2 + 1}};
  for (Range range : ranges) {
    range.rowBegin = std::clamp<int64_t>(range.rowBegin, 0, a.rows);
    range.rowEnd = std::clamp(range.rowEnd, range.rowBegin, a.rows);
    range.colBegin = std::clamp<int64_t>(range.colBegin, 0, a.cols);
    range.colEnd = std::clamp(range.colEnd, range.colBegin, a.cols);
    int64_t rows = range.rowEnd - range.rowBegin,
            cols = range.colEnd - range.colBegin;
    std::vector<double> subCells(rows * cols);
    std::vector<char> subPattern(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) {
        int64_t from = (range.rowBegin + r) * a.cols + range.colBegin + c;
        subCells[r * cols + c] = cells[from];
        subPattern[r * cols + c] = pattern[from];
      }
    Csr want = withPattern(rows, cols, subCells, subPattern);
    I64 rowptr(rows + 1, -1);
    int64_t nnz = _mlir_ciface_amls_rt_csr_slice_count(
        a.rowptr.desc(), a.colidx.desc(), a.values.desc(), a.cols,
        range.rowBegin, range.rowEnd, range.colBegin, range.colEnd,
        rowptr.desc());
    ASSERT_EQ(nnz, want.nnz());
    I32 colidx(nnz, -1);
    F64 values(nnz, -1.0);
    _mlir_ciface_amls_rt_csr_slice_fill(
        a.rowptr.desc(), a.colidx.desc(), a.values.desc(), a.cols,
        range.rowBegin, range.rowEnd, range.colBegin, range.colEnd,
        rowptr.desc(), colidx.desc(), values.desc());
    SCOPED_TRACE("rows [" + std::to_string(range.rowBegin) + ", " +
                 std::to_string(range.rowEnd) + "), columns [" +
                 std::to_string(range.colBegin) + ", " +
                 std::to_string(range.colEnd) + ")");
    expectSameCsr(want, rowptr.values(), colidx.values(), values.values());
  }
}

TEST_P(SparseConversion, BindsConcatenate) {
  std::vector<double> cells = a.dense();
  std::vector<char> pattern = a.pattern();
  // cbind with a 3-column matrix of the same rows, rbind with a 4-row one.
  Csr side = csrOfNonZeros(a.rows, 3, randomCells(a.rows * 3, 5, -1, 1));
  Csr below = csrOfNonZeros(4, a.cols, randomCells(4 * a.cols, 6, -1, 1));
  {
    int64_t cols = a.cols + 3;
    std::vector<double> sideCells = side.dense();
    std::vector<double> joined(a.rows * cols);
    std::vector<char> joinedPattern(a.rows * cols);
    for (int64_t r = 0; r < a.rows; ++r) {
      for (int64_t c = 0; c < a.cols; ++c) {
        joined[r * cols + c] = cells[r * a.cols + c];
        joinedPattern[r * cols + c] = pattern[r * a.cols + c];
      }
      for (int64_t c = 0; c < 3; ++c) {
        joined[r * cols + a.cols + c] = sideCells[r * 3 + c];
        joinedPattern[r * cols + a.cols + c] = 1;
      }
    }
    Csr want = withPattern(a.rows, cols, joined, joinedPattern);
    I64 rowptr(a.rows + 1, -1);
    I32 colidx(want.nnz(), -1);
    F64 values(want.nnz(), -1.0);
    _mlir_ciface_amls_rt_csr_cbind(a.rowptr.desc(), a.colidx.desc(),
                                   a.values.desc(), a.cols, side.rowptr.desc(),
                                   side.colidx.desc(), side.values.desc(), 3,
                                   rowptr.desc(), colidx.desc(), values.desc());
    expectSameCsr(want, rowptr.values(), colidx.values(), values.values());
  }
  {
    int64_t rows = a.rows + 4;
    std::vector<double> joined = cells, belowCells = below.dense();
    joined.insert(joined.end(), belowCells.begin(), belowCells.end());
    std::vector<char> joinedPattern = pattern, belowPattern = below.pattern();
    joinedPattern.insert(joinedPattern.end(), belowPattern.begin(),
                         belowPattern.end());
    Csr want = withPattern(rows, a.cols, joined, joinedPattern);
    I64 rowptr(rows + 1, -1);
    I32 colidx(want.nnz(), -1);
    F64 values(want.nnz(), -1.0);
    _mlir_ciface_amls_rt_csr_rbind(
        a.rowptr.desc(), a.colidx.desc(), a.values.desc(), a.cols,
        below.rowptr.desc(), below.colidx.desc(), below.values.desc(), a.cols,
        rowptr.desc(), colidx.desc(), values.desc());
    expectSameCsr(want, rowptr.values(), colidx.values(), values.values());
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, SparseConversion, allCases(), caseLabel);

} // namespace
