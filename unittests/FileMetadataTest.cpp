//===- FileMetadataTest.cpp - Sizes from Matrix Market headers ------------===//

#include "AMLS/Analysis/FileMetadata.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>
#include <sstream>

using namespace mlir::amls;

namespace {
std::optional<MatrixFileMetadata> parse(const std::string &text) {
  std::istringstream in(text);
  return parseMatrixMarketHeader(in);
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
  EXPECT_FALSE(readMatrixMarketHeader("/nonexistent/amls/X.mtx"));
}

namespace {
/// Writes `text` to a temporary file and returns readCsvShape's answer.
std::optional<mlir::amls::MatrixFileMetadata> csvShape(const std::string &text) {
  // ctest runs test cases in parallel processes: one file per process.
  std::string path = testing::TempDir() + "amls-csv-shape-" +
                     std::to_string(::getpid()) + ".csv";
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  auto shape = mlir::amls::readCsvShape(path);
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

TEST(FileMetadataTest, CsvShapeLeavesHeadersToTheReader) {
  EXPECT_FALSE(csvShape("a,b\n1,2\n"));
  EXPECT_FALSE(mlir::amls::readCsvShape("/nonexistent/amls/X.csv"));
}
