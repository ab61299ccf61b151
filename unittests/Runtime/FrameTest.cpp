//===- FrameTest.cpp - Frames and their CSV files -------------------------===//
//
// The reader against hand-written files: quoted separators, line breaks
// and quotes in fields, missing values (empty fields and na.strings), typed
// columns, and each malformed input with the line and column it names; the
// writer by reading back what it wrote; toString against SystemDS's text.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/FileMetadata.h"
#include "AMLS/Runtime/Frame/FrameIO.h"
#include "AMLS/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace amls::runtime::frame;

namespace {

class TempDir {
public:
  TempDir() {
    char dir[] = "/tmp/amls-frame-XXXXXX";
    directory = mkdtemp(dir);
  }
  ~TempDir() {
    for (const std::string &path : files)
      std::remove(path.c_str());
    rmdir(directory.c_str());
  }
  std::string file(const std::string &name, const std::string &contents) {
    std::string path = directory + "/" + name;
    std::ofstream(path, std::ios::binary) << contents;
    files.push_back(path);
    return path;
  }
  std::string path(const std::string &name) {
    files.push_back(directory + "/" + name);
    return files.back();
  }

private:
  std::string directory;
  std::vector<std::string> files;
};

std::string read(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FrameCsv, ReadsQuotesLineBreaksAndMissingValues) {
  TempDir dir;
  std::string path = dir.file("f.csv", "name,\"city, state\",age\r\n"
                                       "\"Smith, J\",NY,34\r\n"
                                       "Doe,\"multi\nline\",NA\n"
                                       ",\"say \"\"hi\"\"\",7\n"
                                       "\n");
  CsvOptions options;
  options.header = true;
  options.naStrings = {"NA"};
  std::unique_ptr<Frame> frame;
  ASSERT_EQ(readCsv(path, options, frame), "");
  ASSERT_EQ(frame->getRows(), 3);
  ASSERT_EQ(frame->getCols(), 3);
  EXPECT_EQ(frame->column(0).getName(), "name");
  EXPECT_EQ(frame->column(1).getName(), "city, state");
  EXPECT_EQ(frame->column(0).getString(0), "Smith, J");
  EXPECT_EQ(frame->column(1).getString(0), "NY");
  EXPECT_EQ(frame->column(1).getString(1), "multi\nline");
  EXPECT_TRUE(frame->column(2).isMissing(1));
  EXPECT_TRUE(frame->column(0).isMissing(2));
  EXPECT_EQ(frame->column(1).getString(2), "say \"hi\"");
  EXPECT_EQ(frame->column(2).getString(2), "7");
  EXPECT_EQ(frame->column(2).getType(), AMLS_FRAME_STRING);
}

TEST(FrameCsv, ParsesTheSchemasTypes) {
  TempDir dir;
  std::string path = dir.file("t.csv", "a,1,2.5,true\nb,-3,,FALSE\n");
  CsvOptions options;
  options.schema = {AMLS_FRAME_STRING, AMLS_FRAME_INT64, AMLS_FRAME_FP64,
                    AMLS_FRAME_BOOLEAN};
  std::unique_ptr<Frame> frame;
  ASSERT_EQ(readCsv(path, options, frame), "");
  EXPECT_EQ(frame->column(0).getName(), "C1");
  EXPECT_EQ(frame->column(1).getNumber(1), -3);
  EXPECT_EQ(frame->column(2).getNumber(0), 2.5);
  EXPECT_TRUE(frame->column(2).isMissing(1));
  EXPECT_EQ(frame->column(3).getNumber(0), 1);
  EXPECT_EQ(frame->column(3).getNumber(1), 0);
  EXPECT_EQ(frame->column(1).format(1), "-3");
  EXPECT_EQ(frame->column(2).format(0), "2.5");
  EXPECT_EQ(frame->column(3).format(1), "false");
}

TEST(FrameCsv, NamesTheLineAndColumnOfEachProblem) {
  TempDir dir;
  CsvOptions options;
  options.header = true;
  std::unique_ptr<Frame> frame;

  std::string ragged = dir.file("r.csv", "a,b\n1,2\n3,4,5\n");
  EXPECT_EQ(readCsv(ragged, options, frame),
            ragged +
                ":3:5: expected 2 field(s) as the first line has, found 3");

  std::string open = dir.file("q.csv", "a,b\n1,\"never\nclosed\n");
  EXPECT_EQ(readCsv(open, options, frame),
            open + ":2:3: a quoted field is not closed before the end of the "
                   "file");

  std::string after = dir.file("x.csv", "a,b\n\"x\"y,2\n");
  EXPECT_EQ(readCsv(after, options, frame),
            after + ":2:4: expected the separator or the end of the line "
                    "after a quoted field, found 'y'");

  options.schema = {AMLS_FRAME_STRING, AMLS_FRAME_INT64};
  std::string typed = dir.file("n.csv", "a,n\nx,1\ny,1.5\n");
  EXPECT_EQ(readCsv(typed, options, frame),
            typed + ":3:3: expected a value of type INT64 in column 'n', "
                    "found '1.5'");

  EXPECT_EQ(readCsv(dir.path("absent.csv"), options, frame),
            dir.path("absent.csv") + ": cannot open the file to read a frame");
  EXPECT_EQ(frame, nullptr);
}

TEST(FrameCsv, ASeparatorOfSeveralCharacters) {
  TempDir dir;
  std::string path = dir.file("s.csv", "1::x\n2::y::z\n");
  CsvOptions options;
  options.sep = "::";
  std::unique_ptr<Frame> frame;
  EXPECT_EQ(readCsv(path, options, frame),
            path +
                ":2:7: expected 2 field(s) as the first record has, found 3");
  path = dir.file("t.csv", "1::x\n2::y\n");
  ASSERT_EQ(readCsv(path, options, frame), "");
  EXPECT_EQ(frame->column(1).getString(1), "y");
}

TEST(FrameCsv, WritesWhatItReadsBack) {
  TempDir dir;
  std::string path = dir.file("in.csv", "k,v,n\n\"a,b\",\"q\"\"\",1\n,x,\n");
  CsvOptions options;
  options.header = true;
  options.schema = {AMLS_FRAME_STRING, AMLS_FRAME_STRING, AMLS_FRAME_FP64};
  std::unique_ptr<Frame> frame;
  ASSERT_EQ(readCsv(path, options, frame), "");
  std::string out = dir.path("out.csv");
  dir.path("out.csv.mtd");
  ASSERT_EQ(writeCsv(*frame, out, /*header=*/true, ","), "");
  EXPECT_EQ(read(out), "k,v,n\n\"a,b\",\"q\"\"\",1.0\n,x,\n");
  EXPECT_NE(read(out + ".mtd").find("\"schema\": \"STRING,STRING,FP64\""),
            std::string::npos);
  std::unique_ptr<Frame> back;
  ASSERT_EQ(readCsv(out, options, back), "");
  ASSERT_EQ(back->getRows(), 2);
  EXPECT_EQ(back->column(0).getString(0), "a,b");
  EXPECT_EQ(back->column(1).getString(0), "q\"");
  EXPECT_TRUE(back->column(0).isMissing(1));
  EXPECT_TRUE(back->column(2).isMissing(1));
  EXPECT_EQ(back->column(2).getNumber(0), 1.0);
}

TEST(FrameCsv, ToStringAsSystemDSPrintsAFrame) {
  TempDir dir;
  std::string path = dir.file("p.csv", "a,b,c\nx,1.5,true\n,2,false\n");
  CsvOptions options;
  options.header = true;
  options.schema = {AMLS_FRAME_STRING, AMLS_FRAME_FP64, AMLS_FRAME_BOOLEAN};
  std::unique_ptr<Frame> frame;
  ASSERT_EQ(readCsv(path, options, frame), "");
  EXPECT_EQ(frame->toString(100, 100), "# FRAME: nrow = 2, ncol = 3\n"
                                       "# a b c\n"
                                       "# STRING FP64 BOOLEAN\n"
                                       "x 1.500 true\n"
                                       "null 2.000 false\n");
  EXPECT_EQ(frame->toString(1, 2), "# FRAME: nrow = 2, ncol = 3\n"
                                   "# a b\n"
                                   "# STRING FP64\n"
                                   "x 1.500\n");
}

TEST(FrameCsv, WritesRowsOfMissingValuesThatReadBack) {
  // A one-column frame writes a missing cell as an empty line, and a row of
  // missing cells under a tab separator is a line of tabs: both are rows.
  TempDir dir;
  std::string one = dir.file("one.csv", "x\n\nz\n\n");
  CsvOptions options;
  options.header = true;
  std::unique_ptr<Frame> frame;
  ASSERT_EQ(readCsv(one, options, frame), "");
  ASSERT_EQ(frame->getRows(), 2);
  EXPECT_TRUE(frame->column(0).isMissing(0));
  EXPECT_EQ(frame->column(0).getString(1), "z");
  std::string out = dir.path("one-out.csv");
  dir.path("one-out.csv.mtd");
  ASSERT_EQ(writeCsv(*frame, out, /*header=*/true, ","), "");
  std::unique_ptr<Frame> back;
  ASSERT_EQ(readCsv(out, options, back), "");
  EXPECT_EQ(back->getRows(), 2);
  EXPECT_TRUE(back->column(0).isMissing(0));

  std::string tabs = dir.file("tabs.csv", "a\tb \tc\n\t\t\n1\t2\t3\n");
  options.sep = "\t";
  ASSERT_EQ(readCsv(tabs, options, frame), "");
  ASSERT_EQ(frame->getRows(), 2);
  EXPECT_EQ(frame->column(1).getName(), "b ");
  EXPECT_TRUE(frame->column(2).isMissing(0));
  // The .mtd escapes the tab, so that it reads back.
  std::string written = dir.path("tabs-out.csv");
  dir.path("tabs-out.csv.mtd");
  ASSERT_EQ(writeCsv(*frame, written, /*header=*/true, "\t"), "");
  std::optional<amls::runtime::MtdMetadata> mtd;
  ASSERT_EQ(amls::runtime::readMtdFor(written, mtd), "");
  EXPECT_EQ(*mtd->separator, "\t");
  EXPECT_EQ(mtd->dataType, "frame");
}

TEST(FrameCsv, SkipsAByteOrderMarkAndQuotesNames) {
  TempDir dir;
  std::string path = dir.file("bom.csv", "\xEF\xBB\xBF\"a\"\"b\",c\n1,2\n");
  CsvOptions options;
  options.header = true;
  std::unique_ptr<Frame> frame;
  ASSERT_EQ(readCsv(path, options, frame), "");
  EXPECT_EQ(frame->column(0).getName(), "a\"b");
  std::string out = dir.path("names.csv");
  dir.path("names.csv.mtd");
  ASSERT_EQ(writeCsv(*frame, out, /*header=*/true, ","), "");
  EXPECT_EQ(read(out), "\"a\"\"b\",c\n1,2\n");
}

TEST(FrameCsv, FormatsNumbersAsJavaAndChecksIntegerRanges) {
  Frame frame;
  Column &column = frame.addColumn("x", AMLS_FRAME_FP64);
  for (double value : {100000.0, 1e7, 2.5e-4, 0.001, -1.5, 1e21, 123456.789})
    column.appendNumber(value);
  std::vector<std::string> texts;
  for (int64_t row = 0; row < column.size(); ++row)
    texts.push_back(column.format(row));
  EXPECT_EQ(texts,
            (std::vector<std::string>{"100000.0", "1.0E7", "2.5E-4", "0.001",
                                      "-1.5", "1.0E21", "123456.789"}));
  double value;
  EXPECT_TRUE(parseCell("-42", AMLS_FRAME_INT64, value));
  EXPECT_FALSE(parseCell("1e19", AMLS_FRAME_INT64, value));
  EXPECT_FALSE(parseCell("inf", AMLS_FRAME_INT64, value));
  EXPECT_FALSE(parseCell("3000000000", AMLS_FRAME_INT32, value));
  EXPECT_FALSE(parseCell("2", AMLS_FRAME_BOOLEAN, value));
}

/// A CSV of `records` records (a header, then two lines each: a quoted
/// field holds a line break, separators and doubled quotes), `extra`
/// inserted before record `at`.
std::string largeCsv(int64_t records, int64_t at = -1,
                     const std::string &extra = "") {
  std::string text = "id,note,word,x\n";
  for (int64_t i = 0; i < records; ++i) {
    if (i == at)
      text += extra;
    text += std::to_string(i) + ",\"a, \"\"q\"\" " + std::to_string(i % 97) +
            "\nnext\",w" + std::to_string(i % 13) + "," +
            (i % 5 ? std::to_string(i * 0.5) : "") + "\n";
  }
  return text;
}

std::unique_ptr<Frame> readWithThreads(const std::string &path, int32_t threads,
                                       std::string &problem) {
  CsvOptions options;
  options.header = true;
  options.schema = {AMLS_FRAME_INT64, AMLS_FRAME_STRING, AMLS_FRAME_STRING,
                    AMLS_FRAME_FP64};
  int32_t before = amls_rt_get_num_threads();
  amls_rt_set_num_threads(threads);
  std::unique_ptr<Frame> frame;
  problem = readCsv(path, options, frame);
  amls_rt_set_num_threads(before);
  return frame;
}

void expectSameFrames(const Frame &a, const Frame &b) {
  ASSERT_EQ(a.getRows(), b.getRows());
  ASSERT_EQ(a.getCols(), b.getCols());
  for (int64_t col = 0; col < a.getCols(); ++col)
    for (int64_t row = 0; row < a.getRows(); ++row) {
      ASSERT_EQ(a.column(col).isMissing(row), b.column(col).isMissing(row))
          << "row " << row << ", column " << col;
      ASSERT_EQ(a.column(col).format(row), b.column(col).format(row))
          << "row " << row << ", column " << col;
    }
}

TEST(FrameCsv, TwoThreadsReadWhatOneReads) {
  // About 9 MB: the reader cuts it into two ranges at a record boundary
  // found from the quotes before the cut.
  TempDir dir;
  int64_t records = 200000;
  std::string path = dir.file("big.csv", largeCsv(records));
  std::string problem;
  std::unique_ptr<Frame> one = readWithThreads(path, 1, problem);
  ASSERT_EQ(problem, "");
  std::unique_ptr<Frame> two = readWithThreads(path, 2, problem);
  ASSERT_EQ(problem, "");
  ASSERT_EQ(one->getRows(), records);
  EXPECT_EQ(one->column(1).getString(records - 1),
            "a, \"q\" " + std::to_string((records - 1) % 97) + "\nnext");
  EXPECT_TRUE(one->column(3).isMissing(records - 5));
  expectSameFrames(*one, *two);

  // A quote inside an unquoted field (kept as text) fools the quote count
  // before the cut: the ranges do not meet and the file is read again in
  // one pass, with the same result.
  std::string stray =
      dir.file("stray.csv", largeCsv(records, 10, "10,ab\"c,w,1\n"));
  one = readWithThreads(stray, 1, problem);
  ASSERT_EQ(problem, "");
  two = readWithThreads(stray, 2, problem);
  ASSERT_EQ(problem, "");
  EXPECT_EQ(one->column(1).getString(10), "ab\"c");
  expectSameFrames(*one, *two);

  // A problem in the second range names its line in the file: record i
  // starts on line 2 + 2i.
  int64_t at = records - 100;
  std::string ragged = dir.file("ragged.csv", largeCsv(records, at, "1,2\n"));
  readWithThreads(ragged, 2, problem);
  EXPECT_EQ(problem, ragged + ":" + std::to_string(2 + 2 * at) +
                         ":3: expected 4 field(s) as the first line has, "
                         "found 2");
}

} // namespace
