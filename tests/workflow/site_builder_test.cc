// A site's page builder (SiteSettings.page_builder, common/site/
// site_builder.h) through the LearningEngine and ExtractionEngine: stored
// explicitly (the request's, else the engine's default), kept by later
// requests, refused when it would change under a site's pages, UNSPECIFIED
// read as Gumbo; and a site learnt and extracted with each builder on pages
// the two builders shape differently (a <table> without <tbody>).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/monitor/monitor_engine.h"
#include "common/site/site_builder.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/table_site.h"

namespace vertex::workflow {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using test_support::kTablePages;
using test_support::Libxml2Available;
using test_support::MakeTableSite;
using test_support::TableSite;

size_t CountTbody(html::PageBuilder builder, const std::string& bytes) {
  html::ParseOptions o;
  o.builder = builder;
  html::Parser parser(o);
  absl::StatusOr<html::Page> page = parser.Parse(bytes, "http://tables.example/");
  EXPECT_TRUE(page.ok()) << page.status();
  if (!page.ok()) return 0;
  absl::StatusOr<html::XPath> xpath = html::XPath::Compile("//tbody");
  EXPECT_TRUE(xpath.ok()) << xpath.status();
  if (!xpath.ok()) return 0;
  absl::StatusOr<std::vector<html::Node>> nodes = xpath->Select(*page);
  EXPECT_TRUE(nodes.ok()) << nodes.status();
  return nodes.ok() ? nodes->size() : 0;
}

// An engine pair over an in-memory store.
class SiteBuilderTest : public ::testing::Test {
 protected:
  SiteBuilderTest() { Reset({}); }

  void Reset(LearningEngineOptions options) {
    learning_.reset();
    extraction_.reset();
    store_ = store::NewInMemoryStore();
    extraction_ = std::make_unique<ExtractionEngine>(store_.get(), ExtractionEngineOptions{});
    learning_ = std::make_unique<LearningEngine>(store_.get(), std::move(options), [this](const std::string&) {
      ASSERT_TRUE(extraction_->Refresh().ok());
    });
  }

  v1::RegisterSiteRequest Register(const std::string& site, v1::PageBuilder builder) const {
    v1::RegisterSiteRequest r;
    r.set_site(site);
    *r.mutable_schema() = site_.schema_proto;
    if (builder != v1::PAGE_BUILDER_UNSPECIFIED) r.mutable_settings()->set_page_builder(builder);
    return r;
  }

  v1::AddSamplePagesRequest Add(const std::string& site, v1::PageBuilder builder) const {
    v1::AddSamplePagesRequest r;
    r.set_site(site);
    for (const ClientPage& p : site_.pages) {
      v1::Page* page = r.add_pages();
      page->set_url(p.url);
      page->set_html(p.bytes);
    }
    if (builder != v1::PAGE_BUILDER_UNSPECIFIED) r.mutable_settings()->set_page_builder(builder);
    return r;
  }

  v1::PageBuilder Stored(const std::string& site) const {
    absl::StatusOr<v1::SiteRecord> record = store_->GetSite(site);
    EXPECT_TRUE(record.ok()) << record.status();
    return record.ok() ? record->settings().page_builder() : v1::PAGE_BUILDER_UNSPECIFIED;
  }

