// vertexctl monitor | history | health: what schedulers, operators and
// probes run. monitor and history work offline or online (backend.h);
// health asks a server's grpc.health.v1 service.
#include <algorithm>
#include <iostream>
#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "common/site/page_file.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "services/common/engine_flags.h"
#include "services/common/health_client.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

// Exit codes of vertexctl monitor.
constexpr int kExitOk = 0;
constexpr int kExitError = 1;
constexpr int kExitChanged = 2;
constexpr int kExitUnreachable = 3;

// The --server flags of a command whose calls may fetch pages: --timeout's
// default differs for those calls (client::ConnectOptions).
std::vector<FlagSpec> FetchingServerFlags(const std::string& service, const std::string& fetching_calls) {
  std::vector<FlagSpec> flags = ServerFlags(service);
  for (FlagSpec& f : flags) {
    if (f.name == "timeout") f.help = "--server: deadline of the call (default 60; 3600 " + fetching_calls + ")";
  }
  return flags;
}

std::vector<FlagSpec> MonitorFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory (the run is stored in its history)"),
      {"threshold", "R",
       absl::StrCat("a cluster is CHANGED (BROKEN) when more than this share of its pages fails the shingle "
                    "(field) test; 0 < R <= 1 (default ",
                    monitor::MonitorEngineOptions().threshold, ")")},
      {"cluster", "ID", "test only this cluster; repeat the flag or give a comma-separated list (default: all)"},
      {"dry-run", "", "do not store the run in the site's history"},
      {"feed", "URL|FILE",
       "the site's RSS/Atom feed (an http(s) URL, fetched by the service, or a file): the feed test"},
      {"feed-url", "URL", "with --feed FILE: the URL the feed was read from (the base of its relative links)"},
      {"feed-repair", "", "--feed: relearn the clusters failing the feed test from the feed (stores rules)"},
      {"feed-field", "FIELD=ATTRIBUTE",
       "--feed: compare feed FIELD (title, date, author, link, body, categories) with ATTRIBUTE; repeat the flag "
       "(default: title, date, author, link with the attributes of those names)"},
      {"json", "", "print the MonitorResponse as one line of JSON instead of the report"},
      UrlFlag("the URL of the one page file given (its <base href> ignored); an error with several"),
  };
  for (const FlagSpec& f : ProgressFlags()) flags.push_back(f);
  for (const FlagSpec& f : FetchingServerFlags("the monitoring service", "when no page is given")) flags.push_back(f);
  for (const FlagSpec& f : FetchFlagSpecs()) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kMonitorUsage[] =
    "usage: vertexctl monitor SITE [PAGE_DIR_OR_FILE...] (--store DIR | --server HOST:PORT)\n"
    "                         [--threshold R] [--cluster ID]... [--dry-run] [--json]\n"
    "                         [--feed URL|FILE [--feed-url URL] [--feed-repair]\n"
    "                          [--feed-field FIELD=ATTRIBUTE]...]\n"
    "\n"
    "Asks whether the site's templates changed since its rules were learnt (Vertex IV-B). Each\n"
    "cluster with a rule is tested on fresh versions of its bellwether pages: the pages given\n"
    "(*.htm, *.html of a directory, or files; a file's URL from a <base href> first line, else\n"
    "file:// and its path, or --url URL for a single file; progress (pages sent) goes to stderr\n"
    "when it is a terminal, --progress / --no-progress to force; a page that is no bellwether is routed to a cluster by URL regex), or,\n"
    "when none is given, the bellwether pages fetched by the service (offline: by vertexctl, with\n"
    "the --fetch-* flags; robots.txt obeyed unless --ignore-robots, one request at a time per\n"
    "host). On each page: the shingle test (does the cluster's signature cover it?) and the field\n"
    "test (mandatory attributes extracted, constant attributes equal to their golden values?).\n"
    "The run is stored in the site's history (vertexctl history) unless --dry-run.\n"
    "\n"
    "With --feed, the feed test too: each feed item's entry page (among the pages given, else\n"
    "fetched by the service) must give the item's title, date, author and link under the current\n"
    "rule, and list pages (home, archives) the feed's titles in feed order; a cluster where a\n"
    "field disagrees on more than the threshold of its pages is BROKEN (unless CHANGED). One line\n"
    "per cluster judged follows the clusters:\n"
    "  feed c1  FAILED  11 pages: title 1/11, date 11/11, author 11/11, link 11/11\n"
    "--feed-repair (needs --feed; not with --dry-run; a write: --token online) then relearns the\n"
    "site from the run's pages (as vertexctl relearn does) and learns each failed cluster from the\n"
    "feed with no editor (AnnotateFromFeed with learn): the rule is accepted when it reproduces the\n"
    "feed on pages it was not learnt from, else stored as a candidate (vertexctl rules accept).\n"
    "\n"
    "Prints one line per cluster tested, with its verdict, counts and why, then up to 5 failing\n"
    "pages indented, then the site's verdict:\n"
    "  c0  CHANGED      20 pages, 18 not covered, 0 missing mandatory, 0 changed constants,\n"
    "                   0 unreachable; rule v2: shingle test failed: ...  (on one line)\n"
    "      http://shop.example/p/1.html: the signature does not cover the page\n"
    "  site shop: CHANGED (1 CHANGED, 3 OK); pages supplied, 0 unrouted; recorded in the history\n"
    "With --json, the MonitorResponse as one line of JSON instead (protobuf JSON mapping of\n"
    "proto/vertex/v1/monitoring.proto). Verdicts: OK, CHANGED (template changed), BROKEN (the\n"
    "template holds but the rule fails the field test), UNREACHABLE (fewer than half the pages\n"
    "could be fetched), NO_PAGES (no page to test). Flags may come after SITE.\n"
    "Exit status: 0 when the site's verdict is OK or NO_PAGES, 2 when CHANGED or BROKEN,\n"
    "3 when UNREACHABLE, 1 on any error (usage errors included).\n"
    "\n";

