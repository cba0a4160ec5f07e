#include "common/workflow/learning_engine.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/extract/record_proto.h"
#include "common/extract/json_export.h"
#include "common/extract/xslt_export.h"
#include "common/learn/rule_learner.h"
#include "common/monitor/relearn.h"
#include "common/sample/annotation_sample.h"
#include "common/schema/schema.h"
#include "common/site/site_builder.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"
#include "common/workflow/annotations.h"
#include "common/workflow/learning_internal.h"
#include "common/workflow/list_proposals.h"
#include "common/workflow/sample_view.h"
#include "common/workflow/site_store.h"
#include "google/protobuf/util/json_util.h"

namespace vertex::workflow {
std::string NoClusterMessage(const std::string& site, uint32_t sample_pages, uint32_t prune_threshold) {
  return absl::StrCat("the sample of site \"", site, "\" (", sample_pages, sample_pages == 1 ? " page" : " pages",
                      ") was clustered into no cluster: every masked vector was pruned (threshold ",
                      prune_threshold, "); lower it with the site's settings (prune_threshold; vertexctl --threshold N, ",
                      "0: adaptive)");
}

namespace {

using internal::NowMs;
using internal::SampleTasks;
using internal::Summary;

v1::SampleCluster ToSampleCluster(const site::SiteCluster& c, const std::string& id) {
  v1::SampleCluster out;
  out.set_cluster_id(id);
  for (size_t p : c.pages) out.add_pages(static_cast<uint32_t>(p));
  for (size_t p : c.attached) out.add_attached(static_cast<uint32_t>(p));
  for (const site::AnnotationPick& pick : c.annotation_sample) {
    out.add_annotation_order(static_cast<uint32_t>(pick.page));
    out.add_added_weight(pick.added_weight);
  }
  return out;
}

absl::StatusOr<schema::CompiledSchema> SchemaOf(const store::RuleStore& store, const std::string& site) {
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord record, store.GetSite(site));
  return schema::CompiledSchema::FromProto(record.schema());
}

// Largest pruning threshold a site may ask for.
constexpr uint32_t kMaxPruneThreshold = 1000000000;

absl::Status ValidateSettings(const v1::SiteSettings& s) {
  if (!(s.sample_rate() >= 0 && s.sample_rate() <= 1)) {
    return absl::InvalidArgumentError(
        absl::StrCat("settings.sample_rate must be from 0 to 1 (0: the default), not ", s.sample_rate()));
  }
  if (s.prune_threshold() > kMaxPruneThreshold) {
    return absl::InvalidArgumentError(absl::StrCat("settings.prune_threshold must be at most ", kMaxPruneThreshold,
                                                   " (0: adaptive), not ", s.prune_threshold()));
  }
  if (s.page_builder() != v1::PAGE_BUILDER_UNSPECIFIED && !site::BuilderFromProto(s.page_builder()).has_value()) {
    return absl::InvalidArgumentError(absl::StrCat("settings.page_builder: ", static_cast<int>(s.page_builder()),
                                                   " is not a page builder (gumbo or libxml2)"));
  }
  return absl::OkStatus();
}

// Whether `s` sets more than the page builder (a site whose settings hold
// only its builder, as every site now stores one, has no clustering
// settings of its own).
bool HasClusterSettings(const v1::SiteSettings& s) {
  v1::SiteSettings without_builder = s;
  without_builder.clear_page_builder();
  return without_builder.ByteSizeLong() > 0;
}

// The settings a site stores: `requested` (a request's, null: none) replace
// the stored ones unless they set only a builder; the builder is explicit.
v1::SiteSettings SettingsToStore(const v1::SiteRecord& stored, const v1::SiteSettings* requested,
                                 html::PageBuilder builder) {
  v1::SiteSettings out = stored.settings();
  if (requested != nullptr && (HasClusterSettings(*requested) || requested->page_builder() == 0)) out = *requested;
  out.set_page_builder(site::BuilderToProto(builder));
  return out;
}

// The settings clustering uses for `site`: its own, or the engine's
// defaults for a site without settings; a sample rate of 0 is the engine's.
v1::SiteSettings EffectiveSettings(const v1::SiteRecord& site, const site::SiteClusterOptions& defaults) {
  v1::SiteSettings s = site.settings();
  s.set_page_builder(site::BuilderToProto(site::BuilderOfSite(site)));
  if (!HasClusterSettings(site.settings())) {
    s.set_prune_threshold(static_cast<uint32_t>(std::clamp<int64_t>(defaults.cluster.prune_threshold, 0,
                                                                    kMaxPruneThreshold)));
  }
  if (s.sample_rate() <= 0) s.set_sample_rate(defaults.sample.rate);
  return s;
}

site::SiteClusterOptions WithSettings(site::SiteClusterOptions options, const v1::SiteSettings& effective) {
  options.cluster.prune_threshold = effective.prune_threshold();
  options.sample.rate = effective.sample_rate();
  return options;
}

// FailedPrecondition for GetAnnotationTasks on a sample without cluster.
absl::Status NoClusterError(const std::string& site, const v1::SampleState& state) {
  if (state.clustered_unix_ms() <= 0) {
    return absl::FailedPreconditionError("the sample of site \"" + site +
                                         "\" was never clustered: add sample pages first");
  }
  return absl::FailedPreconditionError(NoClusterMessage(site, state.sample_size(), state.prune_threshold()));
}

}  // namespace

