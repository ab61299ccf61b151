//===- FileMetadataTest.cpp - Sizes from Matrix Market headers ------------===//

#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/MatrixIO.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace amls::runtime;

namespace {
std::optional<MatrixFileMetadata> parse(const std::string &text) {
  std::istringstream in(text);
  return parseMatrixMarketMetadata(in);
}
} // namespace

TEST(FileMetadataTest, CoordinateGeneralGivesSparsity) {
  auto metadata = parse("%%MatrixMarket matrix coordinate real general\n"
                        "% comment\n"
                        "\n"
                        "  % indented comment\n"
                        "100 40 50\n"
                        "1 1 2.0\n");
  ASSERT_TRUE(metadata);
  EXPECT_EQ(metadata->rows, 100);
  EXPECT_EQ(metadata->cols, 40);
  EXPECT_EQ(metadata->nonZeros, 50);
  EXPECT_DOUBLE_EQ(*metadata->sparsity(), 50.0 / 4000.0);
}

TEST(FileMetadataTest, SymmetricAndArrayGiveSizesOnly) {
  auto symmetric =
      parse("%%MatrixMarket matrix coordinate pattern symmetric\n5 5 7\n");
  ASSERT_TRUE(symmetric);
  EXPECT_EQ(symmetric->rows, 5);
  EXPECT_EQ(symmetric->cols, 5);
  EXPECT_FALSE(symmetric->sparsity());

  // Case-insensitive keywords, as the Matrix Market format allows.
  auto array = parse("%%MatrixMarket MATRIX Array Real General\n3 2\n1\n");
  ASSERT_TRUE(array);
  EXPECT_EQ(array->rows, 3);
  EXPECT_EQ(array->cols, 2);
  EXPECT_FALSE(array->nonZeros);
}

TEST(FileMetadataTest, EmptyMatricesHaveNoSparsity) {
  auto metadata =
      parse("%%MatrixMarket matrix coordinate real general\n0 7 0\n");
  ASSERT_TRUE(metadata);
  EXPECT_EQ(metadata->rows, 0);
  EXPECT_FALSE(metadata->sparsity());
}

TEST(FileMetadataTest, MalformedHeadersGiveNothing) {
  for (const char *text : {
           "",
           "1 2 3\n",
           "%%MatrixMarket vector coordinate real general\n3 3 1\n",
           "%%MatrixMarket matrix banded real general\n3 3 1\n",
           "%%MatrixMarket matrix coordinate real general\n",
           "%%MatrixMarket matrix coordinate real general\n3 x 1\n",
           "%%MatrixMarket matrix coordinate real general\n3 3\n",
           "%%MatrixMarket matrix coordinate real general\n-3 3 1\n",
       })
    EXPECT_FALSE(parse(text)) << text;
}

TEST(FileMetadataTest, MissingFileGivesNothing) {
  EXPECT_FALSE(readMatrixMarketMetadata("/nonexistent/amls/X.mtx"));
}

namespace {
/// Writes `text` to a temporary file and returns readCsvShape's answer.
std::optional<amls::runtime::MatrixFileMetadata>
csvShape(const std::string &text) {
  // ctest runs test cases in parallel processes: one file per process.
  std::string path = testing::TempDir() + "amls-csv-shape-" +
                     std::to_string(::getpid()) + ".csv";
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  auto shape = amls::runtime::readCsvShape(path);
  std::remove(path.c_str());
  return shape;
}
} // namespace

TEST(FileMetadataTest, CsvShapeCountsRowsAndFields) {
  auto shape = csvShape("1,2,3\n4,5,6\r\n\n  \n7,,9");
  ASSERT_TRUE(shape);
  EXPECT_EQ(shape->rows, 3);
  EXPECT_EQ(shape->cols, 3);
  EXPECT_FALSE(shape->nonZeros);
  shape = csvShape("\n 1.5e3 , -2\n");
  ASSERT_TRUE(shape);
  EXPECT_EQ(shape->rows, 1);
  EXPECT_EQ(shape->cols, 2);
  shape = csvShape("");
  ASSERT_TRUE(shape);
  EXPECT_EQ(shape->rows, 0);
}