// Feeds larger than this are refused by the parser anyway.
constexpr size_t kMaxFeedBytes = size_t{16} << 20;

// --feed (a URL, or a file read into feed_xml), --feed-repair, --feed-field.
absl::Status FeedOfFlags(const ParsedArgs& a, v1::MonitorRequest* request) {
  if (!a.Has("feed")) {
    if (a.Has("feed-repair") || a.Has("feed-field") || a.Has("feed-url")) {
      return absl::InvalidArgumentError("--feed-repair, --feed-field and --feed-url need --feed URL|FILE");
    }
    return absl::OkStatus();
  }
  const std::string feed = a.String("feed", "");
  if (absl::StartsWith(feed, "http://") || absl::StartsWith(feed, "https://")) {
    if (a.Has("feed-url")) return absl::InvalidArgumentError("--feed-url goes with --feed FILE, not a URL");
    request->set_feed_url(feed);
  } else {
    request->set_feed_url(a.String("feed-url", ""));
    absl::StatusOr<std::string> xml = util::ReadFile(feed, kMaxFeedBytes);
    if (!xml.ok()) return absl::InvalidArgumentError("--feed " + feed + ": " + std::string(xml.status().message()));
    if (xml->empty()) return absl::InvalidArgumentError("--feed " + feed + ": the file is empty");
    request->set_feed_xml(*std::move(xml));
  }
  request->set_feed_repair(a.Has("feed-repair"));
  for (const std::string& pair : a.List("feed-field")) {
    const size_t eq = pair.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size()) {
      return absl::InvalidArgumentError("--feed-field wants FIELD=ATTRIBUTE, not '" + pair + "'");
    }
    (*request->mutable_feed_field_to_attribute())[pair.substr(0, eq)] = pair.substr(eq + 1);
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::MonitorRequest> MonitorRequestOf(const ParsedArgs& a) {
  if (a.positional.empty()) return absl::InvalidArgumentError("no SITE given (see --help)");
  v1::MonitorRequest request;
  request.set_site(a.positional[0]);
  if (a.Has("threshold")) {
    const std::string given = a.String("threshold", "");
    double threshold = 0;
    if (!absl::SimpleAtod(given, &threshold) || !(threshold > 0 && threshold <= 1)) {
      return absl::InvalidArgumentError("--threshold must be a number above 0 and at most 1, not '" + given + "'");
    }
    request.set_threshold(threshold);
  }
  for (const std::string& id : a.List("cluster")) request.add_cluster_ids(id);
  request.set_dry_run(a.Has("dry-run"));
  VERTEX_RETURN_IF_ERROR(FeedOfFlags(a, &request));
  return request;
}

// Offline, the engine fetches with the fetch flags' options.
absl::StatusOr<monitor::MonitorEngineOptions> OfflineMonitorOptions(const ParsedArgs& a) {
  monitor::MonitorEngineOptions options;
  if (a.Has("server")) return options;
  VERTEX_ASSIGN_OR_RETURN(const fetch::FetchOptions fetch_options, FetchOptionsFromArgs(a));
  options.fetcher = fetch::NewCurlFetcher(fetch_options);
  return options;
}

absl::StatusOr<v1::MonitorResponse> Monitor(const ParsedArgs& a) {
  VERTEX_RETURN_IF_ERROR(IsOnline(a).status());
  VERTEX_RETURN_IF_ERROR(RejectOfflineFlags(a, FetchFlagSpecs()));
  VERTEX_ASSIGN_OR_RETURN(v1::MonitorRequest request, MonitorRequestOf(a));
  const std::vector<std::string> paths(a.positional.begin() + 1, a.positional.end());
  std::vector<std::string> files;
  if (!paths.empty()) {
    VERTEX_ASSIGN_OR_RETURN(files, site::ExpandPagePaths(paths));
  }
  VERTEX_ASSIGN_OR_RETURN(const std::string url, UrlFromFlags(a, files));
  VERTEX_ASSIGN_OR_RETURN(monitor::MonitorEngineOptions options, OfflineMonitorOptions(a));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::MonitoringApi> backend, OpenMonitoring(a, std::move(options)));
  if (paths.empty()) return backend->Monitor(request);  // the bellwethers are fetched
  // The pages a batch at a time: one run, never the whole directory held.
  VERTEX_ASSIGN_OR_RETURN(const bool show_progress, ProgressEnabled(a));
  Progress progress("monitor (pages sent)", files.size(), show_progress);
  BatchLimits limits = StreamBatchLimits();
  limits.url = url;
  limits.progress = &progress;
  PageBatches pages(std::move(files), limits);
  absl::StatusOr<v1::MonitorResponse> response = backend->MonitorStream(RequestMessages(std::move(request), &pages));
  progress.Finish();
  return response;
}

