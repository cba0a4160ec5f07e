// The HTTP/JSON face through vertexd (services/http): the demo shop is
// learnt and extracted through the JSON routes alone (the generic
// /v1/rpc/{Service}/{Method} ones and POST /v1/extract with the page as
// text/html), and every record agrees with the same page extracted over
// gRPC; the readable routes fill path and query parameters into the
// request; int64 fields are JSON strings and enums names; each documented
// error (404, 405, 400 for bad JSON and unknown fields, 401 without the
// token, 413, gRPC's NOT_FOUND) comes back as JSON naming the problem;
// the static pages are served with their type, nosniff and the CSP.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <httplib.h>

#include <google/protobuf/util/json_util.h>

#include <chrono>
#include <cstdlib>
#include <iterator>
#include <tuple>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/demo/site_generator.h"
#include "common/workflow/api_editor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/client/remote_api.h"
#include "services/common/health_client.h"
#include "vertex/v1/monitoring.pb.h"
#include "tests/services/process.h"
#include "tests/testing/temp_dir.h"

namespace vertex {
namespace {

using ::testing::HasSubstr;
using test_support::ServerProcess;

constexpr char kToken[] = "http-secret";

// vertexd with HTTP on a free port; http_port() is 0 when it did not come up.
class Vertexd {
 public:
  Vertexd(const std::string& dir, const std::string& name, std::vector<std::string> extra = {}) {
    const std::string port_file = dir + "/" + name + ".http";
    std::vector<std::string> args = {"--store", dir + "/" + name + "-store", "--http-port", "0", "--http-port-file",
                                     port_file};
    args.insert(args.end(), extra.begin(), extra.end());
    process_ = std::make_unique<ServerProcess>(VERTEXD_BIN, args, dir, name);
    for (int i = 0; i < 100 && process_->port() != 0 && http_port_ == 0; ++i) {
      std::ifstream in(port_file);
      if (!(in >> http_port_)) {
        http_port_ = 0;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  }
  int http_port() const { return http_port_; }
  ServerProcess& process() { return *process_; }
  std::unique_ptr<httplib::Client> Client() const {
    auto c = std::make_unique<httplib::Client>("127.0.0.1", http_port_);
    c->set_read_timeout(std::chrono::seconds(120));
    return c;
  }

 private:
  std::unique_ptr<ServerProcess> process_;
  int http_port_ = 0;
};

template <typename M>
std::string ToJson(const M& m) {
  std::string out;
  EXPECT_TRUE(google::protobuf::util::MessageToJsonString(m, &out).ok());
  return out;
}

// The gRPC status code an HTTP error's JSON names, as absl.
absl::Status StatusOfReply(const httplib::Result& r) {
  if (!r) return absl::UnavailableError("no HTTP response: " + httplib::to_string(r.error()));
  if (r->status == 200) return absl::OkStatus();
  return absl::UnknownError(absl::StrCat("HTTP ", r->status, ": ", r->body));
}

// LearningApi and ExtractionApi over the HTTP face only: each RPC is a
// POST of its request's JSON to /v1/rpc/..., Extract a POST of the page's
// bytes (text/html) to /v1/extract with url and site in the query.
class HttpApi final : public workflow::LearningApi, public workflow::ExtractionApi {
 public:
  HttpApi(std::unique_ptr<httplib::Client> client, std::string token)
      : client_(std::move(client)), token_(std::move(token)) {}

  template <typename Response, typename Request>
  absl::StatusOr<Response> Rpc(const std::string& rpc, const Request& request) {
    httplib::Headers headers = {{"Authorization", "Bearer " + token_}};
    httplib::Result r = client_->Post("/v1/rpc/" + rpc, headers, ToJson(request), "application/json");
    if (absl::Status s = StatusOfReply(r); !s.ok()) return s;
    Response out;
    const auto parsed = google::protobuf::util::JsonStringToMessage(r->body, &out);
    if (!parsed.ok()) return absl::InternalError("response is not JSON " + out.GetTypeName() + ": " + r->body);
    return out;
  }

#define VERTEX_HTTP_RPC(SERVICE, NAME)                                                          \
  absl::StatusOr<v1::NAME##Response> NAME(const v1::NAME##Request& request) override {      \
    return Rpc<v1::NAME##Response>("vertex.v1." #SERVICE "/" #NAME, request);                 \
  }
  VERTEX_HTTP_RPC(LearningService, RegisterSite)
  VERTEX_HTTP_RPC(LearningService, AddSamplePages)
  VERTEX_HTTP_RPC(LearningService, GetAnnotationTasks)
  VERTEX_HTTP_RPC(LearningService, Learn)
  VERTEX_HTTP_RPC(LearningService, GetRule)
  VERTEX_HTTP_RPC(LearningService, ListRules)
  VERTEX_HTTP_RPC(LearningService, ExportRule)
  VERTEX_HTTP_RPC(LearningService, RollbackRule)
  VERTEX_HTTP_RPC(LearningService, DeleteSite)
  VERTEX_HTTP_RPC(LearningService, Relearn)
  VERTEX_HTTP_RPC(LearningService, ResolveCandidate)
  VERTEX_HTTP_RPC(LearningService, RecordMonitorRun)
  VERTEX_HTTP_RPC(LearningService, LocatePages)
  VERTEX_HTTP_RPC(LearningService, LearnGazetteer)
  VERTEX_HTTP_RPC(LearningService, TrainListModel)
  VERTEX_HTTP_RPC(LearningService, GetListModel)
  VERTEX_HTTP_RPC(LearningService, SuggestLists)
  VERTEX_HTTP_RPC(LearningService, ListSites)
  VERTEX_HTTP_RPC(LearningService, GetEditorPage)
  VERTEX_HTTP_RPC(LearningService, AnnotateFromFeed)
#undef VERTEX_HTTP_RPC

  absl::StatusOr<v1::ExtractResponse> Extract(const v1::ExtractRequest& request) override {
    const std::string path = absl::StrCat("/v1/extract?url=", httplib::detail::encode_query_param(request.url()),
                                          "&site=", httplib::detail::encode_query_param(request.site()));
    httplib::Result r = client_->Post(path, request.html(), "text/html");
    if (absl::Status s = StatusOfReply(r); !s.ok()) return s;
    v1::ExtractResponse out;
    if (!google::protobuf::util::JsonStringToMessage(r->body, &out).ok()) {
      return absl::InternalError("response is not JSON ExtractResponse: " + r->body);
    }
    return out;
  }
  absl::StatusOr<std::vector<v1::ExtractResponse>> ExtractMany(
      const std::vector<v1::ExtractRequest>& requests) override {
    std::vector<v1::ExtractResponse> out;
    for (const v1::ExtractRequest& request : requests) {
      absl::StatusOr<v1::ExtractResponse> one = Extract(request);
      if (!one.ok()) return one.status();
      one->set_id(request.id());
      out.push_back(*std::move(one));
    }
    return out;
  }

 private:
  std::unique_ptr<httplib::Client> client_;
  std::string token_;
};

struct DemoShop {
  schema::CompiledSchema schema;
  std::vector<workflow::ClientPage> pages;
  eval::GroundTruth truth;
};

class HttpServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test_support::TempDir("http_server_test");
    demo::SiteOptions options;
    options.product_pages = 80;
    options.category_pages = 20;
    options.review_pages = 15;
    options.store_pages = 15;
    const std::string site_dir = dir_->path() + "/shop";
    ASSERT_TRUE(demo::WriteSite(demo::GenerateSite(options), site_dir).ok());
    shop_ = new DemoShop{schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product").value(),
                         workflow::ReadClientPages({site_dir}, 8 << 20).value(),
                         eval::LoadGroundTruth(site_dir + "/groundtruth/product", "vertexdemo").value()};
    vertexd_ = new Vertexd(dir_->path(), "vertexd", {"--auth-token", kToken});
    ASSERT_NE(vertexd_->http_port(), 0) << vertexd_->process().log();
  }
  static void TearDownTestSuite() {
    delete vertexd_;
    delete shop_;
    delete dir_;
  }

