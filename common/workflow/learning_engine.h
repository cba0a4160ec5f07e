// The learning service's operations over the rule store, free of gRPC: the
// LearningService adapter (services/learning) and vertexctl's offline mode
// both call these with the vertex.v1 request messages and get the response
// messages, so both print the same thing.
//
//   RegisterSite        site + schema (+ the site's settings: pruning
//                       threshold, sample rate, no rule transfer)
//   AddSamplePages      (replace the site's settings,) parse and store
//                       pages (shingle vectors kept), then
//                       cluster the sample (Algorithm 1), infer URL
//                       regexes, choose annotation samples (Algorithm 2),
//                       with the site's settings over the engine's defaults
//   GetAnnotationTasks  the next pages to annotate, with why; the settings
//                       and the threshold the last clustering used; with
//                       a list model in the store, the list finder's
//                       proposals for multi-valued attributes
//                       (list_proposals.h)
//   Learn               annotations -> rule (stored as a new version),
//                       diagnostics, a preview, the editor loop's verdict
//   GetRule / ListRules / ExportRule / RollbackRule / DeleteSite
//   Relearn             a changed site: fresh sample, rule reuse (Vertex
//                       IV-C), automatic repair of constant attributes
//   ResolveCandidate    accept or reject a repaired (candidate) rule
//   RecordMonitorRun    store a monitoring run in the site's history
//   LocatePages         which cluster each sample page is in (or attached
//                       to, or none)
//   TrainListModel      the list finder (lists/store_training.h) from the
//                       store's (rule, snapshot) pairs, stored as the next
//                       model version
//   GetListModel / SuggestLists   a stored list model; the lists it finds
//                       on a page
//   ListSites           every site with its schema, sample and clusters
//   GetEditorPage       a sample page rendered from the server's tree for
//                       the editor's page (html/editor_html.h), with what
//                       the cluster's rule extracts on it node by node and
//                       a preview on the cluster's other sample pages
//   AnnotateFromFeed    the sample pages annotated from the site's feed
//                       (feed/feed_matcher.h) and, with `learn`, each
//                       touched cluster learnt from some of them into a
//                       candidate, accepted when it reproduces the feed on
//                       the others (feed_call.cc, feed_check.h)
//
// Learn also chooses the cluster's bellwether pages (the annotated ones,
// then structurally diverse members) and stores the rule's output on them
// as golden extractions, with their snapshots, for monitoring.
//
// Errors are canonical absl codes whose message names the offending field
// or input (see proto/vertex/v1/learning.proto for each RPC's).
//
// Thread-safety: safe for concurrent use. Writes to one site are
// serialized (a per-site lock); different sites proceed in parallel. After
// every acknowledged write `on_write(site)` is called (outside the lock).
#ifndef VERTEX_COMMON_WORKFLOW_LEARNING_ENGINE_H_
#define VERTEX_COMMON_WORKFLOW_LEARNING_ENGINE_H_

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "common/feed/feed.h"
#include "common/fetch/fetcher.h"
#include "common/schema/schema.h"
#include "common/site/site_clusterer.h"
#include "common/store/rule_store.h"
#include "common/workflow/api.h"
#include "common/workflow/cluster_learner.h"
#include "common/workflow/feed_check.h"
#include "common/workflow/page_cache.h"
#include "common/workflow/site_store.h"
#include "vertex/v1/learning.pb.h"

