// LearningEngine::Learn: annotations of one cluster -> rule, stored with the
// editor's state (learning_engine.h).
#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/extract/record_proto.h"
#include "common/html/xpath.h"
#include "common/learn/rule_learner.h"
#include "common/monitor/bellwethers.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"
#include "common/workflow/annotations.h"
#include "common/workflow/learning_engine.h"
#include "common/monitor/bellwethers.h"
#include "common/workflow/rule_transfer.h"
#include "common/workflow/sample_view.h"

namespace vertex::workflow {
namespace {

std::string UrlOf(const v1::Annotation& a) { return a.url().empty() ? a.file() : a.url(); }

// The request's annotations, each checked against the schema.
absl::StatusOr<std::vector<v1::Annotation>> CheckAnnotations(const v1::LearnRequest& request,
                                                             const schema::CompiledSchema& schema) {
  std::vector<v1::Annotation> out;
  for (int i = 0; i < request.annotations_size(); ++i) {
    const std::string where = absl::StrCat("annotations[", i, "]: ");
    absl::StatusOr<v1::Annotation> a = NormalizeAnnotation(request.annotations(i));
    if (!a.ok()) return absl::InvalidArgumentError(where + std::string(a.status().message()));
    const int attr = schema.Find(a->attribute());
    if (attr < 0) {
      std::vector<std::string> names;
      for (size_t k = 0; k < schema.size(); ++k) names.push_back(schema.attribute(k).name());
      return absl::InvalidArgumentError(where + "unknown attribute \"" + a->attribute() + "\" (schema " +
                                        schema.vertical() + " has " + absl::StrJoin(names, ", ") + ")");
    }
    if (a->values_size() > 1 && !schema.attribute(static_cast<size_t>(attr)).multi_valued()) {
      return absl::InvalidArgumentError(where + "several values for single-valued attribute \"" + a->attribute() +
                                        "\"");
    }
    if (a->partial() && !schema.attribute(static_cast<size_t>(attr)).multi_valued()) {
      return absl::InvalidArgumentError(where + "\"partial\" (the first values of a list) on single-valued attribute \"" +
                                        a->attribute() + "\"");
    }
    if (!a->xpath().empty()) {
      absl::StatusOr<html::XPath> x = html::XPath::Compile(a->xpath());
      if (!x.ok()) return absl::InvalidArgumentError(where + std::string(x.status().message()));
    }
    a->set_url(UrlOf(*a));
    a->clear_file();
    out.push_back(*std::move(a));
  }
  return out;
}

// Stored annotations, then the new ones: an attribute of a page annotated
// now loses its earlier annotations (others of the page are kept, e.g. those
// automatic repair made).
std::vector<v1::Annotation> MergeAnnotations(const v1::EditorState& stored, bool replace,
                                             const std::vector<v1::Annotation>& fresh) {
  std::set<std::pair<std::string, std::string>> fresh_keys;
  for (const v1::Annotation& a : fresh) fresh_keys.insert({a.url(), a.attribute()});
  std::vector<v1::Annotation> out;
  if (!replace) {
    for (const v1::Annotation& a : stored.annotations()) {
      if (!fresh_keys.count({UrlOf(a), a.attribute()})) out.push_back(a);
    }
  }
  out.insert(out.end(), fresh.begin(), fresh.end());
  return out;
}

absl::StatusOr<std::vector<learn::AttributeAnnotation>> ToLearnAnnotations(
    const std::vector<v1::Annotation>& annotations, const v1::SampleState& state, const v1::SampleCluster& c) {
  std::map<std::string, size_t> index_of;
  for (int i = 0; i < state.urls_size(); ++i) index_of[state.urls(i)] = static_cast<size_t>(i);
  std::set<uint32_t> members(c.pages().begin(), c.pages().end());
  members.insert(c.attached().begin(), c.attached().end());
  std::vector<learn::AttributeAnnotation> out;
  for (const v1::Annotation& a : annotations) {
    auto it = index_of.find(UrlOf(a));
    if (it == index_of.end() || !members.count(static_cast<uint32_t>(it->second))) {
      return absl::NotFoundError("annotated page " + UrlOf(a) + " is not a sample page of cluster \"" +
                                 c.cluster_id() + "\"");
    }
    learn::AttributeAnnotation l;
    l.page = it->second;
    l.attribute = a.attribute();
    l.values.assign(a.values().begin(), a.values().end());
    l.xpath = a.xpath();
    l.record = a.record();
    l.partial = a.partial();
    out.push_back(std::move(l));
  }
  return out;
}

// Per attribute, where the rule fails: pages, and up to 10 URLs with what.
std::vector<v1::AttributeFailure> FailuresOf(const ClusterLearnResult& r, const site::SiteClustering& view) {
  std::map<std::string, v1::AttributeFailure> by_attribute;
  std::map<std::string, size_t> last_page;  // attribute -> last page counted (+1)
  std::vector<std::string> order;
  for (const PageIssue& issue : r.verdict.issues) {
    auto [it, added] = by_attribute.try_emplace(issue.attribute);
    if (added) {
      it->second.set_attribute(issue.attribute);
      order.push_back(issue.attribute);
    }
    v1::AttributeFailure& f = it->second;
    if (last_page[issue.attribute] == issue.page + 1) continue;  // one count per page
    last_page[issue.attribute] = issue.page + 1;
    f.set_pages(f.pages() + 1);
    if (f.urls_size() < 10) {
      f.add_urls(view.pages[r.remaining[issue.page]].url);
      f.add_problems(issue.problem);
    }
  }
  std::vector<v1::AttributeFailure> out;
  for (const std::string& a : order) out.push_back(std::move(by_attribute[a]));
  return out;
}

// The editor loop's verdict as a state and the pages to annotate next.
v1::EditorState EditorStateOf(const ClusterLearnResult& r, const v1::ClusterRecord& cluster,
                              const site::SiteClustering& view, std::vector<v1::Annotation> annotations) {
  v1::EditorState editor;
  editor.mutable_annotations()->Assign(annotations.begin(), annotations.end());
  editor.set_pages_checked(static_cast<uint32_t>(r.verdict.pages_checked));
  if (r.verdict.done && HasParts(r.learnt.rule)) {
    editor.set_state(v1::DONE);
    return editor;
  }
  for (v1::AttributeFailure& f : FailuresOf(r, view)) *editor.add_failing() = std::move(f);
  editor.set_state(r.next_page ? v1::NEEDS_MORE_PAGES : v1::EXHAUSTED);
  std::map<size_t, std::vector<std::string>> problems;  // page -> issues, in the loop's order
  std::vector<size_t> order;
  for (const PageIssue& issue : r.verdict.issues) {
    const size_t page = r.remaining[issue.page];
    if (!problems.count(page)) order.push_back(page);
    problems[page].push_back(issue.attribute + ": " + issue.problem);
  }
  if (order.empty() && r.next_page) order.push_back(*r.next_page);  // nothing learnt yet
  for (size_t i = 0; i < order.size() && i < 10; ++i) {
    v1::AnnotationTask* t = editor.add_tasks();
    t->set_site(cluster.site());
    t->set_cluster_id(cluster.cluster_id());
    t->set_url(view.pages[order[i]].url);
    t->set_rank(static_cast<int32_t>(i + 1));
    t->set_importance(cluster.importance());
    t->set_reason(problems.count(order[i]) ? "the rule fails here: " + absl::StrJoin(problems[order[i]], "; ")
                                           : "no attribute could be learnt yet: annotate this page");
  }
  return editor;
}

v1::AttributeDiagnostic DiagnosticToProto(const learn::AttributeDiagnostic& d) {
  v1::AttributeDiagnostic p;
  p.set_attribute(d.attribute);
  p.set_code(learn::DiagnosticCodeName(d.code));
  p.set_learnt(d.learnt);
  p.set_message(d.message);
  for (const std::string& u : d.pages) p.add_pages(u);
  p.set_cap_hit(d.cap_hit);
  return p;
}

// What the rule extracts from up to `limit` of the sample pages not
// annotated.
absl::StatusOr<std::vector<v1::ExtractedRecord>> Preview(const ClusterLearnResult& r, const std::string& site,
                                                         const schema::CompiledSchema& schema, PagePool& pool,
                                                         size_t limit, int64_t version) {
  std::vector<v1::ExtractedRecord> out;
  if (!r.compiled || r.compiled->record_level()) return out;
  for (size_t i = 0; i < r.remaining.size() && out.size() < limit; ++i) {
    VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(r.remaining[i]));
    extract::Record record;
    record.url = page->url();
    record.cluster_id = r.learnt.rule.cluster_id();
    record.rule_version = version;
    record.parsed = true;
    VERTEX_ASSIGN_OR_RETURN(record.attributes, r.compiled->Apply(*page));
    for (const extract::AttributeResult& a : record.attributes) {
      const int k = schema.Find(a.attribute);
      if (k >= 0 && schema.attribute(static_cast<size_t>(k)).mandatory() && a.values.empty()) {
        record.missing_mandatory.push_back(a.attribute);
      }
    }
    record.status = record.missing_mandatory.empty() ? extract::RecordStatus::kOk : extract::RecordStatus::kPartial;
    out.push_back(extract::RecordToProto(record, site, true));
  }
  return out;
}

// A record-level rule's records on up to `limit` of the sample pages not
// annotated, as Extract answers them.
absl::StatusOr<std::vector<v1::ExtractResponse>> ListPreview(const ClusterLearnResult& r, const std::string& site,
                                                             PagePool& pool, size_t limit, int64_t version) {
  std::vector<v1::ExtractResponse> out;
  if (!r.compiled || !r.compiled->record_level()) return out;
  for (size_t i = 0; i < r.remaining.size() && out.size() < limit; ++i) {
    VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(r.remaining[i]));
    VERTEX_ASSIGN_OR_RETURN(extract::ListResult list, r.compiled->ApplyRecords(*page));
    extract::Record record;
    record.url = page->url();
    record.cluster_id = r.learnt.rule.cluster_id();
    record.rule_version = version;
    record.parsed = true;
    record.record_level = true;
    record.list_records = std::move(list.records);
    record.notes = std::move(list.notes);
    record.status = record.list_records.empty() ? extract::RecordStatus::kPartial : extract::RecordStatus::kOk;
    v1::ExtractResponse response;
    extract::RecordToResponse(record, site, false, &response);
    out.push_back(std::move(response));
  }
  return out;
}

