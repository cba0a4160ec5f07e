#include "common/learn/rule_learner.h"

#include <algorithm>
#include <atomic>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/html/document_order.h"
#include "common/html/rendered_text.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/learn/annotation.h"
#include "common/learn/closest_match.h"
#include "common/rule/feature_selector.h"
#include "common/learn/range_learner.h"
#include "common/learn/split_learner.h"
#include "common/rule/text_range.h"
#include "common/rule/value.h"
#include "common/util/status_macros.h"

namespace vertex::learn {
namespace {

std::string Where(size_t i) { return absl::StrCat("annotation ", i, ": "); }

absl::Status ValidateAnnotation(const schema::CompiledSchema& schema, const RuleLearnInput& input, size_t i) {
  const AttributeAnnotation& a = input.annotations[i];
  if (a.page >= input.pages.size() || input.pages[a.page] == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(Where(i), "page ", a.page, " is not one of the ",
                                                   input.pages.size(), " sample pages"));
  }
  const int index = schema.Find(a.attribute);
  if (index < 0) {
    std::vector<std::string> names;
    for (size_t k = 0; k < schema.size(); ++k) names.push_back(schema.attribute(k).name());
    return absl::InvalidArgumentError(absl::StrCat(Where(i), "unknown attribute \"", a.attribute, "\" (schema ",
                                                   schema.vertical(), " has ", absl::StrJoin(names, ", "), ")"));
  }
  if (a.values.size() > 1 && !schema.attribute(index).multi_valued()) {
    return absl::InvalidArgumentError(absl::StrCat(Where(i), a.values.size(), " values for single-valued attribute \"",
                                                   a.attribute, "\""));
  }
  if (a.partial && (a.values.empty() || a.record != 0 || !schema.attribute(index).multi_valued())) {
    return absl::InvalidArgumentError(absl::StrCat(
        Where(i), "a partial annotation (the first values of a list) of \"", a.attribute, "\" ",
        a.values.empty()  ? "needs values"
        : a.record != 0   ? "cannot name a record"
                          : "is for multi-valued attributes only: the attribute is single-valued"));
  }
  if (a.values.size() > kMaxValuesPerAnnotation) {
    return absl::InvalidArgumentError(absl::StrCat(Where(i), a.values.size(), " values, over the limit of ",
                                                   kMaxValuesPerAnnotation, " values per annotation"));
  }
  for (const std::string& v : a.values) {
    if (html::IsBlank(v)) return absl::InvalidArgumentError(Where(i) + "a value is empty");
    if (v.size() > kMaxAnnotatedValueBytes) {
      return absl::InvalidArgumentError(absl::StrCat(Where(i), "a value of ", v.size(),
                                                     " bytes, over the annotated value length limit of ",
                                                     kMaxAnnotatedValueBytes, " bytes"));
    }
  }
  if (!a.xpath.empty()) {
    absl::StatusOr<html::XPath> x = html::XPath::Compile(a.xpath);
    if (!x.ok()) return absl::InvalidArgumentError(Where(i) + std::string(x.status().message()));
    absl::StatusOr<std::vector<html::Node>> nodes = x->Select(*input.pages[a.page]);
    if (!nodes.ok()) return absl::InvalidArgumentError(Where(i) + std::string(nodes.status().message()));
  }
  return absl::OkStatus();
}

absl::Status ValidateAnnotations(const schema::CompiledSchema& schema, const RuleLearnInput& input) {
  if (input.annotations.size() > kMaxAnnotations) {
    return absl::InvalidArgumentError(absl::StrCat(input.annotations.size(), " annotations, over the limit of ",
                                                   kMaxAnnotations, " annotations per learn call"));
  }
  std::set<std::pair<size_t, std::string>> seen;
  for (size_t i = 0; i < input.annotations.size(); ++i) {
    if (absl::Status s = ValidateAnnotation(schema, input, i); !s.ok()) return s;
    const AttributeAnnotation& a = input.annotations[i];
    if (!seen.emplace(a.page, a.attribute).second) {
      return absl::InvalidArgumentError(absl::StrCat(Where(i), "attribute \"", a.attribute, "\" of page ",
                                                     input.pages[a.page]->url(), " is annotated twice"));
    }
  }
  return absl::OkStatus();
}

struct ValueSite {
  size_t page = 0;
  html::Node node;
  std::vector<std::string> values;
  // On a partial page, the node of its last labelled value: its text may go
  // on with unlabelled values (no range is learnt from it).
  bool open_end = false;
};

// The annotated nodes of one attribute, page by page.
struct Positives {
  std::vector<bool> annotated;
  // Pages whose annotation is partial (AttributeAnnotation::partial).
  std::vector<bool> partial;
  std::vector<std::vector<html::Node>> nodes;
  // Pages annotated with values: the folded values expected there.
  std::map<size_t, std::vector<std::string>> expected;
  // Where each annotated value sits: the node that holds it (several values
  // of a list may share one) and the values it holds, for learning the
  // range and the split.
  std::vector<ValueSite> sites;
  std::vector<std::string> not_found;     // "URL: value"
  // Per value not found, in words with the closest match on its page
  // (DescribeNotFound), for the diagnostic's message.
  std::vector<std::string> not_found_described;
  std::vector<std::string> empty_xpath;   // URLs
  size_t count = 0;
  // How the value annotations' nodes hold their values (annotation.h): the
  // rule reads the one attribute or JSON path they name.
  ValueSource source = ValueSource::kText;
  std::set<std::string> value_attributes;
  std::set<std::string> json_paths;
};

void AddToSite(size_t page, html::Node node, const std::string& value, std::vector<ValueSite>* sites) {
  auto it = std::find_if(sites->begin(), sites->end(),
                         [&](const ValueSite& s) { return s.page == page && s.node == node; });
  if (it == sites->end()) it = sites->insert(sites->end(), ValueSite{page, node, {}});
  it->values.push_back(value);
}

// A partial annotation's values must be in page order: their nodes in
// document order, values sharing a node in the order of its text.
// InvalidArgument naming the page and attribute otherwise. `*last` is set to
// the rank of the node of the last value.
absl::Status CheckPartialOrder(const AttributeAnnotation& a, const html::Page& page, const ResolvedAnnotation& r,
                               const absl::flat_hash_map<const void*, size_t>& rank, size_t* last) {
  size_t prev_rank = 0, prev_offset = 0;
  for (size_t k = 0; k < r.nodes.size(); ++k) {
    const size_t at = rank.at(r.nodes[k].raw());
    const size_t offset = html::FoldText(r.locations[k].text).find(html::FoldText(a.values[k]));
    if (k > 0 && (at < prev_rank || (at == prev_rank && offset < prev_offset))) {
      return absl::InvalidArgumentError(absl::StrCat(
          "partial annotation of \"", a.attribute, "\" on ", page.url(), ": the values are not in page order (\"",
          a.values[k], "\" comes before \"", a.values[k - 1], "\" on the page); a partial label gives the list's "
          "first values in the order the page shows them"));
    }
    prev_rank = at;
    prev_offset = offset;
  }
  *last = prev_rank;
  return absl::OkStatus();
}

// The nodes an annotation with values and an XPath names (validated
// before): where its values are to be found.
std::vector<html::Node> ScopeOf(const AttributeAnnotation& a, const html::Page& page) {
  absl::StatusOr<html::XPath> x = html::XPath::Compile(a.xpath);
  if (!x.ok()) return {};
  absl::StatusOr<std::vector<html::Node>> nodes = x->Select(page);
  return nodes.ok() ? *std::move(nodes) : std::vector<html::Node>{};
}

// The `n`th value not found of an attribute, in words: the first
// kClosestMatchesPerAttribute with the closest match on the page (each
// search is one pass over the page's text), the others without.
constexpr size_t kClosestMatchesPerAttribute = 5;
std::string DescribeNotFoundValue(const html::Page& page, const AttributeAnnotation& a, const std::string& value,
                                  size_t n) {
  if (n <= kClosestMatchesPerAttribute) {
    return DescribeNotFound(value, page.url(), FindClosestMatch(page, value), a.xpath);
  }
  return absl::StrCat("\"", value, "\" is not ", a.xpath.empty() ? "" : "in " + a.xpath + " ", "on page ", page.url());
}

absl::Status AddValueAnnotations(const RuleLearnInput& input, const std::vector<const AttributeAnnotation*>& anns,
                                 bool multi_valued, Positives* pos) {
  std::vector<ValueAnnotation> values;
  std::vector<const AttributeAnnotation*> source;
  for (const AttributeAnnotation* a : anns) {
    if (a->values.empty()) continue;
    ValueAnnotation v{input.pages[a->page], a->values, {}};
    if (!a->xpath.empty()) {  // the editor's occurrence: the values inside its nodes
      v.scope = ScopeOf(*a, *input.pages[a->page]);
      if (v.scope.empty()) {
        pos->empty_xpath.push_back(input.pages[a->page]->url());
        continue;
      }
    }
    values.push_back(std::move(v));
    source.push_back(a);
  }
  const std::vector<ResolvedAnnotation> resolved = ResolveValues(values);
  for (size_t i = 0; i < resolved.size(); ++i) {
    const size_t p = source[i]->page;
    for (const std::string& v : resolved[i].not_found) {
      pos->not_found.push_back(input.pages[p]->url() + ": " + v);
      pos->not_found_described.push_back(
          DescribeNotFoundValue(*input.pages[p], *source[i], v, pos->not_found.size()));
    }
    if (!resolved[i].not_found.empty()) continue;  // the page's annotation is unusable
    pos->annotated[p] = true;
    absl::flat_hash_map<const void*, size_t> rank;
    size_t last = 0;
    if (source[i]->partial) {
      rank = html::PreorderRanks(*input.pages[p]);
      VERTEX_RETURN_IF_ERROR(CheckPartialOrder(*source[i], *input.pages[p], resolved[i], rank, &last));
      pos->partial[p] = true;
    }
    if (multi_valued) {  // a list shows a value once per item that has it
      for (html::Node n : resolved[i].repeats) {
        if (!source[i]->partial || rank.at(n.raw()) <= last) pos->nodes[p].push_back(n);
      }
    }
    std::vector<std::string>& expected = pos->expected[p];
    pos->source = resolved[i].source;
    for (size_t k = 0; k < resolved[i].nodes.size(); ++k) {
      const html::Node n = resolved[i].nodes[k];
      const ValueLocation& at = resolved[i].locations[k];
      if (std::find(pos->nodes[p].begin(), pos->nodes[p].end(), n) == pos->nodes[p].end()) pos->nodes[p].push_back(n);
      expected.push_back(html::FoldText(values[i].values[k]));
      if (at.source == ValueSource::kAttribute) pos->value_attributes.insert(at.attribute);
      if (at.source == ValueSource::kJsonLd) pos->json_paths.insert(at.json_path);
      AddToSite(p, n, values[i].values[k], &pos->sites);
    }
    if (source[i]->partial && !resolved[i].nodes.empty()) {
      const html::Node tail = resolved[i].nodes.back();
      for (ValueSite& site : pos->sites) site.open_end |= site.page == p && site.node == tail;
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Positives> CollectPositives(const RuleLearnInput& input,
                                           const std::vector<const AttributeAnnotation*>& anns, bool multi_valued) {
  Positives pos;
  pos.annotated.assign(input.pages.size(), false);
  pos.partial.assign(input.pages.size(), false);
  pos.nodes.resize(input.pages.size());
  VERTEX_RETURN_IF_ERROR(AddValueAnnotations(input, anns, multi_valued, &pos));
  for (const AttributeAnnotation* a : anns) {
    if (!a->values.empty()) continue;
    if (a->xpath.empty()) {  // absent from the page
      pos.annotated[a->page] = true;
      continue;
    }
    absl::StatusOr<html::XPath> x = html::XPath::Compile(a->xpath);  // validated before
    absl::StatusOr<std::vector<html::Node>> nodes = x->Select(*input.pages[a->page]);
    std::vector<html::Node>& out = pos.nodes[a->page];
    for (html::Node n : *nodes) {
      if (rule::IsValueCandidate(n)) out.push_back(n);
    }
    if (out.empty()) {
      pos.empty_xpath.push_back(input.pages[a->page]->url());
    } else {
      pos.annotated[a->page] = true;
    }
  }
  for (const auto& n : pos.nodes) pos.count += n.size();
  return pos;
}

// The nodes of `xpath` on `page` that count as candidates.
std::vector<html::Node> Candidates(const html::XPath& xpath, const html::Page& page) {
  std::vector<html::Node> out;
  absl::StatusOr<std::vector<html::Node>> nodes = xpath.Select(page);
  if (!nodes.ok()) return out;
  for (html::Node n : *nodes) {
    if (rule::IsValueCandidate(n)) out.push_back(n);
  }
  return out;
}

bool SameNodes(std::vector<html::Node> a, std::vector<html::Node> b) {
  const auto less = [](html::Node x, html::Node y) { return x.raw() < y.raw(); };
  std::sort(a.begin(), a.end(), less);
  std::sort(b.begin(), b.end(), less);
  return a == b;
}

struct Positional {
  v1::Position position;
  std::string xpath;
  double support = 0;
};

// How `selector` does as a precise XPath: nullopt unless it selects exactly
// the positives on annotated pages and at most one node elsewhere.
std::optional<double> PreciseSupport(const rule::FeatureSelector& selector, const std::vector<ExamplePage>& pages) {
  const auto candidates = [&](const html::Page& page) {
    std::vector<html::Node> nodes = selector.Select(page);
    std::erase_if(nodes, [](html::Node n) { return !rule::IsValueCandidate(n); });
    return nodes;
  };
  size_t unannotated = 0, supported = 0;
  for (const ExamplePage& p : pages) {
    if (p.annotated && !SameNodes(JudgedNodes(p, candidates(*p.page)), p.positives)) return std::nullopt;
  }
  for (const ExamplePage& p : pages) {
    if (p.annotated) continue;
    const size_t n = candidates(*p.page).size();
    if (n > 1) return std::nullopt;
    ++unannotated;
    supported += n;
  }
  return unannotated ? static_cast<double>(supported) / unannotated : 1.0;
}

v1::Position MakePosition(v1::Position::Kind kind, int n) {
  v1::Position p;
  p.set_kind(kind);
  p.set_n(n);
  return p;
}

// The positional predicate with the best support that makes `learned`
// precise: (X)[i], (X)[last()-j] or X[i] on the last step.
std::optional<Positional> TryPositional(const LearnedXPath& learned, bool text_nodes,
                                        const std::vector<ExamplePage>& pages, int max_position) {
  std::vector<v1::Position> variants;
  for (int i = 1; i <= max_position; ++i) variants.push_back(MakePosition(v1::Position::FROM_START, i));
  for (int j = 0; j < max_position; ++j) variants.push_back(MakePosition(v1::Position::FROM_END, j));
  for (int i = 1; i <= max_position; ++i) variants.push_back(MakePosition(v1::Position::STEP, i));
  // Evaluated natively; CheckNative later compares the winner with libxml2.
  std::optional<Positional> best;
  for (const v1::Position& v : variants) {
    std::optional<double> support = PreciseSupport(rule::FeatureSelector(learned.features, text_nodes, v), pages);
    if (support && (!best || *support > best->support)) {
      best = Positional{v, rule::RenderPositionalXPath(learned.features, text_nodes, v), *support};
    }
  }
  return best;
}

// The engine evaluates the features natively: it must select what libxml2
// selects with the XPath, on the annotated pages and a few others (libxml2
// walks the whole preceding:: axis for every candidate of an anchored XPath:
// tens of milliseconds per page).
absl::Status CheckNative(const v1::AttributeRule& rule, const std::vector<ExamplePage>& pages,
                         size_t unannotated_pages) {
  absl::StatusOr<rule::FeatureSelector> native = rule::FeatureSelector::Create(rule);
  if (!native.ok()) return native.status();
  absl::StatusOr<html::XPath> x = html::XPath::Compile(rule.xpath());
  if (!x.ok()) return x.status();
  size_t unannotated = 0;
  for (const ExamplePage& p : pages) {
    if (!p.annotated && unannotated++ >= unannotated_pages) continue;
    absl::StatusOr<std::vector<html::Node>> want = x->Select(*p.page);
    if (!want.ok()) return want.status();
    if (native->Select(*p.page) != *want) {
      return absl::InternalError(absl::StrCat("native evaluation of ", rule.xpath(), " disagrees with libxml2 on ",
                                              p.page->url()));
    }
  }
  return absl::OkStatus();
}

struct AttributeContext {
  const schema::CompiledSchema& schema;
  size_t index;
  const v1::AttributeSchema& attr;
  const RuleLearnInput& input;
  const RuleLearnOptions& options;
  // Algorithm 3's work on input.pages, shared by the attributes.
  const SampleIndex& sample;
};

// Trains the classifier for an imprecise rXPath; kLearntClassifier, or the
// reason it cannot be used.
DiagnosticCode TrainOnRXPath(const AttributeContext& c, const std::vector<ExamplePage>& pages,
                             v1::AttributeRule* rule, std::string* message) {
  absl::StatusOr<html::XPath> x = html::XPath::Compile(rule->xpath());
  if (!x.ok()) {
    *message = std::string(x.status().message());
    return DiagnosticCode::kNoRecallOneXPath;
  }
  std::vector<html::Node> positives, negatives;
  for (const ExamplePage& p : pages) {
    if (!p.annotated) continue;
    for (html::Node n : JudgedNodes(p, Candidates(*x, *p.page))) {  // a partial page's tail is not a negative
      const bool pos = std::find(p.positives.begin(), p.positives.end(), n) != p.positives.end();
      (pos ? positives : negatives).push_back(n);
    }
  }
  if (negatives.empty()) {
    *message = "the XPath selects several nodes on some unannotated sample pages and none but the annotated "
               "ones on annotated pages; annotate one of those pages";
    return DiagnosticCode::kAmbiguous;
  }
  absl::StatusOr<v1::Classifier> trained = TrainClassifier(positives, negatives, c.options.classifier);
  if (!trained.ok()) {
    *message = absl::StrCat("classifier: ", trained.status().message());
    return DiagnosticCode::kClassifierBelowThreshold;
  }
  absl::StatusOr<rule::CompiledClassifier> compiled = rule::CompiledClassifier::Create(*trained);
  if (!compiled.ok()) {
    *message = absl::StrCat("classifier: ", compiled.status().message());
    return DiagnosticCode::kClassifierBelowThreshold;
  }
  for (const ExamplePage& p : pages) {
    if (!p.annotated) continue;
    const std::vector<html::Node> nodes = Candidates(*x, *p.page);
    std::vector<double> prob;
    for (html::Node n : nodes) prob.push_back(compiled->Probability(*p.page, n).value_or(0));
    std::vector<html::Node> won;
    for (size_t i : rule::PickWinners(prob, c.attr.multi_valued())) won.push_back(nodes[i]);
    if (!SameNodes(JudgedNodes(p, won), p.positives)) {
      *message = absl::StrCat("the classifier does not pick the annotated node(s) of ", p.page->url(),
                              " with P(+) > 0.5 (", won.size(), " picked of ", nodes.size(), " candidates)");
      return DiagnosticCode::kClassifierBelowThreshold;
    }
  }
  rule->set_method(v1::AttributeRule::CLASSIFIER);
  *rule->mutable_classifier() = *std::move(trained);
  return DiagnosticCode::kLearntClassifier;
}

// kLearnt when `rule` gives back every annotated value, else
// kValueMismatch with the first page where it does not.
// On a partial page (the first values of a list) the labelled nodes may
// hold values past the labelled ones (a split text going on): every wanted
// value must be given, and in each node no unwanted value may come before
// its last wanted one. The values it gives past those are dropped from
// `*got`.
bool PartialValuesFit(const std::vector<std::string>& want, std::vector<std::vector<std::string>> per_node,
                      std::vector<std::string>* got) {
  const std::set<std::string> wanted(want.begin(), want.end());
  got->clear();
  for (const std::vector<std::string>& values : per_node) {
    size_t last = 0;
    for (size_t k = 0; k < values.size(); ++k) {
      if (wanted.count(values[k])) last = k + 1;
    }
    for (size_t k = 0; k < last; ++k) {
      if (!wanted.count(values[k])) return false;
      got->push_back(values[k]);
    }
    if (last == 0) got->push_back(values.empty() ? "<none>" : values[0]);
  }
  return true;
}

DiagnosticCode CheckValues(const AttributeContext& c, const Positives& pos, const v1::AttributeRule& rule,
                           std::string* message) {
  for (const auto& [p, expected] : pos.expected) {
    std::vector<std::string> got;
    std::vector<std::vector<std::string>> per_node;
    for (html::Node n : pos.nodes[p]) {
      const std::vector<std::string> v = rule::NodeValues(*c.input.pages[p], n, rule, c.schema, c.index);
      if (v.empty()) got.push_back("<none>");
      for (const std::string& value : v) got.push_back(html::FoldText(value));
      per_node.emplace_back(got.end() - static_cast<std::ptrdiff_t>(v.size()), got.end());
    }
    if (pos.partial[p] && !PartialValuesFit(expected, per_node, &got)) {
      *message = absl::StrCat("on ", c.input.pages[p]->url(), " the rule gives [", absl::StrJoin(got, " | "),
                              "] where the partial annotation says the list begins [", absl::StrJoin(expected, " | "),
                              "]");
      return DiagnosticCode::kValueMismatch;
    }
    std::vector<std::string> want = expected;
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    if (c.attr.multi_valued()) {  // repeated list items give a value once per item
      got.erase(std::unique(got.begin(), got.end()), got.end());
      want.erase(std::unique(want.begin(), want.end()), want.end());
    }
    if (got != want) {
      *message = absl::StrCat("on ", c.input.pages[p]->url(), " the rule gives [", absl::StrJoin(got, " | "),
                              "] where the annotation says [", absl::StrJoin(want, " | "), "]");
      return DiagnosticCode::kValueMismatch;
    }
  }
  return DiagnosticCode::kLearnt;
}

// Each value site as a list: the source text of its node (under `rule`)
// that holds its values — the first that holds them all, else the first.
std::vector<ListExample> SiteLists(const AttributeContext& c, const Positives& pos, const v1::AttributeRule& rule) {
  std::vector<ListExample> out;
  for (const ValueSite& site : pos.sites) {
    const std::vector<std::string> texts = rule::SourceTexts(*c.input.pages[site.page], site.node, rule);
    const auto holds_all = [&site](const std::string& text) {
      const std::string folded = html::FoldText(text);
      return std::all_of(site.values.begin(), site.values.end(),
                         [&](const std::string& v) { return folded.find(html::FoldText(v)) != std::string::npos; });
    };
    auto it = std::find_if(texts.begin(), texts.end(), holds_all);
    if (it == texts.end()) it = texts.begin();
    out.push_back({it == texts.end() ? std::string() : *it, site.values});
  }
  return out;
}

// Whether each value site may go on past its values (ValueSite::open_end).
std::vector<bool> OpenEnds(const Positives& pos) {
  std::vector<bool> out;
  for (const ValueSite& site : pos.sites) out.push_back(site.open_end);
  return out;
}

// The split (multi-valued attributes whose values share a text) and the
// range examples: one per list, its stretch from first to last value.
// A list whose text may go on past its labelled values (`open_end`, a partial
// label) is taken to run to the end of its text: its range example is the
// stretch from its first value to the text's end (trailing spaces trimmed).
DiagnosticCode LearnListShape(const AttributeContext& c, const std::vector<ListExample>& lists,
                              const std::vector<bool>& open_end, v1::AttributeRule* rule,
                              std::vector<RangeExample>* examples, std::string* message) {
  if (c.attr.multi_valued()) {
    absl::StatusOr<std::optional<v1::ValueSplit>> split = LearnSplit(lists);
    if (!split.ok()) {
      *message = absl::StrCat("split: ", split.status().message());
      return split.status().code() == absl::StatusCode::kFailedPrecondition ? DiagnosticCode::kValueMismatch
                                                                             : DiagnosticCode::kRangeInconsistent;
    }
    if (split->has_value()) *rule->mutable_split() = **split;
  }
  for (size_t i = 0; i < lists.size(); ++i) {
    const ListExample& list = lists[i];
    absl::StatusOr<RangeExample> span = ListSpan(list);
    if (!span.ok()) {
      *message = std::string(span.status().message());
      return DiagnosticCode::kRangeInconsistent;
    }
    if (open_end[i]) {
      const size_t at = span->node_text.find(span->value);
      if (at != std::string::npos) {
        span->value = span->node_text.substr(at);
        while (!span->value.empty() && absl::ascii_isspace(static_cast<unsigned char>(span->value.back()))) {
          span->value.pop_back();
        }
      }
    }
    examples->push_back(*std::move(span));
  }
  return DiagnosticCode::kLearnt;
}

// Split, range and regex: the rule must give back every annotated value.
// The first range candidate (range_learner.h RangeCandidates) with which it
// does is kept.
DiagnosticCode SelectValues(const AttributeContext& c, const Positives& pos, v1::AttributeRule* rule,
                            std::string* message) {
  if (pos.sites.empty()) return CheckValues(c, pos, *rule, message);
  std::vector<RangeExample> examples;
  const DiagnosticCode shape = LearnListShape(c, SiteLists(c, pos, *rule), OpenEnds(pos), rule, &examples, message);
  absl::StatusOr<std::vector<std::optional<v1::TextRange>>> candidates =
      absl::FailedPreconditionError("no range learnt");
  if (shape == DiagnosticCode::kLearnt) {
    candidates = RangeCandidates(examples, c.schema.ValueRegex(c.index) != nullptr);
    if (!candidates.ok()) *message = std::string(candidates.status().message());
  }
  if (!candidates.ok()) {  // still, the whole text (or the regex alone) may give the values
    rule->clear_range();
    rule->clear_split();
    std::string unused;
    if (CheckValues(c, pos, *rule, &unused) == DiagnosticCode::kLearnt) return DiagnosticCode::kLearnt;
    return shape == DiagnosticCode::kLearnt ? DiagnosticCode::kRangeInconsistent : shape;
  }
  std::string first_mismatch;
  for (const std::optional<v1::TextRange>& range : *candidates) {
    if (range) {
      *rule->mutable_range() = *range;
    } else {
      rule->clear_range();
    }
    std::string mismatch;
    if (CheckValues(c, pos, *rule, &mismatch) == DiagnosticCode::kLearnt) return DiagnosticCode::kLearnt;
    if (first_mismatch.empty()) first_mismatch = std::move(mismatch);
  }
  *message = std::move(first_mismatch);
  return DiagnosticCode::kValueMismatch;
}

// A learnt diagnostic when some annotated values were not on their pages:
// the rule was learnt from the other pages, but the editor's values were
// not all used, so the code is value_not_found (learnt stays true) and the
// message says which values, the closest text to each, then what was
// learnt. Unchanged when every value was found.
AttributeDiagnostic WithValuesNotFound(const Positives& pos, AttributeDiagnostic d) {
  if (pos.not_found.empty()) return d;
  for (const std::string& nf : pos.not_found) d.pages.push_back(nf);
  d.code = DiagnosticCode::kValueNotFound;
  d.message = absl::StrCat(absl::StrJoin(pos.not_found_described, "; "), "; learnt from the other annotated pages: ",
                           d.message);
  return d;
}

AttributeDiagnostic NoPositives(const Positives& pos, AttributeDiagnostic d) {
  if (!pos.not_found.empty()) {
    d.code = DiagnosticCode::kValueNotFound;
    d.message = absl::StrJoin(pos.not_found_described, "; ");
  } else if (!pos.empty_xpath.empty()) {
    d.code = DiagnosticCode::kXPathSelectsNothing;
    d.message = "the annotated XPath selects no node on " + absl::StrJoin(pos.empty_xpath, ", ");
  } else {
    d.code = DiagnosticCode::kNotAnnotated;
    d.message = "annotated as absent on every annotated page";
  }
  return d;
}

// The learnt rule with another precise feature set.
v1::AttributeRule Alternative(const v1::AttributeRule& rule, const std::vector<rule::Feature>& features) {
  v1::AttributeRule alt = rule;
  alt.clear_features();
  for (const rule::Feature& f : features) *alt.add_features() = rule::FeatureToProto(f);
  alt.set_xpath(rule::RenderXPath(features, rule.text_nodes()));
  return alt;
}

// What the rule reads from its nodes (value_attribute, json_path) for the
// value annotations' nodes; InvalidArgument when they hold their values in
// different attributes or JSON paths (one rule reads one).
absl::StatusOr<v1::AttributeRule> ValueReader(const Positives& pos) {
  v1::AttributeRule reader;
  if (pos.value_attributes.size() > 1 || pos.json_paths.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the annotated values sit in different ", pos.json_paths.size() > 1 ? "JSON-LD paths" : "attributes", " (",
        absl::StrJoin(pos.json_paths.size() > 1 ? pos.json_paths : pos.value_attributes, ", "),
        ") on different pages; one rule reads one"));
  }
  if (!pos.value_attributes.empty()) reader.set_value_attribute(*pos.value_attributes.begin());
  if (!pos.json_paths.empty()) reader.set_json_path(*pos.json_paths.begin());
  return reader;
}

// XPathLearnOptions::value_filter for a rule reading its values as `reader`
// does: a node can hold a value when it gives one (the type's regex finds
// one in the text it offers). Null for text nodes of an untyped attribute:
// every node can.
std::function<bool(const html::Page&, html::Node)> ValueFilter(const AttributeContext& c,
                                                              const v1::AttributeRule& reader) {
  if (c.schema.ValueRegex(c.index) == nullptr && reader.value_attribute().empty() && reader.json_path().empty()) {
    return [](const html::Page&, html::Node n) { return !n.is_element() || !html::RenderedLines(n).empty(); };
  }
  return [&c, reader](const html::Page& page, html::Node n) {
    return !rule::NodeValues(page, n, reader, c.schema, c.index).empty();
  };
}

// A value found only in JSON-LD: the rule reads `reader`'s json_path from
// every JSON-LD script of the page (the first that has it, for a
// single-valued attribute); no XPath is learnt, the scripts are the nodes.
AttributeDiagnostic LearnFromJsonLd(const AttributeContext& c, const Positives& pos, const v1::AttributeRule& reader,
                                    const std::vector<ExamplePage>& pages, v1::AttributeRule* rule,
                                    AttributeDiagnostic d) {
  rule->set_attribute(c.attr.name());
  rule->set_method(v1::AttributeRule::XPATH);
  rule->set_xpath("//script[contains(@type,'ld+json')]");
  rule->set_multi_valued(c.attr.multi_valued());
  rule->set_json_path(reader.json_path());
  rule->set_precision(1);
  size_t unannotated = 0, supported = 0;
  absl::StatusOr<html::XPath> x = html::XPath::Compile(rule->xpath());
  if (!x.ok()) {
    d.code = DiagnosticCode::kNoRecallOneXPath;
    d.message = std::string(x.status().message());
    return d;
  }
  for (const ExamplePage& p : pages) {
    if (p.annotated) continue;
    ++unannotated;
    for (html::Node n : Candidates(*x, *p.page)) {
      if (!rule::NodeValues(*p.page, n, *rule, c.schema, c.index).empty()) {
        ++supported;
        break;
      }
    }
  }
  rule->set_support(unannotated ? static_cast<double>(supported) / unannotated : 1.0);
  std::string message;
  const DiagnosticCode values = SelectValues(c, pos, rule, &message);
  d.code = values;
  if (values != DiagnosticCode::kLearnt) {
    d.message = message;
    return d;
  }
  d.learnt = true;
  d.message = absl::StrCat("the values are found only in JSON-LD: XPath ", rule->xpath(), " reads \"",
                           rule->json_path(), "\" (support ", rule->support(), ")");
  return WithValuesNotFound(pos, std::move(d));
}

// Every value annotated on the sample pages, of every attribute: data of
// those pages, never an anchor of any attribute's XPath.
std::vector<std::string> AnnotatedValues(const RuleLearnInput& input) {
  std::vector<std::string> out;
  for (const AttributeAnnotation& a : input.annotations) out.insert(out.end(), a.values.begin(), a.values.end());
  return out;
}

absl::StatusOr<AttributeDiagnostic> LearnAttribute(const AttributeContext& c,
                                                   const std::vector<const AttributeAnnotation*>& anns,
                                                   v1::AttributeRule* rule, std::vector<v1::AttributeRule>* alternatives) {
  AttributeDiagnostic d;
  d.attribute = c.attr.name();
  if (anns.empty()) {
    d.message = "no annotation";
    return d;
  }
  VERTEX_ASSIGN_OR_RETURN(const Positives pos, CollectPositives(c.input, anns, c.attr.multi_valued()));
  if (pos.count == 0) return NoPositives(pos, std::move(d));
  std::vector<ExamplePage> pages;
  for (size_t p = 0; p < c.input.pages.size(); ++p) {
    pages.push_back({c.input.pages[p], pos.nodes[p], pos.annotated[p], pos.partial[p]});
  }
  absl::StatusOr<v1::AttributeRule> reader = ValueReader(pos);
  if (!reader.ok()) {
    d.code = DiagnosticCode::kValueMismatch;
    d.message = std::string(reader.status().message());
    return d;
  }
  if (pos.source == ValueSource::kJsonLd) return LearnFromJsonLd(c, pos, *reader, pages, rule, std::move(d));
  XPathLearnOptions xo = c.options.xpath;
  xo.multi_valued = c.attr.multi_valued();
  xo.refused_anchor_texts = AnnotatedValues(c.input);
  xo.value_filter = ValueFilter(c, *reader);
  absl::StatusOr<LearnedXPath> learned = LearnXPath(pages, xo, &c.sample);
  if (!learned.ok()) {
    d.code = DiagnosticCode::kNoRecallOneXPath;
    d.message = std::string(learned.status().message());
    return d;
  }
  d.cap_hit = learned->cap_hit;
  d.sets_evaluated = learned->sets_evaluated;
  rule->set_attribute(c.attr.name());
  rule->set_method(v1::AttributeRule::XPATH);
  rule->set_xpath(learned->xpath);
  rule->set_multi_valued(c.attr.multi_valued());
  rule->set_precision(learned->precision);
  rule->set_support(learned->support);
  rule->set_distance(learned->distance);
  rule->set_value_attribute(reader->value_attribute());
  bool text_nodes = false;
  for (const auto& n : pos.nodes) text_nodes |= !n.empty() && n[0].is_text();
  rule->set_text_nodes(text_nodes);
  for (const rule::Feature& f : learned->features) *rule->add_features() = rule::FeatureToProto(f);
  DiagnosticCode code = DiagnosticCode::kLearnt;
  if (!learned->precise) {
    std::optional<Positional> positional;
    if (!c.attr.multi_valued()) positional = TryPositional(*learned, text_nodes, pages, c.options.max_position);
    if (positional) {
      rule->set_xpath(positional->xpath);
      *rule->mutable_position() = positional->position;
      rule->set_precision(1);
      rule->set_support(positional->support);
    } else {
      code = TrainOnRXPath(c, pages, rule, &d.message);
      if (code != DiagnosticCode::kLearntClassifier && code != DiagnosticCode::kAmbiguous) {
        d.code = code;
        return d;
      }
    }
  }
  if (absl::Status s = CheckNative(*rule, pages, c.options.libxml2_check_pages); !s.ok()) {
    d.code = DiagnosticCode::kNoRecallOneXPath;
    d.message = std::string(s.message());
    return d;
  }
  std::string value_message;
  const DiagnosticCode values = SelectValues(c, pos, rule, &value_message);
  if (values != DiagnosticCode::kLearnt) {
    d.code = values;
    d.message = value_message;
    return d;
  }
  d.code = code;
  d.learnt = true;
  if (learned->precise) {
    for (const std::vector<rule::Feature>& alt : learned->alternatives) alternatives->push_back(Alternative(*rule, alt));
  }
  if (d.message.empty()) {
    d.message = absl::StrCat(code == DiagnosticCode::kLearntClassifier ? "rXPath " : "XPath ", rule->xpath(),
                             rule->value_attribute().empty() ? "" : " @" + rule->value_attribute(),
                             " (precision ", rule->precision(), ", support ", rule->support(), ")");
  }
  return WithValuesNotFound(pos, std::move(d));
}

}  // namespace

const char* DiagnosticCodeName(DiagnosticCode code) {
  switch (code) {
    case DiagnosticCode::kLearnt:
      return "learnt";
    case DiagnosticCode::kLearntClassifier:
      return "learnt_classifier";
    case DiagnosticCode::kAmbiguous:
      return "ambiguous";
    case DiagnosticCode::kNotAnnotated:
      return "not_annotated";
    case DiagnosticCode::kValueNotFound:
      return "value_not_found";
    case DiagnosticCode::kXPathSelectsNothing:
      return "xpath_selects_nothing";
    case DiagnosticCode::kNoRecallOneXPath:
      return "no_recall_1_xpath";
    case DiagnosticCode::kClassifierBelowThreshold:
      return "classifier_below_threshold";
    case DiagnosticCode::kRangeInconsistent:
      return "range_inconsistent";
    case DiagnosticCode::kValueMismatch:
      return "value_mismatch";
  }
  return "unknown";
}

namespace {

// What learning one attribute gave.
struct AttributeOutcome {
  absl::StatusOr<AttributeDiagnostic> diagnostic = AttributeDiagnostic{};
  v1::AttributeRule rule;
  std::vector<v1::AttributeRule> alternatives;
};

AttributeOutcome LearnOne(const schema::CompiledSchema& schema, size_t i, const RuleLearnInput& input,
                          const RuleLearnOptions& options, const SampleIndex& sample) {
  std::vector<const AttributeAnnotation*> anns;
  for (const AttributeAnnotation& a : input.annotations) {
    if (a.attribute == schema.attribute(i).name()) anns.push_back(&a);
  }
  const AttributeContext c{schema, i, schema.attribute(i), input, options, sample};
  AttributeOutcome out;
  out.diagnostic = LearnAttribute(c, anns, &out.rule, &out.alternatives);
  return out;
}

}  // namespace

absl::StatusOr<RuleLearnResult> LearnRule(const schema::CompiledSchema& schema, const RuleLearnInput& input,
                                          const RuleLearnOptions& options) {
  if (absl::Status s = ValidateAnnotations(schema, input); !s.ok()) return s;
  // Attributes are independent: learnt on several threads (pages are
  // immutable), merged in schema order as one thread would. What Algorithm 3
  // derives from the pages alone is shared (SampleIndex).
  std::vector<AttributeOutcome> outcomes(schema.size());
  const SampleIndex sample(input.pages);
  std::atomic<size_t> next{0};
  const auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < outcomes.size();) outcomes[i] = LearnOne(schema, i, input, options, sample);
  };
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const size_t threads = std::min(options.threads > 0 ? static_cast<size_t>(options.threads) : cores, outcomes.size());
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < threads; ++t) helpers.emplace_back(worker);
  worker();
  for (std::thread& t : helpers) t.join();
  RuleLearnResult result;
  for (AttributeOutcome& o : outcomes) {
    if (!o.diagnostic.ok()) return o.diagnostic.status();
    if (o.diagnostic->learnt) *result.rule.add_attributes() = std::move(o.rule);
    for (v1::AttributeRule& a : o.alternatives) result.alternatives.push_back(std::move(a));
    result.diagnostics.push_back(*std::move(o.diagnostic));
  }
  return result;
}

}  // namespace vertex::learn
