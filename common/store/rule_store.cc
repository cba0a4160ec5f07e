#include "common/store/rule_store.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "common/store/keys.h"
#include "common/store/memory_kv.h"
#include "common/util/status_macros.h"

namespace vertex::store {
namespace {

// The families holding everything of a site under keys::SitePrefix.
constexpr Family kSiteFamilies[] = {Family::kClusters, Family::kRoutes,      Family::kRules,  Family::kSnapshots,
                                    Family::kGolden,   Family::kSamplePages, Family::kHistory};
// The families holding everything of a cluster under keys::ClusterPrefix.
constexpr Family kVersionFamilies[] = {Family::kRules, Family::kSnapshots, Family::kGolden};

// Debian's absl::string_view is not std::string_view.
absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }

std::string Q(std::string_view s) { return absl::StrCat("\"", absl::CEscape(Av(s)), "\""); }

std::string ClusterName(std::string_view site, std::string_view cluster) {
  return absl::StrCat("cluster ", Q(cluster), " of site ", Q(site));
}

absl::Status Mismatch(Family family, std::string_view key, std::string_view holds) {
  return absl::DataLossError(absl::StrCat("rule store value at ", DescribeKey(family, key),
                                          " does not belong to its key: it holds ", Av(holds)));
}

// ---- Typed reads ----------------------------------------------------------

template <typename M>
absl::StatusOr<M> Parse(Family family, std::string_view key, std::string_view bytes) {
  M message;
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::DataLossError(absl::StrCat("rule store value at ", DescribeKey(family, key),
                                            " is corrupt: not a parsable ", message.GetTypeName(),
                                            " (", bytes.size(), " bytes)"));
  }
  return message;
}

template <typename M>
absl::StatusOr<std::optional<M>> Read(const KvReader& reader, Family family,
                                      const std::string& key) {
  VERTEX_ASSIGN_OR_RETURN(std::optional<std::string> bytes, reader.Get(family, key));
  if (!bytes.has_value()) return std::nullopt;
  VERTEX_ASSIGN_OR_RETURN(M message, Parse<M>(family, key, *bytes));
  return std::optional<M>(std::move(message));
}

// The values under `prefix`, parsed, in key order.
template <typename M>
absl::StatusOr<std::vector<M>> ReadAll(const KvReader& reader, Family family,
                                       std::string_view prefix) {
  std::vector<M> out;
  absl::Status parse_status;
  VERTEX_RETURN_IF_ERROR(reader.Scan(family, prefix, [&](std::string_view k, std::string_view v) {
    absl::StatusOr<M> message = Parse<M>(family, k, v);
    if (!message.ok()) parse_status = message.status();
    if (message.ok()) out.push_back(*std::move(message));
    return message.ok();
  }));
  VERTEX_RETURN_IF_ERROR(parse_status);
  return out;
}

absl::StatusOr<std::vector<std::string>> ReadKeys(const KvReader& reader, Family family,
                                                  std::string_view prefix) {
  std::vector<std::string> keys;
  VERTEX_RETURN_IF_ERROR(reader.Scan(family, prefix, [&](std::string_view k, std::string_view) {
    keys.emplace_back(k);
    return true;
  }));
  return keys;
}

absl::StatusOr<v1::SiteRecord> LoadSite(const KvReader& reader, const std::string& site) {
  const std::string key = keys::Site(site);
  VERTEX_ASSIGN_OR_RETURN(std::optional<v1::SiteRecord> record,
                          Read<v1::SiteRecord>(reader, Family::kSites, key));
  if (!record.has_value()) return absl::NotFoundError(absl::StrCat("site ", Q(site), " not found"));
  if (record->site() != site) {
    return Mismatch(Family::kSites, key, absl::StrCat("site ", Q(record->site())));
  }
  return *std::move(record);
}

bool Belongs(const v1::ClusterRecord& record, std::string_view site, std::string_view cluster) {
  return record.site() == site && record.cluster_id() == cluster;
}

absl::StatusOr<v1::ClusterRecord> LoadCluster(const KvReader& reader, const std::string& site,
                                              const std::string& cluster) {
  const std::string key = keys::Cluster(site, cluster);
  VERTEX_ASSIGN_OR_RETURN(std::optional<v1::ClusterRecord> record,
                          Read<v1::ClusterRecord>(reader, Family::kClusters, key));
  if (!record.has_value()) {
    VERTEX_RETURN_IF_ERROR(LoadSite(reader, site).status());
    return absl::NotFoundError(absl::StrCat(ClusterName(site, cluster), " not found"));
  }
  if (!Belongs(*record, site, cluster)) {
    return Mismatch(Family::kClusters, key, ClusterName(record->site(), record->cluster_id()));
  }
  return *std::move(record);
}

absl::StatusOr<v1::Rule> LoadRule(const KvReader& reader, const std::string& site,
                                  const std::string& cluster, int64_t version) {
  const std::string key = keys::Rule(site, cluster, version);
  VERTEX_ASSIGN_OR_RETURN(std::optional<v1::Rule> rule,
                          Read<v1::Rule>(reader, Family::kRules, key));
  if (!rule.has_value()) {
    return absl::NotFoundError(
        absl::StrCat("rule version ", version, " of ", ClusterName(site, cluster), " not found"));
  }
  if (rule->site() != site || rule->cluster_id() != cluster || rule->version() != version) {
    return Mismatch(Family::kRules, key,
                    absl::StrCat("version ", rule->version(), " of ",
                                 ClusterName(rule->site(), rule->cluster_id())));
  }
  return *std::move(rule);
}

// The site's records in `family` (kClusters or kRoutes), by decreasing
// importance, ties by id.
absl::StatusOr<std::vector<v1::ClusterRecord>> LoadClusters(const KvReader& reader, Family family,
                                                            const std::string& site) {
  VERTEX_RETURN_IF_ERROR(LoadSite(reader, site).status());
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> records,
                          ReadAll<v1::ClusterRecord>(reader, family, keys::SitePrefix(site)));
  for (const v1::ClusterRecord& r : records) {
    if (r.site() != site) {
      return Mismatch(family, keys::Cluster(site, r.cluster_id()),
                      ClusterName(r.site(), r.cluster_id()));
    }
  }
  std::sort(records.begin(), records.end(), [](const auto& a, const auto& b) {
    if (a.importance() != b.importance()) return a.importance() > b.importance();
    return a.cluster_id() < b.cluster_id();
  });
  return records;
}

