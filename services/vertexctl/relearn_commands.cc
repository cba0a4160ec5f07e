// vertexctl relearn: a changed site's fresh sample, rule reuse and
// automatic repair (LearningApi::Relearn), offline or online (backend.h).
#include <algorithm>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/site/page_file.h"
#include "common/util/status_macros.h"
#include "services/common/engine_flags.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

// The flags that set the in-process engine (--store only).
std::vector<FlagSpec> OfflineRelearnFlags() {
  std::vector<FlagSpec> flags = OfflineLearningFlags();
  for (FlagSpec f : ThresholdFlags()) {
    f.help += "; for a site without settings (vertexctl site register --threshold sets them)";
    flags.push_back(f);
  }
  for (const FlagSpec& f : FetchFlagSpecs()) flags.push_back(f);
  return flags;
}

std::vector<FlagSpec> RelearnFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory"),
      {"max-pages", "N",
       "without pages given: fetch at most N of the stored sample's URLs (default: the service's, 300)"},
      {"no-repair", "", "do not try automatic repair: queue every cluster no rule is reused for"},
      {"json", "", "print the RelearnResponse as one line of JSON instead of the report"},
      UrlFlag("the URL of the one page file given (its <base href> ignored); an error with several"),
  };
  for (const FlagSpec& f : ProgressFlags()) flags.push_back(f);
  for (FlagSpec f : ServerFlags("the learning service")) {
    if (f.name == "timeout") f.help = "--server: deadline of the call (default 3600)";
    flags.push_back(f);
  }
  for (const FlagSpec& f : OfflineRelearnFlags()) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kRelearnUsage[] =
    "usage: vertexctl relearn SITE [PAGE_DIR_OR_FILE...] (--store DIR | --server HOST:PORT)\n"
    "                         [--max-pages N] [--no-repair] [--json]\n"
    "\n"
    "Relearns a site whose templates changed (Vertex IV-C), reusing its rules where they still\n"
    "work. The fresh sample (the pages given: *.htm, *.html of a directory, or files, a file's URL\n"
    "from a <base href> first line, or --url URL for a single file; with pages given, progress\n"
    "goes to stderr when it is a terminal; or, when none is given, the stored sample's URLs fetched again,\n"
    "at most --max-pages) replaces the site's sample and is clustered. Each new cluster gets an old\n"
    "cluster's rule when that rule passes the field test on the pages both samples share (cluster,\n"
    "then page, then field match); otherwise automatic repair learns a candidate rule from the\n"
    "golden values of constant attributes (vertexctl rules accept|reject SITE CLUSTER), and what\n"
    "it cannot repair is queued for annotation (vertexctl tasks --site SITE).\n"
    "\n"
    "Prints one line per new cluster, then the totals:\n"
    "  c0  REUSED    from c3 v2 by page match; rule v3; 12 pages, 10 URLs shared\n"
    "  c1  REPAIRED  title, brand, sku repaired; price queued; candidate v4 (from c3 v2); ...\n"
    "  c2  QUEUED    awaits annotation; 8 pages, 0 URLs shared; no old cluster shares a URL\n"
    "  site shop: 120 fresh pages, 0 not usable; 3 clusters: 1 reused, 1 repaired, 1 queued; ...\n"
    "followed by the pages that could not be used, indented. With --json, the RelearnResponse as\n"
    "one line of JSON (protobuf JSON mapping of proto/vertex/v1/learning.proto). Flags may come\n"
    "after SITE.\n"
    "\n";

constexpr char kRelearnFlagsHeader[] =
    "The clustering flags, --unannotated, the --fetch-* flags, --user-agent and --ignore-robots\n"
    "apply with --store only (a server uses its own).\n"
    "\n"
    "flags:\n";

absl::StatusOr<v1::RelearnRequest> RelearnRequestOf(const ParsedArgs& a) {
  if (a.positional.empty()) return absl::InvalidArgumentError("no SITE given (see --help)");
  v1::RelearnRequest request;
  request.set_site(a.positional[0]);
  VERTEX_ASSIGN_OR_RETURN(const int64_t max_pages, a.Int("max-pages", 0, 1, 100000));
  request.set_max_pages(static_cast<uint32_t>(max_pages));
  request.set_no_repair(a.Has("no-repair"));
  return request;
}

// The in-process engine's options: the clustering flags and a fetcher.
absl::StatusOr<workflow::LearningEngineOptions> OfflineOptions(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(workflow::LearningEngineOptions options, LearningOptionsFromFlags(a));
  VERTEX_ASSIGN_OR_RETURN(options.cluster, WithThresholdFlags(a, std::move(options.cluster)));
  if (a.Has("server")) return options;
  VERTEX_ASSIGN_OR_RETURN(const fetch::FetchOptions fetch_options, FetchOptionsFromArgs(a));
  options.fetcher = fetch::NewCurlFetcher(fetch_options);
  return options;
}