  const TableSite site_ = MakeTableSite();
  std::unique_ptr<store::RuleStore> store_;
  std::unique_ptr<ExtractionEngine> extraction_;
  std::unique_ptr<LearningEngine> learning_;
};

TEST(SiteBuilder, UnspecifiedIsGumboAndTheProtoRoundTrips) {
  v1::SiteRecord old;  // a site stored before the field
  EXPECT_EQ(site::BuilderOfSite(old), html::PageBuilder::kGumbo);
  html::ParseOptions engine;
  engine.builder = html::PageBuilder::kLibxml2;
  engine.max_depth = 77;
  const html::ParseOptions parse = site::SiteParseOptions(engine, old);
  EXPECT_EQ(parse.builder, html::PageBuilder::kGumbo);
  EXPECT_EQ(parse.max_depth, 77);
  for (html::PageBuilder b : {html::PageBuilder::kGumbo, html::PageBuilder::kLibxml2}) {
    EXPECT_NE(site::BuilderToProto(b), v1::PAGE_BUILDER_UNSPECIFIED);
    EXPECT_EQ(site::BuilderFromProto(site::BuilderToProto(b)), b);
    v1::SiteRecord r;
    r.mutable_settings()->set_page_builder(site::BuilderToProto(b));
    EXPECT_EQ(site::SiteParseOptions(engine, r).builder, b);
  }
  EXPECT_FALSE(site::BuilderFromProto(v1::PAGE_BUILDER_UNSPECIFIED).has_value());
  EXPECT_FALSE(site::BuilderFromProto(static_cast<v1::PageBuilder>(9)).has_value());
}

TEST(SiteBuilder, ResolveTable) {
  using html::PageBuilder;
  v1::SiteRecord gumbo_site;
  gumbo_site.mutable_settings()->set_page_builder(v1::PAGE_BUILDER_GUMBO);
  v1::SiteRecord old_site;  // UNSPECIFIED: Gumbo
  struct Case {
    const char* name;
    const v1::SiteRecord* stored;
    bool has_content;
    v1::PageBuilder requested;
    PageBuilder server_default;
    bool ok;
    PageBuilder want;
  };
  const std::vector<Case> cases = {
      {"new, none asked: the default", nullptr, false, v1::PAGE_BUILDER_UNSPECIFIED, PageBuilder::kLibxml2, true,
       PageBuilder::kLibxml2},
      {"new, asked", nullptr, false, v1::PAGE_BUILDER_LIBXML2, PageBuilder::kGumbo, true, PageBuilder::kLibxml2},
      {"stored, none asked: kept whatever the default", &gumbo_site, true, v1::PAGE_BUILDER_UNSPECIFIED,
       PageBuilder::kLibxml2, true, PageBuilder::kGumbo},
      {"stored, same asked", &gumbo_site, true, v1::PAGE_BUILDER_GUMBO, PageBuilder::kLibxml2, true,
       PageBuilder::kGumbo},
      {"stored without content may change", &gumbo_site, false, v1::PAGE_BUILDER_LIBXML2, PageBuilder::kGumbo, true,
       PageBuilder::kLibxml2},
      {"stored with content may not", &gumbo_site, true, v1::PAGE_BUILDER_LIBXML2, PageBuilder::kGumbo, false,
       PageBuilder::kGumbo},
      {"old site is gumbo", &old_site, true, v1::PAGE_BUILDER_GUMBO, PageBuilder::kLibxml2, true,
       PageBuilder::kGumbo},
      {"old site refuses libxml2", &old_site, true, v1::PAGE_BUILDER_LIBXML2, PageBuilder::kLibxml2, false,
       PageBuilder::kGumbo},
  };
  for (const Case& c : cases) {
    absl::StatusOr<PageBuilder> got =
        site::ResolveSiteBuilder("shop", c.stored, c.has_content, c.requested, c.server_default);
    EXPECT_EQ(got.ok(), c.ok) << c.name << ": " << got.status();
    if (got.ok()) EXPECT_EQ(*got, c.want) << c.name;
    if (!got.ok()) {
      EXPECT_EQ(got.status().code(), absl::StatusCode::kFailedPrecondition) << c.name;
      for (const char* part : {"\"shop\"", "gumbo", "libxml2", "delete the site", "another site id"}) {
        EXPECT_THAT(got.status().message(), HasSubstr(part)) << c.name;
      }
    }
  }
}

TEST_F(SiteBuilderTest, ANewSiteStoresTheEngineDefaultExplicitly) {
  // The default is libxml2's builder.
  EXPECT_EQ(html::ParseOptions{}.builder, html::PageBuilder::kLibxml2);
  absl::StatusOr<v1::RegisterSiteResponse> r = learning_->RegisterSite(Register("a", v1::PAGE_BUILDER_UNSPECIFIED));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->site().settings().page_builder(), v1::PAGE_BUILDER_LIBXML2);
  EXPECT_EQ(Stored("a"), v1::PAGE_BUILDER_LIBXML2);
  // A builder alone is no clustering setting: the default threshold still
  // applies (settings as before the field).
  EXPECT_EQ(r->site().settings().prune_threshold(), 0u);
  // An engine whose default is Gumbo (a server's --page-builder gumbo).
  LearningEngineOptions options;
  options.cluster.parse.builder = html::PageBuilder::kGumbo;
  Reset(options);
  r = learning_->RegisterSite(Register("b", v1::PAGE_BUILDER_UNSPECIFIED));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->site().settings().page_builder(), v1::PAGE_BUILDER_GUMBO);
  EXPECT_EQ(Stored("b"), v1::PAGE_BUILDER_GUMBO);
}

