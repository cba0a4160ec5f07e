// Monitor's feed test (monitor_engine.h, feed_check.h) through the engine:
// a small blog learnt through the API (an entry template and a list
// template whose sidebar repeats the latest titles), then monitored with
// its feed. The repair path (feed_repair) runs against a LearningApi that
// records its calls and relearns with a real LearningEngine.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/fetch/fetcher.h"
#include "common/monitor/monitor_engine.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::monitor {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAreArray;

constexpr char kSite[] = "blog";
constexpr char kHost[] = "http://blog.test";
constexpr int kPosts = 36;
constexpr int kPerPage = 6;
constexpr int kFeedItems = 8;
constexpr int kSidebar = 5;

constexpr char kSchema[] = R"({"vertical": "blog", "attributes": [
  {"name": "title", "mandatory": true, "multi_valued": true},
  {"name": "link", "type": "url", "multi_valued": true},
  {"name": "date", "multi_valued": true},
  {"name": "author", "multi_valued": true}]})";

// Post k (0 = newest): three-word titles none of which is a prefix or a
// truncation of another, dated one day apart, two authors.
std::string Title(int k) {
  static const char* const kFirst[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"};
  static const char* const kSecond[] = {"garden", "harbour", "island", "jungle", "kitchen", "lagoon", "meadow"};
  return std::string("Notes on ") + kFirst[k % 8] + " " + kSecond[(k / 8) % 7];
}
std::string Link(int k) { return absl::StrCat(kHost, "/2026/post-", k, ".html"); }
std::string Date(int k) { return absl::StrFormat("2026-%02d-%02d", 11 - k / 28, 28 - k % 28); }
std::string Author(int k) { return k % 2 == 0 ? "Ann Author" : "Bob Writer"; }
std::string ListUrl(int page) { return page == 0 ? std::string(kHost) + "/" : absl::StrCat(kHost, "/page/", page + 1, "/"); }

std::string Chrome(const std::string& title, const std::string& main) {
  std::string sidebar = "<ul class=\"recent\">";
  for (int k = 0; k < kSidebar; ++k) absl::StrAppend(&sidebar, "<li><a href=\"", Link(k), "\">", Title(k), "</a></li>");
  sidebar += "</ul>";
  return absl::StrCat("<html><head><title>", title, "</title></head><body><div id=\"header\"><a href=\"/\">A blog</a>",
                      "<ul class=\"nav\"><li><a href=\"/about\">About</a></li><li><a href=\"/feed/\">Feed</a></li></ul>",
                      "</div><div id=\"main\">", main, "</div><div id=\"sidebar\"><h3>Recent posts</h3>", sidebar,
                      "<h3>Blogroll</h3><ul class=\"roll\"><li><a href=\"http://x.test/\">X</a></li></ul></div>",
                      "<div id=\"footer\"><p>Powered by nothing</p></div></body></html>");
}

std::string Post(int k, const char* heading) {
  return absl::StrCat("<div class=\"post\"><", heading, " class=\"entry-title\"><a href=\"", Link(k), "\">", Title(k),
                      "</a></", heading, "><div class=\"meta\"><span class=\"date\">", Date(k),
                      "</span> by <span class=\"author\">", Author(k), "</span></div><div class=\"entry-content\"><p>",
                      "Body of post ", k, " with some words.</p><p>And a second paragraph.</p></div></div>");
}

struct BlogPage {
  std::string url;
  std::string html;
  std::vector<int> posts;
};

std::vector<BlogPage> Blog() {
  std::vector<BlogPage> pages;
  for (int page = 0; page * kPerPage < kPosts; ++page) {
    BlogPage p{ListUrl(page), "", {}};
    std::string main;
    for (int k = page * kPerPage; k < std::min(kPosts, (page + 1) * kPerPage); ++k) {
      main += Post(k, "h2");
      p.posts.push_back(k);
    }
    main += "<table class=\"calendar\"><caption>Archives</caption>";
    for (int week = 0; week < 5; ++week) {
      main += "<tr>";
      for (int day = 0; day < 7; ++day) absl::StrAppend(&main, "<td><span>", week * 7 + day + 1, "</span></td>");
      main += "</tr>";
    }
    main += "</table><ol class=\"pager\">";
    for (int n = 1; n <= 6; ++n) absl::StrAppend(&main, "<li><a href=\"", ListUrl(n - 1), "\">", n, "</a></li>");
    p.html = Chrome("A blog", main + "</ol>");
    pages.push_back(std::move(p));
  }
  for (int k = 0; k < kPosts; ++k) {
    std::string comments =
        "<div class=\"comments\"><h4>Leave a comment</h4><form action=\"/comment\" method=\"post\"><p><label>Name"
        "</label><input name=\"n\"/></p><p><label>Mail</label><input name=\"m\"/></p><p><label>Site</label><input "
        "name=\"s\"/></p><p><textarea name=\"c\"></textarea></p><p><button>Send</button></p></form></div>"
        "<div class=\"nav-links\"><span class=\"prev\"><a href=\"/prev\">Previous</a></span><span class=\"next\">"
        "<a href=\"/next\">Next</a></span></div>";
    pages.push_back({Link(k), Chrome(Title(k), Post(k, "h1") + comments), {k}});
  }
  return pages;
}

std::string FeedXml(int items) {
  std::string xml =
      R"(<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>)"
      "<title>A blog</title><link>http://blog.test/</link><description>d</description>";
  for (int k = 0; k < items; ++k) {
    absl::StrAppend(&xml, "<item><title>", Title(k), "</title><link>", Link(k), "</link><dc:creator>", Author(k),
                    "</dc:creator><dc:date>", Date(k), "</dc:date><description>Body of post ", k,
                    "</description></item>");
  }
  return xml + "</channel></rss>";
}

// A fetcher serving fixed pages; other URLs are NotFound.
class MapFetcher final : public fetch::Fetcher {
 public:
  explicit MapFetcher(std::map<std::string, std::string> pages) : pages_(std::move(pages)) {}
  absl::StatusOr<fetch::FetchResult> Fetch(const std::string& url) override {
    fetched.push_back(url);
    auto it = pages_.find(url);
    if (it == pages_.end()) return absl::NotFoundError(url + ": HTTP 404");
    fetch::FetchResult r;
    r.url = r.final_url = url;
    r.http_status = 200;
    r.body = it->second;
    return r;
  }
  std::vector<std::string> fetched;

 private:
  std::map<std::string, std::string> pages_;
};

// Records feed_repair's calls: Relearn goes to a real engine (the store's),
// AnnotateFromFeed answers `annotate` (a CANDIDATE per call by default).
class RecordingLearning final : public workflow::LearningApi {
 public:
  explicit RecordingLearning(workflow::LearningApi* real) : real_(real) {}
  absl::StatusOr<v1::RelearnResponse> Relearn(const v1::RelearnRequest& request) override {
    relearns.push_back(request);
    if (!relearn_error.ok()) return relearn_error;
    return real_->Relearn(request);
  }
  absl::StatusOr<v1::AnnotateFromFeedResponse> AnnotateFromFeed(const v1::AnnotateFromFeedRequest& request) override {
    annotations.push_back(request);
    if (!annotate_error.ok()) return annotate_error;
    v1::AnnotateFromFeedResponse response;
    v1::FeedClusterLearn* c = response.add_clusters();
    c->set_cluster_id("after-" + std::to_string(annotations.size()));
    c->set_outcome(v1::FeedClusterLearn::CANDIDATE);
    c->set_version(7);
    return response;
  }
  std::vector<v1::RelearnRequest> relearns;
  std::vector<v1::AnnotateFromFeedRequest> annotations;
  absl::Status relearn_error;
  absl::Status annotate_error;

#define VERTEX_UNUSED_CALL(Name)                                                  \
  absl::StatusOr<v1::Name##Response> Name(const v1::Name##Request&) override {   \
    return absl::UnimplementedError(#Name " is not used by the monitor");        \
  }
  VERTEX_UNUSED_CALL(RegisterSite)
  VERTEX_UNUSED_CALL(AddSamplePages)
  VERTEX_UNUSED_CALL(GetAnnotationTasks)
  VERTEX_UNUSED_CALL(Learn)
  VERTEX_UNUSED_CALL(GetRule)
  VERTEX_UNUSED_CALL(ListRules)
  VERTEX_UNUSED_CALL(ExportRule)
  VERTEX_UNUSED_CALL(RollbackRule)
  VERTEX_UNUSED_CALL(DeleteSite)
  VERTEX_UNUSED_CALL(ResolveCandidate)
  VERTEX_UNUSED_CALL(RecordMonitorRun)
  VERTEX_UNUSED_CALL(LocatePages)
  VERTEX_UNUSED_CALL(LearnGazetteer)
  VERTEX_UNUSED_CALL(TrainListModel)
  VERTEX_UNUSED_CALL(GetListModel)
  VERTEX_UNUSED_CALL(SuggestLists)
  VERTEX_UNUSED_CALL(ListSites)
  VERTEX_UNUSED_CALL(GetEditorPage)
#undef VERTEX_UNUSED_CALL

 private:
  workflow::LearningApi* real_;
};

class FeedMonitorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = store::NewInMemoryStore();
    learning_ = std::make_unique<workflow::LearningEngine>(store_.get(), workflow::LearningEngineOptions());
    workflow::ExtractionEngine extraction(store_.get(), workflow::ExtractionEngineOptions());
    absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(kSchema, "blog schema");
    ASSERT_TRUE(schema.ok()) << schema.status();
    std::vector<workflow::ClientPage> client;
    eval::GroundTruth truth;
    const std::vector<BlogPage> pages = Blog();
    for (size_t i = 0; i < pages.size(); ++i) {
      const std::string id = "p" + std::to_string(i);
      client.push_back({id + ".htm", pages[i].url, pages[i].html});
      for (int k : pages[i].posts) {
        truth.pages[id]["title"].push_back(Title(k));
        truth.pages[id]["link"].push_back(Link(k));
        truth.pages[id]["date"].push_back(Date(k));
        truth.pages[id]["author"].push_back(Author(k));
      }
    }
    // Each template learnt from its own pages (rule transfer would merge the
    // list cluster into the entry cluster: the entry rule gives one title
    // there, which passes a mandatory-attribute test).
    workflow::ApiRunOptions run;
    run.settings.emplace();
    run.settings->set_no_rule_transfer(true);
    absl::StatusOr<workflow::ApiRunReport> report =
        workflow::RunSiteThroughApi(*learning_, extraction, kSite, *schema, client, truth, run);
    ASSERT_TRUE(report.ok()) << report.status();
    std::string clusters;
    for (const v1::ClusterSummary& c : report->sample.clusters()) clusters += c.ShortDebugString() + "\n";
    for (const v1::LearnResponse& l : report->learnt) {
      for (const v1::AttributeDiagnostic& d : l.diagnostics()) clusters += d.ShortDebugString() + "\n";
    }
    ASSERT_EQ(report->clusters_with_rule, 2u) << "the test needs a list and an entry cluster with rules:\n"
                                              << clusters;
  }

  MonitorEngineOptions Options() {
    MonitorEngineOptions options;
    options.learning = recording_;
    options.record = [this](const v1::MonitorRun& run) {
      runs_.push_back(run);
      return absl::OkStatus();
    };
    return options;
  }

  // The request with the home page, the first archive page and the entry
  // pages of posts [0, entries).
  v1::MonitorRequest Request(int entries) {
    v1::MonitorRequest request;
    request.set_site(kSite);
    request.set_feed_xml(FeedXml(kFeedItems));
    for (const BlogPage& p : Blog()) {
      const bool list = p.posts.size() > 1;
      if ((list && (p.url == ListUrl(0) || p.url == ListUrl(1))) || (!list && p.posts[0] < entries)) {
        v1::Page* page = request.add_pages();
        page->set_url(p.url);
        page->set_html(p.html);
      }
    }
    return request;
  }

  // The cluster whose rule gives a single title (the entry template).
  std::string EntryCluster() {
    absl::StatusOr<std::vector<v1::ClusterRecord>> records = store_->ClustersOfSite(kSite);
    EXPECT_TRUE(records.ok());
    for (const v1::ClusterRecord& r : *records) {
      for (const std::string& u : r.bellwether_urls()) {
        if (u.find("/post-") != std::string::npos && r.current_version() > 0) return r.cluster_id();
      }
    }
    return "";
  }

  // The entry cluster's title rule now selects the sidebar's first recent
  // post: the template is unchanged, the values wrong.
  void BreakTitleRule() {
    const std::string id = EntryCluster();
    ASSERT_FALSE(id.empty());
    absl::StatusOr<v1::Rule> rule = store_->GetRule(kSite, id, store::kCurrentVersion);
    ASSERT_TRUE(rule.ok()) << rule.status();
    store::RuleCommit commit;
    commit.rule = *rule;
    for (v1::AttributeRule& a : *commit.rule.mutable_attributes()) {
      if (a.attribute() != "title") continue;
      a.Clear();
      a.set_attribute("title");
      a.set_method(v1::AttributeRule::XPATH);
      a.set_xpath("//ul[@class='recent']/li[1]/a");
      a.set_multi_valued(true);
    }
    absl::StatusOr<std::vector<v1::ClusterRecord>> records = store_->ClustersOfSite(kSite);
    ASSERT_TRUE(records.ok());
    for (const v1::ClusterRecord& r : *records) {
      if (r.cluster_id() == id) commit.golden.assign(r.golden().begin(), r.golden().end());
    }
    ASSERT_TRUE(store_->CommitRule(commit).ok());
  }

  static const v1::ClusterFeedCheck* Check(const v1::MonitorResponse& r, const std::string& id) {
    for (const v1::ClusterFeedCheck& c : r.feed().clusters()) {
      if (c.cluster_id() == id) return &c;
    }
    return nullptr;
  }

  std::unique_ptr<store::RuleStore> store_;
  std::unique_ptr<workflow::LearningEngine> learning_;
  std::shared_ptr<RecordingLearning> recording_ = std::make_shared<RecordingLearning>(nullptr);
  std::vector<v1::MonitorRun> runs_;
};

