//===- MatrixIOTest.cpp - Runtime matrix I/O ------------------------------===//

#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Memory.h"
#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace amls::runtime;

namespace {
/// A file in a fresh temporary directory, removed afterwards.
class TempFile {
public:
  explicit TempFile(const std::string &name, const std::string &contents = "") {
    char dir[] = "/tmp/amls-io-XXXXXX";
    directory = mkdtemp(dir);
    path = directory + "/" + name;
    if (!contents.empty())
      std::ofstream(path) << contents;
  }
  ~TempFile() {
    std::remove(path.c_str());
    rmdir(directory.c_str());
  }
  std::string directory, path;
};

Matrix make(int64_t rows, int64_t cols, std::vector<double> data) {
  Matrix m;
  m.rows = rows;
  m.cols = cols;
  m.data.assign(data.begin(), data.end());
  return m;
}
} // namespace

TEST(MatrixIO, FormatFromExtension) {
  EXPECT_EQ(formatForPath("a/b.mtx"), AMLS_FILE_MATRIX_MARKET);
  EXPECT_EQ(formatForPath("b.mm"), AMLS_FILE_MATRIX_MARKET);
  EXPECT_EQ(formatForPath("b.csv"), AMLS_FILE_CSV);
  EXPECT_EQ(formatForPath("data"), AMLS_FILE_CSV);
  EXPECT_EQ(formatForPath("big.bin"), AMLS_FILE_BINARY);
}

TEST(MatrixIO, ReadsCsvWithAndWithoutHeader) {
  TempFile plain("x.csv", "1,2.5,-3\n4e2, 5 ,nan\n\n");
  Matrix m;
  ASSERT_EQ(readMatrix(plain.path, AMLS_FILE_CSV, m), "");
  EXPECT_EQ(m.rows, 2);
  EXPECT_EQ(m.cols, 3);
  EXPECT_EQ(m.at(0, 1), 2.5);
  EXPECT_EQ(m.at(1, 0), 400.0);
  EXPECT_EQ(m.at(1, 1), 5.0);
  EXPECT_TRUE(std::isnan(m.at(1, 2)));

  TempFile header("h.csv", "a,b\r\n1,\r\n3,4\r\n");
  ASSERT_EQ(readMatrix(header.path, AMLS_FILE_CSV, m), "");
  EXPECT_EQ(m.rows, 2);
  EXPECT_EQ(m.cols, 2);
  EXPECT_EQ(m.data, (memory::Vector<double>{1, 0, 3, 4}));
}

TEST(MatrixIO, ReportsMalformedCsvWithLine) {
  TempFile bad("bad.csv", "1,2\n3,x4\n");
  Matrix m;
  EXPECT_EQ(readMatrix(bad.path, AMLS_FILE_CSV, m),
            bad.path + ":2: column 2: expected a number, found 'x4'");
  TempFile ragged("ragged.csv", "1,2\n3\n");
  EXPECT_EQ(readMatrix(ragged.path, AMLS_FILE_CSV, m),
            ragged.path + ":2: expected 2 values as in the first row, found 1");
  EXPECT_EQ(readMatrix("/nonexistent/x.csv", AMLS_FILE_CSV, m),
            "/nonexistent/x.csv: cannot open the file for reading");
}

// Large files are parsed in blocks of rows by several threads: the cells
// land in order, every number syntax strtod takes is read, and of several
// bad lines the first in the file is reported.
TEST(MatrixIO, ReadsLargeCsvWithThreads) {
  constexpr int64_t kRows = 150001;
  const std::string kPad(40, ' ');
  std::string text = "# not a number, a header\n";
  for (int64_t r = 0; r < kRows; ++r) {
    text += std::to_string(r) + ", +" + std::to_string(r % 7) + ".5,";
    // Padding: blocks of more than 2 MB are parsed by both threads.
    text += r % 1000 == 0 ? "0x1p-2" + kPad + "\r\n" : "-1e-3" + kPad + "\n";
    if (r % 50000 == 0)
      text += "\n  \n";
  }
  TempFile large("large.csv", text);
  amls_rt_set_num_threads(2);
  Matrix m;
  ASSERT_EQ(readMatrix(large.path, AMLS_FILE_CSV, m), "");
  EXPECT_EQ(m.rows, kRows);
  EXPECT_EQ(m.cols, 3);
  for (int64_t r : {int64_t(0), int64_t(1), int64_t(65535), int64_t(65536),
                    int64_t(100000), kRows - 1}) {
    EXPECT_EQ(m.at(r, 0), double(r)) << r;
    EXPECT_EQ(m.at(r, 1), double(r % 7) + 0.5) << r;
    EXPECT_EQ(m.at(r, 2), r % 1000 == 0 ? 0.25 : -1e-3) << r;
  }

  // A bad cell in line 70001 and a short row in line 100001: the same
  // block, one for each thread.
  std::string broken;
  for (int64_t r = 0; r < kRows; ++r) {
    broken += r == 70000 ? "1,oops,3" : r == 100000 ? "1,2" : "1,2,3";
    broken += kPad + "\n";
  }
  TempFile bad("bad-large.csv", broken);
  EXPECT_EQ(readMatrix(bad.path, AMLS_FILE_CSV, m),
            bad.path + ":70001: column 2: expected a number, found 'oops'");
  amls_rt_set_num_threads(1);
}

