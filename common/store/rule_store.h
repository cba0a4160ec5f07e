// The rule store: what Vertex keeps per site and per cluster (paper II-C),
// shared by the learning, extraction and monitoring services.
//
//   site     SiteRecord: schema and the site's cluster ids (by decreasing
//            importance).
//   cluster  ClusterRecord: masked signature, URL regex, importance,
//            bellwether URLs, golden extractions, and which rule version is
//            current.
//   rule     Rule, versioned 1, 2, ... per cluster; every version is kept,
//            with the page snapshots it was learnt from and its golden
//            extractions, so a rollback restores a consistent state.
//   sample   the site's sample pages (SamplePage, by index) and their
//            clustering (SampleState), as the learning service keeps them.
//   history  the site's monitoring runs (MonitorRun), by start time.
//   gaz      per vertical and attribute, the term states of gazetteer
//            learning (gazetteer_terms.h), independent of any site.
//
// Each mutation is one atomic write of the underlying engine (one RocksDB
// WriteBatch): a crash leaves the store either before or after the whole
// change, and an acknowledged change is durable when the store was opened
// with StoreOptions::sync_writes. The key layout is in keys.h.
//
// Ownership of fields: the store maintains SiteRecord.cluster_ids (through
// PutClusters), and ClusterRecord.current_version, latest_version and golden
// (through CommitRule and Rollback); values given for them in PutSite and
// PutClusters are ignored. Rule.version is assigned by CommitRule.
//
// Errors common to every method: InvalidArgument naming the field when a
// site id, cluster id or signature is empty, holds a NUL byte or is longer
// than kMaxIdBytes (keys.h); DataLoss naming the key (e.g.
// clusters["booksamillion", "c0"]) when a stored value cannot be parsed or
// does not belong to its key; the engine's status when it fails (I/O error;
// FailedPrecondition for a write to a read-only secondary).
//
// Thread-safety: a RuleStore is safe for concurrent use by many threads.
// Readers never block; writes are serialized. Results are copies owned by
// the caller. One process may write a RocksDB store at a time (see
// rocksdb_kv.h); others read it through secondary instances.
#ifndef VERTEX_COMMON_STORE_RULE_STORE_H_
#define VERTEX_COMMON_STORE_RULE_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/store/gazetteer_terms.h"
#include "common/store/kv_engine.h"
#include "common/store/rocksdb_kv.h"
#include "vertex/v1/list_model.pb.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::store {

// GetRule and Snapshots: the cluster's current version.
inline constexpr int64_t kCurrentVersion = 0;

// A new rule version and what comes with it.
struct RuleCommit {
  // site and cluster_id name the cluster; version is ignored (assigned);
  // empty signature / url_regex and zero importance are filled in from the
  // cluster record.
  v1::Rule rule;
  // The pages the rule was learnt from, stored with this version.
  std::vector<v1::PageSnapshot> snapshots;
  // The rule's output on the bellwether pages: becomes the cluster's golden
  // extractions (stored with this version; empty clears them).
  std::vector<v1::GoldenExtraction> golden;
  // When set, replaces the cluster's bellwether URLs; nullopt keeps them.
  std::optional<std::vector<std::string>> bellwether_urls;
  // When set, replaces the cluster's editor state, in the same write.
  std::optional<v1::EditorState> editor;
  // Store the version as the cluster's candidate (ClusterRecord.
  // candidate_version) instead of making it current: the current version,
  // golden extractions and bellwether URLs stay as they are until
  // ResolveCandidate accepts it. A commit that is no candidate drops a
  // pending candidate.
  bool candidate = false;
};

class RuleStore {
 public:
  virtual ~RuleStore() = default;

  // Creates site.site(), or replaces its schema and timestamps (stored as
  // given). Its cluster ids are kept (none for a new site).
  virtual absl::Status PutSite(const v1::SiteRecord& site) = 0;

  // NotFound when the site is not registered.
  virtual absl::StatusOr<v1::SiteRecord> GetSite(const std::string& site) const = 0;

  // All site ids, in increasing bytewise order.
  virtual absl::StatusOr<std::vector<std::string>> ListSites() const = 0;

  // Removes the site and everything of it (clusters, rules of every version,
  // snapshots, golden extractions, index entries, sample) in one write. NotFound
  // when absent.
  virtual absl::Status DeleteSite(const std::string& site) = 0;

  // Replaces the site's set of clusters, e.g. after clustering a sample.
  // For each given record: site must be empty or `site`; cluster_id unique
  // among them; signature may be empty (then the cluster is not in the
  // signature index). An id already stored keeps its rule versions, current
  // version and golden extractions, and its bellwether URLs unless the given
  // record lists some; a new id starts without a rule. Stored ids that are
  // not given are removed with their rules, snapshots and index entries.
  // The site's cluster_ids become the given ids by decreasing importance
  // (ties by id). One write. NotFound when the site is not registered.
  virtual absl::Status PutClusters(const std::string& site,
                                   const std::vector<v1::ClusterRecord>& clusters) = 0;

