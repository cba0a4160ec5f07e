// The HTTP/JSON face through vertexd (services/http): the demo shop is
// learnt and extracted through the JSON routes alone (the generic
// /v1/rpc/{Service}/{Method} ones and POST /v1/extract with the page as
// text/html), and every record agrees with the same page extracted over
// gRPC; the readable routes fill path and query parameters into the
// request; int64 fields are JSON strings and enums names; each documented
// error (404, 405, 400 for bad JSON and unknown fields, 401 without the
// token, 413, gRPC's NOT_FOUND) comes back as JSON naming the problem;
// the static pages are served with their type, nosniff and the CSP.
#include <httplib.h>

#include <google/protobuf/util/json_util.h>

#include <chrono>
#include <cstdlib>
#include <iterator>
#include <tuple>
#include <fstream>
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
       "UNAUTHENTICATED", "bearer token"},
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
