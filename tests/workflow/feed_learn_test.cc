// AnnotateFromFeed (common/workflow/feed_call.cc) over generated blogs
// (common/demo/blog_site.h), in process over an in-memory store: learning
// with no editor per template, the rule judged on entry pages the feed
// never mentioned against the generator's truth, a candidate that waits
// for ResolveCandidate, fetch_missing through a fake fetcher, and every
// documented error code.
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/demo/blog_site.h"
#include "common/feed/feed_matcher.h"
#include "common/schema/schema.h"
#include "common/store/rule_store.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::workflow {
namespace {

using ::testing::HasSubstr;

// Whitespace runs as one space, trimmed: how the truth states texts.
std::string Norm(const std::string& s) {
  std::vector<std::string> words = absl::StrSplit(s, absl::ByAnyChar(" \t\r\n\xc2\xa0"), absl::SkipEmpty());
  return absl::StrJoin(words, " ");
}

// Serves the generated blog's pages by URL (fetch_missing and feed_url).
class SiteFetcher final : public fetch::Fetcher {
 public:
  explicit SiteFetcher(std::map<std::string, std::string> bodies) : bodies_(std::move(bodies)) {}
  absl::StatusOr<fetch::FetchResult> Fetch(const std::string& url) override {
    ++calls_;
    auto it = bodies_.find(url);
    if (it == bodies_.end()) return absl::NotFoundError(url + ": HTTP 404");
    fetch::FetchResult r;
    r.url = r.final_url = url;
    r.http_status = 200;
    r.body = it->second;
    return r;
  }
  int calls() const { return calls_; }

 private:
  std::map<std::string, std::string> bodies_;
  int calls_ = 0;
};

class FeedLearnTest : public ::testing::Test {
 protected:
  FeedLearnTest() : store_(store::NewInMemoryStore()) {}

  // A learning engine over the store, with `fetcher` (may be null).
  void StartEngines(std::shared_ptr<fetch::Fetcher> fetcher = nullptr) {
    LearningEngineOptions options;
    options.fetcher = std::move(fetcher);
    extraction_ = std::make_unique<ExtractionEngine>(store_.get(), ExtractionEngineOptions{});
    learning_ = std::make_unique<LearningEngine>(store_.get(), options, [this](const std::string&) {
      ASSERT_TRUE(extraction_->Refresh().ok());
    });
  }

  void Register(const std::string& site) {
    v1::RegisterSiteRequest r;
    r.set_site(site);
    *r.mutable_schema() = schema::CompiledSchema::FromJson(demo::BlogSchemaJson(), "blog").value().proto();
    ASSERT_TRUE(learning_->RegisterSite(r).ok());
  }

  // Adds the blog's pages (but those whose URL is in `leave_out`).
  void AddPages(const std::string& site, const demo::BlogSite& blog, const std::set<std::string>& leave_out = {}) {
    v1::AddSamplePagesRequest r;
    r.set_site(site);
    for (const demo::BlogPage& p : blog.pages) {
      if (leave_out.count(p.url)) continue;
      v1::Page* page = r.add_pages();
      page->set_url(p.url);
      page->set_html(p.html);
    }
    absl::StatusOr<v1::AddSamplePagesResponse> added = learning_->AddSamplePages(r);
    ASSERT_TRUE(added.ok()) << added.status();
    ASSERT_GT(added->clusters_size(), 0);
  }

  v1::AnnotateFromFeedRequest FeedRequest(const std::string& site, const demo::BlogSite& blog, bool learn) {
    v1::AnnotateFromFeedRequest r;
    r.set_site(site);
    r.set_feed_xml(blog.feed_xml);
    r.set_feed_url(blog.feed_url);  // names the bytes: nothing is fetched
    r.set_learn(learn);
    return r;
  }

  // The page's record under the site's current rules.
  v1::ExtractedRecord RecordOf(const std::string& site, const demo::BlogPage& page) {
    v1::ExtractRequest r;
    r.set_site(site);
    r.set_url(page.url);
    r.set_html(page.html);
    absl::StatusOr<v1::ExtractResponse> got = extraction_->Extract(r);
    EXPECT_TRUE(got.ok()) << got.status();
    return got.ok() ? got->record() : v1::ExtractedRecord();
  }