LearningEngine::LearningEngine(store::RuleStore* store, LearningEngineOptions options,
                               std::function<void(const std::string&)> on_write)
    : store_(store), options_(std::move(options)), on_write_(std::move(on_write)) {
  if (options_.page_cache_bytes > 0) page_cache_ = std::make_unique<ParsedPageCache>(options_.page_cache_bytes);
}

ParsedPageCache::Stats LearningEngine::page_cache_stats() const {
  return page_cache_ ? page_cache_->stats() : ParsedPageCache::Stats{};
}

PageCacheView LearningEngine::CacheFor(const std::string& site, const v1::SampleState& state) {
  if (!page_cache_) return {};
  // A new clustering may come with pages rewritten by another writer.
  page_cache_->BeginCall(site, state.clustered_unix_ms() ^ (int64_t{state.urls_size()} << 40));
  return PageCacheView{page_cache_.get(), site};
}

void LearningEngine::DropCachedPages(const std::string& site) {
  if (page_cache_) page_cache_->DropSite(site);
}

absl::Mutex* LearningEngine::SiteLock(const std::string& site) {
  absl::MutexLock lock(&locks_mu_);
  std::unique_ptr<absl::Mutex>& mu = locks_[site];
  if (mu == nullptr) mu = std::make_unique<absl::Mutex>();
  return mu.get();
}

void LearningEngine::Notify(const std::string& site) const {
  if (on_write_) on_write_(site);
}

absl::StatusOr<html::ParseOptions> LearningEngine::SiteParse(const std::string& site) const {
  VERTEX_ASSIGN_OR_RETURN(const v1::SiteRecord record, store_->GetSite(site));
  return site::SiteParseOptions(options_.cluster.parse, record);
}

absl::StatusOr<html::PageBuilder> LearningEngine::RequestedBuilder(const std::string& site,
                                                                   const v1::SiteRecord* stored,
                                                                   v1::PageBuilder requested) const {
  bool has_content = false;
  if (stored != nullptr) {
    VERTEX_ASSIGN_OR_RETURN(const v1::SampleState state, store_->GetSampleState(site));
    VERTEX_ASSIGN_OR_RETURN(const std::vector<v1::ClusterRecord> clusters, store_->ClustersOfSite(site));
    has_content = state.urls_size() > 0 || !clusters.empty();
  }
  return site::ResolveSiteBuilder(site, stored, has_content, requested, options_.cluster.parse.builder);
}

