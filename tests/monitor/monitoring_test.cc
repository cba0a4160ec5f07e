// Monitoring, relearning with rule reuse and automatic repair (Vertex IV-B,
// IV-C) on a synthetic site whose templates move through versions, served
// by a loopback HTTP server (fetched with libcurl) or supplied in requests:
//   v1, new content only           no alarm
//   v1 + ad block + extra section  no alarm, or an alarm answered by reuse
//                                  of every rule; records still right
//   v2, one template restyled      CHANGED for that cluster only; relearn
//                                  reuses the others, repairs its constant
//                                  attributes and queues the rest
//   server down / timeout / 500 / robots.txt disallow
//                                  UNREACHABLE with the reason, no template
//                                  alarm
// Each test starts from a copy of one store learnt on v1 by the simulated
// editor. The figures (alarms vs expected, reuse, repair) are printed as
// "[figures] ..." lines for the closing notes.
#include <unistd.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <set>

#include "absl/strings/str_join.h"
#include "common/demo/versioned_site.h"
#include "common/fetch/fetcher.h"
#include "common/monitor/monitor_engine.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/testing/http_server.h"

namespace vertex::monitor {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::HasSubstr;
using workflow::ApiRunReport;
using workflow::ClientPage;
using workflow::ExtractionEngine;
using workflow::ExtractionEngineOptions;
using workflow::FormatRunReport;
using workflow::LearningEngine;
using workflow::LearningEngineOptions;
using workflow::RunSiteThroughApi;

constexpr char kSite[] = "shop";
constexpr int kTemplates = 3;
constexpr int kPagesPerTemplate = 20;

struct Version {
  int epoch = 0;
  bool ads = false;
  bool optional_section = false;
  std::set<int> restyled;
};

// What the loopback server does.
enum class Mode { kServe, kError500, kHang, kRobotsDisallow };

struct ServerState {
  std::mutex mu;
  std::map<std::string, std::string> pages;  // path -> html
  Mode mode = Mode::kServe;
};

ServerState& State() {
  static ServerState* state = new ServerState;
  return *state;
}

test_support::HttpResponse Answer(const test_support::HttpRequest& request) {
  ServerState& s = State();
  std::lock_guard<std::mutex> lock(s.mu);
  test_support::HttpResponse r;
  if (request.path == "/robots.txt") {
    r.content_type = "text/plain";
    if (s.mode == Mode::kRobotsDisallow) {
      r.body = "User-agent: *\nDisallow: /\n";
    } else {
      r.status = 404;
    }
    return r;
  }
  if (s.mode == Mode::kError500) {
    r.status = 500;
    r.body = "internal error";
    return r;
  }
  if (s.mode == Mode::kHang) {
    r.hang = true;
    return r;
  }
  auto it = s.pages.find(request.path);
  if (it == s.pages.end()) {
    r.status = 404;
    return r;
  }
  r.body = it->second;
  r.gzip = true;
  return r;
}

std::string PathOf(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  return slash == std::string::npos ? "/" : url.substr(slash);
}

// "t<k>" of a versioned site URL.
int TemplateOf(const std::string& url) {
  const std::string path = PathOf(url);
  return path.size() > 2 && path[1] == 't' ? std::atoi(path.c_str() + 2) : -1;
}

v1::Schema SiteSchema() {
  v1::Schema schema;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(demo::VersionedSiteSchemaJson(), &schema).ok());
  return schema;
}

class MonitoringTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new test_support::HttpServer(Answer);
    ASSERT_TRUE(server_->Start().ok());
    host_ = "127.0.0.1:" + std::to_string(server_->port());
    learnt_dir_ = fs::temp_directory_path() / ("vertex_monitoring_test_" + std::to_string(getpid()));
    fs::remove_all(learnt_dir_);
    absl::StatusOr<std::unique_ptr<store::RuleStore>> store = store::OpenRocksDbStore(learnt_dir_ / "learnt");
    ASSERT_TRUE(store.ok()) << store.status();
    LearningEngine learning(store->get(), LearningEngineOptions());
    ExtractionEngine extraction(store->get(), ExtractionEngineOptions());
    const std::vector<demo::VersionedPage> pages = Generate(Version());
    std::vector<ClientPage> client;
    eval::GroundTruth truth;
    for (size_t i = 0; i < pages.size(); ++i) {
      const std::string id = "p" + std::to_string(i);
      client.push_back({id + ".htm", pages[i].url, pages[i].html});
      for (const auto& [attribute, values] : pages[i].truth) truth.pages[id][attribute] = values;
    }
    absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromProto(SiteSchema());
    ASSERT_TRUE(schema.ok()) << schema.status();
    absl::StatusOr<ApiRunReport> report = RunSiteThroughApi(learning, extraction, kSite, *schema, client, truth);
    ASSERT_TRUE(report.ok()) << report.status();
    ASSERT_EQ(report->clusters_with_rule, static_cast<size_t>(kTemplates));
    std::printf("[figures] v1 learnt: %zu clusters, %zu pages annotated\n%s", report->clusters_with_rule,
                report->pages_annotated, FormatRunReport(kSite, *schema, *report).c_str());
  }

  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
    fs::remove_all(learnt_dir_);
  }

  void SetUp() override {
    ASSERT_NE(server_, nullptr);
    store_.reset();
    dir_ = learnt_dir_ / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::copy(learnt_dir_ / "learnt", dir_, fs::copy_options::recursive);
    absl::StatusOr<std::unique_ptr<store::RuleStore>> store = store::OpenRocksDbStore(dir_);
    ASSERT_TRUE(store.ok()) << store.status();
    store_ = *std::move(store);
    Serve(Version(), Mode::kServe);
  }

  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  static std::vector<demo::VersionedPage> Generate(const Version& v) {
    demo::VersionedSiteOptions o;
    o.host = host_;
    o.templates = kTemplates;
    o.pages_per_template = kPagesPerTemplate;
    o.epoch = v.epoch;
    o.ads = v.ads;
    o.optional_section = v.optional_section;
    o.restyled = v.restyled;
    return demo::GenerateVersionedSite(o);
  }

  // The server answers with version `v` of the site, in `mode`.
  static void Serve(const Version& v, Mode mode) {
    std::map<std::string, std::string> pages;
    for (const demo::VersionedPage& p : Generate(v)) pages[PathOf(p.url)] = p.html;
    std::lock_guard<std::mutex> lock(State().mu);
    State().pages = std::move(pages);
    State().mode = mode;
  }

  static std::shared_ptr<fetch::Fetcher> Fetcher() {
    fetch::FetchOptions o;
    o.per_host_delay_ms = 0;
    o.connect_timeout_ms = 1000;
    o.total_timeout_ms = 200;
    return std::shared_ptr<fetch::Fetcher>(fetch::NewCurlFetcher(o));
  }

  // Pages of version `v` as a request carries them.
  static std::vector<v1::Page> Supplied(const Version& v) {
    std::vector<v1::Page> out;
    for (const demo::VersionedPage& p : Generate(v)) {
      v1::Page page;
      page.set_url(p.url);
      page.set_html(p.html);
      out.push_back(std::move(page));
    }
    return out;
  }

  v1::MonitorResponse Monitor(const std::vector<v1::Page>& pages = {}) {
    MonitorEngineOptions o;
    o.fetcher = Fetcher();
    store::RuleStore* store = store_.get();
    o.record = [store](const v1::MonitorRun& run) { return store->AppendMonitorRun(run, 1000); };
    MonitorEngine engine(store_.get(), o);
    v1::MonitorRequest request;
    request.set_site(kSite);
    for (const v1::Page& p : pages) *request.add_pages() = p;
    absl::StatusOr<v1::MonitorResponse> response = engine.Monitor(request);
    EXPECT_TRUE(response.ok()) << response.status();
    return response.value_or(v1::MonitorResponse());
  }

  std::unique_ptr<LearningEngine> Learning() {
    LearningEngineOptions o;
    o.fetcher = Fetcher();
    return std::make_unique<LearningEngine>(store_.get(), o);
  }

  v1::RelearnResponse Relearn(const std::vector<v1::Page>& pages = {}) {
    std::unique_ptr<LearningEngine> learning = Learning();
    v1::RelearnRequest request;
    request.set_site(kSite);
    for (const v1::Page& p : pages) *request.add_pages() = p;
    absl::StatusOr<v1::RelearnResponse> response = learning->Relearn(request);
    EXPECT_TRUE(response.ok()) << response.status();
    return response.value_or(v1::RelearnResponse());
  }

  // Template -> the verdicts of the clusters whose bellwethers are its pages.
  std::map<int, std::set<std::string>> VerdictsByTemplate(const v1::MonitorResponse& response) {
    std::map<int, std::set<std::string>> out;
    for (const v1::ClusterVerdict& c : response.clusters()) {
      std::set<int> templates;
      for (const v1::PageCheck& check : c.checks()) templates.insert(TemplateOf(check.url()));
      for (int t : templates) out[t].insert(v1::ClusterVerdict::Verdict_Name(c.verdict()));
    }
    return out;
  }

  // Share of `pages` whose extracted `attributes` equal the truth.
  double ShareCorrect(const std::vector<demo::VersionedPage>& pages, const std::vector<std::string>& attributes,
                      int only_template = -1) {
    ExtractionEngine extraction(store_.get(), ExtractionEngineOptions());
    size_t right = 0, all = 0;
    for (const demo::VersionedPage& p : pages) {
      if (only_template >= 0 && p.template_index != only_template) continue;
      v1::ExtractRequest request;
      request.set_site(kSite);
      request.set_url(p.url);
      request.set_html(p.html);
      absl::StatusOr<v1::ExtractResponse> r = extraction.Extract(request);
      ++all;
      if (!r.ok()) continue;
      bool ok = true;
      for (const std::string& a : attributes) {
        std::vector<std::string> got;
        for (const v1::ExtractedAttribute& x : r->record().attributes()) {
          if (x.attribute() == a) got.assign(x.values().begin(), x.values().end());
        }
        if (got != p.truth.at(a) && getenv("VERTEX_DUMP_RULES") != nullptr) {
          std::printf("mismatch %s %s: got [%s] want [%s]\n", p.url.c_str(), a.c_str(), absl::StrJoin(got, "|").c_str(),
                      absl::StrJoin(p.truth.at(a), "|").c_str());
        }
        ok = ok && got == p.truth.at(a);
      }
      right += ok;
    }
    return all == 0 ? 0 : static_cast<double>(right) / all;
  }

  static test_support::HttpServer* server_;
  static std::string host_;
  static fs::path learnt_dir_;
  fs::path dir_;
  std::unique_ptr<store::RuleStore> store_;
};

