// A learnt rule (v1::Rule) compiled for extraction: its XPaths compiled,
// its classifiers ready, its value selection (range pruner, then the
// schema's typed regex) bound to the schema. Applying it to a parsed page of
// its cluster gives each attribute's values with the method and a score.
//
// An attribute rule learnt by Vertex carries the features its XPath was
// rendered from; they are evaluated natively (learn/feature_selector.h),
// which selects the same nodes as libxml2 would with the XPath, much faster.
// Rules given only as an XPath are evaluated by libxml2.
//
// Per attribute:
//   XPATH       the XPath's nodes (blank text and text inside script/style
//               /noscript skipped) are the value nodes; single-valued
//               attributes take the first, with score 1/n for n nodes.
//   CLASSIFIER  the XPath's nodes are candidates; the Naive Bayes classifier
//               picks the one with the highest P(+) > 0.5 (every one above
//               0.5 when multi-valued); the score is the winner's P(+).
// Then a node's value is its whitespace-normalised text, cut by the rule's
// TextRange if any, then selected and validated by the attribute's regex
// (schema SelectValue). A node whose text yields no valid value gives none.
//
// Thread-safety: immutable after Create(); Apply() may be called from many
// threads at once.
#ifndef VERTEX_COMMON_EXTRACT_COMPILED_RULE_H_
#define VERTEX_COMMON_EXTRACT_COMPILED_RULE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/shingle/shingle.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::extract {

struct AttributeResult {
  std::string attribute;
  // Empty when the attribute was not found (or the rule has no part for it).
  std::vector<std::string> values;
  v1::AttributeRule::Method method = v1::AttributeRule::METHOD_UNSPECIFIED;
  // XPATH: 1/n for n nodes (1 when unambiguous); CLASSIFIER: the lowest
  // P(+) among the winners; 0 when nothing was found.
  double score = 0;
  // Nodes the XPath selected (after skipping blank text), before the
  // classifier and value selection.
  size_t candidates = 0;
  // Candidates above 0.5 (classifier) or value nodes (XPath) before a
  // single-valued attribute kept one: > 1 means ambiguous.
  size_t winners = 0;
};

// Why `results` (the output of `rule` on a page its signature does not
// cover) cannot be the page's record; "" when it can: every mandatory
// attribute and every attribute the rule always extracted on its sample
// (Rule.always_extracted) has a value, and every value of an attribute with
// a value regex without capturing group (a type's or the schema's) matches
// it (a regex with a group yields the group, which need not match the
// whole regex again). E.g. "title
// missing", "price \"n/a\" is not a price". Names the first failure.
class CompiledRule;
std::string NearestMatchFailure(const CompiledRule& rule, const std::vector<AttributeResult>& results);

// "xpath", "classifier", or "none" (unspecified): how records name methods.
const char* MethodName(v1::AttributeRule::Method method);

class CompiledRule {
 public:
  // Compiles `rule` for `schema`'s attributes. InvalidArgument naming the
  // attribute when it is not in the schema, its XPath does not compile, or
  // its classifier's tests do not; the rule's signature must parse when
  // non-empty, and each of its extra_signatures must parse (InvalidArgument
  // naming the cluster and the text).
  static absl::StatusOr<CompiledRule> Create(const v1::Rule& rule, const schema::CompiledSchema& schema);

  CompiledRule(CompiledRule&&) noexcept;
  CompiledRule& operator=(CompiledRule&&) noexcept;
  ~CompiledRule();

  // One result per schema attribute, in schema order (empty values for the
  // attributes the rule has no part for). Errors only from libxml2 failing
  // to evaluate (Internal).
  absl::StatusOr<std::vector<AttributeResult>> Apply(const html::Page& page) const;

  const v1::Rule& proto() const;
  const schema::CompiledSchema& schema() const;
  // The rule's masked signature; all-wildcard when the rule has none.
  const shingle::MaskedVector& signature() const;
  // signature(), then Rule.extra_signatures (the signatures of clusters
  // merged into this one) in their order: never empty.
  const std::vector<shingle::MaskedVector>& signatures() const;
  // The first of signatures() that covers `v`; null when none does.
  const shingle::MaskedVector* CoveringSignature(const shingle::ShingleVector& v) const;
  // The most kept bytes any of signatures() agrees with `v` in
  // (MaskedVector::Agreement): how near a page none covers is to the rule.
  int Agreement(const shingle::ShingleVector& v) const;

 private:
  struct State;
  explicit CompiledRule(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace vertex::extract

#endif  // VERTEX_COMMON_EXTRACT_COMPILED_RULE_H_
