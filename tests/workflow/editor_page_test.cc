// ListSites and GetEditorPage (the editor's page, issue 16) over an
// in-memory store, and Learn with clicked annotations: the page's data-vx
// XPaths select their nodes in the server's tree, a click in the <h1> wins
// over a review link holding the same title (the issue's case), the rule's
// nodes come back for highlighting, and every documented error code.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/schema/schema.h"
#include "common/store/rule_store.h"
#include "common/workflow/learning_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "re2/re2.h"

namespace vertex::workflow {
namespace {

using ::testing::HasSubstr;

constexpr char kSchemaJson[] = R"({"vertical": "shop", "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "author"}]})";

const std::vector<std::string> kTitles = {"Silent River", "Crimson Lantern", "Hidden Orchard", "Golden Compass",
                                          "Broken Mountain", "Quiet Harbor", "Amber Fjord", "Onyx Prairie"};

std::string Url(size_t i) { return absl::StrCat("http://shop.test/p/", i); }

// The review link quotes the title on pages 0 and 1 only.
std::string LinkText(size_t i) { return i < 2 ? kTitles[i] : "Reviews of " + kTitles[i]; }

std::string PageHtml(size_t i) {
  return absl::StrCat("<html><head><script>track()</script></head><body onload=\"go()\"><aside><a class=\"rev\" "
                      "href=\"/r\">", LinkText(i), "</a></aside><div class=\"main\"><table><tr><td><h1>", kTitles[i],
                      "</h1></td></tr></table><p>by Author ", i, ", 2019</p></div></body></html>");
}

class EditorPageTest : public ::testing::Test {
 protected:
  explicit EditorPageTest(LearningEngineOptions options = {})
      : store_(store::NewInMemoryStore()), learning_(store_.get(), std::move(options)) {}

  void AddSite(const std::string& site, size_t pages = kTitles.size()) {
    v1::RegisterSiteRequest r;
    r.set_site(site);
    *r.mutable_schema() = schema::CompiledSchema::FromJson(kSchemaJson, "shop").value().proto();
    ASSERT_TRUE(learning_.RegisterSite(r).ok());
    v1::AddSamplePagesRequest add;
    add.set_site(site);
    for (size_t i = 0; i < pages; ++i) {
      v1::Page* p = add.add_pages();
      p->set_url(Url(i));
      p->set_html(PageHtml(i));
    }
    absl::StatusOr<v1::AddSamplePagesResponse> added = learning_.AddSamplePages(add);
    ASSERT_TRUE(added.ok()) << added.status();
    ASSERT_EQ(added->clusters_size(), 1);
    cluster_ = added->clusters(0).cluster_id();
  }

  absl::StatusOr<v1::GetEditorPageResponse> Get(const std::string& site, const std::string& url, int64_t version = 0) {
    v1::GetEditorPageRequest r;
    r.set_site(site);
    r.set_url(url);
    r.set_version(version);
    return learning_.GetEditorPage(r);
  }