// ---- Batch building ---------------------------------------------------------

absl::Status PutMessage(KvBatch* batch, Family family, std::string key,
                        const google::protobuf::MessageLite& message) {
  std::string bytes;
  if (!message.SerializeToString(&bytes)) {
    return absl::InvalidArgumentError(absl::StrCat("cannot serialize the ", message.GetTypeName(),
                                                   " for ", DescribeKey(family, key),
                                                   " (larger than 2 GB?)"));
  }
  batch->Put(family, std::move(key), std::move(bytes));
  return absl::OkStatus();
}

absl::Status DeleteUnder(const KvReader& reader, Family family, std::string_view prefix,
                         KvBatch* batch) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> keys, ReadKeys(reader, family, prefix));
  for (std::string& key : keys) batch->Delete(family, std::move(key));
  return absl::OkStatus();
}

// Writes `now` (clusters and routes) and moves its signature index entry
// from `before`'s signature when that differs.
absl::Status WriteCluster(const v1::ClusterRecord* before, const v1::ClusterRecord& now,
                          KvBatch* batch) {
  const std::string key = keys::Cluster(now.site(), now.cluster_id());
  if (before != nullptr && !before->signature().empty() && before->signature() != now.signature()) {
    batch->Delete(Family::kBySignature,
                  keys::Signature(before->signature(), now.site(), now.cluster_id()));
  }
  if (!now.signature().empty()) {
    batch->Put(Family::kBySignature, keys::Signature(now.signature(), now.site(), now.cluster_id()),
               "");
  }
  VERTEX_RETURN_IF_ERROR(PutMessage(batch, Family::kRoutes, key, RouteOf(now)));
  return PutMessage(batch, Family::kClusters, key, now);
}

// Deletes the signature index entries named by the cluster's record and
// route. Unreadable records are skipped: the entry then stays behind, and
// ClustersBySignature ignores entries whose cluster is gone.
absl::Status DeleteSignatureEntries(const KvReader& reader, const std::string& site,
                                    const std::string& cluster, KvBatch* batch) {
  for (Family family : {Family::kClusters, Family::kRoutes}) {
    VERTEX_ASSIGN_OR_RETURN(std::optional<std::string> bytes,
                            reader.Get(family, keys::Cluster(site, cluster)));
    v1::ClusterRecord record;
    if (!bytes.has_value() || !record.ParseFromString(*bytes) || record.signature().empty()) {
      continue;
    }
    batch->Delete(Family::kBySignature, keys::Signature(record.signature(), site, cluster));
  }
  return absl::OkStatus();
}

// Deletes one cluster with its rules, snapshots, golden extractions and
// index entries.
absl::Status DeleteCluster(const KvReader& reader, const std::string& site,
                           const std::string& cluster, KvBatch* batch) {
  VERTEX_RETURN_IF_ERROR(DeleteSignatureEntries(reader, site, cluster, batch));
  batch->Delete(Family::kClusters, keys::Cluster(site, cluster));
  batch->Delete(Family::kRoutes, keys::Cluster(site, cluster));
  for (Family family : kVersionFamilies) {
    VERTEX_RETURN_IF_ERROR(DeleteUnder(reader, family, keys::ClusterPrefix(site, cluster), batch));
  }
  return absl::OkStatus();
}

// The state `base` would have after `batch`: how one write of several
// mutations lets each later one read what the earlier ones wrote.
class BatchOverlay final : public KvReader {
 public:
  BatchOverlay(const KvReader& base, const KvBatch& batch) : base_(base), batch_(batch) {}

  absl::StatusOr<std::optional<std::string>> Get(Family family, std::string_view key) const override {
    const std::vector<KvBatch::Op>& ops = batch_.ops();
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      if (it->family == family && it->key == key) return it->value;
    }
    return base_.Get(family, key);
  }

  absl::Status Scan(Family family, std::string_view prefix, const KvVisitor& visit) const override {
    std::map<std::string, std::optional<std::string>> merged;
    VERTEX_RETURN_IF_ERROR(base_.Scan(family, prefix, [&](std::string_view k, std::string_view v) {
      merged.emplace(std::string(k), std::string(v));
      return true;
    }));
    for (const KvBatch::Op& op : batch_.ops()) {
      if (op.family == family && std::string_view(op.key).substr(0, prefix.size()) == prefix) {
        merged[op.key] = op.value;
      }
    }
    for (const auto& [key, value] : merged) {
      if (value.has_value() && !visit(key, *value)) break;
    }
    return absl::OkStatus();
  }

 private:
  const KvReader& base_;
  const KvBatch& batch_;
};

// ---- Validation -------------------------------------------------------------

absl::Status ValidateCluster(const std::string& site, const v1::ClusterRecord& cluster) {
  VERTEX_RETURN_IF_ERROR(ValidateId("cluster_id", cluster.cluster_id()));
  if (!cluster.site().empty() && cluster.site() != site) {
    return absl::InvalidArgumentError(absl::StrCat(
        "site of ", ClusterName(site, cluster.cluster_id()), " is ", Q(cluster.site())));
  }
  if (!cluster.signature().empty()) {
    VERTEX_RETURN_IF_ERROR(ValidateId("signature", cluster.signature()));
  }
  return absl::OkStatus();
}

