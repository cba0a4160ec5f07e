// vertexctl monitor | health: what schedulers and probes run. monitor works
// offline or online (backend.h); health asks a server's grpc.health.v1
// service.
#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/site/page_file.h"
#include "common/util/status_macros.h"
#include "services/common/health_client.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

std::vector<FlagSpec> MonitorFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory"),
      {"threshold", "R", "a cluster is CHANGED when more than this share of its pages fails (default 0.2)"},
  };
  for (const FlagSpec& f : ServerFlags("the monitoring service")) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kMonitorUsage[] =
    "usage: vertexctl monitor SITE (--store DIR | --server HOST:PORT) [--threshold R] [PAGE_DIR_OR_FILE...]\n"
    "\n"
    "Asks whether the site's templates changed since its rules were learnt (Vertex IV-B): the\n"
    "pages given (fresh versions of the site's pages; a file's URL from a <base href> first\n"
    "line, else file:// and its path) are routed to clusters by URL regex and tested there:\n"
    "does the cluster's signature cover the page, does its rule extract every mandatory\n"
    "attribute? Prints the MonitorResponse as one line of JSON ({\"site\",\"verdict\",\n"
    "\"clusters\":[{\"cluster_id\",\"verdict\",\"pages\",\"not_covered\",\"missing_mandatory\",\n"
    "\"evidence\"}],\"unrouted_pages\"}). Flags may come after SITE.\n"
    "Exit status: 0 when the verdict is OK, 2 when CHANGED, 1 on any error (usage errors\n"
    "included) or another verdict.\n"
    "\n";

absl::StatusOr<v1::MonitorRequest> MonitorRequestOf(const ParsedArgs& a) {
  if (a.positional.empty()) return absl::InvalidArgumentError("no SITE given (see --help)");
  v1::MonitorRequest request;
  request.set_site(a.positional[0]);
  VERTEX_ASSIGN_OR_RETURN(const double threshold, a.Double("threshold", 0, 0, 1));
  request.set_threshold(threshold);
  const std::vector<std::string> paths(a.positional.begin() + 1, a.positional.end());
  if (paths.empty()) return request;
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths(paths));
  BatchLimits all_at_once;
  all_at_once.max_pages = SIZE_MAX;
  all_at_once.max_bytes = SIZE_MAX;
  VERTEX_RETURN_IF_ERROR(ForEachPageBatch(files, all_at_once, [&](std::vector<v1::Page> pages, const auto&, bool) {
    for (v1::Page& p : pages) *request.add_pages() = std::move(p);
    return absl::OkStatus();
  }));
  return request;
}

absl::StatusOr<v1::MonitorResponse> Monitor(const ParsedArgs& a) {
  VERTEX_RETURN_IF_ERROR(IsOnline(a).status());
  VERTEX_ASSIGN_OR_RETURN(v1::MonitorRequest request, MonitorRequestOf(a));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::MonitoringApi> backend, OpenMonitoring(a, {}));
  return backend->Monitor(request);
}

std::vector<FlagSpec> HealthFlags() {
  std::vector<FlagSpec> flags;
  for (const FlagSpec& f : ServerFlags("the server")) {
    if (f.name != "token") flags.push_back(f);
  }
  flags.push_back({"service", "NAME", "a service's full name, e.g. vertex.v1.ExtractionService (default: the server)"});
  flags.push_back({"help", "", "show this help"});
  for (FlagSpec& f : flags) {
    if (f.name == "server") f.help = "the server to ask (required)";
    if (f.name == "timeout") f.help = "deadline of the check (default 5)";
  }
  return flags;
}

constexpr char kHealthUsage[] =
    "usage: vertexctl health --server HOST:PORT [--service NAME] [--tls-ca FILE] [--timeout SECONDS]\n"
    "\n"
    "Asks the server's grpc.health.v1 Health service how the server (or --service) is and\n"
    "prints the answer: SERVING, NOT_SERVING, UNKNOWN or SERVICE_UNKNOWN. Exit status 0 when\n"
    "SERVING; 1 otherwise, or when the server cannot be reached (the error on stderr). For\n"
    "container healthchecks and probes; needs no token.\n"
    "\n"
    "flags:\n";

absl::StatusOr<std::string> Health(const ParsedArgs& a) {
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"server"}));
  if (!a.positional.empty()) return absl::InvalidArgumentError("unexpected argument " + a.positional[0]);
  VERTEX_ASSIGN_OR_RETURN(client::ConnectOptions options, ConnectOptionsFromFlags(a));
  VERTEX_ASSIGN_OR_RETURN(options.timeout_seconds, a.Double("timeout", 5, 0.001, 1e7));
  VERTEX_ASSIGN_OR_RETURN(std::shared_ptr<grpc::Channel> channel, client::MakeClientChannel(options));
  const auto deadline = std::chrono::system_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(options.timeout_seconds * 1000));
  return rpc::CheckHealth(channel, a.String("service", ""), deadline);
}

// Prints "vertexctl <command>: <message>" to stderr and returns 1.
int Fail(const std::string& command, const absl::Status& status) {
  std::cerr << "vertexctl " << command << ": " << status.message() << "\n";
  return 1;
}

}  // namespace

int RunMonitor(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = MonitorFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kMonitorUsage << BackendHelp("the monitoring service") << "\nflags:\n" << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return Fail("monitor", parsed.status());
  const absl::StatusOr<v1::MonitorResponse> response = Monitor(*parsed);
  if (!response.ok()) return Fail("monitor", response.status());
  if (absl::Status printed = PrintJson(*response); !printed.ok()) return Fail("monitor", printed);
  if (response->verdict() == v1::ClusterVerdict::OK) return 0;
  if (response->verdict() == v1::ClusterVerdict::CHANGED) return 2;
  return Fail("monitor", absl::UnknownError("no verdict: " + v1::ClusterVerdict::Verdict_Name(response->verdict())));
}

int RunHealth(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = HealthFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kHealthUsage << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return Fail("health", parsed.status());
  const absl::StatusOr<std::string> status = Health(*parsed);
  if (!status.ok()) return Fail("health", status.status());
  std::cout << *status << "\n";
  return *status == "SERVING" ? 0 : 1;
}

}  // namespace vertex::cli
