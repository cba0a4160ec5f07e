// The feed test's judgement (common/monitor/feed_check.h) on rule outputs
// given directly: entry pages field by field, list pages in feed order,
// the threshold, and how a cluster's feed test folds into its verdict.
#include "common/monitor/feed_check.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace vertex::monitor {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kSchema[] = R"({"vertical": "blog", "attributes": [
  {"name": "title", "mandatory": true, "multi_valued": true},
  {"name": "link", "type": "url", "multi_valued": true},
  {"name": "date", "multi_valued": true},
  {"name": "author", "multi_valued": true},
  {"name": "headline", "multi_valued": true}]})";

schema::CompiledSchema Schema() {
  absl::StatusOr<schema::CompiledSchema> s = schema::CompiledSchema::FromJson(kSchema, "test schema");
  EXPECT_TRUE(s.ok()) << s.status();
  return *std::move(s);
}

// Post K's title: all of three words, none a prefix, suffix or truncation
// of another.
std::string Title(int k) {
  static const char* const kFirst[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"};
  static const char* const kSecond[] = {"garden", "harbour", "island", "jungle", "kitchen", "lagoon", "meadow"};
  return std::string("Notes on ") + kFirst[k % 8] + " " + kSecond[(k / 8) % 7];
}

// Items 0..n-1, newest first: Title(K), http://blog.test/p/K.html, dated
// 2026-10-(30-K), by "Ann" (none for K = 3).
feed::Feed Feed(int n) {
  feed::Feed f;
  f.link = "http://blog.test/";
  for (int k = 0; k < n; ++k) {
    feed::FeedItem item;
    item.title = Title(k);
    item.link = "http://blog.test/p/" + std::to_string(k) + ".html";
    absl::StatusOr<feed::FeedDate> date = feed::ParseFeedDate("2026-10-" + std::to_string(30 - k));
    EXPECT_TRUE(date.ok()) << date.status();
    item.date = *date;
    if (k != 3) item.authors.push_back("Ann");
    f.items.push_back(std::move(item));
  }
  return f;
}

std::vector<extract::AttributeResult> Entry(int k, const std::string& title) {
  return {{"title", {title}}, {"link", {"http://blog.test/p/" + std::to_string(k) + ".html"}},
          {"date", {"2026-10-" + std::to_string(30 - k)}}, {"author", {"Ann"}}};
}

std::vector<extract::AttributeResult> List(const std::vector<int>& posts) {
  extract::AttributeResult titles{"title", {}};
  for (int k : posts) titles.values.push_back(Title(k));
  return {titles};
}

FeedTest MakeTest(int items) {
  absl::StatusOr<std::map<std::string, std::string>> fields = FeedFieldsToCheck(Schema(), {});
  EXPECT_TRUE(fields.ok()) << fields.status();
  return FeedTest(Feed(items), *fields);
}

const v1::ClusterFeedCheck::Field* FieldOf(const v1::ClusterFeedCheck& c, const std::string& name) {
  for (const v1::ClusterFeedCheck::Field& f : c.fields()) {
    if (f.field() == name) return &f;
  }
  return nullptr;
}

TEST(FeedFieldsToCheck, DefaultsToTheFourFieldsTheSchemaHas) {
  absl::StatusOr<std::map<std::string, std::string>> fields = FeedFieldsToCheck(Schema(), {});
  ASSERT_TRUE(fields.ok()) << fields.status();
  EXPECT_EQ(fields->size(), 4u);
  EXPECT_EQ(fields->at("title"), "title");
  absl::StatusOr<schema::CompiledSchema> no_author =
      schema::CompiledSchema::FromJson(R"({"vertical": "b", "attributes": [{"name": "title"}]})", "s");
  ASSERT_TRUE(no_author.ok()) << no_author.status();
  fields = FeedFieldsToCheck(*no_author, {});
  ASSERT_TRUE(fields.ok());
  EXPECT_EQ(fields->size(), 1u);
}

TEST(FeedFieldsToCheck, AMappingReplacesTheDefaultsAndIsChecked) {
  absl::StatusOr<std::map<std::string, std::string>> fields = FeedFieldsToCheck(Schema(), {{"title", "headline"}});
  ASSERT_TRUE(fields.ok()) << fields.status();
  EXPECT_EQ(fields->size(), 1u);
  EXPECT_EQ(fields->at("title"), "headline");
  absl::StatusOr<std::map<std::string, std::string>> bad = FeedFieldsToCheck(Schema(), {{"subtitle", "title"}});
  EXPECT_TRUE(absl::IsInvalidArgument(bad.status()));
  EXPECT_THAT(bad.status().message(), HasSubstr("\"subtitle\" is no feed field"));
  bad = FeedFieldsToCheck(Schema(), {{"title", "name"}});
  EXPECT_TRUE(absl::IsInvalidArgument(bad.status()));
  EXPECT_THAT(bad.status().message(), HasSubstr("no such attribute"));
}

TEST(FeedTest, EntryPagesAgreeFieldByFieldAndSkipWhatTheFeedLacks) {
  FeedTest test = MakeTest(5);
  EXPECT_EQ(test.ItemOf("http://BLOG.test/p/2.html#comments"), 2);
  EXPECT_EQ(test.ItemOf("http://blog.test/p/9.html"), -1);
  for (int k = 0; k < 5; ++k) {
    const std::string url = "http://blog.test/p/" + std::to_string(k) + ".html";
    EXPECT_TRUE(test.Judge("c1", url, k, Entry(k, Title(k == 4 ? 0 : k)), false));
  }
  const v1::FeedCheck out = test.Summarise(0.2);
  EXPECT_EQ(out.entry_pages(), 5u);
  ASSERT_EQ(out.clusters_size(), 1);
  const v1::ClusterFeedCheck& c = out.clusters(0);
  EXPECT_EQ(c.pages(), 5u);
  ASSERT_NE(FieldOf(c, "title"), nullptr);
  EXPECT_EQ(FieldOf(c, "title")->agree(), 4u);
  EXPECT_THAT(FieldOf(c, "title")->evidence(),
              ElementsAre("http://blog.test/p/4.html: rule gives \"" + Title(0) + "\", the feed \"" + Title(4) + "\""));
  EXPECT_EQ(FieldOf(c, "author")->pages(), 4u) << "item 3 has no author: not judged there";
  EXPECT_EQ(FieldOf(c, "date")->agree(), 5u);
  EXPECT_EQ(FieldOf(c, "link")->agree(), 5u);
  // 1 of 5 disagree: 0.2 is not above the threshold 0.2, above 0.19.
  EXPECT_FALSE(c.failed());
  EXPECT_TRUE(test.Summarise(0.19).clusters(0).failed());
  EXPECT_THAT(test.Summarise(0.19).clusters(0).failing_fields(), ElementsAre("title"));
}

TEST(FeedTest, AnEntryPageWithNoValueDisagrees) {
  FeedTest test = MakeTest(2);
  EXPECT_TRUE(test.Judge("c1", "http://blog.test/p/0.html", 0, {}, false));
  const v1::ClusterFeedCheck c = test.Summarise(0.5).clusters(0);
  EXPECT_TRUE(c.failed());
  EXPECT_THAT(FieldOf(c, "title")->evidence(0), HasSubstr("rule gives nothing, the feed \"" + Title(0) + "\""));
}

TEST(FeedTest, TheHomePageMustStartWithTheFeedsFirstItem) {
  FeedTest test = MakeTest(10);
  EXPECT_TRUE(test.Judge("c0", "http://blog.test/", -1, List({0, 1, 2, 3}), false));
  EXPECT_TRUE(test.Judge("c0", "http://blog.test", -1, List({1, 2, 3}), false));  // the newest post lost
  const v1::ClusterFeedCheck c = test.Summarise(0.2).clusters(0);
  EXPECT_EQ(c.list_pages(), 2u);
  const v1::ClusterFeedCheck::Field* f = FieldOf(c, kListTitlesField);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->pages(), 2u);
  EXPECT_EQ(f->agree(), 1u);
  EXPECT_THAT(f->evidence(0),
              HasSubstr("title 1 of 3 is \"" + Title(1) + "\", the feed's item 1 \"" + Title(0) + "\""));
}