TEST_F(SiteBuilderTest, TheStoredBuilderIsKeptAndRefusedToChangeUnderPages) {
  ASSERT_TRUE(learning_->RegisterSite(Register("t", v1::PAGE_BUILDER_LIBXML2)).ok());
  EXPECT_EQ(Stored("t"), v1::PAGE_BUILDER_LIBXML2);
  // No pages yet: the builder may still change.
  ASSERT_TRUE(learning_->RegisterSite(Register("t", v1::PAGE_BUILDER_GUMBO)).ok());
  EXPECT_EQ(Stored("t"), v1::PAGE_BUILDER_GUMBO);
  // Clustering settings sent later keep the builder.
  v1::AddSamplePagesRequest add = Add("t", v1::PAGE_BUILDER_UNSPECIFIED);
  add.mutable_settings()->set_prune_threshold(1);
  absl::StatusOr<v1::AddSamplePagesResponse> added = learning_->AddSamplePages(add);
  ASSERT_TRUE(added.ok()) << added.status();
  EXPECT_EQ(added->settings().page_builder(), v1::PAGE_BUILDER_GUMBO);
  EXPECT_EQ(Stored("t"), v1::PAGE_BUILDER_GUMBO);
  // A request naming the builder alone keeps the clustering settings.
  ASSERT_TRUE(learning_->RegisterSite(Register("t", v1::PAGE_BUILDER_GUMBO)).ok());
  EXPECT_EQ(store_->GetSite("t")->settings().prune_threshold(), 1u);
  // Another builder, now that the site has pages: refused, nothing stored.
  const int64_t updated = store_->GetSite("t")->updated_unix_ms();
  for (const absl::Status& s : {learning_->RegisterSite(Register("t", v1::PAGE_BUILDER_LIBXML2)).status(),
                                learning_->AddSamplePages(Add("t", v1::PAGE_BUILDER_LIBXML2)).status()}) {
    EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
    EXPECT_THAT(s.message(), HasSubstr("site \"t\" is built with page builder gumbo"));
    EXPECT_THAT(s.message(), HasSubstr("asks for libxml2"));
    EXPECT_THAT(s.message(), HasSubstr("delete the site"));
  }
  EXPECT_EQ(Stored("t"), v1::PAGE_BUILDER_GUMBO);
  EXPECT_EQ(store_->GetSite("t")->updated_unix_ms(), updated);
  EXPECT_EQ(store_->GetSampleState("t")->urls_size(), kTablePages);
  // A server whose default changed does not change the site.
  LearningEngineOptions libxml2_default;
  libxml2_default.cluster.parse.builder = html::PageBuilder::kLibxml2;
  LearningEngine other(store_.get(), libxml2_default);
  ASSERT_TRUE(other.RegisterSite(Register("t", v1::PAGE_BUILDER_UNSPECIFIED)).ok());
  ASSERT_TRUE(other.AddSamplePages(Add("t", v1::PAGE_BUILDER_UNSPECIFIED)).ok());
  EXPECT_EQ(Stored("t"), v1::PAGE_BUILDER_GUMBO);
  // Deleted, the site may come back with the other builder.
  v1::DeleteSiteRequest del;
  del.set_site("t");
  ASSERT_TRUE(learning_->DeleteSite(del).ok());
  ASSERT_TRUE(learning_->RegisterSite(Register("t", v1::PAGE_BUILDER_LIBXML2)).ok());
  EXPECT_EQ(Stored("t"), v1::PAGE_BUILDER_LIBXML2);
}