absl::StatusOr<v1::RegisterSiteResponse> LearningEngine::RegisterSite(const v1::RegisterSiteRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromProto(request.schema());
  if (!schema.ok()) {
    return absl::InvalidArgumentError("schema: " + std::string(schema.status().message()));
  }
  if (request.has_settings()) VERTEX_RETURN_IF_ERROR(ValidateSettings(request.settings()));
  bool created = false;
  {
    absl::MutexLock lock(SiteLock(request.site()));
    absl::StatusOr<v1::SiteRecord> stored = store_->GetSite(request.site());
    if (!stored.ok() && !absl::IsNotFound(stored.status())) return stored.status();
    v1::SiteRecord record = stored.ok() ? *stored : v1::SiteRecord();
    VERTEX_ASSIGN_OR_RETURN(const html::PageBuilder builder,
                            RequestedBuilder(request.site(), stored.ok() ? &*stored : nullptr,
                                             request.settings().page_builder()));
    const int64_t now = NowMs();
    record.set_site(request.site());
    if (!stored.ok()) record.set_created_unix_ms(now);
    *record.mutable_schema() = request.schema();
    *record.mutable_settings() =
        SettingsToStore(record, request.has_settings() ? &request.settings() : nullptr, builder);
    record.set_updated_unix_ms(now);
    VERTEX_RETURN_IF_ERROR(store_->PutSite(record));
    DropCachedPages(request.site());  // the settings (page builder) may have changed
    created = !stored.ok();
  }
  Notify(request.site());
  v1::RegisterSiteResponse response;
  VERTEX_ASSIGN_OR_RETURN(*response.mutable_site(), store_->GetSite(request.site()));
  response.set_created(created);  // not from the timestamps: two clock reads can straddle a millisecond
  return response;
}

absl::StatusOr<v1::AddSamplePagesResponse> LearningEngine::AddSamplePages(const v1::AddSamplePagesRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  if (request.pages_size() > static_cast<int>(options_.max_pages_per_call)) {
    return absl::InvalidArgumentError(absl::StrCat("pages: ", request.pages_size(), " pages in one call; at most ",
                                                   options_.max_pages_per_call));
  }
  if (request.has_settings()) VERTEX_RETURN_IF_ERROR(ValidateSettings(request.settings()));
  for (int i = 0; i < request.pages_size(); ++i) {
    if (request.pages(i).url().empty()) return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].url is empty"));
  }
  // The pages are parsed with the builder the site will have, outside the
  // lock; it is checked again under the lock.
  VERTEX_ASSIGN_OR_RETURN(const v1::SiteRecord before, store_->GetSite(request.site()));
  const v1::PageBuilder requested = request.settings().page_builder();
  VERTEX_ASSIGN_OR_RETURN(const html::PageBuilder builder, RequestedBuilder(request.site(), &before, requested));
  v1::AddSamplePagesResponse response;
  std::vector<v1::SamplePage> pages;
  html::ParseOptions parse = options_.cluster.parse;
  parse.builder = builder;
  html::Parser parser(parse);
  for (const v1::Page& p : request.pages()) {
    std::optional<v1::SamplePage> page = internal::SamplePageOf(parser, p, response.mutable_errors());
    if (page.has_value()) pages.push_back(*std::move(page));
  }
  absl::MutexLock lock(SiteLock(request.site()));
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site, store_->GetSite(request.site()));
  VERTEX_ASSIGN_OR_RETURN(const html::PageBuilder now, RequestedBuilder(request.site(), &site, requested));
  if (now != builder) {
    return absl::AbortedError("the page builder of site \"" + request.site() +
                              "\" changed while its pages were parsed: send them again");
  }
  if (request.has_settings() || site.settings().page_builder() != site::BuilderToProto(builder)) {
    *site.mutable_settings() = SettingsToStore(site, request.has_settings() ? &request.settings() : nullptr, builder);
    site.set_updated_unix_ms(NowMs());
    VERTEX_RETURN_IF_ERROR(store_->PutSite(site));
  }
  *response.mutable_settings() = EffectiveSettings(site, options_.cluster);
  DropCachedPages(request.site());
  if (!pages.empty()) VERTEX_RETURN_IF_ERROR(store_->PutSamplePages(request.site(), pages).status());
  response.set_pages_added(static_cast<uint32_t>(pages.size()));
  if (!request.defer_clustering()) {
    VERTEX_ASSIGN_OR_RETURN(v1::AddSamplePagesResponse clustered, ClusterSample(request.site()));
    response.MergeFrom(clustered);
  }
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(request.site()));
  response.set_sample_pages(static_cast<uint32_t>(state.urls_size()));
  Notify(request.site());
  return response;
}