TEST(FeedTest, OtherListPagesShowFeedItemsFirstInFeedOrderAndOlderOnesAreNotJudged) {
  FeedTest test = MakeTest(6);
  // An older page: items 4, 5, then posts older than the feed.
  EXPECT_TRUE(test.Judge("c0", "http://blog.test/page/2/", -1, List({4, 5, 6, 7}), false));
  // A category: some of the items, in feed order, then older posts.
  EXPECT_TRUE(test.Judge("c0", "http://blog.test/cat/b/", -1, List({1, 3, 5, 41}), false));
  // Out of order.
  EXPECT_TRUE(test.Judge("c0", "http://blog.test/page/3/", -1, List({4, 2}), false));
  // A title that is no feed item first, a feed item after it.
  EXPECT_TRUE(test.Judge("c0", "http://blog.test/cat/a/", -1, List({40, 1}), false));
  // Older than the feed: nothing to compare with.
  EXPECT_FALSE(test.Judge("c0", "http://blog.test/page/9/", -1, List({50, 51}), false));
  // One title, not a list cluster: not a list page.
  EXPECT_FALSE(test.Judge("c0", "http://blog.test/about", -1, List({0}), false));
  const v1::FeedCheck out = test.Summarise(0.2);
  const v1::ClusterFeedCheck::Field* f = FieldOf(out.clusters(0), kListTitlesField);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->pages(), 4u);
  EXPECT_EQ(f->agree(), 2u);
  EXPECT_THAT(f->evidence(),
              ElementsAre("http://blog.test/page/3/: title 2 of 2 \"" + Title(2) + "\" is out of the feed's order",
                          "http://blog.test/cat/a/: title 2 of 2 \"" + Title(1) + "\" is out of the feed's order"));
}