TEST_F(SiteBuilderTest, AnUnknownBuilderIsInvalidArgument) {
  v1::RegisterSiteRequest r = Register("u", static_cast<v1::PageBuilder>(7));
  const absl::Status s = learning_->RegisterSite(r).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("settings.page_builder"));
  EXPECT_FALSE(store_->GetSite("u").ok());
}

// A site stored before the field (UNSPECIFIED) learnt its rules with Gumbo:
// under the libxml2 default it stays Gumbo, through requests that name no
// builder (`vertexctl site register|add-pages` without --page-builder)
// before and after it has pages; naming libxml2 once it has pages fails.
TEST_F(SiteBuilderTest, AnOldSiteWithoutBuilderStaysGumboUnderTheLibxml2Default) {
  ASSERT_EQ(LearningEngineOptions{}.cluster.parse.builder, html::PageBuilder::kLibxml2);
  v1::SiteRecord old;
  old.set_site("old");
  *old.mutable_schema() = site_.schema_proto;
  ASSERT_TRUE(store_->PutSite(old).ok());
  absl::StatusOr<v1::RegisterSiteResponse> registered =
      learning_->RegisterSite(Register("old", v1::PAGE_BUILDER_UNSPECIFIED));
  ASSERT_TRUE(registered.ok()) << registered.status();
  EXPECT_FALSE(registered->created());
  EXPECT_EQ(registered->site().settings().page_builder(), v1::PAGE_BUILDER_GUMBO);
  absl::StatusOr<v1::AddSamplePagesResponse> added = learning_->AddSamplePages(Add("old", v1::PAGE_BUILDER_UNSPECIFIED));
  ASSERT_TRUE(added.ok()) << added.status();
  EXPECT_EQ(added->settings().page_builder(), v1::PAGE_BUILDER_GUMBO);
  EXPECT_EQ(Stored("old"), v1::PAGE_BUILDER_GUMBO);
  // The same site as an old store has it: pages, no builder.
  v1::SiteRecord with_pages = store_->GetSite("old").value();
  with_pages.mutable_settings()->clear_page_builder();
  ASSERT_TRUE(store_->PutSite(with_pages).ok());
  ASSERT_EQ(Stored("old"), v1::PAGE_BUILDER_UNSPECIFIED);
  registered = learning_->RegisterSite(Register("old", v1::PAGE_BUILDER_UNSPECIFIED));
  ASSERT_TRUE(registered.ok()) << registered.status();
  EXPECT_EQ(registered->site().settings().page_builder(), v1::PAGE_BUILDER_GUMBO);
  EXPECT_EQ(Stored("old"), v1::PAGE_BUILDER_GUMBO);
  EXPECT_EQ(store_->GetSampleState("old")->urls_size(), kTablePages);
  const absl::Status refused = learning_->RegisterSite(Register("old", v1::PAGE_BUILDER_LIBXML2)).status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_THAT(refused.message(), HasSubstr("site \"old\" is built with page builder gumbo"));
  EXPECT_EQ(Stored("old"), v1::PAGE_BUILDER_GUMBO);
}

