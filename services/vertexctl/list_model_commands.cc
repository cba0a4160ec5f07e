// vertexctl list-model train / show and vertexctl lists: the
// page-independent list finder (issue 14) trained from the store's rules
// (the TrainListModel call) or from a problem set, the stored models, and
// the lists a model finds on pages (SuggestLists), offline (--store) or
// through the learning service (--server).
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "common/lists/features.h"
#include "common/lists/store_training.h"
#include "common/site/page_file.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

constexpr size_t kMaxPageBytes = size_t{64} << 20;

std::vector<FlagSpec> WithServerFlags(std::vector<FlagSpec> flags) {
  for (const FlagSpec& f : ServerFlags("the learning service")) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

std::vector<FlagSpec> TrainFlags() {
  return WithServerFlags(
      {StoreFlag("the rule store directory (must exist, except with --problems: created when missing)"),
       {"sites", "A,B", "train on the rules of these sites only (default: every site)"},
       {"features", "SET", "paper (the paper's 19 features) or paper+markup (plus class/id; default)"},
       {"problems", "DIR",
        "train on this problem set (gen-demo --kind lists) instead of the store's rules; --store only"},
       {"json", "", "print the TrainListModelResponse as JSON"}});
}

std::vector<FlagSpec> ShowFlags() {
  return WithServerFlags({StoreFlag("the rule store directory (must exist)"),
                          {"version", "N", "the model version (default: the latest)"},
                          {"json", "", "print the GetListModelResponse as JSON"}});
}

std::vector<FlagSpec> ListsFlags() {
  return WithServerFlags({StoreFlag("the rule store directory (must exist)"),
                          {"model-version", "N", "the model version (default: the latest)"},
                          {"url", "URL",
                           "the pages' URL, for resolving links (default: a <base> line of the file, else "
                           "file://PATH)"},
                          {"max", "N", "lists per page at most, 1..100 (default 5)"},
                          {"json", "", "print one SuggestListsResponse JSON object per page, in order"}});
}

constexpr char kListModelUsage[] =
    "usage: vertexctl list-model train (--store DIR | --server HOST:PORT) [--sites A,B]\n"
    "                                  [--features paper|paper+markup] [--json]\n"
    "       vertexctl list-model train --store DIR --problems DIR [--features ...]\n"
    "       vertexctl list-model show (--store DIR | --server HOST:PORT) [--version N] [--json]\n"
    "       vertexctl list-model eval --problems DIR ... (see vertexctl list-model eval --help)\n"
    "\n"
    "The page-independent list finder (Cohen & Fan; issue 14). train: learns the node classifier\n"
    "from the store as the paper does from working wrappers: every pair of a cluster's current\n"
    "rule with a multi-valued attribute (or a record-level rule) and a snapshot page stored with\n"
    "it is a labelled page; what could not be used is reported. With --problems, from a problem\n"
    "set instead. The model is stored as the next version. show: the stored versions and one\n"
    "model's provenance, sizes and tree depth. Use `vertexctl lists` to apply a model to pages.\n";

constexpr char kListsUsage[] =
    "usage: vertexctl lists (--store DIR | --server HOST:PORT) [--model-version N] [--url URL]\n"
    "                       [--max N] [--json] PAGE...\n"
    "\n"
    "The lists and hot-lists the stored list model (vertexctl list-model train) finds on each\n"
    "page (a file, or a directory of *.htm/*.html), best first: the items' texts and, for\n"
    "hot-lists, their links.\n";

void PrintTrained(const v1::TrainListModelResponse& r) {
  std::printf("stored list model version %lld (%s): %s\n", static_cast<long long>(r.model().version()),
              r.model().feature_set().c_str(), r.model().trained_from().c_str());
  std::printf("  %u pages, %llu nodes, %llu positives, %d tree nodes\n", r.model().training_pages(),
              static_cast<unsigned long long>(r.model().training_nodes()),
              static_cast<unsigned long long>(r.model().training_positives()), r.model().nodes_size());
  for (const std::string& line : r.report()) std::printf("  %s\n", line.c_str());
}

// --problems: trains on the problem set and stores the model in --store.
absl::StatusOr<v1::TrainListModelResponse> TrainFromProblems(const ParsedArgs& a, lists::FeatureSet features) {
  if (a.Has("server") || a.Has("sites")) {
    return absl::InvalidArgumentError(std::string("--problems trains offline into --store: ") +
                                      (a.Has("server") ? "--server" : "--sites") + " does not apply");
  }
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"store"}));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend,
                          OpenLearning(a, StoreMode::kCreate, workflow::LearningEngineOptions{}));
  lists::TrainOptions options;
  options.features = features;
  VERTEX_ASSIGN_OR_RETURN(lists::StoreTrainingResult result,
                          lists::TrainListModelFromProblems(backend.store.get(), a.String("problems", ""), options,
                                                            absl::ToUnixMillis(absl::Now())));
  v1::TrainListModelResponse response;
  *response.mutable_model() = std::move(result.model);
  response.set_pages(result.pages);
  for (const std::string& line : result.report) response.add_report(line);
  return response;
}

