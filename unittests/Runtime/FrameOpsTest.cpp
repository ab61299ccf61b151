//===- FrameOpsTest.cpp - Slicing, binding and schemas of frames ----------===//
//
// Against hand-built frames: slices keep names, types and cells; cbind
// checks rows, rbind columns (mixed types become strings); detectSchema's
// narrowest types; applySchema's conversions and the cell it names when
// one does not parse; as.frame of a strided matrix.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Frame/Frame.h"

#include "FrameTestUtils.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace amls::runtime::frame;

namespace {

TEST(FrameOps, SlicesKeepNamesTypesAndCells) {
  Frame frame = stringFrame({"a", "b", "c"}, {{"1", "x", ""}, {"2", "", "z"}});
  std::unique_ptr<Frame> slice = frame.slice(1, 2, 1, 3);
  ASSERT_EQ(slice->getRows(), 1);
  ASSERT_EQ(slice->getCols(), 2);
  EXPECT_EQ(slice->column(0).getName(), "b");
  EXPECT_TRUE(slice->column(0).isMissing(0));
  EXPECT_EQ(slice->column(1).getString(0), "z");
  EXPECT_EQ(frame.slice(0, 0, 0, 3)->getRows(), 0);
}

TEST(FrameOps, BindsCheckTheirSizes) {
  Frame left = stringFrame({"a"}, {{"1"}, {"2"}});
  Frame right = stringFrame({"b"}, {{"x"}, {"y"}});
  std::unique_ptr<Frame> both;
  ASSERT_EQ(cbindFrames(left, right, both), "");
  EXPECT_EQ(both->getCols(), 2);
  EXPECT_EQ(both->column(1).getString(1), "y");
  Frame shorter = stringFrame({"b"}, {{"x"}});
  EXPECT_EQ(cbindFrames(left, shorter, both),
            "cbind: the frames have 2 and 1 rows");

  std::unique_ptr<Frame> numbers =
      frameFromMatrix(std::vector<double>{1.5, NAN}.data(), 2, 1, /*stride=*/1);
  std::unique_ptr<Frame> stacked;
  ASSERT_EQ(rbindFrames(*numbers, *numbers, stacked), "");
  EXPECT_EQ(stacked->getRows(), 4);
  EXPECT_EQ(stacked->column(0).getType(), AMLS_FRAME_FP64);
  EXPECT_EQ(stacked->column(0).getNumber(2), 1.5);
  EXPECT_TRUE(stacked->column(0).isMissing(3));
  // A string column and an FP64 one stack as strings.
  ASSERT_EQ(rbindFrames(*numbers, shorter, stacked), "");
  EXPECT_EQ(stacked->column(0).getType(), AMLS_FRAME_STRING);
  EXPECT_EQ(stacked->column(0).getString(0), "1.5");
  EXPECT_EQ(stacked->column(0).getString(2), "x");
  EXPECT_EQ(stacked->column(0).getName(), "C1");
  EXPECT_EQ(rbindFrames(*both, left, stacked),
            "rbind: the frames have 2 and 1 columns");
}

TEST(FrameOps, AsFrameReadsAStridedMatrix) {
  // A 2 x 2 matrix stored with a row stride of 3.
  std::vector<double> cells = {1, 2, -9, 3, 4, -9};
  std::unique_ptr<Frame> frame = frameFromMatrix(cells.data(), 2, 2, 3);
  EXPECT_EQ(frame->column(1).getName(), "C2");
  EXPECT_EQ(frame->column(0).getNumber(1), 3);
  EXPECT_EQ(frame->column(1).getNumber(1), 4);
}

TEST(FrameOps, DetectsAndAppliesSchemas) {
  Frame frame =
      stringFrame({"i", "d", "b", "s", "m"}, {{"1", "2.5", "true", "x", ""},
                                              {"-3", "7", "FALSE", "4", ""},
                                              {"", "1e3", "", "y", ""}});
  std::unique_ptr<Frame> schema = detectSchema(frame);
  ASSERT_EQ(schema->getRows(), 1);
  std::vector<std::string> detected;
  for (int64_t col = 0; col < schema->getCols(); ++col)
    detected.emplace_back(schema->column(col).getString(0));
  EXPECT_EQ(detected, (std::vector<std::string>{"INT64", "FP64", "BOOLEAN",
                                                "STRING", "STRING"}));
  std::unique_ptr<Frame> typed;
  ASSERT_EQ(applySchema(frame, *schema, typed), "");
  EXPECT_EQ(typed->column(0).getType(), AMLS_FRAME_INT64);
  EXPECT_EQ(typed->column(0).getNumber(1), -3);
  EXPECT_TRUE(typed->column(0).isMissing(2));
  EXPECT_EQ(typed->column(1).getNumber(2), 1000);
  EXPECT_EQ(typed->column(2).getNumber(1), 0);
  EXPECT_EQ(typed->column(3).getString(1), "4");
  // The typed frame's own schema is its types.
  EXPECT_EQ(detectSchema(*typed)->column(1).getString(0), "FP64");

  Frame wrong = stringFrame({"i", "d", "b", "s", "m"},
                            {{"INT64", "FP64", "BOOLEAN", "INT64", "STRING"}});
  EXPECT_EQ(applySchema(frame, wrong, typed),
            "applySchema: column 's', row 1: 'x' is not a value of type "
            "INT64");
  Frame unknown = stringFrame({"i", "d", "b", "s", "m"},
                              {{"INT64", "FP64", "BOOLEAN", "TEXT", "STRING"}});
  EXPECT_EQ(applySchema(frame, unknown, typed),
            "applySchema: column 4: 'TEXT' is not a value type (STRING, "
            "FP64, FP32, INT64, INT32, BOOLEAN)");
  // A boolean column may hold 0 and 1 among its words; numbers that are
  // not integers do not become integers.
  Frame mixed = stringFrame({"b"}, {{"0"}, {"true"}});
  EXPECT_EQ(detectSchema(mixed)->column(0).getString(0), "BOOLEAN");
  std::unique_ptr<Frame> fractions =
      frameFromMatrix(std::vector<double>{1.5}.data(), 1, 1, /*stride=*/1);
  Frame integer = stringFrame({"C1"}, {{"INT64"}});
  EXPECT_EQ(applySchema(*fractions, integer, typed),
            "applySchema: column 'C1', row 1: '1.5' is not a value of type "
            "INT64");
  Frame narrow = stringFrame({"i"}, {{"INT64"}});
  EXPECT_EQ(applySchema(frame, narrow, typed),
            "applySchema: expected a schema frame of 1 x 5 type names, found "
            "1 x 1");
}

} // namespace
