#include "common/workflow/sample_view.h"

#include <set>

#include "common/util/status_macros.h"
#include "common/workflow/rule_checks.h"

namespace vertex::workflow {

const v1::SampleCluster* FindSampleCluster(const v1::SampleState& state, const std::string& id) {
  for (const v1::SampleCluster& c : state.clusters()) {
    if (c.cluster_id() == id) return &c;
  }
  return nullptr;
}

// The stored pages as a clustering with the one cluster `c` (id 0).
absl::StatusOr<site::SiteClustering> ClusterView(const v1::SampleState& state, const v1::ClusterRecord& record,
                                                 const v1::SampleCluster& c) {
  site::SiteClustering view;
  for (int i = 0; i < state.urls_size(); ++i) view.pages.push_back({state.urls(i), state.urls(i), {}, false});
  site::SiteCluster sc;
  VERTEX_ASSIGN_OR_RETURN(sc.signature, shingle::MaskedVector::Parse(record.signature()));
  sc.importance = record.importance();
  sc.url_regex = record.url_regex();
  sc.pages.assign(c.pages().begin(), c.pages().end());
  for (int i = 0; i < c.annotation_order_size(); ++i) {
    sc.annotation_sample.push_back({c.annotation_order(i), i < c.added_weight_size() ? c.added_weight(i) : 0});
  }
  view.clusters.push_back(std::move(sc));
  return view;
}

PageLoader StoreLoader(const store::RuleStore* store, const std::string& site) {
  return [store, site](size_t index) -> absl::StatusOr<site::PageFile> {
    VERTEX_ASSIGN_OR_RETURN(v1::SamplePage page, store->GetSamplePage(site, static_cast<uint32_t>(index)));
    return site::PageFile{page.url(), page.url(), page.html()};
  };
}

absl::Status AddBellwethers(const extract::CompiledRule& rule, const v1::SampleState& state,
                            const v1::SampleCluster& sc, const std::vector<size_t>& annotated, PagePool& pool,
                            size_t count, store::RuleCommit* commit) {
  if (count == 0) return absl::OkStatus();
  std::vector<shingle::ShingleVector> vectors(static_cast<size_t>(state.urls_size()));
  for (int i = 0; i < state.vectors_size() && i < state.urls_size(); ++i) {
    const std::string& v = state.vectors(i);
    if (v.size() == vectors[i].size()) std::copy(v.begin(), v.end(), vectors[i].begin());
  }
  const std::vector<size_t> members(sc.pages().begin(), sc.pages().end());
  // Twice as many as needed: members the rule fails on are passed over.
  const std::vector<size_t> chosen = ChooseBellwethers(members, annotated, vectors, 2 * count);
  const std::set<size_t> is_annotated(annotated.begin(), annotated.end());
  std::set<std::string> snapshotted;
  for (const v1::PageSnapshot& s : commit->snapshots) snapshotted.insert(s.url());
  std::vector<std::string> urls;
  for (size_t p : chosen) {
    if (urls.size() >= count) break;
    VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(p));
    VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> results, rule.Apply(*page));
    bool complete = true;
    for (size_t i = 0; i < results.size(); ++i) {
      complete = complete && !(rule.schema().attribute(i).mandatory() && results[i].values.empty());
    }
    if (!complete && !is_annotated.count(p)) continue;
    const site::PageFile* file = pool.File(p);
    urls.push_back(file->url);
    commit->golden.push_back(GoldenOf(file->url, results));
    if (snapshotted.insert(file->url).second) {
      v1::PageSnapshot snap;
      snap.set_url(file->url);
      snap.set_html(file->bytes);
      snap.set_fetched_unix_ms(commit->rule.created_unix_ms());
      commit->snapshots.push_back(std::move(snap));
    }
  }
  commit->bellwether_urls = std::move(urls);
  return absl::OkStatus();
}

}  // namespace vertex::workflow
