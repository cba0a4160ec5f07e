#include "common/workflow/cluster_learner.h"

#include <algorithm>
#include <chrono>
#include <set>

#include "absl/strings/str_cat.h"

namespace vertex::workflow {

PagePool::PagePool(const site::SiteClustering& clustering, html::ParseOptions options, PageLoader loader)
    : clustering_(clustering), parser_(options), loader_(std::move(loader)) {}

absl::StatusOr<const html::Page*> PagePool::Page(size_t index) {
  if (index >= clustering_.pages.size()) {
    return absl::OutOfRangeError(absl::StrCat("page ", index, " is not in the clustering"));
  }
  auto it = entries_.find(index);
  if (it != entries_.end()) return &*it->second->page;
  const std::string& file = clustering_.pages[index].file;
  absl::StatusOr<site::PageFile> read =
      loader_ ? loader_(index) : site::ReadPageFile(file, parser_.options().max_page_bytes);
  if (!read.ok()) return read.status();
  absl::StatusOr<html::Page> page = parser_.Parse(read->bytes, read->url);
  if (!page.ok()) return absl::Status(page.status().code(), file + ": " + std::string(page.status().message()));
  auto entry = std::make_unique<Entry>(Entry{*std::move(read), std::nullopt});
  entry->page.emplace(*std::move(page));
  const html::Page* out = &*entry->page;
  entries_.emplace(index, std::move(entry));
  return out;
}

const site::PageFile* PagePool::File(size_t index) const {
  auto it = entries_.find(index);
  return it == entries_.end() ? nullptr : &it->second->file;
}

namespace {

// Annotated pages first (in order of first annotation), then unannotated.
std::vector<size_t> LearningPages(const site::SiteCluster& c, const std::vector<size_t>& annotated, size_t extra) {
  std::vector<size_t> out = annotated;
  std::set<size_t> taken(annotated.begin(), annotated.end());
  const size_t limit = annotated.size() + extra;
  for (const site::AnnotationPick& pick : c.annotation_sample) {
    if (out.size() >= limit) break;
    if (taken.insert(pick.page).second) out.push_back(pick.page);
  }
  const size_t n = c.pages.size();
  for (size_t step = 0; out.size() < limit && step < n; ++step) {
    // Evenly spread: the members at fractions 0, 1/m, 2/m, ... of the list.
    const size_t want = limit - out.size();
    const size_t i = (step * n) / std::max<size_t>(want + step, 1);
    if (i < n && taken.insert(c.pages[i]).second) out.push_back(c.pages[i]);
  }
  return out;
}

void FillRuleFields(const site::SiteCluster& c, const std::vector<const html::Page*>& annotated_pages,
                    v1::Rule* rule) {
  rule->set_cluster_id(absl::StrCat("c", c.id));
  rule->set_signature(c.signature.ToText());
  rule->set_url_regex(c.url_regex);
  rule->set_importance(c.importance);
  for (const html::Page* p : annotated_pages) rule->add_annotated_urls(p->url());
  rule->set_created_unix_ms(std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count());
}

// The editor loop on the sample pages not annotated yet.
absl::StatusOr<ClusterLearnResult> CheckCluster(const schema::CompiledSchema& schema, const site::SiteCluster& c,
                                                const std::vector<size_t>& annotated, PagePool& pool,
                                                ClusterLearnResult result) {
  // The annotation sample in Algorithm 2 order, then the other pages
  // learning looked at: Algorithm 2 stops early on uniform clusters (two
  // pages of 100 store pages), too few to see where runner-up XPaths differ.
  std::vector<size_t> order;
  for (const site::AnnotationPick& pick : c.annotation_sample) order.push_back(pick.page);
  for (size_t p : result.learning_pages) {
    if (std::find(order.begin(), order.end(), p) == order.end()) order.push_back(p);
  }
  std::vector<const html::Page*> remaining;
  for (size_t index : order) {
    if (std::find(annotated.begin(), annotated.end(), index) != annotated.end()) continue;
    absl::StatusOr<const html::Page*> page = pool.Page(index);
    if (!page.ok()) return page.status();
    result.remaining.push_back(index);
    remaining.push_back(*page);
  }
  if (result.learnt.rule.attributes_size() == 0) {
    result.verdict.done = false;
    if (!remaining.empty()) {
      result.verdict.next_page = 0;
      result.next_page = result.remaining[0];
    }
    return result;
  }
  absl::StatusOr<extract::CompiledRule> compiled = extract::CompiledRule::Create(result.learnt.rule, schema);
  if (!compiled.ok()) return absl::InternalError("learnt rule does not compile: " + compiled.status().ToString());
  absl::StatusOr<EditorVerdict> verdict = CheckRule(*compiled, remaining, result.learnt.alternatives);
  if (!verdict.ok()) return verdict.status();
  result.verdict = *std::move(verdict);
  if (result.verdict.next_page) result.next_page = result.remaining[*result.verdict.next_page];
  result.compiled.emplace(*std::move(compiled));
  return result;
}

}  // namespace

absl::StatusOr<ClusterLearnResult> LearnCluster(const schema::CompiledSchema& schema,
                                                const site::SiteClustering& clustering, size_t cluster,
                                                const std::vector<learn::AttributeAnnotation>& annotations,
                                                PagePool& pool, const ClusterLearnOptions& options) {
  if (cluster >= clustering.clusters.size()) return absl::OutOfRangeError(absl::StrCat("no cluster ", cluster));
  const site::SiteCluster& c = clustering.clusters[cluster];
  std::vector<size_t> annotated;
  for (const learn::AttributeAnnotation& a : annotations) {
    if (!std::binary_search(c.pages.begin(), c.pages.end(), a.page)) {
      return absl::InvalidArgumentError(absl::StrCat("page ", clustering.pages[a.page].file, " is not in cluster c",
                                                     c.id));
    }
    if (std::find(annotated.begin(), annotated.end(), a.page) == annotated.end()) annotated.push_back(a.page);
  }
  ClusterLearnResult result;
  result.learning_pages = LearningPages(c, annotated, options.unannotated_pages);
  learn::RuleLearnInput input;
  for (size_t index : result.learning_pages) {
    absl::StatusOr<const html::Page*> page = pool.Page(index);
    if (!page.ok()) return page.status();
    input.pages.push_back(*page);
  }
  for (learn::AttributeAnnotation a : annotations) {
    a.page = std::find(annotated.begin(), annotated.end(), a.page) - annotated.begin();
    input.annotations.push_back(std::move(a));
  }
  absl::StatusOr<learn::RuleLearnResult> learnt = learn::LearnRule(schema, input, options.learn);
  if (!learnt.ok()) return learnt.status();
  result.learnt = *std::move(learnt);
  FillRuleFields(c, std::vector<const html::Page*>(input.pages.begin(), input.pages.begin() + annotated.size()),
                 &result.learnt.rule);
  return CheckCluster(schema, c, annotated, pool, std::move(result));
}

}  // namespace vertex::workflow
