// LearningEngine::TransferRules: rule transfer between a site's clusters
// (rule_transfer.h), after clustering and after a rule is DONE.
#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"
#include "common/workflow/learning_engine.h"
#include "common/site/site_builder.h"
#include "common/workflow/learning_internal.h"
#include "common/monitor/bellwethers.h"
#include "common/workflow/rule_transfer.h"
#include "common/workflow/sample_view.h"

namespace vertex::workflow {
namespace {

struct Donor {
  v1::ClusterRecord record;
  std::optional<extract::CompiledRule> rule;
};

// Clusters of the current clustering an editor has not touched: no rule,
// no annotation, no candidate.
bool IsRecipient(const v1::ClusterRecord& r) {
  return r.current_version() == 0 && r.editor().annotations_size() == 0 && r.candidate_version() == 0;
}

// The sample page indices of the annotated URLs of `editor`.
std::vector<size_t> AnnotatedPages(const v1::EditorState& editor, const v1::SampleState& state) {
  std::map<std::string, size_t> index_of;
  for (int i = 0; i < state.urls_size(); ++i) index_of.emplace(state.urls(i), static_cast<size_t>(i));
  std::vector<size_t> out;
  for (const v1::Annotation& a : editor.annotations()) {
    auto it = index_of.find(a.url());
    if (it != index_of.end() && std::find(out.begin(), out.end(), it->second) == out.end()) out.push_back(it->second);
  }
  return out;
}

absl::StatusOr<std::vector<Donor>> LoadDonors(const store::RuleStore& store, const std::string& site,
                                              const schema::CompiledSchema& schema,
                                              const std::vector<v1::ClusterRecord>& records,
                                              const v1::SampleState& state, const std::set<std::string>& only) {
  std::vector<Donor> donors;
  for (const v1::ClusterRecord& r : records) {
    if (r.current_version() == 0 || FindSampleCluster(state, r.cluster_id()) == nullptr) continue;
    if (!only.empty() && !only.count(r.cluster_id())) continue;
    VERTEX_ASSIGN_OR_RETURN(v1::Rule rule, store.GetRule(site, r.cluster_id(), store::kCurrentVersion));
    VERTEX_ASSIGN_OR_RETURN(extract::CompiledRule compiled, extract::CompiledRule::Create(rule, schema));
    donors.push_back({r, std::move(compiled)});
  }
  return donors;
}

}  // namespace

absl::Status LearningEngine::CommitMergedRule(const std::string& site, const v1::ClusterRecord& donor,
                                              const v1::SampleState& state, const schema::CompiledSchema& schema) {
  VERTEX_ASSIGN_OR_RETURN(v1::Rule current, store_->GetRule(site, donor.cluster_id(), store::kCurrentVersion));
  store::RuleCommit commit;
  commit.rule = MergedRule(current, donor, internal::NowMs());
  VERTEX_ASSIGN_OR_RETURN(commit.snapshots, store_->Snapshots(site, donor.cluster_id(), store::kCurrentVersion));
  commit.editor = donor.editor();
  const v1::SampleCluster* sc = FindSampleCluster(state, donor.cluster_id());
  VERTEX_ASSIGN_OR_RETURN(site::SiteClustering view, ClusterView(state, donor, *sc));
  VERTEX_ASSIGN_OR_RETURN(const html::ParseOptions parse, SiteParse(site));
  PagePool pool(view, parse, StoreLoader(store_, site));
  VERTEX_ASSIGN_OR_RETURN(extract::CompiledRule compiled, extract::CompiledRule::Create(commit.rule, schema));
  VERTEX_RETURN_IF_ERROR(monitor::AddBellwethers(compiled, state, *sc, AnnotatedPages(donor.editor(), state), pool,
                                        options_.bellwethers, &commit));
  return store_->CommitRule(commit).status();
}

absl::StatusOr<std::vector<v1::TransferredCluster>> LearningEngine::TransferRules(
    const std::string& site, const schema::CompiledSchema& schema, const std::set<std::string>& only_donors) {
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site_record, store_->GetSite(site));
  std::vector<v1::TransferredCluster> out;
  if (site_record.settings().no_rule_transfer()) return out;
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(site));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> records, store_->ClustersOfSite(site));
  VERTEX_ASSIGN_OR_RETURN(std::vector<Donor> donors, LoadDonors(*store_, site, schema, records, state, only_donors));
  if (donors.empty()) return out;
  for (const v1::ClusterRecord& r : records) {
    const v1::SampleCluster* sc = FindSampleCluster(state, r.cluster_id());
    if (sc == nullptr || !IsRecipient(r)) continue;
    VERTEX_ASSIGN_OR_RETURN(site::SiteClustering view, ClusterView(state, r, *sc));
    // The recipients' parses are kept like the learnt cluster's: the next
    // DONE Learn of the site tries its rule on the same recipients again.
    const PagePool pool(view, site::SiteParseOptions(options_.cluster.parse, site_record), StoreLoader(store_, site),
                        page_cache_ ? PageCacheView{page_cache_.get(), site} : PageCacheView{});
    for (size_t d = 0; d < donors.size(); ++d) {
      VERTEX_ASSIGN_OR_RETURN(TransferVerdict v,
                              TryRule(*donors[d].rule, view.clusters[0].pages, pool, options_.learn.check_threads));
      if (!v.passes) continue;
      v1::TransferredCluster t;
      t.set_cluster_id(r.cluster_id());
      t.set_into_cluster(donors[d].record.cluster_id());
      t.set_rule_version(donors[d].rule->proto().version());
      t.set_pages(static_cast<uint32_t>(v.pages));
      t.set_reason(v.reason);
      out.push_back(std::move(t));
      break;
    }
  }
  if (out.empty()) return out;
  return ApplyTransfers(site, schema, std::move(state), std::move(records), std::move(out));
}

absl::StatusOr<std::vector<v1::TransferredCluster>> LearningEngine::ApplyTransfers(
    const std::string& site, const schema::CompiledSchema& schema, v1::SampleState state,
    std::vector<v1::ClusterRecord> records, std::vector<v1::TransferredCluster> transfers) {
  std::map<std::string, v1::ClusterRecord> by_id;
  for (const v1::ClusterRecord& r : records) by_id[r.cluster_id()] = r;
  std::set<std::string> changed;
  for (const v1::TransferredCluster& t : transfers) {
    VERTEX_RETURN_IF_ERROR(MergeSampleClusters(t.into_cluster(), t.cluster_id(), &state));
    VERTEX_RETURN_IF_ERROR(MergeClusterRecords(by_id[t.cluster_id()], t.rule_version(), t.reason(), internal::NowMs(),
                                               state, options_.cluster.url, &by_id[t.into_cluster()]));
    by_id.erase(t.cluster_id());
    changed.insert(t.into_cluster());
  }
  std::vector<v1::ClusterRecord> kept;
  for (const v1::ClusterRecord& r : records) {
    if (by_id.count(r.cluster_id())) kept.push_back(by_id[r.cluster_id()]);
  }
  // The donors' rules first: until the clustering is written the merged
  // clusters still exist, each covered by two rules, which extraction
  // tolerates; a crash between the writes leaves that state.
  for (const std::string& id : changed) VERTEX_RETURN_IF_ERROR(CommitMergedRule(site, by_id[id], state, schema));
  VERTEX_RETURN_IF_ERROR(store_->PutSampleClustering(site, state, kept));
  return transfers;
}

}  // namespace vertex::workflow
