// http_latency: the latency an Extract call adds over the HTTP/JSON face
// against gRPC unary, same server, same page, same run. Learns the demo
// shop into a temporary store (in process), starts vertexd on it with
// --http-port 0 (and --access-log as given, default off), then sends the
// same product page N times each way, alternating gRPC (a raw stub, one
// channel) and HTTP (POST /v1/extract, text/html, one keep-alive
// connection), after 100 warm-up calls each, on the first page the learnt
// rules extract with status OK; prints p50, p90, p99 and mean
// per way and their difference. Wall times on a shared machine: compare
// the two columns of one run, not runs.
//
//   http_latency --vertexd build/services/vertexd/vertexd [--calls 1000] [--access-log off|text|json]
#include <grpcpp/grpcpp.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/demo/site_generator.h"
#include "common/store/rule_store.h"
#include "common/util/status_macros.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "services/common/flags.h"
#include "vertex/v1/extraction.grpc.pb.h"

namespace vertex {
namespace {

using Clock = std::chrono::steady_clock;

// Learns the demo shop into `store_dir`; the first page its rules extract
// with status OK.
absl::StatusOr<workflow::ClientPage> LearnDemo(const std::string& dir, const std::string& store_dir) {
  demo::SiteOptions options;
  options.product_pages = 80;
  options.category_pages = 20;
  options.review_pages = 15;
  options.store_pages = 15;
  VERTEX_RETURN_IF_ERROR(demo::WriteSite(demo::GenerateSite(options), dir + "/shop"));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema,
                          schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product"));
  VERTEX_ASSIGN_OR_RETURN(std::vector<workflow::ClientPage> pages, workflow::ReadClientPages({dir + "/shop"}, 8 << 20));
  VERTEX_ASSIGN_OR_RETURN(eval::GroundTruth truth, eval::LoadGroundTruth(dir + "/shop/groundtruth/product", "vertexdemo"));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store, store::OpenRocksDbStore(store_dir));
  workflow::ExtractionEngine extraction(store.get(), {});
  workflow::LearningEngine learning(store.get(), {}, [&](const std::string&) { (void)extraction.Refresh(); });
  VERTEX_ASSIGN_OR_RETURN(workflow::ApiRunReport report,
                          workflow::RunSiteThroughApi(learning, extraction, "shop", schema, pages, truth));
  for (size_t i = 0; i < report.records.size(); ++i) {
    if (report.records[i].record().status() == v1::ExtractedRecord::OK &&
        report.records[i].record().attributes_size() > 0) {
      return pages[i];
    }
  }
  return absl::NotFoundError("no page of the demo shop extracted OK");
}

struct Server {
  pid_t pid = -1;
  int grpc_port = 0, http_port = 0;
};

int ReadPort(const std::string& path) {
  int port = 0;
  std::ifstream in(path);
  return (in >> port) ? port : 0;
}

absl::StatusOr<Server> StartVertexd(const std::string& binary, const std::string& dir, const std::string& store,
                                    const std::string& access_log) {
  Server s;
  std::vector<std::string> args = {binary,        "--listen",     "127.0.0.1:0",        "--port-file",
                                   dir + "/port", "--store",      store,                "--http-port",
                                   "0",           "--http-port-file", dir + "/http.port", "--access-log",
                                   access_log,    "--log-level",  "warn"};
  s.pid = fork();
  if (s.pid == 0) {
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  for (int i = 0; i < 300 && (s.grpc_port == 0 || s.http_port == 0); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    s.grpc_port = ReadPort(dir + "/port");
    s.http_port = ReadPort(dir + "/http.port");
  }
  if (s.http_port == 0) return absl::UnavailableError("vertexd did not start: " + binary);
  return s;
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * v.size()))];
}

void Report(const char* name, const std::vector<double>& ms) {
  double mean = 0;
  for (double m : ms) mean += m / ms.size();
  std::printf("%-6s calls %zu  p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  mean %.3f ms\n", name, ms.size(),
              Percentile(ms, 0.5), Percentile(ms, 0.9), Percentile(ms, 0.99), mean);
}

