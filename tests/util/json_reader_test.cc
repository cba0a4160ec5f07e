#include "common/util/json_reader.h"

#include <string>

#include "absl/status/status.h"
#include "common/util/json_writer.h"
#include "gtest/gtest.h"

namespace vertex::util {
namespace {

TEST(JsonReaderTest, ReadsEveryKindInDocumentOrder) {
  absl::StatusOr<Json> j = ParseJson(
      "\xEF\xBB\xBF { \"s\": \"a\\\"b\\\\c\\/\\n\", \"n\": -1.5e+3, \"z\": 0, \"t\": true,"
      " \"f\": false, \"x\": null, \"a\": [1, [], {}], \"o\": {\"k\": \"v\"} }",
      "doc");
  ASSERT_TRUE(j.ok()) << j.status();
  ASSERT_TRUE(j->is_object());
  ASSERT_EQ(j->member_names.size(), 8u);
  EXPECT_EQ(j->member_names[0], "s");
  EXPECT_EQ(j->member_names[7], "o");
  EXPECT_EQ(j->Find("s")->scalar, "a\"b\\c/\n");
  EXPECT_EQ(j->Find("n")->kind, Json::Kind::kNumber);
  EXPECT_EQ(j->Find("n")->scalar, "-1.5e+3");
  EXPECT_EQ(j->Find("z")->scalar, "0");
  EXPECT_TRUE(j->Find("t")->boolean());
  EXPECT_TRUE(j->Find("f")->is_bool());
  EXPECT_FALSE(j->Find("f")->boolean());
  EXPECT_TRUE(j->Find("x")->is_null());
  ASSERT_EQ(j->Find("a")->items.size(), 3u);
  EXPECT_TRUE(j->Find("a")->items[1].is_array());
  EXPECT_TRUE(j->Find("a")->items[2].is_object());
  EXPECT_EQ(j->Find("o")->Find("k")->scalar, "v");
  EXPECT_EQ(j->Find("missing"), nullptr);
  EXPECT_EQ(j->Find("s")->Find("s"), nullptr);  // not an object
}

TEST(JsonReaderTest, UnicodeEscapesIncludingSurrogatePairs) {
  absl::StatusOr<Json> j = ParseJson(R"("\u00e9\u20AC\uD83D\uDE00\u0041")", "doc");
  ASSERT_TRUE(j.ok()) << j.status();
  EXPECT_EQ(j->scalar, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80" "A");
  // Raw UTF-8 passes through unchanged.
  j = ParseJson("\"\xF0\x9F\x98\x80 caf\xC3\xA9\"", "doc");
  ASSERT_TRUE(j.ok()) << j.status();
  EXPECT_EQ(j->scalar, "\xF0\x9F\x98\x80 caf\xC3\xA9");
}

TEST(JsonReaderTest, RoundTripsWhatJsonWriterWrites) {
  JsonWriter w;
  const std::string odd = std::string("tab\t nul") + '\0' + " \x01 quote\" \xE2\x82\xAC \xF0\x9F\x98\x80";
  w.BeginObject().Key("k\"ey").String(odd).Key("list").BeginArray().Int(-3).Double(0.25);
  w.Bool(true).Null().EndArray().EndObject();
  absl::StatusOr<Json> j = ParseJson(w.str(), "writer");
  ASSERT_TRUE(j.ok()) << j.status() << " " << w.str();
  EXPECT_EQ(j->Find("k\"ey")->scalar, odd);
  ASSERT_EQ(j->Find("list")->items.size(), 4u);
  EXPECT_EQ(j->Find("list")->items[0].scalar, "-3");
}

TEST(JsonReaderTest, RejectsBadJsonNamingWhereAndPosition) {
  const struct {
    std::string json;
    std::string message;
  } kCases[] = {
      {"", "offset 0: unexpected end of JSON"},
      {"   ", "unexpected end of JSON"},
      {"{\"a\":1", "offset 6: expected ',' or '}'"},
      {"{\"a\" 1}", "expected ':'"},
      {"{a:1}", "offset 1: expected a member name"},
      {"{\"a\":1,}", "expected a member name"},
      {"[1,2", "expected ',' or ']'"},
      {"[1,]", "offset 3: expected a JSON value"},
      {"{} x", "offset 3: trailing text"},
      {"tru", "expected a JSON value"},
      {"01", "trailing text"},
      {"-", "expected a digit in a number"},
      {"1.", "expected a digit after '.'"},
      {"1e+", "exponent"},
      {"+1", "expected a JSON value"},
      {"\"abc", "offset 0: unterminated string"},
      {"\"a\\q\"", "offset 2: bad escape \\q"},
      {"\"a\tb\"", "control character"},
      {"\"\\u12G4\"", "bad hex digit"},
      {"\"\\u12xy\"", "offset 5: bad hex digit"},
      {"\"\\u1", "truncated"},
      {"\"\\uD83D\"", "unpaired high surrogate"},
      {"\"\\uD83Dx\"", "unpaired high surrogate"},
      {"\"\\uDE00\\uD83D\"", "unpaired low surrogate"},
      {"\"\\uD83D\\u0041\"", "not followed by a low surrogate"},
      {"\"\xC3\"", "invalid UTF-8"},
      {"\"\xED\xA0\x80\"", "invalid UTF-8"},  // an encoded surrogate
      {"{\"a\":1,\"a\":2}", "offset 7: member \"a\" given twice"},
      {"{\n  \"a\": 1\n  \"b\": 2\n}", "line 3, column 3 (offset 13): expected ',' or '}'"},
  };
  for (const auto& c : kCases) {
    absl::StatusOr<Json> j = ParseJson(c.json, "in.json");
    ASSERT_FALSE(j.ok()) << c.json;
    EXPECT_EQ(j.status().code(), absl::StatusCode::kInvalidArgument) << c.json;
    EXPECT_NE(j.status().message().find(c.message), std::string::npos)
        << c.json << " -> " << j.status();
    EXPECT_EQ(j.status().message().substr(0, 9), "in.json: ") << j.status();
  }
}

TEST(JsonReaderTest, DeepNestingIsRefusedWithoutRecursingPastTheLimit) {
  const auto nested = [](int depth) {
    return std::string(depth, '[') + std::string(depth, ']');
  };
  EXPECT_TRUE(ParseJson(nested(kDefaultMaxJsonDepth), "doc").ok());
  absl::StatusOr<Json> deep = ParseJson(nested(kDefaultMaxJsonDepth + 1), "doc");
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(deep.status().message().find("nested deeper than 32"), std::string::npos)
      << deep.status();
  // Far past the limit, objects as well as arrays: an error, not a stack overflow.
  std::string objects;
  for (int i = 0; i < 200000; ++i) objects += "{\"a\":";
  EXPECT_EQ(ParseJson(objects, "doc").status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(ParseJson(nested(200000), "doc").status().code(),
            absl::StatusCode::kResourceExhausted);
  // The limit is the caller's.
  EXPECT_TRUE(ParseJson(nested(3), "doc", 3).ok());
  EXPECT_FALSE(ParseJson(nested(4), "doc", 3).ok());
}

TEST(JsonReaderTest, KindNames) {
  EXPECT_STREQ(JsonKindName(Json::Kind::kNull), "null");
  EXPECT_STREQ(JsonKindName(Json::Kind::kBool), "boolean");
  EXPECT_STREQ(JsonKindName(Json::Kind::kNumber), "number");
  EXPECT_STREQ(JsonKindName(Json::Kind::kString), "string");
  EXPECT_STREQ(JsonKindName(Json::Kind::kArray), "array");
  EXPECT_STREQ(JsonKindName(Json::Kind::kObject), "object");
}

}  // namespace
}  // namespace vertex::util