store::RuleCommit CommitOf(const ClusterLearnResult& r, PagePool& pool, v1::EditorState editor) {
  store::RuleCommit commit;
  commit.rule = r.learnt.rule;
  for (size_t p : r.learning_pages) {
    const site::PageFile* file = pool.File(p);
    if (file == nullptr) continue;
    v1::PageSnapshot snap;
    snap.set_url(file->url);
    snap.set_html(file->bytes);
    snap.set_fetched_unix_ms(r.learnt.rule.created_unix_ms());
    commit.snapshots.push_back(std::move(snap));
  }
  commit.editor = std::move(editor);
  return commit;
}


// Attributes `current` has a rule for and `rule` has none for.
std::vector<std::string> AttributesDropped(const v1::Rule& current, const v1::Rule& rule) {
  std::set<std::string> kept;
  for (const v1::AttributeRule& a : rule.attributes()) kept.insert(a.attribute());
  for (const v1::AttributeRule& a : rule.record().attributes()) kept.insert(a.attribute());
  std::vector<std::string> lost;
  for (const v1::AttributeRule& a : current.has_record() ? current.record().attributes() : current.attributes()) {
    if (!kept.count(a.attribute())) lost.push_back(a.attribute());
  }
  return lost;
}

// The annotated sample pages (indices), in order of first annotation.
std::vector<size_t> AnnotatedPageIndices(const std::vector<learn::AttributeAnnotation>& annotations) {
  std::vector<size_t> out;
  for (const learn::AttributeAnnotation& a : annotations) {
    if (std::find(out.begin(), out.end(), a.page) == out.end()) out.push_back(a.page);
  }
  return out;
}

