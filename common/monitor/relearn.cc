// Relearn: a changed site's fresh sample, rule reuse (Vertex IV-C) and
// automatic repair (relearn.h, learning.proto).
//
// Everything is computed before anything is written: the fresh pages are
// parsed and clustered in memory, each new cluster's outcome decided, and
// then the sample, the clustering and the new rule versions are stored, in
// that order (three kinds of writes, each atomic: a crash between them
// leaves a state that a second Relearn repairs).
#include "common/monitor/relearn.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/learn/rule_learner.h"
#include "common/site/site_builder.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"
#include "common/monitor/bellwethers.h"
#include "common/monitor/rule_checks.h"
#include "common/workflow/learning_internal.h"
#include "common/workflow/sample_view.h"

namespace vertex::monitor {
namespace {

using workflow::ClusterLearnResult;
using workflow::FindSampleCluster;
using workflow::PageLoader;
using workflow::PagePool;
using workflow::SampleClustering;
using workflow::internal::NowMs;
using workflow::internal::SampleTasks;

// Shared URLs field-tested per candidate rule.
constexpr size_t kMaxFieldTestPages = 20;
// Bellwether pages automatic repair annotates (the others test the result).
constexpr size_t kRepairAnnotatedPages = 3;

struct FreshPage {
  std::string url;
  std::string html;
  shingle::ShingleVector vector;
};

// An old cluster with a rule: a candidate for reuse and repair.
struct OldCluster {
  v1::ClusterRecord record;
  std::optional<extract::CompiledRule> rule;
  // URLs of its pages: its members in the old sample and its bellwethers.
  std::set<std::string> urls;
  std::map<std::string, const v1::GoldenExtraction*> golden;
};

enum MatchKind { kClusterMatch = 0, kPageMatch = 1, kFieldMatch = 2 };

const char* MatchName(MatchKind k) {
  switch (k) {
    case kClusterMatch:
      return "cluster";
    case kPageMatch:
      return "page";
    case kFieldMatch:
      return "field";
  }
  return "?";
}

struct Candidate {
  size_t old = 0;  // index into the old clusters
  MatchKind kind = kFieldMatch;
  std::vector<std::string> shared;  // URLs in both clusters, sorted
};

}  // namespace

absl::StatusOr<v1::RelearnResponse> Relearn(const RelearnContext& context, const v1::RelearnRequest& request) {
  store::RuleStore* const rule_store = context.store;
  const std::string& site_id = request.site();
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", site_id));
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site, rule_store->GetSite(site_id));
  RelearnOptions options = context.options;
  options.parse = site::SiteParseOptions(options.parse, site);
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromProto(site.schema()));
  {
    std::set<std::string> urls;
    for (int i = 0; i < request.pages_size(); ++i) {
      const v1::Page& p = request.pages(i);
      if (p.url().empty()) return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].url is empty"));
      if (p.html().empty()) return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].html is empty"));
      if (!urls.insert(p.url()).second) {
        return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].url repeats ", p.url()));
      }
    }
  }
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> old_records, rule_store->ClustersOfSite(site_id));
  if (std::none_of(old_records.begin(), old_records.end(),
                   [](const v1::ClusterRecord& r) { return r.current_version() > 0; })) {
    return absl::FailedPreconditionError("site \"" + site_id +
                                         "\" has no rule to reuse: learn its clusters first (vertexctl learn)");
  }
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState old_state, rule_store->GetSampleState(site_id));
  v1::RelearnResponse response;
  response.set_site(site_id);

  // 1. The fresh pages: given, or fetched (bellwethers first, then the
  // stored sample's URLs), outside the site's lock.
  std::vector<v1::Page> given(request.pages().begin(), request.pages().end());
  if (given.empty()) {
    if (options.fetcher == nullptr) {
      return absl::FailedPreconditionError(
          "no fresh page given and this server fetches no page (no fetcher configured): supply the pages");
    }
    std::vector<std::string> urls;
    std::set<std::string> seen;
    for (const v1::ClusterRecord& r : old_records) {
      for (const std::string& u : r.bellwether_urls()) {
        if (seen.insert(u).second) urls.push_back(u);
      }
    }
    for (const std::string& u : old_state.urls()) {
      if (seen.insert(u).second) urls.push_back(u);
    }
    const size_t max_pages = request.max_pages() > 0 ? request.max_pages() : options.relearn_pages;
    if (urls.size() > max_pages) urls.resize(max_pages);
    for (const std::string& u : urls) {
      absl::StatusOr<fetch::FetchResult> fetched = options.fetcher->Fetch(u);
      if (!fetched.ok()) {
        v1::PageError* e = response.add_errors();
        e->set_url(u);
        e->set_error(std::string(fetched.status().message()));
        continue;
      }
      v1::Page p;
      p.set_url(u);
      p.set_html(std::move(fetched->body));
      given.push_back(std::move(p));
    }
  }
  std::vector<FreshPage> fresh;
  {
    html::Parser parser(options.parse);
    for (const v1::Page& p : given) {
      std::optional<v1::SamplePage> page = workflow::internal::SamplePageOf(parser, p, response.mutable_errors());
      if (!page.has_value()) continue;
      FreshPage f{page->url(), std::move(*page->mutable_html()), {}};
      std::copy(page->shingle_vector().begin(), page->shingle_vector().end(), f.vector.begin());
      fresh.push_back(std::move(f));
    }
  }
  if (fresh.empty()) {
    std::string first = response.errors_size() > 0
                            ? ": " + response.errors(0).url() + ": " + response.errors(0).error()
                            : "";
    return absl::FailedPreconditionError(
        absl::StrCat("no fresh page of site \"", site_id, "\" could be used (", response.errors_size(), " failed)",
                     first));
  }
  response.set_pages(static_cast<uint32_t>(fresh.size()));

  absl::ReleasableMutexLock lock(context.site_lock(site_id));
  // Re-read under the lock: the state the writes below replace.
  VERTEX_ASSIGN_OR_RETURN(old_records, rule_store->ClustersOfSite(site_id));
  VERTEX_ASSIGN_OR_RETURN(old_state, rule_store->GetSampleState(site_id));

  // 2. The old clusters with a rule.
  std::vector<OldCluster> olds;
  for (const v1::ClusterRecord& r : old_records) {
    if (r.current_version() == 0) continue;
    VERTEX_ASSIGN_OR_RETURN(v1::Rule rule, rule_store->GetRule(site_id, r.cluster_id(), store::kCurrentVersion));
    absl::StatusOr<extract::CompiledRule> compiled = extract::CompiledRule::Create(rule, schema);
    if (!compiled.ok()) continue;  // a rule of an older schema: not a candidate
    OldCluster o;
    o.record = r;
    o.rule = *std::move(compiled);
    if (const v1::SampleCluster* sc = FindSampleCluster(old_state, r.cluster_id()); sc != nullptr) {
      for (uint32_t p : sc->pages()) {
        if (p < static_cast<uint32_t>(old_state.urls_size())) o.urls.insert(old_state.urls(static_cast<int>(p)));
      }
    }
    for (const std::string& u : r.bellwether_urls()) o.urls.insert(u);
    olds.push_back(std::move(o));
  }
  for (OldCluster& o : olds) {
    for (const v1::GoldenExtraction& g : o.record.golden()) o.golden[g.url()] = &g;
  }
  // Old versions of pages: the old sample's, else the rule's snapshots.
  std::map<std::string, uint32_t> old_index;
  for (int i = 0; i < old_state.urls_size(); ++i) old_index[old_state.urls(i)] = static_cast<uint32_t>(i);
  std::map<std::string, std::map<std::string, std::string>> snapshots;  // cluster -> url -> html
  auto old_html = [&](const OldCluster& o, const std::string& url) -> absl::StatusOr<std::optional<std::string>> {
    if (auto it = old_index.find(url); it != old_index.end()) {
      VERTEX_ASSIGN_OR_RETURN(v1::SamplePage page, rule_store->GetSamplePage(site_id, it->second));
      return std::optional<std::string>(page.html());
    }
    auto [entry, added] = snapshots.try_emplace(o.record.cluster_id());
    if (added) {
      VERTEX_ASSIGN_OR_RETURN(std::vector<v1::PageSnapshot> snaps,
                              rule_store->Snapshots(site_id, o.record.cluster_id(), store::kCurrentVersion));
      for (v1::PageSnapshot& s : snaps) entry->second[s.url()] = std::move(*s.mutable_html());
    }
    auto it = entry->second.find(url);
    if (it == entry->second.end()) return std::optional<std::string>();
    return std::optional<std::string>(it->second);
  };

  // 3. Cluster the fresh sample in memory.
  v1::SampleState state;
  std::map<std::string, size_t> fresh_index;
  for (size_t i = 0; i < fresh.size(); ++i) {
    state.add_urls(fresh[i].url);
    state.add_vectors(std::string(fresh[i].vector.begin(), fresh[i].vector.end()));
    fresh_index[fresh[i].url] = i;
  }
  const PageLoader load = [&fresh](size_t i) -> absl::StatusOr<site::PageFile> {
    if (i >= fresh.size()) return absl::OutOfRangeError(absl::StrCat("fresh page #", i));
    return site::PageFile{fresh[i].url, fresh[i].url, fresh[i].html};
  };
  VERTEX_ASSIGN_OR_RETURN(SampleClustering sc, context.compute_clustering(site_id, std::move(state), load));
  response.set_unassigned_pages(static_cast<uint32_t>(sc.clustering.unassigned.size()));
  PagePool pool(sc.clustering, options.parse, load);
  html::Parser parser(options.parse);

  // The field test of an old rule on the old and new versions of shared
  // URLs (IV-C): constant attributes equal, mandatory ones extracted from
  // the new version; for a field match also no attribute lost. Returns
  // the failures (empty: passed) or why nothing could be tested.
  auto field_test = [&](const OldCluster& o, const Candidate& c) -> absl::StatusOr<std::vector<std::string>> {
    std::vector<std::string> failures;
    size_t tested = 0;
    for (const std::string& url : c.shared) {
      if (tested >= kMaxFieldTestPages) break;
      VERTEX_ASSIGN_OR_RETURN(std::optional<std::string> before, old_html(o, url));
      if (!before.has_value()) continue;
      absl::StatusOr<html::Page> old_page = parser.Parse(*before, url);
      if (!old_page.ok()) continue;
      v1::GoldenExtraction old_golden;
      if (o.rule->record_level()) {
        VERTEX_ASSIGN_OR_RETURN(extract::ListResult old_list, o.rule->ApplyRecords(*old_page));
        old_golden = GoldenOfRecords(url, old_list.records, schema);
      } else {
        VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> old_values, o.rule->Apply(*old_page));
        old_golden = GoldenOf(url, old_values);
      }
      v1::PageCheck check;
      VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> new_values,
                              CheckPage(*o.rule, fresh[fresh_index[url]].html, url, &old_golden, parser, &check));
      ++tested;
      std::vector<std::string> why;
      if (!check.parse_error().empty()) why.push_back("unparsable");
      if (check.missing_mandatory_size() > 0) {
        why.push_back("mandatory not extracted: " + absl::StrJoin(check.missing_mandatory(), ", "));
      }
      for (const v1::AttributeChange& a : check.changed_constants()) {
        why.push_back(absl::StrCat(a.attribute(), " \"", absl::StrJoin(a.golden(), " | "), "\" became \"",
                                   absl::StrJoin(a.fresh(), " | "), "\""));
      }
      for (const std::string& f : check.record_failures()) why.push_back(f);
      if (c.kind == kFieldMatch && !o.rule->record_level()) {
        const std::vector<std::string> lost = LostAttributes(new_values, old_golden);
        if (!lost.empty()) why.push_back("lost " + absl::StrJoin(lost, ", "));
      }
      if (!why.empty()) failures.push_back(url + ": " + absl::StrJoin(why, "; "));
    }
    if (tested == 0) failures.push_back("no old version of a shared URL to test on");
    return failures;
  };

  const size_t n = sc.clustering.clusters.size();
  std::set<std::string> new_ids(sc.assigned.ids.begin(), sc.assigned.ids.end());
  std::set<std::string> claimed;
  std::vector<store::RuleCommit> commits;
  for (size_t c = 0; c < n; ++c) {
    const site::SiteCluster& cluster = sc.clustering.clusters[c];
    v1::ClusterOutcome* out = response.add_clusters();
    out->set_pages(static_cast<uint32_t>(cluster.pages.size()));
    std::set<std::string> member_urls;
    for (size_t p : cluster.pages) member_urls.insert(fresh[p].url);
    for (const std::string& u : member_urls) {
      if (old_index.count(u)) out->set_overlap_urls(out->overlap_urls() + 1);
    }
    const std::string signature = cluster.signature.ToText();

    // Candidates: old clusters sharing URLs, strictest match first, then
    // by importance.
    std::vector<Candidate> candidates;
    for (size_t o = 0; o < olds.size(); ++o) {
      Candidate cand;
      cand.old = o;
      for (const std::string& u : member_urls) {
        if (olds[o].urls.count(u)) cand.shared.push_back(u);
      }
      if (cand.shared.empty()) continue;
      if (olds[o].record.signature() == signature) {
        cand.kind = kClusterMatch;
      } else if (std::all_of(cluster.pages.begin(), cluster.pages.end(),
                             [&](size_t p) { return olds[o].rule->signature().Covers(fresh[p].vector); })) {
        cand.kind = kPageMatch;
      } else {
        cand.kind = kFieldMatch;
      }
      candidates.push_back(std::move(cand));
    }
    std::sort(candidates.begin(), candidates.end(), [&](const Candidate& a, const Candidate& b) {
      if (a.kind != b.kind) return a.kind < b.kind;
      if (olds[a.old].record.importance() != olds[b.old].record.importance()) {
        return olds[a.old].record.importance() > olds[b.old].record.importance();
      }
      return a.shared.size() > b.shared.size();
    });
    const Candidate* reused = nullptr;
    std::vector<std::string> failures;
    for (const Candidate& cand : candidates) {
      VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> why, field_test(olds[cand.old], cand));
      if (why.empty()) {
        reused = &cand;
        break;
      }
      failures.push_back(absl::StrCat(olds[cand.old].record.cluster_id(), " (", MatchName(cand.kind),
                                      " match): ", why[0], why.size() > 1 ? absl::StrCat(" (+", why.size() - 1, ")") : ""));
    }
    // The old cluster whose lineage the new one continues: the reused one,
    // else the one sharing the most URLs.
    const Candidate* heir = reused;
    for (const Candidate& cand : candidates) {
      if (heir == nullptr || (reused == nullptr && cand.shared.size() > heir->shared.size())) heir = &cand;
    }
    // A new cluster takes over its heir's id (rule versions, candidate) when
    // no other new cluster has it.
    if (heir != nullptr) {
      const v1::ClusterRecord& o = olds[heir->old].record;
      if (sc.assigned.ids[c] != o.cluster_id() && !new_ids.count(o.cluster_id()) && !claimed.count(o.cluster_id())) {
        v1::ClusterRecord taken = o;
        taken.set_signature(sc.assigned.records[c].signature());
        taken.set_url_regex(sc.assigned.records[c].url_regex());
        taken.set_importance(sc.assigned.records[c].importance());
        new_ids.erase(sc.assigned.ids[c]);
        new_ids.insert(o.cluster_id());
        sc.assigned.ids[c] = o.cluster_id();
        sc.assigned.records[c] = std::move(taken);
        sc.state.mutable_clusters(static_cast<int>(c))->set_cluster_id(o.cluster_id());
        claimed.insert(o.cluster_id());
      }
    }
    v1::ClusterRecord& record = sc.assigned.records[c];
    const v1::SampleCluster& sample_cluster = sc.state.clusters(static_cast<int>(c));
    out->set_cluster_id(record.cluster_id());
    // Annotations of pages no longer in the cluster cannot be learnt from.
    {
      v1::EditorState editor = record.editor();
      editor.clear_annotations();
      for (const v1::Annotation& a : record.editor().annotations()) {
        if (member_urls.count(a.url())) *editor.add_annotations() = a;
      }
      *record.mutable_editor() = std::move(editor);
    }

    if (reused != nullptr) {
      const OldCluster& o = olds[reused->old];
      out->set_outcome(v1::ClusterOutcome::REUSED);
      out->set_from_cluster(o.record.cluster_id());
      out->set_from_version(o.record.current_version());
      out->set_match(MatchName(reused->kind));
      response.set_reused(response.reused() + 1);
      if (record.cluster_id() == o.record.cluster_id() && o.record.signature() == record.signature()) {
        out->set_version(o.record.current_version());  // the same cluster, the same rule
        continue;
      }
      store::RuleCommit commit;
      commit.rule = o.rule->proto();
      commit.rule.clear_version();
      commit.rule.clear_signature();
      commit.rule.clear_url_regex();
      commit.rule.clear_importance();
      commit.rule.set_cluster_id(record.cluster_id());
      commit.rule.set_reused_from_cluster(o.record.cluster_id());
      commit.rule.set_reused_from_version(o.record.current_version());
      commit.rule.set_created_unix_ms(NowMs());
      // Compiled with the new cluster's signature: its output on the new
      // bellwethers becomes the golden extractions.
      v1::Rule with_signature = commit.rule;
      with_signature.set_signature(record.signature());
      VERTEX_ASSIGN_OR_RETURN(extract::CompiledRule compiled, extract::CompiledRule::Create(with_signature, schema));
      VERTEX_RETURN_IF_ERROR(
          AddBellwethers(compiled, sc.state, sample_cluster, {}, pool, options.bellwethers, &commit));
      v1::EditorState editor = record.editor();
      editor.set_state(v1::DONE);
      editor.clear_tasks();
      commit.editor = std::move(editor);
      commits.push_back(std::move(commit));
      out->set_version(-1);  // filled in after the commit
      continue;
    }

    // Automatic repair from the heir's golden values of constant attributes.
    std::string queued_reason =
        candidates.empty() ? "no old cluster shares URLs with it (a new template)"
                           : "no old rule passed the field test: " + absl::StrJoin(failures, "; ");
    if (heir != nullptr && !request.no_repair() && schema.record_level()) {
      // A list cluster: AMBER analyses the fresh cluster's pages again
      // (no editor, no golden value needed) into a candidate version that
      // must pass the list field test on the heir's bellwethers.
      const OldCluster& o = olds[heir->old];
      out->set_from_cluster(o.record.cluster_id());
      out->set_from_version(o.record.current_version());
      VERTEX_ASSIGN_OR_RETURN(ClusterLearnResult r,
                              workflow::LearnCluster(schema, sc.clustering, c, {}, pool, options.learn));
      std::vector<std::string> failed;
      if (r.compiled) {
        for (const std::string& u : o.record.bellwether_urls()) {
          if (!member_urls.count(u) || !o.golden.count(u)) continue;
          VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(fresh_index[u]));
          VERTEX_ASSIGN_OR_RETURN(extract::ListResult list, r.compiled->ApplyRecords(*page));
          for (const std::string& f : ListFieldTest(schema, list.records, o.golden.at(u))) {
            failed.push_back(u + ": " + f);
          }
        }
      }
      if (r.compiled && failed.empty()) {
        v1::Rule rule = r.learnt.rule;
        rule.set_site(site_id);
        rule.set_cluster_id(record.cluster_id());
        rule.set_repaired(true);
        rule.set_reused_from_cluster(o.record.cluster_id());
        rule.set_reused_from_version(o.record.current_version());
        rule.set_created_unix_ms(NowMs());
        store::RuleCommit commit;
        commit.rule = rule;
        commit.candidate = true;
        v1::Rule with_signature = rule;
        with_signature.set_signature(record.signature());
        VERTEX_ASSIGN_OR_RETURN(extract::CompiledRule compiled, extract::CompiledRule::Create(with_signature, schema));
        VERTEX_RETURN_IF_ERROR(AddBellwethers(compiled, sc.state, sample_cluster, {}, pool, options.bellwethers, &commit));
        v1::EditorState editor;
        editor.set_state(v1::DONE);
        commit.editor = std::move(editor);
        commits.push_back(std::move(commit));
        out->set_outcome(v1::ClusterOutcome::REPAIRED);
        out->set_version(-1);
        for (const v1::AttributeRule& a : rule.record().attributes()) out->add_repaired_attributes(a.attribute());
        out->set_reason(queued_reason + "; repaired by AMBER (no annotation): a candidate version");
        response.set_repaired(response.repaired() + 1);
        continue;
      }
      if (!r.compiled) {
        for (const learn::AttributeDiagnostic& d : r.learnt.diagnostics) {
          if (d.attribute == "__record") queued_reason += "; AMBER learnt no record rule: " + d.message;
        }
      } else {
        queued_reason += "; AMBER's record rule failed the list field test: " + absl::StrJoin(failed, "; ");
      }
    } else if (heir != nullptr && !request.no_repair()) {
      const OldCluster& o = olds[heir->old];
      out->set_from_cluster(o.record.cluster_id());
      out->set_from_version(o.record.current_version());
      std::vector<std::string> bellwethers;  // fresh members with golden values
      for (const std::string& u : o.record.bellwether_urls()) {
        if (member_urls.count(u) && o.golden.count(u)) bellwethers.push_back(u);
      }
      std::vector<std::string> constants;
      for (size_t k = 0; k < schema.size(); ++k) {
        if (schema.attribute(k).constant()) constants.push_back(schema.attribute(k).name());
      }
      if (constants.empty()) {
        queued_reason += "; no constant attribute to repair from";
      } else if (bellwethers.size() < 2) {
        queued_reason += absl::StrCat("; repair needs 2 bellwether pages of ", o.record.cluster_id(),
                                      " in the cluster, found ", bellwethers.size());
      } else {
        const size_t k = std::min(kRepairAnnotatedPages, bellwethers.size() - 1);
        std::vector<learn::AttributeAnnotation> annotations;
        std::vector<v1::Annotation> editor_annotations;
        for (size_t i = 0; i < k; ++i) {
          const v1::GoldenExtraction* g = o.golden.at(bellwethers[i]);
          for (const v1::AttributeValues& a : g->attributes()) {
            if (a.values_size() == 0 ||
                std::find(constants.begin(), constants.end(), a.attribute()) == constants.end()) {
              continue;
            }
            learn::AttributeAnnotation l;
            l.page = fresh_index[bellwethers[i]];
            l.attribute = a.attribute();
            l.values.assign(a.values().begin(), a.values().end());
            annotations.push_back(l);
            v1::Annotation e;
            e.set_url(bellwethers[i]);
            e.set_attribute(a.attribute());
            *e.mutable_values() = a.values();
            editor_annotations.push_back(std::move(e));
          }
        }
        std::vector<std::string> repaired;
        std::optional<ClusterLearnResult> learnt;
        if (!annotations.empty()) {
          VERTEX_ASSIGN_OR_RETURN(ClusterLearnResult r,
                                  workflow::LearnCluster(schema, sc.clustering, c, annotations, pool, options.learn));
          learnt = std::move(r);
        }
        if (learnt && learnt->compiled) {
          // Field test on the other bellwethers: each learnt constant must
          // give its golden values on every one of them.
          std::map<std::string, std::string> failed;  // attribute -> first failure
          for (size_t i = k; i < bellwethers.size(); ++i) {
            VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(fresh_index[bellwethers[i]]));
            VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> got, learnt->compiled->Apply(*page));
            v1::PageCheck check;
            FieldTest(schema, got, o.golden.at(bellwethers[i]), &check);
            for (const v1::AttributeChange& a : check.changed_constants()) {
              failed.try_emplace(a.attribute(), absl::StrCat(bellwethers[i], " gives \"", absl::StrJoin(a.fresh(), " | "),
                                                            "\", golden \"", absl::StrJoin(a.golden(), " | "), "\""));
            }
          }
          v1::Rule rule = learnt->learnt.rule;
          rule.clear_attributes();
          for (const v1::AttributeRule& a : learnt->learnt.rule.attributes()) {
            if (std::find(constants.begin(), constants.end(), a.attribute()) == constants.end()) continue;
            if (failed.count(a.attribute())) continue;
            *rule.add_attributes() = a;
            repaired.push_back(a.attribute());
          }
          for (const auto& [attribute, why] : failed) {
            queued_reason += "; repair of " + attribute + " failed the field test: " + why;
          }
          if (!repaired.empty()) {
            rule.set_site(site_id);
            rule.set_cluster_id(record.cluster_id());
            rule.set_repaired(true);
            rule.set_reused_from_cluster(o.record.cluster_id());
            rule.set_reused_from_version(o.record.current_version());
            rule.clear_annotated_urls();
            for (size_t i = 0; i < k; ++i) rule.add_annotated_urls(bellwethers[i]);
            rule.set_created_unix_ms(NowMs());
            store::RuleCommit commit;
            commit.rule = rule;
            commit.candidate = true;
            v1::Rule with_signature = rule;
            with_signature.set_signature(record.signature());
            VERTEX_ASSIGN_OR_RETURN(extract::CompiledRule compiled,
                                    extract::CompiledRule::Create(with_signature, schema));
            std::vector<size_t> annotated;
            for (size_t i = 0; i < k; ++i) annotated.push_back(fresh_index[bellwethers[i]]);
            VERTEX_RETURN_IF_ERROR(
                AddBellwethers(compiled, sc.state, sample_cluster, annotated, pool, options.bellwethers, &commit));
            std::vector<std::string> queued;
            for (size_t a = 0; a < schema.size(); ++a) {
              const std::string& name = schema.attribute(a).name();
              if (std::find(repaired.begin(), repaired.end(), name) == repaired.end()) queued.push_back(name);
            }
            v1::EditorState editor;
            for (v1::Annotation& e : editor_annotations) {
              if (std::find(repaired.begin(), repaired.end(), e.attribute()) != repaired.end()) {
                *editor.add_annotations() = std::move(e);
              }
            }
            editor.set_state(queued.empty() ? v1::DONE : v1::NEEDS_MORE_PAGES);
            for (size_t i = 0; i < k && !queued.empty(); ++i) {
              v1::AnnotationTask* t = editor.add_tasks();
              t->set_site(site_id);
              t->set_cluster_id(record.cluster_id());
              t->set_url(bellwethers[i]);
              t->set_rank(static_cast<int32_t>(i + 1));
              t->set_importance(record.importance());
              t->set_reason("automatic repair annotated " + absl::StrJoin(repaired, ", ") +
                            " from golden values; annotate " + absl::StrJoin(queued, ", ") + " here");
            }
            commit.editor = std::move(editor);
            commits.push_back(std::move(commit));
            out->set_outcome(v1::ClusterOutcome::REPAIRED);
            out->set_version(-1);
            for (const std::string& a : repaired) out->add_repaired_attributes(a);
            for (const std::string& a : queued) out->add_queued_attributes(a);
            out->set_reason(queued_reason);
            response.set_repaired(response.repaired() + 1);
            continue;
          }
        } else {
          queued_reason += "; repair learnt no attribute from the golden values";
          if (learnt) {
            for (const learn::AttributeDiagnostic& d : learnt->learnt.diagnostics) {
              if (!d.learnt) queued_reason += " (" + d.attribute + ": " + d.message + ")";
            }
          }
        }
      }
    }
    // Queued for annotation: Algorithm 2's picks of the fresh cluster.
    out->set_outcome(v1::ClusterOutcome::QUEUED);
    out->set_reason(queued_reason);
    for (size_t a = 0; a < schema.size(); ++a) out->add_queued_attributes(schema.attribute(a).name());
    response.set_queued(response.queued() + 1);
    v1::EditorState editor;
    editor.set_state(v1::NEEDS_MORE_PAGES);
    for (v1::AnnotationTask& t : SampleTasks(record, sample_cluster, sc.state)) {
      t.set_reason("relearn: " + t.reason());
      *editor.add_tasks() = std::move(t);
    }
    *record.mutable_editor() = std::move(editor);
  }
  // Old clusters taken over by a new one are no longer separate.
  std::vector<v1::ClusterRecord> records(sc.assigned.records.begin(), sc.assigned.records.begin() + n);
  for (size_t i = n; i < sc.assigned.records.size(); ++i) {
    if (!claimed.count(sc.assigned.records[i].cluster_id())) records.push_back(sc.assigned.records[i]);
  }

  // 4. Store: the fresh sample, its clustering, the new rule versions.
  std::vector<v1::SamplePage> pages;
  for (const FreshPage& f : fresh) {
    v1::SamplePage p;
    p.set_url(f.url);
    p.set_html(f.html);
    p.set_added_unix_ms(NowMs());
    p.set_shingle_vector(std::string(f.vector.begin(), f.vector.end()));
    pages.push_back(std::move(p));
  }
  // One write: a crash must not leave the fresh sample without its
  // clustering, or clusters whose repaired rules are missing.
  VERTEX_ASSIGN_OR_RETURN(const std::vector<int64_t> committed,
                          rule_store->ReplaceSampleAndCommit(site_id, pages, sc.state, records, commits));
  std::map<std::string, int64_t> versions;
  for (size_t i = 0; i < commits.size(); ++i) versions[commits[i].rule.cluster_id()] = committed[i];
  for (v1::ClusterOutcome& out : *response.mutable_clusters()) {
    if (out.version() == -1) out.set_version(versions[out.cluster_id()]);
  }
  lock.Release();
  context.notify(site_id);
  return response;
}

}  // namespace vertex::monitor
