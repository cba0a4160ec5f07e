// The feed-monitoring scenario of issue 15 (item 4), per blog template, end
// to end through the engines (no fake):
//   1. a generated blog (bloggen, redesign 0) learnt from its feed alone
//      (AnnotateFromFeed with learn; candidates accepted);
//   2. monitored with its pages and feed: the feed test passes;
//   3. the redesigned blog (redesign 1: every template's classes and layout
//      changed, the same posts and 3 newer ones, the newer feed) monitored
//      with feed_repair: the changed clusters fail, the repair stores rules;
//   4. monitored again with the repairs AnnotateFromFeed accepted by its
//      own check: the feed's values on every new entry page (the list
//      pages' outcome, and candidates it did not vouch for, accepted and
//      the run repeated, are printed for the report, not asserted).
// And the change golden values cannot see: the entry rule's title moved to
// the sidebar's first "Recent Posts" link (same template, wrong values):
// the shingle and field tests say OK, the feed test says BROKEN.
// Each template prints one line of counts (the README's and the report's
// numbers): changes detected / made, fields repaired / broken.
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/demo/blog_site.h"
#include "common/monitor/feed_check.h"
#include "common/monitor/monitor_engine.h"
#include "common/store/rule_store.h"
#include "common/workflow/learning_engine.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace vertex::monitor {
namespace {

using ::testing::HasSubstr;

constexpr int kPosts = 40;
constexpr int kNewPosts = 3;

demo::BlogSite Generate(demo::BlogTemplate templ, int redesign, int posts) {
  demo::BlogSiteOptions o;
  o.seed = 15;
  o.templ = templ;
  o.posts = posts;
  o.redesign = redesign;
  absl::StatusOr<demo::BlogSite> site = demo::GenerateBlogSite(o);
  EXPECT_TRUE(site.ok()) << site.status();
  return *std::move(site);
}

// One template's run: a store, its learning engine, and the monitor calling
// that engine for its repairs, as vertexd wires them.
class Scenario {
 public:
  explicit Scenario(demo::BlogTemplate templ)
      : site_(demo::BlogTemplateName(templ)),
        store_(store::NewInMemoryStore()),
        learning_(std::make_shared<workflow::LearningEngine>(store_.get(), workflow::LearningEngineOptions())) {
    MonitorEngineOptions options;
    options.learning = learning_;
    options.record = [this](const v1::MonitorRun& run) {
      v1::RecordMonitorRunRequest request;
      *request.mutable_run() = run;
      return learning_->RecordMonitorRun(request).status();
    };
    monitor_ = std::make_unique<MonitorEngine>(store_.get(), options);
  }

  // Registers the blog, adds its pages, learns it from its feed (the rules
  // AnnotateFromFeed accepts by its own check become current; candidates
  // wait for an editor). Returns the outcomes ("ACCEPTED", "CANDIDATE", ...).
  std::vector<std::string> LearnFromFeed(const demo::BlogSite& blog) {
    v1::RegisterSiteRequest reg;
    reg.set_site(site_);
    EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(demo::BlogSchemaJson(), reg.mutable_schema()).ok());
    EXPECT_TRUE(learning_->RegisterSite(reg).ok());
    v1::AddSamplePagesRequest add;
    add.set_site(site_);
    for (const demo::BlogPage& p : blog.pages) {
      v1::Page* page = add.add_pages();
      page->set_url(p.url);
      page->set_html(p.html);
    }
    absl::StatusOr<v1::AddSamplePagesResponse> added = learning_->AddSamplePages(add);
    EXPECT_TRUE(added.ok()) << added.status();
    v1::AnnotateFromFeedRequest annotate;
    annotate.set_site(site_);
    annotate.set_feed_xml(blog.feed_xml);
    annotate.set_feed_url(blog.feed_url);  // names the bytes: the base of their links
    annotate.set_learn(true);
    absl::StatusOr<v1::AnnotateFromFeedResponse> learnt = learning_->AnnotateFromFeed(annotate);
    EXPECT_TRUE(learnt.ok()) << learnt.status();
    std::vector<std::string> outcomes;
    if (!learnt.ok()) return outcomes;
    for (const v1::FeedClusterLearn& c : learnt->clusters()) {
      outcomes.push_back(v1::FeedClusterLearn::Outcome_Name(c.outcome()));
    }
    return outcomes;
  }

