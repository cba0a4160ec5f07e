// vertexctl site register | add-pages | delete, and vertexctl tasks: a
// site's registration and sample, offline or online (backend.h).
#include <cstdio>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/list_proposals.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

std::vector<FlagSpec> SiteFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory (register creates it when missing)"),
      {"site", "NAME", "the site's id"},
      {"schema", "FILE", "register: the vertical's schema (JSON), e.g. deploy/schemas/book.json"},
      {"defer", "", "add-pages: store the pages without clustering the sample"},
      UrlFlag("add-pages: the URL of the one page file given (its <base href> ignored); an error with several"),
  };
  for (const FlagSpec& f : ProgressFlags()) flags.push_back(f);
  for (const FlagSpec& f : SiteSettingsFlags()) flags.push_back(f);
  for (const FlagSpec& f : ServerFlags("the learning service")) flags.push_back(f);
  for (const FlagSpec& f : OfflineLearningFlags()) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kSiteUsage[] =
    "usage: vertexctl site register --site SITE --schema FILE [--threshold N] [--sample-rate R]\n"
    "                               [--page-builder gumbo|libxml2]\n"
    "                               (--store DIR | --server HOST:PORT)\n"
    "       vertexctl site add-pages --site SITE [--defer] [--threshold N] [--sample-rate R] [--url URL]\n"
    "                                (--store DIR | --server HOST:PORT) PAGE_DIR_OR_FILE...\n"
    "       vertexctl site delete --site SITE (--store DIR | --server HOST:PORT)\n"
    "\n"
    "register: registers the site with its vertical's schema, or replaces a registered site's\n"
    "schema (its clusters and rules are kept); prints the RegisterSiteResponse.\n"
    "add-pages: adds page files (*.htm, *.html of a directory, or files) to the site's sample;\n"
    "a page with a URL already in the sample replaces it. A file's URL is taken from a\n"
    "<base href=\"...\"> on its first line, else file:// and its absolute path; --url URL gives\n"
    "the URL of a single page file (an error with several). Pages go in\n"
    "batches of at most 200 pages and 32 MB; the last call clusters the whole sample (Vertex\n"
    "Algorithm 1), infers URL regexes and picks the pages to annotate (Algorithm 2), unless\n"
    "--defer. Prints the AddSamplePagesResponse, the batches' merged: pages added, pages that\n"
    "could not be used (\"errors\"), the clusters by decreasing importance, the site's settings\n"
    "and the pruning threshold applied (\"prune_threshold\"). Progress (pages sent/total, pages/s,\n"
    "ETA) goes to stderr when it is a terminal (--progress / --no-progress to force).\n"
    "Exit code: 0 done; 3 the pages were added and the sample clustered into no cluster (every\n"
    "page pruned: stderr says so; lower --threshold); 1 an error; 2 a usage error.\n"
    "delete: removes the site and everything of it; prints {}.\n"
    "\n"
    "Output: one line of JSON, the protobuf JSON mapping of the vertex.v1 response (field\n"
    "names as in proto/vertex/v1/learning.proto, defaults included, int64 as strings).\n";

constexpr char kSiteFlagsHeader[] =
    "--threshold and --sample-rate are the site's settings: register and add-pages send them\n"
    "(online and offline alike) and they are stored with the site for every later clustering;\n"
    "without either, the stored settings are kept (a new site: the server's defaults, adaptive\n"
    "threshold and 0.2). The other clustering flags apply to add-pages with --store only (a\n"
    "server uses its own).\n"
    "--page-builder gumbo|libxml2 is the site's HTML parser, stored with it (never left to the\n"
    "server's default once stored): a new site without it takes the server's --page-builder\n"
    "(libxml2 unless the server says otherwise); a stored site keeps its own (gumbo for a site\n"
    "stored before the setting existed), also when register or add-pages does not name one;\n"
    "a site with sample pages or rules keeps its builder and a request naming another fails\n"
    "with FAILED_PRECONDITION (delete the site, or register another). The responses show it\n"
    "as settings.page_builder.\n"
    "\n"
    "flags:\n";

absl::Status Register(workflow::LearningApi& api, const ParsedArgs& a) {
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"schema"}));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromFile(a.String("schema", "")));
  v1::RegisterSiteRequest request;
  request.set_site(a.String("site", ""));
  *request.mutable_schema() = schema.proto();
  VERTEX_ASSIGN_OR_RETURN(std::optional<v1::SiteSettings> settings, SiteSettingsFromFlags(a));
  if (settings) *request.mutable_settings() = *settings;
  VERTEX_ASSIGN_OR_RETURN(v1::RegisterSiteResponse response, api.RegisterSite(request));
  return PrintJson(response);
}