  // The data-vx of the first <tag> of the rendered page.
  static std::string DataVxOf(const std::string& html, const std::string& tag) {
    std::string xpath;
    EXPECT_TRUE(RE2::PartialMatch(html, "<" + tag + R"re( data-vx="([^"]+)")re", &xpath)) << tag;
    return xpath;
  }

  std::unique_ptr<store::RuleStore> store_;
  LearningEngine learning_;
  std::string cluster_;
};

TEST_F(EditorPageTest, ListSitesShowsEachSiteWithItsSchemaAndClusters) {
  absl::StatusOr<v1::ListSitesResponse> none = learning_.ListSites({});
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_EQ(none->sites_size(), 0);
  AddSite("shop");
  AddSite("books", 4);
  v1::RegisterSiteRequest bare;  // registered, no page yet
  bare.set_site("empty");
  *bare.mutable_schema() = schema::CompiledSchema::FromJson(kSchemaJson, "shop").value().proto();
  ASSERT_TRUE(learning_.RegisterSite(bare).ok());
  absl::StatusOr<v1::ListSitesResponse> sites = learning_.ListSites({});
  ASSERT_TRUE(sites.ok()) << sites.status();
  ASSERT_EQ(sites->sites_size(), 3);
  EXPECT_EQ(sites->sites(0).site(), "books");
  EXPECT_EQ(sites->sites(1).site(), "empty");
  EXPECT_EQ(sites->sites(1).sample_pages(), 0u);
  EXPECT_EQ(sites->sites(1).clusters_size(), 0);
  const v1::SiteOverview& shop = sites->sites(2);
  EXPECT_EQ(shop.site(), "shop");
  ASSERT_EQ(shop.schema().attributes_size(), 2);
  EXPECT_EQ(shop.schema().attributes(0).name(), "title");
  EXPECT_EQ(shop.sample_pages(), kTitles.size());
  ASSERT_EQ(shop.clusters_size(), 1);
  EXPECT_EQ(shop.clusters(0).pages(), kTitles.size());
  EXPECT_EQ(shop.open_clusters(), 1u);
  EXPECT_EQ(shop.done_clusters(), 0u);
}

// Every data-vx selects exactly one node of the page parsed as the site
// parses it, and that node has the rendered element's name.
TEST_F(EditorPageTest, EveryDataVxSelectsItsNodeInTheServersTree) {
  AddSite("shop");
  absl::StatusOr<v1::GetEditorPageResponse> page = Get("shop", Url(3));
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->cluster_id(), cluster_);
  EXPECT_EQ(page->how(), "member");
  EXPECT_EQ(page->page_builder(), "libxml2");
  EXPECT_EQ(page->base_url(), Url(3));
  EXPECT_EQ(page->rule_version(), 0);
  EXPECT_EQ(page->nodes_size(), 0);
  EXPECT_THAT(page->html(), Not(HasSubstr("track()")));
  EXPECT_THAT(page->html(), Not(HasSubstr("onload")));
  html::Parser parser;
  const html::Page parsed = parser.Parse(PageHtml(3), Url(3)).value();
  re2::StringPiece in(page->html());
  std::string tag, xpath;
  size_t seen = 0;
  while (RE2::FindAndConsume(&in, R"re(<([a-z0-9]+) data-vx="([^"]+)")re", &tag, &xpath)) {
    absl::StatusOr<std::vector<html::Node>> nodes = html::XPath::Compile(xpath)->Select(parsed);
    ASSERT_TRUE(nodes.ok()) << xpath;
    ASSERT_EQ(nodes->size(), 1u) << xpath;
    EXPECT_EQ(nodes->front().tag(), tag) << xpath;
    ++seen;
  }
  EXPECT_EQ(seen, page->elements());
  EXPECT_GE(seen, 10u);
}

// The issue's case through Learn: annotated by value alone, the title of the
// first pages is ambiguous with the review link; annotated with the <h1>'s
// data-vx, the rule reads the <h1> on every page, and GetEditorPage gives
// the nodes to highlight and the preview.
TEST_F(EditorPageTest, ClickedOccurrenceIsLearntAndShown) {
  AddSite("shop");
  v1::LearnRequest learn;
  learn.set_site("shop");
  learn.set_cluster_id(cluster_);
  std::string h1;
  for (size_t i = 0; i < 2; ++i) {
    absl::StatusOr<v1::GetEditorPageResponse> page = Get("shop", Url(i));
    ASSERT_TRUE(page.ok()) << page.status();
    h1 = DataVxOf(page->html(), "h1");
    v1::Annotation* a = learn.add_annotations();
    a->set_url(Url(i));
    a->set_attribute("title");
    a->set_value(kTitles[i]);
    a->set_xpath(h1);
    v1::Annotation* author = learn.add_annotations();
    author->set_url(Url(i));
    author->set_attribute("author");
    author->set_value(absl::StrCat("Author ", i));
    author->set_xpath(DataVxOf(page->html(), "p"));
  }
  absl::StatusOr<v1::LearnResponse> learnt = learning_.Learn(learn);
  ASSERT_TRUE(learnt.ok()) << learnt.status();
  ASSERT_GT(learnt->version(), 0);
  for (const v1::AttributeDiagnostic& d : learnt->diagnostics()) EXPECT_TRUE(d.learnt()) << d.message();

  absl::StatusOr<v1::GetEditorPageResponse> page = Get("shop", Url(5));
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->rule_version(), learnt->version());
  ASSERT_EQ(page->record().attributes_size(), 2);
  EXPECT_THAT(page->record().attributes(0).values(), ::testing::ElementsAre(kTitles[5]));
  EXPECT_THAT(page->record().attributes(1).values(), ::testing::ElementsAre("Author 5"));
  ASSERT_EQ(page->nodes_size(), 2);
  EXPECT_EQ(page->nodes(0).attribute(), "title");
  EXPECT_EQ(page->nodes(0).value(), kTitles[5]);
  EXPECT_EQ(page->nodes(0).element_xpath(), DataVxOf(page->html(), "h1"));
  EXPECT_THAT(page->html(), HasSubstr("data-vx=\"" + page->nodes(1).element_xpath() + "\""));
  // The preview: the other pages, titles from the <h1>, not the link.
  ASSERT_EQ(page->preview_size(), static_cast<int>(kTitles.size()) - 1);
  for (const v1::ExtractedRecord& r : page->preview()) {
    const size_t i = static_cast<size_t>(std::stoi(r.url().substr(r.url().rfind('/') + 1)));
    EXPECT_THAT(r.attributes(0).values(), ::testing::ElementsAre(kTitles[i])) << r.url();
  }
  // The annotated page shows its stored annotations.
  absl::StatusOr<v1::GetEditorPageResponse> annotated = Get("shop", Url(0));
  ASSERT_TRUE(annotated.ok());
  ASSERT_EQ(annotated->annotations_size(), 2);
  EXPECT_EQ(annotated->annotations(0).xpath(), h1);
  // An older version can be shown; one not stored is NOT_FOUND.
  EXPECT_TRUE(Get("shop", Url(5), learnt->version()).ok());
  EXPECT_EQ(Get("shop", Url(5), learnt->version() + 5).status().code(), absl::StatusCode::kNotFound);
}

TEST_F(EditorPageTest, Errors) {
  AddSite("shop");
  EXPECT_EQ(Get("nosuch", Url(0)).status().code(), absl::StatusCode::kNotFound);
  absl::StatusOr<v1::GetEditorPageResponse> unknown = Get("shop", "http://shop.test/none");
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("http://shop.test/none"));
  EXPECT_EQ(Get("shop", "").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Get("", Url(0)).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Get("shop", Url(0), -1).status().code(), absl::StatusCode::kInvalidArgument);
  // No rule yet: asking for version 1 is NOT_FOUND.
  EXPECT_EQ(Get("shop", Url(0), 1).status().code(), absl::StatusCode::kNotFound);
}

class SmallEditorPageLimitTest : public EditorPageTest {
 protected:
  static LearningEngineOptions Small() {
    LearningEngineOptions o;
    o.editor_page_max_bytes = 4096;
    return o;
  }
  SmallEditorPageLimitTest() : EditorPageTest(Small()) {}
};

TEST_F(SmallEditorPageLimitTest, AHugePageIsRefusedNamingBothSizes) {
  AddSite("shop");
  v1::AddSamplePagesRequest add;
  add.set_site("shop");
  add.set_defer_clustering(true);
  v1::Page* p = add.add_pages();
  p->set_url("http://shop.test/huge");
  std::string html = "<html><body>";
  for (int i = 0; i < 2000; ++i) html += "<span>x</span>";
  p->set_html(html + "</body></html>");
  ASSERT_TRUE(learning_.AddSamplePages(add).ok());
  absl::StatusOr<v1::GetEditorPageResponse> huge = Get("shop", "http://shop.test/huge");
  EXPECT_EQ(huge.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(huge.status().message()), HasSubstr("over the limit of 4096 bytes"));
  EXPECT_TRUE(Get("shop", Url(0)).ok());  // an ordinary page still renders
}

}  // namespace
}  // namespace vertex::workflow