std::string VerdictName(v1::ClusterVerdict::Verdict v) { return v1::ClusterVerdict::Verdict_Name(v); }

// "1 page", "2 pages".
std::string Count(uint32_t n, const std::string& noun) { return absl::StrCat(n, " ", noun, n == 1 ? "" : "s"); }

// "c0  CHANGED      20 pages, ...; rule v2: reason" and its evidence.
std::string ClusterReport(const v1::ClusterVerdict& c, size_t id_width) {
  std::string out = c.cluster_id() + std::string(id_width - c.cluster_id().size() + 2, ' ');
  const std::string verdict = VerdictName(c.verdict());
  out += verdict + std::string(verdict.size() < 13 ? 13 - verdict.size() : 1, ' ');
  absl::StrAppend(&out, Count(c.pages(), "page"), ", ", c.not_covered(), " not covered, ", c.missing_mandatory(),
                  " missing mandatory, ", Count(c.constant_changed(), "changed constant"), ", ", c.unreachable(),
                  " unreachable; rule v", c.rule_version(), ": ", c.reason(), "\n");
  for (const std::string& e : c.evidence()) absl::StrAppend(&out, "    ", e, "\n");
  return out;
}

// "site shop: CHANGED (1 CHANGED, 3 OK); pages supplied, 0 unrouted; ...".
std::string SiteReport(const v1::MonitorResponse& r) {
  std::map<int, int> counts;  // by verdict
  for (const v1::ClusterVerdict& c : r.clusters()) ++counts[c.verdict()];
  std::vector<std::string> parts;
  for (const auto& [verdict, n] : counts) {
    parts.push_back(absl::StrCat(n, " ", VerdictName(static_cast<v1::ClusterVerdict::Verdict>(verdict))));
  }
  const std::string recorded = r.recorded() ? "recorded in the history" : "not recorded: " + r.not_recorded_reason();
  return absl::StrCat("site ", r.site(), ": ", VerdictName(r.verdict()), " (", absl::StrJoin(parts, ", "), "); pages ",
                      r.source(), ", ", r.unrouted_pages(), " unrouted; ", recorded, "\n");
}

