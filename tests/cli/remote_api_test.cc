// The gRPC clients of services/client against an in-process server whose
// services delegate to the engines (engine_services.h). Differential: every
// call through the client must answer what the same call on an identical
// engine stack answers directly (timestamps aside), errors included with
// their codes and messages. Plus: tokens, deadlines, unreachable servers,
// and ExtractMany over the ExtractStream RPC (order, per-page errors, many
// pages).
#include "services/client/remote_api.h"

#include <map>
#include <string>
#include <vector>

#include "common/demo/site_generator.h"
#include "common/store/rule_store.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "gtest/gtest.h"
#include "tests/cli/engine_services.h"

namespace vertex::client {
namespace {

using ::vertex::testing::EngineServer;
using ::vertex::testing::EngineStack;

constexpr char kToken[] = "s3cret-token";

// Clears every *_unix_ms and elapsed_ms field, recursively: the only fields
// two runs of the same calls may disagree on.
void ClearTimes(google::protobuf::Message* m) {
  const google::protobuf::Reflection* r = m->GetReflection();
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  r->ListFields(*m, &fields);
  for (const google::protobuf::FieldDescriptor* f : fields) {
    if (f->cpp_type() == google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(*m, f); ++i) ClearTimes(r->MutableRepeatedMessage(m, f, i));
      } else {
        ClearTimes(r->MutableMessage(m, f));
      }
    } else if ((f->name().size() > 8 && f->name().substr(f->name().size() - 8) == "_unix_ms") ||
               f->name() == "elapsed_ms") {
      r->ClearField(m, f);
    }
  }
}

template <typename M>
void ExpectSame(absl::StatusOr<M> remote, absl::StatusOr<M> local, const std::string& what) {
  ASSERT_EQ(remote.status().code(), local.status().code())
      << what << ": " << remote.status() << " vs " << local.status();
  EXPECT_EQ(remote.status().message(), local.status().message()) << what;
  if (!remote.ok()) return;
  ClearTimes(&*remote);
  ClearTimes(&*local);
  std::string diff;
  google::protobuf::util::MessageDifferencer differ;
  differ.ReportDifferencesToString(&diff);
  EXPECT_TRUE(differ.Compare(*remote, *local)) << what << ": " << diff;
}

// A small demo site: the pages, and annotations of its first two product
// pages from the generator's truth.
struct Demo {
  std::vector<demo::GeneratedPage> pages;
  v1::Schema schema;
  std::vector<v1::Annotation> annotations;
};

const Demo& SmallDemo() {
  static const Demo d = [] {
    Demo d;
    demo::SiteOptions options;
    options.product_pages = 60;
    options.category_pages = 25;
    options.review_pages = 25;
    options.store_pages = 25;
    d.pages = demo::GenerateSite(options);
    EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(demo::SchemaJson("product"), &d.schema).ok());
    int annotated = 0;
    for (const demo::GeneratedPage& p : d.pages) {
      if (p.template_name != "product" || annotated == 2) continue;
      ++annotated;
      for (const auto& [attr, values] : p.truth) {
        v1::Annotation& a = d.annotations.emplace_back();
        a.set_url(p.url);
        a.set_attribute(attr);
        if (values.empty()) a.set_absent(true);
        for (const std::string& v : values) a.add_values(v);
      }
    }
    return d;
  }();
  return d;
}

v1::Page PageOf(const demo::GeneratedPage& p) {
  v1::Page page;
  page.set_url(p.url);
  page.set_html(p.html);
  return page;
}

class RemoteApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = EngineServer::Start(kToken);
    ASSERT_NE(server_, nullptr);
    ConnectOptions options = Options(kToken);
    learning_ = ConnectLearning(options).value();
    extraction_ = ConnectExtraction(options).value();
    monitoring_ = ConnectMonitoring(options).value();
  }

  ConnectOptions Options(const std::string& token) const {
    ConnectOptions options;
    options.server = server_->address();
    options.token = token;
    options.timeout_seconds = 30;
    return options;
  }

  // Registers the demo site and adds its pages (two calls, the first
  // deferred) on both stacks, comparing the answers.
  void RegisterAndAddPages() {
    const Demo& d = SmallDemo();
    v1::RegisterSiteRequest site;
    site.set_site("demo");
    *site.mutable_schema() = d.schema;
    ExpectSame(learning_->RegisterSite(site), local_.learning->RegisterSite(site), "RegisterSite");
    v1::AddSamplePagesRequest first, second;
    first.set_site("demo");
    first.set_defer_clustering(true);
    second.set_site("demo");
    for (size_t i = 0; i < d.pages.size(); ++i) *(i < 50 ? &first : &second)->add_pages() = PageOf(d.pages[i]);
    ExpectSame(learning_->AddSamplePages(first), local_.learning->AddSamplePages(first), "AddSamplePages deferred");
    ExpectSame(learning_->AddSamplePages(second), local_.learning->AddSamplePages(second), "AddSamplePages");
  }

  // The id of the cluster of the product pages.
  std::string ProductCluster() {
    v1::ListRulesRequest list;
    list.set_site("demo");
    const v1::ListRulesResponse rules = local_.learning->ListRules(list).value();
    for (const v1::ClusterRules& c : rules.clusters()) {
      if (c.cluster().url_regex().find("/p/") != std::string::npos) return c.cluster().cluster_id();
    }
    ADD_FAILURE() << "no product cluster";
    return "";
  }

  std::unique_ptr<EngineServer> server_;
  EngineStack local_;  // the same engines, called directly
  std::unique_ptr<workflow::LearningApi> learning_;
  std::unique_ptr<workflow::ExtractionApi> extraction_;
  std::unique_ptr<workflow::MonitoringApi> monitoring_;
};

TEST_F(RemoteApiTest, LearningCallsAnswerWhatTheEngineAnswers) {
  RegisterAndAddPages();
  v1::GetAnnotationTasksRequest tasks;
  tasks.set_site("demo");
  ExpectSame(learning_->GetAnnotationTasks(tasks), local_.learning->GetAnnotationTasks(tasks), "GetAnnotationTasks");
  v1::LearnRequest learn;
  learn.set_site("demo");
  learn.set_cluster_id(ProductCluster());
  for (const v1::Annotation& a : SmallDemo().annotations) *learn.add_annotations() = a;
  ExpectSame(learning_->Learn(learn), local_.learning->Learn(learn), "Learn v1");
  ExpectSame(learning_->Learn(learn), local_.learning->Learn(learn), "Learn v2");
  tasks.set_include_html(true);
  ExpectSame(learning_->GetAnnotationTasks(tasks), local_.learning->GetAnnotationTasks(tasks), "tasks with html");

  v1::ListRulesRequest list;
  list.set_site("demo");
  ExpectSame(learning_->ListRules(list), local_.learning->ListRules(list), "ListRules");
  v1::GetRuleRequest get;
  get.set_site("demo");
  get.set_cluster_id(ProductCluster());
  get.set_version(1);
  ExpectSame(learning_->GetRule(get), local_.learning->GetRule(get), "GetRule");
  v1::ExportRuleRequest export_rule;
  export_rule.set_site("demo");
  export_rule.set_cluster_id(ProductCluster());
  export_rule.set_format(v1::ExportRuleRequest::XSLT);
  ExpectSame(learning_->ExportRule(export_rule), local_.learning->ExportRule(export_rule), "ExportRule XSLT");
  v1::RollbackRuleRequest rollback;
  rollback.set_site("demo");
  rollback.set_cluster_id(ProductCluster());
  rollback.set_version(1);
  ExpectSame(learning_->RollbackRule(rollback), local_.learning->RollbackRule(rollback), "RollbackRule");
  EXPECT_EQ(learning_->ListRules(list)->clusters(0).cluster().current_version(), 1);
  v1::DeleteSiteRequest del;
  del.set_site("demo");
  ExpectSame(learning_->DeleteSite(del), local_.learning->DeleteSite(del), "DeleteSite");
  ExpectSame(learning_->ListRules(list), local_.learning->ListRules(list), "ListRules after delete");
}