namespace vertex::workflow {

struct LearningEngineOptions {
  // Clustering and parsing (parse.max_page_bytes caps each sample page).
  // cluster.cluster.prune_threshold (0: adaptive) and cluster.sample.rate
  // are the defaults for a site without settings (SiteRecord.settings); a
  // site's settings replace both (its sample_rate 0: this one).
  site::SiteClusterOptions cluster;
  ClusterLearnOptions learn;
  // Largest page GetEditorPage renders (bytes of HTML; RESOURCE_EXHAUSTED
  // past it): a stored page is at most parse.max_page_bytes, and rendering
  // adds a data-vx attribute per element.
  size_t editor_page_max_bytes = size_t{32} << 20;
  // Pages per cluster GetAnnotationTasks returns when the request says 0.
  size_t task_pages = 3;
  // Sample pages previewed by Learn when the request says 0.
  size_t preview_pages = 10;
  // Estimated heap the parsed sample pages Learn keeps between calls may
  // take (page_cache.h; shared by every site, least recently used first);
  // 0: none kept, every Learn parses the cluster's pages again. The default
  // holds a 2,000-page SWDE site (about 380 KB per parsed page).
  size_t page_cache_bytes = size_t{1} << 30;
  // Pages one AddSamplePages call may carry.
  size_t max_pages_per_call = 5000;
  // Annotations one Learn call may carry: an editor annotates a few pages
  // per cluster (K = 3) times the schema's attributes; far more is a
  // runaway client, refused before any work (INVALID_ARGUMENT naming it).
  size_t max_annotations_per_call = 1000;
  // Bellwether pages chosen per cluster when a rule is learnt (the paper
  // uses 10-20).
  size_t bellwethers = 15;
  // Pages Relearn fetches when the request gives none and says 0.
  size_t relearn_pages = 300;
  // Monitoring runs kept per site (0: all).
  size_t history_keep = 1000;
  // Fetches the fresh sample for Relearn, and the feed (feed_url) and the
  // missing entry pages (fetch_missing) for AnnotateFromFeed; nullptr:
  // Relearn needs pages, AnnotateFromFeed needs feed_xml.
  std::shared_ptr<fetch::Fetcher> fetcher;
};

// What GetAnnotationTasks says (FailedPrecondition) of a sample that was
// clustered into no cluster: "the sample of site "X" (N pages) was
// clustered into no cluster: every masked vector was pruned (threshold T);
// ...". vertexctl prints it too.
std::string NoClusterMessage(const std::string& site, uint32_t sample_pages, uint32_t prune_threshold);

class LearningEngine final : public LearningApi {
 public:
  // `store` must outlive the engine.
  LearningEngine(store::RuleStore* store, LearningEngineOptions options,
                 std::function<void(const std::string& site)> on_write = nullptr);

  absl::StatusOr<v1::RegisterSiteResponse> RegisterSite(const v1::RegisterSiteRequest& request) override;
  absl::StatusOr<v1::AddSamplePagesResponse> AddSamplePages(const v1::AddSamplePagesRequest& request) override;
  absl::StatusOr<v1::GetAnnotationTasksResponse> GetAnnotationTasks(
      const v1::GetAnnotationTasksRequest& request) override;
  absl::StatusOr<v1::LearnResponse> Learn(const v1::LearnRequest& request) override;
  absl::StatusOr<v1::GetRuleResponse> GetRule(const v1::GetRuleRequest& request) override;
  absl::StatusOr<v1::ListRulesResponse> ListRules(const v1::ListRulesRequest& request) override;
  absl::StatusOr<v1::ExportRuleResponse> ExportRule(const v1::ExportRuleRequest& request) override;
  absl::StatusOr<v1::RollbackRuleResponse> RollbackRule(const v1::RollbackRuleRequest& request) override;
  absl::StatusOr<v1::DeleteSiteResponse> DeleteSite(const v1::DeleteSiteRequest& request) override;
  absl::StatusOr<v1::RelearnResponse> Relearn(const v1::RelearnRequest& request) override;
  absl::StatusOr<v1::ResolveCandidateResponse> ResolveCandidate(const v1::ResolveCandidateRequest& request) override;
  absl::StatusOr<v1::RecordMonitorRunResponse> RecordMonitorRun(const v1::RecordMonitorRunRequest& request) override;
  absl::StatusOr<v1::LocatePagesResponse> LocatePages(const v1::LocatePagesRequest& request) override;
  absl::StatusOr<v1::LearnGazetteerResponse> LearnGazetteer(const v1::LearnGazetteerRequest& request) override;
  // list_model_call.cc.
  absl::StatusOr<v1::TrainListModelResponse> TrainListModel(const v1::TrainListModelRequest& request) override;
  absl::StatusOr<v1::GetListModelResponse> GetListModel(const v1::GetListModelRequest& request) override;
  absl::StatusOr<v1::SuggestListsResponse> SuggestLists(const v1::SuggestListsRequest& request) override;
  // editor_page_call.cc.
  absl::StatusOr<v1::ListSitesResponse> ListSites(const v1::ListSitesRequest& request) override;
  absl::StatusOr<v1::GetEditorPageResponse> GetEditorPage(const v1::GetEditorPageRequest& request) override;
  // feed_call.cc.
  absl::StatusOr<v1::AnnotateFromFeedResponse> AnnotateFromFeed(const v1::AnnotateFromFeedRequest& request) override;

