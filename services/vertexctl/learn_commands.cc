// vertexctl learn: a site's rules from an annotations file, through the
// learning service's calls, offline or online (backend.h).
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/html/xpath.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/util/file.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "common/workflow/annotations.h"
#include "re2/re2.h"
#include "services/vertexctl/backend.h"
#include "services/vertexctl/commands.h"

namespace vertex::cli {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxAnnotationBytes = 64 << 20;

std::vector<FlagSpec> LearnFlags() {
  std::vector<FlagSpec> flags = {
      StoreFlag("the rule store directory (created when missing)"),
      {"site", "NAME", "the site's id, the store's key for it"},
      {"schema", "FILE", "the vertical's schema (JSON), e.g. deploy/schemas/book.json"},
      {"annotations", "FILE",
       "annotations, JSON Lines: {\"file\"|\"url\",\"attribute\",\"value\"|\"values\"|\"xpath\"|\"absent\"}"},
      {"sample", "DIR", "the site's sample pages (*.htm, *.html), added to the site's sample"},
  };
  for (const FlagSpec& f : SiteSettingsFlags()) flags.push_back(f);
  for (const FlagSpec& f : ServerFlags("the learning service")) flags.push_back(f);
  for (const FlagSpec& f : OfflineLearningFlags()) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kLearnUsage[] =
    "usage: vertexctl learn --site SITE --schema FILE --annotations FILE --sample DIR\n"
    "                       (--store DIR | --server HOST:PORT) [flags]\n"
    "\n"
    "Learns a site's extraction rules from annotated sample pages with the learning service's\n"
    "calls: RegisterSite (the schema), AddSamplePages (the pages of --sample, as 'vertexctl site\n"
    "add-pages': the sample is clustered, URL regexes inferred, pages to annotate picked), then\n"
    "one Learn per cluster with annotated pages (Vertex III-C: robust XPaths, positional\n"
    "predicates, a Naive Bayes classifier where no XPath is precise, range pruner, typed\n"
    "regexes). Learn stores the cluster's rule as a new version when an attribute was learnt\n"
    "and runs the editor loop on the cluster's other sample pages. The annotations file is the\n"
    "whole set for the clusters it annotates: their earlier annotations are forgotten.\n"
    "An annotation's \"file\" is a path as given, or relative to --sample (it is sent as that\n"
    "page's URL); a \"url\" is sent as is. An annotated page belongs to the first cluster, by\n"
    "decreasing importance, whose URL regex matches its URL.\n"
    "Prints one line of JSON:\n"
    "  {\"site\",\"clusters\":[ClusterSummary,...],\"learnt\":[{\"cluster_id\",LearnResponse fields...}],\n"
    "   \"needs_annotation\":[AnnotationTask,...],\"unassigned_pages\":N,\"errors\":[{\"url\",\"error\"}]}\n"
    "in the protobuf JSON mapping of proto/vertex/v1/learning.proto (int64 as strings):\n"
    "\"clusters\" after learning, by decreasing importance; \"learnt\" per Learn call (the rule,\n"
    "its version, per attribute what was learnt or why not, a preview, the editor loop's state\n"
    "and next pages); \"needs_annotation\" the tasks of every cluster not DONE; \"errors\" the\n"
    "sample pages that could not be used.\n"
    "A sample clustered into no cluster (every page pruned: lower --threshold) is an error.\n"
    "\n";

constexpr char kLearnFlagsHeader[] =
    "--threshold and --sample-rate are the site's settings, sent with RegisterSite and stored\n"
    "with the site (online and offline alike; later clusterings use them). The other clustering\n"
    "flags and --unannotated apply with --store only (a server uses its own).\n"
    "\n"
    "flags:\n";

std::string Canonical(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::path(path), ec);
  return ec ? path : p.string();
}

struct LearnInputs {
  std::string site, sample, annotations_file;
  std::optional<schema::CompiledSchema> schema;
  std::optional<v1::SiteSettings> settings;  // from the flags
  std::vector<workflow::SourcedAnnotation> annotations;
  std::vector<std::string> files;  // the sample's page files
};

std::string Where(const LearnInputs& in, const workflow::SourcedAnnotation& s) {
  return absl::StrCat(in.annotations_file, ":", s.line, ": ");
}

absl::Status CheckAnnotation(const workflow::SourcedAnnotation& s, const LearnInputs& in) {
  const v1::Annotation& a = s.annotation;
  const int i = in.schema->Find(a.attribute());
  if (i < 0) {
    return absl::InvalidArgumentError(Where(in, s) + "unknown attribute \"" + a.attribute() + "\" (not in schema " +
                                      in.schema->vertical() + ")");
  }
  if (a.values_size() > 1 && !in.schema->attribute(i).multi_valued()) {
    return absl::InvalidArgumentError(Where(in, s) + "several values for single-valued attribute \"" + a.attribute() +
                                      "\"");
  }
  if (!a.xpath().empty()) {
    absl::StatusOr<html::XPath> x = html::XPath::Compile(a.xpath());
    if (!x.ok()) return absl::InvalidArgumentError(Where(in, s) + std::string(x.status().message()));
  }
  return absl::OkStatus();
}

// Sample page files by canonical path, with their URLs once read.
using SampleFiles = std::map<std::string, std::string>;

// The canonical path of the sample file an annotation's "file" names (as
// given, or relative to --sample).
absl::StatusOr<std::string> AnnotatedFile(const workflow::SourcedAnnotation& s, const LearnInputs& in,
                                          const SampleFiles& sample) {
  const std::string& file = s.annotation.file();
  std::vector<std::string> paths = {file};
  if (fs::path(file).is_relative()) paths.push_back((fs::path(in.sample) / file).string());
  for (const std::string& p : paths) {
    if (sample.count(Canonical(p))) return Canonical(p);
  }
  return absl::InvalidArgumentError(Where(in, s) + "file " + file + " is not a page of the sample " + in.sample);
}

absl::StatusOr<LearnInputs> ReadLearnInputs(const ParsedArgs& a) {
  LearnInputs in;
  VERTEX_ASSIGN_OR_RETURN(in.settings, SiteSettingsFromFlags(a));
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"site", "schema", "annotations", "sample"}));
  in.site = a.String("site", "");
  in.sample = a.String("sample", "");
  in.annotations_file = a.String("annotations", "");
  VERTEX_ASSIGN_OR_RETURN(in.schema, schema::CompiledSchema::FromFile(a.String("schema", "")));
  VERTEX_ASSIGN_OR_RETURN(std::string text, util::ReadFile(in.annotations_file, kMaxAnnotationBytes));
  VERTEX_ASSIGN_OR_RETURN(in.annotations, workflow::ParseAnnotations(text, in.annotations_file));
  VERTEX_ASSIGN_OR_RETURN(in.files, site::ExpandPagePaths({in.sample}));
  SampleFiles sample;
  for (const std::string& f : in.files) sample[Canonical(f)] = "";
  for (const workflow::SourcedAnnotation& s : in.annotations) {
    VERTEX_RETURN_IF_ERROR(CheckAnnotation(s, in));
    if (!s.annotation.file().empty()) VERTEX_RETURN_IF_ERROR(AnnotatedFile(s, in, sample).status());
  }
  return in;
}