absl::Status Train(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(lists::FeatureSet features, FeatureSetFlag(a));
  v1::TrainListModelResponse response;
  if (a.Has("problems")) {
    VERTEX_ASSIGN_OR_RETURN(response, TrainFromProblems(a, features));
  } else {
    v1::TrainListModelRequest request;
    request.set_feature_set(lists::FeatureSetName(features));
    for (const std::string& site : a.List("sites")) request.add_sites(site);
    VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend,
                            OpenLearning(a, StoreMode::kMustExist, workflow::LearningEngineOptions{}));
    VERTEX_ASSIGN_OR_RETURN(response, backend->TrainListModel(request));
  }
  if (a.Has("json")) return PrintJson(response);
  PrintTrained(response);
  return absl::OkStatus();
}

// The deepest root-to-leaf path, in edges (a leaf-only tree: 0). Indexes
// out of range end a path; a path longer than the tree stops there.
int TreeDepth(const v1::ListModel& model) {
  int deepest = 0;
  std::vector<std::pair<int, int>> stack;  // (node, depth)
  if (model.nodes_size() > 0) stack.push_back({0, 0});
  while (!stack.empty()) {
    auto [node, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    const v1::ListModelNode& n = model.nodes(node);
    if (n.test() == v1::ListModelNode::LEAF || depth >= model.nodes_size()) continue;
    for (int child : {n.if_true(), n.if_false()}) {
      if (child > 0 && child < model.nodes_size()) stack.push_back({child, depth + 1});
    }
  }
  return deepest;
}

void PrintModel(const v1::GetListModelResponse& r) {
  const v1::ListModel& m = r.model();
  int leaves = 0;
  for (const v1::ListModelNode& n : m.nodes()) leaves += n.test() == v1::ListModelNode::LEAF;
  std::printf("versions: %s\n", absl::StrJoin(r.versions(), ", ").c_str());
  std::printf("version %lld: %s\n", static_cast<long long>(m.version()), m.trained_from().c_str());
  std::printf("  features: %s (%d)\n", m.feature_set().c_str(), m.feature_names_size());
  std::printf("  training: %u pages, %llu nodes, %llu positives\n", m.training_pages(),
              static_cast<unsigned long long>(m.training_nodes()),
              static_cast<unsigned long long>(m.training_positives()));
  std::printf("  tree: %d nodes, %d leaves, depth %d (pruning alpha %g, min leaf %u)\n", m.nodes_size(), leaves,
              TreeDepth(m), m.pruning_alpha(), m.min_leaf());
  const std::string created =
      absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", absl::FromUnixMillis(m.created_unix_ms()), absl::UTCTimeZone());
  std::printf("  created: %s (%lld unix ms)\n", created.c_str(), static_cast<long long>(m.created_unix_ms()));
}

absl::Status Show(const ParsedArgs& a) {
  v1::GetListModelRequest request;
  VERTEX_ASSIGN_OR_RETURN(int64_t version, a.Int("version", 0, 1, INT64_MAX));
  request.set_version(version);
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend,
                          OpenLearning(a, StoreMode::kMustExist, workflow::LearningEngineOptions{}));
  VERTEX_ASSIGN_OR_RETURN(v1::GetListModelResponse response, backend->GetListModel(request));
  if (a.Has("json")) return PrintJson(response);
  PrintModel(response);
  return absl::OkStatus();
}