void AddFailures(const v1::EditorState& editor, v1::LearnResponse* response) {
  response->set_state(editor.state());
  response->set_needs_more_pages(editor.state() != v1::DONE);
  for (const v1::AnnotationTask& t : editor.tasks()) *response->add_next() = t;
  response->mutable_failing()->CopyFrom(editor.failing());
  response->set_pages_checked(editor.pages_checked());
}

// The index of the sample's first unused cluster id "c<n>".
std::string FreeClusterId(const std::vector<v1::ClusterRecord>& records) {
  std::set<std::string> used;
  for (const v1::ClusterRecord& r : records) used.insert(r.cluster_id());
  int n = 0;
  while (used.count(absl::StrCat("c", n))) ++n;
  return absl::StrCat("c", n);
}

shingle::ShingleVector VectorOf(const v1::SampleState& state, uint32_t page) {
  shingle::ShingleVector v{};
  if (static_cast<int>(page) < state.vectors_size() && state.vectors(static_cast<int>(page)).size() == v.size()) {
    const std::string& bytes = state.vectors(static_cast<int>(page));
    std::copy(bytes.begin(), bytes.end(), v.begin());
  }
  return v;
}

// Of the 37 masked vectors covering `v`, the one covering the most of
// `pages` (ties: more wildcards, then CoveringVectors order), as Algorithm
// 1 would choose over the pages no cluster kept.
shingle::MaskedVector BestCover(const shingle::ShingleVector& v, const std::vector<uint32_t>& pages,
                                const v1::SampleState& state) {
  const auto covering = shingle::CoveringVectors(v);
  size_t best = 0, best_count = 0;
  for (size_t i = 0; i < covering.size(); ++i) {
    size_t count = 0;
    for (uint32_t p : pages) count += covering[i].Covers(VectorOf(state, p));
    if (count > best_count ||
        (count == best_count && covering[i].wildcard_count() > covering[best].wildcard_count())) {
      best = i;
      best_count = count;
    }
  }
  return covering[best];
}

}  // namespace