absl::Status ValidateClusters(const std::string& site,
                              const std::vector<v1::ClusterRecord>& clusters) {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  std::set<std::string> ids;
  for (const v1::ClusterRecord& c : clusters) {
    VERTEX_RETURN_IF_ERROR(ValidateCluster(site, c));
    if (!ids.insert(c.cluster_id()).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("cluster_id ", Q(c.cluster_id()), " is given twice for site ", Q(site)));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateIds(const std::string& site, const std::string& cluster) {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  return ValidateId("cluster_id", cluster);
}

absl::Status ValidateVersion(int64_t version) {
  if (version >= 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("version ", version, " is negative"));
}

// The record a stored cluster becomes when PutClusters gives `given`.
v1::ClusterRecord Merge(const std::string& site, const v1::ClusterRecord& given,
                        const v1::ClusterRecord* stored) {
  v1::ClusterRecord merged = given;
  merged.set_site(site);
  merged.clear_current_version();
  merged.clear_latest_version();
  merged.clear_golden();
  merged.clear_candidate_version();
  if (stored == nullptr) return merged;
  merged.set_current_version(stored->current_version());
  merged.set_latest_version(stored->latest_version());
  merged.set_candidate_version(stored->candidate_version());
  *merged.mutable_golden() = stored->golden();
  if (given.bellwether_urls().empty())
    *merged.mutable_bellwether_urls() = stored->bellwether_urls();
  return merged;
}

// ---- The store --------------------------------------------------------------

class KvRuleStore final : public RuleStore {
 public:
  explicit KvRuleStore(std::shared_ptr<KvEngine> engine) : engine_(std::move(engine)) {}

  absl::Status PutSite(const v1::SiteRecord& site) override;
  absl::StatusOr<v1::SiteRecord> GetSite(const std::string& site) const override;
  absl::StatusOr<std::vector<std::string>> ListSites() const override;
  absl::Status DeleteSite(const std::string& site) override;
  absl::Status PutClusters(const std::string& site,
                           const std::vector<v1::ClusterRecord>& clusters) override;
  absl::StatusOr<v1::ClusterRecord> GetCluster(const std::string& site,
                                               const std::string& cluster_id) const override;
  absl::StatusOr<std::vector<v1::ClusterRecord>> ClustersOfSite(
      const std::string& site) const override;
  absl::StatusOr<std::vector<v1::ClusterRecord>> RoutesOfSite(
      const std::string& site) const override;
  absl::StatusOr<std::vector<v1::ClusterRecord>> ClustersBySignature(
      const std::string& signature) const override;
  absl::StatusOr<int64_t> CommitRule(const RuleCommit& commit) override;
  absl::StatusOr<v1::Rule> GetRule(const std::string& site, const std::string& cluster_id,
                                   int64_t version) const override;
  absl::StatusOr<std::vector<int64_t>> ListRuleVersions(
      const std::string& site, const std::string& cluster_id) const override;
  absl::Status Rollback(const std::string& site, const std::string& cluster_id,
                        int64_t version) override;
  absl::StatusOr<std::vector<v1::PageSnapshot>> Snapshots(const std::string& site,
                                                          const std::string& cluster_id,
                                                          int64_t version) const override;
  absl::StatusOr<std::vector<uint32_t>> PutSamplePages(const std::string& site,
                                                       const std::vector<v1::SamplePage>& pages) override;
  absl::StatusOr<v1::SampleState> GetSampleState(const std::string& site) const override;
  absl::StatusOr<v1::SamplePage> GetSamplePage(const std::string& site, uint32_t index) const override;
  absl::Status PutSampleClustering(const std::string& site, const v1::SampleState& state,
                                   const std::vector<v1::ClusterRecord>& clusters) override;
  absl::Status PutEditorState(const std::string& site, const std::string& cluster_id,
                              const v1::EditorState& editor) override;
  absl::StatusOr<int64_t> ResolveCandidate(const std::string& site, const std::string& cluster_id,
                                           bool accept) override;
  absl::Status ReplaceSamplePages(const std::string& site, const std::vector<v1::SamplePage>& pages) override;
  absl::StatusOr<std::vector<int64_t>> ReplaceSampleAndCommit(const std::string& site,
                                                              const std::vector<v1::SamplePage>& pages,
                                                              const v1::SampleState& state,
                                                              const std::vector<v1::ClusterRecord>& clusters,
                                                              const std::vector<RuleCommit>& commits) override;
  absl::Status AppendMonitorRun(const v1::MonitorRun& run, size_t keep) override;
  absl::StatusOr<std::vector<v1::MonitorRun>> MonitorHistory(const std::string& site, size_t limit) const override;
  absl::Status PutGazetteerTerms(const std::string& vertical, const std::string& attribute,
                                 const GazetteerTerms& terms) override;
  absl::StatusOr<GazetteerTerms> GetGazetteerTerms(const std::string& vertical,
                                                   const std::string& attribute) const override;
  absl::StatusOr<int64_t> PutListModel(const v1::ListModel& model) override;
  absl::StatusOr<v1::ListModel> GetListModel(int64_t version) const override;
  absl::StatusOr<std::vector<int64_t>> ListListModelVersions() const override;

 private:
  // The batch making the stored `version` current with its golden
  // extractions (Rollback, ResolveCandidate).
  absl::Status BuildMakeCurrent(const KvReader& reader, const v1::ClusterRecord& cluster, int64_t version,
                                KvBatch* batch) const;

  absl::StatusOr<KvBatch> BuildCommit(const KvReader& reader, const RuleCommit& commit,
                                      int64_t* version) const;
  absl::Status BuildPutClusters(const KvReader& reader, const std::string& site,
                                const std::vector<v1::ClusterRecord>& clusters, KvBatch* batch) const;
  absl::Status BuildReplaceSample(const KvReader& reader, const std::string& site,
                                  const std::vector<v1::SamplePage>& pages, KvBatch* batch) const;
  absl::Status BuildSampleClustering(const KvReader& reader, const std::string& site, const v1::SampleState& state,
                                     const std::vector<v1::ClusterRecord>& clusters, KvBatch* batch) const;

  std::shared_ptr<KvEngine> engine_;
  // Serializes mutations: each reads the state, then writes one batch.
  absl::Mutex write_mu_;
};

absl::Status KvRuleStore::PutSite(const v1::SiteRecord& site) {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site.site()));
  absl::MutexLock lock(&write_mu_);
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  v1::SiteRecord record = site;
  record.clear_cluster_ids();
  absl::StatusOr<v1::SiteRecord> stored = LoadSite(*reader, site.site());
  if (stored.ok()) {
    *record.mutable_cluster_ids() = stored->cluster_ids();
  } else if (!absl::IsNotFound(stored.status())) {
    return stored.status();
  }
  KvBatch batch;
  VERTEX_RETURN_IF_ERROR(PutMessage(&batch, Family::kSites, keys::Site(site.site()), record));
  return engine_->Write(batch);
}

