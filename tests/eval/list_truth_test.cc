#include "common/eval/list_truth.h"

#include <filesystem>
#include <string>
#include <unistd.h>

#include "absl/status/status.h"
#include "common/util/file.h"
#include "gtest/gtest.h"

namespace vertex::eval {
namespace {

// A truth page of two areas: a featured area of 2 records (f1, f2) and a
// main list of 4 (m1..m4), each record with a price and a location.
ListTruthPage Truth() {
  ListTruthPage page;
  page.file = "0000.htm";
  page.url = "http://h.test/search?page=1";
  const auto record = [](const std::string& id, const std::string& price) {
    TruthRecord r;
    r.link = "http://h.test/property/" + id;
    r.attributes["price"] = {price, "Guide price " + price};
    r.attributes["location"] = {"Ashford", "Mill Lane, Ashford"};
    return r;
  };
  page.areas.resize(2);
  page.areas[0].records = {record("f1", "£1"), record("f2", "£2")};
  page.areas[1].records = {record("m1", "£3"), record("m2", "£4"), record("m3", "£5"),
                           record("m4", "£6")};
  return page;
}

// A prediction that copies the truth record's link and values.
PredictedRecord Copy(const TruthRecord& t) {
  PredictedRecord p;
  p.links = {t.link, "http://h.test/agent/7"};
  for (const auto& [name, v] : t.attributes) p.attributes[name] = {v.value, v.text};
  return p;
}

PredictedPage Perfect(const ListTruthPage& truth) {
  PredictedPage p;
  for (const TruthArea& area : truth.areas) {
    p.areas.emplace_back();
    for (const TruthRecord& r : area.records) p.areas.back().records.push_back(Copy(r));
  }
  return p;
}

TEST(ListTruthJsonTest, RoundTripsAndKeepsUnicode) {
  ListTruthPage page = Truth();
  page.areas[1].records[0].attributes["dealer"] = {"Smith \"&\" Sons\t", "a\\b"};
  const std::string json = ListTruthToJson(page);
  EXPECT_EQ(json.find('\n'), std::string::npos);
  EXPECT_NE(json.find("\"value\":\"£3\""), std::string::npos) << json;
  absl::StatusOr<ListTruthPage> back = ListTruthFromJson(json);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(ListTruthToJson(*back), json);
  EXPECT_EQ(back->areas[1].records[0].attributes["dealer"].value, "Smith \"&\" Sons\t");
}

TEST(ListTruthJsonTest, ReadsOtherKeyOrdersAndEscapes) {
  absl::StatusOr<ListTruthPage> page = ListTruthFromJson(
      R"( {"areas":[{"records":[{"attributes":{"price":{"text":"\u00a3 5","value":"\u00a35"}},)"
      R"("link":"http://x/1","extra":[1,2,{"a":null}]}]}],"url":"u","file":"f.htm"} )");
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->file, "f.htm");
  ASSERT_EQ(page->areas.size(), 1u);
  EXPECT_EQ(page->areas[0].records[0].attributes.at("price").value, "£5");
  EXPECT_EQ(page->areas[0].records[0].link, "http://x/1");
}

TEST(ListTruthJsonTest, RejectsBadInputNamingIt) {
  const struct {
    std::string json;
    std::string message;
  } kCases[] = {
      {"", "unexpected end"},
      {"{\"file\":\"a\"", "expected ',' or '}'"},
      {"{\"file\":\"a\"} x", "trailing text"},
      {"{\"url\":\"u\"}", "no \"file\""},
      {"{\"file\":3}", "\"file\" is not a string"},
      {"{\"file\":\"a\",\"areas\":{}}", "\"areas\" is not an array"},
      {"{\"file\":\"a\",\"areas\":[{\"records\":[{\"attributes\":{\"p\":1}}]}]}",
       "attribute \"p\" is not an object"},
      {"{\"file\":\"a\\q\"}", "bad escape"},
      {"[1,2", "expected ',' or ']'"},
  };
  for (const auto& c : kCases) {
    absl::StatusOr<ListTruthPage> page = ListTruthFromJson(c.json, "t.jsonl:3");
    ASSERT_FALSE(page.ok()) << c.json;
    EXPECT_EQ(page.status().code(), absl::StatusCode::kInvalidArgument) << c.json;
    EXPECT_NE(page.status().message().find(c.message), std::string::npos)
        << c.json << " -> " << page.status();
    EXPECT_NE(page.status().message().find("t.jsonl:3"), std::string::npos) << page.status();
  }
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  EXPECT_EQ(ListTruthFromJson(deep).status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(ListTruthJsonTest, FilesRoundTripAndDuplicatesAreRejected) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("list_truth_" + std::to_string(getpid()) + ".jsonl"))
                               .string();
  ListTruthPage second = Truth();
  second.file = "0001.htm";
  ASSERT_TRUE(WriteListTruth({Truth(), second}, path).ok());
  absl::StatusOr<std::vector<ListTruthPage>> pages = ReadListTruth(path);
  ASSERT_TRUE(pages.ok()) << pages.status();
  ASSERT_EQ(pages->size(), 2u);
  EXPECT_EQ((*pages)[1].file, "0001.htm");
  std::filesystem::remove(path);
  const std::string line = ListTruthToJson(Truth());
  absl::StatusOr<std::vector<ListTruthPage>> dup =
      ParseListTruth(line + "\n\n" + line + "\n", "t.jsonl");
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.status().message().find("t.jsonl:3"), std::string::npos) << dup.status();
  EXPECT_EQ(ReadListTruth(path + ".missing").status().code(), absl::StatusCode::kNotFound);
}

TEST(ListScoreTest, PerfectPredictionScoresOne) {
  const ListTruthPage truth = Truth();
  const ListScores s = ScoreListPage(Perfect(truth), truth);
  EXPECT_EQ(s.areas.correct, 2u);
  EXPECT_EQ(s.records.correct, 6u);
  EXPECT_EQ(s.attributes.correct, 12u);
  EXPECT_EQ(s.perfect_records, 6u);
  EXPECT_DOUBLE_EQ(s.attributes.precision(), 1.0);
  EXPECT_DOUBLE_EQ(s.attributes.recall(), 1.0);
  EXPECT_EQ(s.by_attribute.at("price").correct, 6u);
}

TEST(ListScoreTest, RecordsMatchByExactlyOneTruthLinkOnce) {
  const ListTruthPage truth = Truth();
  PredictedPage p = Perfect(truth);
  // A record holding two truth links matches neither.
  p.areas[1].records[0].links.push_back(truth.areas[1].records[1].link);
  // The same link twice in one record is one link.
  p.areas[1].records[2].links.push_back(truth.areas[1].records[2].link);
  // A second prediction of m4 is not a second match.
  p.areas[1].records.push_back(Copy(truth.areas[1].records[3]));
  // A record with no truth link.
  p.areas[1].records.push_back(PredictedRecord{{"http://h.test/ad"}, {}});
  const ListScores s = ScoreListPage(p, truth);
  EXPECT_EQ(s.records.predicted, 8u);
  EXPECT_EQ(s.records.truth, 6u);
  EXPECT_EQ(s.records.correct, 5u);  // all but m1
  EXPECT_EQ(s.attributes.truth, 10u);
  EXPECT_EQ(s.attributes_all_records.truth, 12u);
  EXPECT_EQ(s.attributes.correct, 10u);
  EXPECT_DOUBLE_EQ(s.attributes.recall(), 1.0);
  EXPECT_DOUBLE_EQ(s.attributes_all_records.recall(), 10.0 / 12);
}

TEST(ListScoreTest, AreaNeedsOneTruthAreaAndHalfOfIt) {
  const ListTruthPage truth = Truth();
  {  // The main list split in two halves: the first half is correct, the
     // second claims an area already found.
    PredictedPage p;
    p.areas.resize(2);
    for (int i = 0; i < 4; ++i) p.areas[i / 2].records.push_back(Copy(truth.areas[1].records[i]));
    const ListScores s = ScoreListPage(p, truth);
    EXPECT_EQ(s.areas.predicted, 2u);
    EXPECT_EQ(s.areas.correct, 1u);
    EXPECT_EQ(s.records.correct, 4u);
  }
  {  // One record of four is less than half.
    PredictedPage p;
    p.areas.resize(1);
    p.areas[0].records.push_back(Copy(truth.areas[1].records[0]));
    EXPECT_EQ(ScoreListPage(p, truth).areas.correct, 0u);
  }
  {  // Featured and main merged into one area: records of two truth areas.
    const PredictedPage perfect = Perfect(truth);
    PredictedPage p;
    p.areas.resize(1);
    for (const PredictedArea& a : perfect.areas) {
      for (const PredictedRecord& r : a.records) p.areas[0].records.push_back(r);
    }
    const ListScores s = ScoreListPage(p, truth);
    EXPECT_EQ(s.areas.correct, 0u);
    EXPECT_EQ(s.records.correct, 6u);
  }
  {  // An area with no matched record is wrong.
    PredictedPage p = Perfect(truth);
    p.areas.push_back(PredictedArea{{PredictedRecord{{"http://elsewhere/"}, {}}}});
    const ListScores s = ScoreListPage(p, truth);
    EXPECT_EQ(s.areas.predicted, 3u);
    EXPECT_EQ(s.areas.correct, 2u);
  }
}

TEST(ListScoreTest, AttributeByValueOrTextWhitespaceNormalised) {
  const ListTruthPage truth = Truth();
  PredictedPage p = Perfect(truth);
  auto& f1 = p.areas[0].records[0].attributes;
  f1["price"] = {" £1\n", ""};                          // value, spaces differ: right
  f1["location"] = {"Mill Lane", "Mill  Lane,\tAshford"};  // text equal: right
  auto& f2 = p.areas[0].records[1].attributes;
  f2["price"] = {"£9", ""};           // wrong value, no text: wrong
  f2["location"] = {"", ""};          // empty text never matches: wrong
  f2["bedrooms"] = {"3", "3 beds"};   // not in the truth: wrong
  auto& m1 = p.areas[1].records[0].attributes;
  m1.erase("location");               // missed
  const ListScores s = ScoreListPage(p, truth);
  EXPECT_EQ(s.attributes.predicted, 12u);
  EXPECT_EQ(s.attributes.truth, 12u);
  EXPECT_EQ(s.attributes.correct, 9u);
  EXPECT_EQ(s.by_attribute.at("price").correct, 5u);
  EXPECT_EQ(s.by_attribute.at("location").predicted, 5u);
  EXPECT_EQ(s.by_attribute.at("location").correct, 4u);
  EXPECT_EQ(s.by_attribute.at("bedrooms").predicted, 1u);
  EXPECT_EQ(s.by_attribute.at("bedrooms").truth, 0u);
  // Perfect: f1 and m2..m4; not f2 (wrong and extra) nor m1 (missing).
  EXPECT_EQ(s.perfect_records, 4u);
}

TEST(ListScoreTest, PagesSumAndReportPrintsEveryLine) {
  const ListTruthPage truth = Truth();
  ListScores total;
  total += ScoreListPage(Perfect(truth), truth);
  total += ScoreListPage(PredictedPage{}, truth);
  EXPECT_EQ(total.pages, 2u);
  EXPECT_EQ(total.records.truth, 12u);
  EXPECT_EQ(total.records.correct, 6u);
  EXPECT_DOUBLE_EQ(total.records.precision(), 1.0);
  EXPECT_DOUBLE_EQ(total.records.recall(), 0.5);
  EXPECT_EQ(total.by_attribute.at("price").truth, 6u);  // missed page: matched none
  const std::string report = FormatListScores(total);
  for (const char* line : {"2 page(s)", "data areas", "records", "attributes (all records)",
                           "perfect records: 6 of 12", "  price", "  location"}) {
    EXPECT_NE(report.find(line), std::string::npos) << line << "\n" << report;
  }
}

}  // namespace
}  // namespace vertex::eval