absl::StatusOr<std::string> LearningEngine::CreateClusterForUnassigned(const std::string& site,
                                                                        const std::vector<v1::Annotation>& fresh) {
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(site));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> records, store_->ClustersOfSite(site));
  if (fresh.empty()) return absl::InvalidArgumentError("annotations: none given, and no cluster_id");
  const std::vector<PageLocation> where = LocateSamplePages(state, records);
  std::map<std::string, uint32_t> index_of;
  for (int i = 0; i < state.urls_size(); ++i) index_of.emplace(state.urls(i), static_cast<uint32_t>(i));
  std::vector<uint32_t> annotated;
  for (const v1::Annotation& a : fresh) {
    auto it = index_of.find(a.url());
    if (it == index_of.end()) return absl::NotFoundError("annotated page " + a.url() + " is not a sample page");
    if (where[it->second].how != "unassigned") {
      return absl::InvalidArgumentError("annotated page " + a.url() + " is in cluster \"" +
                                        where[it->second].cluster_id + "\" (" + where[it->second].how +
                                        "): give that cluster_id");
    }
    if (std::find(annotated.begin(), annotated.end(), it->second) == annotated.end()) annotated.push_back(it->second);
  }
  const std::vector<uint32_t> unassigned(state.unassigned().begin(), state.unassigned().end());
  const shingle::MaskedVector signature = BestCover(VectorOf(state, annotated[0]), unassigned, state);
  v1::SampleCluster sc;
  sc.set_cluster_id(FreeClusterId(records));
  std::vector<uint32_t> rest;
  std::vector<std::string> urls;
  for (uint32_t p : unassigned) {
    const bool covered = signature.Covers(VectorOf(state, p));
    if (covered) sc.add_pages(p);
    if (!covered && std::find(annotated.begin(), annotated.end(), p) != annotated.end()) sc.add_attached(p);
    if (covered || std::find(annotated.begin(), annotated.end(), p) != annotated.end()) {
      urls.push_back(state.urls(static_cast<int>(p)));
      if (sc.annotation_order_size() < static_cast<int>(options_.cluster.annotation.max_pages)) {
        sc.add_annotation_order(p);
        sc.add_added_weight(0);
      }
    } else {
      rest.push_back(p);
    }
  }
  state.mutable_unassigned()->Assign(rest.begin(), rest.end());
  v1::ClusterRecord record;
  record.set_site(site);
  record.set_cluster_id(sc.cluster_id());
  record.set_signature(signature.ToText());
  record.set_importance(sc.pages_size());
  VERTEX_ASSIGN_OR_RETURN(*record.mutable_url_regex(), urlpattern::InferUrlRegex(urls, options_.cluster.url));
  *state.add_clusters() = sc;
  records.push_back(record);
  VERTEX_RETURN_IF_ERROR(store_->PutSampleClustering(site, state, records));
  return sc.cluster_id();
}