TEST_F(FeedMonitorTest, AnUnchangedBlogPassesTheFeedTest) {
  MonitorEngine engine(store_.get(), Options());
  absl::StatusOr<v1::MonitorResponse> r = engine.Monitor(Request(kFeedItems));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->verdict(), v1::ClusterVerdict::OK);
  EXPECT_EQ(r->feed().feed_format(), "rss2.0");
  EXPECT_EQ(r->feed().items(), static_cast<uint32_t>(kFeedItems));
  EXPECT_EQ(r->feed().entry_pages(), static_cast<uint32_t>(kFeedItems));
  EXPECT_EQ(r->feed().list_pages(), 2u) << "the home page and page 2 (items 7 and 8, then older posts)";
  EXPECT_EQ(r->feed().unreachable_size(), 0);
  ASSERT_EQ(r->feed().clusters_size(), 2);
  for (const v1::ClusterFeedCheck& c : r->feed().clusters()) {
    EXPECT_FALSE(c.failed()) << c.ShortDebugString();
    for (const v1::ClusterFeedCheck::Field& f : c.fields()) {
      EXPECT_EQ(f.agree(), f.pages()) << c.cluster_id() << " " << f.ShortDebugString();
    }
  }
  for (const v1::ClusterVerdict& v : r->clusters()) EXPECT_THAT(v.reason(), HasSubstr("feed test passed"));
  ASSERT_EQ(runs_.size(), 1u);
  EXPECT_THAT(runs_[0].clusters(0).reason(), HasSubstr("feed test passed"));
  EXPECT_TRUE(recording_->relearns.empty());
}

