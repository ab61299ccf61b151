//===- SparseIOTest.cpp - CSR reading and writing against dense -----------===//
//
// Reading into CSR must give, cell for cell, what the dense reader gives for
// the same file (Matrix Market duplicates, symmetric, skew-symmetric and
// pattern files, explicit zeros, unsorted entries, CSV headers and empty
// fields), with the same messages for malformed files; writing CSR must
// give the dense writer's bytes.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Memory.h"
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

/// The file read both ways: the same sizes and cells, no stored zeros.
void expectSameAsDense(const std::string &path, FileFormat format) {
  SCOPED_TRACE(path);
  Matrix dense;
  ASSERT_EQ(readMatrix(path, format, dense), "");
  CsrMatrix csr;
  ASSERT_EQ(readCsrMatrix(path, format, csr), "");
  ASSERT_EQ(csr.rows, dense.rows);
  ASSERT_EQ(csr.cols, dense.cols);
  ASSERT_TRUE(wellFormed(csr.rowptr, csr.colidx, csr.rows, csr.cols));
  int64_t nonZeros = 0;
  for (double cell : dense.data)
    nonZeros += cell != 0.0;
  EXPECT_EQ(csr.nonZeros(), nonZeros);
  for (int64_t r = 0; r < csr.rows; ++r) {
    std::vector<double> row(csr.cols, 0.0);
    for (int64_t k = csr.rowptr[r]; k < csr.rowptr[r + 1]; ++k) {
      EXPECT_TRUE(csr.values[k] != 0.0) << "stored zero in row " << r;
      row[csr.colidx[k]] = csr.values[k];
    }
    for (int64_t c = 0; c < csr.cols; ++c)
      EXPECT_TRUE(same(row[c], dense.at(r, c)))
          << "cell (" << r << ", " << c << "): " << row[c]
          << " != " << dense.at(r, c);
  }
}

TEST(SparseIO, MatrixMarketReadsAsTheDenseReader) {
  TempDir dir;
  const char *files[] = {
      // Unsorted, duplicates (the last wins, also back to 0), explicit zeros.
      "%%MatrixMarket matrix coordinate real general\n"
      "% a comment\n"
      "4 5 9\n"
      "3 5 1.5\n1 2 -2\n3 1 4\n1 2 7\n2 2 0\n4 4 3\n4 4 0\n1 1 1e300\n"
      "3 5 -1.5\n",
      // Symmetric: mirrored, the diagonal once, a mirror overwritten.
      "%%MatrixMarket matrix coordinate real symmetric\n"
      "3 3 5\n"
      "1 1 2\n3 1 -1\n2 1 5\n1 2 7\n3 3 0\n",
      "%%MatrixMarket matrix coordinate real skew-symmetric\n"
      "3 3 2\n"
      "2 1 4\n3 2 -0.5\n",
      "%%MatrixMarket matrix coordinate pattern general\n"
      "3 4 3\n"
      "3 4\n1 1\n3 2\n",
      "%%MatrixMarket matrix coordinate pattern symmetric\n"
      "3 3 2\n"
      "2 1\n3 3\n",
      "%%MatrixMarket matrix coordinate integer general\n"
      "2 3 2\n"
      "2 3 -4\n1 1 9\n",
      // Array layout: column by column, zeros included.
      "%%MatrixMarket matrix array real general\n"
      "3 2\n"
      "1\n0\n-2\n0\n0\n3.25\n",
      "%%MatrixMarket matrix coordinate real general\n"
      "3 4 0\n",
      "%%MatrixMarket matrix coordinate real general\n"
      "0 0 0\n",
  };
  int n = 0;
  for (const char *contents : files)
    expectSameAsDense(dir.file("m" + std::to_string(n++) + ".mtx", contents),
                      AMLS_FILE_MATRIX_MARKET);
}

