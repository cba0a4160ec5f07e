#include "common/learn/rule_learner.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/learn/annotation.h"
#include "common/rule/feature_selector.h"
#include "common/learn/range_learner.h"
#include "common/rule/text_range.h"
#include "common/rule/value.h"

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
  if (!a.values.empty() && !a.xpath.empty()) {
    return absl::InvalidArgumentError(Where(i) + "give either values or an XPath, not both");
  }
  if (a.values.size() > 1 && !schema.attribute(index).multi_valued()) {
    return absl::InvalidArgumentError(absl::StrCat(Where(i), a.values.size(), " values for single-valued attribute \"",
                                                   a.attribute, "\""));
  }
  for (const std::string& v : a.values) {
    if (html::IsBlank(v)) return absl::InvalidArgumentError(Where(i) + "a value is empty");
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

// The annotated nodes of one attribute, page by page.
struct Positives {
  std::vector<bool> annotated;
  std::vector<std::vector<html::Node>> nodes;
  // Pages annotated with values: the folded values expected there.
  std::map<size_t, std::vector<std::string>> expected;
  std::vector<RangeExample> range_examples;
  std::vector<std::string> not_found;     // "URL: value"
  std::vector<std::string> empty_xpath;   // URLs
  size_t count = 0;
};

void AddValueAnnotations(const RuleLearnInput& input, const std::vector<const AttributeAnnotation*>& anns,
                         bool multi_valued, Positives* pos) {
  std::vector<ValueAnnotation> values;
  std::vector<size_t> page_of;
  for (const AttributeAnnotation* a : anns) {
    if (a->values.empty()) continue;
    values.push_back({input.pages[a->page], a->values});
    page_of.push_back(a->page);
  }
  const std::vector<ResolvedAnnotation> resolved = ResolveValues(values);
  for (size_t i = 0; i < resolved.size(); ++i) {
    const size_t p = page_of[i];
    for (const std::string& v : resolved[i].not_found) pos->not_found.push_back(input.pages[p]->url() + ": " + v);
    if (!resolved[i].not_found.empty()) continue;  // the page's annotation is unusable
    pos->annotated[p] = true;
    if (multi_valued) {  // a list shows a value once per item that has it
      for (html::Node n : resolved[i].repeats) pos->nodes[p].push_back(n);
    }
    std::vector<std::string>& expected = pos->expected[p];
    for (size_t k = 0; k < resolved[i].nodes.size(); ++k) {
      const html::Node n = resolved[i].nodes[k];
      if (std::find(pos->nodes[p].begin(), pos->nodes[p].end(), n) == pos->nodes[p].end()) pos->nodes[p].push_back(n);
      expected.push_back(html::FoldText(values[i].values[k]));
      pos->range_examples.push_back({n.Text(), values[i].values[k]});
    }
  }
}

Positives CollectPositives(const RuleLearnInput& input, const std::vector<const AttributeAnnotation*>& anns,
                           bool multi_valued) {
  Positives pos;
  pos.annotated.assign(input.pages.size(), false);
  pos.nodes.resize(input.pages.size());
  AddValueAnnotations(input, anns, multi_valued, &pos);
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
    if (p.annotated && !SameNodes(candidates(*p.page), p.positives)) return std::nullopt;
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
    for (html::Node n : Candidates(*x, *p.page)) {
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
    if (!SameNodes(won, p.positives)) {
      *message = absl::StrCat("the classifier does not pick the annotated node(s) of ", p.page->url(),
                              " with P(+) > 0.5 (", won.size(), " picked of ", nodes.size(), " candidates)");
      return DiagnosticCode::kClassifierBelowThreshold;
    }
  }
  rule->set_method(v1::AttributeRule::CLASSIFIER);
  *rule->mutable_classifier() = *std::move(trained);
  return DiagnosticCode::kLearntClassifier;
}

// Range and regex: the rule must give back every annotated value.
DiagnosticCode SelectValues(const AttributeContext& c, const Positives& pos, v1::AttributeRule* rule,
                            std::string* message) {
  if (!pos.range_examples.empty()) {
    absl::StatusOr<std::optional<v1::TextRange>> range = LearnTextRange(pos.range_examples);
    if (range.ok() && range->has_value()) *rule->mutable_range() = **range;
    if (!range.ok() && c.schema.ValueRegex(c.index) == nullptr) {
      *message = std::string(range.status().message());
      return DiagnosticCode::kRangeInconsistent;
    }
  }
  for (const auto& [p, expected] : pos.expected) {
    std::vector<std::string> got;
    for (html::Node n : pos.nodes[p]) {
      const std::vector<std::string> v = rule::NodeValues(*c.input.pages[p], n, *rule, c.schema, c.index);
      if (v.empty()) got.push_back("<none>");
      for (const std::string& value : v) got.push_back(html::FoldText(value));
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

AttributeDiagnostic NoPositives(const Positives& pos, AttributeDiagnostic d) {
  if (!pos.not_found.empty()) {
    d.code = DiagnosticCode::kValueNotFound;
    d.message = "value not found: " + absl::StrJoin(pos.not_found, "; ");
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

// Every value annotated on the sample pages, of every attribute: data of
// those pages, never an anchor of any attribute's XPath.
std::vector<std::string> AnnotatedValues(const RuleLearnInput& input) {
  std::vector<std::string> out;
  for (const AttributeAnnotation& a : input.annotations) out.insert(out.end(), a.values.begin(), a.values.end());
  return out;
}

AttributeDiagnostic LearnAttribute(const AttributeContext& c, const std::vector<const AttributeAnnotation*>& anns,
                                   v1::AttributeRule* rule, std::vector<v1::AttributeRule>* alternatives) {
  AttributeDiagnostic d;
  d.attribute = c.attr.name();
  if (anns.empty()) {
    d.message = "no annotation";
    return d;
  }
  const Positives pos = CollectPositives(c.input, anns, c.attr.multi_valued());
  if (pos.count == 0) return NoPositives(pos, std::move(d));
  std::vector<ExamplePage> pages;
  for (size_t p = 0; p < c.input.pages.size(); ++p) pages.push_back({c.input.pages[p], pos.nodes[p], pos.annotated[p]});
  XPathLearnOptions xo = c.options.xpath;
  xo.multi_valued = c.attr.multi_valued();
  xo.refused_anchor_texts = AnnotatedValues(c.input);
  if (c.schema.ValueRegex(c.index) != nullptr) {
    xo.value_filter = [&c](html::Node n) { return c.schema.SelectValue(c.index, n.Text()).has_value(); };
  }
  absl::StatusOr<LearnedXPath> learned = LearnXPath(pages, xo);
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
                             " (precision ", rule->precision(), ", support ", rule->support(), ")");
  }
  for (const std::string& nf : pos.not_found) d.pages.push_back(nf);
  return d;
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

absl::StatusOr<RuleLearnResult> LearnRule(const schema::CompiledSchema& schema, const RuleLearnInput& input,
                                          const RuleLearnOptions& options) {
  if (absl::Status s = ValidateAnnotations(schema, input); !s.ok()) return s;
  RuleLearnResult result;
  for (size_t i = 0; i < schema.size(); ++i) {
    std::vector<const AttributeAnnotation*> anns;
    for (const AttributeAnnotation& a : input.annotations) {
      if (a.attribute == schema.attribute(i).name()) anns.push_back(&a);
    }
    const AttributeContext c{schema, i, schema.attribute(i), input, options};
    v1::AttributeRule rule;
    AttributeDiagnostic d = LearnAttribute(c, anns, &rule, &result.alternatives);
    if (d.learnt) *result.rule.add_attributes() = std::move(rule);
    result.diagnostics.push_back(std::move(d));
  }
  return result;
}

}  // namespace vertex::learn