TEST(FeedTest, APageOfAListClusterWithNoTitleFails) {
  FeedTest test = MakeTest(3);
  EXPECT_TRUE(test.Judge("c0", "http://blog.test/", -1, {}, true));
  EXPECT_TRUE(test.Judge("c0", "http://blog.test/page/2/", -1, List({1}), true));
  const v1::ClusterFeedCheck c = test.Summarise(0.2).clusters(0);
  EXPECT_EQ(FieldOf(c, kListTitlesField)->agree(), 1u);
  EXPECT_THAT(FieldOf(c, kListTitlesField)->evidence(0), HasSubstr("rule gives no title on a list page"));
  EXPECT_TRUE(c.failed());
}

TEST(IsListCluster, MostGoldenExtractionsHoldSeveralTitles) {
  v1::ClusterRecord r;
  EXPECT_FALSE(IsListCluster(r, "title"));
  for (int n : {3, 1, 10}) {
    v1::GoldenExtraction* g = r.add_golden();
    v1::AttributeValues* a = g->add_attributes();
    a->set_attribute("title");
    for (int i = 0; i < n; ++i) a->add_values("t" + std::to_string(i));
  }
  EXPECT_TRUE(IsListCluster(r, "title"));
  EXPECT_FALSE(IsListCluster(r, "headline"));
}

v1::ClusterFeedCheck Failed(bool failed) {
  v1::ClusterFeedCheck c;
  c.set_cluster_id("c1");
  c.set_pages(4);
  v1::ClusterFeedCheck::Field* f = c.add_fields();
  f->set_field("title");
  f->set_pages(4);
  f->set_agree(failed ? 1 : 4);
  if (failed) {
    f->add_evidence("u: rule gives \"a\", the feed \"b\"");
    c.add_failing_fields("title");
  }
  c.set_failed(failed);
  return c;
}

TEST(ApplyFeedCheck, AFailedFeedTestIsBrokenUnlessChanged) {
  for (auto [was, want] : std::vector<std::pair<v1::ClusterVerdict::Verdict, v1::ClusterVerdict::Verdict>>{
           {v1::ClusterVerdict::OK, v1::ClusterVerdict::BROKEN},
           {v1::ClusterVerdict::NO_PAGES, v1::ClusterVerdict::BROKEN},
           {v1::ClusterVerdict::UNREACHABLE, v1::ClusterVerdict::BROKEN},
           {v1::ClusterVerdict::BROKEN, v1::ClusterVerdict::BROKEN},
           {v1::ClusterVerdict::CHANGED, v1::ClusterVerdict::CHANGED}}) {
    v1::ClusterVerdict v;
    v.set_verdict(was);
    v.set_reason("before");
    ApplyFeedCheck(Failed(true), 0.2, &v);
    EXPECT_EQ(v.verdict(), want) << v1::ClusterVerdict::Verdict_Name(was);
    EXPECT_THAT(v.reason(), HasSubstr("feed test failed on 4 pages (agree: title 1 of 4; failing: title"));
    EXPECT_THAT(v.evidence(), ElementsAre("feed title: u: rule gives \"a\", the feed \"b\""));
  }
}

TEST(ApplyFeedCheck, APassedFeedTestKeepsTheVerdictButMakesNoPagesOk) {
  v1::ClusterVerdict v;
  v.set_verdict(v1::ClusterVerdict::CHANGED);
  v.set_reason("shingle test failed");
  ApplyFeedCheck(Failed(false), 0.2, &v);
  EXPECT_EQ(v.verdict(), v1::ClusterVerdict::CHANGED);
  EXPECT_EQ(v.reason(), "shingle test failed; feed test passed on 4 pages (agree: title 4 of 4; threshold 0.2)");
  v.set_verdict(v1::ClusterVerdict::NO_PAGES);
  v.set_reason("no fresh page of the cluster");
  ApplyFeedCheck(Failed(false), 0.2, &v);
  EXPECT_EQ(v.verdict(), v1::ClusterVerdict::OK);
  EXPECT_EQ(v.reason(), "feed test passed on 4 pages (agree: title 4 of 4; threshold 0.2)");
  EXPECT_EQ(v.evidence_size(), 0);
}

}  // namespace
}  // namespace vertex::monitor