// The exit code: kNoClusterExit when the sample was clustered into no
// cluster.
absl::StatusOr<int> AddPages(workflow::LearningApi& api, const ParsedArgs& a, const std::vector<std::string>& files) {
  VERTEX_ASSIGN_OR_RETURN(std::optional<v1::SiteSettings> settings, SiteSettingsFromFlags(a));
  const std::string site = a.String("site", "");
  VERTEX_ASSIGN_OR_RETURN(const std::string url, UrlFromFlags(a, files));
  VERTEX_ASSIGN_OR_RETURN(const bool show_progress, ProgressEnabled(a));
  Progress progress("add-pages", files.size(), show_progress);
  VERTEX_ASSIGN_OR_RETURN(AddedPages added,
                          AddSamplePagesInBatches(api, site, files, a.Has("defer"), settings, url, &progress));
  progress.Finish();
  VERTEX_RETURN_IF_ERROR(PrintJson(added.response));
  return ReportNoCluster("site", site, added.response);
}

absl::Status Delete(workflow::LearningApi& api, const ParsedArgs& a) {
  v1::DeleteSiteRequest request;
  request.set_site(a.String("site", ""));
  VERTEX_ASSIGN_OR_RETURN(v1::DeleteSiteResponse response, api.DeleteSite(request));
  return PrintJson(response);
}

// The exit code of a subcommand that ran.
absl::StatusOr<int> Site(const ParsedArgs& a) {
  const std::string sub = a.positional.empty() ? "" : a.positional[0];
  if (sub != "register" && sub != "add-pages" && sub != "delete") {
    return absl::InvalidArgumentError("give one subcommand: register, add-pages or delete (see --help)");
  }
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"site"}));
  VERTEX_RETURN_IF_ERROR(RejectOfflineFlags(a, OfflineLearningFlags()));
  VERTEX_RETURN_IF_ERROR(SiteSettingsFromFlags(a).status());
  const std::vector<std::string> paths(a.positional.begin() + 1, a.positional.end());
  if (sub == "add-pages" && paths.empty()) return absl::InvalidArgumentError("no PAGE_DIR_OR_FILE given (see --help)");
  if (sub != "add-pages" && !paths.empty()) return absl::InvalidArgumentError("unexpected argument " + paths[0]);
  if (sub != "add-pages" && a.Has("url")) return absl::InvalidArgumentError("--url applies to add-pages only");
  std::vector<std::string> files;
  if (sub == "add-pages") {
    VERTEX_ASSIGN_OR_RETURN(files, site::ExpandPagePaths(paths));
  }
  VERTEX_ASSIGN_OR_RETURN(workflow::LearningEngineOptions options, LearningOptionsFromFlags(a));
  const StoreMode mode = sub == "register" ? StoreMode::kCreate : StoreMode::kMustExist;
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend, OpenLearning(a, mode, options));
  if (sub == "add-pages") return AddPages(*backend.api, a, files);
  VERTEX_RETURN_IF_ERROR(sub == "register" ? Register(*backend.api, a) : Delete(*backend.api, a));
  return 0;
}

std::vector<FlagSpec> TasksFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory"),
      {"site", "NAME", "the site"},
      {"cluster", "ID", "only this cluster (default: every cluster that needs annotation)"},
      {"max-pages", "N", "pages per cluster, at most (default 3)"},
      {"proposals-out", "FILE", "write the list finder's proposals as annotation lines (JSONL) to FILE"},
  };
  for (const FlagSpec& f : ServerFlags("the learning service")) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kTasksUsage[] =
    "usage: vertexctl tasks --site SITE [--cluster ID] [--max-pages N] (--store DIR | --server HOST:PORT)\n"
    "\n"
    "The pages to annotate next, per cluster that needs annotation (not DONE), clusters by\n"
    "decreasing importance: for a cluster not annotated yet Algorithm 2's picks, after learn\n"
    "the pages where the rule fails, each with why. Prints the GetAnnotationTasksResponse as\n"
    "one line of JSON ({\"tasks\":[{\"site\",\"cluster_id\",\"url\",\"rank\",\"importance\",\n"
    "\"reason\"}],\"pages\":[],\"done_clusters\":[...],\"clusters\":[ClusterProgress,...],\n"
    "\"settings\":{\"prune_threshold\",\"sample_rate\",\"no_rule_transfer\"},\"prune_threshold\" (the\n"
    "threshold the last clustering applied),\"sample_pages\",\"unassigned_pages\"}). A sample\n"
    "clustered into no cluster is an error saying so (with the threshold).\n"
    "\n"
    "When the store holds a list model (vertexctl list-model), a task's \"proposed\" lists the list\n"
    "finder's proposals for the schema's multi-valued attributes on its page: {\"attribute\",\n"
    "\"values\", \"xpaths\", \"urls\" (hot-lists), \"score\", \"reason\", \"model_version\"}.\n"
    "--proposals-out FILE writes them as annotation lines vertexctl learn reads, each after a\n"
    "'#' line saying why: keep a line to accept the proposal, edit it (delete wrong values; add\n"
    "\"partial\": true when the values kept are the first K of a longer list), or delete it.\n"
    "\n";