// Every documented error reaches the client with the engine's code and
// message.
TEST_F(RemoteApiTest, ErrorsKeepTheirCodesAndMessages) {
  RegisterAndAddPages();
  v1::GetRuleRequest no_rule;
  no_rule.set_site("demo");
  no_rule.set_cluster_id(ProductCluster());
  v1::GetRuleRequest no_cluster = no_rule;
  no_cluster.set_cluster_id("c99");
  v1::RegisterSiteRequest bad_schema;
  bad_schema.set_site("demo2");
  v1::LearnRequest bad_attribute;
  bad_attribute.set_site("demo");
  bad_attribute.set_cluster_id(ProductCluster());
  v1::Annotation* a = bad_attribute.add_annotations();
  a->set_url(SmallDemo().pages[0].url);
  a->set_attribute("colour");
  a->add_values("red");
  v1::RollbackRuleRequest bad_version;
  bad_version.set_site("demo");
  bad_version.set_cluster_id(ProductCluster());
  v1::DeleteSiteRequest absent;
  absent.set_site("nosuchsite");
  const auto code = [](const auto& r) { return r.status().code(); };
  ExpectSame(learning_->GetRule(no_rule), local_.learning->GetRule(no_rule), "GetRule without rule");
  EXPECT_EQ(code(learning_->GetRule(no_cluster)), absl::StatusCode::kNotFound);
  ExpectSame(learning_->GetRule(no_cluster), local_.learning->GetRule(no_cluster), "GetRule unknown cluster");
  EXPECT_EQ(code(learning_->RegisterSite(bad_schema)), absl::StatusCode::kInvalidArgument);
  ExpectSame(learning_->RegisterSite(bad_schema), local_.learning->RegisterSite(bad_schema), "RegisterSite");
  EXPECT_EQ(code(learning_->Learn(bad_attribute)), absl::StatusCode::kInvalidArgument);
  ExpectSame(learning_->Learn(bad_attribute), local_.learning->Learn(bad_attribute), "Learn unknown attribute");
  ExpectSame(learning_->RollbackRule(bad_version), local_.learning->RollbackRule(bad_version), "Rollback 0");
  EXPECT_EQ(code(learning_->DeleteSite(absent)), absl::StatusCode::kNotFound);
  ExpectSame(learning_->DeleteSite(absent), local_.learning->DeleteSite(absent), "DeleteSite absent");
  v1::ExtractRequest no_site;
  no_site.set_site("nosuchsite");
  no_site.set_url("http://x.test/");
  no_site.set_html("<html></html>");
  EXPECT_EQ(code(extraction_->Extract(no_site)), absl::StatusCode::kNotFound);
  ExpectSame(extraction_->Extract(no_site), local_.extraction->Extract(no_site), "Extract unknown site");
  v1::ExtractRequest no_rules = no_site;
  no_rules.set_site("demo");
  EXPECT_EQ(code(extraction_->Extract(no_rules)), absl::StatusCode::kFailedPrecondition);
  v1::MonitorRequest no_pages;
  no_pages.set_site("demo");
  ExpectSame(monitoring_->Monitor(no_pages), local_.monitor->Monitor(no_pages), "Monitor without pages");
}

// A candidate version of the cluster's current rule, committed to `store`
// directly (as Relearn's repair stores one). Returns its version.
int64_t CommitCandidate(store::RuleStore& store, const std::string& cluster) {
  store::RuleCommit commit;
  commit.rule = store.GetRule("demo", cluster, store::kCurrentVersion).value();
  commit.candidate = true;
  return store.CommitRule(commit).value();
}

