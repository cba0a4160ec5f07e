#include "common/workflow/learning_internal.h"

#include <chrono>

#include "absl/strings/str_format.h"
#include "common/shingle/shingle.h"

namespace vertex::workflow {
namespace internal {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

v1::ClusterSummary Summary(const v1::ClusterRecord& r, uint32_t pages) {
  v1::ClusterSummary s;
  s.set_cluster_id(r.cluster_id());
  s.set_signature(r.signature());
  s.set_url_regex(r.url_regex());
  s.set_importance(r.importance());
  s.set_pages(pages);
  s.set_current_version(r.current_version());
  s.set_latest_version(r.latest_version());
  s.set_state(r.editor().state());
  s.set_candidate_version(r.candidate_version());
  s.set_merged_clusters(static_cast<uint32_t>(r.merged_size()));
  return s;
}

v1::ClusterSummary SummaryOf(const v1::ClusterRecord& r, const v1::SampleCluster& c) {
  v1::ClusterSummary s = Summary(r, static_cast<uint32_t>(c.pages_size()));
  s.set_attached_pages(static_cast<uint32_t>(c.attached_size()));
  return s;
}

std::optional<v1::SamplePage> SamplePageOf(html::Parser& parser, const v1::Page& p,
                                           google::protobuf::RepeatedPtrField<v1::PageError>* errors) {
  shingle::Shingler shingler;
  absl::StatusOr<html::Page> parsed = parser.Parse(p.html(), p.url(), "", &shingler);
  if (!parsed.ok()) {
    v1::PageError* e = errors->Add();
    e->set_url(p.url());
    e->set_error(std::string(parsed.status().message()));
    return std::nullopt;
  }
  const shingle::ShingleVector v = shingler.Finish();
  v1::SamplePage page;
  page.set_url(p.url());
  page.set_html(p.html());
  page.set_added_unix_ms(NowMs());
  page.set_shingle_vector(std::string(v.begin(), v.end()));
  page.set_file(p.file());
  return page;
}

// Algorithm 2's picks of a cluster never annotated, as tasks.
std::vector<v1::AnnotationTask> SampleTasks(const v1::ClusterRecord& r, const v1::SampleCluster& c,
                                            const v1::SampleState& state) {
  std::vector<v1::AnnotationTask> tasks;
  for (int i = 0; i < c.annotation_order_size(); ++i) {
    v1::AnnotationTask t;
    t.set_site(r.site());
    t.set_cluster_id(r.cluster_id());
    t.set_url(state.urls(static_cast<int>(c.annotation_order(i))));
    t.set_rank(i + 1);
    t.set_importance(r.importance());
    const double weight = i < c.added_weight_size() ? c.added_weight(i) : 0;
    t.set_reason(absl::StrFormat("Algorithm 2 pick %d of %d: adds %.1f to the informative XPath weight covered",
                                 i + 1, c.annotation_order_size(), weight));
    tasks.push_back(std::move(t));
  }
  return tasks;
}

}  // namespace internal

}  // namespace vertex::workflow