test_support::HttpServer* MonitoringTest::server_ = nullptr;
std::string MonitoringTest::host_;
fs::path MonitoringTest::learnt_dir_;

const std::vector<std::string> kConstants = {"title", "brand", "sku"};
const std::vector<std::string> kAll = {"title", "brand", "sku", "price", "availability", "rating", "reviews_count"};

TEST_F(MonitoringTest, LearningChoosesBellwethersWithGoldenValues) {
  absl::StatusOr<std::vector<v1::ClusterRecord>> clusters = store_->ClustersOfSite(kSite);
  ASSERT_TRUE(clusters.ok());
  size_t with_rule = 0;
  for (const v1::ClusterRecord& c : *clusters) {
    if (c.current_version() == 0) continue;
    ++with_rule;
    EXPECT_EQ(c.bellwether_urls_size(), 15) << c.cluster_id();
    ASSERT_EQ(c.golden_size(), c.bellwether_urls_size());
    std::set<std::string> urls(c.bellwether_urls().begin(), c.bellwether_urls().end());
    EXPECT_EQ(urls.size(), static_cast<size_t>(c.bellwether_urls_size())) << "distinct";
    // The annotated pages come first; every bellwether has a snapshot.
    const v1::Rule rule = store_->GetRule(kSite, c.cluster_id(), store::kCurrentVersion).value();
    for (int i = 0; i < rule.annotated_urls_size(); ++i) EXPECT_EQ(c.bellwether_urls(i), rule.annotated_urls(i));
    std::set<std::string> snapshotted;
    const std::vector<v1::PageSnapshot> snapshots =
        store_->Snapshots(kSite, c.cluster_id(), store::kCurrentVersion).value();
    for (const v1::PageSnapshot& s : snapshots) snapshotted.insert(s.url());
    for (const std::string& u : urls) EXPECT_TRUE(snapshotted.count(u)) << u;
    // Golden values are the rule's output: the truth on these pages.
    for (const v1::GoldenExtraction& g : c.golden()) {
      for (const v1::AttributeValues& a : g.attributes()) {
        if (a.attribute() == "title") EXPECT_EQ(a.values_size(), 1) << g.url();
      }
    }
  }
  EXPECT_EQ(with_rule, static_cast<size_t>(kTemplates));
  if (getenv("VERTEX_DUMP_RULES") != nullptr) {
    for (const v1::ClusterRecord& c : *clusters) {
      std::printf("%s\n", store_->GetRule(kSite, c.cluster_id(), 0).value().DebugString().c_str());
    }
  }
}