  const LearningEngineOptions& options() const { return options_; }
  // The parsed-page cache's counters (all zero without a cache).
  ParsedPageCache::Stats page_cache_stats() const;

  // The gazetteers record-level learning annotates `schema`'s pages with:
  // per attribute with a gazetteer, the terms LearnGazetteer stored for the
  // vertical and attribute (blacklisted ones left out), else the options'
  // (learn.gazetteers), else (not in the set) the built-in list.
  absl::StatusOr<annotate::GazetteerSet> GazetteersFor(const schema::CompiledSchema& schema) const;

 private:
  absl::Mutex* SiteLock(const std::string& site);
  void Notify(const std::string& site) const;
  // The engine's parse options with the builder of `site` (site_builder.h):
  // every parse of the site's pages uses them. NotFound for an unknown site.
  absl::StatusOr<html::ParseOptions> SiteParse(const std::string& site) const;
  // The builder the site gets from a request asking for `requested`
  // (UNSPECIFIED: none); `stored` is null for a new site. FailedPrecondition
  // when it would change the builder of a site with pages or clusters.
  absl::StatusOr<html::PageBuilder> RequestedBuilder(const std::string& site, const v1::SiteRecord* stored,
                                                     v1::PageBuilder requested) const;
  absl::StatusOr<v1::AddSamplePagesResponse> ClusterSample(const std::string& site);
  // Clusters `state`'s pages (urls and vectors), loading sampled pages
  // through `load` (called from several threads), and assigns cluster ids
  // against the stored clusters. Writes nothing.
  absl::StatusOr<SampleClustering> ComputeClustering(const std::string& site, v1::SampleState state,
                                                     const PageLoader& load) const;
  // Rule transfer (rule_transfer.h): tries the current rules of the
  // clusters in `only_donors` (empty: every cluster with a rule) on the
  // site's clusters no editor touched yet, merges those a rule passes on
  // into its cluster and stores the result. Call with the site's lock held.
  absl::StatusOr<std::vector<v1::TransferredCluster>> TransferRules(const std::string& site,
                                                                    const schema::CompiledSchema& schema,
                                                                    const std::set<std::string>& only_donors);
  absl::StatusOr<std::vector<v1::TransferredCluster>> ApplyTransfers(const std::string& site,
                                                                     const schema::CompiledSchema& schema,
                                                                     v1::SampleState state,
                                                                     std::vector<v1::ClusterRecord> records,
                                                                     std::vector<v1::TransferredCluster> transfers);
  // Learn under the site's lock, for cluster `cluster_id`; with
  // `candidate` the version is stored as the cluster's candidate
  // (store::RuleCommit::candidate) instead of becoming current.
  absl::Status LearnLocked(const v1::LearnRequest& request, const std::string& cluster_id,
                           const schema::CompiledSchema& schema, const std::vector<v1::Annotation>& fresh,
                           v1::LearnResponse* response, bool candidate = false);
  // Learn of request.cluster_id (which must be given) under the site's
  // lock, into a candidate version: the request's annotations checked as
  // Learn checks them (InvalidArgument naming the annotation), no rule
  // transfer. Call with the site's lock held.
  absl::StatusOr<v1::LearnResponse> LearnCandidateLocked(const v1::LearnRequest& request,
                                                         const schema::CompiledSchema& schema);
  // AnnotateFromFeed's fetch_missing: fetches the entry pages of `feed`'s
  // items whose link is not a sample page and adds them (AddSamplePages),
  // noting what was fetched and what failed in `response`. Takes the
  // site's lock itself (through AddSamplePages).
  absl::Status FetchMissingEntries(const std::string& site, const feed::Feed& feed,
                                   v1::AnnotateFromFeedResponse* response);
  // Learn of `input`'s pages `learnt` (positions) into a candidate, without
  // the annotations of the attributes in *left_out; an attribute whose
  // annotations Learn refuses (InvalidArgument naming it) is added to
  // *left_out, with a note, and Learn tried again. Call with the site's
  // lock held.
  absl::StatusOr<v1::LearnResponse> LearnFeedAnnotations(const std::string& site, const schema::CompiledSchema& schema,
                                                         const FeedClusterInput& input,
                                                         const std::vector<size_t>& learnt,
                                                         std::set<std::string>* left_out,
                                                         std::vector<std::string>* notes);
  // AnnotateFromFeed under the site's lock, after the feed was read and
  // the missing entry pages fetched: match, locate, and learn.
  absl::Status AnnotateLocked(const v1::AnnotateFromFeedRequest& request, const schema::CompiledSchema& schema,
                              const std::map<std::string, std::string>& field_to_attribute, const feed::Feed& feed,
                              v1::AnnotateFromFeedResponse* response);
  // AnnotateFromFeed's learning of one cluster from its annotated pages:
  // NOT_LEARNT (with the reason) when Learn fails on them or learns
  // nothing; else the candidate judged on the others (feed_check.h),
  // learnt again with a page it failed on added (at most twice, while a
  // page is left to check), and accepted when it passes. Errors only from
  // the store. Call with the site's lock held.
  absl::StatusOr<v1::FeedClusterLearn> LearnClusterFromFeed(const std::string& site,
                                                            const schema::CompiledSchema& schema,
                                                            const FeedClusterInput& input);
  // A new cluster made of the unassigned sample pages `fresh` annotates
  // (LearnRequest with no cluster_id); returns its id.
  absl::StatusOr<std::string> CreateClusterForUnassigned(const std::string& site,
                                                         const std::vector<v1::Annotation>& fresh);
  // A new version of `donor`'s rule covering the clusters merged into it,
  // with bellwethers chosen again over its merged pages.
  absl::Status CommitMergedRule(const std::string& site, const v1::ClusterRecord& donor,
                                const v1::SampleState& state, const schema::CompiledSchema& schema);

  // The cache view for Learn on `site` (no cache: an empty view); starts a
  // call on the cache.
  PageCacheView CacheFor(const std::string& site, const v1::SampleState& state);
  // GetEditorPage's part about the cluster's rule: the page's stored
  // annotations, what the rule extracts on it node by node, and the preview
  // on the cluster's other sample pages (`index`: the page's in the sample).
  absl::Status AddRuleView(const v1::GetEditorPageRequest& request, const v1::SampleState& state, uint32_t index,
                           const html::Page& page, const html::ParseOptions& parse,
                           v1::GetEditorPageResponse* response);
  // Forgets the site's parsed pages (its sample pages or settings changed).
  void DropCachedPages(const std::string& site);

  store::RuleStore* store_;
  LearningEngineOptions options_;
  std::unique_ptr<ParsedPageCache> page_cache_;  // null when options_.page_cache_bytes is 0
  std::function<void(const std::string&)> on_write_;
  absl::Mutex locks_mu_;
  std::map<std::string, std::unique_ptr<absl::Mutex>> locks_ ABSL_GUARDED_BY(locks_mu_);
};

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_LEARNING_ENGINE_H_