TEST_F(FeedMonitorTest, ATitleRuleOnTheSidebarPassesTheShingleTestAndFailsTheFeedTest) {
  BreakTitleRule();
  MonitorEngine engine(store_.get(), Options());
  v1::MonitorRequest request = Request(kFeedItems);
  request.clear_feed_xml();
  absl::StatusOr<v1::MonitorResponse> without_feed = engine.Monitor(request);
  ASSERT_TRUE(without_feed.ok()) << without_feed.status();
  EXPECT_EQ(without_feed->verdict(), v1::ClusterVerdict::OK) << "golden values cannot catch it";
  EXPECT_FALSE(without_feed->has_feed());

  absl::StatusOr<v1::MonitorResponse> r = engine.Monitor(Request(kFeedItems));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->verdict(), v1::ClusterVerdict::BROKEN);
  const v1::ClusterFeedCheck* entry = Check(*r, EntryCluster());
  ASSERT_NE(entry, nullptr);
  EXPECT_TRUE(entry->failed());
  EXPECT_THAT(entry->failing_fields(), ElementsAre("title"));
  for (const v1::ClusterFeedCheck::Field& f : entry->fields()) {
    // Post 0's own page shows its title first in the sidebar too.
    EXPECT_EQ(f.agree(), f.field() == "title" ? 1u : static_cast<uint32_t>(kFeedItems)) << f.ShortDebugString();
  }
  for (const v1::ClusterVerdict& v : r->clusters()) {
    if (v.cluster_id() != EntryCluster()) {
      EXPECT_EQ(v.verdict(), v1::ClusterVerdict::OK) << v.reason();
      continue;
    }
    EXPECT_EQ(v.verdict(), v1::ClusterVerdict::BROKEN);
    EXPECT_EQ(v.not_covered(), 0u) << "the shingle test passes";
    EXPECT_THAT(v.reason(), HasSubstr("feed test failed on 8 pages (agree: "));
    EXPECT_THAT(v.evidence(0), HasSubstr("feed title: " + Link(1) + ": rule gives \"" + Title(0) + "\""));
  }
  ASSERT_EQ(runs_.size(), 2u);
  EXPECT_EQ(runs_[1].verdict(), v1::ClusterVerdict::BROKEN);
}

