#include "common/workflow/cluster_learner.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <chrono>
#include <deque>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/learn/record_learner.h"
#include "common/util/status_macros.h"

namespace vertex::workflow {

PagePool::PagePool(const site::SiteClustering& clustering, html::ParseOptions options, PageLoader loader,
                   PageCacheView cache)
    : clustering_(clustering),
      options_(options),
      parser_(options),
      loader_(std::move(loader)),
      cache_(std::move(cache)) {}

std::shared_ptr<const html::Page> PagePool::Cached(size_t index) const {
  if (cache_.cache == nullptr || index >= clustering_.pages.size()) return nullptr;
  return cache_.cache->Find(cache_.site, index, clustering_.pages[index].file);
}

void PagePool::Offer(size_t index, html::Page page) const {
  if (cache_.cache == nullptr) return;
  cache_.cache->Insert(cache_.site, index, std::make_shared<const html::Page>(std::move(page)));
}

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
  if (it != entries_.end()) return it->second->page.get();
  const std::string& file = clustering_.pages[index].file;
  absl::StatusOr<site::PageFile> read = Read(index);
  if (!read.ok()) return read.status();
  std::shared_ptr<const html::Page> parsed = Cached(index);
  if (parsed == nullptr || parsed->url() != read->url) {
    absl::StatusOr<html::Page> page = parser_.Parse(read->bytes, read->url);
    if (!page.ok()) return absl::Status(page.status().code(), file + ": " + std::string(page.status().message()));
    parsed = std::make_shared<const html::Page>(*std::move(page));
    if (cache_.cache != nullptr) cache_.cache->Insert(cache_.site, index, parsed);
  }
  auto entry = std::make_unique<Entry>(Entry{*std::move(read), std::move(parsed)});
  const html::Page* out = entry->page.get();
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
      if (std::shared_ptr<const html::Page> cached = pool.Cached(order[i])) {
        results[i - first] = checker.Check(*cached, i);
        continue;
      }
      absl::StatusOr<site::PageFile> file = pool.Read(order[i]);
      if (!file.ok()) {
        results[i - first] = file.status();
        continue;
      }
      absl::StatusOr<html::Page> page = parser.Parse(file->bytes, file->url);
      results[i - first] = page.ok() ? checker.Check(*page, i)
                                     : absl::Status(page.status().code(), file->url + ": " +
                                                                              std::string(page.status().message()));
      if (page.ok()) pool.Offer(order[i], *std::move(page));
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

std::vector<size_t> CheckSubsample(const std::vector<size_t>& order, size_t head, size_t cap) {
  if (cap == 0 || order.size() <= cap) return order;
  head = std::min(head, order.size());
  std::vector<size_t> out(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(head));
  const size_t rest = order.size() - head;
  const size_t strata = cap > head ? cap - head : 0;
  // Stratum j covers [j * rest / strata, (j + 1) * rest / strata): its
  // middle is (2j + 1) * rest / (2 * strata). rest > strata here.
  for (size_t j = 0; j < strata; ++j) out.push_back(order[head + (2 * j + 1) * rest / (2 * strata)]);
  return out;
}

namespace {

// How many of `order` (CheckOrder) from its start are kept pages: in the
// annotation sample or among the learning pages.
size_t KeptHead(const site::SiteCluster& c, const std::vector<size_t>& learning_pages,
                const std::vector<size_t>& order) {
  std::set<size_t> kept(learning_pages.begin(), learning_pages.end());
  for (const site::AnnotationPick& p : c.annotation_sample) kept.insert(p.page);
  size_t head = 0;
  while (head < order.size() && kept.count(order[head])) ++head;
  return head;
}

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
  result.remaining = CheckSubsample(result.remaining, KeptHead(c, result.learning_pages, result.remaining),
                                    options.max_check_pages);
  if (!HasParts(result.learnt.rule)) {
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

// The record-level rule of cluster `c` (record_learner.h), from the
// editor's records on the annotated pages or, with none, from AMBER's
// analysis of the first options.amber_pages learning pages.
absl::StatusOr<ClusterLearnResult> LearnRecords(const schema::CompiledSchema& schema, const site::SiteCluster& c,
                                                const std::vector<size_t>& annotated,
                                                const std::vector<learn::AttributeAnnotation>& annotations,
                                                PagePool& pool, const ClusterLearnOptions& options) {
  ClusterLearnResult result;
  const bool by_editor = !annotations.empty();
  result.learning_pages =
      LearningPages(c, annotated, by_editor ? options.unannotated_pages
                                            : std::max(options.amber_pages, options.unannotated_pages));
  std::deque<amber::Typing> typings;
  std::vector<learn::RecordPage> pages;
  std::vector<std::string> notes;
  if (by_editor) {
    // page -> record number -> values.
    std::map<size_t, std::map<uint32_t, learn::RecordValues>> records;
    for (const learn::AttributeAnnotation& a : annotations) {
      const int attr = schema.Find(a.attribute);
      if (a.record == 0 || a.values.size() != 1 || !a.xpath.empty() || attr < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "annotation of \"", a.attribute, "\" on ", pool.Read(a.page).ok() ? pool.Read(a.page)->url : "a page",
            ": a record-level schema (", schema.vertical(),
            ") takes annotations of one value with a record number (1, 2, ...)"));
      }
      records[a.page][a.record][attr] = a.values[0];
    }
    for (size_t index : result.learning_pages) {
      VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(index));
      auto it = records.find(index);
      if (it == records.end()) {
        pages.push_back({page, nullptr});
        continue;
      }
      std::vector<learn::RecordValues> ordered;
      for (auto& [number, values] : it->second) ordered.push_back(values);
      absl::StatusOr<amber::Typing> typing = learn::TypingFromRecords(*page, schema, ordered);
      if (!typing.ok()) {
        return absl::Status(typing.status().code(), page->url() + ": " + std::string(typing.status().message()));
      }
      typings.push_back(*std::move(typing));
      pages.push_back({page, &typings.back()});
    }
  } else {
    VERTEX_ASSIGN_OR_RETURN(annotate::Annotator annotator, annotate::Annotator::Create(schema, options.gazetteers));
    for (size_t k = 0; k < result.learning_pages.size(); ++k) {
      VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(result.learning_pages[k]));
      if (k >= options.amber_pages) {
        pages.push_back({page, nullptr});
        continue;
      }
      VERTEX_ASSIGN_OR_RETURN(amber::Typing typing, amber::Run(*page, annotator.Annotate(*page), schema, options.amber));
      for (const std::string& note : typing.notes) notes.push_back(page->url() + ": " + note);
      typings.push_back(std::move(typing));
      pages.push_back({page, &typings.back()});
    }
  }
  absl::StatusOr<learn::RecordLearnResult> learnt =
      learn::LearnRecordRule(schema, pages, by_editor ? "editor" : "amber");
  learn::AttributeDiagnostic records;
  records.attribute = "__record";
  if (!learnt.ok()) {
    records.code = learn::DiagnosticCode::kNoRecallOneXPath;
    records.message = std::string(learnt.status().message());
    if (!notes.empty()) absl::StrAppend(&records.message, " (", absl::StrJoin(notes, "; "), ")");
    result.learnt.diagnostics.push_back(std::move(records));
    return result;
  }
  records.code = learn::DiagnosticCode::kLearnt;
  records.learnt = true;
  records.message = absl::StrJoin(learnt->notes, "; ");
  result.learnt.diagnostics.push_back(std::move(records));
  for (size_t i = 0; i < schema.size(); ++i) {
    learn::AttributeDiagnostic d;
    d.attribute = schema.attribute(i).name();
    for (const v1::AttributeRule& a : learnt->rule.attributes()) {
      if (a.attribute() != d.attribute) continue;
      d.learnt = true;
      d.code = learn::DiagnosticCode::kLearnt;
      d.message = absl::StrFormat("%s (in %.0f%% of the records)", a.xpath(), 100 * a.support());
    }
    if (!d.learnt) d.message = "in no record of the analysed pages";
    result.learnt.diagnostics.push_back(std::move(d));
  }
  *result.learnt.rule.mutable_record() = std::move(learnt->rule);
  return result;
}

}  // namespace

bool HasParts(const v1::Rule& rule) { return rule.attributes_size() > 0 || rule.has_record(); }

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
  if (schema.proto().record_level()) {
    VERTEX_ASSIGN_OR_RETURN(ClusterLearnResult result, LearnRecords(schema, c, annotated, annotations, pool, options));
    std::vector<const html::Page*> annotated_pages;
    for (size_t p : annotated) {
      VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(p));
      annotated_pages.push_back(page);
    }
    FillRuleFields(c, annotated_pages, &result.learnt.rule);
    return CheckCluster(schema, c, annotated, pool, options, std::move(result));
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