  std::unique_ptr<store::RuleStore> store_;
  std::unique_ptr<ExtractionEngine> extraction_;
  std::unique_ptr<LearningEngine> learning_;
};

demo::BlogSite Blog(demo::BlogTemplate t) {
  demo::BlogSiteOptions options;
  options.templ = t;
  absl::StatusOr<demo::BlogSite> blog = demo::GenerateBlogSite(options);
  EXPECT_TRUE(blog.ok()) << blog.status();
  return *std::move(blog);
}

// The cluster of the entry pages (the one most of the annotated entry
// pages are in).
std::string EntryCluster(const v1::AnnotateFromFeedResponse& r) {
  std::map<std::string, int> count;
  for (const v1::FeedPageAnnotations& p : r.pages()) {
    if (p.kind() == "entry" && !p.cluster_id().empty()) ++count[p.cluster_id()];
  }
  std::string best;
  for (const auto& [id, n] : count) {
    if (best.empty() || n > count[best]) best = id;
  }
  return best;
}

const v1::FeedClusterLearn* ClusterOf(const v1::AnnotateFromFeedResponse& r, const std::string& id) {
  for (const v1::FeedClusterLearn& c : r.clusters()) {
    if (c.cluster_id() == id) return &c;
  }
  return nullptr;
}

// What is wrong with `record` (an entry page's) against the page's truth:
// a value that is not the truth's (title, link, date, body: one value each).
std::vector<std::string> EntryPageErrors(const v1::ExtractedRecord& record, const demo::BlogEntryTruth& truth) {
  std::vector<std::string> out;
  std::map<std::string, std::vector<std::string>> values;
  for (const v1::ExtractedAttribute& a : record.attributes()) values[a.attribute()].assign(a.values().begin(), a.values().end());
  const auto one = [&](const std::string& attribute, const std::string& want, bool url) {
    const std::vector<std::string>& got = values[attribute];
    if (got.size() != 1) {
      out.push_back(absl::StrCat(attribute, ": ", got.size(), " values"));
    } else if (url ? feed::NormalizeUrl(got[0], record.url()) != feed::NormalizeUrl(want) : Norm(got[0]) != Norm(want)) {
      out.push_back(absl::StrCat(attribute, ": \"", got[0].substr(0, 80), "\", truth \"", want.substr(0, 80), "\""));
    }
  };
  one("title", truth.title, false);
  one("link", truth.permalink, true);
  if (!truth.date.empty()) one("date", truth.date, false);
  one("body", truth.body, false);
  return out;
}

// The checks' mismatches, one per line, for a failure's message.
std::string Mismatches(const v1::FeedClusterLearn& c) {
  std::string out;
  for (const v1::FeedClusterLearn::AttributeCheck& a : c.checks()) {
    for (const std::string& m : a.mismatches()) out += "\n  " + a.attribute() + ": " + m;
  }
  return out;
}

class FeedLearnTemplateTest : public FeedLearnTest, public ::testing::WithParamInterface<demo::BlogTemplate> {};

// Per template: the entry pages' cluster is learnt with no editor and
// ACCEPTED, and its rule gives the truth's title, link, date and body on
// every entry page the feed never mentioned (the paper never measured
// this). Sidebar "Recent posts" repeat the titles on every page: the
// matcher's nearest-to-body choice must keep the rule off them.
TEST_P(FeedLearnTemplateTest, LearnsTheEntryPagesWithNoEditor) {
  const demo::BlogSite blog = Blog(GetParam());
  StartEngines();
  Register("b");
  AddPages("b", blog);
  absl::StatusOr<v1::AnnotateFromFeedResponse> r = learning_->AnnotateFromFeed(FeedRequest("b", blog, true));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->feed_items(), static_cast<uint32_t>(blog.options.feed_items));
  const std::string entry = EntryCluster(*r);
  ASSERT_FALSE(entry.empty()) << "no entry page annotated in a cluster";
  const v1::FeedClusterLearn* c = ClusterOf(*r, entry);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->outcome(), v1::FeedClusterLearn::ACCEPTED) << c->reason() << Mismatches(*c);
  EXPECT_GE(c->learnt_from_size(), 3);  // 3, and a page per refinement round
  EXPECT_GT(c->checked_on_size(), 0);
  for (const v1::FeedClusterLearn& other : r->clusters()) {
    EXPECT_NE(other.outcome(), v1::FeedClusterLearn::NOT_LEARNT) << other.cluster_id() << ": " << other.reason();
  }
  int pages = 0;
  std::vector<std::string> wrong;      // "URL: what"
  std::vector<std::string> elsewhere;  // pages whose record another cluster's rule gave
  for (const demo::BlogPage& p : blog.pages) {
    if (p.kind != "entry" || p.in_feed) continue;
    ++pages;
    ASSERT_EQ(p.entries.size(), 1u) << p.url;
    const v1::ExtractedRecord record = RecordOf("b", p);
    if (record.cluster_id() != entry) {
      elsewhere.push_back(absl::StrCat(p.url, ": cluster ", record.cluster_id(), " (", record.matched_by(), ")"));
      continue;
    }
    for (const std::string& w : EntryPageErrors(record, p.entries[0])) wrong.push_back(p.url + ": " + w);
  }
  // The rule learnt with no editor is right on every page it extracts.
  EXPECT_TRUE(wrong.empty()) << wrong.size() << " wrong values on " << pages << " entry pages not in the feed, e.g.\n"
                             << absl::StrJoin(wrong.begin(), wrong.begin() + std::min<size_t>(wrong.size(), 12), "\n");
  // Which rule a page gets is the clustering's (Algorithm 1) and the
  // extractor's routing, not this engine's: some entry pages of the Blogger
  // and table layouts are clustered with (or nearest to) list pages, whose
  // rules give them list values. Counted (and reported), not asserted, but
  // most entry pages must be the entry cluster's.
  ::testing::Test::RecordProperty("entry_pages_elsewhere", static_cast<int>(elsewhere.size()));
  EXPECT_LT(elsewhere.size() * 2, static_cast<size_t>(pages))
      << elsewhere.size() << " of " << pages << " entry pages got another cluster's rule, e.g. " << elsewhere[0];
}