// The annotations with their pages known by URL, grouped by the first
// cluster (in `clusters` order) whose URL regex matches the URL.
using ClusterAnnotations = std::vector<std::pair<std::string, std::vector<v1::Annotation>>>;

// The URL of the annotated page; InvalidArgument when the page could not
// be used (AddSamplePages reported it).
absl::StatusOr<std::string> UrlOf(const workflow::SourcedAnnotation& s, const LearnInputs& in,
                                  const SampleFiles& sample, const std::map<std::string, std::string>& errors) {
  if (s.annotation.file().empty()) return s.annotation.url();
  VERTEX_ASSIGN_OR_RETURN(const std::string file, AnnotatedFile(s, in, sample));
  const std::string& url = sample.at(file);
  if (auto e = errors.find(url); e != errors.end()) {
    return absl::InvalidArgumentError(Where(in, s) + "page " + s.annotation.file() +
                                      " could not be used: " + e->second);
  }
  return url;
}

absl::StatusOr<ClusterAnnotations> GroupByCluster(const LearnInputs& in, const AddedPages& added) {
  const auto& clusters = added.response.clusters();
  std::vector<std::unique_ptr<RE2>> regexes;
  ClusterAnnotations out;
  for (const v1::ClusterSummary& c : clusters) {
    regexes.push_back(std::make_unique<RE2>(c.url_regex(), RE2::Quiet));
    out.emplace_back(c.cluster_id(), std::vector<v1::Annotation>());
  }
  SampleFiles sample;
  for (const auto& [path, url] : added.files) sample[Canonical(path)] = url;
  std::map<std::string, std::string> errors;
  for (const v1::PageError& e : added.response.errors()) errors[e.url()] = e.error();
  for (const workflow::SourcedAnnotation& s : in.annotations) {
    VERTEX_ASSIGN_OR_RETURN(const std::string url, UrlOf(s, in, sample, errors));
    size_t c = 0;
    while (c < regexes.size() && !(regexes[c]->ok() && RE2::FullMatch(url, *regexes[c]))) ++c;
    if (c == regexes.size()) {
      return absl::FailedPreconditionError(Where(in, s) + "page " + url +
                                           " is in no cluster (no cluster's URL regex matches it)");
    }
    v1::Annotation a = s.annotation;
    a.clear_file();
    a.set_url(url);
    out[c].second.push_back(std::move(a));
  }
  std::erase_if(out, [](const auto& c) { return c.second.empty(); });
  return out;
}