TEST(SparseIO, LargeMatrixMarketFilesReadInPartsAsTheDenseReader) {
  // About 1 MB of entries, read in parts by two threads: cells assigned in
  // several parts (the last one wins), set back to 0, rows out of order,
  // comments, blank lines and CRLF line ends anywhere.
  TempDir dir;
  ThreadScope threads(2);
  std::mt19937_64 rng(5);
  for (const char *kind :
       {"real general", "real symmetric", "pattern general"}) {
    bool pattern = std::string(kind) == "pattern general";
    int64_t n = 300, entries = 70000;
    std::string text = std::string("%%MatrixMarket matrix coordinate ") + kind +
                       "\n300 300 " + std::to_string(entries) + "\n";
    for (int64_t e = 0; e < entries; ++e) {
      if (e % 5000 == 17)
        text += "% a comment\n\n";
      int64_t r = rng() % n + 1, c = rng() % n + 1;
      if (std::string(kind) == "real symmetric" && r < c)
        std::swap(r, c);
      text += std::to_string(r) + " " + std::to_string(c);
      if (!pattern)
        text += " " + std::to_string(static_cast<int64_t>(rng() % 9) - 4);
      text += e % 7 == 3 && !pattern ? "\r\n" : "\n";
    }
    expectSameAsDense(
        dir.file(std::string("large-") + kind[0] + kind[6] + ".mtx", text),
        AMLS_FILE_MATRIX_MARKET);
  }
}

/// A decimal of up to 18 digits with the point anywhere, an exponent
/// sometimes, a sign sometimes: both the reader's exact short path and its
/// from_chars path.
std::string randomDecimal(std::mt19937_64 &rng) {
  std::string digits = std::to_string(rng() % 1000000000000000000ULL);
  digits = digits.substr(0, 1 + rng() % digits.size());
  size_t point = rng() % (digits.size() + 1);
  std::string text = digits.substr(0, point) + "." + digits.substr(point);
  if (rng() % 2)
    text = text.substr(0, text.size() - (text.back() == '.'));
  if (rng() % 8 == 0)
    text += "e" + std::to_string(static_cast<int>(rng() % 21) - 10);
  const char *signs[] = {"", "", "-", "+"};
  return signs[rng() % 4] + text;
}

TEST(SparseIO, RowOrderedMatrixMarketFilesReadInPartsAsTheDenseReader) {
  // Listed by row, as most writers do: read straight into CSR by two
  // threads, each part into its own range. Comments and blank lines leave
  // slots that later parts close up; empty rows at the start, between and
  // at the end; a long row across the parts' boundary; duplicates, zeros
  // and unsorted columns within a row; CRLF; no final newline.
  TempDir dir;
  ThreadScope threads(2);
  std::mt19937_64 rng(7);
  int64_t rows = 5000, cols = 2000;
  std::string body;
  int64_t entries = 0;
  for (int64_t r = 3; r < rows - 3; ++r) {
    if (r % 97 == 0)
      continue;
    int64_t length = r == rows / 2 ? 30000 : static_cast<int64_t>(rng() % 12);
    for (int64_t k = 0; k < length; ++k) {
      if (rng() % 4000 == 0)
        body += "% a comment\n\n  \n";
      int64_t c = rng() % cols + 1;
      std::string value = rng() % 50 == 0 ? "0" : randomDecimal(rng);
      body += std::to_string(r + 1) + " " + std::to_string(c) + " " + value +
              (rng() % 9 == 0 ? "\r\n" : "\n");
      ++entries;
    }
  }
  body += std::to_string(rows - 3) + " 1 2.5";
  ++entries;
  std::string header = "%%MatrixMarket matrix coordinate real general\n" +
                       std::to_string(rows) + " " + std::to_string(cols) + " " +
                       std::to_string(entries) + "\n";
  expectSameAsDense(dir.file("ordered.mtx", header + body),
                    AMLS_FILE_MATRIX_MARKET);
  // One row out of order at the very end: the parts go back to sorting.
  std::string late = header + body + "\n2 7 3\n";
  late.replace(late.find(" " + std::to_string(entries) + "\n"),
               std::to_string(entries).size() + 2,
               " " + std::to_string(entries + 1) + "\n");
  expectSameAsDense(dir.file("late.mtx", late), AMLS_FILE_MATRIX_MARKET);
  // A wrong count in an ordered file: the sequential reader's message.
  CsrMatrix csr;
  std::string wrong = header + body + "\n";
  wrong.replace(wrong.find(" " + std::to_string(entries) + "\n"),
                std::to_string(entries).size() + 2,
                " " + std::to_string(entries + 1) + "\n");
  EXPECT_NE(
      readCsrMatrix(dir.file("wrong.mtx", wrong), AMLS_FILE_MATRIX_MARKET, csr)
          .find("expected " + std::to_string(entries + 1) + " entries, found " +
                std::to_string(entries)),
      std::string::npos);
}