TEST_F(FeedMonitorTest, FeedRepairRelearnsFromTheRunsPagesThenAnnotatesTheFailedCluster) {
  BreakTitleRule();
  auto recording = std::make_shared<RecordingLearning>(learning_.get());
  recording_ = recording;
  MonitorEngine engine(store_.get(), Options());
  v1::MonitorRequest request = Request(kFeedItems);
  request.set_feed_url("http://blog.test/feed/");
  request.set_feed_repair(true);
  (*request.mutable_feed_field_to_attribute())["title"] = "title";
  absl::StatusOr<v1::MonitorResponse> r = engine.Monitor(request);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(recording->relearns.size(), 1u);
  std::vector<std::string> relearnt;
  for (const v1::Page& p : recording->relearns[0].pages()) relearnt.push_back(p.url());
  std::vector<std::string> given;
  for (const v1::Page& p : request.pages()) given.push_back(p.url());
  EXPECT_THAT(relearnt, UnorderedElementsAreArray(given)) << "every page of the run becomes the sample";
  EXPECT_GT(r->feed().relearn().reused(), 0u);
  ASSERT_EQ(recording->annotations.size(), 1u) << "one failed cluster";
  const v1::AnnotateFromFeedRequest& a = recording->annotations[0];
  EXPECT_EQ(a.site(), kSite);
  EXPECT_EQ(a.feed_xml(), request.feed_xml()) << "the feed the run judged with";
  EXPECT_EQ(a.feed_url(), "http://blog.test/feed/");
  EXPECT_TRUE(a.learn());
  EXPECT_EQ(a.field_to_attribute().at("title"), "title");
  std::vector<std::string> entries;
  for (int k = 0; k < kFeedItems; ++k) entries.push_back(Link(k));
  EXPECT_THAT(std::vector<std::string>(a.page_urls().begin(), a.page_urls().end()),
              UnorderedElementsAreArray(entries));
  EXPECT_THAT(r->feed().repaired_clusters(), ElementsAre(EntryCluster()));
  ASSERT_EQ(r->feed().repairs_size(), 1);
  EXPECT_EQ(r->feed().repairs(0).outcome(), v1::FeedClusterLearn::CANDIDATE);
  EXPECT_TRUE(r->recorded());
}