// A site registered with Gumbo explicitly keeps it under the libxml2
// default when later requests name no builder, with or without pages.
TEST_F(SiteBuilderTest, AnExplicitGumboSiteKeepsItWhenRequestsNameNoBuilder) {
  ASSERT_TRUE(learning_->RegisterSite(Register("g", v1::PAGE_BUILDER_GUMBO)).ok());
  absl::StatusOr<v1::RegisterSiteResponse> again = learning_->RegisterSite(Register("g", v1::PAGE_BUILDER_UNSPECIFIED));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->site().settings().page_builder(), v1::PAGE_BUILDER_GUMBO);
  absl::StatusOr<v1::AddSamplePagesResponse> added = learning_->AddSamplePages(Add("g", v1::PAGE_BUILDER_UNSPECIFIED));
  ASSERT_TRUE(added.ok()) << added.status();
  EXPECT_EQ(added->settings().page_builder(), v1::PAGE_BUILDER_GUMBO);
  again = learning_->RegisterSite(Register("g", v1::PAGE_BUILDER_UNSPECIFIED));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->site().settings().page_builder(), v1::PAGE_BUILDER_GUMBO);
  EXPECT_EQ(Stored("g"), v1::PAGE_BUILDER_GUMBO);
  // Its pages were clustered with Gumbo: its signature is Gumbo's, not the
  // signature of the same pages under libxml2.
  ASSERT_TRUE(learning_->RegisterSite(Register("x", v1::PAGE_BUILDER_UNSPECIFIED)).ok());
  absl::StatusOr<v1::AddSamplePagesResponse> libxml2 = learning_->AddSamplePages(Add("x", v1::PAGE_BUILDER_UNSPECIFIED));
  ASSERT_TRUE(libxml2.ok()) << libxml2.status();
  EXPECT_EQ(libxml2->settings().page_builder(), v1::PAGE_BUILDER_LIBXML2);
  ASSERT_EQ(added->clusters_size(), 1);
  ASSERT_EQ(libxml2->clusters_size(), 1);
  EXPECT_NE(added->clusters(0).signature(), libxml2->clusters(0).signature());
}

// Learns the table site registered with `builder` through the APIs (one
// page annotated per cluster) and checks every page's record; the
// cluster's signature in `signature`.
void LearnAndExtract(LearningEngine& learning, ExtractionEngine& extraction, store::RuleStore& store,
                     const TableSite& site, const std::string& name, v1::PageBuilder builder,
                     std::string* signature) {
  SCOPED_TRACE(name);
  ApiRunOptions options;
  options.max_pages = 1;
  options.settings.emplace();
  options.settings->set_page_builder(builder);
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromProto(site.schema_proto);
  ASSERT_TRUE(schema.ok()) << schema.status();
  absl::StatusOr<ApiRunReport> report =
      RunSiteThroughApi(learning, extraction, name, *schema, site.pages, site.truth, options);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->sample.clusters_size(), 1);
  *signature = report->sample.clusters(0).signature();
  EXPECT_EQ(report->sample.settings().page_builder(), builder);
  ASSERT_EQ(report->records.size(), site.pages.size());
  for (size_t i = 0; i < site.pages.size(); ++i) {
    const v1::ExtractedRecord& record = report->records[i].record();
    EXPECT_EQ(v1::ExtractedRecord::Status_Name(record.status()), "OK") << i;
    // The page's signature was computed with the builder clustering used.
    EXPECT_EQ(record.matched_by(), "signature") << i;
    for (const v1::ExtractedAttribute& a : record.attributes()) {
      const std::string id = absl::StrCat("p", i);
      ASSERT_EQ(a.values_size(), 1) << i << " " << a.attribute();
      EXPECT_EQ(a.values(0), site.truth.pages.at(id).at(a.attribute()).at(0)) << i;
    }
    EXPECT_EQ(record.attributes_size(), 2) << i;
  }
  absl::StatusOr<v1::Rule> rule =
      store.GetRule(name, report->sample.clusters(0).cluster_id(), store::kCurrentVersion);
  ASSERT_TRUE(rule.ok()) << rule.status();
  for (const v1::AttributeRule& a : rule->attributes()) {
    if (builder == v1::PAGE_BUILDER_LIBXML2) EXPECT_THAT(a.xpath(), Not(HasSubstr("tbody"))) << a.attribute();
  }
}