  void Accept(const std::string& cluster) {
    v1::ResolveCandidateRequest accept;
    accept.set_site(site_);
    accept.set_cluster_id(cluster);
    accept.set_accept(true);
    absl::StatusOr<v1::ResolveCandidateResponse> r = learning_->ResolveCandidate(accept);
    EXPECT_TRUE(r.ok()) << r.status();
  }

  v1::MonitorResponse Monitor(const demo::BlogSite& blog, bool with_feed, bool repair) {
    v1::MonitorRequest request;
    request.set_site(site_);
    for (const demo::BlogPage& p : blog.pages) {
      v1::Page* page = request.add_pages();
      page->set_url(p.url);
      page->set_html(p.html);
    }
    if (with_feed) {
      request.set_feed_xml(blog.feed_xml);
      request.set_feed_url(blog.feed_url);
    }
    request.set_feed_repair(repair);
    absl::StatusOr<v1::MonitorResponse> r = monitor_->Monitor(request);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.value_or(v1::MonitorResponse());
  }

  // The entry cluster's title rule now selects the sidebar's first "Recent
  // Posts" link: the same template, the wrong values.
  void MoveTitleToTheSidebar(const demo::BlogSite& blog) {
    std::set<std::string> entries;
    for (const demo::BlogPage& p : blog.pages) {
      if (p.kind == "entry") entries.insert(p.url);
    }
    absl::StatusOr<std::vector<v1::ClusterRecord>> records = store_->ClustersOfSite(site_);
    ASSERT_TRUE(records.ok());
    for (const v1::ClusterRecord& r : *records) {
      size_t n = 0;
      for (const std::string& u : r.bellwether_urls()) n += entries.count(u);
      if (r.current_version() == 0 || 2 * n <= static_cast<size_t>(r.bellwether_urls_size())) continue;
      absl::StatusOr<v1::Rule> rule = store_->GetRule(site_, r.cluster_id(), store::kCurrentVersion);
      ASSERT_TRUE(rule.ok()) << rule.status();
      store::RuleCommit commit;
      commit.rule = *rule;
      for (v1::AttributeRule& a : *commit.rule.mutable_attributes()) {
        if (a.attribute() != "title") continue;
        a.Clear();
        a.set_attribute("title");
        a.set_method(v1::AttributeRule::XPATH);
        a.set_xpath("(//*[normalize-space(text())='Recent Posts']/following::a)[1]");
        a.set_multi_valued(true);
      }
      commit.golden.assign(r.golden().begin(), r.golden().end());
      ASSERT_TRUE(store_->CommitRule(commit).ok());
      entry_cluster_ = r.cluster_id();
    }
    ASSERT_FALSE(entry_cluster_.empty()) << "no cluster of entry pages with a rule";
  }

  const std::string& entry_cluster() const { return entry_cluster_; }

 private:
  const std::string site_;
  std::unique_ptr<store::RuleStore> store_;
  std::shared_ptr<workflow::LearningEngine> learning_;
  std::unique_ptr<MonitorEngine> monitor_;
  std::string entry_cluster_;
};

// (cluster, field) pairs failing the feed test.
std::set<std::string> FailingFields(const v1::MonitorResponse& r) {
  std::set<std::string> out;
  for (const v1::ClusterFeedCheck& c : r.feed().clusters()) {
    for (const std::string& f : c.failing_fields()) out.insert(c.cluster_id() + "/" + f);
  }
  return out;
}