// The feed test: one line per cluster judged, the items not reached, and
// the repairs.
std::string FeedReport(const v1::FeedCheck& f) {
  if (!f.error().empty()) return "feed: no feed test: " + f.error() + "\n";
  std::string out = absl::StrCat("feed ", f.feed_format(), ", ", Count(f.items(), "item"), ": ",
                                 Count(f.entry_pages(), "entry page"), " and ", Count(f.list_pages(), "list page"),
                                 " judged, ", f.unreachable_size(), " unreachable, ", f.unchecked_size(),
                                 " judged by no rule\n");
  for (const v1::ClusterFeedCheck& c : f.clusters()) {
    std::vector<std::string> fields;
    for (const v1::ClusterFeedCheck::Field& x : c.fields()) {
      fields.push_back(absl::StrCat(x.field(), " ", x.agree(), "/", x.pages()));
    }
    absl::StrAppend(&out, "  feed ", c.cluster_id(), "  ", c.failed() ? "FAILED" : "OK", "  ", Count(c.pages(), "page"),
                    ": ", absl::StrJoin(fields, ", "), "\n");
  }
  for (const std::string& u : f.unreachable()) absl::StrAppend(&out, "    unreachable: ", u, "\n");
  for (const std::string& e : f.repair_errors()) absl::StrAppend(&out, "  repair failed: ", e, "\n");
  for (const v1::FeedClusterLearn& l : f.repairs()) {
    absl::StrAppend(&out, "  repair ", l.cluster_id(), "  ", v1::FeedClusterLearn::Outcome_Name(l.outcome()),
                    l.version() > 0 ? absl::StrCat(" v", l.version()) : "", l.reason().empty() ? "" : ": " + l.reason(),
                    "\n");
  }
  return out;
}

void PrintMonitorReport(const v1::MonitorResponse& r) {
  size_t width = 0;
  for (const v1::ClusterVerdict& c : r.clusters()) width = std::max(width, c.cluster_id().size());
  for (const v1::ClusterVerdict& c : r.clusters()) std::cout << ClusterReport(c, width);
  if (r.has_feed()) std::cout << FeedReport(r.feed());
  std::cout << SiteReport(r);
}

int MonitorExitCode(v1::ClusterVerdict::Verdict v) {
  switch (v) {
    case v1::ClusterVerdict::OK:
    case v1::ClusterVerdict::NO_PAGES:
      return kExitOk;
    case v1::ClusterVerdict::CHANGED:
    case v1::ClusterVerdict::BROKEN:
      return kExitChanged;
    case v1::ClusterVerdict::UNREACHABLE:
      return kExitUnreachable;
    default:
      return kExitError;
  }
}

