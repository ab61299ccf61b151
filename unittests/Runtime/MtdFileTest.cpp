//===- MtdFileTest.cpp - SystemDS's .mtd files and scalar files -----------===//

#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/Runtime.h"
#include "TempFiles.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace amls::runtime;
using namespace amls::iotest;

namespace {

/// A data file path in a fresh directory; it and its .mtd file are removed
/// afterwards.
struct TempPath {
  TempDir dir;
  std::string path = dir.file("x");
  void write(const std::string &file, const std::string &text) const {
    std::ofstream(file, std::ios::binary) << text;
  }
};

} // namespace

TEST(MtdFile, ParsesWhatSystemDSWrites) {
  MtdMetadata m;
  ASSERT_EQ(parseMtd("{\"data_type\": \"matrix\", \"value_type\": \"double\", "
                     "\"rows\": 3, \"cols\": 4, \"nnz\": 5, \"format\": "
                     "\"text\", \"author\": \"SystemDS\", \"created\": "
                     "\"Tue Nov 24 2026\"}",
                     m),
            "");
  EXPECT_EQ(m.dataType, "matrix");
  EXPECT_EQ(*m.rows, 3);
  EXPECT_EQ(*m.cols, 4);
  EXPECT_EQ(*m.nonZeros, 5);
  EXPECT_EQ(*m.format, AMLS_FILE_TEXT);
  ASSERT_TRUE(m.matrixMetadata());
  EXPECT_EQ(*m.matrixMetadata()->sparsity(), 5.0 / 12.0);

  ASSERT_EQ(parseMtd("{\"data_type\": \"matrix\", \"rows\": 2, \"cols\": 2, "
                     "\"format\": \"csv\", \"header\": true, \"sep\": \";\"}",
                     m),
            "");
  EXPECT_EQ(*m.format, AMLS_FILE_CSV);
  EXPECT_TRUE(*m.header);
  EXPECT_EQ(*m.separator, ";");
  // SystemDS's -1: unknown.
  ASSERT_EQ(parseMtd("{\"rows\": -1, \"cols\": 2}", m), "");
  EXPECT_FALSE(m.rows);
  EXPECT_FALSE(m.matrixMetadata());
  ASSERT_EQ(parseMtd("{\"data_type\": \"scalar\", \"value_type\": \"int\", "
                     "\"format\": \"text\"}",
                     m),
            "");
  EXPECT_EQ(m.dataType, "scalar");
  EXPECT_EQ(m.valueType, "int");
  // A frame's metadata: its schema.
  ASSERT_EQ(parseMtd("{\"data_type\": \"frame\", \"rows\": 2, \"cols\": 2, "
                     "\"format\": \"csv\", \"schema\": \"STRING,FP64\"}",
                     m),
            "");
  EXPECT_EQ(m.dataType, "frame");
  EXPECT_EQ(*m.schema, "STRING,FP64");
  // SystemDS's frame metadata lists its missing-value strings.
  ASSERT_EQ(parseMtd("{\"data_type\": \"frame\", \"format\": \"csv\", "
                     "\"header\": true, \"naStrings\": [ \"NA\", \"\" ]}",
                     m),
            "");
  EXPECT_EQ(*m.naStrings, (std::vector<std::string>{"NA", ""}));
}

TEST(MtdFile, RejectsWhatAMLSCannotRead) {
  struct Case {
    const char *text, *message;
  };
  for (const Case &c : {
           Case{"{\"rows\": 3", "malformed metadata: line 1, column 11: "
                                "expected ',' or '}'"},
           Case{"{\"rows\": \"3\"}", "expected \"rows\" to be an integer, "
                                     "found \"3\""},
           Case{"{\"cols\": 2.5}", "expected \"cols\" to be an integer, "
                                   "found 2.5"},
           Case{"{\"format\": \"binary\"}",
                "format \"binary\" is SystemDS's binary block format"},
           Case{"{\"format\": \"libsvm\"}", "unsupported format \"libsvm\""},
           Case{"{\"data_type\": \"list\"}",
                "data_type \"list\" is not supported"},
           Case{"{\"data_type\": \"tensor\"}",
                "expected data_type \"matrix\", \"frame\" or \"scalar\", "
                "found \"tensor\""},
           Case{"{\"schema\": 3}", "expected \"schema\" to be a string"},
           Case{"{\"naStrings\": [\"NA\", 1]}",
                "expected \"naStrings\" to be an array of strings"},
           Case{"{\"value_type\": \"complex\"}",
                "expected value_type \"double\", \"int\", \"boolean\" or "
                "\"string\", found \"complex\""},
           Case{"{\"header\": 1}", "expected \"header\" to be true or false"},
           Case{"{\"format\": 3}", "expected \"format\" to be a string"},
       }) {
    SCOPED_TRACE(c.text);
    MtdMetadata m;
    std::string error = parseMtd(c.text, m);
    EXPECT_NE(error.find(c.message), std::string::npos) << error;
  }
}

