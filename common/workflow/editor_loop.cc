#include "common/workflow/editor_loop.h"

#include "absl/strings/str_cat.h"

namespace vertex::workflow {

absl::StatusOr<EditorVerdict> CheckRule(const extract::CompiledRule& rule,
                                        const std::vector<const html::Page*>& remaining) {
  EditorVerdict v;
  const schema::CompiledSchema& schema = rule.schema();
  for (size_t p = 0; p < remaining.size(); ++p) {
    absl::StatusOr<std::vector<extract::AttributeResult>> results = rule.Apply(*remaining[p]);
    if (!results.ok()) return results.status();
    bool failing = false;
    for (size_t i = 0; i < results->size(); ++i) {
      const extract::AttributeResult& r = (*results)[i];
      const v1::AttributeSchema& attr = schema.attribute(i);
      if (attr.mandatory() && r.values.empty()) {
        v.issues.push_back({p, r.attribute, "missing"});
        failing = true;
      } else if (!attr.multi_valued() && r.winners > 1) {
        v.issues.push_back({p, r.attribute, absl::StrCat("ambiguous: ", r.winners, " candidates")});
        failing = true;
      }
    }
    if (failing) {
      ++v.pages_failing;
      if (!v.next_page) v.next_page = p;
    }
  }
  v.done = v.pages_failing == 0;
  return v;
}

}  // namespace vertex::workflow
