// vertexctl eval-swde: learn a site's rules with an editor simulated from its
// ground truth, extract every page, and score the records.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/eval/ground_truth.h"
#include "common/eval/score.h"
#include "common/extract/site_extractor.h"
#include "common/learn/rule_learner.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/site/site_builder.h"
#include "common/store/rule_store.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "common/workflow/batch_extract.h"
#include "common/workflow/simulated_editor.h"
#include "common/workflow/site_store.h"
#include "services/vertexctl/commands.h"
#include "services/common/flags.h"

namespace vertex::cli {
namespace {

std::vector<FlagSpec> EvalFlags() {
  std::vector<FlagSpec> flags = {
      {"pages", "DIR", "the site's page files (*.htm, *.html; URL on a <base href> first line)"},
      {"groundtruth", "DIR", "ground truth in SWDE format: files <vertical>-<site>-<attribute>.txt under DIR"},
      {"site", "NAME", "the site's name in the ground-truth file names, e.g. booksamillion"},
      {"schema", "FILE", "the vertical's schema (JSON), e.g. deploy/schemas/book.json"},
      {"max-k", "K", "pages annotated per cluster at most (default 3)"},
      {"list-first", "K", "the simulated editor gives only the first K values of a multi-valued attribute of a "
                          "page, as a partial annotation (default 0: all values)"},
      {"unannotated", "N", "unannotated sample pages rule learning looks at (default 20)"},
      {"show-errors", "N", "list up to N wrong or missed values per attribute (default 0)"},
      {"store", "DIR",
       "keep what was learnt in the rule store at DIR (created if missing): the site (--site) with its schema, "
       "clusters and rules, for `vertexctl extract --store DIR --site NAME` (default: nothing is kept)"},
  };
  for (const FlagSpec& f : ClusterFlags()) flags.push_back(f);
  return flags;
}

constexpr char kEvalUsage[] =
    "usage: vertexctl eval-swde --pages DIR --groundtruth DIR --site NAME --schema FILE [flags]\n"
    "\n"
    "Evaluates Vertex on a site with ground truth, offline. Clusters the pages; for each\n"
    "cluster an editor simulated from the ground truth annotates pages in Algorithm 2 order\n"
    "(the first sample page, then the page the editor loop asks for) until the loop is done\n"
    "or K pages are annotated; rules are learnt; every page is extracted and each extracted\n"
    "value is compared with the page's ground truth after entity decoding, whitespace\n"
    "normalisation and case folding (a ground-truth value also matches without punctuation\n"
    "at its ends). Prints JSON: per-attribute precision, recall and F1, pages annotated per\n"
    "cluster, record statuses and timings. With --store DIR the site, its clusters and the\n"
    "learnt rules are kept in the rule store at DIR (a new rule version per cluster on a store\n"
    "that has the site already), so that `vertexctl extract --store DIR --site NAME` extracts\n"
    "again and other scorers can score its records. Without --page-builder, a site the store\n"
    "has already is evaluated with its stored builder; another builder for it fails.\n"
    "\n"
    "flags:\n";

struct EvalRun {
  std::vector<std::string> files;
  site::SiteClustering clustering;
  std::vector<workflow::SimulatedCluster> clusters;
  std::vector<workflow::FileRecord> records;
  eval::Scorer scorer;
  double cluster_s = 0, learn_s = 0, extract_s = 0;
};

double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void WriteClusters(const EvalRun& run, util::JsonWriter& w) {
  w.Key("clusters").BeginArray();
  for (const workflow::SimulatedCluster& s : run.clusters) {
    const site::SiteCluster& c = run.clustering.clusters[s.cluster];
    w.BeginObject().Key("id").String(absl::StrCat("c", c.id)).Key("pages").Uint(c.pages.size());
    w.Key("annotated").BeginArray();
    for (size_t p : s.annotated) w.String(run.clustering.pages[p].file);
    w.EndArray().Key("editor_done").Bool(s.result.verdict.done);
    w.Key("diagnostics").BeginArray();
    for (const learn::AttributeDiagnostic& d : s.result.learnt.diagnostics) {
      w.BeginObject().Key("attribute").String(d.attribute).Key("code").String(learn::DiagnosticCodeName(d.code));
      w.Key("message").String(d.message);
      if (d.cap_hit) w.Key("cap_hit").Bool(true);
      w.EndObject();
    }
    w.EndArray().EndObject();
  }
  w.EndArray();
}

struct ErrorExample {
  std::string file;
  std::vector<std::string> extracted, truth;
};

// Scores every record; keeps up to `limit` wrong pages per attribute.
std::map<std::string, std::vector<ErrorExample>> Score(EvalRun& run, const schema::CompiledSchema& schema,
                                                       const eval::GroundTruth& truth, size_t limit) {
  std::map<std::string, std::vector<ErrorExample>> errors;
  for (const workflow::FileRecord& fr : run.records) {
    auto page = truth.pages.find(eval::PageIdOfFile(fr.file));
    if (page == truth.pages.end()) continue;
    for (size_t i = 0; i < schema.size(); ++i) {
      const std::string& name = schema.attribute(i).name();
      auto t = page->second.find(name);
      if (t == page->second.end()) continue;
      std::vector<std::string> got;
      if (fr.record.ok() && i < fr.record->attributes.size()) got = fr.record->attributes[i].values;
      run.scorer.Add(name, got, t->second);
      eval::Scorer one;
      one.Add(name, got, t->second);
      const eval::Scorer::AttributeScore& s = one.scores().at(name);
      if ((s.precision() < 1 || s.recall() < 1) && errors[name].size() < limit) {
        errors[name].push_back({fr.file, got, t->second});
      }
    }
  }
  return errors;
}

void WriteStatuses(const EvalRun& run, util::JsonWriter& w) {
  std::map<std::string, size_t> counts;
  for (const workflow::FileRecord& fr : run.records) {
    ++counts[fr.record.ok() ? extract::RecordStatusName(fr.record->status) : "ERROR"];
  }
  w.Key("statuses").BeginObject();
  for (const auto& [name, n] : counts) w.Key(name).Uint(n);
  w.EndObject();
}

void WriteStrings(const char* key, const std::vector<std::string>& v, util::JsonWriter& w) {
  w.Key(key).BeginArray();
  for (const std::string& s : v) w.String(s);
  w.EndArray();
}

void WriteReport(const EvalRun& run, const std::map<std::string, std::vector<ErrorExample>>& errors,
                 const std::string& site, util::JsonWriter& w) {
  size_t annotated = 0, max_per_cluster = 0;
  for (const workflow::SimulatedCluster& s : run.clusters) {
    annotated += s.annotated.size();
    max_per_cluster = std::max(max_per_cluster, s.annotated.size());
  }
  w.BeginObject().Key("site").String(site).Key("pages").Uint(run.files.size());
  w.Key("pages_annotated").Uint(annotated).Key("max_annotated_per_cluster").Uint(max_per_cluster);
  w.Key("attributes").BeginObject();
  for (const auto& [name, s] : run.scorer.scores()) {
    w.Key(name).BeginObject().Key("precision").Double(s.precision()).Key("recall").Double(s.recall());
    w.Key("f1").Double(s.f1()).Key("values_extracted").Uint(s.values_extracted);
    w.Key("values_correct").Uint(s.values_correct).Key("truth_values").Uint(s.truth_values);
    w.Key("truth_found").Uint(s.truth_found).EndObject();
  }
  w.EndObject();
  WriteStatuses(run, w);
  WriteClusters(run, w);
  w.Key("unassigned").Uint(run.clustering.unassigned.size());
  w.Key("seconds").BeginObject().Key("cluster").Double(run.cluster_s).Key("learn").Double(run.learn_s);
  w.Key("extract").Double(run.extract_s).EndObject();
  if (!errors.empty()) {
    w.Key("errors").BeginObject();
    for (const auto& [name, list] : errors) {
      w.Key(name).BeginArray();
      for (const ErrorExample& e : list) {
        w.BeginObject().Key("file").String(e.file);
        WriteStrings("extracted", e.extracted, w);
        WriteStrings("truth", e.truth, w);
        w.EndObject();
      }
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndObject();
}

std::vector<v1::Rule> LearnedRules(const std::vector<workflow::SimulatedCluster>& clusters) {
  std::vector<v1::Rule> rules;
  for (const workflow::SimulatedCluster& s : clusters) {
    if (s.result.learnt.rule.attributes_size() > 0) rules.push_back(s.result.learnt.rule);
  }
  return rules;
}

// Clusters the pages, simulates the editor, learns, extracts and scores.
absl::Status RunEvaluation(const std::vector<std::string>& files, const schema::CompiledSchema& schema,
                           const eval::GroundTruth& truth, const site::SiteClusterOptions& cluster_options,
                           const workflow::SimulatedEditorOptions& editor, EvalRun* run) {
  run->files = files;
  auto t = std::chrono::steady_clock::now();
  VERTEX_ASSIGN_OR_RETURN(run->clustering, site::ClusterSite(run->files, cluster_options));
  run->cluster_s = Since(t);
  t = std::chrono::steady_clock::now();
  workflow::PagePool pool(run->clustering, cluster_options.parse);
  VERTEX_ASSIGN_OR_RETURN(run->clusters, workflow::SimulateEditor(schema, run->clustering, truth, pool, editor));
  run->learn_s = Since(t);
  VERTEX_ASSIGN_OR_RETURN(extract::SiteExtractor extractor,
                          extract::SiteExtractor::Create(schema, LearnedRules(run->clusters)));
  t = std::chrono::steady_clock::now();
  run->records = workflow::ExtractFiles(extractor, run->files, cluster_options.parse, cluster_options.threads);
  run->extract_s = Since(t);
  return absl::OkStatus();
}

// Keeps the evaluation's site, clusters and rules in the rule store at
// `dir` (created if missing) under `site_name`, built with `builder`
// (FailedPrecondition, as RegisterSite, for a stored site with clusters
// built with another).
absl::Status KeepInStore(const std::string& dir, const std::string& site_name, const schema::CompiledSchema& schema,
                         html::PageBuilder builder, const EvalRun& run) {
  store::StoreOptions options;
  options.create_if_missing = true;
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store, store::OpenRocksDbStore(dir, options));
  const int64_t now =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  absl::StatusOr<v1::SiteRecord> stored = store->GetSite(site_name);
  if (!stored.ok() && !absl::IsNotFound(stored.status())) return stored.status();
  v1::SiteRecord site = stored.ok() ? *stored : v1::SiteRecord();
  std::vector<v1::ClusterRecord> clusters;
  if (stored.ok()) {
    VERTEX_ASSIGN_OR_RETURN(clusters, store->ClustersOfSite(site_name));
  }
  VERTEX_RETURN_IF_ERROR(site::ResolveSiteBuilder(site_name, stored.ok() ? &*stored : nullptr, !clusters.empty(),
                                                  site::BuilderToProto(builder), builder)
                             .status());
  site.mutable_settings()->set_page_builder(site::BuilderToProto(builder));
  site.set_site(site_name);
  if (!stored.ok()) site.set_created_unix_ms(now);
  site.set_updated_unix_ms(now);
  *site.mutable_schema() = schema.proto();
  VERTEX_RETURN_IF_ERROR(store->PutSite(site));
  const workflow::ClusterAssignment assigned = workflow::AssignClusterIds(site_name, clusters, run.clustering);
  VERTEX_RETURN_IF_ERROR(store->PutClusters(site_name, assigned.records));
  for (const workflow::SimulatedCluster& s : run.clusters) {
    if (s.result.learnt.rule.attributes_size() == 0) continue;
    store::RuleCommit commit;
    commit.rule = s.result.learnt.rule;
    commit.rule.set_site(site_name);
    commit.rule.set_cluster_id(assigned.ids[s.cluster]);
    commit.rule.set_created_unix_ms(now);
    commit.rule.clear_annotated_urls();
    for (size_t p : s.annotated) commit.rule.add_annotated_urls(run.clustering.pages[p].url);
    VERTEX_RETURN_IF_ERROR(store->CommitRule(commit).status());
  }
  return absl::OkStatus();
}

// The builder to evaluate `site_name` with when --store `dir` is given:
// the `asked` one (--page-builder, UNSPECIFIED: none) or, for a site the
// store has, its own (ResolveSiteBuilder: FailedPrecondition, before any
// work, when `asked` is another than that of a stored site with clusters),
// else `fallback`.
absl::StatusOr<html::PageBuilder> StoreBuilder(const std::string& dir, const std::string& site_name,
                                               v1::PageBuilder asked, html::PageBuilder fallback) {
  if (!std::filesystem::exists(dir)) return site::BuilderFromProto(asked).value_or(fallback);
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store, store::OpenRocksDbStore(dir, {}));
  absl::StatusOr<v1::SiteRecord> stored = store->GetSite(site_name);
  if (absl::IsNotFound(stored.status())) return site::BuilderFromProto(asked).value_or(fallback);
  if (!stored.ok()) return stored.status();
  VERTEX_ASSIGN_OR_RETURN(const std::vector<v1::ClusterRecord> clusters, store->ClustersOfSite(site_name));
  return site::ResolveSiteBuilder(site_name, &*stored, !clusters.empty(), asked, fallback);
}

absl::Status Evaluate(const ParsedArgs& a) {
  for (const char* required : {"pages", "groundtruth", "site", "schema"}) {
    if (!a.Has(required)) return absl::InvalidArgumentError(absl::StrCat("--", required, " is required"));
  }
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromFile(a.String("schema", "")));
  VERTEX_ASSIGN_OR_RETURN(eval::GroundTruth truth, eval::LoadGroundTruth(a.String("groundtruth", ""),
                                                                          a.String("site", "")));
  VERTEX_ASSIGN_OR_RETURN(site::SiteClusterOptions cluster_options, ClusterOptionsFromFlags(a));
  if (a.Has("store")) {
    // A site kept in the store before is evaluated again with its builder
    // (a Gumbo site stays Gumbo under the libxml2 default).
    const v1::PageBuilder asked =
        a.Has("page-builder") ? site::BuilderToProto(cluster_options.parse.builder) : v1::PAGE_BUILDER_UNSPECIFIED;
    VERTEX_ASSIGN_OR_RETURN(cluster_options.parse.builder, StoreBuilder(a.String("store", ""), a.String("site", ""),
                                                                        asked, cluster_options.parse.builder));
  }
  workflow::SimulatedEditorOptions editor;
  VERTEX_ASSIGN_OR_RETURN(int64_t k, a.Int("max-k", 3, 1, 1000));
  VERTEX_ASSIGN_OR_RETURN(int64_t unannotated, a.Int("unannotated", 20, 0, 10000));
  VERTEX_ASSIGN_OR_RETURN(int64_t show, a.Int("show-errors", 0, 0, 1000000));
  VERTEX_ASSIGN_OR_RETURN(int64_t list_first, a.Int("list-first", 0, 0, 1000));
  editor.max_pages = static_cast<size_t>(k);
  editor.list_first = static_cast<size_t>(list_first);
  editor.learn.unannotated_pages = static_cast<size_t>(unannotated);
  EvalRun run;
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths({a.String("pages", "")}));
  VERTEX_RETURN_IF_ERROR(RunEvaluation(files, schema, truth, cluster_options, editor, &run));
  if (a.Has("store")) VERTEX_RETURN_IF_ERROR(KeepInStore(a.String("store", ""), a.String("site", ""), schema,
                                                        cluster_options.parse.builder, run));
  const auto errors = Score(run, schema, truth, static_cast<size_t>(show));
  util::JsonWriter w;
  WriteReport(run, errors, a.String("site", ""), w);
  std::cout << w.str() << "\n";
  return absl::OkStatus();
}

}  // namespace