absl::StatusOr<v1::AddSamplePagesResponse> LearningEngine::ClusterSample(const std::string& site_id) {
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(site_id));
  VERTEX_ASSIGN_OR_RETURN(SampleClustering c, ComputeClustering(site_id, std::move(state), StoreLoader(store_, site_id)));
  VERTEX_RETURN_IF_ERROR(store_->PutSampleClustering(site_id, c.state, c.assigned.records));
  v1::AddSamplePagesResponse response;
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, SchemaOf(*store_, site_id));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::TransferredCluster> transferred, TransferRules(site_id, schema, {}));
  response.mutable_transferred()->Assign(transferred.begin(), transferred.end());
  response.set_clustered(true);
  response.set_prune_threshold(c.state.prune_threshold());
  response.set_unassigned_pages(static_cast<uint32_t>(c.clustering.unassigned.size()));
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState stored, store_->GetSampleState(site_id));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> records, store_->ClustersOfSite(site_id));
  for (const v1::ClusterRecord& r : records) {
    const v1::SampleCluster* sc = FindSampleCluster(stored, r.cluster_id());
    if (sc != nullptr) *response.add_clusters() = internal::SummaryOf(r, *sc);
  }
  return response;
}

absl::StatusOr<SampleClustering> LearningEngine::ComputeClustering(const std::string& site_id, v1::SampleState state,
                                                                   const PageLoader& load) const {
  if (state.urls_size() == 0) {
    return absl::FailedPreconditionError("site \"" + site_id + "\" has no sample page to cluster: add pages first");
  }
  std::vector<site::SitePage> pages;
  for (int i = 0; i < state.urls_size(); ++i) {
    site::SitePage p{state.urls(i), state.urls(i), {}, false};
    const std::string& v = i < state.vectors_size() ? state.vectors(i) : std::string();
    if (v.size() != p.vector.size()) {
      return absl::DataLossError(absl::StrCat("sample page #", i, " of site ", site_id, " has no shingle vector"));
    }
    std::copy(v.begin(), v.end(), p.vector.begin());
    pages.push_back(std::move(p));
  }
  VERTEX_ASSIGN_OR_RETURN(const v1::SiteRecord site, store_->GetSite(site_id));
  const html::ParseOptions parse = site::SiteParseOptions(options_.cluster.parse, site);
  const site::XPathsOfPage xpaths = [&](size_t i) -> absl::StatusOr<sample::PageXPaths> {
    VERTEX_ASSIGN_OR_RETURN(site::PageFile file, load(i));
    html::Parser parser(parse);
    VERTEX_ASSIGN_OR_RETURN(html::Page page, parser.Parse(file.bytes, file.url));
    return sample::ExtractXPaths(page);
  };
  const site::SiteClusterOptions options = WithSettings(options_.cluster, EffectiveSettings(site, options_.cluster));
  VERTEX_ASSIGN_OR_RETURN(site::SiteClustering clustering, site::ClusterKnownPages(pages, xpaths, options));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> stored, store_->ClustersOfSite(site_id));
  VERTEX_RETURN_IF_ERROR(FoldMergedClusters(stored, options_.cluster.url, &clustering));
  ClusterAssignment assigned = AssignClusterIds(site_id, stored, clustering);
  state.clear_clusters();
  state.clear_unassigned();
  for (size_t c = 0; c < clustering.clusters.size(); ++c) {
    *state.add_clusters() = ToSampleCluster(clustering.clusters[c], assigned.ids[c]);
    v1::ClusterRecord& record = assigned.records[c];
    if (record.editor().annotations_size() == 0) {
      record.mutable_editor()->clear_tasks();
      for (v1::AnnotationTask& t : SampleTasks(record, state.clusters(static_cast<int>(c)), state)) {
        *record.mutable_editor()->add_tasks() = std::move(t);
      }
    }
  }
  for (size_t p : clustering.unassigned) state.add_unassigned(static_cast<uint32_t>(p));
  state.set_sample_size(static_cast<uint32_t>(clustering.sample_size));
  state.set_prune_threshold(static_cast<uint32_t>(clustering.prune_threshold));
  state.set_clustered_unix_ms(NowMs());
  return SampleClustering{std::move(state), std::move(clustering), std::move(assigned)};
}

