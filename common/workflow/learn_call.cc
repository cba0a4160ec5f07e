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
  const std::set<uint32_t> members(c.pages().begin(), c.pages().end());
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
    out.push_back(std::move(l));
  }
  return out;
}

// The editor loop's verdict as a state and the pages to annotate next.
v1::EditorState EditorStateOf(const ClusterLearnResult& r, const v1::ClusterRecord& cluster,
                              const site::SiteClustering& view, std::vector<v1::Annotation> annotations) {
  v1::EditorState editor;
  editor.mutable_annotations()->Assign(annotations.begin(), annotations.end());
  if (r.verdict.done) {
    editor.set_state(v1::DONE);
    return editor;
  }
  editor.set_state(r.next_page ? v1::NEEDS_MORE_PAGES : v1::EXHAUSTED);
  std::map<size_t, std::vector<std::string>> problems;  // page -> issues, in the loop's order
  std::vector<size_t> order;
  for (const PageIssue& issue : r.verdict.issues) {
    const size_t page = r.remaining[issue.page];
    if (!problems.count(page)) order.push_back(page);
    problems[page].push_back(issue.attribute + ": " + issue.problem);
  }
  for (size_t i = 0; i < order.size() && i < 10; ++i) {
    v1::AnnotationTask* t = editor.add_tasks();
    t->set_site(cluster.site());
    t->set_cluster_id(cluster.cluster_id());
    t->set_url(view.pages[order[i]].url);
    t->set_rank(static_cast<int32_t>(i + 1));
    t->set_importance(cluster.importance());
    t->set_reason("the rule fails here: " + absl::StrJoin(problems[order[i]], "; "));
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
  if (!r.compiled) return out;
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

}  // namespace

absl::StatusOr<v1::LearnResponse> LearningEngine::Learn(const v1::LearnRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  VERTEX_RETURN_IF_ERROR(store::ValidateId("cluster_id", request.cluster_id()));
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site, store_->GetSite(request.site()));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromProto(site.schema()));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::Annotation> fresh, CheckAnnotations(request, schema));
  v1::LearnResponse response;
  {
    absl::MutexLock lock(SiteLock(request.site()));
    VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord cluster, store_->GetCluster(request.site(), request.cluster_id()));
    VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(request.site()));
    const v1::SampleCluster* sc = FindSampleCluster(state, cluster.cluster_id());
    if (sc == nullptr) {
      return absl::FailedPreconditionError("cluster \"" + cluster.cluster_id() +
                                           "\" is not in the current clustering of the sample of site \"" +
                                           request.site() + "\"");
    }
    std::vector<v1::Annotation> merged = MergeAnnotations(cluster.editor(), request.replace(), fresh);
    VERTEX_ASSIGN_OR_RETURN(std::vector<learn::AttributeAnnotation> annotations,
                            ToLearnAnnotations(merged, state, *sc));
    VERTEX_ASSIGN_OR_RETURN(site::SiteClustering view, ClusterView(state, cluster, *sc));
    PagePool pool(view, options_.cluster.parse, StoreLoader(store_, request.site()));
    VERTEX_ASSIGN_OR_RETURN(ClusterLearnResult r, LearnCluster(schema, view, 0, annotations, pool, options_.learn));
    r.learnt.rule.set_site(request.site());
    r.learnt.rule.set_cluster_id(cluster.cluster_id());
    v1::EditorState editor = EditorStateOf(r, cluster, view, merged);
    response.set_state(editor.state());
    response.set_needs_more_pages(editor.state() != v1::DONE);
    for (const v1::AnnotationTask& t : editor.tasks()) *response.add_next() = t;
    if (r.learnt.rule.attributes_size() > 0) {
      store::RuleCommit commit = CommitOf(r, pool, editor);
      std::vector<size_t> annotated_pages;
      for (const learn::AttributeAnnotation& a : annotations) {
        if (std::find(annotated_pages.begin(), annotated_pages.end(), a.page) == annotated_pages.end()) {
          annotated_pages.push_back(a.page);
        }
      }
      if (r.compiled) {
        VERTEX_RETURN_IF_ERROR(
            monitor::AddBellwethers(*r.compiled, state, *sc, annotated_pages, pool, options_.bellwethers, &commit));
      }
      VERTEX_ASSIGN_OR_RETURN(const int64_t version, store_->CommitRule(commit));
      response.set_version(version);
      VERTEX_ASSIGN_OR_RETURN(*response.mutable_rule(),
                              store_->GetRule(request.site(), cluster.cluster_id(), version));
    } else {
      VERTEX_RETURN_IF_ERROR(store_->PutEditorState(request.site(), cluster.cluster_id(), editor));
    }
    for (const learn::AttributeDiagnostic& d : r.learnt.diagnostics) *response.add_diagnostics() = DiagnosticToProto(d);
    const size_t limit = request.preview_pages() > 0 ? request.preview_pages() : options_.preview_pages;
    VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ExtractedRecord> preview,
                            Preview(r, request.site(), schema, pool, limit, response.version()));
    response.mutable_preview()->Assign(preview.begin(), preview.end());
    std::set<std::string> annotated;
    for (const v1::Annotation& a : merged) {
      if (annotated.insert(a.url()).second) response.add_annotated_urls(a.url());
    }
  }
  Notify(request.site());
  return response;
}

}  // namespace vertex::workflow
