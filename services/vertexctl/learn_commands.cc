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
       "annotations, JSON Lines: {\"file\"|\"url\",\"attribute\",\"value\"|\"values\"|\"xpath\"|\"absent\"[,\"record\"]}; "
       "optional for a record-level schema (AMBER annotates)"},
      {"sample", "DIR", "the site's sample pages (*.htm, *.html); those not in the site's sample yet are added"},
      {"cluster", "ID", "learn only this cluster (annotations of other clusters' pages are left out)"},
      {"replace", "", "forget the clusters' earlier annotations (default: keep them; a page annotated again "
                      "for an attribute replaces its earlier annotation)"},
      {"allow-attribute-loss", "", "store a version even when it has no rule for an attribute the current one has"},
      UrlFlag("the URL of the page when --sample is one page file (its <base href> ignored); an error otherwise"),
  };
  for (const FlagSpec& f : ProgressFlags()) flags.push_back(f);
  for (const FlagSpec& f : SiteSettingsFlags()) flags.push_back(f);
  for (const FlagSpec& f : ServerFlags("the learning service")) flags.push_back(f);
  for (const FlagSpec& f : OfflineLearningFlags()) flags.push_back(f);
  flags.push_back({"help", "", "show this help"});
  return flags;
}

constexpr char kLearnUsage[] =
    "usage: vertexctl learn --site SITE --schema FILE [--annotations FILE] --sample DIR\n"
    "                       (--store DIR | --server HOST:PORT) [flags]\n"
    "\n"
    "Learns a site's extraction rules from annotated sample pages with the learning service's\n"
    "calls: RegisterSite (the schema), AddSamplePages for the pages of --sample the site's sample\n"
    "does not hold yet (a sample already stored is not sent again; when pages are added, or\n"
    "--threshold/--sample-rate given, the sample is clustered again), LocatePages (which cluster\n"
    "each annotated page is in, by the stored clustering: URL regexes, which several clusters\n"
    "may share, do not decide), then one Learn per cluster with annotated pages (Vertex III-C:\n"
    "robust XPaths, positional predicates, a Naive Bayes classifier where no XPath is precise,\n"
    "range pruner, typed regexes). Annotated pages no cluster covers or attaches go to a Learn\n"
    "without cluster id, which makes a new cluster of them. Learn keeps the cluster's earlier\n"
    "annotations (a page annotated again for an attribute replaces its earlier annotation;\n"
    "--replace forgets them), stores a new version when an attribute was learnt (refused when it\n"
    "has no rule for an attribute the current version has, unless --allow-attribute-loss), runs\n"
    "the editor loop on every other page of the cluster, and when the rule is DONE tries it on\n"
    "the site's clusters nobody annotated (rule transfer: those it passes on are merged in).\n"
    "An annotation's \"file\" is a path as given, or relative to --sample (it is sent as that\n"
    "page's URL); a \"url\" is sent as is. --url URL gives the URL of a --sample that is one page\n"
    "file without <base href> (an error with a directory of several). The sample pages sent\n"
    "show progress on stderr when it is a terminal (--progress / --no-progress to force).\n"
    "Record-level schemas (\"record_level\": true, e.g. deploy/schemas/real_estate.json: many\n"
    "records per page) learn a record rule. With no --annotations, every cluster (or --cluster)\n"
    "is learnt by AMBER with no editor: the schema's regexes and gazetteers annotate its sample\n"
    "pages, AMBER finds their data areas, records and attributes, and the votes across pages\n"
    "become the rule. An editor may instead annotate one or two records of a page: lines with\n"
    "\"record\": 1, 2, ... (one value each).\n"
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
  std::string only_cluster;                  // --cluster
  bool replace = false, allow_attribute_loss = false;
  std::vector<workflow::SourcedAnnotation> annotations;
  std::vector<std::string> files;  // the sample's page files
  std::string url;                 // --url: the URL of the one sample file, or ""
  bool progress = false;           // draw the pages sent on stderr
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
  VERTEX_RETURN_IF_ERROR(RequireFlags(a, {"site", "schema", "sample"}));
  in.site = a.String("site", "");
  in.sample = a.String("sample", "");
  in.annotations_file = a.String("annotations", "");
  in.only_cluster = a.String("cluster", "");
  in.replace = a.Has("replace");
  in.allow_attribute_loss = a.Has("allow-attribute-loss");
  VERTEX_ASSIGN_OR_RETURN(in.schema, schema::CompiledSchema::FromFile(a.String("schema", "")));
  if (in.annotations_file.empty()) {
    // Record-level verticals learn with no annotation: AMBER annotates.
    if (!in.schema->proto().record_level()) {
      return absl::InvalidArgumentError("give --annotations: schema " + in.schema->vertical() +
                                        " is not record-level, so its rules need an editor's annotations");
    }
  } else {
    VERTEX_ASSIGN_OR_RETURN(std::string text, util::ReadFile(in.annotations_file, kMaxAnnotationBytes));
    VERTEX_ASSIGN_OR_RETURN(in.annotations, workflow::ParseAnnotations(text, in.annotations_file));
  }
  VERTEX_ASSIGN_OR_RETURN(in.files, site::ExpandPagePaths({in.sample}));
  VERTEX_ASSIGN_OR_RETURN(in.url, UrlFromFlags(a, in.files));
  VERTEX_ASSIGN_OR_RETURN(in.progress, ProgressEnabled(a));
  SampleFiles sample;
  for (const std::string& f : in.files) sample[Canonical(f)] = "";
  for (const workflow::SourcedAnnotation& s : in.annotations) {
    VERTEX_RETURN_IF_ERROR(CheckAnnotation(s, in));
    if (!s.annotation.file().empty()) VERTEX_RETURN_IF_ERROR(AnnotatedFile(s, in, sample).status());
  }
  return in;
}