  // Learns the shop over HTTP once for the suite.
  static const workflow::ApiRunReport& Learnt() {
    static const workflow::ApiRunReport* report = [] {
      HttpApi api(vertexd_->Client(), kToken);
      absl::StatusOr<workflow::ApiRunReport> r =
          workflow::RunSiteThroughApi(api, api, "shop", shop_->schema, shop_->pages, shop_->truth);
      EXPECT_TRUE(r.ok()) << r.status();
      return new workflow::ApiRunReport(r.ok() ? *std::move(r) : workflow::ApiRunReport{});
    }();
    return *report;
  }

  static test_support::TempDir* dir_;
  static DemoShop* shop_;
  static Vertexd* vertexd_;
};

test_support::TempDir* HttpServerTest::dir_ = nullptr;
DemoShop* HttpServerTest::shop_ = nullptr;
Vertexd* HttpServerTest::vertexd_ = nullptr;

TEST_F(HttpServerTest, TheDemoShopLearntOverHttpExtractsAsOverGrpc) {
  const workflow::ApiRunReport& report = Learnt();
  ASSERT_EQ(report.records.size(), shop_->pages.size());
  client::ConnectOptions o;
  o.server = vertexd_->process().address();
  o.timeout_seconds = 120;
  auto grpc = client::ConnectExtraction(o).value();
  size_t ok = 0;
  for (size_t i = 0; i < shop_->pages.size(); ++i) {
    v1::ExtractRequest request;
    request.set_site("shop");
    request.set_url(shop_->pages[i].url);
    request.set_html(shop_->pages[i].bytes);
    absl::StatusOr<v1::ExtractResponse> over_grpc = grpc->Extract(request);
    ASSERT_TRUE(over_grpc.ok()) << over_grpc.status();
    v1::ExtractResponse over_http = report.records[i];
    over_http.clear_id();
    EXPECT_EQ(ToJson(over_http), ToJson(*over_grpc)) << shop_->pages[i].url;
    ok += over_grpc->record().status() == v1::ExtractedRecord::OK;
  }
  // The demo's product template is learnt: most pages give full records.
  EXPECT_GE(ok, shop_->pages.size() / 2);
}

TEST_F(HttpServerTest, ReadableRoutesFillPathAndQueryParameters) {
  ASSERT_FALSE(Learnt().records.empty());
  auto c = vertexd_->Client();
  httplib::Result rules = c->Get("/v1/sites/shop/rules");
  ASSERT_TRUE(rules) << httplib::to_string(rules.error());
  ASSERT_EQ(rules->status, 200) << rules->body;
  EXPECT_EQ(rules->get_header_value("Content-Type"), "application/json");
  v1::ListRulesResponse list;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(rules->body, &list).ok()) << rules->body;
  EXPECT_EQ(list.site(), "shop");
  const v1::ClusterRules* learnt = nullptr;
  for (const v1::ClusterRules& c : list.clusters()) {
    if (c.cluster().current_version() > 0) learnt = &c;
  }
  ASSERT_NE(learnt, nullptr) << rules->body;
  // int64 is a JSON string (proto3's mapping), proto field names kept.
  EXPECT_THAT(rules->body, HasSubstr(absl::StrCat("\"current_version\":\"", learnt->cluster().current_version(), "\"")));
  const std::string cluster = learnt->cluster().cluster_id();
  const std::string version = absl::StrCat(learnt->cluster().current_version());
  httplib::Result rule = c->Get(absl::StrCat("/v1/sites/shop/clusters/", cluster, "/rules/", version));
  ASSERT_TRUE(rule);
  ASSERT_EQ(rule->status, 200) << rule->body;
  v1::GetRuleResponse got;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(rule->body, &got).ok()) << rule->body;
  EXPECT_EQ(got.rule().cluster_id(), cluster);
  EXPECT_EQ(absl::StrCat(got.rule().version()), version);
  httplib::Result tasks = c->Get("/v1/sites/shop/tasks?max_pages=1&include_html=false");
  ASSERT_TRUE(tasks);
  EXPECT_EQ(tasks->status, 200) << tasks->body;
  httplib::Result history = c->Get("/v1/sites/shop/history?limit=5");
  ASSERT_TRUE(history);
  EXPECT_EQ(history->status, 200) << history->body;
  EXPECT_EQ(history->body, "{\"runs\":[]}");
  // Enums by name: an extracted record's status.
  const workflow::ClientPage& page = shop_->pages.front();
  httplib::Result one = c->Post(absl::StrCat("/v1/extract?site=shop&url=", httplib::detail::encode_query_param(page.url)),
                                page.bytes, "text/html; charset=utf-8");
  ASSERT_TRUE(one);
  ASSERT_EQ(one->status, 200) << one->body;
  EXPECT_THAT(one->body, ::testing::ContainsRegex("\"status\":\"(OK|PARTIAL|NO_URL_MATCH|NO_SHINGLE_MATCH)\""));
}