TEST_F(FeedMonitorTest, ARepairThatFailsIsReportedAndTheRunStillRecorded) {
  BreakTitleRule();
  auto recording = std::make_shared<RecordingLearning>(learning_.get());
  recording->annotate_error = absl::UnimplementedError("AnnotateFromFeed: not here");
  recording_ = recording;
  MonitorEngine engine(store_.get(), Options());
  v1::MonitorRequest request = Request(kFeedItems);
  request.set_feed_repair(true);
  absl::StatusOr<v1::MonitorResponse> r = engine.Monitor(request);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->verdict(), v1::ClusterVerdict::BROKEN);
  ASSERT_EQ(r->feed().repair_errors_size(), 1);
  EXPECT_THAT(r->feed().repair_errors(0), HasSubstr(EntryCluster() + ": UNIMPLEMENTED: AnnotateFromFeed: not here"));
  EXPECT_EQ(r->feed().repaired_clusters_size(), 0);
  EXPECT_TRUE(r->recorded());

  recording->relearn_error = absl::FailedPreconditionError("no");
  r = engine.Monitor(request);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(r->feed().repair_errors(), ElementsAre("relearn: FAILED_PRECONDITION: no"));
  EXPECT_EQ(recording->annotations.size(), 1u) << "no annotation without the fresh sample";
}

