//===- TextCellTest.cpp - SystemDS's text-cell format ---------------------===//
//
// "i j v" lines (1-based, any order, non-zeros only) with the sizes in the
// .mtd file or stated by the read: read dense and into CSR (sequentially
// and by the parallel coordinate reader) to the same cells, written
// without densifying a CSR matrix, "1 1 0" for a matrix of zeros, and
// malformed files reported with their line.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/MatrixIO.h"
#include "SparseTestSupport.h"
#include "TempFiles.h"

#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace amls::runtime;
using namespace amls::sparsetest;
using namespace amls::iotest;

namespace {

void writeMtd(const std::string &path, int64_t rows, int64_t cols) {
  MtdMetadata metadata;
  metadata.rows = rows;
  metadata.cols = cols;
  metadata.format = AMLS_FILE_TEXT;
  ASSERT_EQ(writeMtdFor(path, metadata), "");
}

/// The text-cell file read dense and CSR: the same cells, `expected`.
void expectCells(const std::string &path, int64_t rows, int64_t cols,
                 const std::vector<double> &expected, StatedShape stated = {}) {
  SCOPED_TRACE(path);
  Matrix dense;
  ASSERT_EQ(readMatrix(path, AMLS_FILE_TEXT, dense, stated), "");
  ASSERT_EQ(dense.rows, rows);
  ASSERT_EQ(dense.cols, cols);
  for (int64_t i = 0; i < rows * cols; ++i)
    EXPECT_TRUE(same(dense.data[i], expected[i]))
        << "cell " << i << ": " << dense.data[i] << " != " << expected[i];
  CsrMatrix csr;
  ASSERT_EQ(readCsrMatrix(path, AMLS_FILE_TEXT, csr, stated), "");
  ASSERT_EQ(csr.rows, rows);
  ASSERT_EQ(csr.cols, cols);
  ASSERT_TRUE(wellFormed(csr.rowptr, csr.colidx, csr.rows, csr.cols));
  std::vector<double> cells(rows * cols, 0.0);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = csr.rowptr[r]; k < csr.rowptr[r + 1]; ++k) {
      EXPECT_NE(csr.values[k], 0.0) << "stored zero in row " << r;
      cells[r * cols + csr.colidx[k]] = csr.values[k];
    }
  for (int64_t i = 0; i < rows * cols; ++i)
    EXPECT_TRUE(same(cells[i], expected[i]))
        << "CSR cell " << i << ": " << cells[i] << " != " << expected[i];
}

} // namespace

TEST(TextCell, ReadsEntriesInAnyOrderWithTheMtdSizes) {
  TempDir dir;
  std::string path = dir.file("X", "3 4 -1.5\n1 1 2\n\n2 3 1e3\r\n1 4 0.25\n");
  writeMtd(path, 3, 4);
  expectCells(path, 3, 4, {2, 0, 0, 0.25, 0, 0, 1000, 0, 0, 0, 0, -1.5});
}

TEST(TextCell, StatedSizesWithoutAnMtdFile) {
  TempDir dir;
  std::string path = dir.file("X", "2 1 7\n");
  expectCells(path, 2, 2, {0, 0, 7, 0}, StatedShape{2, 2});
}

TEST(TextCell, AllZeroMatrixIsOneZeroCell) {
  TempDir dir;
  Matrix zeros;
  zeros.rows = 2;
  zeros.cols = 3;
  zeros.data.assign(6, 0.0);
  std::string path = dir.file("Z");
  ASSERT_EQ(writeMatrix(path, AMLS_FILE_TEXT, MatrixView::of(zeros)), "");
  EXPECT_EQ(contentsOf(path), "1 1 0\n");
  writeMtd(path, 2, 3);
  expectCells(path, 2, 3, std::vector<double>(6, 0.0));
}