TEST(SparseIO, CsvAndBinaryReadAsTheDenseReader) {
  TempDir dir;
  expectSameAsDense(dir.file("h.csv", "a,b,c\r\n1,,0\r\n\r\n0,0,0\r\n"
                                      "nan, -2 ,3e2\r\n"),
                    AMLS_FILE_CSV);
  expectSameAsDense(dir.file("p.csv", "0,1\n2,0\n"), AMLS_FILE_CSV);
  expectSameAsDense(dir.file("e.csv", "\n\n"), AMLS_FILE_CSV);
  expectSameAsDense(dir.file("z.csv", "0,0,0\n0,0,0\n"), AMLS_FILE_CSV);

  Matrix m;
  m.rows = 3;
  m.cols = 4;
  m.data = {0, 1, 0, -0.0, NAN, 0, 0, 0, 0, 0, 2.5, 3};
  std::string bin = dir.file("m.bin");
  ASSERT_EQ(writeMatrix(bin, AMLS_FILE_BINARY, MatrixView::of(m)), "");
  expectSameAsDense(bin, AMLS_FILE_BINARY);
  // Enough rows for several of the binary reader's chunks.
  Matrix tall;
  tall.rows = 300000;
  tall.cols = 5;
  tall.data.assign(tall.rows * tall.cols, 0.0);
  for (int64_t i = 0; i < tall.rows; i += 7)
    tall.data[i * 5 + i % 5] = static_cast<double>(i);
  std::string tallBin = dir.file("tall.bin");
  ASSERT_EQ(writeMatrix(tallBin, AMLS_FILE_BINARY, MatrixView::of(tall)), "");
  expectSameAsDense(tallBin, AMLS_FILE_BINARY);
}

TEST(SparseIO, MalformedFilesGiveTheDenseReadersMessages) {
  TempDir dir;
  struct Bad {
    std::string name, contents;
    FileFormat format;
  };
  std::vector<Bad> files = {
      {"truncated.mtx",
       "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n",
       AMLS_FILE_MATRIX_MARKET},
      {"outside.mtx",
       "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n",
       AMLS_FILE_MATRIX_MARKET},
      {"entry.mtx",
       "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 x 1\n",
       AMLS_FILE_MATRIX_MARKET},
      {"banner.mtx", "%%MatrixMarket matrix coordinate complex general\n",
       AMLS_FILE_MATRIX_MARKET},
      {"nonsquare.mtx",
       "%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n2 1 1\n",
       AMLS_FILE_MATRIX_MARKET},
      {"field.csv", "1,2\n3,x\n", AMLS_FILE_CSV},
      {"ragged.csv", "1,2\n3\n", AMLS_FILE_CSV},
      {"magic.bin", "NOTAMATRIX", AMLS_FILE_BINARY},
      {"short.bin",
       std::string("AMLSMAT1") + std::string("\2\0\0\0\0\0\0\0", 8) +
           std::string("\2\0\0\0\0\0\0\0", 8) + std::string(8, '\0'),
       AMLS_FILE_BINARY},
  };
  for (const Bad &bad : files) {
    std::string path = dir.file(bad.name, bad.contents);
    Matrix dense;
    CsrMatrix csr;
    std::string message = readMatrix(path, bad.format, dense);
    EXPECT_NE(message, "") << bad.name;
    EXPECT_EQ(readCsrMatrix(path, bad.format, csr), message);
  }
  Matrix dense;
  CsrMatrix csr;
  EXPECT_EQ(
      readCsrMatrix(dir.path + "/missing.mtx", AMLS_FILE_MATRIX_MARKET, csr),
      readMatrix(dir.path + "/missing.mtx", AMLS_FILE_MATRIX_MARKET, dense));
  EXPECT_EQ(readMatrix(dir.file("n.mtx", files[4].contents),
                       AMLS_FILE_MATRIX_MARKET, dense),
            dir.path + "/n.mtx:2: a 'symmetric' matrix must be square, "
                       "found 2x3");
}