void PrintSuggestions(const std::string& path, const std::string& url, const v1::SuggestListsResponse& r) {
  std::printf("%s (%s): %d lists (model version %lld)\n", path.c_str(), url.c_str(), r.lists_size(),
              static_cast<long long>(r.model_version()));
  for (int i = 0; i < r.lists_size(); ++i) {
    const v1::ListSuggestion& s = r.lists(i);
    const bool hot = s.kind() == v1::ListSuggestion::HOTLIST;
    std::printf("  %d. %s, %d items, score %.2f\n", i + 1, hot ? "hot-list" : "list", s.texts_size(), s.score());
    for (int j = 0; j < s.texts_size(); ++j) {
      if (hot && j < s.urls_size()) {
        std::printf("     - %s -> %s\n", s.texts(j).c_str(), s.urls(j).c_str());
      } else {
        std::printf("     - %s\n", s.texts(j).c_str());
      }
    }
  }
}

absl::Status Lists(const ParsedArgs& a) {
  if (a.positional.empty()) return absl::InvalidArgumentError("give the pages: vertexctl lists ... PAGE...");
  VERTEX_ASSIGN_OR_RETURN(int64_t version, a.Int("model-version", 0, 1, INT64_MAX));
  VERTEX_ASSIGN_OR_RETURN(int64_t max, a.Int("max", 5, 1, 100));
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths(a.positional));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend,
                          OpenLearning(a, StoreMode::kMustExist, workflow::LearningEngineOptions{}));
  for (const std::string& file : files) {
    VERTEX_ASSIGN_OR_RETURN(site::PageFile page, site::ReadPageFile(file, kMaxPageBytes));
    v1::SuggestListsRequest request;
    request.set_url(a.String("url", page.url.empty() ? "file://" + file : page.url));
    request.set_html(page.bytes);
    request.set_model_version(version);
    request.set_max_lists(static_cast<uint32_t>(max));
    absl::StatusOr<v1::SuggestListsResponse> response = backend->SuggestLists(request);
    if (!response.ok()) {
      return absl::Status(response.status().code(), file + ": " + std::string(response.status().message()));
    }
    if (a.Has("json")) {
      VERTEX_RETURN_IF_ERROR(PrintJson(*response));
    } else {
      PrintSuggestions(file, request.url(), *response);
    }
  }
  return absl::OkStatus();
}

// Parses `args` against `flags` and runs `action`, or prints `usage`.
int RunWithFlags(const char* command, const std::vector<std::string>& args, const std::vector<FlagSpec>& flags,
                 const char* usage, absl::Status (*action)(const ParsedArgs&)) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << usage << BackendHelp("the learning service") << "\nflags:\n" << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError(command, parsed.status());
  const absl::Status s = action(*parsed);
  return s.ok() ? 0 : ReportError(command, s);
}

}  // namespace

absl::StatusOr<lists::FeatureSet> FeatureSetFlag(const ParsedArgs& a) {
  lists::FeatureSet set = lists::FeatureSet::kPaperAndMarkup;
  const std::string name = a.String("features", lists::FeatureSetName(set));
  if (!lists::ParseFeatureSet(name, &set)) {
    return absl::InvalidArgumentError("--features '" + name + "': expected paper or paper+markup");
  }
  return set;
}

int RunListModelTrain(const std::vector<std::string>& args) {
  return RunWithFlags("list-model train", args, TrainFlags(), kListModelUsage, Train);
}

int RunListModelShow(const std::vector<std::string>& args) {
  return RunWithFlags("list-model show", args, ShowFlags(), kListModelUsage, Show);
}

int RunLists(const std::vector<std::string>& args) {
  return RunWithFlags("lists", args, ListsFlags(), kListsUsage, Lists);
}

}  // namespace vertex::cli