TEST_F(MonitoringTest, NewContentOnlyRaisesNoAlarm) {
  const Version v1_new{.epoch = 1};
  Serve(v1_new, Mode::kServe);
  const v1::MonitorResponse fetched = Monitor();
  EXPECT_EQ(fetched.source(), "fetched");
  EXPECT_EQ(fetched.verdict(), v1::ClusterVerdict::OK) << fetched.DebugString();
  for (const v1::ClusterVerdict& c : fetched.clusters()) {
    EXPECT_EQ(c.verdict(), v1::ClusterVerdict::OK) << c.cluster_id() << ": " << c.reason();
    EXPECT_EQ(c.pages(), 15u);
  }
  EXPECT_TRUE(fetched.recorded());
  const v1::MonitorResponse supplied = Monitor(Supplied(v1_new));
  EXPECT_EQ(supplied.source(), "supplied");
  EXPECT_EQ(supplied.verdict(), v1::ClusterVerdict::OK) << supplied.DebugString();
  for (const v1::ClusterVerdict& c : supplied.clusters()) EXPECT_EQ(c.pages(), 20u) << c.cluster_id();
  // Both runs are in the history, newest first.
  const std::vector<v1::MonitorRun> runs = store_->MonitorHistory(kSite, 10).value();
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].source(), "supplied");
  EXPECT_EQ(runs[1].source(), "fetched");
  std::printf("[figures] v1 new content: fetched %s, supplied %s (expected OK)\n",
              v1::ClusterVerdict::Verdict_Name(fetched.verdict()).c_str(),
              v1::ClusterVerdict::Verdict_Name(supplied.verdict()).c_str());
}

TEST_F(MonitoringTest, AdsAndAnOptionalSectionAreNoFalseAlarm) {
  const Version ads{.epoch = 1, .ads = true, .optional_section = true};
  for (bool supply : {false, true}) {
    SCOPED_TRACE(supply ? "supplied" : "fetched");
    SetUp();  // a fresh copy of the learnt store
    Serve(ads, Mode::kServe);
    const v1::MonitorResponse m = supply ? Monitor(Supplied(ads)) : Monitor();
    std::string outcome = v1::ClusterVerdict::Verdict_Name(m.verdict());
    if (m.verdict() != v1::ClusterVerdict::OK) {
      // An alarm must be answered by reuse of every rule.
      const v1::RelearnResponse r = supply ? Relearn(Supplied(ads)) : Relearn();
      EXPECT_EQ(r.reused(), static_cast<uint32_t>(r.clusters_size())) << r.DebugString();
      EXPECT_EQ(r.queued() + r.repaired(), 0u);
      outcome += " answered by relearn: " + std::to_string(r.reused()) + " of " + std::to_string(r.clusters_size()) +
                 " rules reused (match:";
      for (const v1::ClusterOutcome& c : r.clusters()) outcome += " " + c.match();
      outcome += ")";
      EXPECT_EQ(Monitor(supply ? Supplied(ads) : std::vector<v1::Page>()).verdict(), v1::ClusterVerdict::OK);
    }
    // The rules in force still extract the records right.
    const std::vector<demo::VersionedPage> pages = Generate(ads);
    const double constants = ShareCorrect(pages, kConstants);
    const double all = ShareCorrect(pages, kAll);
    EXPECT_GE(constants, 0.95);
    EXPECT_GE(all, 0.9);
    std::printf("[figures] v1+ads+section (%s): %s; records right: constants %.3f, all attributes %.3f\n",
                supply ? "supplied" : "fetched", outcome.c_str(), constants, all);
  }
}