INSTANTIATE_TEST_SUITE_P(Templates, FeedLearnTemplateTest,
                         ::testing::Values(demo::BlogTemplate::kWordPress, demo::BlogTemplate::kBlogger,
                                           demo::BlogTemplate::kMovableType, demo::BlogTemplate::kTable),
                         [](const auto& info) { return demo::BlogTemplateName(info.param); });

// A second feed learning that maps away an attribute the current rule has
// is refused by Learn's attribute-loss guard (NOT_LEARNT, saying so) unless
// the request allows the loss, as feed monitoring's repair does.
TEST_F(FeedLearnTest, AttributeLossIsRefusedUnlessAllowed) {
  const demo::BlogSite blog = Blog(demo::BlogTemplate::kWordPress);
  StartEngines();
  Register("b");
  AddPages("b", blog);
  absl::StatusOr<v1::AnnotateFromFeedResponse> first = learning_->AnnotateFromFeed(FeedRequest("b", blog, true));
  ASSERT_TRUE(first.ok()) << first.status();
  const std::string entry = EntryCluster(*first);
  ASSERT_FALSE(entry.empty());
  ASSERT_EQ(ClusterOf(*first, entry)->outcome(), v1::FeedClusterLearn::ACCEPTED);

  // Without author: the new version would lose the current one's author.
  v1::AnnotateFromFeedRequest without = FeedRequest("b", blog, true);
  for (const char* field : {"title", "link", "date", "body", "categories"}) {
    (*without.mutable_field_to_attribute())[field] = field;
  }
  absl::StatusOr<v1::AnnotateFromFeedResponse> refused = learning_->AnnotateFromFeed(without);
  ASSERT_TRUE(refused.ok()) << refused.status();
  const v1::FeedClusterLearn* c = ClusterOf(*refused, entry);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->outcome(), v1::FeedClusterLearn::NOT_LEARNT) << c->reason();
  EXPECT_THAT(c->reason(), ::testing::HasSubstr("author"));

  without.set_allow_attribute_loss(true);
  absl::StatusOr<v1::AnnotateFromFeedResponse> allowed = learning_->AnnotateFromFeed(without);
  ASSERT_TRUE(allowed.ok()) << allowed.status();
  c = ClusterOf(*allowed, entry);
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->outcome(), v1::FeedClusterLearn::NOT_LEARNT) << c->reason();
  EXPECT_GT(c->version(), 1);
}

