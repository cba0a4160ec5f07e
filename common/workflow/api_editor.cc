#include "common/workflow/api_editor.h"

#include <chrono>
#include <map>
#include <set>

#include "absl/strings/str_format.h"
#include "common/site/page_file.h"
#include "common/site/site_builder.h"
#include "common/util/status_macros.h"
#include "common/workflow/proposal_editor.h"
#include "common/workflow/simulated_editor.h"

namespace vertex::workflow {
namespace {

double Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Consecutive ranges [begin, end) of `pages` within the batch limits.
std::vector<std::pair<size_t, size_t>> Batches(const std::vector<ClientPage>& pages, const ApiRunOptions& o) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t begin = 0, bytes = 0;
  for (size_t i = 0; i < pages.size(); ++i) {
    const bool full = i - begin >= o.batch_pages || (i > begin && bytes + pages[i].bytes.size() > o.batch_bytes);
    if (full) {
      out.emplace_back(begin, i);
      begin = i;
      bytes = 0;
    }
    bytes += pages[i].bytes.size();
  }
  if (begin < pages.size()) out.emplace_back(begin, pages.size());
  return out;
}

}  // namespace

absl::StatusOr<v1::AddSamplePagesResponse> AddPages(LearningApi& api, const std::string& site,
                                                    const std::vector<ClientPage>& pages, const ApiRunOptions& o) {
  v1::AddSamplePagesResponse merged;
  const auto batches = Batches(pages, o);
  for (size_t b = 0; b < batches.size(); ++b) {
    v1::AddSamplePagesRequest request;
    request.set_site(site);
    request.set_defer_clustering(b + 1 < batches.size());
    for (size_t i = batches[b].first; i < batches[b].second; ++i) {
      v1::Page* p = request.add_pages();
      p->set_url(pages[i].url);
      p->set_html(pages[i].bytes);
    }
    VERTEX_ASSIGN_OR_RETURN(v1::AddSamplePagesResponse response, api.AddSamplePages(request));
    MergeAddedPages(std::move(response), &merged);
  }
  return merged;
}

namespace {

// The proposal for `attribute` in `task`, or null.
const v1::ProposedList* ProposalFor(const v1::AnnotationTask& task, const std::string& attribute) {
  for (const v1::ProposedList& p : task.proposed()) {
    if (p.attribute() == attribute) return &p;
  }
  return nullptr;
}

// The editor's annotations of `task`'s page, or none when the truth does
// not know it; with options.use_proposals, multi-valued attributes answer
// the task's proposals (proposal_editor.h). Inputs are counted in
// `inputs`.
absl::StatusOr<std::vector<v1::Annotation>> Annotate(const schema::CompiledSchema& schema,
                                                     const eval::GroundTruth& truth, const ClientPage& page,
                                                     const v1::AnnotationTask& task, html::Parser& parser,
                                                     const ApiRunOptions& o,
                                                     std::map<std::string, AttributeInputs>* inputs) {
  VERTEX_ASSIGN_OR_RETURN(html::Page parsed, parser.Parse(page.bytes, page.url));
  std::vector<v1::Annotation> out;
  for (const learn::AttributeAnnotation& a : AnnotateFromTruth(schema, truth, page.file, 0, parsed, o.list_first)) {
    const int index = schema.Find(a.attribute);
    const bool multi = index >= 0 && schema.attribute(index).multi_valued();
    const v1::ProposedList* proposal = multi && o.use_proposals ? ProposalFor(task, a.attribute) : nullptr;
    const EditorAnswer answer = AnswerProposal(a.values, proposal);
    (*inputs)[a.attribute].Add(answer, multi ? ProposalFor(task, a.attribute) != nullptr : false);
    v1::Annotation p;
    p.set_url(page.url);
    p.set_attribute(a.attribute);
    for (const std::string& v : answer.values) p.add_values(v);
    if (answer.values.empty()) p.set_absent(true);
    // With list_first the truth is already the first K values (partial).
    p.set_partial(answer.partial || a.partial);
    out.push_back(std::move(p));
  }
  return out;
}

// Annotates cluster `cluster` page by page as the tasks ask, learning after
// each; the last Learn response, or nullopt when no page could be annotated.
// Counts the pages annotated and the values typed in `report`.
absl::StatusOr<std::optional<v1::LearnResponse>> AnnotateCluster(
    LearningApi& api, const std::string& site, const std::string& cluster, const schema::CompiledSchema& schema,
    const eval::GroundTruth& truth, const std::map<std::string, const ClientPage*>& by_url, html::Parser& parser,
    const ApiRunOptions& o, ApiRunReport* report) {
  std::optional<v1::LearnResponse> last;
  std::set<std::string> tried;
  for (size_t done = 0; done < o.max_pages;) {
    v1::GetAnnotationTasksRequest ask;
    ask.set_site(site);
    ask.set_cluster_id(cluster);
    ask.set_max_pages(20);
    absl::StatusOr<v1::GetAnnotationTasksResponse> asked = api.GetAnnotationTasks(ask);
    // A cluster merged into another by rule transfer is gone: nothing to do.
    if (absl::IsNotFound(asked.status()) && !last) return last;
    VERTEX_ASSIGN_OR_RETURN(v1::GetAnnotationTasksResponse tasks, std::move(asked));
    std::vector<v1::Annotation> annotations;
    for (const v1::AnnotationTask& t : tasks.tasks()) {
      if (!tried.insert(t.url()).second) continue;
      auto page = by_url.find(t.url());
      if (page == by_url.end()) continue;
      std::map<std::string, AttributeInputs> inputs;
      VERTEX_ASSIGN_OR_RETURN(annotations, Annotate(schema, truth, *page->second, t, parser, o, &inputs));
      for (const auto& [name, n] : inputs) report->inputs[name].Merge(n);
      if (!annotations.empty()) break;
    }
    if (annotations.empty()) break;  // no task page the editor knows
    v1::LearnRequest learn;
    learn.set_site(site);
    learn.set_cluster_id(cluster);
    learn.mutable_annotations()->Assign(annotations.begin(), annotations.end());
    VERTEX_ASSIGN_OR_RETURN(last, api.Learn(learn));
    ++done;
    ++report->pages_annotated;
    for (const v1::Annotation& a : annotations) {
      report->values_typed += static_cast<size_t>(a.values_size());
      const int attr = schema.Find(a.attribute());
      if (attr >= 0 && schema.attribute(static_cast<size_t>(attr)).multi_valued()) {
        report->list_values_typed += static_cast<size_t>(a.values_size());
      }
    }
    if (!last->needs_more_pages()) break;
  }
  return last;
}

}  // namespace