// "1 page", "2 pages".
std::string Count(uint32_t n, const std::string& noun) { return absl::StrCat(n, " ", noun, n == 1 ? "" : "s"); }

std::string FromRule(const v1::ClusterOutcome& c) {
  if (c.from_cluster().empty()) return "";
  return absl::StrCat(c.from_cluster(), " v", c.from_version());
}

// What the outcome did: "from c3 v2 by page match; rule v3", ...
std::string OutcomeDetail(const v1::ClusterOutcome& c) {
  switch (c.outcome()) {
    case v1::ClusterOutcome::REUSED:
      return absl::StrCat("from ", FromRule(c), " by ", c.match(), " match; rule v", c.version());
    case v1::ClusterOutcome::REPAIRED: {
      std::string out = c.repaired_attributes().empty() ? "nothing repaired"
                                                        : absl::StrJoin(c.repaired_attributes(), ", ") + " repaired";
      if (!c.queued_attributes().empty())
        absl::StrAppend(&out, "; ", absl::StrJoin(c.queued_attributes(), ", "), " queued");
      absl::StrAppend(&out, "; candidate v", c.version());
      if (!c.from_cluster().empty()) absl::StrAppend(&out, " (from ", FromRule(c), ")");
      return out;
    }
    case v1::ClusterOutcome::QUEUED:
      return "awaits annotation";
    default:
      return "?";
  }
}

std::string ClusterLine(const v1::ClusterOutcome& c, size_t id_width) {
  const std::string outcome = v1::ClusterOutcome::Outcome_Name(c.outcome());
  std::string out = c.cluster_id() + std::string(id_width - c.cluster_id().size() + 2, ' ') + outcome +
                    std::string(outcome.size() < 10 ? 10 - outcome.size() : 1, ' ');
  absl::StrAppend(&out, OutcomeDetail(c), "; ", Count(c.pages(), "page"), ", ", Count(c.overlap_urls(), "URL"),
                  " shared");
  if (!c.reason().empty()) absl::StrAppend(&out, "; ", c.reason());
  return out + "\n";
}

void PrintRelearnReport(const v1::RelearnResponse& r) {
  size_t width = 0;
  for (const v1::ClusterOutcome& c : r.clusters()) width = std::max(width, c.cluster_id().size());
  for (const v1::ClusterOutcome& c : r.clusters()) std::cout << ClusterLine(c, width);
  std::cout << "site " << r.site() << ": " << Count(r.pages(), "fresh page") << ", " << r.errors_size()
            << " not usable; " << Count(r.clusters_size(), "cluster") << ": " << r.reused() << " reused, "
            << r.repaired() << " repaired, " << r.queued() << " queued; " << Count(r.unassigned_pages(), "page")
            << " unassigned\n";
  for (const v1::PageError& e : r.errors()) std::cout << "    not usable: " << e.url() << ": " << e.error() << "\n";
}

absl::Status Relearn(const ParsedArgs& a) {
  VERTEX_RETURN_IF_ERROR(IsOnline(a).status());
  VERTEX_RETURN_IF_ERROR(RejectOfflineFlags(a, OfflineRelearnFlags()));
  VERTEX_ASSIGN_OR_RETURN(v1::RelearnRequest request, RelearnRequestOf(a));
  const std::vector<std::string> paths(a.positional.begin() + 1, a.positional.end());
  std::vector<std::string> files;
  if (!paths.empty()) {
    VERTEX_ASSIGN_OR_RETURN(files, site::ExpandPagePaths(paths));
  }
  VERTEX_ASSIGN_OR_RETURN(const std::string url, UrlFromFlags(a, files));
  VERTEX_ASSIGN_OR_RETURN(const bool show_progress, ProgressEnabled(a));
  VERTEX_ASSIGN_OR_RETURN(workflow::LearningEngineOptions options, OfflineOptions(a));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend, OpenLearning(a, StoreMode::kMustExist, options));
  // The pages a batch at a time (online, the server gathers the sample).
  Progress progress("relearn (pages sent)", files.size(), show_progress && !files.empty());
  BatchLimits limits = StreamBatchLimits();
  limits.url = url;
  limits.progress = &progress;
  PageBatches pages(std::move(files), limits);
  VERTEX_ASSIGN_OR_RETURN(const v1::RelearnResponse response,
                          paths.empty() ? backend->Relearn(request)
                                        : backend->RelearnStream(RequestMessages(std::move(request), &pages)));
  progress.Finish();
  if (a.Has("json")) return PrintJson(response);
  PrintRelearnReport(response);
  return absl::OkStatus();
}

}  // namespace

int RunRelearn(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = RelearnFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kRelearnUsage << BackendHelp("the learning service") << "\n" << kRelearnFlagsHeader << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("relearn", parsed.status());
  const absl::Status s = Relearn(*parsed);
  return s.ok() ? 0 : ReportError("relearn", s);
}

}  // namespace vertex::cli
