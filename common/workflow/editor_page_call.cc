// LearningEngine::ListSites and GetEditorPage: what the editor's page
// (services/http/web/editor/) reads besides the other RPCs.
#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "common/extract/compiled_rule.h"
#include "common/extract/record_proto.h"
#include "common/html/editor_html.h"
#include "common/rule/url.h"
#include "common/site/site_builder.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"
#include "common/workflow/learning_engine.h"
#include "common/workflow/learning_internal.h"
#include "common/workflow/sample_view.h"

namespace vertex::workflow {
namespace {

absl::StatusOr<v1::SiteOverview> Overview(const store::RuleStore& store, const std::string& id) {
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site, store.GetSite(id));
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store.GetSampleState(id));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> records, store.ClustersOfSite(id));
  v1::SiteOverview out;
  out.set_site(id);
  *out.mutable_schema() = site.schema();
  *out.mutable_settings() = site.settings();
  out.set_sample_pages(static_cast<uint32_t>(state.urls_size()));
  out.set_unassigned_pages(static_cast<uint32_t>(state.unassigned_size()));
  std::vector<v1::ClusterSummary> clusters;
  for (const v1::ClusterRecord& r : records) {
    if (const v1::SampleCluster* sc = FindSampleCluster(state, r.cluster_id())) clusters.push_back(internal::SummaryOf(r, *sc));
  }
  std::stable_sort(clusters.begin(), clusters.end(), [](const v1::ClusterSummary& a, const v1::ClusterSummary& b) {
    return a.importance() > b.importance();
  });
  for (v1::ClusterSummary& c : clusters) {
    if (c.state() == v1::DONE) {
      out.set_done_clusters(out.done_clusters() + 1);
    } else {
      out.set_open_clusters(out.open_clusters() + 1);
    }
    *out.add_clusters() = std::move(c);
  }
  return out;
}

// The record `compiled` gives on `page` (as Learn's preview writes it).
absl::StatusOr<extract::Record> RecordOn(const extract::CompiledRule& compiled, const html::Page& page,
                                         const std::string& cluster_id, int64_t version) {
  extract::Record record;
  record.url = page.url();
  record.cluster_id = cluster_id;
  record.rule_version = version;
  record.parsed = true;
  VERTEX_ASSIGN_OR_RETURN(record.attributes, compiled.Apply(page));
  const schema::CompiledSchema& schema = compiled.schema();
  for (const extract::AttributeResult& a : record.attributes) {
    const int k = schema.Find(a.attribute);
    if (k >= 0 && schema.attribute(static_cast<size_t>(k)).mandatory() && a.values.empty()) {
      record.missing_mandatory.push_back(a.attribute);
    }
  }
  record.status = record.missing_mandatory.empty() ? extract::RecordStatus::kOk : extract::RecordStatus::kPartial;
  return record;
}

void AddNodes(const extract::Record& record, v1::GetEditorPageResponse* out) {
  for (const extract::AttributeResult& a : record.attributes) {
    for (size_t i = 0; i < a.values.size() && i < a.nodes.size(); ++i) {
      v1::ExtractedNode* n = out->add_nodes();
      n->set_attribute(a.attribute);
      n->set_value(a.values[i]);
      n->set_xpath(html::NodeXPath(a.nodes[i]));
      n->set_element_xpath(html::NodeXPath(a.nodes[i].is_element() ? a.nodes[i] : a.nodes[i].parent()));
    }
  }
}

// The sample page at `index`, parsed with the site's options.
absl::StatusOr<html::Page> ParseSamplePage(const store::RuleStore& store, const std::string& site, uint32_t index,
                                           const html::ParseOptions& options) {
  VERTEX_ASSIGN_OR_RETURN(v1::SamplePage stored, store.GetSamplePage(site, index));
  html::Parser parser(options);
  absl::StatusOr<html::Page> page = parser.Parse(stored.html(), stored.url());
  if (!page.ok()) {
    return absl::FailedPreconditionError(absl::StrCat("sample page ", stored.url(), " no longer parses: ",
                                                      std::string(page.status().message())));
  }
  return page;
}