TEST_F(HttpServerTest, ErrorsAreJsonWithTheMappedStatus) {
  auto c = vertexd_->Client();
  struct Case {
    std::string method, path, body, content_type;
    bool token;
    int status;
    std::string code, message;
  };
  const std::vector<Case> cases = {
      {"GET", "/v1/nothing/here", "", "", false, 404, "NOT_FOUND", "no route for GET /v1/nothing/here"},
      {"GET", "/v1/extract", "", "", false, 405, "INVALID_ARGUMENT", "GET is not allowed on /v1/extract"},
      {"POST", "/v1/rpc/vertex.v1.LearningService/Learn", "{\"site\": ", "application/json", true, 400,
       "INVALID_ARGUMENT", "request body is not a JSON vertex.v1.LearnRequest"},
      {"POST", "/v1/rpc/vertex.v1.LearningService/ListRules", "{\"site\": \"shop\", \"colour\": 1}",
       "application/json", false, 400, "INVALID_ARGUMENT", "colour"},
      {"POST", "/v1/sites/shop/learn", "{\"cluster_id\": \"c1\"}", "application/json", false, 401,
       "UNAUTHENTICATED", "missing bearer token"},
      {"GET", "/v1/sites/no-such-site/rules", "", "", false, 404, "NOT_FOUND", "no-such-site"},
      {"GET", "/v1/sites/shop/history?limit=many", "", "", false, 400, "INVALID_ARGUMENT",
       "parameter limit: 'many' is not a uint32"},
      {"GET", "/v1/sites/shop/history?colour=red", "", "", false, 400, "INVALID_ARGUMENT",
       "unknown query parameter 'colour'"},
      {"POST", "/v1/sites/shop/learn", "{\"site\": \"other\"}", "application/json", true, 400, "INVALID_ARGUMENT",
       "field site is 'other' in the body but 'shop' in the path"},
      {"POST", "/v1/extract", "{\"url\": \"http://x/\"}", "application/json", false, 400, "INVALID_ARGUMENT",
       "html"},
  };
  for (const Case& k : cases) {
    httplib::Headers headers;
    if (k.token) headers.emplace("Authorization", std::string("Bearer ") + kToken);
    httplib::Result r = k.method == "GET" ? c->Get(k.path, headers) : c->Post(k.path, headers, k.body, k.content_type);
    ASSERT_TRUE(r) << k.method << " " << k.path;
    EXPECT_EQ(r->status, k.status) << k.method << " " << k.path << ": " << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "application/json") << k.path;
    EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff") << k.path;
    EXPECT_THAT(r->body, HasSubstr(absl::StrCat("\"code\": \"", k.code, "\""))) << k.path;
    EXPECT_THAT(r->body, HasSubstr(k.message)) << k.method << " " << k.path;
  }
  // A wrong token is refused by the gRPC path's check, as over gRPC.
  httplib::Result bad_token = c->Post("/v1/sites/shop/learn", {{"Authorization", "Bearer not-it"}},
                                      "{\"cluster_id\": \"c1\"}", "application/json");
  ASSERT_TRUE(bad_token);
  EXPECT_EQ(bad_token->status, 401);
  EXPECT_THAT(bad_token->body, HasSubstr("invalid bearer token"));
  httplib::Result wrong = c->Get("/v1/extract");
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->get_header_value("Allow"), "POST");
}

