#include "common/workflow/editor_loop.h"

#include "absl/strings/str_cat.h"
#include "common/html/text.h"
#include "common/rule/feature_selector.h"
#include "common/rule/value.h"

namespace vertex::workflow {

struct RuleChecker::Alternative {
  v1::AttributeRule rule;
  size_t schema_index;
  rule::FeatureSelector selector;
};

namespace {

// The first value an alternative gives from `selected` (the nodes its
// selector selects on `page`), folded; "" when none.
std::string AlternativeValue(const v1::AttributeRule& rule, const std::vector<html::Node>& selected,
                             size_t schema_index, const schema::CompiledSchema& schema, const html::Page& page) {
  for (html::Node n : selected) {
    if (!rule::IsValueCandidate(n)) continue;
    const std::vector<std::string> v = rule::NodeValues(page, n, rule, schema, schema_index);
    if (!v.empty()) return html::FoldText(v[0]);
  }
  return "";
}

}  // namespace

RuleChecker::RuleChecker(const extract::CompiledRule& rule, const std::vector<v1::AttributeRule>& alternatives)
    : rule_(rule) {
  for (const v1::AttributeRule& a : alternatives) {
    const int index = rule.schema().Find(a.attribute());
    absl::StatusOr<rule::FeatureSelector> selector = rule::FeatureSelector::Create(a);
    if (index < 0 || a.multi_valued() || !selector.ok()) continue;  // only single-valued runner-ups
    alternatives_.push_back({a, static_cast<size_t>(index), *std::move(selector)});
  }
  std::vector<const rule::FeatureSelector*> selectors;
  for (const Alternative& alt : alternatives_) selectors.push_back(&alt.selector);
  if (!selectors.empty()) alternative_set_ = std::make_unique<rule::SelectorSet>(std::move(selectors));
}

RuleChecker::~RuleChecker() = default;

const schema::CompiledSchema& RuleChecker::schema() const { return rule_.schema(); }

absl::StatusOr<RuleChecker::PageResult> RuleChecker::Check(const html::Page& page, size_t index) const {
  const schema::CompiledSchema& schema = rule_.schema();
  if (rule_.record_level()) {
    // A list page: at least one record, and each regular attribute in more
    // than half of them (AMBER's Theta_infer for regular attributes).
    absl::StatusOr<extract::ListResult> list = rule_.ApplyRecords(page);
    if (!list.ok()) return list.status();
    PageResult out;
    out.has_value.assign(schema.size(), false);
    if (list->records.empty()) {
      out.issues.push_back({index, "__record", "no record"});
      return out;
    }
    std::vector<size_t> with(schema.size(), 0);
    for (const extract::ListRecordResult& r : list->records) {
      for (size_t i = 0; i < r.attributes.size() && i < schema.size(); ++i) with[i] += !r.attributes[i].values.empty();
    }
    for (size_t i = 0; i < schema.size(); ++i) {
      out.has_value[i] = with[i] > 0;
      if (schema.IsRegular(i) && 2 * with[i] <= list->records.size()) {
        out.issues.push_back({index, schema.attribute(i).name(),
                              absl::StrCat("in ", with[i], " of ", list->records.size(), " records")});
      }
    }
    return out;
  }
  absl::StatusOr<std::vector<extract::AttributeResult>> results = rule_.Apply(page);
  if (!results.ok()) return results.status();
  PageResult out;
  out.has_value.assign(schema.size(), false);
  for (size_t i = 0; i < results->size(); ++i) {
    const extract::AttributeResult& r = (*results)[i];
    const v1::AttributeSchema& attr = schema.attribute(i);
    out.has_value[i] = !r.values.empty();
    if (attr.mandatory() && r.values.empty()) {
      out.issues.push_back({index, r.attribute, "missing"});
    } else if (!attr.multi_valued() && r.winners > 1) {
      out.issues.push_back({index, r.attribute, absl::StrCat("ambiguous: ", r.winners, " candidates")});
    }
  }
  // Every alternative's nodes in one walk of the page (rule::SelectorSet,
  // indexed once per checker): a walk per alternative was most of the
  // check's cost with many attributes (17 on the demo's product pages).
  const std::vector<std::vector<html::Node>> selected =
      alternative_set_ ? alternative_set_->SelectAll(page) : std::vector<std::vector<html::Node>>{};
  for (size_t a = 0; a < alternatives_.size(); ++a) {
    const Alternative& alt = alternatives_[a];
    const extract::AttributeResult& r = (*results)[alt.schema_index];
    const std::string mine = r.values.empty() ? "" : html::FoldText(r.values[0]);
    const std::string other = AlternativeValue(alt.rule, selected[a], alt.schema_index, schema, page);
    if (!other.empty() && other != mine) {
      out.issues.push_back({index, r.attribute, "disagreement: " + alt.rule.xpath() + " gives \"" + other + "\""});
    }
  }
  return out;
}

void RuleChecker::Add(const PageResult& result, size_t index, EditorVerdict* verdict) {
  if (verdict->extracted.size() < result.has_value.size()) verdict->extracted.resize(result.has_value.size(), 0);
  for (size_t i = 0; i < result.has_value.size(); ++i) verdict->extracted[i] += result.has_value[i];
  ++verdict->pages_checked;
  if (!result.issues.empty()) {
    ++verdict->pages_failing;
    if (!verdict->next_page) verdict->next_page = index;
  }
  verdict->issues.insert(verdict->issues.end(), result.issues.begin(), result.issues.end());
  verdict->done = verdict->pages_failing == 0;
}

absl::StatusOr<EditorVerdict> CheckRule(const extract::CompiledRule& rule,
                                        const std::vector<const html::Page*>& remaining,
                                        const std::vector<v1::AttributeRule>& alternatives) {
  EditorVerdict v;
  v.done = true;
  v.extracted.assign(rule.schema().size(), 0);
  const RuleChecker checker(rule, alternatives);
  for (size_t p = 0; p < remaining.size(); ++p) {
    absl::StatusOr<RuleChecker::PageResult> r = checker.Check(*remaining[p], p);
    if (!r.ok()) return r.status();
    RuleChecker::Add(*r, p, &v);
  }
  return v;
}

}  // namespace vertex::workflow
