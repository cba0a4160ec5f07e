#include "common/workflow/rule_transfer.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/util/status_macros.h"
#include "common/workflow/editor_loop.h"

namespace vertex::workflow {
namespace {

// The first failure of `verdict` (pages failing it, first URL), or "".
std::string FirstFailure(const EditorVerdict& verdict, const std::vector<size_t>& pages, const PagePool& pool) {
  if (verdict.issues.empty()) return "";
  const PageIssue& first = verdict.issues.front();
  size_t failing = 0;
  size_t last = SIZE_MAX;
  for (const PageIssue& issue : verdict.issues) {
    if (issue.attribute != first.attribute || issue.page == last) continue;
    last = issue.page;
    ++failing;
  }
  absl::StatusOr<site::PageFile> file = pool.Read(pages[first.page]);
  const std::string url = file.ok() ? file->url : absl::StrCat("page ", pages[first.page]);
  return absl::StrCat(first.attribute, " ", first.problem, " on ", failing, " of ", pages.size(),
                      " sample pages, first ", url);
}

}  // namespace

absl::StatusOr<TransferVerdict> TryRule(const extract::CompiledRule& rule, const std::vector<size_t>& pages,
                                        const PagePool& pool, int threads) {
  const std::vector<v1::AttributeRule> alternatives(rule.proto().alternatives().begin(),
                                                    rule.proto().alternatives().end());
  const RuleChecker checker(rule, alternatives);
  VERTEX_ASSIGN_OR_RETURN(EditorVerdict verdict, CheckPages(checker, pages, pool, threads));
  TransferVerdict out;
  out.pages = pages.size();
  if (!verdict.done) {
    out.reason = FirstFailure(verdict, pages, pool);
    return out;
  }
  for (const std::string& name : rule.proto().always_extracted()) {
    const int i = rule.schema().Find(name);
    if (i < 0) continue;
    const size_t with = verdict.extracted[static_cast<size_t>(i)];
    if (with < pages.size()) {
      out.reason = absl::StrCat(name, " (always extracted on its own cluster) missing on ", pages.size() - with,
                                " of ", pages.size(), " sample pages");
      return out;
    }
  }
  out.passes = !pages.empty();
  out.reason = pages.empty() ? "no sample page to try the rule on"
                             : absl::StrCat("passed on ", pages.size(), " of ", pages.size(),
                                            " sample pages: every mandatory and always-extracted attribute, "
                                            "no ambiguity, no runner-up XPath disagreeing");
  return out;
}

absl::Status MergeSampleClusters(const std::string& into, const std::string& from, v1::SampleState* state) {
  if (into == from) return absl::InvalidArgumentError("cannot merge cluster \"" + into + "\" into itself");
  v1::SampleCluster* target = nullptr;
  int source = -1;
  for (int i = 0; i < state->clusters_size(); ++i) {
    if (state->clusters(i).cluster_id() == into) target = state->mutable_clusters(i);
    if (state->clusters(i).cluster_id() == from) source = i;
  }
  if (target == nullptr || source < 0) {
    return absl::InvalidArgumentError("cluster \"" + (target == nullptr ? into : from) +
                                      "\" is not in the sample's clustering");
  }
  const v1::SampleCluster& s = state->clusters(source);
  std::set<uint32_t> pages(target->pages().begin(), target->pages().end());
  pages.insert(s.pages().begin(), s.pages().end());
  std::set<uint32_t> attached(target->attached().begin(), target->attached().end());
  attached.insert(s.attached().begin(), s.attached().end());
  target->mutable_pages()->Assign(pages.begin(), pages.end());
  target->mutable_attached()->Assign(attached.begin(), attached.end());
  for (int i = 0; i < s.annotation_order_size(); ++i) {
    target->add_annotation_order(s.annotation_order(i));
    target->add_added_weight(i < s.added_weight_size() ? s.added_weight(i) : 0);
  }
  state->mutable_clusters()->DeleteSubrange(source, 1);
  return absl::OkStatus();
}

absl::Status MergeClusterRecords(const v1::ClusterRecord& from, int64_t rule_version, const std::string& reason,
                                 int64_t now_ms, const v1::SampleState& state,
                                 const urlpattern::UrlRegexOptions& url_options, v1::ClusterRecord* into) {
  v1::MergedCluster* m = into->add_merged();
  m->set_cluster_id(from.cluster_id());
  m->set_signature(from.signature());
  m->set_importance(from.importance());
  m->set_rule_version(rule_version);
  m->set_reason(reason);
  m->set_merged_unix_ms(now_ms);
  for (const v1::SampleCluster& c : state.clusters()) {
    if (c.cluster_id() != into->cluster_id()) continue;
    std::vector<std::string> urls;
    for (uint32_t p : c.pages()) urls.push_back(state.urls(static_cast<int>(p)));
    for (uint32_t p : c.attached()) urls.push_back(state.urls(static_cast<int>(p)));
    VERTEX_ASSIGN_OR_RETURN(std::string regex, urlpattern::InferUrlRegex(urls, url_options));
    into->set_url_regex(std::move(regex));
  }
  for (const v1::MergedCluster& earlier : from.merged()) *into->add_merged() = earlier;
  into->set_importance(into->importance() + from.importance());
  return absl::OkStatus();
}

v1::Rule MergedRule(const v1::Rule& rule, const v1::ClusterRecord& into, int64_t now_ms) {
  v1::Rule out = rule;
  out.clear_version();
  out.set_created_unix_ms(now_ms);
  out.set_url_regex(into.url_regex());
  out.set_importance(into.importance());
  out.clear_extra_signatures();
  std::set<std::string> seen = {into.signature()};
  for (const v1::MergedCluster& m : into.merged()) {
    if (seen.insert(m.signature()).second) out.add_extra_signatures(m.signature());
  }
  return out;
}

}  // namespace vertex::workflow