  // NotFound when the site or the cluster does not exist.
  virtual absl::StatusOr<v1::ClusterRecord> GetCluster(const std::string& site,
                                                       const std::string& cluster_id) const = 0;

  // The site's clusters by decreasing importance (ties by id): one prefix
  // scan of the site's keys. NotFound when the site is not registered.
  virtual absl::StatusOr<std::vector<v1::ClusterRecord>> ClustersOfSite(
      const std::string& site) const = 0;

  // What rule matching needs of each of the site's clusters (site,
  // cluster_id, signature, url_regex, importance, current_version,
  // latest_version; no bellwethers, no golden extractions), by decreasing
  // importance: one prefix scan of the routes index. NotFound when the site
  // is not registered.
  virtual absl::StatusOr<std::vector<v1::ClusterRecord>> RoutesOfSite(
      const std::string& site) const = 0;

  // The clusters of any site whose masked signature is exactly `signature`,
  // ordered by (site, cluster_id). Empty when none.
  virtual absl::StatusOr<std::vector<v1::ClusterRecord>> ClustersBySignature(
      const std::string& signature) const = 0;

  // Stores commit.rule as version latest_version + 1 of its cluster and
  // makes it current; stores the snapshots and golden extractions with it
  // and updates the cluster record, in one write. Returns the version.
  // NotFound when the site or cluster does not exist.
  virtual absl::StatusOr<int64_t> CommitRule(const RuleCommit& commit) = 0;

  // The rule of `version`, or of the current version for kCurrentVersion.
  // NotFound when the cluster does not exist, has no such version, or (for
  // kCurrentVersion) has no rule yet. InvalidArgument for a negative version.
  virtual absl::StatusOr<v1::Rule> GetRule(const std::string& site, const std::string& cluster_id,
                                           int64_t version) const = 0;

  // The stored versions of the cluster's rule, ascending (empty when none).
  // NotFound when the cluster does not exist.
  virtual absl::StatusOr<std::vector<int64_t>> ListRuleVersions(
      const std::string& site, const std::string& cluster_id) const = 0;

  // Makes the stored `version` current again and restores the golden
  // extractions stored with it (and, when there are some, the bellwether
  // URLs: theirs); latest_version is unchanged, so the next commit still
  // gets a new number. Clears a candidate of that version. One write.
  // NotFound when the cluster or the version does not exist;
  // InvalidArgument when version <= 0.
  virtual absl::Status Rollback(const std::string& site, const std::string& cluster_id,
                                int64_t version) = 0;

  // Adds `pages` to the site's sample: a page whose URL is in the sample
  // replaces that page, others are appended; SampleState.vectors gets each
  // page's shingle_vector and SampleState.files its file. Returns each page's index in
  // SampleState.urls. One write. NotFound when the site is not registered;
  // InvalidArgument naming the page for an empty URL.
  virtual absl::StatusOr<std::vector<uint32_t>> PutSamplePages(const std::string& site,
                                                               const std::vector<v1::SamplePage>& pages) = 0;

  // The site's sample state (empty when no page was added). NotFound when
  // the site is not registered.
  virtual absl::StatusOr<v1::SampleState> GetSampleState(const std::string& site) const = 0;

  // The sample page of `index`. NotFound when there is none.
  virtual absl::StatusOr<v1::SamplePage> GetSamplePage(const std::string& site, uint32_t index) const = 0;

  // Stores the clustering of the site's sample: `state` (whose urls must be
  // the stored ones: FailedPrecondition otherwise, e.g. when pages were
  // added meanwhile) and `clusters` as PutClusters does, in one write.
  virtual absl::Status PutSampleClustering(const std::string& site, const v1::SampleState& state,
                                           const std::vector<v1::ClusterRecord>& clusters) = 0;

  // Accepts the cluster's candidate version (it becomes current, as with
  // Rollback) or rejects it (it stays stored, never current); either way
  // the cluster has no candidate after. Returns the candidate's version.
  // One write. NotFound when the cluster does not exist;
  // FailedPrecondition when it has no candidate.
  virtual absl::StatusOr<int64_t> ResolveCandidate(const std::string& site, const std::string& cluster_id,
                                                   bool accept) = 0;

  // Replaces the site's whole sample with `pages` (in that order, indices
  // 0, 1, ...): earlier sample pages are removed and the state's clustering
  // is cleared. One write. NotFound when the site is not registered;
  // InvalidArgument naming the page for an empty or repeated URL.
  virtual absl::Status ReplaceSamplePages(const std::string& site, const std::vector<v1::SamplePage>& pages) = 0;