TEST_F(HttpServerTest, StaticPagesAndTheRouteList) {
  auto c = vertexd_->Client();
  httplib::Result index = c->Get("/");
  ASSERT_TRUE(index);
  EXPECT_EQ(index->status, 200);
  EXPECT_EQ(index->get_header_value("Content-Type"), "text/html; charset=utf-8");
  EXPECT_EQ(index->get_header_value("X-Content-Type-Options"), "nosniff");
  EXPECT_THAT(index->get_header_value("Content-Security-Policy"), HasSubstr("default-src 'self'"));
  EXPECT_THAT(index->body, HasSubstr("href=\"/v1\""));
  httplib::Result css = c->Get("/static/style.css");
  ASSERT_TRUE(css);
  EXPECT_EQ(css->status, 200);
  EXPECT_EQ(css->get_header_value("Content-Type"), "text/css; charset=utf-8");
  for (const char* path : {"/static/../CMakeLists.txt", "/static/nothing.js", "/static/x/", "/index.html"}) {
    httplib::Result r = c->Get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 404) << path;
  }
  httplib::Result routes = c->Get("/v1");
  ASSERT_TRUE(routes);
  EXPECT_EQ(routes->status, 200);
  for (const char* want : {"\"/v1/extract\"", "\"/v1/sites/{site}/learn\"", "\"/v1/sites/{site}/history\"",
                           "\"/v1/rpc/vertex.v1.LearningService/Learn\"",
                           "\"/v1/rpc/vertex.v1.MonitoringService/GetHistory\""}) {
    EXPECT_THAT(routes->body, HasSubstr(want));
  }
  // Streaming RPCs are not routes.
  EXPECT_THAT(routes->body, ::testing::Not(HasSubstr("ExtractStream")));
  // A path near httplib's URI limit is answered, not crashed on.
  httplib::Result long_path = c->Post("/v1/" + std::string(8000, 'a'), "{}", "application/json");
  ASSERT_TRUE(long_path);
  EXPECT_EQ(long_path->status, 404);
}