TEST(MatrixIO, ReadsMatrixMarketForms) {
  Matrix m;
  TempFile coordinate("c.mtx", "%%MatrixMarket matrix coordinate real general\n"
                               "% a comment\n3 2 2\n1 1 1.5\n3 2 -2\n");
  ASSERT_EQ(readMatrix(coordinate.path, AMLS_FILE_MATRIX_MARKET, m), "");
  EXPECT_EQ(m.data, (memory::Vector<double>{1.5, 0, 0, 0, 0, -2}));

  TempFile array("a.mtx", "%%MatrixMarket matrix array real general\n"
                          "2 2\n1\n2\n3\n4\n");
  ASSERT_EQ(readMatrix(array.path, AMLS_FILE_MATRIX_MARKET, m), "");
  // Column-major listing.
  EXPECT_EQ(m.data, (memory::Vector<double>{1, 3, 2, 4}));

  TempFile symmetric("s.mtx",
                     "%%MatrixMarket matrix coordinate pattern symmetric\n"
                     "2 2 1\n2 1\n");
  ASSERT_EQ(readMatrix(symmetric.path, AMLS_FILE_MATRIX_MARKET, m), "");
  EXPECT_EQ(m.data, (memory::Vector<double>{0, 1, 1, 0}));
}

TEST(MatrixIO, ReportsMalformedMatrixMarket) {
  Matrix m;
  TempFile noHeader("n.mtx", "2 2 1\n1 1 1\n");
  EXPECT_EQ(readMatrix(noHeader.path, AMLS_FILE_MATRIX_MARKET, m),
            noHeader.path +
                ":1: expected '%%MatrixMarket matrix ...', found '2 2 1'");
  TempFile outside("o.mtx", "%%MatrixMarket matrix coordinate real general\n"
                            "2 2 1\n3 1 1.0\n");
  EXPECT_EQ(readMatrix(outside.path, AMLS_FILE_MATRIX_MARKET, m),
            outside.path + ":3: entry (3, 1) is outside the 2x2 matrix");
  TempFile truncated("t.mtx", "%%MatrixMarket matrix coordinate real general\n"
                              "2 2 2\n1 1 1.0\n");
  EXPECT_EQ(readMatrix(truncated.path, AMLS_FILE_MATRIX_MARKET, m),
            truncated.path + ":4: expected 2 entries, found 1");
  // A mirrored entry would fall outside a non-square symmetric matrix.
  TempFile nonSquare("q.mtx",
                     "%%MatrixMarket matrix coordinate real symmetric\n"
                     "2 3 1\n1 3 1.0\n");
  EXPECT_EQ(readMatrix(nonSquare.path, AMLS_FILE_MATRIX_MARKET, m),
            nonSquare.path +
                ":2: a 'symmetric' matrix must be square, found 2x3");
}

TEST(MatrixIO, DenseReadRefusesHeadersBeyondTheBudget) {
  Matrix m;
  TempFile huge("h.mtx", "%%MatrixMarket matrix coordinate real general\n"
                         "3000000000 3000000000 1\n1 1 1.0\n");
  memory::setLimit(1 << 30);
  EXPECT_EQ(readMatrix(huge.path, AMLS_FILE_MATRIX_MARKET, m),
            huge.path + ": a dense 3000000000x3000000000 matrix needs "
                        "72000000000000000000 bytes, more than the memory "
                        "limit of 1073741824 bytes (amls-run --memory-limit)");
  EXPECT_TRUE(m.data.empty());
  memory::setLimit(0);
}

TEST(MatrixIO, RoundTripsEveryFormat) {
  Matrix original = make(2, 3, {0.1, 0, -1e-300, 1.0 / 3.0, 0, 12345.678});
  for (auto [name, format, layout] :
       {std::tuple{"r.csv", AMLS_FILE_CSV, MatrixMarketLayout::Coordinate},
        {"r.mtx", AMLS_FILE_MATRIX_MARKET, MatrixMarketLayout::Coordinate},
        {"r.mtx", AMLS_FILE_MATRIX_MARKET, MatrixMarketLayout::Array},
        {"r.bin", AMLS_FILE_BINARY, MatrixMarketLayout::Coordinate}}) {
    TempFile file(name);
    ASSERT_EQ(writeMatrix(file.path, format, MatrixView::of(original), layout),
              "");
    Matrix back;
    ASSERT_EQ(readMatrix(file.path, format, back), "");
    EXPECT_EQ(back.rows, 2);
    EXPECT_EQ(back.cols, 3);
    EXPECT_EQ(back.data, original.data) << name; // bit-exact
  }
}