TEST_F(SiteBuilderTest, EachBuilderLearnsAndExtractsWithItsOwnTree) {
  if (!Libxml2Available()) GTEST_SKIP() << "the libxml2 page builder is not implemented in this build";
  // The two builders shape the page differently.
  EXPECT_EQ(CountTbody(html::PageBuilder::kGumbo, site_.pages[0].bytes), 1u);
  EXPECT_EQ(CountTbody(html::PageBuilder::kLibxml2, site_.pages[0].bytes), 0u);
  std::string libxml2_signature, gumbo_signature;
  LearnAndExtract(*learning_, *extraction_, *store_, site_, "tables-libxml2", v1::PAGE_BUILDER_LIBXML2,
                  &libxml2_signature);
  LearnAndExtract(*learning_, *extraction_, *store_, site_, "tables-gumbo", v1::PAGE_BUILDER_GUMBO, &gumbo_signature);
  // The tag sequences differ (tbody), so do the signatures: a page built
  // with the other builder would not be covered (matched_by "nearest").
  EXPECT_NE(libxml2_signature, gumbo_signature);
  // Monitoring parses the pages with each site's builder: every page is
  // covered by its cluster's signature.
  monitor::MonitorEngine monitoring(store_.get(), {});
  for (const char* name : {"tables-libxml2", "tables-gumbo"}) {
    v1::MonitorRequest request;
    request.set_site(name);
    request.set_dry_run(true);
    for (const ClientPage& p : site_.pages) {
      v1::Page* page = request.add_pages();
      page->set_url(p.url);
      page->set_html(p.bytes);
    }
    absl::StatusOr<v1::MonitorResponse> m = monitoring.Monitor(request);
    ASSERT_TRUE(m.ok()) << m.status();
    ASSERT_EQ(m->clusters_size(), 1) << name;
    EXPECT_EQ(m->clusters(0).pages(), static_cast<uint32_t>(kTablePages)) << name;
    EXPECT_EQ(m->clusters(0).not_covered(), 0u) << name;
    EXPECT_EQ(v1::ClusterVerdict::Verdict_Name(m->clusters(0).verdict()), "OK") << name;
  }
  // Relearning the libxml2 site on the same pages clusters them with
  // libxml2 and reuses its rule.
  v1::RelearnRequest relearn;
  relearn.set_site("tables-libxml2");
  for (const ClientPage& p : site_.pages) {
    v1::Page* page = relearn.add_pages();
    page->set_url(p.url);
    page->set_html(p.bytes);
  }
  absl::StatusOr<v1::RelearnResponse> relearnt = learning_->Relearn(relearn);
  ASSERT_TRUE(relearnt.ok()) << relearnt.status();
  EXPECT_EQ(relearnt->reused(), 1u);
  EXPECT_EQ(relearnt->queued(), 0u);
  EXPECT_EQ(relearnt->unassigned_pages(), 0u);
  ASSERT_EQ(relearnt->clusters_size(), 1);
  // The same signature as before: the cluster is matched as such (built
  // with Gumbo, the fresh pages would form a new signature).
  EXPECT_EQ(relearnt->clusters(0).match(), "cluster") << relearnt->clusters(0).ShortDebugString();
  // Extract with no site named routes by URL; both sites match these URLs,
  // and the first (tables-gumbo) parses with its own builder.
  v1::ExtractRequest request;
  request.set_url(site_.pages[3].url);
  request.set_html(site_.pages[3].bytes);
  absl::StatusOr<v1::ExtractResponse> r = extraction_->Extract(request);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->record().site(), "tables-gumbo");
  EXPECT_EQ(r->record().matched_by(), "signature");
}

}  // namespace
}  // namespace vertex::workflow