// Whether a line of `log` matches `re` (ECMAScript). The log is not
// printed on failure: it holds a line per call.
bool HasLine(const std::string& log, const std::string& re) {
  std::istringstream in(log);
  const std::regex pattern(re);
  for (std::string line; std::getline(in, line);) {
    if (std::regex_search(line, pattern)) return true;
  }
  ADD_FAILURE() << "no log line matches " << re;
  return false;
}

// The samples of a /metrics scrape: "name{labels}" -> value.
std::map<std::string, double> Scrape(httplib::Client& c) {
  std::map<std::string, double> out;
  httplib::Result r = c.Get("/metrics");
  EXPECT_TRUE(r);
  if (!r) return out;
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  std::istringstream in(r->body);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.rfind(' ');
    out[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return out;
}

double Sum(const std::map<std::string, double>& samples, const std::string& prefix, const std::string& contains = "") {
  double total = 0;
  for (const auto& [key, value] : samples) {
    if (key.rfind(prefix, 0) == 0 && key.find(contains) != std::string::npos) total += value;
  }
  return total;
}

TEST_F(HttpServerTest, MetricsCountHttpAndGrpcCallsAndPages) {
  ASSERT_FALSE(Learnt().records.empty());
  auto c = vertexd_->Client();
  const std::map<std::string, double> before = Scrape(*c);
  const std::string extract_ok =
      "grpc_server_handled_total{grpc_type=\"unary\",grpc_service=\"vertex.v1.ExtractionService\",grpc_method="
      "\"Extract\",grpc_code=\"OK\"}";
  const std::string rules_missing =
      "grpc_server_handled_total{grpc_type=\"unary\",grpc_service=\"vertex.v1.LearningService\",grpc_method="
      "\"ListRules\",grpc_code=\"NOT_FOUND\"}";
  const std::string extract_seconds =
      "grpc_server_handling_seconds_count{grpc_type=\"unary\",grpc_service=\"vertex.v1.ExtractionService\","
      "grpc_method=\"Extract\"}";
  // 3 pages over HTTP, 1 over gRPC unary, 5 over gRPC's ExtractStream, one failing call.
  HttpApi http(vertexd_->Client(), kToken);
  client::ConnectOptions o;
  o.server = vertexd_->process().address();
  o.timeout_seconds = 120;
  auto grpc = client::ConnectExtraction(o).value();
  std::vector<v1::ExtractRequest> stream;
  for (int i = 0; i < 9; ++i) {
    v1::ExtractRequest request;
    request.set_site("shop");
    request.set_url(shop_->pages[i].url);
    request.set_html(shop_->pages[i].bytes);
    if (i < 3) {
      ASSERT_TRUE(http.Extract(request).ok());
    } else if (i == 3) {
      ASSERT_TRUE(grpc->Extract(request).ok());
    } else {
      stream.push_back(request);
    }
  }
  ASSERT_TRUE(grpc->ExtractMany(stream).ok());
  ASSERT_TRUE(c->Get("/v1/sites/no-such-site/rules"));
  // gRPC's own health service (ByteBuffer messages, not read): counted, and
  // the server lives on (regression: reading its messages as protobuf crashed).
  absl::StatusOr<std::string> health = rpc::CheckHealth(
      grpc::CreateChannel(vertexd_->process().address(), grpc::InsecureChannelCredentials()), "",
      std::chrono::system_clock::now() + std::chrono::seconds(10));
  ASSERT_TRUE(health.ok()) << health.status();
  EXPECT_EQ(*health, "SERVING");
  v1::MonitorRequest monitor;
  monitor.set_site("shop");
  for (int i = 0; i < 6; ++i) {
    v1::Page* p = monitor.add_pages();
    p->set_url(shop_->pages[i].url);
    p->set_html(shop_->pages[i].bytes);
  }
  absl::StatusOr<v1::MonitorResponse> verdict =
      http.Rpc<v1::MonitorResponse>("vertex.v1.MonitoringService/Monitor", monitor);
  ASSERT_TRUE(verdict.ok()) << verdict.status();
  const std::map<std::string, double> after = Scrape(*c);
  auto delta = [&](const std::string& key) { return (after.count(key) ? after.at(key) : 0) - (before.count(key) ? before.at(key) : 0); };
  EXPECT_EQ(delta(extract_ok), 4);
  EXPECT_EQ(delta(extract_seconds), 4);
  EXPECT_EQ(delta(rules_missing), 1);
  EXPECT_EQ(delta("grpc_server_handled_total{grpc_type=\"unary\",grpc_service=\"grpc.health.v1.Health\",grpc_method="
                  "\"Check\",grpc_code=\"OK\"}"),
            1);
  EXPECT_EQ(Sum(after, "vertex_extracted_pages_total", "site=\"shop\"") -
                Sum(before, "vertex_extracted_pages_total", "site=\"shop\""),
            9);
  const std::string verdicts = absl::StrCat("vertex_monitor_verdicts_total{site=\"shop\",verdict=\"",
                                            v1::ClusterVerdict::Verdict_Name(verdict->verdict()), "\"}");
  EXPECT_EQ(delta(verdicts), 1);
  EXPECT_EQ(Sum(after, "vertex_monitor_verdicts_total") - Sum(before, "vertex_monitor_verdicts_total"), 1);
  EXPECT_EQ(Sum(after, "grpc_server_started_total", "ExtractStream") -
                Sum(before, "grpc_server_started_total", "ExtractStream"),
            1);
  // Started and handled agree once no call is in flight (the scrape itself is not a call).
  EXPECT_EQ(Sum(after, "grpc_server_started_total"), Sum(after, "grpc_server_handled_total"));
  // Scrape-time gauges: the store and the process.
  v1::ListRulesRequest list;
  list.set_site("shop");
  absl::StatusOr<v1::ListRulesResponse> rules = http.ListRules(list);
  ASSERT_TRUE(rules.ok());
  int current = 0;
  for (const v1::ClusterRules& r : rules->clusters()) current += r.cluster().current_version() > 0;
  EXPECT_EQ(after.at("vertex_rules_current{site=\"shop\"}"), current);
  EXPECT_GE(after.at("vertex_rule_versions{site=\"shop\"}"), current);
  EXPECT_EQ(after.at("vertex_sites"), 1);
  EXPECT_GT(after.at("process_resident_memory_bytes"), 1e6);
  EXPECT_TRUE(after.count("vertex_store_sst_bytes"));
  EXPECT_GT(after.at("vertex_store_live_data_bytes") + after.at("vertex_store_sst_bytes") +
                after.at("vertex_store_memtable_bytes"),
            0);
  EXPECT_EQ(after.at("vertex_extraction_admission_waiting"), 0);
  EXPECT_EQ(after.at("vertex_extraction_admission_limit"), 0);
  // The access log (text, the default): one line per call with the site and the HTTP client as peer.
  const std::string log = vertexd_->process().log();
  EXPECT_TRUE(HasLine(log, "access vertex.v1.LearningService/ListRules site=no-such-site code=NOT_FOUND ms="));
  EXPECT_TRUE(HasLine(log, "access vertex.v1.ExtractionService/Extract site=shop code=OK ms=[0-9.]+ "
                           "peer=http:127.0.0.1:[0-9]+"));
  EXPECT_TRUE(HasLine(log, "access vertex.v1.ExtractionService/Extract site=shop code=OK ms=[0-9.]+ "
                           "peer=ipv4:127.0.0.1:[0-9]+"));
  // One line per stream, not per message.
  size_t streams = 0;
  for (size_t at = log.find("access vertex.v1.ExtractionService/ExtractStream"); at != std::string::npos;
       at = log.find("access vertex.v1.ExtractionService/ExtractStream", at + 1)) {
    ++streams;
  }
  EXPECT_EQ(streams, 1u);
}

TEST(HttpServerAccessLog, JsonAndOff) {
  test_support::TempDir dir("http_access_log");
  {
    Vertexd json(dir.path(), "json", {"--access-log", "json"});
    ASSERT_NE(json.http_port(), 0) << json.process().log();
    auto c = json.Client();
    ASSERT_TRUE(c->Get("/v1/sites/missing/rules"));
    httplib::Result made = c->Post("/v1/sites/made", R"({"schema": {"vertical": "v", "attributes": [{"name": "a"}]}})",
                                   "application/json");
    ASSERT_TRUE(made);
    ASSERT_EQ(made->status, 200) << made->body;
    const std::string log = json.process().log();
    EXPECT_TRUE(HasLine(log, "^\\{\"ts\":\"[0-9T:.Z-]+\",\"access\":\"vertex.v1.LearningService/ListRules\",\"site\":"
                             "\"missing\",\"code\":\"NOT_FOUND\",\"ms\":[0-9.]+,\"peer\":\"http:127.0.0.1:[0-9]+\"\\}$"));
    EXPECT_TRUE(HasLine(log, "^\\{\"ts\":\"[0-9T:.Z-]+\",\"access\":\"vertex.v1.LearningService/RegisterSite\",\"site\":"
                             "\"made\",\"code\":\"OK\",\"ms\":[0-9.]+,\"peer\":\"http:127.0.0.1:[0-9]+\"\\}$"));
  }
  Vertexd off(dir.path(), "off", {"--access-log", "off"});
  ASSERT_NE(off.http_port(), 0) << off.process().log();
  ASSERT_TRUE(off.Client()->Get("/v1/sites/missing/rules"));
  EXPECT_THAT(off.process().log(), ::testing::Not(HasSubstr("access ")));
  EXPECT_THAT(off.process().log(), ::testing::Not(HasSubstr("\"access\"")));
}

// HTTPS with the gRPC server's certificate, and mutual TLS with its CA:
// certificates made by the openssl CLI at test time.
class HttpTlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("openssl version >/dev/null 2>&1") != 0) GTEST_SKIP() << "the openssl CLI is not installed";
    // httplib's TLS client writes with OpenSSL: a server hanging up on it
    // must not kill the test with SIGPIPE.
    signal(SIGPIPE, SIG_IGN);
    ASSERT_TRUE(Run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=ca "
                    "-addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign "
                    "-keyout ca.key -out ca.pem"));
    ASSERT_TRUE(MakeCert("server", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth"));
    ASSERT_TRUE(MakeCert("client", "extendedKeyUsage=clientAuth"));
  }
  bool Run(const std::string& command) {
    return std::system(("cd '" + dir_.path() + "' && " + command + " >openssl.log 2>&1").c_str()) == 0;
  }
  bool MakeCert(const std::string& name, const std::string& extensions) {
    std::ofstream(dir_.path() + "/" + name + ".ext") << extensions << "\n";
    return Run("openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=" + name + " -keyout " +
               name + ".key -out " + name + ".csr") &&
           Run("openssl x509 -req -in " + name + ".csr -CA ca.pem -CAkey ca.key -set_serial 7 -days 2 -extfile " +
               name + ".ext -out " + name + ".pem");
  }
  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }
  // GET /v1 over HTTPS trusting the test CA, with the client certificate
  // when `client_cert`; the HTTP status, or -1 when the TLS handshake fails.
  int GetRoutes(int port, bool client_cert) {
    httplib::SSLClient c("127.0.0.1", port, client_cert ? Path("client.pem") : "",
                         client_cert ? Path("client.key") : "");
    c.set_ca_cert_path(Path("ca.pem").c_str());
    c.enable_server_certificate_verification(true);
    c.set_read_timeout(std::chrono::seconds(30));
    httplib::Result r = c.Get("/v1");
    return r ? r->status : -1;
  }
  test_support::TempDir dir_{"http_tls"};
};

