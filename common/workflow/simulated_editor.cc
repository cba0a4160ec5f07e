#include "common/workflow/simulated_editor.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "common/eval/score.h"
#include "common/html/document_order.h"
#include "common/html/page.h"
#include "common/html/text.h"
#include "common/learn/annotation.h"

namespace vertex::workflow {
namespace {

// The form of `value` an editor would mark on the page, the first found of:
// without the punctuation before it (a label's ": "), as given, without
// punctuation at either end; else as given. A trailing period usually
// belongs to the value ("Co."), a leading colon to its label.
std::string FormOnPage(const std::string& value, const html::Page& page) {
  const std::vector<std::string> forms = eval::EditorValueForms(value);
  if (forms.empty()) return "";
  // Trim the start only: trim a copy ending in a sentinel no trimming removes.
  std::string lead = eval::TrimEdgePunctuation(forms[0] + "\x01");
  lead.pop_back();
  std::vector<std::string> tries = {lead, forms[0]};
  if (forms.size() > 1) tries.push_back(forms[1]);
  for (const std::string& form : tries) {
    if (form.empty()) continue;
    const std::vector<learn::ResolvedAnnotation> r = learn::ResolveValues({{&page, {form}}});
    if (!r.empty() && r[0].not_found.empty()) return form;
  }
  return forms[0];
}

// `values` in page order: by their resolved nodes' document order, then
// their place in the node's text; unchanged when some value is not found.
std::vector<std::string> InPageOrder(std::vector<std::string> values, const html::Page& page) {
  const std::vector<learn::ResolvedAnnotation> r = learn::ResolveValues({{&page, values}});
  if (r.empty() || !r[0].not_found.empty() || r[0].nodes.size() != values.size()) return values;
  const absl::flat_hash_map<const void*, size_t> rank = html::PreorderRanks(page);
  std::vector<std::tuple<size_t, size_t, size_t>> keys;  // rank, offset in the text, index
  for (size_t i = 0; i < values.size(); ++i) {
    const size_t offset = html::FoldText(r[0].locations[i].text).find(html::FoldText(values[i]));
    const auto at = rank.find(r[0].nodes[i].raw());
    keys.emplace_back(at == rank.end() ? 0 : at->second, offset, i);
  }
  std::sort(keys.begin(), keys.end());
  std::vector<std::string> out;
  for (const auto& key : keys) out.push_back(values[std::get<2>(key)]);
  return out;
}

}  // namespace

std::vector<learn::AttributeAnnotation> AnnotateFromTruth(const schema::CompiledSchema& schema,
                                                          const eval::GroundTruth& truth, const std::string& file,
                                                          size_t page, const html::Page& parsed, size_t list_first) {
  std::vector<learn::AttributeAnnotation> out;
  auto it = truth.pages.find(eval::PageIdOfFile(file));
  if (it == truth.pages.end()) return out;
  for (size_t i = 0; i < schema.size(); ++i) {
    const v1::AttributeSchema& attr = schema.attribute(i);
    auto values = it->second.find(attr.name());
    if (values == it->second.end()) continue;
    learn::AttributeAnnotation a;
    a.page = page;
    a.attribute = attr.name();
    for (const std::string& v : values->second) {
      std::string form = FormOnPage(v, parsed);
      if (form.empty()) continue;
      if (std::find(a.values.begin(), a.values.end(), form) == a.values.end()) a.values.push_back(std::move(form));
      if (!attr.multi_valued()) break;
    }
    if (list_first > 0 && attr.multi_valued() && a.values.size() > list_first) {
      a.values = InPageOrder(std::move(a.values), parsed);
      a.values.resize(list_first);
      a.partial = true;
    }
    out.push_back(std::move(a));
  }
  return out;
}

namespace {

absl::StatusOr<SimulatedCluster> SimulateCluster(const schema::CompiledSchema& schema,
                                                 const site::SiteClustering& clustering, size_t cluster,
                                                 const eval::GroundTruth& truth, PagePool& pool,
                                                 const SimulatedEditorOptions& options) {
  const site::SiteCluster& c = clustering.clusters[cluster];
  SimulatedCluster out;
  out.cluster = cluster;
  std::vector<learn::AttributeAnnotation> annotations;
  std::vector<size_t> queue;  // pages in Algorithm 2 order, for when the loop names none
  for (const site::AnnotationPick& pick : c.annotation_sample) queue.push_back(pick.page);
  if (queue.empty() && !c.pages.empty()) queue.push_back(c.pages[0]);
  std::optional<size_t> next = queue.empty() ? std::nullopt : std::optional<size_t>(queue[0]);
  while (next && out.annotated.size() < options.max_pages) {
    const size_t page = *next;
    absl::StatusOr<const html::Page*> parsed = pool.Page(page);
    if (!parsed.ok()) return parsed.status();
    std::vector<learn::AttributeAnnotation> mine =
        AnnotateFromTruth(schema, truth, clustering.pages[page].file, page, **parsed, options.list_first);
    (mine.empty() ? out.unknown : out.annotated).push_back(page);
    annotations.insert(annotations.end(), mine.begin(), mine.end());
    next.reset();
    if (!out.annotated.empty()) {
      absl::StatusOr<ClusterLearnResult> r = LearnCluster(schema, clustering, cluster, annotations, pool, options.learn);
      if (!r.ok()) return r.status();
      out.result = *std::move(r);
      if (out.result.verdict.done) break;
      next = out.result.next_page;
    }
    if (!next) {  // the loop named no page: the next unused sample page
      for (size_t q : queue) {
        if (std::find(out.annotated.begin(), out.annotated.end(), q) == out.annotated.end() &&
            std::find(out.unknown.begin(), out.unknown.end(), q) == out.unknown.end()) {
          next = q;
          break;
        }
      }
      if (out.result.verdict.done) next.reset();
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<SimulatedCluster>> SimulateEditor(const schema::CompiledSchema& schema,
                                                             const site::SiteClustering& clustering,
                                                             const eval::GroundTruth& truth, PagePool& pool,
                                                             const SimulatedEditorOptions& options) {
  std::vector<SimulatedCluster> out;
  for (size_t c = 0; c < clustering.clusters.size(); ++c) {
    absl::StatusOr<SimulatedCluster> s = SimulateCluster(schema, clustering, c, truth, pool, options);
    if (!s.ok()) return s.status();
    out.push_back(*std::move(s));
  }
  return out;
}

}  // namespace vertex::workflow