namespace {

// Where cluster `c` stands in the editor loop.
v1::ClusterProgress ProgressOf(const v1::ClusterRecord& c, const v1::SampleCluster& sc) {
  v1::ClusterProgress p;
  *p.mutable_cluster() = internal::SummaryOf(c, sc);
  std::set<std::string> seen;
  for (const v1::Annotation& a : c.editor().annotations()) {
    if (seen.insert(a.url()).second) p.add_annotated_urls(a.url());
  }
  p.set_pages_checked(c.editor().pages_checked());
  p.mutable_failing()->CopyFrom(c.editor().failing());
  if (c.editor().state() != v1::DONE && c.editor().tasks_size() > 0) *p.mutable_next() = c.editor().tasks(0);
  p.mutable_merged()->CopyFrom(c.merged());
  return p;
}

// Tasks for sample pages no cluster covers or attaches: annotating one
// (Learn without cluster_id) makes a new cluster of it.
void AddUnassignedTasks(const std::string& site, const v1::SampleState& state, size_t max_pages,
                        v1::GetAnnotationTasksResponse* response) {
  for (int i = 0; i < state.unassigned_size() && static_cast<size_t>(i) < max_pages; ++i) {
    v1::AnnotationTask* t = response->add_tasks();
    t->set_site(site);
    t->set_url(state.urls(static_cast<int>(state.unassigned(i))));
    t->set_rank(i + 1);
    t->set_reason(absl::StrCat("no cluster covers or attaches this page (one of ", state.unassigned_size(),
                               "): annotate it with no cluster id to make a new cluster of it"));
  }
}

}  // namespace

absl::StatusOr<v1::GetAnnotationTasksResponse> LearningEngine::GetAnnotationTasks(
    const v1::GetAnnotationTasksRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  VERTEX_ASSIGN_OR_RETURN(const v1::SiteRecord site, store_->GetSite(request.site()));
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(request.site()));
  if (state.clusters_size() == 0) return NoClusterError(request.site(), state);
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> clusters, store_->ClustersOfSite(request.site()));
  const size_t max_pages = request.max_pages() > 0 ? request.max_pages() : options_.task_pages;
  v1::GetAnnotationTasksResponse response;
  *response.mutable_settings() = EffectiveSettings(site, options_.cluster);
  response.set_prune_threshold(state.prune_threshold());
  response.set_sample_pages(static_cast<uint32_t>(state.urls_size()));
  response.set_unassigned_pages(static_cast<uint32_t>(state.unassigned_size()));
  bool found = request.cluster_id().empty();
  for (const v1::ClusterRecord& c : clusters) {
    if (!request.cluster_id().empty() && c.cluster_id() != request.cluster_id()) continue;
    found = true;
    const v1::SampleCluster* sc = FindSampleCluster(state, c.cluster_id());
    if (sc == nullptr) continue;  // not in the current clustering
    *response.add_clusters() = ProgressOf(c, *sc);
    if (c.editor().state() == v1::DONE) {
      response.add_done_clusters(c.cluster_id());
      continue;
    }
    for (int i = 0; i < c.editor().tasks_size() && static_cast<size_t>(i) < max_pages; ++i) {
      *response.add_tasks() = c.editor().tasks(i);
    }
  }
  if (!found) {
    return absl::NotFoundError("cluster \"" + request.cluster_id() + "\" of site \"" + request.site() + "\" not found");
  }
  if (request.cluster_id().empty()) AddUnassignedTasks(request.site(), state, max_pages, &response);
  std::map<std::string, uint32_t> index_of;
  for (int i = 0; i < state.urls_size(); ++i) index_of[state.urls(i)] = static_cast<uint32_t>(i);
  for (v1::AnnotationTask& t : *response.mutable_tasks()) {
    const uint32_t i = index_of[t.url()];
    if (static_cast<int>(i) < state.files_size()) t.set_file(state.files(static_cast<int>(i)));
  }
  for (v1::ClusterProgress& p : *response.mutable_clusters()) {
    if (!p.has_next()) continue;
    const uint32_t i = index_of[p.next().url()];
    if (static_cast<int>(i) < state.files_size()) p.mutable_next()->set_file(state.files(static_cast<int>(i)));
  }
  // The list finder's proposals (issue 14), when the store holds a model.
  VERTEX_RETURN_IF_ERROR(
      AddListProposals(*store_, request.site(), site::SiteParseOptions(options_.cluster.parse, site), &response));
  if (request.include_html()) {
    for (const v1::AnnotationTask& t : response.tasks()) {
      VERTEX_ASSIGN_OR_RETURN(v1::SamplePage page, store_->GetSamplePage(request.site(), index_of[t.url()]));
      v1::Page* out = response.add_pages();
      out->set_url(page.url());
      out->set_html(page.html());
      out->set_file(page.file());
    }
  }
  return response;
}