// A list template that changed (every list page wrapped in new markup: not
// covered any more) while its rule still gives the feed's titles: CHANGED by
// the shingle test alone, and repaired too.
TEST_F(FeedMonitorTest, FeedRepairAlsoTakesAClusterChangedByItsShingles) {
  auto recording = std::make_shared<RecordingLearning>(learning_.get());
  recording_ = recording;
  MonitorEngine engine(store_.get(), Options());
  v1::MonitorRequest request = Request(kFeedItems);
  request.set_feed_repair(true);
  std::set<std::string> lists;
  for (v1::Page& p : *request.mutable_pages()) {
    if (p.url() != ListUrl(0) && p.url() != ListUrl(1)) continue;
    lists.insert(p.url());
    std::string wrapped = "<div class=\"main\">";
    for (int i = 0; i < 12; ++i) wrapped += "<section><header><nav><ul><li><span><em>new</em></span></li></ul></nav></header>";
    for (int i = 0; i < 12; ++i) wrapped += "</section>";
    const size_t main = p.html().find("<div id=\"main\">");
    ASSERT_NE(main, std::string::npos);
    std::string html = p.html();
    p.set_html(html.insert(main, wrapped + "</div>"));
  }
  absl::StatusOr<v1::MonitorResponse> r = engine.Monitor(request);
  ASSERT_TRUE(r.ok()) << r.status();
  std::string list_cluster;
  for (const v1::ClusterVerdict& v : r->clusters()) {
    if (v.cluster_id() != EntryCluster()) list_cluster = v.cluster_id();
  }
  const v1::ClusterFeedCheck* feed = Check(*r, list_cluster);
  ASSERT_NE(feed, nullptr);
  EXPECT_FALSE(feed->failed()) << "the rule still gives the feed's titles";
  for (const v1::ClusterVerdict& v : r->clusters()) {
    if (v.cluster_id() == list_cluster) EXPECT_EQ(v.verdict(), v1::ClusterVerdict::CHANGED) << v.reason();
  }
  ASSERT_EQ(recording->annotations.size(), 1u);
  EXPECT_EQ(std::set<std::string>(recording->annotations[0].page_urls().begin(),
                                  recording->annotations[0].page_urls().end()),
            lists);
  EXPECT_EQ(r->feed().repaired_clusters_size(), 1);
}

TEST_F(FeedMonitorTest, NoRepairWhenTheFeedTestPasses) {
  auto recording = std::make_shared<RecordingLearning>(learning_.get());
  recording_ = recording;
  MonitorEngine engine(store_.get(), Options());
  v1::MonitorRequest request = Request(kFeedItems);
  request.set_feed_repair(true);
  absl::StatusOr<v1::MonitorResponse> r = engine.Monitor(request);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->verdict(), v1::ClusterVerdict::OK);
  EXPECT_TRUE(recording->relearns.empty());
  EXPECT_TRUE(recording->annotations.empty());
}

TEST_F(FeedMonitorTest, EntryPagesNotGivenAreFetchedAndTested) {
  std::map<std::string, std::string> served;
  for (const BlogPage& p : Blog()) {
    if (p.posts.size() == 1 && p.posts[0] != 5) served[p.url] = p.html;  // post 5's page is gone
  }
  auto fetcher = std::make_shared<MapFetcher>(served);
  MonitorEngineOptions options = Options();
  options.fetcher = fetcher;
  MonitorEngine engine(store_.get(), options);
  absl::StatusOr<v1::MonitorResponse> r = engine.Monitor(Request(3));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(fetcher->fetched.size(), static_cast<size_t>(kFeedItems - 3));
  EXPECT_EQ(r->feed().entry_pages(), static_cast<uint32_t>(kFeedItems - 1));
  EXPECT_THAT(r->feed().unreachable(), ElementsAre(Link(5) + ": HTTP 404"));
  uint32_t checked = 0;
  for (const v1::ClusterVerdict& v : r->clusters()) checked += v.pages();
  EXPECT_EQ(checked, static_cast<uint32_t>(2 + kFeedItems - 1)) << "fetched entry pages get the shingle test too";
  EXPECT_EQ(r->verdict(), v1::ClusterVerdict::OK);

  options.fetcher = nullptr;
  MonitorEngine no_fetcher(store_.get(), options);
  r = no_fetcher.Monitor(Request(3));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->feed().unreachable_size(), kFeedItems - 3);
  EXPECT_THAT(r->feed().unreachable(0), HasSubstr("not among the pages, and this server fetches no page"));
}