  // What a relearn stores, in one write: `pages` replace the site's sample
  // (as ReplaceSamplePages), `state` and `clusters` become its clustering
  // (as PutSampleClustering: state.urls must be the pages' URLs, in order),
  // then each of `commits` is stored as CommitRule stores it, in order,
  // against the clusters just written. Returns each commit's version, in
  // order. A crash leaves the site either as it was or with all of it:
  // never a fresh sample without its clustering, or a clustering whose
  // rules are missing. Errors as the three methods'; nothing is written
  // when one fails.
  virtual absl::StatusOr<std::vector<int64_t>> ReplaceSampleAndCommit(const std::string& site,
                                                                      const std::vector<v1::SamplePage>& pages,
                                                                      const v1::SampleState& state,
                                                                      const std::vector<v1::ClusterRecord>& clusters,
                                                                      const std::vector<RuleCommit>& commits) = 0;

  // Appends `run` to run.site()'s monitoring history, dropping the oldest
  // runs beyond `keep` (0: keep all). One write. NotFound when the site is
  // not registered.
  virtual absl::Status AppendMonitorRun(const v1::MonitorRun& run, size_t keep = 0) = 0;

  // The site's newest `limit` runs, newest first. NotFound when the site is
  // not registered.
  virtual absl::StatusOr<std::vector<v1::MonitorRun>> MonitorHistory(const std::string& site,
                                                                     size_t limit) const = 0;

  // Replaces the cluster's editor state. NotFound when the cluster does not
  // exist.
  virtual absl::Status PutEditorState(const std::string& site, const std::string& cluster_id,
                                      const v1::EditorState& editor) = 0;

  // Replaces the gazetteer term states of `attribute` of `vertical` (AMBER
  // Alg. 5's U and U-bar with their evidence) by `terms`, in one write:
  // stored terms not in `terms` are removed (an empty map clears them).
  // InvalidArgument naming the field for a vertical that is empty, holds a
  // '/' or NUL or is longer than kMaxIdBytes, an attribute not matching
  // [a-z][a-z0-9_]*, a term that is empty, longer than
  // kMaxGazetteerTermBytes or holds a NUL byte, or evidence that is negative
  // or not finite; nothing is written then.
  virtual absl::Status PutGazetteerTerms(const std::string& vertical, const std::string& attribute,
                                         const GazetteerTerms& terms) = 0;

  // The stored term states of `attribute` of `vertical`; empty when none.
  // InvalidArgument as PutGazetteerTerms for the names; DataLoss naming the
  // key for a stored value that does not decode.
  virtual absl::StatusOr<GazetteerTerms> GetGazetteerTerms(const std::string& vertical,
                                                           const std::string& attribute) const = 0;

  // List-finder models (issue 14; lists/list_finder.h), versioned across
  // the store (not per site): the model is written with the next version
  // (1, 2, ...; its `version` field is set to it) and created_unix_ms is
  // kept as given. Returns the version. InvalidArgument for a model with no
  // node or no feature name.
  virtual absl::StatusOr<int64_t> PutListModel(const v1::ListModel& model) = 0;

  // The list model of `version`, or the latest for kCurrentVersion. NotFound
  // when there is none (or no such version); InvalidArgument for a negative
  // version; DataLoss naming the key for a value that does not parse.
  virtual absl::StatusOr<v1::ListModel> GetListModel(int64_t version) const = 0;

  // The stored list-model versions, ascending; empty when none.
  virtual absl::StatusOr<std::vector<int64_t>> ListListModelVersions() const = 0;

  // The page snapshots stored with `version` (kCurrentVersion: the current
  // one; empty when the cluster has no rule yet), in commit order. NotFound
  // when the cluster or the version does not exist; InvalidArgument for a
  // negative version.
  virtual absl::StatusOr<std::vector<v1::PageSnapshot>> Snapshots(const std::string& site,
                                                                  const std::string& cluster_id,
                                                                  int64_t version) const = 0;
};

// A rule store over `engine`, which it shares. FailedPrecondition when the
// engine holds a store of another format (keys.h, kFormatMarker).
absl::StatusOr<std::unique_ptr<RuleStore>> NewRuleStore(std::shared_ptr<KvEngine> engine);

// Opens (see RocksDbKv::Open for the errors) or creates the RocksDB store in
// `dir`. A reader process uses RocksDbKv::OpenSecondary and NewRuleStore.
absl::StatusOr<std::unique_ptr<RuleStore>> OpenRocksDbStore(const std::string& dir,
                                                            const StoreOptions& options = {});

// The store of the writer over `engine` (RocksDbKv::Open's), marking an
// empty engine with the store's format; FailedPrecondition when it holds a
// store of another format. OpenRocksDbStore is RocksDbKv::Open and this.
absl::StatusOr<std::unique_ptr<RuleStore>> NewWritableRuleStore(std::shared_ptr<KvEngine> engine);

// An empty store in memory (MemoryKv) with the same semantics, for tests of
// other modules. For fault injection, create the MemoryKv yourself and pass
// it to NewRuleStore.
std::unique_ptr<RuleStore> NewInMemoryStore();

}  // namespace vertex::store

#endif  // VERTEX_COMMON_STORE_RULE_STORE_H_