absl::StatusOr<v1::GetRuleResponse> LearningEngine::GetRule(const v1::GetRuleRequest& request) {
  v1::GetRuleResponse response;
  VERTEX_ASSIGN_OR_RETURN(*response.mutable_rule(),
                          store_->GetRule(request.site(), request.cluster_id(), request.version()));
  return response;
}

absl::StatusOr<v1::ListRulesResponse> LearningEngine::ListRules(const v1::ListRulesRequest& request) {
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site, store_->GetSite(request.site()));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> clusters, store_->ClustersOfSite(request.site()));
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(request.site()));
  v1::ListRulesResponse response;
  response.set_site(site.site());
  response.set_vertical(site.schema().vertical());
  for (const v1::ClusterRecord& c : clusters) {
    const v1::SampleCluster* sc = FindSampleCluster(state, c.cluster_id());
    v1::ClusterRules* out = response.add_clusters();
    *out->mutable_cluster() = sc == nullptr ? Summary(c, 0) : internal::SummaryOf(c, *sc);
    VERTEX_ASSIGN_OR_RETURN(std::vector<int64_t> versions, store_->ListRuleVersions(request.site(), c.cluster_id()));
    for (int64_t v : versions) out->add_versions(v);
  }
  return response;
}

absl::StatusOr<v1::ExportRuleResponse> LearningEngine::ExportRule(const v1::ExportRuleRequest& request) {
  VERTEX_ASSIGN_OR_RETURN(v1::Rule rule, store_->GetRule(request.site(), request.cluster_id(), request.version()));
  v1::ExportRuleResponse response;
  response.set_version(rule.version());
  if (request.format() == v1::ExportRuleRequest::XSLT || request.format() == v1::ExportRuleRequest::FIELDS) {
    VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, SchemaOf(*store_, request.site()));
    if (request.format() == v1::ExportRuleRequest::FIELDS) {
      VERTEX_ASSIGN_OR_RETURN(*response.mutable_content(), extract::RuleFieldsJson(rule, schema));
      response.set_content_type("application/json");
    } else {
      VERTEX_ASSIGN_OR_RETURN(*response.mutable_content(), extract::ExportXslt(rule, schema));
      response.set_content_type("application/xslt+xml");
    }
    // Attributes without a rule part are not noted (no rule, no values).
    for (v1::AttributeRule a : rule.has_record() ? rule.record().attributes() : rule.attributes()) {
      if (rule.has_record()) a.clear_features();  // as the engine runs record attributes
      const std::string why = request.format() == v1::ExportRuleRequest::FIELDS ? extract::FieldUnexportedReason(a)
                                                                              : extract::XsltUnexportedReason(a);
      if (!why.empty()) response.add_notes(a.attribute() + ": " + why + "; not exported");
    }
    return response;
  }
  google::protobuf::util::JsonPrintOptions json;
  json.add_whitespace = true;
  json.preserve_proto_field_names = true;
  const auto status = google::protobuf::util::MessageToJsonString(rule, response.mutable_content(), json);
  if (!status.ok()) return absl::InternalError("cannot print the rule as JSON: " + std::string(status.message()));
  response.set_content_type("application/json");
  return response;
}

absl::StatusOr<v1::RollbackRuleResponse> LearningEngine::RollbackRule(const v1::RollbackRuleRequest& request) {
  {
    absl::MutexLock lock(SiteLock(request.site()));
    VERTEX_RETURN_IF_ERROR(store_->Rollback(request.site(), request.cluster_id(), request.version()));
  }
  Notify(request.site());
  v1::RollbackRuleResponse response;
  VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord c, store_->GetCluster(request.site(), request.cluster_id()));
  *response.mutable_cluster() = Summary(c, 0);
  return response;
}