absl::Status PrintTruthEvaluation(const std::string& pages_dir, const std::string& truth_dir,
                                  const std::string& site, const schema::CompiledSchema& schema) {
  VERTEX_ASSIGN_OR_RETURN(eval::GroundTruth truth, eval::LoadGroundTruth(truth_dir, site));
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths({pages_dir}));
  EvalRun run;
  VERTEX_RETURN_IF_ERROR(RunEvaluation(files, schema, truth, {}, {}, &run));
  Score(run, schema, truth, 0);
  size_t annotated = 0, learnt = 0, extracted = 0;
  for (const workflow::SimulatedCluster& s : run.clusters) {
    annotated += s.annotated.size();
    learnt += s.result.learnt.rule.attributes_size() > 0;
  }
  for (const workflow::FileRecord& r : run.records) extracted += r.record.ok() && !r.record->attributes.empty();
  std::printf("%s: an editor (simulated from the ground truth) annotated %zu page(s); %zu cluster(s) got a rule\n"
              "in %.2f s; all %zu pages went through extraction in %.2f s and %zu got a record of this vertical\n",
              schema.vertical().c_str(), annotated, learnt, run.learn_s, run.files.size(), run.extract_s,
              extracted);
  std::printf("  %-18s %9s %9s %9s %8s\n", "attribute", "precision", "recall", "F1", "values");
  for (const auto& [name, s] : run.scorer.scores()) {
    std::printf("  %-18s %9.4f %9.4f %9.4f %8zu\n", name.c_str(), s.precision(), s.recall(), s.f1(),
                s.truth_values);
  }
  return absl::OkStatus();
}

int RunEvalSwde(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> flags = EvalFlags();
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, flags);
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kEvalUsage << FlagHelp(flags);
    return 0;
  }
  if (!parsed.ok()) return ReportError("eval-swde", parsed.status());
  if (!parsed->positional.empty()) {
    return ReportError("eval-swde", absl::InvalidArgumentError("unexpected argument " + parsed->positional[0]));
  }
  const absl::Status s = Evaluate(*parsed);
  return s.ok() ? 0 : ReportError("eval-swde", s);
}

}  // namespace vertex::cli
