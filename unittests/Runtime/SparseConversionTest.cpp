//===- SparseConversionTest.cpp - CSR conversions, slices and binds -------===//

#include "SparseTestSupport.h"

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