absl::StatusOr<std::string> LearntJson(const std::string& cluster_id, const v1::LearnResponse& response) {
  std::string out = "{\"cluster_id\":";
  util::AppendJsonString(cluster_id, &out);
  VERTEX_ASSIGN_OR_RETURN(const std::string fields, ProtoJson(response));
  if (fields.size() > 2) out += ",";
  return out + fields.substr(1);
}

template <typename Messages>
absl::StatusOr<std::string> JsonArray(const Messages& messages) {
  std::string out = "[";
  for (const auto& m : messages) {
    VERTEX_ASSIGN_OR_RETURN(const std::string json, ProtoJson(m));
    absl::StrAppend(&out, out.size() > 1 ? "," : "", json);
  }
  return out + "]";
}

// The clusters of the last clustering, by decreasing importance, as they
// stand now.
absl::StatusOr<std::vector<v1::ClusterSummary>> ClustersNow(workflow::LearningApi& api, const std::string& site,
                                                            const v1::AddSamplePagesResponse& added) {
  v1::ListRulesRequest request;
  request.set_site(site);
  VERTEX_ASSIGN_OR_RETURN(v1::ListRulesResponse rules, api.ListRules(request));
  std::map<std::string, v1::ClusterSummary> now;
  for (const v1::ClusterRules& c : rules.clusters()) now[c.cluster().cluster_id()] = c.cluster();
  std::vector<v1::ClusterSummary> out;
  for (const v1::ClusterSummary& c : added.clusters()) {
    out.push_back(now.count(c.cluster_id()) ? now[c.cluster_id()] : c);
  }
  return out;
}

// What learn did, for its JSON.
struct LearnOutcome {
  AddedPages added;
  std::vector<std::pair<std::string, v1::LearnResponse>> learnt;  // by cluster id
  v1::GetAnnotationTasksResponse tasks;
  std::vector<v1::ClusterSummary> clusters;
};

