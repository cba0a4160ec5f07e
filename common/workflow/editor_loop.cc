#include "common/workflow/editor_loop.h"

#include "absl/strings/str_cat.h"
#include "common/html/text.h"
#include "common/learn/feature_selector.h"
#include "common/learn/value.h"

namespace vertex::workflow {
namespace {

struct Alternative {
  const v1::AttributeRule* rule;
  size_t schema_index;
  learn::FeatureSelector selector;
};

std::vector<Alternative> CompileAlternatives(const schema::CompiledSchema& schema,
                                             const std::vector<v1::AttributeRule>& alternatives) {
  std::vector<Alternative> out;
  for (const v1::AttributeRule& a : alternatives) {
    const int index = schema.Find(a.attribute());
    absl::StatusOr<learn::FeatureSelector> selector = learn::FeatureSelector::Create(a);
    if (index < 0 || a.multi_valued() || !selector.ok()) continue;  // only single-valued runner-ups
    out.push_back({&a, static_cast<size_t>(index), *std::move(selector)});
  }
  return out;
}

// The first value an alternative gives on `page`, folded; "" when none.
std::string AlternativeValue(const Alternative& alt, const schema::CompiledSchema& schema, const html::Page& page) {
  for (html::Node n : alt.selector.Select(page)) {
    if (!learn::IsValueCandidate(n)) continue;
    std::optional<std::string> v = learn::NodeValue(n, *alt.rule, schema, alt.schema_index);
    if (v) return html::FoldText(*v);
  }
  return "";
}

}  // namespace

absl::StatusOr<EditorVerdict> CheckRule(const extract::CompiledRule& rule,
                                        const std::vector<const html::Page*>& remaining,
                                        const std::vector<v1::AttributeRule>& alternatives) {
  EditorVerdict v;
  const schema::CompiledSchema& schema = rule.schema();
  const std::vector<Alternative> alts = CompileAlternatives(schema, alternatives);
  for (size_t p = 0; p < remaining.size(); ++p) {
    absl::StatusOr<std::vector<extract::AttributeResult>> results = rule.Apply(*remaining[p]);
    if (!results.ok()) return results.status();
    const size_t before = v.issues.size();
    for (size_t i = 0; i < results->size(); ++i) {
      const extract::AttributeResult& r = (*results)[i];
      const v1::AttributeSchema& attr = schema.attribute(i);
      if (attr.mandatory() && r.values.empty()) {
        v.issues.push_back({p, r.attribute, "missing"});
      } else if (!attr.multi_valued() && r.winners > 1) {
        v.issues.push_back({p, r.attribute, absl::StrCat("ambiguous: ", r.winners, " candidates")});
      }
    }
    for (const Alternative& alt : alts) {
      const extract::AttributeResult& r = (*results)[alt.schema_index];
      const std::string mine = r.values.empty() ? "" : html::FoldText(r.values[0]);
      const std::string other = AlternativeValue(alt, schema, *remaining[p]);
      if (!other.empty() && other != mine) {
        v.issues.push_back({p, r.attribute, "disagreement: " + alt.rule->xpath() + " gives \"" + other + "\""});
      }
    }
    if (v.issues.size() > before) {
      ++v.pages_failing;
      if (!v.next_page) v.next_page = p;
    }
  }
  v.done = v.pages_failing == 0;
  return v;
}

}  // namespace vertex::workflow