TEST_F(HttpTlsTest, HttpsWithTheGrpcCertificateAndMutualTls) {
  Vertexd tls(dir_.path(), "tls", {"--tls-cert", Path("server.pem"), "--tls-key", Path("server.key")});
  ASSERT_NE(tls.http_port(), 0) << tls.process().log();
  EXPECT_THAT(tls.process().log(), HasSubstr("HTTP listening on https://127.0.0.1:"));
  EXPECT_EQ(GetRoutes(tls.http_port(), false), 200);
  // Plain HTTP to the HTTPS port gets no HTTP answer.
  httplib::Result plain = tls.Client()->Get("/v1");
  EXPECT_TRUE(!plain || plain->status != 200);
  Vertexd mtls(dir_.path(), "mtls",
               {"--tls-cert", Path("server.pem"), "--tls-key", Path("server.key"), "--tls-ca", Path("ca.pem")});
  ASSERT_NE(mtls.http_port(), 0) << mtls.process().log();
  EXPECT_EQ(GetRoutes(mtls.http_port(), true), 200);
  EXPECT_EQ(GetRoutes(mtls.http_port(), false), -1);
}

TEST(HttpServerLimits, ABodyOverTheMessageLimitIs413) {
  test_support::TempDir dir("http_limits");
  Vertexd vertexd(dir.path(), "small", {"--max-message-bytes", "4096"});
  ASSERT_NE(vertexd.http_port(), 0) << vertexd.process().log();
  auto c = vertexd.Client();
  httplib::Result r = c->Post("/v1/extract?url=http://x/", std::string(5000, 'x'), "text/html");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_THAT(r->body, HasSubstr("request body larger than 4096 bytes"));
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  // SIGTERM stops HTTP with gRPC: a clean exit.
  const int status = vertexd.process().Stop(SIGTERM);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_THAT(vertexd.process().log(), HasSubstr("stopped"));
}