absl::Status LearningEngine::LearnLocked(const v1::LearnRequest& request, const std::string& cluster_id,
                                         const schema::CompiledSchema& schema,
                                         const std::vector<v1::Annotation>& fresh, v1::LearnResponse* response,
                                         bool candidate) {
  const std::string& site = request.site();
  VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord cluster, store_->GetCluster(site, cluster_id));
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(site));
  const v1::SampleCluster* sc = FindSampleCluster(state, cluster.cluster_id());
  if (sc == nullptr) {
    return absl::FailedPreconditionError("cluster \"" + cluster.cluster_id() +
                                         "\" is not in the current clustering of the sample of site \"" + site +
                                         "\"");
  }
  std::vector<v1::Annotation> merged = MergeAnnotations(cluster.editor(), request.replace(), fresh);
  VERTEX_ASSIGN_OR_RETURN(std::vector<learn::AttributeAnnotation> annotations, ToLearnAnnotations(merged, state, *sc));
  VERTEX_ASSIGN_OR_RETURN(site::SiteClustering view, ClusterView(state, cluster, *sc));
  VERTEX_ASSIGN_OR_RETURN(const html::ParseOptions parse, SiteParse(site));
  PagePool pool(view, parse, StoreLoader(store_, site), CacheFor(site, state));
  ClusterLearnOptions learn_options = options_.learn;
  if (schema.proto().record_level()) {
    VERTEX_ASSIGN_OR_RETURN(learn_options.gazetteers, GazetteersFor(schema));
  }
  VERTEX_ASSIGN_OR_RETURN(ClusterLearnResult r, LearnCluster(schema, view, 0, annotations, pool, learn_options));
  r.learnt.rule.set_site(site);
  r.learnt.rule.set_cluster_id(cluster.cluster_id());
  // The merged rule is a temporary: a range-for over its member would read
  // it after its destruction.
  const v1::Rule merged_rule = MergedRule(r.learnt.rule, cluster, 0);
  for (const std::string& s : merged_rule.extra_signatures()) r.learnt.rule.add_extra_signatures(s);
  for (const learn::AttributeDiagnostic& d : r.learnt.diagnostics) *response->add_diagnostics() = DiagnosticToProto(d);
  std::set<std::string> annotated;
  for (const v1::Annotation& a : merged) {
    if (annotated.insert(a.url()).second) response->add_annotated_urls(a.url());
  }
  v1::EditorState editor = EditorStateOf(r, cluster, view, merged);
  if (cluster.current_version() > 0 && !request.allow_attribute_loss() && HasParts(r.learnt.rule)) {
    VERTEX_ASSIGN_OR_RETURN(v1::Rule current, store_->GetRule(site, cluster.cluster_id(), store::kCurrentVersion));
    const std::vector<std::string> lost = AttributesDropped(current, r.learnt.rule);
    if (!lost.empty()) {
      response->set_refused(true);
      for (const std::string& a : lost) response->add_lost_attributes(a);
      response->set_refused_reason(absl::StrCat("version ", current.version(), " has a rule for ",
                                                absl::StrJoin(lost, ", "), "; this one has none (see the diagnostics): "
                                                "nothing stored; annotate again, or set allow_attribute_loss"));
      AddFailures(cluster.editor(), response);
      return absl::OkStatus();
    }
  }
  AddFailures(editor, response);
  if (HasParts(r.learnt.rule)) {
    store::RuleCommit commit = CommitOf(r, pool, editor);
    commit.candidate = candidate;
    if (r.compiled) {
      VERTEX_RETURN_IF_ERROR(monitor::AddBellwethers(*r.compiled, state, *sc, AnnotatedPageIndices(annotations), pool,
                                            options_.bellwethers, &commit));
    }
    VERTEX_ASSIGN_OR_RETURN(const int64_t version, store_->CommitRule(commit));
    response->set_version(version);
    VERTEX_ASSIGN_OR_RETURN(*response->mutable_rule(), store_->GetRule(site, cluster.cluster_id(), version));
  } else {
    VERTEX_RETURN_IF_ERROR(store_->PutEditorState(site, cluster.cluster_id(), editor));
  }
  const size_t limit = request.preview_pages() > 0 ? request.preview_pages() : options_.preview_pages;
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ExtractedRecord> preview,
                          Preview(r, site, schema, pool, limit, response->version()));
  response->mutable_preview()->Assign(preview.begin(), preview.end());
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ExtractResponse> lists,
                          ListPreview(r, site, pool, limit, response->version()));
  response->mutable_list_preview()->Assign(lists.begin(), lists.end());
  return absl::OkStatus();
}