// Headers may say anything (both found by make fuzz-readers): the
// parallel reader bounds what it reserves by the file's size, and row
// pointers beyond the budget are refused before they are allocated.
TEST(SparseIO, HostileHeadersAllocateNothing) {
  TempDir dir;
  CsrMatrix csr;
  memory::setLimit(64 << 20);
  std::string many =
      dir.file("many.mtx", "%%MatrixMarket matrix coordinate real general\n"
                           "3 2 888888883\n3 2 7\n2 1 1\n");
  EXPECT_EQ(readCsrMatrix(many, AMLS_FILE_MATRIX_MARKET, csr),
            many + ":5: expected 888888883 entries, found 2");
  std::string tall =
      dir.file("tall.mtx", "%%MatrixMarket matrix coordinate real general\n"
                           "8888888888883 2 1\n3 2 7\n");
  EXPECT_EQ(readCsrMatrix(tall, AMLS_FILE_MATRIX_MARKET, csr),
            tall + ": a CSR matrix of 8888888888883 rows needs "
                   "71111111111072 bytes for its row pointers, more than the "
                   "memory limit of 67108864 bytes (amls-run --memory-limit)");
  memory::setLimit(0);
}

TEST(SparseIO, TooManyColumnsForCsr) {
  TempDir dir;
  CsrMatrix csr;
  std::string mtx =
      dir.file("wide.mtx", "%%MatrixMarket matrix coordinate real general\n"
                           "1 3000000000 0\n");
  EXPECT_EQ(readCsrMatrix(mtx, AMLS_FILE_MATRIX_MARKET, csr),
            mtx + ": a matrix of 3000000000 columns is too wide for CSR (at "
                  "most 2147483647 columns)");
  int64_t sizes[2] = {0, int64_t(1) << 31};
  std::string bin = dir.file(
      "wide.bin", std::string("AMLSMAT1") +
                      std::string(reinterpret_cast<char *>(sizes), 16));
  EXPECT_NE(readCsrMatrix(bin, AMLS_FILE_BINARY, csr).find("too wide for CSR"),
            std::string::npos);
}

TEST(SparseIO, CompiledProgramsReadThroughAHandle) {
  TempDir dir;
  std::string path =
      dir.file("m.mtx", "%%MatrixMarket matrix coordinate real general\n"
                        "3 4 4\n3 4 2\n1 2 -1\n3 1 5\n2 2 0\n");
  void *handle =
      amls_rt_csr_read(path.c_str(), AMLS_FILE_MATRIX_MARKET, -1, -1, "");
  ASSERT_EQ(amls_rt_csr_handle_rows(handle), 3);
  ASSERT_EQ(amls_rt_csr_handle_cols(handle), 4);
  // The arrays are handed over, not copied: they stay live in the pool
  // after the handle is freed, until the caller releases them.
  AmlsVectorI64 rowptr;
  AmlsVectorI32 colidx;
  AmlsVectorF64 values;
  _mlir_ciface_amls_rt_csr_take_rowptr(&rowptr, handle, "rowptr");
  _mlir_ciface_amls_rt_csr_take_colidx(&colidx, handle, "colidx");
  _mlir_ciface_amls_rt_csr_take_values(&values, handle, "values");
  uint64_t liveBefore = memory::getStatistics().liveBytes;
  amls_rt_csr_free_handle(handle);
  EXPECT_EQ(memory::getStatistics().liveBytes, liveBefore);
  ASSERT_EQ(rowptr.sizes[0], 4);
  ASSERT_EQ(colidx.sizes[0], 3);
  ASSERT_EQ(values.sizes[0], 3);
  EXPECT_EQ(rowptr.allocated, rowptr.aligned);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(values.aligned) % memory::kAlignment,
            0u);
  EXPECT_EQ(std::vector<int64_t>(rowptr.aligned, rowptr.aligned + 4),
            (std::vector<int64_t>{0, 1, 1, 3}));
  EXPECT_EQ(std::vector<int32_t>(colidx.aligned, colidx.aligned + 3),
            (std::vector<int32_t>{1, 0, 3}));
  EXPECT_EQ(std::vector<double>(values.aligned, values.aligned + 3),
            (std::vector<double>{-1, 5, 2}));
  for (void *buffer : {static_cast<void *>(rowptr.allocated),
                       static_cast<void *>(colidx.allocated),
                       static_cast<void *>(values.allocated)})
    memory::release(buffer);
  EXPECT_LT(memory::getStatistics().liveBytes, liveBefore);
}