absl::StatusOr<v1::DeleteSiteResponse> LearningEngine::DeleteSite(const v1::DeleteSiteRequest& request) {
  {
    absl::MutexLock lock(SiteLock(request.site()));
    DropCachedPages(request.site());
    VERTEX_RETURN_IF_ERROR(store_->DeleteSite(request.site()));
  }
  Notify(request.site());
  return v1::DeleteSiteResponse();
}

absl::StatusOr<v1::RelearnResponse> LearningEngine::Relearn(const v1::RelearnRequest& request) {
  monitor::RelearnContext context;
  context.store = store_;
  context.options = {options_.cluster.parse, options_.learn, options_.bellwethers, options_.relearn_pages,
                     options_.fetcher};
  // A record-level site is repaired by AMBER with the vertical's stored
  // gazetteers.
  if (absl::StatusOr<v1::SiteRecord> site = store_->GetSite(request.site()); site.ok() && site->schema().record_level()) {
    VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromProto(site->schema()));
    VERTEX_ASSIGN_OR_RETURN(context.options.learn.gazetteers, GazetteersFor(schema));
  }
  context.site_lock = [this](const std::string& site) { return SiteLock(site); };
  context.compute_clustering = [this](const std::string& site, v1::SampleState state, const PageLoader& load) {
    return ComputeClustering(site, std::move(state), load);
  };
  context.notify = [this](const std::string& site) { Notify(site); };
  DropCachedPages(request.site());
  absl::StatusOr<v1::RelearnResponse> response = monitor::Relearn(context, request);
  DropCachedPages(request.site());  // the sample was replaced
  return response;
}

absl::StatusOr<v1::ResolveCandidateResponse> LearningEngine::ResolveCandidate(
    const v1::ResolveCandidateRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  VERTEX_RETURN_IF_ERROR(store::ValidateId("cluster_id", request.cluster_id()));
  v1::ResolveCandidateResponse response;
  {
    absl::MutexLock lock(SiteLock(request.site()));
    VERTEX_ASSIGN_OR_RETURN(const int64_t version,
                            store_->ResolveCandidate(request.site(), request.cluster_id(), request.accept()));
    response.set_version(version);
    VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord c, store_->GetCluster(request.site(), request.cluster_id()));
    *response.mutable_cluster() = Summary(c, 0);
  }
  Notify(request.site());
  return response;
}

absl::StatusOr<v1::RecordMonitorRunResponse> LearningEngine::RecordMonitorRun(
    const v1::RecordMonitorRunRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("run.site", request.run().site()));
  v1::MonitorRun run = request.run();
  // History is ordered by start time: a run without one is stamped now.
  if (run.started_unix_ms() <= 0) run.set_started_unix_ms(NowMs());
  {
    absl::MutexLock lock(SiteLock(run.site()));
    VERTEX_RETURN_IF_ERROR(store_->AppendMonitorRun(run, options_.history_keep));
  }
  Notify(run.site());
  return v1::RecordMonitorRunResponse();
}

absl::StatusOr<v1::LocatePagesResponse> LearningEngine::LocatePages(const v1::LocatePagesRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  VERTEX_RETURN_IF_ERROR(store_->GetSite(request.site()).status());
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(request.site()));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> records, store_->ClustersOfSite(request.site()));
  const std::vector<PageLocation> where = LocateSamplePages(state, records);
  v1::LocatePagesResponse response;
  response.set_clustered(state.clustered_unix_ms() > 0);
  std::map<std::string, size_t> index_of;
  for (int i = 0; i < state.urls_size(); ++i) index_of.emplace(state.urls(i), static_cast<size_t>(i));
  auto add = [&](const std::string& url) {
    v1::PageLocation* out = response.add_pages();
    out->set_url(url);
    auto it = index_of.find(url);
    if (it == index_of.end()) {
      out->set_how("unknown");
      return;
    }
    const PageLocation& w = where[it->second];
    out->set_how(w.how);
    out->set_cluster_id(w.cluster_id);
    out->set_agreement(static_cast<uint32_t>(w.agreement));
    out->set_nearest_cluster(w.nearest_cluster);
    if (static_cast<int>(it->second) < state.files_size()) out->set_file(state.files(static_cast<int>(it->second)));
  };
  if (request.urls_size() == 0) {
    for (const std::string& url : state.urls()) add(url);
  } else {
    for (const std::string& url : request.urls()) add(url);
  }
  return response;
}

}  // namespace vertex::workflow