absl::StatusOr<LearnOutcome> LearnAll(workflow::LearningApi& api, const LearnInputs& in) {
  LearnOutcome o;
  v1::RegisterSiteRequest site;
  site.set_site(in.site);
  *site.mutable_schema() = in.schema->proto();
  if (in.settings) *site.mutable_settings() = *in.settings;
  VERTEX_RETURN_IF_ERROR(api.RegisterSite(site).status());
  VERTEX_ASSIGN_OR_RETURN(o.added, AddSamplePagesInBatches(api, in.site, in.files, false));
  if (o.added.response.clustered() && o.added.response.clusters_size() == 0) {
    return absl::FailedPreconditionError(workflow::NoClusterMessage(in.site, o.added.response.sample_pages(),
                                                                    o.added.response.prune_threshold()));
  }
  VERTEX_ASSIGN_OR_RETURN(ClusterAnnotations by_cluster, GroupByCluster(in, o.added));
  for (const auto& [cluster_id, annotations] : by_cluster) {
    v1::LearnRequest request;
    request.set_site(in.site);
    request.set_cluster_id(cluster_id);
    request.mutable_annotations()->Assign(annotations.begin(), annotations.end());
    request.set_replace(true);
    VERTEX_ASSIGN_OR_RETURN(v1::LearnResponse response, api.Learn(request));
    o.learnt.emplace_back(cluster_id, std::move(response));
  }
  v1::GetAnnotationTasksRequest tasks;
  tasks.set_site(in.site);
  VERTEX_ASSIGN_OR_RETURN(o.tasks, api.GetAnnotationTasks(tasks));
  VERTEX_ASSIGN_OR_RETURN(o.clusters, ClustersNow(api, in.site, o.added.response));
  return o;
}

absl::StatusOr<std::string> OutcomeJson(const std::string& site, const LearnOutcome& o) {
  std::string learnt = "[";
  for (const auto& [cluster_id, response] : o.learnt) {
    VERTEX_ASSIGN_OR_RETURN(const std::string json, LearntJson(cluster_id, response));
    absl::StrAppend(&learnt, learnt.size() > 1 ? "," : "", json);
  }
  VERTEX_ASSIGN_OR_RETURN(const std::string clusters, JsonArray(o.clusters));
  VERTEX_ASSIGN_OR_RETURN(const std::string tasks, JsonArray(o.tasks.tasks()));
  VERTEX_ASSIGN_OR_RETURN(const std::string errors, JsonArray(o.added.response.errors()));
  std::string out = "{\"site\":";
  util::AppendJsonString(site, &out);
  absl::StrAppend(&out, ",\"clusters\":", clusters, ",\"learnt\":", learnt, "],\"needs_annotation\":", tasks);
  absl::StrAppend(&out, ",\"unassigned_pages\":", o.added.response.unassigned_pages(), ",\"errors\":", errors, "}");
  return out;
}

absl::Status Learn(const ParsedArgs& a) {
  if (!a.positional.empty()) return absl::InvalidArgumentError("unexpected argument " + a.positional[0]);
  VERTEX_RETURN_IF_ERROR(IsOnline(a).status());
  VERTEX_RETURN_IF_ERROR(RejectOfflineFlags(a, OfflineLearningFlags()));
  VERTEX_ASSIGN_OR_RETURN(LearnInputs in, ReadLearnInputs(a));
  VERTEX_ASSIGN_OR_RETURN(workflow::LearningEngineOptions options, LearningOptionsFromFlags(a));
  VERTEX_ASSIGN_OR_RETURN(Backend<workflow::LearningApi> backend, OpenLearning(a, StoreMode::kCreate, options));
  VERTEX_ASSIGN_OR_RETURN(const LearnOutcome outcome, LearnAll(*backend.api, in));
  VERTEX_ASSIGN_OR_RETURN(const std::string json, OutcomeJson(in.site, outcome));
  std::cout << json << "\n";
  return absl::OkStatus();
}

}  // namespace

std::vector<FlagSpec> OfflineLearningFlags() {
  std::vector<FlagSpec> flags = OtherClusterFlags();
  flags.push_back({"unannotated", "N", "unannotated sample pages rule learning looks at per cluster (default 20)"});
  return flags;
}

absl::StatusOr<workflow::LearningEngineOptions> LearningOptionsFromFlags(const ParsedArgs& args) {
  workflow::LearningEngineOptions options;
  VERTEX_ASSIGN_OR_RETURN(options.cluster, OtherClusterOptionsFromFlags(args));
  VERTEX_ASSIGN_OR_RETURN(int64_t unannotated, args.Int("unannotated", 20, 0, 10000));
  options.learn.unannotated_pages = static_cast<size_t>(unannotated);
  return options;
}

int RunLearn(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = LearnFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kLearnUsage << BackendHelp("the learning service") << kLearnFlagsHeader << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("learn", parsed.status());
  const absl::Status s = Learn(*parsed);
  return s.ok() ? 0 : ReportError("learn", s);
}

}  // namespace vertex::cli