absl::StatusOr<v1::SiteRecord> KvRuleStore::GetSite(const std::string& site) const {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  return LoadSite(*engine_->NewReader(), site);
}

absl::StatusOr<std::vector<std::string>> KvRuleStore::ListSites() const {
  return ReadKeys(*engine_->NewReader(), Family::kSites, "");
}

absl::Status KvRuleStore::DeleteSite(const std::string& site) {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  absl::MutexLock lock(&write_mu_);
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_RETURN_IF_ERROR(LoadSite(*reader, site).status());
  KvBatch batch;
  batch.Delete(Family::kSites, keys::Site(site));
  batch.Delete(Family::kSampleState, keys::Site(site));
  const std::string prefix = keys::SitePrefix(site);
  std::set<std::string> cluster_ids;
  for (Family family : {Family::kClusters, Family::kRoutes}) {
    VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> cluster_keys,
                            ReadKeys(*reader, family, prefix));
    for (const std::string& key : cluster_keys) cluster_ids.insert(key.substr(prefix.size()));
  }
  for (const std::string& id : cluster_ids) {
    VERTEX_RETURN_IF_ERROR(DeleteSignatureEntries(*reader, site, id, &batch));
  }
  for (Family family : kSiteFamilies) {
    VERTEX_RETURN_IF_ERROR(DeleteUnder(*reader, family, prefix, &batch));
  }
  return engine_->Write(batch);
}

absl::Status KvRuleStore::PutClusters(const std::string& site,
                                      const std::vector<v1::ClusterRecord>& clusters) {
  VERTEX_RETURN_IF_ERROR(ValidateClusters(site, clusters));
  absl::MutexLock lock(&write_mu_);
  KvBatch batch;
  VERTEX_RETURN_IF_ERROR(BuildPutClusters(*engine_->NewReader(), site, clusters, &batch));
  return engine_->Write(batch);
}

absl::Status KvRuleStore::BuildPutClusters(const KvReader& reader, const std::string& site,
                                           const std::vector<v1::ClusterRecord>& clusters, KvBatch* out) const {
  const KvReader* const r = &reader;
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site_record, LoadSite(*r, site));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> old_list, LoadClusters(*r, Family::kClusters, site));
  std::map<std::string, v1::ClusterRecord> old;
  for (v1::ClusterRecord& r : old_list) old[r.cluster_id()] = std::move(r);

  std::vector<v1::ClusterRecord> merged;
  KvBatch& batch = *out;
  for (const v1::ClusterRecord& given : clusters) {
    const auto it = old.find(given.cluster_id());
    const v1::ClusterRecord* stored = it == old.end() ? nullptr : &it->second;
    merged.push_back(Merge(site, given, stored));
    VERTEX_RETURN_IF_ERROR(WriteCluster(stored, merged.back(), &batch));
    if (stored != nullptr) old.erase(it);
  }
  for (const auto& removed : old) {
    VERTEX_RETURN_IF_ERROR(DeleteCluster(*r, site, removed.first, &batch));
  }
  std::sort(merged.begin(), merged.end(), [](const auto& a, const auto& b) {
    if (a.importance() != b.importance()) return a.importance() > b.importance();
    return a.cluster_id() < b.cluster_id();
  });
  site_record.clear_cluster_ids();
  for (const v1::ClusterRecord& c : merged) site_record.add_cluster_ids(c.cluster_id());
  return PutMessage(&batch, Family::kSites, keys::Site(site), site_record);
}

absl::StatusOr<v1::ClusterRecord> KvRuleStore::GetCluster(const std::string& site,
                                                          const std::string& cluster_id) const {
  VERTEX_RETURN_IF_ERROR(ValidateIds(site, cluster_id));
  return LoadCluster(*engine_->NewReader(), site, cluster_id);
}

absl::StatusOr<std::vector<v1::ClusterRecord>> KvRuleStore::ClustersOfSite(
    const std::string& site) const {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  return LoadClusters(*engine_->NewReader(), Family::kClusters, site);
}

absl::StatusOr<std::vector<v1::ClusterRecord>> KvRuleStore::RoutesOfSite(
    const std::string& site) const {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  return LoadClusters(*engine_->NewReader(), Family::kRoutes, site);
}

absl::StatusOr<std::vector<v1::ClusterRecord>> KvRuleStore::ClustersBySignature(
    const std::string& signature) const {
  VERTEX_RETURN_IF_ERROR(ValidateId("signature", signature));
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_ASSIGN_OR_RETURN(
      std::vector<std::string> entries,
      ReadKeys(*reader, Family::kBySignature, keys::SignaturePrefix(signature)));
  std::vector<v1::ClusterRecord> clusters;
  for (const std::string& entry : entries) {
    const std::optional<keys::SignatureEntry> parts = keys::ParseSignature(entry);
    if (!parts.has_value()) return Mismatch(Family::kBySignature, entry, "a malformed key");
    const std::string key = keys::Cluster(parts->site, parts->cluster);
    VERTEX_ASSIGN_OR_RETURN(std::optional<v1::ClusterRecord> record,
                            Read<v1::ClusterRecord>(*reader, Family::kClusters, key));
    if (!record.has_value()) continue;  // left behind by a deletion; see DeleteSignatureEntries
    if (!Belongs(*record, parts->site, parts->cluster) || record->signature() != signature) {
      return Mismatch(
          Family::kBySignature, entry,
          absl::StrCat("an entry for a cluster whose signature is ", Q(record->signature())));
    }
    clusters.push_back(*std::move(record));
  }
  return clusters;
}

