#include "common/workflow/cluster_learner.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <chrono>
#include <set>

#include "absl/strings/str_cat.h"
#include "common/util/status_macros.h"

namespace vertex::workflow {

PagePool::PagePool(const site::SiteClustering& clustering, html::ParseOptions options, PageLoader loader)
    : clustering_(clustering), options_(options), parser_(options), loader_(std::move(loader)) {}

absl::StatusOr<site::PageFile> PagePool::Read(size_t index) const {
  if (index >= clustering_.pages.size()) {
    return absl::OutOfRangeError(absl::StrCat("page ", index, " is not in the clustering"));
  }
  return loader_ ? loader_(index) : site::ReadPageFile(clustering_.pages[index].file, options_.max_page_bytes);
}

absl::StatusOr<const html::Page*> PagePool::Page(size_t index) {
  if (index >= clustering_.pages.size()) {
    return absl::OutOfRangeError(absl::StrCat("page ", index, " is not in the clustering"));
  }
  auto it = entries_.find(index);
  if (it != entries_.end()) return &*it->second->page;
  const std::string& file = clustering_.pages[index].file;
  absl::StatusOr<site::PageFile> read = Read(index);
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

// The pages the editor loop checks, in its order: the annotation sample
// (Algorithm 2 order), the other pages learning looked at, then every other
// member; annotated pages left out.
std::vector<size_t> CheckOrder(const site::SiteCluster& c, const std::vector<size_t>& learning_pages,
                               const std::vector<size_t>& annotated) {
  std::vector<size_t> order;
  std::set<size_t> seen(annotated.begin(), annotated.end());
  for (const site::AnnotationPick& pick : c.annotation_sample) {
    if (seen.insert(pick.page).second) order.push_back(pick.page);
  }
  for (size_t p : learning_pages) {
    if (seen.insert(p).second) order.push_back(p);
  }
  for (size_t p : c.pages) {
    if (seen.insert(p).second) order.push_back(p);
  }
  return order;
}

// The checker's result on each of `order` from position `first` on: read
// and parsed on `threads` threads, each page dropped once checked.
absl::StatusOr<std::vector<RuleChecker::PageResult>> CheckUnkept(const RuleChecker& checker,
                                                                 const std::vector<size_t>& order, size_t first,
                                                                 const PagePool& pool, int threads) {
  std::vector<absl::StatusOr<RuleChecker::PageResult>> results(order.size() - first, RuleChecker::PageResult{});
  std::atomic<size_t> next{first};
  const auto worker = [&] {
    html::Parser parser(pool.parse_options());
    for (size_t i; (i = next.fetch_add(1)) < order.size();) {
      absl::StatusOr<site::PageFile> file = pool.Read(order[i]);
      if (!file.ok()) {
        results[i - first] = file.status();
        continue;
      }
      absl::StatusOr<html::Page> page = parser.Parse(file->bytes, file->url);
      results[i - first] = page.ok() ? checker.Check(*page, i)
                                     : absl::Status(page.status().code(), file->url + ": " +
                                                                              std::string(page.status().message()));
    }
  };
  const int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool_threads;
  for (int t = 1; t < n && static_cast<size_t>(t) < order.size() - first; ++t) pool_threads.emplace_back(worker);
  worker();
  for (std::thread& t : pool_threads) t.join();
  std::vector<RuleChecker::PageResult> out;
  for (absl::StatusOr<RuleChecker::PageResult>& r : results) {
    if (!r.ok()) return r.status();
    out.push_back(*std::move(r));
  }
  return out;
}

}  // namespace

absl::StatusOr<EditorVerdict> CheckPages(const RuleChecker& checker, const std::vector<size_t>& pages,
                                         const PagePool& pool, int threads) {
  EditorVerdict verdict;
  verdict.done = true;
  verdict.extracted.assign(checker.schema().size(), 0);
  if (pages.empty()) return verdict;
  VERTEX_ASSIGN_OR_RETURN(std::vector<RuleChecker::PageResult> results, CheckUnkept(checker, pages, 0, pool, threads));
  for (size_t k = 0; k < results.size(); ++k) RuleChecker::Add(results[k], k, &verdict);
  return verdict;
}

namespace {

// Records in the rule what the check saw: attributes with a value on every
// page (the annotated ones included) and the runner-up XPaths.
absl::Status RecordCoverage(const extract::CompiledRule& compiled, const std::vector<const html::Page*>& annotated,
                            ClusterLearnResult* result) {
  std::vector<size_t> extracted = result->verdict.extracted;
  extracted.resize(compiled.schema().size(), 0);
  for (const html::Page* page : annotated) {
    absl::StatusOr<std::vector<extract::AttributeResult>> r = compiled.Apply(*page);
    if (!r.ok()) return r.status();
    for (size_t i = 0; i < r->size(); ++i) extracted[i] += !(*r)[i].values.empty();
  }
  const size_t pages = result->verdict.pages_checked + annotated.size();
  v1::Rule& rule = result->learnt.rule;
  for (size_t i = 0; i < extracted.size(); ++i) {
    if (pages > 0 && extracted[i] == pages) rule.add_always_extracted(compiled.schema().attribute(i).name());
  }
  rule.mutable_alternatives()->Assign(result->learnt.alternatives.begin(), result->learnt.alternatives.end());
  return absl::OkStatus();
}

// The editor loop on every page of the cluster not annotated (CheckOrder):
// the pages learning parsed already are checked from the pool, the others
// read, parsed and checked on several threads.
absl::StatusOr<ClusterLearnResult> CheckCluster(const schema::CompiledSchema& schema, const site::SiteCluster& c,
                                                const std::vector<size_t>& annotated, PagePool& pool,
                                                const ClusterLearnOptions& options, ClusterLearnResult result) {
  result.remaining = CheckOrder(c, result.learning_pages, annotated);
  if (result.learnt.rule.attributes_size() == 0) {
    result.verdict.done = false;
    if (!result.remaining.empty()) {
      result.verdict.next_page = 0;
      result.next_page = result.remaining[0];
    }
    return result;
  }
  absl::StatusOr<extract::CompiledRule> compiled = extract::CompiledRule::Create(result.learnt.rule, schema);
  if (!compiled.ok()) return absl::InternalError("learnt rule does not compile: " + compiled.status().ToString());
  const RuleChecker checker(*compiled, result.learnt.alternatives);
  EditorVerdict& verdict = result.verdict;
  verdict.done = true;
  verdict.extracted.assign(schema.size(), 0);
  // Kept pages: the annotation sample and the learning pages.
  const std::set<size_t> kept(result.learning_pages.begin(), result.learning_pages.end());
  size_t i = 0;
  for (; i < result.remaining.size(); ++i) {
    const size_t index = result.remaining[i];
    const bool in_sample = std::any_of(c.annotation_sample.begin(), c.annotation_sample.end(),
                                       [&](const site::AnnotationPick& p) { return p.page == index; });
    if (!in_sample && !kept.count(index)) break;
    absl::StatusOr<const html::Page*> page = pool.Page(index);
    if (!page.ok()) return page.status();
    absl::StatusOr<RuleChecker::PageResult> r = checker.Check(**page, i);
    if (!r.ok()) return r.status();
    RuleChecker::Add(*r, i, &verdict);
  }
  if (i < result.remaining.size()) {
    absl::StatusOr<std::vector<RuleChecker::PageResult>> rest =
        CheckUnkept(checker, result.remaining, i, pool, options.check_threads);
    if (!rest.ok()) return rest.status();
    for (size_t k = 0; k < rest->size(); ++k) RuleChecker::Add((*rest)[k], i + k, &verdict);
  }
  if (verdict.next_page) result.next_page = result.remaining[*verdict.next_page];
  std::vector<const html::Page*> annotated_pages;
  for (size_t p : annotated) {
    absl::StatusOr<const html::Page*> page = pool.Page(p);
    if (!page.ok()) return page.status();
    annotated_pages.push_back(*page);
  }
  if (absl::Status s = RecordCoverage(*compiled, annotated_pages, &result); !s.ok()) return s;
  // Compiled again: the rule now carries what the check recorded.
  compiled = extract::CompiledRule::Create(result.learnt.rule, schema);
  if (!compiled.ok()) return absl::InternalError("learnt rule does not compile: " + compiled.status().ToString());
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
  return CheckCluster(schema, c, annotated, pool, options, std::move(result));
}

}  // namespace vertex::workflow