TEST_F(FeedMonitorTest, AFeedUrlIsFetchedAndAFeedThatCannotBeReadIsReportedNotFatal) {
  auto fetcher = std::make_shared<MapFetcher>(std::map<std::string, std::string>{
      {"http://blog.test/feed/", FeedXml(kFeedItems)}, {"http://blog.test/bad/", "<html><body>no</body></html>"}});
  MonitorEngineOptions options = Options();
  options.fetcher = fetcher;
  MonitorEngine engine(store_.get(), options);
  v1::MonitorRequest request = Request(kFeedItems);
  request.clear_feed_xml();
  request.set_feed_url("http://blog.test/feed/");
  absl::StatusOr<v1::MonitorResponse> r = engine.Monitor(request);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->feed().items(), static_cast<uint32_t>(kFeedItems));
  EXPECT_EQ(r->feed().entry_pages(), static_cast<uint32_t>(kFeedItems));
  for (const std::string& url : {"http://blog.test/missing/", "http://blog.test/bad/"}) {
    request.set_feed_url(url);
    r = engine.Monitor(request);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_THAT(r->feed().error(), HasSubstr(url)) << r->feed().ShortDebugString();
    EXPECT_EQ(r->feed().clusters_size(), 0);
    EXPECT_EQ(r->verdict(), v1::ClusterVerdict::OK) << "the other tests ran";
  }
}

TEST_F(FeedMonitorTest, StreamedPagesAreJudgedAsOneRun) {
  MonitorEngine engine(store_.get(), Options());
  const v1::MonitorRequest whole = Request(kFeedItems);
  v1::MonitorRequest first = whole;
  first.clear_pages();
  std::vector<v1::MonitorRequest> messages = {first};
  for (const v1::Page& p : whole.pages()) {
    v1::MonitorRequest m;
    *m.add_pages() = p;
    messages.push_back(m);
  }
  size_t next = 0;
  absl::StatusOr<v1::MonitorResponse> r = engine.MonitorStream([&](v1::MonitorRequest* m) -> absl::StatusOr<bool> {
    if (next >= messages.size()) return false;
    *m = messages[next++];
    return true;
  });
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->feed().entry_pages(), static_cast<uint32_t>(kFeedItems));
  EXPECT_EQ(r->feed().list_pages(), 2u);
}

TEST_F(FeedMonitorTest, BadFeedRequestsAreRefusedNamingTheField) {
  MonitorEngine engine(store_.get(), Options());
  v1::MonitorRequest request = Request(1);
  request.clear_feed_xml();
  request.set_feed_repair(true);
  EXPECT_THAT(engine.Monitor(request).status().message(), HasSubstr("feed_repair needs a feed"));
  request = Request(1);
  request.set_feed_repair(true);
  request.set_dry_run(true);
  EXPECT_TRUE(absl::IsInvalidArgument(engine.Monitor(request).status()));
  request = Request(1);
  request.set_feed_xml("<html><body>not a feed</body></html>");
  absl::Status s = engine.Monitor(request).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(s.message(), HasSubstr("feed_xml: "));
  request = Request(1);
  (*request.mutable_feed_field_to_attribute())["title"] = "headline";
  s = engine.Monitor(request).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(s.message(), HasSubstr("\"headline\""));
  request = Request(1);
  request.clear_feed_xml();
  (*request.mutable_feed_field_to_attribute())["title"] = "title";
  EXPECT_THAT(engine.Monitor(request).status().message(), HasSubstr("feed_field_to_attribute without a feed"));

  request = Request(1);
  request.clear_feed_xml();
  request.set_feed_url("http://blog.test/feed/");
  s = engine.Monitor(request).status();
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_THAT(s.message(), HasSubstr("fetches no page"));
  MonitorEngineOptions no_learning = Options();
  no_learning.learning = nullptr;
  MonitorEngine cannot_repair(store_.get(), no_learning);
  request = Request(1);
  request.set_feed_repair(true);
  s = cannot_repair.Monitor(request).status();
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_THAT(s.message(), HasSubstr("feed_repair"));
  EXPECT_TRUE(runs_.empty());
}

}  // namespace
}  // namespace vertex::monitor
