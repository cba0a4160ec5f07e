#include "common/workflow/site_store.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/util/status_macros.h"

namespace vertex::workflow {

namespace {

// Folds clustering->clusters[from] into clustering->clusters[into].
void FoldInto(size_t into, size_t from, site::SiteClustering* clustering) {
  site::SiteCluster& a = clustering->clusters[into];
  const site::SiteCluster& b = clustering->clusters[from];
  a.pages.insert(a.pages.end(), b.pages.begin(), b.pages.end());
  std::sort(a.pages.begin(), a.pages.end());
  a.attached.insert(a.attached.end(), b.attached.begin(), b.attached.end());
  std::sort(a.attached.begin(), a.attached.end());
  a.annotation_sample.insert(a.annotation_sample.end(), b.annotation_sample.begin(), b.annotation_sample.end());
  a.importance += b.importance;
}

}  // namespace

absl::Status FoldMergedClusters(const std::vector<v1::ClusterRecord>& stored,
                                const urlpattern::UrlRegexOptions& url_options, site::SiteClustering* clustering) {
  for (const v1::ClusterRecord& r : stored) {
    if (r.merged_size() == 0) continue;
    std::set<std::string> signatures = {r.signature()};
    for (const v1::MergedCluster& m : r.merged()) signatures.insert(m.signature());
    std::vector<size_t> group;
    for (size_t c = 0; c < clustering->clusters.size(); ++c) {
      if (signatures.count(clustering->clusters[c].signature.ToText())) group.push_back(c);
    }
    if (group.size() < 2) continue;
    size_t keep = group[0];
    for (size_t c : group) {
      if (clustering->clusters[c].signature.ToText() == r.signature()) keep = c;
    }
    for (size_t c : group) {
      if (c != keep) FoldInto(keep, c, clustering);
    }
    size_t kept_index = keep;
    for (auto it = group.rbegin(); it != group.rend(); ++it) {
      if (*it == keep) continue;
      clustering->clusters.erase(clustering->clusters.begin() + static_cast<std::ptrdiff_t>(*it));
      if (*it < keep) --kept_index;
    }
    site::SiteCluster& kept = clustering->clusters[kept_index];
    std::vector<std::string> urls;
    for (size_t p : kept.pages) urls.push_back(clustering->pages[p].url);
    for (size_t p : kept.attached) urls.push_back(clustering->pages[p].url);
    VERTEX_ASSIGN_OR_RETURN(kept.url_regex, urlpattern::InferUrlRegex(urls, url_options));
  }
  for (size_t c = 0; c < clustering->clusters.size(); ++c) clustering->clusters[c].id = c;
  return absl::OkStatus();
}

ClusterAssignment AssignClusterIds(const std::string& site, const std::vector<v1::ClusterRecord>& stored,
                                   const site::SiteClustering& clustering) {
  std::map<std::string, size_t> by_signature;
  std::set<std::string> used;
  for (size_t i = 0; i < stored.size(); ++i) {
    by_signature.emplace(stored[i].signature(), i);
    used.insert(stored[i].cluster_id());
  }
  for (size_t i = 0; i < stored.size(); ++i) {
    for (const v1::MergedCluster& m : stored[i].merged()) by_signature.emplace(m.signature(), i);
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
