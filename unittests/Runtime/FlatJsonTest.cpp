//===- FlatJsonTest.cpp - The strict parser of .mtd files' JSON -----------===//

#include "AMLS/Runtime/FlatJson.h"

#include <gtest/gtest.h>

using namespace amls::runtime;

TEST(FlatJson, ParsesScalarMembersInOrder) {
  std::vector<json::Member> members;
  ASSERT_EQ(
      json::parseFlatObject(
          "{\n  \"data_type\": \"matrix\", \"rows\": 3,\n"
          "  \"cols\":4, \"nnz\": -1, \"x\": 2.5e-3, \"header\": true,"
          " \"h2\": false, \"n\": null, \"s\": \"a\\\"b\\\\c\\n\\u0041\"}\n",
          members),
      "");
  ASSERT_EQ(members.size(), 9u);
  EXPECT_EQ(members[0].key, "data_type");
  EXPECT_EQ(members[0].value.kind, json::Value::Kind::String);
  EXPECT_EQ(members[0].value.text, "matrix");
  EXPECT_EQ(members[1].value.kind, json::Value::Kind::Number);
  EXPECT_EQ(members[1].value.number, 3.0);
  EXPECT_EQ(members[1].value.text, "3");
  EXPECT_EQ(members[3].value.number, -1.0);
  EXPECT_EQ(members[4].value.number, 2.5e-3);
  EXPECT_TRUE(members[5].value.boolean);
  EXPECT_EQ(members[6].value.kind, json::Value::Kind::Boolean);
  EXPECT_FALSE(members[6].value.boolean);
  EXPECT_EQ(members[7].value.kind, json::Value::Kind::Null);
  EXPECT_EQ(members[8].value.text, "a\"b\\c\nA");
  EXPECT_EQ(json::find(members, "cols")->number, 4.0);
  EXPECT_EQ(json::find(members, "missing"), nullptr);
}

TEST(FlatJson, EmptyObject) {
  std::vector<json::Member> members;
  EXPECT_EQ(json::parseFlatObject("  {}  ", members), "");
  EXPECT_TRUE(members.empty());
}

TEST(FlatJson, MalformedTextIsAnErrorWithItsPosition) {
  struct Case {
    const char *text, *message;
  };
  for (const Case &c : {
           Case{"", "line 1, column 1: expected '{' to start the object, "
                    "found the end of the text"},
           Case{"[1]", "line 1, column 1: expected '{' to start the object, "
                       "found '['"},
           Case{"{\"rows\" 3}", "line 1, column 9: expected ':' after the key "
                                "\"rows\", found '3'"},
           Case{"{\n\"rows\": 3,\n}", "line 3, column 1: expected a key after "
                                      "',' (no trailing comma), found '}'"},
           Case{"{\"a\": 1, \"a\": 2}", "the key \"a\" appears twice"},
           Case{"{\"a\": {\"b\": 1}}", "no nested objects"},
           Case{"{\"a\": [1, [2]]}", "no nested arrays or objects"},
           Case{"{\"a\": [1 2]}", "line 1, column 10: expected ',' or ']' in "
                                  "the array, found '2'"},
           Case{"{\"a\": [1,]}", "expected a string, number, true, false or "
                                 "null, found ']'"},
           Case{"{\"a\": 01}", "expected ',' or '}' after the value"},
           Case{"{\"a\": 1.}", "expected digits after the decimal point"},
           Case{"{\"a\": tru}", "expected a string, number, true, false or "
                                "null"},
           Case{"{\"a\": truex}", "expected ',' or '}' after the value"},
           Case{"{\"a\": \"x}", "expected '\"' to end the string"},
           Case{"{\"a\": \"\\q\"}", "expected an escape"},
           Case{"{\"a\": \"\\u12\"}", "four hexadecimal digits"},
           Case{"{\"a\": 1} x", "expected the end of the text after the "
                                "object, found 'x'"},
           Case{"{a: 1}", "line 1, column 2: expected a key in double quotes"},
           Case{"{\"a\": 1 \"b\": 2}", "expected ',' or '}' after the value "
                                       "of \"a\""},
       }) {
    SCOPED_TRACE(c.text);
    std::vector<json::Member> members;
    std::string error = json::parseFlatObject(c.text, members);
    EXPECT_NE(error.find(c.message), std::string::npos) << error;
    EXPECT_TRUE(members.empty());
  }
}

TEST(FlatJson, QuoteRoundTrips) {
  std::string text = "a \"quoted\" \\path\\\n\tx\x01";
  std::vector<json::Member> members;
  ASSERT_EQ(
      json::parseFlatObject("{\"k\": " + json::quote(text) + "}", members), "");
  EXPECT_EQ(members[0].value.text, text);
}
