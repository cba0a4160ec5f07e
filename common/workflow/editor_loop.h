// The editor loop (Vertex paper, III-B, with Algorithm 2's order): after
// each annotated page, is the rule learnt so far good enough, or which page
// should the editor annotate next?
//
// The rule is applied to every sample page not annotated yet, in Algorithm
// 2 order. A page fails when a mandatory attribute yields no value, or when
// an attribute the rule has a part for is ambiguous on it (a single-valued
// attribute with several candidate value nodes, or several classifier
// winners), or — beyond the paper — when a runner-up precise XPath of an
// attribute (learn::RuleLearnResult::alternatives) yields another value
// there: the annotated pages fit two structures that disagree on this page,
// so annotating it tells which one holds the value (query by committee).
// The loop is done when no page fails; otherwise the next page to annotate
// is the first failing one.
//
// Thread-safety: pure function; the Pages must outlive the call.
#ifndef VERTEX_COMMON_WORKFLOW_EDITOR_LOOP_H_
#define VERTEX_COMMON_WORKFLOW_EDITOR_LOOP_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"

namespace vertex::rule {
class SelectorSet;
}  // namespace vertex::rule

namespace vertex::workflow {

struct PageIssue {
  size_t page = 0;  // index into the pages checked
  std::string attribute;
  // "missing" or "ambiguous: N candidates".
  std::string problem;
};

struct EditorVerdict {
  bool done = false;
  // Index into the pages checked of the first failing page; nullopt when done.
  std::optional<size_t> next_page;
  size_t pages_failing = 0;
  // Every problem found, page by page.
  std::vector<PageIssue> issues;
  size_t pages_checked = 0;
  // Per schema attribute, the pages checked where the rule gave a value.
  std::vector<size_t> extracted;
};

// The editor loop's test of one rule, one page at a time: for pages too
// many to hold parsed at once, and for several threads (Check is const and
// thread-safe).
class RuleChecker {
 public:
  // `rule` must outlive the checker.
  RuleChecker(const extract::CompiledRule& rule, const std::vector<v1::AttributeRule>& alternatives);
  ~RuleChecker();
  RuleChecker(const RuleChecker&) = delete;
  RuleChecker& operator=(const RuleChecker&) = delete;

  struct PageResult {
    std::vector<PageIssue> issues;  // page = the index given
    std::vector<bool> has_value;    // per schema attribute
  };
  // The problems of `page`. Errors only from rule evaluation (Internal).
  absl::StatusOr<PageResult> Check(const html::Page& page, size_t index) const;

  const schema::CompiledSchema& schema() const;
  const extract::CompiledRule& rule() const { return rule_; }

  // Adds one page's result (pages in order) to `verdict`.
  static void Add(const PageResult& result, size_t index, EditorVerdict* verdict);

 private:
  struct Alternative;
  const extract::CompiledRule& rule_;
  std::vector<Alternative> alternatives_;
  // The alternatives' selectors, evaluated together in one walk of a page.
  std::unique_ptr<rule::SelectorSet> alternative_set_;
};

// Checks `rule` on `remaining` (the sample pages not annotated yet, in
// Algorithm 2 order). With no remaining page the loop is done. Errors only
// from rule evaluation (Internal).
absl::StatusOr<EditorVerdict> CheckRule(const extract::CompiledRule& rule,
                                        const std::vector<const html::Page*>& remaining,
                                        const std::vector<v1::AttributeRule>& alternatives = {});

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_EDITOR_LOOP_H_
