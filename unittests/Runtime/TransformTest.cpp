//===- TransformTest.cpp - transformencode's spec and encoders ------------===//
//
// The spec parser on SystemDS's lenient JSON and on each mistake it names;
// the encoders against hand-derived codes (recode in order of first
// appearance, equi-width and equi-height bins as SystemDS computes them,
// Java's String.hashCode for feature hashing, imputed means and modes);
// the metadata round trip (an encoder rebuilt from its metadata encodes the
// same), decoding back to the input, and 1 vs 2 threads.
//
//===----------------------------------------------------------------------===//

#include "AMLS/Runtime/Frame/Encoder.h"
#include "AMLS/Runtime/Runtime.h"

#include "FrameTestUtils.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace amls::runtime::frame;

namespace {

struct Encoded {
  int64_t rows, cols;
  std::vector<double> cells;
  double at(int64_t r, int64_t c) const { return cells[r * cols + c]; }
};

Encoded encode(const Encoder &encoder, const Frame &frame) {
  Encoded out{encoder.countKeptRows(frame), encoder.getOutputCols(), {}};
  out.cells.assign(out.rows * out.cols, -1.0);
  EXPECT_EQ(encoder.apply(frame, out.cells.data(), out.cols), "");
  return out;
}

std::unique_ptr<Encoder> fit(const Frame &frame, const std::string &spec) {
  std::unique_ptr<Encoder> encoder;
  EXPECT_EQ(Encoder::fit(frame, spec, encoder), "");
  return encoder;
}

TEST(TransformSpec, ReadsSystemDSsLenientJson) {
  EXPECT_EQ(quoteBareWords("{ids:true, recode:[1,2], bin:[{id:4, "
                           "method:equi-width, numbins:10}]}"),
            "{\"ids\":true, \"recode\":[1,2], \"bin\":[{\"id\":4, "
            "\"method\":\"equi-width\", \"numbins\":10}]}");
  EXPECT_EQ(quoteBareWords("{recode: [inf, nan, .5, -2]}"),
            "{\"recode\": [\"inf\", \"nan\", \".5\", -2]}");
  EXPECT_EQ(quoteBareWords("{'a b': \"x\\\"y\", n: -1.5e3}"),
            "{\"a b\": \"x\\\"y\", \"n\": -1.5e3}");
  TransformSpec spec;
  ASSERT_EQ(parseTransformSpec(
                "{ ids:true,\nrecode:[1,2,3,6],\n"
                "bin:[{id:4, method:equi-width, numbins:10},"
                "{id:5, method:equi-height, numbins:3}]}",
                {"", "rank", "discipline", "phd", "service", "sex", "salary"},
                spec),
            "");
  EXPECT_EQ(spec.recode, (std::vector<int64_t>{0, 1, 2, 5}));
  ASSERT_EQ(spec.bin.size(), 2u);
  EXPECT_EQ(spec.bin[0].column, 3);
  EXPECT_EQ(spec.bin[0].bins, 10);
  EXPECT_EQ(spec.bin[1].method, BinMethod::EquiHeight);

  TransformSpec byName;
  ASSERT_EQ(parseTransformSpec("{\"recode\": [\"sex\"], \"impute\": [{"
                               "\"name\": \"salary\", \"method\": "
                               "\"constant\", \"value\": 0}]}",
                               {"sex", "salary"}, byName),
            "");
  EXPECT_EQ(byName.recode, std::vector<int64_t>{0});
  ASSERT_EQ(byName.impute.size(), 1u);
  EXPECT_EQ(byName.impute[0].column, 1);
  EXPECT_EQ(byName.impute[0].value, "0");
}

TEST(TransformSpec, NamesTheKeyOfEachMistake) {
  std::vector<std::string> names = {"a", "b"};
  auto problem = [&](const std::string &text) {
    TransformSpec spec;
    return parseTransformSpec(text, names, spec);
  };
  EXPECT_EQ(problem("{recode: [c]}"),
            "transform spec: \"recode\": no column named 'c' (the frame's "
            "columns: a, b)");
  EXPECT_EQ(problem("{ids: true, dummycode: [3]}"),
            "transform spec: \"dummycode\": column 3 is not a column of the "
            "frame (1..2)");
  EXPECT_EQ(problem("{recodes: [a]}"),
            "transform spec: unknown key \"recodes\" (expected ids, recode, "
            "dummycode, bin, hash, K, impute or omit)");
  EXPECT_EQ(problem("{bin: [{name: a, method: equi-depth, numbins: 2}]}"),
            "transform spec: \"bin\": unknown method 'equi-depth' (expected "
            "equi-width or equi-height)");
  EXPECT_EQ(problem("{bin: [{name: a, numbins: 0}]}"),
            "transform spec: \"bin\": expected a positive \"numbins\" in "
            "{\"name\":\"a\",\"numbins\":0}");
  EXPECT_EQ(problem("{impute: [{name: b, method: mean}]}"),
            "transform spec: \"impute\": unknown method 'mean' (expected "
            "global_mean, global_mode or constant)");
  EXPECT_EQ(problem("{bin: [{name: a, method: 1, numbins: 2}]}"),
            "transform spec: \"bin\": expected the method as a string, "
            "found 1");
  EXPECT_EQ(problem("{impute: [{name: a, method: [x]}]}"),
            "transform spec: \"impute\": expected the method as a string, "
            "found [\"x\"]");
  EXPECT_EQ(problem("{hash: [a]}"),
            "transform spec: \"hash\" needs the number of buckets \"K\"");
  EXPECT_EQ(problem("{recode: [a"),
            "the transform spec is not JSON: {recode: [a");
  EXPECT_EQ(problem("{bag_of_words: [a]}"),
            "transform spec: \"bag_of_words\": this encoder is not supported "
            "yet (AMLS encodes recode, dummycode, bin, hash, impute and "
            "omit)");
  Frame frame = stringFrame({"a", "b"}, {{"x", "1"}});
  std::unique_ptr<Encoder> encoder;
  EXPECT_EQ(Encoder::fit(frame, "{recode: [a], bin: [{name: a, numbins: 2}]}",
                         encoder),
            "transform spec: \"bin\": column 'a' is already recoded");
  // A passed-through column must hold numbers: fitting says which cell
  // does not, and so does applying rebuilt metadata to other data.
  Frame words = stringFrame({"a"}, {{"x"}});
  EXPECT_EQ(Encoder::fit(words, "{}", encoder),
            "column 'a', row 1: expected a number, found 'x' (recode, hash "
            "or impute the column in the spec)");
  Frame numbers = stringFrame({"a"}, {{"1"}});
  ASSERT_EQ(Encoder::fit(numbers, "{}", encoder), "");
  std::unique_ptr<Encoder> rebuilt;
  ASSERT_EQ(Encoder::fromMeta(*encoder->getMeta(), "{}", rebuilt), "");
  Encoded out{1, 1, {0}};
  EXPECT_EQ(rebuilt->apply(words, out.cells.data(), 1),
            "column 'a', row 1: expected a number, found 'x' (recode, hash "
            "or impute the column in the spec)");
}

TEST(Transform, RecodesAndDummyCodesInOrderOfFirstAppearance) {
  Frame frame =
      stringFrame({"rank", "sex", "salary"}, {{"Prof", "Male", "139750"},
                                              {"AsstProf", "Female", "79750"},
                                              {"Prof", "", "115000"},
                                              {"AssocProf", "Male", "101000"}});
  auto encoder = fit(frame, "{ids: true, recode: [1], dummycode: [2]}");
  ASSERT_EQ(encoder->getOutputCols(), 4); // rank, Male, Female, salary
  Encoded x = encode(*encoder, frame);
  std::vector<double> expected = {1, 1, 0, 139750, //
                                  2, 0, 1, 79750,  //
                                  1, 0, 0, 115000, //
                                  3, 1, 0, 101000};
  EXPECT_EQ(x.cells, expected);

  std::unique_ptr<Frame> meta = encoder->getMeta();
  ASSERT_EQ(meta->getRows(), 3);
  EXPECT_EQ(meta->column(0).getString(0), "Prof\xC2\xB7"
                                          "1");
  EXPECT_EQ(meta->column(0).getString(2), "AssocProf\xC2\xB7"
                                          "3");
  EXPECT_EQ(meta->column(1).getString(1), "Female\xC2\xB7"
                                          "2");
  EXPECT_TRUE(meta->column(1).isMissing(2));
  EXPECT_TRUE(meta->column(2).isMissing(0));
  EXPECT_EQ(meta->column(1).numDistinct, 2);

  // transformapply: the metadata encodes new data the same; a token it has
  // not seen is NaN (a row of zero dummy codes).
  std::unique_ptr<Encoder> rebuilt;
  ASSERT_EQ(Encoder::fromMeta(*meta, "{ids: true, recode: [1], dummycode: [2]}",
                              rebuilt),
            "");
  EXPECT_EQ(encode(*rebuilt, frame).cells, expected);
  Frame unseen =
      stringFrame({"rank", "sex", "salary"}, {{"Lecturer", "Other", "50000"}});
  Encoded y = encode(*rebuilt, unseen);
  EXPECT_TRUE(std::isnan(y.at(0, 0)));
  EXPECT_EQ(y.at(0, 1), 0);
  EXPECT_EQ(y.at(0, 2), 0);
  EXPECT_EQ(y.at(0, 3), 50000);

  // transformdecode gives the input back.
  std::unique_ptr<Frame> decoded;
  ASSERT_EQ(rebuilt->decode(x.cells.data(), x.rows, x.cols, decoded), "");
  ASSERT_EQ(decoded->getRows(), 4);
  for (int64_t row = 0; row < 4; ++row) {
    EXPECT_EQ(decoded->column(0).getString(row),
              frame.column(0).getString(row));
    EXPECT_EQ(decoded->column(1).isMissing(row),
              frame.column(1).isMissing(row));
    if (!frame.column(1).isMissing(row))
      EXPECT_EQ(decoded->column(1).getString(row),
                frame.column(1).getString(row));
    EXPECT_EQ(decoded->column(2).getNumber(row),
              std::stod(std::string(frame.column(2).getString(row))));
  }
}

TEST(Transform, BinsAsSystemDSComputesThem) {
  // 0..10 and 2.1: equi-width 5 bins of width 2, codes ceil((v - 0) / 10 *
  // 5) clamped to 1..5.
  std::vector<std::vector<std::string>> rows;
  for (int v = 0; v <= 10; ++v)
    rows.push_back({std::to_string(v), std::to_string(v)});
  rows.push_back({"2.1", "2.1"});
  Frame frame = stringFrame({"w", "h"}, rows);
  auto encoder = fit(frame, "{bin: [{name: w, method: equi-width, numbins: 5},"
                            "{name: h, method: equi-height, numbins: 2}]}");
  Encoded x = encode(*encoder, frame);
  std::vector<double> width = {1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 2};
  for (int64_t row = 0; row < x.rows; ++row)
    EXPECT_EQ(x.at(row, 0), width[row]) << "row " << row;
  // Sorted: 0 1 2 2.1 3 4 5 6 7 8 9 10 (12 values): the first bin ends at
  // position 6, an integer, so at the 6th value, 4.
  for (int64_t row = 0; row < x.rows; ++row) {
    double v = std::stod(rows[row][1]);
    EXPECT_EQ(x.at(row, 1), v <= 4 ? 1 : 2) << "row " << row;
  }
  std::unique_ptr<Frame> meta = encoder->getMeta();
  EXPECT_EQ(meta->column(0).getString(1), "2\xC2\xB7"
                                          "4");
  EXPECT_EQ(meta->column(1).getString(0), "0\xC2\xB7"
                                          "4");
  EXPECT_EQ(meta->column(1).getString(1), "4\xC2\xB7"
                                          "10");
  // Decoding a bin gives its centre.
  std::unique_ptr<Frame> decoded;
  ASSERT_EQ(encoder->decode(x.cells.data(), x.rows, x.cols, decoded), "");
  EXPECT_EQ(decoded->column(0).getNumber(0), 1.0);  // bin [0, 2]
  EXPECT_EQ(decoded->column(0).getNumber(10), 9.0); // bin [8, 10]
  EXPECT_EQ(decoded->column(1).getNumber(10), 7.0); // bin [4, 10]
}

TEST(Transform, ImputesHashesAndOmits) {
  Frame frame = stringFrame({"x", "c", "h", "o"}, {{"1", "a", "hello", "5"},
                                                   {"", "b", "hello", "5"},
                                                   {"4", "", "world", ""},
                                                   {"7", "b", "", "5"}});
  auto encoder = fit(frame, "{ids: true, recode: [2], hash: [3], K: 10,"
                            " impute: [{id: 1, method: global_mean},"
                            " {id: 2, method: global_mode}]}");
  Encoded x = encode(*encoder, frame);
  EXPECT_EQ(x.at(1, 0), 4.0); // (1 + 4 + 7) / 3
  EXPECT_EQ(x.at(2, 1), 2.0); // the mode "b", code 2
  // "hello".hashCode() = 99162322 -> 99162322 % 10 + 1 = 3;
  // "world".hashCode() = 113318802 -> 3.
  EXPECT_EQ(x.at(0, 2), 3.0);
  EXPECT_EQ(x.at(2, 2), 3.0);
  EXPECT_TRUE(std::isnan(x.at(3, 2)));
  // A missing pass-through cell is NaN.
  EXPECT_TRUE(std::isnan(x.at(2, 3)));
  std::unique_ptr<Frame> meta = encoder->getMeta();
  EXPECT_EQ(std::stod(meta->column(0).imputedValue), 4.0);
  EXPECT_EQ(meta->column(1).imputedValue, "b");

  // Columns c and h pass through here, and they are not numbers.
  std::unique_ptr<Encoder> constant;
  EXPECT_EQ(Encoder::fit(frame,
                         "{ids: true, recode: [4], omit: [4],"
                         " impute: [{id: 1, method: constant, value: -1}]}",
                         constant),
            "column 'c', row 1: expected a number, found 'a' (recode, hash "
            "or impute the column in the spec)");
  auto omitOnly =
      fit(stringFrame({"x", "o"}, {{"1", "k"}, {"", "k"}, {"4", ""}}),
          "{ids: true, recode: [2], omit: [2],"
          " impute: [{id: 1, method: constant, value: -1}]}");
  Frame small = stringFrame({"x", "o"}, {{"1", "k"}, {"", "k"}, {"4", ""}});
  Encoded y = encode(*omitOnly, small);
  ASSERT_EQ(y.rows, 2);
  EXPECT_EQ(y.cells, (std::vector<double>{1, 1, -1, 1}));
}

TEST(Transform, MetadataWithoutItsImputedValues) {
  // A constant comes from the spec; a mean from the metadata, which a frame
  // read back from a file has lost: an error rather than NaN.
  Frame frame = stringFrame({"x", "y"}, {{"1", "2"}, {"", ""}, {"3", "4"}});
  std::string spec = "{impute: [{name: x, method: constant, value: 7},"
                     " {name: y, method: global_mean}]}";
  auto encoder = fit(frame, spec);
  std::unique_ptr<Frame> meta = encoder->getMeta();
  std::unique_ptr<Encoder> rebuilt;
  ASSERT_EQ(Encoder::fromMeta(*meta, spec, rebuilt), "");
  Encoded x = encode(*rebuilt, frame);
  EXPECT_EQ(x.at(1, 0), 7);
  EXPECT_EQ(x.at(1, 1), 3);
  meta->column(0).imputedValue.clear();
  ASSERT_EQ(Encoder::fromMeta(*meta, spec, rebuilt), "");
  EXPECT_EQ(encode(*rebuilt, frame).at(1, 0), 7);
  meta->column(1).imputedValue.clear();
  EXPECT_EQ(Encoder::fromMeta(*meta, spec, rebuilt),
            "the metadata frame does not hold the imputed value of column "
            "'y' (pass the metadata transformencode returned, not one read "
            "back from a file)");
}

TEST(Transform, OneAndTwoThreadsEncodeTheSame) {
  std::vector<std::vector<std::string>> rows;
  for (int i = 0; i < 20000; ++i)
    rows.push_back({"t" + std::to_string(i * 7919 % 97),
                    std::to_string((i * 31) % 1000 / 10.0),
                    i % 13 ? "c" + std::to_string(i % 5) : ""});
  Frame frame = stringFrame({"a", "b", "c"}, rows);
  std::string spec = "{recode: [a], bin: [{name: b, method: equi-height, "
                     "numbins: 7}], dummycode: [c]}";
  int32_t before = amls_rt_get_num_threads();
  amls_rt_set_num_threads(1);
  Encoded one = encode(*fit(frame, spec), frame);
  amls_rt_set_num_threads(2);
  Encoded two = encode(*fit(frame, spec), frame);
  amls_rt_set_num_threads(before);
  EXPECT_EQ(one.cols, 1 + 1 + 5);
  EXPECT_EQ(one.cells, two.cells);
}

} // namespace
