// Learning a cluster's extraction rule from annotated sample pages (Vertex
// paper, III-C): for every schema attribute with annotations,
//  1. the annotated nodes: a text value is resolved to its text node(s) by
//     consistency across the annotated pages (annotation.h); an XPath
//     annotation selects its nodes directly; an annotation with neither
//     says the attribute is absent from that page (every node the rule
//     would select there counts against its precision);
//  2. Algorithm 3 (xpath_learner.h) over the annotated and unannotated
//     sample pages; if the best XPath is not precise and the attribute is
//     single-valued, a positional predicate — (X)[i], (X)[last()-j] or a
//     position on the last step — when one selects exactly the annotated
//     nodes; else the XPath becomes the rXPath and a Naive Bayes classifier
//     (classifier_trainer.h) trained on its nodes of the annotated pages picks the
//     value node;
//  3. for a multi-valued attribute whose values share a text, the split
//     (split_learner.h); the range pruner (range_learner.h) on the annotated
//     values (on a list, the stretch from its first value to its last), in
//     words, in characters, or the typed regex's match nearest a learnt
//     offset, or the schema's typed regex alone: the first with which the
//     rule reproduces every annotated value.
// Each attribute gets a diagnostic saying what was learnt or why nothing
// could be (value not found, no XPath with recall 1, ambiguous, classifier
// below threshold, inconsistent range, value mismatch).
//
// Thread-safety: pure function of its inputs; the Pages must outlive it.
#ifndef VERTEX_COMMON_LEARN_RULE_LEARNER_H_
#define VERTEX_COMMON_LEARN_RULE_LEARNER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/learn/classifier_trainer.h"
#include "common/rule/classifier.h"
#include "common/learn/xpath_learner.h"
#include "common/schema/schema.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::learn {

// What an editor said about one attribute on one page: its value(s) as
// text, or the XPath of its node(s), or (neither) that the page has none.
// Values with an XPath: the values are looked for only inside the XPath's
// nodes (annotation.h `scope`): the occurrence an editor clicked, e.g. a
// title in the <h1> rather than in a review link; a part of a node's text
// gives a range as a value without XPath does.
struct AttributeAnnotation {
  size_t page = 0;  // index into RuleLearnInput::pages
  std::string attribute;
  std::vector<std::string> values;
  std::string xpath;
  // Record-level schemas: the record (1, 2, ... in page order) the value
  // belongs to; 0 for detail pages.
  uint32_t record = 0;
  // A partial list label (issue 14): `values` are the first K values of the
  // page's list, in page order. On that page only the nodes up to the K-th
  // value's node (document order) are judged: a selected node after it is
  // neither right nor wrong, an unlabelled one before it is wrong. Only for
  // multi-valued attributes and text values (not `xpath`, not `record`).
  // K = 1 is accepted and documented as weak: one value judges only what
  // precedes it and shows no container for the list (xpath_learner.h
  // criterion 4 needs two), so the nearest precise rule wins as for a
  // single value — often a label anchor giving the first item only — and a
  // list sharing one text shows no separator (its values stay joined).
  bool partial = false;
};

struct RuleLearnInput {
  // The cluster's sample pages, annotated or not.
  std::vector<const html::Page*> pages;
  std::vector<AttributeAnnotation> annotations;
};

struct RuleLearnOptions {
  XPathLearnOptions xpath;
  ClassifierOptions classifier;
  // Positions tried by the positional predicate.
  int max_position = 30;
  // The learnt XPath is evaluated by libxml2 and compared with the native
  // evaluation on the annotated pages and this many unannotated ones.
  size_t libxml2_check_pages = 3;
  // Threads learning attributes at once (each attribute is learnt alone;
  // the result is the same for any count); 0: one per core.
  int threads = 0;
};

enum class DiagnosticCode {
  kLearnt,              // a precise XPath (possibly positional)
  kLearntClassifier,    // an rXPath and a classifier
  kAmbiguous,           // learnt, but selects several nodes on some unannotated pages
  kNotAnnotated,        // no annotation for the attribute
  kValueNotFound,       // an annotated value occurs nowhere on its page
  kXPathSelectsNothing, // an XPath annotation selects no node
  kNoRecallOneXPath,    // no XPath selects every annotated node
  kClassifierBelowThreshold,  // the classifier does not pick the annotated nodes
  kRangeInconsistent,   // no range (words or characters) or split fits the values in their texts
  kValueMismatch,       // the rule does not reproduce an annotated value
};

// "learnt", "learnt_classifier", "ambiguous", "not_annotated", ...
const char* DiagnosticCodeName(DiagnosticCode code);

struct AttributeDiagnostic {
  std::string attribute;
  DiagnosticCode code = DiagnosticCode::kNotAnnotated;
  // Whether the rule has a part for the attribute.
  bool learnt = false;
  std::string message;
  // URLs of the pages concerned (where a value was not found, ...).
  std::vector<std::string> pages;
  // Algorithm 3 cut a level at its candidate cap.
  bool cap_hit = false;
  size_t sets_evaluated = 0;
};

struct RuleLearnResult {
  // The learnt attributes, in schema order; site, cluster, signature, URL
  // regex and version are left to the caller.
  v1::Rule rule;
  // One per schema attribute, in schema order.
  std::vector<AttributeDiagnostic> diagnostics;
  // Runner-up precise XPaths of the learnt XPATH attributes (several per
  // attribute possible), as attribute rules with the same value selection:
  // the editor loop asks for a page where one of them disagrees with the
  // rule. Not part of the rule.
  std::vector<v1::AttributeRule> alternatives;
};

// Limits on what one LearnRule call is given (each annotated value is
// searched for in every node's text of its page, so values and their sizes
// multiply the learner's work): annotations in all, values of one
// annotation, and bytes of one value.
inline constexpr size_t kMaxAnnotations = 10000;
inline constexpr size_t kMaxValuesPerAnnotation = 1000;
inline constexpr size_t kMaxAnnotatedValueBytes = 64 * 1024;

// InvalidArgument, naming the limit, for more than kMaxAnnotations
// annotations; naming the annotation by index, for: more than
// kMaxValuesPerAnnotation values or a value longer than
// kMaxAnnotatedValueBytes, a page index out of range, an attribute not in the schema (the message lists the schema's),
// several values for a
// single-valued attribute, two annotations of one attribute on one page, an
// XPath that does not compile or evaluates to no node-set, `partial` on a
// single-valued attribute or without values or with a record, and (naming
// the page and attribute) the values of a partial annotation not in page
// order.
absl::StatusOr<RuleLearnResult> LearnRule(const schema::CompiledSchema& schema, const RuleLearnInput& input,
                                          const RuleLearnOptions& options = {});

}  // namespace vertex::learn

#endif  // VERTEX_COMMON_LEARN_RULE_LEARNER_H_
