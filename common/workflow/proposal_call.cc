// AddListProposals (list_proposals.h): the evidence of a cluster read from
// the store, and the proposals of each task's page.
#include <map>
#include <memory>
#include <optional>

#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/html/text.h"
#include "common/util/status_macros.h"
#include "common/workflow/list_proposals.h"

namespace vertex::workflow {
namespace {

// Annotated pages read per cluster for evidence, at most.
constexpr size_t kEvidencePages = 5;

struct ClusterContext {
  std::map<std::string, AttributeEvidence> evidence;  // from the annotations
  std::optional<extract::CompiledRule> rule;          // the current rule
};

class Proposer {
 public:
  Proposer(const store::RuleStore& store, std::string site, const html::ParseOptions& parse,
           const schema::CompiledSchema& schema, v1::ListModel model, const ProposalOptions& options)
      : store_(store), site_(std::move(site)), parser_(parse), schema_(schema), model_(std::move(model)),
        options_(options) {}

  absl::Status Load() {
    VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_.GetSampleState(site_));
    for (int i = 0; i < state.urls_size(); ++i) index_of_[state.urls(i)] = static_cast<uint32_t>(i);
    VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> clusters, store_.ClustersOfSite(site_));
    for (v1::ClusterRecord& c : clusters) clusters_[c.cluster_id()] = std::move(c);
    return absl::OkStatus();
  }

  void Propose(v1::AnnotationTask* task) {
    auto c = clusters_.find(task->cluster_id());
    if (c == clusters_.end()) return;
    const ClusterContext& context = ContextOf(c->second);
    std::optional<html::Page> page = PageOf(task->url());
    if (!page) return;
    std::map<std::string, AttributeEvidence> evidence = context.evidence;
    if (context.rule) AddRuleEvidence(*context.rule, *page, &evidence);
    absl::StatusOr<std::vector<v1::ProposedList>> proposed = ProposeLists(model_, schema_, *page, evidence, options_);
    if (!proposed.ok()) return;  // a model that does not load: no proposal
    task->mutable_proposed()->Assign(proposed->begin(), proposed->end());
  }

 private:
  std::optional<html::Page> PageOf(const std::string& url) {
    auto it = index_of_.find(url);
    if (it == index_of_.end()) return std::nullopt;
    absl::StatusOr<v1::SamplePage> stored = store_.GetSamplePage(site_, it->second);
    if (!stored.ok()) return std::nullopt;
    absl::StatusOr<html::Page> page = parser_.Parse(stored->html(), stored->url());
    if (!page.ok()) return std::nullopt;
    return *std::move(page);
  }

  const ClusterContext& ContextOf(const v1::ClusterRecord& c) {
    auto [it, inserted] = contexts_.try_emplace(c.cluster_id());
    if (!inserted) return it->second;
    ClusterContext& context = it->second;
    std::map<std::string, std::vector<const v1::Annotation*>> by_page;
    for (const v1::Annotation& a : c.editor().annotations()) {
      const int index = schema_.Find(a.attribute());
      if (index >= 0 && schema_.attribute(index).multi_valued() && a.values_size() > 0) by_page[a.url()].push_back(&a);
    }
    size_t pages = 0;
    for (const auto& [url, annotations] : by_page) {
      if (pages++ >= kEvidencePages) break;
      std::optional<html::Page> page = PageOf(url);
      if (!page) continue;
      for (const v1::Annotation* a : annotations) {
        AttributeEvidence& e = context.evidence[a->attribute()];
        ++e.annotated_pages;
        AddValueEvidence(*page, {a->values().begin(), a->values().end()}, &e);
      }
    }
    if (absl::StatusOr<v1::Rule> rule = store_.GetRule(site_, c.cluster_id(), store::kCurrentVersion); rule.ok()) {
      absl::StatusOr<extract::CompiledRule> compiled = extract::CompiledRule::Create(*rule, schema_);
      if (compiled.ok()) context.rule.emplace(*std::move(compiled));
    }
    return context;
  }

  void AddRuleEvidence(const extract::CompiledRule& rule, const html::Page& page,
                       std::map<std::string, AttributeEvidence>* evidence) const {
    absl::StatusOr<std::vector<extract::AttributeResult>> results = rule.Apply(page);
    if (!results.ok()) return;
    for (const extract::AttributeResult& r : *results) {
      const int index = schema_.Find(r.attribute);
      if (index < 0 || !schema_.attribute(index).multi_valued() || r.values.empty()) continue;
      AttributeEvidence& e = (*evidence)[r.attribute];
      e.rule_values = true;
      for (const std::string& v : r.values) e.page_values.insert(html::FoldText(v));
      AddValueEvidence(page, r.values, &e);
    }
  }

  const store::RuleStore& store_;
  const std::string site_;
  html::Parser parser_;
  const schema::CompiledSchema& schema_;
  const v1::ListModel model_;
  const ProposalOptions options_;
  std::map<std::string, uint32_t> index_of_;
  std::map<std::string, v1::ClusterRecord> clusters_;
  std::map<std::string, ClusterContext> contexts_;
};

bool HasMultiValued(const schema::CompiledSchema& schema) {
  for (size_t i = 0; i < schema.size(); ++i) {
    if (schema.attribute(i).multi_valued()) return true;
  }
  return false;
}

}  // namespace

absl::Status AddListProposals(const store::RuleStore& store, const std::string& site,
                              const html::ParseOptions& parse, v1::GetAnnotationTasksResponse* response,
                              const ProposalOptions& options) {
  if (response->tasks_size() == 0) return absl::OkStatus();
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord record, store.GetSite(site));
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromProto(record.schema());
  if (!schema.ok() || schema->record_level() || !HasMultiValued(*schema)) return absl::OkStatus();
  // No model, or one that does not read: no proposals.
  absl::StatusOr<v1::ListModel> model = store.GetListModel(store::kCurrentVersion);
  if (!model.ok()) return absl::OkStatus();
  Proposer proposer(store, site, parse, *schema, *std::move(model), options);
  VERTEX_RETURN_IF_ERROR(proposer.Load());
  std::map<std::pair<std::string, std::string>, const v1::AnnotationTask*> by_page;
  for (v1::AnnotationTask& t : *response->mutable_tasks()) {
    if (t.cluster_id().empty()) continue;
    proposer.Propose(&t);
    by_page.emplace(std::make_pair(t.cluster_id(), t.url()), &t);
  }
  // A cluster's next page is one of its tasks: the same proposals.
  for (v1::ClusterProgress& p : *response->mutable_clusters()) {
    auto it = by_page.find({p.next().cluster_id(), p.next().url()});
    if (p.has_next() && it != by_page.end()) *p.mutable_next()->mutable_proposed() = it->second->proposed();
  }
  return absl::OkStatus();
}

}  // namespace vertex::workflow