// The annotations with their pages known by URL, grouped by cluster.
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

// Groups the annotations by the cluster the site's stored clustering puts
// each annotated page in (LocatePages: members and attached pages); pages no
// cluster covers or attaches go under "" (Learn makes a cluster of them).
// URL regexes do not decide: several clusters may share one.
absl::StatusOr<ClusterAnnotations> GroupByCluster(const LearnInputs& in, const SampleFiles& sample,
                                                  const std::map<std::string, std::string>& errors,
                                                  const v1::LocatePagesResponse& located) {
  std::map<std::string, const v1::PageLocation*> where;
  for (const v1::PageLocation& l : located.pages()) where[l.url()] = &l;
  ClusterAnnotations out;
  std::map<std::string, size_t> index_of;
  for (const workflow::SourcedAnnotation& s : in.annotations) {
    VERTEX_ASSIGN_OR_RETURN(const std::string url, UrlOf(s, in, sample, errors));
    auto it = where.find(url);
    if (it == where.end() || it->second->how() == "unknown") {
      return absl::FailedPreconditionError(Where(in, s) + "page " + url + " is not in the site's sample");
    }
    const std::string& cluster = it->second->cluster_id();
    if (!in.only_cluster.empty() && cluster != in.only_cluster) continue;
    auto [slot, added] = index_of.emplace(cluster, out.size());
    if (added) out.emplace_back(cluster, std::vector<v1::Annotation>());
    v1::Annotation a = s.annotation;
    a.clear_file();
    a.set_url(url);
    out[slot->second].second.push_back(std::move(a));
  }
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
absl::StatusOr<std::vector<v1::ClusterSummary>> ClustersNow(workflow::LearningApi& api, const std::string& site) {
  v1::ListRulesRequest request;
  request.set_site(site);
  VERTEX_ASSIGN_OR_RETURN(v1::ListRulesResponse rules, api.ListRules(request));
  std::vector<v1::ClusterSummary> out;
  for (const v1::ClusterRules& c : rules.clusters()) {
    if (c.cluster().pages() + c.cluster().attached_pages() > 0) out.push_back(c.cluster());  // in the clustering
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

// The sample files by canonical path, with their URLs.
absl::StatusOr<SampleFiles> ReadSampleUrls(const std::vector<std::string>& files, const std::string& url) {
  SampleFiles out;
  for (const std::string& f : files) {
    VERTEX_ASSIGN_OR_RETURN(site::PageFile page, site::ReadPageFile(f, size_t{1} << 30, url));
    out[Canonical(f)] = page.url;
  }
  return out;
}

// Adds to the site's sample the files whose URLs it does not hold yet (all
// when it was never clustered), and clusters it again when anything was
// added or `settings` (new ones) were given: a sample the store holds is not
// sent again.
absl::StatusOr<AddedPages> AddNewPages(workflow::LearningApi& api, const LearnInputs& in, const SampleFiles& urls,
                                       const std::optional<v1::SiteSettings>& settings) {
  v1::LocatePagesRequest locate;
  locate.set_site(in.site);
  VERTEX_ASSIGN_OR_RETURN(v1::LocatePagesResponse known, api.LocatePages(locate));
  std::set<std::string> held;
  for (const v1::PageLocation& l : known.pages()) held.insert(l.url());
  std::vector<std::string> fresh;
  for (const std::string& f : in.files) {
    if (!held.count(urls.at(Canonical(f)))) fresh.push_back(f);
  }
  if (fresh.empty() && known.clustered() && !settings) return AddedPages{};
  Progress progress("learn: add-pages", fresh.size(), in.progress && !fresh.empty());
  return AddSamplePagesInBatches(api, in.site, fresh, false, settings, in.url, &progress);
}

absl::StatusOr<LearnOutcome> LearnAll(workflow::LearningApi& api, const LearnInputs& in) {
  LearnOutcome o;
  v1::RegisterSiteRequest site;
  site.set_site(in.site);
  *site.mutable_schema() = in.schema->proto();
  VERTEX_ASSIGN_OR_RETURN(const v1::RegisterSiteResponse registered, api.RegisterSite(site));
  // Settings the site has already change nothing: the sample is not
  // clustered again for them (AddSamplePages stores new ones).
  // A request's UNSPECIFIED page builder keeps the site's (which the server
  // always stores), so it compares as the stored one.
  std::optional<v1::SiteSettings> settings = in.settings;
  if (settings && registered.site().has_settings()) {
    v1::SiteSettings asked = *settings;
    if (asked.page_builder() == v1::PAGE_BUILDER_UNSPECIFIED) {
      asked.set_page_builder(registered.site().settings().page_builder());
    }
    if (asked.SerializeAsString() == registered.site().settings().SerializeAsString()) settings.reset();
  }
  VERTEX_ASSIGN_OR_RETURN(const SampleFiles urls, ReadSampleUrls(in.files, in.url));
  VERTEX_ASSIGN_OR_RETURN(o.added, AddNewPages(api, in, urls, settings));
  if (o.added.response.clustered() && o.added.response.clusters_size() == 0) {
    return absl::FailedPreconditionError(workflow::NoClusterMessage(in.site, o.added.response.sample_pages(),
                                                                    o.added.response.prune_threshold()));
  }
  std::map<std::string, std::string> errors;
  for (const v1::PageError& e : o.added.response.errors()) errors[e.url()] = e.error();
  v1::LocatePagesRequest locate;
  locate.set_site(in.site);
  VERTEX_ASSIGN_OR_RETURN(const v1::LocatePagesResponse located, api.LocatePages(locate));
  VERTEX_ASSIGN_OR_RETURN(ClusterAnnotations by_cluster, GroupByCluster(in, urls, errors, located));
  if (in.annotations.empty()) {
    // AMBER learns every cluster (or --cluster) of a record-level site.
    VERTEX_ASSIGN_OR_RETURN(const std::vector<v1::ClusterSummary> clusters, ClustersNow(api, in.site));
    for (const v1::ClusterSummary& c : clusters) {
      if (in.only_cluster.empty() || c.cluster_id() == in.only_cluster) {
        by_cluster.emplace_back(c.cluster_id(), std::vector<v1::Annotation>());
      }
    }
    if (by_cluster.empty() && !in.only_cluster.empty()) {
      return absl::NotFoundError("cluster \"" + in.only_cluster + "\" is not in the site's clustering");
    }
  }
  for (const auto& [cluster_id, annotations] : by_cluster) {
    v1::LearnRequest request;
    request.set_site(in.site);
    request.set_cluster_id(cluster_id);
    request.mutable_annotations()->Assign(annotations.begin(), annotations.end());
    request.set_replace(in.replace);
    request.set_allow_attribute_loss(in.allow_attribute_loss);
    absl::StatusOr<v1::LearnResponse> response = api.Learn(request);
    // With no annotation (AMBER), a cluster listed before may have been
    // merged into one learnt just before by rule transfer: it is done.
    if (annotations.empty() && absl::IsNotFound(response.status())) continue;
    VERTEX_RETURN_IF_ERROR(response.status());
    o.learnt.emplace_back(cluster_id.empty() ? response->created_cluster() : cluster_id, *std::move(response));
  }
  v1::GetAnnotationTasksRequest tasks;
  tasks.set_site(in.site);
  VERTEX_ASSIGN_OR_RETURN(o.tasks, api.GetAnnotationTasks(tasks));
  VERTEX_ASSIGN_OR_RETURN(o.clusters, ClustersNow(api, in.site));
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
