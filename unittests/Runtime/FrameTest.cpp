//===- FrameTest.cpp - Frames and their CSV files -------------------------===//
//
// The reader against hand-written files: quoted separators, line breaks
// and quotes in fields, missing values (empty fields and na.strings), typed
// columns, and each malformed input with the line and column it names; the
// writer by reading back what it wrote; toString against SystemDS's text.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Frame/FrameIO.h"

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

} // namespace
