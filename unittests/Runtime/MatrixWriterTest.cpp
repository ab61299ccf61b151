//===- MatrixWriterTest.cpp - The threaded CSV/Matrix Market writer -------===//
//
// The writer formats chunks of rows on several threads. Its bytes must be
// those of the sequential writer it replaced (reproduced below as the
// oracle), for every value and shape, at 1 and 2 threads, from dense and
// CSR matrices; and what it writes must read back bit for bit.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/MatrixIO.h"
#include "AMLS/Runtime/Runtime.h"
#include "SparseTestSupport.h"
#include "TempFiles.h"

#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <unistd.h>

using namespace amls::runtime;

namespace {

using amls::iotest::contentsOf;
using amls::iotest::TempDir;

/// The sequential writer before the threaded one, statement for statement:
/// the oracle for the bytes.
void legacyNumber(std::ostream &out, double value) {
  char buffer[32];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.write(buffer, error == std::errc() ? end - buffer : 0);
}

std::string legacyWrite(FileFormat format, const Matrix &m,
                        MatrixMarketLayout layout) {
  std::ostringstream out;
  if (format == AMLS_FILE_BINARY) {
    int64_t sizes[2] = {m.rows, m.cols};
    out.write(kBinaryMatrixMagic, sizeof(kBinaryMatrixMagic));
    out.write(reinterpret_cast<const char *>(sizes), sizeof(sizes));
    out.write(reinterpret_cast<const char *>(m.data.data()),
              m.data.size() * sizeof(double));
  } else if (format == AMLS_FILE_CSV) {
    for (int64_t r = 0; r < m.rows; ++r) {
      for (int64_t c = 0; c < m.cols; ++c) {
        if (c)
          out << ',';
        legacyNumber(out, m.at(r, c));
      }
      out << '\n';
    }
  } else if (layout == MatrixMarketLayout::Array) {
    out << "%%MatrixMarket matrix array real general\n"
        << m.rows << ' ' << m.cols << '\n';
    for (int64_t c = 0; c < m.cols; ++c)
      for (int64_t r = 0; r < m.rows; ++r) {
        legacyNumber(out, m.at(r, c));
        out << '\n';
      }
  } else {
    int64_t nonZeros = 0;
    for (double value : m.data)
      nonZeros += value != 0.0;
    out << "%%MatrixMarket matrix coordinate real general\n"
        << m.rows << ' ' << m.cols << ' ' << nonZeros << '\n';
    for (int64_t r = 0; r < m.rows; ++r)
      for (int64_t c = 0; c < m.cols; ++c)
        if (m.at(r, c) != 0.0) {
          out << r + 1 << ' ' << c + 1 << ' ';
          legacyNumber(out, m.at(r, c));
          out << '\n';
        }
  }
  return out.str();
}

Matrix make(int64_t rows, int64_t cols, std::vector<double> data) {
  Matrix m;
  m.rows = rows;
  m.cols = cols;
  m.data.assign(data.begin(), data.end());
  return m;
}

/// The CSR form of `m` (-0.0 stored, as a CSR kernel may store it), with
/// more stored zeros where `explicitZeros` (the coordinate writers skip
/// them as the dense writer skips zeros).
CsrMatrix toCsr(const Matrix &m, bool explicitZeros = false) {
  CsrMatrix csr;
  csr.rows = m.rows;
  csr.cols = m.cols;
  for (int64_t r = 0; r < m.rows; ++r) {
    for (int64_t c = 0; c < m.cols; ++c)
      if (m.at(r, c) != 0.0 || std::signbit(m.at(r, c)) ||
          (explicitZeros && (r + c) % 7 == 3)) {
        csr.colidx.push_back(static_cast<int32_t>(c));
        csr.values.push_back(m.at(r, c));
      }
    csr.rowptr.push_back(static_cast<int64_t>(csr.values.size()));
  }
  return csr;
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const double kDenormal = std::numeric_limits<double>::denorm_min();

/// Values whose text is easy to get wrong.
Matrix trickyValues() {
  return make(3, 5,
              {kNaN, kInf, -kInf, -0.0, kDenormal,        //
               1e308, 0.1, 3, 1e-5, 123456789012345678.0, //
               -2.2250738585072014e-308, 1.0 / 3.0, 0, 1e22, -1e-300});
}

/// Shapes and contents: empty, one row, one column, tricky values, and
/// enough cells for several chunks and rounds per thread.
std::vector<std::pair<std::string, Matrix>> cases() {
  std::vector<std::pair<std::string, Matrix>> result;
  result.push_back({"0x0", make(0, 0, {})});
  result.push_back({"0x3", make(0, 3, {})});
  result.push_back({"3x0", make(3, 0, {})});
  result.push_back({"1x1", make(1, 1, {-7.5})});
  result.push_back({"tricky", trickyValues()});
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> uniform(-1e3, 1e3);
  auto randomMatrix = [&](int64_t rows, int64_t cols, double density) {
    Matrix m = make(rows, cols, std::vector<double>(rows * cols, 0.0));
    std::uniform_real_distribution<double> unit(0, 1);
    for (double &value : m.data)
      if (unit(random) < density)
        value =
            unit(random) < 0.1 ? std::round(uniform(random)) : uniform(random);
    return m;
  };
  result.push_back({"1-row", randomMatrix(1, 70000, 0.5)});
  result.push_back({"1-col", randomMatrix(70000, 1, 0.5)});
  // Several rounds of chunks at 1 and 2 threads (2^16 cells or entries a
  // chunk, 4 chunks a thread a round).
  result.push_back({"dense", randomMatrix(600, 700, 1.0)});
  // Empty rows, among them the first and the last.
  Matrix sparse = randomMatrix(300000, 4, 0.2);
  for (int64_t r : {int64_t(0), int64_t(5), int64_t(299999)})
    std::fill_n(sparse.data.begin() + r * sparse.cols, sparse.cols, 0.0);
  result.push_back({"sparse", sparse});
  return result;
}

struct Form {
  const char *extension;
  FileFormat format;
  MatrixMarketLayout layout;
};

const Form kForms[] = {
    {".csv", AMLS_FILE_CSV, MatrixMarketLayout::Coordinate},
    {".mtx", AMLS_FILE_MATRIX_MARKET, MatrixMarketLayout::Coordinate},
    {".mtx", AMLS_FILE_MATRIX_MARKET, MatrixMarketLayout::Array},
    {".bin", AMLS_FILE_BINARY, MatrixMarketLayout::Coordinate}};

TEST(MatrixWriter, WritesTheSequentialWritersBytes) {
  TempDir dir;
  for (int32_t threads : {1, 2}) {
    amls::sparsetest::ThreadScope scope(threads);
    for (const auto &[name, m] : cases()) {
      CsrMatrix csr = toCsr(m, /*explicitZeros=*/true);
      for (const Form &form : kForms) {
        SCOPED_TRACE(name + form.extension + " array=" +
                     std::to_string(form.layout == MatrixMarketLayout::Array) +
                     " threads=" + std::to_string(threads));
        std::string want = legacyWrite(form.format, m, form.layout);
        std::string dense = dir.file(name + "-dense" + form.extension);
        ASSERT_EQ(
            writeMatrix(dense, form.format, MatrixView::of(m), form.layout),
            "");
        EXPECT_TRUE(contentsOf(dense) == want);
        std::string sparse = dir.file(name + "-csr" + form.extension);
        ASSERT_EQ(writeMatrix(sparse, form.format, CsrMatrixView::of(csr),
                              form.layout),
                  "");
        EXPECT_TRUE(contentsOf(sparse) == want);
      }
    }
  }
}

TEST(MatrixWriter, WritesShortestRoundTripText) {
  // The format, spelled out: std::to_chars' shortest text.
  TempDir dir;
  std::string path = dir.file("t.csv");
  ASSERT_EQ(writeMatrix(path, AMLS_FILE_CSV, MatrixView::of(trickyValues())),
            "");
  EXPECT_EQ(contentsOf(path),
            "nan,inf,-inf,-0,5e-324\n"
            "1e+308,0.1,3,1e-05,123456789012345680\n"
            "-2.2250738585072014e-308,0.3333333333333333,0,1e+22,-1e-300\n");
}

TEST(MatrixWriter, ReadsBackBitForBit) {
  TempDir dir;
  for (int32_t threads : {1, 2}) {
    amls::sparsetest::ThreadScope scope(threads);
    for (const auto &[name, m] : cases()) {
      for (const Form &form : kForms) {
        // Matrix Market's readers take no NaN or infinity.
        if (name == "tricky" && form.format == AMLS_FILE_MATRIX_MARKET)
          continue;
        // A CSV file without numbers reads as 0x0.
        if ((m.rows == 0 || m.cols == 0) && form.format == AMLS_FILE_CSV)
          continue;
        bool coordinate = form.format == AMLS_FILE_MATRIX_MARKET &&
                          form.layout == MatrixMarketLayout::Coordinate;
        SCOPED_TRACE(name + form.extension +
                     " coordinate=" + std::to_string(coordinate) +
                     " threads=" + std::to_string(threads));
        std::string path = dir.file(name + "-back" + form.extension);
        ASSERT_EQ(
            writeMatrix(path, form.format, MatrixView::of(m), form.layout), "");
        Matrix back;
        ASSERT_EQ(readMatrix(path, form.format, back), "");
        EXPECT_EQ(back.rows, m.rows);
        EXPECT_EQ(back.cols, m.cols);
        // The coordinate layout lists non-zeros only: -0.0 reads as 0.
        std::vector<double> want(m.data.begin(), m.data.end());
        if (coordinate)
          for (double &value : want)
            value = value == 0.0 ? 0.0 : value;
        ASSERT_EQ(back.data.size(), want.size());
        // memcmp must not see the null data of an empty matrix (UBSan).
        EXPECT_TRUE(want.empty() ||
                    std::memcmp(back.data.data(), want.data(),
                                want.size() * sizeof(double)) == 0);
      }
    }
  }
}

TEST(MatrixWriter, ReportsAMissingDirectory) {
  TempDir dir;
  std::string path = dir.path + "/missing/m.csv";
  Matrix m = make(1, 1, {1});
  EXPECT_EQ(writeMatrix(path, AMLS_FILE_CSV, MatrixView::of(m)),
            path + ": cannot open the file for writing: No such file or "
                   "directory");
  CsrMatrix csr = toCsr(m);
  EXPECT_EQ(writeMatrix(path, AMLS_FILE_CSV, CsrMatrixView::of(csr)),
            path + ": cannot open the file for writing: No such file or "
                   "directory");
}

TEST(MatrixWriter, ReportsAFullDisk) {
  // /dev/full refuses every write with ENOSPC, as a full disk does; the
  // first chunk (larger than stdio's buffer) already fails.
  if (access("/dev/full", W_OK) != 0)
    GTEST_SKIP() << "no writable /dev/full";
  Matrix m = make(1000, 100, std::vector<double>(100000, 0.25));
  for (int32_t threads : {1, 2}) {
    amls::sparsetest::ThreadScope scope(threads);
    for (const Form &form : kForms)
      EXPECT_EQ(
          writeMatrix("/dev/full", form.format, MatrixView::of(m), form.layout),
          "/dev/full: cannot write the file: No space left on device");
    // A file small enough for stdio's buffer fails when it is flushed.
    Matrix small = make(1, 1, {1});
    EXPECT_EQ(writeMatrix("/dev/full", AMLS_FILE_CSV, MatrixView::of(small)),
              "/dev/full: cannot write the file: No space left on device");
  }
}

} // namespace