TEST(SparseIODeathTest, ReadErrorsExitWithAMessage) {
  EXPECT_EXIT(amls_rt_csr_read("/nonexistent/m.mtx", AMLS_FILE_MATRIX_MARKET,
                               -1, -1, ""),
              testing::ExitedWithCode(1),
              "amls: /nonexistent/m.mtx: cannot open the file for reading");
}

TEST(SparseIO, WritesTheDenseWritersBytes) {
  TempDir dir;
  for (std::string name : {"random", "zeros", "full", "row", "column", "norows",
                           "nocols", "storedzeros", "special", "big"}) {
    Csr a = testCase(name);
    Dense dense(a.rows, a.cols, a.dense());
    for (auto [extension, format] : {std::pair{".csv", AMLS_FILE_CSV},
                                     std::pair{".mtx", AMLS_FILE_MATRIX_MARKET},
                                     std::pair{".bin", AMLS_FILE_BINARY}}) {
      SCOPED_TRACE(name + extension);
      std::string fromDense = dir.file(name + "-dense" + extension),
                  fromCsr = dir.file(name + "-csr" + extension);
      _mlir_ciface_amls_rt_write(dense.desc(), fromDense.c_str(), format);
      _mlir_ciface_amls_rt_csr_write(a.rowptr.desc(), a.colidx.desc(),
                                     a.values.desc(), a.cols, fromCsr.c_str(),
                                     format);
      std::string want = contentsOf(fromDense);
      ASSERT_EQ(contentsOf(fromCsr), want);
      // And back, as the dense reader reads it (Matrix Market's reader
      // takes no NaN or infinity).
      if (format != AMLS_FILE_MATRIX_MARKET || name != "special")
        expectSameAsDense(fromCsr, format);
    }
    // Matrix Market's array layout, from C++.
    std::vector<int64_t> rowptr = a.rowptr.values();
    std::vector<int32_t> colidx = a.colidx.values();
    std::vector<double> values = a.values.values();
    CsrMatrixView view{rowptr.data(), colidx.data(), values.data(), a.rows,
                       a.cols};
    std::string arrayDense = dir.file(name + "-dense-array.mtx"),
                arrayCsr = dir.file(name + "-csr-array.mtx");
    std::vector<double> cells = a.dense();
    MatrixView denseView{cells.data(), a.rows, a.cols, a.cols, 1};
    ASSERT_EQ(writeMatrix(arrayDense, AMLS_FILE_MATRIX_MARKET, denseView,
                          MatrixMarketLayout::Array),
              "");
    ASSERT_EQ(writeMatrix(arrayCsr, AMLS_FILE_MATRIX_MARKET, view,
                          MatrixMarketLayout::Array),
              "");
    EXPECT_EQ(contentsOf(arrayCsr), contentsOf(arrayDense)) << name;
  }
}

} // namespace
