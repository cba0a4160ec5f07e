#include "common/workflow/site_store.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/util/status_macros.h"

namespace vertex::workflow {

ClusterAssignment AssignClusterIds(const std::string& site, const std::vector<v1::ClusterRecord>& stored,
                                   const site::SiteClustering& clustering) {
  std::map<std::string, size_t> by_signature;
  std::set<std::string> used;
  for (size_t i = 0; i < stored.size(); ++i) {
    by_signature.emplace(stored[i].signature(), i);
    used.insert(stored[i].cluster_id());
  }
  ClusterAssignment out;
  std::set<size_t> kept;
  int next = 0;
  for (const site::SiteCluster& c : clustering.clusters) {
    v1::ClusterRecord r;
    auto it = by_signature.find(c.signature.ToText());
    if (it != by_signature.end()) {
      r = stored[it->second];
      kept.insert(it->second);
    } else {
      while (used.count(absl::StrCat("c", next))) ++next;
      r.set_cluster_id(absl::StrCat("c", next));
      used.insert(r.cluster_id());
    }
    r.set_site(site);
    r.set_signature(c.signature.ToText());
    r.set_url_regex(c.url_regex);
    r.set_importance(c.importance);
    out.ids.push_back(r.cluster_id());
    out.records.push_back(std::move(r));
  }
  for (size_t i = 0; i < stored.size(); ++i) {
    if (!kept.count(i)) out.records.push_back(stored[i]);
  }
  return out;
}

absl::StatusOr<extract::SiteExtractor> LoadSiteExtractor(const store::RuleStore& store, const std::string& site,
                                                         extract::SiteExtractorOptions options) {
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord record, store.GetSite(site));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromProto(record.schema()));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> routes, store.RoutesOfSite(site));
  std::vector<v1::Rule> rules;
  for (const v1::ClusterRecord& c : routes) {
    if (c.current_version() == 0) continue;
    VERTEX_ASSIGN_OR_RETURN(v1::Rule rule, store.GetRule(site, c.cluster_id(), store::kCurrentVersion));
    rules.push_back(std::move(rule));
  }
  if (rules.empty()) {
    return absl::FailedPreconditionError("site " + site + " has no rule yet: run vertexctl learn first");
  }
  return extract::SiteExtractor::Create(schema, rules, options);
}

}  // namespace vertex::workflow