absl::StatusOr<KvBatch> KvRuleStore::BuildCommit(const KvReader& reader, const RuleCommit& commit,
                                                 int64_t* version) const {
  const std::string& site = commit.rule.site();
  const std::string& id = commit.rule.cluster_id();
  VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord cluster, LoadCluster(reader, site, id));
  *version = cluster.latest_version() + 1;
  v1::Rule rule = commit.rule;
  rule.set_version(*version);
  if (rule.signature().empty()) rule.set_signature(cluster.signature());
  if (rule.url_regex().empty()) rule.set_url_regex(cluster.url_regex());
  if (rule.importance() == 0) rule.set_importance(cluster.importance());
  KvBatch batch;
  VERTEX_RETURN_IF_ERROR(PutMessage(&batch, Family::kRules, keys::Rule(site, id, *version), rule));
  for (size_t i = 0; i < commit.snapshots.size(); ++i) {
    VERTEX_RETURN_IF_ERROR(PutMessage(&batch, Family::kSnapshots,
                                      keys::Page(site, id, *version, static_cast<uint32_t>(i)),
                                      commit.snapshots[i]));
  }
  for (size_t i = 0; i < commit.golden.size(); ++i) {
    VERTEX_RETURN_IF_ERROR(PutMessage(&batch, Family::kGolden,
                                      keys::Page(site, id, *version, static_cast<uint32_t>(i)),
                                      commit.golden[i]));
  }
  v1::ClusterRecord updated = cluster;
  updated.set_latest_version(*version);
  if (commit.editor.has_value()) *updated.mutable_editor() = *commit.editor;
  if (commit.candidate) {
    updated.set_candidate_version(*version);
  } else {
    updated.set_current_version(*version);
    updated.clear_candidate_version();
    updated.mutable_golden()->Assign(commit.golden.begin(), commit.golden.end());
  }
  if (commit.bellwether_urls.has_value() && !commit.candidate) {
    updated.mutable_bellwether_urls()->Assign(commit.bellwether_urls->begin(),
                                              commit.bellwether_urls->end());
  }
  VERTEX_RETURN_IF_ERROR(WriteCluster(&cluster, updated, &batch));
  return batch;
}

absl::StatusOr<int64_t> KvRuleStore::CommitRule(const RuleCommit& commit) {
  VERTEX_RETURN_IF_ERROR(ValidateId("rule.site", commit.rule.site()));
  VERTEX_RETURN_IF_ERROR(ValidateId("rule.cluster_id", commit.rule.cluster_id()));
  absl::MutexLock lock(&write_mu_);
  int64_t version = 0;
  VERTEX_ASSIGN_OR_RETURN(KvBatch batch, BuildCommit(*engine_->NewReader(), commit, &version));
  VERTEX_RETURN_IF_ERROR(engine_->Write(batch));
  return version;
}

absl::StatusOr<v1::Rule> KvRuleStore::GetRule(const std::string& site,
                                              const std::string& cluster_id,
                                              int64_t version) const {
  VERTEX_RETURN_IF_ERROR(ValidateIds(site, cluster_id));
  VERTEX_RETURN_IF_ERROR(ValidateVersion(version));
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  if (version == kCurrentVersion) {
    VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord cluster, LoadCluster(*reader, site, cluster_id));
    if (cluster.current_version() == 0) {
      return absl::NotFoundError(absl::StrCat(ClusterName(site, cluster_id), " has no rule yet"));
    }
    version = cluster.current_version();
  }
  return LoadRule(*reader, site, cluster_id, version);
}

absl::StatusOr<std::vector<int64_t>> KvRuleStore::ListRuleVersions(
    const std::string& site, const std::string& cluster_id) const {
  VERTEX_RETURN_IF_ERROR(ValidateIds(site, cluster_id));
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_RETURN_IF_ERROR(LoadCluster(*reader, site, cluster_id).status());
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> rule_keys,
                          ReadKeys(*reader, Family::kRules, keys::ClusterPrefix(site, cluster_id)));
  std::vector<int64_t> versions;
  for (const std::string& key : rule_keys) {
    const std::optional<int64_t> version = keys::ParseRuleVersion(key);
    if (!version.has_value()) return Mismatch(Family::kRules, key, "a malformed key");
    versions.push_back(*version);
  }
  return versions;
}

absl::Status KvRuleStore::Rollback(const std::string& site, const std::string& cluster_id,
                                   int64_t version) {
  VERTEX_RETURN_IF_ERROR(ValidateIds(site, cluster_id));
  if (version <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot roll back to version ", version, ": versions start at 1"));
  }
  absl::MutexLock lock(&write_mu_);
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord cluster, LoadCluster(*reader, site, cluster_id));
  KvBatch batch;
  VERTEX_RETURN_IF_ERROR(BuildMakeCurrent(*reader, cluster, version, &batch));
  return engine_->Write(batch);
}

absl::Status KvRuleStore::BuildMakeCurrent(const KvReader& reader, const v1::ClusterRecord& cluster,
                                           int64_t version, KvBatch* batch) const {
  const std::string& site = cluster.site();
  const std::string& cluster_id = cluster.cluster_id();
  VERTEX_RETURN_IF_ERROR(LoadRule(reader, site, cluster_id, version).status());
  VERTEX_ASSIGN_OR_RETURN(
      std::vector<v1::GoldenExtraction> golden,
      ReadAll<v1::GoldenExtraction>(reader, Family::kGolden, keys::VersionPrefix(site, cluster_id, version)));
  v1::ClusterRecord updated = cluster;
  updated.set_current_version(version);
  updated.mutable_golden()->Assign(golden.begin(), golden.end());
  if (!golden.empty()) {
    updated.clear_bellwether_urls();
    for (const v1::GoldenExtraction& g : golden) updated.add_bellwether_urls(g.url());
  }
  if (updated.candidate_version() == version) updated.clear_candidate_version();
  return WriteCluster(&cluster, updated, batch);
}