TEST_F(RemoteApiTest, HistoryCandidatesAndRelearnAnswerWhatTheEngineAnswers) {
  RegisterAndAddPages();
  v1::LearnRequest learn;
  learn.set_site("demo");
  learn.set_cluster_id(ProductCluster());
  for (const v1::Annotation& a : SmallDemo().annotations) *learn.add_annotations() = a;
  ExpectSame(learning_->Learn(learn), local_.learning->Learn(learn), "Learn");

  // Monitor records its runs through the learning engine, unless dry_run.
  v1::MonitorRequest monitor;
  monitor.set_site("demo");
  for (const demo::GeneratedPage& p : SmallDemo().pages) *monitor.add_pages() = PageOf(p);
  const absl::StatusOr<v1::MonitorResponse> recorded = monitoring_->Monitor(monitor);
  ASSERT_TRUE(recorded.ok()) << recorded.status();
  EXPECT_TRUE(recorded->recorded()) << recorded->not_recorded_reason();
  ExpectSame(recorded, local_.monitor->Monitor(monitor), "Monitor");
  monitor.set_dry_run(true);
  monitor.add_cluster_ids(ProductCluster());
  monitor.set_threshold(0.25);
  const absl::StatusOr<v1::MonitorResponse> dry = monitoring_->Monitor(monitor);
  ASSERT_TRUE(dry.ok()) << dry.status();
  EXPECT_FALSE(dry->recorded());
  EXPECT_EQ(dry->not_recorded_reason(), "dry run");
  ASSERT_EQ(dry->clusters_size(), 1);
  ExpectSame(dry, local_.monitor->Monitor(monitor), "Monitor dry run of one cluster");
  v1::RecordMonitorRunRequest record;
  record.mutable_run()->set_site("demo");
  record.mutable_run()->set_started_unix_ms(recorded->started_unix_ms() + 1000);  // the newest
  record.mutable_run()->set_source("supplied");
  record.mutable_run()->set_verdict(v1::ClusterVerdict::NO_PAGES);
  ExpectSame(learning_->RecordMonitorRun(record), local_.learning->RecordMonitorRun(record), "RecordMonitorRun");
  v1::GetHistoryRequest history;
  history.set_site("demo");
  const absl::StatusOr<v1::GetHistoryResponse> runs = monitoring_->GetHistory(history);
  ASSERT_TRUE(runs.ok()) << runs.status();
  ASSERT_EQ(runs->runs_size(), 2);  // newest first
  EXPECT_EQ(runs->runs(0).verdict(), v1::ClusterVerdict::NO_PAGES);
  EXPECT_EQ(runs->runs(1).verdict(), v1::ClusterVerdict::OK);
  ExpectSame(runs, local_.monitor->GetHistory(history), "GetHistory");
  history.set_limit(1);
  ExpectSame(monitoring_->GetHistory(history), local_.monitor->GetHistory(history), "GetHistory limit 1");

  // A candidate, accepted, then another, rejected.
  const std::string cluster = ProductCluster();
  ASSERT_EQ(CommitCandidate(*server_->engines().store, cluster), CommitCandidate(*local_.store, cluster));
  v1::ListRulesRequest list;
  list.set_site("demo");
  ExpectSame(learning_->ListRules(list), local_.learning->ListRules(list), "ListRules with a candidate");
  v1::ResolveCandidateRequest resolve;
  resolve.set_site("demo");
  resolve.set_cluster_id(cluster);
  resolve.set_accept(true);
  const absl::StatusOr<v1::ResolveCandidateResponse> accepted = learning_->ResolveCandidate(resolve);
  ASSERT_TRUE(accepted.ok()) << accepted.status();
  EXPECT_EQ(accepted->cluster().current_version(), accepted->version());
  EXPECT_EQ(accepted->cluster().candidate_version(), 0);
  ExpectSame(accepted, local_.learning->ResolveCandidate(resolve), "ResolveCandidate accept");
  ExpectSame(learning_->ResolveCandidate(resolve), local_.learning->ResolveCandidate(resolve), "no candidate");
  EXPECT_EQ(learning_->ResolveCandidate(resolve).status().code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_EQ(CommitCandidate(*server_->engines().store, cluster), CommitCandidate(*local_.store, cluster));
  resolve.set_accept(false);
  ExpectSame(learning_->ResolveCandidate(resolve), local_.learning->ResolveCandidate(resolve), "reject");
  ExpectSame(learning_->ListRules(list), local_.learning->ListRules(list), "ListRules after reject");

  // Relearn on the same pages: whatever the engine answers, error included.
  v1::RelearnRequest relearn;
  relearn.set_site("demo");
  for (const demo::GeneratedPage& p : SmallDemo().pages) *relearn.add_pages() = PageOf(p);
  ExpectSame(learning_->Relearn(relearn), local_.learning->Relearn(relearn), "Relearn");
}

TEST_F(RemoteApiTest, HistoryCandidateAndRelearnErrorsKeepTheirCodes) {
  RegisterAndAddPages();
  v1::GetHistoryRequest history;
  history.set_site("nosuchsite");
  EXPECT_EQ(monitoring_->GetHistory(history).status().code(), absl::StatusCode::kNotFound);
  ExpectSame(monitoring_->GetHistory(history), local_.monitor->GetHistory(history), "GetHistory unknown site");
  v1::RecordMonitorRunRequest record;
  record.mutable_run()->set_site("nosuchsite");
  EXPECT_EQ(learning_->RecordMonitorRun(record).status().code(), absl::StatusCode::kNotFound);
  ExpectSame(learning_->RecordMonitorRun(record), local_.learning->RecordMonitorRun(record), "record unknown site");
  v1::ResolveCandidateRequest resolve;
  resolve.set_site("demo");
  resolve.set_cluster_id("c99");
  EXPECT_EQ(learning_->ResolveCandidate(resolve).status().code(), absl::StatusCode::kNotFound);
  ExpectSame(learning_->ResolveCandidate(resolve), local_.learning->ResolveCandidate(resolve), "unknown cluster");
  resolve.set_cluster_id(ProductCluster());
  EXPECT_EQ(learning_->ResolveCandidate(resolve).status().code(), absl::StatusCode::kFailedPrecondition);
  ExpectSame(learning_->ResolveCandidate(resolve), local_.learning->ResolveCandidate(resolve), "no candidate");
  v1::MonitorRequest monitor;
  monitor.set_site("demo");
  monitor.add_cluster_ids("c99");
  *monitor.add_pages() = PageOf(SmallDemo().pages[0]);
  ExpectSame(monitoring_->Monitor(monitor), local_.monitor->Monitor(monitor), "Monitor unknown cluster");
  v1::RelearnRequest relearn;
  relearn.set_site("nosuchsite");
  ExpectSame(learning_->Relearn(relearn), local_.learning->Relearn(relearn), "Relearn unknown site");
}

TEST_F(RemoteApiTest, WriteCallsNeedTheToken) {
  v1::RegisterSiteRequest site;
  site.set_site("demo");
  *site.mutable_schema() = SmallDemo().schema;
  for (const std::string& token : {std::string(), std::string("wrong")}) {
    std::unique_ptr<workflow::LearningApi> api = ConnectLearning(Options(token)).value();
    const absl::StatusOr<v1::RegisterSiteResponse> r = api->RegisterSite(site);
    EXPECT_EQ(r.status().code(), absl::StatusCode::kUnauthenticated) << token << ": " << r.status();
    EXPECT_NE(r.status().message().find(token.empty() ? "missing bearer token" : "invalid bearer token"),
              std::string::npos)
        << r.status();
    v1::ListRulesRequest list;  // a read RPC needs no token: the engine answers
    list.set_site("demo");
    EXPECT_EQ(api->ListRules(list).status().code(), absl::StatusCode::kNotFound);
    v1::RelearnRequest relearn;
    relearn.set_site("demo");
    EXPECT_EQ(api->Relearn(relearn).status().code(), absl::StatusCode::kUnauthenticated) << token;
    v1::ResolveCandidateRequest resolve;
    resolve.set_site("demo");
    resolve.set_cluster_id("c0");
    EXPECT_EQ(api->ResolveCandidate(resolve).status().code(), absl::StatusCode::kUnauthenticated) << token;
    v1::RecordMonitorRunRequest record;
    record.mutable_run()->set_site("demo");
    EXPECT_EQ(api->RecordMonitorRun(record).status().code(), absl::StatusCode::kUnauthenticated) << token;
    v1::GetHistoryRequest history;  // a read
    history.set_site("demo");
    EXPECT_EQ(ConnectMonitoring(Options(token)).value()->GetHistory(history).status().code(),
              absl::StatusCode::kNotFound);
  }
  EXPECT_TRUE(learning_->RegisterSite(site).ok());
}

TEST_F(RemoteApiTest, ExtractManyStreamsResponsesInOrderWithPerPageErrors) {
  RegisterAndAddPages();
  v1::LearnRequest learn;
  learn.set_site("demo");
  learn.set_cluster_id(ProductCluster());
  for (const v1::Annotation& a : SmallDemo().annotations) *learn.add_annotations() = a;
  ASSERT_TRUE(learning_->Learn(learn).ok());
  ASSERT_TRUE(local_.learning->Learn(learn).ok());
  std::vector<v1::ExtractRequest> requests;
  for (int round = 0; round < 4; ++round) {  // > 500 requests: the stream pipelines
    for (const demo::GeneratedPage& p : SmallDemo().pages) {
      v1::ExtractRequest& r = requests.emplace_back();
      r.set_site("demo");
      r.set_url(p.url);
      r.set_html(p.html);
      r.set_details(round == 1);
      r.set_id("r" + std::to_string(requests.size()));
      if (requests.size() == 7) r.clear_html();  // an empty page: INVALID_ARGUMENT, the stream goes on
      if (requests.size() == 8) r.clear_url();
    }
  }
  const absl::StatusOr<std::vector<v1::ExtractResponse>> remote = extraction_->ExtractMany(requests);
  const absl::StatusOr<std::vector<v1::ExtractResponse>> local = local_.extraction->ExtractMany(requests);
  ASSERT_TRUE(remote.ok()) << remote.status();
  ASSERT_EQ(remote->size(), requests.size());
  std::map<std::string, int> statuses;
  for (size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ((*remote)[i].id(), requests[i].id());
    ExpectSame<v1::ExtractResponse>((*remote)[i], (*local)[i], "page " + std::to_string(i));
    ++statuses[(*remote)[i].error_code() != 0 ? "error"
                                              : v1::ExtractedRecord::Status_Name((*remote)[i].record().status())];
  }
  EXPECT_EQ((*remote)[6].error_code(), static_cast<int>(absl::StatusCode::kInvalidArgument));
  EXPECT_NE((*remote)[6].error().find("html is empty"), std::string::npos) << (*remote)[6].error();
  EXPECT_EQ((*remote)[7].error_code(), static_cast<int>(absl::StatusCode::kInvalidArgument));
  EXPECT_EQ(statuses["error"], 2);
  EXPECT_GT(statuses["OK"] + statuses["PARTIAL"], 200);
  EXPECT_GT(statuses["NO_URL_MATCH"], 200);
  ExpectSame(extraction_->Extract(requests[0]), local_.extraction->Extract(requests[0]), "Extract");
  EXPECT_TRUE(extraction_->ExtractMany({}).value().empty());

  v1::MonitorRequest monitor;
  monitor.set_site("demo");
  for (const demo::GeneratedPage& p : SmallDemo().pages) *monitor.add_pages() = PageOf(p);
  ExpectSame(monitoring_->Monitor(monitor), local_.monitor->Monitor(monitor), "Monitor");
}

TEST_F(RemoteApiTest, DeadlinesAndUnreachableServers) {
  ConnectOptions options = Options(kToken);
  options.timeout_seconds = 0.3;
  std::unique_ptr<workflow::LearningApi> hasty = ConnectLearning(options).value();
  v1::ListRulesRequest slow;
  slow.set_site(::vertex::testing::kSlowSite);
  EXPECT_EQ(hasty->ListRules(slow).status().code(), absl::StatusCode::kDeadlineExceeded);
  std::unique_ptr<workflow::ExtractionApi> hasty_extraction = ConnectExtraction(options).value();
  v1::ExtractRequest page;
  page.set_site(::vertex::testing::kSlowSite);
  page.set_url("http://x.test/");
  page.set_html("<p>x</p>");
  EXPECT_EQ(hasty_extraction->ExtractMany({page}).status().code(), absl::StatusCode::kDeadlineExceeded);
  // The calls that may fetch pages get fetch_timeout_seconds instead.
  std::unique_ptr<workflow::MonitoringApi> hasty_monitoring = ConnectMonitoring(options).value();
  v1::MonitorRequest monitor;
  monitor.set_site(::vertex::testing::kSlowSite);
  EXPECT_EQ(hasty_monitoring->Monitor(monitor).status().code(), absl::StatusCode::kNotFound);  // no page: fetches
  v1::RelearnRequest relearn;
  relearn.set_site(::vertex::testing::kSlowSite);
  EXPECT_NE(hasty->Relearn(relearn).status().code(), absl::StatusCode::kDeadlineExceeded);
  *monitor.add_pages() = PageOf(SmallDemo().pages[0]);
  EXPECT_EQ(hasty_monitoring->Monitor(monitor).status().code(), absl::StatusCode::kDeadlineExceeded);
  options.fetch_timeout_seconds = 0.3;
  monitor.clear_pages();
  EXPECT_EQ(ConnectMonitoring(options).value()->Monitor(monitor).status().code(), absl::StatusCode::kDeadlineExceeded);

  options.server = "127.0.0.1:1";  // nothing listens there
  options.timeout_seconds = 5;
  v1::ListRulesRequest list;
  list.set_site("demo");
  EXPECT_EQ(ConnectLearning(options).value()->ListRules(list).status().code(), absl::StatusCode::kUnavailable);
}

TEST(ConnectOptionsTest, BadOptionsAreInvalidArgument) {
  const auto code = [](const ConnectOptions& o) { return ConnectLearning(o).status().code(); };
  ConnectOptions ok;
  ok.server = "127.0.0.1:7071";
  EXPECT_EQ(code(ok), absl::StatusCode::kOk);
  ConnectOptions o = ok;
  o.server = "";
  EXPECT_EQ(code(o), absl::StatusCode::kInvalidArgument);
  o = ok;
  o.timeout_seconds = 0;
  EXPECT_EQ(code(o), absl::StatusCode::kInvalidArgument);
  o = ok;
  o.fetch_timeout_seconds = -1;
  EXPECT_EQ(code(o), absl::StatusCode::kInvalidArgument);
  o = ok;
  o.max_message_bytes = 0;
  EXPECT_EQ(ConnectExtraction(o).status().code(), absl::StatusCode::kInvalidArgument);
  o = ok;
  o.tls.cert = "-----BEGIN CERTIFICATE-----";
  EXPECT_EQ(ConnectMonitoring(o).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ConnectOptionsTest, StreamDeadlineScalesWithPages) {
  ConnectOptions o;
  o.timeout_seconds = 60;
  EXPECT_EQ(StreamDeadline(o, 1), std::chrono::seconds(60));
  EXPECT_EQ(StreamDeadline(o, 1000), std::chrono::seconds(60));
  EXPECT_EQ(StreamDeadline(o, 5000), std::chrono::seconds(300));
  o.timeout_seconds = 0.5;
  EXPECT_EQ(StreamDeadline(o, 2000), std::chrono::seconds(1));
}

// Monitor and Relearn requests larger than the server accepts in one
// message go as MonitorStream / RelearnStream (remote_api.h) and answer
// what the engine answers in process (one run, one fresh sample).
TEST(RemoteApiLargeRequestTest, MonitorAndRelearnAboveTheMaxMessageSizeAnswerAsInProcess) {
  constexpr int kMaxMessage = 512 << 10;
  std::unique_ptr<EngineServer> server = EngineServer::Start("", kMaxMessage);
  ASSERT_NE(server, nullptr);
  EngineStack local;
  const Demo& d = SmallDemo();
  for (EngineStack* e : {&server->engines(), &local}) {
    v1::RegisterSiteRequest site;
    site.set_site("demo");
    *site.mutable_schema() = d.schema;
    ASSERT_TRUE(e->learning->RegisterSite(site).ok());
    v1::AddSamplePagesRequest add;
    add.set_site("demo");
    for (const demo::GeneratedPage& p : d.pages) *add.add_pages() = PageOf(p);
    ASSERT_TRUE(e->learning->AddSamplePages(add).ok());
    v1::ListRulesRequest list;
    list.set_site("demo");
    v1::LearnRequest learn;
    learn.set_site("demo");
    const v1::ListRulesResponse rules = e->learning->ListRules(list).value();
    for (const v1::ClusterRules& c : rules.clusters()) {
      if (c.cluster().url_regex().find("/p/") != std::string::npos) learn.set_cluster_id(c.cluster().cluster_id());
    }
    for (const v1::Annotation& a : d.annotations) *learn.add_annotations() = a;
    ASSERT_TRUE(e->learning->Learn(learn).ok());
  }
  ConnectOptions options;
  options.server = server->address();
  options.timeout_seconds = 60;
  options.max_message_bytes = kMaxMessage;
  std::unique_ptr<workflow::MonitoringApi> monitoring = ConnectMonitoring(options).value();
  std::unique_ptr<workflow::LearningApi> learning = ConnectLearning(options).value();

  v1::MonitorRequest monitor;
  monitor.set_site("demo");
  for (const demo::GeneratedPage& p : d.pages) *monitor.add_pages() = PageOf(p);
  ASSERT_GT(monitor.ByteSizeLong(), static_cast<size_t>(kMaxMessage)) << "the test needs a larger request";
  ASSERT_GT(monitor.ByteSizeLong(), StreamBudget(options));
  // One message alone is refused by the server: the stream is what works.
  const absl::StatusOr<v1::MonitorResponse> remote = monitoring->Monitor(monitor);
  ASSERT_TRUE(remote.ok()) << remote.status();
  ExpectSame(remote, local.monitor->Monitor(monitor), "Monitor streamed");
  v1::GetHistoryRequest history;
  history.set_site("demo");
  EXPECT_EQ(server->engines().monitor->GetHistory(history).value().runs_size(), 1) << "one run, one entry";
  // A page error names the page's index in the whole stream.
  monitor.mutable_pages(monitor.pages_size() - 1)->clear_html();
  ExpectSame(monitoring->Monitor(monitor), local.monitor->Monitor(monitor), "Monitor streamed, bad last page");

  v1::RelearnRequest relearn;
  relearn.set_site("demo");
  for (const demo::GeneratedPage& p : d.pages) *relearn.add_pages() = PageOf(p);
  ASSERT_GT(relearn.ByteSizeLong(), static_cast<size_t>(kMaxMessage));
  const absl::StatusOr<v1::RelearnResponse> relearnt = learning->Relearn(relearn);
  ASSERT_TRUE(relearnt.ok()) << relearnt.status();
  ExpectSame(relearnt, local.learning->Relearn(relearn), "Relearn streamed");
  EXPECT_EQ(relearnt->pages(), static_cast<uint32_t>(d.pages.size()));
}

}  // namespace
}  // namespace vertex::client