// Without `learn`: annotations and match reports, nothing stored.
TEST_F(FeedLearnTest, AnnotatesWithoutLearning) {
  const demo::BlogSite blog = Blog(demo::BlogTemplate::kWordPress);
  StartEngines();
  Register("b");
  AddPages("b", blog);
  absl::StatusOr<v1::AnnotateFromFeedResponse> r = learning_->AnnotateFromFeed(FeedRequest("b", blog, false));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->clusters_size(), 0);
  int entries = 0, lists = 0;
  for (const v1::FeedPageAnnotations& p : r->pages()) {
    entries += p.kind() == "entry";
    lists += p.kind() == "list";
    EXPECT_FALSE(p.cluster_id().empty()) << p.url();
    for (const v1::Annotation& a : p.annotations()) EXPECT_EQ(a.url(), p.url());
  }
  EXPECT_EQ(entries, blog.options.feed_items);
  EXPECT_GT(lists, 0);
  EXPECT_GT(r->matches_size(), entries * 4);
  v1::ListRulesRequest rules;
  rules.set_site("b");
  const v1::ListRulesResponse listed = learning_->ListRules(rules).value();
  for (const v1::ClusterRules& c : listed.clusters()) {
    EXPECT_EQ(c.versions_size(), 0) << c.cluster().cluster_id();
  }
}

// fetch_missing: the feed items' entry pages missing from the sample are
// fetched (a fake fetcher serving the blog) and added; the feed by URL too.
TEST_F(FeedLearnTest, FetchesTheMissingEntryPagesAndTheFeed) {
  const demo::BlogSite blog = Blog(demo::BlogTemplate::kWordPress);
  std::map<std::string, std::string> bodies{{blog.feed_url, blog.feed_xml}};
  std::set<std::string> missing;
  for (const demo::BlogPage& p : blog.pages) {
    bodies[p.url] = p.html;
    if (p.in_feed && missing.size() < 4) missing.insert(p.url);
  }
  auto fetcher = std::make_shared<SiteFetcher>(bodies);
  StartEngines(fetcher);
  Register("b");
  AddPages("b", blog, missing);
  v1::AnnotateFromFeedRequest request;
  request.set_site("b");
  request.set_feed_url(blog.feed_url);
  request.set_fetch_missing(true);
  absl::StatusOr<v1::AnnotateFromFeedResponse> r = learning_->AnnotateFromFeed(request);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(std::set<std::string>(r->fetched().begin(), r->fetched().end()), ::testing::ContainerEq(missing));
  EXPECT_EQ(r->fetch_errors_size(), 0);
  EXPECT_EQ(fetcher->calls(), 1 + static_cast<int>(missing.size()));  // the feed, then each missing page
  int entries = 0;
  for (const v1::FeedPageAnnotations& p : r->pages()) entries += p.kind() == "entry";
  EXPECT_EQ(entries, blog.options.feed_items);
}