absl::StatusOr<int64_t> KvRuleStore::ResolveCandidate(const std::string& site, const std::string& cluster_id,
                                                      bool accept) {
  VERTEX_RETURN_IF_ERROR(ValidateIds(site, cluster_id));
  absl::MutexLock lock(&write_mu_);
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord cluster, LoadCluster(*reader, site, cluster_id));
  const int64_t version = cluster.candidate_version();
  if (version == 0) {
    return absl::FailedPreconditionError(absl::StrCat(ClusterName(site, cluster_id), " has no candidate rule"));
  }
  KvBatch batch;
  if (accept) {
    VERTEX_RETURN_IF_ERROR(BuildMakeCurrent(*reader, cluster, version, &batch));
  } else {
    v1::ClusterRecord updated = cluster;
    updated.clear_candidate_version();
    VERTEX_RETURN_IF_ERROR(WriteCluster(&cluster, updated, &batch));
  }
  VERTEX_RETURN_IF_ERROR(engine_->Write(batch));
  return version;
}

absl::Status ValidateSamplePages(const std::string& site, const std::vector<v1::SamplePage>& pages) {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  std::set<std::string> seen;
  for (size_t i = 0; i < pages.size(); ++i) {
    if (pages[i].url().empty()) return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].url is empty"));
    if (!seen.insert(pages[i].url()).second) {
      return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].url repeats ", Q(pages[i].url())));
    }
  }
  return absl::OkStatus();
}

absl::Status KvRuleStore::ReplaceSamplePages(const std::string& site, const std::vector<v1::SamplePage>& pages) {
  VERTEX_RETURN_IF_ERROR(ValidateSamplePages(site, pages));
  absl::MutexLock lock(&write_mu_);
  KvBatch batch;
  VERTEX_RETURN_IF_ERROR(BuildReplaceSample(*engine_->NewReader(), site, pages, &batch));
  return engine_->Write(batch);
}

absl::Status KvRuleStore::BuildReplaceSample(const KvReader& reader, const std::string& site,
                                             const std::vector<v1::SamplePage>& pages, KvBatch* batch) const {
  VERTEX_RETURN_IF_ERROR(LoadSite(reader, site).status());
  VERTEX_RETURN_IF_ERROR(DeleteUnder(reader, Family::kSamplePages, keys::SitePrefix(site), batch));
  v1::SampleState state;
  for (size_t i = 0; i < pages.size(); ++i) {
    state.add_urls(pages[i].url());
    state.add_vectors(pages[i].shingle_vector());
    state.add_files(pages[i].file());
    VERTEX_RETURN_IF_ERROR(
        PutMessage(batch, Family::kSamplePages, keys::SamplePage(site, static_cast<uint32_t>(i)), pages[i]));
  }
  return PutMessage(batch, Family::kSampleState, keys::Site(site), state);
}

absl::StatusOr<std::vector<int64_t>> KvRuleStore::ReplaceSampleAndCommit(
    const std::string& site, const std::vector<v1::SamplePage>& pages, const v1::SampleState& state,
    const std::vector<v1::ClusterRecord>& clusters, const std::vector<RuleCommit>& commits) {
  VERTEX_RETURN_IF_ERROR(ValidateSamplePages(site, pages));
  VERTEX_RETURN_IF_ERROR(ValidateClusters(site, clusters));
  for (size_t i = 0; i < commits.size(); ++i) {
    if (commits[i].rule.site() != site) {
      return absl::InvalidArgumentError(absl::StrCat("commits[", i, "].rule.site is ", Q(commits[i].rule.site()),
                                                     ", not ", Q(site)));
    }
    VERTEX_RETURN_IF_ERROR(ValidateId("rule.cluster_id", commits[i].rule.cluster_id()));
  }
  absl::MutexLock lock(&write_mu_);
  const std::unique_ptr<KvReader> base = engine_->NewReader();
  // Each step reads the store as the steps before it left it.
  KvBatch batch;
  const BatchOverlay reader(*base, batch);
  VERTEX_RETURN_IF_ERROR(BuildReplaceSample(reader, site, pages, &batch));
  VERTEX_RETURN_IF_ERROR(BuildSampleClustering(reader, site, state, clusters, &batch));
  std::vector<int64_t> versions;
  for (const RuleCommit& commit : commits) {
    int64_t version = 0;
    VERTEX_ASSIGN_OR_RETURN(KvBatch one, BuildCommit(reader, commit, &version));
    batch.Append(std::move(one));
    versions.push_back(version);
  }
  VERTEX_RETURN_IF_ERROR(engine_->Write(batch));
  return versions;
}

absl::Status KvRuleStore::PutGazetteerTerms(const std::string& vertical, const std::string& attribute,
                                            const GazetteerTerms& terms) {
  absl::MutexLock lock(&write_mu_);
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  KvBatch batch;
  VERTEX_RETURN_IF_ERROR(BuildPutGazetteerTerms(*reader, vertical, attribute, terms, &batch));
  if (batch.empty()) return absl::OkStatus();
  return engine_->Write(batch);
}

absl::StatusOr<GazetteerTerms> KvRuleStore::GetGazetteerTerms(const std::string& vertical,
                                                              const std::string& attribute) const {
  return ReadGazetteerTerms(*engine_->NewReader(), vertical, attribute);
}

// List models sit in the default family under "model/list/" and the
// version in 20 decimal digits, so key order is version order.
constexpr std::string_view kListModelRoot = "model/list/";

std::string ListModelKey(int64_t version) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%020lld", static_cast<long long>(version));
  return absl::StrCat(Av(kListModelRoot), digits);
}

absl::StatusOr<std::vector<int64_t>> ReadListModelVersions(const KvReader& reader) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> keys, ReadKeys(reader, Family::kMeta, kListModelRoot));
  std::vector<int64_t> versions;
  for (const std::string& key : keys) {
    const std::string_view digits = std::string_view(key).substr(kListModelRoot.size());
    int64_t version = 0;
    bool ok = digits.size() == 20;
    for (char c : digits) {
      if (c < '0' || c > '9') ok = false;
      if (ok) version = version * 10 + (c - '0');
    }
    if (!ok || version <= 0) {
      return absl::DataLossError(absl::StrCat("rule store key ", DescribeKey(Family::kMeta, key),
                                              " is not a list-model version"));
    }
    versions.push_back(version);
  }
  return versions;
}