TEST(MatrixIO, ReportsTruncatedBinary) {
  TempFile file("t.bin", std::string("AMLSMAT1") + std::string(16, '\0'));
  // 0x0 is a valid (empty) matrix; a wrong header is not.
  Matrix m;
  EXPECT_EQ(readMatrix(file.path, AMLS_FILE_BINARY, m), "");
  TempFile wrong("w.bin", "NOTAMATRIX");
  EXPECT_EQ(readMatrix(wrong.path, AMLS_FILE_BINARY, m),
            wrong.path + ": expected a binary matrix starting with 'AMLSMAT1'");
}

TEST(MatrixIO, WritesStridedViews) {
  // The transpose of a 2x3 matrix, as a strided view.
  Matrix m = make(2, 3, {1, 2, 3, 4, 5, 6});
  MatrixView transposed{m.data.data(), 3, 2, 1, 3};
  TempFile file("t.csv");
  ASSERT_EQ(writeMatrix(file.path, AMLS_FILE_CSV, transposed), "");
  std::ifstream in(file.path);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, "1,4\n2,5\n3,6\n");
}

TEST(MatrixIO, FormatsLikeDml) {
  Matrix m = make(2, 2, {1, -2.5, 0.0004, NAN});
  EXPECT_EQ(formatMatrix(MatrixView::of(m)), "1.000 -2.500\n0.000 NaN\n");
  EXPECT_EQ(formatScalar(3.5), "3.5");
  EXPECT_EQ(formatScalar(2.0), "2.0");
  EXPECT_EQ(formatScalar(-0.001), "-0.001");
  EXPECT_EQ(formatScalar(1e-4), "1.0E-4");
  EXPECT_EQ(formatScalar(12345678.0), "1.2345678E7");
  EXPECT_EQ(formatScalar(0.0), "0.0");
  EXPECT_EQ(formatScalar(INFINITY), "Infinity");
}

// A compiled program's read: the sizes from the file's metadata, the cells
// parsed straight into its buffer (contiguous or strided), the same cells
// as readMatrix; a file that no longer has those sizes is an error, and
// nothing is written past the buffer.
TEST(MatrixIO, ReadsIntoBuffersOfTheMetadataSizes) {
  TempFile csv("x.csv", "1,2,3\n\n4,5,6\n");
  std::vector<double> cells(6, -1.0);
  ASSERT_EQ(readMatrixInto(csv.path, AMLS_FILE_CSV,
                           MatrixSpan{cells.data(), 2, 3, 3, 1}),
            "");
  EXPECT_EQ(cells, (std::vector<double>{1, 2, 3, 4, 5, 6}));

  // Column-major (a transposed view), with one guard cell after it.
  std::vector<double> strided(7, -1.0);
  ASSERT_EQ(readMatrixInto(csv.path, AMLS_FILE_CSV,
                           MatrixSpan{strided.data(), 2, 3, 1, 2}),
            "");
  EXPECT_EQ(strided, (std::vector<double>{1, 4, 2, 5, 3, 6, -1}));

  // Matrix Market lists only some cells: the others become 0.
  TempFile coordinate("c.mtx", "%%MatrixMarket matrix coordinate real general\n"
                               "2 3 2\n1 2 7\n2 3 -1\n");
  std::fill(cells.begin(), cells.end(), -1.0);
  ASSERT_EQ(readMatrixInto(coordinate.path, AMLS_FILE_MATRIX_MARKET,
                           MatrixSpan{cells.data(), 2, 3, 3, 1}),
            "");
  EXPECT_EQ(cells, (std::vector<double>{0, 7, 0, 0, 0, -1}));

  // The file has another row than the buffer: reported, the guard intact.
  std::vector<double> small(4, -1.0);
  EXPECT_EQ(readMatrixInto(csv.path, AMLS_FILE_CSV,
                           MatrixSpan{small.data(), 1, 3, 3, 1}),
            csv.path + ": the file changed while it was read: it has more "
                       "than 1 rows of 3 cells, expected 1x3");
  EXPECT_EQ(small[3], -1.0);
  std::vector<double> large(9, -1.0);
  EXPECT_EQ(readMatrixInto(csv.path, AMLS_FILE_CSV,
                           MatrixSpan{large.data(), 3, 3, 3, 1}),
            csv.path + ": the file changed while it was read: it has 2x3 "
                       "cells, expected 3x3");
  EXPECT_EQ(readMatrixInto(coordinate.path, AMLS_FILE_MATRIX_MARKET,
                           MatrixSpan{large.data(), 3, 3, 3, 1}),
            coordinate.path + ": the file changed while it was read: it has "
                              "2x3 cells, expected 3x3");
  // Errors in the file keep their line.
  TempFile bad("bad.csv", "1,2\n3,x\n");
  EXPECT_EQ(readMatrixInto(bad.path, AMLS_FILE_CSV,
                           MatrixSpan{cells.data(), 2, 2, 2, 1}),
            bad.path + ":2: column 2: expected a number, found 'x'");
}
