// The JSON reader behind JSON-LD values: scalars with their key paths,
// numbers as written, errors (never crashes) for malformed or deep input.
#include "common/rule/json_ld.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace vertex::rule {
namespace {

struct LeavesCase {
  const char* json;
  std::vector<JsonLeaf> want;
};

TEST(JsonLdTest, ListsScalarsWithTheirPaths) {
  const std::vector<LeavesCase> cases = {
      {R"({"@type": "Product", "offers": {"price": "19.99"}})", {{"@type", "Product"}, {"offers.price", "19.99"}}},
      {R"({"offers": {"price": 310.00, "n": -1.5e3}})", {{"offers.price", "310.00"}, {"offers.n", "-1.5e3"}}},
      {R"({"author": [{"name": "Ann"}, {"name": "Bo"}]})", {{"author.name", "Ann"}, {"author.name", "Bo"}}},
      {R"([{"a": 1}, {"a": 2}])", {{"a", "1"}, {"a", "2"}}},
      {R"({"@graph": [{"name": "X"}]})", {{"@graph.name", "X"}}},
      {R"({"ok": true, "no": false, "none": null})", {{"ok", "true"}, {"no", "false"}}},
      {R"({"s": "a\"b\\c\/d\n\u00e9\ud83d\ude00\ud800x"})", {{"s", "a\"b\\c/d\n\xC3\xA9\xF0\x9F\x98\x80\xEF\xBF\xBDx"}}},
      {"\xEF\xBB\xBF {\"a\": \"b\"} \n", {{"a", "b"}}},
      {R"({})", {}},
      {R"("just a string")", {{"", "just a string"}}},
  };
  for (const LeavesCase& c : cases) {
    absl::StatusOr<std::vector<JsonLeaf>> got = JsonLeaves(c.json);
    ASSERT_TRUE(got.ok()) << c.json << ": " << got.status();
    ASSERT_EQ(got->size(), c.want.size()) << c.json;
    for (size_t i = 0; i < c.want.size(); ++i) {
      EXPECT_EQ((*got)[i].path, c.want[i].path) << c.json;
      EXPECT_EQ((*got)[i].value, c.want[i].value) << c.json;
    }
  }
}

TEST(JsonLdTest, RejectsMalformedJson) {
  const std::vector<const char*> bad = {
      "", "{", "{\"a\"}", "{\"a\": }", "{\"a\": 1,}", "[1 2]", "{\"a\": \"x}", "{'a': 1}", "{\"a\": 01x}",
      "{\"a\": 1} trailing", "{\"a\": tru}", "{\"a\": \"\\x\"}", "{\"a\": \"\\u12\"}", "<!-- {} -->",
      "{\"a\": \"tab\there\"}", "{\"a\": -}", "{\"a\": 1.}", "{\"a\": 1e}",
  };
  for (const char* json : bad) {
    absl::StatusOr<std::vector<JsonLeaf>> got = JsonLeaves(json);
    EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument) << json;
    EXPECT_NE(got.status().message().find("at byte"), std::string::npos) << json;
    EXPECT_TRUE(JsonValuesAt(json, "a").empty()) << json;
  }
}

TEST(JsonLdTest, RefusesDeepNestingWithoutRecursingIntoIt) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(JsonLeaves(deep).status().code(), absl::StatusCode::kResourceExhausted);
  const std::string ok = std::string(kMaxJsonDepth, '[') + "1" + std::string(kMaxJsonDepth, ']');
  EXPECT_TRUE(JsonLeaves(ok).ok());
}

TEST(JsonLdTest, ValuesAtAPath) {
  const char* json = R"({"author": [{"name": "Ann"}, {"name": "Bo"}], "name": "Book"})";
  EXPECT_EQ(JsonValuesAt(json, "author.name"), (std::vector<std::string>{"Ann", "Bo"}));
  EXPECT_EQ(JsonValuesAt(json, "name"), (std::vector<std::string>{"Book"}));
  EXPECT_TRUE(JsonValuesAt(json, "author").empty());
}

TEST(JsonLdTest, RecognisesJsonLdScripts) {
  html::Parser parser;
  html::Page page = parser.Parse(
      "<html><head><script type=' Application/LD+JSON; charset=utf-8'>{}</script>"
      "<script type='text/javascript'>x</script><script>y</script></head><body></body></html>", "u").value();
  std::vector<bool> got;
  const html::Node root = page.root();
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    if (n.tag() == "script") got.push_back(IsJsonLdScript(n));
  }
  EXPECT_EQ(got, (std::vector<bool>{true, false, false}));
}

}  // namespace
}  // namespace vertex::rule