absl::Status ExtractPages(ExtractionApi& api, const std::string& site, const std::vector<ClientPage>& pages,
                          const ApiRunOptions& o, std::vector<v1::ExtractResponse>* out) {
  for (const auto& [begin, end] : Batches(pages, o)) {
    std::vector<v1::ExtractRequest> requests;
    for (size_t i = begin; i < end; ++i) {
      v1::ExtractRequest r;
      r.set_site(site);
      r.set_url(pages[i].url);
      r.set_html(pages[i].bytes);
      r.set_id(std::to_string(i));
      requests.push_back(std::move(r));
    }
    VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ExtractResponse> responses, api.ExtractMany(requests));
    for (v1::ExtractResponse& r : responses) out->push_back(std::move(r));
  }
  return absl::OkStatus();
}

namespace {

void Score(const schema::CompiledSchema& schema, const eval::GroundTruth& truth,
           const std::vector<ClientPage>& pages, ApiRunReport* report) {
  for (size_t i = 0; i < pages.size() && i < report->records.size(); ++i) {
    auto known = truth.pages.find(eval::PageIdOfFile(pages[i].file));
    if (known == truth.pages.end()) continue;
    std::map<std::string, std::vector<std::string>> extracted;
    for (const v1::ExtractedAttribute& a : report->records[i].record().attributes()) {
      extracted[a.attribute()].assign(a.values().begin(), a.values().end());
    }
    for (size_t k = 0; k < schema.size(); ++k) {
      const std::string& name = schema.attribute(k).name();
      auto t = known->second.find(name);
      if (t == known->second.end()) continue;
      report->scorer.Add(name, extracted[name], t->second);
    }
  }
}

}  // namespace

void MergeAddedPages(v1::AddSamplePagesResponse from, v1::AddSamplePagesResponse* into) {
  const uint32_t pages = into->pages_added() + from.pages_added();
  auto errors = std::move(*into->mutable_errors());
  errors.MergeFrom(from.errors());
  *into = std::move(from);
  into->set_pages_added(pages);
  *into->mutable_errors() = std::move(errors);
}

absl::StatusOr<std::vector<ClientPage>> ReadClientPages(const std::vector<std::string>& paths,
                                                        size_t max_page_bytes) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths(paths));
  std::vector<ClientPage> pages;
  for (const std::string& f : files) {
    VERTEX_ASSIGN_OR_RETURN(site::PageFile file, site::ReadPageFile(f, max_page_bytes));
    pages.push_back({file.path, file.url, std::move(file.bytes)});
  }
  return pages;
}