std::vector<FlagSpec> HistoryFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory"),
      {"limit", "N", "the newest N runs (default 20)"},
      {"json", "", "print the GetHistoryResponse as one line of JSON instead"},
  };
  for (const FlagSpec& f : ServerFlags("the monitoring service")) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kHistoryUsage[] =
    "usage: vertexctl history SITE (--store DIR | --server HOST:PORT) [--limit N] [--json]\n"
    "\n"
    "The site's stored monitoring runs (vertexctl monitor, the monitoring service's Monitor),\n"
    "newest first, one line each: when it started (UTC), where its pages came from (supplied\n"
    "or fetched), the site's verdict, and each cluster's verdict:\n"
    "  2024-05-01T03:00:04Z  fetched   CHANGED      c0 CHANGED, c1 OK, c2 NO_PAGES\n"
    "Nothing is printed when no run is stored. With --json, the GetHistoryResponse as one line\n"
    "of JSON (protobuf JSON mapping of proto/vertex/v1/monitoring.proto: every run with its\n"
    "clusters' checks and evidence). Flags may come after SITE.\n"
    "\n";

std::string RunLine(const v1::MonitorRun& run) {
  const std::string when =
      absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixMillis(run.started_unix_ms()), absl::UTCTimeZone());
  const std::string verdict = VerdictName(run.verdict());
  std::vector<std::string> clusters;
  for (const v1::ClusterVerdict& c : run.clusters())
    clusters.push_back(c.cluster_id() + " " + VerdictName(c.verdict()));
  std::string source = run.source();
  source.resize(std::max<size_t>(source.size() + 1, 10), ' ');
  return absl::StrCat(when, "  ", source, verdict, std::string(verdict.size() < 13 ? 13 - verdict.size() : 1, ' '),
                      absl::StrJoin(clusters, ", "), "\n");
}

absl::Status History(const ParsedArgs& a) {
  VERTEX_RETURN_IF_ERROR(IsOnline(a).status());
  if (a.positional.empty()) return absl::InvalidArgumentError("no SITE given (see --help)");
  if (a.positional.size() > 1) return absl::InvalidArgumentError("unexpected argument " + a.positional[1]);
  v1::GetHistoryRequest request;
  request.set_site(a.positional[0]);
  VERTEX_ASSIGN_OR_RETURN(const int64_t limit, a.Int("limit", 20, 1, 1000000));
  request.set_limit(static_cast<uint32_t>(limit));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::MonitoringApi> backend, OpenMonitoring(a, {}));
  VERTEX_ASSIGN_OR_RETURN(const v1::GetHistoryResponse response, backend->GetHistory(request));
  if (a.Has("json")) return PrintJson(response);
  for (const v1::MonitorRun& run : response.runs()) std::cout << RunLine(run);
  return absl::OkStatus();
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
  return kExitError;
}

}  // namespace

int RunMonitor(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = MonitorFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kMonitorUsage << BackendHelp("the monitoring service")
              << "The --fetch-* flags, --user-agent and --ignore-robots apply with --store only (a server uses its "
                 "own).\n\nflags:\n"
              << FlagHelp(flags);
    return kExitOk;
  }
  if (!parsed.ok()) return Fail("monitor", parsed.status());
  const absl::StatusOr<v1::MonitorResponse> response = Monitor(*parsed);
  if (!response.ok()) return Fail("monitor", response.status());
  if (parsed->Has("json")) {
    if (absl::Status printed = PrintJson(*response); !printed.ok()) return Fail("monitor", printed);
  } else {
    PrintMonitorReport(*response);
  }
  const int code = MonitorExitCode(response->verdict());
  if (code == kExitError) return Fail("monitor", absl::UnknownError("no verdict: " + VerdictName(response->verdict())));
  return code;
}

int RunHistory(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = HistoryFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kHistoryUsage << BackendHelp("the monitoring service") << "\nflags:\n" << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("history", parsed.status());
  const absl::Status s = History(*parsed);
  return s.ok() ? 0 : ReportError("history", s);
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