TEST_F(MonitoringTest, RestyledTemplateIsChangedAloneThenReusedRepairedAndQueued) {
  constexpr int kRestyled = 1;
  const Version v2{.epoch = 2, .restyled = {kRestyled}};
  for (bool supply : {false, true}) {
    SCOPED_TRACE(supply ? "supplied" : "fetched");
    SetUp();
    Serve(v2, Mode::kServe);
    const v1::MonitorResponse m = supply ? Monitor(Supplied(v2)) : Monitor();
    EXPECT_EQ(m.verdict(), v1::ClusterVerdict::CHANGED) << m.DebugString();
    const std::map<int, std::set<std::string>> verdicts = VerdictsByTemplate(m);
    for (int t = 0; t < kTemplates; ++t) {
      ASSERT_TRUE(verdicts.count(t)) << t;
      if (t == kRestyled) {
        EXPECT_THAT(verdicts.at(t), Contains("CHANGED")) << m.DebugString();
      } else {
        EXPECT_EQ(verdicts.at(t), std::set<std::string>{"OK"}) << t;
      }
    }
    // Evidence names pages and what failed.
    for (const v1::ClusterVerdict& c : m.clusters()) {
      if (c.verdict() == v1::ClusterVerdict::CHANGED) {
        EXPECT_GT(c.not_covered(), c.pages() / 2);
        ASSERT_GT(c.evidence_size(), 0);
        EXPECT_THAT(c.evidence(0), HasSubstr("/t1/"));
        EXPECT_THAT(c.reason(), HasSubstr("shingle test failed"));
      }
    }

    const v1::RelearnResponse r = supply ? Relearn(Supplied(v2)) : Relearn();
    std::string restyled_id;
    std::vector<std::string> repaired, queued;
    uint32_t reused = 0;
    for (const v1::ClusterOutcome& c : r.clusters()) {
      if (c.outcome() == v1::ClusterOutcome::REUSED) {
        ++reused;
        EXPECT_EQ(c.match(), "cluster") << c.DebugString();
        continue;
      }
      EXPECT_EQ(c.outcome(), v1::ClusterOutcome::REPAIRED) << c.DebugString();
      restyled_id = c.cluster_id();
      repaired.assign(c.repaired_attributes().begin(), c.repaired_attributes().end());
      queued.assign(c.queued_attributes().begin(), c.queued_attributes().end());
    }
    EXPECT_EQ(reused, static_cast<uint32_t>(kTemplates - 1));
    ASSERT_FALSE(restyled_id.empty()) << r.DebugString();
    EXPECT_EQ(repaired, kConstants);
    EXPECT_THAT(queued, Contains("price"));
    std::printf("[figures] v2 restyled t1 (%s): monitor %s; relearn reused %u, repaired %u (%s), queued %s\n",
                supply ? "supplied" : "fetched", v1::ClusterVerdict::Verdict_Name(m.verdict()).c_str(), reused,
                r.repaired(), absl::StrJoin(repaired, ", ").c_str(), absl::StrJoin(queued, ", ").c_str());

    // The repaired rule waits for the editor; the queue shows the cluster.
    std::unique_ptr<LearningEngine> learning_engine = Learning();
    LearningEngine& learning = *learning_engine;
    v1::GetAnnotationTasksRequest tasks_request;
    tasks_request.set_site(kSite);
    tasks_request.set_cluster_id(restyled_id);
    const v1::GetAnnotationTasksResponse tasks = learning.GetAnnotationTasks(tasks_request).value();
    ASSERT_GT(tasks.tasks_size(), 0);
    EXPECT_THAT(tasks.tasks(0).reason(), HasSubstr("automatic repair"));
    const v1::ClusterRecord before = store_->GetCluster(kSite, restyled_id).value();
    ASSERT_GT(before.candidate_version(), 0);
    v1::ResolveCandidateRequest accept;
    accept.set_site(kSite);
    accept.set_cluster_id(restyled_id);
    accept.set_accept(true);
    ASSERT_TRUE(learning.ResolveCandidate(accept).ok());
    const std::vector<demo::VersionedPage> pages = Generate(v2);
    EXPECT_GE(ShareCorrect(pages, kConstants, kRestyled), 0.95);
    EXPECT_GE(ShareCorrect(pages, kAll, 0), 0.9);  // a reused rule

    // The editor annotates the queued attributes on the pages asked for.
    std::map<std::string, const demo::VersionedPage*> by_url;
    for (const demo::VersionedPage& p : pages) by_url[p.url] = &p;
    v1::LearnRequest learn;
    learn.set_site(kSite);
    learn.set_cluster_id(restyled_id);
    for (const v1::AnnotationTask& t : tasks.tasks()) {
      for (const std::string& a : queued) {
        v1::Annotation* x = learn.add_annotations();
        x->set_url(t.url());
        x->set_attribute(a);
        const std::vector<std::string>& values = by_url.at(t.url())->truth.at(a);
        if (values.empty()) x->set_absent(true);
        for (const std::string& v : values) x->add_values(v);
      }
    }
    absl::StatusOr<v1::LearnResponse> learnt = learning.Learn(learn);
    ASSERT_TRUE(learnt.ok()) << learnt.status();
    EXPECT_EQ(learnt->rule().attributes_size(), static_cast<int>(kAll.size())) << learnt->DebugString();
    EXPECT_GE(ShareCorrect(pages, kAll, kRestyled), 0.9);
    const v1::MonitorResponse after = Monitor(Supplied(v2));
    EXPECT_EQ(after.verdict(), v1::ClusterVerdict::OK) << after.DebugString();
  }
}