absl::Status Measure(const Server& s, const workflow::ClientPage& page, int calls) {
  auto stub = v1::ExtractionService::NewStub(
      grpc::CreateChannel(absl::StrCat("127.0.0.1:", s.grpc_port), grpc::InsecureChannelCredentials()));
  httplib::Client http("127.0.0.1", s.http_port);
  http.set_keep_alive(true);
  http.set_tcp_nodelay(true);  // as curl and browsers do
  http.set_read_timeout(std::chrono::seconds(30));
  v1::ExtractRequest request;
  request.set_site("shop");
  request.set_url(page.url);
  request.set_html(page.bytes);
  const std::string path = "/v1/extract?site=shop&url=" + httplib::detail::encode_query_param(page.url);
  std::vector<double> grpc_ms, http_ms;
  for (int i = 0; i < calls + 100; ++i) {
    auto t0 = Clock::now();
    grpc::ClientContext context;
    v1::ExtractResponse response;
    grpc::Status st = stub->Extract(&context, request, &response);
    auto t1 = Clock::now();
    httplib::Result r = http.Post(path, page.bytes, "text/html");
    auto t2 = Clock::now();
    if (!st.ok()) return absl::InternalError("gRPC Extract: " + st.error_message());
    if (!r || r->status != 200) return absl::InternalError("HTTP Extract failed: " + (r ? r->body : "no response"));
    if (response.record().status() != v1::ExtractedRecord::OK) return absl::InternalError("record not OK");
    if (i < 100) continue;
    grpc_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    http_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
  }
  std::printf("page %s (%zu bytes), %d calls each way, alternating\n", page.url.c_str(), page.bytes.size(), calls);
  Report("gRPC", grpc_ms);
  Report("HTTP", http_ms);
  std::printf("HTTP - gRPC: p50 %+.3f ms, p99 %+.3f ms\n", Percentile(http_ms, 0.5) - Percentile(grpc_ms, 0.5),
              Percentile(http_ms, 0.99) - Percentile(grpc_ms, 0.99));
  return absl::OkStatus();
}

absl::Status Run(int argc, char** argv) {
  VERTEX_ASSIGN_OR_RETURN(cli::ParsedArgs args,
                          cli::ParseArgs(std::vector<std::string>(argv + 1, argv + argc),
                                         {{"vertexd", "BIN", "the vertexd binary"},
                                          {"calls", "N", "calls each way (default 1000)"},
                                          {"access-log", "FORMAT", "vertexd's --access-log (default off)"}}));
  if (!args.Has("vertexd")) return absl::InvalidArgumentError("--vertexd BIN is required");
  VERTEX_ASSIGN_OR_RETURN(const int64_t calls, args.Int("calls", 1000, 10, 1000000));
  std::string dir = (std::filesystem::temp_directory_path() / "vertex-http-latency-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) return absl::InternalError("mkdtemp failed");
  absl::StatusOr<workflow::ClientPage> page = LearnDemo(dir, dir + "/store");
  absl::Status result = page.status();
  if (page.ok()) {
    absl::StatusOr<Server> server =
        StartVertexd(args.String("vertexd", ""), dir, dir + "/store", args.String("access-log", "off"));
    result = server.status();
    if (server.ok()) {
      result = Measure(*server, *page, static_cast<int>(calls));
      kill(server->pid, SIGTERM);
      waitpid(server->pid, nullptr, 0);
    }
  }
  std::filesystem::remove_all(dir);
  return result;
}

}  // namespace
}  // namespace vertex

int main(int argc, char** argv) {
  const absl::Status s = vertex::Run(argc, argv);
  if (!s.ok()) std::fprintf(stderr, "http_latency: %s\n", s.ToString().c_str());
  return s.ok() ? 0 : 1;
}