TEST(TextCell, DenseAndCsrWriteTheSameBytesAndReadBack) {
  TempDir dir;
  for (const std::string &name : caseNames()) {
    SCOPED_TRACE(name);
    Csr csr = makeCase(name);
    std::vector<double> cells = csr.dense();
    Matrix dense;
    dense.rows = csr.rows;
    dense.cols = csr.cols;
    dense.data.assign(cells.begin(), cells.end());
    std::string densePath = dir.file(name + "-dense");
    std::string csrPath = dir.file(name + "-csr");
    ASSERT_EQ(writeMatrix(densePath, AMLS_FILE_TEXT, MatrixView::of(dense)),
              "");
    ASSERT_EQ(
        writeMatrix(csrPath, AMLS_FILE_TEXT,
                    CsrMatrixView::of(csr.rowptr.desc(), csr.colidx.desc(),
                                      csr.values.desc(), csr.cols)),
        "");
    EXPECT_EQ(contentsOf(densePath), contentsOf(csrPath));
    if (csr.rows == 0 || csr.cols == 0)
      continue;
    writeMtd(densePath, csr.rows, csr.cols);
    // Zeros (stored or signed) are not written: they read back as +0.
    for (double &cell : cells)
      cell = cell == 0.0 ? 0.0 : cell;
    expectCells(densePath, csr.rows, csr.cols, cells);
  }
}

TEST(TextCell, LargeFilesReadInPartsAsTheSequentialReader) {
  // About 1 MB of entries in random order, read into CSR by the parallel
  // coordinate reader (two threads) and dense by the sequential one.
  TempDir dir;
  ThreadScope threads(2);
  std::mt19937_64 rng(11);
  int64_t n = 500;
  std::vector<double> expected(n * n, 0.0);
  std::string text;
  for (int64_t e = 0; e < 80000; ++e) {
    int64_t r = rng() % n, c = rng() % n;
    double value = static_cast<double>(static_cast<int64_t>(rng() % 9) - 4);
    expected[r * n + c] = value;
    text += std::to_string(r + 1) + " " + std::to_string(c + 1) + " " +
            std::to_string(static_cast<int64_t>(value)) + "\n";
  }
  std::string path = dir.file("large", text);
  writeMtd(path, n, n);
  expectCells(path, n, n, expected);
}

TEST(TextCell, MalformedFilesAreReportedWithTheirLine) {
  TempDir dir;
  struct Case {
    const char *text, *message;
  };
  for (const Case &c : {
           Case{"1 1 1\n2 x 3\n", ":2: expected '<row> <col> <value>', found "
                                  "'2 x 3'"},
           Case{"1 1 1\n1 2\n", ":2: expected '<row> <col> <value>'"},
           Case{"1 1 1 4\n", ":1: expected '<row> <col> <value>'"},
           Case{"3 1 1\n", ":1: entry (3, 1) is outside the 2x2 matrix"},
           Case{"1 0 1\n", ":1: entry (1, 0) is outside the 2x2 matrix"},
       }) {
    SCOPED_TRACE(c.text);
    std::string path = dir.file("bad", c.text);
    writeMtd(path, 2, 2);
    Matrix dense;
    std::string error = readMatrix(path, AMLS_FILE_TEXT, dense);
    EXPECT_NE(error.find(path + c.message), std::string::npos) << error;
    CsrMatrix csr;
    EXPECT_EQ(readCsrMatrix(path, AMLS_FILE_TEXT, csr), error);
  }
}

TEST(TextCell, SizesFromTheMtdFileOrTheRead) {
  TempDir dir;
  std::string path = dir.file("X", "1 1 1\n");
  Matrix m;
  // Neither the .mtd file nor the read gives the sizes.
  std::string error = readMatrix(path, AMLS_FILE_TEXT, m);
  EXPECT_NE(error.find(path +
                       ": a text-cell file does not state its sizes: "
                       "expected a metadata file '" +
                       path + ".mtd'"),
            std::string::npos)
      << error;
  // The read states other sizes than the .mtd file.
  writeMtd(path, 2, 3);
  error = readMatrix(path, AMLS_FILE_TEXT, m, StatedShape{4, 3});
  EXPECT_EQ(error, path + ".mtd: the metadata gives 2x3, but the read "
                          "expects 4x3");
  ASSERT_EQ(readMatrix(path, AMLS_FILE_TEXT, m, StatedShape{2, 3}), "");
  EXPECT_EQ(m.rows, 2);
  std::optional<MatrixFileMetadata> metadata =
      readMatrixFileMetadata(path, AMLS_FILE_TEXT);
  ASSERT_TRUE(metadata);
  EXPECT_EQ(metadata->rows, 2);
  EXPECT_EQ(metadata->cols, 3);
}
