#include "common/workflow/annotations.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace vertex::workflow {
namespace {

TEST(ParseAnnotations, MergesValuesAndSkipsComments) {
  const std::string text =
      "\xEF\xBB\xBF# editor: ann\n"
      "{\"file\": \"0001.htm\", \"attribute\": \"title\", \"value\": \"Dune\"}\r\n"
      "\n"
      "{\"file\": \"0001.htm\", \"attribute\": \"author\", \"value\": \"A\"}\n"
      "  {\"file\": \"0001.htm\", \"attribute\": \"author\", \"values\": [\"B\", \"C\"]}  \n"
      "{\"url\": \"http://x/2\", \"attribute\": \"price\", \"xpath\": \"//span\"}\n"
      "{\"file\": \"0002.htm\", \"attribute\": \"isbn_13\", \"absent\": true}";
  absl::StatusOr<std::vector<SourcedAnnotation>> a = ParseAnnotations(text, "ann.jsonl");
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->size(), 4u);
  EXPECT_EQ((*a)[0].line, 2);
  EXPECT_THAT((*a)[0].annotation.values(), testing::ElementsAre("Dune"));
  EXPECT_TRUE((*a)[0].annotation.value().empty());
  EXPECT_THAT((*a)[1].annotation.values(), testing::ElementsAre("A", "B", "C"));
  EXPECT_EQ((*a)[2].annotation.url(), "http://x/2");
  EXPECT_EQ((*a)[2].annotation.xpath(), "//span");
  EXPECT_TRUE((*a)[3].annotation.absent());
}

// A click in the editor's page: the value and the XPath of the node the
// editor chose (the value is looked for there only).
TEST(ParseAnnotations, AcceptsValuesWithTheirNodesXPath) {
  const std::string text =
      "{\"url\": \"http://x/1\", \"attribute\": \"title\", \"value\": \"Dune\", \"xpath\": \"/html[1]/body[1]/h1[1]\"}\n"
      "{\"url\": \"http://x/1\", \"attribute\": \"tag\", \"value\": \"a\", \"xpath\": \"//ul[1]\"}\n"
      "{\"url\": \"http://x/1\", \"attribute\": \"tag\", \"value\": \"b\", \"xpath\": \"//ul[1]\"}\n";
  absl::StatusOr<std::vector<SourcedAnnotation>> a = ParseAnnotations(text, "ann.jsonl");
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->size(), 2u);
  EXPECT_THAT((*a)[0].annotation.values(), testing::ElementsAre("Dune"));
  EXPECT_EQ((*a)[0].annotation.xpath(), "/html[1]/body[1]/h1[1]");
  EXPECT_THAT((*a)[1].annotation.values(), testing::ElementsAre("a", "b"));
  EXPECT_EQ((*a)[1].annotation.xpath(), "//ul[1]");
}

TEST(ParseAnnotations, RejectsNamingFileAndLine) {
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"{\"file\": \"a\", \"attribute\": \"t\", \"value\": \"x\"", "ann.jsonl:1: bad annotation"},
      {"{\"file\": \"a\", \"attribute\": \"t\", \"colour\": \"x\"}", "ann.jsonl:1: bad annotation"},
      {"[1, 2]", "ann.jsonl:1: bad annotation"},
      {"\n{\"attribute\": \"t\", \"value\": \"x\"}", "ann.jsonl:2: no \"file\""},
      {"{\"file\": \"a\", \"value\": \"x\"}", "ann.jsonl:1: no \"attribute\""},
      {"{\"file\": \"a\", \"attribute\": \"t\"}", "give \"value\""},
      {"{\"file\": \"a\", \"attribute\": \"t\", \"value\": \"x\", \"absent\": true}", "give \"value\""},
      {"{\"file\": \"a\", \"attribute\": \"t\", \"xpath\": \"//a\", \"absent\": true}", "give \"value\""},
      {"{\"file\": \"a\", \"attribute\": \"t\", \"value\": \"x\", \"xpath\": \"//a\"}\n"
       "{\"file\": \"a\", \"attribute\": \"t\", \"value\": \"y\", \"xpath\": \"//b\"}",
       "ann.jsonl:2: attribute \"t\" of this page is annotated on line 1 with another \"xpath\""},
      {"{\"file\": \"a\", \"attribute\": \"t\", \"values\": [\"x\", \"\"]}", "an empty value"},
      {"{\"file\": \"a\", \"attribute\": \"t\", \"value\": \"x\"}\n{\"file\": \"a\", \"attribute\": \"t\", \"absent\": true}",
       "ann.jsonl:2: attribute \"t\" of this page is annotated on line 1"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<std::vector<SourcedAnnotation>> a = ParseAnnotations(c.text, "ann.jsonl");
    ASSERT_FALSE(a.ok()) << c.text;
    EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument) << c.text;
    EXPECT_THAT(std::string(a.status().message()), testing::HasSubstr(c.message)) << c.text;
  }
}

}  // namespace
TEST(ParseAnnotations, PartialListOverSeveralLines) {
  const std::string text =
      "{\"file\": \"1.htm\", \"attribute\": \"feature\", \"value\": \"A\", \"partial\": true}\n"
      "{\"file\": \"1.htm\", \"attribute\": \"feature\", \"values\": [\"B\", \"C\"], \"partial\": true}\n"
      "{\"file\": \"2.htm\", \"attribute\": \"feature\", \"values\": [\"D\"]}\n";
  absl::StatusOr<std::vector<SourcedAnnotation>> a = ParseAnnotations(text, "ann.jsonl");
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->size(), 2u);
  EXPECT_TRUE((*a)[0].annotation.partial());
  EXPECT_THAT((*a)[0].annotation.values(), testing::ElementsAre("A", "B", "C"));
  EXPECT_FALSE((*a)[1].annotation.partial());
}

TEST(ParseAnnotations, RejectsPartialWithoutValuesOrMixedOverLines) {
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"{\"file\": \"a\", \"attribute\": \"f\", \"xpath\": \"//li\", \"partial\": true}",
       "ann.jsonl:1: \"partial\" (the first values of a list) needs"},
      {"{\"file\": \"a\", \"attribute\": \"f\", \"absent\": true, \"partial\": true}",
       "ann.jsonl:1: \"partial\" (the first values of a list) needs"},
      {"{\"file\": \"a\", \"attribute\": \"f\", \"value\": \"x\", \"record\": 1, \"partial\": true}",
       "ann.jsonl:1: \"partial\" is not supported on record-level"},
      {"{\"file\": \"a\", \"attribute\": \"f\", \"value\": \"x\", \"partial\": true}\n"
       "{\"file\": \"a\", \"attribute\": \"f\", \"value\": \"y\"}",
       "ann.jsonl:2: attribute \"f\" of this page is annotated on line 1 with \"partial\""},
      {"{\"file\": \"a\", \"attribute\": \"f\", \"value\": \"x\"}\n"
       "{\"file\": \"a\", \"attribute\": \"f\", \"value\": \"y\", \"partial\": true}",
       "ann.jsonl:2: attribute \"f\" of this page is annotated on line 1 without \"partial\""},
  };
  for (const Case& c : cases) {
    absl::StatusOr<std::vector<SourcedAnnotation>> a = ParseAnnotations(c.text, "ann.jsonl");
    ASSERT_FALSE(a.ok()) << c.text;
    EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(a.status().message()), testing::HasSubstr(c.message)) << c.text;
  }
}

}  // namespace vertex::workflow