// A cluster with one annotated page (here: page_urls names one entry page)
// leaves no page to check the rule on: the rule waits as a candidate, no
// version is current, and ResolveCandidate (rules accept) makes it current.
// (A candidate from a failed check: feed_check_test's CheckRuleOnFeedPages.)
TEST_F(FeedLearnTest, ACandidateWaitsForResolveCandidate) {
  const demo::BlogSite blog = Blog(demo::BlogTemplate::kWordPress);
  StartEngines();
  Register("b");
  AddPages("b", blog);
  v1::AnnotateFromFeedRequest request = FeedRequest("b", blog, true);
  for (const demo::BlogPage& p : blog.pages) {
    if (p.in_feed && request.page_urls().empty()) request.add_page_urls(p.url);
  }
  absl::StatusOr<v1::AnnotateFromFeedResponse> r = learning_->AnnotateFromFeed(request);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->clusters_size(), 1);
  const v1::FeedClusterLearn& c = r->clusters(0);
  EXPECT_EQ(c.outcome(), v1::FeedClusterLearn::CANDIDATE);
  EXPECT_THAT(c.reason(), HasSubstr("no annotated page left to check"));
  EXPECT_THAT(c.learnt_from(), ::testing::ElementsAre(request.page_urls(0)));
  EXPECT_EQ(c.checked_on_size(), 0);
  ASSERT_GT(c.version(), 0);
  v1::GetRuleRequest get;
  get.set_site("b");
  get.set_cluster_id(c.cluster_id());
  EXPECT_TRUE(absl::IsNotFound(learning_->GetRule(get).status()));  // no current version yet
  v1::ResolveCandidateRequest accept;
  accept.set_site("b");
  accept.set_cluster_id(c.cluster_id());
  accept.set_accept(true);
  absl::StatusOr<v1::ResolveCandidateResponse> resolved = learning_->ResolveCandidate(accept);
  ASSERT_TRUE(resolved.ok()) << resolved.status();
  EXPECT_EQ(resolved->version(), c.version());
  EXPECT_EQ(learning_->GetRule(get).value().rule().version(), c.version());
}

TEST_F(FeedLearnTest, ErrorsNameTheirCause) {
  const demo::BlogSite blog = Blog(demo::BlogTemplate::kWordPress);
  StartEngines();
  v1::AnnotateFromFeedRequest r = FeedRequest("nosuch", blog, true);
  EXPECT_TRUE(absl::IsNotFound(learning_->AnnotateFromFeed(r).status()));
  Register("b");
  r.set_site("b");
  // Learning from a sample never clustered.
  absl::Status s = learning_->AnnotateFromFeed(r).status();
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("never clustered"));
  AddPages("b", blog);
  // Not a feed: the parser's message.
  r.set_feed_xml("<html><body>no feed</body></html>");
  s = learning_->AnnotateFromFeed(r).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("feed_xml: "));
  EXPECT_THAT(std::string(s.message()), HasSubstr("html"));
  // No feed at all. (Bytes with their URL, as every other test here sends
  // them, need no fetcher.)
  r.clear_feed_xml();
  r.clear_feed_url();
  s = learning_->AnnotateFromFeed(r).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("no feed"));
  // A URL alone with no fetcher; fetch_missing with no fetcher.
  r.set_feed_url(blog.feed_url);
  s = learning_->AnnotateFromFeed(r).status();
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("fetcher"));
  r = FeedRequest("b", blog, false);
  r.set_fetch_missing(true);
  EXPECT_TRUE(absl::IsFailedPrecondition(learning_->AnnotateFromFeed(r).status()));
  // An unknown attribute, an unknown field.
  r = FeedRequest("b", blog, false);
  (*r.mutable_field_to_attribute())["title"] = "headline";
  s = learning_->AnnotateFromFeed(r).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("\"headline\""));
  r.clear_field_to_attribute();
  (*r.mutable_field_to_attribute())["comments"] = "body";
  s = learning_->AnnotateFromFeed(r).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("\"comments\""));
  // A page that is not a sample page.
  r.clear_field_to_attribute();
  r.add_page_urls("http://elsewhere.test/x");
  s = learning_->AnnotateFromFeed(r).status();
  EXPECT_TRUE(absl::IsNotFound(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("http://elsewhere.test/x"));
}

}  // namespace
}  // namespace vertex::workflow