// Runs `command` with stdout and stderr into a file; its exit status and output.
std::pair<int, std::string> RunCommand(const std::string& command, const std::string& dir) {
  const std::string out = dir + "/out.txt";
  const int status = std::system((command + " > " + out + " 2>&1").c_str());
  std::ifstream in(out);
  return {status, std::string(std::istreambuf_iterator<char>(in), {})};
}

TEST(HttpServerFlags, TheLearningServiceServesItsOwnRoutesOnly) {
  test_support::TempDir dir("http_learning");
  const std::string port_file = dir.path() + "/learning.http";
  ServerProcess learning(VERTEX_LEARNING_BIN,
                         {"--store", dir.path() + "/store", "--http-port", "0", "--http-port-file", port_file},
                         dir.path(), "learning");
  ASSERT_NE(learning.port(), 0) << learning.log();
  int port = 0;
  for (int i = 0; i < 100 && port == 0; ++i) {
    std::ifstream in(port_file);
    if (!(in >> port)) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_NE(port, 0) << learning.log();
  httplib::Client c("127.0.0.1", port);
  httplib::Result routes = c.Get("/v1");
  ASSERT_TRUE(routes);
  EXPECT_THAT(routes->body, HasSubstr("\"/v1/sites/{site}/learn\""));
  EXPECT_THAT(routes->body, ::testing::Not(HasSubstr("/v1/extract")));
  EXPECT_THAT(routes->body, ::testing::Not(HasSubstr("MonitoringService")));
  httplib::Result extract = c.Post("/v1/extract", "{}", "application/json");
  ASSERT_TRUE(extract);
  EXPECT_EQ(extract->status, 404);
  httplib::Result metrics = c.Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_THAT(metrics->body, HasSubstr("vertex_store_sst_bytes"));
}

TEST(HttpServerFlags, HelpSaysHttpIsOffByDefault) {
  test_support::TempDir dir("http_help");
  auto [status, help] = RunCommand(std::string(VERTEXD_BIN) + " --help", dir.path());
  EXPECT_EQ(status, 0);
  EXPECT_THAT(help, HasSubstr("--http-port N"));
  EXPECT_THAT(help, HasSubstr("default: no HTTP"));
}

TEST(HttpServerFlags, HttpFlagsNeedTheHttpPortAndAValidOne) {
  test_support::TempDir dir("http_flags");
  const std::string vertexd = std::string(VERTEXD_BIN) + " --listen 127.0.0.1:0 --store " + dir.path() + "/store";
  auto [status, out] = RunCommand(vertexd + " --http-address 127.0.0.1", dir.path());
  EXPECT_NE(status, 0);
  EXPECT_THAT(out, HasSubstr("--http-address: needs --http-port"));
  std::tie(status, out) = RunCommand(vertexd + " --http-port 70000", dir.path());
  EXPECT_NE(status, 0);
  EXPECT_THAT(out, HasSubstr("--http-port"));
}

}  // namespace
}  // namespace vertex