absl::StatusOr<int64_t> KvRuleStore::PutListModel(const v1::ListModel& model) {
  if (model.nodes_size() == 0 || model.feature_names_size() == 0) {
    return absl::InvalidArgumentError(absl::StrCat("list model has ", model.nodes_size(), " nodes and ",
                                                   model.feature_names_size(),
                                                   " feature names: a trained model has both"));
  }
  absl::MutexLock lock(&write_mu_);
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_ASSIGN_OR_RETURN(std::vector<int64_t> versions, ReadListModelVersions(*reader));
  const int64_t version = versions.empty() ? 1 : versions.back() + 1;
  v1::ListModel record = model;
  record.set_version(version);
  KvBatch batch;
  VERTEX_RETURN_IF_ERROR(PutMessage(&batch, Family::kMeta, ListModelKey(version), record));
  VERTEX_RETURN_IF_ERROR(engine_->Write(batch));
  return version;
}

absl::StatusOr<v1::ListModel> KvRuleStore::GetListModel(int64_t version) const {
  if (version < 0) {
    return absl::InvalidArgumentError(absl::StrCat("list model version ", version, " is negative"));
  }
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  if (version == kCurrentVersion) {
    VERTEX_ASSIGN_OR_RETURN(std::vector<int64_t> versions, ReadListModelVersions(*reader));
    if (versions.empty()) {
      return absl::NotFoundError("the store holds no list model (vertexctl list-model train makes one)");
    }
    version = versions.back();
  }
  const std::string key = ListModelKey(version);
  VERTEX_ASSIGN_OR_RETURN(std::optional<v1::ListModel> model, Read<v1::ListModel>(*reader, Family::kMeta, key));
  if (!model.has_value()) return absl::NotFoundError(absl::StrCat("no list model of version ", version));
  if (model->version() != version) {
    return Mismatch(Family::kMeta, key, absl::StrCat("list model version ", model->version()));
  }
  return *std::move(model);
}

absl::StatusOr<std::vector<int64_t>> KvRuleStore::ListListModelVersions() const {
  return ReadListModelVersions(*engine_->NewReader());
}

absl::Status KvRuleStore::AppendMonitorRun(const v1::MonitorRun& run, size_t keep) {
  VERTEX_RETURN_IF_ERROR(ValidateId("run.site", run.site()));
  absl::MutexLock lock(&write_mu_);
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_RETURN_IF_ERROR(LoadSite(*reader, run.site()).status());
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> runs,
                          ReadKeys(*reader, Family::kHistory, keys::SitePrefix(run.site())));
  // Runs of the same millisecond get increasing sequence numbers.
  uint32_t sequence = 0;
  const std::string first = keys::HistoryRun(run.site(), run.started_unix_ms(), 0);
  for (const std::string& key : runs) {
    if (key.size() == first.size() && key.compare(0, first.size() - 4, first, 0, first.size() - 4) == 0) ++sequence;
  }
  KvBatch batch;
  VERTEX_RETURN_IF_ERROR(
      PutMessage(&batch, Family::kHistory, keys::HistoryRun(run.site(), run.started_unix_ms(), sequence), run));
  if (keep > 0 && runs.size() + 1 > keep) {
    for (size_t i = 0; i < runs.size() + 1 - keep && i < runs.size(); ++i) batch.Delete(Family::kHistory, runs[i]);
  }
  return engine_->Write(batch);
}

absl::StatusOr<std::vector<v1::MonitorRun>> KvRuleStore::MonitorHistory(const std::string& site,
                                                                        size_t limit) const {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_RETURN_IF_ERROR(LoadSite(*reader, site).status());
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::MonitorRun> runs,
                          ReadAll<v1::MonitorRun>(*reader, Family::kHistory, keys::SitePrefix(site)));
  std::reverse(runs.begin(), runs.end());
  if (runs.size() > limit) runs.resize(limit);
  return runs;
}

absl::StatusOr<std::vector<v1::PageSnapshot>> KvRuleStore::Snapshots(const std::string& site,
                                                                     const std::string& cluster_id,
                                                                     int64_t version) const {
  VERTEX_RETURN_IF_ERROR(ValidateIds(site, cluster_id));
  VERTEX_RETURN_IF_ERROR(ValidateVersion(version));
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord cluster, LoadCluster(*reader, site, cluster_id));
  if (version == kCurrentVersion) {
    if (cluster.current_version() == 0) return std::vector<v1::PageSnapshot>();
    version = cluster.current_version();
  }
  VERTEX_ASSIGN_OR_RETURN(std::optional<std::string> rule,
                          reader->Get(Family::kRules, keys::Rule(site, cluster_id, version)));
  if (!rule.has_value()) {
    return absl::NotFoundError(absl::StrCat("rule version ", version, " of ",
                                            ClusterName(site, cluster_id), " not found"));
  }
  return ReadAll<v1::PageSnapshot>(*reader, Family::kSnapshots,
                                   keys::VersionPrefix(site, cluster_id, version));
}

absl::StatusOr<v1::SampleState> LoadSampleState(const KvReader& reader, const std::string& site) {
  VERTEX_RETURN_IF_ERROR(LoadSite(reader, site).status());
  VERTEX_ASSIGN_OR_RETURN(std::optional<v1::SampleState> state,
                          Read<v1::SampleState>(reader, Family::kSampleState, keys::Site(site)));
  return state.has_value() ? *std::move(state) : v1::SampleState();
}