TEST_F(MonitoringTest, RejectedCandidateLeavesTheRuleInForce) {
  const Version v2{.epoch = 2, .restyled = {1}};
  const v1::RelearnResponse r = Relearn(Supplied(v2));
  std::string id;
  for (const v1::ClusterOutcome& c : r.clusters()) {
    if (c.outcome() == v1::ClusterOutcome::REPAIRED) id = c.cluster_id();
  }
  ASSERT_FALSE(id.empty()) << r.DebugString();
  const v1::ClusterRecord before = store_->GetCluster(kSite, id).value();
  std::unique_ptr<LearningEngine> learning_engine = Learning();
  LearningEngine& learning = *learning_engine;
  v1::ResolveCandidateRequest reject;
  reject.set_site(kSite);
  reject.set_cluster_id(id);
  absl::StatusOr<v1::ResolveCandidateResponse> rejected = learning.ResolveCandidate(reject);
  ASSERT_TRUE(rejected.ok()) << rejected.status();
  EXPECT_EQ(rejected->version(), before.candidate_version());
  const v1::ClusterRecord after = store_->GetCluster(kSite, id).value();
  EXPECT_EQ(after.current_version(), before.current_version());
  EXPECT_EQ(after.candidate_version(), 0);
  EXPECT_EQ(learning.ResolveCandidate(reject).status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(MonitoringTest, NoRepairQueuesTheRestyledCluster) {
  std::unique_ptr<LearningEngine> learning_engine = Learning();
  LearningEngine& learning = *learning_engine;
  v1::RelearnRequest request;
  request.set_site(kSite);
  for (const v1::Page& p : Supplied({.epoch = 2, .restyled = {1}})) *request.add_pages() = p;
  request.set_no_repair(true);
  const v1::RelearnResponse r = learning.Relearn(request).value();
  EXPECT_EQ(r.reused(), static_cast<uint32_t>(kTemplates - 1));
  EXPECT_EQ(r.queued(), 1u);
  EXPECT_EQ(r.repaired(), 0u);
  for (const v1::ClusterOutcome& c : r.clusters()) {
    if (c.outcome() == v1::ClusterOutcome::QUEUED) EXPECT_THAT(c.reason(), HasSubstr("field test"));
  }
}

TEST_F(MonitoringTest, BadRequestsNameTheField) {
  MonitorEngine engine(store_.get(), MonitorEngineOptions());
  v1::MonitorRequest request;
  request.set_site(kSite);
  EXPECT_EQ(engine.Monitor(request).status().code(), absl::StatusCode::kFailedPrecondition);  // no fetcher
  request.add_pages()->set_url("http://x/1");
  EXPECT_THAT(engine.Monitor(request).status().message(), HasSubstr("pages[0].html"));
  request.mutable_pages(0)->set_html("<p>x</p>");
  request.set_threshold(1.5);
  EXPECT_THAT(engine.Monitor(request).status().message(), HasSubstr("threshold"));
  request.set_threshold(0);
  request.add_cluster_ids("nope");
  EXPECT_EQ(engine.Monitor(request).status().code(), absl::StatusCode::kNotFound);
  request.clear_cluster_ids();
  request.set_site("nowhere");
  EXPECT_EQ(engine.Monitor(request).status().code(), absl::StatusCode::kNotFound);
  // Without a history writer the response says so.
  request.set_site(kSite);
  const v1::MonitorResponse r = engine.Monitor(request).value();
  EXPECT_FALSE(r.recorded());
  EXPECT_THAT(r.not_recorded_reason(), HasSubstr("no store writer"));
  EXPECT_EQ(r.unrouted_pages(), 1u);

  LearningEngine learning(store_.get(), LearningEngineOptions());
  v1::RelearnRequest relearn;
  relearn.set_site(kSite);
  EXPECT_EQ(learning.Relearn(relearn).status().code(), absl::StatusCode::kFailedPrecondition);  // no fetcher
  relearn.add_pages()->set_url("http://x/1");
  EXPECT_THAT(learning.Relearn(relearn).status().message(), HasSubstr("pages[0].html"));
  relearn.mutable_pages(0)->set_html(std::string(200, '<'));
  relearn.set_site("nowhere");
  EXPECT_EQ(learning.Relearn(relearn).status().code(), absl::StatusCode::kNotFound);

  // A run recorded without a start time is stamped with the time it was
  // recorded, so that it is the newest.
  v1::RecordMonitorRunRequest record;
  record.mutable_run()->set_site(kSite);
  ASSERT_TRUE(learning.RecordMonitorRun(record).ok());
  EXPECT_GT(store_->MonitorHistory(kSite, 1).value().at(0).started_unix_ms(), 1700000000000);
  record.mutable_run()->set_site("nowhere");
  EXPECT_EQ(learning.RecordMonitorRun(record).status().code(), absl::StatusCode::kNotFound);
}

// Runs last: it stops the server.
TEST_F(MonitoringTest, FetchFailuresAreUnreachableNotChanges) {
  struct Case {
    Mode mode;
    const char* reason;
  };
  for (const Case& c : {Case{Mode::kError500, "HTTP 500"}, Case{Mode::kHang, "timed out"},
                        Case{Mode::kRobotsDisallow, "robots.txt"}}) {
    Serve(Version(), c.mode);
    const v1::MonitorResponse m = Monitor();
    EXPECT_EQ(m.verdict(), v1::ClusterVerdict::UNREACHABLE) << c.reason << m.DebugString();
    for (const v1::ClusterVerdict& v : m.clusters()) {
      EXPECT_EQ(v.verdict(), v1::ClusterVerdict::UNREACHABLE) << c.reason;
      EXPECT_THAT(v.reason(), HasSubstr(c.reason));
      EXPECT_EQ(v.unreachable(), 15u);
    }
    std::printf("[figures] %s: %s, e.g. %s\n", c.reason, v1::ClusterVerdict::Verdict_Name(m.verdict()).c_str(),
                m.clusters_size() > 0 ? m.clusters(0).reason().c_str() : "");
  }
  server_->Stop();
  const v1::MonitorResponse down = Monitor();
  EXPECT_EQ(down.verdict(), v1::ClusterVerdict::UNREACHABLE) << down.DebugString();
  for (const v1::ClusterVerdict& v : down.clusters()) EXPECT_EQ(v.verdict(), v1::ClusterVerdict::UNREACHABLE);
  std::printf("[figures] server down: %s, e.g. %s\n", v1::ClusterVerdict::Verdict_Name(down.verdict()).c_str(),
              down.clusters_size() > 0 ? down.clusters(0).reason().c_str() : "");
  // Relearning a site that cannot be fetched fails and changes nothing.
  const v1::ClusterRecord before = store_->ClustersOfSite(kSite).value()[0];
  std::unique_ptr<LearningEngine> learning = Learning();
  v1::RelearnRequest request;
  request.set_site(kSite);
  EXPECT_EQ(learning->Relearn(request).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store_->ClustersOfSite(kSite).value()[0].DebugString(), before.DebugString());
}

}  // namespace
}  // namespace vertex::monitor