absl::Status Tasks(const ParsedArgs& a) {
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"site"}));
  if (!a.positional.empty()) return absl::InvalidArgumentError("unexpected argument " + a.positional[0]);
  v1::GetAnnotationTasksRequest request;
  request.set_site(a.String("site", ""));
  request.set_cluster_id(a.String("cluster", ""));
  VERTEX_ASSIGN_OR_RETURN(int64_t max_pages, a.Int("max-pages", 0, 0, 100000));
  request.set_max_pages(static_cast<uint32_t>(max_pages));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend, OpenLearning(a, StoreMode::kMustExist, {}));
  VERTEX_ASSIGN_OR_RETURN(v1::GetAnnotationTasksResponse response, backend->GetAnnotationTasks(request));
  if (a.Has("proposals-out")) {
    const std::string path = a.String("proposals-out", "");
    if (path.empty()) return absl::InvalidArgumentError("--proposals-out needs a FILE");
    VERTEX_RETURN_IF_ERROR(util::WriteFile(path, workflow::ProposalAnnotationLines(response)));
    size_t proposals = 0;
    for (const v1::AnnotationTask& t : response.tasks()) proposals += static_cast<size_t>(t.proposed_size());
    std::fprintf(stderr, "wrote %zu proposal(s) to %s\n", proposals, path.c_str());
  }
  return PrintJson(response);
}

}  // namespace

absl::StatusOr<AddedPages> AddSamplePagesInBatches(workflow::LearningApi& api, const std::string& site,
                                                   const std::vector<std::string>& files, bool defer_all,
                                                   const std::optional<v1::SiteSettings>& settings,
                                                   const std::string& url, Progress* progress) {
  AddedPages added;
  bool first = true;
  const auto send = [&](std::vector<v1::Page> pages, const std::vector<std::string>& paths, bool last) -> absl::Status {
    v1::AddSamplePagesRequest request;
    request.set_site(site);
    request.set_defer_clustering(defer_all || !last);
    if (first && settings) *request.mutable_settings() = *settings;
    first = false;
    for (size_t i = 0; i < pages.size(); ++i) {
      added.files.emplace_back(paths[i], pages[i].url());
      *request.add_pages() = std::move(pages[i]);
    }
    VERTEX_ASSIGN_OR_RETURN(v1::AddSamplePagesResponse response, api.AddSamplePages(request));
    workflow::MergeAddedPages(std::move(response), &added.response);
    return absl::OkStatus();
  };
  BatchLimits limits;
  limits.url = url;
  limits.progress = progress;
  VERTEX_RETURN_IF_ERROR(ForEachPageBatch(files, limits, send));
  return added;
}

int ReportNoCluster(const std::string& command, const std::string& site, const v1::AddSamplePagesResponse& added) {
  if (!added.clustered() || added.clusters_size() > 0) return 0;
  std::cerr << "vertexctl " << command << ": "
            << workflow::NoClusterMessage(site, added.sample_pages(), added.prune_threshold()) << "\n";
  return kNoClusterExit;
}

int RunSite(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = SiteFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kSiteUsage << "\n" << BackendHelp("the learning service") << kSiteFlagsHeader << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("site", parsed.status());
  const absl::StatusOr<int> exit_code = Site(*parsed);
  return exit_code.ok() ? *exit_code : ReportError("site", exit_code.status());
}

int RunTasks(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = TasksFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kTasksUsage << BackendHelp("the learning service") << "\nflags:\n" << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("tasks", parsed.status());
  const absl::Status s = Tasks(*parsed);
  return s.ok() ? 0 : ReportError("tasks", s);
}

}  // namespace vertex::cli