absl::StatusOr<ApiRunReport> RunSiteThroughApi(LearningApi& learning, ExtractionApi& extraction,
                                               const std::string& site, const schema::CompiledSchema& schema,
                                               const std::vector<ClientPage>& pages, const eval::GroundTruth& truth,
                                               const ApiRunOptions& options) {
  ApiRunReport report;
  auto t = std::chrono::steady_clock::now();
  v1::RegisterSiteRequest reg;
  reg.set_site(site);
  *reg.mutable_schema() = schema.proto();
  if (options.settings) *reg.mutable_settings() = *options.settings;
  VERTEX_ASSIGN_OR_RETURN(const v1::RegisterSiteResponse registered, learning.RegisterSite(reg));
  VERTEX_ASSIGN_OR_RETURN(report.sample, AddPages(learning, site, pages, options));
  std::map<std::string, const ClientPage*> by_url;
  for (const ClientPage& p : pages) by_url.emplace(p.url, &p);
  // The editor sees the pages as the server builds them: with the site's builder.
  html::Parser parser(site::SiteParseOptions(options.parse, registered.site()));
  for (const v1::ClusterSummary& c : report.sample.clusters()) {
    VERTEX_ASSIGN_OR_RETURN(std::optional<v1::LearnResponse> learnt,
                            AnnotateCluster(learning, site, c.cluster_id(), schema, truth, by_url, parser, options,
                                            &report));
    if (!learnt) continue;
    report.clusters_with_rule += learnt->version() > 0;
    report.learnt.push_back(*std::move(learnt));
  }
  report.learn_seconds = Since(t);
  t = std::chrono::steady_clock::now();
  VERTEX_RETURN_IF_ERROR(ExtractPages(extraction, site, pages, options, &report.records));
  report.extract_seconds = Since(t);
  Score(schema, truth, pages, &report);
  return report;
}

std::string FormatRunReport(const std::string& site, const schema::CompiledSchema& schema,
                            const ApiRunReport& report) {
  size_t ok = 0, failed = 0;
  for (const v1::ExtractResponse& r : report.records) {
    if (r.error_code() != 0) {
      ++failed;
    } else if (r.record().status() == v1::ExtractedRecord::OK || r.record().status() == v1::ExtractedRecord::PARTIAL) {
      ++ok;
    }
  }
  std::string out = absl::StrFormat(
      "%s (%s): %d cluster(s); the editor annotated %zu page(s) (%zu values typed, %zu of lists), %zu cluster(s) "
      "got a rule, in %.2f s\n"
      "extracted %zu pages in %.2f s (%.0f pages/s): %zu records of this vertical, %zu errors\n",
      site, schema.vertical(), report.sample.clusters_size(), report.pages_annotated, report.values_typed,
      report.list_values_typed, report.clusters_with_rule,
      report.learn_seconds, report.records.size(), report.extract_seconds,
      report.extract_seconds > 0 ? report.records.size() / report.extract_seconds : 0.0, ok, failed);
  absl::StrAppendFormat(&out, "  %-18s %9s %9s %9s %8s\n", "attribute", "precision", "recall", "F1", "values");
  for (const auto& [name, s] : report.scorer.scores()) {
    absl::StrAppendFormat(&out, "  %-18s %9.4f %9.4f %9.4f %8zu\n", name, s.precision(), s.recall(), s.f1(),
                          s.truth_values);
  }
  return out;
}

std::string FormatInputReport(const schema::CompiledSchema& schema, const ApiRunReport& report) {
  std::string out = absl::StrFormat("  %-18s %7s %9s %9s %7s %5s %7s %6s\n", "list attribute", "inputs", "labelling",
                                    "proposals", "accept", "trim", "partial", "label");
  for (size_t i = 0; i < schema.size(); ++i) {
    if (!schema.attribute(i).multi_valued()) continue;
    auto it = report.inputs.find(schema.attribute(i).name());
    if (it == report.inputs.end()) continue;
    const AttributeInputs& n = it->second;
    absl::StrAppendFormat(&out, "  %-18s %7zu %9zu %9zu %7zu %5zu %7zu %6zu\n", it->first, n.inputs,
                          n.labelling_inputs, n.proposals, n.accepted, n.trimmed, n.partial, n.labelled);
  }
  return out;
}

}  // namespace vertex::workflow