absl::StatusOr<v1::LearnResponse> LearningEngine::LearnCandidateLocked(const v1::LearnRequest& request,
                                                                       const schema::CompiledSchema& schema) {
  if (request.annotations_size() > static_cast<int>(options_.max_annotations_per_call)) {
    return absl::InvalidArgumentError(absl::StrCat("annotations: ", request.annotations_size(),
                                                   " annotations in one call; at most ",
                                                   options_.max_annotations_per_call));
  }
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::Annotation> fresh, CheckAnnotations(request, schema));
  v1::LearnResponse response;
  VERTEX_RETURN_IF_ERROR(LearnLocked(request, request.cluster_id(), schema, fresh, &response, true));
  return response;
}

absl::StatusOr<v1::LearnResponse> LearningEngine::Learn(const v1::LearnRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  if (request.annotations_size() > static_cast<int>(options_.max_annotations_per_call)) {
    return absl::InvalidArgumentError(absl::StrCat("annotations: ", request.annotations_size(),
                                                   " annotations in one call; at most ",
                                                   options_.max_annotations_per_call));
  }
  if (!request.cluster_id().empty()) VERTEX_RETURN_IF_ERROR(store::ValidateId("cluster_id", request.cluster_id()));
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site, store_->GetSite(request.site()));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromProto(site.schema()));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::Annotation> fresh, CheckAnnotations(request, schema));
  v1::LearnResponse response;
  {
    absl::MutexLock lock(SiteLock(request.site()));
    std::string cluster_id = request.cluster_id();
    if (cluster_id.empty()) {
      VERTEX_ASSIGN_OR_RETURN(cluster_id, CreateClusterForUnassigned(request.site(), fresh));
      response.set_created_cluster(cluster_id);
    }
    VERTEX_RETURN_IF_ERROR(LearnLocked(request, cluster_id, schema, fresh, &response));
    if (response.state() == v1::DONE && response.version() > 0) {
      VERTEX_ASSIGN_OR_RETURN(std::vector<v1::TransferredCluster> transferred,
                              TransferRules(request.site(), schema, {cluster_id}));
      response.mutable_transferred()->Assign(transferred.begin(), transferred.end());
    }
  }
  Notify(request.site());
  return response;
}

}  // namespace vertex::workflow