// The sample pages of cluster `c` other than `except`: members, then
// attached pages, at most `limit`.
std::vector<uint32_t> PreviewPages(const v1::SampleCluster& c, uint32_t except, size_t limit) {
  std::vector<uint32_t> out;
  for (const auto* list : {&c.pages(), &c.attached()}) {
    for (uint32_t p : *list) {
      if (p != except && out.size() < limit) out.push_back(p);
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<v1::ListSitesResponse> LearningEngine::ListSites(const v1::ListSitesRequest&) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> ids, store_->ListSites());
  v1::ListSitesResponse response;
  for (const std::string& id : ids) {
    absl::StatusOr<v1::SiteOverview> site = Overview(*store_, id);
    if (absl::IsNotFound(site.status())) continue;  // deleted meanwhile
    if (!site.ok()) return site.status();
    *response.add_sites() = *std::move(site);
  }
  return response;
}

absl::StatusOr<v1::GetEditorPageResponse> LearningEngine::GetEditorPage(const v1::GetEditorPageRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  if (request.url().empty()) return absl::InvalidArgumentError("url: empty (a sample page's URL)");
  if (request.version() < 0) {
    return absl::InvalidArgumentError(absl::StrCat("version: ", request.version(), " (0: the current rule)"));
  }
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site, store_->GetSite(request.site()));
  VERTEX_ASSIGN_OR_RETURN(v1::SampleState state, store_->GetSampleState(request.site()));
  const auto at = std::find(state.urls().begin(), state.urls().end(), request.url());
  if (at == state.urls().end()) {
    return absl::NotFoundError(absl::StrCat("url ", request.url(), " is not a sample page of site \"",
                                            request.site(), "\""));
  }
  const uint32_t index = static_cast<uint32_t>(at - state.urls().begin());
  const html::ParseOptions parse = site::SiteParseOptions(options_.cluster.parse, site);
  VERTEX_ASSIGN_OR_RETURN(html::Page page, ParseSamplePage(*store_, request.site(), index, parse));
  v1::GetEditorPageResponse response;
  html::EditorHtml rendered = html::RenderEditorHtml(page);
  if (rendered.html.size() > options_.editor_page_max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat("page ", request.url(), " rendered for the editor is ",
                                                     rendered.html.size(), " bytes, over the limit of ",
                                                     options_.editor_page_max_bytes, " bytes"));
  }
  response.set_url(request.url());
  response.set_html(std::move(rendered.html));
  response.set_elements(static_cast<uint32_t>(rendered.elements));
  response.set_base_url(rule::PageBaseUrl(page));
  response.set_page_builder(std::string(html::PageBuilderName(parse.builder)));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> records, store_->ClustersOfSite(request.site()));
  const PageLocation where = LocateSamplePages(state, records)[index];
  response.set_how(where.how);
  response.set_cluster_id(where.cluster_id);
  if (where.cluster_id.empty()) {
    if (request.version() > 0) return absl::NotFoundError("url " + request.url() + " is in no cluster: no rule");
    return response;
  }
  VERTEX_RETURN_IF_ERROR(AddRuleView(request, state, index, page, parse, &response));
  return response;
}

absl::Status LearningEngine::AddRuleView(const v1::GetEditorPageRequest& request, const v1::SampleState& state,
                                         uint32_t index, const html::Page& page, const html::ParseOptions& parse,
                                         v1::GetEditorPageResponse* response) {
  VERTEX_ASSIGN_OR_RETURN(v1::ClusterRecord cluster, store_->GetCluster(request.site(), response->cluster_id()));
  response->set_state(cluster.editor().state());
  for (const v1::Annotation& a : cluster.editor().annotations()) {
    if (a.url() == request.url()) *response->add_annotations() = a;
  }
  if (cluster.current_version() == 0 && request.version() == 0) return absl::OkStatus();
  VERTEX_ASSIGN_OR_RETURN(v1::Rule rule, store_->GetRule(request.site(), cluster.cluster_id(), request.version()));
  VERTEX_ASSIGN_OR_RETURN(v1::SiteRecord site, store_->GetSite(request.site()));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema, schema::CompiledSchema::FromProto(site.schema()));
  VERTEX_ASSIGN_OR_RETURN(extract::CompiledRule compiled, extract::CompiledRule::Create(rule, schema));
  response->set_rule_version(rule.version());
  if (compiled.record_level()) return absl::OkStatus();  // records, not a record: not shown node by node
  VERTEX_ASSIGN_OR_RETURN(extract::Record record, RecordOn(compiled, page, cluster.cluster_id(), rule.version()));
  AddNodes(record, response);
  *response->mutable_record() = extract::RecordToProto(record, request.site(), true);
  const v1::SampleCluster* sc = FindSampleCluster(state, cluster.cluster_id());
  if (sc == nullptr) return absl::OkStatus();
  const size_t limit = request.preview_pages() > 0 ? request.preview_pages() : options_.preview_pages;
  for (uint32_t p : PreviewPages(*sc, index, limit)) {
    absl::StatusOr<html::Page> other = ParseSamplePage(*store_, request.site(), p, parse);
    if (!other.ok()) continue;  // a page that no longer parses is left out of the preview
    VERTEX_ASSIGN_OR_RETURN(extract::Record r, RecordOn(compiled, *other, cluster.cluster_id(), rule.version()));
    *response->add_preview() = extract::RecordToProto(r, request.site(), true);
  }
  return absl::OkStatus();
}

}  // namespace vertex::workflow
