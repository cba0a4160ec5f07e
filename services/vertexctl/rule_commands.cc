// vertexctl learn | extract | rules: rule learning, extraction and rule
// inspection, offline, on a local store directory.
#include <filesystem>
#include <iostream>
#include <map>

#include "absl/strings/str_cat.h"
#include "common/extract/site_extractor.h"
#include "common/html/xpath.h"
#include "common/learn/rule_learner.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/store/rule_store.h"
#include "common/util/file.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "common/workflow/annotations.h"
#include "common/workflow/batch_extract.h"
#include "common/workflow/cluster_learner.h"
#include "common/workflow/site_store.h"
#include "services/vertexctl/commands.h"
#include "services/common/flags.h"

namespace vertex::cli {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxAnnotationBytes = 64 << 20;

std::vector<FlagSpec> LearnFlags() {
  std::vector<FlagSpec> flags = {
      {"store", "DIR", "the rule store directory (created when missing)"},
      {"site", "NAME", "the site's name, the store's key for it"},
      {"schema", "FILE", "the vertical's schema (JSON), e.g. deploy/schemas/book.json"},
      {"annotations", "FILE", "annotations, JSON Lines: {\"file\",\"attribute\",\"value\"|\"values\"|\"xpath\"|\"absent\"}"},
      {"sample", "DIR", "the site's sample pages (*.htm, *.html)"},
      {"unannotated", "N", "unannotated sample pages rule learning looks at per cluster (default 20)"},
  };
  for (const FlagSpec& f : ClusterFlags()) flags.push_back(f);
  return flags;
}

constexpr char kLearnUsage[] =
    "usage: vertexctl learn --store DIR --site SITE --schema FILE --annotations FILE --sample DIR [flags]\n"
    "\n"
    "Learns extraction rules offline. Clusters the sample pages, learns a rule for every\n"
    "cluster with annotated pages (Vertex III-C: robust XPaths, positional predicates, a\n"
    "Naive Bayes classifier where no XPath is precise, range pruner, typed regexes), stores\n"
    "the site, its clusters and each rule as a new version with its sample pages, and\n"
    "prints JSON: per cluster the rule version, per attribute what was learnt or why not,\n"
    "the editor loop's verdict on the cluster's other sample pages, and the clusters that\n"
    "still need annotation with their next pages (Algorithm 2 order).\n"
    "An annotation's \"file\" is a path as given, or relative to --sample.\n"
    "\n"
    "flags:\n";

// Page index of every file of the clustering, by canonical path and URL.
struct PageIndex {
  std::map<std::string, size_t> by_path, by_url;
  std::map<std::string, std::string> errors;  // canonical path -> parse error
};

std::string Canonical(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::path(path), ec);
  return ec ? path : p.string();
}

PageIndex IndexPages(const site::SiteClustering& c) {
  PageIndex index;
  for (size_t i = 0; i < c.pages.size(); ++i) {
    index.by_path[Canonical(c.pages[i].file)] = i;
    index.by_url[c.pages[i].url] = i;
  }
  for (const site::PageError& e : c.errors) index.errors[Canonical(e.file)] = e.error;
  return index;
}

absl::StatusOr<size_t> PageOf(const workflow::SourcedAnnotation& s, const PageIndex& index,
                              const std::string& sample, const std::string& source) {
  const std::string where = absl::StrCat(source, ":", s.line, ": ");
  const v1::Annotation& a = s.annotation;
  if (a.file().empty()) {
    auto it = index.by_url.find(a.url());
    if (it == index.by_url.end()) return absl::InvalidArgumentError(where + "no sample page has URL " + a.url());
    return it->second;
  }
  std::vector<std::string> paths = {a.file()};
  if (fs::path(a.file()).is_relative()) paths.push_back((fs::path(sample) / a.file()).string());
  for (const std::string& p : paths) {
    const std::string c = Canonical(p);
    if (auto it = index.by_path.find(c); it != index.by_path.end()) return it->second;
    if (auto it = index.errors.find(c); it != index.errors.end()) {
      return absl::InvalidArgumentError(where + "page " + a.file() + " could not be read: " + it->second);
    }
  }
  return absl::InvalidArgumentError(where + "file " + a.file() + " is not a page of the sample " + sample);
}

absl::Status CheckAnnotation(const workflow::SourcedAnnotation& s, const schema::CompiledSchema& schema,
                             const std::string& source) {
  const std::string where = absl::StrCat(source, ":", s.line, ": ");
  const v1::Annotation& a = s.annotation;
  const int i = schema.Find(a.attribute());
  if (i < 0) {
    return absl::InvalidArgumentError(where + "unknown attribute \"" + a.attribute() + "\" (not in schema " +
                                      schema.vertical() + ")");
  }
  if (a.values_size() > 1 && !schema.attribute(i).multi_valued()) {
    return absl::InvalidArgumentError(where + "several values for single-valued attribute \"" + a.attribute() + "\"");
  }
  if (!a.xpath().empty()) {
    absl::StatusOr<html::XPath> x = html::XPath::Compile(a.xpath());
    if (!x.ok()) return absl::InvalidArgumentError(where + std::string(x.status().message()));
  }
  return absl::OkStatus();
}