// Shapes are kept per file version (inference asks in every pass): a file
// that changes is scanned again.
TEST(FileMetadataTest, CsvShapeFollowsTheFile) {
  std::string path = testing::TempDir() + "amls-csv-version-" +
                     std::to_string(::getpid()) + ".csv";
  auto write = [&](const char *text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
  };
  write("1,2\n3,4\n");
  auto shape = amls::runtime::readCsvShape(path);
  ASSERT_TRUE(shape);
  EXPECT_EQ(shape->rows, 2);
  EXPECT_EQ(shape->cols, 2);
  shape = amls::runtime::readCsvShape(path); // from the cache
  ASSERT_TRUE(shape);
  EXPECT_EQ(shape->rows, 2);
  write("1,2,3\n4,5,6\n7,8,9\n");
  shape = amls::runtime::readCsvShape(path);
  ASSERT_TRUE(shape);
  EXPECT_EQ(shape->rows, 3);
  EXPECT_EQ(shape->cols, 3);
  std::remove(path.c_str());
  EXPECT_FALSE(amls::runtime::readCsvShape(path));
}

TEST(FileMetadataTest, CsvShapeLeavesHeadersToTheReader) {
  EXPECT_FALSE(csvShape("a,b\n1,2\n"));
  EXPECT_FALSE(amls::runtime::readCsvShape("/nonexistent/amls/X.csv"));
}

namespace {
/// A temporary file of this process holding `text`, removed on destruction.
struct TemporaryFile {
  std::string path;
  TemporaryFile(const std::string &suffix, const std::string &text)
      : path(testing::TempDir() + "amls-metadata-" +
             std::to_string(::getpid()) + suffix) {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  ~TemporaryFile() { std::remove(path.c_str()); }
};
} // namespace

// The compiler reads headers with the reader's own parser: a header the
// reader rejects gives no metadata, and a header it accepts the sizes it
// reads.
TEST(FileMetadataTest, MatrixMarketMetadataAgreesWithTheReader) {
  TemporaryFile complex(".mtx", "%%MatrixMarket matrix coordinate complex "
                                "general\n2 2 1\n1 1 1 0\n");
  Matrix matrix;
  EXPECT_NE(readMatrix(complex.path, AMLS_FILE_MATRIX_MARKET, matrix), "");
  EXPECT_FALSE(readMatrixMarketMetadata(complex.path));

  TemporaryFile pattern(".mtx", "%%MatrixMarket matrix coordinate pattern "
                                "general\n% a comment\n3 4 2\n1 1\n3 4\n");
  ASSERT_EQ(readMatrix(pattern.path, AMLS_FILE_MATRIX_MARKET, matrix), "");
  std::optional<MatrixFileMetadata> metadata =
      readMatrixMarketMetadata(pattern.path);
  ASSERT_TRUE(metadata);
  EXPECT_EQ(metadata->rows, matrix.rows);
  EXPECT_EQ(metadata->cols, matrix.cols);
  EXPECT_EQ(metadata->nonZeros, 2);
}

TEST(FileMetadataTest, BinaryShapeFromTheHeader) {
  std::string path = testing::TempDir() + "amls-metadata-" +
                     std::to_string(::getpid()) + ".bin";
  Matrix written;
  written.rows = 3;
  written.cols = 2;
  written.data = {1, 2, 3, 4, 5, 6};
  ASSERT_EQ(writeMatrix(path, AMLS_FILE_BINARY, MatrixView::of(written)), "");
  std::optional<MatrixFileMetadata> shape = readBinaryShape(path);
  std::remove(path.c_str());
  ASSERT_TRUE(shape);
  EXPECT_EQ(shape->rows, 3);
  EXPECT_EQ(shape->cols, 2);
  EXPECT_FALSE(shape->nonZeros);

  TemporaryFile notBinary(".bin", "1,2\n3,4\n");
  EXPECT_FALSE(readBinaryShape(notBinary.path));
  EXPECT_FALSE(readBinaryShape("/nonexistent/amls/X.bin"));
}