std::string Verdicts(const v1::MonitorResponse& r) {
  std::vector<std::string> out;
  for (const v1::ClusterVerdict& v : r.clusters()) {
    out.push_back(v.cluster_id() + " " + v1::ClusterVerdict::Verdict_Name(v.verdict()) + ": " + v.reason());
    for (const std::string& e : v.evidence()) out.push_back("    " + e);
  }
  return absl::StrJoin(out, "\n");
}

class FeedRedesignTest : public ::testing::TestWithParam<demo::BlogTemplate> {};

TEST_P(FeedRedesignTest, ARedesignIsDetectedByTheFeedAndRepairedFromIt) {
  const demo::BlogSite before = Generate(GetParam(), 0, kPosts);
  const demo::BlogSite after = Generate(GetParam(), 1, kPosts + kNewPosts);
  Scenario s(GetParam());
  const std::vector<std::string> learnt = s.LearnFromFeed(before);
  ASSERT_FALSE(learnt.empty());

  // The unchanged blog passes the feed test (its verdict may still say
  // BROKEN where a learnt rule lacks a mandatory attribute, e.g. body on
  // list pages: the field test's finding, printed).
  const v1::MonitorResponse unchanged = s.Monitor(before, true, false);
  EXPECT_TRUE(FailingFields(unchanged).empty()) << Verdicts(unchanged);
  EXPECT_GT(unchanged.feed().entry_pages(), 0u);

  const v1::MonitorResponse redesigned = s.Monitor(after, true, true);
  size_t changed = 0, detected = 0;
  for (const v1::ClusterVerdict& v : redesigned.clusters()) {
    if (v.pages() == 0) continue;
    ++changed;  // redesign 1 changes every template
    detected += v.verdict() == v1::ClusterVerdict::CHANGED || v.verdict() == v1::ClusterVerdict::BROKEN;
  }
  const std::set<std::string> broken = FailingFields(redesigned);
  EXPECT_EQ(detected, changed) << Verdicts(redesigned);
  EXPECT_FALSE(broken.empty()) << "the feed test fails on the changed clusters";
  EXPECT_TRUE(redesigned.feed().repair_errors().empty()) << absl::StrJoin(redesigned.feed().repair_errors(), "; ");
  // The repairs AnnotateFromFeed accepted by its own check are current;
  // candidates wait for an editor (counted, and tried after the check).
  std::map<std::string, int> outcomes;
  std::vector<std::string> candidates;
  for (const v1::FeedClusterLearn& l : redesigned.feed().repairs()) {
    ++outcomes[v1::FeedClusterLearn::Outcome_Name(l.outcome())];
    if (l.outcome() == v1::FeedClusterLearn::CANDIDATE) candidates.push_back(l.cluster_id());
    if (l.outcome() != v1::FeedClusterLearn::ACCEPTED) {
      std::cout << "  repair " << l.cluster_id() << " " << v1::FeedClusterLearn::Outcome_Name(l.outcome()) << ": "
                << l.reason().substr(0, 300) << "\n";
    }
  }
  EXPECT_GT(outcomes["ACCEPTED"], 0) << "a repair reproduced the feed on pages it was not learnt from";

  // The rules stored give the feed's values on the new entry pages: no
  // entry field fails any more, on every new entry page. (List pages and
  // clusters the feed shows nothing of are counted, not asserted: the list
  // repair is AnnotateFromFeed's, the rest waits for an editor.)
  const v1::MonitorResponse repaired = s.Monitor(after, true, false);
  const std::set<std::string> still = FailingFields(repaired);
  for (const std::string& f : still) EXPECT_THAT(f, HasSubstr(kListTitlesField)) << Verdicts(repaired);
  size_t not_ok = 0;
  for (const v1::ClusterVerdict& v : repaired.clusters()) {
    not_ok += v.verdict() != v1::ClusterVerdict::OK && v.verdict() != v1::ClusterVerdict::NO_PAGES;
  }
  uint32_t new_entries = 0;
  for (const demo::BlogPage& p : after.pages) new_entries += p.in_feed ? 1 : 0;
  EXPECT_EQ(repaired.feed().entry_pages(), new_entries) << "every feed item's new entry page judged";

  std::vector<std::string> outcome_text;
  for (const auto& [name, n] : outcomes) outcome_text.push_back(absl::StrCat(n, " ", name));
  // What an editor accepting the candidates unseen would get (reported,
  // not asserted: AnnotateFromFeed did not vouch for them).
  std::string with_candidates = "no candidate";
  if (!candidates.empty()) {
    for (const std::string& c : candidates) s.Accept(c);
    const v1::MonitorResponse accepted = s.Monitor(after, true, false);
    with_candidates = absl::StrCat("with the candidates accepted: ",
                                   v1::ClusterVerdict::Verdict_Name(accepted.verdict()), " (failing ",
                                   absl::StrJoin(FailingFields(accepted), " "), ")");
  }
  std::cout << "feed redesign " << demo::BlogTemplateName(GetParam()) << ": learnt from the feed "
            << absl::StrJoin(learnt, ",") << "; changes detected " << detected << "/" << changed
            << "; fields repaired " << (broken.size() - std::min(broken.size(), still.size())) << "/" << broken.size()
            << " (" << absl::StrJoin(broken, " ") << "); repairs " << absl::StrJoin(outcome_text, ", ")
            << "; first run " << v1::ClusterVerdict::Verdict_Name(unchanged.verdict()) << "; after the repair "
            << v1::ClusterVerdict::Verdict_Name(repaired.verdict()) << " (" << not_ok << " cluster(s) not OK, failing "
            << absl::StrJoin(still, " ") << "), " << repaired.feed().entry_pages() << " entry pages judged; "
            << with_candidates << "\n";
}