TEST(MtdFile, WritesAndReadsBack) {
  TempPath file;
  ASSERT_EQ(writeMatrixMtdFor(file.path, AMLS_FILE_CSV, 3, 4, 5), "");
  std::string text = contentsOf(file.path + ".mtd");
  EXPECT_NE(text.find("\"data_type\": \"matrix\""), std::string::npos);
  EXPECT_NE(text.find("\"sep\": \",\""), std::string::npos);
  std::optional<MtdMetadata> m;
  ASSERT_EQ(readMtdFor(file.path, m), "");
  ASSERT_TRUE(m);
  EXPECT_EQ(*m->rows, 3);
  EXPECT_EQ(*m->cols, 4);
  EXPECT_EQ(*m->nonZeros, 5);
  EXPECT_EQ(*m->format, AMLS_FILE_CSV);
  EXPECT_FALSE(*m->header);

  // No .mtd file: nothing, no error. A malformed one: its path and line.
  std::remove((file.path + ".mtd").c_str());
  ASSERT_EQ(readMtdFor(file.path, m), "");
  EXPECT_FALSE(m);
  file.write(file.path + ".mtd", "{\n\"rows\": 3,,\n}");
  EXPECT_EQ(readMtdFor(file.path, m),
            file.path + ".mtd: malformed metadata: line 2, column 11: "
                        "expected a key in double quotes, found ','");
}

TEST(MtdFile, CsvMetadataAddsTheNonZeros) {
  TempPath file;
  file.write(file.path, "1,0\n0,0\n");
  ASSERT_EQ(writeMatrixMtdFor(file.path, AMLS_FILE_CSV, 2, 2, 1), "");
  std::optional<MatrixFileMetadata> m =
      readMatrixFileMetadata(file.path, AMLS_FILE_CSV);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->rows, 2);
  EXPECT_EQ(*m->nonZeros, 1);
}

TEST(ScalarFile, WritesAndReadsAsSystemDS) {
  TempPath file;
  amls_rt_emit_f64(0.1, AMLS_STREAM_FILE);
  amls_rt_write_text(file.path.c_str(), AMLS_VALUE_DOUBLE);
  EXPECT_EQ(contentsOf(file.path), "0.1");
  EXPECT_NE(contentsOf(file.path + ".mtd").find("\"data_type\": \"scalar\""),
            std::string::npos);
  EXPECT_EQ(amls_rt_read_scalar(file.path.c_str(), AMLS_VALUE_DOUBLE, ""), 0.1);

  double awkward = 1.0 / 3.0;
  amls_rt_emit_f64(awkward, AMLS_STREAM_FILE);
  amls_rt_write_text(file.path.c_str(), AMLS_VALUE_DOUBLE);
  EXPECT_EQ(amls_rt_read_scalar(file.path.c_str(), AMLS_VALUE_DOUBLE, ""),
            awkward);

  amls_rt_emit_i64(-42, AMLS_STREAM_FILE);
  amls_rt_write_text(file.path.c_str(), AMLS_VALUE_INT);
  EXPECT_EQ(contentsOf(file.path), "-42");
  EXPECT_NE(contentsOf(file.path + ".mtd").find("\"value_type\": \"int\""),
            std::string::npos);
  EXPECT_EQ(amls_rt_read_scalar(file.path.c_str(), AMLS_VALUE_INT, ""), -42.0);

  amls_rt_emit_bool(1, AMLS_STREAM_FILE);
  amls_rt_write_text(file.path.c_str(), AMLS_VALUE_BOOLEAN);
  EXPECT_EQ(contentsOf(file.path), "TRUE");
  EXPECT_EQ(amls_rt_read_scalar(file.path.c_str(), AMLS_VALUE_BOOLEAN, ""),
            1.0);

  // SystemDS's spellings: "false", a trailing newline, Java's Infinity.
  std::remove((file.path + ".mtd").c_str());
  file.write(file.path, "false\n");
  EXPECT_EQ(amls_rt_read_scalar(file.path.c_str(), AMLS_VALUE_BOOLEAN, ""),
            0.0);
  file.write(file.path, "-Infinity\n");
  EXPECT_EQ(amls_rt_read_scalar(file.path.c_str(), AMLS_VALUE_DOUBLE, ""),
            -INFINITY);
}

TEST(ScalarFileDeathTest, MalformedScalarsExitWithAMessage) {
  TempPath file;
  file.write(file.path, "2.5");
  EXPECT_EXIT(
      amls_rt_read_scalar(file.path.c_str(), AMLS_VALUE_INT,
                          "'amls.x' at f:1:2"),
      testing::ExitedWithCode(1),
      "amls: 'amls.x' at f:1:2: .*/x: expected an integer, found '2.5'");
  file.write(file.path, "yes");
  EXPECT_EXIT(amls_rt_read_scalar(file.path.c_str(), AMLS_VALUE_BOOLEAN, ""),
              testing::ExitedWithCode(1),
              "expected a boolean \\(TRUE or FALSE\\), found 'yes'");
  file.write(file.path, "1 2");
  EXPECT_EXIT(amls_rt_read_scalar(file.path.c_str(), AMLS_VALUE_DOUBLE, ""),
              testing::ExitedWithCode(1), "expected a number, found '1 2'");
  ASSERT_EQ(writeMatrixMtdFor(file.path, AMLS_FILE_TEXT, 1, 1, 1), "");
  EXPECT_EXIT(amls_rt_read_scalar(file.path.c_str(), AMLS_VALUE_DOUBLE, ""),
              testing::ExitedWithCode(1),
              "its metadata file says data_type \"matrix\", but the read "
              "expects a scalar");
}