struct LearnInputs {
  std::string store_dir, site, sample, annotations_file;
  std::optional<schema::CompiledSchema> schema;
  std::vector<workflow::SourcedAnnotation> annotations;
  site::SiteClusterOptions cluster;
  workflow::ClusterLearnOptions learn;
};

absl::StatusOr<LearnInputs> ReadLearnInputs(const ParsedArgs& a) {
  for (const char* required : {"store", "site", "schema", "annotations", "sample"}) {
    if (!a.Has(required)) return absl::InvalidArgumentError(absl::StrCat("--", required, " is required"));
  }
  LearnInputs in;
  in.store_dir = a.String("store", "");
  in.site = a.String("site", "");
  in.sample = a.String("sample", "");
  in.annotations_file = a.String("annotations", "");
  VERTEX_ASSIGN_OR_RETURN(in.schema, schema::CompiledSchema::FromFile(a.String("schema", "")));
  VERTEX_ASSIGN_OR_RETURN(std::string text, util::ReadFile(in.annotations_file, kMaxAnnotationBytes));
  VERTEX_ASSIGN_OR_RETURN(in.annotations, workflow::ParseAnnotations(text, in.annotations_file));
  for (const workflow::SourcedAnnotation& s : in.annotations) {
    VERTEX_RETURN_IF_ERROR(CheckAnnotation(s, *in.schema, in.annotations_file));
  }
  VERTEX_ASSIGN_OR_RETURN(in.cluster, ClusterOptionsFromFlags(a));
  VERTEX_ASSIGN_OR_RETURN(int64_t unannotated, a.Int("unannotated", 20, 0, 10000));
  in.learn.unannotated_pages = static_cast<size_t>(unannotated);
  return in;
}

// Annotations per cluster (indices into clustering.clusters).
absl::StatusOr<std::map<size_t, std::vector<learn::AttributeAnnotation>>> GroupByCluster(
    const LearnInputs& in, const site::SiteClustering& clustering) {
  const PageIndex index = IndexPages(clustering);
  std::map<size_t, size_t> cluster_of;
  for (size_t c = 0; c < clustering.clusters.size(); ++c) {
    for (size_t p : clustering.clusters[c].pages) cluster_of[p] = c;
  }
  std::map<size_t, std::vector<learn::AttributeAnnotation>> out;
  for (const workflow::SourcedAnnotation& s : in.annotations) {
    VERTEX_ASSIGN_OR_RETURN(size_t page, PageOf(s, index, in.sample, in.annotations_file));
    auto c = cluster_of.find(page);
    if (c == cluster_of.end()) {
      return absl::FailedPreconditionError(absl::StrCat(in.annotations_file, ":", s.line, ": page ",
                                                        clustering.pages[page].file,
                                                        " is in no cluster (no cluster signature covers it)"));
    }
    learn::AttributeAnnotation a;
    a.page = page;
    a.attribute = s.annotation.attribute();
    a.values.assign(s.annotation.values().begin(), s.annotation.values().end());
    a.xpath = s.annotation.xpath();
    out[c->second].push_back(std::move(a));
  }
  return out;
}

void WriteAttributes(const workflow::ClusterLearnResult& r, util::JsonWriter& w) {
  w.Key("attributes").BeginArray();
  for (const learn::AttributeDiagnostic& d : r.learnt.diagnostics) {
    w.BeginObject().Key("attribute").String(d.attribute).Key("code").String(learn::DiagnosticCodeName(d.code));
    w.Key("learnt").Bool(d.learnt);
    for (const v1::AttributeRule& a : r.learnt.rule.attributes()) {
      if (a.attribute() != d.attribute) continue;
      w.Key("method").String(extract::MethodName(a.method())).Key("xpath").String(a.xpath());
    }
    w.Key("message").String(d.message);
    if (d.cap_hit) w.Key("cap_hit").Bool(true);
    w.EndObject();
  }
  w.EndArray();
}

void WriteEditor(const workflow::ClusterLearnResult& r, const site::SiteClustering& c, util::JsonWriter& w) {
  w.Key("editor").BeginObject().Key("done").Bool(r.verdict.done);
  w.Key("next_page");
  if (r.next_page) {
    w.String(c.pages[*r.next_page].file);
  } else {
    w.Null();
  }
  w.Key("pages_checked").Uint(r.remaining.size()).Key("pages_failing").Uint(r.verdict.pages_failing);
  w.Key("issues").BeginArray();
  for (size_t i = 0; i < r.verdict.issues.size() && i < 20; ++i) {
    const workflow::PageIssue& issue = r.verdict.issues[i];
    w.BeginObject().Key("file").String(c.pages[r.remaining[issue.page]].file);
    w.Key("attribute").String(issue.attribute).Key("problem").String(issue.problem).EndObject();
  }
  w.EndArray().EndObject();
}

struct ClusterOutcome {
  std::string id;
  std::optional<workflow::ClusterLearnResult> result;
  int64_t version = 0;
};

