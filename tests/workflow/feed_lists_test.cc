// AnnotateFromFeed (common/workflow/feed_call.cc) on the LIST pages of
// generated blogs (common/demo/blog_site.h), per template: the list
// cluster is learnt from the matcher's repeated-record annotations with no
// editor, gets a rule for every attribute the template shows per entry, and
// on held-out archive and category pages (none of whose entries the feed
// carries; not in the sample) extracts the generator's truth, scored per
// field as a multiset of values (the idea of bench/feed_eval.cc).
#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/demo/blog_site.h"
#include "common/schema/schema.h"
#include "common/store/rule_store.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/feed_check.h"
#include "common/workflow/learning_engine.h"
#include "gtest/gtest.h"

namespace vertex::workflow {
namespace {

constexpr const char* kFields[] = {"title", "link", "date", "author", "body", "categories"};

// Whitespace runs as one space, trimmed: how the truth states texts.
std::string Norm(const std::string& s) {
  std::vector<std::string> words = absl::StrSplit(s, absl::ByAnyChar(" \t\r\n\xc2\xa0"), absl::SkipEmpty());
  return absl::StrJoin(words, " ");
}

// The truth's values of `field` on a list page, in page order; a shared
// date header's later entries have none (the header is judged once).
std::vector<std::string> TruthValues(const demo::BlogPage& page, const std::string& field) {
  std::vector<std::string> out;
  for (const demo::BlogEntryTruth& e : page.entries) {
    if (field == "title") out.push_back(e.title);
    if (field == "link") out.push_back(e.permalink);
    if (field == "date" && !e.date.empty()) out.push_back(e.date);
    if (field == "author" && !e.author.empty()) out.push_back(e.author);
    if (field == "body") out.push_back(e.body);
    if (field == "categories") out.insert(out.end(), e.categories.begin(), e.categories.end());
  }
  return out;
}

struct Counts {
  size_t extracted = 0, truth = 0, correct = 0;
  double precision() const { return extracted ? static_cast<double>(correct) / extracted : 1.0; }
  double recall() const { return truth ? static_cast<double>(correct) / truth : 1.0; }
};

// Multiset match of normalised values.
void Score(const std::vector<std::string>& extracted, const std::vector<std::string>& truth, Counts* c) {
  c->extracted += extracted.size();
  c->truth += truth.size();
  std::map<std::string, int> left;
  for (const std::string& t : truth) ++left[Norm(t)];
  for (const std::string& v : extracted) {
    auto it = left.find(Norm(v));
    if (it != left.end() && it->second > 0) {
      --it->second;
      ++c->correct;
    }
  }
}

// Held out: an archive or category page none of whose entries the feed
// carries, every second one (the others stay in the sample, so that the
// list cluster sees old months and categories too).
std::set<std::string> HeldOut(const demo::BlogSite& blog) {
  std::set<std::string> in_feed, out;
  for (const demo::BlogPage& p : blog.pages) {
    if (p.in_feed) in_feed.insert(p.url);
  }
  int n = 0;
  for (const demo::BlogPage& p : blog.pages) {
    if (p.kind != "archive" && p.kind != "category") continue;
    bool carried = false;
    for (const demo::BlogEntryTruth& e : p.entries) carried |= in_feed.count(e.permalink) > 0;
    if (!carried && n++ % 2 == 0) out.insert(p.url);
  }
  return out;
}

class FeedListsTest : public ::testing::TestWithParam<demo::BlogTemplate> {
 protected:
  FeedListsTest() : store_(store::NewInMemoryStore()) {
    extraction_ = std::make_unique<ExtractionEngine>(store_.get(), ExtractionEngineOptions{});
    learning_ = std::make_unique<LearningEngine>(store_.get(), LearningEngineOptions{},
                                                 [this](const std::string&) { ASSERT_TRUE(extraction_->Refresh().ok()); });
  }

  // Registers site "b" and adds the blog's pages but `leave_out`.
  void AddSite(const demo::BlogSite& blog, const std::set<std::string>& leave_out) {
    v1::RegisterSiteRequest reg;
    reg.set_site("b");
    *reg.mutable_schema() = schema::CompiledSchema::FromJson(demo::BlogSchemaJson(), "blog").value().proto();
    ASSERT_TRUE(learning_->RegisterSite(reg).ok());
    v1::AddSamplePagesRequest add;
    add.set_site("b");
    for (const demo::BlogPage& p : blog.pages) {
      if (leave_out.count(p.url)) continue;
      v1::Page* page = add.add_pages();
      page->set_url(p.url);
      page->set_html(p.html);
    }
    ASSERT_TRUE(learning_->AddSamplePages(add).ok());
  }