absl::StatusOr<std::vector<uint32_t>> KvRuleStore::PutSamplePages(const std::string& site,
                                                                  const std::vector<v1::SamplePage>& pages) {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  for (size_t i = 0; i < pages.size(); ++i) {
    if (pages[i].url().empty()) return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].url is empty"));
  }
  absl::MutexLock lock(&write_mu_);
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, LoadSampleState(*reader, site));
  std::map<std::string, uint32_t> index_of;
  for (int i = 0; i < state.urls_size(); ++i) index_of.emplace(state.urls(i), static_cast<uint32_t>(i));
  std::vector<uint32_t> indices;
  KvBatch batch;
  for (const v1::SamplePage& page : pages) {
    auto [it, added] = index_of.emplace(page.url(), static_cast<uint32_t>(state.urls_size()));
    if (added) state.add_urls(page.url());
    while (state.vectors_size() < state.urls_size()) state.add_vectors();
    state.set_vectors(static_cast<int>(it->second), page.shingle_vector());
    while (state.files_size() < state.urls_size()) state.add_files();
    state.set_files(static_cast<int>(it->second), page.file());
    indices.push_back(it->second);
    VERTEX_RETURN_IF_ERROR(PutMessage(&batch, Family::kSamplePages, keys::SamplePage(site, it->second), page));
  }
  VERTEX_RETURN_IF_ERROR(PutMessage(&batch, Family::kSampleState, keys::Site(site), state));
  VERTEX_RETURN_IF_ERROR(engine_->Write(batch));
  return indices;
}

absl::StatusOr<v1::SampleState> KvRuleStore::GetSampleState(const std::string& site) const {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  return LoadSampleState(*engine_->NewReader(), site);
}

absl::StatusOr<v1::SamplePage> KvRuleStore::GetSamplePage(const std::string& site, uint32_t index) const {
  VERTEX_RETURN_IF_ERROR(ValidateId("site", site));
  const std::string key = keys::SamplePage(site, index);
  VERTEX_ASSIGN_OR_RETURN(std::optional<v1::SamplePage> page,
                          Read<v1::SamplePage>(*engine_->NewReader(), Family::kSamplePages, key));
  if (!page.has_value()) {
    return absl::NotFoundError(absl::StrCat("sample page #", index, " of site ", Q(site), " not found"));
  }
  return *std::move(page);
}

absl::Status KvRuleStore::PutSampleClustering(const std::string& site, const v1::SampleState& state,
                                              const std::vector<v1::ClusterRecord>& clusters) {
  VERTEX_RETURN_IF_ERROR(ValidateClusters(site, clusters));
  absl::MutexLock lock(&write_mu_);
  KvBatch batch;
  VERTEX_RETURN_IF_ERROR(BuildSampleClustering(*engine_->NewReader(), site, state, clusters, &batch));
  return engine_->Write(batch);
}

absl::Status KvRuleStore::BuildSampleClustering(const KvReader& reader, const std::string& site,
                                                const v1::SampleState& state,
                                                const std::vector<v1::ClusterRecord>& clusters, KvBatch* batch) const {
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState stored, LoadSampleState(reader, site));
  if (stored.urls_size() != state.urls_size() ||
      !std::equal(stored.urls().begin(), stored.urls().end(), state.urls().begin())) {
    return absl::FailedPreconditionError(absl::StrCat("the sample of site ", Q(site), " changed (",
                                                      stored.urls_size(), " pages now, ", state.urls_size(),
                                                      " clustered): cluster it again"));
  }
  VERTEX_RETURN_IF_ERROR(BuildPutClusters(reader, site, clusters, batch));
  return PutMessage(batch, Family::kSampleState, keys::Site(site), state);
}

absl::Status KvRuleStore::PutEditorState(const std::string& site, const std::string& cluster_id,
                                         const v1::EditorState& editor) {
  VERTEX_RETURN_IF_ERROR(ValidateIds(site, cluster_id));
  absl::MutexLock lock(&write_mu_);
  const std::unique_ptr<KvReader> reader = engine_->NewReader();
  VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord cluster, LoadCluster(*reader, site, cluster_id));
  v1::ClusterRecord updated = cluster;
  *updated.mutable_editor() = editor;
  KvBatch batch;
  VERTEX_RETURN_IF_ERROR(WriteCluster(&cluster, updated, &batch));
  return engine_->Write(batch);
}

// Whether the engine holds the format marker; FailedPrecondition when it
// holds another format's.
absl::StatusOr<bool> HasFormatMarker(const KvEngine& engine) {
  VERTEX_ASSIGN_OR_RETURN(std::optional<std::string> marker,
                          engine.NewReader()->Get(Family::kMeta, kFormatKey));
  if (!marker.has_value()) return false;
  if (*marker == kFormatMarker) return true;
  return absl::FailedPreconditionError(absl::StrCat("the store holds format ", Q(*marker),
                                                    "; this program reads ", Av(kFormatMarker)));
}

}  // namespace

absl::StatusOr<std::unique_ptr<RuleStore>> NewRuleStore(std::shared_ptr<KvEngine> engine) {
  VERTEX_RETURN_IF_ERROR(HasFormatMarker(*engine).status());
  return std::unique_ptr<RuleStore>(new KvRuleStore(std::move(engine)));
}

absl::StatusOr<std::unique_ptr<RuleStore>> OpenRocksDbStore(const std::string& dir,
                                                            const StoreOptions& options) {
  VERTEX_ASSIGN_OR_RETURN(std::shared_ptr<KvEngine> engine, RocksDbKv::Open(dir, options));
  return NewWritableRuleStore(std::move(engine));
}

absl::StatusOr<std::unique_ptr<RuleStore>> NewWritableRuleStore(std::shared_ptr<KvEngine> engine) {
  VERTEX_ASSIGN_OR_RETURN(const bool marked, HasFormatMarker(*engine));
  if (!marked) {
    KvBatch marker;
    marker.Put(Family::kMeta, std::string(kFormatKey), std::string(kFormatMarker));
    VERTEX_RETURN_IF_ERROR(engine->Write(marker));
  }
  return std::unique_ptr<RuleStore>(new KvRuleStore(std::move(engine)));
}

std::unique_ptr<RuleStore> NewInMemoryStore() {
  return std::make_unique<KvRuleStore>(std::make_shared<MemoryKv>());
}

}  // namespace vertex::store