absl::StatusOr<ClusterOutcome> LearnAndStore(const LearnInputs& in, const site::SiteClustering& clustering, size_t c,
                                             const std::vector<learn::AttributeAnnotation>& annotations,
                                             const std::string& id, workflow::PagePool& pool,
                                             store::RuleStore& store) {
  ClusterOutcome out;
  out.id = id;
  VERTEX_ASSIGN_OR_RETURN(workflow::ClusterLearnResult r,
                          workflow::LearnCluster(*in.schema, clustering, c, annotations, pool, in.learn));
  r.learnt.rule.set_site(in.site);
  r.learnt.rule.set_cluster_id(id);
  if (r.learnt.rule.attributes_size() > 0) {
    store::RuleCommit commit;
    commit.rule = r.learnt.rule;
    for (size_t p : r.learning_pages) {
      const site::PageFile* file = pool.File(p);
      if (file == nullptr) continue;
      v1::PageSnapshot snap;
      snap.set_url(file->url);
      snap.set_html(file->bytes);
      snap.set_fetched_unix_ms(r.learnt.rule.created_unix_ms());
      commit.snapshots.push_back(std::move(snap));
    }
    VERTEX_ASSIGN_OR_RETURN(out.version, store.CommitRule(commit));
  }
  out.result = std::move(r);
  return out;
}

void WriteCluster(const site::SiteClustering& clustering, size_t c, const ClusterOutcome& o, util::JsonWriter& w) {
  const site::SiteCluster& sc = clustering.clusters[c];
  w.BeginObject().Key("id").String(o.id).Key("signature").String(sc.signature.ToText());
  w.Key("url_regex").String(sc.url_regex).Key("importance").Int(sc.importance).Key("pages").Uint(sc.pages.size());
  w.Key("rule_version").Int(o.version);
  if (o.result) {
    WriteAttributes(*o.result, w);
    WriteEditor(*o.result, clustering, w);
  }
  w.EndObject();
}

void WriteNeeds(const site::SiteClustering& clustering, const std::vector<std::string>& ids,
                const std::map<size_t, ClusterOutcome>& outcomes, util::JsonWriter& w) {
  w.Key("needs_annotation").BeginArray();
  for (size_t c = 0; c < clustering.clusters.size(); ++c) {
    auto it = outcomes.find(c);
    const bool done = it != outcomes.end() && it->second.result && it->second.result->verdict.done;
    if (done) continue;
    w.BeginObject().Key("cluster").String(ids[c]).Key("next_pages").BeginArray();
    if (it != outcomes.end() && it->second.result && it->second.result->next_page) {
      w.String(clustering.pages[*it->second.result->next_page].file);
    } else {
      const auto& sample = clustering.clusters[c].annotation_sample;
      for (size_t i = 0; i < sample.size() && i < 3; ++i) w.String(clustering.pages[sample[i].page].file);
    }
    w.EndArray().EndObject();
  }
  w.EndArray();
}

absl::Status Learn(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(LearnInputs in, ReadLearnInputs(a));
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths({in.sample}));
  VERTEX_ASSIGN_OR_RETURN(site::SiteClustering clustering, site::ClusterSite(files, in.cluster));
  VERTEX_ASSIGN_OR_RETURN(auto by_cluster, GroupByCluster(in, clustering));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store, store::OpenRocksDbStore(in.store_dir));
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> ids, workflow::StoreClusters(*store, in.site, *in.schema, clustering));
  workflow::PagePool pool(clustering, in.cluster.parse);
  std::map<size_t, ClusterOutcome> outcomes;
  for (const auto& [c, annotations] : by_cluster) {
    VERTEX_ASSIGN_OR_RETURN(outcomes[c], LearnAndStore(in, clustering, c, annotations, ids[c], pool, *store));
  }
  util::JsonWriter w;
  w.BeginObject().Key("site").String(in.site).Key("clusters").BeginArray();
  for (size_t c = 0; c < clustering.clusters.size(); ++c) {
    auto it = outcomes.find(c);
    if (it == outcomes.end()) it = outcomes.emplace(c, ClusterOutcome{ids[c], std::nullopt, 0}).first;
    WriteCluster(clustering, c, it->second, w);
  }
  w.EndArray();
  WriteNeeds(clustering, ids, outcomes, w);
  w.Key("unassigned").Uint(clustering.unassigned.size());
  w.Key("errors").BeginArray();
  for (const site::PageError& e : clustering.errors) w.BeginObject().Key("file").String(e.file).Key("error").String(e.error).EndObject();
  w.EndArray().EndObject();
  std::cout << w.str() << "\n";
  return absl::OkStatus();
}

}  // namespace

int RunLearn(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = LearnFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kLearnUsage << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("learn", parsed.status());
  if (!parsed->positional.empty()) {
    return ReportError("learn", absl::InvalidArgumentError("unexpected argument " + parsed->positional[0]));
  }
  const absl::Status s = Learn(*parsed);
  return s.ok() ? 0 : ReportError("learn", s);
}

}  // namespace vertex::cli
