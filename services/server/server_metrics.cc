#include "services/server/server_metrics.h"

#include <string>
#include <vector>

namespace vertex::server {
namespace {

struct SiteRules {
  int current = 0;
  size_t versions = 0;
};

absl::StatusOr<SiteRules> RulesOf(const store::RuleStore& store, const std::string& site) {
  SiteRules out;
  absl::StatusOr<std::vector<v1::ClusterRecord>> clusters = store.ClustersOfSite(site);
  if (!clusters.ok()) return clusters.status();
  for (const v1::ClusterRecord& c : *clusters) {
    out.current += c.current_version() > 0;
    absl::StatusOr<std::vector<int64_t>> versions = store.ListRuleVersions(site, c.cluster_id());
    if (!versions.ok()) return versions.status();
    out.versions += versions->size();
  }
  return out;
}

}  // namespace

rpc::Collector RuleStoreCollector(const store::RuleStore* store) {
  return [store](rpc::MetricWriter& w) {
    absl::StatusOr<std::vector<std::string>> sites = store->ListSites();
    int errors = sites.ok() ? 0 : 1;
    w.Gauge("vertex_sites", "Sites registered in the rule store.", {},
            sites.ok() ? static_cast<double>(sites->size()) : 0);
    for (const std::string& site : sites.ok() ? *sites : std::vector<std::string>{}) {
      absl::StatusOr<SiteRules> rules = RulesOf(*store, site);
      if (!rules.ok()) {
        ++errors;
        continue;
      }
      w.Gauge("vertex_rules_current", "Clusters of the site with a current rule.", {{"site", site}}, rules->current);
      w.Gauge("vertex_rule_versions", "Rule versions stored for the site's clusters.", {{"site", site}},
              static_cast<double>(rules->versions));
    }
    w.Gauge("vertex_metrics_store_errors", "Store reads that failed during this scrape.", {}, errors);
  };
}

rpc::Collector RocksDbCollector(const store::RocksDbKv* kv) {
  return [kv](rpc::MetricWriter& w) {
    if (absl::StatusOr<uint64_t> sst = kv->IntProperty("rocksdb.total-sst-files-size"); sst.ok()) {
      w.Gauge("vertex_store_sst_bytes", "Size of the rule store's SST files (rocksdb.total-sst-files-size).", {},
              static_cast<double>(*sst));
    }
    if (absl::StatusOr<uint64_t> live = kv->IntProperty("rocksdb.estimate-live-data-size"); live.ok()) {
      w.Gauge("vertex_store_live_data_bytes",
              "Estimated live data in the rule store (rocksdb.estimate-live-data-size).", {},
              static_cast<double>(*live));
    }
    if (absl::StatusOr<uint64_t> mem = kv->IntProperty("rocksdb.cur-size-all-mem-tables"); mem.ok()) {
      w.Gauge("vertex_store_memtable_bytes", "Rule store data in memory not yet in SST files "
              "(rocksdb.cur-size-all-mem-tables).", {}, static_cast<double>(*mem));
    }
  };
}

rpc::Collector AdmissionCollector(const util::FifoSemaphore* extractions) {
  return [extractions](rpc::MetricWriter& w) {
    w.Gauge("vertex_extraction_admission_in_flight", "Pages being extracted now.", {},
            static_cast<double>(extractions->held()));
    w.Gauge("vertex_extraction_admission_waiting", "Extract calls and stream pages queued for a slot.", {},
            static_cast<double>(extractions->queued()));
    w.Gauge("vertex_extraction_admission_limit", "--max-concurrent-extractions (0: no limit).", {},
            static_cast<double>(extractions->limit()));
  };
}

}  // namespace vertex::server