  v1::ExtractedRecord RecordOf(const demo::BlogPage& page) {
    v1::ExtractRequest r;
    r.set_site("b");
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

// The clusters whose annotated pages are list pages, with their learning.
std::vector<const v1::FeedClusterLearn*> ListClusters(const v1::AnnotateFromFeedResponse& r) {
  std::set<std::string> ids;
  for (const v1::FeedPageAnnotations& p : r.pages()) {
    if (p.kind() == "list" && !p.cluster_id().empty()) ids.insert(p.cluster_id());
  }
  std::vector<const v1::FeedClusterLearn*> out;
  for (const v1::FeedClusterLearn& c : r.clusters()) {
    if (ids.count(c.cluster_id())) out.push_back(&c);
  }
  return out;
}

TEST_P(FeedListsTest, ListClustersLearntFromTheFeedExtractHeldOutArchives) {
  demo::BlogSiteOptions options;
  options.templ = GetParam();
  const absl::StatusOr<demo::BlogSite> blog = demo::GenerateBlogSite(options);
  ASSERT_TRUE(blog.ok()) << blog.status();
  const std::set<std::string> held = HeldOut(*blog);
  ASSERT_GE(held.size(), 3u);
  AddSite(*blog, held);
  v1::AnnotateFromFeedRequest request;
  request.set_site("b");
  request.set_feed_xml(blog->feed_xml);
  request.set_feed_url(blog->feed_url);
  request.set_learn(true);
  const absl::StatusOr<v1::AnnotateFromFeedResponse> r = learning_->AnnotateFromFeed(request);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<const v1::FeedClusterLearn*> lists = ListClusters(*r);
  ASSERT_FALSE(lists.empty()) << "no list page annotated in a cluster";
  std::set<std::string> shown;  // the fields the template shows on list pages
  for (const demo::BlogPage& page : blog->pages) {
    if (page.kind == "entry") continue;
    for (const char* f : kFields) {
      if (!TruthValues(page, f).empty()) shown.insert(f);
    }
  }
  for (const v1::FeedClusterLearn* c : lists) {
    EXPECT_EQ(c->outcome(), v1::FeedClusterLearn::ACCEPTED) << c->cluster_id() << ": " << c->reason();
    EXPECT_GE(c->checked_on_size(), 2) << c->cluster_id();
    const std::set<std::string> has = RuleAttributes(c->learn().rule());
    for (const std::string& f : shown) {
      EXPECT_TRUE(has.count(f)) << c->cluster_id() << ": no rule for " << f << "; " << c->reason();
    }
  }
  std::map<std::string, Counts> counts;
  for (const demo::BlogPage& page : blog->pages) {
    if (!held.count(page.url)) continue;
    const v1::ExtractedRecord record = RecordOf(page);
    for (const char* field : kFields) {
      std::vector<std::string> values;
      for (const v1::ExtractedAttribute& a : record.attributes()) {
        if (a.attribute() == field) values.assign(a.values().begin(), a.values().end());
      }
      Counts one;
      Score(values, TruthValues(page, field), &one);
      if (one.correct != one.extracted || one.correct != one.truth) {  // shown, judged in the totals
        std::printf("  %s on %s: %zu of %zu values right, %zu in the truth; extracted [%s]\n", field,
                    page.url.c_str(), one.correct, one.extracted, one.truth,
                    absl::StrJoin(values, " | ").substr(0, 2000).c_str());
      }
      Score(values, TruthValues(page, field), &counts[field]);
    }
  }
  for (const char* field : kFields) {
    const Counts& c = counts[field];
    std::printf("%-12s %-10s P %.3f R %.3f (%zu extracted, %zu truth, %zu right; %zu held-out pages)\n",
                demo::BlogTemplateName(GetParam()).c_str(), field, c.precision(), c.recall(), c.extracted, c.truth,
                c.correct, held.size());
    EXPECT_GE(c.precision(), 0.99) << field;
    EXPECT_GE(c.recall(), 0.98) << field;
  }
}

// A list cluster's rule checked on a single page stays a candidate,
// however well it did there.
TEST_P(FeedListsTest, AListClusterCheckedOnOnePageIsNotAccepted) {
  demo::BlogSiteOptions options;
  options.templ = GetParam();
  const absl::StatusOr<demo::BlogSite> blog = demo::GenerateBlogSite(options);
  ASSERT_TRUE(blog.ok()) << blog.status();
  AddSite(*blog, {});
  v1::AnnotateFromFeedRequest request;
  request.set_site("b");
  request.set_feed_xml(blog->feed_xml);
  request.set_feed_url(blog->feed_url);
  const absl::StatusOr<v1::AnnotateFromFeedResponse> annotated = learning_->AnnotateFromFeed(request);
  ASSERT_TRUE(annotated.ok()) << annotated.status();
  std::map<std::string, int> list_pages;  // cluster -> annotated list pages
  for (const v1::FeedPageAnnotations& p : annotated->pages()) {
    if (p.kind() == "list" && !p.cluster_id().empty() && p.annotations_size() > 0) ++list_pages[p.cluster_id()];
  }
  ASSERT_FALSE(list_pages.empty());
  const auto biggest = std::max_element(list_pages.begin(), list_pages.end(),
                                        [](const auto& a, const auto& b) { return a.second < b.second; });
  ASSERT_GE(biggest->second, 2);
  request.set_learn(true);
  request.set_learn_pages(static_cast<uint32_t>(biggest->second - 1));  // one page left to check
  const absl::StatusOr<v1::AnnotateFromFeedResponse> r = learning_->AnnotateFromFeed(request);
  ASSERT_TRUE(r.ok()) << r.status();
  for (const v1::FeedClusterLearn& c : r->clusters()) {
    if (c.cluster_id() != biggest->first) continue;
    ASSERT_EQ(c.checked_on_size(), 1) << c.reason();
    EXPECT_NE(c.outcome(), v1::FeedClusterLearn::ACCEPTED) << c.reason();
    bool failed = false;  // a check that failed keeps it a candidate anyway
    for (const v1::FeedClusterLearn::AttributeCheck& a : c.checks()) failed |= a.reproduced() < a.pages();
    if (!failed) EXPECT_NE(c.reason().find("at least 2 pages"), std::string::npos) << c.reason();
  }
}

INSTANTIATE_TEST_SUITE_P(Templates, FeedListsTest,
                         ::testing::Values(demo::BlogTemplate::kWordPress, demo::BlogTemplate::kBlogger,
                                           demo::BlogTemplate::kMovableType, demo::BlogTemplate::kTable),
                         [](const auto& info) { return demo::BlogTemplateName(info.param); });

}  // namespace
}  // namespace vertex::workflow