TEST_P(FeedRedesignTest, ATitleOnTheSidebarPassesTheShingleTestNotTheFeedTest) {
  const demo::BlogSite blog = Generate(GetParam(), 0, kPosts);
  Scenario s(GetParam());
  ASSERT_FALSE(s.LearnFromFeed(blog).empty());
  s.MoveTitleToTheSidebar(blog);
  const v1::MonitorResponse golden_only = s.Monitor(blog, false, false);
  const v1::MonitorResponse with_feed = s.Monitor(blog, true, false);
  EXPECT_EQ(with_feed.verdict(), v1::ClusterVerdict::BROKEN) << Verdicts(with_feed);
  const std::set<std::string> failing = FailingFields(with_feed);
  EXPECT_TRUE(failing.count(s.entry_cluster() + "/title")) << absl::StrJoin(failing, ", ");
  // The entry cluster: OK by the shingle and field tests, BROKEN (not
  // CHANGED: the template holds) by the feed test.
  for (const v1::ClusterVerdict& v : golden_only.clusters()) {
    if (v.cluster_id() == s.entry_cluster()) EXPECT_EQ(v.verdict(), v1::ClusterVerdict::OK) << v.reason();
  }
  for (const v1::ClusterVerdict& v : with_feed.clusters()) {
    if (v.cluster_id() == s.entry_cluster()) EXPECT_EQ(v.verdict(), v1::ClusterVerdict::BROKEN) << v.reason();
  }
  std::cout << "feed sidebar " << demo::BlogTemplateName(GetParam()) << ": the site without the feed "
            << v1::ClusterVerdict::Verdict_Name(golden_only.verdict()) << ", with it "
            << v1::ClusterVerdict::Verdict_Name(with_feed.verdict()) << " (" << absl::StrJoin(failing, " ") << ")\n";
}

INSTANTIATE_TEST_SUITE_P(Templates, FeedRedesignTest,
                         ::testing::Values(demo::BlogTemplate::kWordPress, demo::BlogTemplate::kBlogger,
                                           demo::BlogTemplate::kMovableType, demo::BlogTemplate::kTable),
                         [](const ::testing::TestParamInfo<demo::BlogTemplate>& info) {
                           return demo::BlogTemplateName(info.param);
                         });

}  // namespace
}  // namespace vertex::monitor
